"""Baselines and checks (balance.check) on the toy game: verdicts, targets, files, and
the false-alarm rate of the whole procedure measured over many independent runs."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np
import pytest

from balance.check import (
    FORMAT,
    Comparison,
    baseline,
    check,
    compare,
    counts_of,
    load_baseline,
    metrics_of,
    update,
)
from balance.stats import holm_adjust, quantile_difference_ci
from balance.config import Band, CheckSettings, config_from_dict
from balance.errors import UserError


def counts(
    seat_wins, games, turns_hist, no_winner=0, strategies=("plain",), reasons=None
):
    seat_wins = list(seat_wins)
    return {
        "games": games,
        "seat_wins": seat_wins,
        "strategies": list(strategies),
        "strategy_wins": [sum(seat_wins)] * len(strategies),
        "strategy_games": [games] * len(strategies),
        "no_winner": no_winner,
        "end_reasons": reasons
        or {"target": games - no_winner, "turn_limit": no_winner},
        "turns_hist": list(turns_hist),
    }


def write_config(folder: Path, text: str) -> Path:
    path = folder / "balance.toml"
    path.write_text(text, encoding="utf-8")
    return path


TOML = """
[game]
name = "dicerace"
players = ["plain", "cautious"]
games = {games}
seed = 3

[params]
first_bonus = {bonus}
"""


# --------------------------------------------------------------------------- statistics
def test_holm_adjust_known_values():
    # Holm: sorted p (0.01, 0.02, 0.03, 0.04) times (4, 3, 2, 1), made monotone.
    assert holm_adjust([0.04, 0.01, 0.03, 0.02]) == pytest.approx(
        [0.06, 0.04, 0.06, 0.06]
    )
    assert holm_adjust([]) == []
    assert holm_adjust([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_metric_names_and_counts():
    m = metrics_of(
        counts([60, 40], 100, [0, 0, 50, 50], strategies=("plain", "cautious"))
    )
    assert list(m) == [
        "seat_win_rate[0]",
        "seat_win_rate[1]",
        "strategy_win_rate[plain]",
        "strategy_win_rate[cautious]",
        "no_winner_rate",
        "end_reason[target]",
        "end_reason[turn_limit]",
        "turns_mean",
        "turns_median",
        "turns_p90",
    ]
    seat0 = m["seat_win_rate[0]"]
    assert (seat0.count, seat0.n, seat0.value) == (60, 100, 0.6)
    assert seat0.ci95[0] < 0.6 < seat0.ci95[1]
    assert m["turns_median"].value == 2 and m["turns_p90"].value == 3
    assert m["turns_mean"].value == pytest.approx(2.5)
    # One distinct player: its win rate duplicates the no-winner rate and is left out.
    assert not any(
        k.startswith("strategy") for k in metrics_of(counts([6, 4], 10, [0, 10]))
    )


def test_identical_counts_pass_with_zero_change():
    c = counts([5200, 4800], 10_000, [0] * 5 + [2000] * 5)
    rows, targets = compare(c, c)
    assert targets == []
    assert all(r.verdict == "ok" and r.diff == 0 for r in rows)


def test_regression_needs_significance_and_size():
    base = counts([5000, 5000], 10_000, [0, 5000, 5000])
    shifted = counts(
        [5600, 4400], 10_000, [0, 5000, 5000]
    )  # +6 points, far beyond noise
    rows = {r.name: r for r in compare(base, shifted)[0]}
    seat0 = rows["seat_win_rate[0]"]
    assert seat0.verdict == "regression" and seat0.diff == pytest.approx(0.06)
    assert seat0.ci95[0] < 0.06 < seat0.ci95[1] and seat0.p_adjusted < 1e-6
    assert "seat_win_rate[0] moved from 50.0% to 56.0% (+6.0 points" in seat0.sentence()
    assert "outside tolerance ±2.0 points" in seat0.sentence()
    # The same shift within a wider tolerance: significant, but passes.
    wide = CheckSettings(tolerance={"seat_win_rate": 0.07})
    rows = {r.name: r for r in compare(base, shifted, wide)[0]}
    assert rows["seat_win_rate[0]"].verdict == "within tolerance"
    # A large shift on few games is not significant: it does not fail, but it does not read "ok" either.
    small_b = counts([5, 5], 10, [0, 5, 5])
    small_n = counts([7, 3], 10, [0, 5, 5])
    rows = {r.name: r for r in compare(small_b, small_n)[0]}
    seat0 = rows["seat_win_rate[0]"]
    assert seat0.verdict == "cannot tell" and not seat0.failed and seat0.diff == pytest.approx(0.2)


def test_game_length_metrics_detect_a_shift():
    base = counts([5000, 5000], 10_000, [0] * 10 + [1000] * 10)  # turns 10..19
    longer = counts([5000, 5000], 10_000, [0] * 14 + [1000] * 10)  # turns 14..23
    rows = {r.name: r for r in compare(base, longer)[0]}
    for name, shift in (("turns_mean", 4.0), ("turns_median", 4), ("turns_p90", 4)):
        assert rows[name].verdict == "regression", name
        assert rows[name].diff == pytest.approx(shift)
        assert rows[name].ci95[0] <= shift <= rows[name].ci95[1]
    assert rows["seat_win_rate[0]"].verdict == "ok"


def test_quantile_bootstrap_interval_is_deterministic_and_covers():
    rng = np.random.default_rng(1)
    h1 = np.bincount(rng.poisson(30, 4000))
    h2 = np.bincount(rng.poisson(32, 4000))
    a = quantile_difference_ci(h1, h2, 0.5)
    assert a == quantile_difference_ci(h1, h2, 0.5)
    assert a[0] <= 2 <= a[1] and a[1] - a[0] <= 3


def test_holm_controls_many_metrics():
    # 4 seats that each moved by a hair: p-values near 0.02 are not significant after Holm.
    base = counts([2500, 2500, 2500, 2500], 10_000, [0, 10_000])
    now = counts([2660, 2450, 2450, 2440], 10_000, [0, 10_000])
    row = {
        r.name: r
        for r in compare(base, now, CheckSettings(tolerance={"seat_win_rate": 0.0}))[0]
    }
    seat0 = row["seat_win_rate[0]"]
    assert seat0.p_value < 0.05 < seat0.p_adjusted
    # Not significant after Holm: no failure; beyond its (zero) tolerance: not "ok" either.
    assert seat0.verdict == "cannot tell" and not seat0.failed


def test_a_move_beyond_tolerance_never_reads_ok():
    """Issue 19, defect 14: a -2.8-point move (95% CI about -4.7 to -0.8) beyond the
    ±2 tolerance, not significant after Holm (adjusted p about 0.09), read "ok"."""
    reasons = {f"r{k}": 5000 // 12 + (1 if k < 5000 % 12 else 0) for k in range(12)}
    base = counts([2500, 2500], 5000, [0, 5000], reasons=reasons)
    now = counts([2360, 2640], 5000, [0, 5000], reasons=reasons)
    rows = {r.name: r for r in compare(base, now)[0]}
    seat0 = rows["seat_win_rate[0]"]
    assert seat0.diff == pytest.approx(-0.028)
    assert seat0.ci95[1] < 0 and seat0.ci95[0] < -0.04 and 0.05 < seat0.p_adjusted < 0.15
    assert seat0.verdict == "cannot tell" and not seat0.failed
    assert "cannot tell" in seat0.sentence() and "beyond tolerance ±2.0 points" in seat0.sentence()
    # What a user reads: the table's verdict column, the text lines and the HTML page.
    from balance.check.commands import BaselineCheck, CheckReport

    r = BaselineCheck("b.json", "toy", 5000, 0, ["plain", "plain"], 0.05, "holm", {}, list(rows.values()), [], 0.1)
    text = CheckReport([r]).to_text()
    line = next(x for x in text.splitlines() if x.startswith("seat_win_rate[0] "))
    assert line.rstrip().endswith("cannot tell (beyond ±2.0 pts, not significant)")
    assert "cannot tell: seat_win_rate[0] moved from 50.0% to 47.2%" in text
    assert "cannot tell" in CheckReport([r]).to_markdown()


def test_a_move_toward_the_target_is_not_a_regression():
    """A significant change beyond tolerance that brings a metric closer to its
    target is labelled so, and passes; the same change away from it fails."""
    base = counts([5800, 4200], 10_000, [0, 10_000])
    fairer = counts([5200, 4800], 10_000, [0, 10_000])
    targets = {"seat_win_rate": Band(0.45, 0.55)}
    rows = {r.name: r for r in compare(base, fairer, None, targets)[0]}
    for seat in (0, 1):
        row = rows[f"seat_win_rate[{seat}]"]
        assert row.p_adjusted < 1e-6 and abs(row.diff) > 0.02
        assert row.verdict == "toward target" and not row.failed, row.sentence()
    assert "toward its target [45.0%, 55.0%]" in rows["seat_win_rate[0]"].sentence()
    back = {r.name: r for r in compare(fairer, base, None, targets)[0]}
    assert back["seat_win_rate[0]"].verdict == "regression"
    # Without a declared target, a seat's win rate in comparable seats (one player in
    # every seat) is read against its fair share 1/seats.
    rows = {r.name: r for r in compare(base, fairer)[0]}
    assert rows["seat_win_rate[0]"].verdict == "toward target"
    assert "toward its target 50.0%" in rows["seat_win_rate[0]"].sentence()
    assert {r.name: r for r in compare(fairer, base)[0]}["seat_win_rate[0]"].verdict == "regression"
    # A length target: the median moving toward [15, 40] from 60 is no regression.
    long = counts([5000, 5000], 10_000, [0] * 60 + [10_000])
    shorter = counts([5000, 5000], 10_000, [0] * 50 + [10_000])
    rows = {r.name: r for r in compare(long, shorter, None, {"turns_median": Band(15, 40)})[0]}
    assert rows["turns_median"].verdict == "toward target" and rows["turns_mean"].verdict == "regression"


def test_player_rates_that_are_seat_rates_do_not_enlarge_the_holm_family():
    """Without seat rotation each player keeps its seat: strategy_win_rate[p] is
    seat_win_rate[s] under another name; it is compared once."""
    def with_seats(c, table):
        return dict(c, seat_player_games=table, strategy_wins=c["seat_wins"])

    base = counts([5000, 5000], 10_000, [0, 10_000], strategies=("plain", "cautious"))
    now = counts([5130, 4870], 10_000, [0, 10_000], strategies=("plain", "cautious"))
    kept = [[10_000, 0], [0, 10_000]]  # plain always in seat 0, cautious in seat 1
    rows = compare(with_seats(base, kept), with_seats(now, kept), CheckSettings(tolerance={"seat_win_rate": 0.0}))[0]
    names = [r.name for r in rows]
    assert not any(n.startswith("strategy_win_rate") for n in names) and len(rows) == 8
    seat0 = next(r for r in rows if r.name == "seat_win_rate[0]")
    holm8 = holm_adjust([r.p_value for r in rows])
    assert seat0.p_adjusted == pytest.approx(holm8[names.index("seat_win_rate[0]")])
    # With the duplicates in (as before), the same move is judged over 10 metrics.
    ten = compare(base, now, CheckSettings(tolerance={"seat_win_rate": 0.0}))[0]
    assert len(ten) == 10 and {r.name: r for r in ten}["seat_win_rate[0]"].p_adjusted > seat0.p_adjusted
    # Seats rotated: a player's rate is its own; kept.
    rotated = [[5000, 5000], [5000, 5000]]
    rows = compare(dict(base, seat_player_games=rotated), dict(now, seat_player_games=rotated))[0]
    assert "strategy_win_rate[plain]" in [r.name for r in rows]


def test_targets_ok_warn_fail():
    c = counts([5800, 4200], 10_000, [0] * 20 + [1000] * 10)
    targets = {
        "seat_win_rate": Band(0.45, 0.55),  # seat 0 at 58%: fail; seat 1 at 42%: fail
        "no_winner_rate": Band(0.0, 0.05),  # 0%: ok
        "turns_median": Band(20, 25),  # 24 with interval reaching 25: ok
        "turns_p90": Band(20, 28),  # 28 with an interval reaching 29: warn
    }
    results = {t.name: t.verdict for t in compare(c, c, None, targets)[1]}
    assert results == {
        "seat_win_rate[0]": "fail",
        "seat_win_rate[1]": "fail",
        "no_winner_rate": "ok",
        "turns_median": "ok",
        "turns_p90": "warn",
    }


# --------------------------------------------------------------------------- on the toy game
def test_unchanged_rules_pass_and_a_rule_change_fails(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path, TOML.format(games=20_000, bonus=0))
    b = baseline()
    assert b.path == Path("reports/baselines/dicerace.json") and b.path.is_file()
    data = json.loads(b.path.read_text())
    assert data["format"] == FORMAT and data["game"] == "dicerace" and data["version"]
    assert data["config"]["params"] == {"first_bonus": 0}
    assert data["config"]["rules"] == {"target": 20, "first_bonus": 0, "max_turns": 400}
    assert (
        data["config"]["seed"],
        data["config"]["games"],
        data["config"]["players"],
    ) == (3, 20_000, ["plain", "cautious"])
    names = [m["name"] for m in data["metrics"]]
    assert "seat_win_rate[0]" in names and "turns_p90" in names
    assert all("ci95" in m and "n" in m for m in data["metrics"])

    same = check()
    assert same.passed and same.exit_code == 0
    assert all(
        c.diff == 0 for c in same.results[0].comparisons
    )  # same seeds, same games

    write_config(tmp_path, TOML.format(games=20_000, bonus=2))
    changed = check()
    assert changed.exit_code == 1
    r = changed.results[0]
    assert r.rules_changed == {"first_bonus": (0, 2)}
    assert "seat_win_rate[0]" in [c.name for c in r.regressions]
    text = changed.to_text()
    assert (
        "REGRESSION: seat_win_rate[0] moved from" in text
        and "first_bonus 0 → 2" in text
    )
    # plain and cautious keep their seats: their rates are the seats', compared once
    names = [c.name for c in r.comparisons]
    assert not any(n.startswith("strategy_win_rate") for n in names)
    assert "compared once: strategy_win_rate[plain] = seat_win_rate[0], strategy_win_rate[cautious] = seat_win_rate[1]" in text
    assert "power: at 20,000 games per side, a seat's win rate moving by less than" in text


def test_without_rule_file_a_baseline_uses_todays_defaults_plus_its_overrides(
    dicerace, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path, TOML.format(games=2000, bonus=1))
    baseline()
    (tmp_path / "balance.toml").unlink()
    report = check()
    assert report.passed and report.results[0].rules_changed == {}
    # A default changed in code shows up as a rule change (and here, a regression).
    monkeypatch.setattr(
        type(dicerace),
        "params",
        tuple(
            p if p.name != "target" else type(p)(**{**p.__dict__, "default": 12})
            for p in dicerace.params
        ),
    )
    report = check()
    assert report.results[0].rules_changed == {"target": (20, 12)}
    assert "turns_mean" in [c.name for c in report.results[0].regressions]


def test_recorded_targets_and_tolerances_are_used(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_config(
        tmp_path,
        TOML.format(games=2000, bonus=0)
        + "\n[targets]\nseat_win_rate = [0.45, 0.55]\nend_reason.target = [0.9, 1.0]\n"
        + "[check]\nalpha = 0.01\n[check.tolerance]\nseat_win_rate = 0.05\n",
    )
    b = baseline()
    assert b.data["targets"] == {
        "seat_win_rate": [0.45, 0.55],
        "end_reason": {"target": [0.9, 1.0]},
    }
    assert (
        b.data["check"]["alpha"] == 0.01
        and b.data["check"]["tolerance"]["seat_win_rate"] == 0.05
    )
    (tmp_path / "balance.toml").unlink()
    report = check()
    r = report.results[0]
    assert r.alpha == 0.01
    assert {t.name for t in r.targets} == {
        "seat_win_rate[0]",
        "seat_win_rate[1]",
        "end_reason[target]",
    }
    # plain against cautious is far from 50/50: the seat target fails.
    assert report.exit_code == 1 and r.failed_targets and not r.regressions


def test_update_rerecords_from_the_recorded_configuration(
    dicerace, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    baseline("dicerace", games=1000, seed=9, players="cautious,plain")
    old = load_baseline("reports/baselines/dicerace.json")
    [new] = update()
    assert new.data["config"] == old.data["config"]
    assert new.data["counts"] == old.data["counts"]  # same code, same games


def test_bad_baselines_are_user_errors(dicerace, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError, match="no baselines in reports/baselines"):
        check()
    with pytest.raises(UserError, match="baseline nope.json: no such file"):
        check(["nope.json"])
    Path("bad.json").write_text("{not json")
    with pytest.raises(UserError, match="baseline bad.json: corrupt, not valid JSON"):
        check(["bad.json"])
    b = baseline("dicerace", games=500)
    data = json.loads(b.path.read_text())
    broken = dict(data, counts={**data["counts"], "seat_wins": [1, 2]})
    Path("sum.json").write_text(json.dumps(broken))
    with pytest.raises(UserError, match="corrupt .*counts do not add up"):
        check(["sum.json"])
    Path("other.json").write_text(json.dumps(dict(data, game="no_such_game")))
    with pytest.raises(UserError, match="unknown game 'no_such_game'"):
        check(["other.json"])
    cfg = config_from_dict({"game": {"name": "dicerace"}})
    cfg.game = "another"
    with pytest.raises(
        UserError, match="is of game 'dicerace', but balance.toml is for 'another'"
    ):
        check([b.path], config=cfg)


# --------------------------------------------------------------------------- false alarms
FALSE_ALARM_REPS = 400
FALSE_ALARM_GAMES = 400
ALPHA = 0.05


def binomial_upper(n: int, p: float, tail: float = 1e-3) -> int:
    """Smallest k with P(Binomial(n, p) > k) <= tail."""
    total = 0.0
    for k in range(n + 1):
        total += math.comb(n, k) * p**k * (1 - p) ** (n - k)
        if 1.0 - total <= tail:
            return k
    return n


@pytest.mark.slow
def test_false_alarm_rate_with_independent_games(dicerace, tmp_path, monkeypatch):
    """Unchanged rules, a different seed (independent games), strict settings (every
    tolerance 0, alpha 0.05): the whole check fails in at most alpha of the runs, and
    each metric's own (uncorrected) test rejects in about alpha of the runs or less.

    Measured when written (400 runs of 400 games, plain against cautious, seats
    rotated): the check failed in 8 of 400 runs (2.0%; the bound allows 35); each
    metric's own test rejected in 17 to 26 of 400 runs (4.3% to 6.5%), and never for
    the two that cannot vary (no winner, turn limit).  Holm's correction over ten
    metrics, several of them redundant (the two seats' rates add up to 1), is
    conservative, hence a family rate below alpha.  With the seven game-feel
    metrics added (17 in all): the check failed in 14 of 400 runs (3.5%), each
    game-feel metric's own test rejected in 11 to 24 of 400 runs.
    """
    monkeypatch.chdir(tmp_path)
    write_config(
        tmp_path,
        TOML.format(games=FALSE_ALARM_GAMES, bonus=0).replace(
            "seed = 3", "seed = 3\nrotate_seats = true"
        )
        + f"\n[check]\nalpha = {ALPHA}\n[check.tolerance]\n"
        + "".join(f"{k} = 0.0\n" for k in CheckSettings().tolerance),
    )
    start = time.perf_counter()
    alarms = 0
    raw: dict[str, int] = {}
    for rep in range(FALSE_ALARM_REPS):
        path = Path(f"b{rep}.json")
        baseline(seed=2 * rep + 1_000, output=path)
        report = check([path], seed=2 * rep + 1_001)
        path.unlink()
        r = report.results[0]
        # ten seat, length and end metrics, then seven of game feel (two seats: no kingmaking)
        assert len(r.comparisons) == 17 and r.seed == 2 * rep + 1_001
        alarms += not report.passed
        for c in r.comparisons:
            raw[c.name] = raw.get(c.name, 0) + (c.p_value <= ALPHA)
    rate = alarms / FALSE_ALARM_REPS
    allowed = binomial_upper(FALSE_ALARM_REPS, ALPHA)
    print(
        f"\nfalse alarms of the check: {alarms}/{FALSE_ALARM_REPS} = {rate:.1%} (alpha {ALPHA:.0%}, allowed {allowed}); "
        f"uncorrected rejections per metric: {raw}; {time.perf_counter() - start:.1f} s"
    )
    assert alarms <= allowed, (
        f"false-alarm rate {rate:.1%} over {FALSE_ALARM_REPS} runs, alpha {ALPHA}"
    )
    for name, k in raw.items():
        assert k <= allowed, (
            f"{name}: uncorrected test rejects in {k}/{FALSE_ALARM_REPS} runs"
        )


def test_small_shift_is_caught_with_enough_games(dicerace, tmp_path, monkeypatch):
    """Power: the toy game's 1-step first-turn bonus moves seat 0 by about 4 points."""
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path, TOML.format(games=20_000, bonus=0))
    baseline()
    write_config(tmp_path, TOML.format(games=20_000, bonus=1))
    r = check().results[0]
    seat0 = {c.name: c for c in r.comparisons}["seat_win_rate[0]"]
    assert 0.02 < seat0.diff < 0.08 and seat0.verdict == "regression"


