"""Tag City's state: the shared header (balance.state), then the regions
declared below with ``LAYOUT`` (each with its name, shape and meaning;
``balance.state.describe(st, LAYOUT)`` prints a state by them):

* static (the image: rules and board, set once per state): the rule
  parameters, the board's scalars (sizes, the value scale, the placement
  record's field offsets ``rec_*``), the target, tile, ring, face and cell
  tables, the orientation records (``O_*`` fields), and two placed regions
  (their size is the board's, after the dynamic span): the placement table
  (one record of ``stride`` slots per placement) and what each placement
  covers (``cover_stride`` slots: its cells' bit words and its targets);
* dynamic (reset to zero before every game): where the round stands, the
  dice, the ring and the drone pool of this game, each seat's sheet (bit
  words), empty cells per target, points by source, the shared step's
  answers, the players' per-cell values and caches, and the heatmap.

Offsets are computed only by the regions' compiled helpers, bound below
(``st[weight_at(t)]``, ``st[sheet_at(seat, w)]``,
``st[placement_at(st, p, st[R_SHAPE])]``; a placement's record found once with
``rec = placement_row(st, p)``, then read field by field,
``st[placement_field(rec, st[R_NCELLS] + 1 + k)]``; what it covers likewise,
``st[cover_field(cover_row(st, p), w)]``, ...).

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
from balance.state import HEAT_AT, HEAT_CELLS, Layout, score_at, unsigned
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
K_STRIDE = MAX_TILE_CELLS + 1  # NEAR's z axis: a tile of z = 0..8 cells
MAX_LEVELS = 4  # an outside cell touches at most 4 cells of a placement
# An orientation record (ORIENTS): its first placement, cells, corners per row,
# each cell's offset row*cols + col, and the mask of its valid top-left corners.
O_FIRST = 0
O_CELLS = 1
O_SPAN = 2
O_OFFSETS = 3
O_VALID = O_OFFSETS + MAX_TILE_CELLS
O_STRIDE = O_VALID + MAX_WORDS
MAX_ORIENTS = MAX_TILES * 8  # a tile has at most 8 orientations

LAYOUT = Layout()
PARAMS = LAYOUT.static("params", (N_PARAMS,), "the rule parameters, params.P_* order (a choice as its index)")
# Board scalars (sizes, the value scale, the placement table's record layout)
B_ROWS = LAYOUT.static("rows", (), "rows of the sheet")
B_COLS = LAYOUT.static("cols", (), "columns of the sheet")
B_CELLS = LAYOUT.static("cells", (), "cells of the sheet (cell = row * cols + col)")
B_WORDS = LAYOUT.static("words", (), "int64 words of a sheet's bit mask (bit cell & 63 of word cell >> 6)")
B_TARGETS = LAYOUT.static("targets", (), "targets: rows, then columns, then districts")
B_DISTRICTS = LAYOUT.static("districts", (), "districts of the sheet")
B_SHAPES = LAYOUT.static("shapes", (), "tiles of the board")
B_RING = LAYOUT.static("ring_len", (), "ring slots")
B_CENTRE = LAYOUT.static("centre_len", (), "centre tiles")
B_POOL_B = LAYOUT.static("pool_b_len", (), "tiles of pool_b (side B)")
B_REMOTE = LAYOUT.static("remote_len", (), "boxes of the remote")
B_SCALE = LAYOUT.static("scale", (), "the value scale L (every 1 / e is a multiple of 1 / L)")
B_STRIDE = LAYOUT.static("stride", (), "slots of a placement record")
B_N_PLACE = LAYOUT.static("n_place", (), "placements (records) of the placement table")
R_NCELLS = LAYOUT.static("rec_cells", (), "record field: number of cells, then the cells")
R_EDGE = LAYOUT.static("rec_edge", (), "record field: sides on the sheet's edge")
R_NLEV = LAYOUT.static(
    "rec_levels", (), "record field: levels, then per level l B_WORDS words: the outside cells touching >= l+1 cells"
)
R_SHAPE = LAYOUT.static("rec_shape", (), "record field: the tile")
B_LONGEST = LAYOUT.static("longest", (), "the longest target (cells)")
B_TILE_CELLS = LAYOUT.static("tile_cells", (), "the largest tile's cell count")
PLACEMENTS = LAYOUT.placed(
    "placements",
    ("n_place", "stride"),
    "the placement table of the orientation rule in force: one record per placement, fields at the rec_* offsets",
)
B_COVER_STRIDE = LAYOUT.static("cover_stride", (), "slots per placement of the covers table: B_WORDS + B_PAIR_WORDS")
B_PAIR_WORDS = LAYOUT.static("pair_words", (), "words of a placement's packed (target, count) pairs")
# What a placement covers, apart from its record: the legality tests and the gains read only these few
# slots a placement (32 bytes on the default board, the table 117 KB: it stays in the core's cache, where
# the records, 820 KB, did not).
COVERS = LAYOUT.placed(
    "covers",
    ("n_place", "cover_stride"),
    "per placement: its cells as B_WORDS bit words, then the targets it covers with their counts as "
    "B_PAIR_WORDS words of pairs (target + 64 count, ten bits each from the low bits; a zero pair ends them)",
)
PAIR_BITS = 10  # a packed (target, count) pair: target in bits 0..5 (targets < 64), count in bits 6..9
TARGET_HIGH = LAYOUT.static("target_high", (MAX_TARGETS,), "per target: its high value (rows, columns, districts)")
TARGET_LOW = LAYOUT.static("target_low", (MAX_TARGETS,), "per target: its low value")
TARGET_SIZE = LAYOUT.static("target_size", (MAX_TARGETS,), "per target: its cells")
REMOTE = LAYOUT.static("remote", (MAX_REMOTE,), "the remote's box values (sheet.remote)")
RING_A = LAYOUT.static("ring_a", (MAX_RING,), "side A's ring: a tile per slot (index = position in [shapes])")
CENTRE = LAYOUT.static("centre", (MAX_CENTRE,), "the centre's tiles")
POOL_B = LAYOUT.static("pool_b", (MAX_TILES,), "side B's pool, in the board's order")
FACES = LAYOUT.static("faces", (6, 2), "per die face v - 1: the two ring slots beside it")
SHAPE_FIRST = LAYOUT.static("shape_first", (MAX_TILES,), "per tile: its first placement")
SHAPE_COUNT = LAYOUT.static("shape_count", (MAX_TILES,), "per tile: its placements (first .. first + count - 1)")
SHAPE_SIZE = LAYOUT.static("shape_size", (MAX_TILES,), "per tile: its cells")
INV = LAYOUT.static("inv", (MAX_LONGEST + 1,), "inv[e] = L // e for e = 1 .. the longest target")
ROW_OF = LAYOUT.static("row_of", (MAX_CELLS,), "per cell: its row")
CELL_DISTRICT = LAYOUT.static("cell_district", (MAX_CELLS,), "per cell: its district")
EDGE_OF = LAYOUT.static("edge_of", (MAX_CELLS,), "per cell: its sides on the sheet's edge")
TARGET_MASK = LAYOUT.static("target_mask", (MAX_TARGETS, MAX_WORDS), "per target: its cells as bit words")
SHAPE_LONG = LAYOUT.static("shape_long", (MAX_TILES,), "per tile: the longer side of its bounding box")
ORIENT_FIRST = LAYOUT.static("orient_first", (MAX_TILES,), "per tile: its first orientation record")
ORIENT_COUNT = LAYOUT.static("orient_count", (MAX_TILES,), "per tile: its orientations")
ORIENTS = LAYOUT.static("orients", (MAX_ORIENTS, O_STRIDE), "orientation records (O_* fields)")

PHASE = LAYOUT.dynamic("phase", (), "where the round stands (PH_*)")
LEADER = LAYOUT.dynamic("leader", (), "the round's leader")
STEP = LAYOUT.dynamic("step", (), "the draft position 0..N-1, or the seat asked in the shared step")
N_DICE = LAYOUT.dynamic("n_dice", (), "the round's dice")
TAKEN = LAYOUT.dynamic("taken", (), "bit d: die d was taken in the draft (the one not taken is shared)")
FIRST_END = LAYOUT.dynamic("first_end", (), "1 + the first end reason that held (0: none yet)")
FREE_CIRCLES = LAYOUT.dynamic("free_circles", (), "bit c: social circle c is free")
CLOSED = LAYOUT.dynamic("closed", (), "bit t: target t has been completed by someone (its high value is gone)")
N_CLOSED = LAYOUT.dynamic("n_closed", (), "targets closed")
N_POOL = LAYOUT.dynamic("n_pool", (), "tiles in the drone pool")
POOL_MAX = LAYOUT.dynamic("pool_max", (), "the largest drone pool tile's cell count")
POOL_LONG = LAYOUT.dynamic("pool_long", (), "the longest bounding-box side of a drone pool tile")
DICE = LAYOUT.dynamic("dice", (MAX_DICE,), "the round's dice (1..6, roll order)")
SLOT = LAYOUT.dynamic("slot", (MAX_DICE,), "per die: the ring slot it sits on")
WEIGHT = LAYOUT.dynamic("weight", (MAX_TARGETS,), "per target: the value it is worth now (high while open, else low)")
RING = LAYOUT.dynamic("ring", (MAX_RING,), "per ring slot: its tile this game (side B: drawn)")
POOL_ORDER = LAYOUT.dynamic("pool_order", (MAX_TILES,), "side B: the shuffled pool_b (tile indices)")
DRONE_POOL = LAYOUT.dynamic("drone_pool", (MAX_POOL,), "the tiles a drone may draw, in HQ order, each once")
SHEET = LAYOUT.dynamic(
    "sheet", (MAX_PLAYERS, MAX_WORDS), "per seat, its painted cells: bit (cell & 63) of word (cell >> 6)"
)
EMPTY = LAYOUT.dynamic("empty", (MAX_PLAYERS, MAX_TARGETS), "per seat and target: empty cells left")
TARGET_PTS = LAYOUT.dynamic("target_pts", (MAX_PLAYERS,), "per seat: points from targets")
DRONE_PTS = LAYOUT.dynamic("drone_pts", (MAX_PLAYERS,), "per seat: points from remote boxes (drones)")
SOCIAL_PTS = LAYOUT.dynamic("social_pts", (MAX_PLAYERS,), "per seat: points from social circles")
DRONES = LAYOUT.dynamic("drones", (MAX_PLAYERS,), "per seat: drones used")
SOCIALS = LAYOUT.dynamic("socials", (MAX_PLAYERS,), "per seat: social circles circled")
PENDING = LAYOUT.dynamic(
    "pending", (MAX_PLAYERS,), "per seat: its answer in the shared step (then the targets it completed there)"
)
CELL_VALUE = LAYOUT.dynamic(
    "cell_value",
    (2, MAX_PLAYERS, MAX_CELLS),
    "per value (V1, V2), seat and cell: what painting the cell adds to it (times 2L; V2's with its contact)",
)
NEAR = LAYOUT.dynamic(
    "near",
    (MAX_PLAYERS, K_STRIDE, 2, MAX_WORDS),
    "per seat and z: the first (0) and the last (1) empty cell of each target z cells may complete",
)
NEAR_TARGETS = LAYOUT.dynamic(
    "near_targets", (MAX_PLAYERS,), "per seat: bit t set, target t has 1 .. tile_cells empty cells (NEAR's targets)"
)
SHEET_VERSION = LAYOUT.dynamic("sheet_version", (MAX_PLAYERS,), "per seat: paints so far (best_cached's key)")
WEIGHT_VERSION = LAYOUT.dynamic("weight_version", (), "targets closed so far (best_cached's key)")
BEST = LAYOUT.dynamic(
    "best",
    (MAX_PLAYERS, 3, MAX_TILES, 4),
    "best_cached: per seat, value (V1, V2, a player's own) and tile: key, placement, value, gain",
)
HEAT = LAYOUT.dynamic(
    "heat", (MAX_CELLS,), "per cell: seats that painted it this game (the heatmap: the header's HEAT_AT/HEAT_CELLS)"
)

# Compiled helpers (st[weight_at(t)], st[sheet_at(seat, w)], st[placement_at(st, p, field)], ...)
rule_at = PARAMS.index  # st[rule_at(P_X)]: a rule parameter
placement_at = PLACEMENTS.index  # st[placement_at(st, p, st[R_X] + k)]: a field of placement p's record
placement_row = PLACEMENTS.row  # placement p's record: its first slot, found once
placement_field = PLACEMENTS.in_row  # st[placement_field(rec, st[R_X] + k)]: a field of the record at rec
cover_row = COVERS.row  # placement p's covers: first slot, found once
cover_field = COVERS.in_row  # st[cover_field(row, w)]: mask word w (< B_WORDS), then the pair words
target_high_at = TARGET_HIGH.index
target_low_at = TARGET_LOW.index
target_size_at = TARGET_SIZE.index
remote_at = REMOTE.index
ring_a_at = RING_A.index
centre_at = CENTRE.index
pool_b_at = POOL_B.index
faces_at = FACES.index  # st[faces_at(v - 1, j)]
shape_first_at = SHAPE_FIRST.index
shape_count_at = SHAPE_COUNT.index
shape_size_at = SHAPE_SIZE.index
inv_at = INV.index
row_of_at = ROW_OF.index
cell_district_at = CELL_DISTRICT.index
edge_of_at = EDGE_OF.index
target_mask_at = TARGET_MASK.index  # st[target_mask_at(t, k)]
shape_long_at = SHAPE_LONG.index
orient_first_at = ORIENT_FIRST.index
orient_count_at = ORIENT_COUNT.index
orient_at = ORIENTS.index  # st[orient_at(o, O_X)]: a field of orientation record o
dice_at = DICE.index
slot_at = SLOT.index
weight_at = WEIGHT.index
ring_at = RING.index
pool_order_at = POOL_ORDER.index
drone_pool_at = DRONE_POOL.index
sheet_at = SHEET.index  # st[sheet_at(seat, w)]
empty_at = EMPTY.index  # st[empty_at(seat, t)]
target_pts_at = TARGET_PTS.index
drone_pts_at = DRONE_PTS.index
social_pts_at = SOCIAL_PTS.index
drones_at = DRONES.index
socials_at = SOCIALS.index
pending_at = PENDING.index
cell_value_at = CELL_VALUE.index  # st[cell_value_at(V1, seat, x)]
near_at = NEAR.index  # st[near_at(seat, z, end, k)]
near_targets_at = NEAR_TARGETS.index
sheet_version_at = SHEET_VERSION.index
best_at = BEST.index  # st[best_at(seat, v, tile, field)]
heat_cell_at = HEAT.index

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

# --------------------------------------------------------------------------- the image
def encode(params: Mapping[str, Any], board: TagBoard, n_seats: int) -> np.ndarray:
    """The state image for these rules and this board: the static regions and
    the placement table of the orientation rule in force."""
    if params["drone_boxes"] > len(board.remote):
        raise UserError(
            f"parameter drone_boxes={params['drone_boxes']}: the board's remote has "
            f"{len(board.remote)} boxes; expected an integer in 1..{len(board.remote)}"
        )
    words, stride, records, rec, cover_stride, covers = _table(board, params["orientations"])
    layout = LAYOUT.copy()
    layout.place(PLACEMENTS, records.size)
    layout.place(COVERS, covers.size)
    image = layout.image()
    image[HEAT_AT] = HEAT  # the heatmap: the first n_cells slots of the region
    image[HEAT_CELLS] = board.n_cells
    PARAMS.put(image, [p.encode(params[p.name]) for p in PARAM_DECLS])
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
    image[B_STRIDE] = stride
    image[B_N_PLACE] = records.size // stride
    image[R_SHAPE] = rec["shape"]
    image[R_EDGE] = rec["edge"]
    image[R_NLEV] = rec["nlev"]
    image[R_NCELLS] = rec["ncells"]
    image[B_COVER_STRIDE] = cover_stride
    image[B_PAIR_WORDS] = cover_stride - words
    image[B_LONGEST] = longest
    image[B_TILE_CELLS] = max(len(cells) for _, cells in board.shapes)
    target_high = _of(image, TARGET_HIGH)
    target_low = _of(image, TARGET_LOW)
    target_mask = _of(image, TARGET_MASK)
    for t in range(board.n_targets):
        high, low = board.target_values(t)
        target_high[t] = high
        target_low[t] = low
        _of(image, TARGET_SIZE)[t] = len(board.target_cells(t))
        target_mask[t, :words] = _mask(board.target_cells(t), words)
    _of(image, REMOTE)[: len(board.remote)] = board.remote
    names = board.shape_names
    _of(image, RING_A)[: len(board.ring_a)] = [names.index(x) for x in board.ring_a]
    _of(image, CENTRE)[: len(board.centre)] = [names.index(x) for x in board.centre]
    _of(image, POOL_B)[: len(board.pool_b)] = [names.index(x) for x in board.pool_b]
    faces = _of(image, FACES)
    for v, (a, b) in enumerate(board.faces):
        faces[v] = (a, b)
    place = placements(board, params["orientations"])
    for s, (_, cells) in enumerate(board.shapes):
        _of(image, SHAPE_FIRST)[s] = place.first[s]
        _of(image, SHAPE_COUNT)[s] = place.count[s]
        _of(image, SHAPE_SIZE)[s] = len(cells)
        _of(image, SHAPE_LONG)[s] = (
            max(
                max(r for r, _ in cells) - min(r for r, _ in cells), max(c for _, c in cells) - min(c for _, c in cells)
            )
            + 1
        )
    inv = _of(image, INV)
    for e in range(1, longest + 1):
        inv[e] = scale // e
    row_of, cell_district, edge_of = _of(image, ROW_OF), _of(image, CELL_DISTRICT), _of(image, EDGE_OF)
    for x in range(board.n_cells):
        r, c = divmod(x, board.cols)
        row_of[x] = r
        cell_district[x] = board.cell_district[x]
        edge_of[x] = (r == 0) + (r == board.rows - 1) + (c == 0) + (c == board.cols - 1)
    for s in range(len(board.shapes)):
        _of(image, ORIENT_FIRST)[s] = place.orient_first[s]
        _of(image, ORIENT_COUNT)[s] = place.orient_count[s]
    orients = _of(image, ORIENTS)
    for o, (_, first, cells, h, w) in enumerate(place.orients):
        record = orients[o]
        record[O_FIRST] = first
        record[O_CELLS] = len(cells)
        record[O_SPAN] = board.cols - w + 1
        for j, (r, c) in enumerate(cells):
            record[O_OFFSETS + j] = r * board.cols + c
        corners = [r0 * board.cols + c0 for r0 in range(board.rows - h + 1) for c0 in range(board.cols - w + 1)]
        record[O_VALID : O_VALID + words] = _mask(corners, words)
    PLACEMENTS.put(image, records)
    COVERS.put(image, covers)
    return image


def _of(image: np.ndarray, region: Any) -> np.ndarray:
    """A fixed region of ``image`` as a view of its shape (written through)."""
    return image[region.slots].reshape(region.shape)


@lru_cache(maxsize=32)
def _table(board: TagBoard, rule: str) -> tuple[int, int, np.ndarray, dict[str, int], int, np.ndarray]:
    """The placement records of ``board`` under orientation rule ``rule``
    (computed once per board and rule): words per sheet, the record stride,
    the records, the offsets of a record's fields, and the covers table
    (its stride and its rows: mask words, then the packed pairs)."""
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
    off = {"ncells": 0}
    off["edge"] = off["ncells"] + 1 + max_cells
    off["nlev"] = off["edge"] + 1
    off["shape"] = off["nlev"] + 1 + max_lev * words
    stride = off["shape"] + 1
    per_word = 64 // PAIR_BITS
    cover_stride = words + (max_pairs + per_word - 1) // per_word
    table = np.zeros((len(recs), stride), np.int64)
    covers = np.zeros((len(recs), cover_stride), np.int64)
    for p, (mask, shape, pairs, edge, levels, cells) in enumerate(recs):
        covers[p, :words] = mask
        for k, (t, n) in enumerate(pairs):
            covers[p, words + k // per_word] |= (t + 64 * n) << (PAIR_BITS * (k % per_word))
        row = table[p]
        row[off["shape"]] = shape
        row[off["edge"]] = edge
        row[off["nlev"]] = len(levels)
        for k, m in enumerate(levels):
            at = off["nlev"] + 1 + k * words
            row[at : at + words] = m
        row[off["ncells"]] = len(cells)
        row[off["ncells"] + 1 : off["ncells"] + 1 + len(cells)] = cells
    return words, stride, table.reshape(-1), off, cover_stride, covers.reshape(-1)


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


@intrinsic
def _ctlz(typingctx, x):
    """LLVM's count of leading zeros of a non-zero int64."""

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@njit(cache=True)
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero int64."""
    return _cttz(x)


@njit(cache=True)
def highest_bit(x):
    """Index of the highest set bit of a non-zero int64."""
    return 63 - _ctlz(x)


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def _sheet_word(st, seat, i):
    """Word ``i`` of ``seat``'s sheet, 0 past the last (i < 8): a load, not a branch per word."""
    return st[sheet_at(seat, min(i, MAX_WORDS - 1))] & -np.int64(i < MAX_WORDS)


