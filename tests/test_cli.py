"""The command line: every command's output and every user mistake (one line, exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from balance.cli import main

GAMES = ["carnage", "bahama"]


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_help_does_not_import_heavy_modules():
    code = "import sys, balance.cli; bad = [m for m in ('numba', 'numpy', 'polars', 'pandas', 'matplotlib') if m in sys.modules]; print(bad)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_python_dash_m_balance_help():
    res = subprocess.run([sys.executable, "-m", "balance", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "run" in res.stdout and "trace" in res.stdout


def test_games_lists_builtin_games(capsys):
    code, out, _ = call(capsys, "games", "--json")
    assert code == 0
    names = {g["name"] for g in json.loads(out)}
    assert set(GAMES) <= names


@pytest.mark.parametrize("game", GAMES)
def test_params_players_board_json(capsys, game):
    code, out, _ = call(capsys, "params", game, "--json")
    assert code == 0
    params = json.loads(out)
    assert params and {"name", "type", "default", "allowed", "meaning", "source"} <= set(params[0])
    code, out, _ = call(capsys, "players", game, "--json")
    players = json.loads(out)
    assert code == 0 and len(players) >= 4 and all({"name", "description"} <= set(p) for p in players)
    assert all({"stochastic", "params", "builtin"} <= set(p) for p in players)
    code, out, _ = call(capsys, "board", game, "--json")
    board = json.loads(out)
    assert code == 0 and len(board["nodes"]) == len(board["adjacency"]) > 0
    for i, nbrs in enumerate(board["adjacency"]):
        for j in nbrs:
            assert i in board["adjacency"][j]


@pytest.mark.parametrize("game", GAMES)
def test_listings_as_tables(capsys, game):
    for cmd in ("params", "players", "board"):
        code, out, _ = call(capsys, cmd, game)
        assert code == 0 and out.strip()


@pytest.mark.parametrize("game", GAMES)
def test_run_json_schema(capsys, game):
    code, out, _ = call(capsys, "run", game, "--games", "2000", "--seed", "5", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("game", "games", "seed", "params", "players", "seats", "no_winner", "end_reasons", "turns", "games_per_second"):
        assert key in data
    assert data["game"] == game and data["games"] == 2000
    for seat in data["seats"]:
        assert {"seat", "player", "wins", "win_rate", "ci95"} <= set(seat)
        lo, hi = seat["ci95"]
        assert lo <= seat["win_rate"] <= hi
    assert sum(s["wins"] for s in data["seats"]) + data["no_winner"] == 2000
    assert sum(data["end_reasons"].values()) == 2000
    assert {"mean", "median", "p10", "p90", "max"} <= set(data["turns"])


@pytest.mark.parametrize("game", GAMES)
def test_run_table_and_trace(capsys, game):
    code, out, _ = call(capsys, "run", game, "--games", "500", "--rotate-seats")
    assert code == 0 and "Win rate by seat" in out and "games/s" in out
    code, out, _ = call(capsys, "trace", game, "--seed", "3")
    assert code == 0
    events = [json.loads(line) for line in out.splitlines()]
    assert events[0]["type"] == "setup" and events[-1]["type"] == "end"
    code, out, _ = call(capsys, "trace", game, "--seed", "3", "--format", "text")
    assert code == 0 and "turn 1" in out


def test_run_is_the_same_for_one_and_two_threads(tmp_path):
    """`balance run --json` with NUMBA_NUM_THREADS=1 and =2 gives the same numbers."""
    import os

    outputs = []
    for threads in ("1", "2"):
        env = {**os.environ, "NUMBA_NUM_THREADS": threads}
        res = subprocess.run(
            [sys.executable, "-m", "balance", "run", "carnage", "--games", "20000", "--seed", "9", "--json"],
            capture_output=True, text=True, env=env, check=True,
        )
        data = json.loads(res.stdout)
        for volatile in ("elapsed_s", "games_per_second"):
            data.pop(volatile)
        outputs.append(data)
    assert outputs[0] == outputs[1]


BAD = [
    (["run", "nosuchgame"], "unknown game 'nosuchgame'"),
    (["run", "carnage", "--param", "nosuch=1"], "unknown parameter 'nosuch'"),
    (["run", "carnage", "--param", "car_cost=-1"], "car_cost"),
    (["run", "carnage", "--param", "spawn_on_drop=7"], "spawn_on_drop"),
    (["run", "carnage", "--param", "car_cost=8.5"], "car_cost"),
    (["run", "carnage", "--param", "car_cost"], "NAME=VALUE"),
    (["run", "carnage", "--games", "0"], "--games"),
    (["run", "carnage", "--games", "many"], "--games"),
    (["run", "carnage", "--players", "greedy,nobody"], "unknown player 'nobody'"),
    (["run", "carnage", "--players", "greedy"], "players"),
    (["run", "carnage", "--players", "greedy,greedy,greedy,greedy,greedy"], "players"),
    (["run", "carnage", "--board", "/nonexistent/board.toml"], "board"),
    (["run", "carnage", "--player-file", "/nonexistent/bots.py"], "does not exist"),
    (["run", "carnage", "--threads", "0"], "--threads"),
    (["run", "--bogus"], "No such option"),
    (["trace", "carnage", "--format", "xml"], "--format"),
    (["params", "nosuchgame"], "unknown game"),
    (["players", "nosuchgame"], "unknown game"),
    (["board", "carnage", "--board", "/nonexistent.toml"], "board"),
    (["run", "bahama", "--param", "capacity=0"], "capacity"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_one_line_exit_2(capsys, argv, message):
    code, out, err = call(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert message in lines[0]
    assert "Traceback" not in err


def test_bad_board_files_one_line(capsys, tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = not [valid toml\n")
    code, _, err = call(capsys, "run", "carnage", "--board", str(bad), "--games", "10")
    assert code == 2 and len(err.strip().splitlines()) == 1 and str(bad) in err


def test_player_file_without_players(capsys, tmp_path: Path):
    empty = tmp_path / "empty_bots.py"
    empty.write_text("x = 1\n")
    code, _, err = call(capsys, "run", "carnage", "--player-file", str(empty), "--games", "10")
    assert code == 2 and "defines no player" in err


def test_default_game_comes_from_balance_toml(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = call(capsys, "params", "--json")
    assert code == 0 and any(p["name"] == "car_cost" for p in json.loads(out))
    (tmp_path / "balance.toml").write_text('[game]\nname = "bahama"\n')
    code, out, _ = call(capsys, "params", "--json")
    assert code == 0 and not any(p["name"] == "car_cost" for p in json.loads(out))


def test_run_with_different_players_in_fixed_seats_says_so(dicerace, capsys):
    from balance.cli import main

    for argv, noted in ((["--players", "cautious,plain"], True), (["--players", "plain,plain"], False),
                        (["--players", "cautious,plain", "--rotate-seats"], False)):
        with pytest.raises(SystemExit):
            main(["run", "dicerace", "--games", "500", *argv, "--json"])
        data = json.loads(capsys.readouterr().out)
        assert ("seat_note" in data) == noted, argv
        if noted:
            assert "mixes each seat's edge with its player's strength" in data["seat_note"]


# ---- balance run and balance.toml; what a run's output says it played -----------------
RULE_FILE = """
[game]
name = "dicerace"
players = ["cautious", "cautious"]
games = 300
seed = 4

