"""The state every game's kernel shares: one flat ``int64`` array per game in play.

Why one flat array: numba increfs every array argument of a call, and with
more than one array argument LLVM's tail merging defeats numba's refcount
pruning, so every call costs atomic operations per array.  One array, seen
through an unmanaged view (:func:`balance.engine` passes one down), costs
nothing.  Hence every compiled function of a game, and every player, takes
``st`` (plus scalars) and nothing else; the game's random stream lives in
``st`` too.

Layout of a state (slots of ``int64``)::

    [0, HEADER_END)            the header below: the same slots in every game
    [HEADER_END, CORE)         the game's own regions (its Layout, below):
                                 static regions (rules, board tables), then one
                                 contiguous dynamic span [DYNAMIC_AT, DYNAMIC_END)
                                 that changes during a game, then more static ones
    [EVENTS_AT, +EVENT_ROWS*EVENT_WIDTH)   trace rows (traced games only)
    [SCRATCH_AT, +CORE)        a second state of the same game: the search
                               player's workspace (only when ``mc`` is seated)

A game's state *image* (``GameSpec.encode``) is the first CORE slots with the
static regions filled; the engine copies it into each worker's state once and
resets the header and the dynamic span before every game.

The header (all slots are plain integers unless said otherwise):

    set once per state     SIZE, CORE, DYNAMIC_AT, DYNAMIC_END, EVENTS_AT,
                           EVENT_ROWS, SCRATCH_AT (0: none), N_SEATS,
                           HEAT_AT and HEAT_CELLS (a game that opts into a
                           per-cell heatmap: a dynamic region of HEAT_CELLS
                           slots it sets during a game, summed over games),
                           SCRIPT_LEN and SCRIPT (forced draws, hand-built tests),
                           the search player's table (CANDIDATES, ARM_VALUE,
                           ARM_DIFF, ARM_SQUARES, ARM_ALIVE, ARM_HASH: it sets them
                           itself), HEURISTIC_DEFAULTS (each heuristic's default
                           parameter values), LENT_PARAMS (lend_params), FEEL_TURNS
                           and the game-feel counters FEEL (F_* slots; reset by
                           the engine's play_game, never copied into a search)
    reset every game       SEED and GAME (the game's identity: search streams
                           derive from them), TURN (player turns begun), SEAT
                           (whose turn; -1 before the first), WINNER (-1: none),
                           END_REASON (-1 while the game goes on), DECIDER,
                           DECISION, SUBJECT (the pending decision: who is asked,
                           what kind, about what; DECIDER -1 when none), RECORD
                           (1: write trace rows), N_EVENTS, SCRIPT_POS,
                           SEARCHING (1 in a search playout), SEARCHES (decisions
                           searched this game), SEARCH_PLAYOUTS (playouts they
                           used), SEARCH_DEVIATIONS (answers that were not the
                           rollout policy's), RNG (2 slots read as uint64),
                           SEATING (player index per seat), PLAYER_PARAMS (per
                           seat, MAX_PLAYER_PARAMS values), SCORE (per seat: the
                           outcome's score), MEMORY (per seat, a player's own
                           scratch).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from balance.rng import rng_below_at

MAX_SEATS = 6  # every game plays at most this many seats
MAX_PLAYER_PARAMS = 16  # parameter values per seat
MC_PARAMS = 8  # the search player's own values start here; slots 0..7 hold its rollout policy's
MEMORY_SLOTS = 16  # a player's own scratch per seat, zeroed every game
EVENT_WIDTH = 8  # trace row: kind, turn, then six values the game defines
MAX_CANDIDATES = 64  # answers one search may compare
MAX_SCRIPT = 64  # forced random draws of a hand-built position
MAX_HEURISTICS = 16  # heuristic players a game may have
FEEL_RING = 64  # round-end samples of leader and last place a game keeps (then every 2nd, 4th, ...)
# The game-feel counters, slots FEEL + i (balance.engine.feel_note):
F_SAMPLES = 0  # standings sampled so far (round ends, then the game's end)
F_NEXT_TURN = 1  # the next round-end sample comes at the first decision after this turn
F_LEADER = 2  # the seat strictly ahead at the last sample; -1 a tie at the top; -2 before any
F_LEADER_SINCE = 3  # the sample from which F_LEADER has been it at every sample
F_LAST_LEADER = 4  # the last seat that was strictly ahead (-1: none yet)
F_CHANGES = 5  # lead changes: a different seat strictly ahead than the last one that was
F_TRAILER = 6  # the seat strictly last at the last sample; -1 a tie
F_MARGIN = 7  # the leader's standing minus the next best at the last sample
F_ROUND_MARGIN = 8  # the same at the last round-end sample
F_STRIDE = 9  # the ring keeps samples F_STRIDE, 2 F_STRIDE, ...
F_KEPT = 10  # samples in the ring
F_VALUES = 11  # MAX_SEATS: each seat's standing at the last sample
F_BOTTOM_SINCE = F_VALUES + MAX_SEATS  # MAX_SEATS: the sample from which the seat has been last (ties too); 0: not last
F_LEADER_AT_BOTTOM = F_BOTTOM_SINCE + MAX_SEATS  # MAX_SEATS: F_LEADER at that sample
F_RING_AT = F_LEADER_AT_BOTTOM + MAX_SEATS  # FEEL_RING samples, each (leader + 1) + (trailer + 1) * FEEL_PACK
FEEL_SLOTS = F_RING_AT + FEEL_RING
FEEL_PACK = 16


class Region(int):
    """A named region of a state: its name, shape, meaning and where it lies.

    Declared by a game's :class:`Layout` (``LAYOUT.dynamic("aboard",
    (MAX_BOATS, CAPACITY), "passengers in each boat")``).  As an ``int`` it
    is the region's first slot, so a one-slot region reads ``st[PHASE]``; a
    region of several slots is addressed through its compiled helpers, never by
    offset arithmetic (``tests/test_layout.py`` greps every game for that):

    ``index(i, j, ...)``   the slot of element ``[i, j, ...]`` (one index per
                           axis): ``st[aboard_at(seat, k)] = c``
    ``uindex(i, j, ...)``  the same slot as ``np.uint64``: numba guards a read
                           at a signed index against a negative one, in every
                           chain of dependent reads; at an unsigned one it
                           does not (a hot loop's reads, docs/speed-history.md)
    ``row(i)``             the first slot of row ``i`` (regions of 2+ axes)
    ``view(st)``           the whole region as a flat array view of ``st``
    ``row_view(st, i)``    row ``i`` as a flat view (regions of 2+ axes)
    ``in_row(r, j)``       the slot of element ``j`` of the row whose first
                           slot is ``r`` (from ``row``): a record found once,
                           then read field by field (regions of 2 axes)

    All compile inline (``inline="always"``): the same machine code as the
    offset arithmetic they replace.

    A *placed* region (:meth:`Layout.placed`) has a size that depends on the
    board: its slot, the int value, holds where the region lies in a state,
    set when a board's layout places it (:meth:`Layout.place`); an axis of its
    shape may be a scalar region's name, whose value in the state is its
    length.  Its helpers take ``st`` first: ``st[d0_at(st, a, b)]``.
    """

    name: str
    shape: tuple[int | str, ...]
    meaning: str
    dynamic: bool
    placed: bool

    def __new__(
        cls,
        at: int,
        name: str,
        shape: tuple[int | str, ...],
        meaning: str,
        dynamic: bool,
        placed: bool = False,
        dims: tuple[tuple[bool, int], ...] = (),
    ) -> "Region":
        self = super().__new__(cls, at)
        self.name = name
        self.shape = tuple(shape)
        self.meaning = meaning
        self.dynamic = dynamic
        self.placed = placed
        self._dims = dims  # per axis: (read from the state, the length or its slot)
        self._helpers: dict[str, Any] = {}
        return self

    # repr stays int's: numba writes a global constant into LLVM IR by its repr.
    def info(self) -> str:
        kind = "placed " if self.placed else ""
        return f"{self.name}: {kind}{'dynamic' if self.dynamic else 'static'} {self.shape} at {int(self)}, {self.meaning}"

    def __reduce__(self) -> Any:
        return (Region, (int(self), self.name, self.shape, self.meaning, self.dynamic, self.placed, self._dims))

    @property
    def size(self) -> int:
        """Slots of a fixed region (a placed one: see :meth:`extent`)."""
        if self.placed:
            raise TypeError(f"region {self.name!r} is placed per board: its size is in the state (extent)")
        n = 1
        for d in self.shape:
            n *= int(d)
        return n

    def extent(self, st: Any) -> tuple[int, tuple[int, ...]]:
        """Where the region lies in ``st`` and its shape there (from Python)."""
        if not self.placed:
            return int(self), tuple(int(d) for d in self.shape)
        shape = tuple(int(st[v]) if from_state else int(v) for from_state, v in self._dims)
        return int(st[int(self)]), shape

    def values(self, st: Any) -> np.ndarray:
        """The region's values in ``st``, shaped (from Python; a copy)."""
        at, shape = self.extent(st)
        n = 1
        for d in shape:
            n *= d
        return np.array(st[at : at + n]).reshape(shape)

    @property
    def slots(self) -> slice:
        """The region's slots as a slice of a state (a fixed region; Python)."""
        return slice(int(self), int(self) + self.size)

    def put(self, st: Any, values: Any) -> None:
        """Write ``values`` (any shape with the region's size) into the region
        of ``st`` or an image (Python; a placed region where ``st`` places it)."""
        at, shape = self.extent(st)
        flat = np.asarray(values, dtype=np.int64).ravel()
        n = 1
        for d in shape:
            n *= d
        if flat.shape[0] != n:
            raise ValueError(f"region {self.name!r} has {n} slots: {flat.shape[0]} values given")
        st[at : at + n] = flat

    # ----- compiled helpers -------------------------------------------------
    def _helper(self, kind: str) -> Any:
        fn = self._helpers.get(kind)
        if fn is None:
            fn = self._helpers[kind] = _make_helper(self, kind)
        return fn

    @property
    def index(self) -> Any:
        return self._helper("index")

    @property
    def uindex(self) -> Any:
        return self._helper("uindex")

    @property
    def row(self) -> Any:
        return self._helper("row")

    @property
    def view(self) -> Any:
        return self._helper("view")

    @property
    def row_view(self) -> Any:
        return self._helper("row_view")

    @property
    def in_row(self) -> Any:
        return self._helper("in_row")


def _make_helper(region: Region, kind: str) -> Any:
    """Compile one of a region's helpers: a closure over its constants, inlined
    into every caller by numba (so never cached on its own)."""
    nd = len(region.shape)
    if nd == 0:
        raise TypeError(f"region {region.name!r} is one slot: read st[{region.name.upper()}]")
    if kind in ("row", "row_view", "in_row") and nd < 2:
        raise TypeError(f"region {region.name!r} has one axis: it has no rows (index or view)")
    if kind == "in_row" and nd != 2:
        raise TypeError(f"region {region.name!r} has {nd} axes: in_row reads a row of a 2-axis region")
    if kind == "in_row":

        def in_row(r, j):
            return r + j

        fn = in_row
    elif region.placed:
        fn = _placed_helper(int(region), region._dims, kind)
    else:
        dims = tuple(int(d) for d in region.shape)
        fn = _fixed_helper(int(region), dims, kind)
    fn.__name__ = f"{region.name}_{kind}"
    fn.__qualname__ = f"Region.{region.name}_{kind}"
    fn.__doc__ = f"{kind} of the region {region.name!r}, {region.shape}: {region.meaning}"
    fn._layout_helper = True  # balance.gpu clones it for a GPU kernel wherever it is bound
    return njit(inline="always")(fn)


def _fixed_helper(at: int, dims: tuple[int, ...], kind: str) -> Any:
    nd = len(dims)
    cast = np.uint64 if kind == "uindex" else np.int64  # the offset's type (index, uindex)
    size = 1
    for d in dims:
        size *= d
    s0 = size // dims[0]  # slots per row
    s1 = s0 // dims[1] if nd >= 2 else 1
    s2 = s1 // dims[2] if nd >= 3 else 1
    if kind == "view":

        def view(st):
            return st[at : at + size]

        return view
    if kind == "row":

        def row(i):
            return at + i * s0

        return row
    if kind == "row_view":

        def row_view(st, i):
            lo = at + i * s0
            return st[lo : lo + s0]

        return row_view
    if nd == 1:

        def index1(i):
            return cast(at + i)

        return index1
    if nd == 2:

        def index2(i, j):
            return cast(at + i * s0 + j)

        return index2
    if nd == 3:

        def index3(i, j, k):
            return cast(at + i * s0 + j * s1 + k)

        return index3
    if nd == 4:

        def index4(i, j, k, m):
            return cast(at + i * s0 + j * s1 + k * s2 + m)

        return index4
    raise TypeError("a region has at most 4 axes")


def _placed_helper(slot: int, dims: tuple[tuple[bool, int], ...], kind: str) -> Any:
    nd = len(dims)
    cast = np.uint64 if kind == "uindex" else np.int64  # the offset's type (index, uindex)
    # per axis: read its length from slot v of the state, or the constant v
    f0, v0 = dims[0]
    f1, v1 = dims[1] if nd >= 2 else (False, 1)
    f2, v2 = dims[2] if nd >= 3 else (False, 1)
    if nd > 3:
        raise TypeError("a placed region has at most 3 axes")

    if kind == "view":

        def view(st):
            n = (st[v0] if f0 else v0) * (st[v1] if f1 else v1) * (st[v2] if f2 else v2)
            at = st[slot]
            return st[at : at + n]

        return view
    if kind == "row":

        def row(st, i):
            return st[slot] + i * ((st[v1] if f1 else v1) * (st[v2] if f2 else v2))

        return row
    if kind == "row_view":

        def row_view(st, i):
            s0 = (st[v1] if f1 else v1) * (st[v2] if f2 else v2)
            lo = st[slot] + i * s0
            return st[lo : lo + s0]

        return row_view
    if nd == 1:

        def index1(st, i):
            return cast(st[slot] + i)

        return index1
    if nd == 2:

        def index2(st, i, j):
            return cast(st[slot] + i * (st[v1] if f1 else v1) + j)

        return index2

    def index3(st, i, j, k):
        d2 = st[v2] if f2 else v2
        return cast(st[slot] + (i * (st[v1] if f1 else v1) + j) * d2 + k)

    return index3


class Layout:
    """Regions of a flat ``int64`` state, allotted in order, each with a name,
    a shape and a meaning.

    A game declares its static regions (rules, fixed tables) and its dynamic
    ones (what changes during a game), all dynamic regions in one contiguous
    span::

        LAYOUT = Layout()                 # starts after the shared header
        PARAMS = LAYOUT.static("params", (N_PARAMS,), "the rule parameters")
        PHASE = LAYOUT.dynamic("phase", (), "where the turn stands")
        ABOARD = LAYOUT.dynamic("aboard", (MAX_BOATS, CAPACITY), "passengers in each boat")
        aboard_at = ABOARD.index          # st[aboard_at(boat, k)]

    Each declaration returns a :class:`Region` (an ``int``: its first slot).
    A region whose size depends on the board is declared ``placed`` (one static
    slot that holds where it lies) and placed on a copy made per board
    (``layout.copy()``, then ``layout.place(REGION, size)``); the copy's
    :meth:`image` records where.  :func:`describe` prints a state region by
    region, by name.  ``static(size)`` and ``dynamic(size)`` with a bare size
    allot an unnamed block (the shared machinery's own scratch).
    """

    def __init__(self, start: int | None = None) -> None:
        self.size = HEADER_END if start is None else start
        self.dynamic_at: int | None = None
        self.dynamic_end: int | None = None
        self.regions: list[Region] = []
        self.placements: dict[str, int] = {}

    def static(self, size: int | str, shape: Any = None, meaning: str = "") -> Any:
        """A region set once per state (by the image): ``static(name, shape,
        meaning)`` declares a :class:`Region`; ``static(size)`` allots an unnamed
        block and returns its offset."""
        if isinstance(size, str):
            return self._declare(size, shape, meaning, dynamic=False)
        if self.dynamic_at is not None and self.dynamic_end is None:
            self.dynamic_end = self.size
        return self._take(size)

    def dynamic(self, size: int | str, shape: Any = None, meaning: str = "") -> Any:
        """A region reset to zero before every game: ``dynamic(name, shape,
        meaning)`` declares a :class:`Region`; ``dynamic(size)`` allots an
        unnamed block and returns its offset."""
        if isinstance(size, str):
            return self._declare(size, shape, meaning, dynamic=True)
        if self.dynamic_end is not None:
            raise ValueError("dynamic regions must be contiguous: allot them before the later static ones")
        if self.dynamic_at is None:
            self.dynamic_at = self.size
        return self._take(size)

    def placed(self, name: str, shape: Any, meaning: str, *, dynamic: bool = False) -> Region:
        """A region whose size depends on the board: declared here (one static
        slot, which will hold where it lies), placed on each board's copy of
        the layout by :meth:`place`.  An axis of ``shape`` is a length or the
        name of a scalar region of this layout that holds it."""
        shape = _shape(name, shape)
        dims = []
        for d in shape:
            if isinstance(d, str):
                dims.append((True, int(self.region(d))))
            else:
                dims.append((False, int(d)))
        self._check_name(name)
        slot = self.static(1)
        region = Region(slot, name, shape, meaning, dynamic, placed=True, dims=tuple(dims))
        self.regions.append(region)
        return region

    def place(self, region: Region, size: int) -> int:
        """Allot the placed ``region`` (``size`` slots) on this board's layout;
        :meth:`image` writes where into the region's slot.  Returns the offset."""
        if not region.placed or region not in self.regions:
            raise ValueError(f"{region!r} is not a placed region of this layout")
        at = self.dynamic(size) if region.dynamic else self.static(size)
        self.placements[region.name] = at
        return at

    def region(self, name: str) -> Region:
        for r in self.regions:
            if r.name == name:
                return r
        raise KeyError(f"no region {name!r}: regions are {', '.join(r.name for r in self.regions)}")

    def _check_name(self, name: str) -> None:
        if not name.isidentifier() or name != name.lower():
            raise ValueError(f"region name {name!r}: a lower-case identifier")
        if any(r.name == name for r in self.regions):
            raise ValueError(f"region {name!r} declared twice")

    def _declare(self, name: str, shape: Any, meaning: str, dynamic: bool) -> Region:
        shape = _shape(name, shape)
        if any(isinstance(d, str) for d in shape):
            raise ValueError(f"region {name!r}: a shape read from the state needs Layout.placed")
        self._check_name(name)
        n = 1
        for d in shape:
            n *= int(d)
        at = self.dynamic(n) if dynamic else self.static(n)
        region = Region(at, name, shape, meaning, dynamic)
        self.regions.append(region)
        return region

    def _take(self, size: int) -> int:
        if size < 0:
            raise ValueError("a region has a size of at least 0")
        at = self.size
        self.size += int(size)
        return at

    def copy(self) -> "Layout":
        out = Layout(self.size)
        out.__dict__.update(self.__dict__)
        out.regions = list(self.regions)
        out.placements = dict(self.placements)
        return out

    def heat(self, cells: int) -> int:
        """The dynamic region of a per-cell heatmap (how often each cell of a
        sheet or board is used, summed over games by the engine)."""
        self.heat_cells = int(cells)
        self.heat_at = self.dynamic(cells)
        return self.heat_at

    def image(self) -> np.ndarray:
        """Zeros of the layout's size with the shared header's sizes set and
        every placed region's offset in its slot."""
        dynamic_at = self.size if self.dynamic_at is None else self.dynamic_at
        dynamic_end = self.size if self.dynamic_end is None else self.dynamic_end
        image = np.zeros(self.size, np.int64)
        image[SIZE] = image[CORE] = self.size
        image[DYNAMIC_AT] = dynamic_at
        image[DYNAMIC_END] = max(dynamic_at, dynamic_end)
        if getattr(self, "heat_cells", 0):
            image[HEAT_AT] = self.heat_at
            image[HEAT_CELLS] = self.heat_cells
        for name, at in self.placements.items():
            image[int(self.region(name))] = at
        return image


def _shape(name: str, shape: Any) -> tuple[Any, ...]:
    if shape is None:
        raise ValueError(f"region {name!r}: give its shape (() for one slot)")
    if isinstance(shape, (int, np.integer, str)):
        shape = (shape,)
    out = tuple(d if isinstance(d, str) else int(d) for d in shape)
    if any(not isinstance(d, str) and d < 0 for d in out):
        raise ValueError(f"region {name!r}: negative length in {out}")
    return out


_header = Layout(0)
# set once per state
SIZE = _header.static("size", (), "slots of the whole state")
CORE = _header.static("core", (), "slots of the game's own state (a search copy's size)")
DYNAMIC_AT = _header.static("dynamic_at", (), "first slot of the span reset before every game")
DYNAMIC_END = _header.static("dynamic_end", (), "end of that span")
EVENTS_AT = _header.static("events_at", (), "first slot of the trace rows (traced games)")
EVENT_ROWS = _header.static("event_rows", (), "trace rows room is kept for (the last one a sink)")
SCRATCH_AT = _header.static("scratch_at", (), "first slot of the search's workspace (0: none)")
N_SEATS = _header.static("n_seats", (), "seats in play")
HEAT_AT = _header.static("heat_at", (), "first slot of a per-cell heatmap (a dynamic region; 0: none)")
HEAT_CELLS = _header.static("heat_cells", (), "cells in it")
SCRIPT_LEN = _header.static("script_len", (), "forced draws of a hand-built position")
SCRIPT = _header.static("script", (MAX_SCRIPT,), "the forced draws, in order")
# The search player's table, one row per answer it compares (balance.engine):
CANDIDATES = _header.static("candidates", (MAX_CANDIDATES,), "the answers a search compares")
ARM_VALUE = _header.static("arm_value", (MAX_CANDIDATES,), "summed playout values per answer")
ARM_DIFF = _header.static(
    "arm_diff", (MAX_CANDIDATES,), "summed differences to the rollout policy's answer, round by round"
)
ARM_SQUARES = _header.static("arm_squares", (MAX_CANDIDATES,), "summed squares of those differences")
ARM_ALIVE = _header.static("arm_alive", (MAX_CANDIDATES,), "1 while the answer is still raced")
ARM_HASH = _header.static("arm_hash", (MAX_CANDIDATES,), "a hash of the answer's playout values, round by round")
SEARCH_TABLE_END = _header.size
# Every heuristic's default parameter values (MC_PARAMS each, set by the
# toolkit in every image), and the search player's own values while a search
# menu asks another heuristic in its seat (lend_params).
HEURISTIC_DEFAULTS = _header.static(
    "heuristic_defaults", (MAX_HEURISTICS, MC_PARAMS), "every heuristic's default parameter values"
)
LENT_PARAMS = _header.static("lent_params", (MC_PARAMS,), "the search player's own values while lent (lend_params)")
# The game-feel counters (balance.engine.feel_sample): the standing sampled at
# every round end, reset by play_game.  Outside the span a search copy copies,
# so searching never touches them.  FEEL_TURNS: player turns per round (the
# image; 0: one per seat).
FEEL_TURNS = _header.static("feel_turns", (), "player turns per round (0: one per seat)")
FEEL = _header.static("feel", (FEEL_SLOTS,), "the game-feel counters (F_* slots)")
# reset every game (RESET_AT .. HEADER_END)
RESET_AT = _header.size
SEED = _header.static("seed", (), "the master seed (the game's identity, with GAME)")
GAME = _header.static("game", (), "the game's index in the seed's sequence")
TURN = _header.static("turn", (), "player turns begun")
SEAT = _header.static("seat", (), "whose turn it is (-1 before the first)")
WINNER = _header.static("winner", (), "the winning seat (-1: none)")
END_REASON = _header.static("end_reason", (), "why the game ended (-1 while it goes on)")
DECIDER = _header.static("decider", (), "the seat asked to decide (-1: none)")
DECISION = _header.static("decision", (), "the kind of the pending decision")
SUBJECT = _header.static("subject", (), "what the pending decision is about")
RECORD = _header.static("record", (), "1: trace rows are written")
N_EVENTS = _header.static("n_events", (), "trace rows written")
SCRIPT_POS = _header.static("script_pos", (), "forced draws used")
SEARCHING = _header.static("searching", (), "1 inside a search playout")
SEARCHES = _header.static("searches", (), "decisions searched this game")
SEARCH_PLAYOUTS = _header.static("search_playouts", (), "playouts those searches used")
SEARCH_DEVIATIONS = _header.static("search_deviations", (), "searched answers that were not the rollout policy's")
RNG = _header.static("rng", (2,), "the game's random stream (read as uint64)")
SEATING = _header.static("seating", (MAX_SEATS,), "the player index of each seat")
PLAYER_PARAMS = _header.static(
    "player_params", (MAX_SEATS, MAX_PLAYER_PARAMS), "each seat's player parameter values"
)
SCORE = _header.static("score", (MAX_SEATS,), "each seat's score (the outcome)")
MEMORY = _header.static("memory", (MAX_SEATS, MEMORY_SLOTS), "each seat's player scratch, zeroed every game")
HEADER_END = _header.size
HEADER_REGIONS = tuple(_header.regions)
_PER_SEAT = (SEATING, PLAYER_PARAMS, SCORE, MEMORY)  # describe shows the seats in play
del _header

# Compiled helpers of the header regions a game or a player addresses.
score_at = SCORE.index  # st[score_at(seat)]
seating_at = SEATING.index  # st[seating_at(seat)]: the seat's player index
memory_at = MEMORY.index  # st[memory_at(seat, i)]
player_params_at = PLAYER_PARAMS.index  # st[player_params_at(seat, k)]


def _heat_cell_at(st, cell):
    """The slot of ``cell`` in the game's heatmap (``Layout.heat``: the header's
    HEAT_AT region, summed over games by the engine): ``st[heat_cell_at(st, c)] += 1``."""
    return st[HEAT_AT] + cell


_heat_cell_at._layout_helper = True  # balance.gpu clones it wherever it is bound
heat_cell_at = njit(inline="always")(_heat_cell_at)

VALUE_SCALE = 1000  # a playout's value for the searching seat: 0 (lost) .. VALUE_SCALE (won)
NO_SEAT = np.int64(-1)


# --------------------------------------------------------------------------- describe
def describe(
    st: Any, layout: Layout | None = None, *, static: bool = False, header: bool = True, width: int = 100
) -> str:
    """A state, region by region, by name, shape and meaning (from Python).

    ``layout``: the game's (its ``state.LAYOUT``, or the per-board copy; placed
    regions are read from the state either way).  Shown: the shared header's
    per-game slots (``header``), the game's dynamic regions, and with
    ``static`` its static ones too (rules and board tables).  Long regions are
    summarised (numpy's threshold)."""
    st = np.asarray(st)
    sections: list[tuple[str, list[Region]]] = []
    if layout is not None:
        sections.append(("the game's dynamic regions (reset every game)", [r for r in layout.regions if r.dynamic]))
    if header:
        sections.append(("the shared header (reset every game)", [r for r in HEADER_REGIONS if int(r) >= RESET_AT]))
    if layout is not None and static:
        sections.append(("the game's static regions (rules and board)", [r for r in layout.regions if not r.dynamic]))
    n_seats = int(st[N_SEATS]) if st.shape[0] > N_SEATS else MAX_SEATS
    name_w = max([len(r.name) for _, rs in sections for r in rs] or [4])
    lines: list[str] = []
    for title, regions in sections:
        if not regions:
            continue
        lines.append(f"{title}:")
        for r in regions:
            try:
                values = r.values(st)
            except (IndexError, ValueError):
                lines.append(f"  {r.name:<{name_w}}  (not placed in this state)  {r.meaning}")
                continue
            if any(r is x for x in _PER_SEAT) and 0 < n_seats <= MAX_SEATS:
                values = values[:n_seats]  # the seats in play
            if values.ndim == 0:
                lines.append(f"  {r.name:<{name_w}}  = {int(values):<10} {r.meaning}")
                continue
            head = f"  {r.name:<{name_w}}  [{'x'.join(str(d) for d in values.shape)}]"
            text = np.array2string(values, max_line_width=width - 4, threshold=256, edgeitems=6, separator=" ")
            lines.append(f"{head}    {r.meaning}")
            lines.extend("      " + line for line in text.splitlines())
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- helpers
@njit(cache=True)
def draw_below(st, n):
    """A uniform integer in [0, n) from the game's stream; in a hand-built
    position, the next forced draw while any is left (SCRIPT)."""
    if st[SCRIPT_POS] < st[SCRIPT_LEN]:
        v = st[SCRIPT + st[SCRIPT_POS]]
        st[SCRIPT_POS] += 1
        return v
    return rng_below_at(st, RNG, n)


@njit(cache=True)
def shuffle(st, lo, hi):
    """Shuffle ``st[lo:hi]`` in place with the game's stream: Fisher-Yates from
    the last slot down (the draws of ``balance.rng.rng_shuffle``)."""
    for i in range(hi - 1, lo, -1):
        j = lo + draw_below(st, np.int64(i - lo + 1))
        t = st[i]
        st[i] = st[j]
        st[j] = t


@njit(cache=True)
def ask(st, seat, kind, subject):
    """Make ``seat`` the one to decide: a decision of ``kind`` about ``subject``.

    A game's ``advance`` calls this and returns; the engine asks the seat's
    player and hands the answer to the game's ``apply``."""
    st[DECIDER] = seat
    st[DECISION] = kind
    st[SUBJECT] = subject


@njit(cache=True)
def end_game(st, reason, winner):
    """The game is over: ``reason`` indexes the game's end reasons, ``winner`` a
    seat or -1."""
    st[END_REASON] = reason
    st[WINNER] = winner
    st[DECIDER] = -1


@njit(cache=True)
def event(st, kind):
    """Offset of the next trace row, zeroed, its kind and turn filled in; the
    caller fills slots 2..7 and calls this only while ``st[RECORD]``.  Rows past
    the region's end go to its last row (a sink) and the count still grows, so
    an overflow is detected afterwards (never silently truncated)."""
    i = st[N_EVENTS]
    st[N_EVENTS] = i + 1
    at = st[EVENTS_AT] + min(i, st[EVENT_ROWS] - 1) * EVENT_WIDTH
    st[at : at + EVENT_WIDTH] = 0
    st[at] = kind
    st[at + 1] = st[TURN]
    return at


@njit(cache=True, inline="always")
def unsigned(i):
    """An index as an unsigned integer, for ``view[unsigned(i)]``: numba
    guards a read at a signed index against a negative one (Python's ``a[-1]``
    counts from the end) with a compare and a conditional move; at an unsigned
    index a read or a write is a plain access, and LLVM may vectorize a loop
    over consecutive ones.  Only for an index that is never negative (a
    region's own offsets: ``uindex``)."""
    return np.uint64(i)


@njit(cache=True)
def player_param(st, seat, k):
    """The ``k``-th parameter value of the player in ``seat`` (int, bool as 0/1,
    a choice as its index)."""
    return st[PLAYER_PARAMS + seat * MAX_PLAYER_PARAMS + k]


@njit(cache=True)
def player_param_float(st, seat, k):
    """A float parameter of the player in ``seat`` (stored as its bits)."""
    i = PLAYER_PARAMS + seat * MAX_PLAYER_PARAMS + k
    return st[i : i + 1].view(np.float64)[0]


MC_ROLLOUT_POLICY_SLOT = MC_PARAMS + 1  # balance.engine.MC_ROLLOUT_POLICY


@njit(cache=True)
def lend_params(st, seat, heuristic):
    """Before a search menu (a game's ``candidates``) asks ``heuristic`` for
    its answer in the searching ``seat``: that seat's parameter slots hold its
    rollout policy's values, so unless ``heuristic`` is that policy they are
    set to ``heuristic``'s defaults (the policy's kept in LENT_PARAMS).
    Returns whether they were; hand it to ``return_params`` after the call."""
    own = PLAYER_PARAMS + seat * MAX_PLAYER_PARAMS
    if st[own + MC_ROLLOUT_POLICY_SLOT] == heuristic:
        return False
    for k in range(MC_PARAMS):
        st[LENT_PARAMS + k] = st[own + k]
        st[own + k] = st[HEURISTIC_DEFAULTS + heuristic * MC_PARAMS + k]
    return True


@njit(cache=True)
def return_params(st, seat, lent):
    """Undo ``lend_params`` (when it lent)."""
    if lent:
        own = PLAYER_PARAMS + seat * MAX_PLAYER_PARAMS
        for k in range(MC_PARAMS):
            st[own + k] = st[LENT_PARAMS + k]


@njit(cache=True)
def memory(st, seat, i):
    """Slot ``i`` (< MEMORY_SLOTS) of the player's own scratch in ``seat``."""
    return st[MEMORY + seat * MEMORY_SLOTS + i]


@njit(cache=True)
def remember(st, seat, i, value):
    st[MEMORY + seat * MEMORY_SLOTS + i] = value


# --------------------------------------------------------------------------- the trace, declared once
@njit(cache=True)
def event_value(at, k):
    """The slot of value ``k`` (0..5) of the trace row at ``at`` (from :func:`event`)."""
    return at + 2 + k


@njit(cache=True)
def _row0(st, kind):
    event(st, kind)


@njit(cache=True)
def _row1(st, kind, a):
    at = event(st, kind)
    st[at + 2] = a


@njit(cache=True)
def _row2(st, kind, a, b):
    at = event(st, kind)
    st[at + 2] = a
    st[at + 3] = b


@njit(cache=True)
def _row3(st, kind, a, b, c):
    at = event(st, kind)
    st[at + 2] = a
    st[at + 3] = b
    st[at + 4] = c


@njit(cache=True)
def _row4(st, kind, a, b, c, d):
    at = event(st, kind)
    st[at + 2] = a
    st[at + 3] = b
    st[at + 4] = c
    st[at + 5] = d


@njit(cache=True)
def _row5(st, kind, a, b, c, d, e):
    at = event(st, kind)
    st[at + 2] = a
    st[at + 3] = b
    st[at + 4] = c
    st[at + 5] = d
    st[at + 6] = e


@njit(cache=True)
def _row6(st, kind, a, b, c, d, e, f):
    at = event(st, kind)
    st[at + 2] = a
    st[at + 3] = b
    st[at + 4] = c
    st[at + 5] = d
    st[at + 6] = e
    st[at + 7] = f


FIELD_KINDS = {
    "int": "an integer",
    "list": "a list of one integer",
    "bool": "true or false",
    "reason": "the name of an end reason",
    "opt": "an integer, or null where the row holds a negative",
    "seats": "one integer per seat, from this slot on",
}


class EventField:
    """One value of a trace event: its name in the decoded event, what it
    means, and how the row's slot decodes (``FIELD_KINDS``)."""

    def __init__(self, spec: str, meaning: str = "") -> None:
        name, _, kind = spec.partition(":")
        self.name = name
        self.kind = kind or "int"
        self.meaning = meaning
        if self.name != "-" and not self.name.replace("_", "a").isalnum():
            raise ValueError(f"event field {spec!r}: a name, then :kind")
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"event field {spec!r}: kinds are {', '.join(FIELD_KINDS)}")

    @property
    def skipped(self) -> bool:
        return self.name == "-"


