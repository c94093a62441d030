"""Dice Race's rules as a state machine for balance.engine."""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.engine import compile_kernel
from balance.state import (
    DECIDER,
    N_SEATS,
    SEAT,
    TURN,
    VALUE_SCALE,
    WINNER,
    ask,
    draw_below,
    end_game,
)
from tests.toygame import players
from tests.toygame.params import P_FIRST_BONUS, P_MAX_TURNS, P_TARGET
from tests.toygame.events import write_end, write_roll
from tests.toygame.state import KIND_MOVE, PHASE, PHASE_MOVE, PHASE_ROLL, ROLL, position_at, rule_at

END_TARGET = np.int64(0)
END_TURN_LIMIT = np.int64(1)


@njit(cache=True)
def _end(st, reason, winner):
    end_game(st, reason, winner)
    write_end(st, winner, reason)


@njit(cache=True)
def advance(st):
    """Next seat rolls; it decides how far to move."""
    if st[PHASE] == PHASE_MOVE:  # a decision is pending: nothing to run
        return
    if st[TURN] >= st[rule_at(P_MAX_TURNS)]:
        _end(st, END_TURN_LIMIT, np.int64(-1))
        return
    st[TURN] += 1
    st[SEAT] = (st[TURN] - 1) % st[N_SEATS]
    st[ROLL] = draw_below(st, np.int64(6)) + 1
    st[PHASE] = PHASE_MOVE
    ask(st, st[SEAT], KIND_MOVE, st[ROLL])


@njit(cache=True)
def apply(st, answer):
    """Move ``answer`` steps (0..roll; anything else: the whole roll)."""
    seat = st[DECIDER]
    roll = st[ROLL]
    steps = answer if 0 <= answer <= roll else roll
    if st[TURN] == 1:
        steps += st[rule_at(P_FIRST_BONUS)]
    st[position_at(seat)] += steps
    st[PHASE] = PHASE_ROLL
    st[DECIDER] = -1
    write_roll(st, seat, roll, steps, st[position_at(seat)])
    if st[position_at(seat)] >= st[rule_at(P_TARGET)]:
        _end(st, END_TARGET, seat)


@njit(cache=True)
def candidates(st, out):
    """Every number of steps, the whole roll first."""
    roll = st[ROLL]
    for k in range(roll + 1):
        out[k] = roll - k
    return roll + 1


@njit(cache=True)
def determinize(st, seat):
    """Nothing is hidden in a dice race."""


@njit(cache=True)
def evaluate(st, seat):
    """A win is worth VALUE_SCALE; an unfinished race the share of the target made."""
    if st[WINNER] >= 0:
        return VALUE_SCALE if st[WINNER] == seat else 0
    return min(VALUE_SCALE, VALUE_SCALE * st[position_at(seat)] // (2 * st[rule_at(P_TARGET)]))


KERNEL = compile_kernel(
    __name__,
    advance=advance,
    apply=apply,
    heuristics=players.heuristics,
    n_heuristics=len(players.PLAYERS),
    candidates=candidates,
    determinize=determinize,
    evaluate=evaluate,
)
