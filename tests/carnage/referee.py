"""Referee for Carnage traces (issue 2; rulebook ../shared/seeds/000_898c1d9018ac3fe3.txt).

Replays a trace event by event from its ``setup`` event alone and raises
:class:`IllegalTrace` at the first event that breaks a rule or carries a wrong
amount.  Imports nothing from ``sims/`` nor the kernel (an independent
reading of the rules): the standard library and the shared event cursor of
``tests/referees``.  ``referee(events)`` is what the contract test calls;
``replay(events, observer)`` also returns the replayed state.

Grammar of a trace (what this referee accepts)::

    setup
    spawn(cause=setup, roll=null) x 2          # spawned iff a token is free
    ( turn                                     # turns 1, 2, ... seats in order, losers skipped
        ( lose(stuck) [end]                    # stuck at start: nothing else that turn
        | action* spawn(cause=turn_end) upkeep [lose(bankrupt)] [end] )
    )*
    end                                        # nothing after it

    action := buy [end(cars)]
            | drop ( end(deliveries) | spawn(cause=drop) x len(commuters) )
            | move | take

Readings of details the issue leaves open (each is something the trace shows):

* Spawn roll: ``spawned`` is true iff ``roll <= threshold`` and a token is free
  (threshold ``spawn_on_drop`` or ``spawn_on_turn_end``).  The token id is any
  free one (the issue does not say which); the card index must be in range and
  ``origin``/``dest`` must equal that card.  Setup spawns carry ``roll: null``.
* A ``drop`` may set down any subset (non-empty) of the car's passengers whose
  destination is the street; a ``take`` any non-empty subset of the commuters
  waiting on the street.  Empty drop/take events are refused.  Each is at most
  once per car per turn, and likewise ``move``; actions of different cars and
  buys may interleave freely.
* A car bought this turn may not drop, move or take.  ``buy.car`` is the new
  car's fleet index (= cars owned before); ``win_cars`` counts all cars owned.
* Stuck: at the start of its turn a player with no car that has an adjacent
  street free of cars loses; the trace shows ``turn`` then ``lose(stuck)``.
* Upkeep: ``paid = upkeep_per_car x (cars owned - cars bought this turn)``;
  an ``upkeep`` event every completed turn (even when 0 is paid).
* End-of-turn checks, in order: bankruptcy (money <= 0 after upkeep) -> a
  ``lose``; one player left -> ``end(last_standing)``; gridlock -> ``end``;
  ``max_turns`` turns played -> ``end(turn_limit)``.  A turn ended by a stuck
  loss runs the same checks after its ``lose`` (see GRIDLOCK_COUNTS_STUCK_TURNS).
* Gridlock: the number of commuters waiting is sampled at the end of each turn
  (after upkeep); more than ``gridlock_limit`` at two consecutive turn ends ends
  the game, ``winner -1``.
* A loser's cars leave the board and its passengers' tokens return to the
  supply; its money and delivered count stay as they were.  In the ``end``
  event ``cars`` is the number of cars each seat owns on the board (0 for a
  loser, see LOSER_CARS_IN_END).
* The ``end`` event's ``turn`` is the number of the last turn begun.
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

PARAMS = (
    "start_money",
    "fare_per_block",
    "car_cost",
    "max_cars",
    "win_cars",
    "win_deliveries",
    "spawn_on_drop",
    "spawn_on_turn_end",
    "upkeep_per_car",
    "gridlock_limit",
    "max_turns",
    "car_capacity",
    "commuter_tokens",
)
SETUP_SPAWNS = 2
SPAWN_CARDS = 16  # "16 spawn cards"
MAX_ADJACENT = 6  # "the six adjacent streets": three at each end of a street
END_REASONS = ("deliveries", "cars", "last_standing", "gridlock", "turn_limit")

# Readings that the kernels may pin down in sims/carnage/RULES.md.
GRIDLOCK_COUNTS_STUCK_TURNS = (
    True  # a turn ended by a stuck loss is a "turn end" for gridlock
)
LOSER_CARS_IN_END = (
    "zero"  # "zero": a loser owns no car at the end; "fleet": cars it had
)


@dataclass
class CarnageState:
    """The replayed state (also the object property tests inspect)."""

    params: dict
    players: list
    adjacency: list
    hq: list
    cards: list
    dist: list
    money: list
    delivered: list
    fleet: list  # fleet[p][c] = street or None once the owner lost
    riding: list  # riding[p][c] = list of commuter ids
    alive: list
    token_where: list  # None (free) | ("wait", street) | ("ride", p, c)
    token_dest: list
    token_origin: list
    fares: list
    costs: list
    upkeep: list
    turn: int = 0
    seat: int = -1
    bought_now: set = field(default_factory=set)
    acted: dict = field(default_factory=dict)  # (car, action) -> True this turn
    over_limit_streak: int = 0
    ended: bool = False
    winner: int | None = None
    reason: str | None = None
    spawns: int = 0
    spawned: int = 0
    returned: int = 0  # tokens of losers' passengers sent back to the supply
    counts: dict = field(default_factory=dict)  # event type -> how many (coverage)
    max_waiting: int = 0
    max_aboard: int = 0

    # --- derived views ----------------------------------------------------
    def car_at(self, street: int) -> tuple[int, int] | None:
        for p, cars in enumerate(self.fleet):
            for c, s in enumerate(cars):
                if s == street:
                    return (p, c)
        return None

    def waiting_on(self, street: int) -> list[int]:
        return [
            k
            for k, w in enumerate(self.token_where)
            if w is not None and w[0] == "wait" and w[1] == street
        ]

    def n_waiting(self) -> int:
        return sum(1 for w in self.token_where if w is not None and w[0] == "wait")

    def n_riding(self) -> int:
        return sum(1 for w in self.token_where if w is not None and w[0] == "ride")

    def n_free(self) -> int:
        return sum(1 for w in self.token_where if w is None)

    def cars_owned(self, p: int) -> int:
        return sum(1 for s in self.fleet[p] if s is not None)

    def check_invariants(self) -> str | None:
        """Conservation and board invariants; the reason they fail, or None."""
        n_tok = self.params["commuter_tokens"]
        if self.n_free() + self.n_waiting() + self.n_riding() != n_tok:
            return "tokens not conserved"
        seen = {}
        for p, cars in enumerate(self.fleet):
            for c, s in enumerate(cars):
                if s is None:
                    continue
                if s in seen:
                    return f"two cars on street {s}: {seen[s]} and {(p, c)}"
                seen[s] = (p, c)
                if len(self.riding[p][c]) > self.params["car_capacity"]:
                    return f"car {(p, c)} over capacity"
        for k, w in enumerate(self.token_where):
            if w is not None and w[0] == "ride" and k not in self.riding[w[1]][w[2]]:
                return f"token {k} riding state inconsistent"
        start = self.params["start_money"]
        for p in range(len(self.players)):
            if self.money[p] != start + self.fares[p] - self.costs[p] - self.upkeep[p]:
                return f"money of seat {p} not conserved"
        return None


Observer = Callable[[int, dict, CarnageState], None]


class CarnageReferee(EventCursor):
    st: CarnageState

    def count_key(self, ev: dict) -> str:
        key = ev.get("type")
        if key == "spawn":
            return f"spawn:{ev.get('cause')}:{'yes' if ev.get('spawned') else 'no'}"
        if key in ("lose", "end"):
            return f"{key}:{ev.get('reason')}"
        return str(key)

    def field(self, ev: dict, key: str, kind: str = "int") -> Any:
        if key not in ev:
            self.fail(f"missing field {key!r}")
        v = ev[key]
        if kind == "int" and not is_int(v):
            self.fail(f"field {key!r} must be an integer, got {v!r}")
        return v

    def same(self, ev: dict, key: str, want: Any, what: str | None = None) -> None:
        got = ev.get(key, "<missing>")
        if not strict_equal(got, want):
            self.fail(f"{what or key} is {got!r}, expected {want!r}")

    # --- whole trace ------------------------------------------------------------
    def run(self) -> CarnageState:
        self.setup()
        st = self.st
        for _ in range(SETUP_SPAWNS):
            self.spawn("setup")
        while not st.ended:
            self.play_turn()
        if self.i != len(self.events):
            self.fail("event after end")
        return st

    def setup(self) -> None:
        ev = self.take("setup")
        if ev.get("game") != "carnage":
            self.fail(f"game is {ev.get('game')!r}, expected 'carnage'")
        self.field(ev, "seed")
        params = ev.get("params")
        if not isinstance(params, dict):
            self.fail("setup has no params object")
        for name in PARAMS:
            if name not in params:
                self.fail(f"setup params miss {name!r}")
            v = params[name]
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                self.fail(f"param {name}={v!r} is not a number")
        players = ev.get("players")
        if (
            not isinstance(players, list)
            or not 2 <= len(players) <= 4
            or not all(isinstance(x, str) for x in players)
        ):
            self.fail(f"players must be a list of 2-4 names, got {players!r}")
        n = len(players)
        board = ev.get("board")
        if not isinstance(board, dict):
            self.fail("setup has no board object")
        adj = board.get("adjacency")
        why = check_graph(adj)
        if why:
            self.fail(f"board: {why}")
        ns = len(adj)
        wide = [u for u, row in enumerate(adj) if len(row) > MAX_ADJACENT]
        if wide:
            self.fail(
                f"board: street {wide[0]} touches {len(adj[wide[0]])} streets, at most {MAX_ADJACENT}"
            )
        hq = board.get("hq")
        if not isinstance(hq, list) or len(hq) != n:
            self.fail(f"board hq must list a street per seat ({n}), got {hq!r}")
        if any(not is_int(s) or not 0 <= s < ns for s in hq) or len(set(hq)) != n:
            self.fail(f"board hq {hq!r}: seats need distinct streets 0..{ns - 1}")
        cards = board.get("spawn_cards")
        if not isinstance(cards, list) or len(cards) != SPAWN_CARDS:
            self.fail(f"board must have {SPAWN_CARDS} spawn_cards")
        for j, card in enumerate(cards):
            if (
                not isinstance(card, list)
                or len(card) != 2
                or not all(is_int(s) and 0 <= s < ns for s in card)
                or card[0] == card[1]
            ):
                self.fail(
                    f"spawn card {j} {card!r} must be [origin, dest], distinct streets"
                )
        money = ev.get("money")
        want = [params["start_money"]] * n
        if money != want:
            self.fail(
                f"setup money is {money!r}, expected start_money for every seat {want!r}"
            )
        n_tok = params["commuter_tokens"]
        self.st = CarnageState(
            params=dict(params),
            players=list(players),
            adjacency=[list(r) for r in adj],
            hq=list(hq),
            cards=[tuple(c) for c in cards],
            dist=bfs_distances(adj),
            money=list(want),
            delivered=[0] * n,
            fleet=[[hq[p]] for p in range(n)],
            riding=[[[]] for _ in range(n)],
            alive=[True] * n,
            token_where=[None] * n_tok,
            token_dest=[None] * n_tok,
            token_origin=[None] * n_tok,
            fares=[0] * n,
            costs=[0] * n,
            upkeep=[0] * n,
        )
        self.done(ev)

    # --- spawns -----------------------------------------------------------------
    def spawn(self, cause: str) -> None:
        st = self.st
        ev = self.take("spawn", why=f"a {cause} spawn")
        self.same(ev, "turn", st.turn)
        self.same(ev, "cause", cause, f"spawn cause (a {cause} spawn is due)")
        roll = ev.get("roll", "<missing>")
        if cause == "setup":
            if roll is not None:
                self.fail(f"setup spawn has roll {roll!r}, expected null")
            hit = True
        else:
            if not is_int(roll) or not 1 <= roll <= 6:
                self.fail(f"spawn roll {roll!r} is not a d6 result 1..6")
            limit = st.params[
                "spawn_on_drop" if cause == "drop" else "spawn_on_turn_end"
            ]
            hit = roll <= limit
        free = [k for k, w in enumerate(st.token_where) if w is None]
        should = hit and bool(free)
        spawned = ev.get("spawned")
        if not isinstance(spawned, bool):
            self.fail(f"spawned must be true or false, got {spawned!r}")
        st.spawns += 1
        if spawned != should:
            if not hit:
                self.fail(
                    f"spawned={spawned} but roll {roll} is above the {cause} threshold: expected no spawn"
                )
            if not free:
                self.fail(
                    f"spawned={spawned} but no commuter token is free: expected no spawn"
                )
            self.fail(
                f"spawned={spawned} but roll {roll!r} with a free token: expected a spawn"
            )
        if not spawned:
            for key in ("card", "commuter", "origin", "dest"):
                if ev.get(key) is not None:
                    self.fail(f"spawn that did not spawn carries {key}")
            self.done(ev)
            return
        card = self.field(ev, "card")
        if not 0 <= card < len(st.cards):
            self.fail(f"spawn card {card} out of range 0..{len(st.cards) - 1}")
        origin, dest = st.cards[card]
        self.same(ev, "origin", origin, f"spawn origin (card {card})")
        self.same(ev, "dest", dest, f"spawn dest (card {card})")
        k = self.field(ev, "commuter")
        if not 0 <= k < len(st.token_where):
            self.fail(f"commuter token {k} out of range 0..{len(st.token_where) - 1}")
        if st.token_where[k] is not None:
            self.fail(f"commuter token {k} is not free (it is {st.token_where[k]!r})")
        st.token_where[k] = ("wait", origin)
        st.token_origin[k] = origin
        st.token_dest[k] = dest
        st.spawned += 1
        st.max_waiting = max(st.max_waiting, st.n_waiting())
        self.done(ev)

    # --- turns ------------------------------------------------------------------
    def next_seat(self) -> int:
        st = self.st
        n = len(st.players)
        s = st.seat
        for _ in range(n):
            s = (s + 1) % n
            if st.alive[s]:
                return s
        raise AssertionError("no seat alive")  # unreachable: game ends first

    def can_move(self, p: int) -> bool:
        st = self.st
        occupied = {s for cars in st.fleet for s in cars if s is not None}
        return any(
            s is not None and any(t not in occupied for t in st.adjacency[s])
            for s in st.fleet[p]
        )

    def play_turn(self) -> None:
        st = self.st
        ev = self.take("turn")
        seat = self.next_seat()
        st.turn += 1
        self.same(ev, "turn", st.turn, "turn number")
        self.same(ev, "seat", seat, "seat to play")
        st.seat = seat
        st.bought_now = set()
        st.acted = {}
        self.done(ev)

        if not self.can_move(seat):
            ev = self.take("lose", why=f"seat {seat} is stuck: no car can move")
            self.same(ev, "turn", st.turn)
            self.same(ev, "seat", seat)
            self.same(
                ev,
                "reason",
                "stuck",
                f"loss reason (seat {seat} has no car that can move)",
            )
            self.eliminate(seat)
            self.done(ev)
            self.end_of_turn(stuck=True)
            return

        while True:
            ev = self.peek()
            kind = ev.get("type") if isinstance(ev, dict) else None
            if kind == "lose":
                self.fail(
                    f"lose during the turn: seat {seat} can move a car, so it is not stuck"
                )
            if kind == "spawn" and ev.get("cause") == "turn_end":
                break
            if kind == "upkeep":
                self.fail("upkeep without the turn_end spawn before it")
            if kind == "end":
                self.fail(f"end in the middle of turn {st.turn} but no win happened")
            ev = self.take("buy", "drop", "move", "take", "spawn")
            if ev.get("type") == "spawn":
                self.fail(
                    f"spawn with cause {ev.get('cause')!r} where no drop is pending: expected an action or the turn_end spawn"
                )
            if ev.get("turn") != st.turn or ev.get("seat") != seat:
                self.fail(
                    f"action belongs to turn {ev.get('turn')!r} seat {ev.get('seat')!r}, expected turn {st.turn} seat {seat}"
                )
            getattr(self, "do_" + ev["type"])(ev)
            if st.ended:
                return

        self.spawn("turn_end")
        ev = self.take("upkeep", why="upkeep follows the turn_end spawn")
        self.same(ev, "turn", st.turn)
        self.same(ev, "seat", seat)
        n_cars = st.cars_owned(seat) - len(st.bought_now)
        paid = st.params["upkeep_per_car"] * n_cars
        self.same(
            ev,
            "paid",
            paid,
            f"upkeep paid ({n_cars} cars not bought this turn x {st.params['upkeep_per_car']})",
        )
        st.money[seat] -= paid
        st.upkeep[seat] += paid
        self.same(ev, "money", st.money[seat], "money after upkeep")
        self.done(ev)
        if st.money[seat] <= 0:
            ev = self.take(
                "lose", why=f"seat {seat} is bankrupt with money {st.money[seat]}"
            )
            self.same(ev, "turn", st.turn)
            self.same(ev, "seat", seat)
            self.same(
                ev, "reason", "bankrupt", f"loss reason (money {st.money[seat]} <= 0)"
            )
            self.eliminate(seat)
            self.done(ev)
        elif isinstance(self.peek(), dict) and self.peek().get("type") == "lose":
            self.fail(
                f"lose but seat {seat} has money {st.money[seat]} > 0 after upkeep"
            )
        self.end_of_turn(stuck=False)

    def end_of_turn(self, stuck: bool) -> None:
        st = self.st
        alive = [p for p in range(len(st.players)) if st.alive[p]]
        if len(alive) == 1:
            self.end(alive[0], "last_standing")
            return
        if not stuck or GRIDLOCK_COUNTS_STUCK_TURNS:
            if st.n_waiting() > st.params["gridlock_limit"]:
                st.over_limit_streak += 1
            else:
                st.over_limit_streak = 0
            if st.over_limit_streak >= 2:
                self.end(-1, "gridlock")
                return
        if st.turn >= st.params["max_turns"]:
            self.end(-1, "turn_limit")
            return
        ev = self.peek()
        if isinstance(ev, dict) and ev.get("type") == "end":
            self.fail(
                f"end after turn {st.turn} but nothing ends the game (alive {alive}, "
                f"{st.n_waiting()} waiting, streak {st.over_limit_streak}, max_turns {st.params['max_turns']})"
            )

    def end(self, winner: int, reason: str) -> None:
        st = self.st
        ev = self.take("end", why=f"game over: {reason}, winner {winner}")
        self.same(ev, "reason", reason, "end reason")
        self.same(ev, "winner", winner, "winner")
        self.same(ev, "turn", st.turn, "end turn")
        self.same(ev, "money", st.money, "final money")
        self.same(ev, "delivered", st.delivered, "final delivered")
        if LOSER_CARS_IN_END == "zero":
            cars = [st.cars_owned(p) for p in range(len(st.players))]
        else:
            cars = [len(f) for f in st.fleet]
        self.same(ev, "cars", cars, "final cars")
        st.ended = True
        st.winner = winner
        st.reason = reason
        self.done(ev)

    def eliminate(self, p: int) -> None:
        st = self.st
        st.alive[p] = False
        for c in range(len(st.fleet[p])):
            for k in st.riding[p][c]:
                st.token_where[k] = None
                st.returned += 1
            st.riding[p][c] = []
            st.fleet[p][c] = None

    # --- actions ----------------------------------------------------------------
    def car(self, ev: dict, action: str) -> int:
        st = self.st
        c = self.field(ev, "car")
        if not 0 <= c < len(st.fleet[st.seat]) or st.fleet[st.seat][c] is None:
            self.fail(f"seat {st.seat} has no car {c}")
        if c in st.bought_now:
            self.fail(f"car {c} was bought this turn and cannot {action}")
        if st.acted.get((c, action)):
            self.fail(
                f"car {c} already did {action} this turn (each of drop/move/take at most once)"
            )
        st.acted[(c, action)] = True
        return c

    def commuters(self, ev: dict) -> list[int]:
        ks = ev.get("commuters")
        if not isinstance(ks, list) or not ks or not all(is_int(k) for k in ks):
            self.fail(f"commuters must be a non-empty list of token ids, got {ks!r}")
        if len(set(ks)) != len(ks):
            self.fail(f"commuters {ks} name a token twice")
        if any(not 0 <= k < len(self.st.token_where) for k in ks):
            self.fail(f"commuters {ks} out of token range")
        return ks

    def do_buy(self, ev: dict) -> None:
        st = self.st
        p = st.seat
        cost = st.params["car_cost"]
        self.same(ev, "cost", cost, "car cost")
        self.same(ev, "street", st.hq[p], "bought car's street (the HQ)")
        self.same(ev, "car", len(st.fleet[p]), "new car's fleet index")
        if st.money[p] < cost:
            self.fail(f"buy with money {st.money[p]} < car_cost {cost}")
        if st.cars_owned(p) >= st.params["max_cars"]:
            self.fail(f"buy but seat {p} already owns max_cars={st.params['max_cars']}")
        occ = st.car_at(st.hq[p])
        if occ is not None:
            self.fail(f"buy but HQ street {st.hq[p]} is occupied by car {occ}")
        st.money[p] -= cost
        st.costs[p] += cost
        st.bought_now.add(len(st.fleet[p]))
        st.fleet[p].append(st.hq[p])
        st.riding[p].append([])
        self.done(ev)
        if st.cars_owned(p) >= st.params["win_cars"]:
            self.end(p, "cars")

    def do_move(self, ev: dict) -> None:
        st = self.st
        c = self.car(ev, "move")
        here = st.fleet[st.seat][c]
        self.same(ev, "from", here, f"move origin (car {c}'s street)")
        to = self.field(ev, "to")
        if not 0 <= to < len(st.adjacency) or to not in st.adjacency[here]:
            self.fail(
                f"move {here}->{to}: street {to} is not adjacent to {here} (adjacent: {st.adjacency[here]})"
            )
        occ = st.car_at(to)
        if occ is not None:
            self.fail(f"move {here}->{to}: street {to} is occupied by car {occ}")
        st.fleet[st.seat][c] = to
        self.done(ev)

    def do_take(self, ev: dict) -> None:
        st = self.st
        p = st.seat
        c = self.car(ev, "take")
        here = st.fleet[p][c]
        self.same(ev, "street", here, f"take street (car {c}'s street)")
        ks = self.commuters(ev)
        for k in ks:
            if st.token_where[k] != ("wait", here):
                self.fail(
                    f"take of commuter {k}: it is not waiting on street {here} (it is {st.token_where[k]!r})"
                )
        cap = st.params["car_capacity"]
        if len(st.riding[p][c]) + len(ks) > cap:
            self.fail(
                f"take of {len(ks)} with {len(st.riding[p][c])} aboard exceeds car_capacity {cap}"
            )
        fpb = st.params["fare_per_block"]
        blocks = [st.dist[st.token_origin[k]][st.token_dest[k]] for k in ks]
        fare = fpb * sum(blocks)
        self.same(ev, "fare", fare, f"fare (fare_per_block {fpb} x blocks {blocks})")
        for k in ks:
            st.token_where[k] = ("ride", p, c)
            st.riding[p][c].append(k)
        st.money[p] += fare
        st.fares[p] += fare
        st.max_aboard = max(st.max_aboard, len(st.riding[p][c]))
        self.done(ev)

    def do_drop(self, ev: dict) -> None:
        st = self.st
        p = st.seat
        c = self.car(ev, "drop")
        here = st.fleet[p][c]
        self.same(ev, "street", here, f"drop street (car {c}'s street)")
        ks = self.commuters(ev)
        for k in ks:
            if k not in st.riding[p][c]:
                self.fail(
                    f"drop of commuter {k}: not riding in car {c} (aboard: {st.riding[p][c]})"
                )
            if st.token_dest[k] != here:
                self.fail(
                    f"drop of commuter {k} on street {here}: its destination is {st.token_dest[k]}"
                )
        for k in ks:
            st.riding[p][c].remove(k)
            st.token_where[k] = None
        st.delivered[p] += len(ks)
        self.done(ev)
        if st.delivered[p] >= st.params["win_deliveries"]:
            self.end(p, "deliveries")
            return
        for _ in ks:
            self.spawn("drop")


def replay(events: Sequence[dict], observer: Observer | None = None) -> CarnageState:
    """Replay ``events``; the final state, or :class:`IllegalTrace` at the first
    violation.  ``observer(i, event, state)`` is called after each accepted event."""
    ref = CarnageReferee(events, observer)
    try:
        return ref.run()
    except IllegalTrace:
        raise
    except (KeyError, TypeError, IndexError, ValueError) as exc:  # malformed event
        raise IllegalTrace(
            ref.i, ref.peek() or {}, f"malformed event: {exc!r}"
        ) from exc


def referee(events: Sequence[dict]) -> None:
    """The contract's referee (tests/test_contract.py): :class:`IllegalTrace`, an
    AssertionError naming the event, at the first event that breaks a rule."""
    replay(events)
