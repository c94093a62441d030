"""Tournaments (balance.tournaments): the plan of tables, the statistics, resuming,
the page and the command line, on the toy game."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from balance.cli import main
from balance.tournaments import ELO, bradley_terry, tables_for, tournament


def test_tables_are_every_pairing_rotated_then_each_player_alone():
    tables = tables_for(["a", "b", "c"], 2)
    assert [t.players for t in tables if t.kind == "match"] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert all(t.seatings == ((0, 1), (1, 0)) for t in tables if t.kind == "match")
    assert [(t.players, t.seatings) for t in tables if t.kind == "seats"] == [
        (("a",), ((0, 0),)), (("b",), ((0, 0),)), (("c",), ((0, 0),))
    ]
    four = tables_for(["a", "b", "c", "d", "e"], 4, seat_tables=False)
    assert len(four) == 5 and all(len(t.seatings) == 24 for t in four)


def test_bradley_terry_recovers_known_strengths():
    """Expected win counts of a model with strengths 0, +1, -0.5 (log scale): the
    fit gives them back (mean 0) and its intervals shrink like 1/sqrt(n)."""
    beta = np.array([0.0, 1.0, -0.5])
    n = 10_000
    wins = np.zeros((3, 3))
    for a in range(3):
        for b in range(3):
            if a != b:
                wins[a, b] = n / (1 + math.exp(beta[b] - beta[a]))
    fit, se = bradley_terry(wins)
    np.testing.assert_allclose(fit, beta - beta.mean(), atol=1e-6)
    fit4, se4 = bradley_terry(wins * 4)
    np.testing.assert_allclose(se4, se / 2, rtol=1e-6)
    assert 0 < se[0] < 0.05


def test_bradley_terry_stays_finite_when_a_player_never_loses():
    wins = np.array([[0, 30], [0, 0]], float)
    fit, se = bradley_terry(wins)
    assert np.all(np.isfinite(fit)) and fit[0] > fit[1] and np.all(np.isfinite(se))


def test_tournament_counts_ratings_and_resume(dicerace, tmp_path):
    out = tmp_path / "t"
    first = tournament("dicerace", players="plain,cautious,mc:rollouts=8", games=1200, out=out)
    f = first.figures
    assert f["players"] == ["plain", "cautious", "mc:rollouts=8"]
    # Head to head: the two directions of a pair add up to the decided games.
    for a in range(3):
        for b in range(3):
            if a != b:
                ab, ba = f["matrix"][a][b], f["matrix"][b][a]
                assert ab["count"] + ba["count"] == ab["n"] == ba["n"] and ab["games"] == 1200
    assert abs(sum(r["elo"] for r in f["ratings"])) < 1e-6
    best = f["ratings"][0]
    assert best["ci95"][0] < best["elo"] < best["ci95"][1]
    # Seat effect: one player alone in every seat, every game counted at one seat.
    for e in f["seat_effect"]:
        assert sum(c["count"] for c in e["seats"]) + e["no_winner"]["count"] == e["games"] == 1200
    page = (out / "report.html").read_text()
    assert "<svg" in page and "Head to head" in page and "Seat effect" in page
    assert json.loads((out / "report.json").read_text())["ratings"] == json.loads(json.dumps(f["ratings"]))
    # Resume: a lost table is played again, the others are read back: same figures.
    (out / "tables" / "0001.json").unlink()
    again = tournament("dicerace", players="plain,cautious,mc:rollouts=8", games=1200, out=out, resume=True)
    assert again.figures == first.figures
    with pytest.raises(Exception, match="another tournament"):
        tournament("dicerace", players="plain,cautious", games=1200, out=out, resume=True)
    with pytest.raises(Exception, match="--resume"):
        tournament("dicerace", players="plain,cautious,mc:rollouts=8", games=1200, out=out)


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--players", "plain"], "at least 2 players"),
        (["--players", "plain,nobody"], "unknown player 'nobody'"),
        (["--players", "plain,cautious", "--seats", "9"], "--seats 9"),
        (["--players", "plain,cautious", "--seats", "3"], "needs at least 3"),
        (["--players", "plain,plain"], "given twice"),
        (["--players", "plain:speed=2,cautious"], "unknown parameter 'speed'"),
        (["--players", "plain,cautious", "--games", "0"], "--games"),
        (["--players", "plain,cautious", "--param", "target=0"], "target"),
    ],
)
def test_tournament_mistakes_are_one_line_and_exit_2(dicerace, tmp_path, capsys, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "dicerace", "--out", str(tmp_path / "t"), *args])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and needle in err, err
    assert not (tmp_path / "t").exists()


def test_tournament_help_lists_every_option(capsys):
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    text = capsys.readouterr().out
    for option in ("--players", "--games", "--seats", "--param", "--seed", "--board", "--player-file", "--out",
                   "--resume", "--no-seat-tables", "--threads", "--scheduler", "--json"):
        assert option in text, option


def test_elo_scale():
    assert ELO == pytest.approx(400 / math.log(10))


def test_no_effect_statements_say_what_they_could_have_detected(dicerace, tmp_path):
    """Issue 19, defect 15: a 200-game tournament said "no seat is clearly favoured"
    without saying that it could not have seen a 54/46 first-seat edge."""
    from balance.tournaments import verdict_findings

    t = tournament("dicerace", players="plain,cautious", games=200, out=tmp_path / "t")
    found = verdict_findings(t.manifest, t.figures)
    seats = [f for f in found if f["kind"] == "seat_effect"]
    assert len(seats) == 2
    quiet = [f for f in seats if not f["favoured"] and not f["disfavoured"]]
    assert quiet, [f["text"] for f in seats]
    for f in quiet:
        # 2.80 * sqrt(0.25 / 200) = 9.9 points: a 54/46 edge would not show
        assert f["detectable_seat_edge"] == pytest.approx(0.099, abs=0.001)
        assert "no seat is clearly favoured, but at n=200 a seat edge smaller than 9.9 points" in f["text"]
        assert f["verdict"] in ("unsure", "bad")  # 200 games cannot put a seat inside a 45-55% band
    power = next(f for f in found if f["kind"] == "power")
    assert "would usually not show" in power["text"]
    twin = json.loads((tmp_path / "t" / "report.json").read_text())
    assert twin["findings"] == json.loads(json.dumps(found)) and twin["summary"]["sentences"]
    page = (tmp_path / "t" / "report.html").read_text()
    assert "no seat is clearly favoured, but at n=200" in page and 'class="summary verdict-' in page