@njit(cache=True, inline="always")
def _near_word(st, seat, z, end, i):
    """Word ``i`` of ``seat``'s NEAR cells (first or last, ``end``) for z cells, 0 past the last."""
    return st[near_at(seat, z, end, min(i, MAX_WORDS - 1))] & -np.int64(i < MAX_WORDS)


@njit(cache=True, inline="always")
def _shifted_words(lo, hi, r):
    """Bits r .. r + 63 of the 128 bits hi:lo (r = 0 .. 63; the high word
    shifted twice, so that r = 0 needs no branch)."""
    return np.int64((np.uint64(lo) >> np.uint64(r)) | ((np.uint64(hi) << np.uint64(1)) << np.uint64(63 - r)))


@njit(cache=True, inline="always")
def _shifted_pair(s0, s1, offset):
    """Both words of the 128 bits s1:s0 shifted right by ``offset`` (0 .. 127)
    bits, with a select for the word it starts in (no branch, no load)."""
    upper = -(offset >> 6)  # all ones when the offset starts in word 1
    lo = (s1 & upper) | (s0 & ~upper)
    hi = s1 & ~upper
    r = offset & 63
    return _shifted_words(lo, hi, r), np.int64(np.uint64(hi) >> np.uint64(r))


@njit(cache=True, inline="always")
def _covered_pair(s0, s1, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4):
    """Both words of the corners at which a placement with cells at the
    offsets f0 .. f4 (those past its cells masked off by ``keep``) covers a
    cell of the 128-bit set s1:s0: free_corners' shifts for a sheet of at most
    two words, on values held in registers."""
    c0, c1 = _shifted_pair(s0, s1, f0)
    a0, a1 = _shifted_pair(s0, s1, f1)
    c0 |= a0 & keep1
    c1 |= a1 & keep1
    a0, a1 = _shifted_pair(s0, s1, f2)
    c0 |= a0 & keep2
    c1 |= a1 & keep2
    a0, a1 = _shifted_pair(s0, s1, f3)
    c0 |= a0 & keep3
    c1 |= a1 & keep3
    a0, a1 = _shifted_pair(s0, s1, f4)
    c0 |= a0 & keep4
    c1 |= a1 & keep4
    return c0, c1


