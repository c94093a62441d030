"""Carnage's board as an SVG picture (``balance board carnage --svg FILE``).

Drawn from the board data alone (RULES.md, "3. Boards"): a street is a segment
between two intersections of a city-block grid, so when every street is named
``hR.C`` / ``vR.C`` (the default file's convention: ``hR.C`` joins
intersections (R, C)-(R, C+1), ``vR.C`` joins (R, C)-(R+1, C)) *and* the
file's adjacency is exactly "shares an intersection", the streets are drawn as
that grid.  Any other board (other names, or neighbours that a grid would not
give) is drawn as a graph: one circle per street, a line per pair of
neighbours, so the picture never shows an adjacency the rules do not use.

On both: the HQ sites in their seat's colour (seat order = the file's ``hq``
list) and the 16 spawn cards, numbered 0-15 as in traces: a dark badge on the
card's origin street, a white one on its destination, and the list of cards
with their ride in blocks (the fare is ``fare_per_block`` times it).
"""

from __future__ import annotations

import math
import re

from balance.svg import INK, MUTED, SEAT_COLOURS, Picture, Swatch, board_heading, graph_layout
from sims.carnage.board import CarnageBoard

_STREET = "#c3c8cf"
_BADGE = 9.0  # radius of a card badge
_NAME = re.compile(r"^([hv])(\d+)\.(\d+)$")


def grid_geometry(board: CarnageBoard) -> list[tuple[tuple[int, int], tuple[int, int]]] | None:
    """Each street's two intersections (row, column) when the board is a block
    grid named as the default file's and its adjacency is the grid's; else None."""
    ends: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for name in board.names:
        m = _NAME.match(name)
        if m is None:
            return None
        r, c = int(m.group(2)), int(m.group(3))
        ends.append(((r, c), (r, c + 1)) if m.group(1) == "h" else ((r, c), (r + 1, c)))
    at: dict[tuple[int, int], set[int]] = {}
    for i, (a, b) in enumerate(ends):
        at.setdefault(a, set()).add(i)
        at.setdefault(b, set()).add(i)
    for i, (a, b) in enumerate(ends):
        if (at[a] | at[b]) - {i} != set(board.adjacency[i]):
            return None
    return ends


def board_svg(board: CarnageBoard) -> str:
    title, where = board_heading("Carnage", board.title, board.source, "sims/carnage/boards/default.toml")
    n = board.n_streets
    pic = Picture(title, f"{where} · {n} streets, {len(board.hq)} HQ sites, {len(board.spawn_cards)} spawn cards")
    origins: dict[int, list[int]] = {}
    dests: dict[int, list[int]] = {}
    for k, (o, d) in enumerate(board.spawn_cards):
        origins.setdefault(o, []).append(k)
        dests.setdefault(d, []).append(k)
    seat_of = {s: i for i, s in enumerate(board.hq)}

    def tip(s: int) -> str:
        parts = [f"street {board.names[s]} (index {s}): {len(board.adjacency[s])} neighbours"]
        parts.append("next to " + ", ".join(board.names[j] for j in board.adjacency[s]))
        if s in seat_of:
            parts.append(f"HQ site of seat {seat_of[s]}")
        if s in origins:
            parts.append("origin of spawn card " + ", ".join(map(str, origins[s])))
        if s in dests:
            parts.append("destination of spawn card " + ", ".join(map(str, dests[s])))
        return "; ".join(parts)

    ends = grid_geometry(board)
    if ends is not None:
        _draw_grid(pic, board, ends, origins, dests, seat_of, tip)
        how = "Streets drawn as the block grid their names give (hR.C joins intersections R,C and R,C+1; vR.C joins R,C and R+1,C); a car moves to any street sharing an intersection."
    else:
        _draw_graph(pic, board, origins, dests, seat_of, tip)
        how = "Streets drawn as circles, a line between each pair of neighbours (the file's names or neighbours are not those of a block grid)."
    street = Swatch("line", stroke=_STREET, width=8) if ends is not None else Swatch("circle", fill="#e8eaed", r=8)
    entries = [
        (street, "street (hover: its neighbours and cards)"),
        (Swatch("circle", fill=INK, stroke=INK, r=8, text="k", text_fill="white"), "origin of spawn card k: a commuter appears here"),
        (Swatch("circle", fill="white", stroke=INK, width=1.5, r=8, text="k"), "destination of spawn card k"),
    ]
    for i, s in enumerate(board.hq):
        entries.append(
            (Swatch("square", fill=SEAT_COLOURS[i % len(SEAT_COLOURS)], stroke=INK, r=7, text=str(i), text_fill="white"),
             f"HQ site of seat {i}: {board.names[s]} (its cars start and are bought here)")
        )
    cards = [
        f"card {k}: {board.names[o]} → {board.names[d]}, {int(board.dist[o, d])} block{'s' if board.dist[o, d] != 1 else ''}"
        for k, (o, d) in enumerate(board.spawn_cards)
    ]
    rows = [" · ".join(cards[k : k + 4]) for k in range(0, len(cards), 4)]
    pic.legend(
        entries,
        notes=[how, "Each spawn draws one of the cards at random and puts it back; the fare is fare_per_block times the ride in blocks."],
        blocks=[("Spawn cards (numbered as in traces)", rows)],
    )
    return pic.render()


