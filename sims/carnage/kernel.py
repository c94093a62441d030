"""Carnage's rules as a compiled kernel (rulebook: ../shared/seeds/000_898c1d9018ac3fe3.txt).

Every rule of issue 2 lives here once; simulation and traces run the same code
(recording on or off).  The readings of the rulebook are in ``RULES.md``.

A turn, as :func:`play_turn` plays it::

    turn event -> stuck? (lose, then the end-of-turn checks)
    for each car owned at the start of the turn, in fleet order:
        offer a buy; then the car's actions, one decision at a time
        (drop / take / move, each at most once, in any order; a drop's spawn
        rolls come right after it)
    offer a buy -> turn_end spawn roll -> upkeep -> bankrupt? (lose)
    end-of-turn checks: last standing, gridlock, turn limit

State: ONE flat ``int64`` array per game in play (``st``), laid out below.
Why not a namedtuple of arrays: numba increfs every array argument of a call
and, with more than one array argument, LLVM's tail merging defeats numba's
refcount pruning, so every call costs two atomic operations per array.  A
27-array namedtuple measured 700 ns per helper call; one array is pruned to
almost nothing, and the unmanaged view of it that play_game passes down
(:func:`_unmanaged`) to exactly nothing.  Hence every compiled function here
and every player takes ``st`` (plus scalars) and nothing else; the game's
random stream lives in ``st`` too.

Layout (slots; "x4" = one per seat, seats 0..3; car c of seat p at p*8+c).
Set once per block of games:

    header     N_SEATS, N_STREETS, EVENT_ROWS, the offsets of the board-sized
               regions (*_AT), and the per-game counters below
    PARAMS     rule parameters, params.P_* order
    RNG        the game's xoroshiro128+ state (2 slots, read as uint64)
    SEATING    x4: player index of each seat (set per game)
    HQ         x4: HQ street of each seat
    CARDS      16 spawn cards: origin at 2j, destination at 2j+1

Per game (zeroed, or set, by reset_game):

    header     TURN, SEAT, N_ALIVE, N_WAITING, N_FREE, STREAK, WINNER,
               END_REASON, N_EVENTS, RECORD, SCRIPT_POS (SCRIPT_LEN: by tests)
    MONEY, DELIVERED, ALIVE (1/0), N_CARS (0 once out)               x4 each
    CAR_STREET (-1: no car), CAR_BOUGHT (turn; 0 = setup),
    CAR_USED (USED_* bits this turn), CAR_LOAD                  x32 each (p*8+c)
    PASSENGERS token ids at (p*8+c)*8 + i for i < load
    TOKEN_STATUS (TOKEN_*), TOKEN_ORIGIN, TOKEN_DEST, TOKEN_FARE
    (fare_per_block x blocks), TOKEN_STREET (where it waits)         x64 each
    WAITING    ids of the waiting commuters, first st[N_WAITING] entries
    MEMORY_AT  16 slots per seat (seat*16 + i): a player's scratch
    SCRIPT     forced random draws for hand-traced tests (see random_below)

Board-sized regions, at offsets kept in the header (N = streets):

    STREET_CAR_AT      car on the street as seat*8 + car, or -1      N  (per game)
    STREET_WAITING_AT  commuters waiting on the street               N  (per game)
    N_NEIGHBOURS_AT    how many neighbours                           N
    NEIGHBOURS_AT      street*6 + k, padded with -1                  6N
    DIST_AT            a*N + b: blocks between streets a and b       N*N
    EVENTS_AT          trace rows, EVENT_WIDTH slots each (EV_* below)

Nothing is allocated per game or per turn: a block of games reuses one state.
"""

from __future__ import annotations

from collections import namedtuple
from types import FunctionType, ModuleType

import numpy as np
from numba import carray, njit, prange, types
from numba.core import cgutils
from numba.core import config as numba_config
from numba.extending import intrinsic

from balance.parallel import batch_size, claim, new_counter
from balance.rng import rng_below, rng_seed
from sims.carnage.params import (
    N_PARAMS,
    P_CAR_CAPACITY,
    P_CAR_COST,
    P_COMMUTER_TOKENS,
    P_FARE_PER_BLOCK,
    P_GRIDLOCK_LIMIT,
    P_MAX_CARS,
    P_MAX_TURNS,
    P_SPAWN_ON_DROP,
    P_SPAWN_ON_TURN_END,
    P_START_MONEY,
    P_UPKEEP_PER_CAR,
    P_WIN_CARS,
    P_WIN_DELIVERIES,
)

