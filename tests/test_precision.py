"""Runs to a precision: rounds of the seed's next games stop near the games the
binomial formula predicts, and the same command plays the same games."""

from __future__ import annotations

import json
import math

import pytest

from balance.api import run
from balance.cli import main
from balance.precision import Z95, play_rounds


@pytest.fixture(scope="module")
def known_rate(dicerace):
    """Seat 0's win rate with a first-turn bonus of 2, from many games of another seed."""
    res = run("dicerace", games=400_000, seed=99, params={"first_bonus": 2})
    return int(res.aggregate.seat_wins[0]) / res.games


@pytest.mark.parametrize("points", [1.0, 0.5])
def test_precision_stops_near_the_binomial_formula(dicerace, known_rate, points):
    """Two seats and no draw: both seats' intervals have the half-width of p(1-p)."""
    res = run("dicerace", precision=points, params={"first_bonus": 2})
    h = points / 100
    predicted = Z95**2 * known_rate * (1 - known_rate) / h**2
    assert abs(res.games - predicted) <= 0.10 * predicted, (res.games, predicted)
    rounds = res.extra["precision"]
    assert rounds["reached"] and rounds["rounds"][-1]["games"] == res.games
    assert rounds["rounds"][-1]["widest_half_width_points"] <= points


def test_the_same_command_plays_the_same_games(dicerace):
    """Round boundaries depend only on the games' outcomes: the run to a precision is
    the first N games of its seed, exactly what --games N plays."""
    a = run("dicerace", precision=1.0, seed=5)
    b = run("dicerace", precision=1.0, seed=5)
    assert a.games == b.games and a.aggregate.to_dict() == b.aggregate.to_dict()
    plain = run("dicerace", games=a.games, seed=5)
    assert plain.aggregate.to_dict() == a.aggregate.to_dict()


def test_max_games_caps_and_says_so(dicerace):
    res = run("dicerace", precision=0.2, max_games=3000)
    assert res.games == 3000 and not res.extra["precision"]["reached"]
    assert "not reached" in res.extra["precision_note"]


def test_rounds_follow_the_prediction():
    """A fake aggregate whose half-width is exactly 1/sqrt(n): two rounds suffice."""

    class Count:
        def __init__(self, games):
            self.games = games

        def merge(self, other):
            return Count(self.games + other.games)

    played = []

    def play_range(first, n):
        played.append((first, n))
        return Count(n)

    total, rounds = play_rounds(play_range, lambda c: [1 / math.sqrt(c.games)], 1.0)
    assert total.games == 10_000 and rounds.reached
    assert played[0] == (0, 2401) and played[1][0] == 2401  # contiguous game indices


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_cli_run_precision(dicerace, capsys):
    code, out, err = call(capsys, "run", "dicerace", "--precision", "2", "--no-config", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["precision"]["reached"] and data["games"] == data["precision"]["rounds"][-1]["games"]
    for argv, says in (
        (["--precision", "0"], "--precision 0"),
        (["--precision", "1", "-n", "100"], "choose one"),
        (["--max-games", "100"], "--max-games goes with --precision"),
    ):
        code, _, err = call(capsys, "run", "dicerace", "--no-config", *argv)
        assert code == 2 and says in err and err.count("\n") == 1, err


# --------------------------------------------------------------------------- sweep --precision
@pytest.fixture
def here(tmp_path, monkeypatch, dicerace):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_sweep_precision_plays_the_same_games_at_every_point(here, capsys):
    from balance.store import open_run
    from balance.stats import wilson

    code, out, err = call(capsys, "sweep", "dicerace", "--param", "first_bonus=0..4:2", "--precision", "2",
                          "--out", "runs/p")
    assert code == 0, err
    assert "--precision 2: every point's seat and player intervals at most" in out
    manifest, aggs = open_run(here / "runs" / "p")
    n = manifest["games_per_point"]
    assert manifest["precision"]["reached"] and manifest["precision"]["rounds"][-1]["games"] == n
    assert sorted(a.games for a in aggs.values()) == [n, n, n]
    for agg in aggs.values():
        for wins in agg.seat_wins:
            lo, hi = wilson(int(wins), agg.games)
            assert (hi - lo) / 2 <= 0.02 + 1e-12
    # the same games as a plain sweep of n games a point
    code, _, err = call(capsys, "sweep", "dicerace", "--param", "first_bonus=0..4:2", "--games", str(n),
                        "--out", "runs/plain")
    assert code == 0, err
    _, plain = open_run(here / "runs" / "plain")
    assert {i: a.to_dict() for i, a in plain.items()} == {i: a.to_dict() for i, a in aggs.items()}


@pytest.mark.parametrize("extra, says", [
    (["--games", "100"], "--precision plays one list of players from the start"),
    (["--resume"], "--precision plays one list of players from the start"),
    (["--players", "plain,plain", "--players", "plain,cautious"], "a second --players"),
])
def test_sweep_precision_mistakes(here, capsys, extra, says):
    code, _, err = call(capsys, "sweep", "dicerace", "--param", "first_bonus=0,1", "--precision", "2", *extra,
                        "--out", "runs/x")
    assert code == 2 and says in err and err.count("\n") == 1, err
    assert not (here / "runs").exists()


def test_tournament_precision(here, capsys):
    code, out, err = call(capsys, "tournament", "dicerace", "--players", "plain,cautious", "--precision", "2",
                          "--out", "t", "--json")
    assert code == 0, err
    data = json.loads(out)
    manifest = json.loads((here / "t" / "manifest.json").read_text())
    n = manifest["games"]
    assert manifest["precision"]["reached"] and manifest["precision"]["rounds"][-1]["games"] == n
    assert data["manifest"]["games"] == n if "manifest" in data else True
    code, _, err = call(capsys, "tournament", "dicerace", "--players", "plain,cautious", "--precision", "2",
                        "-n", "100", "--out", "t2")
    assert code == 2 and "choose one" in err
    code, _, err = call(capsys, "tournament", "dicerace", "--players", "plain,cautious", "--precision", "2",
                        "--out", "t", "--resume")
    assert code == 2 and "leave out --resume" in err and err.count("\n") == 1
