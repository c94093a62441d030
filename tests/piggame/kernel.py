"""Pig's rules (RULES.md) as a state machine for balance.engine."""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.engine import compile_kernel
from balance.state import (
    DECIDER,
    END_REASON,
    N_SEATS,
    SEAT,
    TURN,
    VALUE_SCALE,
    WINNER,
    ask,
    draw_below,
    end_game,
    score_at,
)
from tests.piggame import players
from tests.piggame.params import P_MAX_TURNS, P_TARGET
from tests.piggame.events import write_end, write_hold, write_roll
from tests.piggame.state import (
    HOLD,
    KIND_ROLL,
    PHASE,
    PHASE_DECIDE,
    PHASE_ROLL,
    PHASE_SETUP,
    ROLL,
    TURN_TOTAL,
    rule_at,
)

END_TARGET = np.int64(0)
END_TURN_LIMIT = np.int64(1)


@njit(cache=True)
def _end(st, reason, winner):
    end_game(st, reason, winner)
    write_end(st, winner, reason)


@njit(cache=True)
def _next_turn(st):
    """The next seat's turn begins with its compulsory roll (or the cap ends the game)."""
    if st[TURN] >= st[rule_at(P_MAX_TURNS)]:
        _end(st, END_TURN_LIMIT, np.int64(-1))
        return
    st[TURN] += 1
    st[SEAT] = (st[TURN] - 1) % st[N_SEATS]
    st[TURN_TOTAL] = 0
    st[PHASE] = PHASE_ROLL


@njit(cache=True)
def advance(st):
    """Roll for the seat to move until it must decide, a bust passes the turn
    on, or it wins."""
    if st[PHASE] == PHASE_SETUP:
        _next_turn(st)
    if st[PHASE] == PHASE_DECIDE:  # a decision is pending: nothing to run
        return
    while st[END_REASON] < 0:
        seat = st[SEAT]
        face = draw_below(st, np.int64(6)) + 1
        if face == 1:
            st[TURN_TOTAL] = 0
        else:
            st[TURN_TOTAL] += face
        write_roll(st, seat, face, st[TURN_TOTAL], st[score_at(seat)])
        if face == 1:
            _next_turn(st)
            continue
        if st[score_at(seat)] + st[TURN_TOTAL] >= st[rule_at(P_TARGET)]:
            st[score_at(seat)] += st[TURN_TOTAL]
            st[TURN_TOTAL] = 0
            _end(st, END_TARGET, seat)
            return
        st[PHASE] = PHASE_DECIDE
        ask(st, seat, KIND_ROLL, st[TURN_TOTAL])
        return


@njit(cache=True)
def apply(st, answer):
    """Roll again (ROLL) or hold (any other answer): bank the turn total."""
    seat = st[DECIDER]
    st[DECIDER] = -1
    if answer == ROLL:
        st[PHASE] = PHASE_ROLL
        return
    banked = st[TURN_TOTAL]
    st[score_at(seat)] += banked
    st[TURN_TOTAL] = 0
    write_hold(st, seat, banked, st[score_at(seat)])
    _next_turn(st)


@njit(cache=True)
def candidates(st, out):
    """Hold or roll again."""
    out[0] = HOLD
    out[1] = ROLL
    return 2


@njit(cache=True)
def determinize(st, seat):
    """Nothing is hidden in Pig."""


@njit(cache=True)
def evaluate(st, seat):
    """A win is worth VALUE_SCALE, anything else 0 (playouts go to the end)."""
    return VALUE_SCALE if st[WINNER] == seat else 0


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
