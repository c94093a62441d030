"""Carmarace's state: the shared header (balance.state), then the game's regions.

One flat ``int64`` array per game.  Every region is declared below (``LAYOUT``:
name, shape, meaning; ``describe(st, LAYOUT)`` prints a state by name) and
addressed through its compiled helpers (``pawn_at(seat)``, ``card_at(st, c,
field)``, ...).  Fixed regions first (the rules, sizes, the decks' id ranges),
then the board-sized ones, *placed* per board because a user's map and decks set
their sizes (each one static slot holding where it lies; ``encode`` places them),
then the dynamic ones (what changes during a game).  Deck ``d``'s draw pile is
``draw_pile`` from ``deck_first[d]`` on (top = the last card), its discard pile
``discard`` from there (in discard order).  The heatmap is the shared header's
HEAT_AT/HEAT_CELLS region: how often a pawn entered a space of each cell of the
map's drawing grid (moves, Good-Karma steps, moves to the closest road), summed
by the engine.

Movement classes (R17): M_ROAD, M_ROAD_IGNORES, M_TRACKS, M_TRACKS_IGNORES,
M_TRAIN, M_PLANE.  ``mask[m, entered, u]`` has bit k set when the
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

Card table ``cards[id, field]`` (C_*): deck, speed, mode, limit, tracks,
ignores_stops, keep, effect as printed; then what follows from them under the
rules in play, written once by ``encode`` so that no turn works it out again:
the movement class and the effect as played (R24 applied), and the card's kinds
as counted in a hand (``C_COUNTS``).  Heuristic values (players.py) are exact
multiples of 1/6**6: ``values`` holds them scaled by VSCALE.

Hand counts (``hand_counts``, kept by every change of a hand): how many cards
of each kind (T_*) each hand holds, 4-bit counters packed 16 to a word (a hand
holds at most HAND_CAP = 12 cards).  A card's own row (``C_COUNTS``) holds a 1
in the counter of each kind it is, so adding or removing a card is one addition
or subtraction per word, and the questions asked of a hand at almost every
decision (which transports it could play from here, whether it holds a legal
Karma card, whether its track spaces are stranded) read one word instead of
walking the hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import MAX_SEATS, SCORE, Layout, heat_cell_at, score_at
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
# Card table fields: as printed (board.py), then as played under the rules in play (encode)
C_DECK, C_SPEED, C_MODE, C_LIMIT, C_TRACKS, C_IGNORES, C_KEEP, C_EFFECT = range(8)
C_CLASS = 8  # the movement class of a transport (move_class; R24 applied)
C_PLAYED = 9  # a Karma card's effect as played (R24: none for young players)
C_COUNTS = 10  # + w: word w of the card's kinds (T_*), as added to a hand's counts
CARD_W = 12
# Kinds of card counted per hand (HAND_COUNTS): counter t is bits 4 (t % 16) .. of word t // 16
T_CLASS = 0  # + m: a transport of movement class m
T_PLAIN = 6  # + mode: a Karma card of that vehicle mode's deck that opens a slot (no on_top as played)
T_ON_TOP = 9  # + mode: an on_top Karma card of that mode's deck (as played)
T_FAST = 16  # + mode: a Karma card of that mode's deck with speed > 0
T_SLOW = 19  # + mode: ... with speed < 0
COUNT_WORDS = 2

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

# --------------------------------------------------------------------------- layout
LAYOUT = Layout()
PARAMS = LAYOUT.static("params", (N_PARAMS,), "the rule parameters, params.P_* order")
N_NODES = LAYOUT.static("n_nodes", (), "spaces of the map")
N_CARDS = LAYOUT.static("n_cards", (), "cards of the four decks (ids 0..n_cards-1)")
CONVENTION = LAYOUT.static("convention", (), "the Convention's space (the finish)")
HAND_LIMIT = LAYOUT.static("hand_limit", (), "the hand limit in play (R4)")
N_LOT = LAYOUT.static("n_lot", (), "numbered lot squares (start squares)")
GIFT_AIRPORT = LAYOUT.static("gift_airport", (), "the airport gift card (R3; -1: none)")
GIFT_STATION = LAYOUT.static("gift_station", (), "the station gift card (R3; -1: none)")
DECK_FIRST = LAYOUT.static("deck_first", (4,), "each deck's first card id (transport, road, train, plane)")
DECK_SIZE = LAYOUT.static("deck_size", (4,), "each deck's number of cards")
# board-sized, placed per board (encode)
DRAW_PILE = LAYOUT.placed(
    "draw_pile", ("n_cards",), "the draw piles: deck d's from deck_first[d] on, top = its last card", dynamic=True
)
DISCARD = LAYOUT.placed(
    "discard", ("n_cards",), "the discard piles: deck d's from deck_first[d] on, in discard order", dynamic=True
)
KIND = LAYOUT.placed("kind", ("n_nodes",), "each space's kind (board.KINDS)")
CLS = LAYOUT.placed("cls", ("n_nodes",), "each space's class (road, track, sky)")
SUCCESSORS = LAYOUT.placed("next", ("n_nodes", MAX_NEXT), "each space's successors, in the map's order")
N_NEXT = LAYOUT.placed("n_next", ("n_nodes",), "each space's number of successors")
STOP = LAYOUT.placed("stop", ("n_nodes",), "1 on a Stop space")
GPS = LAYOUT.placed("gps", ("n_nodes", 6), "an arrow's space for each die face (-1: no arrow)")
LAND = LAYOUT.placed("land", ("n_nodes", MAX_LAND), "each space's closest road or track spaces (R13)")
N_LAND = LAYOUT.placed("n_land", ("n_nodes",), "entries of each space's land list")
NUMBER = LAYOUT.placed("number", ("n_nodes",), "each space's lot square number")
TOGO = LAYOUT.placed("togo", ("n_nodes",), "spaces still to go from each space without boarding anything")
LOT = LAYOUT.placed("lot", ("n_lot",), "the lot squares' spaces by number")
NEAR_STATION = LAYOUT.placed("near_station", ("n_nodes",), "1: a road-class space with an edge to a station")
NEAR_AIRPORT = LAYOUT.placed("near_airport", ("n_nodes",), "1: a road-class space with an edge to an airport")
REACH_STATION = LAYOUT.placed(
    "reach_station", ("n_nodes",), "1: a near_station space lies ahead by plain road steps (the space included)"
)
REACH_AIRPORT = LAYOUT.placed(
    "reach_airport", ("n_nodes",), "1: a near_airport space lies ahead by plain road steps (the space included)"
)
MASK = LAYOUT.placed(
    "mask", (N_CLASSES, 2, "n_nodes"), "legal steps of class m from u, bits over u's successors (R17; R18 when entered)"
)
LAUNCH = LAYOUT.placed(
    "launch", ("n_nodes",), "bit 4m: a vehicle of movement class m has a legal first step from the space (R8)"
)
CARDS = LAYOUT.placed("cards", ("n_cards", CARD_W), "the card table: C_* fields of each card")
VALUES = LAYOUT.placed(
    "values", (N_TABLES, "n_nodes", R_TABLE + 1), "the heuristics' value tables V(t, u, r), scaled by VSCALE"
)
SURE_NEXT = LAYOUT.placed(
    "sure_next", (N_TABLES, "n_nodes"),
    "the heuristics' NEXT answer at a space whatever the points left, per value table: "
    "bits 32e.. hold it + 2 for a move that has (e = 1) or has not (0) entered the space; 0: it depends",
)
CELL = LAYOUT.placed("cell", ("n_nodes",), "each space's cell of the heatmap grid")

PHASE = LAYOUT.dynamic("phase", (), "where the rules stand (kernel.PH_*)")
SETUP_SEAT = LAYOUT.dynamic("setup_seat", (), "the seat drawing its setup hand")
VEHICLE = LAYOUT.dynamic("vehicle", (), "the card ridden this turn (-1: none)")
V_LIMIT = LAYOUT.dynamic("v_limit", (), "the vehicle's effective karma limit")
V_KEPT = LAYOUT.dynamic("v_kept", (), "1 when riding the card kept in front")
N_SLOTS = LAYOUT.dynamic("n_slots", (), "slots of the vehicle's row")
SLOT_TOP = LAYOUT.dynamic("slot_top", (SLOT_CAP,), "the top card of each slot")
ROW_N = LAYOUT.dynamic("row_n", (), "Karma cards played this ride")
ROW_CARD = LAYOUT.dynamic("row_card", (ROW_CAP,), "every Karma card played this ride, in play order")
ROW_SLOT = LAYOUT.dynamic(
    "row_slot", (ROW_CAP,), "the slot of each (a slot's stack bottom to top = its cards in play order)"
)
REMOVED = LAYOUT.dynamic("removed", (), "bitmask of removed slots (R15)")
OPP = LAYOUT.dynamic("opp", (), "the karma round's next opportunity (a seat)")
PASSED = LAYOUT.dynamic("passed", (), "seats that passed in the karma round (bitmask)")
STEP_SEAT = LAYOUT.dynamic("step_seat", (), "the seat that may step (R14)")
LANDED = LAYOUT.dynamic("landed", (), "1 after a move-to-closest card (R13)")
MV_AT = LAYOUT.dynamic("mv_at", (), "the move's current space")
MV_LEFT = LAYOUT.dynamic("mv_left", (), "the move's points left")
MV_ENTERED = LAYOUT.dynamic("mv_entered", (), "1 once the current space was entered in this move")
REFILL_LEFT = LAYOUT.dynamic("refill_left", (), "cards still to draw after the refill discard")
PAWN = LAYOUT.dynamic("pawn", (MAX_SEATS,), "each seat's space")
SQUARE = LAYOUT.dynamic("square", (MAX_SEATS,), "each seat's start square number")
KEPT = LAYOUT.dynamic("kept", (MAX_SEATS,), "the card in front of each seat (-1: none)")
KEEP_LEFT = LAYOUT.dynamic("keep_left", (MAX_SEATS,), "its stays-left counter (R21)")
HAND_N = LAYOUT.dynamic("hand_n", (MAX_SEATS,), "cards in each hand")
HAND = LAYOUT.dynamic("hand", (MAX_SEATS, HAND_CAP), "the hands, each sorted by card id")
HAND_COUNTS = LAYOUT.dynamic(
    "hand_counts", (MAX_SEATS, COUNT_WORDS), "each hand's cards by kind (T_*): 4-bit counters, 16 a word"
)
DRAW_N = LAYOUT.dynamic("draw_n", (4,), "cards in each deck's draw pile")
DISC_N = LAYOUT.dynamic("disc_n", (4,), "cards in each deck's discard pile")
TOGO_SCORE = SCORE  # the outcome's per-seat score: togo at the end
O_DRAW = DRAW_PILE  # older names: the slot holding where the draw piles lie
O_DISC = DISCARD

# The regions' compiled helpers (st[pawn_at(seat)]; a placed region's take st first)
rule_at = PARAMS.index  # st[rule_at(P_X)]: a rule parameter
deck_first_at = DECK_FIRST.index
deck_size_at = DECK_SIZE.index
draw_pile_at = DRAW_PILE.index  # st[draw_pile_at(st, deck_first + i)]
discard_at = DISCARD.index
kind_at = KIND.index
cls_at = CLS.index
next_at = SUCCESSORS.index  # st[next_at(st, u, k)]: the k-th successor of u
n_next_at = N_NEXT.index
gps_at = GPS.index
land_at = LAND.index
n_land_at = N_LAND.index
number_at = NUMBER.index
togo_at = TOGO.index
lot_at = LOT.index
near_station_at = NEAR_STATION.index
near_airport_at = NEAR_AIRPORT.index
reach_station_at = REACH_STATION.index
reach_airport_at = REACH_AIRPORT.index
mask_at = MASK.index  # st[mask_at(st, m, entered, u)]
launch_at = LAUNCH.index
card_at = CARDS.index  # st[card_at(st, c, C_X)]
values_at = VALUES.index  # st[values_at(st, t, u, r)]
sure_next_at = SURE_NEXT.index  # st[sure_next_at(st, t, u)]
cell_at = CELL.index
slot_top_at = SLOT_TOP.index
row_card_at = ROW_CARD.index
row_slot_at = ROW_SLOT.index
pawn_at = PAWN.index
square_at = SQUARE.index
kept_at = KEPT.index
keep_left_at = KEEP_LEFT.index
hand_n_at = HAND_N.index
hand_at = HAND.index  # st[hand_at(seat, i)]: the i-th card of the seat's hand
hand_counts_at = HAND_COUNTS.index  # st[hand_counts_at(seat, w)]: word w of the hand's counts
draw_n_at = DRAW_N.index
disc_n_at = DISC_N.index
togo_score_at = score_at  # st[togo_score_at(seat)]


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


def _card_table(printed: np.ndarray, young: bool) -> np.ndarray:
    """The card table: the printed fields, then C_CLASS, C_PLAYED and C_COUNTS
    under the rules in play (the same values move_class and effect_of once
    worked out at every call)."""
    table = np.zeros((printed.shape[0], CARD_W), np.int64)
    table[:, : printed.shape[1]] = printed
    for row in table:
        if row[C_MODE] == MODE_TRAIN:
            cls = M_TRAIN
        elif row[C_MODE] == MODE_PLANE:
            cls = M_PLANE
        elif young:
            cls = M_ROAD
        else:
            cls = row[C_TRACKS] * 2 + row[C_IGNORES]
        row[C_CLASS] = cls
        row[C_PLAYED] = E_NONE if young else row[C_EFFECT]
        kinds = []
        if row[C_DECK] == D_TRANSPORT:
            kinds.append(T_CLASS + cls)
        else:
            mode = row[C_DECK] - 1
            kinds.append((T_ON_TOP if row[C_PLAYED] == E_ON_TOP else T_PLAIN) + mode)
            if row[C_SPEED] > 0:
                kinds.append(T_FAST + mode)
            elif row[C_SPEED] < 0:
                kinds.append(T_SLOW + mode)
        for t in kinds:
            row[C_COUNTS + t // 16] |= 1 << (4 * (t % 16))
    return table


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
        # R8's playable, per space: one word to test any transport (bit 4m: class m)
        launch = np.zeros(board.n_nodes, np.int64)
        for m in range(N_CLASSES):
            launch |= (tables["mask"][m, 0] != 0).astype(np.int64) << (4 * m)
        tables["launch"] = launch
        tables["cell"] = np.array(heat_grid(board)[1], np.int64)
        board.cache["tables"] = tables
    return board.cache["tables"]


def encode(params: Mapping[str, Any], board: CarmaBoard, n_seats: int) -> np.ndarray:
    """The state image: parameters, sizes, the board's tables and the heuristics' value tables."""
    t = board_tables(board)
    n = board.n_nodes
    n_cards = len(board.decks.cards)
    lay = LAYOUT.copy()
    lay.place(DRAW_PILE, n_cards)
    lay.place(DISCARD, n_cards)
    (rows, cols), _ = heat_grid(board)
    lay.heat(rows * cols)  # how often pawns enter each cell of the map's grid (the report's heatmap)
    tables = {
        KIND: ("kind", n), CLS: ("cls", n), SUCCESSORS: ("next", n * MAX_NEXT), N_NEXT: ("n_next", n),
        STOP: ("stop", n), GPS: ("gps", n * 6), LAND: ("land", n * MAX_LAND), N_LAND: ("n_land", n),
        NUMBER: ("number", n), TOGO: ("togo", n), LOT: ("lot", len(t["lot"])),
        NEAR_STATION: ("near_station", n), NEAR_AIRPORT: ("near_airport", n),
        REACH_STATION: ("reach_station", n), REACH_AIRPORT: ("reach_airport", n),
        MASK: ("mask", N_CLASSES * 2 * n), LAUNCH: ("launch", n), CARDS: ("cards", n_cards * CARD_W),
        CELL: ("cell", n),
    }
    for region, (_, size) in tables.items():
        lay.place(region, size)
    lay.place(VALUES, N_TABLES * n * (R_TABLE + 1))
    lay.place(SURE_NEXT, N_TABLES * n)
    image = lay.image()
    PARAMS.put(image, [p.encode(params[p.name]) for p in PARAM_DECLS])
    image[N_NODES] = n
    image[N_CARDS] = n_cards
    image[CONVENTION] = board.convention
    image[HAND_LIMIT] = hand_limit_for(params, n_seats)
    image[N_LOT] = len(t["lot"])
    gifts = board.decks.gifts
    image[GIFT_AIRPORT] = -1 if gifts["airport"] is None else gifts["airport"]
    image[GIFT_STATION] = -1 if gifts["station"] is None else gifts["station"]
    sizes = [len(board.decks.ids(deck)) for deck in DECKS]
    DECK_FIRST.put(image, np.cumsum([0, *sizes[:-1]]))
    DECK_SIZE.put(image, sizes)
    for region, (name, _) in tables.items():
        if region is not CARDS:
            region.put(image, t[name])
    CARDS.put(image, _card_table(t["cards"], bool(params["young_players"])))
    build_values(image)
    build_sure_next(image)
    return image


# --------------------------------------------------------------------------- board and card helpers
@njit(cache=True, _nrt=False)
def togo(st, node):
    """Spaces still to go from ``node`` without boarding anything (b.1)."""
    return st[togo_at(st, node)]


@njit(cache=True, _nrt=False)
def visit(st, node):
    """A pawn entered ``node``: one more in its heatmap cell."""
    st[heat_cell_at(st, st[cell_at(st, node)])] += 1


@njit(cache=True, _nrt=False)
def kind_of(st, node):
    return st[kind_at(st, node)]


@njit(cache=True, _nrt=False)
def cls_of(st, node):
    return st[cls_at(st, node)]


@njit(cache=True, _nrt=False)
def n_next(st, node):
    return st[n_next_at(st, node)]


@njit(cache=True, _nrt=False)
def next_of(st, node, k):
    return st[next_at(st, node, k)]


@njit(cache=True, _nrt=False)
def gps_of(st, node, face):
    """The arrow's space for die face ``face`` + 1, or -1 when ``node`` is no arrow."""
    return st[gps_at(st, node, face)]