class EventKind(int):
    """One kind of trace event, declared once (:meth:`Events.declare`).

    As an ``int`` it is the row's kind.  ``write`` is its compiled row writer,
    ``write(st, v0, v1, ...)`` with one value per slot the event declares
    (``-`` slots included: the kernel may use them), a no-op unless the game
    is traced (``st[RECORD]``); ``begin(st)`` writes the row with its kind and
    turn only and returns its offset, for an event whose values the kernel
    fills itself (``st[event_value(at, k)]``).  The decoder
    (:meth:`Events.decode`) and the docs' trace schema read the same
    declaration."""

    name: str
    fields: tuple[EventField, ...]
    meaning: str

    def __new__(cls, kind: int, name: str, fields: tuple[EventField, ...], meaning: str, decode: Any) -> "EventKind":
        self = super().__new__(cls, kind)
        self.name = name
        self.fields = fields
        self.meaning = meaning
        self.custom = decode
        self._write: Any = None
        self._begin: Any = None
        return self

    def __reduce__(self) -> Any:
        return (int, (int(self),))

    @property
    def write(self) -> Any:
        if self._write is None:
            self._write = _make_writer(int(self), len(self.fields), self.name)
        return self._write

    @property
    def begin(self) -> Any:
        if self._begin is None:
            kind = int(self)

            def begin(st):
                return event(st, kind)

            begin.__name__ = f"{self.name}_begin"
            begin._layout_helper = True
            self._begin = njit(inline="always")(begin)
        return self._begin

    def decode_row(self, ctx: Any, turn: int, values: list[int]) -> dict[str, Any]:
        """The event dict of one row: ``type``, ``turn``, then the fields."""
        out: dict[str, Any] = {"type": self.name, "turn": turn}
        for k, field in enumerate(self.fields):
            if field.skipped:
                continue
            v = values[k]
            if field.kind == "int":
                out[field.name] = v
            elif field.kind == "list":
                out[field.name] = [v]
            elif field.kind == "bool":
                out[field.name] = bool(v)
            elif field.kind == "reason":
                out[field.name] = ctx.spec.end_reason_names[v]
            elif field.kind == "opt":
                out[field.name] = None if v < 0 else v
            else:  # seats
                out[field.name] = values[k : k + ctx.n_seats]
        return out


