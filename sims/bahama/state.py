"""Bahama Taxi's state: the shared header (``balance.state``), then the game's
regions, and the rule helpers players may call.

Layout: the regions are declared below (``LAYOUT``), each with its name,
shape and meaning; ``balance.state.describe(st, LAYOUT)`` prints a state by
them.  The static ones (the image, set once per state by :func:`encode`) are
the rules and the board's tables; the dynamic ones are zeroed before every
game and filled by the setup.  The shared header holds TURN (player turns
begun), SEAT (the seat to move), WINNER, END_REASON, SCORE (= INCOME: fares
collected per seat) and RNG (the game's stream: balance.state.draw_below).

The board always has 52 fields (one per card: board.py refuses any other), so
every region has a fixed size and a fixed offset.  Offsets are computed only
by the regions' compiled helpers (``taxi_slot(seat)``, ``route_slot(a, b)``,
...), never by arithmetic on a region.

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
from llvmlite import ir
from numba import njit, types
from numba.core import config as numba_config
from numba.extending import intrinsic

from balance.state import N_SEATS, SCORE, TURN, Layout, score_at
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
# static: the rules and the board (the image, set by encode)
PARAMS = LAYOUT.static(
    "params",
    (N_PARAMS,),
    "the rule parameters, params.P_* order (bools as 0/1, a choice as its index: pickup 0 compulsory, 1 optional)",
)
NEIGHBOURS = LAYOUT.static(
    "neighbours", (N_FIELDS, MAX_DEGREE), "each field's neighbours, ascending, -1 padded (degree of them are real)"
)
DEGREE = LAYOUT.static("degree", (N_FIELDS,), "how many neighbours each field has")
ROUTE = LAYOUT.static(
    "route",
    (N_FIELDS, N_FIELDS),
    "the shortest routes from field a to field b, one word (route_word): the distance (the fare of that ride) "
    "in bits 0-7; which of a's neighbours lie one move nearer to b (bit 8 + j: neighbour j), and which as far "
    "(bit 24 + j); b itself among a's neighbours (bit 40 + j, none unless adjacent)",
)
# dynamic: zeroed before every game, filled by the setup
PHASE = LAYOUT.dynamic(
    "phase",
    (),
    "PHASE_SETUP (0) before setup, PHASE_TURN between turns, PHASE_MOVE while the mover's answer is pending, "
    "PHASE_PICKUP while its pick-up answer is pending",
)
PILE = LAYOUT.dynamic("pile", (), "cards drawn so far: the pile is deck[pile:]")
N_WAITING = LAYOUT.dynamic("n_waiting", (), "citizens waiting now (the first entries of waiting)")
N_CITIZENS = LAYOUT.dynamic("n_citizens", (), "citizens drawn so far (ids 0 .. n_citizens-1, draw order)")
DECK = LAYOUT.dynamic("deck", (N_FIELDS,), "the field of each card, in draw order (shuffled at setup)")
TAXI = LAYOUT.dynamic("taxi", (MAX_TAXIS,), "the field of each seat's taxi (-1: seat unused)")
TAXI_AT = LAYOUT.dynamic("taxi_at", (N_FIELDS,), "the seat whose taxi stands on each field, or -1")
WAITING = LAYOUT.dynamic("waiting", (MAX_CITIZENS,), "the waiting citizens, in draw order (n_waiting of them)")
WAITING_AT = LAYOUT.dynamic("waiting_at", (N_FIELDS,), "the citizen waiting on each field, or -1")
ORIGIN = LAYOUT.dynamic("origin", (MAX_CITIZENS,), "each citizen's origin field")
DEST = LAYOUT.dynamic("dest", (MAX_CITIZENS,), "each citizen's destination field")
FARE = LAYOUT.dynamic("fare", (MAX_CITIZENS,), "each citizen's fare: dist(origin, dest)")
ABOARD = LAYOUT.dynamic(
    "aboard", (MAX_TAXIS, MAX_CAPACITY), "each seat's passengers, in pick-up order (n_aboard of them)"
)
N_ABOARD = LAYOUT.dynamic("n_aboard", (MAX_TAXIS,), "passengers per seat")
INCOME = SCORE  # the outcome's per-seat score is the income: the shared header's SCORE

# The regions' compiled helpers (inlined: the same code as the offset arithmetic).
#
# Those of the rules' reads return the offset as an unsigned integer (the
# regions' ``uindex``): numba guards a read at a signed index against a
# negative one (Python's st[-1] counts from the end) with a compare and a
# conditional move in every chain of dependent reads (a taxi's field, the route
# word from it, the citizen there); at an unsigned index a read is a plain
# load.  An offset is never negative, so the reads are the same (Carnage's
# helpers do the same: docs/speed-history.md).
# deck_slot stays signed: it is also a bound that shuffle compares and adds to.
rule_slot = PARAMS.uindex  # st[rule_slot(P_CAPACITY)]: a rule parameter
neighbours_slot = NEIGHBOURS.uindex  # st[neighbours_slot(f, j)]: field f's j-th neighbour
degree_slot = DEGREE.uindex  # st[degree_slot(f)]
route_slot = ROUTE.uindex  # st[route_slot(a, b)]: the route word (dist, route_nearer, ... read it)
deck_slot = DECK.index  # st[deck_slot(k)]: the k-th card
DECK_END = DECK.slots.stop  # one past the deck's last slot (shuffle's bound)
taxi_slot = TAXI.uindex  # st[taxi_slot(seat)]
taxi_at_slot = TAXI_AT.uindex  # st[taxi_at_slot(f)]
waiting_slot = WAITING.uindex  # st[waiting_slot(i)]
waiting_at_slot = WAITING_AT.uindex  # st[waiting_at_slot(f)]
origin_slot = ORIGIN.uindex  # st[origin_slot(c)]
dest_slot = DEST.uindex  # st[dest_slot(c)]
fare_slot = FARE.uindex  # st[fare_slot(c)]
aboard_slot = ABOARD.uindex  # st[aboard_slot(seat, i)]
n_aboard_slot = N_ABOARD.uindex  # st[n_aboard_slot(seat)]
income_slot = score_at  # st[income_slot(seat)]: the shared header's SCORE

PHASE_SETUP = 0
PHASE_TURN = 1
PHASE_MOVE = 2
PHASE_PICKUP = 3

KIND_MOVE = np.int64(0)  # the field to drive to (subject: the taxi's field)
KIND_PICKUP = np.int64(1)  # take the citizen waiting here? (subject: the citizen; pickup = optional)
PICKUP_DECLINE = np.int64(0)  # answers to KIND_PICKUP; any other answer takes
PICKUP_TAKE = np.int64(1)

# The route word (ROUTE): a field's neighbours are at most MAX_DEGREE (16), so
# each mask over them takes 16 bits.
DIST_BITS = np.int64(0xFF)  # the distance (at most 51 on a board of 52 fields)
NEARER_SHIFT = 8
AS_FAR_SHIFT = 24
ITSELF_SHIFT = 40
NEIGHBOUR_BITS = np.int64(0xFFFF)

def encode(params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
    """The state image: the rules and the board's tables (``n_seats`` is set by
    the engine in the header)."""
    if board.neighbours.shape != (N_FIELDS, MAX_DEGREE):  # board.py guarantees it
        raise ValueError(f"a Bahama board has {N_FIELDS} fields and at most {MAX_DEGREE} neighbours a field")
    image = LAYOUT.image()
    PARAMS.put(image, [p.encode(params[p.name]) for p in PARAM_DECLS])
    NEIGHBOURS.put(image, board.neighbours)
    DEGREE.put(image, board.degree)
    ROUTE.put(image, route_words(board))
    return image


def route_words(board: Any) -> np.ndarray:
    """The ROUTE table of a board: for every pair (a, b) the distance and, as
    bit masks over a's neighbours (in their ascending order), those one move
    nearer to b, those as far, and b itself when adjacent.

    Why a table: the heuristics take one step a turn toward a target (the
    first free neighbour nearer to it, else one as far, else any free one),
    and which neighbours are nearer depends on the board alone; tested field
    by field, the step was a scan of the neighbours with a data-dependent
    branch each.  The masks fit in the distance's own word, so the state keeps
    its size and one load gives both."""
    dist = np.asarray(board.dist, dtype=np.int64)
    words = dist.copy()
    for a in range(N_FIELDS):
        for j in range(int(board.degree[a])):
            f = int(board.neighbours[a, j])
            nearer = dist[f] < dist[a]  # over every target b at once
            as_far = dist[f] == dist[a]
            words[a, nearer] |= np.int64(1) << (NEARER_SHIFT + j)
            words[a, as_far] |= np.int64(1) << (AS_FAR_SHIFT + j)
            words[a, f] |= np.int64(1) << (ITSELF_SHIFT + j)
    return words


# --------------------------------------------------------------------------- accessors
@njit(cache=True, _nrt=False)
def rule(st, p):
    """Rule parameter ``p`` (params.P_*)."""
    return st[rule_slot(p)]


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
    return st[taxi_slot(seat)]


@njit(cache=True, _nrt=False)
def taxi_at(st, f):
    """The seat whose taxi stands on field ``f``, or -1."""
    return st[taxi_at_slot(f)]


@njit(cache=True, _nrt=False)
def degree(st, f):
    """How many neighbours field ``f`` has."""
    return st[degree_slot(f)]


@njit(cache=True, _nrt=False)
def neighbour(st, f, j):
    """The ``j``-th neighbour of field ``f`` (``j < degree(st, f)``; ascending)."""
    return st[neighbours_slot(f, j)]


@njit(cache=True, _nrt=False, forceinline=True)
def dist(st, a, b):
    """Moves of the shortest route from ``a`` to ``b``: the fare of that ride."""
    return st[route_slot(a, b)] & DIST_BITS


@njit(cache=True, _nrt=False, forceinline=True)
def route_word(st, a, b):
    """The ROUTE word of ``a`` to ``b``: read it with :func:`word_dist`,
    :func:`word_nearer`, :func:`word_as_far` (one load for all three)."""
    return st[route_slot(a, b)]


@njit(cache=True, _nrt=False, forceinline=True)
def word_dist(word):
    """The distance in a route word."""
    return word & DIST_BITS


@njit(cache=True, _nrt=False, forceinline=True)
def word_nearer(word):
    """The neighbours of a route word's ``a`` one move nearer to its ``b`` (bit j: neighbour j)."""
    return (word >> NEARER_SHIFT) & NEIGHBOUR_BITS


