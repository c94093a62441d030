"""Tag City's board file: the city sheet (grid, districts, values, remote), the
graffiti tiles and the HQ (ring, centre, faces, side B's pool).

The rulebook prints none of it; ``boards/default.toml`` is the specification's
reconstruction of side A, shipped byte for byte, and a user passes another
file with ``--board FILE.toml``.  The format (RULES.md, "Board files")::

    name = "..."            # optional
    source = "..."          # optional
    [sheet]   rows, cols, districts (one string per row, one character per cell),
              district_names, row_values, col_values, district_values ([high, low]
              pairs), remote (the drone remote's values)
    [shapes]  NAME = [[row, col], ...]  (1 to 24 tiles of 1 to 8 edge-connected cells)
    [hq]      ring_a, centre (tile names), faces (6 pairs of ring slots), pool_b

Every mistake is refused with one line naming the file, the key and what is
allowed (``balance.errors.UserError``).  Nothing here imports numba: the board
is checked, listed and drawn without compiling anything.

The placements a kernel scores are computed here too, once per board and
orientation rule (:func:`placements`): every allowed orientation of every tile
at every corner, in the specification's order.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from balance.errors import UserError

DEFAULT_BOARD = Path(__file__).with_name("boards") / "default.toml"
DEFAULT_NAME = "Tag City side A (reconstruction)"

MAX_SIDE = 16  # rows, cols: 2..16
MAX_CELLS = 256  # rows * cols
MAX_DISTRICTS = 16
MAX_TARGETS = 3 * MAX_SIDE  # rows + cols + districts
MAX_REMOTE = 16
MAX_TILES = 24
MAX_TILE_CELLS = 8
MAX_RING = 12
MAX_CENTRE = 6
MAX_VALUE = 1000  # |value| of a target or a remote box: keeps every sum an exact int64 (RULES.md)
N_FACES = 6

_TOP_KEYS = ("name", "source", "sheet", "shapes", "hq")
_REQUIRED_TOP = ("sheet", "shapes", "hq")
_SHEET_KEYS = (
    "rows",
    "cols",
    "districts",
    "district_names",
    "row_values",
    "col_values",
    "district_values",
    "remote",
)
_HQ_KEYS = ("ring_a", "centre", "faces", "pool_b")
ORIENTATION_RULES = ("all", "rotate", "fixed")


@dataclass(frozen=True, eq=False)
class TagBoard:
    """A validated board file (the file's data, unchanged) and what follows from it."""

    name: str
    source: str
    rows: int
    cols: int
    districts: tuple[str, ...]
    district_names: tuple[str, ...]
    row_values: tuple[tuple[int, int], ...]
    col_values: tuple[tuple[int, int], ...]
    district_values: tuple[tuple[int, int], ...]
    remote: tuple[int, ...]
    shapes: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]  # file order
    ring_a: tuple[str, ...]
    centre: tuple[str, ...]
    faces: tuple[tuple[int, int], ...]
    pool_b: tuple[str, ...]
    path: str = "default"
    # derived
    cell_district: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        index = {ch: i for i, ch in enumerate(self.district_names)}
        cells = tuple(index[ch] for row in self.districts for ch in row)
        object.__setattr__(self, "cell_district", cells)

    # ----- names and sizes -----------------------------------------------------
    @property
    def n_cells(self) -> int:
        return self.rows * self.cols

    @property
    def n_districts(self) -> int:
        return len(self.district_names)

    @property
    def n_targets(self) -> int:
        return self.rows + self.cols + self.n_districts

    @property
    def shape_names(self) -> list[str]:
        return [name for name, _ in self.shapes]

    def shape_index(self, name: str) -> int:
        return self.shape_names.index(name)

    def shape_cells(self, name: str) -> tuple[tuple[int, int], ...]:
        return dict(self.shapes)[name]

    def target(self, t: int) -> tuple[str, int]:
        """Target ``t`` as ("row" | "col" | "district", index): rows, then
        columns, then districts."""
        if t < self.rows:
            return "row", t
        if t < self.rows + self.cols:
            return "col", t - self.rows
        return "district", t - self.rows - self.cols

    def target_values(self, t: int) -> tuple[int, int]:
        kind, k = self.target(t)
        table = {"row": self.row_values, "col": self.col_values, "district": self.district_values}[kind]
        return table[k]

    def target_cells(self, t: int) -> list[int]:
        kind, k = self.target(t)
        if kind == "row":
            return [k * self.cols + c for c in range(self.cols)]
        if kind == "col":
            return [r * self.cols + k for r in range(self.rows)]
        return [i for i, d in enumerate(self.cell_district) if d == k]

    def cell_targets(self, cell: int) -> tuple[int, int, int]:
        r, c = divmod(cell, self.cols)
        return r, self.rows + c, self.rows + self.cols + self.cell_district[cell]

    def district_sizes(self) -> list[int]:
        return [self.cell_district.count(d) for d in range(self.n_districts)]


