"""Carmarace's state: the shared header (balance.state), then the game's regions.

One flat ``int64`` array per game.  Fixed regions first, then the board-sized
ones, whose offsets are kept in fixed static slots (``O_*``) because a user's
map and decks set their sizes::

    static   PARAMS[N_PARAMS]          the rule parameters (params.P_*)
             N_NODES N_CARDS CONVENTION HAND_LIMIT N_LOT GIFT_AIRPORT GIFT_STATION
             DECK_FIRST[4] DECK_SIZE[4] the decks' id ranges (transport, road, train, plane)
             O_*                        offsets of the board-sized regions below
    dynamic  PHASE SETUP_SEAT           where the rules stand (kernel.PH_*)
             VEHICLE V_LIMIT V_KEPT     the ride of this turn: card (-1: none), effective
                                        karma limit, 1 when riding the card kept in front
             N_SLOTS SLOT_TOP[64]       the vehicle's row: slots, the top card of each
             ROW_N ROW_CARD[64] ROW_SLOT[64]   every Karma card played this ride, in
                                        play order, with its slot (a slot's stack
                                        bottom to top = its cards in play order)
             REMOVED                    bitmask of removed slots (R15)
             OPP PASSED STEP_SEAT LANDED   the karma round: next opportunity, seats
                                        that passed (bitmask), who may step (R14),
                                        1 after a move-to-closest card (R13)
             MV_AT MV_LEFT MV_ENTERED   the move: current space, points left, 1 once
                                        the current space was entered in this move
             REFILL_LEFT                cards still to draw after the refill discard
             PAWN[6] SQUARE[6]          each seat's space and start square number
             KEPT[6] KEEP_LEFT[6]       the card in front of each seat (-1: none) and
                                        its stays-left counter (R21)
             HAND_N[6] HAND[6 x 12]     hands, each sorted by card id
             DRAW_N[4] DISC_N[4]        cards in each deck's draw and discard pile
    dynamic  (board-sized) DRAW[N_CARDS] DISC[N_CARDS]: deck d's draw pile at
             DRAW + DECK_FIRST[d] (top = the last card), its discard pile at
             DISC + DECK_FIRST[d] (in discard order)
    static   (board-sized) KIND CLS NEXT[n x 8] N_NEXT STOP GPS[n x 6] LAND[n x 4]
             N_LAND NUMBER TOGO LOT[n_lot] (squares by number) NEAR_STATION
             NEAR_AIRPORT (road-class with an edge to one) REACH_STATION REACH_AIRPORT
             (such a space ahead by plain road steps) MASK[6 x 2 x n] CARD[n_cards x 8]
             VALUES[10 x n x (R_TABLE+1)] CELL[n] (each space's cell of the heatmap grid)
    dynamic  (board-sized, the shared header's HEAT_AT/HEAT_CELLS) the heatmap: how
             often a pawn entered a space of each cell of the map's drawing grid
             (moves, Good-Karma steps, moves to the closest road), summed by the engine

Movement classes (R17): M_ROAD, M_ROAD_IGNORES, M_TRACKS, M_TRACKS_IGNORES,
M_TRAIN, M_PLANE.  ``MASK[(m * 2 + entered) * n + u]`` has bit k set when the
k-th successor of ``u`` is a legal step for class ``m`` (R17), with R18 applied
when ``entered`` (a Stop entered in this move ends it unless the vehicle
ignores stops, or uses tracks and steps onto a track).

Decisions (``ask(st, seat, kind, subject)``) and their answers:

    DRAW       subject SUB_SETUP / SUB_DRAW / SUB_REFILL: a deck 0..3 (transport,
               road, train, plane) or -1 to stop (in the draw phase only)
    RIDE       subject the kept card: 1 ride it, 0 leave it
    TRANSPORT  subject the pawn's space: a playable transport card in hand, or -1
    OWN_KARMA  subject the vehicle: a legal Karma card in hand, or -1
    KARMA      subject the active seat: card + CARD_SLOT * slot, or -1 to pass
               (slot = N_SLOTS for a new slot; an on_top card names the slot it covers)
    GO_ON      subject the arrow entered: 1 go on (roll the die), 0 stop here
    NEXT       subject the current space: the next space, or -1 to stop
    STEP       subject the pawn's space (R14): the space to step to, or -1
    REFILL     subject the hand size: bitmask of hand positions to discard
               (position i = the i-th card of the hand in id order)

Card table ``CARD + id * 8``: deck, speed, mode, limit, tracks, ignores_stops,
keep, effect.  Heuristic values (players.py) are exact multiples of 1/6**6:
``VALUES`` holds them scaled by VSCALE.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import HEAT_AT, MAX_SEATS, SCORE, Layout
from sims.carmarace.board import (
    CLASS_OF_KIND,
    DECKS,
    K_AIRPORT,
    K_SKY,
    K_STATION,
    K_TRACK,
    KINDS,
    MAX_LAND,
    MAX_NEXT,
    SKY_CLASS,
    TRACK_CLASS,
    ROAD_CLASS,
    CarmaBoard,
    heat_grid,
)
from sims.carmarace.params import (
    N_PARAMS,
    P_KARMA_LIMIT_DELTA,
    P_KARMA_MUST_MATCH,
    P_YOUNG_PLAYERS,
)
from sims.carmarace.params import PARAMS as PARAM_DECLS

HAND_CAP = 12  # hand_limit <= 10, and at most 2 gift cards
ROW_CAP = 64  # Karma cards on one vehicle: at most every hand's cards
SLOT_CAP = 64  # slots of one row (a printed limit <= 60, +3): a 64-bit mask
CARD_SLOT = 4096  # KARMA answer = card + CARD_SLOT * slot (cards < MAX_CARDS = 2048)
R_TABLE = 24  # VALUES holds points left 0..R_TABLE; beyond, players.py recurses
VSCALE = 46656  # 6**6: values of moves through up to 6 arrows are exact integers
STRANDED = 10  # value(v) = togo(v) + 10 when stranded (players)
N_CLASSES = 6
N_TABLES = 10

# Decks and modes
D_TRANSPORT, D_ROAD, D_TRAIN, D_PLANE = 0, 1, 2, 3
MODE_ROAD, MODE_TRAIN, MODE_PLANE = 0, 1, 2
E_NONE, E_ON_TOP, E_REMOVE_NEGATIVE, E_REMOVE_POSITIVE, E_REMOVE_ALL, E_LAND = 0, 1, 2, 3, 4, 5
M_ROAD, M_ROAD_IGNORES, M_TRACKS, M_TRACKS_IGNORES, M_TRAIN, M_PLANE = 0, 1, 2, 3, 4, 5
# Card table fields
C_DECK, C_SPEED, C_MODE, C_LIMIT, C_TRACKS, C_IGNORES, C_KEEP, C_EFFECT = range(8)
CARD_W = 8

# Decision kinds
DRAW = np.int64(0)
RIDE = np.int64(1)
TRANSPORT = np.int64(2)
OWN_KARMA = np.int64(3)
KARMA = np.int64(4)
GO_ON = np.int64(5)
NEXT = np.int64(6)
STEP = np.int64(7)
REFILL = np.int64(8)
KIND_NAMES = ("draw", "ride", "transport", "own_karma", "karma", "go_on", "next", "step", "refill")
SUB_SETUP = np.int64(0)
SUB_DRAW = np.int64(1)
SUB_REFILL = np.int64(2)
DRAW_PHASES = ("setup", "draw", "refill")

# Trace rows (kind, turn, six values); a row with a count is followed by
# ceil(count / 6) EV_DATA rows holding the listed ids.
EV_DATA = 1
EV_START = 2  # start node per seat
EV_DECK = 3  # deck, n  + data: the setup order, top first
EV_GIFT = 4  # seat, card
EV_DRAW = 5  # seat, deck, card, phase, hand size after
EV_SHUFFLE = 6  # deck, n  + data: the new order, top first
EV_TURN = 7  # seat, at
EV_LEAVE = 8  # seat, card
EV_TRANSPORT = 9  # seat, card (-1), kept, limit (-1)
EV_KARMA = 10  # seat, card, slot
EV_PASS = 11  # seat
EV_LAND = 12  # seat, card, from, to, by (-1), roll (0: none)
EV_STEP = 13  # seat, from, to
EV_REMOVE = 14  # seat, card, slot, removed mask, n  + data: the removed cards
EV_MOVE = 15  # seat, card, base, karma, speed, start
EV_PATH = 16  # from, to, roll (0: no roll), blocked: one row per step of the move (blocked = 1:
#   a die that named a space the vehicle cannot take; the move ends on the arrow)
EV_CLEANUP = 17  # seat, kept (-1), n  + data: the discarded cards
EV_REFILL = 18  # seat, n  + data: the discarded cards
EV_END = 19  # winner, reason

# --------------------------------------------------------------------------- layout
LAYOUT = Layout()
PARAMS = LAYOUT.static(N_PARAMS)
N_NODES = LAYOUT.static(1)
N_CARDS = LAYOUT.static(1)
CONVENTION = LAYOUT.static(1)
HAND_LIMIT = LAYOUT.static(1)
N_LOT = LAYOUT.static(1)
GIFT_AIRPORT = LAYOUT.static(1)
GIFT_STATION = LAYOUT.static(1)
DECK_FIRST = LAYOUT.static(4)
DECK_SIZE = LAYOUT.static(4)
O_DRAW = LAYOUT.static(1)
O_DISC = LAYOUT.static(1)
O_KIND = LAYOUT.static(1)
O_CLS = LAYOUT.static(1)
O_NEXT = LAYOUT.static(1)
O_N_NEXT = LAYOUT.static(1)
O_STOP = LAYOUT.static(1)
O_GPS = LAYOUT.static(1)
O_LAND = LAYOUT.static(1)
O_N_LAND = LAYOUT.static(1)
O_NUMBER = LAYOUT.static(1)
O_TOGO = LAYOUT.static(1)
O_LOT = LAYOUT.static(1)
O_NEAR_STATION = LAYOUT.static(1)
O_NEAR_AIRPORT = LAYOUT.static(1)
O_REACH_STATION = LAYOUT.static(1)
O_REACH_AIRPORT = LAYOUT.static(1)
O_MASK = LAYOUT.static(1)
O_CARD = LAYOUT.static(1)
O_VALUES = LAYOUT.static(1)
O_CELL = LAYOUT.static(1)

PHASE = LAYOUT.dynamic(1)
SETUP_SEAT = LAYOUT.dynamic(1)
VEHICLE = LAYOUT.dynamic(1)
V_LIMIT = LAYOUT.dynamic(1)
V_KEPT = LAYOUT.dynamic(1)
N_SLOTS = LAYOUT.dynamic(1)
SLOT_TOP = LAYOUT.dynamic(SLOT_CAP)
ROW_N = LAYOUT.dynamic(1)
ROW_CARD = LAYOUT.dynamic(ROW_CAP)
ROW_SLOT = LAYOUT.dynamic(ROW_CAP)
REMOVED = LAYOUT.dynamic(1)
OPP = LAYOUT.dynamic(1)
PASSED = LAYOUT.dynamic(1)
STEP_SEAT = LAYOUT.dynamic(1)
LANDED = LAYOUT.dynamic(1)
MV_AT = LAYOUT.dynamic(1)
MV_LEFT = LAYOUT.dynamic(1)
MV_ENTERED = LAYOUT.dynamic(1)
REFILL_LEFT = LAYOUT.dynamic(1)
PAWN = LAYOUT.dynamic(MAX_SEATS)
SQUARE = LAYOUT.dynamic(MAX_SEATS)
KEPT = LAYOUT.dynamic(MAX_SEATS)
KEEP_LEFT = LAYOUT.dynamic(MAX_SEATS)
HAND_N = LAYOUT.dynamic(MAX_SEATS)
HAND = LAYOUT.dynamic(MAX_SEATS * HAND_CAP)
DRAW_N = LAYOUT.dynamic(4)
DISC_N = LAYOUT.dynamic(4)
TOGO_SCORE = SCORE  # the outcome's per-seat score: togo at the end


def hand_limit_for(params: Mapping[str, Any], n_seats: int) -> int:
    """R4: hand_limit, or the rulebook's table (2p: 4, 3-4p: 5, 5-6p: 6)."""
    h = int(params["hand_limit"])
    if h:
        return h
    return 4 if n_seats <= 2 else 5 if n_seats <= 4 else 6


