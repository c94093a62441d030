"""Coin Race's state: the shared header (balance.state), then::

    PARAMS     static   the rule parameters, params.P_* order
    PHASE      dynamic  0 before a flip is asked, PHASE_FLIP while it is
    POINTS     (the header's SCORE) points per seat

Decisions: KIND_FLIP ("flip the coin"; every answer flips).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.state import SCORE, Layout
from tests.coinrace.params import N_PARAMS, PARAMS as PARAM_DECLS

LAYOUT = Layout()
PARAMS = LAYOUT.static(N_PARAMS)
PHASE = LAYOUT.dynamic(1)
POINTS = SCORE

PHASE_IDLE = 0
PHASE_FLIP = 1
KIND_FLIP = np.int64(0)

EV_FLIP = 1  # seat, heads (0/1), points after
EV_END = 2  # winner, end reason


def encode(params: Mapping[str, Any]) -> np.ndarray:
    image = LAYOUT.image()
    for i, p in enumerate(PARAM_DECLS):
        image[PARAMS + i] = int(params[p.name])
    return image