# --------------------------------------------------------------------------- loading
def load_board(path: str | Path | None = None) -> TagBoard:
    """The default board (``path=None``) or a user's board file; UserError if bad."""
    file = DEFAULT_BOARD if path is None else Path(path)
    label = f"board file {str(path if path is not None else file)!r}"
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{label} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{label} cannot be read: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{label} is not valid TOML: {exc}") from None
    return board_from_dict(data, label, path=str(file) if path is not None else "default")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def board_from_dict(data: Any, label: str = "board", path: str = "dict") -> TagBoard:
    """Validate a parsed board (the TOML's tables) into a :class:`TagBoard`."""

    def bad(msg: str) -> UserError:
        return UserError(f"{label}: {msg}")

    def keys(table: Any, where: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> None:
        if not isinstance(table, dict):
            raise bad(f"{where} must be a table with keys {', '.join(allowed)}")
        for key in table:
            if key not in allowed:
                raise bad(f"unknown key {where + '.' if where else ''}{key}; allowed: {', '.join(allowed)}")
        for key in required:
            if key not in table:
                raise bad(f"missing key {where + '.' if where else ''}{key}")

    keys(data, "", _TOP_KEYS, _REQUIRED_TOP)
    name = data.get("name", "")
    source = data.get("source", "")
    for key, value in (("name", name), ("source", source)):
        if not isinstance(value, str):
            raise bad(f"{key} must be a string")

    # ----- the sheet
    sheet = data["sheet"]
    keys(sheet, "sheet", _SHEET_KEYS, _SHEET_KEYS)
    rows, cols = sheet["rows"], sheet["cols"]
    for key, value in (("rows", rows), ("cols", cols)):
        if not _is_int(value) or not 2 <= value <= MAX_SIDE:
            raise bad(f"sheet.{key} = {value!r}: expected an integer in 2..{MAX_SIDE}")
    if rows * cols > MAX_CELLS:
        raise bad(f"sheet.rows x sheet.cols = {rows * cols}: at most {MAX_CELLS} cells")
    names = sheet["district_names"]
    if (
        not isinstance(names, list)
        or not 1 <= len(names) <= MAX_DISTRICTS
        or not all(isinstance(n, str) and len(n) == 1 for n in names)
        or len(set(names)) != len(names)
    ):
        raise bad(f"sheet.district_names: expected 1..{MAX_DISTRICTS} distinct one-character strings")
    grid = sheet["districts"]
    if not isinstance(grid, list) or len(grid) != rows:
        raise bad(f"sheet.districts: expected {rows} strings (one per row)")
    for r, line in enumerate(grid):
        if not isinstance(line, str) or len(line) != cols:
            raise bad(f"sheet.districts[{r}]: expected a string of {cols} characters")
        for c, ch in enumerate(line):
            if ch not in names:
                raise bad(f"sheet.districts[{r}] column {c}: {ch!r} is not a district; allowed: {', '.join(names)}")
    for d, ch in enumerate(names):
        if not any(ch in line for line in grid):
            raise bad(f"sheet.district_names: district {ch!r} has no cell")

    def pairs(key: str, n: int) -> tuple[tuple[int, int], ...]:
        value = sheet[key]
        if not isinstance(value, list) or len(value) != n:
            raise bad(f"sheet.{key}: expected {n} [high, low] pairs")
        for i, pair in enumerate(value):
            if not isinstance(pair, list) or len(pair) != 2 or not all(_is_int(x) for x in pair):
                raise bad(f"sheet.{key}[{i}] = {pair!r}: expected a pair of integers [high, low]")
            if not all(-MAX_VALUE <= x <= MAX_VALUE for x in pair):
                raise bad(f"sheet.{key}[{i}] = {pair!r}: values must lie in -{MAX_VALUE}..{MAX_VALUE}")
        return tuple((int(a), int(b)) for a, b in value)

    row_values = pairs("row_values", rows)
    col_values = pairs("col_values", cols)
    district_values = pairs("district_values", len(names))
    remote = sheet["remote"]
    if not isinstance(remote, list) or not 1 <= len(remote) <= MAX_REMOTE or not all(_is_int(x) for x in remote):
        raise bad(f"sheet.remote: expected 1..{MAX_REMOTE} integers")
    if not all(-MAX_VALUE <= x <= MAX_VALUE for x in remote):
        raise bad(f"sheet.remote: values must lie in -{MAX_VALUE}..{MAX_VALUE}")

    # ----- the tiles
    shapes = data["shapes"]
    if not isinstance(shapes, dict) or not 1 <= len(shapes) <= MAX_TILES:
        raise bad(f"[shapes]: expected 1..{MAX_TILES} tiles")
    tiles: list[tuple[str, tuple[tuple[int, int], ...]]] = []
    for tile, cells in shapes.items():
        where = f"shapes.{tile}"
        if not isinstance(cells, list) or not 1 <= len(cells) <= MAX_TILE_CELLS:
            raise bad(f"{where}: expected 1..{MAX_TILE_CELLS} cells [row, col]")
        got: list[tuple[int, int]] = []
        for cell in cells:
            if not isinstance(cell, list) or len(cell) != 2 or not all(_is_int(x) for x in cell):
                raise bad(f"{where}: cell {cell!r} is not a pair of integers [row, col]")
            if cell[0] < 0 or cell[1] < 0:
                raise bad(f"{where}: cell {cell!r} has a negative coordinate")
            if tuple(cell) in got:
                raise bad(f"{where}: cell {cell!r} is repeated")
            got.append((int(cell[0]), int(cell[1])))
        if not _connected(got):
            raise bad(f"{where}: the cells are not edge-connected (a tile is a polyomino)")
        tiles.append((str(tile), tuple(got)))
    known = [t for t, _ in tiles]

    # ----- the HQ
    hq = data["hq"]
    keys(hq, "hq", _HQ_KEYS, _HQ_KEYS)

    def tile_list(key: str, lo: int, hi: int) -> tuple[str, ...]:
        value = hq[key]
        if not isinstance(value, list) or not lo <= len(value) <= hi or not all(isinstance(x, str) for x in value):
            raise bad(f"hq.{key}: expected {lo}..{hi} tile names")
        for x in value:
            if x not in known:
                raise bad(f"hq.{key}: {x!r} is not a tile of [shapes]; allowed: {', '.join(known)}")
        return tuple(value)

    ring_a = tile_list("ring_a", 2, MAX_RING)
    centre = tile_list("centre", 0, MAX_CENTRE)
    faces = hq["faces"]
    if not isinstance(faces, list) or len(faces) != N_FACES:
        raise bad(f"hq.faces: expected exactly {N_FACES} pairs of ring slots (faces 1..6)")
    for v, pair in enumerate(faces, start=1):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(_is_int(x) and 0 <= x < len(ring_a) for x in pair)
            or pair[0] == pair[1]
        ):
            raise bad(
                f"hq.faces[{v - 1}] = {pair!r}: expected two distinct ring slots in 0..{len(ring_a) - 1} (face {v})"
            )
    pool_b = hq["pool_b"]
    if not isinstance(pool_b, list) or not all(isinstance(x, str) for x in pool_b):
        raise bad("hq.pool_b: expected a list of tile names")
    for x in pool_b:
        if x not in known:
            raise bad(f"hq.pool_b: {x!r} is not a tile of [shapes]; allowed: {', '.join(known)}")
    if len(set(pool_b)) != len(pool_b):
        raise bad("hq.pool_b: a tile is named twice")
    if len(pool_b) < len(ring_a):
        raise bad(f"hq.pool_b: {len(pool_b)} tiles, at least len(ring_a) = {len(ring_a)} needed for side B")

    return TagBoard(
        name=name,
        source=source,
        rows=rows,
        cols=cols,
        districts=tuple(grid),
        district_names=tuple(names),
        row_values=row_values,
        col_values=col_values,
        district_values=district_values,
        remote=tuple(int(x) for x in remote),
        shapes=tuple(tiles),
        ring_a=ring_a,
        centre=centre,
        faces=tuple((int(a), int(b)) for a, b in faces),
        pool_b=tuple(pool_b),
        path=path,
    )


