"""``balance compare``: the pairs are real pairs (per-game differences on the same
seeds), pairing narrows the interval, A against A is exactly zero; the game feel
under both sides with its unpaired difference; the command line writes HTML,
JSON and Markdown and refuses every bad input in one line."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from balance.cli import main
from balance.check.metrics import FEEL_MEANS, FEEL_PROPORTIONS, Metric
from balance.paired import PairedAggregate, unpaired_difference, unpaired_proportion
from balance.rulecompare import FEEL_ORDER, compare, feel_rows, paired_rows
from balance.runner import Task
from balance.runspec import RunSpec
from balance.stats import holm_adjust, mean_difference, newcombe, paired_difference, two_proportion_p_value

GAMES = 4000


@pytest.fixture(scope="module")
def bonus(dicerace):
    """Dice Race at its defaults (A) against a first-turn bonus of 2 for seat 0 (B)."""
    return compare(game="dicerace", params={"first_bonus": 2}, games=GAMES, reps=400)


def test_a_against_a_is_exactly_zero(dicerace):
    r = compare(game="dicerace", params={"first_bonus": 0}, games=2000, reps=200)
    s = r.sections[0]
    assert r.changed_rules == {}
    assert s.games == 2000
    assert not s.paired.a_only.any() and not s.paired.b_only.any()
    for row in s.rows:
        assert row.diff == 0.0, row.name
        assert tuple(row.ci95) == (0.0, 0.0), row.name
        assert not row.changed
    assert "changes no metric clearly" in r.summary(s)[0]
    # the game feel is unpaired: no difference, but an interval as wide as two independent samples give
    assert s.feel
    for row in s.feel:
        assert row.diff == 0.0 and row.p_value == 1.0 and not row.changed, row.name
        assert row.ci95[0] < 0.0 < row.ci95[1], row.name
    assert not any("Game feel" in x for x in r.summary(s))


def _per_game(spec, params, n):
    run = RunSpec("dicerace", params=tuple(params.items()), games=n).resolved()
    return spec.simulate(run.rules, list(run.strategies), run.seatings, 0, 0, n, run.board)


def test_the_difference_is_the_mean_of_per_game_differences(dicerace, bonus):
    """Played again game by game: the seat's paired difference and its interval are
    those of the per-game differences (balance.stats.paired_difference)."""
    a = _per_game(dicerace, {}, GAMES)
    b = _per_game(dicerace, {"first_bonus": 2}, GAMES)
    s = bonus.sections[0]
    for seat in (0, 1):
        row = s.row(f"seat_win_rate[{seat}]")
        ref = paired_difference(b.winner == seat, a.winner == seat)
        assert row.diff == pytest.approx(ref.mean, abs=1e-12)
        assert row.ci95 == pytest.approx((ref.low, ref.high), abs=1e-12)
    row = s.row("turns_mean")
    ref = paired_difference(b.turns, a.turns)
    assert row.ci95 == pytest.approx((ref.low, ref.high), rel=1e-9)
    # Most games are the same deal under both rules: the pairs are correlated.
    assert np.mean(a.winner == b.winner) > 0.5


def test_pairing_narrows_the_interval(bonus):
    s = bonus.sections[0]
    row = s.row("seat_win_rate[0]")
    _, lo, hi = unpaired_proportion(row.a.to_dict(), row.b.to_dict())
    paired = row.ci95[1] - row.ci95[0]
    assert paired < 0.9 * (hi - lo), (paired, hi - lo)
    mean = s.row("turns_mean")
    counts = [s.paired.a.turns_hist, s.paired.b.turns_hist]
    _, ulo, uhi, _ = mean_difference(*counts)
    assert mean.ci95[1] - mean.ci95[0] < uhi - ulo
    assert row.changed and row.diff > 0  # a head start helps seat 0
    assert bonus.summary(s)[0].startswith("With plain, plain (4,000 pairs of games on the same seeds), B moves seat 0 from")


def test_holm_over_the_family(bonus):
    rows = [r for r in bonus.sections[0].rows if r.tested]
    assert [r.p_adjusted for r in rows] == pytest.approx(holm_adjust([r.p_value for r in rows]))
    names = [r.name for r in rows]
    assert names[:2] == ["seat_win_rate[0]", "seat_win_rate[1]"]
    assert {"no_winner_rate", "turns_mean", "turns_median", "turns_p90"} <= set(names)


def test_chunks_do_not_change_a_number(dicerace):
    a = RunSpec("dicerace", games=3000).validate()
    b = a.with_params({**dict(a.params), "first_bonus": 3})
    from balance.runner import run_task

    whole = run_task(Task(a, 0, 3000, versus=b))
    parts = run_task(Task(a, 0, 1000, versus=b)).merge(run_task(Task(a, 1000, 2000, versus=b)))
    assert isinstance(whole, PairedAggregate)
    assert whole.to_dict() == parts.to_dict()
    labels = ["plain"]
    r1 = paired_rows(whole, labels, ["target", "turn_limit"], reps=100)
    r2 = paired_rows(parts, labels, ["target", "turn_limit"], reps=100)
    assert [x.to_dict() for x in r1] == [x.to_dict() for x in r2]


def test_minutes_are_turns_times_the_table_time(dicerace):
    r = compare(game="dicerace", params={"first_bonus": 2}, games=1000, seconds_per_turn=30, reps=100)
    s = r.sections[0]
    turns, minutes = s.row("turns_mean"), s.row("minutes_mean")
    assert minutes.diff == pytest.approx(turns.diff / 2)
    assert minutes.a.value == pytest.approx(turns.a.value / 2)
    assert minutes.ci95 == pytest.approx(tuple(x / 2 for x in turns.ci95))
    assert not minutes.tested and len([x for x in s.rows if x.tested]) == len([x for x in s.rows if x.name.startswith(("seat", "no_", "end", "turns"))])


def test_several_player_lists(dicerace):
    r = compare(game="dicerace", params={"first_bonus": 1}, games=1000, players=["plain,plain", "plain,cautious"], reps=100)
    assert [s.players for s in r.sections] == [["plain", "plain"], ["plain", "cautious"]]


def test_precision_plays_rounds_until_the_paired_intervals_are_narrow(dicerace):
    r = compare(game="dicerace", params={"first_bonus": 2}, precision=2.0, reps=100)
    s = r.sections[0]
    assert s.rounds.reached and s.rounds.games[-1] == s.games
    for seat in (0, 1):
        lo, hi = s.row(f"seat_win_rate[{seat}]").ci95
        assert (hi - lo) / 2 <= 0.02 + 1e-12
    again = compare(game="dicerace", params={"first_bonus": 2}, precision=2.0, reps=100)
    assert again.sections[0].paired.to_dict() == s.paired.to_dict()


# --------------------------------------------------------------------------- the command line
def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture()
def files(dicerace, tmp_path, monkeypatch):
    from balance.registry import get_game, register
    from tests.toygame import DiceRace

    class CompareOtherRace(DiceRace):
        name = "compareotherrace"

    try:
        register(CompareOtherRace())
    except ValueError:
        pass
    get_game("compareotherrace")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "A.toml").write_text('[game]\nname = "dicerace"\n')
    (tmp_path / "B.toml").write_text('[game]\nname = "dicerace"\n\n[params]\nfirst_bonus = 2\n')
    (tmp_path / "O.toml").write_text('[game]\nname = "compareotherrace"\n')
    (tmp_path / "P.toml").write_text('[game]\nname = "dicerace"\nplayers = ["plain", "cautious"]\n')
    return tmp_path


def test_cli_writes_html_json_and_markdown(files, capsys):
    code, out, err = call(capsys, "compare", "A.toml", "B.toml", "-n", "2000", "--report", "out/c.html")
    assert code == 0, err
    assert "B moves seat 0 from" in out and "first_bonus 0 → 2" in out
    page = (files / "out" / "c.html").read_text()
    assert "B against A" in page and page.count("<svg") >= 4 and 'id="metrics-0"' in page
    data = json.loads((files / "out" / "c.json").read_text())
    seat = next(m for m in data["comparisons"][0]["metrics"] if m["metric"] == "seat_win_rate[0]")
    assert seat["changed"] and seat["ci95"][0] > 0 and seat["a"]["n"] == 2000
    md = (files / "out" / "c.md").read_text()
    assert "| seat_win_rate[0] |" in md and "Holm" in md


def test_cli_param_against_the_defaults_json(files, capsys):
    code, out, _ = call(capsys, "compare", "--game", "dicerace", "--param", "first_bonus=1", "-n", "500", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["changed_rules"] == {"first_bonus": {"a": 0, "b": 1}}
    assert data["comparisons"][0]["games"] == 500


@pytest.mark.parametrize(
    "argv, says",
    [
        (["A.toml", "O.toml"], "compare rules of one game"),
        (["A.toml"], "compare needs B"),
        (["A.toml", "--param", "nope=1"], "unknown parameter 'nope'"),
        (["A.toml", "--param", "first_bonus=-1"], "first_bonus"),
        (["A.toml", "B.toml", "--param", "first_bonus=1"], "--param with two rule files"),
        (["A.toml", "P.toml"], "compare rules with the same players"),
        (["A.toml", "B.toml", "C.toml"], "at most two rule files"),
        (["missing.toml", "B.toml"], "missing.toml: no such file"),
        (["A.toml", "B.toml", "--report", "c.txt"], "ending in .html"),
        (["A.toml", "B.toml", "--png", "c.svg"], "ending in .png"),
        (["A.toml", "B.toml", "--precision", "0"], "--precision 0"),
        (["A.toml", "B.toml", "--max-games", "100"], "--max-games goes with --precision"),
        (["A.toml", "B.toml", "--seconds-per-turn", "-3"], "--seconds-per-turn"),
        (["A.toml", "B.toml", "--players", "plain,nosuch"], "unknown player 'nosuch'"),
        (["A.toml", "B.toml", "--game", "compareotherrace"], "is for 'dicerace'"),
    ],
)
def test_cli_mistakes_are_one_line(files, capsys, argv, says):
    code, out, err = call(capsys, "compare", *argv, *([] if "--precision" in argv else ["-n", "100"]))
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert says in err, err
    assert not (files / "c.html").exists()


def test_cli_games_with_precision_refused(files, capsys):
    code, _, err = call(capsys, "compare", "A.toml", "B.toml", "-n", "100", "--precision", "1")
    assert code == 2 and "choose one" in err


@pytest.mark.parametrize("width", [60, 120])
def test_cli_fits_the_terminal(files, capsys, monkeypatch, width):
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = call(capsys, "compare", "A.toml", "B.toml", "-n", "500", "--seconds-per-turn", "30")
    assert code == 0, err
    assert "…" not in out
    assert all(cell_len(line) <= width for line in out.splitlines()), max(out.splitlines(), key=cell_len)
    assert "minutes_mean" in out


def test_the_page_draws_every_difference_with_its_interval_and_png_writes_it(files, capsys):
    """The picture of what B changes: one marker with its error bar and its hover text
    per tested metric, and the PNG of the same figure."""
    import re

    code, out, err = call(capsys, "compare", "A.toml", "B.toml", "-n", "2000", "--report", "d.html", "--png", "d.png")
    assert code == 0, err
    assert (files / "d.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "picture: d.png" in out
    page = (files / "d.html").read_text()
    data = json.loads((files / "d.json").read_text())
    tested = [m for m in data["comparisons"][0]["metrics"] if m["in_family"]]
    groups = re.findall(r'<g id="d0-s-differences-(points|turns)-\d+">', page)
    tips = re.findall(r"<title>([^<]*B − A[^<]*)</title>", page)
    assert len(tips) == len(tested) and {t.split(":")[0] for t in tips} == {m["metric"] for m in tested}
    assert any(m["changed"] for m in tested) and any(not m["changed"] for m in tested)
    assert "Paired differences B − A with 95% intervals" in page and len(groups) == len(tested)



# --------------------------------------------------------------------------- game feel (unpaired)
def test_unpaired_difference_by_hand():
    """Newcombe (1998), Table II example (a): 56/70 against 48/80, method 10 gives
    0.0524 to 0.3339; written out here from the two Wilson intervals. A mean: the
    standard errors read back from the 95% intervals, added in quadrature."""
    z = 1.959963984540054

    def wilson_by_hand(k, n):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    a = Metric("lead_at_half_wins", "proportion", 48 / 80, wilson_by_hand(48, 80), 80, 48)
    b = Metric("lead_at_half_wins", "proportion", 56 / 70, wilson_by_hand(56, 70), 70, 56)
    d = unpaired_difference(a, b)  # B − A
    (l1, u1), (l2, u2) = a.ci95, b.ci95
    assert d.diff == pytest.approx(0.2)
    assert d.low == pytest.approx(0.2 - math.sqrt((0.8 - l2) ** 2 + (u1 - 0.6) ** 2), abs=1e-12)
    assert d.high == pytest.approx(0.2 + math.sqrt((u2 - 0.8) ** 2 + (0.6 - l1) ** 2), abs=1e-12)
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)
    pooled = 104 / 150
    zstat = 0.2 / math.sqrt(pooled * (1 - pooled) * (1 / 80 + 1 / 70))
    assert d.p_value == pytest.approx(math.erfc(zstat / math.sqrt(2)), rel=1e-12)
    # A mean 2.0 with se 1/z (interval 1 to 3) against 3.5 with se 0.5/z (3 to 4):
    # B − A = 1.5, se = sqrt(1.25)/z, the interval 1.5 ± sqrt(1.25).
    ma = Metric("lead_changes_mean", "mean", 2.0, (1.0, 3.0), 400)
    mb = Metric("lead_changes_mean", "mean", 3.5, (3.0, 4.0), 900)
    d = unpaired_difference(ma, mb)
    assert d.diff == 1.5
    assert (d.low, d.high) == pytest.approx((1.5 - math.sqrt(1.25), 1.5 + math.sqrt(1.25)), abs=1e-9)
    assert d.se == pytest.approx(math.sqrt(1.25) / z)
    assert d.p_value == pytest.approx(math.erfc(1.5 / (math.sqrt(1.25) / z) / math.sqrt(2)), rel=1e-9)


def test_every_game_feel_metric_of_check_has_its_row():
    assert {name for name, _ in FEEL_ORDER} == set(FEEL_PROPORTIONS) | set(FEEL_MEANS)


def test_game_feel_under_a_and_b_with_unpaired_intervals(bonus):
    s = bonus.sections[0]
    names = [r.name for r in s.feel]
    # two seats: no kingmaking estimate, so no row for it
    assert names == ["lead_changes_mean", "decisive_moment_mean", "lead_at_25_wins", "lead_at_half_wins",
                     "lead_at_75_wins", "comeback_rate", "final_margin_mean"]
    counts = {side: getattr(s.paired, side).feel for side in ("a", "b")}
    for row in s.feel:
        assert not row.tested and not row.paired
        for m in (row.a, row.b):
            assert m.n > 0 and m.ci95[0] < m.value < m.ci95[1], row.name
        assert row.diff == pytest.approx(row.b.value - row.a.value, abs=1e-12)
        assert row.ci95[0] < row.diff < row.ci95[1], row.name
    # the counts behind each proportion are the side's own: Newcombe of them
    from balance.feel import AT

    half = s.feel[names.index("lead_at_half_wins")]
    ka, na = int(counts["a"][AT["lead50_wins"]]), int(counts["a"][AT["lead50_games"]])
    kb, nb = int(counts["b"][AT["lead50_wins"]]), int(counts["b"][AT["lead50_games"]])
    assert (half.a.count, half.a.n, half.b.count, half.b.n) == (ka, na, kb, nb)
    assert (half.diff, *half.ci95) == pytest.approx(newcombe(ka, na, kb, nb), abs=1e-12)
    assert half.p_value == pytest.approx(two_proportion_p_value(ka, na, kb, nb))
    assert half.a.n < GAMES  # only the games with a strict leader at half time
    # their own Holm family: the paired family is what it was
    assert [r.p_adjusted for r in s.feel] == pytest.approx(holm_adjust([r.p_value for r in s.feel]))
    assert all(r.changed == (r.p_adjusted <= 0.05) for r in s.feel)
    assert not any(r.name in names for r in s.rows)
    # a seat's head start changes how the lead decides the game, and the summary says so, unpaired
    assert half.changed and half.diff > 0
    first = next(r for r in s.feel if r.changed)
    assert any(x.startswith("Game feel (unpaired intervals") and f"{first.name} from" in x for x in bonus.summary(s))


def test_kingmaking_with_three_seats_and_no_rows_without_a_record(dicerace):
    r = compare(game="dicerace", params={"first_bonus": 2}, games=600, players=["plain,plain,plain"], reps=100)
    s = r.sections[0]
    king = next(x for x in s.feel if x.name == "kingmaking_rate")
    assert king.a.n == king.b.n == 600 and king.ci95[0] <= king.diff <= king.ci95[1]
    assert r.to_dict()["comparisons"][0]["game_feel"]["fair_share"] == pytest.approx(1 / 3)
    # a side without a game-feel record (a GPU run): no game-feel row, and none in the JSON
    empty = replace(s.paired, b=replace(s.paired.b, feel=np.zeros_like(s.paired.b.feel)))
    assert feel_rows(empty, s.strategies, s.end_reasons) == []
    s.feel = []
    assert r.to_dict()["comparisons"][0]["game_feel"] is None


def test_cli_shows_the_game_feel_unpaired_in_text_json_markdown_and_html(files, capsys):
    code, out, err = call(capsys, "compare", "A.toml", "B.toml", "-n", "1000", "--report", "f.html")
    assert code == 0, err
    flat = " ".join(out.split())  # a narrow terminal wraps the title and the notes
    assert "Game feel (who is ahead: win estimate): A and B apart, unpaired 95% intervals" in flat
    assert "These differences are unpaired and conservative" in flat and "lead_at_half_wins" in out
    assert "kingmaking_rate" not in out  # two seats
    data = json.loads((files / "f.json").read_text())
    feel = data["comparisons"][0]["game_feel"]
    assert feel["pairing"].startswith("unpaired") and "conservative" in feel["pairing"]
    assert feel["standing"] == "win estimate" and feel["final_margin_at"] == "last round end"
    rows = {m["metric"]: m for m in feel["metrics"]}
    assert set(rows) == {name for name, _ in FEEL_ORDER} - {"kingmaking_rate"}
    for m in rows.values():
        assert m["interval"] == "unpaired" and not m["in_family"] and m["family"] == "game feel"
        assert m["p_adjusted"] is not None and m["ci95"][0] <= m["difference"] <= m["ci95"][1]
        for side in ("a", "b"):
            assert m[side]["n"] > 0 and m[side]["ci95"][0] <= m[side]["value"] <= m[side]["ci95"][1]
    assert 0 < rows["lead_at_half_wins"]["a"]["n"] < 1000  # only the games with a strict leader at half time
    assert not any(m["metric"] in rows for m in data["comparisons"][0]["metrics"])  # not among the paired
    md = (files / "f.md").read_text()
    assert "### Game feel" in md and "| lead_at_half_wins |" in md and "unpaired and conservative" in md
    page = (files / "f.html").read_text()
    assert 'id="feel-table-0"' in page and "unpaired and conservative" in page