def _class_masks(board: CarmaBoard) -> np.ndarray:
    """MASK[m, entered, u]: legal steps (R17, R18) as bits over u's next list."""
    n = board.n_nodes
    kinds = [KINDS.index(k) for k in board.kind]
    cls = [CLASS_OF_KIND[k] for k in kinds]
    masks = np.zeros((N_CLASSES, 2, n), np.int64)
    for m in range(N_CLASSES):
        for u in range(n):
            for k, w in enumerate(board.adjacency[u]):
                if m in (M_ROAD, M_ROAD_IGNORES):
                    ok = cls[w] == ROAD_CLASS and (cls[u] == ROAD_CLASS or kinds[u] in (K_STATION, K_AIRPORT))
                elif m in (M_TRACKS, M_TRACKS_IGNORES):
                    ok = cls[w] in (ROAD_CLASS, TRACK_CLASS) and kinds[u] != K_SKY
                elif m == M_TRAIN:
                    ok = cls[w] == TRACK_CLASS and (
                        cls[u] == TRACK_CLASS or (cls[u] == ROAD_CLASS and kinds[w] == K_STATION)
                    )
                else:
                    ok = cls[w] == SKY_CLASS and (
                        cls[u] == SKY_CLASS or (cls[u] == ROAD_CLASS and kinds[w] == K_AIRPORT)
                    )
                if not ok:
                    continue
                masks[m, 0, u] |= 1 << k
                if board.stop[u] and m not in (M_ROAD_IGNORES, M_TRACKS_IGNORES):
                    # R18: an entered Stop ends the move, unless a tracks vehicle hops on the tracks
                    if m == M_TRACKS and cls[w] == TRACK_CLASS:
                        masks[m, 1, u] |= 1 << k
                else:
                    masks[m, 1, u] |= 1 << k
    return masks


