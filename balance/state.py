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

import numpy as np
from numba import njit

from balance.rng import rng_below

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


class Layout:
    """Regions of a flat ``int64`` state, allotted in order.

    A game allots its static regions (rules, fixed tables) and its dynamic ones
    (what changes during a game), all dynamic regions in one contiguous span::

        layout = Layout()                 # starts after the shared header
        PARAMS = layout.static(16)
        MONEY = layout.dynamic(MAX_SEATS)
        ...
        layout.size                       # slots so far

    Board-sized regions are allotted the same way on a copy made per board
    (``layout.copy()``), their offsets stored in header slots of the game.
    """

    def __init__(self, start: int | None = None) -> None:
        self.size = HEADER_END if start is None else start
        self.dynamic_at: int | None = None
        self.dynamic_end: int | None = None

    def static(self, size: int) -> int:
        """A region set once per state (by the image); returns its offset."""
        if self.dynamic_at is not None and self.dynamic_end is None:
            self.dynamic_end = self.size
        return self._take(size)

    def dynamic(self, size: int) -> int:
        """A region reset to zero before every game; returns its offset."""
        if self.dynamic_end is not None:
            raise ValueError("dynamic regions must be contiguous: allot them before the later static ones")
        if self.dynamic_at is None:
            self.dynamic_at = self.size
        return self._take(size)

    def _take(self, size: int) -> int:
        if size < 0:
            raise ValueError("a region has a size of at least 0")
        at = self.size
        self.size += int(size)
        return at

    def copy(self) -> "Layout":
        out = Layout(self.size)
        out.__dict__.update(self.__dict__)
        return out

    def heat(self, cells: int) -> int:
        """The dynamic region of a per-cell heatmap (how often each cell of a
        sheet or board is used, summed over games by the engine)."""
        self.heat_cells = int(cells)
        self.heat_at = self.dynamic(cells)
        return self.heat_at

    def image(self) -> np.ndarray:
        """Zeros of the layout's size with the shared header's sizes set."""
        dynamic_at = self.size if self.dynamic_at is None else self.dynamic_at
        dynamic_end = self.size if self.dynamic_end is None else self.dynamic_end
        image = np.zeros(self.size, np.int64)
        image[SIZE] = image[CORE] = self.size
        image[DYNAMIC_AT] = dynamic_at
        image[DYNAMIC_END] = max(dynamic_at, dynamic_end)
        if getattr(self, "heat_cells", 0):
            image[HEAT_AT] = self.heat_at
            image[HEAT_CELLS] = self.heat_cells
        return image


_header = Layout(0)
# set once per state
SIZE = _header.static(1)
CORE = _header.static(1)
DYNAMIC_AT = _header.static(1)
DYNAMIC_END = _header.static(1)
EVENTS_AT = _header.static(1)
EVENT_ROWS = _header.static(1)
SCRATCH_AT = _header.static(1)
N_SEATS = _header.static(1)
HEAT_AT = _header.static(1)  # a game's per-cell counts (a dynamic region; 0: none)
HEAT_CELLS = _header.static(1)  # cells in it
SCRIPT_LEN = _header.static(1)
SCRIPT = _header.static(MAX_SCRIPT)
# The search player's table, one row per answer it compares (balance.engine):
CANDIDATES = _header.static(MAX_CANDIDATES)  # the answers
ARM_VALUE = _header.static(MAX_CANDIDATES)  # summed playout values
ARM_DIFF = _header.static(MAX_CANDIDATES)  # summed differences to the rollout policy's answer, round by round
ARM_SQUARES = _header.static(MAX_CANDIDATES)  # summed squares of those differences
ARM_ALIVE = _header.static(MAX_CANDIDATES)  # 1 while the answer is still raced
ARM_HASH = _header.static(MAX_CANDIDATES)  # a hash of the answer's playout values, round by round
SEARCH_TABLE_END = _header.size
# Every heuristic's default parameter values (MC_PARAMS each, set by the
# toolkit in every image), and the search player's own values while a search
# menu asks another heuristic in its seat (lend_params).
HEURISTIC_DEFAULTS = _header.static(MAX_HEURISTICS * MC_PARAMS)
LENT_PARAMS = _header.static(MC_PARAMS)
# The game-feel counters (balance.engine.feel_sample): the standing sampled at
# every round end, reset by play_game.  Outside the span a search copy copies,
# so searching never touches them.  FEEL_TURNS: player turns per round (the
# image; 0: one per seat).
FEEL_TURNS = _header.static(1)
FEEL = _header.static(FEEL_SLOTS)
# reset every game (RESET_AT .. HEADER_END)
RESET_AT = _header.size
SEED = _header.static(1)
GAME = _header.static(1)
TURN = _header.static(1)
SEAT = _header.static(1)
WINNER = _header.static(1)
END_REASON = _header.static(1)
DECIDER = _header.static(1)
DECISION = _header.static(1)
SUBJECT = _header.static(1)
RECORD = _header.static(1)
N_EVENTS = _header.static(1)
SCRIPT_POS = _header.static(1)
SEARCHING = _header.static(1)
SEARCHES = _header.static(1)
SEARCH_PLAYOUTS = _header.static(1)
SEARCH_DEVIATIONS = _header.static(1)
RNG = _header.static(2)
SEATING = _header.static(MAX_SEATS)
PLAYER_PARAMS = _header.static(MAX_SEATS * MAX_PLAYER_PARAMS)
SCORE = _header.static(MAX_SEATS)
MEMORY = _header.static(MAX_SEATS * MEMORY_SLOTS)
HEADER_END = _header.size
del _header

VALUE_SCALE = 1000  # a playout's value for the searching seat: 0 (lost) .. VALUE_SCALE (won)
NO_SEAT = np.int64(-1)


# --------------------------------------------------------------------------- helpers
@njit(cache=True)
def draw_below(st, n):
    """A uniform integer in [0, n) from the game's stream; in a hand-built
    position, the next forced draw while any is left (SCRIPT)."""
    if st[SCRIPT_POS] < st[SCRIPT_LEN]:
        v = st[SCRIPT + st[SCRIPT_POS]]
        st[SCRIPT_POS] += 1
        return v
    return rng_below(st[RNG : RNG + 2].view(np.uint64), n)


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