@njit(cache=True, _nrt=False)
def card(st, c, field):
    return st[card_at(st, c, field)]


@njit(cache=True, _nrt=False)
def young(st):
    return st[rule_at(P_YOUNG_PLAYERS)] != 0


@njit(cache=True, _nrt=False)
def effect_of(st, c):
    """A Karma card's effect as played (R24: none for young players)."""
    return st[card_at(st, c, C_PLAYED)]


@njit(cache=True, _nrt=False)
def is_transport(st, c):
    return st[card_at(st, c, C_DECK)] == D_TRANSPORT


@njit(cache=True, _nrt=False)
def move_class(st, c):
    """The movement class of transport card ``c`` (R17; R24 turns tracks and ignores_stops off)."""
    return st[card_at(st, c, C_CLASS)]


@njit(cache=True, _nrt=False)
def step_mask(st, m, node, entered):
    """Bits over ``node``'s next list: the legal steps of class ``m`` (R17, R18)."""
    return st[mask_at(st, m, entered, node)]


@njit(cache=True, _nrt=False)
def playable(st, c, node):
    """R8: a transport card is playable when it has a legal first step from ``node``."""
    return ((st[launch_at(st, node)] >> (4 * st[card_at(st, c, C_CLASS)])) & 1) != 0


@njit(cache=True, _nrt=False)
def hand_count(st, seat, t):
    """How many cards of kind ``t`` (T_*) the seat's hand holds."""
    return (st[hand_counts_at(seat, t >> 4)] >> (4 * (t & 15))) & 15


