"""Bahama Taxi's rules as a compiled kernel (seed 003, issue 5; RULES.md).

One game, in the rulebook's words: the shuffled deck is the draw pile of
fields; each player draws the start field of its taxi; 8 waiting citizens are
drawn as two cards each (origin, then destination).  In turn each taxi moves to
an adjacent free field or stays; at the end of the move it drops every
passenger bound for this field (fare = shortest-path distance origin →
destination) and takes the citizen waiting there if the capacity and the
end-phase limits allow; a citizen taken is replaced while the pile holds two
cards.  The game ends as soon as no citizen waits.

State: one numpy record of :data:`STATE_DTYPE` (layout below: fixed-size array
fields), allocated once per block of games and reset by :func:`deal`; nothing
is allocated per game or per turn.  The same functions play a simulated game and
a traced one; with ``rules[R_RECORD] == 1`` they also write fixed-width rows
into a separate ``events`` array (layout at :data:`EV_CITIZEN`), which
:func:`decode_events` turns into issue 5's trace schema.

Performance choices (measured; RULES.md, "Speed"):

* A record is passed to a function as one pointer.  A namedtuple of 16 arrays
  is passed as ~120 scalars, and each array argument costs two atomic
  reference-count operations per call: together ~1 µs per call, 100× slower.
* Functions that allocate nothing are compiled with ``_nrt=False`` (no
  reference counting at all).  Only :func:`new_state` and the functions that
  call it once per worker allocate.

Caching: entry points are ``@njit(cache=True)``.  The functions that take the
player ``policy`` as an argument (``_play_*``, ``_run_worker``, ``_trace_game``)
are deliberately *not* cached: a user player's dispatcher is a new type in every
process, so caching them would only add a stale cache file per run; the cached
built-in entry points compile them into themselves.  Numba watches only the
file of a cached function, so :func:`_drop_stale_cache` flushes this module's
and players.py's caches when any file of the package (or balance/rng.py or
balance/parallel.py) changes (balance.kernelcache).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np
from numba import njit, prange
from numba.extending import overload

from balance.parallel import batch_size, claim, new_counter
from balance.rng import rng_seed, rng_shuffle

N_FIELDS = 52  # one field per card of the deck
MAX_SEATS = 4
MAX_CITIZENS = N_FIELDS // 2  # each citizen is two cards
MAX_CAPACITY = 8  # width of the passenger table (params.MAX_CAPACITY)
MAX_DEGREE = 16  # width of the neighbour table (board.MAX_DEGREE)
NO_WINNER = -1

# End reasons, in the order of GameSpec.end_reasons.
END_NO_WAITING = 0
END_TURN_LIMIT = 1
END_REASONS = ("no_waiting", "turn_limit")

# --- rules: int32[N_RULES], the validated parameters plus two per-run settings.
R_CAPACITY = 0
R_CITIZENS_WAITING = 1
R_THIRD_LOCK = 2  # 1: no 3rd passenger once the pile cannot supply a citizen
R_SECOND_LOCK = 3  # 1: no 2nd passenger once R_SECOND_LOCK_WAITING or fewer wait
R_SECOND_LOCK_WAITING = 4
R_MUST_MOVE = 5
R_THREE_PLAYER_DISCARD = 6
R_MAX_TURNS = 7
R_SEATS = 8  # players in this game, 2..4
R_RECORD = 9  # 1: write trace rows into the events array
N_RULES = 10

# --- counters: int32[N_COUNTERS], the game's scalars.
C_TURN = 0  # player turns begun so far (0 during setup)
C_SEAT = 1  # the seat to move (during a turn: the seat moving)
C_PILE = 2  # cards drawn from the deck so far; the pile is deck[C_PILE:]
C_WAITING = 3  # citizens waiting now = valid entries of state.waiting
C_CITIZENS = 4  # citizens drawn so far (ids 0 .. C_CITIZENS-1, in draw order)
C_EVENTS = 5  # trace rows written
C_END = 6  # -1 while running, else the end reason
C_WINNER = 7  # the winning seat once ended, -1 for none
N_COUNTERS = 8

# --- trace rows: int32[n, EVENT_WIDTH] = (kind, turn, seat, a, b, c); seat -1 when none.
EV_CITIZEN = 0  # a = citizen id, b = origin field, c = destination field
EV_TURN = 1
EV_MOVE = 2  # a = from field, b = to field (a == b: stayed)
EV_DROP = 3  # a = field, b = citizen id, c = fare collected
EV_PICKUP = 4  # a = field, b = citizen id
EV_END = 5  # a = end reason, b = winner (-1: none)
EVENT_WIDTH = 6

# The state of one game: a record whose fields are fixed-size int32 arrays.
# The board fields are copied in once per block; every other field is reset by deal().
_I32 = np.int32
_STATE_FIELDS = [
    ("rules", _I32, (N_RULES,)),  # see R_*
    ("neighbours", _I32, (N_FIELDS, MAX_DEGREE)),  # adjacent fields, ascending, -1 pad
    ("degree", _I32, (N_FIELDS,)),  # number of neighbours
    ("dist", _I32, (N_FIELDS, N_FIELDS)),  # shortest-path distance = fare
    ("deck", _I32, (N_FIELDS,)),  # field of each card, in draw order
    ("counters", _I32, (N_COUNTERS,)),  # see C_*
    ("taxi", _I32, (MAX_SEATS,)),  # field of each seat's taxi (-1: seat unused)
    ("taxi_at", _I32, (N_FIELDS,)),  # seat whose taxi stands on a field, or -1
    ("waiting", _I32, (MAX_CITIZENS,)),  # waiting citizens, draw order (C_WAITING)
    ("waiting_at", _I32, (N_FIELDS,)),  # citizen waiting on a field, or -1
    ("origin", _I32, (MAX_CITIZENS,)),  # origin field of each citizen drawn
    ("dest", _I32, (MAX_CITIZENS,)),  # destination field of each citizen drawn
    ("fare", _I32, (MAX_CITIZENS,)),  # its fare, dist[origin, dest]
    ("aboard", _I32, (MAX_SEATS, MAX_CAPACITY)),  # passengers, in pick-up order
    ("n_aboard", _I32, (MAX_SEATS,)),  # passengers per seat
    ("income", _I32, (MAX_SEATS,)),  # fares collected per seat
]
# np.record: fields read as attributes also without the JIT (NUMBA_DISABLE_JIT=1).
STATE_DTYPE = np.dtype((np.record, _STATE_FIELDS), align=True)


# ------------------------------------------------------------------------------------ state
def _records(array):
    """Without the JIT, a record array's items need recarray's attribute access."""
    return array.view(np.recarray)


@overload(_records, jit_options={"cache": True})
def _records_compiled(array):
    return lambda array: array  # compiled records already read fields as attributes


@njit(cache=True)
def new_state(rules, neighbours, degree, dist):
    """A one-record array holding a game's state (once per block of games).

    Callers keep this array alive while they use its record ``[0]``: the
    record is a bare pointer into it.
    """
    holder = _records(np.zeros(1, STATE_DTYPE))
    st = holder[0]
    st.rules[:] = rules
    st.neighbours[:] = -1
    for f in range(N_FIELDS):
        st.degree[f] = degree[f]
        for j in range(degree[f]):
            st.neighbours[f, j] = neighbours[f, j]
        for g in range(N_FIELDS):
            st.dist[f, g] = dist[f, g]
        st.deck[f] = f
    return holder


@njit(cache=True, _nrt=False)
def _record(st, events, kind, seat, a, b, c):
    if st.rules[R_RECORD] == 0:
        return
    n = st.counters[C_EVENTS]
    if n < events.shape[0]:  # the caller sizes events for max_turns; never overflows
        events[n, 0] = kind
        events[n, 1] = st.counters[C_TURN]
        events[n, 2] = seat
        events[n, 3] = a
        events[n, 4] = b
        events[n, 5] = c
    st.counters[C_EVENTS] = n + 1


# ------------------------------------------------------------------------------ rule checks
@njit(cache=True, _nrt=False)
def pile_can_supply(st):
    """The pile still holds a citizen (two cards)."""
    return N_FIELDS - st.counters[C_PILE] >= 2


@njit(cache=True, _nrt=False)
def may_take(st, seat):
    """May ``seat``'s taxi take a waiting citizen now?  Capacity and end phase.

    Checked at the pick-up, before the citizen leaves the waiting row, so the
    waiting count includes the citizen being taken (RULES.md, 'second lock').
    "Third passenger" is read as the third or any later one (capacity > 3).
    """
    n = st.n_aboard[seat]
    if n >= st.rules[R_CAPACITY]:
        return False
    if n >= 2 and st.rules[R_THIRD_LOCK] != 0 and not pile_can_supply(st):
        return False
    second_locked = (
        st.rules[R_SECOND_LOCK] != 0
        and st.counters[C_WAITING] <= st.rules[R_SECOND_LOCK_WAITING]
    )
    return not (n >= 1 and second_locked)


@njit(cache=True, _nrt=False)
def may_stay(st, seat):
    """Staying is legal unless must_move holds and an adjacent field is free."""
    if st.rules[R_MUST_MOVE] == 0:
        return True
    here = st.taxi[seat]
    for j in range(st.degree[here]):
        if st.taxi_at[st.neighbours[here, j]] < 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def is_legal_move(st, seat, to):
    """``to`` is the taxi's own field (if staying is legal) or a free adjacent field."""
    here = st.taxi[seat]
    if to == here:
        return may_stay(st, seat)
    if to < 0 or to >= N_FIELDS or st.taxi_at[to] >= 0:
        return False
    return st.dist[here, to] == 1  # adjacent, in one look-up


