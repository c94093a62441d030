"""Dice Race: the toolkit's test game, and the worked example of docs/adding-a-game.md.

Each seat in turn rolls a d6 and moves its pawn up to that many steps; the
first pawn to reach ``target`` wins.  ``first_bonus`` extra steps for seat 0 on
its first turn make the first-seat edge a knob tests can turn.  Players:
``plain`` (moves the whole roll), ``cautious`` (one less on a six: a weaker
player) and, as in every game, the search player ``mc``.

It compiles in seconds and has every part a real game has, so the contract
test and the toolkit's tests run on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.game import EndReason, GameSpec, TraceContext
from tests.toygame.params import PARAMS


class DiceRace(GameSpec):
    name = "dicerace"
    title = "Dice Race (test game)"
    rulebook = "tests/toygame/RULES.md"
    summary = "roll a d6 and move; the first pawn at the target wins"
    params = PARAMS
    end_reasons = (
        EndReason("target", "a pawn reached the target"),
        EndReason("turn_limit", "max_turns player turns were played", is_cap=True),
    )
    score_name = "position"
    min_players = 2
    max_players = 6
    default_players = ("plain", "plain")
    mc_rollouts = 16
    mc_rollout_policy = "plain"

    def encode(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        from tests.toygame.state import encode

        return encode(params)

    def max_events(self, params: Mapping[str, Any], n_seats: int, board: Any) -> int:
        return int(params["max_turns"]) + 1

    def decode_trace(self, ctx: TraceContext) -> list[dict[str, Any]]:
        from tests.toygame.events import decode

        return decode(ctx)


SPEC = DiceRace()
