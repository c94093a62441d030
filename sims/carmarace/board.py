"""Carmarace's map and decks as data: reading, validating (the picture: drawing.py).

The publisher never released the map nor the card lists; ``boards/default.toml``
(the map) and ``boards/decks.toml`` (the four 50-card decks) are our
reconstruction (sims/carmarace/RULES.md, "The map and the decks").  A user
passes another map with ``--board FILE.toml``; the map's ``decks`` key names its
deck file, relative to the map (default: the built-in decks).

Map file (every key is checked; an unknown one is refused)::

    name = "..."; description = "..."; size = [33, 22]; decks = "decks.toml"
    space = [ { name, kind, next, number, stop, gps, land, at, title }, ... ]
    links = [[from, to], ...]          # extra edges, appended to from's next
    [[chain]]                          # a1 .. aN, each leading to the next
    name, kind (road | track | sky), length, next, stops, land, from, to, title

Node order (the indices of traces): the spaces in file order, then each chain's
spaces chain by chain.  Kinds: road-class = lot, road, convention; track-class
= track, station; sky-class = sky, airport.  ``togo(v)`` = the fewest spaces
from ``v`` to the Convention along edges ``u -> w`` with ``w`` road-class, or
``u`` a track and ``w`` track-class, or ``u`` sky and ``w`` sky-class (how far
to go without boarding anything; not the plain shortest path).

Deck file::

    name = "..."; gifts = { airport = "...", station = "..." }
    transport = [ { name, mode, speed, limit, copies, tracks, ignores_stops, keep }, ... ]
    road = [ { name, speed, effect, copies }, ... ]      # also train, plane

Card ids: 0-based in the order transport, road, train, plane, entries in file
order, copies consecutive; a gift is the lowest id with that name.

Every fault is refused with one line naming the file and the fault
(``balance.errors.UserError``; the CLI exits 2).
"""

from __future__ import annotations

import math
import tomllib
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance.errors import UserError

BOARDS = Path(__file__).with_name("boards")
DEFAULT_BOARD = BOARDS / "default.toml"
DEFAULT_DECKS = BOARDS / "decks.toml"

# The kernel's table limits (state.py sizes its regions from them).
MAX_SPACES = 4096
MAX_NEXT = 8  # successors of one space
MAX_LAND = 4  # entries of one land list
MAX_CARDS = 2048  # cards in the four decks together
MAX_LIMIT = 60  # printed karma limit (the row's slots fit a 64-bit mask)
MAX_SPEED = 1000  # |speed| of any card

KINDS = ("lot", "road", "convention", "track", "station", "sky", "airport")
K_LOT, K_ROAD, K_CONVENTION, K_TRACK, K_STATION, K_SKY, K_AIRPORT = range(7)
ROAD_CLASS, TRACK_CLASS, SKY_CLASS = 0, 1, 2
CLASS_OF_KIND = (ROAD_CLASS, ROAD_CLASS, ROAD_CLASS, TRACK_CLASS, TRACK_CLASS, SKY_CLASS, SKY_CLASS)
CHAIN_KINDS = ("road", "track", "sky")

DECKS = ("transport", "road", "train", "plane")
MODES = ("road", "train", "plane")
EFFECTS = ("none", "on_top", "remove_negative", "remove_positive", "remove_all", "land")
GIFT_MODES = {"airport": "plane", "station": "train"}

_MAP_KEYS = {"name", "description", "size", "decks", "space", "links", "chain"}
_SPACE_KEYS = {"name", "kind", "next", "number", "stop", "gps", "land", "at", "title"}
_CHAIN_KEYS = {"name", "kind", "length", "next", "stops", "land", "from", "to", "title"}
_DECK_KEYS = {"name", "gifts", "transport", "road", "train", "plane"}
_TRANSPORT_KEYS = {"name", "mode", "speed", "limit", "copies", "tracks", "ignores_stops", "keep"}
_KARMA_KEYS = {"name", "speed", "effect", "copies"}


# --------------------------------------------------------------------------- data
@dataclass(frozen=True, eq=False)
class Decks:
    """The four decks: every card by id, and the gift cards."""

    name: str
    cards: tuple[dict[str, Any], ...]  # the trace's card objects, by id
    gifts: dict[str, int | None]
    source: str

    def ids(self, deck: str) -> list[int]:
        return [c["id"] for c in self.cards if c["deck"] == deck]


