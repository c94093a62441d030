"""Carnage boards: streets, their adjacency, HQ sites and the 16 spawn cards.

Rulebook: "A car can move to each one of the six adjacent streets if no other
car is present on it."  A street is a segment of a city-block grid between two
intersections; at each end it touches the (up to) three other segments meeting
there, hence six.  The board is data: ``boards/default.toml`` ships with the
package and a user passes their own with ``--board FILE.toml``.

File format (sims/carnage/RULES.md, "Board files")::

    name = "my city"                       # optional
    description = "..."                    # optional
    hq = ["h1.0", "h3.3", "v0.3", "v3.1"]  # HQ sites, seat order; at least 2
    spawn_cards = [["h0.0", "v2.3"], ...]  # exactly 16 [origin, destination]

    [[street]]                             # one table per street; index = order
    name = "h0.0"
    neighbours = ["h0.1", "v0.0", "v0.1"]  # names or 0-based indices

Every mistake is refused with one line naming the file and what is wrong.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance.errors import UserError
from balance.graph import distances, padded_neighbours

DEFAULT_BOARD = Path(__file__).with_name("boards") / "default.toml"
MAX_NEIGHBOURS = 6  # three other streets at each end of a street
N_SPAWN_CARDS = 16  # "16 spawn cards"
MIN_HQ = (
    2  # the fewest players; a board must also have one HQ per seat (checked per run)
)
_TOP_KEYS = {"name", "description", "hq", "spawn_cards", "street"}
_STREET_KEYS = {"name", "neighbours"}


@dataclass(frozen=True, eq=False)
class CarnageBoard:
    """A validated board, with the arrays the kernel reads."""

    names: tuple[str, ...]
    adjacency: tuple[tuple[int, ...], ...]
    hq: tuple[int, ...]
    spawn_cards: tuple[tuple[int, int], ...]
    source: str = "default"
    title: str = ""
    # Kernel arrays (int64): neighbours[s, k] is the k-th street next to s or -1;
    # n_neighbours[s]; dist[a, b] in blocks; hq_streets[i]; cards[j] = (origin, dest).
    neighbours: np.ndarray = field(init=False, repr=False)
    n_neighbours: np.ndarray = field(init=False, repr=False)
    dist: np.ndarray = field(init=False, repr=False)
    hq_streets: np.ndarray = field(init=False, repr=False)
    cards: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        adj = [list(a) for a in self.adjacency]
        set_ = object.__setattr__
        set_(
            self, "neighbours", padded_neighbours(adj, MAX_NEIGHBOURS).astype(np.int64)
        )
        set_(self, "n_neighbours", np.array([len(a) for a in adj], dtype=np.int64))
        set_(self, "dist", distances(adj).astype(np.int64))
        set_(self, "hq_streets", np.array(self.hq, dtype=np.int64))
        set_(self, "cards", np.array(self.spawn_cards, dtype=np.int64).reshape(-1, 2))
        # Left writable on purpose: numba types read-only arrays differently, and
        # one array type everywhere means one compiled kernel.

    @property
    def n_streets(self) -> int:
        return len(self.names)

    def to_json(self) -> dict[str, Any]:
        return {
            "nodes": list(self.names),
            "adjacency": [list(a) for a in self.adjacency],
            "hq": list(self.hq),
            "spawn_cards": [list(c) for c in self.spawn_cards],
        }


# --------------------------------------------------------------------------- loading
def load_board(path: str | Path | None = None) -> CarnageBoard:
    """The default board (``path=None``) or a user's board file; UserError if bad."""
    file = DEFAULT_BOARD if path is None else Path(path)
    label = f"board file {str(path if path is not None else file)!r}"
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
    return board_from_dict(
        data, label, source=str(file) if path is not None else "default"
    )


