"""TAXI!'s board as an SVG picture (``balance board taxi --svg FILE``).

Drawn from the board data alone, at the file's node coordinates (RULES.md,
"4. The map and the decks"): major roads thick, minor lanes thin, the freeway
blue with its direction; one-way streets with arrows; the entries (a freeway
tablet each, road to freeway only) and exits (free, freeway to road only);
the red traffic lights (entering one costs a green-light tablet); the base and
every destination (a letter, listed in the legend with the name), and the
destination guides as those letters.  Every node carries its name and role as
hover text.
"""

from __future__ import annotations

import math

from balance.svg import INK, MUTED, Picture, Swatch, board_heading, num
from sims.taxi.board import BASE_STOPS, DECKS, LEGEND_SYMBOLS, TaxiBoard

_ROAD = {"major": ("#9aa0a6", 7.0), "minor": ("#c9cdd2", 4.0), "freeway": ("#4a7fc1", 8.0)}
_LIGHT = "#d62728"
_BASE = "#f2b705"
_ENTRY = "#2ca02c"
_EXIT = "#7f3fbf"


def symbols(board: TaxiBoard) -> dict[int, str]:
    """Each destination node's letter (file order, as ``balance board taxi`` prints them; the base is ``B``)."""
    out: dict[int, str] = {}
    k = 0
    for _, node in board.destinations:
        if node == board.base:
            continue
        out[node] = LEGEND_SYMBOLS[k] if k < len(LEGEND_SYMBOLS) else f"{k + 1}"
        k += 1
    out[board.base] = "B"
    return out