def _near_and_reach(board: CarmaBoard, target_kind: int) -> tuple[np.ndarray, np.ndarray]:
    """near[u]: u is road-class with an edge to a space of ``target_kind``;
    reach[u]: some space reached from u by plain road steps (u included) is near."""
    n = board.n_nodes
    kinds = [KINDS.index(k) for k in board.kind]
    cls = [CLASS_OF_KIND[k] for k in kinds]
    near = np.zeros(n, np.int64)
    for u in range(n):
        if cls[u] == ROAD_CLASS and any(kinds[w] == target_kind for w in board.adjacency[u]):
            near[u] = 1
    reach = near.copy()
    order = _topological(board)
    for u in reversed(order):  # successors first
        if cls[u] == ROAD_CLASS or kinds[u] in (K_STATION, K_AIRPORT):
            for w in board.adjacency[u]:
                if cls[w] == ROAD_CLASS and reach[w]:
                    reach[u] = 1
    return near, reach


def _topological(board: CarmaBoard) -> list[int]:
    n = board.n_nodes
    indeg = [0] * n
    for a in board.adjacency:
        for w in a:
            indeg[w] += 1
    order = [i for i in range(n) if indeg[i] == 0]
    k = 0
    while k < len(order):
        for w in board.adjacency[order[k]]:
            indeg[w] -= 1
            if indeg[w] == 0:
                order.append(w)
        k += 1
    return order


