"""Carmarace referee: an independent replay of a trace against the rules.

Written from the specification (../shared/specs/carmarace.md, sections (c) and
(g)) without reading the kernel: it rebuilds the map, the cards and the
parameters from the ``setup`` event alone (togo is recomputed here), then
replays every event -- draws and shuffles against the piles it keeps, each
transport's playability, each Karma card's legality and the order of
opportunities in the karma round, moves to the closest road (votes, rolls),
Good-Karma steps, removals, every step of every move (classes, Stop signs,
arrows and their rolls), cleanups and refills -- and the ``end`` event.  It
imports nothing from ``sims`` nor ``balance``: only the standard library and
the shared event cursor.

``referee(events, observer=None)`` raises ``AssertionError`` (IllegalTrace)
naming the first event that breaks a rule.  ``observer(i, event, state)`` is
called after each accepted event with the replayed state (properties).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Callable

from tests.referees import EventCursor, is_int, strict_equal

DECKS = ("transport", "road", "train", "plane")
ROAD_KINDS = ("lot", "road", "convention")
TRACK_KINDS = ("track", "station")
SKY_KINDS = ("sky", "airport")
REMOVALS = ("remove_negative", "remove_positive", "remove_all")


def kind_class(kind: str) -> str:
    if kind in ROAD_KINDS:
        return "road"
    if kind in TRACK_KINDS:
        return "track"
    if kind in SKY_KINDS:
        return "sky"
    raise AssertionError(f"unknown space kind {kind!r}")


class Replay:
    """The replayed game: map, cards, piles, hands, pawns, the current ride."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.params = setup["params"]
        self.players = setup["players"]
        self.n = len(self.players)
        b = setup["board"]
        self.nodes = b["nodes"]
        self.kind = b["kind"]
        self.adj = b["adjacency"]
        self.stop = b["stop"]
        self.gps = b["gps"]
        self.land = b["land"]
        self.number = b["number"]
        self.convention = b["convention"]
        self.cls = [kind_class(k) for k in self.kind]
        self.togo = self._togo()
        self.cards = setup["cards"]
        self.young = bool(self.params["young_players"])
        self.counts: dict[str, int] = {}
        self.draw: dict[str, list[int]] = {}  # top first
        self.discard: dict[str, list[int]] = {d: [] for d in DECKS}
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.front: list[int | None] = [None] * self.n
        self.stays: list[int] = [0] * self.n
        self.pawn: list[int] = list(setup["start"])
        self.vehicle: int | None = None
        self.vehicle_kept = False
        self.slots: list[list[int]] = []  # each slot bottom to top
        self.removed: set[int] = set()
        self.pending: list[int] = []  # gift cards not yet handed out
        self.hand_limit = 0
        self.max_hand = 0
        self.turn = 0
        self.winner: int | None = None

    # ----- the map
    def _togo(self) -> list[int]:
        """Fewest no-boarding steps to the Convention (b.1), by BFS over reversed edges."""
        n = len(self.nodes)
        back: list[list[int]] = [[] for _ in range(n)]
        for u in range(n):
            for w in self.adj[u]:
                ok = (
                    self.cls[w] == "road"
                    or (self.kind[u] == "track" and self.cls[w] == "track")
                    or (self.kind[u] == "sky" and self.cls[w] == "sky")
                )
                if ok:
                    back[w].append(u)
        dist = [-1] * n
        dist[self.convention] = 0
        q = deque([self.convention])
        while q:
            w = q.popleft()
            for u in back[w]:
                if dist[u] < 0:
                    dist[u] = dist[w] + 1
                    q.append(u)
        return dist

    # ----- cards
    def card(self, c: int) -> dict[str, Any]:
        return self.cards[c]

    def effect(self, c: int) -> str:
        return "none" if self.young else self.cards[c]["effect"]

    def vclass(self, c: int) -> tuple[str, bool, bool]:
        """(mode, uses tracks, ignores stops) as played (R24: card text ignored)."""
        card = self.cards[c]
        if card["mode"] != "road" or self.young:
            return card["mode"], False, False
        return "road", bool(card["tracks"]), bool(card["ignores_stops"])

    def limit(self, c: int) -> int:
        return max(0, self.cards[c]["limit"] + self.params["karma_limit_delta"])

    # ----- R17 / R18
    def step_ok(self, c: int, u: int, w: int, entered: bool) -> bool:
        if w not in self.adj[u]:
            return False
        mode, tracks, ignores = self.vclass(c)
        cu, cw, ku, kw = self.cls[u], self.cls[w], self.kind[u], self.kind[w]
        if mode == "road" and not tracks:
            ok = cw == "road" and (cu == "road" or ku in ("station", "airport"))
        elif mode == "road":
            ok = cw in ("road", "track") and ku != "sky"
        elif mode == "train":
            ok = cw == "track" and (cu == "track" or (cu == "road" and kw == "station"))
        else:
            ok = cw == "sky" and (cu == "sky" or (cu == "road" and kw == "airport"))
        if ok and entered and self.stop[u] and not ignores:
            ok = tracks and cw == "track"
        return ok

    def playable(self, c: int, u: int) -> bool:
        return any(self.step_ok(c, u, w, False) for w in self.adj[u])

    def karma_ok(self, c: int, slot: int) -> bool:
        card = self.cards[c]
        if card["deck"] == "transport" or self.vehicle is None:
            return False
        if self.params["karma_must_match"] and card["deck"] != self.cards[self.vehicle]["mode"]:
            return False
        if self.effect(c) == "on_top":
            return is_int(slot) and 0 <= slot < len(self.slots)
        return slot == len(self.slots) and len(self.slots) < self.limit(self.vehicle)

    def drawable(self, deck: str) -> bool:
        return bool(self.draw[deck]) or bool(self.discard[deck])

    def any_drawable(self) -> bool:
        return any(self.drawable(d) for d in DECKS)

    def step_options(self, u: int) -> list[int]:
        """R14: where a Good-Karma step may go from ``u``."""
        if self.gps[u] is not None:
            return list(self.adj[u])
        k = self.kind[u]
        want = "track" if k == "track" else "sky" if k == "sky" else "road"
        return [w for w in self.adj[u] if self.cls[w] == want]

    # ----- invariants
    def check_invariants(self) -> str | None:
        seen: dict[int, str] = {}
        places: list[tuple[str, list[int]]] = []
        for d in DECKS:
            places.append((f"{d} draw pile", self.draw.get(d, [])))
            places.append((f"{d} discard pile", self.discard[d]))
        places.append(("the gifts", self.pending))
        for s in range(self.n):
            places.append((f"seat {s}'s hand", self.hands[s]))
            if self.front[s] is not None:
                places.append((f"seat {s}'s card in front", [self.front[s]]))
        if self.vehicle is not None and not self.vehicle_kept:
            places.append(("the vehicle", [self.vehicle]))
        for k, slot in enumerate(self.slots):
            places.append((f"slot {k}", slot))
        for where, cards in places:
            for c in cards:
                if c in seen:
                    return f"card {c} is both in {seen[c]} and in {where}"
                seen[c] = where
        if len(seen) != len(self.cards):
            missing = sorted(set(range(len(self.cards))) - set(seen))
            return f"cards lost: {missing[:5]}"
        for s in range(self.n):
            if len(self.hands[s]) > self.max_hand:
                return f"seat {s} holds {len(self.hands[s])} cards, more than {self.max_hand}"
            if not 0 <= self.pawn[s] < len(self.nodes):
                return f"seat {s}'s pawn is off the map"
        return None


