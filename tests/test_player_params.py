"""Player parameters: ``--players NAME:KEY=VALUE;KEY=VALUE``, ``PLAYER.KEY`` sweep
axes stored and reported like rule parameters, and one-line refusals of every
malformed player spec (on the toy game, its search player ``mc`` and a player
file's player with a parameter)."""

from __future__ import annotations

import json
import textwrap

import pytest

from balance.cli import main

BOTS = textwrap.dedent(
    '''
    from numba import njit
    from balance import player
    from balance.game import Param
    from balance.state import player_param

    @player("dicerace", "lazy", "moves at most `most` steps",
            params=(Param("most", "int", 2, "most steps a turn", "reading: a test player", low=0, high=6),))
    @njit
    def lazy(kind, seat, roll, st):
        return min(roll, player_param(st, seat, 0))
    '''
)


@pytest.fixture
def bots(tmp_path):
    path = tmp_path / "bots.py"
    path.write_text(BOTS)
    return str(path)


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_a_player_parameter_changes_play_and_names_the_player(dicerace, bots, capsys):
    rates = {}
    for most in (1, 6):
        code, out, err = call(capsys, "run", "dicerace", "--games", "3000", "--players", f"lazy:most={most},plain",
                              "--player-file", bots, "--rotate-seats", "--json")
        assert code == 0, err
        data = json.loads(out)
        label = f"lazy:most={most}"
        assert data["players"] == [label, "plain"]
        rates[most] = next(s for s in data["strategies"] if s["player"] == label)["win_rate"]
    # Moving the whole roll (most=6) is plain's own play: about even; one step a turn loses.
    assert rates[1] < 0.05 and 0.45 < rates[6] < 0.55, rates


def test_sweep_over_a_player_parameter_is_stored_and_reported(dicerace, bots, tmp_path, capsys):
    import balance

    out = tmp_path / "sweep"
    code, _, err = call(capsys, "sweep", "dicerace", "--param", "lazy.most=1..3", "--players", "lazy,plain",
                        "--player-file", bots, "--games", "2000", "--rotate-seats", "--out", out,
                        "--report", tmp_path / "r.html")
    assert code == 0, err
    import polars as pl

    frame = balance.load(out)
    assert "lazy.most" in frame.columns
    wins = frame.filter(pl.col("measure") == "player_wins").filter(pl.col("player") == "lazy").sort("lazy.most")
    counts = wins["count"].to_list()
    assert counts == sorted(counts) and counts[0] < counts[-1], counts  # more steps, more wins
    assert "lazy.most" in (tmp_path / "r.html").read_text()


def test_sweep_over_the_search_players_budget(dicerace, tmp_path, capsys):
    code, out, err = call(capsys, "sweep", "dicerace", "--param", "mc.rollouts=6,12", "--players", "mc,plain",
                          "--games", "200", "--out", tmp_path / "s", "--json")
    assert code == 0, err
    assert json.loads(out)["points_played"] == 2


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["run", "dicerace", "--players", "plain:speed=2,plain"], "unknown parameter 'speed' for player plain"),
        (["run", "dicerace", "--players", "mc:rollouts=0,plain"], "rollouts=0"),
        (["run", "dicerace", "--players", "mc:rollouts=many,plain"], "rollouts=many"),
        (["run", "dicerace", "--players", "mc:rollout_policy=nobody,plain"], "rollout_policy"),
        (["run", "dicerace", "--players", "mc:,plain"], "expected NAME:KEY=VALUE"),
        (["run", "dicerace", "--players", "mc:rollouts,plain"], "rollouts"),
        (["run", "dicerace", "--players", "mc:rollouts=4;rollouts=5,plain"], "given twice"),
        (["run", "dicerace", "--players", "nobody:x=1,plain"], "unknown player 'nobody'"),
        (["sweep", "dicerace", "--param", "mc.rollouts=4..8", "--players", "plain,plain"], "'mc' is not seated"),
        (["sweep", "dicerace", "--param", "plain.speed=1..3"], "unknown parameter 'speed'"),
        (["sweep", "dicerace", "--param", "mc.rollouts=0..3", "--players", "mc,plain"], "rollouts"),
        (["sweep", "dicerace", "--param", "mc.=1", "--players", "mc,plain"], "PLAYER.KEY"),
        (["sweep", "dicerace", "--param", "mc.horizon=1,2", "--players", "mc:horizon=5,mc"], "different values"),
        (["tournament", "dicerace", "--players", "plain,mc:horizon=-1"], "horizon"),
    ],
)
def test_bad_player_specs_are_one_line_exit_2_and_write_nothing(dicerace, tmp_path, monkeypatch, capsys, argv, needle):
    monkeypatch.chdir(tmp_path)
    code, _, err = call(capsys, *argv, "--games", "10")
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err
    assert list(tmp_path.iterdir()) == []


def test_players_listing_shows_player_parameters(dicerace, capsys):
    code, out, _ = call(capsys, "players", "dicerace", "--json")
    data = json.loads(out)
    mc = next(p for p in data if p["name"] == "mc")
    assert code == 0 and mc["stochastic"] is True
    assert [q["name"] for q in mc["params"]] == ["rollouts", "rollout_policy", "horizon", "crn", "evidence", "allocation", "indifference", "futility", "horizon_unit"]
