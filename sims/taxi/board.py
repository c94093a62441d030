"""TAXI!'s board: the street map, the destination guides and the three decks.

The rulebook describes the board but does not give it: ``boards/default.toml``
is our reconstruction (RULES.md, "The map and the decks").  A user's file
(``--board FILE.toml``) has the same keys and may give the map (all of
``base``, ``lights``, ``entries``, ``exits``, ``guides``, ``street``, ``nodes``,
``destinations``; ``name`` optional), any of the three decks (``journey``,
``passenger``, ``expense``), or both; what it leaves out comes from the default
file.  Every mistake is refused with one line naming the file and the problem
(:class:`balance.errors.UserError`); RULES.md lists what is refused.

What the kernel needs is derived here once per board (never per game):

* **arcs**: every segment (two consecutive nodes of a street, a loop's closing
  pair included) driven in each allowed direction: both ways on a two-way
  road, path order on a ``one_way`` street or the freeway, road -> freeway on
  an entry, freeway -> road on an exit.  Arc ``a`` has its segment, its street
  and direction, whether it is an entry (a freeway tablet), and ``cont[a]``:
  the arc that goes on along the same street in the same direction from its
  end (-1 at the street's end), which is what "one street" means (rule 6);
* **D0**: the tablet-free distance in streets between every pair of nodes, by
  a 0-1 breadth-first search over (node, arriving arc), never entering a lit
  node nor an entry (the players' distance, spec section (e)).
"""

from __future__ import annotations

import tomllib
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance.errors import UserError

DEFAULT_BOARD = Path(__file__).with_name("boards") / "default.toml"

STREET_KINDS = ("minor", "major", "freeway")
DECKS = ("journey", "passenger", "expense")
CARD_KINDS = (
    "cash", "fine", "expense", "green", "freeway", "streets", "no_move", "roadwork",
    "gamble_money", "gamble_freeway", "gamble_taxi",
)
(
    CASH, FINE, EXPENSE, GREEN, FREEWAY, STREETS, NO_MOVE, ROADWORK,
    GAMBLE_MONEY, GAMBLE_FREEWAY, GAMBLE_TAXI,
) = range(len(CARD_KINDS))
WORDS = ("money", "freeway", "taxi")  # a gamble card's word: kind - GAMBLE_MONEY
GUIDE_STOPS = 30
BASE_STOPS = (14, 29)  # stops 15 and 30 (0-based) are the base
MONEY_KINDS = ("cash", "fine", "expense")
UNREACHABLE = 1 << 20

MAP_KEYS = ("base", "lights", "entries", "exits", "guides", "street", "nodes", "destinations")
TOP_KEYS = frozenset(("name", *MAP_KEYS, *DECKS))
STREET_KEYS = frozenset(("name", "kind", "one_way", "loop", "path"))
CARD_KEYS = frozenset(("name", "kind", "value", "count"))


@dataclass(frozen=True)
class Street:
    name: str
    kind: str
    one_way: bool
    loop: bool
    path: tuple[int, ...]


@dataclass(frozen=True)
class Card:
    name: str
    kind: str
    value: int

    @property
    def code(self) -> int:
        return CARD_KINDS.index(self.kind)