class Referee(EventCursor):
    def __init__(self, events: list[dict], observer: Callable[[int, dict, Any], None] | None = None) -> None:
        super().__init__(events, observer)

    # ----- helpers
    def expect(self, ev: dict, **fields: Any) -> None:
        for key, want in fields.items():
            if key not in ev:
                self.fail(f"missing field {key!r}")
            if not strict_equal(ev[key], want):
                self.fail(f"{key} is {ev[key]!r}, expected {want!r}")

    def next_event(self, *types: str, why: str = "") -> dict:
        ev = self.take(*types, why=why)
        if ev.get("turn") != self.st.turn:
            self.fail(f"turn is {ev.get('turn')!r}, expected {self.st.turn}")
        return ev

    def accept(self, ev: dict) -> None:
        self.done(ev)

    # ----- draws (R5-R7, R22)
    def draw(self, seat: int, phase: str) -> None:
        st = self.st
        ev = self.peek()
        if ev is not None and ev.get("type") == "shuffle":
            deck = ev.get("deck")
            if deck not in DECKS:
                self.fail(f"unknown deck {deck!r}")
            if st.draw[deck]:
                self.fail(f"the {deck} deck is reshuffled while its draw pile holds cards (R7: lazily)")
            if not st.discard[deck]:
                self.fail(f"the {deck} deck is reshuffled from an empty discard pile")
            order = ev.get("order")
            if not isinstance(order, list) or sorted(order) != sorted(st.discard[deck]):
                self.fail(f"shuffle order is not the {deck} discard pile")
            self.expect(ev, turn=st.turn)
            st.draw[deck] = list(order)
            st.discard[deck] = []
            self.accept(ev)
        ev = self.next_event("draw")
        deck = ev.get("deck")
        if deck not in DECKS:
            self.fail(f"unknown deck {deck!r}")
        if not st.draw[deck]:
            self.fail(f"a draw from the empty {deck} draw pile without its shuffle")
        c = st.draw[deck].pop(0)
        st.hands[seat].append(c)
        self.expect(ev, seat=seat, card=c, phase=phase, hand=len(st.hands[seat]))
        self.accept(ev)

    def draws_while(self, seat: int, phase: str, more: Callable[[], bool]) -> None:
        while True:
            ev = self.peek()
            if ev is not None and ev.get("type") == "shuffle" and self.i + 1 < len(self.events):
                ev = self.events[self.i + 1]
            if ev is None or ev.get("type") != "draw" or (phase == "setup" and ev.get("seat") != seat):
                return
            if not more():
                self.fail(f"a {phase} draw beyond what the rules allow")
            self.draw(seat, phase)

    # ----- the game
    def run(self) -> None:
        ev = self.take("setup")
        for key in ("params", "players", "board", "cards", "decks", "start", "squares", "hand_limit", "gifts"):
            if key not in ev:
                self.fail(f"setup misses {key!r}")
        if ev.get("turn") != 0:
            self.fail("setup turn must be 0")
        st = Replay(ev)
        self.st = st
        n = st.n
        if not 2 <= n <= 6:
            self.fail(f"{n} players: Carmarace seats 2 to 6")
        p = st.params
        # R4 hand limit
        h = p["hand_limit"] or (4 if n == 2 else 5 if n <= 4 else 6)
        if ev["hand_limit"] != h:
            self.fail(f"hand_limit {ev['hand_limit']}, expected {h}")
        st.hand_limit = h
        st.max_hand = max(h, 2)
        # the cards: ids in order, decks grouped
        for i, c in enumerate(st.cards):
            if c.get("id") != i:
                self.fail(f"card {i} has id {c.get('id')!r}")
        # R2 start squares
        lot = sorted((num, i) for i, num in enumerate(st.number) if num is not None)
        squares = ev["squares"]
        if [st.number[v] if 0 <= v < len(st.nodes) else None for v in ev["start"]] != squares or len(squares) != n:
            self.fail("squares are not the lot numbers of the start spaces")
        numbers = [num for num, _ in lot]
        if p["start_squares"] == "lowest":
            want = numbers[:n]
        elif p["start_squares"] == "highest":
            want = numbers[len(numbers) - n :]
        else:
            want = sorted(squares)
            if len(set(squares)) != n or any(s not in numbers for s in squares):
                self.fail("random start squares must be distinct lot squares")
        if squares != want:
            self.fail(f"start squares {squares}, expected {want} (seat order = square order)")
        if st.togo[self.st.convention] != 0 or any(t < 0 for t in st.togo):
            self.fail("the map has a space with no finite togo")
        # R3 gifts (handed out in the gift events that follow)
        gifts = ev["gifts"]
        expected: list[tuple[int, int]] = []
        given: set[str] = set()
        if p["start_gifts"]:
            for s in range(n):
                kinds = {st.kind[w] for w in st.adj[st.pawn[s]]}
                for where in ("airport", "station"):
                    if where in kinds and where not in given and gifts.get(where) is not None:
                        given.add(where)
                        expected.append((s, gifts[where]))
        gifted = {c for _, c in expected}
        st.pending = sorted(gifted)
        for d in DECKS:
            order = ev["decks"].get(d)
            ids = [c["id"] for c in st.cards if c["deck"] == d and c["id"] not in gifted]
            if not isinstance(order, list) or sorted(order) != ids:
                self.fail(f"setup deck {d} is not the {d} cards less the gifts")
            st.draw[d] = list(order)
        self.accept(ev)
        for s, c in expected:
            ev = self.next_event("gift", why="R3")
            self.expect(ev, seat=s, card=c)
            st.pending.remove(c)
            st.hands[s].append(c)
            self.accept(ev)
        # R5 starting hands
        for s in range(n):
            self.draws_while(s, "setup", lambda s=s: len(st.hands[s]) < h)
            if len(st.hands[s]) < h and st.any_drawable():
                self.fail(f"seat {s}'s starting hand stops at {len(st.hands[s])} cards (R5: up to {h})")
        max_turns = p["max_turns"]
        while True:
            st.turn += 1
            if self.play_turn():
                break
            if st.turn >= max_turns:
                ev = self.next_event("end", why="turn limit")
                self.expect(ev, winner=-1, reason="turn_limit", at=st.pawn,
                            togo=[st.togo[v] for v in st.pawn])
                self.accept(ev)
                break
        if self.i != len(self.events):
            self.fail("events after the end")

    def finish(self, seat: int) -> bool:
        st = self.st
        ev = self.next_event("end", why="a pawn reached the Convention")
        self.expect(ev, winner=seat, reason="convention", at=st.pawn, togo=[st.togo[v] for v in st.pawn])
        st.winner = seat
        self.accept(ev)
        return True

    def play_turn(self) -> bool:
        """One player turn; True when the game ended in it."""
        st = self.st
        p = st.params
        n = st.n
        seat = (st.turn - 1) % n
        h = st.hand_limit
        ev = self.next_event("turn")
        self.expect(ev, seat=seat, at=st.pawn[seat])
        self.accept(ev)
        # R6 draw
        self.draws_while(seat, "draw", lambda: len(st.hands[seat]) < h)
        # R8 the card in front
        u = st.pawn[seat]
        front = st.front[seat]
        ev = self.peek()
        if ev is not None and ev.get("type") == "leave":
            ev = self.next_event("leave")
            if front is None:
                self.fail("leave without a card in front")
            self.expect(ev, seat=seat, card=front)
            if st.cards[front]["mode"] == "plane" and st.kind[u] == "sky":
                self.fail("a plane aloft is left (R8: it must be ridden)")
            st.front[seat] = None
            st.stays[seat] = 0
            st.discard[st.cards[front]["deck"]].append(front)
            front = None
            self.accept(ev)
        elif front is not None:
            if st.cards[front]["mode"] == "plane" and st.kind[u] != "sky":
                self.fail("a plane in front whose pawn is not aloft must be left")
            if st.cards[front]["mode"] == "road" and not st.playable(front, u):
                self.fail("a kept vehicle that cannot move must be left (R8)")
        ev = self.next_event("transport")
        c = ev.get("card")
        if front is not None:
            self.expect(ev, seat=seat, card=front, kept=True, limit=st.limit(front))
            c = front
        elif c is None:
            self.expect(ev, seat=seat, kept=False, limit=None)
        else:
            if not is_int(c) or c not in st.hands[seat]:
                self.fail(f"transport card {c!r} is not in seat {seat}'s hand")
            if st.cards[c]["deck"] != "transport":
                self.fail(f"card {c} is not a Transportation card")
            if not st.playable(c, u):
                self.fail(f"card {c} ({st.cards[c]['name']}) cannot make a first step from {st.nodes[u]} (R8)")
            self.expect(ev, seat=seat, kept=False, limit=st.limit(c))
            st.hands[seat].remove(c)
            keep = 0 if (st.young or st.cards[c]["mode"] != "road") else st.cards[c]["keep"]
            st.stays[seat] = keep
        if c is None:
            self.accept(ev)
            return self.refill(seat)
        st.vehicle = c
        st.vehicle_kept = front is not None
        st.slots = []
        st.removed = set()
        self.accept(ev)
        # R9 own Karma card
        ev = self.peek()
        if ev is not None and ev.get("type") == "karma" and ev.get("seat") == seat:
            if self.karma(seat, seat):
                return self.cleanup(seat, landed=True)
        # R10 the karma round
        passed: set[int] = set()
        opp = (seat + 1) % n
        while len(passed) < n:
            while opp in passed:
                opp = (opp + 1) % n
            ev = self.next_event("karma", "pass", why=f"seat {opp}'s opportunity")
            if ev.get("seat") != opp:
                self.fail(f"seat {ev.get('seat')!r} acts at seat {opp}'s opportunity")
            if ev["type"] == "pass":
                passed.add(opp)
                self.accept(ev)
            else:
                if self.karma(opp, seat):
                    return self.cleanup(seat, landed=True)
                c = ev["card"]
                if p["good_karma_step"] and opp != seat and st.cards[c]["speed"] > 0:
                    nxt = self.peek()
                    if nxt is not None and nxt.get("type") == "step":
                        if self.good_karma_step(opp):
                            return True
            opp = (opp + 1) % n
        # R15 removals
        self.removals(seat)
        # R16-R20 the move
        if self.move(seat):
            return True
        return self.cleanup(seat, landed=False)

    def karma(self, player: int, active: int) -> bool:
        """A karma event by ``player`` (R11-R13); True when a land card ended the ride."""
        st = self.st
        ev = self.next_event("karma")
        c = ev.get("card")
        slot = ev.get("slot")
        if not is_int(c) or c not in st.hands[player]:
            self.fail(f"karma card {c!r} is not in seat {player}'s hand")
        if not st.karma_ok(c, slot):
            self.fail(f"karma card {c} ({st.cards[c]['name']}) at slot {slot!r} is illegal (R11)")
        st.hands[player].remove(c)
        if slot == len(st.slots):
            st.slots.append([c])
        else:
            st.slots[slot].append(c)
        self.accept(ev)
        if st.effect(c) == "land":
            self.land(active, c)
            return True
        return False

    def land(self, seat: int, c: int) -> None:
        """R13: move to the closest road or track; ties by vote or roll."""
        st = self.st
        ev = self.next_event("land", why="R13")
        u = st.pawn[seat]
        entries = st.land[u] or []
        by = None
        roll = None
        tied: list[int] = []
        if not entries:
            to = u
        elif len(entries) == 1:
            to = entries[0]
        else:
            tied = sorted(entries)
            if st.params["tie_rule"] == "random":
                roll = ev.get("roll")
                if not is_int(roll) or not 1 <= roll <= len(tied):
                    self.fail(f"land roll {roll!r} is not in 1..{len(tied)}")
                to = tied[roll - 1]
            else:
                largest = True
                if st.n == 2:
                    far = [st.togo[st.pawn[s]] for s in range(2)]
                    by = 1 if far[1] >= far[0] else 0
                    largest = by != seat
                key = (lambda v: (-st.togo[v], v)) if largest else (lambda v: (st.togo[v], v))
                to = min(tied, key=key)
        self.expect(ev, seat=seat, card=c, tied=tied, by=by, roll=roll)
        if ev.get("from") != u:
            self.fail(f"land from {ev.get('from')!r}, the pawn is on {u}")
        if ev.get("to") != to:
            self.fail(f"land to {ev.get('to')!r}, expected {to}")
        st.pawn[seat] = to
        self.accept(ev)

    def good_karma_step(self, player: int) -> bool:
        st = self.st
        ev = self.next_event("step")
        u = st.pawn[player]
        w = ev.get("to")
        self.expect(ev, seat=player)
        if ev.get("from") != u:
            self.fail(f"step from {ev.get('from')!r}, the pawn is on {u}")
        if w not in st.step_options(u):
            self.fail(f"step to {w!r} is not a Good-Karma step from {st.nodes[u]} (R14)")
        st.pawn[player] = w
        self.accept(ev)
        if w == st.convention:
            return self.finish(player)
        return False

    def removals(self, seat: int) -> None:
        st = self.st
        for s, stack in enumerate(st.slots):
            if s in st.removed:
                continue
            top = stack[-1]
            e = st.effect(top)
            if e not in REMOVALS:
                continue
            gone = []
            for o, other in enumerate(st.slots):
                if o == s or o in st.removed:
                    continue
                sp = st.cards[other[-1]]["speed"]
                if e == "remove_all" or (e == "remove_negative" and sp < 0) or (e == "remove_positive" and sp > 0):
                    gone.append(o)
            ev = self.next_event("remove", why=f"slot {s} resolves (R15)")
            cards = [c for o in gone for c in st.slots[o]]
            self.expect(ev, seat=seat, card=top, slot=s, removed=gone, cards=cards)
            st.removed.update(gone)
            self.accept(ev)

    def move(self, seat: int) -> bool:
        st = self.st
        c = st.vehicle
        ev = self.next_event("move")
        karma = sum(st.cards[stack[-1]]["speed"] for k, stack in enumerate(st.slots) if k not in st.removed)
        base = st.cards[c]["speed"]
        speed = max(0, base + karma)
        self.expect(ev, seat=seat, card=c, base=base, karma=karma, speed=speed)
        path = ev.get("path")
        rolls = ev.get("rolls")
        if not isinstance(path, list) or not path or path[0] != st.pawn[seat]:
            self.fail("path must start on the pawn's space")
        if not isinstance(rolls, list):
            self.fail("rolls must be a list")
        if len(path) - 1 > speed:
            self.fail(f"{len(path) - 1} steps at speed {speed}")
        r = 0
        entered = False
        for i in range(len(path) - 1):
            u, w = path[i], path[i + 1]
            if u == st.convention:
                self.fail("a step after the Convention")
            if entered and st.gps[u] is not None:
                if r >= len(rolls):
                    self.fail(f"no roll at the arrow {st.nodes[u]} (R19)")
                roll = rolls[r]
                r += 1
                if roll.get("at") != u or not is_int(roll.get("roll")) or not 1 <= roll["roll"] <= 6:
                    self.fail(f"bad roll {roll!r} at {st.nodes[u]}")
                if st.gps[u][roll["roll"] - 1] != w or roll.get("to") != w:
                    self.fail(f"roll {roll['roll']} at {st.nodes[u]} leads to {st.gps[u][roll['roll'] - 1]}, not {w}")
            if not st.step_ok(c, u, w, entered):
                self.fail(f"step {st.nodes[u]} -> {st.nodes[w] if is_int(w) and 0 <= w < len(st.nodes) else w} "
                          f"is illegal for {st.cards[c]['name']} (R17, R18)")
            entered = True
        end = path[-1]
        if r < len(rolls):
            # a die that named a space this vehicle cannot take: the move ends on the arrow
            roll = rolls[r]
            r += 1
            if (
                r != len(rolls) or not entered or st.gps[end] is None or roll.get("at") != end
                or not is_int(roll.get("roll")) or not 1 <= roll["roll"] <= 6
                or st.gps[end][roll["roll"] - 1] != roll.get("to")
                or st.step_ok(c, end, roll["to"], True) or len(path) - 1 >= speed
            ):
                self.fail(f"rolls {rolls} do not match the path")
        st.pawn[seat] = end
        self.accept(ev)
        if end == st.convention:
            return self.finish(seat)
        return False

    def cleanup(self, seat: int, landed: bool) -> bool:
        st = self.st
        c = st.vehicle
        ev = self.next_event("cleanup", why="R21")
        kept = None
        if not landed:
            mode = st.cards[c]["mode"]
            if mode == "road" and st.stays[seat] > 0:
                kept = c
                st.stays[seat] -= 1
            elif mode == "plane" and st.params["plane_stays_aloft"] and st.kind[st.pawn[seat]] == "sky":
                kept = c
        discarded = [] if kept is not None else [c]
        for k, stack in enumerate(st.slots):
            if k not in st.removed:
                discarded.extend(stack)
        for k, stack in enumerate(st.slots):
            if k in st.removed:
                discarded.extend(stack)
        self.expect(ev, seat=seat, discarded=discarded, kept=kept)
        for x in discarded:
            st.discard[st.cards[x]["deck"]].append(x)
        st.front[seat] = kept
        if kept is None:
            st.stays[seat] = 0
        st.vehicle = None
        st.vehicle_kept = False
        st.slots = []
        st.removed = set()
        self.accept(ev)
        return self.refill(seat)

    def refill(self, seat: int) -> bool:
        """R22: discard any cards, draw as many (fewer only when nothing is drawable)."""
        st = self.st
        ev = self.next_event("refill")
        self.expect(ev, seat=seat)
        gone = ev.get("discarded")
        if not isinstance(gone, list) or len(set(gone)) != len(gone) or any(c not in st.hands[seat] for c in gone):
            self.fail(f"refill discards {gone!r}, not cards of seat {seat}'s hand")
        for c in gone:
            st.hands[seat].remove(c)
            st.discard[st.cards[c]["deck"]].append(c)
        self.accept(ev)
        want = len(gone)
        got = [0]

        def more() -> bool:
            return got[0] < want

        while got[0] < want and st.any_drawable():
            self.draw(seat, "refill")
            got[0] += 1
        self.draws_while(seat, "refill", more)
        return False


def referee(events: list[dict], observer: Callable[[int, dict, Any], None] | None = None) -> Replay:
    """Replay ``events``; AssertionError on the first broken rule.  Returns the final state."""
    ref = Referee(events, observer)
    ref.run()
    return ref.st
