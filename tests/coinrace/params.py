"""Coin Race's rule parameters; the kernel reads them at PARAMS + P_*."""

from __future__ import annotations

from balance.game import Param

PARAMS = (
    Param("rounds", "int", 4, "rounds played; the most points then wins", "reading: a test game's rule",
          low=1, high=10_000),
)

P_ROUNDS = 0
N_PARAMS = 1
