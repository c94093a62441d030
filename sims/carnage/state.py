"""Carnage's state: the shared header of :mod:`balance.state`, then Carnage's regions.

One flat ``int64`` array per game in play (why one array: balance/state.py).
The header gives the per-game counters every game has: ``TURN`` (player turns
begun), ``SEAT`` (whose turn; -1 before the first), ``WINNER``,
``END_REASON``, ``RECORD``, ``N_EVENTS``, the random stream ``RNG``,
``SEATING``, ``SCORE`` (here: commuters delivered, ``DELIVERED``) and
``MEMORY`` (a player's own scratch: ``balance.state.memory``/``remember``).

Carnage's own regions ("x4" = one per seat, seats 0..3; car ``c`` of seat
``p`` at ``p * MAX_CARS + c``)::

    static (the image; set once per state)
      PARAMS            24   rule parameters, params.P_* order (a choice as its index)
      N_STREETS              streets on the board
      STREET_CAR_AT, STREET_WAITING_AT, N_NEIGHBOURS_AT, NEIGHBOURS_AT, DIST_AT,
      HQ_SITES_AT            offsets of the board-sized regions below
      N_SITES                HQ sites on the board
      CARDS             32   the 16 spawn cards: origin at 2j, destination at 2j+1
    dynamic (zero before every game; setup fills it)
      PHASE                  PHASE_SETUP (0: not set up), PHASE_HQ (HQs are
                             being chosen), PHASE_TURN (a turn is to begin),
                             PHASE_ACT (a turn is under way)
      HQ_SEAT                the seat choosing its HQ next (PHASE_HQ)
      CAR                    the car acting now, or NO_CAR: a buy offer (when
                             OFFERING) and then the choice of the next car come
      OFFERING               1: a buy offer comes before the next car is chosen
      N_START                cars the seat owned when its turn began (cars
                             bought during the turn come after and never act)
      FINISHED               bit c: car c has finished acting this turn
      MAY_ACT                bit c: car c may act next (set when KIND_ORDER is asked;
                             cleared when the chosen car is asked, so the rules
                             need not test it again)
      N_ALIVE, N_WAITING (commuters waiting on streets), N_FREE (free commuter
      tokens), STREAK (consecutive turn ends over gridlock_limit), BANK (money
      tokens left in the bank; bank_money > 0 only)
      HQ, MONEY, ALIVE (1/0), N_CARS (0 once out)                    x4 each
      CAR_STREET (-1: no car), CAR_BOUGHT (turn; 0 = setup), CAR_USED
      (USED_* bits this turn), CAR_LOAD                       x32 each (p*8+c)
      PASSENGERS        token ids at (p*8+c)*8 + i for i < load
      TOKEN_STATUS (TOKEN_*), TOKEN_ORIGIN, TOKEN_DEST, TOKEN_FARE
      (fare_per_block x blocks), TOKEN_STREET (where it waits)        x64 each
      WAITING           ids of the waiting commuters, first st[N_WAITING] entries
    board-sized regions (N = streets; offsets in the static slots above)
      STREET_CAR        N    dynamic: car on the street as seat*8 + car, or -1
      STREET_WAITING    N    dynamic: commuters waiting on the street
      N_NEIGHBOURS      N    static: how many neighbours
      NEIGHBOURS        6N   static: street*6 + k, padded with -1
      DIST              N*N  static: a*N + b: blocks between streets a and b
      HQ_SITES          N    static: the board's HQ sites, first N_SITES entries

Decisions (``ask(st, seat, kind, subject)``; the players' contract is in
players.py): ``KIND_HQ`` (at setup, hq = chosen or anywhere; subject: the
street the kernel gives when the answer is illegal), ``KIND_BUY`` (subject: the
index the new car would get), ``KIND_ORDER`` (which car acts next; subject: the
car the kernel takes when the answer is illegal, the first in fleet order) and
``KIND_CAR`` (subject: the car), answered with a street, 1/0, a car and
``ACT_*``.

The rule helpers below (``can_buy``, ``can_move``, ``dist`` ...) are what
players call to read the state; this module imports nothing of the game but
params.py, so players never import the kernel.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import SCORE, Layout
from sims.carnage.params import HQ_CHOSEN, N_PARAMS, P_CAR_CAPACITY, P_CAR_COST, P_HQ, P_MAX_CARS
from sims.carnage.params import PARAMS as PARAM_DECLS

# Strides: the parameter ranges' maxima (params.py), so the layout is fixed.
MAX_PLAYERS = 4  # Carnage seats (balance.state.MAX_SEATS is the toolkit's bound)
MAX_CARS = 8
MAX_CAPACITY = 8
MAX_TOKENS = 64  # commuter_tokens <= 63: a trace row holds commuters as a bit mask
N_CARDS = 16
MAX_NEIGHBOURS = 6

MAX_RANKS = 8  # a take answer can name the first 8 commuters of a street's order

LAYOUT = Layout()
# static
PARAMS = LAYOUT.static(24)
N_STREETS = LAYOUT.static(1)
STREET_CAR_AT = LAYOUT.static(1)
STREET_WAITING_AT = LAYOUT.static(1)
N_NEIGHBOURS_AT = LAYOUT.static(1)
NEIGHBOURS_AT = LAYOUT.static(1)
DIST_AT = LAYOUT.static(1)
HQ_SITES_AT = LAYOUT.static(1)
N_SITES = LAYOUT.static(1)
CARDS = LAYOUT.static(2 * N_CARDS)
# dynamic
PHASE = LAYOUT.dynamic(1)
HQ_SEAT = LAYOUT.dynamic(1)
CAR = LAYOUT.dynamic(1)
OFFERING = LAYOUT.dynamic(1)
N_START = LAYOUT.dynamic(1)
FINISHED = LAYOUT.dynamic(1)
MAY_ACT = LAYOUT.dynamic(1)
N_ALIVE = LAYOUT.dynamic(1)
N_WAITING = LAYOUT.dynamic(1)
N_FREE = LAYOUT.dynamic(1)
STREAK = LAYOUT.dynamic(1)
BANK = LAYOUT.dynamic(1)
HQ = LAYOUT.dynamic(MAX_PLAYERS)
MONEY = LAYOUT.dynamic(MAX_PLAYERS)
ALIVE = LAYOUT.dynamic(MAX_PLAYERS)
N_CARS = LAYOUT.dynamic(MAX_PLAYERS)
CAR_STREET = LAYOUT.dynamic(MAX_PLAYERS * MAX_CARS)
CAR_BOUGHT = LAYOUT.dynamic(MAX_PLAYERS * MAX_CARS)
CAR_USED = LAYOUT.dynamic(MAX_PLAYERS * MAX_CARS)
CAR_LOAD = LAYOUT.dynamic(MAX_PLAYERS * MAX_CARS)
PASSENGERS = LAYOUT.dynamic(MAX_PLAYERS * MAX_CARS * MAX_CAPACITY)
TOKEN_STATUS = LAYOUT.dynamic(MAX_TOKENS)
TOKEN_ORIGIN = LAYOUT.dynamic(MAX_TOKENS)
TOKEN_DEST = LAYOUT.dynamic(MAX_TOKENS)
TOKEN_FARE = LAYOUT.dynamic(MAX_TOKENS)
TOKEN_STREET = LAYOUT.dynamic(MAX_TOKENS)
WAITING = LAYOUT.dynamic(MAX_TOKENS)
# the board-sized regions follow, allotted per board by encode()
DELIVERED = SCORE  # commuters delivered per seat: the outcome's score
assert N_PARAMS <= 24

PHASE_SETUP = 0
PHASE_TURN = 1
PHASE_ACT = 2
PHASE_HQ = 3

NO_CAR = -1  # CAR: no car is acting (a buy offer, then the choice of the next car)

TOKEN_FREE = 0
TOKEN_WAITING = 1
TOKEN_RIDING = 2

USED_DROP = 1
USED_TAKE = 2
USED_MOVE = 4

# Decisions: player(kind, seat, subject, st) -> int (players.py).
KIND_BUY = np.int64(0)  # buy a car now? 1 = yes, anything else = no (asked only when legal)
KIND_CAR = np.int64(1)  # next action of car `subject` (asked while it has a legal unused action)
KIND_ORDER = np.int64(2)  # which car acts next? a car that may still act (asked when 2+ may)
KIND_HQ = np.int64(3)  # which street is your HQ? (setup, hq = chosen or anywhere)
ACT_DONE = np.int64(0)  # this car does nothing more this turn
ACT_DROP = np.int64(1)  # drop every passenger bound for this street
ACT_TAKE = np.int64(2)  # take the commuters waiting here, longest rides first, up to free seats
ACT_MOVE = np.int64(3)  # ACT_MOVE + k: move to neighbour(st, street, k), k = 0..5
ACT_TAKE_RANKS = np.int64(16)  # ACT_TAKE_RANKS + mask: take the commuters of these ranks (below)
# Any other or illegal car answer ends the car's actions (as ACT_DONE); an
# illegal KIND_ORDER or KIND_HQ answer becomes the subject.
#
# Ranks: the commuters waiting on a street in the order a full take fills seats,
# longest ride first, ties by lowest token id (waiting_ranked).  Bit r of the
# mask (r < MAX_RANKS) takes the commuter of rank r; the mask must name at
# least one commuter, only ranks that exist, and no more than the free seats.

# Spawn causes and loss reasons as stored in trace rows.
CAUSE_SETUP = np.int64(0)
CAUSE_DROP = np.int64(1)
CAUSE_TURN_END = np.int64(2)
LOSE_STUCK = np.int64(0)
LOSE_BANKRUPT = np.int64(1)

# Trace rows (balance.state.event): row[0] = EV_*, row[1] = turn, then row[2..7]:
#   EV_SPAWN   cause, roll (-1 = null), spawned (1/0), card, commuter
#   EV_TURN    seat
#   EV_BUY     seat, car, street, cost
#   EV_DROP    seat, car, street, commuters (bit mask of token ids)
#   EV_MOVE    seat, car, from, to
#   EV_TAKE    seat, car, street, commuters (bit mask), fare
#   EV_UPKEEP  seat, paid, money after
#   EV_LOSE    seat, LOSE_*
#   EV_END     winner (-1 = none), end reason   (money/delivered/cars: the final state)
#   EV_HQ      seat, street                     (setup: the seat's HQ, where its first car stands)
EV_SPAWN = np.int64(1)
EV_TURN = np.int64(2)
EV_BUY = np.int64(3)
EV_DROP = np.int64(4)
EV_MOVE = np.int64(5)
EV_TAKE = np.int64(6)
EV_UPKEEP = np.int64(7)
EV_LOSE = np.int64(8)
EV_END = np.int64(9)
EV_HQ = np.int64(10)


# --------------------------------------------------------------------------- the image
def encode(params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
    """The state image for ``board`` (a CarnageBoard) and ``n_seats`` players:
    the rules, the board's HQ sites, the spawn cards and the board's tables,
    with the board-sized regions allotted after the fixed ones."""
    n = int(board.n_streets)
    layout = LAYOUT.copy()
    street_car = layout.dynamic(n)
    street_waiting = layout.dynamic(n)
    n_neighbours = layout.static(n)
    neighbours = layout.static(MAX_NEIGHBOURS * n)
    dist = layout.static(n * n)
    sites = layout.static(n)
    image = layout.image()
    for i, p in enumerate(PARAM_DECLS):
        image[PARAMS + i] = p.encode(params[p.name])
    image[N_STREETS] = n
    image[STREET_CAR_AT] = street_car
    image[STREET_WAITING_AT] = street_waiting
    image[N_NEIGHBOURS_AT] = n_neighbours
    image[NEIGHBOURS_AT] = neighbours
    image[DIST_AT] = dist
    image[HQ_SITES_AT] = sites
    image[N_SITES] = len(board.hq)
    image[sites : sites + len(board.hq)] = board.hq_streets
    image[CARDS : CARDS + 2 * N_CARDS] = np.asarray(board.cards, dtype=np.int64).reshape(-1)
    image[n_neighbours : n_neighbours + n] = board.n_neighbours
    image[neighbours : neighbours + MAX_NEIGHBOURS * n] = np.asarray(board.neighbours, dtype=np.int64).reshape(-1)
    image[dist : dist + n * n] = np.asarray(board.dist, dtype=np.int64).reshape(-1)
    return image


def max_events(params: Mapping[str, Any]) -> int:
    """Most trace rows one game can write (sizes the trace region)."""
    per_car = 4 + int(params["car_capacity"])  # buy offer, drop, its spawns, move, take
    per_turn = 6 + int(params["max_cars"]) * per_car  # turn, buy, spawn, upkeep, lose, end
    return 4 + MAX_PLAYERS + int(params["max_turns"]) * per_turn  # setup: HQs, 2 spawns


# --------------------------------------------------------------------------- board access
@njit(cache=True)
def dist(st, a, b):
    """Blocks between streets ``a`` and ``b`` (shortest path)."""
    return st[st[DIST_AT] + a * st[N_STREETS] + b]


@njit(cache=True)
def n_neighbours(st, street):
    return st[st[N_NEIGHBOURS_AT] + street]


@njit(cache=True)
def neighbour(st, street, k):
    """The ``k``-th street next to ``street`` (k < n_neighbours)."""
    return st[st[NEIGHBOURS_AT] + street * MAX_NEIGHBOURS + k]


@njit(cache=True)
def street_car(st, street):
    """The car on ``street`` as seat * MAX_CARS + car, or -1."""
    return st[st[STREET_CAR_AT] + street]


@njit(cache=True)
def street_waiting(st, street):
    """Commuters waiting on ``street``."""
    return st[st[STREET_WAITING_AT] + street]


# --------------------------------------------------------------------------- what is legal
@njit(cache=True)
def can_buy(st, seat):
    """Money >= car_cost, fewer than max_cars, and no car on the HQ street."""
    return (
        st[MONEY + seat] >= st[PARAMS + P_CAR_COST]
        and st[N_CARS + seat] < st[PARAMS + P_MAX_CARS]
        and street_car(st, st[HQ + seat]) < 0
    )


@njit(cache=True)
def can_drop(st, seat, car):
    """Drop unused this turn and a passenger bound for the car's street."""
    c = seat * MAX_CARS + car
    if st[CAR_USED + c] & USED_DROP:
        return False
    street = st[CAR_STREET + c]
    for i in range(st[CAR_LOAD + c]):
        if st[TOKEN_DEST + st[PASSENGERS + c * MAX_CAPACITY + i]] == street:
            return True
    return False


