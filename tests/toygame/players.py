"""Dice Race's heuristic players (the one player signature, balance.game)."""

from __future__ import annotations

from numba import njit

from balance.game import PlayerInfo


@njit(cache=True)
def plain(kind, seat, roll, st):
    """Moves the whole roll."""
    return roll


@njit(cache=True)
def cautious(kind, seat, roll, st):
    """One step less on a six."""
    return roll - 1 if roll == 6 else roll


PLAYERS = (
    PlayerInfo("plain", "moves the whole roll", plain),
    PlayerInfo("cautious", "moves one step less on a six", cautious),
)


@njit(cache=True)
def heuristics(index, kind, seat, subject, st):
    """The heuristics as one switch on their index in PLAYERS."""
    if index == 0:
        return plain(kind, seat, subject, st)
    return cautious(kind, seat, subject, st)