@njit(cache=True, inline="always")
def _shifted(s0, s1, s2, s3, i, r):
    """Words ``i`` and ``i + 1`` of s0 .. s3 shifted right by ``r`` (0 .. 63)
    bits: the low word (the high word shifted twice, so that r = 0 needs no
    branch)."""
    return _shifted_words(_word(s0, s1, s2, s3, i), _word(s0, s1, s2, s3, i + 1), r)


@njit(cache=True)
def shifted_word(s0, s1, s2, s3, offset, k):
    """Word ``k`` of the 256-bit sheet (s0 .. s3) shifted right by ``offset``
    bits: bit x of the result is bit x + offset of the sheet."""
    return _shifted(s0, s1, s2, s3, k + (offset >> 6), offset & 63)


if numba_config.DISABLE_JIT:  # pure Python (the speed baseline)

    def popcount(x):
        return bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1")

    def lowest_bit(x):
        x = int(x) & 0xFFFFFFFFFFFFFFFF
        return (x & -x).bit_length() - 1

    def highest_bit(x):
        return (int(x) & 0xFFFFFFFFFFFFFFFF).bit_length() - 1


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
    return st[ring_at(st[slot_at(die)])]


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
    return st[drones_at(seat)] < st[rule_at(P_DRONE_BOXES)]