@njit(cache=True)
def can_take(st, seat, car):
    """Take unused this turn, a free seat and a commuter waiting on the street."""
    c = seat * MAX_CARS + car
    if st[CAR_USED + c] & USED_TAKE:
        return False
    return st[CAR_LOAD + c] < st[PARAMS + P_CAR_CAPACITY] and street_waiting(st, st[CAR_STREET + c]) > 0


@njit(cache=True)
def can_move(st, seat, car, k):
    """Move unused this turn and neighbour slot ``k`` is a street with no car."""
    c = seat * MAX_CARS + car
    if st[CAR_USED + c] & USED_MOVE:
        return False
    street = st[CAR_STREET + c]
    if k < 0 or k >= n_neighbours(st, street):
        return False
    return street_car(st, neighbour(st, street, k)) < 0


@njit(cache=True)
def car_can_move_now(st, seat, car):
    """Some neighbour street has no car (the stuck test; 'used' not considered)."""
    street = st[CAR_STREET + seat * MAX_CARS + car]
    for k in range(n_neighbours(st, street)):
        if street_car(st, neighbour(st, street, k)) < 0:
            return True
    return False


@njit(cache=True, inline="always")
def has_option(st, seat, car):
    """The car has a legal unused action (drop, take or move): it is asked."""
    if can_drop(st, seat, car) or can_take(st, seat, car):
        return True
    if st[CAR_USED + seat * MAX_CARS + car] & USED_MOVE:
        return False
    return car_can_move_now(st, seat, car)