def board_from_dict(
    data: dict[str, Any], label: str = "board", source: str = "dict"
) -> CarnageBoard:
    """Validate a parsed board table (the TOML's content) into a :class:`CarnageBoard`."""

    def bad(msg: str) -> UserError:
        return UserError(f"{label}: {msg}")

    if not isinstance(data, dict):
        raise bad("expected a table")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise bad(
            f"unknown key {unknown[0]!r}; allowed: {', '.join(sorted(_TOP_KEYS))}"
        )
    streets = data.get("street")
    if (
        not isinstance(streets, list)
        or not streets
        or not all(isinstance(s, dict) for s in streets)
    ):
        raise bad("needs at least one [[street]] table with a name and neighbours")
    names: list[str] = []
    for i, s in enumerate(streets):
        extra = sorted(set(s) - _STREET_KEYS)
        if extra:
            raise bad(
                f"street {i}: unknown key {extra[0]!r}; allowed: name, neighbours"
            )
        name = s.get("name")
        if not isinstance(name, str) or not name.strip():
            raise bad(f"street {i}: name must be a non-empty string")
        if name in names:
            raise bad(
                f"street name {name!r} is used twice (streets {names.index(name)} and {i})"
            )
        names.append(name)
    index = {n: i for i, n in enumerate(names)}
    n = len(names)

    def street_ref(value: Any, where: str) -> int:
        if isinstance(value, bool):
            raise bad(f"{where}: {value!r} names no street")
        if isinstance(value, int):
            if 0 <= value < n:
                return value
            raise bad(f"{where}: index {value} names no street (0..{n - 1})")
        if isinstance(value, str):
            if value in index:
                return index[value]
            raise bad(f"{where}: {value!r} names no street")
        raise bad(f"{where}: {value!r} must be a street name or index")

    adjacency: list[list[int]] = []
    for i, s in enumerate(streets):
        raw = s.get("neighbours")
        where = f"street {names[i]!r} neighbours"
        if not isinstance(raw, list):
            raise bad(f"{where} must be a list of street names or indices")
        nbrs = [street_ref(v, where) for v in raw]
        if i in nbrs:
            raise bad(f"{where} lists the street itself")
        if len(set(nbrs)) != len(nbrs):
            raise bad(f"{where} lists a street twice")
        if len(nbrs) > MAX_NEIGHBOURS:
            raise bad(
                f"{where}: {len(nbrs)} neighbours, at most {MAX_NEIGHBOURS} (three at each end)"
            )
        adjacency.append(nbrs)
    for i, nbrs in enumerate(adjacency):
        for j in nbrs:
            if i not in adjacency[j]:
                raise bad(
                    f"adjacency not symmetric: {names[i]!r} lists {names[j]!r} but {names[j]!r} does not list {names[i]!r}"
                )
    dist = distances(adjacency)
    if (dist[0] < 0).any():
        lost = names[int(np.flatnonzero(dist[0] < 0)[0])]
        raise bad(f"map is disconnected: {lost!r} cannot be reached from {names[0]!r}")

    hq_raw = data.get("hq")
    if not isinstance(hq_raw, list):
        raise bad(
            f"hq must be a list of at least {MIN_HQ} street names or indices (one per seat, seat order)"
        )
    hq = [street_ref(v, "hq") for v in hq_raw]
    if len(hq) < MIN_HQ:
        raise bad(
            f"hq lists {len(hq)} site(s); at least {MIN_HQ} needed (one per seat)"
        )
    for i, s in enumerate(hq):
        if hq.index(s) != i:
            raise bad(f"hq lists street {names[s]!r} twice")

    cards_raw = data.get("spawn_cards")
    if not isinstance(cards_raw, list):
        raise bad(
            f"spawn_cards must be a list of {N_SPAWN_CARDS} [origin, destination] pairs"
        )
    if len(cards_raw) != N_SPAWN_CARDS:
        raise bad(
            f"spawn_cards has {len(cards_raw)} cards; exactly {N_SPAWN_CARDS} needed"
        )
    cards: list[tuple[int, int]] = []
    for j, card in enumerate(cards_raw):
        where = f"spawn card {j}"
        if not isinstance(card, list) or len(card) != 2:
            raise bad(f"{where} must be [origin, destination], got {card!r}")
        o, d = street_ref(card[0], where), street_ref(card[1], where)
        if o == d:
            raise bad(
                f"{where}: origin and destination are the same street {names[o]!r}"
            )
        cards.append((o, d))

    title = data.get("name", "")
    if not isinstance(title, str):
        raise bad("name must be a string")
    return CarnageBoard(
        names=tuple(names),
        adjacency=tuple(tuple(a) for a in adjacency),
        hq=tuple(hq),
        spawn_cards=tuple(cards),
        source=source,
        title=title,
    )


def board_json(board: CarnageBoard) -> dict[str, Any]:
    """``{"nodes", "adjacency", "hq", "spawn_cards"}`` (streets by index)."""
    return board.to_json()