@njit(cache=True, _nrt=False)
def count_in(word, t):
    """Counter ``t`` (< 16: the first word's) of a word of hand counts."""
    return (word >> (4 * t)) & 15


@njit(cache=True, _nrt=False)
def playable_in_hand(st, seat, node):
    """How many of the seat's hand transports are playable from ``node`` (R8):
    the hand's counter of each movement class that has a first step there."""
    held = st[hand_counts_at(seat, 0)] & (st[launch_at(st, node)] * 15)
    n = 0
    for m in range(N_CLASSES):
        n += (held >> (4 * m)) & 15
    return n


@njit(cache=True, _nrt=False)
def effective_limit(st, c):
    """max(0, printed limit + karma_limit_delta) (R11)."""
    return max(0, card(st, c, C_LIMIT) + st[rule_at(P_KARMA_LIMIT_DELTA)])


@njit(cache=True, _nrt=False)
def keep_of(st, c):
    if st[rule_at(P_YOUNG_PLAYERS)] or card(st, c, C_MODE) != MODE_ROAD:
        return 0
    return card(st, c, C_KEEP)


@njit(cache=True, _nrt=False)
def hand_card(st, seat, i):
    return st[hand_at(seat, i)]


@njit(cache=True, _nrt=False)
def deck_drawable(st, d):
    """R7: a deck is drawable when its draw pile or its discard pile holds a card."""
    return st[draw_n_at(d)] > 0 or st[disc_n_at(d)] > 0


