"""Tag City's board as an SVG picture (``balance board tagcity --svg FILE``).

Drawn from the board file alone (RULES.md, "The sheet, the tiles and the HQ"):
the city sheet, each cell in its district's colour with the districts'
borders, every row's and column's [high, low] values beside it; the drone
remote's boxes; the HQ: the ring of side A with the die faces between the two
slots each face serves and the small centre tiles; every graffiti tile, and
which are the ring's, the centre's and side B's pool.
"""

from __future__ import annotations

import math

from balance.svg import INK, MUTED, Picture, Swatch, board_heading, num
from sims.tagcity.board import TagBoard

# Pastel fills and a darker ink per district (16 districts at most).
_FILLS = (
    "#cfe2f3", "#fce5cd", "#d9ead3", "#f4cccc", "#d9d2e9", "#fff2cc", "#d0e0e3", "#ead1dc",
    "#e6e6e6", "#c9daf8", "#f9cb9c", "#b6d7a8", "#ea9999", "#b4a7d6", "#ffe599", "#a2c4c9",
)
_INKS = (
    "#1c4587", "#b45f06", "#38761d", "#990000", "#351c75", "#7f6000", "#0c343d", "#741b47",
    "#434343", "#1155cc", "#b45f06", "#274e13", "#660000", "#20124d", "#7f6000", "#134f5c",
)
_TILE = "#8e7cc3"


def board_svg(board: TagBoard) -> str:
    title, where = board_heading("Tag City", board.name, board.path, "sims/tagcity/boards/default.toml")
    pic = Picture(
        title,
        f"{where} · {board.rows} × {board.cols} sheet in {board.n_districts} districts, {len(board.shapes)} graffiti "
        f"tiles, an HQ ring of {len(board.ring_a)}" + (f" · {board.source}" if board.source else ""),
    )
    _sheet(pic, board)
    _hq_and_tiles(pic, board)
    sizes = board.district_sizes()
    entries = [
        (Swatch("square", fill=_FILLS[d % 16], stroke=_INKS[d % 16], r=8, text=ch, text_fill=_INKS[d % 16]),
         f"district {ch}: {sizes[d]} cells, completing it scores {board.district_values[d][0]} first, "
         f"{board.district_values[d][1]} later")
        for d, ch in enumerate(board.district_names)
    ]
    entries += [
        (Swatch("line", stroke=INK, width=3), "district border"),
        (Swatch("square", fill="white", stroke=INK, r=8), "drone remote box: its value is scored when circled"),
        (Swatch("square", fill=_TILE, stroke="white", r=7), "graffiti tile (one square a cell)"),
        (Swatch("square", fill="white", stroke=INK, r=8, text="v"), "die face v: a die showing v goes on one of the two ring slots it points to"),
    ]
    pic.legend(
        entries,
        notes=[
            "A row or column value 'high/low': the first player to complete it scores high, later completers low.",
            "Social circles (shared by the table) and how many remote boxes are in play are rule parameters "
            "(social_circles, drone_boxes), not part of the board file.",
        ],
    )
    return pic.render()


