"""Pig's state: the shared header (balance.state), then the regions declared
below (``describe(st, LAYOUT)`` prints them); each seat's banked points are the
shared header's SCORE (the outcome's score).

Decisions: KIND_ROLL ("roll again?"; subject = the turn total): ROLL or HOLD.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import Layout, score_at
from tests.piggame.params import N_PARAMS, P_TARGET, PARAMS as PARAM_DECLS

LAYOUT = Layout()
PARAMS = LAYOUT.static("params", (N_PARAMS,), "the rule parameters, params.P_* order")
PHASE = LAYOUT.dynamic(
    "phase", (), "0 before setup, then PHASE_ROLL (the seat to move rolls next) or PHASE_DECIDE (roll again or hold?)"
)
TURN_TOTAL = LAYOUT.dynamic("turn_total", (), "points rolled this turn, not yet banked")

rule_at = PARAMS.index  # st[rule_at(P_TARGET)]: a rule parameter

PHASE_SETUP = 0
PHASE_ROLL = 1
PHASE_DECIDE = 2

KIND_ROLL = np.int64(0)
HOLD = np.int64(0)
ROLL = np.int64(1)


def encode(params: Mapping[str, Any]) -> np.ndarray:
    image = LAYOUT.image()
    PARAMS.put(image, [int(params[p.name]) for p in PARAM_DECLS])
    return image


@njit(cache=True)
def score(st, seat):
    """Points banked by ``seat``."""
    return st[score_at(seat)]


@njit(cache=True)
def turn_total(st):
    """Points rolled this turn by the seat to move, not yet banked."""
    return st[TURN_TOTAL]


@njit(cache=True)
def target(st):
    return st[rule_at(P_TARGET)]
