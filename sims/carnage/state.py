"""Carnage's state: the shared header of :mod:`balance.state`, then Carnage's regions.

One flat ``int64`` array per game in play (why one array: balance/state.py).
The header gives the per-game counters every game has: ``TURN`` (player turns
begun), ``SEAT`` (whose turn; -1 before the first), ``WINNER``,
``END_REASON``, ``RECORD``, ``N_EVENTS``, the random stream ``RNG``,
``SEATING``, ``SCORE`` (here: commuters delivered, ``DELIVERED``) and
``MEMORY`` (a player's own scratch: ``balance.state.memory``/``remember``).

Carnage's own regions are declared below (``LAYOUT``), each with its name,
shape and meaning (``balance.state.describe(st, LAYOUT)`` prints a state by
them), and addressed through their compiled helpers (``st[money_at(seat)]``,
``st[rule_at(P_CAR_COST)]``).  A car is known by its car id ``c = seat *
MAX_CARS + car`` (``st[car_street_at(c)]``, ``st[passengers_at(c, i)]``).  The
board-sized regions (streets, neighbours, distances, HQ sites) are *placed*:
each has one static slot (``STREET_CAR_AT`` ...) holding where it lies in the
state, set by :func:`encode` for the board; their helpers take ``st`` first
(``st[street_car_at(st, street)]``).

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

MAX_PARAMS = 24  # slots kept for the rule parameters (N_PARAMS of them used)
N_CAR_IDS = MAX_PLAYERS * MAX_CARS  # car ids: seat * MAX_CARS + car

LAYOUT = Layout()
# static (the image; set once per state)
PARAMS = LAYOUT.static("params", (MAX_PARAMS,), "rule parameters, params.P_* order (a choice as its index)")
N_STREETS = LAYOUT.static("n_streets", (), "streets on the board")
# The board-sized regions: each one static slot here that holds where the
# region lies (so their names end in _AT), placed per board by encode().
STREET_CAR_AT = LAYOUT.placed(
    "street_car", ("n_streets",), "the car on each street as its car id (seat * MAX_CARS + car), or -1", dynamic=True
)
STREET_WAITING_AT = LAYOUT.placed("street_waiting", ("n_streets",), "commuters waiting on each street", dynamic=True)
N_NEIGHBOURS_AT = LAYOUT.placed("n_neighbours", ("n_streets",), "how many neighbours each street has")
NEIGHBOURS_AT = LAYOUT.placed(
    "neighbours", ("n_streets", MAX_NEIGHBOURS), "each street's neighbours, padded with -1"
)
DIST_AT = LAYOUT.placed(
    "dist",
    ("n_streets", "n_streets"),
    "for streets a, b: the blocks between them (shortest path, bits 0-15), the neighbour slots of a "
    "a block closer to b (bit 16 + k: neighbour k) and those as far from b as a (bit 24 + k); read by dist, "
    "closer_slots and level_slots",
)
HQ_SITES_AT = LAYOUT.placed("hq_sites", ("n_streets",), "the board's HQ sites, the first st[N_SITES] entries")
N_SITES = LAYOUT.static("n_sites", (), "HQ sites on the board")
CARDS = LAYOUT.static("cards", (N_CARDS, 2), "the 16 spawn cards: origin, destination")
# dynamic (zero before every game; setup fills it)
PHASE = LAYOUT.dynamic(
    "phase",
    (),
    "PHASE_SETUP (0: not set up), PHASE_HQ (HQs are being chosen), PHASE_TURN (a turn is to begin), "
    "PHASE_ACT (a turn is under way)",
)
HQ_SEAT = LAYOUT.dynamic("hq_seat", (), "the seat choosing its HQ next (PHASE_HQ)")
CAR = LAYOUT.dynamic(
    "car", (), "the car acting now, or NO_CAR: a buy offer (when OFFERING) and then the choice of the next car come"
)
OFFERING = LAYOUT.dynamic("offering", (), "1: a buy offer comes before the next car is chosen")
N_START = LAYOUT.dynamic(
    "n_start", (), "cars the seat owned when its turn began (cars bought during the turn come after and never act)"
)
FINISHED = LAYOUT.dynamic("finished", (), "bit c: car c has finished acting this turn")
MAY_ACT = LAYOUT.dynamic(
    "may_act",
    (),
    "bit c: car c may act next (set when KIND_ORDER is asked; cleared when the chosen car is asked, "
    "so the rules need not test it again)",
)
N_ALIVE = LAYOUT.dynamic("n_alive", (), "seats still in the game")
N_WAITING = LAYOUT.dynamic("n_waiting", (), "commuters waiting on streets")
N_FREE = LAYOUT.dynamic("n_free", (), "free commuter tokens")
STREAK = LAYOUT.dynamic("streak", (), "consecutive turn ends over gridlock_limit")
BANK = LAYOUT.dynamic("bank", (), "money tokens left in the bank (bank_money > 0 only)")
HQ = LAYOUT.dynamic("hq", (MAX_PLAYERS,), "each seat's HQ street")
MONEY = LAYOUT.dynamic("money", (MAX_PLAYERS,), "each seat's money")
ALIVE = LAYOUT.dynamic("alive", (MAX_PLAYERS,), "1: the seat is still in the game")
N_CARS = LAYOUT.dynamic("n_cars", (MAX_PLAYERS,), "cars each seat owns (0 once out)")
CAR_STREET = LAYOUT.dynamic("car_street", (N_CAR_IDS,), "per car id: the street it stands on (-1: no car)")
CAR_BOUGHT = LAYOUT.dynamic("car_bought", (N_CAR_IDS,), "per car id: the turn it was bought (0: setup)")
CAR_USED = LAYOUT.dynamic("car_used", (N_CAR_IDS,), "per car id: its USED_* bits this turn")
CAR_LOAD = LAYOUT.dynamic("car_load", (N_CAR_IDS,), "per car id: passengers aboard")
PASSENGERS = LAYOUT.dynamic(
    "passengers", (N_CAR_IDS, MAX_CAPACITY), "per car id: the token ids aboard, the first car_load entries"
)
TOKEN_STATUS = LAYOUT.dynamic("token_status", (MAX_TOKENS,), "each commuter token's TOKEN_*")
TOKEN_ORIGIN = LAYOUT.dynamic("token_origin", (MAX_TOKENS,), "each commuter's origin street")
TOKEN_DEST = LAYOUT.dynamic("token_dest", (MAX_TOKENS,), "each commuter's destination street")
TOKEN_FARE = LAYOUT.dynamic("token_fare", (MAX_TOKENS,), "each commuter's fare (fare_per_block x blocks)")
TOKEN_STREET = LAYOUT.dynamic("token_street", (MAX_TOKENS,), "the street a waiting commuter waits on")
WAITING = LAYOUT.dynamic("waiting", (MAX_TOKENS,), "ids of the waiting commuters, the first st[N_WAITING] entries")
# the board-sized regions follow, placed per board by encode()
DELIVERED = SCORE  # commuters delivered per seat: the outcome's score
assert N_PARAMS <= MAX_PARAMS

# Compiled helpers (st[hq_at(seat)]; the board's take st first: st[street_car_at(st, street)]).
#
# Each returns its region's offset as an unsigned integer (the regions'
# ``uindex``): numba guards a read at a signed index against a negative one
# (Python's st[-1] counts from the end) with a compare and a conditional move,
# which lengthens every chain of dependent reads (a car's street, its
# neighbour, the car there); at an unsigned index a read is a plain load.  An
# offset is never negative, so the reads are the same (1.07x games/s on one
# thread, docs/speed-history.md "Carnage, Tag City and Carmarace").
rule_at = PARAMS.uindex  # st[rule_at(P_CAR_COST)]: a rule parameter
card_at = CARDS.uindex  # st[card_at(j, 0)]: spawn card j's origin, st[card_at(j, 1)] its destination
hq_at = HQ.uindex
money_at = MONEY.uindex
alive_at = ALIVE.uindex
n_cars_at = N_CARS.uindex
car_street_at = CAR_STREET.uindex  # st[car_street_at(c)], c = seat * MAX_CARS + car
car_bought_at = CAR_BOUGHT.uindex
car_used_at = CAR_USED.uindex
car_load_at = CAR_LOAD.uindex
passengers_at = PASSENGERS.uindex  # st[passengers_at(c, i)]: passenger i of car id c
token_status_at = TOKEN_STATUS.uindex
token_origin_at = TOKEN_ORIGIN.uindex
token_dest_at = TOKEN_DEST.uindex
token_fare_at = TOKEN_FARE.uindex
token_street_at = TOKEN_STREET.uindex
waiting_at = WAITING.uindex
street_car_at = STREET_CAR_AT.uindex  # st[street_car_at(st, street)]
street_waiting_at = STREET_WAITING_AT.uindex
n_neighbours_at = N_NEIGHBOURS_AT.uindex
neighbours_at = NEIGHBOURS_AT.uindex  # st[neighbours_at(st, street, k)]
dist_at = DIST_AT.uindex  # st[dist_at(st, a, b)]: packed (DIST_AT's meaning); read it by dist(st, a, b)
hq_sites_at = HQ_SITES_AT.uindex
delivered_at = SCORE.uindex  # st[delivered_at(seat)]: the header's score
car_street_view = CAR_STREET.view
street_car_view = STREET_CAR_AT.view


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

# Spawn causes and loss reasons as stored in trace rows (events.py names them).
CAUSE_SETUP = np.int64(0)
CAUSE_DROP = np.int64(1)
CAUSE_TURN_END = np.int64(2)
LOSE_STUCK = np.int64(0)
LOSE_BANKRUPT = np.int64(1)



# --------------------------------------------------------------------------- the image
def encode(params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
    """The state image for ``board`` (a CarnageBoard) and ``n_seats`` players:
    the rules, the board's HQ sites, the spawn cards and the board's tables,
    with the board-sized regions placed after the fixed ones."""
    n = int(board.n_streets)
    layout = LAYOUT.copy()
    layout.place(STREET_CAR_AT, n)
    layout.place(STREET_WAITING_AT, n)
    layout.place(N_NEIGHBOURS_AT, n)
    layout.place(NEIGHBOURS_AT, MAX_NEIGHBOURS * n)
    layout.place(DIST_AT, n * n)
    layout.place(HQ_SITES_AT, n)
    image = layout.image()
    rules = image[PARAMS.slots]
    rules[:N_PARAMS] = [p.encode(params[p.name]) for p in PARAM_DECLS]
    image[N_STREETS] = n
    image[N_SITES] = len(board.hq)
    sites = np.zeros(n, np.int64)
    sites[: len(board.hq)] = board.hq_streets
    HQ_SITES_AT.put(image, sites)
    CARDS.put(image, board.cards)
    N_NEIGHBOURS_AT.put(image, board.n_neighbours)
    NEIGHBOURS_AT.put(image, board.neighbours)
    DIST_AT.put(image, dist_table(board))
    return image


# The distance table's entries (DIST_AT): the distance, and two masks of the
# first street's neighbour slots.  A step toward a street is a free neighbour a
# block closer to it, and a step round the block one as far from it (distances
# are shortest paths, so a neighbour is a block closer, as far or a block
# farther); a car's players ask both for every move, and the masks answer from
# the one entry the distance is read from, where a scan of the neighbours read
# a street and a distance for each.
DIST_BITS = (1 << 16) - 1
CLOSER_SHIFT = 16
LEVEL_SHIFT = 24
SLOTS_BITS = (1 << MAX_NEIGHBOURS) - 1


def dist_table(board: Any) -> np.ndarray:
    """DIST_AT's entries for ``board``: ``dist[a, b]`` in bits 0-15, bit
    CLOSER_SHIFT + k when a's k-th neighbour is a block closer to b, bit
    LEVEL_SHIFT + k when it is as far from b as a."""
    d = np.asarray(board.dist, np.int64)
    n = d.shape[0]
    assert n <= DIST_BITS and (d >= 0).all(), "a board of at most 65,535 connected streets"
    table = d.copy()
    for k in range(MAX_NEIGHBOURS):
        nb = np.asarray(board.neighbours, np.int64)[:, k]
        has = (nb >= 0)[:, None]
        to = d[np.where(nb >= 0, nb, 0)]  # to[a, b]: blocks from a's k-th neighbour to b
        assert (np.abs(to - d)[has[:, 0]] <= 1).all()  # adjacent streets differ by a block at most
        table |= ((has & (to == d - 1)).astype(np.int64)) << (CLOSER_SHIFT + k)
        table |= ((has & (to == d)).astype(np.int64)) << (LEVEL_SHIFT + k)
    return table


def max_events(params: Mapping[str, Any]) -> int:
    """Most trace rows one game can write (sizes the trace region)."""
    per_car = 4 + int(params["car_capacity"])  # buy offer, drop, its spawns, move, take
    per_turn = 6 + int(params["max_cars"]) * per_car  # turn, buy, spawn, upkeep, lose, end
    return 4 + MAX_PLAYERS + int(params["max_turns"]) * per_turn  # setup: HQs, 2 spawns


# --------------------------------------------------------------------------- board access
@njit(cache=True, _nrt=False, forceinline=True)
def dist(st, a, b):
    """Blocks between streets ``a`` and ``b`` (shortest path)."""
    return st[dist_at(st, a, b)] & DIST_BITS


@njit(cache=True, _nrt=False, forceinline=True)
def closer_slots(st, a, b):
    """The neighbour slots of street ``a`` (bit k: ``neighbour(st, a, k)``)
    whose street is a block closer to ``b`` than ``a`` is."""
    return (st[dist_at(st, a, b)] >> CLOSER_SHIFT) & SLOTS_BITS


@njit(cache=True, _nrt=False, forceinline=True)
def level_slots(st, a, b):
    """The neighbour slots of street ``a`` whose street is as far from ``b``
    as ``a`` is."""
    return (st[dist_at(st, a, b)] >> LEVEL_SHIFT) & SLOTS_BITS


# The slot of a one-bit mask 1 << k (k < 8) without a loop or a branch: its
# product with the de Bruijn sequence 0b00010111 has a distinct 3-bit window
# in bits 5-7 for each k, and _SLOT_OF_WINDOW (4 bits a window) maps it back.
_DE_BRUIJN = np.int64(0x17)
_SLOT_OF_WINDOW = np.int64(sum(k << (4 * (((0x17 << k) >> 5) & 7)) for k in range(8)))


@njit(cache=True, _nrt=False, forceinline=True)
def lowest_slot(slots):
    """The lowest slot in the non-empty mask ``slots`` (bit k: slot k, k < 8)."""
    window = (((slots & -slots) * _DE_BRUIJN) >> 5) & 7
    return (_SLOT_OF_WINDOW >> (4 * window)) & 15


@njit(cache=True, _nrt=False, forceinline=True)
def n_neighbours(st, street):
    return st[n_neighbours_at(st, street)]


@njit(cache=True, _nrt=False, forceinline=True)
def neighbour(st, street, k):
    """The ``k``-th street next to ``street`` (k < n_neighbours)."""
    return st[neighbours_at(st, street, k)]


@njit(cache=True, _nrt=False, forceinline=True)
def street_car(st, street):
    """The car on ``street`` as seat * MAX_CARS + car, or -1."""
    return st[street_car_at(st, street)]


@njit(cache=True, _nrt=False, forceinline=True)
def street_waiting(st, street):
    """Commuters waiting on ``street``."""
    return st[street_waiting_at(st, street)]


# --------------------------------------------------------------------------- what is legal
@njit(cache=True, _nrt=False, forceinline=True)
def can_buy(st, seat):
    """Money >= car_cost, fewer than max_cars, and no car on the HQ street."""
    return (
        st[money_at(seat)] >= st[rule_at(P_CAR_COST)]
        and st[n_cars_at(seat)] < st[rule_at(P_MAX_CARS)]
        and street_car(st, st[hq_at(seat)]) < 0
    )


@njit(cache=True, _nrt=False, forceinline=True)
def can_drop(st, seat, car):
    """Drop unused this turn and a passenger bound for the car's street."""
    c = seat * MAX_CARS + car
    if st[car_used_at(c)] & USED_DROP:
        return False
    street = st[car_street_at(c)]
    for i in range(st[car_load_at(c)]):
        if st[token_dest_at(st[passengers_at(c, i)])] == street:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def can_take(st, seat, car):
    """Take unused this turn, a free seat and a commuter waiting on the street."""
    c = seat * MAX_CARS + car
    if st[car_used_at(c)] & USED_TAKE:
        return False
    return st[car_load_at(c)] < st[rule_at(P_CAR_CAPACITY)] and street_waiting(st, st[car_street_at(c)]) > 0


