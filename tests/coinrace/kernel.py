"""Coin Race's rules (RULES.md) as a state machine for balance.engine."""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.engine import compile_kernel
from balance.state import DECIDER, N_SEATS, SEAT, TURN, VALUE_SCALE, WINNER, ask, draw_below, end_game
from tests.coinrace import players
from tests.coinrace.params import P_ROUNDS
from tests.coinrace.events import write_end, write_flip
from tests.coinrace.state import KIND_FLIP, PHASE, PHASE_FLIP, PHASE_IDLE, points_at, rule_at

END_ROUNDS = np.int64(0)
END_TIE = np.int64(1)


@njit(cache=True)
def _end(st, reason, winner):
    end_game(st, reason, winner)
    write_end(st, winner, reason)


@njit(cache=True)
def advance(st):
    """The next seat is asked to flip; after the last round, the most points win."""
    if st[PHASE] == PHASE_FLIP:
        return
    n = st[N_SEATS]
    if st[TURN] >= n * st[rule_at(P_ROUNDS)]:
        best = 0
        ties = 0
        for s in range(n):
            if st[points_at(s)] > st[points_at(best)]:
                best = s
                ties = 0
            elif s != best and st[points_at(s)] == st[points_at(best)]:
                ties += 1
        if ties:
            _end(st, END_TIE, np.int64(-1))
        else:
            _end(st, END_ROUNDS, np.int64(best))
        return
    st[TURN] += 1
    st[SEAT] = (st[TURN] - 1) % n
    st[PHASE] = PHASE_FLIP
    ask(st, st[SEAT], KIND_FLIP, np.int64(0))


@njit(cache=True)
def apply(st, answer):
    seat = st[DECIDER]
    heads = draw_below(st, np.int64(2))
    st[points_at(seat)] += heads
    st[PHASE] = PHASE_IDLE
    st[DECIDER] = -1
    write_flip(st, seat, heads, st[points_at(seat)])


@njit(cache=True)
def candidates(st, out):
    return 0  # nothing to search


@njit(cache=True)
def determinize(st, seat):
    """Nothing is hidden."""


@njit(cache=True)
def evaluate(st, seat):
    if st[WINNER] >= 0:
        return VALUE_SCALE if st[WINNER] == seat else 0
    return VALUE_SCALE // 2


@njit(cache=True)
def standing(st, seat):
    """The seat's points."""
    return st[points_at(seat)]


KERNEL = compile_kernel(
    __name__,
    advance=advance,
    apply=apply,
    heuristics=players.heuristics,
    n_heuristics=len(players.PLAYERS),
    candidates=candidates,
    determinize=determinize,
    evaluate=evaluate,
    standing=standing,
)
