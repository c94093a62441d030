"""Coin Race's one player: it flips."""

from __future__ import annotations

from numba import njit

from balance.game import PlayerInfo


@njit(cache=True)
def flip(kind, seat, subject, st):
    return 0


PLAYERS = (PlayerInfo("flip", "flips the coin (there is nothing else to do)", flip),)


@njit(cache=True)
def heuristics(index, kind, seat, subject, st):
    return flip(kind, seat, subject, st)
