"""Golden traces: fixed games of every built-in game, stored as JSON Lines.

A kernel change that alters any game shows up as a diff of these files.  When
the change is intended, regenerate them with one command and review the diff::

    make golden            # or: python -m tests.golden

Cases per game: the default players, each built-in player against the
default seat 1 player, every player count, and a rule change.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Iterator

import numpy as np

GOLDEN_DIR = Path(__file__).parent / "golden"
BUILTIN_GAMES = ("carnage", "bahama")

# Hand-picked games that reach rarer rules: name -> (players by seat, rules, seed, game index).
EXTRA_CASES: dict[str, dict[str, tuple[tuple[str, ...], dict[str, Any], int, int]]] = {
    "carnage": {
        "cheap-cars-three-players": (
            ("nearest", "fleet", "greedy"), {"car_cost": 6, "win_cars": 3, "start_money": 15}, 99, 5,
        ),
        "crowded-city": (
            ("greedy", "nearest"), {"spawn_on_turn_end": 5, "spawn_on_drop": 6, "gridlock_limit": 6}, 3, 11,
        ),
    },
    "bahama": {
        "must-move-three-player-discard": (
            ("best_fare", "courier", "nearest"), {"must_move": True, "three_player_discard": True}, 4, 9,
        ),
        "no-end-phase-limits": (
            ("nearest", "best_fare"), {"third_passenger_lock": False, "second_passenger_lock": False}, 6, 1,
        ),
    },
}


def cases(spec: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    default = list(spec.default_players)
    yield "default-seed0-game0", {"players": default, "seed": 0, "game": 0, "params": {}}
    yield "default-seed7-game41", {"players": default, "seed": 7, "game": 41, "params": {}}
    for p in spec.players:
        yield f"{p.name}-vs-{default[-1]}", {"players": [p.name, default[-1]], "seed": 3, "game": 5, "params": {}}
    names = [p.name for p in spec.players]
    for n in range(spec.min_players, spec.max_players + 1):
        seats = [names[i % len(names)] for i in range(n)]
        yield f"{n}-players", {"players": seats, "seed": 11, "game": n, "params": {}}
    # One rule change: the first integer parameter moved one step inside its range.
    for param in spec.params:
        if param.kind == "int" and param.high is not None and param.default < param.high:
            yield f"{param.name}-plus-one", {
                "players": default, "seed": 5, "game": 2, "params": {param.name: param.default + 1},
            }
            break
    for name, (seats, rules, seed, game) in EXTRA_CASES.get(spec.name, {}).items():
        yield name, {"players": list(seats), "seed": seed, "game": game, "params": rules}


def play(spec: Any, case: dict[str, Any]) -> list[dict[str, Any]]:
    players = [spec.player(n) for n in dict.fromkeys(case["players"])]
    index = {p.name: i for i, p in enumerate(players)}
    seatings = np.asarray([[index[n] for n in case["players"]]], dtype=np.int64)
    params = spec.resolve_params(case["params"])
    return spec.trace(params, players, seatings, case["seed"], case["game"], spec.load_board(None))


def path_for(game: str, name: str) -> Path:
    return GOLDEN_DIR / game / f"{name}.jsonl"


def to_jsonl(events: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, sort_keys=True, separators=(",", ":")) + "\n" for e in events)


def regenerate() -> int:
    from balance.registry import get_game

    written = 0
    for game in BUILTIN_GAMES:
        spec = get_game(game)
        folder = GOLDEN_DIR / game
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.jsonl"):
            old.unlink()
        for name, case in cases(spec):
            path_for(game, name).write_text(to_jsonl(play(spec, case)), encoding="utf-8")
            written += 1
    return written


if __name__ == "__main__":
    n = regenerate()
    print(f"wrote {n} golden traces under {GOLDEN_DIR}", file=sys.stderr)