@dataclass(frozen=True, eq=False)
class TaxiBoard:
    """A validated board and the tables the kernel reads (derived once)."""

    name: str
    source: str
    nodes: tuple[str, ...]
    xy: tuple[tuple[float, float], ...]
    streets: tuple[Street, ...]
    lights: tuple[int, ...]
    entries: tuple[tuple[int, int], ...]
    exits: tuple[tuple[int, int], ...]
    destinations: tuple[tuple[str, int], ...]  # the base included, file order
    base: int
    base_name: str
    guides: tuple[tuple[int, ...], ...]  # node of every stop
    decks: dict[str, tuple[Card, ...]]
    # derived
    freeway: np.ndarray = field(init=False, repr=False)  # bool[n]
    lit: np.ndarray = field(init=False, repr=False)  # bool[n]
    segments: tuple[tuple[int, int, int], ...] = field(init=False, repr=False)  # (a, b, street), path order
    arc_from: np.ndarray = field(init=False, repr=False)
    arc_to: np.ndarray = field(init=False, repr=False)
    arc_seg: np.ndarray = field(init=False, repr=False)
    arc_street: np.ndarray = field(init=False, repr=False)
    arc_dir: np.ndarray = field(init=False, repr=False)  # +1 path order, -1 against
    arc_entry: np.ndarray = field(init=False, repr=False)  # 1: an entry (a freeway tablet)
    arc_cont: np.ndarray = field(init=False, repr=False)  # same street, same direction, from arc_to; -1: none
    out_start: np.ndarray = field(init=False, repr=False)  # arcs leaving u: out_arc[out_start[u]:out_start[u+1]]
    out_arc: np.ndarray = field(init=False, repr=False)  # ascending by end node
    node_seg_start: np.ndarray = field(init=False, repr=False)
    node_seg: np.ndarray = field(init=False, repr=False)  # segments touching a node, ascending
    d0: np.ndarray = field(init=False, repr=False)  # int64[n, n] tablet-free distance in streets

    def __post_init__(self) -> None:
        _derive(self)

    @property
    def n_nodes(self) -> int:
        return len(self.nodes)

    @property
    def n_arcs(self) -> int:
        return int(self.arc_from.shape[0])

    @property
    def destination_nodes(self) -> tuple[int, ...]:
        return tuple(node for _, node in self.destinations)

    def node(self, name: str) -> int:
        return self.nodes.index(name)

    def segment_of(self, a: int, b: int) -> int:
        """The segment joining nodes a and b (either order), or -1."""
        for k, (x, y, _) in enumerate(self.segments):
            if (x, y) == (a, b) or (x, y) == (b, a):
                return k
        return -1


# --------------------------------------------------------------------------- derived tables
def _derive(board: TaxiBoard) -> None:
    set_ = object.__setattr__
    n = len(board.nodes)
    freeway = np.zeros(n, np.bool_)
    for s in board.streets:
        if s.kind == "freeway":
            freeway[list(s.path)] = True
    lit = np.zeros(n, np.bool_)
    lit[list(board.lights)] = True
    entries = set(board.entries)
    exits = set(board.exits)
    segments: list[tuple[int, int, int]] = []
    arcs: list[tuple[int, int, int, int, int, int]] = []  # from, to, seg, street, dir, entry
    for si, s in enumerate(board.streets):
        pairs = list(zip(s.path, s.path[1:]))
        if s.loop:
            pairs.append((s.path[-1], s.path[0]))
        for a, b in pairs:
            k = len(segments)
            segments.append((a, b, si))
            for u, v, d in ((a, b, 1), (b, a, -1)):
                if d < 0 and s.one_way:
                    continue
                if (a, b) in entries or (b, a) in entries:
                    if (u, v) not in entries:
                        continue
                if (a, b) in exits or (b, a) in exits:
                    if (u, v) not in exits:
                        continue
                arcs.append((u, v, k, si, d, 1 if (u, v) in entries else 0))
    arcs.sort(key=lambda t: (t[0], t[1]))
    m = len(arcs)
    arr = np.array(arcs, dtype=np.int64).reshape(m, 6)
    by_key = {(street, d, u): i for i, (u, v, k, street, d, e) in enumerate(arcs)}
    cont = np.full(m, -1, np.int64)
    for i, (u, v, k, street, d, e) in enumerate(arcs):
        cont[i] = by_key.get((street, d, v), -1)
    out_start = np.zeros(n + 1, np.int64)
    for u, *_ in arcs:
        out_start[u + 1] += 1
    out_start = np.cumsum(out_start)
    out_arc = np.arange(m, dtype=np.int64)  # already sorted by (from, to)
    touching: list[list[int]] = [[] for _ in range(n)]
    for k, (a, b, _) in enumerate(segments):
        touching[a].append(k)
        touching[b].append(k)
    node_seg_start = np.zeros(n + 1, np.int64)
    node_seg_start[1:] = np.cumsum([len(t) for t in touching])
    node_seg = np.array([k for t in touching for k in sorted(t)], dtype=np.int64)
    set_(board, "freeway", freeway)
    set_(board, "lit", lit)
    set_(board, "segments", tuple(segments))
    set_(board, "arc_from", arr[:, 0].copy())
    set_(board, "arc_to", arr[:, 1].copy())
    set_(board, "arc_seg", arr[:, 2].copy())
    set_(board, "arc_street", arr[:, 3].copy())
    set_(board, "arc_dir", arr[:, 4].copy())
    set_(board, "arc_entry", arr[:, 5].copy())
    set_(board, "arc_cont", cont)
    set_(board, "out_start", out_start)
    set_(board, "out_arc", out_arc)
    set_(board, "node_seg_start", node_seg_start)
    set_(board, "node_seg", node_seg)
    set_(board, "d0", tablet_free_distances(board))