def test_comparison_for_a_metric_only_on_one_side():
    base = counts([50, 50], 100, [0, 100], reasons={"target": 100})
    now = counts([50, 50], 100, [0, 100], reasons={"target": 90, "gridlock": 10})
    rows = {r.name: r for r in compare(base, now)[0]}
    assert rows["end_reason[gridlock]"].verdict == "not compared"
    assert isinstance(rows["end_reason[gridlock]"], Comparison)
    assert "not in the baseline" in rows["end_reason[gridlock]"].sentence()


def test_counts_of_aggregate(dicerace):
    from balance.api import run

    res = run("dicerace", games=300, players="plain,cautious", seed=1)
    c = counts_of(res.aggregate, res.strategies, res.end_reasons)
    assert c["games"] == 300 and sum(c["seat_wins"]) + c["no_winner"] == 300
    assert sum(c["turns_hist"]) == 300 and c["turns_hist"][-1] > 0
    assert c["strategies"] == ["plain", "cautious"]


def test_api_names():
    import balance

    assert balance.api.check is check and balance.check.check is check
    assert balance.baseline is baseline
    from balance.config import init

    assert balance.init is init


def test_unknown_player_in_a_baseline_stops_before_any_game(
    dicerace, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    good = baseline("dicerace", games=200, output="a.json")
    data = json.loads(good.path.read_text())
    data["config"]["players"] = ["plain", "bold"]
    Path("b.json").write_text(json.dumps(data))
    played = []
    monkeypatch.setattr("balance.check.commands._play", lambda *a, **k: played.append(a))
    with pytest.raises(UserError, match="baseline b.json: unknown player 'bold'"):
        check(["a.json", "b.json"])
    assert played == []


@pytest.mark.slow
def test_acceptance_carnage_car_cost_moves_the_first_seat(tmp_path, monkeypatch):
    """Issue 4's acceptance on a real game: 100,000 games, car_cost 10 -> 13 moves the
    first seat's win rate by about 5 points (+5.1 when written); check exits 1 naming it."""
    from balance.registry import game_names

    if "carnage" not in game_names():
        pytest.skip("carnage is not installed")
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path, '[game]\nname = "carnage"\ngames = 100000\n')
    baseline()
    assert check().exit_code == 0
    write_config(
        tmp_path, '[game]\nname = "carnage"\ngames = 100000\n[params]\ncar_cost = 13\n'
    )
    report = check()
    assert report.exit_code == 1
    seat0 = {c.name: c for c in report.results[0].comparisons}["seat_win_rate[0]"]
    assert seat0.verdict == "regression" and 0.03 <= abs(seat0.diff) <= 0.08, (
        seat0.sentence()
    )
    assert "REGRESSION: seat_win_rate[0] moved from" in report.to_text()


def test_proportions_show_enough_decimals_for_rare_events():
    from balance.format import difference as _fmt_diff
    from balance.format import value as _fmt_value

    # 377 gridlocks in 1,000,000 games must not read as none at all.
    assert _fmt_value("proportion", 377 / 1_000_000) == "0.038%"
    assert _fmt_value("proportion", 0.0042) == "0.42%"
    assert _fmt_value("proportion", 0.583) == "58.3%"
    assert _fmt_value("proportion", 0.0) == "0.0%"
    assert _fmt_diff("proportion", 0.0031) == "+0.31"
    assert _fmt_diff("proportion", -0.051) == "-5.1"
    assert _fmt_diff("proportion", 0.00012, sign=False) == "0.012"
