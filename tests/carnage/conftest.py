"""Helpers for hand-traced Carnage positions.

A position is built on a blank state (kernel.blank_state) by placing cars and
commuters; then the kernel's own ``play_turn`` plays it, with ``scripted`` as
the player: it answers each decision from a per-seat queue in the player's
scratch memory, so a test states exactly what each player does.  Dice and
cards are forced with the state's script.  Nothing here re-implements a rule.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sims.carnage import SPEC, events_from_state
from sims.carnage import kernel as K
from sims.carnage.board import board_from_dict
from sims.carnage.params import P_FARE_PER_BLOCK, param_array

ANSWERS = K.MEMORY - 1  # answers per seat and position


@njit
def scripted(index, kind, seat, car, st):
    """Answers from st[MEMORY_AT + seat*MEMORY + 1 + i], in order; then -1
    (illegal: ends the car's actions, declines a buy)."""
    base = K.MEMORY_AT + seat * K.MEMORY
    i = st[base]
    if i >= ANSWERS:
        return -1
    st[base] = i + 1
    return st[base + 1 + i]


def line_board():
    """Six streets in a row, s0 - s1 - s2 - s3 - s4 - s5: distances are plain.

    HQs s0, s5, s2, s3.  Cards: 0 = s1->s4 (3 blocks), 1 = s4->s1, 2 = s2->s3
    (1 block), 3 = s0->s5 (5 blocks), the other twelve s1->s4.
    """
    names = [f"s{i}" for i in range(6)]
    streets = [
        {"name": n, "neighbours": [names[j] for j in (i - 1, i + 1) if 0 <= j < 6]}
        for i, n in enumerate(names)
    ]
    cards = [["s1", "s4"], ["s4", "s1"], ["s2", "s3"], ["s0", "s5"]] + [
        ["s1", "s4"]
    ] * 12
    return board_from_dict(
        {"street": streets, "hq": ["s0", "s5", "s2", "s3"], "spawn_cards": cards},
        "line board",
    )


def params(**over):
    return param_array(SPEC.resolve_params(over))


def d6(*faces):
    """Forced d6 results as script values (a d6 is drawn as face - 1)."""
    return [f - 1 for f in faces]


class Position:
    """A hand-built position on ``board`` with ``n_seats`` scripted players.

    Every seat starts with 5 money (below a car's price: no buy offers unless a
    test gives more); unset answers are 0 (ACT_DONE; "no" to a buy offer).
    """

    def __init__(self, board, n_seats=2, script=(), **param_over):
        self.board = board
        self.params = params(**param_over)
        self.st = K.blank_state(
            board, self.params, np.zeros(n_seats, np.int64), record=True, script=script
        )
        self.st[K.MONEY : K.MONEY + n_seats] = 5
        self.turn = K.kernels(scripted).play_turn

    # ----- building
    def car(self, seat, street, car=None, load=()):
        st = self.st
        car = int(st[K.N_CARS + seat]) if car is None else car
        c = seat * K.MAX_CARS + car
        st[K.CAR_STREET + c] = street
        st[K.N_CARS + seat] = max(int(st[K.N_CARS + seat]), car + 1)
        st[st[K.STREET_CAR_AT] + street] = c
        for k in load:
            st[K.PASSENGERS + c * K.MAX_CAPACITY + st[K.CAR_LOAD + c]] = k
            st[K.CAR_LOAD + c] += 1
            st[K.TOKEN_STATUS + k] = K.TOKEN_RIDING
            st[K.N_FREE] -= 1
        return car

    def commuter(self, token, origin, dest, waiting=True):
        """A commuter token with its ride; waiting on ``origin`` unless a car
        will carry it (then pass it in ``car(..., load=[token])`` afterwards)."""
        st = self.st
        st[K.TOKEN_ORIGIN + token] = origin
        st[K.TOKEN_DEST + token] = dest
        st[K.TOKEN_FARE + token] = (
            st[K.PARAMS + P_FARE_PER_BLOCK] * self.board.dist[origin, dest]
        )
        if waiting:
            st[K.TOKEN_STATUS + token] = K.TOKEN_WAITING
            st[K.TOKEN_STREET + token] = origin
            st[K.WAITING + st[K.N_WAITING]] = token
            st[K.N_WAITING] += 1
            st[K.N_FREE] -= 1
            st[st[K.STREET_WAITING_AT] + origin] += 1

    def money(self, seat, amount):
        self.st[K.MONEY + seat] = amount

    def answers(self, seat, *codes):
        base = K.MEMORY_AT + seat * K.MEMORY
        self.st[base] = 0
        self.st[base + 1 : base + 1 + ANSWERS] = -1
        self.st[base + 1 : base + 1 + len(codes)] = codes

    def next_seat(self, seat):
        """The seat that plays the next turn."""
        n = int(self.st[K.N_SEATS])
        self.st[K.SEAT] = (seat - 1) % n

    # ----- playing and reading
    def play(self):
        """One turn; returns its events."""
        start = int(self.st[K.N_EVENTS])
        self.turn(self.st)
        return events_from_state(self.st)[start:]

    def events(self):
        return events_from_state(self.st)

    def __getitem__(self, slot):
        return int(self.st[slot])


@pytest.fixture(scope="session")
def line():
    return line_board()


@pytest.fixture(scope="session")
def default_board():
    return SPEC.load_board()


MOVE = int(K.ACT_MOVE)
DROP = int(K.ACT_DROP)
TAKE = int(K.ACT_TAKE)
DONE = int(K.ACT_DONE)


def move_to(board, street, to):
    """The move answer that takes a car on ``street`` to ``to``."""
    return MOVE + list(board.adjacency[street]).index(to)