@dataclass(frozen=True, eq=False)
class CarmaBoard:
    """A validated map with its decks; ``togo`` per space."""

    name: str
    nodes: tuple[str, ...]
    kind: tuple[str, ...]
    adjacency: tuple[tuple[int, ...], ...]
    stop: tuple[bool, ...]
    gps: tuple[tuple[int, ...] | None, ...]
    land: tuple[tuple[int, ...] | None, ...]
    number: tuple[int | None, ...]
    convention: int
    togo: tuple[int, ...]
    decks: Decks
    source: str = "default"
    description: str = ""
    size: tuple[float, float] | None = None
    xy: tuple[tuple[float, float] | None, ...] = ()
    titles: tuple[str | None, ...] = ()
    cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def n_nodes(self) -> int:
        return len(self.nodes)

    @property
    def lot(self) -> list[int]:
        """The numbered lot squares, by number."""
        squares = [i for i, n in enumerate(self.number) if n is not None]
        return sorted(squares, key=lambda i: self.number[i])

    def to_json(self) -> dict[str, Any]:
        """The ``board`` object of the trace's ``setup`` event."""
        return {
            "name": self.name,
            "nodes": list(self.nodes),
            "kind": list(self.kind),
            "adjacency": [list(a) for a in self.adjacency],
            "stop": list(self.stop),
            "gps": [None if g is None else list(g) for g in self.gps],
            "land": [None if not land else list(land) for land in self.land],
            "number": list(self.number),
            "convention": self.convention,
        }

    def arrays(self) -> dict[str, np.ndarray]:
        """The kernel's tables (state.encode), built once per board."""
        if "arrays" not in self.cache:
            self.cache["arrays"] = _kernel_arrays(self)
        return self.cache["arrays"]