def board_tables(board: CarmaBoard) -> dict[str, np.ndarray]:
    """Every board-sized static table (once per board)."""
    if "tables" not in board.cache:
        arrays = board.arrays()
        near_s, reach_s = _near_and_reach(board, K_STATION)
        near_a, reach_a = _near_and_reach(board, K_AIRPORT)
        tables = dict(arrays)
        tables["cls"] = np.array([CLASS_OF_KIND[k] for k in arrays["kind"]], np.int64)
        tables["lot"] = np.array(board.lot, np.int64)
        tables["near_station"] = near_s
        tables["near_airport"] = near_a
        tables["reach_station"] = reach_s
        tables["reach_airport"] = reach_a
        tables["mask"] = _class_masks(board)
        tables["cell"] = np.array(heat_grid(board)[1], np.int64)
        board.cache["tables"] = tables
    return board.cache["tables"]


def encode(params: Mapping[str, Any], board: CarmaBoard, n_seats: int) -> np.ndarray:
    """The state image: parameters, sizes, the board's tables and the heuristics' value tables."""
    t = board_tables(board)
    n = board.n_nodes
    n_cards = len(board.decks.cards)
    lay = LAYOUT.copy()
    draw = lay.dynamic(n_cards)
    disc = lay.dynamic(n_cards)
    (rows, cols), _ = heat_grid(board)
    lay.heat(rows * cols)  # how often pawns enter each cell of the map's grid (the report's heatmap)
    regions = {
        O_KIND: ("kind", n), O_CLS: ("cls", n), O_NEXT: ("next", n * MAX_NEXT), O_N_NEXT: ("n_next", n),
        O_STOP: ("stop", n), O_GPS: ("gps", n * 6), O_LAND: ("land", n * MAX_LAND), O_N_LAND: ("n_land", n),
        O_NUMBER: ("number", n), O_TOGO: ("togo", n), O_LOT: ("lot", len(t["lot"])),
        O_NEAR_STATION: ("near_station", n), O_NEAR_AIRPORT: ("near_airport", n),
        O_REACH_STATION: ("reach_station", n), O_REACH_AIRPORT: ("reach_airport", n),
        O_MASK: ("mask", N_CLASSES * 2 * n), O_CARD: ("cards", n_cards * CARD_W), O_CELL: ("cell", n),
    }
    offsets = {slot: lay.static(size) for slot, (_, size) in regions.items()}
    values = lay.static(N_TABLES * n * (R_TABLE + 1))
    image = lay.image()
    for i, p in enumerate(PARAM_DECLS):
        image[PARAMS + i] = p.encode(params[p.name])
    image[N_NODES] = n
    image[N_CARDS] = n_cards
    image[CONVENTION] = board.convention
    image[HAND_LIMIT] = hand_limit_for(params, n_seats)
    image[N_LOT] = len(t["lot"])
    gifts = board.decks.gifts
    image[GIFT_AIRPORT] = -1 if gifts["airport"] is None else gifts["airport"]
    image[GIFT_STATION] = -1 if gifts["station"] is None else gifts["station"]
    first = 0
    for d, deck in enumerate(DECKS):
        size = len(board.decks.ids(deck))
        image[DECK_FIRST + d] = first
        image[DECK_SIZE + d] = size
        first += size
    image[O_DRAW] = draw
    image[O_DISC] = disc
    for slot, (name, size) in regions.items():
        image[slot] = offsets[slot]
        image[offsets[slot] : offsets[slot] + size] = np.asarray(t[name], np.int64).reshape(-1)
    image[O_VALUES] = values
    build_values(image)
    return image


