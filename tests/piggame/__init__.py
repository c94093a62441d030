"""Pig: a test game whose optimal play is known exactly (RULES.md).

Roll a d6 as often as you dare: a 1 loses the turn total, holding banks it;
the first seat to ``target`` (100) wins.  ``tests/pig/exact.py`` solves it by
value iteration, so simulated win rates and the search player ``mc`` are
checked against exact numbers.  Registered for the test suite like the toy
game (tests/conftest.py), never installed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.game import EndReason, GameSpec, TraceContext
from tests.piggame.params import PARAMS


class Pig(GameSpec):
    name = "pig"
    title = "Pig (test game)"
    rulebook = "tests/piggame/RULES.md"
    summary = "roll a d6 until you hold or a 1 loses the turn; the first to 100 wins"
    params = PARAMS
    end_reasons = (
        EndReason("target", "a seat reached the target"),
        EndReason("turn_limit", "max_turns player turns were played", is_cap=True),
    )
    score_name = "score"
    min_players = 2
    max_players = 4
    default_players = ("hold20", "hold20")
    mc_rollouts = 256
    mc_rollout_policy = "hold20"
    # After a hold the dice a roll would have used go to the opponent: common
    # random numbers correlate the two answers' playouts negatively and raise
    # the variance of their difference (docs/players.md), so Pig's playouts
    # are independent.  Its one-step gains are tiny and many decisions are
    # close: switches need strong evidence.
    mc_crn = False
    mc_evidence = 3.0

    def encode(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        from tests.piggame.state import encode

        return encode(params)

    def max_events(self, params: Mapping[str, Any], n_seats: int, board: Any) -> int:
        # A row per roll: every roll but a bust adds at least 2 to the turn total, so a
        # turn has at most target / 2 of them before the seat wins, then a bust or a
        # hold; and the end.
        return int(params["max_turns"]) * (int(params["target"]) // 2 + 2) + 2

    def decode_trace(self, ctx: TraceContext) -> list[dict[str, Any]]:
        from tests.piggame.events import decode

        return decode(ctx)


SPEC = Pig()