# --------------------------------------------------------------------------- generation
def grid_streets(
    rows: int, cols: int
) -> tuple[list[str], list[list[int]], dict[tuple, int]]:
    """Streets of a grid of ``rows x cols`` intersections.

    ``h{r}.{c}`` joins intersections (r, c)-(r, c+1); ``v{r}.{c}`` joins (r, c)-(r+1, c).
    Two streets are adjacent when they share an intersection.  Returns names,
    adjacency and the map ``frozenset({a, b}) -> street`` for intersections a, b.
    """
    segs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    names: list[str] = []
    for r in range(rows):
        for c in range(cols - 1):
            segs.append(((r, c), (r, c + 1)))
            names.append(f"h{r}.{c}")
    for r in range(rows - 1):
        for c in range(cols):
            segs.append(((r, c), (r + 1, c)))
            names.append(f"v{r}.{c}")
    at: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(segs):
        at.setdefault(a, []).append(i)
        at.setdefault(b, []).append(i)
    adjacency = []
    for i, (a, b) in enumerate(segs):
        adjacency.append(sorted({j for j in at[a] + at[b] if j != i}))
    by_ends = {frozenset(s): i for i, s in enumerate(segs)}
    return names, adjacency, by_ends


def _rotate(street: int, n: int, segs: list, by_ends: dict) -> int:
    """The street a quarter turn away on an ``n x n`` grid: (r, c) -> (c, n-1-r)."""
    a, b = segs[street]
    return by_ends[frozenset({(a[1], n - 1 - a[0]), (b[1], n - 1 - b[0])})]


def default_board_toml(size: int = 5) -> str:
    """The text of ``boards/default.toml`` (``python -m sims.carnage.board > ...``).

    HQ sites and spawn cards are chosen to be symmetric under a quarter turn, so
    no seat is favoured by the map in 2- or 4-player games: the HQs form one
    orbit (seat 1 faces seat 0, seats 2 and 3 the other two sides) and the 16
    cards are four base rides and their rotations.
    """
    names, adjacency, by_ends = grid_streets(size, size)
    segs = [None] * len(names)
    for ends, i in by_ends.items():
        a, b = sorted(ends)
        segs[i] = (a, b)
    idx = {n: i for i, n in enumerate(names)}

    def orbit(name: str) -> list[int]:
        s = idx[name]
        out = [s]
        for _ in range(3):
            s = _rotate(s, size, segs, by_ends)
            out.append(s)
        return out

    hq_orbit = orbit("h1.0")  # west side, then north, east, south
    hq = [hq_orbit[0], hq_orbit[2], hq_orbit[1], hq_orbit[3]]  # seat 1 opposite seat 0
    # Four base rides of 2, 3, 4 and 5 blocks (mean 3.5, the map's mean distance is
    # 3.1; fare 7 at 2 per block), from the centre outwards and across the map;
    # each with its three rotations.
    base = [("h2.1", "v3.1"), ("v1.2", "h0.0"), ("h1.1", "v3.3"), ("v2.0", "v1.4")]
    cards = []
    for o, d in base:
        for so, sd in zip(orbit(o), orbit(d)):
            cards.append((so, sd))
    dist = distances(adjacency)
    lines = [
        "# Carnage: the default board (generated by `python -m sims.carnage.board`; edit freely).",
        f"# A city of {size - 1}x{size - 1} blocks: {size}x{size} intersections, {len(names)} streets.",
        "# hRR.CC joins intersections (RR,CC)-(RR,CC+1); vRR.CC joins (RR,CC)-(RR+1,CC).",
        "# HQs and spawn cards are symmetric under a quarter turn (no seat favoured by the map).",
        "# Format: sims/carnage/RULES.md, 'Board files'.",
        "",
        f'name = "default {size - 1}x{size - 1} blocks"',
        "# One HQ site per seat, in seat order (seat 1 faces seat 0).",
        "hq = [" + ", ".join(f'"{names[s]}"' for s in hq) + "]",
        f"# {N_SPAWN_CARDS} cards [origin, destination]; the comment gives the ride in blocks.",
        "spawn_cards = [",
    ]
    for o, d in cards:
        lines.append(f'    ["{names[o]}", "{names[d]}"],  # {dist[o, d]} blocks')
    lines.append("]")
    for i, name in enumerate(names):
        lines.append("")
        lines.append("[[street]]")
        lines.append(f'name = "{name}"')
        lines.append(
            "neighbours = [" + ", ".join(f'"{names[j]}"' for j in adjacency[i]) + "]"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - regenerates the shipped data
    print(default_board_toml(), end="")