@njit(cache=True, _nrt=False)
def any_drawable(st):
    for d in range(4):
        if st[draw_n_at(d)] > 0 or st[disc_n_at(d)] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def first_drawable(st):
    """The fallback deck: the first drawable of transport, road, train, plane (-1: none)."""
    for d in range(4):
        if st[draw_n_at(d)] > 0 or st[disc_n_at(d)] > 0:
            return d
    return -1


@njit(cache=True, _nrt=False)
def karma_legal(st, c, slot):
    """R11: may Karma card ``c`` go on the ridden vehicle at ``slot`` (N_SLOTS: a new slot)?"""
    v = st[VEHICLE]
    if v < 0 or card(st, c, C_DECK) == D_TRANSPORT:
        return False
    if st[rule_at(P_KARMA_MUST_MATCH)] and card(st, c, C_DECK) != card(st, v, C_MODE) + 1:
        return False
    n = st[N_SLOTS]
    if effect_of(st, c) == E_ON_TOP:
        return 0 <= slot < n
    return slot == n and n < st[V_LIMIT]


@njit(cache=True, _nrt=False, forceinline=True)
def has_legal_karma(st, seat):
    """Whether the seat holds a Karma card it may play on the vehicle (R11):
    an on_top card of a matching deck while the row has a slot, another one
    while the row has room (the hand's counts of both, per deck)."""
    w = st[hand_counts_at(seat, 0)]
    if st[rule_at(P_KARMA_MUST_MATCH)]:
        mode = card(st, st[VEHICLE], C_MODE)
        on_top = count_in(w, T_ON_TOP + mode)
        plain = count_in(w, T_PLAIN + mode)
    else:
        on_top = count_in(w, T_ON_TOP) + count_in(w, T_ON_TOP + 1) + count_in(w, T_ON_TOP + 2)
        plain = count_in(w, T_PLAIN) + count_in(w, T_PLAIN + 1) + count_in(w, T_PLAIN + 2)
    n = st[N_SLOTS]
    return (on_top > 0 and n > 0) or (plain > 0 and n < st[V_LIMIT])


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def has_step_option(st, node):
    for j in range(n_next(st, node)):
        if is_step_option(st, node, next_of(st, node, j)):
            return True
    return False