def board_svg(board: TaxiBoard) -> str:
    title, where = board_heading("TAXI!", board.name, board.source, "sims/taxi/boards/default.toml")
    decks = ", ".join(f"{d} {len(board.decks[d])}" for d in DECKS)
    pic = Picture(
        title,
        f"{where} · {board.n_nodes} nodes, {len(board.streets)} streets, {len(board.lights)} traffic lights, "
        f"{len(board.destinations) - 1} destinations and the base · decks (cards): {decks}",
    )
    xy = board.xy
    xs = [p[0] for p in xy]
    ys = [p[1] for p in xy]
    span_x = (max(xs) - min(xs)) or 1.0
    span_y = (max(ys) - min(ys)) or 1.0
    closest = min(
        (math.dist(xy[i], xy[j]) for i in range(len(xy)) for j in range(i)), default=1.0
    ) or 1.0
    unit = min((pic.width - 80) / span_x, 820 / span_y, 110.0)
    # the largest mark (a destination, radius r_dest) must fit between the two closest nodes
    r_dest = max(5.0, min(10.5, unit * closest / 2 - 2.5))
    scale = r_dest / 10.5
    left = (pic.width - unit * span_x) / 2 - unit * min(xs)
    top = pic.y + 16 - unit * min(ys)

    def at(i: int) -> tuple[float, float]:
        return left + unit * xy[i][0], top + unit * xy[i][1]

    symbol = symbols(board)
    dest_name = {node: name for name, node in board.destinations}
    entries = set(board.entries)
    exits = set(board.exits)
    streets_at: dict[int, list[str]] = {}
    for s in board.streets:
        for v in s.path:
            streets_at.setdefault(v, []).append(s.name)

    # ---- streets: freeway under roads, minor under major
    order = sorted(range(len(board.streets)), key=lambda k: ("freeway", "minor", "major").index(board.streets[k].kind))
    for k in order:
        s = board.streets[k]
        colour, width = _ROAD[s.kind]
        pts = [at(v) for v in s.path]
        d = "M" + " L".join(f"{num(x)},{num(y)}" for x, y in pts) + (" Z" if s.loop else "")
        how = "one-way in path order" if s.one_way else "two-way"
        tip = f"{s.name}: {s.kind} {'road' if s.kind != 'freeway' else ''}".rstrip() + f", {how}, {len(s.path)} nodes"
        tip += f"; one pip of the die drives along the whole street ({board.nodes[s.path[0]]}–{board.nodes[s.path[-1]]})"
        pic.path(d, stroke=colour, width=width * max(scale, 0.6), cls="street", name=s.name, tip=tip)
    # ---- directions: one-way streets and the freeway, entries and exits
    for a, b, k in board.segments:
        s = board.streets[k]
        (x1, y1), (x2, y2) = at(a), at(b)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        ramp = [(u, v) for u, v in ((a, b), (b, a)) if (u, v) in entries or (u, v) in exits]
        if ramp:
            u, v = ramp[0]
            (ux, uy), (vx, vy) = at(u), at(v)
            entry = (u, v) in entries
            colour = _ENTRY if entry else _EXIT
            pic.line(ux + (vx - ux) * 0.25, uy + (vy - uy) * 0.25, ux + (vx - ux) * 0.62, uy + (vy - uy) * 0.62,
                     stroke=colour, width=3, cap="butt")
            pic.arrowhead(ux + (vx - ux) * 0.78, uy + (vy - uy) * 0.78, vx - ux, vy - uy, 9 * scale + 3, colour)
            what = (f"entry {board.nodes[u]} → {board.nodes[v]}: one way onto the freeway, costs a freeway tablet"
                    if entry else f"exit {board.nodes[u]} → {board.nodes[v]}: one way off the freeway, free")
            pic.circle(ux + (vx - ux) * 0.3, uy + (vy - uy) * 0.3, 4 * scale + 1.5, fill="white" if entry else colour,
                       stroke=colour, stroke_width=2, cls="entry" if entry else "exit", tip=what, occupy=False)
        elif s.one_way:
            length = math.hypot(x2 - x1, y2 - y1) or 1.0
            size = min(9 * scale + 2, length / 3)
            pic.arrowhead(mx + (x2 - x1) / length * size / 2, my + (y2 - y1) / length * size / 2, x2 - x1, y2 - y1, size,
                          "white" if s.kind == "freeway" else INK)
    # ---- nodes
    for i, name in enumerate(board.nodes):
        x, y = at(i)
        on = ", ".join(streets_at.get(i, [])) or "no street"
        if i == board.base:
            pic.circle(x, y, r_dest + 1.5, fill=_BASE, stroke=INK, stroke_width=1.5, cls="node", name=name,
                       tip=f"{name}: the base, {dest_name[i]} (stops {BASE_STOPS[0] + 1} and {BASE_STOPS[1] + 1} of every guide); on {on}")
            pic.centred(x, y, "B", 12 * max(scale, 0.96), bold=True)
        elif i in symbol:
            pic.circle(x, y, r_dest, fill="white", stroke=INK, stroke_width=1.5, cls="node", name=name,
                       tip=f"{name}: destination {dest_name[i]} ({symbol[i]}); on {on}")
            pic.centred(x, y, symbol[i], 12 * max(scale, 0.96), bold=True)
        elif board.lit[i]:
            pic.circle(x, y, 7 * scale + 1, fill=_LIGHT, stroke=INK, stroke_width=1.2, cls="node", name=name,
                       tip=f"{name}: red traffic light, entering it costs a green-light tablet; on {on}")
        elif board.freeway[i]:
            pic.circle(x, y, 4.5 * scale + 1, fill=_ROAD["freeway"][0], stroke="white", stroke_width=1.5, cls="node", name=name,
                       tip=f"{name}: freeway node; on {on}")
        else:
            pic.circle(x, y, 3.5 * scale + 1, fill="#5f6368", stroke="white", stroke_width=1.2, cls="node", name=name,
                       tip=f"{name}: road node; on {on}")
    # ---- destination names where they fit
    for i, sym in symbol.items():
        x, y = at(i)
        r = r_dest + 3
        text = dest_name[i]
        pic.label(
            [(x + r, y + 4, "start"), (x - r, y + 4, "end"), (x, y - r - 3, "middle"), (x, y + r + 11, "middle")],
            text, 12, fill=MUTED, tip=f"{text} ({board.nodes[i]})",
        )
    pic.y = top + unit * max(ys) + 24

    listing = []
    for name, node in board.destinations:
        if node != board.base:
            listing.append(f"{symbol[node]} {name} ({board.nodes[node]})")
    guides = []
    for g, guide in enumerate(board.guides):
        stops = " ".join(symbol[v] for v in guide)
        guides.append(f"guide {g + 1} (seat {g}): {stops}")
    pic.legend(
        [
            (Swatch("line", stroke=_ROAD["major"][0], width=7), "major road"),
            (Swatch("line", stroke=_ROAD["minor"][0], width=4), "minor lane"),
            (Swatch("arrow", stroke=_ROAD["freeway"][0], width=8, text_fill="white"),
             "freeway: one way along its arrows; the roads on and off it count as one street with it"),
            (Swatch("arrow", stroke=_ENTRY, width=3, text_fill=_ENTRY), "entry (white dot): road → freeway only, costs a freeway tablet"),
            (Swatch("arrow", stroke=_EXIT, width=3, text_fill=_EXIT), "exit (purple dot): freeway → road only, free"),
            (Swatch("circle", fill=_LIGHT, stroke=INK, r=7), "red traffic light: entering it costs a green-light tablet"),
            (Swatch("circle", fill=_BASE, stroke=INK, width=1.5, r=9, text="B"), f"the base ({board.base_name}): stops {BASE_STOPS[0] + 1} and {BASE_STOPS[1] + 1} of every guide"),
            (Swatch("circle", fill="white", stroke=INK, width=1.5, r=9, text="a"), "destination (letter: the list below)"),
            (Swatch("circle", fill="#5f6368", stroke="white", r=4),
             "road node; one pip of the die drives straight along one street, through its crossings"),
            (Swatch("arrow", stroke=_ROAD["minor"][0], width=4, text_fill=INK), "a road with arrows is one way"),
        ],
        blocks=[("Destinations", [" · ".join(listing)]), ("Destination guides (the letters of the stops, B = the base)", guides)],
    )
    return pic.render()