def tablet_free_distances(board: TaxiBoard) -> np.ndarray:
    """D0[u, v]: the fewest streets from u (a turn's start) to v, never entering a
    lit node nor passing an entry (UNREACHABLE when there is no such drive)."""
    n = len(board.nodes)
    m = board.arc_from.shape[0]
    usable = [not board.lit[board.arc_to[a]] and not board.arc_entry[a] for a in range(m)]
    out = [list(board.out_arc[board.out_start[u] : board.out_start[u + 1]]) for u in range(n)]
    d0 = np.full((n, n), UNREACHABLE, np.int64)
    for src in range(n):
        best = [UNREACHABLE] * m  # streets after driving arc a (state: arrived by a)
        queue: deque[tuple[int, int]] = deque()
        for a in out[src]:
            if usable[a] and best[a] > 1:
                best[a] = 1
                queue.append((1, a))
        while queue:
            d, a = queue.popleft()
            if d > best[a]:
                continue
            v = int(board.arc_to[a])
            free_turn = bool(board.freeway[v])
            for b in out[v]:
                if not usable[b]:
                    continue
                nd = d if (free_turn or b == board.arc_cont[a]) else d + 1
                if nd < best[b]:
                    best[b] = nd
                    if nd == d:
                        queue.appendleft((nd, b))
                    else:
                        queue.append((nd, b))
        row = d0[src]
        row[src] = 0
        for a in range(m):
            v = int(board.arc_to[a])
            if best[a] < row[v]:
                row[v] = best[a]
    return d0


# --------------------------------------------------------------------------- loading
_DEFAULT: dict[str, Any] = {}


def _default_data() -> dict[str, Any]:
    if not _DEFAULT:
        _DEFAULT.update(tomllib.loads(DEFAULT_BOARD.read_text(encoding="utf-8")))
    return _DEFAULT


def load_board(path: str | Path | None = None) -> TaxiBoard:
    """The default board (``path=None``) or a user's board file; UserError if bad."""
    if path is None:
        return board_from_dict(_default_data(), f"board file {str(DEFAULT_BOARD)!r}", "default")
    file = Path(path)
    label = f"board file {str(path)!r}"
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
    return board_from_dict(merge_with_default(data, label, file.name), label, str(file))


def merge_with_default(data: dict[str, Any], label: str, file_name: str = "") -> dict[str, Any]:
    """A user's table completed from the default file: the whole map or none of
    it, any of the decks."""
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise UserError(f"{label}: unknown key {unknown[0]!r}; allowed: {', '.join(sorted(TOP_KEYS))}")
    given = [k for k in MAP_KEYS if k in data]
    if given and len(given) != len(MAP_KEYS):
        missing = [k for k in MAP_KEYS if k not in data]
        raise UserError(
            f"{label}: a map given in part (has {', '.join(given)}; misses {', '.join(missing)}): "
            "give all of its keys or none"
        )
    merged = dict(_default_data())
    merged.update(data)
    if given and "name" not in data:
        merged["name"] = file_name or "user map"
    return merged


