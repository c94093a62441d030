"""Tag City's state: the shared header (balance.state), then these regions::

    static (the image: rules and board, set once per state)
      PARAMS         the rule parameters, params.P_* order (a choice as its index)
      BOARD          board scalars, B_* below (sizes, the value scale, where the
                     placement table starts and its record layout)
      TARGET_HIGH, TARGET_LOW, TARGET_SIZE   per target: rows 0..R-1, columns
                     R..R+C-1, districts R+C.. (district index = position in
                     district_names); at most MAX_TARGETS
      REMOTE         the remote's values (sheet.remote)
      RING_A, CENTRE, POOL_B   tile indices (index = position in [shapes])
      FACES          faces[2*(v-1) + j]: the two ring slots beside die face v
      SHAPE_FIRST, SHAPE_COUNT, SHAPE_SIZE   per tile: its placements
                     first .. first+count-1 (below) and its number of cells
      INV            INV[e] = L // e for e = 1..longest target (B_SCALE = L)
    dynamic (reset to zero before every game)
      PHASE, LEADER, STEP       where the round stands (PH_* below; STEP = the
                                draft position 0..N-1, or the seat asked in the
                                shared step)
      N_DICE, DICE, SLOT        the round's dice (1..6, roll order) and the ring
                                slot each sits on
      TAKEN                     bit d: die d was taken in the draft (in the
                                shared step the one die not taken is offered)
      FIRST_END                 1 + the first end reason that held (0: none yet)
      FREE_CIRCLES              bit c: social circle c is free
      CLOSED                    bit t: target t has been completed by someone
                                (its high value is gone); N_CLOSED counts them
      WEIGHT                    per target: the value it is worth now (high
                                while open, else low)
      RING                      per ring slot: its tile this game (side B: drawn)
      POOL_ORDER                side B: the shuffled pool_b (tile indices)
      DRONE_POOL, N_POOL, POOL_MAX   the tiles a drone may draw, in HQ order,
                                each once, and the largest one's cell count
      SHEET                     per seat, B_WORDS words: bit (cell & 63) of word
                                (cell >> 6) set = painted (cell = row*cols + col)
      EMPTY                     per seat and target: empty cells left
      TARGET_PTS, DRONE_PTS, SOCIAL_PTS, DRONES, SOCIALS   per seat: points by
                                source, drones used, social circles circled (the
                                score, their sum, is the header's SCORE)
      PENDING                   per seat: its answer in the shared step, applied
                                once every seat has answered
      HEAT                      per cell: seats that painted it this game (the
                                per-cell heatmap, summed over games by the engine)
    static, board-sized (after the dynamic span)
      the placement table       one record of B_STRIDE slots per placement, from
                                st[B_PLACE_AT]: mask words, tile, the targets it
                                touches with cell counts, its sides on the
                                sheet's edge, its outside neighbours with
                                multiplicity, its cells (R_* offsets in BOARD)

Decisions (``kind``, ``subject``):

* ``KIND_ASSIGN`` (the leader, subject 0): where the round's dice go.  Answer:
  a bit mask, bit d set = die d on the second slot of its face's pair
  (``FACES[2*(v-1)+1]``), clear = the first.  Outside 0..2**N_DICE-1: all first.
* ``KIND_ACT`` (subject ``SUBJECT_DRAFT`` or ``SUBJECT_SHARED``): the die
  taken and what is done with it, ``act(kind, die, arg)``: ``ACT_PAINT`` /
  ``ACT_DRONE`` with ``arg`` = a placement index (its tile must be the die's
  tile / a drone pool tile, and none of its cells painted), ``ACT_SOCIAL``
  with ``arg`` = a free circle (ignored when none is free: nothing is
  circled).  An illegal answer becomes social with the lowest free circle and
  the lowest offered die.  In the shared step every seat is asked in turn on
  the state before the step; the answers are applied together afterwards.

A user's player reads the state with the helpers below (``offered``,
``die_shape``, ``legal``, ``best_placement``, ``placement_value``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np
from numba import njit, types
from numba.core import config as numba_config
from numba.extending import intrinsic
from llvmlite import ir

from balance.errors import UserError
from balance.state import SCORE, Layout
from sims.tagcity.board import (
    MAX_CENTRE,
    MAX_RING,
    MAX_TARGETS,
    MAX_TILE_CELLS,
    MAX_TILES,
    MAX_REMOTE,
    TagBoard,
    placements,
    value_scale,
)
from sims.tagcity.params import N_PARAMS, P_DRONE_BOXES, PARAMS as PARAM_DECLS

MAX_PLAYERS = 4
MAX_DICE = MAX_PLAYERS + 1
MAX_WORDS = 4  # 256 cells
MAX_POOL = MAX_RING + MAX_CENTRE
MAX_LONGEST = 256
MAX_CELLS = 256
K_STRIDE = MAX_TILE_CELLS + 1  # a value table's row: k = 0..8 cells of a placement in a target
MAX_LEVELS = 4  # an outside cell touches at most 4 cells of a placement
# An orientation record (ORIENTS): its first placement, cells, corners per row,
# each cell's offset row*cols + col, and the mask of its valid top-left corners.
O_FIRST = 0
O_CELLS = 1
O_SPAN = 2
O_OFFSETS = 3
O_VALID = O_OFFSETS + MAX_TILE_CELLS
O_STRIDE = O_VALID + MAX_WORDS

LAYOUT = Layout()
PARAMS = LAYOUT.static(N_PARAMS)
BOARD = LAYOUT.static(32)
TARGET_HIGH = LAYOUT.static(MAX_TARGETS)
TARGET_LOW = LAYOUT.static(MAX_TARGETS)
TARGET_SIZE = LAYOUT.static(MAX_TARGETS)
REMOTE = LAYOUT.static(MAX_REMOTE)
RING_A = LAYOUT.static(MAX_RING)
CENTRE = LAYOUT.static(MAX_CENTRE)
POOL_B = LAYOUT.static(MAX_TILES)
FACES = LAYOUT.static(12)
SHAPE_FIRST = LAYOUT.static(MAX_TILES)
SHAPE_COUNT = LAYOUT.static(MAX_TILES)
SHAPE_SIZE = LAYOUT.static(MAX_TILES)
INV = LAYOUT.static(MAX_LONGEST + 1)
ROW_OF = LAYOUT.static(MAX_CELLS)  # cell -> its row
CELL_DISTRICT = LAYOUT.static(MAX_CELLS)  # cell -> its district
EDGE_OF = LAYOUT.static(MAX_CELLS)  # cell -> its sides on the sheet's edge
TARGET_MASK = LAYOUT.static(MAX_TARGETS * MAX_WORDS)  # per target: its cells as bit words
SHAPE_LONG = LAYOUT.static(MAX_TILES)  # per tile: the longer side of its bounding box
ORIENT_FIRST = LAYOUT.static(MAX_TILES)  # per tile: its first orientation record
ORIENT_COUNT = LAYOUT.static(MAX_TILES)  # per tile: its orientations
ORIENTS = LAYOUT.static(MAX_TILES * 8 * O_STRIDE)  # orientation records, O_* fields

PHASE = LAYOUT.dynamic(1)
LEADER = LAYOUT.dynamic(1)
STEP = LAYOUT.dynamic(1)
N_DICE = LAYOUT.dynamic(1)
TAKEN = LAYOUT.dynamic(1)
FIRST_END = LAYOUT.dynamic(1)
FREE_CIRCLES = LAYOUT.dynamic(1)
CLOSED = LAYOUT.dynamic(1)
N_CLOSED = LAYOUT.dynamic(1)
N_POOL = LAYOUT.dynamic(1)
POOL_MAX = LAYOUT.dynamic(1)
POOL_LONG = LAYOUT.dynamic(1)  # the longest bounding-box side of a drone pool tile
DICE = LAYOUT.dynamic(MAX_DICE)
SLOT = LAYOUT.dynamic(MAX_DICE)
WEIGHT = LAYOUT.dynamic(MAX_TARGETS)
RING = LAYOUT.dynamic(MAX_RING)
POOL_ORDER = LAYOUT.dynamic(MAX_TILES)
DRONE_POOL = LAYOUT.dynamic(MAX_POOL)
SHEET = LAYOUT.dynamic(MAX_PLAYERS * MAX_WORDS)
EMPTY = LAYOUT.dynamic(MAX_PLAYERS * MAX_TARGETS)
TARGET_PTS = LAYOUT.dynamic(MAX_PLAYERS)
DRONE_PTS = LAYOUT.dynamic(MAX_PLAYERS)
SOCIAL_PTS = LAYOUT.dynamic(MAX_PLAYERS)
DRONES = LAYOUT.dynamic(MAX_PLAYERS)
SOCIALS = LAYOUT.dynamic(MAX_PLAYERS)
PENDING = LAYOUT.dynamic(MAX_PLAYERS)
CELL_V1 = LAYOUT.dynamic(MAX_PLAYERS * MAX_CELLS)  # per seat and cell: what painting it adds to V1 (times 2L)
CELL_V2 = LAYOUT.dynamic(MAX_PLAYERS * MAX_CELLS)  # ... to V2 (times 2L), its contact included
NEAR = LAYOUT.dynamic(MAX_PLAYERS * K_STRIDE * MAX_WORDS)  # per seat and z: empty cells of targets z cells may complete
SHEET_VERSION = LAYOUT.dynamic(MAX_PLAYERS)  # per seat: paints so far (the cache's key)
WEIGHT_VERSION = LAYOUT.dynamic(1)  # targets closed so far (the cache's key)
BEST = LAYOUT.dynamic(MAX_PLAYERS * 3 * MAX_TILES * 4)  # per seat, value (V1, V2, a player's own), tile: key, placement, value, gain
HEAT = LAYOUT.size  # the last dynamic region; its size is the board's (encode)

# Board scalars: st[BOARD + k]
B_ROWS = BOARD + 0
B_COLS = BOARD + 1
B_CELLS = BOARD + 2
B_WORDS = BOARD + 3
B_TARGETS = BOARD + 4
B_DISTRICTS = BOARD + 5
B_SHAPES = BOARD + 6
B_RING = BOARD + 7
B_CENTRE = BOARD + 8
B_POOL_B = BOARD + 9
B_REMOTE = BOARD + 10
B_SCALE = BOARD + 11  # L
B_PLACE_AT = BOARD + 12
B_STRIDE = BOARD + 13
B_N_PLACE = BOARD + 14
R_SHAPE = BOARD + 15  # record offsets: tile
R_NPAIRS = BOARD + 16  # number of (target, count) pairs, then the pairs (target * K_STRIDE + count)
R_EDGE = BOARD + 17  # sides on the sheet's edge
R_NLEV = BOARD + 18  # levels, then per level l B_WORDS mask words: the outside cells touching >= l+1 cells
R_NCELLS = BOARD + 19  # number of cells, then the cells
B_LONGEST = BOARD + 20
B_TILE_CELLS = BOARD + 21  # the largest tile's cell count
R_MASK = BOARD + 22  # the placement's cells as B_WORDS bit words

# Phases of a round
PH_SETUP = 0
PH_ROUND = 1  # a round is to start (roll)
PH_ASSIGN = 2  # the leader places the dice
PH_DRAFT = 3  # STEP-th drafter acts
PH_SHARED = 4  # seat STEP acts with the shared die
PH_OVER = 5

KIND_ASSIGN = np.int64(0)
KIND_ACT = np.int64(1)
SUBJECT_DRAFT = np.int64(0)
SUBJECT_SHARED = np.int64(1)

ACT_PAINT = np.int64(0)
ACT_DRONE = np.int64(1)
ACT_SOCIAL = np.int64(2)

# End reasons (their order is the outcome's, and the tie order of rule 15)
END_ALL_TARGETS = 0
END_SOCIAL = 1
END_DRONES = 2
END_ROUND_LIMIT = 3

# Trace rows (balance.state.event: kind, turn, six values)
EV_ROLL = np.int64(1)  # leader, then dice 0..4 (0 = no die)
EV_ASSIGN = np.int64(2)  # leader, then slots 0..4
EV_ACTION = np.int64(3)  # seat | die << 4 | shared << 8 | kind << 12, arg, box, points, score
EV_COMPLETE = np.int64(4)  # seat, target, high, points, score
EV_END = np.int64(5)  # winner, reason, conditions mask


# --------------------------------------------------------------------------- the image
def encode(params: Mapping[str, Any], board: TagBoard, n_seats: int) -> np.ndarray:
    """The state image for these rules and this board: the static regions and
    the placement table of the orientation rule in force."""
    if params["drone_boxes"] > len(board.remote):
        raise UserError(
            f"parameter drone_boxes={params['drone_boxes']}: the board's remote has "
            f"{len(board.remote)} boxes; expected an integer in 1..{len(board.remote)}"
        )
    words, stride, records, rec = _table(board, params["orientations"])
    layout = LAYOUT.copy()
    heat = layout.heat(board.n_cells)
    assert heat == HEAT
    place_at = layout.static(records.size)
    image = layout.image()
    for i, p in enumerate(PARAM_DECLS):
        image[PARAMS + i] = p.encode(params[p.name])
    scale, _ = value_scale(board)
    longest = max(board.rows, board.cols, *board.district_sizes())
    image[B_ROWS] = board.rows
    image[B_COLS] = board.cols
    image[B_CELLS] = board.n_cells
    image[B_WORDS] = words
    image[B_TARGETS] = board.n_targets
    image[B_DISTRICTS] = board.n_districts
    image[B_SHAPES] = len(board.shapes)
    image[B_RING] = len(board.ring_a)
    image[B_CENTRE] = len(board.centre)
    image[B_POOL_B] = len(board.pool_b)
    image[B_REMOTE] = len(board.remote)
    image[B_SCALE] = scale
    image[B_PLACE_AT] = place_at
    image[B_STRIDE] = stride
    image[B_N_PLACE] = records.size // stride
    image[R_SHAPE] = rec["shape"]
    image[R_NPAIRS] = rec["npairs"]
    image[R_EDGE] = rec["edge"]
    image[R_NLEV] = rec["nlev"]
    image[R_MASK] = rec["mask"]
    image[R_NCELLS] = rec["ncells"]
    image[B_LONGEST] = longest
    image[B_TILE_CELLS] = max(len(cells) for _, cells in board.shapes)
    for t in range(board.n_targets):
        high, low = board.target_values(t)
        image[TARGET_HIGH + t] = high
        image[TARGET_LOW + t] = low
        image[TARGET_SIZE + t] = len(board.target_cells(t))
        image[TARGET_MASK + t * MAX_WORDS : TARGET_MASK + t * MAX_WORDS + words] = _mask(board.target_cells(t), words)
    image[REMOTE : REMOTE + len(board.remote)] = board.remote
    names = board.shape_names
    image[RING_A : RING_A + len(board.ring_a)] = [names.index(x) for x in board.ring_a]
    image[CENTRE : CENTRE + len(board.centre)] = [names.index(x) for x in board.centre]
    image[POOL_B : POOL_B + len(board.pool_b)] = [names.index(x) for x in board.pool_b]
    for v, (a, b) in enumerate(board.faces):
        image[FACES + 2 * v] = a
        image[FACES + 2 * v + 1] = b
    place = placements(board, params["orientations"])
    for s, (_, cells) in enumerate(board.shapes):
        image[SHAPE_FIRST + s] = place.first[s]
        image[SHAPE_COUNT + s] = place.count[s]
        image[SHAPE_SIZE + s] = len(cells)
        image[SHAPE_LONG + s] = (
            max(
                max(r for r, _ in cells) - min(r for r, _ in cells), max(c for _, c in cells) - min(c for _, c in cells)
            )
            + 1
        )
    for e in range(1, longest + 1):
        image[INV + e] = scale // e
    for x in range(board.n_cells):
        r, c = divmod(x, board.cols)
        image[ROW_OF + x] = r
        image[CELL_DISTRICT + x] = board.cell_district[x]
        image[EDGE_OF + x] = (r == 0) + (r == board.rows - 1) + (c == 0) + (c == board.cols - 1)
    for s in range(len(board.shapes)):
        image[ORIENT_FIRST + s] = place.orient_first[s]
        image[ORIENT_COUNT + s] = place.orient_count[s]
    for o, (_, first, cells, h, w) in enumerate(place.orients):
        at = ORIENTS + o * O_STRIDE
        image[at + O_FIRST] = first
        image[at + O_CELLS] = len(cells)
        image[at + O_SPAN] = board.cols - w + 1
        for j, (r, c) in enumerate(cells):
            image[at + O_OFFSETS + j] = r * board.cols + c
        corners = [r0 * board.cols + c0 for r0 in range(board.rows - h + 1) for c0 in range(board.cols - w + 1)]
        image[at + O_VALID : at + O_VALID + words] = _mask(corners, words)
    image[place_at : place_at + records.size] = records
    return image


@lru_cache(maxsize=32)
def _table(board: TagBoard, rule: str) -> tuple[int, int, np.ndarray, dict[str, int]]:
    """The placement records of ``board`` under orientation rule ``rule``
    (computed once per board and rule): words per sheet, the record stride,
    the records, and the offsets of a record's fields."""
    place = placements(board, rule)
    rows, cols, n_cells = board.rows, board.cols, board.n_cells
    words = (n_cells + 63) // 64
    recs = []
    max_pairs = max_lev = max_cells = 0
    for p in range(len(place)):
        cells = place.cells[p]
        have = set(cells)
        counts: dict[int, int] = {}
        for cell in cells:
            for t in board.cell_targets(cell):
                counts[t] = counts.get(t, 0) + 1
        pairs = sorted(counts.items())
        edge = 0
        nb: dict[int, int] = {}
        for cell in cells:
            r, c = divmod(cell, cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if not (0 <= rr < rows and 0 <= cc < cols):
                    edge += 1
                else:
                    other = rr * cols + cc
                    if other not in have:
                        nb[other] = nb.get(other, 0) + 1
        levels = [[cell for cell, m in nb.items() if m > lev] for lev in range(max(nb.values(), default=0))]
        recs.append((_mask(cells, words), place.shape[p], pairs, edge, [_mask(x, words) for x in levels], cells))
        max_pairs = max(max_pairs, len(pairs))
        max_lev = max(max_lev, len(levels))
        max_cells = max(max_cells, len(cells))
    # What a value reads first (one or two cache lines), the rest after.
    off = {"mask": 0}
    off["ncells"] = off["mask"] + words
    off["npairs"] = off["ncells"] + 1 + max_cells
    off["edge"] = off["npairs"] + 1 + max_pairs
    off["nlev"] = off["edge"] + 1
    off["shape"] = off["nlev"] + 1 + max_lev * words
    stride = off["shape"] + 1
    table = np.zeros((len(recs), stride), np.int64)
    for p, (mask, shape, pairs, edge, levels, cells) in enumerate(recs):
        row = table[p]
        row[off["mask"] : off["mask"] + words] = mask
        row[off["shape"]] = shape
        row[off["npairs"]] = len(pairs)
        for k, (t, n) in enumerate(pairs):
            row[off["npairs"] + 1 + k] = t * K_STRIDE + n
        row[off["edge"]] = edge
        row[off["nlev"]] = len(levels)
        for k, m in enumerate(levels):
            at = off["nlev"] + 1 + k * words
            row[at : at + words] = m
        row[off["ncells"]] = len(cells)
        row[off["ncells"] + 1 : off["ncells"] + 1 + len(cells)] = cells
    return words, stride, table.reshape(-1), off


def _mask(cells: Any, words: int) -> list[int]:
    """The cells as ``words`` int64 bit words (bit cell & 63 of word cell >> 6)."""
    out = [0] * words
    for cell in cells:
        out[cell >> 6] |= 1 << (cell & 63)
    return [m - (1 << 64) if m >= 1 << 63 else m for m in out]


# --------------------------------------------------------------------------- bits
@intrinsic
def _ctpop(typingctx, x):
    """LLVM's population count of an int64."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    """LLVM's count of trailing zeros of a non-zero int64."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@njit(cache=True)
def popcount(x):
    """Set bits of an int64 (its 64 bits as unsigned)."""
    return _ctpop(x)


@njit(cache=True)
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero int64."""
    return _cttz(x)


@njit(cache=True)
def _word(s0, s1, s2, s3, i):
    if i == 0:
        return s0
    if i == 1:
        return s1
    if i == 2:
        return s2
    if i == 3:
        return s3
    return np.int64(0)


@njit(cache=True)
def shifted_word(s0, s1, s2, s3, offset, k):
    """Word ``k`` of the 256-bit sheet (s0 .. s3) shifted right by ``offset``
    bits: bit x of the result is bit x + offset of the sheet."""
    q = offset >> 6
    r = offset & 63
    lo = _word(s0, s1, s2, s3, k + q)
    if r == 0:
        return lo
    hi = _word(s0, s1, s2, s3, k + q + 1)
    return np.int64(np.uint64(lo) >> np.uint64(r)) | (hi << (64 - r))


if numba_config.DISABLE_JIT:  # pure Python (the speed baseline)

    def popcount(x):
        return bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1")

    def lowest_bit(x):
        x = int(x) & 0xFFFFFFFFFFFFFFFF
        return (x & -x).bit_length() - 1


# --------------------------------------------------------------------------- answers
@njit(cache=True)
def act(kind, die, arg):
    """An act answer: ``kind`` (ACT_*), the die taken, and the placement index
    (paint, drone) or the circle (social)."""
    return kind + 4 * (die + 8 * arg)


@njit(cache=True)
def act_kind(answer):
    return answer % 4


@njit(cache=True)
def act_die(answer):
    return (answer // 4) % 8


@njit(cache=True)
def act_arg(answer):
    return answer // 32


# --------------------------------------------------------------------------- reading the state
@njit(cache=True)
def offered(st, die):
    """Die ``die`` may be taken now (not taken in this round's draft)."""
    return die < st[N_DICE] and (st[TAKEN] >> die) & 1 == 0


@njit(cache=True)
def lowest_offered(st):
    for d in range(st[N_DICE]):
        if (st[TAKEN] >> d) & 1 == 0:
            return d
    return -1


@njit(cache=True)
def die_shape(st, die):
    """The tile on the ring slot die ``die`` sits on."""
    return st[RING + st[SLOT + die]]


@njit(cache=True)
def lowest_free_circle(st):
    free = st[FREE_CIRCLES]
    if free == 0:
        return -1
    c = 0
    while (free >> c) & 1 == 0:
        c += 1
    return c


@njit(cache=True)
def n_free_circles(st):
    free = st[FREE_CIRCLES]
    n = 0
    while free:
        free &= free - 1
        n += 1
    return n


@njit(cache=True)
def can_drone(st, seat):
    """``seat`` has a free box on its remote."""
    return st[DRONES + seat] < st[PARAMS + P_DRONE_BOXES]


@njit(cache=True)
def drone_cost(st, seat):
    """The value of ``seat``'s next remote box (its first free one)."""
    return st[REMOTE + st[DRONES + seat]]


@njit(cache=True)
def in_drone_pool(st, shape):
    for i in range(st[N_POOL]):
        if st[DRONE_POOL + i] == shape:
            return True
    return False


@njit(cache=True)
def record(st, p):
    """Offset of placement ``p``'s record."""
    return st[B_PLACE_AT] + p * st[B_STRIDE]


@njit(cache=True)
def placement_shape(st, p):
    return st[record(st, p) + st[R_SHAPE]]


@njit(cache=True)
def legal(st, seat, p):
    """Placement ``p`` fits on ``seat``'s sheet: none of its cells painted."""
    at = record(st, p) + st[R_MASK]
    sheet = SHEET + seat * MAX_WORDS
    for w in range(st[B_WORDS]):
        if st[at + w] & st[sheet + w]:
            return False
    return True


@njit(cache=True)
def painted(st, seat, cell):
    return (st[SHEET + seat * MAX_WORDS + (cell >> 6)] >> (cell & 63)) & 1


@njit(cache=True)
def placement_value(st, seat, p, vtype):
    """(value, gain) of placement ``p`` for ``seat`` (RULES.md, "Players"), as
    exact integers: V1 = 2L (10 gain + progress) for ``vtype`` V1, V2 = 2L (3
    gain + progress + 0.5 contact) for V2; ``gain`` in points."""
    at = record(st, p)
    scale = st[B_SCALE]
    empty = EMPTY + seat * MAX_TARGETS
    gain = 0
    prog = 0
    base = at + st[R_NPAIRS]
    for k in range(st[base]):
        pair = st[base + 1 + k]
        t = pair // K_STRIDE
        n = pair % K_STRIDE
        e = st[empty + t]
        w = st[WEIGHT + t]
        if n == e:
            gain += w
        else:
            prog += w * n * st[INV + e]
    g, c = value_weights(vtype)
    if c == 0:
        return 2 * g * scale * gain + 2 * prog, gain
    return 2 * g * scale * gain + 2 * prog + c * scale * contact_of(st, seat, at), gain


@njit(cache=True)
def placement_gain(st, seat, p):
    """Points placement ``p`` scores now for ``seat``: the values of the targets
    it completes."""
    at = record(st, p)
    empty = EMPTY + seat * MAX_TARGETS
    gain = 0
    base = at + st[R_NPAIRS]
    for k in range(st[base]):
        pair = st[base + 1 + k]
        t = pair // K_STRIDE
        if pair % K_STRIDE == st[empty + t]:
            gain += st[WEIGHT + t]
    return gain


@njit(cache=True)
def contact_of(st, seat, at):
    """Sides of the placement at record ``at`` against the sheet's edge or a
    painted cell of ``seat``'s sheet (a painted cell touching two of its cells
    counts twice)."""
    c = st[at + st[R_EDGE]]
    base = at + st[R_NLEV] + 1
    words = st[B_WORDS]
    sheet = SHEET + seat * MAX_WORDS
    for lev in range(st[at + st[R_NLEV]]):
        for w in range(words):
            c += popcount(st[sheet + w] & st[base + lev * words + w])
    return c


@njit(cache=True)
def init_cell_values(st, seat):
    """Seat ``seat``'s per-cell values on an empty sheet: what painting a cell
    adds to V1 and to V2 (times 2L) while its targets are incomplete:
    2 w L / e for each of its row, column and district, plus L per side on the
    sheet's edge for V2 (a cell's painted neighbours are added as they come)."""
    cols = st[B_COLS]
    rows = st[B_ROWS]
    scale = st[B_SCALE]
    empty = EMPTY + seat * MAX_TARGETS
    for x in range(st[B_CELLS]):
        r = st[ROW_OF + x]
        v = 0
        for t in (r, rows + x - r * cols, rows + cols + st[CELL_DISTRICT + x]):
            v += 2 * st[WEIGHT + t] * st[INV + st[empty + t]]
        st[CELL_V1 + seat * MAX_CELLS + x] = v
        st[CELL_V2 + seat * MAX_CELLS + x] = v + scale * st[EDGE_OF + x]


@njit(cache=True)
def shift_target(st, seat, t, delta):
    """Add ``delta`` to both per-cell values of the empty cells of target
    ``t`` on ``seat``'s sheet (its empty count or its worth changed)."""
    sheet = SHEET + seat * MAX_WORDS
    v1 = CELL_V1 + seat * MAX_CELLS
    v2 = CELL_V2 + seat * MAX_CELLS
    for k in range(st[B_WORDS]):
        m = st[TARGET_MASK + t * MAX_WORDS + k] & ~st[sheet + k]
        while m != 0:
            x = 64 * k + lowest_bit(m)
            m &= m - 1
            st[v1 + x] += delta
            st[v2 + x] += delta


@njit(cache=True)
def touch_neighbours(st, seat, at):
    """Each empty cell beside the placement at record ``at`` (just painted on
    ``seat``'s sheet) gains one side of contact: L more to its V2 value per
    painted neighbour."""
    cols = st[B_COLS]
    rows = st[B_ROWS]
    scale = st[B_SCALE]
    sheet = SHEET + seat * MAX_WORDS
    v2 = CELL_V2 + seat * MAX_CELLS
    base = at + st[R_NCELLS]
    for j in range(st[base]):
        x = st[base + 1 + j]
        r = st[ROW_OF + x]
        c = x - r * cols
        if r > 0 and not (st[sheet + ((x - cols) >> 6)] >> ((x - cols) & 63)) & 1:
            st[v2 + x - cols] += scale
        if r < rows - 1 and not (st[sheet + ((x + cols) >> 6)] >> ((x + cols) & 63)) & 1:
            st[v2 + x + cols] += scale
        if c > 0 and not (st[sheet + ((x - 1) >> 6)] >> ((x - 1) & 63)) & 1:
            st[v2 + x - 1] += scale
        if c < cols - 1 and not (st[sheet + ((x + 1) >> 6)] >> ((x + 1) & 63)) & 1:
            st[v2 + x + 1] += scale


@njit(cache=True)
def update_near(st, seat):
    """NEAR for ``seat``, for z = 1 .. the largest tile: the empty cells of its
    targets with 1 .. z empty cells, the only targets a placement of z cells
    can complete."""
    sheet = SHEET + seat * MAX_WORDS
    near = NEAR + seat * K_STRIDE * MAX_WORDS
    largest = st[B_TILE_CELLS]
    for k in range(K_STRIDE * MAX_WORDS):
        st[near + k] = 0
    for t in range(st[B_TARGETS]):
        e = st[EMPTY + seat * MAX_TARGETS + t]
        if 1 <= e <= largest:
            for k in range(st[B_WORDS]):
                cells = st[TARGET_MASK + t * MAX_WORDS + k] & ~st[sheet + k]
                for z in range(e, largest + 1):
                    st[near + z * MAX_WORDS + k] |= cells


NO_VALUE = np.int64(-(2**62))
V1 = 0
V2 = 1
V_OWN = 2  # a value of a player's own weights: V_OWN + (gain weight << 8) + contact weight in halves


@njit(cache=True, inline="always")
def value_type(gain_weight, contact_halves):
    """The value type of V = gain_weight * gain + progress + contact_halves / 2 *
    contact: V1 (10, 0) and V2 (3, 1) by their names, any other pair as V_OWN
    with the weights packed in (value_weights unpacks them)."""
    if gain_weight == 10 and contact_halves == 0:
        return np.int64(V1)
    if gain_weight == 3 and contact_halves == 1:
        return np.int64(V2)
    return np.int64(V_OWN + (gain_weight << 8) + contact_halves)


@njit(cache=True, inline="always")
def value_weights(vtype):
    """(gain weight, contact weight in halves) of a value type."""
    if vtype == V1:
        return np.int64(10), np.int64(0)
    if vtype == V2:
        return np.int64(3), np.int64(1)
    return (vtype - V_OWN) >> 8, (vtype - V_OWN) & 255


@njit(cache=True)
def free_corners(st, ob, k, s0, s1, s2, s3):
    """Word ``k`` of the top-left corners at which the orientation record ``ob``
    fits on the sheet s0..s3 (inside it, no painted cell): bit x = corner x."""
    occupied = np.int64(0)
    for j in range(st[ob + O_CELLS]):
        occupied |= shifted_word(s0, s1, s2, s3, st[ob + O_OFFSETS + j], k)
    return st[ob + O_VALID + k] & ~occupied


@njit(cache=True)
def best_placement(st, seat, shape, vtype):
    """(placement, value, gain) of the first legal placement of ``shape`` with
    the highest value (``vtype`` V1 or V2) on ``seat``'s sheet, in the
    enumeration order (orientation, then corner row-major); (-1, NO_VALUE, 0)
    when none fits.

    Only the legal placements are visited: each orientation's free corners come
    from the sheet's bit words shifted by its cells.  A placement's value is the
    sum of its cells' values (progress and contact, kept per cell by the
    kernel) plus, for the targets it completes, the difference between the
    gain's weight and their progress share: (20 - 2) L w for V1, (6 - 2) L w
    for V2, (2 g - 2) L w for a gain weight g.  A contact weight of c halves
    (c > 1) adds c - 1 times each cell's contact (CELL_V2 - CELL_V1) to V2's
    cells.  Only a placement touching NEAR (for its size) can complete a target."""
    words = st[B_WORDS]
    cols = st[B_COLS]
    sheet = SHEET + seat * MAX_WORDS
    s0 = st[sheet]
    s1 = st[sheet + 1]
    s2 = st[sheet + 2]
    s3 = st[sheet + 3]
    near = NEAR + (seat * K_STRIDE + st[SHAPE_SIZE + shape]) * MAX_WORDS
    n0 = st[near]
    n1 = st[near + 1]
    n2 = st[near + 2]
    n3 = st[near + 3]
    g, c = value_weights(vtype)
    cells = (CELL_V1 if c == 0 else CELL_V2) + seat * MAX_CELLS
    mix = c - 1 if c > 1 else 0  # extra contact beyond V2's half point per side
    plain = CELL_V1 + seat * MAX_CELLS
    bonus = (2 * g - 2) * st[B_SCALE]
    empty = EMPTY + seat * MAX_TARGETS
    place_at = st[B_PLACE_AT]
    stride = st[B_STRIDE]
    r_cells = st[R_NCELLS]
    r_pairs = st[R_NPAIRS]
    best = np.int64(-1)
    best_value = NO_VALUE
    o_first = st[ORIENT_FIRST + shape]
    for o in range(o_first, o_first + st[ORIENT_COUNT + shape]):
        ob = ORIENTS + o * O_STRIDE
        first = st[ob + O_FIRST]
        gap = cols - st[ob + O_SPAN]  # corners a row skips: placement = first + x - row * gap
        for k in range(words):
            m = free_corners(st, ob, k, s0, s1, s2, s3)
            while m != 0:
                x = 64 * k + lowest_bit(m)
                m &= m - 1
                at = place_at + (first + x - st[ROW_OF + x] * gap) * stride
                value = 0
                base = at + r_cells
                for j in range(st[base]):
                    value += st[cells + st[base + 1 + j]]
                if mix != 0:
                    for j in range(st[base]):
                        y = st[base + 1 + j]
                        value += mix * (st[cells + y] - st[plain + y])
                touch = st[at] & n0
                if words > 1:
                    touch |= st[at + 1] & n1
                    if words > 2:
                        touch |= st[at + 2] & n2
                        if words > 3:
                            touch |= st[at + 3] & n3
                if touch != 0:
                    gain = 0
                    pairs = at + r_pairs
                    for j in range(st[pairs]):
                        pair = st[pairs + 1 + j]
                        t = pair // K_STRIDE
                        if pair - t * K_STRIDE == st[empty + t]:
                            gain += st[WEIGHT + t]
                    value += bonus * gain
                if value > best_value:
                    best = (at - place_at) // stride
                    best_value = value
    if best < 0:
        return best, best_value, 0
    return best, best_value, placement_gain(st, seat, best)


@njit(cache=True)
def best_cached(st, seat, shape, vtype):
    """:func:`best_placement`, remembered until ``seat``'s sheet or a target's
    worth changes (the same answer, computed once)."""
    key = (st[SHEET_VERSION + seat] << 32) + st[WEIGHT_VERSION] + 1
    at = BEST + ((seat * 3 + min(vtype, V_OWN)) * MAX_TILES + shape) * 4
    if st[at] == key:
        return st[at + 1], st[at + 2], st[at + 3]
    p, value, gain = best_placement(st, seat, shape, vtype)
    st[at] = key
    st[at + 1] = p
    st[at + 2] = value
    st[at + 3] = gain
    return p, value, gain


@njit(cache=True)
def count_legal(st, seat, shape):
    """Legal placements of ``shape`` on ``seat``'s sheet."""
    sheet = SHEET + seat * MAX_WORDS
    n = 0
    o_first = st[ORIENT_FIRST + shape]
    for o in range(o_first, o_first + st[ORIENT_COUNT + shape]):
        ob = ORIENTS + o * O_STRIDE
        for k in range(st[B_WORDS]):
            n += popcount(free_corners(st, ob, k, st[sheet], st[sheet + 1], st[sheet + 2], st[sheet + 3]))
    return n


@njit(cache=True)
def nth_legal(st, seat, shape, j):
    """The ``j``-th (from 0) legal placement of ``shape`` in the enumeration
    order, or -1."""
    sheet = SHEET + seat * MAX_WORDS
    cols = st[B_COLS]
    o_first = st[ORIENT_FIRST + shape]
    for o in range(o_first, o_first + st[ORIENT_COUNT + shape]):
        ob = ORIENTS + o * O_STRIDE
        for k in range(st[B_WORDS]):
            m = free_corners(st, ob, k, st[sheet], st[sheet + 1], st[sheet + 2], st[sheet + 3])
            while m != 0:
                x = 64 * k + lowest_bit(m)
                m &= m - 1
                if j == 0:
                    return st[ob + O_FIRST] + x - st[ROW_OF + x] * (cols - st[ob + O_SPAN])
                j -= 1
    return -1


@njit(cache=True)
def any_legal(st, seat, shape):
    sheet = SHEET + seat * MAX_WORDS
    o_first = st[ORIENT_FIRST + shape]
    for o in range(o_first, o_first + st[ORIENT_COUNT + shape]):
        ob = ORIENTS + o * O_STRIDE
        for k in range(st[B_WORDS]):
            if free_corners(st, ob, k, st[sheet], st[sheet + 1], st[sheet + 2], st[sheet + 3]) != 0:
                return True
    return False


@njit(cache=True)
def score_of(st, seat):
    return st[SCORE + seat]