def _badges(pic: Picture, s: int, slots: list[tuple[float, float]], origins, dests, seat_of, tip: str) -> None:
    """The street's HQ square and card badges at the given slot centres."""
    marks: list[tuple[str, int]] = []
    if s in seat_of:
        marks.append(("hq", seat_of[s]))
    marks += [("origin", k) for k in origins.get(s, [])]
    marks += [("dest", k) for k in dests.get(s, [])]
    for (kind, k), (x, y) in zip(marks, slots):
        if kind == "hq":
            colour = SEAT_COLOURS[k % len(SEAT_COLOURS)]
            pic.rect(x - 8, y - 8, 16, 16, fill=colour, stroke=INK, rx=2, cls="hq", tip=f"HQ site of seat {k}: {tip}",
                     occupy=True)
            pic.centred(x, y, str(k), 12, fill="white", bold=True)
        elif kind == "origin":
            pic.circle(x, y, _BADGE, fill=INK, stroke=INK, cls="card-origin", tip=f"spawn card {k} starts here: {tip}")
            pic.centred(x, y, str(k), 12, fill="white", bold=True)
        else:
            pic.circle(x, y, _BADGE, fill="white", stroke=INK, stroke_width=1.5, cls="card-destination",
                       tip=f"spawn card {k} ends here: {tip}")
            pic.centred(x, y, str(k), 12, fill=INK, bold=True)