# Strides: the parameter ranges' maxima (params.py), so the layout is fixed.
MAX_SEATS = 4
MAX_CARS = 8
MAX_CAPACITY = 8
MAX_TOKENS = 64  # commuter_tokens <= 63: a trace row holds commuters as a bit mask
N_CARDS = 16
MEMORY = 16
MAX_SCRIPT = 64
MAX_NEIGHBOURS = 6
EVENT_WIDTH = 8

_layout_end = 0


def _region(size: int) -> int:
    global _layout_end
    at = _layout_end
    _layout_end += size
    return at


# header
TURN = _region(1)  # player turns begun (the current turn's number during a turn)
SEAT = _region(1)  # seat whose turn it is (-1 before the first turn)
N_SEATS = _region(1)
N_ALIVE = _region(1)
N_WAITING = _region(1)  # commuters waiting on streets (not in cars)
N_FREE = _region(1)  # free commuter tokens
STREAK = _region(1)  # consecutive turn ends with more than gridlock_limit waiting
WINNER = _region(1)  # winning seat or -1
END_REASON = _region(1)  # END_* or -1 while the game goes on
N_EVENTS = _region(
    1
)  # trace rows written (may pass EVENT_ROWS: overflow, detected after)
RECORD = _region(1)  # 1: write trace rows
SCRIPT_POS = _region(1)  # next forced draw
SCRIPT_LEN = _region(1)  # forced draws available (0 in simulation)
N_STREETS = _region(1)
EVENT_ROWS = _region(1)  # rows in the trace region, the last one a sink
STREET_CAR_AT = _region(1)
STREET_WAITING_AT = _region(1)
N_NEIGHBOURS_AT = _region(1)
NEIGHBOURS_AT = _region(1)
DIST_AT = _region(1)
EVENTS_AT = _region(1)
_region(32 - _layout_end)  # header padding
PARAMS = _region(16)
RNG = _region(2)
SEATING = _region(MAX_SEATS)
HQ = _region(MAX_SEATS)
CARDS = _region(2 * N_CARDS)
GAME = _layout_end  # from here to GAME_END: zeroed at every game's start
MONEY = _region(MAX_SEATS)
DELIVERED = _region(MAX_SEATS)
ALIVE = _region(MAX_SEATS)
N_CARS = _region(MAX_SEATS)
CAR_STREET = _region(MAX_SEATS * MAX_CARS)
CAR_BOUGHT = _region(MAX_SEATS * MAX_CARS)
CAR_USED = _region(MAX_SEATS * MAX_CARS)
CAR_LOAD = _region(MAX_SEATS * MAX_CARS)
PASSENGERS = _region(MAX_SEATS * MAX_CARS * MAX_CAPACITY)
TOKEN_STATUS = _region(MAX_TOKENS)
TOKEN_ORIGIN = _region(MAX_TOKENS)
TOKEN_DEST = _region(MAX_TOKENS)
TOKEN_FARE = _region(MAX_TOKENS)
TOKEN_STREET = _region(MAX_TOKENS)
WAITING = _region(MAX_TOKENS)
MEMORY_AT = _region(MAX_SEATS * MEMORY)
GAME_END = _layout_end
SCRIPT = _region(MAX_SCRIPT)
BOARD = _layout_end  # board-sized regions start here
assert N_PARAMS <= 16

# Constants passed as arguments to compiled calls are np.int64, not int: numba
# types an int global as Literal[int] and compiles the callee once per value.
NO_WINNER = np.int64(-1)
D6 = np.int64(6)
RECORD_OFF = np.bool_(False)
RECORD_ON = np.bool_(True)

# End reasons, in GameSpec.end_reasons order.
END_DELIVERIES = np.int64(0)
END_CARS = np.int64(1)
END_LAST_STANDING = np.int64(2)
END_GRIDLOCK = np.int64(3)
END_TURN_LIMIT = np.int64(4)
END_REASONS = ("deliveries", "cars", "last_standing", "gridlock", "turn_limit")

TOKEN_FREE = 0
TOKEN_WAITING = 1
TOKEN_RIDING = 2

USED_DROP = 1
USED_TAKE = 2
USED_MOVE = 4

