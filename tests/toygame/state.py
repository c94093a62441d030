"""Dice Race's state: the shared header (balance.state), then the regions
declared below, each with its name, shape and meaning (``describe(st,
LAYOUT)`` prints them).  A pawn's position is the shared header's SCORE.

Decisions: KIND_MOVE ("how many steps of this roll?"; subject = the roll).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import MAX_SEATS, SCORE, Layout, score_at
from tests.toygame.params import N_PARAMS, PARAMS as PARAM_DECLS

LAYOUT = Layout()
PARAMS = LAYOUT.static("params", (N_PARAMS,), "the rule parameters, params.P_* order")
PHASE = LAYOUT.dynamic("phase", (), "0 before setup, then PHASE_ROLL / PHASE_MOVE")
ROLL = LAYOUT.dynamic("roll", (), "the roll the seat to move is deciding on")
POSITION = SCORE  # the score is the position: the shared header's SCORE region

rule_at = PARAMS.index  # st[rule_at(P_TARGET)]: a rule parameter
position_at = score_at  # st[position_at(seat)]: steps made by the seat's pawn

PHASE_SETUP = 0
PHASE_ROLL = 1
PHASE_MOVE = 2

KIND_MOVE = np.int64(0)


def encode(params: Mapping[str, Any]) -> np.ndarray:
    image = LAYOUT.image()
    PARAMS.put(image, [int(params[p.name]) for p in PARAM_DECLS])
    return image


@njit(cache=True)
def position(st, seat):
    """Steps made by ``seat``'s pawn."""
    return st[position_at(seat)]


assert MAX_SEATS >= 6
