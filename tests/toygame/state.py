"""Dice Race's state: the shared header (balance.state), then::

    PARAMS     static   the rule parameters, params.P_* order
    PHASE      dynamic  0 before setup, then PHASE_ROLL / PHASE_MOVE
    ROLL       dynamic  the roll the seat to move is deciding on
    POSITION   dynamic  x6: steps made by each seat's pawn (its score: SCORE)

Decisions: KIND_MOVE ("how many steps of this roll?"; subject = the roll).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import MAX_SEATS, SCORE, Layout
from tests.toygame.params import N_PARAMS, PARAMS as PARAM_DECLS

LAYOUT = Layout()
PARAMS = LAYOUT.static(N_PARAMS)
PHASE = LAYOUT.dynamic(1)
ROLL = LAYOUT.dynamic(1)
POSITION = SCORE  # the score is the position: the shared header's SCORE region

PHASE_SETUP = 0
PHASE_ROLL = 1
PHASE_MOVE = 2

KIND_MOVE = np.int64(0)

EV_ROLL = 1  # seat, roll, steps, position after
EV_END = 2  # winner, end reason


def encode(params: Mapping[str, Any]) -> np.ndarray:
    image = LAYOUT.image()
    for i, p in enumerate(PARAM_DECLS):
        image[PARAMS + i] = int(params[p.name])
    return image


@njit(cache=True)
def position(st, seat):
    """Steps made by ``seat``'s pawn."""
    return st[POSITION + seat]


assert MAX_SEATS >= 6