def _connected(cells: list[tuple[int, int]]) -> bool:
    todo = [cells[0]]
    seen = {cells[0]}
    have = set(cells)
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in have and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


# --------------------------------------------------------------------------- as data
def board_json(board: TagBoard) -> dict[str, Any]:
    """The board file as JSON (the trace's ``setup.board``)."""
    return {
        "name": board.name,
        "source": board.source,
        "sheet": {
            "rows": board.rows,
            "cols": board.cols,
            "districts": list(board.districts),
            "district_names": list(board.district_names),
            "row_values": [list(v) for v in board.row_values],
            "col_values": [list(v) for v in board.col_values],
            "district_values": [list(v) for v in board.district_values],
            "remote": list(board.remote),
        },
        "shapes": {name: [list(c) for c in cells] for name, cells in board.shapes},
        "hq": {
            "ring_a": list(board.ring_a),
            "centre": list(board.centre),
            "faces": [list(f) for f in board.faces],
            "pool_b": list(board.pool_b),
        },
    }


def board_text(board: TagBoard) -> str:
    """The sheet drawn for the terminal: each cell its district's letter, each
    row and column its [high, low] values, then the districts, the tiles, the
    HQ and the remote."""
    width = max(3, max(len(f"{h}/{lo}") for h, lo in board.col_values) + 1)
    out = [f"{board.name or 'Tag City board'}: {board.rows} x {board.cols} sheet, {board.n_districts} districts"]
    if board.source:
        out.append(f"source: {board.source}")
    out.append("")
    out.append("     " + "".join(f"{c:>{width}}" for c in range(board.cols)) + "   row value")
    for r, line in enumerate(board.districts):
        h, lo = board.row_values[r]
        out.append(f"{r:>4} " + "".join(f"{ch:>{width}}" for ch in line) + f"   {h}/{lo}")
    out.append(" col " + "".join(f"{f'{h}/{lo}':>{width}}" for h, lo in board.col_values))
    out.append("")
    sizes = board.district_sizes()
    for d, ch in enumerate(board.district_names):
        h, lo = board.district_values[d]
        out.append(f"district {ch}: {sizes[d]} cells, {h}/{lo}")
    out.append("remote: " + " ".join(str(v) for v in board.remote))
    out.append("")
    for name, cells in board.shapes:
        out.append(f"tile {name} ({len(cells)} cells):")
        out.extend("    " + line for line in _tile_lines(cells))
    ring = ", ".join(f"{k}:{t}" for k, t in enumerate(board.ring_a))
    out.append(f"HQ ring (side A): {ring}")
    out.append("HQ centre (drone only): " + (", ".join(board.centre) or "none"))
    out.append(
        "faces: " + ", ".join(f"{v}->{board.ring_a[a]}/{board.ring_a[b]}" for v, (a, b) in enumerate(board.faces, 1))
    )
    out.append("side B pool: " + ", ".join(board.pool_b))
    return "\n".join(out)