def board_from_dict(data: dict[str, Any], label: str = "board", source: str = "dict") -> TaxiBoard:
    """Validate a complete board table into a :class:`TaxiBoard`."""

    def bad(msg: str) -> UserError:
        return UserError(f"{label}: {msg}")

    if not isinstance(data, dict):
        raise bad("expected a table")
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise bad(f"unknown key {unknown[0]!r}; allowed: {', '.join(sorted(TOP_KEYS))}")
    missing = [k for k in (*MAP_KEYS, *DECKS) if k not in data]
    if missing:
        raise bad(f"missing key {missing[0]!r}")
    name = data.get("name", "TAXI! board")
    if not isinstance(name, str):
        raise bad("name must be a string")

    # ---- nodes
    raw_nodes = data["nodes"]
    if not isinstance(raw_nodes, dict) or not raw_nodes:
        raise bad("nodes must be a table of name = [x, y]")
    nodes: list[str] = []
    xy: list[tuple[float, float]] = []
    for node_name, coords in raw_nodes.items():
        if node_name in nodes:
            raise bad(f"node {node_name!r} named twice")
        if (
            not isinstance(coords, list)
            or len(coords) != 2
            or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in coords)
        ):
            raise bad(f"node {node_name!r}: coordinates must be two numbers [x, y], not {coords!r}")
        nodes.append(node_name)
        xy.append((coords[0], coords[1]))
    index = {nm: i for i, nm in enumerate(nodes)}

    def node_of(value: Any, what: str) -> int:
        if not isinstance(value, str) or value not in index:
            raise bad(f"{what}: unknown node {value!r}")
        return index[value]

    # ---- streets
    raw_streets = data["street"]
    if not isinstance(raw_streets, list) or not raw_streets:
        raise bad("street must be a list of streets")
    streets: list[Street] = []
    for i, s in enumerate(raw_streets):
        if not isinstance(s, dict):
            raise bad(f"street {i + 1} must be a table")
        extra = sorted(set(s) - STREET_KEYS)
        if extra:
            raise bad(f"street {i + 1}: unknown key {extra[0]!r}; allowed: {', '.join(sorted(STREET_KEYS))}")
        sname = s.get("name", f"street {i + 1}")
        if not isinstance(sname, str):
            raise bad(f"street {i + 1}: name must be a string")
        what = f"street {sname!r}"
        kind = s.get("kind")
        if kind not in STREET_KINDS:
            raise bad(f"{what}: unknown kind {kind!r}; allowed: {', '.join(STREET_KINDS)}")
        one_way = s.get("one_way", False)
        loop = s.get("loop", False)
        if not isinstance(one_way, bool) or not isinstance(loop, bool):
            raise bad(f"{what}: one_way and loop must be true or false")
        path = s.get("path")
        if not isinstance(path, list) or len(path) < 2:
            raise bad(f"{what}: a path needs at least two nodes")
        ids = [node_of(p, what) for p in path]
        if len(set(ids)) != len(ids):
            twice = next(p for p in path if path.count(p) > 1)
            raise bad(f"{what}: node {twice!r} twice in its path")
        if loop and len(ids) < 3:
            raise bad(f"{what}: a loop needs at least three nodes")
        if kind == "freeway" and not one_way:
            raise bad(f"{what}: a freeway street must be one_way")
        streets.append(Street(sname, kind, one_way, loop, tuple(ids)))
    on_freeway = set()
    for s in streets:
        if s.kind == "freeway":
            on_freeway.update(s.path)
    seg_owner: dict[frozenset[int], str] = {}
    road_segments: dict[frozenset[int], Street] = {}
    for s in streets:
        pairs = list(zip(s.path, s.path[1:])) + ([(s.path[-1], s.path[0])] if s.loop else [])
        for a, b in pairs:
            key = frozenset((a, b))
            if key in seg_owner:
                raise bad(
                    f"segment {nodes[a]}-{nodes[b]} is in two streets ({seg_owner[key]!r} and {s.name!r})"
                )
            seg_owner[key] = s.name
            if s.kind != "freeway":
                road_segments[key] = s

    # ---- lights
    lights = _node_list(data["lights"], "lights", node_of, bad)

    # ---- destinations and base
    raw_dest = data["destinations"]
    if not isinstance(raw_dest, dict) or not raw_dest:
        raise bad("destinations must be a table of name = node")
    destinations: list[tuple[str, int]] = []
    used: dict[int, str] = {}
    for dname, dnode in raw_dest.items():
        node = node_of(dnode, f"destination {dname!r}")
        if node in on_freeway:
            raise bad(f"destination {dname!r}: node {dnode!r} is on the freeway")
        if node in used:
            raise bad(f"destinations {used[node]!r} and {dname!r} share node {dnode!r}")
        used[node] = dname
        destinations.append((dname, node))
    base_name = data["base"]
    if not isinstance(base_name, str) or base_name not in raw_dest:
        raise bad(f"base {base_name!r} is not among the destinations")
    base = index[raw_dest[base_name]]
    for light in lights:
        if light in on_freeway:
            raise bad(f"light on freeway node {nodes[light]!r}")
        if light in used:
            what = "the base" if light == base else f"destination {used[light]!r}"
            raise bad(f"light on {what} (node {nodes[light]!r})")

    # ---- entries and exits
    entries = _pairs(data["entries"], "entries", node_of, bad)
    exits = _pairs(data["exits"], "exits", node_of, bad)
    for what, pairs, road_first in (("entry", entries, True), ("exit", exits, False)):
        for a, b in pairs:
            road, fw = (a, b) if road_first else (b, a)
            key = frozenset((a, b))
            desc = f"{what} {nodes[a]}->{nodes[b]}"
            if key not in road_segments:
                raise bad(f"{desc} is not a road segment")
            if road in on_freeway or fw not in on_freeway:
                shape = "road node to a freeway node" if road_first else "freeway node to a road node"
                raise bad(f"{desc} must go from a {shape}")
            s = road_segments[key]
            if s.one_way:
                i = s.path.index(a)
                forward = i + 1 < len(s.path) and s.path[i + 1] == b or (s.loop and i == len(s.path) - 1 and s.path[0] == b)
                if not forward:
                    raise bad(f"{desc} runs against the one-way street {s.name!r}")
    both = {frozenset(p) for p in entries} & {frozenset(p) for p in exits}
    if both:
        a, b = sorted(next(iter(both)))
        raise bad(f"segment {nodes[a]}-{nodes[b]} is both an entry and an exit")
    ramp = {frozenset(p) for p in entries} | {frozenset(p) for p in exits}
    for key, s in road_segments.items():
        a, b = sorted(key)
        if a in on_freeway and b in on_freeway:
            raise bad(f"road segment {nodes[a]}-{nodes[b]} of {s.name!r} joins two freeway nodes")
        if a in on_freeway or b in on_freeway:
            fw = a if a in on_freeway else b
            if key not in ramp:
                raise bad(
                    f"road segment {nodes[a]}-{nodes[b]} of {s.name!r} touches the freeway "
                    "without being an entry or an exit"
                )
            if s.loop or fw not in (s.path[0], s.path[-1]):
                raise bad(f"street {s.name!r} touches the freeway at {nodes[fw]!r}, not at an end of its road")

    # ---- guides
    raw_guides = data["guides"]
    if not isinstance(raw_guides, list) or len(raw_guides) < 2:
        raise bad("at least 2 guides are needed (one per seat)")
    guides: list[tuple[int, ...]] = []
    for g, guide in enumerate(raw_guides):
        what = f"guide {g + 1}"
        if not isinstance(guide, list) or len(guide) != GUIDE_STOPS:
            n_stops = len(guide) if isinstance(guide, list) else "no"
            raise bad(f"{what} has {n_stops} stops; a guide has {GUIDE_STOPS}")
        stops: list[int] = []
        previous = base
        for k, stop in enumerate(guide):
            if k in BASE_STOPS:
                if stop != base_name:
                    raise bad(f"{what}: stop {k + 1} must be the base {base_name!r}, not {stop!r}")
            elif not isinstance(stop, str) or stop not in raw_dest:
                raise bad(f"{what}: stop {k + 1} {stop!r} is not a destination")
            node = index[raw_dest[stop]]
            if node == previous:
                before = "the start at the base" if k == 0 else f"stop {k}"
                raise bad(f"{what}: stop {k + 1} {stop!r} is the same as {before}")
            stops.append(node)
            previous = node
        guides.append(tuple(stops))

    # ---- decks
    decks: dict[str, tuple[Card, ...]] = {}
    for deck in DECKS:
        decks[deck] = _deck(data[deck], deck, bad)

    board = TaxiBoard(
        name=name,
        source=source,
        nodes=tuple(nodes),
        xy=tuple(xy),
        streets=tuple(streets),
        lights=tuple(lights),
        entries=tuple(entries),
        exits=tuple(exits),
        destinations=tuple(destinations),
        base=base,
        base_name=base_name,
        guides=tuple(guides),
        decks=decks,
    )

    # ---- reachability without tablets, and off the freeway
    targets = sorted(set(board.destination_nodes))
    for u in range(board.n_nodes):
        if board.freeway[u]:
            continue
        for t in targets:
            if board.d0[u, t] >= UNREACHABLE:
                raise bad(
                    f"destination {used[t]!r} ({nodes[t]}) cannot be reached from node {nodes[u]!r} "
                    "without tablets"
                )
    exit_nodes = {a for a, _ in exits}
    for u in sorted(on_freeway):
        seen = {u}
        todo = [u]
        found = False
        while todo and not found:
            x = todo.pop()
            if x in exit_nodes:
                found = True
                break
            for a in board.out_arc[board.out_start[x] : board.out_start[x + 1]]:
                y = int(board.arc_to[a])
                if board.freeway[y] and y not in seen:
                    seen.add(y)
                    todo.append(y)
        if not found:
            raise bad(f"no exit can be reached from freeway node {nodes[u]!r}")
    return board