@njit(cache=True, _nrt=False)
def fallback_move(st, seat):
    """What an illegal answer becomes: stay, or (must_move) the first free neighbour."""
    here = st.taxi[seat]
    if may_stay(st, seat):
        return here
    for j in range(st.degree[here]):
        f = st.neighbours[here, j]
        if st.taxi_at[f] < 0:
            return f
    return here  # unreachable: may_stay is true when no neighbour is free


# ------------------------------------------------------------------------------------ setup
@njit(cache=True, _nrt=False)
def _draw_citizen(st, events):
    """Two cards from the pile: the origin (bottom card), then the destination (top)."""
    pile = st.counters[C_PILE]
    k = st.counters[C_CITIZENS]
    o = st.deck[pile]
    d = st.deck[pile + 1]
    st.counters[C_PILE] = pile + 2
    st.origin[k] = o
    st.dest[k] = d
    st.fare[k] = st.dist[o, d]
    st.waiting_at[o] = k
    n = st.counters[C_WAITING]
    st.waiting[n] = k
    st.counters[C_WAITING] = n + 1
    st.counters[C_CITIZENS] = k + 1
    _record(st, events, EV_CITIZEN, -1, k, o, d)


@njit(cache=True, _nrt=False)
def deal(st, events):
    """Set up a game from ``st.deck`` (already in draw order): start fields, citizens."""
    n_seats = st.rules[R_SEATS]
    for i in range(N_COUNTERS):
        st.counters[i] = 0
    st.counters[C_END] = -1
    st.counters[C_WINNER] = NO_WINNER
    for f in range(N_FIELDS):
        st.taxi_at[f] = -1
        st.waiting_at[f] = -1
    for s in range(MAX_SEATS):
        st.taxi[s] = -1
        st.n_aboard[s] = 0
        st.income[s] = 0
    # Start cards go to the discard pile: no citizen can ever use those fields.
    for s in range(n_seats):
        f = st.deck[s]
        st.taxi[s] = f
        st.taxi_at[f] = s
    pile = n_seats
    if n_seats == 3 and st.rules[R_THREE_PLAYER_DISCARD] != 0:
        pile += 1
    st.counters[C_PILE] = pile
    for _ in range(st.rules[R_CITIZENS_WAITING]):
        if pile_can_supply(st):
            _draw_citizen(st, events)


