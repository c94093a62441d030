"""Pig's heuristic players (the one player signature, balance.game): hold at a
turn total."""

from __future__ import annotations

from numba import njit

from balance.game import PlayerInfo
from tests.piggame.state import HOLD, ROLL


@njit(cache=True)
def hold20(kind, seat, total, st):
    """Rolls until the turn total reaches 20 (Neller and Presser's "hold at 20")."""
    return HOLD if total >= 20 else ROLL


@njit(cache=True)
def hold25(kind, seat, total, st):
    """Rolls until the turn total reaches 25: bolder than hold20."""
    return HOLD if total >= 25 else ROLL


PLAYERS = (
    PlayerInfo("hold20", "rolls until the turn total reaches 20, then holds", hold20),
    PlayerInfo("hold25", "rolls until the turn total reaches 25, then holds", hold25),
)


@njit(cache=True)
def heuristics(index, kind, seat, subject, st):
    """The heuristics as one switch on their index in PLAYERS."""
    if index == 0:
        return hold20(kind, seat, subject, st)
    return hold25(kind, seat, subject, st)
