"""Dice Race's heuristic players (the one player signature, balance.game)."""

from __future__ import annotations

from numba import njit

from balance.game import Param, PlayerInfo
from balance.state import player_param

K_HOLD_BACK = 0  # cautious's parameters, in declaration order
K_FROM_ROLL = 1


@njit(cache=True)
def plain(kind, seat, roll, st):
    """Moves the whole roll."""
    return roll


@njit(cache=True)
def cautious(kind, seat, roll, st):
    """``hold_back`` steps less on a roll of ``from_roll`` or more (by default one
    step less on a six)."""
    if roll >= player_param(st, seat, K_FROM_ROLL):
        return max(0, roll - player_param(st, seat, K_HOLD_BACK))
    return roll


PLAYERS = (
    PlayerInfo("plain", "moves the whole roll", plain),
    PlayerInfo(
        "cautious",
        "moves one step less on a six",
        cautious,
        params=(
            Param("hold_back", "int", 1, "steps it gives up on a high roll",
                  "reading: a test knob (0 plays like plain, the best there is in a race)", low=0, high=6),
            Param("from_roll", "int", 6, "the lowest roll it holds back on",
                  "reading: a test knob", low=1, high=6),
        ),
    ),
)


@njit(cache=True)
def heuristics(index, kind, seat, subject, st):
    """The heuristics as one switch on their index in PLAYERS."""
    if index == 0:
        return plain(kind, seat, subject, st)
    return cautious(kind, seat, subject, st)
