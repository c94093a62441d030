"""Bahama Taxi's state: the shared header (``balance.state``), then the game's
regions, and the rule helpers players may call.

Layout (slots of the one flat ``int64`` state; "x4" = one per seat, seats 0..3)::

    static (the image: set once per state by encode)
    PARAMS       x9     the rule parameters, params.P_* order (bools as 0/1, a
                        choice as its index: pickup 0 compulsory, 1 optional)
    NEIGHBOURS   52x16  field f's j-th neighbour at f*MAX_DEGREE + j, ascending,
                        -1 padded
    DEGREE       x52    neighbours of each field
    DIST         52x52  a*N_FIELDS + b: shortest-path distance = the fare of a ride

    dynamic (zeroed before every game; setup fills it)
    PHASE               PHASE_SETUP (0) before setup, PHASE_TURN between turns,
                        PHASE_MOVE while the mover's answer is pending,
                        PHASE_PICKUP while its pick-up answer is pending
    PILE                cards drawn so far: the pile is DECK[PILE:52]
    N_WAITING           citizens waiting now (the first entries of WAITING)
    N_CITIZENS          citizens drawn so far (ids 0 .. N_CITIZENS-1, draw order)
    DECK         x52    the field of each card, in draw order (shuffled at setup)
    TAXI         x4     field of each seat's taxi (-1: seat unused)
    TAXI_AT      x52    seat whose taxi stands on a field, or -1
    WAITING      x26    waiting citizens, in draw order
    WAITING_AT   x52    citizen waiting on a field, or -1
    ORIGIN, DEST, FARE  x26 each: each citizen's origin, destination, fare
    ABOARD       4x8    seat*MAX_CAPACITY + i: passengers, in pick-up order
    N_ABOARD     x4     passengers per seat

    shared header      TURN (player turns begun), SEAT (the seat to move),
                       WINNER, END_REASON, SCORE (= INCOME: fares collected per
                       seat), RNG (the game's stream: balance.state.draw_below)

The board always has 52 fields (one per card: board.py refuses any other), so
every region has a fixed size and a fixed offset.

Decisions, both asked of the seat whose turn it is:

* :data:`KIND_MOVE` ("where does your taxi go?"), once per turn; the subject is
  the taxi's field.  The answer is a field: the taxi's own to stay, or a free
  adjacent one.  An illegal answer becomes :func:`fallback_move`.
* :data:`KIND_PICKUP` ("take this citizen?"), with ``pickup = optional`` only,
  after the move and the drop, when a citizen waits on the field the taxi
  stopped on and the taxi may take one (:func:`may_take`); the subject is the
  citizen.  The answer is :data:`PICKUP_TAKE` (1) or :data:`PICKUP_DECLINE`
  (0); any other answer is illegal and takes (the play of the compulsory
  reading, so a player that ignores the decision plays that game).

Players read the state through the accessors below (``taxi(st, seat)``,
``dist(st, a, b)``, ...) and the rule helpers (:func:`may_take`,
:func:`may_stay`, :func:`is_legal_move`, :func:`pile_can_supply`,
:func:`pickup_is_optional`, :func:`taking_ends_game`, :func:`lead`); they
never write to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import N_SEATS, SCORE, TURN, Layout
from sims.bahama.params import (
    N_PARAMS,
    P_CAPACITY,
    P_PICKUP,
    P_MUST_MOVE,
    P_SECOND_LOCK,
    P_SECOND_LOCK_WAITING,
    P_THIRD_LOCK,
)
from sims.bahama.params import PARAMS as PARAM_DECLS

N_FIELDS = 52  # one field per card of the deck (board.N_FIELDS)
MAX_DEGREE = 16  # width of the neighbour table (board.MAX_DEGREE)
MAX_TAXIS = 4  # seats (SPEC.max_players)
MAX_CITIZENS = N_FIELDS // 2  # each citizen is two cards
MAX_CAPACITY = 8  # width of the passenger table (params.MAX_CAPACITY)

LAYOUT = Layout()
PARAMS = LAYOUT.static(N_PARAMS)
NEIGHBOURS = LAYOUT.static(N_FIELDS * MAX_DEGREE)
DEGREE = LAYOUT.static(N_FIELDS)
DIST = LAYOUT.static(N_FIELDS * N_FIELDS)
PHASE = LAYOUT.dynamic(1)
PILE = LAYOUT.dynamic(1)
N_WAITING = LAYOUT.dynamic(1)
N_CITIZENS = LAYOUT.dynamic(1)
DECK = LAYOUT.dynamic(N_FIELDS)
TAXI = LAYOUT.dynamic(MAX_TAXIS)
TAXI_AT = LAYOUT.dynamic(N_FIELDS)
WAITING = LAYOUT.dynamic(MAX_CITIZENS)
WAITING_AT = LAYOUT.dynamic(N_FIELDS)
ORIGIN = LAYOUT.dynamic(MAX_CITIZENS)
DEST = LAYOUT.dynamic(MAX_CITIZENS)
FARE = LAYOUT.dynamic(MAX_CITIZENS)
ABOARD = LAYOUT.dynamic(MAX_TAXIS * MAX_CAPACITY)
N_ABOARD = LAYOUT.dynamic(MAX_TAXIS)
INCOME = SCORE  # the outcome's per-seat score is the income: the shared header's SCORE

PHASE_SETUP = 0
PHASE_TURN = 1
PHASE_MOVE = 2
PHASE_PICKUP = 3

KIND_MOVE = np.int64(0)  # the field to drive to (subject: the taxi's field)
KIND_PICKUP = np.int64(1)  # take the citizen waiting here? (subject: the citizen; pickup = optional)
PICKUP_DECLINE = np.int64(0)  # answers to KIND_PICKUP; any other answer takes
PICKUP_TAKE = np.int64(1)

# Trace rows (balance.state.event): kind, turn, then six values.
EV_CITIZEN = 0  # -, citizen id, origin field, destination field
EV_TURN = 1  # seat
EV_MOVE = 2  # seat, from field, to field (equal: stayed)
EV_DROP = 3  # seat, field, citizen id, fare collected
EV_PICKUP = 4  # seat, field, citizen id
EV_END = 5  # end reason, winner (-1: none), income of seats 0..3
EV_DECLINE = 6  # seat, field, citizen id (pickup = optional: the mover left it waiting)


def encode(params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
    """The state image: the rules and the board's tables (``n_seats`` is set by
    the engine in the header)."""
    if board.neighbours.shape != (N_FIELDS, MAX_DEGREE):  # board.py guarantees it
        raise ValueError(f"a Bahama board has {N_FIELDS} fields and at most {MAX_DEGREE} neighbours a field")
    image = LAYOUT.image()
    for i, p in enumerate(PARAM_DECLS):
        image[PARAMS + i] = p.encode(params[p.name])
    image[NEIGHBOURS : NEIGHBOURS + N_FIELDS * MAX_DEGREE] = np.asarray(board.neighbours, np.int64).ravel()
    image[DEGREE : DEGREE + N_FIELDS] = np.asarray(board.degree, np.int64)
    image[DIST : DIST + N_FIELDS * N_FIELDS] = np.asarray(board.dist, np.int64).ravel()
    return image


# --------------------------------------------------------------------------- accessors
@njit(cache=True, _nrt=False)
def rule(st, p):
    """Rule parameter ``p`` (params.P_*)."""
    return st[PARAMS + p]


@njit(cache=True, _nrt=False)
def n_seats(st):
    """Seats in play (2-4)."""
    return st[N_SEATS]


@njit(cache=True, _nrt=False)
def turn(st):
    """The player turn being played (1 = the first)."""
    return st[TURN]


@njit(cache=True, _nrt=False)
def taxi(st, seat):
    """The field of ``seat``'s taxi."""
    return st[TAXI + seat]