@njit(cache=True)
def drone_cost(st, seat):
    """The value of ``seat``'s next remote box (its first free one)."""
    return st[remote_at(st[drones_at(seat)])]


@njit(cache=True)
def in_drone_pool(st, shape):
    for i in range(st[N_POOL]):
        if st[drone_pool_at(i)] == shape:
            return True
    return False


@njit(cache=True)
def placement_shape(st, p):
    return st[placement_at(st, p, st[R_SHAPE])]


@njit(cache=True)
def legal(st, seat, p):
    """Placement ``p`` fits on ``seat``'s sheet: none of its cells painted."""
    row = cover_row(st, p)
    for w in range(st[B_WORDS]):
        if st[cover_field(row, w)] & st[sheet_at(seat, w)]:
            return False
    return True


@njit(cache=True)
def painted(st, seat, cell):
    return (st[sheet_at(seat, cell >> 6)] >> (cell & 63)) & 1


@njit(cache=True, inline="always")
def pair_target(pairs):
    """The target of the lowest pair of a word of packed pairs (COVERS)."""
    return pairs & 63


@njit(cache=True, inline="always")
def pair_count(pairs):
    """The count (cells of the placement in the target) of the lowest pair of a word of packed pairs."""
    return (pairs >> 6) & 15


@njit(cache=True)
def placement_value(st, seat, p, vtype):
    """(value, gain) of placement ``p`` for ``seat`` (RULES.md, "Players"), as
    exact integers: V1 = 2L (10 gain + progress) for ``vtype`` V1, V2 = 2L (3
    gain + progress + 0.5 contact) for V2; ``gain`` in points."""
    scale = st[B_SCALE]
    gain = 0
    prog = 0
    row = cover_row(st, p)
    words = st[B_WORDS]
    for k in range(st[B_PAIR_WORDS]):
        pairs = st[cover_field(row, words + k)]
        while pairs != 0:
            t = pair_target(pairs)
            n = pair_count(pairs)
            pairs >>= PAIR_BITS
            e = st[empty_at(seat, t)]
            w = st[weight_at(t)]
            if n == e:
                gain += w
            else:
                prog += w * n * st[inv_at(e)]
    g, c = value_weights(vtype)
    if c == 0:
        return 2 * g * scale * gain + 2 * prog, gain
    return 2 * g * scale * gain + 2 * prog + c * scale * contact_of(st, seat, p), gain