@njit(cache=True, _nrt=False, forceinline=True)
def can_move(st, seat, car, k):
    """Move unused this turn and neighbour slot ``k`` is a street with no car."""
    c = seat * MAX_CARS + car
    if st[car_used_at(c)] & USED_MOVE:
        return False
    street = st[car_street_at(c)]
    if k < 0 or k >= n_neighbours(st, street):
        return False
    return street_car(st, neighbour(st, street, k)) < 0


@njit(cache=True, _nrt=False, forceinline=True)
def car_can_move_now(st, seat, car):
    """Some neighbour street has no car (the stuck test; 'used' not considered)."""
    street = st[car_street_at(seat * MAX_CARS + car)]
    for k in range(n_neighbours(st, street)):
        if street_car(st, neighbour(st, street, k)) < 0:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def has_option(st, seat, car):
    """The car has a legal unused action (drop, take or move): it is asked."""
    # The move first: a car that has not moved can nearly always move, and
    # the rules ask this of every car still to act each time one finishes.
    if not st[car_used_at(seat * MAX_CARS + car)] & USED_MOVE and car_can_move_now(st, seat, car):
        return True
    return can_drop(st, seat, car) or can_take(st, seat, car)


# --------------------------------------------------------------------------- the new decisions
@njit(cache=True, _nrt=False, forceinline=False)
def hq_site(st, i):
    """The board's ``i``-th HQ site (i < st[N_SITES])."""
    return st[hq_sites_at(st, i)]