@njit(cache=True, _nrt=False, forceinline=True)
def word_as_far(word):
    """The neighbours of a route word's ``a`` as far from its ``b`` as ``a`` (bit j: neighbour j)."""
    return (word >> AS_FAR_SHIFT) & NEIGHBOUR_BITS


@njit(cache=True, _nrt=False, forceinline=True)
def free_neighbours(st, f):
    """The neighbours of field ``f`` that no taxi stands on (bit j: neighbour j).
    One route word per taxi instead of a look-up per neighbour: a taxi's
    field is among ``f``'s neighbours exactly when its word from ``f`` says so
    (the taxi on ``f`` itself marks none)."""
    taken = np.int64(0)
    for s in range(st[N_SEATS]):
        taken |= st[route_slot(f, st[taxi_slot(s)])] >> ITSELF_SHIFT
    return ((np.int64(1) << st[degree_slot(f)]) - 1) & ~taken


@intrinsic
def _cttz(typingctx, x):
    """LLVM's count of trailing zeros of a non-zero int64."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@njit(cache=True, _nrt=False, forceinline=True)
def lowest_bit(x):
    """The index of the lowest set bit of a non-zero int64."""
    return _cttz(x)


if numba_config.DISABLE_JIT:  # pure Python (coverage, the speed baseline): no intrinsic

    def lowest_bit(x):
        x = int(x)
        return (x & -x).bit_length() - 1


@njit(cache=True, _nrt=False, forceinline=True)
def first_of(st, f, mask):
    """The first (lowest) of field ``f``'s neighbours in ``mask`` (non-zero; bit j: neighbour j)."""
    return st[neighbours_slot(f, lowest_bit(mask))]