def _tile_lines(cells: tuple[tuple[int, int], ...]) -> list[str]:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    h = max(r for r, _ in cells) - r0 + 1
    w = max(c for _, c in cells) - c0 + 1
    have = {(r - r0, c - c0) for r, c in cells}
    return ["".join("#" if (r, c) in have else "." for c in range(w)) for r in range(h)]


# --------------------------------------------------------------------------- placements
def orientations(cells: tuple[tuple[int, int], ...], rule: str) -> list[tuple[tuple[int, int], ...]]:
    """The allowed orientations of a tile in the specification's order: the
    printed cells, three successive quarter turns clockwise ((r, c) -> (c, -r)),
    the mirror image ((r, c) -> (r, -c)) and its three quarter turns (``rotate``:
    the first four, ``fixed``: the first); each normalised (smallest row and
    column 0, cells sorted), duplicates dropped, the first kept."""
    if rule not in ORIENTATION_RULES:
        raise ValueError(f"orientation rule {rule!r}")
    candidates = []
    shape = list(cells)
    for _ in range(4):
        candidates.append(shape)
        shape = [(c, -r) for r, c in shape]
    shape = [(r, -c) for r, c in cells]
    for _ in range(4):
        candidates.append(shape)
        shape = [(c, -r) for r, c in shape]
    keep = {"all": 8, "rotate": 4, "fixed": 1}[rule]
    out: list[tuple[tuple[int, int], ...]] = []
    for cand in candidates[:keep]:
        r0 = min(r for r, _ in cand)
        c0 = min(c for _, c in cand)
        norm = tuple(sorted((r - r0, c - c0) for r, c in cand))
        if norm not in out:
            out.append(norm)
    return out