def _sheet(pic: Picture, board: TagBoard) -> None:
    rows, cols = board.rows, board.cols
    cell = min(54.0, (pic.width - 150) / cols, 560 / rows)
    left = (pic.width - cell * cols) / 2 - 20
    top = pic.y + 34
    sizes = board.district_sizes()
    pic.text(left, top - 24, "City sheet (every player's, empty at the start)", 13, bold=True, occupy=True)
    for c in range(cols):
        pic.text(left + (c + 0.5) * cell, top + rows * cell + 16, f"{board.col_values[c][0]}/{board.col_values[c][1]}",
                 12, anchor="middle", tip=f"column {c}: {board.col_values[c][0]} first, {board.col_values[c][1]} later")
    pic.text(left - 8, top + rows * cell + 16, "column", 12, anchor="end", fill=MUTED)
    pic.text(left + cols * cell + 10, top - 5, "row", 12, fill=MUTED)
    for r in range(rows):
        pic.text(left + cols * cell + 10, top + (r + 0.5) * cell + 4, f"{board.row_values[r][0]}/{board.row_values[r][1]}",
                 12, tip=f"row {r}: {board.row_values[r][0]} first, {board.row_values[r][1]} later")
        pic.text(left - 8, top + (r + 0.5) * cell + 4, str(r), 12, anchor="end", fill=MUTED)
    for c in range(cols):
        pic.text(left + (c + 0.5) * cell, top - 5, str(c), 12, anchor="middle", fill=MUTED)
    for r in range(rows):
        for c in range(cols):
            d = board.cell_district[r * cols + c]
            ch = board.district_names[d]
            tip = (
                f"row {r}, column {c}: district {ch} ({sizes[d]} cells, {board.district_values[d][0]}/"
                f"{board.district_values[d][1]}); row {board.row_values[r][0]}/{board.row_values[r][1]}, "
                f"column {board.col_values[c][0]}/{board.col_values[c][1]}"
            )
            x, y = left + c * cell, top + r * cell
            pic.rect(x, y, cell, cell, fill=_FILLS[d % 16], stroke="#ffffff", stroke_width=1, cls="cell",
                     name=f"{r},{c}", tip=tip)
            pic.centred(x + cell / 2, y + cell / 2, ch, 12, fill=_INKS[d % 16])
    # district borders: between two cells of different districts, and the sheet's edge
    edges = []
    for r in range(rows + 1):
        for c in range(cols):
            above = board.cell_district[(r - 1) * cols + c] if r > 0 else -1
            below = board.cell_district[r * cols + c] if r < rows else -1
            if above != below:
                edges.append((left + c * cell, top + r * cell, left + (c + 1) * cell, top + r * cell))
    for c in range(cols + 1):
        for r in range(rows):
            lft = board.cell_district[r * cols + c - 1] if c > 0 else -1
            rgt = board.cell_district[r * cols + c] if c < cols else -1
            if lft != rgt:
                edges.append((left + c * cell, top + r * cell, left + c * cell, top + (r + 1) * cell))
    d = " ".join(f"M{num(x1)},{num(y1)} L{num(x2)},{num(y2)}" for x1, y1, x2, y2 in edges)
    pic.path(d, stroke=INK, width=3, join="miter")
    pic.y = top + rows * cell + 34


