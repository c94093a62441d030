"""A sweep played by several player lists (``--players A --players B``): each
list's sweep is stored as usual, and the report says where a finding changes
sign between players (balance.report.compare)."""

from __future__ import annotations

import json
import textwrap

import pytest

from balance.cli import main
from balance.report.compare import between_players

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


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_a_seat_edge_that_changes_sign_between_players_is_found(dicerace, tmp_path, capsys):
    bots = tmp_path / "bots.py"
    bots.write_text(BOTS)
    out = tmp_path / "set"
    code, stdout, err = call(
        capsys, "sweep", "dicerace", "--param", "first_bonus=0,2", "--players", "plain,plain",
        "--players", "lazy:most=3,plain", "--player-file", bots, "--games", "4000", "--out", out,
        "--report", out / "report.html",
    )
    assert code == 0, err
    twin = json.loads((out / "report.json").read_text())
    assert twin["kind"] == "sweep-set" and len(twin["runs"]) == 2
    signs = [f for f in twin["between_players"] if f["kind"] == "sign" and "seat" in f and "points" in f]
    # plain in seat 0 has the first-mover edge; lazy (3 steps at most) in seat 0 loses it.
    assert signs and signs[0]["seat"] in (0, 1), twin["between_players"]
    assert "changes sign between players" in signs[0]["text"] and "lazy:most=3, plain" in signs[0]["text"]
    page = (out / "report.html").read_text()
    assert page.count("<h2>Players:") == 2 and "Between players" in page
    import balance

    for sub in ("players-0", "players-1"):
        assert balance.load(out / sub).height > 0


def test_no_sign_change_says_so():
    point = {
        "point": 0, "params": {"x": 1}, "games": 100,
        "seats": [{"win_rate": 0.6, "ci95": [0.55, 0.65], "wins": 60, "games": 100},
                  {"win_rate": 0.4, "ci95": [0.35, 0.45], "wins": 40, "games": 100}],
        "end_reason_shares": {"a": {"share": 1.0, "ci95": [0.96, 1.0]}},
    }
    data = {"points": [point], "by_axis": []}
    found = between_players(["p", "q"], [data, data])
    assert [f["kind"] for f in found] == ["note"]


def test_player_lists_must_have_the_same_seats(dicerace, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = call(capsys, "sweep", "dicerace", "--players", "plain,plain", "--players", "plain,plain,plain",
                        "--games", "10", "--out", tmp_path / "x")
    assert code == 2 and "same number of seats" in err and not (tmp_path / "x").exists()
    code, _, err = call(capsys, "sweep", "dicerace", "--players", "plain,plain", "--players", "plain,plain",
                        "--games", "10", "--out", tmp_path / "x")
    assert code == 2 and "given twice" in err