@njit(cache=True, _nrt=False)
def n_waiting(st):
    """Citizens waiting now."""
    return st[N_WAITING]


@njit(cache=True, _nrt=False)
def waiting(st, i):
    """The ``i``-th waiting citizen (``i < n_waiting(st)``; draw order)."""
    return st[waiting_slot(i)]


@njit(cache=True, _nrt=False)
def waiting_at(st, f):
    """The citizen waiting on field ``f``, or -1."""
    return st[waiting_at_slot(f)]


@njit(cache=True, _nrt=False)
def origin(st, c):
    """Where citizen ``c`` waits (waited)."""
    return st[origin_slot(c)]


@njit(cache=True, _nrt=False)
def dest(st, c):
    """Where citizen ``c`` is going."""
    return st[dest_slot(c)]


@njit(cache=True, _nrt=False)
def fare(st, c):
    """The fare citizen ``c`` pays on arrival: dist(origin, dest)."""
    return st[fare_slot(c)]


@njit(cache=True, _nrt=False)
def n_aboard(st, seat):
    """Passengers in ``seat``'s taxi."""
    return st[n_aboard_slot(seat)]


@njit(cache=True, _nrt=False)
def aboard(st, seat, i):
    """The ``i``-th passenger of ``seat``'s taxi (``i < n_aboard``; pick-up order)."""
    return st[aboard_slot(seat, i)]