# --------------------------------------------------------------------------- board and card helpers
@njit(cache=True)
def togo(st, node):
    """Spaces still to go from ``node`` without boarding anything (b.1)."""
    return st[st[O_TOGO] + node]


@njit(cache=True)
def visit(st, node):
    """A pawn entered ``node``: one more in its heatmap cell."""
    st[st[HEAT_AT] + st[st[O_CELL] + node]] += 1


@njit(cache=True)
def kind_of(st, node):
    return st[st[O_KIND] + node]


@njit(cache=True)
def cls_of(st, node):
    return st[st[O_CLS] + node]


@njit(cache=True)
def n_next(st, node):
    return st[st[O_N_NEXT] + node]


@njit(cache=True)
def next_of(st, node, k):
    return st[st[O_NEXT] + node * MAX_NEXT + k]


@njit(cache=True)
def gps_of(st, node, face):
    """The arrow's space for die face ``face`` + 1, or -1 when ``node`` is no arrow."""
    return st[st[O_GPS] + node * 6 + face]


@njit(cache=True)
def card(st, c, field):
    return st[st[O_CARD] + c * CARD_W + field]


@njit(cache=True)
def young(st):
    return st[PARAMS + P_YOUNG_PLAYERS] != 0


@njit(cache=True)
def effect_of(st, c):
    """A Karma card's effect as played (R24: none for young players)."""
    if st[PARAMS + P_YOUNG_PLAYERS]:
        return E_NONE
    return st[st[O_CARD] + c * CARD_W + C_EFFECT]