def _make_writer(kind: int, n: int, name: str) -> Any:
    """The inlined guard of a row writer; the write itself is a call (a traced
    game is rare, the inlined turn stays small)."""
    if n == 0:

        def write(st):
            if st[RECORD]:
                _row0(st, kind)
    elif n == 1:

        def write(st, a):
            if st[RECORD]:
                _row1(st, kind, a)
    elif n == 2:

        def write(st, a, b):
            if st[RECORD]:
                _row2(st, kind, a, b)
    elif n == 3:

        def write(st, a, b, c):
            if st[RECORD]:
                _row3(st, kind, a, b, c)
    elif n == 4:

        def write(st, a, b, c, d):
            if st[RECORD]:
                _row4(st, kind, a, b, c, d)
    elif n == 5:

        def write(st, a, b, c, d, e):
            if st[RECORD]:
                _row5(st, kind, a, b, c, d, e)
    else:

        def write(st, a, b, c, d, e, f):
            if st[RECORD]:
                _row6(st, kind, a, b, c, d, e, f)
    write.__name__ = f"{name}_write"
    write._layout_helper = True
    return njit(inline="always")(write)


class Events:
    """A game's trace events, each declared once: its name, its fields (one per
    value slot of the row, in order; ``-`` an unused slot) and its meaning.

        EVENTS = Events()
        MOVE = EVENTS.declare("move", ["seat", "from", "to"], "the pawn moved from a square to another")
        ...
        MOVE.write(st, seat, here, there)          # in the kernel
        EVENTS.decode(ctx, board=...)              # the decoder: setup, then one dict per row

    A field is ``name`` or ``name:kind`` (``FIELD_KINDS``); an event whose rows
    need more than a field-by-field reading (several rows, the board, the final
    state) declares ``decode=fn(ctx, turn, values, rows)``, still with its fields
    named for the schema.  :meth:`schema` is the trace schema the docs list."""

    def __init__(self) -> None:
        self.kinds: list[EventKind] = []

    def declare(
        self, name: str, fields: Any, meaning: str, *, decode: Any = None, meanings: Any = None, row: bool = True
    ) -> EventKind:
        """Declare an event; returns its kind.  ``meanings``: one line per field
        (optional).  ``row=False``: an event that only ``decode`` writes (no
        trace row of its own, such as ``setup``)."""
        if any(k.name == name for k in self.kinds):
            raise ValueError(f"event {name!r} declared twice")
        parsed = tuple(
            EventField(f, (meanings or {}).get(f.partition(":")[0], "")) for f in fields
        )
        if len(parsed) > EVENT_WIDTH - 2:
            raise ValueError(f"event {name!r}: a row has {EVENT_WIDTH - 2} value slots")
        kind = EventKind(len(self.kinds) if row else -1 - len(self.kinds), name, parsed, meaning, decode)
        self.kinds.append(kind)
        return kind

    def by_kind(self) -> dict[int, EventKind]:
        return {int(k): k for k in self.kinds}

    def decode(self, ctx: Any, events: list[dict[str, Any]] | None = None, **setup: Any) -> list[dict[str, Any]]:
        """The decoded trace: the ``setup`` event (``ctx.setup(**setup)``), then
        one event per row (or what an event's own ``decode`` makes of it: None
        for nothing, a dict, or a list of dicts)."""
        table = self.by_kind()
        out: list[dict[str, Any]] = [ctx.setup(**setup)] if events is None else events
        rows = ctx.rows.tolist()
        i = 0
        while i < len(rows):
            kind, turn, *values = rows[i]
            i += 1
            declared = table.get(kind)
            if declared is None:  # pragma: no cover - a kernel writes only what it declares
                raise RuntimeError(f"trace row {i - 1}: kind {kind} is not declared")
            if declared.custom is None:
                out.append(declared.decode_row(ctx, turn, values))
                continue
            reader = _Rows(rows, i)
            made = declared.custom(ctx, turn, values, reader)
            i = reader.i
            if isinstance(made, dict):
                out.append(made)
            elif made:
                out.extend(made)
        return out

    def schema(self) -> list[dict[str, Any]]:
        """Every event: name, meaning and fields (name, kind, meaning)."""
        return [
            {
                "event": k.name,
                "meaning": k.meaning,
                "fields": [
                    {"name": f.name, "kind": f.kind, "meaning": f.meaning} for f in k.fields if not f.skipped
                ],
            }
            for k in self.kinds
        ]


class _Rows:
    """The rows after the current one, for an event's own decoder: ``take()``
    the next row, ``peek()`` its kind, ``i`` where decoding goes on."""

    def __init__(self, rows: list[list[int]], i: int) -> None:
        self.rows = rows
        self.i = i

    def peek(self) -> int | None:
        return self.rows[self.i][0] if self.i < len(self.rows) else None

    def take(self) -> list[int]:
        row = self.rows[self.i]
        self.i += 1
        return row