# Player decisions: policy(kind, seat, car, st) -> int (players.py).
KIND_BUY = np.int64(
    0
)  # buy a car now? 1 = yes, anything else = no (asked only when legal)
KIND_CAR = np.int64(
    1
)  # next action of car `car` (asked while it has a legal unused action)
ACT_DONE = np.int64(0)  # this car does nothing more this turn
ACT_DROP = np.int64(1)  # drop every passenger bound for this street
ACT_TAKE = np.int64(
    2
)  # take the commuters waiting here, longest rides first, up to free seats
ACT_MOVE = np.int64(3)  # ACT_MOVE + k: move to neighbour(st, street, k), k = 0..5
# Any other or illegal answer ends the car's actions (as ACT_DONE).

# Spawn causes and loss reasons as stored in trace rows.
CAUSE_SETUP = np.int64(0)
CAUSE_DROP = np.int64(1)
CAUSE_TURN_END = np.int64(2)
LOSE_STUCK = np.int64(0)
LOSE_BANKRUPT = np.int64(1)

# Trace rows: row[0] = EV_*, row[1] = turn, then (row[2..7]):
#   EV_SPAWN   cause, roll (-1 = null), spawned (1/0), card, commuter
#   EV_TURN    seat
#   EV_BUY     seat, car, street, cost
#   EV_DROP    seat, car, street, commuters (bit mask of token ids)
#   EV_MOVE    seat, car, from, to
#   EV_TAKE    seat, car, street, commuters (bit mask), fare
#   EV_UPKEEP  seat, paid, money after
#   EV_LOSE    seat, LOSE_*
#   EV_END     winner (-1 = none), END_*   (money/delivered/cars: the final state)
EV_SPAWN = np.int64(1)
EV_TURN = np.int64(2)
EV_BUY = np.int64(3)
EV_DROP = np.int64(4)
EV_MOVE = np.int64(5)
EV_TAKE = np.int64(6)
EV_UPKEEP = np.int64(7)
EV_LOSE = np.int64(8)
EV_END = np.int64(9)


def event_rows_bound(params: np.ndarray) -> int:
    """Most trace rows one game can write (sizes the trace region)."""
    per_car = 4 + int(params[P_CAR_CAPACITY])  # buy offer, drop, its spawns, move, take
    per_turn = (
        6 + int(params[P_MAX_CARS]) * per_car
    )  # turn, buy, spawn, upkeep, lose, end
    return 4 + int(params[P_MAX_TURNS]) * per_turn


def state_size(n_streets: int, n_event_rows: int) -> int:
    return (
        BOARD
        + n_streets * (3 + MAX_NEIGHBOURS + n_streets)
        + n_event_rows * EVENT_WIDTH
    )


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


@njit(cache=True)
def random_below(st, n):
    """A uniform integer in [0, n) from the game's stream (players may use it);
    in hand-traced tests, the next forced value while any is left."""
    if st[SCRIPT_POS] < st[SCRIPT_LEN]:
        v = st[SCRIPT + st[SCRIPT_POS]]
        st[SCRIPT_POS] += 1
        return v
    return rng_below(st[RNG : RNG + 2].view(np.uint64), n)


# --------------------------------------------------------------------------- state
@intrinsic
def _address_as_pointer(typingctx, address):
    """The integer ``address`` as a ``void*`` (for numba.carray)."""

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(types.uintp), codegen


@njit(cache=True)
def _unmanaged(st):
    """``st`` seen through an array without a reference count (numba.carray on
    its address).  Even one array argument leaves a few atomic incref/decref
    pairs per call that numba cannot prune; on an array without a meminfo they
    are a null test (measured: 73k -> 110k games per second and core).  The
    caller keeps ``st`` alive while the view is used."""
    return carray(_address_as_pointer(st.ctypes.data), st.shape[0], np.int64)


if numba_config.DISABLE_JIT:  # pure Python (coverage, the speed baseline): no pointers

    def _unmanaged(st):
        return st


@njit(cache=True)
def new_state(neighbours, n_nbrs, distances, hq, cards, params, n_seats, n_event_rows):
    """A state for ``n_seats`` players on this board (once per block of games)."""
    n = neighbours.shape[0]
    st = np.zeros(
        BOARD + n * (3 + MAX_NEIGHBOURS + n) + n_event_rows * EVENT_WIDTH, np.int64
    )
    init_state(
        st, neighbours, n_nbrs, distances, hq, cards, params, n_seats, n_event_rows
    )
    return st