@njit(cache=True)
def is_transport(st, c):
    return st[st[O_CARD] + c * CARD_W + C_DECK] == D_TRANSPORT


@njit(cache=True)
def move_class(st, c):
    """The movement class of transport card ``c`` (R17; R24 turns tracks and ignores_stops off)."""
    mode = card(st, c, C_MODE)
    if mode == MODE_TRAIN:
        return M_TRAIN
    if mode == MODE_PLANE:
        return M_PLANE
    if st[PARAMS + P_YOUNG_PLAYERS]:
        return M_ROAD
    return card(st, c, C_TRACKS) * 2 + card(st, c, C_IGNORES)


@njit(cache=True)
def step_mask(st, m, node, entered):
    """Bits over ``node``'s next list: the legal steps of class ``m`` (R17, R18)."""
    return st[st[O_MASK] + (m * 2 + entered) * st[N_NODES] + node]


@njit(cache=True)
def playable(st, c, node):
    """R8: a transport card is playable when it has a legal first step from ``node``."""
    return step_mask(st, move_class(st, c), node, 0) != 0


@njit(cache=True)
def effective_limit(st, c):
    """max(0, printed limit + karma_limit_delta) (R11)."""
    return max(0, card(st, c, C_LIMIT) + st[PARAMS + P_KARMA_LIMIT_DELTA])


@njit(cache=True)
def keep_of(st, c):
    if st[PARAMS + P_YOUNG_PLAYERS] or card(st, c, C_MODE) != MODE_ROAD:
        return 0
    return card(st, c, C_KEEP)


@njit(cache=True)
def hand_card(st, seat, i):
    return st[HAND + seat * HAND_CAP + i]


@njit(cache=True)
def deck_drawable(st, d):
    """R7: a deck is drawable when its draw pile or its discard pile holds a card."""
    return st[DRAW_N + d] > 0 or st[DISC_N + d] > 0


@njit(cache=True)
def any_drawable(st):
    for d in range(4):
        if st[DRAW_N + d] > 0 or st[DISC_N + d] > 0:
            return True
    return False


@njit(cache=True)
def first_drawable(st):
    """The fallback deck: the first drawable of transport, road, train, plane (-1: none)."""
    for d in range(4):
        if st[DRAW_N + d] > 0 or st[DISC_N + d] > 0:
            return d
    return -1


@njit(cache=True)
def karma_legal(st, c, slot):
    """R11: may Karma card ``c`` go on the ridden vehicle at ``slot`` (N_SLOTS: a new slot)?"""
    v = st[VEHICLE]
    if v < 0 or card(st, c, C_DECK) == D_TRANSPORT:
        return False
    if st[PARAMS + P_KARMA_MUST_MATCH] and card(st, c, C_DECK) != card(st, v, C_MODE) + 1:
        return False
    n = st[N_SLOTS]
    if effect_of(st, c) == E_ON_TOP:
        return 0 <= slot < n
    return slot == n and n < st[V_LIMIT]


@njit(cache=True)
def has_legal_karma(st, seat):
    v = st[VEHICLE]
    n = st[N_SLOTS]
    room = n < st[V_LIMIT]
    for i in range(st[HAND_N + seat]):
        c = st[HAND + seat * HAND_CAP + i]
        if card(st, c, C_DECK) == D_TRANSPORT:
            continue
        if st[PARAMS + P_KARMA_MUST_MATCH] and card(st, c, C_DECK) != card(st, v, C_MODE) + 1:
            continue
        if effect_of(st, c) == E_ON_TOP:
            if n > 0:
                return True
        elif room:
            return True
    return False


