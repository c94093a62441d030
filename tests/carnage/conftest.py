"""Helpers for hand-built Carnage positions.

A position is ``SPEC.position(...)`` (balance.game.Position: the kernel's own
``advance`` and ``apply`` stepped from Python) on a table emptied by the
kernel's ``empty_city`` (no car, every token free, start money) instead of the
setup: a test places cars and commuters, then plays turns, answering each
decision from a per-seat queue of answers.  Dice and cards are forced with
``script=`` (a d6 as its face minus one, a card as its index).  Nothing here
re-implements a rule.
"""

from __future__ import annotations

import pytest

from balance.state import TURN
from sims.carnage import SPEC
from sims.carnage import kernel as K
from sims.carnage import state as S
from sims.carnage.board import board_from_dict
from sims.carnage.params import P_FARE_PER_BLOCK


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
    cards = [["s1", "s4"], ["s4", "s1"], ["s2", "s3"], ["s0", "s5"]] + [["s1", "s4"]] * 12
    return board_from_dict(
        {"street": streets, "hq": ["s0", "s5", "s2", "s3"], "spawn_cards": cards},
        "line board",
    )


def d6(*faces):
    """Forced d6 results as script values (a d6 is drawn as face - 1)."""
    return [f - 1 for f in faces]


class Position:
    """A hand-built position on ``board`` with ``n_seats`` seats whose answers
    the test gives (``answers``).

    Every seat starts with 5 money (below a car's price: no buy offers unless a
    test gives more); a decision with no queued answer gets 0 (ACT_DONE; "no"
    to a buy offer).  ``players`` seats other players (labels) for tests that
    ask a player's own answer (``pos.decide()``).  ``asked`` lists every decision put to a seat, as
    ``(seat, kind, subject)``.
    """

    def __init__(self, board, n_seats=2, script=(), players=None, **param_over):
        self.board = board
        seated = list(players) if players is not None else ["greedy"] * n_seats
        self.pos = SPEC.position(param_over, seated, board=board, script=script)
        self.st = self.pos.st
        K.empty_city(self.st)
        for seat in range(n_seats):
            self.st[S.money_at(seat)] = 5
        self.queue = {seat: [] for seat in range(n_seats)}
        self.asked = []
        self.cursor = 0  # events already returned by play()

    # ----- building
    def car(self, seat, street, car=None, load=()):
        st = self.st
        car = int(st[S.n_cars_at(seat)]) if car is None else car
        c = seat * S.MAX_CARS + car
        st[S.car_street_at(c)] = street
        st[S.n_cars_at(seat)] = max(int(st[S.n_cars_at(seat)]), car + 1)
        st[S.street_car_at(st, street)] = c
        for k in load:
            st[S.passengers_at(c, st[S.car_load_at(c)])] = k
            st[S.car_load_at(c)] += 1
            st[S.token_status_at(k)] = S.TOKEN_RIDING
            st[S.N_FREE] -= 1
        return car

    def commuter(self, token, origin, dest, waiting=True):
        """A commuter token with its ride; waiting on ``origin`` unless a car
        will carry it (then pass it in ``car(..., load=[token])`` afterwards)."""
        st = self.st
        st[S.token_origin_at(token)] = origin
        st[S.token_dest_at(token)] = dest
        st[S.token_fare_at(token)] = st[S.rule_at(P_FARE_PER_BLOCK)] * self.board.dist[origin, dest]
        if waiting:
            st[S.token_status_at(token)] = S.TOKEN_WAITING
            st[S.token_street_at(token)] = origin
            st[S.waiting_at(st[S.N_WAITING])] = token
            st[S.N_WAITING] += 1
            st[S.N_FREE] -= 1
            st[S.street_waiting_at(st, origin)] += 1

    def money(self, seat, amount):
        self.st[S.money_at(seat)] = amount

    def answers(self, seat, *codes):
        """The answers ``seat`` gives to its next decisions, in order."""
        self.queue[seat] = [int(c) for c in codes]

    # ----- playing and reading
    def play(self):
        """One turn (the next seat still in the game); returns its events.

        The kernel runs on to the next player's first decision before it
        returns, so that turn's first events are already written: they are
        returned by the next call."""
        st = self.st
        target = int(st[TURN]) + (1 if st[S.PHASE] == S.PHASE_TURN else 0)
        while True:
            pending = self.pos.advance()
            if pending is None or int(st[TURN]) > target:
                break
            seat, kind, subject = pending
            self.asked.append(pending)
            queue = self.queue[seat]
            self.pos.answer(queue.pop(0) if queue else 0)
        events = self.pos.events()
        end = len(events)
        for i in range(max(self.cursor, 1), len(events)):
            if events[i]["type"] == "turn" and events[i]["turn"] > target:
                end = i
                break
        out = events[max(self.cursor, 1) : end]
        self.cursor = end
        return out

    def events(self):
        return self.pos.events()

    @property
    def ended(self):
        return self.pos.ended

    def __getitem__(self, slot):
        return int(self.st[slot])


@pytest.fixture(scope="session")
def line():
    return line_board()


@pytest.fixture(scope="session")
def default_board():
    return SPEC.load_board()


MOVE = int(S.ACT_MOVE)
DROP = int(S.ACT_DROP)
TAKE = int(S.ACT_TAKE)
DONE = int(S.ACT_DONE)


def move_to(board, street, to):
    """The move answer that takes a car on ``street`` to ``to``."""
    return MOVE + list(board.adjacency[street]).index(to)

