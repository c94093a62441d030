"""An independent referee for Tag City traces (sims/tagcity/RULES.md, the
specification's sections (c), (f) and (g)).

It rebuilds the board from the ``setup`` event alone (checking it against the
specification's side A when it carries that name), replays every round and
checks every roll, die placement, draft order, die taken, shape, cell,
orientation, overlap, drone box, social circle, completion (high or low,
draft or shared step, ``tie_rule``), point and score, when the game must end,
and the ``end`` event.  It imports nothing from ``sims`` or ``balance``: the
rules are read again here, so a rule misread in the kernel is not misread the
same way.

``replay(events)`` returns the replayed final state (:class:`Table`), which
the property tests inspect; ``referee(events)`` raises ``AssertionError``
(:class:`tests.referees.IllegalTrace`) at the first violation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.referees import EventCursor, is_int, strict_equal

DEFAULT_NAME = "Tag City side A (reconstruction)"
# The specification's side A, section (b), as data (an independent copy).
DEFAULT_SHEET = {
    "rows": 8,
    "cols": 12,
    "districts": [
        "AAAAABBBCCCC",
        "AAAABBBBCCCC",
        "AAAABBBBBCCC",
        "AAADDBBBCCCC",
        "AADDDDBBEECC",
        "DDDDDDBEEEEC",
        "DDDDDEEEEEEE",
        "DDDEEEEEEEEE",
    ],
    "district_names": ["A", "B", "C", "D", "E"],
    "row_values": [[4, 2]] * 8,
    "col_values": [[3, 1]] * 12,
    "district_values": [[5, 2], [5, 2], [5, 2], [5, 2], [6, 3]],
    "remote": [-1, -2, -3, -4, -5],
}
DEFAULT_SHAPES = {
    "mono": [[0, 0]],
    "domino": [[0, 0], [0, 1]],
    "I3": [[0, 0], [0, 1], [0, 2]],
    "L3": [[0, 0], [1, 0], [1, 1]],
    "I4": [[0, 0], [0, 1], [0, 2], [0, 3]],
    "O4": [[0, 0], [0, 1], [1, 0], [1, 1]],
    "T4": [[0, 0], [0, 1], [0, 2], [1, 1]],
    "L4": [[0, 0], [1, 0], [2, 0], [2, 1]],
    "S4": [[0, 1], [0, 2], [1, 0], [1, 1]],
    "I5": [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]],
    "L5": [[0, 0], [1, 0], [2, 0], [3, 0], [3, 1]],
    "P5": [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]],
    "T5": [[0, 0], [0, 1], [0, 2], [1, 1], [2, 1]],
    "U5": [[0, 0], [0, 2], [1, 0], [1, 1], [1, 2]],
}
DEFAULT_HQ = {
    "ring_a": ["L3", "I4", "O4", "T4", "L4", "S4"],
    "centre": ["mono", "domino", "I3"],
    "faces": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0]],
    "pool_b": ["L3", "I4", "O4", "T4", "L4", "S4", "I5", "L5", "P5", "T5", "U5"],
}
PARAM_NAMES = (
    "hq_side",
    "orientations",
    "drone_shapes",
    "drone_boxes",
    "social_circles",
    "social_points",
    "tie_rule",
    "finish_round",
    "max_rounds",
)
CONDITIONS = ("all_targets", "social", "drones")
REASONS = (*CONDITIONS, "round_limit")


def _norm(cells: list[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def allowed_forms(cells: list[list[int]], rule: str) -> set[frozenset[tuple[int, int]]]:
    """The cell sets (normalised) a tile may be drawn as: the identity only
    (``fixed``), its four rotations (``rotate``), or its rotations and mirror
    images (``all``)."""
    base = [(r, c) for r, c in cells]
    forms = set()
    mirror_options = (False, True) if rule == "all" else (False,)
    turns = 4 if rule in ("all", "rotate") else 1
    for mirror in mirror_options:
        shape = [(r, -c) for r, c in base] if mirror else list(base)
        for _ in range(turns):
            forms.add(_norm(shape))
            shape = [(c, -r) for r, c in shape]  # a quarter turn
    return forms


@dataclass
class Board:
    rows: int
    cols: int
    district_of: dict[tuple[int, int], int]
    row_values: list[list[int]]
    col_values: list[list[int]]
    district_values: list[list[int]]
    remote: list[int]
    shapes: dict[str, list[list[int]]]
    ring_a: list[str]
    centre: list[str]
    faces: list[list[int]]
    pool_b: list[str]
    targets: list[tuple[str, int, frozenset[tuple[int, int]], int, int]] = field(default_factory=list)

    def build_targets(self) -> None:
        """Rows, then columns, then districts: (kind, index, cells, high, low)."""
        for r in range(self.rows):
            cells = frozenset((r, c) for c in range(self.cols))
            self.targets.append(("row", r, cells, *self.row_values[r]))
        for c in range(self.cols):
            cells = frozenset((r, c) for r in range(self.rows))
            self.targets.append(("col", c, cells, *self.col_values[c]))
        for d in range(len(self.district_values)):
            cells = frozenset(cell for cell, k in self.district_of.items() if k == d)
            self.targets.append(("district", d, cells, *self.district_values[d]))


@dataclass
class Table:
    """The replayed game: what the property tests read."""

    n: int
    board: Board
    params: dict[str, Any]
    ring: list[str]
    painted: list[set[tuple[int, int]]]
    drawings: list[list[frozenset[tuple[int, int]]]]  # per seat, each drawing's cells
    circled_values: list[list[int]]  # per seat: every value circled (targets, remote, socials)
    score: list[int]
    target_points: list[int]
    drone_points: list[int]
    social_points: list[int]
    drones: list[int]
    socials: list[int]
    completed_by: list[set[int]]  # per seat: targets it completed
    closed: set[int] = field(default_factory=set)  # targets somebody completed
    free_circles: set[int] = field(default_factory=set)
    rounds: int = 0
    ended: bool = False
    end: dict[str, Any] | None = None
    counts: dict[str, int] = field(default_factory=dict)

    def conditions(self) -> list[str]:
        held = []
        if len(self.closed) == len(self.board.targets):
            held.append("all_targets")
        if not self.free_circles:
            held.append("social")
        if any(d >= self.params["drone_boxes"] for d in self.drones):
            held.append("drones")
        return held

    def check_invariants(self) -> str | None:
        for s in range(self.n):
            parts = self.target_points[s] + self.drone_points[s] + self.social_points[s]
            if self.score[s] != parts:
                return f"seat {s}: score {self.score[s]} is not the sum of its parts {parts}"
            if self.score[s] != sum(self.circled_values[s]):
                return f"seat {s}: score {self.score[s]} is not the sum of its circled values"
            if sum(len(d) for d in self.drawings[s]) != len(self.painted[s]):
                return f"seat {s}: two drawings overlap"
        return None


class _Referee(EventCursor):
    def __init__(self, events: list[dict[str, Any]]) -> None:
        super().__init__(events)

    # ----- helpers
    def want(self, ok: bool, msg: str) -> None:
        if not ok:
            self.fail(msg)

    def same(self, ev: dict, key: str, value: Any) -> None:
        if key not in ev:
            self.fail(f"missing field {key!r}")
        if not strict_equal(ev[key], value):
            self.fail(f"{key} is {ev[key]!r}, expected {value!r}")

    def keys(self, ev: dict, expected: set[str]) -> None:
        got = set(ev)
        if got != expected:
            self.fail(f"fields {sorted(got ^ expected)} wrong (expected exactly {sorted(expected)})")

    # ----- setup
    def setup(self) -> None:
        ev = self.take("setup", why="a trace starts with setup")
        self.same(ev, "turn", 0)
        self.same(ev, "game", "tagcity")
        params = ev.get("params")
        self.want(isinstance(params, dict) and set(params) == set(PARAM_NAMES), "params must list every parameter")
        players = ev.get("players")
        self.want(isinstance(players, list) and 2 <= len(players) <= 4, "2 to 4 players")
        n = len(players)
        self.want(params["hq_side"] in ("A", "B"), "hq_side is A or B")
        self.want(params["orientations"] in ("all", "rotate", "fixed"), "orientations is all, rotate or fixed")
        self.want(params["drone_shapes"] in ("hq", "centre"), "drone_shapes is hq or centre")
        self.want(params["tie_rule"] in ("all_high", "draft_order"), "tie_rule is all_high or draft_order")
        self.want(isinstance(params["finish_round"], bool), "finish_round is a bool")
        for key, lo, hi in (
            ("drone_boxes", 1, 16),
            ("social_circles", 1, 16),
            ("social_points", -10, 10),
            ("max_rounds", 1, 1000),
        ):
            self.want(is_int(params[key]) and lo <= params[key] <= hi, f"{key} outside {lo}..{hi}")
        board = self.board(ev.get("board"))
        self.want(params["drone_boxes"] <= len(board.remote), "drone_boxes exceeds the remote's boxes")
        # rule 1: the ring
        ring = ev.get("ring")
        if params["hq_side"] == "A":
            self.want("pool_order" not in ev, "pool_order only with side B")
            self.want(ring == board.ring_a, "side A: the ring is ring_a")
        else:
            order = ev.get("pool_order")
            self.want(isinstance(order, list) and sorted(order) == sorted(board.pool_b), "pool_order shuffles pool_b")
            self.want(ring == order[: len(board.ring_a)], "side B: the ring is the shuffled pool's first tiles")
        self.same(ev, "first_player", 0)
        self.same(ev, "dice", n + 1)
        extra = {"pool_order"} if params["hq_side"] == "B" else set()
        self.keys(
            ev,
            {"type", "turn", "game", "seed", "game_index", "params", "players", "board", "ring", "first_player", "dice"}
            | extra,
        )
        self.st = Table(
            n=n,
            board=board,
            params=params,
            ring=list(ring),
            painted=[set() for _ in range(n)],
            drawings=[[] for _ in range(n)],
            circled_values=[[] for _ in range(n)],
            score=[0] * n,
            target_points=[0] * n,
            drone_points=[0] * n,
            social_points=[0] * n,
            drones=[0] * n,
            socials=[0] * n,
            completed_by=[set() for _ in range(n)],
            free_circles=set(range(params["social_circles"])),
        )
        pool = list(ring) + list(board.centre) if params["drone_shapes"] == "hq" else list(board.centre)
        self.pool = set(pool)
        self.forms = {name: allowed_forms(cells, params["orientations"]) for name, cells in board.shapes.items()}
        self.done(ev)

    def board(self, data: Any) -> Board:
        self.want(
            isinstance(data, dict) and set(data) == {"name", "source", "sheet", "shapes", "hq"},
            "board: name, source, sheet, shapes, hq",
        )
        sheet, shapes, hq = data["sheet"], data["shapes"], data["hq"]
        if data["name"] == DEFAULT_NAME:
            self.want(sheet == DEFAULT_SHEET, "the default board's sheet differs from the specification's")
            self.want(shapes == DEFAULT_SHAPES, "the default board's tiles differ from the specification's")
            self.want(hq == DEFAULT_HQ, "the default board's HQ differs from the specification's")
        rows, cols = sheet["rows"], sheet["cols"]
        self.want(
            is_int(rows) and is_int(cols) and 2 <= rows <= 16 and 2 <= cols <= 16 and rows * cols <= 256, "sheet size"
        )
        names = sheet["district_names"]
        self.want(
            len(sheet["districts"]) == rows and all(len(x) == cols for x in sheet["districts"]),
            "districts: rows strings of cols characters",
        )
        district_of = {
            (r, c): names.index(ch) for r, line in enumerate(sheet["districts"]) for c, ch in enumerate(line)
        }
        for key, n in (("row_values", rows), ("col_values", cols), ("district_values", len(names))):
            self.want(
                len(sheet[key]) == n and all(len(v) == 2 and all(is_int(x) for x in v) for v in sheet[key]),
                f"{key}: {n} [high, low] pairs",
            )
        for name, cells in shapes.items():
            self.want(
                1 <= len(cells) <= 8 and len({tuple(c) for c in cells}) == len(cells),
                f"tile {name}: 1 to 8 distinct cells",
            )
        for name in [*hq["ring_a"], *hq["centre"], *hq["pool_b"]]:
            self.want(name in shapes, f"HQ names an unknown tile {name!r}")
        self.want(
            len(hq["faces"]) == 6
            and all(len(f) == 2 and f[0] != f[1] and all(0 <= x < len(hq["ring_a"]) for x in f) for f in hq["faces"]),
            "faces: 6 pairs of distinct ring slots",
        )
        board = Board(
            rows,
            cols,
            district_of,
            sheet["row_values"],
            sheet["col_values"],
            sheet["district_values"],
            sheet["remote"],
            shapes,
            hq["ring_a"],
            hq["centre"],
            hq["faces"],
            hq["pool_b"],
        )
        board.build_targets()
        return board

    # ----- actions
    def drawing(self, ev: dict, seat: int, shape: str) -> frozenset[tuple[int, int]]:
        st = self.st
        cells = ev.get("cells")
        self.want(
            isinstance(cells, list)
            and all(isinstance(c, list) and len(c) == 2 and all(is_int(x) for x in c) for c in cells),
            "cells: a list of [row, col]",
        )
        self.want(cells == sorted(cells), "cells are sorted")
        got = [tuple(c) for c in cells]
        self.want(len(set(got)) == len(got), "a cell is repeated")
        for r, c in got:
            self.want(0 <= r < st.board.rows and 0 <= c < st.board.cols, f"cell {[r, c]} is off the sheet")
            self.want((r, c) not in st.painted[seat], f"cell {[r, c]} is already painted on seat {seat}'s sheet")
        self.want(
            _norm(got) in self.forms[shape],
            f"cells are not tile {shape} in an allowed orientation ({st.params['orientations']})",
        )
        return frozenset(got)

    def action(
        self, seat: int, shared: bool, offered: set[int], dice_shapes: list[str], free: set[int], drones_before: int
    ) -> tuple[dict, frozenset | None, int | None]:
        """Check one action event against the state it was decided on; returns
        (event, cells painted or None, circle circled or None)."""
        st = self.st
        ev = self.take("action", why=f"seat {seat}'s {'shared' if shared else 'draft'} action")
        self.same(ev, "turn", st.rounds)
        self.same(ev, "seat", seat)
        self.same(ev, "shared", shared)
        die = ev.get("die")
        self.want(is_int(die) and die in offered, f"die {die!r} is not offered (offered: {sorted(offered)})")
        kind = ev.get("kind")
        cells = None
        circle = None
        base = {"type", "turn", "seat", "die", "shared", "kind", "points", "score"}
        if kind == "paint":
            self.keys(ev, base | {"shape", "cells"})
            self.same(ev, "shape", dice_shapes[die])
            cells = self.drawing(ev, seat, ev["shape"])
            points = 0
        elif kind == "drone":
            self.keys(ev, base | {"shape", "cells", "box"})
            self.want(drones_before < st.params["drone_boxes"], f"seat {seat}'s remote is full: no drone")
            self.want(ev["shape"] in self.pool, f"{ev['shape']!r} is not a drone tile ({st.params['drone_shapes']})")
            cells = self.drawing(ev, seat, ev["shape"])
            self.same(ev, "box", drones_before)
            points = st.board.remote[drones_before]
        elif kind == "social":
            self.keys(ev, base | {"circle"})
            c = ev["circle"]
            if free:
                self.want(is_int(c) and c in free, f"circle {c!r} is not free (free: {sorted(free)})")
                circle = c
                points = st.params["social_points"]
            else:
                self.want(c is None, "no circle is free: the circle is null")
                points = 0
        else:
            self.fail(f"unknown action kind {kind!r}")
        self.same(ev, "points", points)
        self.same(ev, "score", st.score[seat] + points)
        return ev, cells, circle

    def apply_action(self, seat: int, ev: dict, cells: frozenset | None, circle: int | None) -> list[int]:
        """Apply a checked action's drawing and points; the targets it completes."""
        st = self.st
        kind = ev["kind"]
        done = []
        if cells is not None:
            before = st.painted[seat]
            st.painted[seat] = before | cells
            st.drawings[seat].append(cells)
            for t, (_, _, tcells, _, _) in enumerate(st.board.targets):
                if t not in st.completed_by[seat] and tcells <= st.painted[seat]:
                    done.append(t)
        if kind == "drone":
            value = st.board.remote[st.drones[seat]]
            st.drones[seat] += 1
            st.drone_points[seat] += value
            st.score[seat] += value
            st.circled_values[seat].append(value)
        elif kind == "social" and circle is not None:
            value = st.params["social_points"]
            st.socials[seat] += 1
            st.social_points[seat] += value
            st.score[seat] += value
            st.circled_values[seat].append(value)
        return done

    def completion(self, seat: int, t: int, high: bool) -> None:
        st = self.st
        ev = self.take("complete", why=f"seat {seat} completes target {st.board.targets[t][:2]}")
        kind, index, _, hi, lo = st.board.targets[t]
        self.keys(ev, {"type", "turn", "seat", "target", "index", "high", "points", "score"})
        self.same(ev, "turn", st.rounds)
        self.same(ev, "seat", seat)
        self.same(ev, "target", kind)
        self.same(ev, "index", index)
        self.same(ev, "high", high)
        value = hi if high else lo
        self.same(ev, "points", value)
        st.score[seat] += value
        st.target_points[seat] += value
        st.circled_values[seat].append(value)
        st.completed_by[seat].add(t)
        self.same(ev, "score", st.score[seat])
        self.done(ev)

    # ----- the game
    def play(self) -> Table:
        self.setup()
        st = self.st
        n = st.n
        first: str | None = None  # the first end condition to hold
        while True:
            if st.rounds >= st.params["max_rounds"]:
                self.finish("round_limit")
                return st
            st.rounds += 1
            r = st.rounds
            leader = (r - 1) % n
            ev = self.take("roll", why=f"round {r} starts")
            self.keys(ev, {"type", "turn", "leader", "dice"})
            self.same(ev, "turn", r)
            self.same(ev, "leader", leader)
            dice = ev["dice"]
            self.want(
                isinstance(dice, list) and len(dice) == n + 1 and all(is_int(v) and 1 <= v <= 6 for v in dice),
                f"{n + 1} dice of 1..6",
            )
            self.done(ev)
            ev = self.take("assign", why="the leader places the dice")
            self.keys(ev, {"type", "turn", "seat", "slots", "shapes"})
            self.same(ev, "turn", r)
            self.same(ev, "seat", leader)
            slots = ev["slots"]
            self.want(isinstance(slots, list) and len(slots) == n + 1, "one slot per die")
            for d, v in enumerate(dice):
                self.want(
                    slots[d] in st.board.faces[v - 1],
                    f"die {d} ({v}) on slot {slots[d]}, not one of {st.board.faces[v - 1]}",
                )
            shapes = [st.ring[s] for s in slots]
            self.same(ev, "shapes", shapes)
            self.done(ev)
            taken: set[int] = set()
            # the draft (rules 6-9, 12): from the leader's left, the leader last
            for k in range(n):
                seat = (leader + 1 + k) % n
                offered = set(range(n + 1)) - taken
                ev, cells, circle = self.action(seat, False, offered, shapes, set(st.free_circles), st.drones[seat])
                taken.add(ev["die"])
                done = self.apply_action(seat, ev, cells, circle)
                if circle is not None:
                    st.free_circles.discard(circle)
                self.done(ev)
                for t in done:
                    self.completion(seat, t, t not in st.closed)
                    st.closed.add(t)
                held = st.conditions()
                if first is None and held:
                    first = held[0]
                if first is not None and not st.params["finish_round"]:
                    self.finish(first)
                    return st
            # the shared step (rules 10, 13): decided on the state before it
            left = set(range(n + 1)) - taken
            self.want(len(left) == 1, "one die is left for the shared step")
            free = set(st.free_circles)
            closed = set(st.closed)
            done_by: list[list[int]] = []
            circled = set()
            for seat in range(n):  # seat order; each checked on its own sheet and the circles before the step
                ev, cells, circle = self.action(seat, True, left, shapes, free, st.drones[seat])
                done_by.append(self.apply_action(seat, ev, cells, circle))
                if circle is not None:
                    circled.add(circle)
                self.done(ev)
            for seat, t_list in enumerate(done_by):
                for t in t_list:
                    if t in closed:
                        high = False
                    elif st.params["tie_rule"] == "all_high":
                        high = True
                    else:
                        order = [(o - leader - 1) % n for o in range(n) if t in done_by[o]]
                        high = (seat - leader - 1) % n == min(order)
                    self.completion(seat, t, high)
            for t_list in done_by:
                st.closed.update(t_list)
            st.free_circles -= circled
            held = st.conditions()
            if first is None and held:
                first = held[0]
            if first is not None:
                self.finish(first)
                return st

    def finish(self, reason: str) -> None:
        st = self.st
        ev = self.take("end", why=f"the game ends ({reason})")
        self.keys(
            ev,
            {
                "type",
                "turn",
                "winner",
                "reason",
                "conditions",
                "score",
                "target_points",
                "drone_points",
                "social_points",
                "drones",
                "socials",
            },
        )
        self.same(ev, "turn", st.rounds)
        self.same(ev, "reason", reason)
        self.same(ev, "conditions", st.conditions() if reason != "round_limit" else [])
        winner = -1
        if reason != "round_limit":
            top = max(st.score)
            best = [s for s in range(st.n) if st.score[s] == top]
            most = max(st.socials[s] for s in best)
            best = [s for s in best if st.socials[s] == most]
            winner = best[0] if len(best) == 1 else -1
        self.same(ev, "winner", winner)
        self.same(ev, "score", st.score)
        self.same(ev, "target_points", st.target_points)
        self.same(ev, "drone_points", st.drone_points)
        self.same(ev, "social_points", st.social_points)
        self.same(ev, "drones", st.drones)
        self.same(ev, "socials", st.socials)
        st.ended = True
        st.end = ev
        self.done(ev)
        self.want(self.i == len(self.events), "events after the end")


def replay(events: list[dict[str, Any]]) -> Table:
    """Replay and check a trace; the final replayed state."""
    return _Referee(events).play()


def referee(events: list[dict[str, Any]]) -> None:
    replay(events)
