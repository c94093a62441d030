"""Every file in examples/ runs, at a small size, so that a change of the API cannot
break one unnoticed (``examples/*_figures.py`` once failed to import for months).

Discovered, not listed: a new example is covered without editing this file.

* A script (``if __name__ == "__main__":``) takes ``--games N`` and is run with a few games.
* A player file (``@player(...)``) is loaded through ``--player-file`` by every game it
  defines players for: ``balance players`` lists them and ``balance run`` plays them a
  few games, seated together (filled up to the game's fewest seats with its defaults).
  The games are played in Python (``NUMBA_DISABLE_JIT=1``): what an API move breaks (an
  import, a name, a signature) shows at once, without the half a minute of compiling a
  kernel for each file's players; their compiled path: each player typed alone by numba
  (`test_player_file_compiles`).
* A board file (``examples/GAME_*.toml``) is read by ``balance board GAME --board``.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from balance.cli import main
from balance.registry import game_names, get_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SCRIPTS = sorted(p for p in EXAMPLES.glob("*.py") if 'if __name__ == "__main__":' in p.read_text())
PLAYER_FILES = sorted(p for p in EXAMPLES.glob("*.py") if p not in SCRIPTS)
BOARDS = sorted(EXAMPLES.glob("*.toml"))


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_every_example_is_covered():
    assert SCRIPTS and PLAYER_FILES and BOARDS
    assert set(EXAMPLES.iterdir()) - {*SCRIPTS, *PLAYER_FILES, *BOARDS} <= {EXAMPLES / "__pycache__"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_runs(script, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [str(script), "--games", "4"])
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    try:
        runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exc:
        assert exc.code in (0, None), capsys.readouterr().err
    out = capsys.readouterr().out
    assert "4" in out and out.strip()


def games_of(path: Path, capsys) -> dict[str, list[str]]:
    """The games ``path`` defines players for, and their names (through the CLI)."""
    found = {}
    for game in game_names():
        code, out, _ = call(capsys, "players", game, "--player-file", path, "--json")
        if code == 0:
            found[game] = [p["name"] for p in json.loads(out) if not p["builtin"]]
    return found


@pytest.mark.parametrize("path", PLAYER_FILES, ids=lambda p: p.name)
def test_player_file_loads_and_plays(path, capsys, tmp_path):
    found = games_of(path, capsys)
    assert found, f"{path.name} defines no player for any game"
    for game, names in found.items():
        spec = get_game(game)
        seated = (names + list(spec.default_players))[: max(spec.min_players, min(len(names), spec.max_players))]
        res = subprocess.run(
            [sys.executable, "-m", "balance", "run", game, "--player-file", str(path), "--players", ",".join(seated),
             "--games", "6", "--no-config", "--json"],
            capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
        )
        assert res.returncode == 0, res.stderr
        data = json.loads(res.stdout)
        assert data["games"] == 6 and data["player_file"] == str(path)
        assert [s["player"] for s in data["strategies"]] == list(dict.fromkeys(seated))


@pytest.mark.parametrize("board", BOARDS, ids=lambda p: p.name)
def test_board_file_reads(board, capsys):
    game = board.stem.split("_")[0]
    assert game in game_names(), f"{board.name}: name it GAME_....toml"
    code, out, err = call(capsys, "board", game, "--board", board, "--json")
    assert code == 0, err
    assert json.loads(out)


@pytest.mark.parametrize("path", PLAYER_FILES, ids=lambda p: p.name)
def test_player_file_compiles(path):
    """The compiled path of every example player, which the test above (in Python)
    cannot see: each player is typed by numba with the one signature of every game,
    ``(kind, seat, subject, st) -> int``, ``st`` the state's int64 array (a typing
    error in a user player shows here without compiling a whole kernel)."""
    from numba import types

    from balance.playerfile import load_player_file

    signature = (types.int64, types.int64, types.int64, types.Array(types.int64, 1, "C"))
    compiled = 0
    for game in game_names():
        try:
            infos = load_player_file(path, get_game(game))
        except Exception:
            continue
        for info in infos:
            info.func.compile(signature)
            typed = [sig for sig in info.func.nopython_signatures if tuple(sig.args) == signature]
            assert typed and isinstance(typed[0].return_type, types.Integer), (game, info.name)
            compiled += 1
    assert compiled, f"{path.name} defines no player for any game"
