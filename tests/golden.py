"""Golden traces: fixed games of every registered game, stored as JSON Lines.

A kernel change that alters any game shows up as a diff of these files.  When
the change is intended, regenerate them with one command and review the diff::

    make golden                 # every game;  python -m tests.golden GAME ...: some

Cases per game (found, never listed here: adding a game edits no shared file):
the default players on two seeds, each built-in player against the default
last seat, every player count, one rule change, and the game's own hand-picked
cases in ``tests/<game>/golden_cases.py`` (``CASES = {name: {"players": [...],
"params": {...}, "seed": S, "game": G}}``).  A game installed from its own
package keeps them there: ``<package>/golden_cases.py``, ``<package>/referee.py``
and the traces in ``<package>/golden/`` (found through its entry point).

A golden file replays from its own ``setup`` event (players, params, seed and
game index are all there), so the test needs no table of cases either.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any, Iterator

import numpy as np

GOLDEN_DIR = Path(__file__).parent / "golden"
TESTS_DIR = Path(__file__).parent
SEARCH_BUDGET = "rollouts=8"  # mc in a golden game: small, so regenerating stays quick


SHIPPED = ("referee.py", "golden_cases.py", "golden")  # what a game's own package may ship


def _in_repo(game: str) -> bool:
    """Whether the game's tests live in this repository (tests/<game>/,
    tests/golden/<game>/) rather than in its own package: a package that ships
    a referee, golden cases or golden traces keeps them all."""
    if (TESTS_DIR / game).is_dir() or (GOLDEN_DIR / game).is_dir():
        return True
    folder = _package_dir(game)[1]
    return not any((folder / name).exists() for name in SHIPPED)


def _package_dir(game: str) -> tuple[str, Path]:
    from balance.registry import get_game

    package = get_game(game).package
    return package, Path(importlib.import_module(package).__file__).parent


def game_tests_module(game: str, name: str) -> Any | None:
    """The game's own test module ``name`` (``referee``, ``golden_cases``):
    ``tests/<game>/<name>.py`` for a game of this repository, else the module
    of that name in the game's installed package (a game that lives in its own
    package ships them there); None when the game has none."""
    if _in_repo(game):
        if not (TESTS_DIR / game / f"{name}.py").is_file():
            return None
        return importlib.import_module(f"tests.{game}.{name}")
    package, folder = _package_dir(game)
    if not (folder / f"{name}.py").is_file():
        return None
    return importlib.import_module(f"{package}.{name}")


def golden_dir(game: str) -> Path:
    """Where the game's golden traces live: tests/golden/<game>/ for a game of
    this repository, else ``golden/`` in the game's installed package."""
    if _in_repo(game):
        return GOLDEN_DIR / game
    return _package_dir(game)[1] / "golden"


def _label(name: str) -> str:
    return f"mc:{SEARCH_BUDGET}" if name == "mc" else name


def cases(spec: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    default = list(spec.default_players)
    yield "default-seed0-game0", {"players": default, "seed": 0, "game": 0, "params": {}}
    yield "default-seed7-game41", {"players": default, "seed": 7, "game": 41, "params": {}}
    for p in spec.players:
        yield f"{p.name}-vs-{default[-1]}", {
            "players": [_label(p.name), default[-1]], "seed": 3, "game": 5, "params": {},
        }
    names = [p.name for p in spec.heuristics]
    for n in range(spec.min_players, spec.max_players + 1):
        seats = [names[i % len(names)] for i in range(n)]
        yield f"{n}-players", {"players": seats, "seed": 11, "game": n, "params": {}}
    # One rule change: the first integer parameter moved one step inside its range.
    for param in spec.params:
        step = param.step or 1
        if param.kind == "int" and param.high is not None and param.default + step <= param.high:
            yield f"{param.name}-plus-one", {
                "players": default, "seed": 5, "game": 2, "params": {param.name: param.default + step},
            }
            break
    extra = game_tests_module(spec.name, "golden_cases")
    for name, case in (getattr(extra, "CASES", {}) if extra else {}).items():
        yield name, {"params": {}, **case}


def play(spec: Any, case: dict[str, Any]) -> list[dict[str, Any]]:
    """The trace of one case: players by label (``mc:rollouts=8`` allowed)."""
    labels = list(case["players"])
    distinct = list(dict.fromkeys(labels))
    players = [spec.parse_player(label) for label in distinct]
    seatings = np.asarray([[distinct.index(label) for label in labels]], dtype=np.int64)
    params = spec.resolve_params(case.get("params", {}))
    return spec.trace(params, players, seatings, case["seed"], case["game"], spec.board_for(None))


def case_of(setup: dict[str, Any]) -> dict[str, Any]:
    """The case a golden file was made from, read back from its setup event."""
    return {
        "players": setup["players"],
        "params": setup["params"],
        "seed": setup["seed"],
        "game": setup.get("game_index", 0),
    }


def path_for(game: str, name: str) -> Path:
    return golden_dir(game) / f"{name}.jsonl"


def golden_files(game: str) -> list[Path]:
    return sorted(golden_dir(game).glob("*.jsonl"))


def to_jsonl(events: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, sort_keys=True, separators=(",", ":")) + "\n" for e in events)


def regenerate(games: list[str] | None = None) -> int:
    from balance.registry import game_names, get_game

    written = 0
    for game in games or game_names():
        spec = get_game(game)
        folder = golden_dir(game)
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.jsonl"):
            old.unlink()
        for name, case in cases(spec):
            path_for(game, name).write_text(to_jsonl(play(spec, case)), encoding="utf-8")
            written += 1
    return written


if __name__ == "__main__":
    from tests.conftest import register_test_games

    register_test_games()
    n = regenerate(sys.argv[1:] or None)
    print(f"wrote {n} golden traces", file=sys.stderr)