@njit(cache=True)
def is_step_option(st, node, w):
    """R14: may a Good-Karma step go from ``node`` to ``w``?  From an arrow to any
    gps entry; from a road-class space, station or airport to a road-class
    successor; from a track to a track-class one; from sky to a sky-class one."""
    found = False
    for j in range(n_next(st, node)):
        if next_of(st, node, j) == w:
            found = True
    if not found:
        return False
    if gps_of(st, node, 0) >= 0:
        return True
    kind = kind_of(st, node)
    if kind == K_TRACK:
        return cls_of(st, w) == TRACK_CLASS
    if kind == K_SKY:
        return cls_of(st, w) == SKY_CLASS
    return cls_of(st, w) == ROAD_CLASS


@njit(cache=True)
def has_step_option(st, node):
    for j in range(n_next(st, node)):
        if is_step_option(st, node, next_of(st, node, j)):
            return True
    return False


# --------------------------------------------------------------------------- heuristic values
@njit(cache=True)
def table_index(m, track_stranded, sky_stranded):
    """The value table of movement class ``m`` with the given stranded flags."""
    if m <= M_ROAD_IGNORES:
        return m
    if m == M_TRACKS:
        return 2 + track_stranded
    if m == M_TRACKS_IGNORES:
        return 4 + track_stranded
    if m == M_TRAIN:
        return 6 + track_stranded
    return 8 + sky_stranded


@njit(cache=True)
def table_flags(t):
    """(class, track spaces stranded, sky spaces stranded) of value table ``t``."""
    if t <= 1:
        return t, 0, 0
    if t <= 3:
        return M_TRACKS, t - 2, 0
    if t <= 5:
        return M_TRACKS_IGNORES, t - 4, 0
    if t <= 7:
        return M_TRAIN, t - 6, 0
    return M_PLANE, 0, t - 8


@njit(cache=True)
def node_value(st, u, track_stranded, sky_stranded):
    """value(u) scaled by VSCALE: togo, +10 on a stranded track or sky space."""
    v = st[st[O_TOGO] + u]
    k = st[st[O_KIND] + u]
    if (k == K_TRACK and track_stranded) or (k == K_SKY and sky_stranded):
        v += STRANDED
    return v * VSCALE


@njit(cache=True)
def table_value(st, t, u, r):
    """V(c, u, r, entered=true) of value table ``t`` (r <= R_TABLE)."""
    return st[st[O_VALUES] + (t * st[N_NODES] + u) * (R_TABLE + 1) + r]


@njit(cache=True)
def build_values(st):
    """VALUES[t][u][r] = V(c, u, r, entered) for every table, space and r <= R_TABLE
    (players.py, section (e) of the spec): min(value(u), GO); GO over the legal
    steps, at an arrow the mean over the die's faces (an illegal face stops on
    the arrow)."""
    n = st[N_NODES]
    base = st[O_VALUES]
    conv = st[CONVENTION]
    for t in range(N_TABLES):
        m, ts, ss = table_flags(t)
        for u in range(n):
            st[base + (t * n + u) * (R_TABLE + 1)] = node_value(st, u, ts, ss)
        for r in range(1, R_TABLE + 1):
            for u in range(n):
                own = node_value(st, u, ts, ss)
                best = own
                mask = step_mask(st, m, u, 1)
                if u != conv and mask != 0:
                    if gps_of(st, u, 0) >= 0:
                        total = 0
                        for f in range(6):
                            w = gps_of(st, u, f)
                            ok = False
                            for k in range(n_next(st, u)):
                                if next_of(st, u, k) == w and (mask >> k) & 1:
                                    ok = True
                            total += st[base + (t * n + w) * (R_TABLE + 1) + r - 1] if ok else own
                        go = total // 6
                    else:
                        go = np.int64(1) << np.int64(60)
                        for k in range(n_next(st, u)):
                            if (mask >> k) & 1:
                                w = next_of(st, u, k)
                                x = st[base + (t * n + w) * (R_TABLE + 1) + r - 1]
                                if x < go:
                                    go = x
                    if go < best:
                        best = go
                st[base + (t * n + u) * (R_TABLE + 1) + r] = best


assert MAX_SEATS == 6