# --------------------------------------------------------------------------- the new decisions
@njit(cache=True)
def hq_site(st, i):
    """The board's ``i``-th HQ site (i < st[N_SITES])."""
    return st[st[HQ_SITES_AT] + i]


@njit(cache=True)
def can_choose_hq(st, street):
    """``street`` may become the HQ of the seat choosing now: under hq = chosen a
    board HQ site nobody chose yet; under hq = anywhere any street without a car
    (every HQ chosen so far holds its owner's first car)."""
    if street < 0 or street >= st[N_STREETS] or street_car(st, street) >= 0:
        return False
    if st[PARAMS + P_HQ] != HQ_CHOSEN:
        return True
    for i in range(st[N_SITES]):
        if hq_site(st, i) == street:
            return True
    return False


@njit(cache=True)
def may_act(st, seat, car):
    """Car ``car`` may be chosen to act next: it owned at the turn's start, has
    not finished this turn and has a legal unused action."""
    if car < 0 or car >= st[N_START] or (st[FINISHED] >> car) & 1:
        return False
    return has_option(st, seat, car)


@njit(cache=True)
def waiting_ranked(st, street, rank):
    """Token id of the commuter of ``rank`` (0: first) waiting on ``street`` in
    take order, longest ride (highest fare) first, ties by lowest token id; -1
    when fewer wait there."""
    prev_fare = 1 << 40
    prev_k = -1
    for _ in range(rank + 1):
        best = -1
        best_fare = -1
        for i in range(st[N_WAITING]):
            k = st[WAITING + i]
            if st[TOKEN_STREET + k] != street:
                continue
            f = st[TOKEN_FARE + k]
            after = f < prev_fare or (f == prev_fare and k > prev_k)  # comes after the previous rank
            if after and (best < 0 or f > best_fare or (f == best_fare and k < best)):
                best = k
                best_fare = f
        if best < 0:
            return -1
        prev_fare = best_fare
        prev_k = best
    return prev_k


@njit(cache=True)
def can_take_ranks(st, seat, car, mask):
    """A take of the commuters of the ranks in ``mask`` is legal: take unused,
    mask names 1..free seats commuters, all of ranks that wait on the street."""
    if not can_take(st, seat, car) or mask <= 0 or mask >= (1 << MAX_RANKS):
        return False
    c = seat * MAX_CARS + car
    here = street_waiting(st, st[CAR_STREET + c])
    count = 0
    for r in range(MAX_RANKS):
        if (mask >> r) & 1:
            if r >= here:
                return False
            count += 1
    return count <= st[PARAMS + P_CAR_CAPACITY] - st[CAR_LOAD + c]