# ------------------------------------------------------------------------------------- turn
@njit(cache=True, _nrt=False)
def _end_game(st, events, reason):
    winner = NO_WINNER
    # turn_limit: the rulebook's game has not ended, so nobody has won it (RULES.md).
    if reason == END_NO_WAITING:
        best = -1
        for s in range(st.rules[R_SEATS]):
            if st.income[s] > best:
                best = st.income[s]
                winner = s
            elif st.income[s] == best:
                winner = NO_WINNER
    st.counters[C_END] = reason
    st.counters[C_WINNER] = winner
    _record(st, events, EV_END, -1, reason, winner, 0)


@njit(cache=True, _nrt=False)
def begin_turn(st, events):
    """Start the next player turn; returns the seat to move."""
    st.counters[C_TURN] += 1
    seat = st.counters[C_SEAT]
    _record(st, events, EV_TURN, seat, 0, 0, 0)
    return seat


@njit(cache=True, _nrt=False)
def finish_turn(st, events, to):
    """Move the moving seat's taxi to ``to`` (validated), drop, take; True once ended."""
    seat = st.counters[C_SEAT]
    here = st.taxi[seat]
    if not is_legal_move(st, seat, to):
        to = fallback_move(st, seat)
    st.taxi_at[here] = -1
    st.taxi_at[to] = seat
    st.taxi[seat] = to
    _record(st, events, EV_MOVE, seat, here, to, 0)

    # Drop every passenger bound for this field.  Each card is drawn once, so at most
    # one passenger can be bound for a field, and a field is never both a destination
    # and an origin: drop and pick-up cannot interact (issue 5).
    n = st.n_aboard[seat]
    i = 0
    while i < n:
        c = st.aboard[seat, i]
        if st.dest[c] == to:
            fare = st.fare[c]
            st.income[seat] += fare
            for j in range(i, n - 1):  # keep pick-up order
                st.aboard[seat, j] = st.aboard[seat, j + 1]
            n -= 1
            _record(st, events, EV_DROP, seat, to, c, fare)
        else:
            i += 1
    st.n_aboard[seat] = n

    # Take the citizen waiting here (at most one: each field's card is drawn once).
    c = st.waiting_at[to]
    if c >= 0 and may_take(st, seat):
        st.waiting_at[to] = -1
        w = st.counters[C_WAITING]
        k = 0
        while st.waiting[k] != c:
            k += 1
        for j in range(k, w - 1):  # keep draw order
            st.waiting[j] = st.waiting[j + 1]
        st.counters[C_WAITING] = w - 1
        st.aboard[seat, n] = c
        st.n_aboard[seat] = n + 1
        _record(st, events, EV_PICKUP, seat, to, c, 0)
        if pile_can_supply(st):
            _draw_citizen(st, events)
        if st.counters[C_WAITING] == 0:
            _end_game(st, events, END_NO_WAITING)
            return True
    if st.counters[C_TURN] >= st.rules[R_MAX_TURNS]:
        _end_game(st, events, END_TURN_LIMIT)
        return True
    st.counters[C_SEAT] = (seat + 1) % st.rules[R_SEATS]
    return False