@njit(cache=True, _nrt=False)
def income(st, seat):
    """Fares ``seat`` has collected."""
    return st[income_slot(seat)]


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
    n = st[n_aboard_slot(seat)]
    if n >= st[rule_slot(P_CAPACITY)]:
        return False
    if n >= 2 and st[rule_slot(P_THIRD_LOCK)] != 0 and not pile_can_supply(st):
        return False
    second_locked = st[rule_slot(P_SECOND_LOCK)] != 0 and st[N_WAITING] <= st[rule_slot(P_SECOND_LOCK_WAITING)]
    return not (n >= 1 and second_locked)


@njit(cache=True, _nrt=False)
def may_stay(st, seat):
    """Staying is legal unless must_move holds and an adjacent field is free."""
    if st[rule_slot(P_MUST_MOVE)] == 0:
        return True
    here = st[taxi_slot(seat)]
    for j in range(st[degree_slot(here)]):
        if st[taxi_at_slot(st[neighbours_slot(here, j)])] < 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def is_legal_move(st, seat, to):
    """``to`` is the taxi's own field (if staying is legal) or a free adjacent field."""
    here = st[taxi_slot(seat)]
    if to == here:
        return may_stay(st, seat)
    if to < 0 or to >= N_FIELDS or st[taxi_at_slot(to)] >= 0:
        return False
    return (st[route_slot(here, to)] & DIST_BITS) == 1  # adjacent, in one look-up


@njit(cache=True, _nrt=False)
def fallback_move(st, seat):
    """What an illegal answer becomes: stay, or (must_move) the first free neighbour."""
    here = st[taxi_slot(seat)]
    if may_stay(st, seat):
        return here
    for j in range(st[degree_slot(here)]):
        f = st[neighbours_slot(here, j)]
        if st[taxi_at_slot(f)] < 0:
            return f
    return here  # unreachable: may_stay is true when no neighbour is free


@njit(cache=True, _nrt=False)
def pickup_is_optional(st):
    """Is taking a citizen the player's decision (``pickup = optional``)?"""
    return st[rule_slot(P_PICKUP)] != 0


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
        if s != seat and st[income_slot(s)] > best:
            best = st[income_slot(s)]
    return st[income_slot(seat)] - best
