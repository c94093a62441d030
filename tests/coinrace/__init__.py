"""Coin Race: a pure-luck race of fixed length, the test game of game feel.

Each seat flips a coin per round and scores on heads; after ``rounds`` rounds
the most points win.  With no decision that matters and a known length, every
game-feel figure has an exact value (tests/test_feel.py enumerates every
sequence of flips).  Registered only by the tests that use it, never installed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.game import EndReason, GameSpec, TraceContext
from tests.coinrace.params import PARAMS


class CoinRace(GameSpec):
    name = "coinrace"
    title = "Coin Race (test game)"
    rulebook = "tests/coinrace/RULES.md"
    summary = "flip a coin a round; the most heads after the last round wins"
    params = PARAMS
    end_reasons = (
        EndReason("rounds", "the last round was played and one seat had the most points"),
        EndReason("tie", "the last round was played with a tie for the most points"),
    )
    score_name = "points"
    standing_name = "points"
    min_players = 2
    max_players = 6
    default_players = ("flip", "flip", "flip")
    mc_rollouts = 4
    mc_rollout_policy = "flip"

    def encode(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        from tests.coinrace.state import encode

        return encode(params)

    def max_events(self, params: Mapping[str, Any], n_seats: int, board: Any) -> int:
        return int(params["rounds"]) * n_seats + 1

    def decode_trace(self, ctx: TraceContext) -> list[dict[str, Any]]:
        from tests.coinrace.events import decode

        return decode(ctx)


SPEC = CoinRace()