@njit(cache=True)
def init_state(
    st, neighbours, n_nbrs, distances, hq, cards, params, n_seats, n_event_rows
):
    """Fill a zeroed ``st`` of state_size(streets, n_event_rows) slots: header,
    rules, HQs, cards and the board (new_state; the GPU kernel's local state)."""
    n = neighbours.shape[0]
    st[N_SEATS] = n_seats
    st[N_STREETS] = n
    st[EVENT_ROWS] = n_event_rows
    st[STREET_CAR_AT] = BOARD
    st[STREET_WAITING_AT] = BOARD + n
    st[N_NEIGHBOURS_AT] = BOARD + 2 * n
    st[NEIGHBOURS_AT] = BOARD + 3 * n
    st[DIST_AT] = BOARD + (3 + MAX_NEIGHBOURS) * n
    st[EVENTS_AT] = BOARD + (3 + MAX_NEIGHBOURS + n) * n
    for i in range(params.shape[0]):
        st[PARAMS + i] = params[i]
    for seat in range(n_seats):
        st[HQ + seat] = hq[seat]
    for j in range(N_CARDS):
        st[CARDS + 2 * j] = cards[j, 0]
        st[CARDS + 2 * j + 1] = cards[j, 1]
    for s in range(n):
        st[st[N_NEIGHBOURS_AT] + s] = n_nbrs[s]
        for k in range(MAX_NEIGHBOURS):
            st[st[NEIGHBOURS_AT] + s * MAX_NEIGHBOURS + k] = neighbours[s, k]
        for t in range(n):
            st[st[DIST_AT] + s * n + t] = distances[s, t]


@njit(cache=True)
def reset_game(st, seating, record):
    """Empty board, start money, no commuters, no trace: the state before setup."""
    n_seats = st[N_SEATS]
    st[GAME:GAME_END] = 0
    st[CAR_STREET : CAR_STREET + MAX_SEATS * MAX_CARS] = -1
    n = st[N_STREETS]
    st[st[STREET_CAR_AT] : st[STREET_CAR_AT] + n] = -1
    st[st[STREET_WAITING_AT] : st[STREET_WAITING_AT] + n] = 0
    st[TURN] = 0
    st[SEAT] = -1
    st[N_ALIVE] = n_seats
    st[N_WAITING] = 0
    st[N_FREE] = st[PARAMS + P_COMMUTER_TOKENS]
    st[STREAK] = 0
    st[WINNER] = -1
    st[END_REASON] = -1
    st[N_EVENTS] = 0
    st[RECORD] = 1 if record else 0
    st[SCRIPT_POS] = 0
    for seat in range(n_seats):
        st[SEATING + seat] = seating[seat]
        st[MONEY + seat] = st[PARAMS + P_START_MONEY]
        st[ALIVE + seat] = 1


@njit(cache=True)
def _event(st, kind):
    """Index of the next trace row, zeroed, kind and turn filled in; the caller
    fills row slots 2..7.  Past the region's end rows go to its last row (a
    sink) and the count still grows, so an overflow is detected afterwards."""
    i = st[N_EVENTS]
    st[N_EVENTS] = i + 1
    at = st[EVENTS_AT] + min(i, st[EVENT_ROWS] - 1) * EVENT_WIDTH
    st[at : at + EVENT_WIDTH] = 0
    st[at] = kind
    st[at + 1] = st[TURN]
    return at


@njit(cache=True)
def _end(st, reason, winner):
    st[END_REASON] = reason
    st[WINNER] = winner
    if st[RECORD]:
        at = _event(st, EV_END)
        st[at + 2] = winner
        st[at + 3] = reason


# --------------------------------------------------------------------------- rules
@njit(cache=True)
def _spawn(st, cause, chance):
    """Spawn one commuter: roll a d6 (not at setup); on ``roll <= chance`` and a
    free token, draw a card (with replacement) and place the lowest free token."""
    roll = -1
    hit = True
    if cause != CAUSE_SETUP:
        roll = random_below(st, D6) + 1
        hit = roll <= chance
    card = -1
    token = -1
    if hit and st[N_FREE] > 0:
        card = random_below(st, np.int64(N_CARDS))
        for k in range(MAX_TOKENS):
            if st[TOKEN_STATUS + k] == TOKEN_FREE:
                token = k
                break
        origin = st[CARDS + 2 * card]
        dest = st[CARDS + 2 * card + 1]
        st[TOKEN_STATUS + token] = TOKEN_WAITING
        st[TOKEN_ORIGIN + token] = origin
        st[TOKEN_DEST + token] = dest
        st[TOKEN_FARE + token] = st[PARAMS + P_FARE_PER_BLOCK] * dist(st, origin, dest)
        st[TOKEN_STREET + token] = origin
        st[WAITING + st[N_WAITING]] = token
        st[N_WAITING] += 1
        st[N_FREE] -= 1
        st[st[STREET_WAITING_AT] + origin] += 1
    if st[RECORD]:
        at = _event(st, EV_SPAWN)
        st[at + 2] = cause
        st[at + 3] = roll
        st[at + 4] = 1 if token >= 0 else 0
        st[at + 5] = card
        st[at + 6] = token