@njit(cache=True, _nrt=False)
def play_turn(st, events, to):
    """One whole turn with a given answer (hand-traced tests); True once ended."""
    begin_turn(st, events)
    return finish_turn(st, events, to)


# ------------------------------------------------------------------- games (policy as argument)
# Not cached on purpose (module docstring): specialised per policy dispatcher.
@njit(_nrt=False)
def _play_dealt(policy, st, events, rng, seats):
    """Play a dealt game to its end; ``seats[s]`` is the policy index of seat s."""
    while True:
        seat = begin_turn(st, events)
        to = policy(seats[seat], seat, st, rng)
        if finish_turn(st, events, to):
            return


@njit(_nrt=False)
def _play_game(policy, st, events, rng, seats, seed, game):
    """Game ``game`` under ``seed``: its own random stream, shuffle, deal, play."""
    rng_seed(rng, seed, game)
    for i in range(N_FIELDS):
        st.deck[i] = i
    rng_shuffle(rng, st.deck)
    deal(st, events)
    _play_dealt(policy, st, events, rng, seats)


@njit
def _run_worker(
    policy,
    rules,
    neighbours,
    degree,
    dist,
    seatings,
    seed,
    first_game,
    n_games,
    counter,
    batch,
    winner,
    end_reason,
    turns,
    score,
):
    """One worker of a batch: claims ``batch`` games at a time from ``counter``
    (balance.parallel) and plays them on its own state until none are left."""
    holder = new_state(rules, neighbours, degree, dist)
    st = holder[0]
    events = np.zeros((1, EVENT_WIDTH), np.int32)  # not recording
    rng = np.zeros(2, np.uint64)
    rows = seatings.copy()  # this worker's own: no shared reference count per game
    n_seatings = rows.shape[0]
    n_seats = rows.shape[1]
    while True:
        lo = claim(counter, batch)
        if lo >= n_games:
            break
        for i in range(lo, min(lo + batch, n_games)):
            g = first_game + i
            _play_game(policy, st, events, rng, rows[g % n_seatings], seed, g)
            winner[i] = st.counters[C_WINNER]
            end_reason[i] = st.counters[C_END]
            turns[i] = st.counters[C_TURN]
            for s in range(n_seats):
                score[i, s] = st.income[s]
    return holder.shape[0]  # holder (st's memory) lives to the end of the worker


