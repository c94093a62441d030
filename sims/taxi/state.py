"""TAXI!'s state: the shared header (balance.state), then the game's regions,
each declared below with its name, shape and meaning (``describe(st, LAYOUT)``
prints them; the docstrings of the declarations say what the values mean).

In order: the static rule parameters and board scalars; one placed region per
board-sized table (its slot holds where it lies: ``board_layout`` places it on
each board's copy of the layout), the fixed dynamic regions of the game, the
turn and the move, then the board-sized dynamic regions (each deck's order,
the path, the move menu) and the static board tables.  A deck's order
(``journey_order`` and so on) holds card ids: ``order[top:]`` is the draw pile
top first, ``order[:top]`` the discard pile in discard order.

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

The drive trees (``drive_tree``, built once per board by ``drive_trees``): the
menu from node ``u`` with unlimited tablets, allowance, path room and menu
capacity and no barrier is a tree in breadth-first order whose shape depends
on the board alone.  What else an entry needs (its first step's street within
the allowance, the tablets left, no barred segment, the path's room) also
holds for the entry it extends, so the menu is that tree pruned, in the same
order, cut at MENU_CAP: ``build_menu`` walks it instead of searching.  One word
per entry (the ``TREE_*`` fields below): its arc, end node, whether the end is
lit, whether the arc is a freeway entry, and where its children lie (a block
of consecutive words; identical subtrees share one block, and a block whose
words already lie in a row anywhere is not stored again).  Word ``k`` for
``out_start[u] <= k < out_start[u + 1]`` is the first step along
``out_arc[k]``; -1 there: node ``u``'s tree is not kept (the board's trees
past TREE_LIMIT words) and build_menu searches from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit

from balance.state import MAX_SEATS, N_SEATS, Layout, unsigned  # noqa: F401 (unsigned: the kernel's)
from sims.taxi.params import N_PARAMS, P_STOP_ON_FREEWAY
from sims.taxi.params import PARAMS as PARAM_DECLS

N_DECKS = 3
JOURNEY, PASSENGER, EXPENSE_DECK = 0, 1, 2
GUIDE_STOPS = 30  # stops of a destination guide (the long game's legs)

LAYOUT = Layout()
PARAMS = LAYOUT.static(
    "params", (N_PARAMS,), "the rule parameters (params.P_* order; a choice as its index, a bool 0/1)"
)
N_NODES = LAYOUT.static("n_nodes", (), "nodes of the board")
N_ARCS = LAYOUT.static("n_arcs", (), "arcs of the board (a segment driven one way)")
N_SEGS = LAYOUT.static("n_segs", (), "segments of the board")
BASE = LAYOUT.static("base", (), "the base node (every taxi's start)")
LEGS = LAYOUT.static("legs", (), "legs of the game (15 or 30)")
MENU_CAP = LAYOUT.static("menu_cap", (), "entries the move menu has room for (menu_capacity)")
PATH_CAP = LAYOUT.static("path_cap", (), "nodes one move's path has room for, its start included (path_capacity)")
# The decks' sizes, in deck order (JOURNEY, PASSENGER, EXPENSE_DECK; read with deck_size)
JOURNEY_CARDS = LAYOUT.static("journey_cards", (), "cards of the Journey deck")
PASSENGER_CARDS = LAYOUT.static("passenger_cards", (), "cards of the Passenger deck")
EXPENSE_CARDS = LAYOUT.static("expense_cards", (), "cards of the Expense deck")
GAMBLE_COPIES = LAYOUT.static("gamble_copies", (3,), "gamble cards per word (money, freeway, taxi) in the Journey deck")
N_STARTS = LAYOUT.static("n_starts", (), "n_nodes + 1: entries of out_start and node_seg_start")
NODE_SEGS = LAYOUT.static("node_segs", (), "2 n_segs: entries of node_seg")
TREE_LEN = LAYOUT.static("tree_len", (), "words of drive_tree")
GUIDE = LAYOUT.static("guide", (MAX_SEATS, GUIDE_STOPS), "the destination guides: a node per seat and stop (leg)")
# Board-sized regions: one slot each, holding where the region lies
# (board_layout places them).  The three decks' orders come first, in deck
# order, so their slots are consecutive.
JOURNEY_ORDER = LAYOUT.placed(
    "journey_order", ("journey_cards",), "the Journey deck's card ids in pile order", dynamic=True
)
PASSENGER_ORDER = LAYOUT.placed(
    "passenger_order", ("passenger_cards",), "the Passenger deck's card ids in pile order", dynamic=True
)
EXPENSE_ORDER = LAYOUT.placed(
    "expense_order", ("expense_cards",), "the Expense deck's card ids in pile order", dynamic=True
)
PATH = LAYOUT.placed(
    "path", ("path_cap",), "the move so far: nodes from the taxi's start (path_len of them)", dynamic=True
)
MENU_NODE = LAYOUT.placed("menu_node", ("menu_cap",), "menu entry: its end node", dynamic=True)
MENU_PARENT = LAYOUT.placed("menu_parent", ("menu_cap",), "menu entry: the entry it extends (-1: none)", dynamic=True)
MENU_ARC = LAYOUT.placed("menu_arc", ("menu_cap",), "menu entry: the arc that reaches its end", dynamic=True)
MENU_STEPS = LAYOUT.placed("menu_steps", ("menu_cap",), "menu entry: its length in segments", dynamic=True)
MENU_GREENS = LAYOUT.placed("menu_greens", ("menu_cap",), "menu entry: green tablets it spends", dynamic=True)
MENU_WHITES = LAYOUT.placed("menu_whites", ("menu_cap",), "menu entry: freeway tablets it spends", dynamic=True)
MENU_STREETS = LAYOUT.placed("menu_streets", ("menu_cap",), "menu entry: the move's streets once taken", dynamic=True)
FREEWAY = LAYOUT.placed("freeway", ("n_nodes",), "1: a freeway node")
LIT = LAYOUT.placed("lit", ("n_nodes",), "1: a lit node (a green tablet to enter)")
ARC_FROM = LAYOUT.placed("arc_from", ("n_arcs",), "an arc's start node (board.py)")
ARC_TO = LAYOUT.placed("arc_to", ("n_arcs",), "an arc's end node")
ARC_SEG = LAYOUT.placed("arc_seg", ("n_arcs",), "an arc's segment")
ARC_ENTRY = LAYOUT.placed("arc_entry", ("n_arcs",), "freeway tablets to drive an arc (a freeway entry)")
ARC_CONT = LAYOUT.placed("arc_cont", ("n_arcs",), "the arc that goes on along the same street (-1: none)")
OUT_START = LAYOUT.placed("out_start", ("n_starts",), "out_arc[out_start[u]:out_start[u + 1]]: the arcs leaving node u")
OUT_ARC = LAYOUT.placed("out_arc", ("n_arcs",), "the arcs leaving each node, by end node")
SEG_A = LAYOUT.placed("seg_a", ("n_segs",), "a segment's first node")
SEG_B = LAYOUT.placed("seg_b", ("n_segs",), "a segment's second node")
NODE_SEG_START = LAYOUT.placed(
    "node_seg_start", ("n_starts",), "node_seg[node_seg_start[u]:node_seg_start[u + 1]]: segments touching node u"
)
NODE_SEG = LAYOUT.placed("node_seg", ("node_segs",), "the segments touching each node")
DRIVE_TREE = LAYOUT.placed(
    "drive_tree", ("tree_len",), "the drive trees: one word per menu entry a node's tree holds (TREE_* fields)"
)
D0 = LAYOUT.placed(
    "d0", ("n_nodes", "n_nodes"),
    "tablet-free distance in streets, by target: row v, column u, from a turn's start u to node v (d0_at(st, u, v))",
)
JOURNEY_KIND = LAYOUT.placed("journey_kind", ("journey_cards",), "a Journey card's kind (C_*)")
PASSENGER_KIND = LAYOUT.placed("passenger_kind", ("passenger_cards",), "a Passenger card's kind (C_*)")
EXPENSE_KIND = LAYOUT.placed("expense_kind", ("expense_cards",), "an Expense card's kind (C_*)")
JOURNEY_VALUE = LAYOUT.placed("journey_value", ("journey_cards",), "a Journey card's value")
PASSENGER_VALUE = LAYOUT.placed("passenger_value", ("passenger_cards",), "a Passenger card's value")
EXPENSE_VALUE = LAYOUT.placed("expense_value", ("expense_cards",), "an Expense card's value (the amount)")
# Python's view of the per-deck regions, in deck order.  The order regions'
# slots are consecutive: st[O_ORDER + d] is where deck d's order lies (tests).
DECK_CARDS = (JOURNEY_CARDS, PASSENGER_CARDS, EXPENSE_CARDS)
DECK_ORDERS = (JOURNEY_ORDER, PASSENGER_ORDER, EXPENSE_ORDER)
DECK_KINDS = (JOURNEY_KIND, PASSENGER_KIND, EXPENSE_KIND)
DECK_VALUES = (JOURNEY_VALUE, PASSENGER_VALUE, EXPENSE_VALUE)
DECK_SIZE = JOURNEY_CARDS  # st[DECK_SIZE + d]: deck d's size (Python, tests)
O_ORDER = JOURNEY_ORDER

# ---- dynamic, fixed size
PHASE = LAYOUT.dynamic("phase", (), "where the turn stands (PH_*)")
NEXT = LAYOUT.dynamic("next", (), "the seat that plays the next turn")
CURSOR = LAYOUT.dynamic("cursor", (), "the opponent asked now (barriers, bets)")
LEG = LAYOUT.dynamic("leg", (), "the leg under way (1-based)")
ANY_ARRIVED = LAYOUT.dynamic("any_arrived", (), "1 once a taxi has arrived this leg")
N_IN = LAYOUT.dynamic("n_in", (), "seats still in")
OUT = LAYOUT.dynamic("out", (MAX_SEATS,), "1: the seat is out")
MONEY = LAYOUT.dynamic("money", (MAX_SEATS,), "each seat's money")
GREENS = LAYOUT.dynamic("greens", (MAX_SEATS,), "each seat's green tablets")
WHITES = LAYOUT.dynamic("whites", (MAX_SEATS,), "each seat's freeway (white) tablets")
BARRIERS = LAYOUT.dynamic("barriers", (MAX_SEATS,), "each seat's barriers in hand")
PLATES = LAYOUT.dynamic("plates", (MAX_SEATS,), "each seat's taxi plates")
POS = LAYOUT.dynamic("pos", (MAX_SEATS,), "each taxi's node (-1 once out)")
DEST = LAYOUT.dynamic("dest", (MAX_SEATS,), "each seat's destination this leg")
ARRIVED = LAYOUT.dynamic("arrived", (MAX_SEATS,), "1: the taxi arrived this leg")
SUPPLY_GREEN = LAYOUT.dynamic("supply_green", (), "green tablets in the supply")
SUPPLY_WHITE = LAYOUT.dynamic("supply_white", (), "freeway tablets in the supply")
SUPPLY_BARRIER = LAYOUT.dynamic("supply_barrier", (), "barriers in the supply")
SUPPLY_PLATE = LAYOUT.dynamic("supply_plate", (), "plates in the supply")
CARD_DECK = LAYOUT.dynamic("card_deck", (), "the turn's card: its deck (-1 none, 0 Journey, 1 Passenger)")
CARD_ID = LAYOUT.dynamic("card_id", (), "the turn's card: its id in the deck (-1: none)")
CARD_KIND = LAYOUT.dynamic("card_kind", (), "the turn's card: its kind (C_*; -1: none)")
BONUS = LAYOUT.dynamic("bonus", (), "extra streets this turn (a streets card)")
NO_MOVE = LAYOUT.dynamic("no_move", (), "1: the taxi does not move this turn")
DIE = LAYOUT.dynamic("die", (), "the movement die this turn (0: not rolled)")
ALLOWANCE = LAYOUT.dynamic("allowance", (), "streets the move may use (die + bonus)")
BARRED = LAYOUT.dynamic("barred", (MAX_SEATS,), "segments barred this turn (n_barred of them)")
N_BARRED = LAYOUT.dynamic("n_barred", (), "segments barred this turn")
BET = LAYOUT.dynamic("bet", (MAX_SEATS,), "each seat's bet on the gamble (-1: not asked; else BET_*)")
HOLDER = LAYOUT.dynamic("holder", (), "the seat holding the gamble card (-1: none)")
TOP = LAYOUT.dynamic("top", (N_DECKS,), "cards drawn from each deck since its last shuffle")
REVEALED = LAYOUT.dynamic("revealed", (3,), "gamble words revealed since the Journey deck's last shuffle")
PATH_LEN = LAYOUT.dynamic("path_len", (), "nodes in the path so far")
LAST_ARC = LAYOUT.dynamic("last_arc", (), "the arc the move last drove (-1: none)")
STREETS_USED = LAYOUT.dynamic("streets_used", (), "streets the move has used")
GREENS_USED = LAYOUT.dynamic("greens_used", (), "green tablets the move has spent")
WHITES_USED = LAYOUT.dynamic("whites_used", (), "freeway tablets the move has spent")
DRIVES = LAYOUT.dynamic("drives", (), "menu entries taken this move")
MENU_N = LAYOUT.dynamic("menu_n", (), "entries in the move menu")
LEG_ENDED = LAYOUT.dynamic("leg_ended", (), "1 once the current leg's end (bonus, jumps) has been reached")

# ---- compiled helpers (st[money_at(seat)], st[d0_at(st, u, v)], ...)
rule_at = PARAMS.index
gamble_copies_at = GAMBLE_COPIES.index
guide_at = GUIDE.index
journey_order_at = JOURNEY_ORDER.index
passenger_order_at = PASSENGER_ORDER.index
expense_order_at = EXPENSE_ORDER.index
journey_order_view = JOURNEY_ORDER.view
passenger_order_view = PASSENGER_ORDER.view
expense_order_view = EXPENSE_ORDER.view
path_at = PATH.index
path_view = PATH.view
menu_node_at = MENU_NODE.index
menu_parent_at = MENU_PARENT.index
menu_arc_at = MENU_ARC.index
menu_steps_at = MENU_STEPS.index
menu_greens_at = MENU_GREENS.index
menu_whites_at = MENU_WHITES.index
menu_streets_at = MENU_STREETS.index
menu_node_view = MENU_NODE.view
menu_parent_view = MENU_PARENT.view
menu_arc_view = MENU_ARC.view
menu_steps_view = MENU_STEPS.view
menu_greens_view = MENU_GREENS.view
menu_whites_view = MENU_WHITES.view
menu_streets_view = MENU_STREETS.view
drive_tree_view = DRIVE_TREE.view
freeway_at = FREEWAY.index
freeway_view = FREEWAY.view
lit_view = LIT.view
arc_to_view = ARC_TO.view
arc_seg_view = ARC_SEG.view
arc_entry_view = ARC_ENTRY.view
arc_cont_view = ARC_CONT.view
out_start_view = OUT_START.view
arc_seg_at = ARC_SEG.index
arc_cont_at = ARC_CONT.index
out_start_at = OUT_START.index
out_arc_view = OUT_ARC.view
seg_a_at = SEG_A.index
seg_b_at = SEG_B.index
node_seg_start_at = NODE_SEG_START.index
node_seg_at = NODE_SEG.index
_d0_slot = D0.uindex
d0_to_view = D0.row_view  # d0_to_view(st, v)[u]: the distances to node v, by start
journey_kind_at = JOURNEY_KIND.index
passenger_kind_at = PASSENGER_KIND.index
expense_kind_at = EXPENSE_KIND.index
journey_value_at = JOURNEY_VALUE.index
passenger_value_at = PASSENGER_VALUE.index
expense_value_at = EXPENSE_VALUE.index
out_at = OUT.index
money_at = MONEY.index
greens_at = GREENS.index
whites_at = WHITES.index
barriers_at = BARRIERS.index
plates_at = PLATES.index
pos_at = POS.index
dest_at = DEST.index
arrived_at = ARRIVED.index
barred_at = BARRED.index
bet_at = BET.index
top_at = TOP.index
revealed_at = REVEALED.index
money_view = MONEY.view
greens_view = GREENS.view
whites_view = WHITES.view
plates_view = PLATES.view
arrived_view = ARRIVED.view
pos_view = POS.view
dest_view = DEST.view



@njit(cache=True, _nrt=False, inline="always")
def d0_at(st, u, v):
    """The slot of D0 from ``u`` (a turn's start) to ``v``: the region is
    stored by target (row ``v``), so a player scoring many ends against one
    destination reads one row."""
    return _d0_slot(st, v, u)


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

# The trace: its events are declared in events.py.

BASE_LAYOUT = LAYOUT.copy()


def board_layout(board: Any) -> Layout:
    """The layout for one board: the board-sized regions placed after the fixed
    ones (the dynamic ones first, ending the dynamic span, then the tables)."""
    layout = BASE_LAYOUT.copy()
    n, m, s = board.n_nodes, board.n_arcs, len(board.segments)
    sizes = [len(board.decks[d]) for d in ("journey", "passenger", "expense")]
    menu_cap = menu_capacity(board)
    for d in range(N_DECKS):
        layout.place(DECK_ORDERS[d], sizes[d])
    layout.place(PATH, path_capacity(board))
    for region in (MENU_NODE, MENU_PARENT, MENU_ARC, MENU_STEPS, MENU_GREENS, MENU_WHITES, MENU_STREETS):
        layout.place(region, menu_cap)
    layout.place(FREEWAY, n)
    layout.place(LIT, n)
    for region in (ARC_FROM, ARC_TO, ARC_SEG, ARC_ENTRY, ARC_CONT):
        layout.place(region, m)
    layout.place(OUT_START, n + 1)
    layout.place(OUT_ARC, m)
    layout.place(SEG_A, s)
    layout.place(SEG_B, s)
    layout.place(NODE_SEG_START, n + 1)
    layout.place(NODE_SEG, 2 * s)
    layout.place(DRIVE_TREE, len(drive_trees(board)))
    layout.place(D0, n * n)
    for d in range(N_DECKS):
        layout.place(DECK_KINDS[d], sizes[d])
        layout.place(DECK_VALUES[d], sizes[d])
    return layout


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


# A drive tree's word (state.py, "The drive trees"): bit fields, low to high.
TREE_ARC_MASK = (1 << 18) - 1  # the arc that reaches the entry's end
TREE_NODE_SHIFT, TREE_NODE_MASK = 18, (1 << 17) - 1  # its end node
TREE_KIDS_SHIFT, TREE_KIDS_MASK = 35, (1 << 17) - 1  # the word of its first child
TREE_COUNT_SHIFT, TREE_COUNT_MASK = 52, (1 << 8) - 1  # its children (consecutive words)
TREE_LIT_SHIFT = 60  # 1: its end is lit (a green tablet)
TREE_ENTRY_SHIFT = 61  # 1: its arc is a freeway entry (a freeway tablet)
TREE_LIMIT = 1 << 16  # words a board's trees may take (the state's size); nodes past it are searched


def _drive_tree(board: Any, u: int, limit: int) -> list[tuple[int, int]] | None:
    """Node ``u``'s menu with unlimited tablets, allowance and room and no
    barrier, as build_menu's breadth-first search lists it: (parent entry,
    arc) per entry; None past ``limit`` entries."""
    fw = board.freeway
    out_start, out_arc, arc_to, arc_cont = board.out_start, board.out_arc, board.arc_to, board.arc_cont
    entries = [(-1, int(a)) for a in out_arc[out_start[u] : out_start[u + 1]]]
    nodes = [int(arc_to[a]) for _, a in entries]
    i = 0
    while i < len(entries):
        v = nodes[i]
        a = entries[i][1]
        if fw[v]:
            kids = [int(b) for b in out_arc[out_start[v] : out_start[v + 1]]]
        else:
            kids = [int(arc_cont[a])] if arc_cont[a] >= 0 else []
        for b in kids:
            x = int(arc_to[b])
            if x == u and not fw[u]:
                continue
            j = i
            while j >= 0 and nodes[j] != x:
                j = entries[j][0]
            if j >= 0:
                continue
            entries.append((i, b))
            nodes.append(x)
            if len(entries) > limit:
                return None
        i += 1
    return entries


def drive_trees(board: Any) -> np.ndarray:
    """The words of the board's drive trees (state.py, "The drive trees"): the
    first ``n_arcs`` are every node's first steps (-1: a node not kept), then
    the blocks of children.  A block is stored once however many entries have
    it, and not at all when its words already lie together somewhere (a road's
    next step is the first step of the node it reaches)."""
    cached = getattr(board, "_drive_trees", None)
    if cached is not None:
        return cached
    n, m = board.n_nodes, board.n_arcs
    degree = np.diff(board.out_start)
    # Every entry and every block interned by its content: an entry is (arc,
    # block of its children), a block a tuple of entries; -1 the empty block.
    entries: dict[tuple[int, int], int] = {}
    blocks: dict[tuple[int, ...], int] = {}
    first = [-1] * m  # the entry of each first step (-1: its node is not kept)
    budget = TREE_LIMIT - m  # entries past the first steps a kept tree may add, at most
    fits = n <= TREE_NODE_MASK and m <= TREE_ARC_MASK and (m == 0 or int(degree.max()) <= TREE_COUNT_MASK)
    for u in range(n if fits else 0):
        tree = _drive_tree(board, u, budget + int(degree[u]))
        if tree is None:
            continue
        budget -= len(tree) - int(degree[u])
        children: list[list[int]] = [[] for _ in tree]
        for j, (p, _) in enumerate(tree):
            if p >= 0:
                children[p].append(j)
        done = [0] * len(tree)
        for j in range(len(tree) - 1, -1, -1):  # a child comes after its parent
            kids = tuple(done[c] for c in children[j])
            block = blocks.setdefault(kids, len(blocks)) if kids else -1
            done[j] = entries.setdefault((tree[j][1], block), len(entries))
        for k in range(int(degree[u])):
            first[int(board.out_start[u]) + k] = done[k]
    # Lay the blocks out: the first steps, then each block where its entries
    # already lie in a row, else appended.
    seq = list(first)
    where: dict[tuple[int, ...], int] = {}
    longest = max((len(b) for b in blocks), default=0)

    def note(lo: int) -> None:  # the runs of seq that end at lo or after
        for end in range(lo + 1, len(seq) + 1):
            for size in range(1, min(longest, end) + 1):
                where.setdefault(tuple(seq[end - size : end]), end - size)

    note(0)
    at = [0] * len(blocks)
    size = [0] * len(blocks)
    for kids, b in blocks.items():
        size[b] = len(kids)
        if kids not in where:
            lo = len(seq)
            seq.extend(kids)
            note(lo)
        at[b] = where[kids]
    key = {e: k for k, e in entries.items()}
    words = []
    for e in seq:
        if e < 0:
            words.append(-1)
            continue
        a, b = key[e]
        x = int(board.arc_to[a])
        words.append(
            a | x << TREE_NODE_SHIFT | (at[b] if b >= 0 else 0) << TREE_KIDS_SHIFT
            | (size[b] if b >= 0 else 0) << TREE_COUNT_SHIFT
            | int(board.lit[x]) << TREE_LIT_SHIFT | int(board.arc_entry[a]) << TREE_ENTRY_SHIFT
        )
    out = np.asarray(words, dtype=np.int64)
    object.__setattr__(board, "_drive_trees", out)
    return out


def encode(params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
    """The state image of one rule set on one board."""
    from sims.taxi.board import CARD_KINDS

    image = board_layout(board).image()
    PARAMS.put(image, [p.encode(params[p.name]) for p in PARAM_DECLS])
    n, m, s = board.n_nodes, board.n_arcs, len(board.segments)
    image[N_NODES] = n
    image[N_ARCS] = m
    image[N_SEGS] = s
    image[BASE] = board.base
    image[LEGS] = legs_of(params)
    image[MENU_CAP] = menu_capacity(board)
    image[PATH_CAP] = path_capacity(board)
    image[N_STARTS] = n + 1
    image[NODE_SEGS] = 2 * s
    image[TREE_LEN] = len(drive_trees(board))
    decks = [board.decks[d] for d in ("journey", "passenger", "expense")]
    for d in range(N_DECKS):
        image[DECK_CARDS[d]] = len(decks[d])
        DECK_KINDS[d].put(image, [CARD_KINDS.index(c.kind) for c in decks[d]])
        DECK_VALUES[d].put(image, [c.value for c in decks[d]])
    words = ("gamble_money", "gamble_freeway", "gamble_taxi")
    GAMBLE_COPIES.put(image, [sum(1 for c in decks[0] if c.kind == kind) for kind in words])
    FREEWAY.put(image, board.freeway)
    LIT.put(image, board.lit)
    ARC_FROM.put(image, board.arc_from)
    ARC_TO.put(image, board.arc_to)
    ARC_SEG.put(image, board.arc_seg)
    ARC_ENTRY.put(image, board.arc_entry)
    ARC_CONT.put(image, board.arc_cont)
    OUT_START.put(image, board.out_start)
    OUT_ARC.put(image, board.out_arc)
    SEG_A.put(image, [a for a, _, _ in board.segments])
    SEG_B.put(image, [b for _, b, _ in board.segments])
    NODE_SEG_START.put(image, board.node_seg_start)
    NODE_SEG.put(image, board.node_seg)
    DRIVE_TREE.put(image, drive_trees(board))
    D0.put(image, np.asarray(board.d0).T)  # by target: a destination's distances lie in one row
    guide = np.zeros((MAX_SEATS, GUIDE_STOPS), np.int64)
    for g in range(min(MAX_SEATS, len(board.guides))):
        guide[g] = board.guides[g]
    GUIDE.put(image, guide)
    return image


# --------------------------------------------------------------------------- readers (players may call)
@njit(cache=True, _nrt=False)
def d0(st, u, v):
    """Tablet-free distance in streets from node u (a turn's start) to node v."""
    return st[d0_at(st, u, v)]


@njit(cache=True, _nrt=False)
def is_freeway(st, node):
    return st[freeway_at(st, node)] != 0


@njit(cache=True, _nrt=False)
def can_end(st, node):
    """May a move end on ``node``? (not on the freeway, unless stop_on_freeway)"""
    return st[freeway_at(st, node)] == 0 or st[rule_at(P_STOP_ON_FREEWAY)] != 0


@njit(cache=True, _nrt=False)
def menu_node(st, i):
    return st[menu_node_at(st, i)]


@njit(cache=True, _nrt=False)
def menu_parent(st, i):
    return st[menu_parent_at(st, i)]


@njit(cache=True, _nrt=False)
def menu_steps(st, i):
    return st[menu_steps_at(st, i)]


@njit(cache=True, _nrt=False)
def menu_greens(st, i):
    return st[menu_greens_at(st, i)]


@njit(cache=True, _nrt=False)
def menu_whites(st, i):
    return st[menu_whites_at(st, i)]


@njit(cache=True, _nrt=False)
def menu_streets(st, i):
    return st[menu_streets_at(st, i)]


@njit(cache=True, _nrt=False)
def taxi_node(st):
    """The mover's node now (the end of its path so far)."""
    return st[path_at(st, st[PATH_LEN] - 1)]


@njit(cache=True, _nrt=False)
def next_in(st, seat):
    """The next seat still in after ``seat``, in order of play (cyclic)."""
    n = st[N_SEATS]
    s = seat
    for _ in range(n):
        s += 1
        if s == n:
            s = 0
        if st[out_at(s)] == 0:
            return s
    return seat


@njit(cache=True, _nrt=False)
def wealth(st, seat, plate_value):
    return st[money_at(seat)] + plate_value * st[plates_at(seat)]


# ---- the decks, by deck index (JOURNEY, PASSENGER, EXPENSE_DECK)
@njit(cache=True, _nrt=False)
def deck_size(st, d):
    """Cards of deck ``d``."""
    if d == JOURNEY:
        return st[JOURNEY_CARDS]
    if d == PASSENGER:
        return st[PASSENGER_CARDS]
    return st[EXPENSE_CARDS]


@njit(cache=True, _nrt=False)
def order_at(st, d, i):
    """The slot of position ``i`` of deck ``d``'s order."""
    if d == JOURNEY:
        return journey_order_at(st, i)
    if d == PASSENGER:
        return passenger_order_at(st, i)
    return expense_order_at(st, i)


@njit(cache=True, _nrt=False)
def card_kind(st, d, card):
    """The kind (C_*) of card ``card`` of deck ``d``."""
    if d == JOURNEY:
        return st[journey_kind_at(st, card)]
    if d == PASSENGER:
        return st[passenger_kind_at(st, card)]
    return st[expense_kind_at(st, card)]


@njit(cache=True, _nrt=False)
def card_value(st, d, card):
    """The value of card ``card`` of deck ``d``."""
    if d == JOURNEY:
        return st[journey_value_at(st, card)]
    if d == PASSENGER:
        return st[passenger_value_at(st, card)]
    return st[expense_value_at(st, card)]


def legs_of(params: Mapping[str, Any]) -> int:
    return 15 if params["game_length"] == "short" else 30




@njit(cache=True)
def deck_view(st, d):
    """Deck ``d``'s order, a view of the state."""
    if d == JOURNEY:
        return journey_order_view(st)
    if d == PASSENGER:
        return passenger_order_view(st)
    return expense_order_view(st)