@njit(cache=True)
def setup(st):
    """Each seat's car on its HQ; 2 commuters spawn without a roll."""
    for seat in range(st[N_SEATS]):
        street = st[HQ + seat]
        st[CAR_STREET + seat * MAX_CARS] = street
        st[CAR_BOUGHT + seat * MAX_CARS] = 0
        st[st[STREET_CAR_AT] + street] = seat * MAX_CARS
        st[N_CARS + seat] = 1
    for _ in range(2):
        _spawn(st, CAUSE_SETUP, D6)


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
    return (
        st[CAR_LOAD + c] < st[PARAMS + P_CAR_CAPACITY]
        and street_waiting(st, st[CAR_STREET + c]) > 0
    )


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


@njit(cache=True)
def _has_option(st, seat, car):
    if can_drop(st, seat, car) or can_take(st, seat, car):
        return True
    if st[CAR_USED + seat * MAX_CARS + car] & USED_MOVE:
        return False
    return car_can_move_now(st, seat, car)


@njit(cache=True)
def _buy(st, seat):
    """Buy a car onto the HQ; owning win_cars cars wins at once."""
    car = st[N_CARS + seat]
    c = seat * MAX_CARS + car
    street = st[HQ + seat]
    cost = st[PARAMS + P_CAR_COST]
    st[CAR_STREET + c] = street
    st[CAR_BOUGHT + c] = st[TURN]
    st[CAR_USED + c] = USED_DROP | USED_TAKE | USED_MOVE  # cannot act this turn
    st[CAR_LOAD + c] = 0
    st[st[STREET_CAR_AT] + street] = c
    st[MONEY + seat] -= cost
    st[N_CARS + seat] = car + 1
    if st[RECORD]:
        at = _event(st, EV_BUY)
        st[at + 2] = seat
        st[at + 3] = car
        st[at + 4] = street
        st[at + 5] = cost
    if car + 1 >= st[PARAMS + P_WIN_CARS]:
        _end(st, END_CARS, seat)


@njit(cache=True)
def _drop(st, seat, car):
    """Drop every passenger bound for this street; win at win_deliveries, else a
    spawn roll per commuter dropped (their tokens are back in the supply first)."""
    c = seat * MAX_CARS + car
    street = st[CAR_STREET + c]
    st[CAR_USED + c] |= USED_DROP
    kept = 0
    mask = 0
    count = 0
    for i in range(st[CAR_LOAD + c]):
        k = st[PASSENGERS + c * MAX_CAPACITY + i]
        if st[TOKEN_DEST + k] == street:
            st[TOKEN_STATUS + k] = TOKEN_FREE
            mask |= np.int64(1) << k
            count += 1
        else:
            st[PASSENGERS + c * MAX_CAPACITY + kept] = k
            kept += 1
    st[CAR_LOAD + c] = kept
    st[N_FREE] += count
    st[DELIVERED + seat] += count
    if st[RECORD]:
        at = _event(st, EV_DROP)
        st[at + 2] = seat
        st[at + 3] = car
        st[at + 4] = street
        st[at + 5] = mask
    if st[DELIVERED + seat] >= st[PARAMS + P_WIN_DELIVERIES]:
        _end(st, END_DELIVERIES, seat)
        return
    for _ in range(count):
        _spawn(st, CAUSE_DROP, st[PARAMS + P_SPAWN_ON_DROP])