@njit(cache=True, _nrt=False)
def taxi_at(st, f):
    """The seat whose taxi stands on field ``f``, or -1."""
    return st[TAXI_AT + f]


@njit(cache=True, _nrt=False)
def degree(st, f):
    """How many neighbours field ``f`` has."""
    return st[DEGREE + f]


@njit(cache=True, _nrt=False)
def neighbour(st, f, j):
    """The ``j``-th neighbour of field ``f`` (``j < degree(st, f)``; ascending)."""
    return st[NEIGHBOURS + f * MAX_DEGREE + j]


@njit(cache=True, _nrt=False)
def dist(st, a, b):
    """Moves of the shortest route from ``a`` to ``b``: the fare of that ride."""
    return st[DIST + a * N_FIELDS + b]


@njit(cache=True, _nrt=False)
def n_waiting(st):
    """Citizens waiting now."""
    return st[N_WAITING]


@njit(cache=True, _nrt=False)
def waiting(st, i):
    """The ``i``-th waiting citizen (``i < n_waiting(st)``; draw order)."""
    return st[WAITING + i]


@njit(cache=True, _nrt=False)
def waiting_at(st, f):
    """The citizen waiting on field ``f``, or -1."""
    return st[WAITING_AT + f]


@njit(cache=True, _nrt=False)
def origin(st, c):
    """Where citizen ``c`` waits (waited)."""
    return st[ORIGIN + c]


