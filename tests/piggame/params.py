"""Pig's rule parameters; the kernel reads them at PARAMS + P_*."""

from __future__ import annotations

from balance.game import Param

PARAMS = (
    Param("target", "int", 100, "points to win", "Neller and Presser (2004): first to 100", low=2, high=200),
    Param("max_turns", "int", 1000, "cap on player turns; the game then ends with no winner",
          "reading: a test cap, never reached by the heuristics", low=1, high=2000),
)

P_TARGET = 0
P_MAX_TURNS = 1
N_PARAMS = 2