@njit(cache=True)
def _take(st, seat, car):
    """Fill free seats from the commuters waiting here, longest ride first (ties:
    lowest token id); each pays fare_per_block x blocks at once."""
    c = seat * MAX_CARS + car
    street = st[CAR_STREET + c]
    st[CAR_USED + c] |= USED_TAKE
    capacity = st[PARAMS + P_CAR_CAPACITY]
    waiting_here = st[STREET_WAITING_AT] + street
    mask = 0
    fare = 0
    while st[CAR_LOAD + c] < capacity and st[waiting_here] > 0:
        best = -1
        best_i = -1
        for i in range(st[N_WAITING]):
            k = st[WAITING + i]
            if st[TOKEN_STREET + k] != street:
                continue
            if (
                best < 0
                or st[TOKEN_FARE + k] > st[TOKEN_FARE + best]
                or (st[TOKEN_FARE + k] == st[TOKEN_FARE + best] and k < best)
            ):
                best = k
                best_i = i
        st[N_WAITING] -= 1
        st[WAITING + best_i] = st[WAITING + st[N_WAITING]]
        st[waiting_here] -= 1
        st[TOKEN_STATUS + best] = TOKEN_RIDING
        st[PASSENGERS + c * MAX_CAPACITY + st[CAR_LOAD + c]] = best
        st[CAR_LOAD + c] += 1
        mask |= np.int64(1) << best
        fare += st[TOKEN_FARE + best]
    st[MONEY + seat] += fare
    if st[RECORD]:
        at = _event(st, EV_TAKE)
        st[at + 2] = seat
        st[at + 3] = car
        st[at + 4] = street
        st[at + 5] = mask
        st[at + 6] = fare


@njit(cache=True)
def _move(st, seat, car, k):
    c = seat * MAX_CARS + car
    origin = st[CAR_STREET + c]
    to = neighbour(st, origin, k)
    st[CAR_USED + c] |= USED_MOVE
    st[st[STREET_CAR_AT] + origin] = -1
    st[st[STREET_CAR_AT] + to] = c
    st[CAR_STREET + c] = to
    if st[RECORD]:
        at = _event(st, EV_MOVE)
        st[at + 2] = seat
        st[at + 3] = car
        st[at + 4] = origin
        st[at + 5] = to


@njit(cache=True)
def _lose(st, seat, reason):
    """The seat is out: its cars leave the board, its passengers' tokens return."""
    st[ALIVE + seat] = 0
    st[N_ALIVE] -= 1
    for car in range(st[N_CARS + seat]):
        c = seat * MAX_CARS + car
        street = st[CAR_STREET + c]
        if street >= 0:
            st[st[STREET_CAR_AT] + street] = -1
        st[CAR_STREET + c] = -1
        for i in range(st[CAR_LOAD + c]):
            st[TOKEN_STATUS + st[PASSENGERS + c * MAX_CAPACITY + i]] = TOKEN_FREE
        st[N_FREE] += st[CAR_LOAD + c]
        st[CAR_LOAD + c] = 0
    st[N_CARS + seat] = 0
    if st[RECORD]:
        at = _event(st, EV_LOSE)
        st[at + 2] = seat
        st[at + 3] = reason


@njit(cache=True)
def _end_of_turn_checks(st, turn):
    """After a turn's last event: one player left, gridlock, turn cap."""
    if st[N_ALIVE] == 1:
        for seat in range(st[N_SEATS]):
            if st[ALIVE + seat]:
                _end(st, END_LAST_STANDING, np.int64(seat))
        return
    if st[N_WAITING] > st[PARAMS + P_GRIDLOCK_LIMIT]:
        st[STREAK] += 1
    else:
        st[STREAK] = 0
    if st[STREAK] >= 2:
        _end(st, END_GRIDLOCK, NO_WINNER)
        return
    if turn >= st[PARAMS + P_MAX_TURNS]:
        _end(st, END_TURN_LIMIT, NO_WINNER)