@njit
def _trace_game(policy, rules, neighbours, degree, dist, seats, seed, game, events):
    holder = new_state(rules, neighbours, degree, dist)
    rng = np.zeros(2, np.uint64)
    _play_game(policy, holder[0], events, rng, seats, seed, game)
    return holder


# ----------------------------------------------------------------------------- entry points
# Built-in players: the policy is players.builtin_policy, compiled in and cached.
@njit(cache=True, parallel=True)
def _simulate_batch(
    rules,
    neighbours,
    degree,
    dist,
    seatings,
    seed,
    first_game,
    n_games,
    n_workers,
    winner,
    end_reason,
    turns,
    score,
):
    batch = batch_size(n_games, n_workers)
    counter = new_counter()
    for _ in prange(n_workers):
        _run_worker(
            _players.builtin_policy,
            rules,
            neighbours,
            degree,
            dist,
            seatings,
            seed,
            first_game,
            n_games,
            counter,
            batch,
            winner,
            end_reason,
            turns,
            score,
        )


@njit(cache=True)
def _trace_builtin(rules, neighbours, degree, dist, seats, seed, game, events):
    return _trace_game(
        _players.builtin_policy,
        rules,
        neighbours,
        degree,
        dist,
        seats,
        seed,
        game,
        events,
    )


@njit(cache=True, _nrt=False)
def play_dealt_builtin(st, events, rng, seats):
    """Play a hand-dealt game (``deal`` done) with built-in players (tests)."""
    _play_dealt(_players.builtin_policy, st, events, rng, seats)


# User players: the policy (balance.plugins.compile_dispatch) is an argument.
@njit(parallel=True)
def _simulate_batch_with(
    policy,
    rules,
    neighbours,
    degree,
    dist,
    seatings,
    seed,
    first_game,
    n_games,
    n_workers,
    winner,
    end_reason,
    turns,
    score,
):
    batch = batch_size(n_games, n_workers)
    counter = new_counter()
    for _ in prange(n_workers):
        _run_worker(
            policy,
            rules,
            neighbours,
            degree,
            dist,
            seatings,
            seed,
            first_game,
            n_games,
            counter,
            batch,
            winner,
            end_reason,
            turns,
            score,
        )


@njit
def _trace_with(policy, rules, neighbours, degree, dist, seats, seed, game, events):
    return _trace_game(
        policy, rules, neighbours, degree, dist, seats, seed, game, events
    )


@njit(_nrt=False)
def play_dealt_with(policy, st, events, rng, seats):
    """Play a hand-dealt game with a compiled policy (tests)."""
    _play_dealt(policy, st, events, rng, seats)


# ------------------------------------------------------------------------------ Python side
def rules_array(
    params: dict[str, Any], n_seats: int, record: bool = False
) -> np.ndarray:
    """The kernel's ``rules`` array from validated parameter values."""
    rules = np.zeros(N_RULES, np.int32)
    rules[R_CAPACITY] = params["capacity"]
    rules[R_CITIZENS_WAITING] = params["citizens_waiting"]
    rules[R_THIRD_LOCK] = bool(params["third_passenger_lock"])
    rules[R_SECOND_LOCK] = bool(params["second_passenger_lock"])
    rules[R_SECOND_LOCK_WAITING] = params["second_lock_waiting"]
    rules[R_MUST_MOVE] = bool(params["must_move"])
    rules[R_THREE_PLAYER_DISCARD] = bool(params["three_player_discard"])
    rules[R_MAX_TURNS] = params["max_turns"]
    rules[R_SEATS] = n_seats
    rules[R_RECORD] = bool(record)
    return rules


def workers_for(n_games: int) -> int:
    """Workers for prange: one per thread (each claims games as it goes, so
    uneven games and a slow thread balance out; balance.parallel).  Results do
    not depend on it.  Asked here, not in the kernel: numba.get_num_threads()
    inside it would make it uncacheable."""
    return max(1, min(int(n_games), numba.get_num_threads()))


def event_rows_for(max_turns: int) -> int:
    """Rows enough for any game: setup citizens, then per turn at most turn, move,
    drop, pick-up and replacement citizen, then end."""
    return MAX_CITIZENS + 5 * int(max_turns) + 2


