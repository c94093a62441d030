"""Referee for Bahama Taxi traces (issue 5; rulebook ../shared/seeds/003_326e665aa3d4314a.en.md).

Replays a trace from its ``setup`` event alone (the shuffled deck is in it) and
raises :class:`IllegalTrace` at the first event that breaks a rule or carries a
wrong amount.  Imports nothing from the game (``sims``) nor from ``balance``:
only the standard library and the shared event cursor of ``tests.referees``.
``referee(events)`` is the contract's entry point (tests/test_contract.py);
``referee_bahama(events, observer)`` also returns the replayed state.

Grammar of a trace::

    setup
    citizen x initial_citizens               # turn 0, each the next two cards
    ( turn move [drop] [pickup citizen* | decline] )*
                                             # citizen: one replacement per citizen taken,
                                             #          iff the pile holds >= 2 cards;
                                             # decline: pickup = optional only
    end                                      # at once when none waits, or after max_turns

Readings (where the issue leaves a detail open; each is visible in the trace):

* Deck: ``setup.deck`` is a permutation of all field indices; ``start[p]`` is
  ``deck[p]``; with ``three_player_discard`` and 3 players ``deck[3]`` is
  discarded; citizens then take cards in deck order, origin first.
* Citizens are numbered 0, 1, 2, ... in the order drawn.
* Seats play in order 0, 1, ..., one ``turn`` each, turns numbered from 1.
* Move: ``to == from`` (stay) or ``to`` adjacent to ``from`` with no taxi on
  it.  With ``must_move`` a stay is legal only if no adjacent field is free.
* Drop is compulsory and total: the ``drop`` event lists exactly the
  passengers whose destination is the field (absent when there are none);
  ``fare`` = sum of shortest-path distances origin->dest.
* Pick-up (``setup.params.pickup``): the rulebook's "A player may take an
  inhabitant as a passenger if, at the end of the player's move, the taxi is
  on the field where that inhabitant waits".  With ``optional`` the mover
  chooses: a citizen waiting on the field the taxi ends on, that the limits
  allow it to take, is followed by exactly one of ``pickup`` or ``decline``
  (naming that citizen); a ``decline`` takes nobody and draws nothing.  With
  ``compulsory`` (issue 5's "then take waiting citizens on this field") it is
  taken whenever capacity and the end-phase limits allow, and a ``decline`` is
  illegal.  Either way no ``decline`` where the taxi may not take one: there
  was nothing to decide.  A ``pickup`` names waiting citizens on the field.  Each taken citizen is checked in turn
  against, with ``a`` = passengers aboard (after this turn's drop) and ``w`` =
  citizens waiting, both just before that citizen is taken (so ``w`` counts
  it): ``a < capacity``; with ``third_passenger_lock``, pile cannot supply a
  citizen (fewer than 2 cards) -> ``a < 2``; with ``second_passenger_lock``,
  ``w <= second_lock_waiting`` (4) -> ``a < 1``.  Each taken citizen is followed, after the pickup
  event, by one ``citizen`` replacement iff the pile then holds >= 2 cards.
* The game ends at once when no citizen waits (``no_waiting``), else after
  ``max_turns`` turns (``turn_limit``).  Winner: highest income, tie -> -1;
  at ``turn_limit`` no winner (-1), as sims/bahama/params.py states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.referees import (
    EventCursor,
    IllegalTrace,
    bfs_distances,
    check_graph,
    is_int,
    strict_equal,
)

N_FIELDS = 52
THIRD_PASSENGER = 2  # "no one takes a 3rd": refused to a taxi with 2 (or more) aboard
# "A player may take an inhabitant": pickup = optional makes it the mover's choice,
# compulsory (issue 5's "then take waiting citizens on this field") takes whenever allowed.
PICKUP_READINGS = ("compulsory", "optional")

# Turn limit: "a game still running then ends with reason turn_limit and no winner"
# (sims/bahama/params.py, max_turns); the issue says only "caps a game that stalls".
TURN_LIMIT_WINNER = "none"  # "income": highest income wins at turn_limit too; "none": -1

# Rule parameters the referee reads from setup.params (issue 5 names must_move,
# three_player_discard, max_turns; the rest are the end-phase limits and counts).
PARAMS = {
    "capacity": int,
    "citizens_waiting": int,
    "third_passenger_lock": bool,
    "second_passenger_lock": bool,
    "second_lock_waiting": int,
    "pickup": str,
    "must_move": bool,
    "three_player_discard": bool,
    "max_turns": int,
}


# ---- the published board (issue 5), built independently of the kernel -----------
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("♠", "♥", "♣", "♦")  # the cycle of the issue
ASCII_SUITS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
INSIDE = [
    "A-K",
    "A-Q",
    "K-Q",
    "K-J",
    "Q-J",
    "Q-10",
    "J-9",
    "10-9",
    "10-7",
    "10-6",
    "9-8",
    "9-7",
    "8-7",
    "8-3",
    "8-2",
    "7-6",
    "7-4",
    "7-3",
    "6-5",
    "6-4",
    "5-4",
    "4-3",
    "3-2",
]
ACROSS = ["A-A", "A-K", "Q-K", "Q-J", "10-9", "10-8", "6-8", "6-2", "5-2"]


def normalize_name(name: str) -> str:
    """'10♠', '10S', 'TS', ' 10 s' -> '10♠'."""
    s = name.strip().replace(" ", "").upper()
    suit = s[-1]
    rank = s[:-1]
    suit = ASCII_SUITS.get(suit, suit)
    if rank == "T":
        rank = "10"
    if rank == "D":  # Polish Dama
        rank = "Q"
    return rank + suit


def published_edges() -> set[frozenset[str]]:
    edges = set()
    for i, s in enumerate(SUITS):
        n = SUITS[(i + 1) % 4]
        for e in INSIDE:
            a, b = e.split("-")
            edges.add(frozenset((a + s, b + s)))
        for e in ACROSS:
            a, b = e.split("-")
            edges.add(frozenset((a + s, b + n)))
    return edges


def board_edges(nodes: Sequence[str], adjacency: Sequence[Sequence[int]]) -> set[frozenset[str]]:
    names = [normalize_name(n) for n in nodes]
    return {frozenset((names[u], names[v])) for u, row in enumerate(adjacency) for v in row}


@dataclass
class BahamaState:
    params: dict
    players: list
    nodes: list
    adjacency: list
    dist: list
    deck: list
    start: list
    capacity: int
    max_turns: int
    initial_citizens: int
    must_move: bool
    pickup_optional: bool
    discard: bool
    third_lock: bool
    second_lock: bool
    second_lock_waiting: int
    cursor: int = 0  # next card of the pile
    discarded: list = field(default_factory=list)  # start cards and the 3-player discard
    position: list = field(default_factory=list)
    aboard: list = field(default_factory=list)  # per seat: citizen ids
    income: list = field(default_factory=list)
    citizen_origin: list = field(default_factory=list)
    citizen_dest: list = field(default_factory=list)
    citizen_where: list = field(default_factory=list)  # ("wait", f) | ("ride", p) | ("done",)
    delivered: list = field(default_factory=list)
    turn: int = 0
    ended: bool = False
    winner: int | None = None
    reason: str | None = None
    max_aboard: int = 0
    endphase_checks: int = 0  # pick-ups made while an end-phase limit was in force
    declines: int = 0  # citizens left waiting by a mover that could take them
    counts: dict = field(default_factory=dict)  # event type -> how many (coverage)

    def pile(self) -> int:
        return len(self.deck) - self.cursor

    def waiting(self) -> list[int]:
        return [k for k, w in enumerate(self.citizen_where) if w[0] == "wait"]

    def waiting_on(self, f: int) -> list[int]:
        return [k for k, w in enumerate(self.citizen_where) if w == ("wait", f)]

    def taxi_at(self, f: int) -> int | None:
        for p, q in enumerate(self.position):
            if q == f:
                return p
        return None

    def cards_accounted(self) -> str | None:
        """Every card is in exactly one place: pile, discard (start/3-player), or a citizen."""
        used = list(self.discarded)
        for o, d in zip(self.citizen_origin, self.citizen_dest):
            used += [o, d]
        if len(used) + self.pile() != len(self.deck):
            return f"{len(used)} cards used + {self.pile()} in the pile != {len(self.deck)}"
        if sorted(used + self.deck[self.cursor :]) != list(range(len(self.deck))):
            return "a card is used twice or lost"
        return None

    def check_invariants(self) -> str | None:
        why = self.cards_accounted()
        if why:
            return why
        if len(set(self.position)) != len(self.position):
            return f"two taxis share a field: {self.position}"
        for p, a in enumerate(self.aboard):
            if len(a) > self.capacity:
                return f"seat {p} carries {len(a)} > capacity {self.capacity}"
            for k in a:
                if self.citizen_where[k] != ("ride", p):
                    return f"citizen {k} state inconsistent"
        fares = [0] * len(self.players)
        for k, w in enumerate(self.citizen_where):
            if w[0] == "done":
                fares[w[1]] += self.dist[self.citizen_origin[k]][self.citizen_dest[k]]
        if fares != self.income:
            return f"income {self.income} is not the fares of delivered citizens {fares}"
        return None


Observer = Callable[[int, dict, BahamaState], None]


class BahamaReferee(EventCursor):
    st: BahamaState

    def count_key(self, ev: dict) -> str:
        key = ev.get("type")
        if key == "move":
            return "move:stay" if ev.get("to") == ev.get("from") else "move:go"
        if key == "end":
            return f"end:{ev.get('reason')}"
        return str(key)

    def same(self, ev: dict, key: str, want: Any, what: str | None = None) -> None:
        got = ev.get(key, "<missing>")
        if not strict_equal(got, want):
            self.fail(f"{what or key} is {got!r}, expected {want!r}")

    def param(self, params: dict, key: str, kind: type) -> Any:
        if key not in params:
            self.fail(f"setup params miss {key!r}")
        v = params[key]
        if kind is str:
            ok = v in PICKUP_READINGS
        else:
            ok = isinstance(v, bool) if kind is bool else is_int(v)
        if not ok:
            self.fail(f"param {key}={v!r} is not {kind.__name__}")
        return v

    # ------------------------------------------------------------------------
    def run(self) -> BahamaState:
        self.setup()
        st = self.st
        for _ in range(st.initial_citizens):
            if st.pile() < 2:
                break
            self.citizen("an initial citizen")
        nxt = self.peek()
        if isinstance(nxt, dict) and nxt.get("type") == "citizen":
            self.fail(f"more initial citizens than citizens_waiting={st.initial_citizens} (pile {st.pile()})")
        if not st.waiting():
            self.end("no_waiting")
        while not st.ended:
            self.play_turn()
        if self.i != len(self.events):
            self.fail("event after end")
        return st

    def setup(self) -> None:
        ev = self.take("setup")
        if ev.get("game") != "bahama":
            self.fail(f"game is {ev.get('game')!r}, expected 'bahama'")
        if not is_int(ev.get("seed")):
            self.fail("setup seed must be an integer")
        params = ev.get("params")
        if not isinstance(params, dict):
            self.fail("setup has no params object")
        got = {k: self.param(params, k, kind) for k, kind in PARAMS.items()}
        players = ev.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4 or not all(isinstance(x, str) for x in players):
            self.fail(f"players must be a list of 2-4 names, got {players!r}")
        n = len(players)
        board = ev.get("board")
        if not isinstance(board, dict):
            self.fail("setup has no board object")
        nodes, adj = board.get("nodes"), board.get("adjacency")
        if not isinstance(nodes, list) or len(nodes) != N_FIELDS:
            self.fail(f"board must have {N_FIELDS} nodes")
        why = check_graph(adj)
        if why or len(adj) != N_FIELDS:
            self.fail(f"board: {why or 'adjacency length differs from nodes'}")
        deck = ev.get("deck")
        if not isinstance(deck, list) or sorted(deck) != list(range(N_FIELDS)) or not all(is_int(c) for c in deck):
            self.fail(f"deck is not a permutation of the {N_FIELDS} fields: {deck!r}")
        start = ev.get("start")
        if start != deck[:n]:
            self.fail(f"start is {start!r}, expected the first {n} cards of the deck {deck[:n]!r}")
        discard = bool(got["three_player_discard"]) and n == 3
        st = BahamaState(
            params=dict(params),
            players=list(players),
            nodes=list(nodes),
            adjacency=[list(r) for r in adj],
            dist=bfs_distances(adj),
            deck=list(deck),
            start=list(start),
            capacity=got["capacity"],
            max_turns=got["max_turns"],
            initial_citizens=got["citizens_waiting"],
            must_move=got["must_move"],
            pickup_optional=got["pickup"] == "optional",
            discard=discard,
            third_lock=got["third_passenger_lock"],
            second_lock=got["second_passenger_lock"],
            second_lock_waiting=got["second_lock_waiting"],
        )
        st.cursor = n + (1 if discard else 0)
        st.discarded = list(deck[: st.cursor])
        st.position = list(start)
        st.aboard = [[] for _ in range(n)]
        st.income = [0] * n
        st.delivered = [0] * n
        self.st = st
        self.done(ev)

    def citizen(self, why: str) -> None:
        st = self.st
        ev = self.take("citizen", why=why)
        self.same(ev, "turn", st.turn)
        k = len(st.citizen_origin)
        self.same(ev, "citizen", k, "citizen id")
        o, d = st.deck[st.cursor], st.deck[st.cursor + 1]
        self.same(ev, "origin", o, f"citizen origin (deck card {st.cursor})")
        self.same(ev, "dest", d, f"citizen dest (deck card {st.cursor + 1})")
        st.cursor += 2
        st.citizen_origin.append(o)
        st.citizen_dest.append(d)
        st.citizen_where.append(("wait", o))
        self.done(ev)

    def play_turn(self) -> None:
        st = self.st
        n = len(st.players)
        ev = self.take("turn")
        st.turn += 1
        seat = (st.turn - 1) % n
        self.same(ev, "turn", st.turn, "turn number")
        self.same(ev, "seat", seat, "seat to play")
        self.done(ev)

        ev = self.take("move", why="every turn has exactly one move right after turn")
        self.same(ev, "turn", st.turn)
        self.same(ev, "seat", seat)
        here = st.position[seat]
        self.same(ev, "from", here, f"move origin (seat {seat}'s field)")
        to = ev.get("to")
        if not is_int(to) or not 0 <= to < N_FIELDS:
            self.fail(f"move to {to!r} is not a field")
        free = [f for f in st.adjacency[here] if st.taxi_at(f) is None]
        if to == here:
            if st.must_move and free:
                self.fail(f"stay on {here} under must_move while adjacent fields {free} are free")
        elif to not in st.adjacency[here]:
            self.fail(f"move {here}->{to}: field {to} is not adjacent to {here} (adjacent: {st.adjacency[here]})")
        elif st.taxi_at(to) is not None:
            self.fail(f"move {here}->{to}: field {to} is occupied by seat {st.taxi_at(to)}'s taxi")
        st.position[seat] = to
        self.done(ev)
        nxt = self.peek()
        if isinstance(nxt, dict) and nxt.get("type") == "move":
            self.fail(f"a second move in turn {st.turn}: one move per turn")

        due = sorted(k for k in st.aboard[seat] if st.citizen_dest[k] == to)
        ev = self.peek()
        if due:
            ev = self.take("drop", why=f"passengers {due} have destination {to}")
        if isinstance(ev, dict) and ev.get("type") == "drop":
            self.same(ev, "turn", st.turn)
            self.same(ev, "seat", seat)
            self.same(ev, "field", to, "drop field")
            got = ev.get("citizens")
            if not isinstance(got, list) or sorted(got) != due:
                self.fail(f"drop citizens {got!r}, expected exactly the passengers bound for {to}: {due}")
            blocks = [st.dist[st.citizen_origin[k]][st.citizen_dest[k]] for k in due]
            fare = sum(blocks)
            self.same(ev, "fare", fare, f"fare (shortest-path distances {blocks})")
            for k in due:
                st.aboard[seat].remove(k)
                st.citizen_where[k] = ("done", seat)
            st.income[seat] += fare
            st.delivered[seat] += len(due)
            self.done(ev)

        ev = self.peek()
        here_waiting = st.waiting_on(to)
        kind = ev.get("type") if isinstance(ev, dict) else None
        if here_waiting and self.may_take(seat) is None and kind not in ("pickup", "decline"):
            if st.pickup_optional:
                self.fail(
                    f"neither pickup nor decline, but citizen {here_waiting[0]} waits on field {to} and seat {seat} "
                    "may take it: with pickup = optional the mover answers take or leave"
                )
            self.fail(
                f"no pickup, but citizen {here_waiting[0]} waits on field {to} and seat {seat} "
                f"may take it ({len(st.aboard[seat])} aboard, {len(st.waiting())} waiting, pile {st.pile()}): "
                "taking is compulsory"
            )
        if kind == "decline":
            self.decline(ev, seat, to)
        elif kind == "pickup":
            self.pickup(ev, seat, to)
            if not st.waiting():
                self.end("no_waiting")
                return
        ev = self.peek()
        if isinstance(ev, dict) and ev.get("type") in ("drop", "pickup", "decline", "move"):
            self.fail(f"{ev.get('type')} out of place: one move, then drop, then pick-up or decline per turn")
        if st.turn >= st.max_turns:
            self.end("turn_limit")
            return
        if isinstance(ev, dict) and ev.get("type") == "end":
            self.fail(f"end after turn {st.turn} but {len(st.waiting())} citizens wait and max_turns is {st.max_turns}")

    def pickup(self, ev: dict, seat: int, here: int) -> None:
        st = self.st
        self.same(ev, "turn", st.turn)
        self.same(ev, "seat", seat)
        self.same(ev, "field", here, "pickup field")
        ks = ev.get("citizens")
        if not isinstance(ks, list) or not ks or not all(is_int(k) for k in ks) or len(set(ks)) != len(ks):
            self.fail(f"pickup citizens must be a non-empty list of distinct ids, got {ks!r}")
        for k in ks:
            if not 0 <= k < len(st.citizen_where) or st.citizen_where[k] != (
                "wait",
                here,
            ):
                where = st.citizen_where[k] if 0 <= k < len(st.citizen_where) else "never drawn"
                self.fail(f"pickup of citizen {k}: not waiting on field {here} (it is {where!r})")
            why = self.may_take(seat)
            if why:
                self.fail(f"pickup of citizen {k}: {why}")
            if (st.third_lock and st.pile() < 2) or (st.second_lock and len(st.waiting()) <= st.second_lock_waiting):
                st.endphase_checks += 1
            st.aboard[seat].append(k)
            st.citizen_where[k] = ("ride", seat)
            st.max_aboard = max(st.max_aboard, len(st.aboard[seat]))
        self.done(ev)
        for _ in ks:
            if st.pile() >= 2:
                self.citizen("a replacement for the citizen taken (the pile holds >= 2 cards)")
        nxt = self.peek()
        if isinstance(nxt, dict) and nxt.get("type") == "citizen":
            self.fail(f"citizen drawn but the pile holds {st.pile()} card(s) (< 2) or no citizen was taken to replace")

    def decline(self, ev: dict, seat: int, here: int) -> None:
        st = self.st
        self.same(ev, "turn", st.turn)
        self.same(ev, "seat", seat)
        self.same(ev, "field", here, "decline field")
        if not st.pickup_optional:
            self.fail("decline under pickup = compulsory: a citizen the taxi may take is taken")
        waiting = st.waiting_on(here)
        if not waiting:
            self.fail(f"decline on field {here}, where no citizen waits")
        why = self.may_take(seat)
        if why:
            self.fail(f"decline of a citizen seat {seat} may not take ({why}): there was nothing to decide")
        self.same(ev, "citizens", waiting, "declined citizens (the one waiting on the field)")
        st.declines += 1
        self.done(ev)

    def may_take(self, seat: int) -> str | None:
        """Why ``seat``'s taxi may not take a citizen now (capacity, end phase), or None."""
        st = self.st
        a = len(st.aboard[seat])
        w = len(st.waiting())
        if a >= st.capacity:
            return f"{a} aboard, capacity is {st.capacity}"
        if st.third_lock and st.pile() < 2 and a >= THIRD_PASSENGER:
            return f"passenger {a + 1} in the end phase: the pile ({st.pile()} cards) cannot supply a citizen, no 3rd passenger"
        if st.second_lock and w <= st.second_lock_waiting and a >= 1:
            return f"passenger {a + 1} in the end phase: only {w} citizens wait (<= {st.second_lock_waiting}), no 2nd passenger"
        return None

    def end(self, reason: str) -> None:
        st = self.st
        ev = self.take("end", why=f"game over: {reason}")
        self.same(ev, "reason", reason, "end reason")
        self.same(ev, "turn", st.turn, "end turn")
        self.same(ev, "income", st.income, "final income")
        best = max(st.income)
        leaders = [p for p, x in enumerate(st.income) if x == best]
        winner = leaders[0] if len(leaders) == 1 else -1
        if reason == "turn_limit" and TURN_LIMIT_WINNER == "none":
            winner = -1
        self.same(ev, "winner", winner, f"winner (income {st.income})")
        st.ended = True
        st.winner = winner
        st.reason = reason
        self.done(ev)


def referee_bahama(events: Sequence[dict], observer: Observer | None = None) -> BahamaState:
    """Replay ``events``; the final state, or :class:`IllegalTrace` at the first violation."""
    ref = BahamaReferee(events, observer)
    try:
        return ref.run()
    except IllegalTrace:
        raise
    except (KeyError, TypeError, IndexError, ValueError) as exc:  # malformed event
        raise IllegalTrace(ref.i, ref.peek() or {}, f"malformed event: {exc!r}") from exc


def referee(events: Sequence[dict]) -> None:
    """The contract's referee (tests/test_contract.py): AssertionError
    (:class:`IllegalTrace`) at the first event that breaks a rule."""
    referee_bahama(events)