def _tile(pic: Picture, cells, cx: float, cy: float, unit: float, name: str, tip: str, cls: str = "tile") -> tuple[float, float]:
    """A tile's squares centred on (cx, cy); returns its drawn (width, height)."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    h = max(r for r, _ in cells) - r0 + 1
    w = max(c for _, c in cells) - c0 + 1
    x0, y0 = cx - w * unit / 2, cy - h * unit / 2
    d = " ".join(
        f"M{num(x0 + (c - c0) * unit)},{num(y0 + (r - r0) * unit)} h{num(unit)} v{num(unit)} h{num(-unit)} Z" for r, c in cells
    )
    pic.path(d, fill=_TILE, stroke="white", width=1.5, join="miter", cls=cls, name=name, tip=tip)
    pic.taken.append(_box(x0, y0, w * unit, h * unit))
    return w * unit, h * unit


def _box(x: float, y: float, w: float, h: float):
    from balance.svg import Box

    return Box(x, y, x + w, y + h)


def _hq_and_tiles(pic: Picture, board: TagBoard) -> None:
    top = pic.y + 10
    shapes = dict(board.shapes)
    # ---- the HQ (left half)
    n = len(board.ring_a)
    unit = 13.0
    cx, cy = 230.0, top + 200
    radius = max(135.0, n * 70 / (2 * math.pi))
    pic.text(24, top + 14, "HQ, side A: the ring, its die faces, the centre", 13, bold=True, occupy=True)
    pic.circle(cx, cy, radius, fill="none", stroke="#d9d9de", stroke_width=14, occupy=False)
    angles = [-math.pi / 2 + 2 * math.pi * k / n for k in range(n)]
    slot_xy = [(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in angles]
    faces_of: dict[int, list[int]] = {}
    for v, (a, b) in enumerate(board.faces, start=1):
        faces_of.setdefault(a, []).append(v)
        faces_of.setdefault(b, []).append(v)
    for k, name in enumerate(board.ring_a):
        x, y = slot_xy[k]
        served = ", ".join(map(str, faces_of.get(k, []))) or "none"
        _tile(pic, shapes[name], x, y, unit, name,
              f"ring slot {k}: tile {name} ({len(shapes[name])} cells); die faces {served} may go here", "hq-tile")
    placed: list[tuple[float, float]] = []
    for v, (a, b) in enumerate(board.faces, start=1):
        ang = math.atan2(math.sin(angles[a]) + math.sin(angles[b]), math.cos(angles[a]) + math.cos(angles[b]))
        if abs(math.sin(angles[a]) + math.sin(angles[b])) + abs(math.cos(angles[a]) + math.cos(angles[b])) < 1e-9:
            ang = angles[a] + math.pi / 2  # two opposite slots: the face beside the first
        rr = radius + 34
        x, y = cx + rr * math.cos(ang), cy + rr * math.sin(ang)
        while any(math.dist((x, y), p) < 26 for p in placed):
            rr += 26
            x, y = cx + rr * math.cos(ang), cy + rr * math.sin(ang)
        placed.append((x, y))
        for s in (a, b):
            sx, sy = slot_xy[s]
            pic.line(x, y, sx, sy, stroke="#b0b0b8", width=1.2, dash="3,3")
        pic.rect(x - 11, y - 11, 22, 22, fill="white", stroke=INK, stroke_width=1.5, rx=4, cls="face", name=str(v),
                 tip=f"die face {v}: on slot {a} ({board.ring_a[a]}) or slot {b} ({board.ring_a[b]})", occupy=True)
        pic.centred(x, y, str(v), 13, bold=True)
    for k, name in enumerate(board.ring_a):  # each ring tile's name, on the inside of the ring
        x, y = slot_xy[k]
        ux, uy = (cx - x) / radius, (cy - y) / radius
        pic.label([(x + ux * 44, y + uy * 44 + 4, "middle"), (x + ux * 58, y + uy * 58 + 4, "middle")], name, 12,
                  fill=MUTED, tip=f"ring slot {k}: {name}")
    if board.centre:
        step = 2 * math.pi / len(board.centre)
        inner = 0 if len(board.centre) == 1 else radius * 0.42
        for k, name in enumerate(board.centre):
            a = -math.pi / 2 + step * k
            _tile(pic, shapes[name], cx + inner * math.cos(a), cy + inner * math.sin(a), unit, name,
                  f"centre: tile {name} ({len(shapes[name])} cells), for drones only", "hq-tile")
        pic.label([(cx, cy + 5, "middle"), (cx, cy + 34, "middle"), (cx, cy - 26, "middle")], "centre", 12, fill=MUTED,
                  tip="the centre tiles: for drones only")
    bottom_hq = cy + max(radius + 34, max((math.dist(p, (cx, cy)) for p in placed), default=0)) + 24
    # ---- the remote and the tiles (right half)
    x0 = 470.0
    pic.text(x0, top + 14, "Drone remote (each drone circles the next box)", 13, bold=True, occupy=True)
    for k, value in enumerate(board.remote):
        bx = x0 + k * 40
        pic.rect(bx, top + 26, 32, 32, fill="white", stroke=INK, stroke_width=1.5, rx=3, cls="remote", name=str(k),
                 tip=f"remote box {k + 1}: {value:+d} points (drone number {k + 1})", occupy=True)
        pic.centred(bx + 16, top + 42, f"{value:+d}", 12.5, bold=True)
    pic.text(x0, top + 92, "Graffiti tiles", 13, bold=True, occupy=True)
    ring, centre, pool = set(board.ring_a), set(board.centre), set(board.pool_b)
    col_w, row_h = 118.0, 96.0
    per_row = int((pic.width - x0 - 10) // col_w)
    for k, (name, cells) in enumerate(board.shapes):
        gx = x0 + (k % per_row) * col_w
        gy = top + 104 + (k // per_row) * row_h
        where = [w for w, s in (("ring A", ring), ("centre", centre), ("pool B", pool)) if name in s]
        tip = f"tile {name}: {len(cells)} cells" + (f"; {', '.join(where)}" if where else "; not used by the HQ")
        _tile(pic, cells, gx + col_w / 2 - 8, gy + 30, unit, name, tip)
        pic.text(gx + col_w / 2 - 8, gy + 76, name, 12, anchor="middle", bold=True, tip=tip)
        pic.text(gx + col_w / 2 - 8, gy + 90, ", ".join(where) or "unused", 12, anchor="middle", fill=MUTED, tip=tip)
    bottom_tiles = top + 104 + math.ceil(len(board.shapes) / per_row) * row_h
    pic.y = max(bottom_hq, bottom_tiles) + 4
