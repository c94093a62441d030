"""TAXI!'s state: the shared header (balance.state), then the game's regions.

Layout (slots of int64; ``Layout`` regions in this order)::

    static   PARAMS          the rule parameters (params.P_* order; a choice as
                             its index, a bool as 0/1)
    static   board scalars   N_NODES, N_ARCS, N_SEGS, BASE, LEGS (15 or 30),
                             MENU_CAP, PATH_CAP, DECK_SIZE[3], GAMBLE_COPIES[3]
                             (gamble cards per word in the Journey deck), and the
                             offsets O_* of the board-sized regions below
    dynamic  the game        PHASE, NEXT (who plays the next turn), CURSOR (the
                             opponent asked now: barriers, bets), LEG (1-based),
                             ANY_ARRIVED, N_IN (seats still in), per seat: OUT,
                             MONEY, GREENS, WHITES (freeway tablets), BARRIERS,
                             PLATES, POS (node; -1 once out), DEST (node),
                             ARRIVED (this leg); SUPPLY_* (green, white, barrier,
                             plate); the turn: CARD_DECK (-1 none, 0 journey,
                             1 passenger), CARD_ID, CARD_KIND, BONUS (streets
                             card), NO_MOVE, DIE, ALLOWANCE, BARRED[MAX_SEATS]
                             and N_BARRED (segments barred this turn), BET per
                             seat (-1: not asked; else a word, below), HOLDER;
                             TOP[3] (cards drawn from each deck since its last
                             shuffle), REVEALED[3] (gamble words revealed since
                             the Journey deck's last shuffle); the move: PATH_LEN,
                             LAST_ARC, STREETS_USED, GREENS_USED, WHITES_USED,
                             DRIVES (menu entries taken), MENU_N
    dynamic  board-sized     ORDER of each deck (card ids: ORDER[TOP:] is the
                             draw pile top first, ORDER[:TOP] the discard pile in
                             discard order), PATH (the move so far, PATH_CAP
                             nodes), the move menu (MENU_CAP entries, below)
    static   board tables    node flags (FREEWAY, LIT), the arcs (FROM, TO, SEG,
                             ENTRY, CONT: see board.py), OUT_START/OUT_ARC (arcs
                             leaving a node, by end node), SEG_A/SEG_B, the
                             segments touching a node, D0 (tablet-free distance
                             in streets, N_NODES x N_NODES), GUIDE (a node per
                             seat and stop), each deck's KIND and VALUE per card

Decisions (``kind``; ``subject``; the answer):

    KIND_BARRIER  subject = the seat whose turn begins; asked of each opponent
                  holding a barrier, in order of play.  Answer: a segment index
                  (0..N_SEGS-1, board order: street by street, along the path)
                  not barred yet this turn, or -1 to keep the barrier.
    KIND_BUY      subject = the plate price; asked only when the seat may buy.
                  Answer: 1 buys a plate, 0 does not.
    KIND_CARD     subject = 0.  Answer: CARD_JOURNEY (0), CARD_PASSENGER (1) or,
                  with card_optional, CARD_NONE (2).
    KIND_BET      subject = the holder of the gamble card; asked of each
                  opponent still in, in order of play.  Answer: BET_NONE (0),
                  BET_MONEY (1), BET_FREEWAY (2), BET_TAXI (3).
    KIND_MOVE     subject = streets left.  The kernel lists the one-street
                  drives from the taxi's node in the MENU (below); answer an
                  entry's index to drive it, or STOP (-1) to end the move.
                  Asked again after each entry taken, until STOP or no entry
                  is left.  Any path of the rules is a sequence of entries
                  (every single step is an entry of depth 1).

The move menu: entry ``i`` (0 <= i < MENU_N) is a route from the taxi's current
node along one street (rule 6: through freeway nodes, exits and off roads as
one street): ``menu_node`` its end, ``menu_parent`` the entry it extends (-1: its
first step leaves the taxi's node), ``menu_arc`` the arc that reaches its end,
``menu_steps`` its length in segments, ``menu_greens``/``menu_whites`` the
tablets it spends, ``menu_streets`` the move's streets once it is taken.  Entries
come in breadth-first order (by length, then by the arc order of each node:
ascending end node).  An entry visits no node twice (its start only when that is
a freeway node, once), never passes a barred segment, spends no more tablets
than the mover has left, keeps the streets within the allowance and the path
within PATH_CAP.  An entry ending on a freeway node may be taken (the move must
then go on) but the move may stop there only with stop_on_freeway.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import MAX_SEATS, N_SEATS, Layout
from sims.taxi.params import N_PARAMS, P_STOP_ON_FREEWAY
from sims.taxi.params import PARAMS as PARAM_DECLS

N_DECKS = 3
JOURNEY, PASSENGER, EXPENSE_DECK = 0, 1, 2

LAYOUT = Layout()
PARAMS = LAYOUT.static(N_PARAMS)
N_NODES = LAYOUT.static(1)
N_ARCS = LAYOUT.static(1)
N_SEGS = LAYOUT.static(1)
BASE = LAYOUT.static(1)
LEGS = LAYOUT.static(1)
MENU_CAP = LAYOUT.static(1)
PATH_CAP = LAYOUT.static(1)
DECK_SIZE = LAYOUT.static(N_DECKS)
GAMBLE_COPIES = LAYOUT.static(3)
# offsets of the board-sized regions
O_ORDER = LAYOUT.static(N_DECKS)
O_PATH = LAYOUT.static(1)
O_MENU_NODE = LAYOUT.static(1)
O_MENU_PARENT = LAYOUT.static(1)
O_MENU_ARC = LAYOUT.static(1)
O_MENU_STEPS = LAYOUT.static(1)
O_MENU_GREENS = LAYOUT.static(1)
O_MENU_WHITES = LAYOUT.static(1)
O_MENU_STREETS = LAYOUT.static(1)
O_FREEWAY = LAYOUT.static(1)
O_LIT = LAYOUT.static(1)
O_ARC_FROM = LAYOUT.static(1)
O_ARC_TO = LAYOUT.static(1)
O_ARC_SEG = LAYOUT.static(1)
O_ARC_ENTRY = LAYOUT.static(1)
O_ARC_CONT = LAYOUT.static(1)
O_OUT_START = LAYOUT.static(1)
O_OUT_ARC = LAYOUT.static(1)
O_SEG_A = LAYOUT.static(1)
O_SEG_B = LAYOUT.static(1)
O_NODE_SEG_START = LAYOUT.static(1)
O_NODE_SEG = LAYOUT.static(1)
O_D0 = LAYOUT.static(1)
O_GUIDE = LAYOUT.static(1)
O_DECK_KIND = LAYOUT.static(N_DECKS)
O_DECK_VALUE = LAYOUT.static(N_DECKS)

# ---- dynamic, fixed size
PHASE = LAYOUT.dynamic(1)
NEXT = LAYOUT.dynamic(1)
CURSOR = LAYOUT.dynamic(1)
LEG = LAYOUT.dynamic(1)
ANY_ARRIVED = LAYOUT.dynamic(1)
N_IN = LAYOUT.dynamic(1)
OUT = LAYOUT.dynamic(MAX_SEATS)
MONEY = LAYOUT.dynamic(MAX_SEATS)
GREENS = LAYOUT.dynamic(MAX_SEATS)
WHITES = LAYOUT.dynamic(MAX_SEATS)
BARRIERS = LAYOUT.dynamic(MAX_SEATS)
PLATES = LAYOUT.dynamic(MAX_SEATS)
POS = LAYOUT.dynamic(MAX_SEATS)
DEST = LAYOUT.dynamic(MAX_SEATS)
ARRIVED = LAYOUT.dynamic(MAX_SEATS)
SUPPLY_GREEN = LAYOUT.dynamic(1)
SUPPLY_WHITE = LAYOUT.dynamic(1)
SUPPLY_BARRIER = LAYOUT.dynamic(1)
SUPPLY_PLATE = LAYOUT.dynamic(1)
CARD_DECK = LAYOUT.dynamic(1)
CARD_ID = LAYOUT.dynamic(1)
CARD_KIND = LAYOUT.dynamic(1)
BONUS = LAYOUT.dynamic(1)
NO_MOVE = LAYOUT.dynamic(1)
DIE = LAYOUT.dynamic(1)
ALLOWANCE = LAYOUT.dynamic(1)
BARRED = LAYOUT.dynamic(MAX_SEATS)
N_BARRED = LAYOUT.dynamic(1)
BET = LAYOUT.dynamic(MAX_SEATS)
HOLDER = LAYOUT.dynamic(1)
TOP = LAYOUT.dynamic(N_DECKS)
REVEALED = LAYOUT.dynamic(3)
PATH_LEN = LAYOUT.dynamic(1)
LAST_ARC = LAYOUT.dynamic(1)
STREETS_USED = LAYOUT.dynamic(1)
GREENS_USED = LAYOUT.dynamic(1)
WHITES_USED = LAYOUT.dynamic(1)
DRIVES = LAYOUT.dynamic(1)
MENU_N = LAYOUT.dynamic(1)
LEG_ENDED = LAYOUT.dynamic(1)  # 1 once the current leg's end (bonus, jumps) has been reached

# ---- phases (PHASE)
PH_SETUP = 0
PH_TURN_START = 1
PH_BARRIER = 2
PH_BUY = 3
PH_CARD = 4
PH_DRAW = 5
PH_BET = 6
PH_ROLL = 7
PH_MOVE = 8
PH_TABLET = 9
PH_TURN_END = 10
PH_LEG_END = 11

# ---- decisions
KIND_BARRIER = np.int64(0)
KIND_BUY = np.int64(1)
KIND_CARD = np.int64(2)
KIND_BET = np.int64(3)
KIND_MOVE = np.int64(4)
KIND_NAMES = ("barrier", "buy", "card", "bet", "move")
CARD_JOURNEY = 0
CARD_PASSENGER = 1
CARD_NONE = 2
BET_NONE = 0
BET_MONEY = 1
BET_FREEWAY = 2
BET_TAXI = 3
BET_WORDS = ("none", "money", "freeway", "taxi")
STOP = -1
KEEP = -1  # a barrier answer: keep it

# ---- card kinds (board.CARD_KINDS order)
C_CASH, C_FINE, C_EXPENSE, C_GREEN, C_FREEWAY, C_STREETS, C_NO_MOVE, C_ROADWORK = range(8)
C_GAMBLE_MONEY, C_GAMBLE_FREEWAY, C_GAMBLE_TAXI = 8, 9, 10

# ---- trace rows (kind; the six values)
EV_ORDER = 1  # deck, count; then DATA rows of card ids (setup)
EV_LEG = 2  # leg; then a DATA row: destination per seat (-1: out)
EV_TURN = 3  # seat
EV_BARRIER = 4  # placer, target, node a, node b, barriers left
EV_BUY = 5  # seat, price, money, plates
EV_SHUFFLE = 6  # deck, count; then DATA rows of card ids
EV_CARD = 7  # seat, deck (-1 none), card, money, greens, whites; then DATA: barriers, plates
EV_BET = 8  # bettor, holder, word (BET_*)
EV_REVEAL = 9  # holder, word (0 money, 1 freeway, 2 taxi), winners; DATA rows: winners, money, greens, whites, plates
EV_SELL = 10  # seat, price, money, plates
EV_ELIMINATE = 11  # seat, money
EV_ROLL = 12  # seat, die, bonus
EV_MOVE = 13  # seat, nodes, streets, greens used, whites used; DATA: greens left, whites left; DATA rows: path
EV_ARRIVE = 14  # seat, node, leg
EV_TABLET = 15  # seat, face, result (0 freeway, 1 green, 2 blank), granted, greens, whites
EV_LEG_END = 16  # leg, share; DATA rows: arrived flags, money, position (-1: out)
EV_HIRE = 17  # seat, fee, money
EV_EXPENSE = 18  # seat, card, amount, money
EV_END = 19  # winner, reason, legs completed
EV_DATA = 20  # six values continuing the row before

BASE_LAYOUT = LAYOUT.copy()


def board_layout(board: Any) -> tuple[Layout, dict[str, int]]:
    """The layout for one board: the board-sized regions after the fixed ones."""
    layout = BASE_LAYOUT.copy()
    n, m, s = board.n_nodes, board.n_arcs, len(board.segments)
    sizes = [len(board.decks[d]) for d in ("journey", "passenger", "expense")]
    menu_cap = menu_capacity(board)
    path_cap = path_capacity(board)
    off: dict[str, int] = {}
    for d in range(N_DECKS):
        off[f"order{d}"] = layout.dynamic(sizes[d])
    off["path"] = layout.dynamic(path_cap)
    for name in ("node", "parent", "arc", "steps", "greens", "whites", "streets"):
        off[f"menu_{name}"] = layout.dynamic(menu_cap)
    off["freeway"] = layout.static(n)
    off["lit"] = layout.static(n)
    for name in ("from", "to", "seg", "entry", "cont"):
        off[f"arc_{name}"] = layout.static(m)
    off["out_start"] = layout.static(n + 1)
    off["out_arc"] = layout.static(m)
    off["seg_a"] = layout.static(s)
    off["seg_b"] = layout.static(s)
    off["node_seg_start"] = layout.static(n + 1)
    off["node_seg"] = layout.static(2 * s)
    off["d0"] = layout.static(n * n)
    off["guide"] = layout.static(MAX_SEATS * 30)
    for d in range(N_DECKS):
        off[f"kind{d}"] = layout.static(sizes[d])
        off[f"value{d}"] = layout.static(sizes[d])
    off["menu_cap"] = menu_cap
    off["path_cap"] = path_cap
    return layout, off


def path_capacity(board: Any) -> int:
    """Most nodes in one move's path (the start included): a move is a path of
    the rules cut at this length (RULES.md, rule 6).  Twice the board's nodes,
    at least 64: a sensible move never comes near it."""
    return max(64, 2 * board.n_nodes)


def menu_capacity(board: Any) -> int:
    """Entries of the move menu: the most one-street drives from any node with
    unlimited tablets (no entry is ever cut on such a board), at least 64, at
    most 4096 (a larger menu is cut in its breadth-first order)."""
    cached = getattr(board, "_menu_cap", None)
    if cached is not None:
        return cached
    limit = 4096
    most = 0
    n = board.n_nodes
    for u in range(n):
        count = 0
        # breadth-first over (node, arc, ancestors' nodes)
        frontier = []
        for a in board.out_arc[board.out_start[u] : board.out_start[u + 1]]:
            frontier.append((int(a), ()))
        while frontier and count < limit:
            nxt = []
            for a, seen in frontier:
                v = int(board.arc_to[a])
                if v in seen or (v == u and not board.freeway[u]):
                    continue
                count += 1
                if count >= limit:
                    break
                route = (*seen, v)
                if board.freeway[v]:
                    for b in board.out_arc[board.out_start[v] : board.out_start[v + 1]]:
                        nxt.append((int(b), route))
                elif board.arc_cont[a] >= 0:
                    nxt.append((int(board.arc_cont[a]), route))
            frontier = nxt
        most = max(most, count)
    cap = min(limit, max(64, most))
    object.__setattr__(board, "_menu_cap", cap)
    return cap


def encode(params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
    """The state image of one rule set on one board."""
    layout, off = board_layout(board)
    image = layout.image()
    for i, p in enumerate(PARAM_DECLS):
        image[PARAMS + i] = p.encode(params[p.name])
    n, m, s = board.n_nodes, board.n_arcs, len(board.segments)
    image[N_NODES] = n
    image[N_ARCS] = m
    image[N_SEGS] = s
    image[BASE] = board.base
    image[LEGS] = 15 if params["game_length"] == "short" else 30
    image[MENU_CAP] = off["menu_cap"]
    image[PATH_CAP] = off["path_cap"]
    decks = [board.decks[d] for d in ("journey", "passenger", "expense")]
    from sims.taxi.board import CARD_KINDS

    for d in range(N_DECKS):
        image[DECK_SIZE + d] = len(decks[d])
        image[O_ORDER + d] = off[f"order{d}"]
        image[O_DECK_KIND + d] = off[f"kind{d}"]
        image[O_DECK_VALUE + d] = off[f"value{d}"]
        for i, c in enumerate(decks[d]):
            image[off[f"kind{d}"] + i] = CARD_KINDS.index(c.kind)
            image[off[f"value{d}"] + i] = c.value
    for w, kind in enumerate(("gamble_money", "gamble_freeway", "gamble_taxi")):
        image[GAMBLE_COPIES + w] = sum(1 for c in decks[0] if c.kind == kind)
    image[O_PATH] = off["path"]
    image[O_MENU_NODE] = off["menu_node"]
    image[O_MENU_PARENT] = off["menu_parent"]
    image[O_MENU_ARC] = off["menu_arc"]
    image[O_MENU_STEPS] = off["menu_steps"]
    image[O_MENU_GREENS] = off["menu_greens"]
    image[O_MENU_WHITES] = off["menu_whites"]
    image[O_MENU_STREETS] = off["menu_streets"]

    def put(slot: int, key: str, values: Any) -> None:
        at = off[key]
        image[slot] = at
        flat = np.asarray(values, dtype=np.int64).ravel()
        image[at : at + flat.shape[0]] = flat

    put(O_FREEWAY, "freeway", board.freeway)
    put(O_LIT, "lit", board.lit)
    put(O_ARC_FROM, "arc_from", board.arc_from)
    put(O_ARC_TO, "arc_to", board.arc_to)
    put(O_ARC_SEG, "arc_seg", board.arc_seg)
    put(O_ARC_ENTRY, "arc_entry", board.arc_entry)
    put(O_ARC_CONT, "arc_cont", board.arc_cont)
    put(O_OUT_START, "out_start", board.out_start)
    put(O_OUT_ARC, "out_arc", board.out_arc)
    put(O_SEG_A, "seg_a", [a for a, _, _ in board.segments])
    put(O_SEG_B, "seg_b", [b for _, b, _ in board.segments])
    put(O_NODE_SEG_START, "node_seg_start", board.node_seg_start)
    put(O_NODE_SEG, "node_seg", board.node_seg)
    put(O_D0, "d0", board.d0)
    guide = np.zeros((MAX_SEATS, 30), np.int64)
    for g in range(min(MAX_SEATS, len(board.guides))):
        guide[g] = board.guides[g]
    put(O_GUIDE, "guide", guide)
    return image


# --------------------------------------------------------------------------- readers (players may call)
@njit(cache=True)
def d0(st, u, v):
    """Tablet-free distance in streets from node u (a turn's start) to node v."""
    return st[st[O_D0] + u * st[N_NODES] + v]


@njit(cache=True)
def is_freeway(st, node):
    return st[st[O_FREEWAY] + node] != 0


@njit(cache=True)
def can_end(st, node):
    """May a move end on ``node``? (not on the freeway, unless stop_on_freeway)"""
    return st[st[O_FREEWAY] + node] == 0 or st[PARAMS + P_STOP_ON_FREEWAY] != 0


@njit(cache=True)
def menu_node(st, i):
    return st[st[O_MENU_NODE] + i]


@njit(cache=True)
def menu_parent(st, i):
    return st[st[O_MENU_PARENT] + i]


@njit(cache=True)
def menu_steps(st, i):
    return st[st[O_MENU_STEPS] + i]


@njit(cache=True)
def menu_greens(st, i):
    return st[st[O_MENU_GREENS] + i]


@njit(cache=True)
def menu_whites(st, i):
    return st[st[O_MENU_WHITES] + i]


@njit(cache=True)
def menu_streets(st, i):
    return st[st[O_MENU_STREETS] + i]


@njit(cache=True)
def taxi_node(st):
    """The mover's node now (the end of its path so far)."""
    return st[st[O_PATH] + st[PATH_LEN] - 1]


@njit(cache=True)
def next_in(st, seat):
    """The next seat still in after ``seat``, in order of play (cyclic)."""
    n = st[N_SEATS]
    s = seat
    for _ in range(n):
        s += 1
        if s == n:
            s = 0
        if st[OUT + s] == 0:
            return s
    return seat


@njit(cache=True)
def wealth(st, seat, plate_value):
    return st[MONEY + seat] + plate_value * st[PLATES + seat]


def legs_of(params: Mapping[str, Any]) -> int:
    return 15 if params["game_length"] == "short" else 30