@njit(cache=True)
def placement_gain(st, seat, p):
    """Points placement ``p`` scores now for ``seat``: the values of the targets
    it completes."""
    return gain_of(st, seat, p)


@njit(cache=True, inline="always")
def gain_of(st, seat, p):
    """:func:`placement_gain`, inlined where it is called per corner."""
    gain = 0
    row = cover_row(st, p)
    words = st[B_WORDS]
    for k in range(st[B_PAIR_WORDS]):
        pairs = st[cover_field(row, words + k)]
        while pairs != 0:
            t = pair_target(pairs)
            if pair_count(pairs) == st[empty_at(seat, t)]:
                gain += st[weight_at(t)]
            pairs >>= PAIR_BITS
    return gain


@njit(cache=True)
def contact_of(st, seat, p):
    """Sides of placement ``p`` against the sheet's edge or a painted cell of
    ``seat``'s sheet (a painted cell touching two of its cells counts twice)."""
    rec = placement_row(st, p)
    c = st[placement_field(rec, st[R_EDGE])]
    r_lev = st[R_NLEV]
    words = st[B_WORDS]
    for lev in range(st[placement_field(rec, r_lev)]):
        for w in range(words):
            c += popcount(st[sheet_at(seat, w)] & st[placement_field(rec, r_lev + 1 + lev * words + w)])
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
    for x in range(st[B_CELLS]):
        r = st[row_of_at(x)]
        v = 0
        for t in (r, rows + x - r * cols, rows + cols + st[cell_district_at(x)]):
            v += 2 * st[weight_at(t)] * st[inv_at(st[empty_at(seat, t)])]
        st[cell_value_at(V1, seat, x)] = v
        st[cell_value_at(V2, seat, x)] = v + scale * st[edge_of_at(x)]


@njit(cache=True)
def shift_target(st, seat, t, delta):
    """Add ``delta`` to both per-cell values of the empty cells of target
    ``t`` on ``seat``'s sheet (its empty count or its worth changed)."""
    for k in range(st[B_WORDS]):
        m = st[target_mask_at(t, k)] & ~st[sheet_at(seat, k)]
        while m != 0:
            x = 64 * k + lowest_bit(m)
            m &= m - 1
            st[cell_value_at(V1, seat, x)] += delta
            st[cell_value_at(V2, seat, x)] += delta