def _draw_grid(pic: Picture, board: CarnageBoard, ends, origins, dests, seat_of, tip) -> None:
    rows = max(max(a[0], b[0]) for a, b in ends) + 1
    cols = max(max(a[1], b[1]) for a, b in ends) + 1
    most = max(
        (len(origins.get(s, [])) + len(dests.get(s, [])) + (s in seat_of) for s in range(board.n_streets)), default=0
    )
    # A block holds its street's label and marks: 22 units a mark, 40 for the label.
    block = min(max(150.0, 44 + 22 * most + 40), (pic.width - 80) / max(1, cols - 1))
    left = (pic.width - block * (cols - 1)) / 2
    top = pic.y + 20

    def at(p: tuple[int, int]) -> tuple[float, float]:
        return left + p[1] * block, top + p[0] * block

    order = sorted(range(board.n_streets), key=lambda s: s in seat_of)  # HQ streets on top
    for s in order:
        (x1, y1), (x2, y2) = at(ends[s][0]), at(ends[s][1])
        colour = SEAT_COLOURS[seat_of[s] % len(SEAT_COLOURS)] if s in seat_of else _STREET
        pic.line(x1, y1, x2, y2, stroke=colour, width=12, cls="street", name=board.names[s], tip=tip(s), cap="butt")
    for r in range(rows):
        for c in range(cols):
            if any(p == (r, c) for e in ends for p in e):
                x, y = at((r, c))
                pic.circle(x, y, 7, fill="#8a9099", stroke="white", stroke_width=1.5, tip=f"intersection {r},{c}")
    for s in range(board.n_streets):
        (x1, y1), (x2, y2) = at(ends[s][0]), at(ends[s][1])
        marks = len(origins.get(s, [])) + len(dests.get(s, [])) + (s in seat_of)
        horizontal = y1 == y2
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        # along the street, as many as fit between its intersections; more go in rows beside it
        per_line = max(1, int((block - 40) // 22))
        slots = []
        for j in range(marks):
            line, k = divmod(j, per_line)
            in_line = min(per_line, marks - line * per_line)
            off = (k - (in_line - 1) / 2) * 22
            side = (line + 1) // 2 * 22 * (1 if line % 2 else -1)
            slots.append((mx + off, my + side) if horizontal else (mx + side, my + off))
        _badges(pic, s, slots, origins, dests, seat_of, tip(s))
    for s in range(board.n_streets):
        (x1, y1), (x2, y2) = at(ends[s][0]), at(ends[s][1])
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        name = board.names[s]
        if y1 == y2:
            candidates = [(mx, my - 15, "middle"), (mx, my + 24, "middle")]
        else:
            candidates = [(mx + 13, my + 4, "start"), (mx - 13, my + 4, "end")]
        pic.label(candidates, name, 12, fill=MUTED, tip=tip(s))
    pic.y = top + block * (rows - 1) + 30


def _draw_graph(pic: Picture, board: CarnageBoard, origins, dests, seat_of, tip) -> None:
    xy = graph_layout([list(a) for a in board.adjacency])
    unit = 120.0
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    span = max(xs) - min(xs) or 1.0
    unit = min(unit, (pic.width - 120) / span)
    left = (pic.width - unit * span) / 2 - unit * min(xs)
    top = pic.y + 40 - unit * min(ys)

    def at(i: int) -> tuple[float, float]:
        return left + unit * xy[i][0], top + unit * xy[i][1]

    for s, nbrs in enumerate(board.adjacency):
        for t in nbrs:
            if s < t:
                (x1, y1), (x2, y2) = at(s), at(t)
                pic.line(x1, y1, x2, y2, stroke=_STREET, width=3, tip=f"{board.names[s]} – {board.names[t]}")
    r = 16.0
    for s in range(board.n_streets):
        x, y = at(s)
        colour = SEAT_COLOURS[seat_of[s] % len(SEAT_COLOURS)] if s in seat_of else "#e8eaed"
        pic.circle(x, y, r, fill=colour, stroke=INK, cls="street", name=board.names[s], tip=tip(s))
        marks = len(origins.get(s, [])) + len(dests.get(s, [])) + (s in seat_of)
        # the street's HQ square and card badges in a ring around it
        slots = []
        for j in range(marks):
            angle = -math.pi / 2 + (j + 0.5) * 2 * math.pi / max(marks, 1) if marks > 1 else -math.pi / 4
            ring = max(r + _BADGE + 2, (_BADGE + 1) / math.sin(math.pi / marks) if marks > 1 else 0)
            slots.append((x + ring * math.cos(angle), y + ring * math.sin(angle)))
        _badges(pic, s, slots, origins, dests, seat_of, tip(s))
    for s in range(board.n_streets):
        x, y = at(s)
        name = board.names[s]
        far = r + 2 * _BADGE + 6
        pic.label([(x, y + far + 10, "middle"), (x + far, y + 4, "start"), (x - far, y + 4, "end"),
                   (x, y - far, "middle")], name, 12, fill=MUTED, tip=tip(s))
    pic.y = top + unit * max(ys) + 50