def _node_list(value: Any, what: str, node_of: Any, bad: Any) -> list[int]:
    if not isinstance(value, list):
        raise bad(f"{what} must be a list of node names")
    out = [node_of(v, what) for v in value]
    if len(set(out)) != len(out):
        raise bad(f"{what}: a node listed twice")
    return out


def _pairs(value: Any, what: str, node_of: Any, bad: Any) -> list[tuple[int, int]]:
    if not isinstance(value, list):
        raise bad(f"{what} must be a list of [node, node] pairs")
    out: list[tuple[int, int]] = []
    for p in value:
        if not isinstance(p, list) or len(p) != 2:
            raise bad(f"{what}: {p!r} is not a [node, node] pair")
        pair = (node_of(p[0], what), node_of(p[1], what))
        if pair in out:
            raise bad(f"{what}: {p!r} listed twice")
        out.append(pair)
    return out


def _deck(value: Any, deck: str, bad: Any) -> tuple[Card, ...]:
    if not isinstance(value, list) or not value:
        raise bad(f"the {deck} deck must be a list of at least one card")
    cards: list[Card] = []
    for i, c in enumerate(value):
        if not isinstance(c, dict):
            raise bad(f"{deck} card {i + 1} must be a table")
        extra = sorted(set(c) - CARD_KEYS)
        if extra:
            raise bad(f"{deck} card {i + 1}: unknown key {extra[0]!r}; allowed: {', '.join(sorted(CARD_KEYS))}")
        cname = c.get("name")
        if not isinstance(cname, str):
            raise bad(f"{deck} card {i + 1}: a name (string) is needed")
        what = f"{deck} card {cname!r}"
        kind = c.get("kind")
        if kind not in CARD_KINDS:
            raise bad(f"{what}: unknown kind {kind!r}; allowed: {', '.join(CARD_KINDS)}")
        if (kind == "expense") != (deck == "expense"):
            raise bad(
                f"{what}: the expense deck holds expense cards only"
                if deck == "expense"
                else f"{what}: an expense card belongs to the expense deck only"
            )
        v = c.get("value", 0)
        count = c.get("count", 1)
        if not isinstance(v, int) or isinstance(v, bool):
            raise bad(f"{what}: value must be a whole number, not {v!r}")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise bad(f"{what}: count must be a whole number of at least 1, not {count!r}")
        ok = {
            "cash": v != 0, "fine": v >= 0, "expense": v >= 0, "green": v != 0, "freeway": v != 0,
            "streets": v >= 1, "no_move": v == 0, "roadwork": v == 0,
        }.get(kind, v == 0)
        if not ok:
            need = {
                "cash": "not 0", "fine": ">= 0", "expense": ">= 0", "green": "not 0", "freeway": "not 0",
                "streets": ">= 1",
            }.get(kind, "0 (or no value)")
            raise bad(f"{what}: value {v} has the wrong sign; a {kind} card's value is {need}")
        if kind in MONEY_KINDS and v % 10:
            raise bad(f"{what}: amount {v} is not a multiple of $10")
        cards.extend([Card(cname, kind, v)] * count)
    return tuple(cards)