@njit(cache=True)
def touch_neighbours(st, seat, p):
    """Each empty cell beside placement ``p`` (just painted on ``seat``'s
    sheet) gains one side of contact: L more to its V2 value per painted
    neighbour."""
    cols = st[B_COLS]
    rows = st[B_ROWS]
    scale = st[B_SCALE]
    r_cells = st[R_NCELLS]
    rec = placement_row(st, p)
    for j in range(st[placement_field(rec, r_cells)]):
        x = st[placement_field(rec, r_cells + 1 + j)]
        r = st[row_of_at(x)]
        c = x - r * cols
        if r > 0 and not painted(st, seat, x - cols):
            st[cell_value_at(V2, seat, x - cols)] += scale
        if r < rows - 1 and not painted(st, seat, x + cols):
            st[cell_value_at(V2, seat, x + cols)] += scale
        if c > 0 and not painted(st, seat, x - 1):
            st[cell_value_at(V2, seat, x - 1)] += scale
        if c < cols - 1 and not painted(st, seat, x + 1):
            st[cell_value_at(V2, seat, x + 1)] += scale


@njit(cache=True)
def update_near(st, seat):
    """NEAR for ``seat``, for z = 1 .. the largest tile: the first and the last
    empty cell of each of its targets with 1 .. z empty cells, the only targets
    a placement of z cells can complete.  A placement that completes a target
    covers both, so only the corners that cover a first and a last cell of
    NEAR are scored with their gain (best_placement)."""
    largest = st[B_TILE_CELLS]
    words = st[B_WORDS]
    for z in range(largest + 1):
        for k in range(words):
            st[near_at(seat, z, 0, k)] = 0
            st[near_at(seat, z, 1, k)] = 0
    # each target's cells at z = e, its own count; then every z takes z - 1's (z >= e)
    targets = np.int64(0)
    for t in range(st[B_TARGETS]):
        e = st[empty_at(seat, t)]
        if 1 <= e <= largest:
            targets |= np.int64(1) << t
            first = np.int64(-1)
            last = np.int64(-1)
            for k in range(words):
                cells = st[target_mask_at(t, k)] & ~st[sheet_at(seat, k)]
                if cells != 0:
                    if first < 0:
                        first = 64 * k + lowest_bit(cells)
                    last = 64 * k + highest_bit(cells)
            st[near_at(seat, e, 0, first >> 6)] |= np.int64(1) << (first & 63)
            st[near_at(seat, e, 1, last >> 6)] |= np.int64(1) << (last & 63)
    st[near_targets_at(seat)] = targets
    for z in range(2, largest + 1):
        for k in range(words):
            st[near_at(seat, z, 0, k)] |= st[near_at(seat, z - 1, 0, k)]
            st[near_at(seat, z, 1, k)] |= st[near_at(seat, z - 1, 1, k)]


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
def free_corners(st, o, k, s0, s1, s2, s3):
    """Word ``k`` of the top-left corners at which orientation ``o`` fits on
    the sheet s0..s3 (inside it, no painted cell): bit x = corner x."""
    occupied = np.int64(0)
    for j in range(st[orient_at(o, O_CELLS)]):
        occupied |= shifted_word(s0, s1, s2, s3, st[orient_at(o, O_OFFSETS + j)], k)
    return st[orient_at(o, O_VALID + k)] & ~occupied


@njit(cache=True, inline="always")
def corner_cells_value(st, seat, which, o, x, n_cells, f0, f1, f2, f3, f4, mix):
    """The sum of the cell values (``which``) of the cells of orientation
    ``o``'s placement at corner ``x`` (its first five offsets f0..f4 held by
    the caller), plus ``mix`` times their contact (a contact weight beyond V2's)."""
    value = st[cell_value_at(which, seat, x + f0)]
    if n_cells > 1:
        value += st[cell_value_at(which, seat, x + f1)]
        if n_cells > 2:
            value += st[cell_value_at(which, seat, x + f2)]
            if n_cells > 3:
                value += st[cell_value_at(which, seat, x + f3)]
                if n_cells > 4:
                    value += st[cell_value_at(which, seat, x + f4)]
                    for j in range(5, n_cells):
                        value += st[cell_value_at(which, seat, x + st[orient_at(o, O_OFFSETS + j)])]
    if mix != 0:
        for j in range(n_cells):
            y = x + st[orient_at(o, O_OFFSETS + j)]
            value += mix * (st[cell_value_at(which, seat, y)] - st[cell_value_at(V1, seat, y)])
    return value


@njit(cache=True, inline="always")
def _most_of_word(st, seat, which, x0, lo, end, corners, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4):
    """The highest sum of cell values over the placements at corners x0 + i,
    i in lo .. end - 1, whose bit i of ``corners`` is set (NO_VALUE if none).

    Written for LLVM's loop vectorizer: every corner of the range is summed
    (a tile of up to five cells, the offsets beyond its cells masked off by
    ``keep``), the corners not asked for give NO_VALUE, no branch."""
    most = NO_VALUE
    for i in range(lo, end):
        x = x0 + i
        value = (
            st[unsigned(cell_value_at(which, seat, x + f0))]
            + (st[unsigned(cell_value_at(which, seat, x + f1))] & keep1)
            + (st[unsigned(cell_value_at(which, seat, x + f2))] & keep2)
            + (st[unsigned(cell_value_at(which, seat, x + f3))] & keep3)
            + (st[unsigned(cell_value_at(which, seat, x + f4))] & keep4)
        )
        if (corners >> i) & 1 == 0:
            value = NO_VALUE
        if value > most:
            most = value
    return most


@njit(cache=True, inline="always")
def _equal_of_word(st, seat, which, x0, lo, end, value, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4):
    """Bit i set (i in lo .. end - 1): the placement at corner x0 + i sums to
    ``value`` (vectorized like :func:`_most_of_word`)."""
    found = np.int64(0)
    for i in range(lo, end):
        x = x0 + i
        total = (
            st[unsigned(cell_value_at(which, seat, x + f0))]
            + (st[unsigned(cell_value_at(which, seat, x + f1))] & keep1)
            + (st[unsigned(cell_value_at(which, seat, x + f2))] & keep2)
            + (st[unsigned(cell_value_at(which, seat, x + f3))] & keep3)
            + (st[unsigned(cell_value_at(which, seat, x + f4))] & keep4)
        )
        found |= np.int64(total == value) << i
    return found