[params]
first_bonus = 2
"""


def test_run_plays_balance_toml_and_options_override_it(dicerace, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "balance.toml").write_text(RULE_FILE)
    code, out, _ = call(capsys, "run", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["game"], data["games"], data["seed"], data["players"]) == ("dicerace", 300, 4, ["cautious", "cautious"])
    assert data["params"]["first_bonus"] == 2 and data["rule_file"] == "balance.toml"
    assert data["params_changed"] == {"first_bonus": {"value": 2, "default": 0}}
    code, out, _ = call(
        capsys, "run", "--json", "--games", "200", "--seed", "1", "--players", "plain,plain", "--param", "target=30",
    )
    data = json.loads(out)
    assert (data["games"], data["seed"], data["players"]) == (200, 1, ["plain", "plain"])
    assert (data["params"]["first_bonus"], data["params"]["target"]) == (2, 30)
    code, out, _ = call(capsys, "run", "dicerace", "--json", "--games", "100", "--no-config")
    data = json.loads(out)
    assert data["params_changed"] == {} and "rule_file" not in data and data["seed"] == 0


@pytest.mark.parametrize(
    "text, words",
    [
        ("seeds = 3\n", "balance.toml: seeds: a key outside any table (did you mean [game] seed?)"),
        ("[game]\nname = 'dicerace'\nseeds = 3\n", "[game] seeds: unknown key (did you mean 'seed'?); allowed: name,"),
        ("[game]\nname = 'dicerace'\ngames = 'many'\n", "[game] games: expected a whole number"),
        ("[game]\nname = 'dicerace'\n[params]\nbonus = 1\n", "[params] bonus: unknown rule parameter of dicerace"),
    ],
)
def test_run_refuses_a_bad_balance_toml(dicerace, capsys, tmp_path, monkeypatch, text, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "balance.toml").write_text(text if "[game]" in text else text + "[game]\nname = 'dicerace'\n")
    code, out, err = call(capsys, "run", "--games", "10")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert words in err


def test_run_text_says_which_rules_board_and_rule_file(capsys, tmp_path):
    """Two different runs never read the same: non-default rules and the board file are shown."""
    board = Path(__file__).resolve().parents[1] / "sims" / "carnage" / "boards" / "default.toml"
    outs = []
    for extra in ([], ["--param", "car_cost=14"], ["--board", str(board)]):
        code, out, _ = call(capsys, "run", "carnage", "--games", "200", "--no-config", *extra)
        assert code == 0
        outs.append(out.split("Win rate by seat")[0])
    assert "rules: every rule at its default" in outs[0] and "board:" not in outs[0]
    assert "rules: car_cost=14 (default 10); every other rule at its default" in outs[1]
    assert f"board: {board}\n" in outs[2]
    assert len(set(outs)) == 3


def test_run_uses_the_files_scheduler_and_trace_its_run(dicerace, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "balance.toml").write_text(RULE_FILE + '\n[cluster]\nscheduler = "nowhere://x"\n')
    code, out, err = call(capsys, "run", "--games", "10")
    assert code == 2 and "nowhere://x" in err  # the file's cluster was asked for
    code, out, _ = call(capsys, "trace", "--game-index", "2")
    setup = json.loads(out.splitlines()[0])
    assert code == 0 and setup["seed"] == 4 and setup["params"]["first_bonus"] == 2
    assert setup["players"] == ["cautious", "cautious"] and setup["game_index"] == 2
