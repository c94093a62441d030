"""``balance board`` (the game's own drawing, its SVG picture, else its data) and
``balance players`` (each player's parameters and whether it draws random numbers)."""

from __future__ import annotations

import json

import pytest

from balance import registry
from balance.cli import main
from tests.toygame import DiceRace

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="10"><rect width="60" height="10"/></svg>'


class DrawnRace(DiceRace):
    """The toy game with a track it draws: in the terminal and as a picture."""

    name = "drawnrace"
    title = "Drawn Race (test game)"

    def load_board(self, path=None):
        if path is not None:
            return super().load_board(path)
        return {"squares": 20}

    def board_json(self, board):
        return {"squares": board["squares"]}

    def board_text(self, board):
        return "start " + "·" * board["squares"] + " goal"

    def board_svg(self, board):
        return SVG


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture
def drawn(dicerace, monkeypatch):
    spec = DrawnRace()
    monkeypatch.setitem(registry._EXTRA, spec.name, spec)
    return spec


def test_board_drawn_by_the_game(drawn, capsys):
    code, out, err = call(capsys, "board", "drawnrace")
    assert code == 0, err
    assert out == "start " + "·" * 20 + " goal\n"
    code, out, _ = call(capsys, "board", "drawnrace", "--json")
    assert code == 0 and json.loads(out) == {"squares": 20}


def test_board_svg_written(drawn, capsys, tmp_path):
    target = tmp_path / "pics" / "track.svg"
    code, out, err = call(capsys, "board", "drawnrace", "--svg", str(target))
    assert code == 0, err
    assert target.read_text(encoding="utf-8") == SVG and f"wrote{target}" in "".join(out.split())  # wrapped anywhere


def test_board_svg_of_a_game_without_a_drawing_is_one_line_exit_2(dicerace, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = call(capsys, "board", "dicerace", "--svg", "board.svg")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: --svg: dicerace does not draw its board")
    assert list(tmp_path.iterdir()) == []


def test_board_of_a_game_without_board_data(dicerace, capsys):
    code, out, _ = call(capsys, "board", "dicerace")
    assert code == 0 and "no board data" in out
    code, out, _ = call(capsys, "board", "dicerace", "--json")
    assert code == 0 and json.loads(out) == {}


def test_players_json_lists_parameters_and_randomness(dicerace, capsys):
    code, out, _ = call(capsys, "players", "dicerace", "--json")
    assert code == 0
    players = {p["name"]: p for p in json.loads(out)}
    assert list(players) == ["plain", "cautious", "mc"]
    assert players["plain"]["stochastic"] is False and players["plain"]["params"] == []
    mc = players["mc"]
    assert mc["stochastic"] is True and mc["builtin"] is True
    params = {p["name"]: p for p in mc["params"]}
    assert list(params) == ["rollouts", "rollout_policy", "horizon", "crn", "evidence", "allocation", "indifference", "futility", "horizon_unit"]
    assert params["rollouts"]["default"] == 16 and params["rollouts"]["allowed"] == "an integer in 1..100000"
    assert params["rollout_policy"]["choices"] == ["plain", "cautious"]
    assert all(p["meaning"] and p["source"] for p in params.values())


def test_players_table_shows_parameters(dicerace, capsys):
    code, out, _ = call(capsys, "players", "dicerace")
    assert code == 0
    assert "random" in out and "rollouts=16" in out and "Player parameters" in out
    assert "1..100000" in out