@dataclass(frozen=True, eq=False)
class Placements:
    """Every placement of every tile on a sheet under one orientation rule.

    Tile ``s``'s placements are ``first[s] .. first[s] + count[s] - 1``, in the
    specification's order (orientation, then top-left corner row-major).
    ``cells[p]`` are the sheet cells (``row * cols + col``, sorted)."""

    first: tuple[int, ...]
    count: tuple[int, ...]
    shape: tuple[int, ...]
    cells: tuple[tuple[int, ...], ...]
    # per orientation, in order: (tile, first placement, its normalised cells,
    # height, width); tile s's orientations are orient_first[s] .. + orient_count[s] - 1
    orients: tuple[tuple[int, int, tuple[tuple[int, int], ...], int, int], ...] = ()
    orient_first: tuple[int, ...] = ()
    orient_count: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.shape)


@lru_cache(maxsize=32)
def placements(board: TagBoard, rule: str) -> Placements:
    first, count, shape, cells = [], [], [], []
    orients, orient_first, orient_count = [], [], []
    for s, (_, tile) in enumerate(board.shapes):
        first.append(len(shape))
        orient_first.append(len(orients))
        for orient in orientations(tile, rule):
            h = max(r for r, _ in orient) + 1
            w = max(c for _, c in orient) + 1
            orients.append((s, len(shape), orient, h, w))
            for r0 in range(board.rows - h + 1):
                for c0 in range(board.cols - w + 1):
                    shape.append(s)
                    cells.append(tuple(sorted((r0 + r) * board.cols + c0 + c for r, c in orient)))
        count.append(len(shape) - first[-1])
        orient_count.append(len(orients) - orient_first[-1])
    return Placements(
        tuple(first), tuple(count), tuple(shape), tuple(cells), tuple(orients), tuple(orient_first), tuple(orient_count)
    )


def value_scale(board: TagBoard) -> tuple[int, bool]:
    """The integer ``L`` the players' values are scaled by, and whether it is
    exact: lcm(1..longest target) when it fits an exact int64 sum, else 2**42
    (RULES.md, "Players")."""
    longest = max(board.cols, board.rows, *board.district_sizes())
    lcm = 1
    for e in range(1, longest + 1):
        lcm = lcm * e // math.gcd(lcm, e)
    if lcm <= 2**42:
        return lcm, True
    return 2**42, False