# --------------------------------------------------------------------------- heuristic values
@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def node_value(st, u, track_stranded, sky_stranded):
    """value(u) scaled by VSCALE: togo, +10 on a stranded track or sky space."""
    v = st[togo_at(st, u)]
    k = st[kind_at(st, u)]
    if (k == K_TRACK and track_stranded) or (k == K_SKY and sky_stranded):
        v += STRANDED
    return v * VSCALE


@njit(cache=True, _nrt=False)
def table_value(st, t, u, r):
    """V(c, u, r, entered=true) of value table ``t`` (r <= R_TABLE)."""
    return st[values_at(st, t, u, r)]


@njit(cache=True, _nrt=False)
def build_values(st):
    """VALUES[t][u][r] = V(c, u, r, entered) for every table, space and r <= R_TABLE
    (players.py, section (e) of the spec): min(value(u), GO); GO over the legal
    steps, at an arrow the mean over the die's faces (an illegal face stops on
    the arrow)."""
    n = st[N_NODES]
    conv = st[CONVENTION]
    for t in range(N_TABLES):
        m, ts, ss = table_flags(t)
        for u in range(n):
            st[values_at(st, t, u, 0)] = node_value(st, u, ts, ss)
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
                            total += st[values_at(st, t, w, r - 1)] if ok else own
                        go = total // 6
                    else:
                        go = np.int64(1) << np.int64(60)
                        for k in range(n_next(st, u)):
                            if (mask >> k) & 1:
                                w = next_of(st, u, k)
                                x = st[values_at(st, t, w, r - 1)]
                                if x < go:
                                    go = x
                    if go < best:
                        best = go
                st[values_at(st, t, u, r)] = best