@njit(cache=True, inline="always")
def _pair_gain(st, seat, x, s0, s1, targets, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4):
    """The gain of the placement at corner ``x`` with cells at x + f0 .. f4
    (those past its cells masked off by ``keep``) on a sheet s1:s0 of at most
    two words: the values of the ``targets`` (NEAR's, small enough) whose
    empty cells it covers, compared as bit words (nothing read but the
    targets' masks and values: the covers table is not in the nearest cache)."""
    c0, c1 = _cell_bit(x + f0, np.int64(-1))
    a0, a1 = _cell_bit(x + f1, keep1)
    c0 |= a0
    c1 |= a1
    a0, a1 = _cell_bit(x + f2, keep2)
    c0 |= a0
    c1 |= a1
    a0, a1 = _cell_bit(x + f3, keep3)
    c0 |= a0
    c1 |= a1
    a0, a1 = _cell_bit(x + f4, keep4)
    c0 |= a0
    c1 |= a1
    gain = 0
    while targets != 0:
        t = lowest_bit(targets)
        targets &= targets - 1
        if (st[target_mask_at(t, 0)] & ~s0 & ~c0) | (st[target_mask_at(t, 1)] & ~s1 & ~c1) == 0:
            gain += st[weight_at(t)]
    return gain


@njit(cache=True, inline="always")
def _cell_bit(y, keep):
    """Cell ``y`` (< 128) as two bit words, masked by ``keep``."""
    upper = -(y >> 6)
    bit = (np.int64(1) << (y & 63)) & keep
    return bit & ~upper, bit & upper


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
    (c > 1) adds c - 1 times each cell's contact (V2's cell value less V1's)
    to V2's cells.  Only a placement that covers a first and a last cell of
    NEAR (for its size) can complete a target; the corners that do come, like
    the free ones, from bit words shifted by the orientation's cells.

    A placement at corner x has the cells x + the orientation's offsets, so
    its value is read from the cell values without its record.  For a tile of
    up to five cells (every tile of the default board) each word of corners
    is searched in two vectorized passes: the highest value among the corners
    that cannot complete a target (:func:`_most_of_word`, every corner of the
    range summed, 4 at once), with those that can scored one by one (their
    gain from the record); and, only when that beats the best so far, which
    corners reach it (:func:`_equal_of_word`): the first of them is the
    enumeration's first, as before."""
    words = st[B_WORDS]
    cols = st[B_COLS]
    size = st[shape_size_at(shape)]
    near_any = False
    for k in range(words):
        near_any |= st[near_at(seat, size, 0, k)] != 0
    # a sheet of at most two words (the default board's 96 cells) and NEAR's, held for the corner masks
    s0 = st[sheet_at(seat, 0)]
    s1 = st[sheet_at(seat, 1)]
    a0 = st[near_at(seat, size, 0, 0)]
    a1 = st[near_at(seat, size, 0, 1)]
    z0 = st[near_at(seat, size, 1, 0)]
    z1 = st[near_at(seat, size, 1, 1)]
    # the targets this tile may complete: NEAR's with at most its cells empty
    targets = np.int64(0)
    if near_any:
        near = st[near_targets_at(seat)]
        while near != 0:
            t = lowest_bit(near)
            near &= near - 1
            if st[empty_at(seat, t)] <= size:
                targets |= np.int64(1) << t
    g, c = value_weights(vtype)
    which = V1 if c == 0 else V2  # the cell values summed
    mix = c - 1 if c > 1 else 0  # extra contact beyond V2's half point per side
    bonus = (2 * g - 2) * st[B_SCALE]
    best_o = np.int64(-1)
    best_x = np.int64(0)
    best_value = NO_VALUE
    best_gain = np.int64(0)
    o_first = st[orient_first_at(shape)]
    for o in range(o_first, o_first + st[orient_count_at(shape)]):
        n_cells = st[orient_at(o, O_CELLS)]
        # the first five offsets (a record's unused ones are 0: read, then masked off or never added)
        f0 = st[orient_at(o, O_OFFSETS)]
        f1 = st[orient_at(o, O_OFFSETS + 1)]
        f2 = st[orient_at(o, O_OFFSETS + 2)]
        f3 = st[orient_at(o, O_OFFSETS + 3)]
        f4 = st[orient_at(o, O_OFFSETS + 4)]
        first = st[orient_at(o, O_FIRST)]
        gap = cols - st[orient_at(o, O_SPAN)]  # corners a row skips: placement = first + x - row * gap
        vector = n_cells <= 5 and mix == 0
        keep1 = np.int64(-1) if n_cells > 1 else np.int64(0)
        keep2 = np.int64(-1) if n_cells > 2 else np.int64(0)
        keep3 = np.int64(-1) if n_cells > 3 else np.int64(0)
        keep4 = np.int64(-1) if n_cells > 4 else np.int64(0)
        reach = max(max(f0, f1), max(max(f2, f3), f4))  # the farthest cell from the corner
        pairs = words <= 2 and n_cells <= 5
        painted0 = np.int64(0)
        painted1 = np.int64(0)
        first0 = np.int64(0)
        first1 = np.int64(0)
        last0 = np.int64(0)
        last1 = np.int64(0)
        if pairs:
            painted0, painted1 = _covered_pair(s0, s1, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4)
            if near_any:
                first0, first1 = _covered_pair(a0, a1, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4)
                last0, last1 = _covered_pair(z0, z1, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4)
        for k in range(words):
            # the corners whose placement covers no painted cell (free_corners)
            if pairs:
                painted = painted0 if k == 0 else painted1
            else:
                painted = np.int64(0)
                for j in range(n_cells):
                    offset = st[orient_at(o, O_OFFSETS + j)]
                    i = k + (offset >> 6)
                    painted |= _shifted_words(_sheet_word(st, seat, i), _sheet_word(st, seat, i + 1), offset & 63)
            m = st[orient_at(o, O_VALID + k)] & ~painted
            if m == 0:
                continue
            # and those whose placement covers a first and a last cell of NEAR
            firsts = np.int64(0)
            lasts = np.int64(0)
            if pairs:
                firsts = first0 if k == 0 else first1
                lasts = last0 if k == 0 else last1
            elif near_any:
                for j in range(n_cells):
                    offset = st[orient_at(o, O_OFFSETS + j)]
                    i = k + (offset >> 6)
                    firsts |= _shifted_words(
                        _near_word(st, seat, size, 0, i), _near_word(st, seat, size, 0, i + 1), offset & 63
                    )
                    lasts |= _shifted_words(
                        _near_word(st, seat, size, 1, i), _near_word(st, seat, size, 1, i + 1), offset & 63
                    )
            touch = firsts & lasts & m
            x0 = 64 * k
            if not vector:
                while m != 0:
                    b = lowest_bit(m)
                    m &= m - 1
                    x = x0 + b
                    value = corner_cells_value(st, seat, which, o, x, n_cells, f0, f1, f2, f3, f4, mix)
                    gain = 0
                    if (touch >> b) & 1:
                        gain = gain_of(st, seat, first + x - st[row_of_at(x)] * gap)
                        value += bonus * gain
                    if value > best_value:
                        best_o = o
                        best_x = x
                        best_value = value
                        best_gain = gain
                continue
            plain = m & ~touch
            most = NO_VALUE
            lo = np.int64(0)
            end = np.int64(0)
            if plain != 0:
                # whole blocks of 16 corners (LLVM's vector loop: no scalar remainder), every cell
                # read inside the seat's row of cell values
                lo = (lowest_bit(plain) >> 4) << 4
                end = min(((highest_bit(plain) >> 4) + 1) << 4, MAX_CELLS - reach - x0)
                most = _most_of_word(
                    st, seat, which, x0, lo, end, plain, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4
                )
            touch_first = np.int64(64)
            touch_gain = 0
            while touch != 0:
                b = lowest_bit(touch)
                touch &= touch - 1
                x = x0 + b
                value = corner_cells_value(st, seat, which, o, x, n_cells, f0, f1, f2, f3, f4, mix)
                if pairs:
                    gain = _pair_gain(st, seat, x, s0, s1, targets, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4)
                else:
                    gain = gain_of(st, seat, first + x - st[row_of_at(x)] * gap)
                value += bonus * gain
                if value > most or (value == most and touch_first == 64):
                    most = value
                    touch_first = b
                    touch_gain = gain
            if most > best_value:
                b = touch_first
                if plain != 0:
                    reached = _equal_of_word(
                        st, seat, which, x0, lo, end, most, f0, f1, f2, f3, f4, keep1, keep2, keep3, keep4
                    ) & plain
                    if reached != 0:
                        b = min(b, lowest_bit(reached))
                best_o = o
                best_x = x0 + b
                best_value = most
                best_gain = touch_gain if b == touch_first else 0  # a plain corner completes nothing
    if best_o < 0:
        return best_o, best_value, 0
    best = st[orient_at(best_o, O_FIRST)] + best_x - st[row_of_at(best_x)] * (cols - st[orient_at(best_o, O_SPAN)])
    return best, best_value, best_gain


