"""Carnage test helpers: traces by player label, through a JSON round trip.

A label is how a user names a seated player (``greedy``, ``mc:rollouts=4``).
The search player is seated at a small budget with a short horizon
(:data:`SEARCH`): these tests are about the rules its games follow, not about
its strength, and a short playout keeps a game with random rules (up to 10,000
turns) quick.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

SEARCH = "mc:rollouts=4;horizon=8"


def player_labels(spec: Any) -> list[str]:
    """Every built-in player: the heuristics, then mc at :data:`SEARCH`'s budget."""
    return [p.name for p in spec.heuristics] + [SEARCH]


def seating(spec: Any, labels: Sequence[str]) -> tuple[list[Any], np.ndarray]:
    """The distinct Player objects and the seating row of ``labels`` by seat."""
    distinct = list(dict.fromkeys(labels))
    players = [spec.parse_player(label) for label in distinct]
    return players, np.asarray([[distinct.index(label) for label in labels]], dtype=np.int64)


def _plain(x: Any) -> Any:
    if hasattr(x, "item"):
        return x.item()
    if hasattr(x, "tolist"):
        return x.tolist()
    raise TypeError(f"not JSON serialisable: {type(x).__name__}")


def trace_events(spec: Any, params: dict, labels: Sequence[str], seed: int, game: int = 0) -> list[dict]:
    """One game's events, through a JSON Lines round trip (what a referee reads)."""
    players, seats = seating(spec, labels)
    events = spec.trace(params, players, seats, seed=seed, game=game, board=spec.board_for(None))
    text = "\n".join(json.dumps(ev, default=_plain, ensure_ascii=False) for ev in events)
    return [json.loads(line) for line in text.splitlines()]


def simulated(spec: Any, params: dict, labels: Sequence[str], seed: int, game: int) -> tuple:
    """(winner, end reason, turns, delivered) of game ``game`` as simulate plays it."""
    players, seats = seating(spec, labels)
    out = spec.simulate(params, players, seats, seed, game, 1, spec.board_for(None))
    return (
        int(out.winner[0]),
        spec.end_reason_names[int(out.end_reason[0])],
        int(out.turns[0]),
        [int(x) for x in out.score[0]],
    )