# --------------------------------------------------------------------------- reading
def _read_toml(path: Path, label: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{label} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{label} cannot be read: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{label} is not valid TOML: {exc}") from None


def load_board(path: str | Path | None = None) -> CarmaBoard:
    """The default map (``path=None``) or a user's map file, with its decks; UserError if bad."""
    file = DEFAULT_BOARD if path is None else Path(path)
    label = f"board file {str(file if path is None else path)!r}"
    data = _read_toml(file, label)
    decks_name = data.get("decks") if isinstance(data, dict) else None
    if decks_name is None:
        decks_file = DEFAULT_DECKS
    elif isinstance(decks_name, str) and decks_name.strip():
        decks_file = file.parent / decks_name
    else:
        raise UserError(f"{label}: decks must name a deck file (a path relative to the map)")
    decks = load_decks(decks_file, source=str(decks_file) if decks_name is not None else "default")
    return board_from_dict(data, label, decks, source=str(file) if path is not None else "default")


def load_decks(path: str | Path | None = None, source: str | None = None) -> Decks:
    file = DEFAULT_DECKS if path is None else Path(path)
    label = f"deck file {str(file)!r}"
    return decks_from_dict(_read_toml(file, label), label, source or str(file))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def decks_from_dict(data: dict[str, Any], label: str = "decks", source: str = "dict") -> Decks:
    """Validate a parsed deck file into :class:`Decks`."""

    def bad(msg: str) -> UserError:
        return UserError(f"{label}: {msg}")

    unknown = sorted(set(data) - _DECK_KEYS)
    if unknown:
        raise bad(f"unknown key {unknown[0]!r}; allowed: {', '.join(sorted(_DECK_KEYS))}")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise bad("name must be a string")
    cards: list[dict[str, Any]] = []
    for deck in DECKS:
        entries = data.get(deck, [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise bad(f"{deck} must be a list of card tables")
        if not entries:
            raise bad(f"the {deck} deck is empty; every deck needs at least one card")
        for j, e in enumerate(entries):
            where = f"{deck} card {j}"
            keys = _TRANSPORT_KEYS if deck == "transport" else _KARMA_KEYS
            extra = sorted(set(e) - keys)
            if extra:
                raise bad(f"{where}: unknown key {extra[0]!r}; allowed: {', '.join(sorted(keys))}")
            cname = e.get("name")
            if not isinstance(cname, str) or not cname.strip():
                raise bad(f"{where}: name must be a non-empty string")
            where = f"{deck} card {cname!r}"
            copies = e.get("copies", 1)
            if not _is_int(copies) or copies < 1:
                raise bad(f"{where}: copies must be an integer of at least 1, not {copies!r}")
            speed = e.get("speed")
            if not _is_int(speed):
                raise bad(f"{where}: speed must be an integer, not {speed!r}")
            if abs(speed) > MAX_SPEED:
                raise bad(f"{where}: speed {speed} is beyond the kernel's limit of {MAX_SPEED}")
            if deck == "transport":
                if speed < 0:
                    raise bad(f"{where}: a transport's speed must be at least 0, not {speed}")
                mode = e.get("mode")
                if mode not in MODES:
                    raise bad(f"{where}: mode must be one of {', '.join(MODES)}, not {mode!r}")
                limit = e.get("limit")
                if not _is_int(limit) or limit < 0:
                    raise bad(f"{where}: limit must be an integer of at least 0, not {limit!r}")
                if limit > MAX_LIMIT:
                    raise bad(f"{where}: limit {limit} is beyond the kernel's limit of {MAX_LIMIT}")
                if mode != "road":
                    for key in ("tracks", "ignores_stops", "keep"):
                        if key in e:
                            raise bad(f"{where}: {key} is for road vehicles only, not a {mode}")
                for key in ("tracks", "ignores_stops"):
                    if key in e and not isinstance(e[key], bool):
                        raise bad(f"{where}: {key} must be true or false, not {e[key]!r}")
                keep = e.get("keep", 0)
                if not _is_int(keep) or keep < 0:
                    raise bad(f"{where}: keep must be an integer of at least 0, not {keep!r}")
                if keep > MAX_SPEED:
                    raise bad(f"{where}: keep {keep} is beyond the kernel's limit of {MAX_SPEED}")
                card = {
                    "deck": "transport", "name": cname, "speed": speed, "mode": mode, "limit": limit,
                    "tracks": bool(e.get("tracks", False)), "ignores_stops": bool(e.get("ignores_stops", False)),
                    "keep": keep,
                }
            else:
                effect = e.get("effect", "none")
                if effect not in EFFECTS:
                    raise bad(f"{where}: effect must be one of {', '.join(EFFECTS)}, not {effect!r}")
                card = {"deck": deck, "name": cname, "speed": speed, "effect": effect}
            for _ in range(copies):
                if len(cards) >= MAX_CARDS:
                    raise bad(f"more than {MAX_CARDS} cards: beyond the kernel's limit")
                cards.append({"id": len(cards), **card})
    gifts_raw = data.get("gifts", {})
    if not isinstance(gifts_raw, dict):
        raise bad("gifts must be a table { airport = NAME, station = NAME }")
    extra = sorted(set(gifts_raw) - set(GIFT_MODES))
    if extra:
        raise bad(f"gifts: unknown key {extra[0]!r}; allowed: airport, station")
    gifts: dict[str, int | None] = {"airport": None, "station": None}
    for where, mode in GIFT_MODES.items():
        if where not in gifts_raw:
            continue
        gname = gifts_raw[where]
        found = [c["id"] for c in cards if c["deck"] == "transport" and c["name"] == gname and c["mode"] == mode]
        if not found:
            raise bad(f"gifts.{where} = {gname!r} names no {mode} card of the transport deck")
        gifts[where] = min(found)
    return Decks(name=name, cards=tuple(cards), gifts=gifts, source=source)


def board_from_dict(data: dict[str, Any], label: str, decks: Decks, source: str = "dict") -> CarmaBoard:
    """Validate a parsed map file (its decks already read) into a :class:`CarmaBoard`."""

    def bad(msg: str) -> UserError:
        return UserError(f"{label}: {msg}")

    if not isinstance(data, dict):
        raise bad("expected a table")
    unknown = sorted(set(data) - _MAP_KEYS)
    if unknown:
        raise bad(f"unknown key {unknown[0]!r}; allowed: {', '.join(sorted(_MAP_KEYS))}")
    title = data.get("name", "")
    if not isinstance(title, str):
        raise bad("name must be a string")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise bad("description must be a string")
    size = data.get("size")
    if size is not None and not _is_point(size):
        raise bad("size must be [width, height]")
    spaces = data.get("space", [])
    chains = data.get("chain", [])
    links = data.get("links", [])
    if not isinstance(spaces, list) or not all(isinstance(s, dict) for s in spaces):
        raise bad("space must be a list of space tables")
    if not isinstance(chains, list) or not all(isinstance(c, dict) for c in chains):
        raise bad("chain must be a list of [[chain]] tables")
    if not isinstance(links, list):
        raise bad("links must be a list of [from, to] pairs")

    # Names and kinds, in node order: spaces, then chains.
    names: list[str] = []
    kinds: list[int] = []
    raw_next: list[Any] = []
    numbers: list[Any] = []
    stops: list[bool] = []
    raw_gps: list[Any] = []
    raw_land: list[Any] = []
    xy: list[tuple[float, float] | None] = []
    titles: list[str | None] = []
    where_of: list[str] = []
    seen: dict[str, int] = {}

    def add_name(name: Any, where: str) -> None:
        if not isinstance(name, str) or not name.strip():
            raise bad(f"{where}: name must be a non-empty string")
        if name in seen:
            raise bad(f"space name {name!r} is used twice")
        seen[name] = len(names)
        names.append(name)
        where_of.append(f"space {name!r}")

    for i, s in enumerate(spaces):
        extra = sorted(set(s) - _SPACE_KEYS)
        if extra:
            raise bad(f"space {s.get('name', i)!r}: unknown key {extra[0]!r}; allowed: {', '.join(sorted(_SPACE_KEYS))}")
        if "name" not in s:
            raise bad(f"space {i}: missing name")
        add_name(s["name"], f"space {i}")
        where = f"space {s['name']!r}"
        kind = s.get("kind")
        if kind not in KINDS:
            raise bad(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
        kinds.append(KINDS.index(kind))
        raw_next.append(s.get("next", []))
        numbers.append(s.get("number"))
        if "number" in s and kind != "lot":
            raise bad(f"{where}: only lot squares have a number")
        stop = s.get("stop", False)
        if not isinstance(stop, bool):
            raise bad(f"{where}: stop must be true or false")
        if stop and kind != "road":
            raise bad(f"{where}: a Stop sign must be on a road space, not a {kind} space")
        stops.append(stop)
        raw_gps.append(s.get("gps"))
        raw_land.append(("space", s["land"]) if "land" in s else None)
        at = s.get("at")
        if at is not None and not _is_point(at):
            raise bad(f"{where}: at must be [x, y]")
        xy.append(None if at is None else (float(at[0]), float(at[1])))
        t = s.get("title")
        if t is not None and not isinstance(t, str):
            raise bad(f"{where}: title must be a string")
        titles.append(t)

    for ci, c in enumerate(chains):
        extra = sorted(set(c) - _CHAIN_KEYS)
        if extra:
            raise bad(f"chain {c.get('name', ci)!r}: unknown key {extra[0]!r}; allowed: {', '.join(sorted(_CHAIN_KEYS))}")
        cname = c.get("name")
        if not isinstance(cname, str) or not cname.strip():
            raise bad(f"chain {ci}: missing name")
        where = f"chain {cname!r}"
        kind = c.get("kind")
        if kind not in CHAIN_KINDS:
            raise bad(f"{where}: kind must be one of {', '.join(CHAIN_KINDS)}, not {kind!r}")
        length = c.get("length")
        if not _is_int(length) or length < 1:
            raise bad(f"{where}: length must be a positive integer, not {length!r}")
        if length > MAX_SPACES:
            raise bad(f"{where}: length {length} is beyond the kernel's limit of {MAX_SPACES} spaces")
        chain_stops = c.get("stops", [])
        if not isinstance(chain_stops, list) or not all(_is_int(p) for p in chain_stops):
            raise bad(f"{where}: stops must be a list of positions (1-based)")
        if chain_stops and kind != "road":
            raise bad(f"{where}: a Stop sign must be on a road space, not on a {kind} chain")
        for p in chain_stops:
            if not 1 <= p <= length:
                raise bad(f"{where}: stop position {p} is not in 1..{length}")
        land = c.get("land")
        if land is not None:
            if not isinstance(land, list) or len(land) != length:
                got = len(land) if isinstance(land, list) else "no list"
                raise bad(f"{where}: land must have one entry per space ({length}), not {got}")
        for pt in ("from", "to"):
            if pt in c and not _is_point(c[pt]):
                raise bad(f"{where}: {pt} must be [x, y]")
        t = c.get("title")
        if t is not None and not isinstance(t, str):
            raise bad(f"{where}: title must be a string")
        a = c.get("from")
        b = c.get("to")
        for k in range(length):
            add_name(f"{cname}{k + 1}", where)
            kinds.append(KINDS.index(kind))
            raw_next.append(None)  # the chain's next space, filled below
            numbers.append(None)
            stops.append(k + 1 in chain_stops)
            raw_gps.append(None)
            if land is None:
                raw_land.append(None)
            else:
                entry = land[k]
                raw_land.append(("chain", entry if isinstance(entry, list) else [entry]))
            if a is not None and b is not None:
                f = 0.5 if length == 1 else k / (length - 1)
                xy.append((a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])))
            else:
                xy.append(None)
            titles.append(t)
        if len(names) > MAX_SPACES:
            raise bad(f"more than {MAX_SPACES} spaces: beyond the kernel's limit")
    n = len(names)
    if n == 0:
        raise bad("the map has no spaces")
    if n > MAX_SPACES:
        raise bad(f"{n} spaces: beyond the kernel's limit of {MAX_SPACES}")

    def ref(name: Any, where: str) -> int:
        if not isinstance(name, str) or name not in seen:
            raise bad(f"{where} names an unknown space {name!r}")
        return seen[name]

    # Successors: a space's next, a chain space's following space, then links.
    adjacency: list[list[int]] = [[] for _ in range(n)]
    for i in range(len(spaces)):
        nx = raw_next[i]
        if not isinstance(nx, list):
            raise bad(f"{where_of[i]}: next must be a list of names")
        adjacency[i] = [ref(v, f"{where_of[i]} next") for v in nx]
    at = len(spaces)
    for c in chains:
        cnext = c.get("next", [])
        if not isinstance(cnext, list):
            raise bad(f"chain {c['name']!r}: next must be a list of names")
        last = [ref(v, f"chain {c['name']!r} next") for v in cnext]
        for k in range(c["length"]):
            adjacency[at + k] = [at + k + 1] if k + 1 < c["length"] else list(last)
        at += c["length"]
    for j, link in enumerate(links):
        if not isinstance(link, list) or len(link) != 2:
            raise bad(f"links entry {j} must be [from, to], not {link!r}")
        u = ref(link[0], f"links entry {j}")
        w = ref(link[1], f"links entry {j}")
        adjacency[u].append(w)
    for i, nx in enumerate(adjacency):
        if len(set(nx)) != len(nx):
            dup = next(names[v] for v in nx if nx.count(v) > 1)
            raise bad(f"{where_of[i]}: next names {dup!r} twice")
        if len(nx) > MAX_NEXT:
            raise bad(f"{where_of[i]}: {len(nx)} successors, beyond the kernel's limit of {MAX_NEXT}")

    # Lot numbers.
    lot_numbers: list[int] = []
    for i in range(n):
        if kinds[i] == K_LOT:
            num = numbers[i]
            if num is None:
                raise bad(f"{where_of[i]}: a lot square needs a number")
            if not _is_int(num) or num < 1:
                raise bad(f"{where_of[i]}: number must be a positive integer, not {num!r}")
            if num in lot_numbers:
                raise bad(f"{where_of[i]}: lot number {num} is used twice")
            lot_numbers.append(num)
    if not lot_numbers:
        raise bad("the map has no numbered lot square (start square)")

    # GPS arrows and land lists (names -> indices).
    gps: list[tuple[int, ...] | None] = [None] * n
    for i in range(n):
        g = raw_gps[i]
        if g is None:
            continue
        where = where_of[i]
        if kinds[i] != K_ROAD or stops[i]:
            raise bad(f"{where}: a gps arrow must be on a road space without a Stop sign")
        if not isinstance(g, list) or len(g) != 6:
            raise bad(f"{where}: gps must list 6 names (die face 1 first)")
        faces = tuple(ref(v, f"{where} gps") for v in g)
        if set(faces) != set(adjacency[i]) or len(set(faces)) < 2:
            raise bad(f"{where}: gps must name exactly the space's next spaces, at least 2 of them")
        gps[i] = faces
    land: list[tuple[int, ...] | None] = [None] * n
    for i in range(n):
        raw = raw_land[i]
        if raw is None:
            continue
        where = where_of[i]
        entries = raw[1]
        if not isinstance(entries, list) or not all(isinstance(v, str) for v in entries):
            raise bad(f"{where}: land must be a list of space names")
        idx = tuple(ref(v, f"{where} land") for v in entries)
        if len(idx) > MAX_LAND:
            raise bad(f"{where}: {len(idx)} land entries, beyond the kernel's limit of {MAX_LAND}")
        if len(set(idx)) != len(idx):
            raise bad(f"{where}: land names a space twice")
        for v in idx:
            if kinds[v] not in (K_LOT, K_ROAD, K_TRACK, K_STATION):
                raise bad(f"{where}: land entry {names[v]!r} is a {KINDS[kinds[v]]} space, not a lot, road, track or station")
        land[i] = idx or None

    # The Convention.
    conventions = [i for i in range(n) if kinds[i] == K_CONVENTION]
    if len(conventions) != 1:
        raise bad(f"the map needs exactly one convention space, not {len(conventions)}")
    convention = conventions[0]
    if adjacency[convention]:
        raise bad(f"{where_of[convention]}: the convention has no successor")

    # Edges between classes.
    cls = [CLASS_OF_KIND[k] for k in kinds]
    for u in range(n):
        for w in adjacency[u]:
            edge = f"edge {names[u]!r} -> {names[w]!r}"
            if kinds[w] == K_LOT:
                raise bad(f"{edge} leads into the parking lot")
            if {cls[u], cls[w]} == {TRACK_CLASS, SKY_CLASS}:
                raise bad(f"{edge} joins track and sky spaces")
            if cls[u] == ROAD_CLASS and kinds[w] == K_SKY:
                raise bad(f"{edge} leads from a road space straight into the sky (planes board at an airport)")
            if kinds[u] == K_SKY and cls[w] == ROAD_CLASS:
                raise bad(f"{edge} leads from the sky straight onto the road (planes land at an airport)")
    for u in range(n):
        where = where_of[u]
        if cls[u] == ROAD_CLASS and gps[u] is None:
            road_next = [w for w in adjacency[u] if cls[w] == ROAD_CLASS]
            if len(road_next) >= 2:
                raise bad(f"{where}: {len(road_next)} road successors and no gps arrow to choose between them")
        if kinds[u] == K_TRACK and not any(cls[w] == TRACK_CLASS for w in adjacency[u]):
            raise bad(f"{where}: a track space needs a track or station successor")
        if kinds[u] == K_SKY and not any(cls[w] == SKY_CLASS for w in adjacency[u]):
            raise bad(f"{where}: a sky space needs a sky or airport successor")
        if kinds[u] in (K_TRACK, K_SKY, K_STATION, K_AIRPORT) and land[u] is None:
            raise bad(f"{where}: a {KINDS[kinds[u]]} space needs a land list (its closest road or track)")

    # No cycle (Kahn), then togo.
    indeg = [0] * n
    for u in range(n):
        for w in adjacency[u]:
            indeg[w] += 1
    queue = deque(i for i in range(n) if indeg[i] == 0)
    done = 0
    while queue:
        u = queue.popleft()
        done += 1
        for w in adjacency[u]:
            indeg[w] -= 1
            if indeg[w] == 0:
                queue.append(w)
    if done != n:
        stuck = next(names[i] for i in range(n) if indeg[i] > 0)
        raise bad(f"the map has a cycle (through {stuck!r}); every route must lead on to the Convention")
    togo = togo_of(kinds, adjacency, convention)
    for i in range(n):
        if togo[i] < 0:
            raise bad(f"{where_of[i]}: the Convention cannot be reached from it without boarding (no finite togo)")
    for i in range(n):
        for v in land[i] or ():
            if togo[v] < togo[i]:
                raise bad(
                    f"{where_of[i]}: land entry {names[v]!r} is nearer the Convention ({togo[v]} to go) than the "
                    f"space itself ({togo[i]}): no shortcuts"
                )
    return CarmaBoard(
        name=title,
        nodes=tuple(names),
        kind=tuple(KINDS[k] for k in kinds),
        adjacency=tuple(tuple(a) for a in adjacency),
        stop=tuple(stops),
        gps=tuple(gps),
        land=tuple(land),
        number=tuple(numbers[i] if kinds[i] == K_LOT else None for i in range(n)),
        convention=convention,
        togo=tuple(togo),
        decks=decks,
        source=source,
        description=description,
        size=None if size is None else (float(size[0]), float(size[1])),
        xy=tuple(xy),
        titles=tuple(titles),
    )


def _is_point(v: Any) -> bool:
    return (
        isinstance(v, list) and len(v) == 2
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
    )


def togo_of(kinds: list[int], adjacency: list[list[int]], convention: int) -> list[int]:
    """Fewest no-boarding steps to the Convention (-1: none): edges u -> w with w
    road-class, or u a track and w track-class, or u sky and w sky-class."""
    n = len(kinds)
    cls = [CLASS_OF_KIND[k] for k in kinds]
    back: list[list[int]] = [[] for _ in range(n)]
    for u in range(n):
        for w in adjacency[u]:
            if (
                cls[w] == ROAD_CLASS
                or (kinds[u] == K_TRACK and cls[w] == TRACK_CLASS)
                or (kinds[u] == K_SKY and cls[w] == SKY_CLASS)
            ):
                back[w].append(u)
    togo = [-1] * n
    togo[convention] = 0
    queue = deque([convention])
    while queue:
        w = queue.popleft()
        for u in back[w]:
            if togo[u] < 0:
                togo[u] = togo[w] + 1
                queue.append(u)
    return togo


def board_json(board: CarmaBoard) -> dict[str, Any]:
    """The ``board`` object of the trace's ``setup`` event (``balance board carmarace --json``)."""
    return board.to_json()


# --------------------------------------------------------------------------- kernel tables
def _kernel_arrays(board: CarmaBoard) -> dict[str, np.ndarray]:
    """Plain arrays for state.encode: node tables and card tables."""
    n = board.n_nodes
    kinds = np.array([KINDS.index(k) for k in board.kind], np.int64)
    nxt = np.full((n, MAX_NEXT), -1, np.int64)
    n_next = np.zeros(n, np.int64)
    for i, a in enumerate(board.adjacency):
        nxt[i, : len(a)] = a
        n_next[i] = len(a)
    gps = np.full((n, 6), -1, np.int64)
    for i, g in enumerate(board.gps):
        if g is not None:
            gps[i] = g
    land = np.full((n, MAX_LAND), -1, np.int64)
    n_land = np.zeros(n, np.int64)
    for i, entries in enumerate(board.land):
        if entries:
            land[i, : len(entries)] = entries
            n_land[i] = len(entries)
    number = np.array([0 if x is None else x for x in board.number], np.int64)
    cards = board.decks.cards
    card_table = np.zeros((len(cards), 8), np.int64)
    for c in cards:
        row = card_table[c["id"]]
        row[0] = DECKS.index(c["deck"])
        row[1] = c["speed"]
        if c["deck"] == "transport":
            row[2] = MODES.index(c["mode"])
            row[3] = c["limit"]
            row[4] = int(c["tracks"])
            row[5] = int(c["ignores_stops"])
            row[6] = c["keep"]
        else:
            row[7] = EFFECTS.index(c["effect"])
    return {
        "kind": kinds,
        "next": nxt,
        "n_next": n_next,
        "stop": np.array(board.stop, np.int64),
        "gps": gps,
        "land": land,
        "n_land": n_land,
        "number": number,
        "togo": np.array(board.togo, np.int64),
        "cards": card_table,
    }


# --------------------------------------------------------------------------- the heatmap's grid
def _positions(board: CarmaBoard) -> list[tuple[float, float]]:
    """The heatmap's positions: the file's drawing cells where given, else a
    layout by togo (the picture, drawing.py, places spaces its own way)."""
    n = board.n_nodes
    pos: list[tuple[float, float] | None] = list(board.xy) if board.xy else [None] * n
    if all(p is not None for p in pos):
        return [p for p in pos if p is not None]
    far = max(board.togo) or 1
    rows: dict[int, int] = {}
    out = []
    for i in range(n):
        if pos[i] is not None:
            out.append(pos[i])
            continue
        col = (far - board.togo[i]) * 32.0 / far
        rows[board.togo[i]] = rows.get(board.togo[i], 0) + 1
        out.append((col, 1.0 + 2.0 * rows[board.togo[i]]))
    return out


def heat_grid(board: CarmaBoard) -> tuple[tuple[int, int], list[int]]:
    """The map's drawing grid, (rows, columns), and each space's cell in it
    (row-major): the heatmap counts how often pawns enter each cell's spaces."""
    pos = _positions(board)
    if board.size:
        cols, rows = int(math.ceil(board.size[0])), int(math.ceil(board.size[1]))
    else:
        cols = int(math.ceil(max(p[0] for p in pos))) + 1
        rows = int(math.ceil(max(p[1] for p in pos))) + 1
    cells = []
    for x, y in pos:
        cx = min(cols - 1, max(0, int(round(x))))
        cy = min(rows - 1, max(0, int(round(y))))
        cells.append(cy * cols + cx)
    return (rows, cols), cells