# --------------------------------------------------------------------------- as data
def board_json(board: TaxiBoard) -> dict[str, Any]:
    """``balance board taxi --json``: nodes, adjacency (segments, both ways), and
    the lights, entries, exits, destinations, base and guides."""
    adjacency: list[list[int]] = [[] for _ in board.nodes]
    for a, b, _ in board.segments:
        adjacency[a].append(b)
        adjacency[b].append(a)
    return {
        "name": board.name,
        "nodes": list(board.nodes),
        "xy": [list(p) for p in board.xy],
        "adjacency": [sorted(a) for a in adjacency],
        "streets": streets_json(board),
        "lights": list(board.lights),
        "entries": [list(p) for p in board.entries],
        "exits": [list(p) for p in board.exits],
        "destinations": [{"name": nm, "node": node} for nm, node in board.destinations if node != board.base],
        "base": board.base,
        "guides": [list(g) for g in board.guides],
    }


def streets_json(board: TaxiBoard) -> list[dict[str, Any]]:
    return [
        {"name": s.name, "kind": s.kind, "one_way": s.one_way, "loop": s.loop, "path": list(s.path)}
        for s in board.streets
    ]


def decks_json(board: TaxiBoard) -> dict[str, list[dict[str, Any]]]:
    return {deck: [{"name": c.name, "kind": c.kind, "value": c.value} for c in board.decks[deck]] for deck in DECKS}


