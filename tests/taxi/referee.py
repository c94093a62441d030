"""An independent referee for TAXI! traces (spec: ../shared/specs/taxi.md, rules 1-15).

Replays a trace from its ``setup`` event alone (map, decks, guides and deck
orders are all there) and raises :class:`tests.referees.IllegalTrace` (an
``AssertionError``) at the first event that breaks a rule or carries a wrong
number.  It imports nothing from the game's package: the streets, directions,
costs and the order of a turn are read again here from the spec.

Grammar of a trace::

    setup leg
    ( turn barrier* buy? [shuffle] card
          ( bet* reveal | sell* eliminate? )
          [ roll move arrive? ]            # unless a no_move card or eliminated
          [ tablet ]                       # unless eliminated
      [ leg_end ( (hire | ([shuffle] expense)+ )? sell* eliminate? )*  (leg | end) ]
    )*
    end                                    # also right after the eliminate that leaves one

What is checked, besides every field's value: each card is the top of its
pile, each shuffle a permutation of the whole discard pile made only when a
draw finds the pile empty; bets need the stake, are asked of every opponent
still in, in order of play; a barrier is placed by an opponent holding one,
on a segment not barred yet this turn, in order of play; a move is a path of
allowed steps (directions, entries, exits, barriers), its streets counted by
rule 6 within the allowance, its lights and entries paid from tablets held,
ending off the freeway (unless ``stop_on_freeway``); arrivals, bonus shares,
jumps, charges, debt, elimination, the order of turns and legs and the end.
Invariants after every event: money is the start money plus what the bank paid
minus what it received; tablets, barriers and plates held + supply (+ placed)
are the box's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tests.referees import EventCursor, is_int, strict_equal

DECKS = ("journey", "passenger", "expense")
WORDS = ("money", "freeway", "taxi")
BETS = ("none", "money", "freeway", "taxi")
CARD_KINDS = {
    "cash", "fine", "expense", "green", "freeway", "streets", "no_move", "roadwork",
    "gamble_money", "gamble_freeway", "gamble_taxi",
}
MONEY_PARAMS = (
    "start_money", "destination_bonus", "hire_fee", "plate_price", "plate_value", "plate_sale",
    "money_stake", "money_prize", "taxi_stake",
)
FIELDS = {
    "setup": {"type", "turn", "game", "seed", "game_index", "params", "players", "board", "order", "money",
              "position", "supply"},
    "leg": {"type", "turn", "leg", "dest"},
    "turn": {"type", "turn", "seat"},
    "barrier": {"type", "turn", "seat", "target", "segment", "barriers"},
    "buy": {"type", "turn", "seat", "price", "money", "plates"},
    "shuffle": {"type", "turn", "deck", "order"},
    "card": {"type", "turn", "seat", "deck", "card", "kind", "value", "money", "greens", "whites", "barriers",
             "plates"},
    "card_none": {"type", "turn", "seat", "deck", "card"},
    "bet": {"type", "turn", "seat", "holder", "word"},
    "reveal": {"type", "turn", "seat", "word", "winners", "money", "greens", "whites", "plates"},
    "sell": {"type", "turn", "seat", "price", "money", "plates"},
    "eliminate": {"type", "turn", "seat", "money"},
    "roll": {"type", "turn", "seat", "die", "bonus", "streets"},
    "move": {"type", "turn", "seat", "path", "streets", "greens_used", "whites_used", "greens", "whites"},
    "arrive": {"type", "turn", "seat", "node", "leg"},
    "tablet": {"type", "turn", "seat", "face", "result", "granted", "greens", "whites"},
    "leg_end": {"type", "turn", "leg", "arrived", "share", "money", "position"},
    "hire": {"type", "turn", "seat", "fee", "money"},
    "expense": {"type", "turn", "seat", "card", "amount", "money"},
    "end": {"type", "turn", "winner", "reason", "money", "plates", "wealth", "out", "legs"},
}


class Map:
    """The board of the setup event, read again: segments, allowed steps, streets."""

    def __init__(self, board: dict[str, Any]) -> None:
        self.nodes = board["nodes"]
        n = len(self.nodes)
        self.lit = set(board["lights"])
        self.freeway: set[int] = set()
        for s in board["streets"]:
            if s["kind"] == "freeway":
                self.freeway.update(s["path"])
        self.entries = {tuple(p) for p in board["entries"]}
        self.exits = {tuple(p) for p in board["exits"]}
        # step (u, v) -> (segment key, street index, +1 path order / -1 against)
        self.steps: dict[tuple[int, int], tuple[frozenset[int], int, int]] = {}
        self.segments: set[tuple[int, int]] = set()  # as listed (path order)
        for k, s in enumerate(board["streets"]):
            path = s["path"]
            pairs = list(zip(path, path[1:])) + ([(path[-1], path[0])] if s["loop"] else [])
            for a, b in pairs:
                self.segments.add((a, b))
                key = frozenset((a, b))
                ramp = (a, b) in self.entries or (b, a) in self.entries or (a, b) in self.exits or (b, a) in self.exits
                for u, v, d in ((a, b, 1), (b, a, -1)):
                    if d < 0 and s["one_way"]:
                        continue
                    if ramp and (u, v) not in self.entries and (u, v) not in self.exits:
                        continue
                    self.steps[(u, v)] = (key, k, d)
        assert all(0 <= x < n for pair in self.steps for x in pair)
        self.base = board["base"]
        self.destinations = {d["node"] for d in board["destinations"]}


class Replay:
    """The replayed game (what a player could see on the table)."""

    def __init__(self, setup: dict[str, Any]) -> None:
        self.params = setup["params"]
        self.n = len(setup["players"])
        self.map = Map(setup["board"])
        self.guides = setup["board"]["guides"]
        self.decks = setup["board"]["decks"]
        p = self.params
        n = self.n
        self.money = [p["start_money"]] * n
        self.greens = [0] * n
        self.whites = [0] * n
        self.barriers = [0] * n
        self.plates = [0] * n
        self.out = [False] * n
        self.pos: list[int | None] = [self.map.base] * n
        self.dest: list[int | None] = [g[0] for g in self.guides]
        self.supply = {"green": p["green_supply"], "freeway": p["freeway_supply"],
                       "barrier": p["barrier_supply"], "plate": p["plate_supply"]}
        self.placed = 0  # barriers on the board this turn
        self.pile = {d: list(setup["order"][d]) for d in DECKS}
        self.discard: dict[str, list[int]] = {d: [] for d in DECKS}
        self.bank_out = 0  # paid by the bank to players
        self.bank_in = 0  # received by the bank
        self.turns = 0
        self.leg = 1
        self.legs_done = 0
        self.arrived: set[int] = set()
        self.counts: dict[str, int] = {}
        self.settling: int | None = None  # the seat whose debt is being settled
        self.held: int | None = None  # the gamble card in its holder's hand
        self.start_total = p["start_money"] * n

    def in_seats(self) -> list[int]:
        return [s for s in range(self.n) if not self.out[s]]

    def after(self, seat: int) -> int:
        """The next seat still in after ``seat`` in order of play."""
        for k in range(1, self.n + 1):
            t = (seat + k) % self.n
            if not self.out[t]:
                return t
        return seat

    def pay(self, seat: int, amount: int) -> None:
        self.money[seat] -= amount
        self.bank_in += amount

    def receive(self, seat: int, amount: int) -> None:
        self.money[seat] += amount
        self.bank_out += amount

    def wealth(self, seat: int) -> int:
        return self.money[seat] + self.params["plate_value"] * self.plates[seat]

    def check_invariants(self) -> str | None:
        p = self.params
        if sum(self.money) != self.start_total + self.bank_out - self.bank_in:
            return "money not conserved (players' money != start + bank paid - bank received)"
        if sum(self.greens) + self.supply["green"] != p["green_supply"]:
            return "green tablets not conserved"
        if sum(self.whites) + self.supply["freeway"] != p["freeway_supply"]:
            return "freeway tablets not conserved"
        if sum(self.barriers) + self.supply["barrier"] + self.placed != p["barrier_supply"]:
            return "barriers not conserved"
        if sum(self.plates) + self.supply["plate"] != p["plate_supply"]:
            return "plates not conserved"
        if min(self.greens + self.whites + self.barriers + self.plates) < 0:
            return "a holding below zero"
        if min(self.supply.values()) < 0:
            return "a supply below zero"
        for m in self.money:
            if m % 10:
                return "money not a multiple of $10"
        if p["eliminate_on_debt"]:
            for s in range(self.n):
                if not self.out[s] and self.money[s] < 0 and self.settling != s:
                    return f"seat {s} in debt outside a settlement"
        for d in DECKS:
            if sorted(self.pile[d] + self.discard[d]) != list(range(len(self.decks[d]))):
                held = [self.held] if d == "journey" and self.held is not None else []
                if sorted(self.pile[d] + self.discard[d] + held) != list(range(len(self.decks[d]))):
                    return f"{d} deck: pile and discard are not the whole deck"
        return None


class Referee(EventCursor):
    def __init__(self, events: Sequence[dict], observer: Callable[[int, dict, Any], None] | None = None) -> None:
        super().__init__(events, observer)

    # ---- helpers
    def need(self, ok: bool, msg: str) -> None:
        if not ok:
            self.fail(msg)

    def same(self, ev: dict, key: str, want: Any) -> None:
        if not strict_equal(ev.get(key), want):
            self.fail(f"{key} is {ev.get(key)!r}, expected {want!r}")

    def fields(self, ev: dict, kind: str) -> None:
        want = FIELDS[kind]
        if set(ev) != want:
            extra = sorted(set(ev) - want)
            missing = sorted(want - set(ev))
            self.fail(f"fields: extra {extra}, missing {missing}")
        self.same(ev, "turn", self.st.turns)

    def take_ev(self, *types: str, why: str = "") -> dict:
        ev = self.take(*types, why=why)
        kind = ev["type"]
        if kind == "card" and ev.get("deck") == "none":
            kind = "card_none"
        self.fields(ev, kind)
        return ev

    # ---- the game
    def run(self) -> None:
        setup = self.take("setup", why="a trace starts with setup")
        self.check_setup(setup)
        self.st = Replay(setup)
        self.done(setup)
        r = self.st
        ev = self.take_ev("leg")
        self.same(ev, "leg", 1)
        self.same(ev, "dest", list(r.dest))
        self.done(ev)
        nxt = 0
        while True:
            if r.turns >= r.params["max_turns"]:
                self.end("turn_limit", -1)
                return
            r.turns += 1
            ev = self.take_ev("turn")
            self.same(ev, "seat", nxt)
            self.done(ev)
            seat = nxt
            over = self.turn(seat)
            if over:
                return
            r.supply["barrier"] += r.placed
            r.placed = 0
            if r.params["arrival_window"] == "round":
                last = all(r.out[t] for t in range(seat + 1, r.n))
                leg_over = last and bool(r.arrived)
            else:
                leg_over = seat in r.arrived
            if leg_over:
                if self.leg_end(seat):
                    return
                if r.params["arrival_window"] == "round":
                    nxt = r.after(r.n - 1)
                else:
                    nxt = r.after(seat)
            else:
                nxt = r.after(seat)

    def check_setup(self, ev: dict) -> None:
        self.need(ev.get("game") == "taxi", "not a taxi trace")
        p = ev["params"]
        n = len(ev["players"])
        self.need(2 <= n <= 6, f"{n} players; allowed 2 to 6")
        for k in MONEY_PARAMS:
            self.need(is_int(p[k]) and p[k] % 10 == 0 and p[k] >= 0, f"parameter {k} is not a sum of $10 notes")
        self.need(p["freeway_faces"] + p["green_faces"] <= 12, "the tablet die has 12 faces")
        board = ev["board"]
        stops = 15 if p["game_length"] == "short" else 30
        self.need(len(board["guides"]) == n, "one guide per seat")
        for g in board["guides"]:
            self.need(len(g) == stops, f"a guide cut to {stops} stops")
            self.need(g[14] == board["base"], "stop 15 is the base")
            if stops == 30:
                self.need(g[29] == board["base"], "stop 30 is the base")
        for d in DECKS:
            cards = board["decks"][d]
            self.need(len(cards) >= 1, f"{d} deck is empty")
            for c in cards:
                self.need(c["kind"] in CARD_KINDS, f"{d}: unknown card kind {c['kind']!r}")
                self.need((c["kind"] == "expense") == (d == "expense"), f"{d}: card kind {c['kind']} misplaced")
            self.need(sorted(ev["order"][d]) == list(range(len(cards))), f"{d} order is not a permutation")
        self.same(ev, "money", [p["start_money"]] * n)
        self.same(ev, "position", [board["base"]] * n)
        self.same(ev, "supply", {"green": p["green_supply"], "freeway": p["freeway_supply"],
                                 "barrier": p["barrier_supply"], "plate": p["plate_supply"]})
        self.same(ev, "turn", 0)

    def draw(self, deck: str) -> int:
        """The next card of ``deck``: a ``shuffle`` event first when the pile is empty."""
        r = self.st
        if not r.pile[deck]:
            ev = self.take_ev("shuffle", why=f"the {deck} pile is empty")
            self.same(ev, "deck", deck)
            self.need(sorted(ev["order"]) == sorted(r.discard[deck]) and len(ev["order"]) == len(r.discard[deck]),
                      "a shuffle is not the whole discard pile")
            r.pile[deck] = list(ev["order"])
            r.discard[deck] = []
            self.done(ev)
        else:
            ev = self.peek()
            self.need(ev is None or ev.get("type") != "shuffle", f"a shuffle of {deck} with cards left in its pile")
        return r.pile[deck].pop(0)

    def settle(self, seat: int) -> bool:
        """sell* eliminate? after a payment by ``seat``; True when the game ended."""
        r = self.st
        p = r.params
        r.settling = seat
        while r.money[seat] < 0 and r.plates[seat] > 0:
            ev = self.take_ev("sell", why=f"seat {seat} is in debt with a plate")
            self.same(ev, "seat", seat)
            self.same(ev, "price", p["plate_sale"])
            r.plates[seat] -= 1
            r.supply["plate"] += 1
            r.receive(seat, p["plate_sale"])
            self.same(ev, "money", r.money[seat])
            self.same(ev, "plates", r.plates[seat])
            self.done(ev)
        nxt = self.peek()
        self.need(nxt is None or nxt.get("type") != "sell", "a plate sold out of debt")
        if r.money[seat] < 0 and p["eliminate_on_debt"]:
            ev = self.take_ev("eliminate", why=f"seat {seat} is in debt with no plate")
            self.same(ev, "seat", seat)
            self.same(ev, "money", r.money[seat])
            r.out[seat] = True
            r.supply["green"] += r.greens[seat]
            r.supply["freeway"] += r.whites[seat]
            r.supply["barrier"] += r.barriers[seat]
            r.greens[seat] = r.whites[seat] = r.barriers[seat] = 0
            r.pos[seat] = None
            r.arrived.discard(seat)
            r.settling = None
            self.done(ev)
            left = r.in_seats()
            if len(left) == 1:
                self.end("last_standing", left[0])
                return True
            return False
        r.settling = None
        nxt = self.peek()
        self.need(nxt is None or nxt.get("type") != "eliminate", "an elimination without debt")
        return False

    def turn(self, seat: int) -> bool:
        r = self.st
        p = r.params
        # 3.1 barriers: opponents holding one, in order of play after the seat
        barred: set[frozenset[int]] = set()
        order = [(seat + k) % r.n for k in range(1, r.n)]
        last = -1
        while self.peek() is not None and self.peek().get("type") == "barrier":
            ev = self.take_ev("barrier")
            placer = ev["seat"]
            self.same(ev, "target", seat)
            self.need(is_int(placer) and 0 <= placer < r.n and placer != seat and not r.out[placer],
                      "a barrier placed by a seat that is not an opponent still in")
            self.need(order.index(placer) > last, "barriers placed out of the order of play (or twice by one holder)")
            last = order.index(placer)
            self.need(r.barriers[placer] >= 1, f"seat {placer} places a barrier it does not hold")
            seg = ev["segment"]
            self.need(isinstance(seg, list) and len(seg) == 2 and tuple(seg) in r.map.segments,
                      f"{seg!r} is not a segment of the map")
            key = frozenset(seg)
            self.need(key not in barred, "a segment barred twice in one turn")
            barred.add(key)
            r.barriers[placer] -= 1
            r.placed += 1
            self.same(ev, "barriers", r.barriers[placer])
            self.done(ev)
        # 3.2 buy
        nxt = self.peek()
        if nxt is not None and nxt.get("type") == "buy":
            ev = self.take_ev("buy")
            self.same(ev, "seat", seat)
            self.same(ev, "price", p["plate_price"])
            self.need(r.money[seat] >= p["plate_price"], "a plate bought without the money")
            self.need(r.supply["plate"] >= 1, "a plate bought from an empty supply")
            r.pay(seat, p["plate_price"])
            r.plates[seat] += 1
            r.supply["plate"] -= 1
            self.same(ev, "money", r.money[seat])
            self.same(ev, "plates", r.plates[seat])
            self.done(ev)
        # 3.3 card
        nxt = self.peek()
        if nxt is not None and nxt.get("type") == "card" and nxt.get("deck") == "none":
            ev = self.take_ev("card")
            self.same(ev, "seat", seat)
            self.same(ev, "card", None)
            self.need(p["card_optional"], "no card drawn without card_optional")
            self.done(ev)
            kind, value = None, 0
        else:
            deck = nxt.get("deck") if isinstance(nxt, dict) and nxt.get("type") == "card" else None
            if isinstance(nxt, dict) and nxt.get("type") == "shuffle":
                deck = nxt.get("deck")
            self.need(deck in ("journey", "passenger"), "a card from the Journey or the Passenger deck expected")
            card = self.draw(deck)
            ev = self.take_ev("card")
            self.same(ev, "seat", seat)
            self.same(ev, "deck", deck)
            self.same(ev, "card", card)
            spec = r.decks[deck][card]
            kind, value = spec["kind"], spec["value"]
            self.same(ev, "kind", kind)
            self.same(ev, "value", value)
            paid = False
            if kind == "cash":
                if value < 0:
                    r.pay(seat, -value)
                    paid = True
                else:
                    r.receive(seat, value)
            elif kind == "fine":
                r.pay(seat, value)
                paid = True
            elif kind in ("green", "freeway"):
                held = r.greens if kind == "green" else r.whites
                key = "green" if kind == "green" else "freeway"
                t = min(value, r.supply[key]) if value > 0 else -min(-value, held[seat])
                held[seat] += t
                r.supply[key] -= t
            elif kind == "roadwork":
                if r.supply["barrier"] > 0:
                    r.supply["barrier"] -= 1
                    r.barriers[seat] += 1
            for key, have in (("money", r.money), ("greens", r.greens), ("whites", r.whites),
                              ("barriers", r.barriers), ("plates", r.plates)):
                self.same(ev, key, have[seat])
            if kind.startswith("gamble_"):
                r.held = card
                self.done(ev)
                self.gamble(seat, kind[len("gamble_"):])
            else:
                r.discard[deck].append(card)
                if paid and r.money[seat] < 0:
                    r.settling = seat
                self.done(ev)
                if paid and self.settle(seat):
                    return True
                if r.out[seat]:
                    return False
        # 3.4-3.6 die and move
        if kind != "no_move":
            ev = self.take_ev("roll")
            self.same(ev, "seat", seat)
            die = ev["die"]
            self.need(is_int(die) and 1 <= die <= 6, f"die {die!r} is not 1..6")
            bonus = value if kind == "streets" else 0
            self.same(ev, "bonus", bonus)
            self.same(ev, "streets", die + bonus)
            self.done(ev)
            self.move(seat, die + bonus, barred)
        # 3.7 tablet die
        ev = self.take_ev("tablet")
        self.same(ev, "seat", seat)
        face = ev["face"]
        self.need(is_int(face) and 1 <= face <= 12, f"face {face!r} is not 1..12")
        if face <= p["freeway_faces"]:
            result, key, held = "freeway", "freeway", r.whites
        elif face <= p["freeway_faces"] + p["green_faces"]:
            result, key, held = "green", "green", r.greens
        else:
            result, key, held = "blank", None, None
        self.same(ev, "result", result)
        granted = key is not None and r.supply[key] > 0
        self.same(ev, "granted", granted)
        if granted:
            r.supply[key] -= 1
            held[seat] += 1
        self.same(ev, "greens", r.greens[seat])
        self.same(ev, "whites", r.whites[seat])
        self.done(ev)
        return False

    def gamble(self, holder: int, word: str) -> None:
        r = self.st
        p = r.params
        bets: list[tuple[int, str]] = []
        c = r.after(holder)
        while c != holder:
            ev = self.take_ev("bet", why=f"seat {c} is offered the gamble")
            self.same(ev, "seat", c)
            self.same(ev, "holder", holder)
            w = ev["word"]
            self.need(w in BETS, f"unknown bet {w!r}")
            if w == "money":
                self.need(r.money[c] >= p["money_stake"], "a money bet without the stake")
            elif w == "freeway":
                self.need(r.greens[c] >= 1, "a freeway bet without a green tablet")
            elif w == "taxi":
                self.need(r.money[c] >= p["taxi_stake"], "a taxi bet without the stake")
            bets.append((c, w))
            self.done(ev)
            c = r.after(c)
        ev = self.take_ev("reveal")
        self.same(ev, "seat", holder)
        self.same(ev, "word", word)
        winners = []
        for c, w in bets:
            if w == "none":
                continue
            if w == word:
                winners.append(c)
                if w == "money":
                    r.receive(c, p["money_prize"])
                elif w == "freeway":
                    if r.supply["freeway"] > 0:
                        r.supply["freeway"] -= 1
                        r.whites[c] += 1
                elif r.supply["plate"] > 0:
                    r.supply["plate"] -= 1
                    r.plates[c] += 1
            elif w == "money":
                r.money[c] -= p["money_stake"]
                r.money[holder] += p["money_stake"]
            elif w == "freeway":
                r.greens[c] -= 1
                r.greens[holder] += 1
            else:
                r.money[c] -= p["taxi_stake"]
                r.money[holder] += p["taxi_stake"]
        self.same(ev, "winners", winners)
        self.same(ev, "money", r.money)
        self.same(ev, "greens", r.greens)
        self.same(ev, "whites", r.whites)
        self.same(ev, "plates", r.plates)
        r.discard["journey"].append(r.held)
        r.held = None
        self.done(ev)

    def move(self, seat: int, allowance: int, barred: set[frozenset[int]]) -> None:
        r = self.st
        p = r.params
        m = r.map
        ev = self.take_ev("move")
        self.same(ev, "seat", seat)
        path = ev["path"]
        self.need(isinstance(path, list) and path and all(is_int(x) for x in path), "a path is a list of nodes")
        self.need(path[0] == r.pos[seat], f"the path starts at {path[0]}, the taxi is on {r.pos[seat]}")
        streets = 0
        greens = whites = 0
        prev: tuple[int, int] | None = None
        for i in range(1, len(path)):
            u, v = path[i - 1], path[i]
            step = m.steps.get((u, v))
            self.need(step is not None, f"step {m.nodes[u] if 0 <= u < len(m.nodes) else u}->"
                      f"{m.nodes[v] if 0 <= v < len(m.nodes) else v} is not allowed")
            key, street, d = step
            self.need(key not in barred, f"step {m.nodes[u]}->{m.nodes[v]} crosses a barrier")
            if i == 1 or (u not in m.freeway and (street, d) != prev):
                streets += 1
            prev = (street, d)
            if v in m.lit:
                greens += 1
            if (u, v) in m.entries:
                whites += 1
        self.same(ev, "streets", streets)
        self.need(streets <= allowance, f"{streets} streets for an allowance of {allowance}")
        self.same(ev, "greens_used", greens)
        self.same(ev, "whites_used", whites)
        self.need(greens <= r.greens[seat], f"{greens} lights passed with {r.greens[seat]} green tablets")
        self.need(whites <= r.whites[seat], f"{whites} entries passed with {r.whites[seat]} freeway tablets")
        end = path[-1]
        if not p["stop_on_freeway"]:
            self.need(end not in m.freeway, "a move ends on the freeway")
        r.greens[seat] -= greens
        r.whites[seat] -= whites
        r.supply["green"] += greens
        r.supply["freeway"] += whites
        self.same(ev, "greens", r.greens[seat])
        self.same(ev, "whites", r.whites[seat])
        r.pos[seat] = end
        self.done(ev)
        if len(path) > 1 and end == r.dest[seat]:
            ev = self.take_ev("arrive", why="the move ends on the destination")
            self.same(ev, "seat", seat)
            self.same(ev, "node", end)
            self.same(ev, "leg", r.leg)
            r.arrived.add(seat)
            self.done(ev)
        else:
            nxt = self.peek()
            self.need(nxt is None or nxt.get("type") != "arrive", "an arrival off the destination")

    def leg_end(self, seat: int) -> bool:
        r = self.st
        p = r.params
        ev = self.take_ev("leg_end")
        self.same(ev, "leg", r.leg)
        arrived = sorted(s for s in r.arrived if not r.out[s])
        self.same(ev, "arrived", arrived)
        self.need(len(arrived) >= 1, "a leg ends without an arrival")
        share = p["destination_bonus"] // len(arrived) // 10 * 10
        self.same(ev, "share", share)
        for s in arrived:
            r.receive(s, share)
        for s in r.in_seats():
            if s not in r.arrived:
                r.pos[s] = r.dest[s]
        self.same(ev, "money", r.money)
        self.same(ev, "position", [None if r.out[s] else r.pos[s] for s in range(r.n)])
        r.legs_done += 1
        self.done(ev)
        last = r.leg == len(r.guides[0])
        for s in range(r.n):
            if r.out[s]:
                continue
            paid = True
            if r.plates[s] > 0:
                cards = r.plates[s] if p["expense_per_plate"] else 1
                for _ in range(cards):
                    card = self.draw("expense")
                    ev = self.take_ev("expense")
                    self.same(ev, "seat", s)
                    self.same(ev, "card", card)
                    amount = r.decks["expense"][card]["value"]
                    self.same(ev, "amount", amount)
                    r.pay(s, amount)
                    r.discard["expense"].append(card)
                    self.same(ev, "money", r.money[s])
                    r.settling = s
                    self.done(ev)
            elif last and not p["final_hire_fee"]:
                paid = False
                nxt = self.peek()
                self.need(nxt is None or nxt.get("type") != "hire" or nxt.get("seat") != s,
                          "a hire event at the last leg with final_hire_fee false")
            else:
                ev = self.take_ev("hire")
                self.same(ev, "seat", s)
                self.same(ev, "fee", p["hire_fee"])
                r.pay(s, p["hire_fee"])
                self.same(ev, "money", r.money[s])
                r.settling = s
                self.done(ev)
            if paid and self.settle(s):
                return True
            r.settling = None
        if last:
            best = max(r.wealth(s) for s in r.in_seats())
            top = [s for s in r.in_seats() if r.wealth(s) == best]
            self.end("completed", top[0] if len(top) == 1 else -1)
            return True
        r.leg += 1
        r.arrived = set()
        for s in range(r.n):
            r.dest[s] = r.guides[s][r.leg - 1]
        ev = self.take_ev("leg")
        self.same(ev, "leg", r.leg)
        self.same(ev, "dest", [None if r.out[s] else r.dest[s] for s in range(r.n)])
        self.done(ev)
        return False

    def end(self, reason: str, winner: int) -> None:
        r = self.st
        ev = self.take_ev("end", why=reason)
        self.same(ev, "reason", reason)
        self.same(ev, "winner", winner)
        self.same(ev, "money", r.money)
        self.same(ev, "plates", r.plates)
        self.same(ev, "wealth", [r.wealth(s) for s in range(r.n)])
        self.same(ev, "out", r.out)
        self.same(ev, "legs", r.legs_done)
        self.done(ev)
        self.need(self.i == len(self.events), "events after the end")


def referee(events: list[dict[str, Any]], observer: Callable[[int, dict, Any], None] | None = None) -> None:
    """Replay ``events`` and raise AssertionError (IllegalTrace) at the first broken rule."""
    Referee(events, observer).run()


def replay(events: list[dict[str, Any]]) -> Replay:
    """The referee's final replayed state (tests read holdings, counts)."""
    ref = Referee(events)
    ref.run()
    return ref.st