@njit(cache=True)
def play_turn(st):
    """One player turn (the next seat still in the game).

    The player is asked through one call site (a smaller compiled kernel): a
    buy offer before each car acts and once after the last car, and between
    offers the car's actions one decision at a time.  An illegal answer ends
    the car's actions (after a buy offer: no buy), so no player breaks a rule.
    """
    n_seats = st[N_SEATS]
    turn = st[TURN] + 1
    st[TURN] = turn
    seat = st[SEAT]
    for _ in range(n_seats):
        seat = (seat + 1) % n_seats
        if st[ALIVE + seat]:
            break
    st[SEAT] = seat
    if st[RECORD]:
        at = _event(st, EV_TURN)
        st[at + 2] = seat
    n_start = st[N_CARS + seat]  # cars bought this turn come after these and never act
    stuck = True
    for car in range(n_start):
        st[CAR_USED + seat * MAX_CARS + car] = 0
        if stuck and car_can_move_now(st, seat, car):
            stuck = False
    if stuck:
        _lose(st, seat, LOSE_STUCK)
        _end_of_turn_checks(st, turn)
        return
    player = st[SEATING + seat]
    car = 0  # the car acting next
    offering = True  # a buy offer comes before each car and after the last
    while True:
        if offering:
            if not can_buy(st, seat):
                if car == n_start:
                    break
                offering = False
                continue
            kind = KIND_BUY
            subject = st[N_CARS + seat]
        else:
            if not _has_option(st, seat, car):
                car += 1
                offering = True
                continue
            kind = KIND_CAR
            subject = np.int64(car)
        answer = _players.builtin_policy(player, kind, seat, subject, st)
        if offering:
            if answer == 1:
                _buy(st, seat)
                if st[END_REASON] >= 0:
                    return
            elif car == n_start:
                break
            else:
                offering = False
        elif answer == ACT_DROP and can_drop(st, seat, car):
            _drop(st, seat, car)
            if st[END_REASON] >= 0:
                return
        elif answer == ACT_TAKE and can_take(st, seat, car):
            _take(st, seat, car)
        elif answer >= ACT_MOVE and can_move(st, seat, car, answer - ACT_MOVE):
            _move(st, seat, car, answer - ACT_MOVE)
        else:
            car += 1
            offering = True
    _spawn(st, CAUSE_TURN_END, st[PARAMS + P_SPAWN_ON_TURN_END])
    paying = 0
    for car in range(st[N_CARS + seat]):
        if st[CAR_BOUGHT + seat * MAX_CARS + car] != turn:
            paying += 1
    paid = st[PARAMS + P_UPKEEP_PER_CAR] * paying
    st[MONEY + seat] -= paid
    if st[RECORD]:
        at = _event(st, EV_UPKEEP)
        st[at + 2] = seat
        st[at + 3] = paid
        st[at + 4] = st[MONEY + seat]
    if st[MONEY + seat] <= 0:
        _lose(st, seat, LOSE_BANKRUPT)
    _end_of_turn_checks(st, turn)


@njit(cache=True)
def play_game(state, seating, seed, game, record):
    """Game ``game`` under master seed ``seed``, from setup to its end."""
    st = _unmanaged(state)
    reset_game(st, seating, record)
    rng_seed(st[RNG : RNG + 2].view(np.uint64), seed, game)
    setup(st)
    while st[END_REASON] < 0:
        play_turn(st)


# --------------------------------------------------------------------------- batches
@njit(cache=True, parallel=True)
def _simulate_batch(
    neighbours,
    n_nbrs,
    distances,
    hq,
    cards,
    params,
    seatings,
    seed,
    first_game,
    n_games,
    n_workers,
    winner,
    end_reason,
    turns,
    score,
):
    """Games first_game .. first_game + n_games - 1 into the preallocated outputs.

    prange over ``n_workers`` workers (one per thread; the caller passes
    numba.get_num_threads(): asked inside a kernel, it is a dynamic global that
    defeats the cache).  Each worker allocates one state, then claims batches of
    games from a shared counter (balance.parallel) until none are left.  Game g
    is seeded from (seed, g), seated by seatings[g % P] and written to slot g,
    so results never depend on which worker played it.
    """
    if n_games <= 0:
        return
    n_seats = seatings.shape[1]
    n_seatings = seatings.shape[0]
    n_workers = max(1, min(n_games, n_workers))
    batch = batch_size(n_games, n_workers)
    counter = new_counter()
    for _ in prange(n_workers):
        st = new_state(neighbours, n_nbrs, distances, hq, cards, params, n_seats, 0)
        rows = seatings.copy()  # this worker's own: no shared reference count per game
        while True:
            lo = claim(counter, batch)
            if lo >= n_games:
                break
            for i in range(lo, min(lo + batch, n_games)):
                g = first_game + i
                play_game(st, rows[g % n_seatings], seed, g, RECORD_OFF)
                winner[i] = st[WINNER]
                end_reason[i] = st[END_REASON]
                turns[i] = st[TURN]
                for seat in range(n_seats):
                    score[i, seat] = st[DELIVERED + seat]


# --------------------------------------------------------------------------- policies
# play_turn asks players through ``_players.builtin_policy(index, kind, seat,
# car, st)``, a module global, so the built-in kernels are cached on disk (a
# dispatcher passed as an argument makes every caller miss the cache: its type
# is a different object in the next process).  Games with a user's player run
# a *variant*: the same three functions recompiled (uncached, once per process)
# with ``_players`` bound to a module whose ``builtin_policy`` is the dispatch
# built by balance.plugins.compile_dispatch.  The rules exist once.
Kernels = namedtuple("Kernels", ["play_turn", "play_game", "simulate_batch"])
_BUILTIN = Kernels(play_turn, play_game, _simulate_batch)
_VARIANTS: dict[int, tuple] = {}