@njit(cache=True)
def best_cached(st, seat, shape, vtype):
    """:func:`best_placement`, remembered until ``seat``'s sheet or a target's
    worth changes (the same answer, computed once)."""
    key = (st[sheet_version_at(seat)] << 32) + st[WEIGHT_VERSION] + 1
    v = min(vtype, V_OWN)
    if st[best_at(seat, v, shape, 0)] == key:
        return st[best_at(seat, v, shape, 1)], st[best_at(seat, v, shape, 2)], st[best_at(seat, v, shape, 3)]
    p, value, gain = best_placement(st, seat, shape, vtype)
    st[best_at(seat, v, shape, 0)] = key
    st[best_at(seat, v, shape, 1)] = p
    st[best_at(seat, v, shape, 2)] = value
    st[best_at(seat, v, shape, 3)] = gain
    return p, value, gain


@njit(cache=True)
def count_legal(st, seat, shape):
    """Legal placements of ``shape`` on ``seat``'s sheet."""
    n = 0
    o_first = st[orient_first_at(shape)]
    for o in range(o_first, o_first + st[orient_count_at(shape)]):
        for k in range(st[B_WORDS]):
            n += popcount(
                free_corners(
                    st,
                    o,
                    k,
                    st[sheet_at(seat, 0)],
                    st[sheet_at(seat, 1)],
                    st[sheet_at(seat, 2)],
                    st[sheet_at(seat, 3)],
                )
            )
    return n


@njit(cache=True)
def nth_legal(st, seat, shape, j):
    """The ``j``-th (from 0) legal placement of ``shape`` in the enumeration
    order, or -1."""
    cols = st[B_COLS]
    o_first = st[orient_first_at(shape)]
    for o in range(o_first, o_first + st[orient_count_at(shape)]):
        for k in range(st[B_WORDS]):
            m = free_corners(
                st, o, k, st[sheet_at(seat, 0)], st[sheet_at(seat, 1)], st[sheet_at(seat, 2)], st[sheet_at(seat, 3)]
            )
            while m != 0:
                x = 64 * k + lowest_bit(m)
                m &= m - 1
                if j == 0:
                    return st[orient_at(o, O_FIRST)] + x - st[row_of_at(x)] * (cols - st[orient_at(o, O_SPAN)])
                j -= 1
    return -1


@njit(cache=True)
def any_legal(st, seat, shape):
    o_first = st[orient_first_at(shape)]
    for o in range(o_first, o_first + st[orient_count_at(shape)]):
        for k in range(st[B_WORDS]):
            if (
                free_corners(
                    st,
                    o,
                    k,
                    st[sheet_at(seat, 0)],
                    st[sheet_at(seat, 1)],
                    st[sheet_at(seat, 2)],
                    st[sheet_at(seat, 3)],
                )
                != 0
            ):
                return True
    return False


@njit(cache=True)
def score_of(st, seat):
    return st[score_at(seat)]
