"""Coin Race's state: the shared header (balance.state), then the regions
declared below; each seat's points are the shared header's SCORE.

Decisions: KIND_FLIP ("flip the coin"; every answer flips).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.state import SCORE, Layout, score_at
from tests.coinrace.params import N_PARAMS, PARAMS as PARAM_DECLS

LAYOUT = Layout()
PARAMS = LAYOUT.static("params", (N_PARAMS,), "the rule parameters, params.P_* order")
PHASE = LAYOUT.dynamic("phase", (), "0 before a flip is asked, PHASE_FLIP while it is")
POINTS = SCORE
rule_at = PARAMS.index  # st[rule_at(P_ROUNDS)]
points_at = score_at  # st[points_at(seat)]

PHASE_IDLE = 0
PHASE_FLIP = 1
KIND_FLIP = np.int64(0)


def encode(params: Mapping[str, Any]) -> np.ndarray:
    image = LAYOUT.image()
    PARAMS.put(image, [int(params[p.name]) for p in PARAM_DECLS])
    return image