def setup_board_json(board: TaxiBoard, n_seats: int, stops: int) -> dict[str, Any]:
    """The board as the ``setup`` event carries it: guides of the seats in play,
    cut to the game's length."""
    data = board_json(board)
    del data["adjacency"]
    data["guides"] = [list(g[:stops]) for g in board.guides[:n_seats]]
    data["decks"] = decks_json(board)
    return {
        "name": data["name"], "nodes": data["nodes"], "xy": data["xy"], "lights": data["lights"],
        "streets": data["streets"], "entries": data["entries"], "exits": data["exits"],
        "destinations": data["destinations"], "base": data["base"], "guides": data["guides"],
        "decks": data["decks"],
    }


# --------------------------------------------------------------------------- the drawing
LEGEND_SYMBOLS = "abcdefghijklmnopqrstuvwxyz123456789"
MAX_DRAWN = 60  # coordinates up to this: a wider map is listed, not drawn


def board_text(board: TaxiBoard) -> str | None:
    """The map drawn on a character grid (``balance board taxi``), as RULES.md shows
    it: nodes at (2y, 2x); `F` a freeway node, `@` the base, a letter a destination
    (legend below), `*` a light, `+` another node; freeway `>v<^` in its direction,
    major roads `=` `H`, minor `-` `|`, an entry `T`, an exit `O`.  None when a
    coordinate is not a whole number in 0..60 (a map that is not on a grid)."""
    xy = board.xy
    if not all(float(c).is_integer() and 0 <= c <= MAX_DRAWN for p in xy for c in p):
        return None
    width = 2 * int(max(x for x, _ in xy)) + 1
    height = 2 * int(max(y for _, y in xy)) + 1
    grid = [[" "] * width for _ in range(height)]
    entries, exits = set(board.entries), set(board.exits)
    for a, b, street in board.segments:
        s = board.streets[street]
        (x1, y1), (x2, y2) = ((int(c) for c in xy[a]), (int(c) for c in xy[b]))
        if x1 != x2 and y1 != y2:
            continue  # a bend: only its nodes are drawn
        cells = [(2 * y1 + k * (1 if y2 > y1 else -1), 2 * x1) for k in range(1, 2 * abs(y2 - y1))] if x1 == x2 else [
            (2 * y1, 2 * x1 + k * (1 if x2 > x1 else -1)) for k in range(1, 2 * abs(x2 - x1))]
        horizontal = y1 == y2
        if s.kind == "freeway":
            mark = (">" if x2 > x1 else "<") if horizontal else ("v" if y2 > y1 else "^")
        elif s.kind == "major":
            mark = "=" if horizontal else "H"
        else:
            mark = "-" if horizontal else "|"
        for r, c in cells:
            grid[r][c] = mark
        ramp = "T" if (a, b) in entries or (b, a) in entries else "O" if (a, b) in exits or (b, a) in exits else ""
        if ramp and cells:
            r, c = cells[len(cells) // 2]
            grid[r][c] = ramp
    symbol: dict[int, str] = {}
    legend: list[str] = []
    for k, (name, node) in enumerate((d for d in board.destinations if d[1] != board.base)):
        mark = LEGEND_SYMBOLS[k] if k < len(LEGEND_SYMBOLS) else "?"
        symbol[node] = mark
        legend.append(f"{mark} {name} ({board.nodes[node]})")
    for node, (x, y) in enumerate(xy):
        if board.freeway[node]:
            mark = "F"
        elif node == board.base:
            mark = "@"
        elif node in symbol:
            mark = symbol[node]
        elif board.lit[node]:
            mark = "*"
        else:
            mark = "+"
        grid[2 * int(y)][2 * int(x)] = mark
    columns = "abcdefghijklmnopqrstuvwxyz"
    lines = ["    " + " ".join(columns[x % 26] for x in range(width // 2 + 1))]
    for r, row in enumerate(grid):
        label = f"{r // 2:3d} " if r % 2 == 0 else "    "
        lines.append((label + "".join(row)).rstrip())
    for i in range(0, len(legend), 3):
        lines.append(("   " + "".join(f"{entry:<29}" for entry in legend[i : i + 3])).rstrip())
    return "\n".join(lines) + "\n"