@njit(cache=True, _nrt=False)
def build_sure_next(st):
    """SURE_NEXT[t][u]: where the heuristics' NEXT answer (players._move_choice)
    does not depend on the points left, that answer, for a move that has not
    entered ``u`` (bits 0..31) and one that has (bits 32..63), each + 2 (0: it
    depends).  It is sure in two cases: no legal step (the answer is -1, stop),
    and one legal step to ``w`` with value(w) <= value(u), since V(w, r) <=
    value(w) for every r (a move may stop on w): the step is then no worse
    than stopping, whatever the points left.  A NEXT question is asked at every
    step of every move, and on the default map 252 of the 285 spaces have one
    successor: most answers are then one read of this small table instead of
    a read of the large value tables, whose rows a move meets one per step."""
    n = st[N_NODES]
    for t in range(N_TABLES):
        m, ts, ss = table_flags(t)
        for u in range(n):
            word = np.int64(0)
            for entered in range(2):
                mask = step_mask(st, m, u, entered)
                legal = 0
                w = -1
                for k in range(n_next(st, u)):
                    if (mask >> k) & 1:
                        legal += 1
                        w = next_of(st, u, k)
                sure = np.int64(0)
                if legal == 0:
                    sure = np.int64(1)  # -1 + 2: stop
                elif legal == 1 and node_value(st, w, ts, ss) <= node_value(st, u, ts, ss):
                    sure = w + 2
                word |= sure << np.int64(32 * entered)
            st[sure_next_at(st, t, u)] = word


@njit(cache=True, _nrt=False)
def sure_next(st, t, u, entered):
    """SURE_NEXT's answer for value table ``t`` at ``u`` (build_sure_next): the
    next space or -1 (stop), or -2 when the answer depends on the points left."""
    return ((st[sure_next_at(st, t, u)] >> (32 * entered)) & 0xFFFFFFFF) - 2


assert MAX_SEATS == 6