@njit(cache=True, _nrt=False, forceinline=False)
def can_choose_hq(st, street):
    """``street`` may become the HQ of the seat choosing now: under hq = chosen a
    board HQ site nobody chose yet; under hq = anywhere any street without a car
    (every HQ chosen so far holds its owner's first car)."""
    if street < 0 or street >= st[N_STREETS] or street_car(st, street) >= 0:
        return False
    if st[rule_at(P_HQ)] != HQ_CHOSEN:
        return True
    for i in range(st[N_SITES]):
        if hq_site(st, i) == street:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def may_act(st, seat, car):
    """Car ``car`` may be chosen to act next: it owned at the turn's start, has
    not finished this turn and has a legal unused action."""
    if car < 0 or car >= st[N_START] or (st[FINISHED] >> car) & 1:
        return False
    return has_option(st, seat, car)


@njit(cache=True, _nrt=False, forceinline=False)
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
            k = st[waiting_at(i)]
            if st[token_street_at(k)] != street:
                continue
            f = st[token_fare_at(k)]
            after = f < prev_fare or (f == prev_fare and k > prev_k)  # comes after the previous rank
            if after and (best < 0 or f > best_fare or (f == best_fare and k < best)):
                best = k
                best_fare = f
        if best < 0:
            return -1
        prev_fare = best_fare
        prev_k = best
    return prev_k


@njit(cache=True, _nrt=False, forceinline=False)
def can_take_ranks(st, seat, car, mask):
    """A take of the commuters of the ranks in ``mask`` is legal: take unused,
    mask names 1..free seats commuters, all of ranks that wait on the street."""
    if not can_take(st, seat, car) or mask <= 0 or mask >= (1 << MAX_RANKS):
        return False
    c = seat * MAX_CARS + car
    here = street_waiting(st, st[car_street_at(c)])
    count = 0
    for r in range(MAX_RANKS):
        if (mask >> r) & 1:
            if r >= here:
                return False
            count += 1
    return count <= st[rule_at(P_CAR_CAPACITY)] - st[car_load_at(c)]
