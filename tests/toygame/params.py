"""Dice Race's rule parameters; the kernel reads them with state.rule_at(P_*)."""

from __future__ import annotations

from balance.game import Param

PARAMS = (
    Param("target", "int", 20, "steps to win", "reading: a test game's rule", low=1, high=1000),
    Param("first_bonus", "int", 0, "extra steps for seat 0 on its first turn", "reading: a test knob", low=0, high=100),
    Param("max_turns", "int", 400, "cap on player turns; the game then ends with no winner", "reading: a test cap",
          low=1, high=100_000),
)

P_TARGET = 0
P_FIRST_BONUS = 1
P_MAX_TURNS = 2
N_PARAMS = 3