@njit(cache=True, _nrt=False)
def dest(st, c):
    """Where citizen ``c`` is going."""
    return st[DEST + c]


@njit(cache=True, _nrt=False)
def fare(st, c):
    """The fare citizen ``c`` pays on arrival: dist(origin, dest)."""
    return st[FARE + c]


@njit(cache=True, _nrt=False)
def n_aboard(st, seat):
    """Passengers in ``seat``'s taxi."""
    return st[N_ABOARD + seat]


@njit(cache=True, _nrt=False)
def aboard(st, seat, i):
    """The ``i``-th passenger of ``seat``'s taxi (``i < n_aboard``; pick-up order)."""
    return st[ABOARD + seat * MAX_CAPACITY + i]


@njit(cache=True, _nrt=False)
def income(st, seat):
    """Fares ``seat`` has collected."""
    return st[INCOME + seat]


@njit(cache=True, _nrt=False)
def pile_size(st):
    """Cards left in the draw pile."""
    return N_FIELDS - st[PILE]


# --------------------------------------------------------------------------- rule helpers
@njit(cache=True, _nrt=False)
def pile_can_supply(st):
    """The pile still holds a citizen (two cards)."""
    return N_FIELDS - st[PILE] >= 2


@njit(cache=True, _nrt=False)
def may_take(st, seat):
    """May ``seat``'s taxi take a waiting citizen now?  Capacity and end phase.

    Checked at the pick-up, before the citizen leaves the waiting row, so the
    waiting count includes the citizen being taken (RULES.md, 'second lock').
    "Third passenger" is read as the third or any later one (capacity > 3).
    """
    n = st[N_ABOARD + seat]
    if n >= st[PARAMS + P_CAPACITY]:
        return False
    if n >= 2 and st[PARAMS + P_THIRD_LOCK] != 0 and not pile_can_supply(st):
        return False
    second_locked = st[PARAMS + P_SECOND_LOCK] != 0 and st[N_WAITING] <= st[PARAMS + P_SECOND_LOCK_WAITING]
    return not (n >= 1 and second_locked)


@njit(cache=True, _nrt=False)
def may_stay(st, seat):
    """Staying is legal unless must_move holds and an adjacent field is free."""
    if st[PARAMS + P_MUST_MOVE] == 0:
        return True
    here = st[TAXI + seat]
    row = NEIGHBOURS + here * MAX_DEGREE
    for j in range(st[DEGREE + here]):
        if st[TAXI_AT + st[row + j]] < 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def is_legal_move(st, seat, to):
    """``to`` is the taxi's own field (if staying is legal) or a free adjacent field."""
    here = st[TAXI + seat]
    if to == here:
        return may_stay(st, seat)
    if to < 0 or to >= N_FIELDS or st[TAXI_AT + to] >= 0:
        return False
    return st[DIST + here * N_FIELDS + to] == 1  # adjacent, in one look-up


@njit(cache=True, _nrt=False)
def fallback_move(st, seat):
    """What an illegal answer becomes: stay, or (must_move) the first free neighbour."""
    here = st[TAXI + seat]
    if may_stay(st, seat):
        return here
    row = NEIGHBOURS + here * MAX_DEGREE
    for j in range(st[DEGREE + here]):
        f = st[row + j]
        if st[TAXI_AT + f] < 0:
            return f
    return here  # unreachable: may_stay is true when no neighbour is free


@njit(cache=True, _nrt=False)
def pickup_is_optional(st):
    """Is taking a citizen the player's decision (``pickup = optional``)?"""
    return st[PARAMS + P_PICKUP] != 0


@njit(cache=True, _nrt=False)
def taking_ends_game(st):
    """Would taking a waiting citizen now end the game?  The last one waits and
    the pile cannot replace it."""
    return st[N_WAITING] == 1 and not pile_can_supply(st)


@njit(cache=True, _nrt=False)
def lead(st, seat):
    """``seat``'s income minus the best other seat's: > 0 leads, 0 ties for first."""
    best = -(1 << 40)
    for s in range(st[N_SEATS]):
        if s != seat and st[INCOME + s] > best:
            best = st[INCOME + s]
    return st[INCOME + seat] - best
