"""Pig's state: the shared header (balance.state), then::

    PARAMS      static   the rule parameters, params.P_* order
    PHASE       dynamic  0 before setup, then PHASE_ROLL (the seat to move rolls next)
                         or PHASE_DECIDE (it decides: roll again or hold)
    TURN_TOTAL  dynamic  points rolled this turn, not yet banked
    SCORE (header)       banked points of each seat (the outcome's score)

Decisions: KIND_ROLL ("roll again?"; subject = the turn total): ROLL or HOLD.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import SCORE, Layout
from tests.piggame.params import N_PARAMS, P_TARGET, PARAMS as PARAM_DECLS

LAYOUT = Layout()
PARAMS = LAYOUT.static(N_PARAMS)
PHASE = LAYOUT.dynamic(1)
TURN_TOTAL = LAYOUT.dynamic(1)

PHASE_SETUP = 0
PHASE_ROLL = 1
PHASE_DECIDE = 2

KIND_ROLL = np.int64(0)
HOLD = np.int64(0)
ROLL = np.int64(1)

EV_ROLL = 1  # seat, face, turn total after (0 on a bust), score
EV_HOLD = 2  # seat, points banked, score after
EV_END = 3  # winner, end reason


def encode(params: Mapping[str, Any]) -> np.ndarray:
    image = LAYOUT.image()
    for i, p in enumerate(PARAM_DECLS):
        image[PARAMS + i] = int(params[p.name])
    return image


@njit(cache=True)
def score(st, seat):
    """Points banked by ``seat``."""
    return st[SCORE + seat]


@njit(cache=True)
def turn_total(st):
    """Points rolled this turn by the seat to move, not yet banked."""
    return st[TURN_TOTAL]


@njit(cache=True)
def target(st):
    return st[PARAMS + P_TARGET]