def decode_events(st: Any, events: np.ndarray) -> list[dict[str, Any]]:
    """Trace rows as issue 5's event dicts (everything after setup)."""
    n = int(st["counters"][C_EVENTS])
    if n > events.shape[0]:
        raise RuntimeError(
            "trace buffer overflow"
        )  # cannot happen: event_rows_for bounds it
    n_seats = int(st["rules"][R_SEATS])
    out: list[dict[str, Any]] = []
    for kind, turn, seat, a, b, c in events[:n].tolist():
        if kind == EV_CITIZEN:
            out.append(
                {"type": "citizen", "turn": turn, "citizen": a, "origin": b, "dest": c}
            )
        elif kind == EV_TURN:
            out.append({"type": "turn", "turn": turn, "seat": seat})
        elif kind == EV_MOVE:
            out.append({"type": "move", "turn": turn, "seat": seat, "from": a, "to": b})
        elif kind == EV_DROP:
            out.append(
                {
                    "type": "drop",
                    "turn": turn,
                    "seat": seat,
                    "field": a,
                    "citizens": [b],
                    "fare": c,
                }
            )
        elif kind == EV_PICKUP:
            out.append(
                {
                    "type": "pickup",
                    "turn": turn,
                    "seat": seat,
                    "field": a,
                    "citizens": [b],
                }
            )
        elif kind == EV_END:
            income = [int(x) for x in st["income"][:n_seats]]
            out.append(
                {
                    "type": "end",
                    "turn": turn,
                    "reason": END_REASONS[a],
                    "income": income,
                    "winner": b,
                }
            )
        else:  # pragma: no cover - the kernel writes only the kinds above
            raise RuntimeError(f"unknown trace row kind {kind}")
    return out


class HandGame:
    """A game dealt from a given deck, played turn by turn with given answers or
    players: hand-traced positions run the kernel's own rules, nothing duplicated.

    ``deck`` is a permutation of the 52 field indices in draw order.
    """

    def __init__(
        self,
        params: dict[str, Any],
        board: Any,
        n_seats: int,
        deck: Sequence[int],
        record: bool = True,
    ) -> None:
        cards = np.asarray(deck, dtype=np.int32)
        if cards.shape != (N_FIELDS,) or sorted(cards.tolist()) != list(
            range(N_FIELDS)
        ):
            raise ValueError("deck must be a permutation of the 52 field indices")
        rules = rules_array(params, n_seats, record)
        self.holder = new_state(rules, board.neighbours, board.degree, board.dist)
        self.st = self.holder[0]  # a view: changes made by the kernel show here
        self.events = np.zeros(
            (event_rows_for(params["max_turns"]), EVENT_WIDTH), np.int32
        )
        self.st["deck"][:] = cards
        deal(self.st, self.events)

    def turn(self, to: int) -> bool:
        """Play the next turn with the answer ``to``; True once the game has ended."""
        if self.ended:
            raise RuntimeError("the game has ended")
        return bool(play_turn(self.st, self.events, int(to)))

    def play(self, seats: Sequence[int], policy: Any = None, seed: int = 0) -> None:
        """Play to the end with built-in players ``seats`` (indices into PLAYERS), or
        with a compiled ``policy(index, seat, state, rng)``."""
        rng = np.zeros(2, np.uint64)
        rng_seed(rng, np.uint64(seed), 0)
        seat_index = np.asarray(seats, dtype=np.int64)
        if policy is None:
            play_dealt_builtin(self.st, self.events, rng, seat_index)
        else:
            play_dealt_with(policy, self.st, self.events, rng, seat_index)

    @property
    def ended(self) -> bool:
        return int(self.st["counters"][C_END]) >= 0

    def counter(self, index: int) -> int:
        return int(self.st["counters"][index])

    def trace(self) -> list[dict[str, Any]]:
        return decode_events(self.st, self.events)


# The built-in players import this module's rule helpers; imported last so that either
# module may be imported first (numba resolves _players.builtin_policy at compile time).
from sims.bahama import players as _players


def _drop_stale_cache() -> None:
    """The cached functions here and in players.py compile each other's code
    (and balance/rng.py's and balance/parallel.py's) into themselves: the cache
    is keyed on all of the package's files and those two (balance.kernelcache)."""
    import sys
    from pathlib import Path

    import balance.parallel
    import balance.rng
    from balance.kernelcache import drop_stale_cache

    files = [
        *Path(__file__).parent.glob("*.py"),
        Path(balance.rng.__file__),
        Path(balance.parallel.__file__),
    ]
    drop_stale_cache("bahama", [sys.modules[__name__], _players], files)


_drop_stale_cache()