def kernels(policy=None) -> Kernels:
    """The kernels deciding through ``policy(index, kind, seat, car, st)``;
    ``None``: the built-in players' cached ones."""
    if policy is None:
        return _BUILTIN
    key = id(policy)
    if key not in _VARIANTS:
        binding = ModuleType("carnage_user_policy")
        binding.builtin_policy = policy
        scope = dict(globals())
        scope["_players"] = binding
        for f in _BUILTIN:
            py = getattr(f, "py_func", f)  # a plain function under NUMBA_DISABLE_JIT=1
            clone = FunctionType(
                py.__code__, scope, py.__name__, py.__defaults__, py.__closure__
            )
            parallel = bool(getattr(f, "targetoptions", {}).get("parallel", False))
            scope[py.__name__] = njit(parallel=parallel)(clone)
        _VARIANTS[key] = (
            policy,
            Kernels(scope["play_turn"], scope["play_game"], scope["_simulate_batch"]),
        )
    return _VARIANTS[key][1]


# --------------------------------------------------------------------------- Python helpers
def make_state(board, params, n_seats: int, n_event_rows: int = 0) -> np.ndarray:
    """A fresh state for ``board`` (a CarnageBoard) and the int64 ``params``."""
    return new_state(
        board.neighbours,
        board.n_neighbours,
        board.dist,
        np.ascontiguousarray(board.hq_streets[:n_seats]),
        board.cards,
        np.ascontiguousarray(params, dtype=np.int64),
        np.int64(n_seats),
        np.int64(n_event_rows),
    )


def trace_game(board, params, seating, seed: int, game: int, policy=None) -> np.ndarray:
    """One game with recording on; its final state (trace rows included).

    Plain Python over the compiled ``play_game``: a trace runs exactly the code
    (and the compiled version) that simulation runs.
    """
    seating = np.ascontiguousarray(seating, dtype=np.int64)
    st = make_state(board, params, len(seating), event_rows_bound(params) + 1)
    kernels(policy).play_game(st, seating, np.uint64(seed), np.int64(game), RECORD_ON)
    return st


def blank_state(
    board, params, seating, record: bool = True, script=(), seed: int = 0, game: int = 0
) -> np.ndarray:
    """A reset state before setup, its stream seeded from (seed, game), for
    building positions by hand in tests.

    ``script``: forced random draws used in order before the game's stream (a
    d6 is stored as its face minus one, a card as its index).
    """
    seating = np.ascontiguousarray(seating, dtype=np.int64)
    rows = event_rows_bound(params) + 1 if record else 0
    st = make_state(board, params, len(seating), rows)
    reset_game(st, seating, np.bool_(record))
    rng_seed(st[RNG : RNG + 2].view(np.uint64), np.uint64(seed), np.int64(game))
    script = np.asarray(script, dtype=np.int64)
    if len(script) > MAX_SCRIPT:
        raise ValueError(f"at most {MAX_SCRIPT} forced draws")
    st[SCRIPT : SCRIPT + len(script)] = script
    st[SCRIPT_LEN] = len(script)
    return st


def play_from_state(st: np.ndarray, policy=None) -> None:
    """Play turns until the game ends, from whatever ``st`` holds (tests build
    positions with :func:`blank_state` and start here).  A Python loop over
    the compiled ``play_turn``: the very code games run."""
    play_turn_ = kernels(policy).play_turn
    while st[END_REASON] < 0:
        play_turn_(st)


# Last: players.py imports the rule helpers above (a circular import that is safe
# because every name it needs is defined by now; numba reads the attribute when
# it compiles, after both modules are loaded).
from sims.carnage import players as _players


def _drop_stale_cache() -> None:
    """play_turn inlines players.py, players.py inlines the helpers above, both
    inline balance/rng.py and balance/parallel.py and freeze params.py's
    constants: the cache is keyed on all of the package's files and those two
    (balance.kernelcache)."""
    import sys
    from pathlib import Path

    import balance.parallel
    import balance.rng
    from balance.kernelcache import drop_stale_cache

    files = [
        *Path(__file__).parent.glob("*.py"),
        Path(balance.rng.__file__),
        Path(balance.parallel.__file__),
    ]
    drop_stale_cache("carnage", [sys.modules[__name__], _players], files)


_drop_stale_cache()
