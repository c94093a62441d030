"""Carmarace's map as an SVG picture (``balance board carmarace --svg FILE``).

Drawn from the map data alone (RULES.md, "The map and the decks"), as a route
diagram that never puts two spaces on top of each other, whatever the file:

* **Columns.**  A road-class space (lot, road, Convention) stands in the column
  of the longest road-only route to it from a space without road predecessors
  (the parking lot): a road chain is one space a column, and of two routes
  between the same crossroads the shorter one shows a gap before the merge.
  A track, sky, station or airport space stands at the mean column of its
  ``land`` list (the road it falls back to: the railway runs beside, and the
  air route flies over, the roads it is drawn with), pushed on so that a chain
  keeps one column a space.
* **Rows.**  Air routes and airports above the roads, railways and stations
  below; each chain (and each single space) takes the first row of its group
  free over its columns, so spaces in one row are a column apart and rows are
  a row apart: nothing overlaps.
* **Wrapping.**  The columns wrap into bands like lines of text; an edge that
  crosses into another band is cut into two arrowed stubs at the bands' edges.

The file's drawing cells (``at``, ``from``, ``to``) are not used: the default
map draws up to 20 spaces in a cell or two (RULES.md), so no picture at those
cells could show every space.  (The heatmap's grid still uses them.)
"""

from __future__ import annotations

from collections import deque

from balance.svg import INK, MUTED, Picture, Swatch, board_heading, lanes
from sims.carmarace.board import CLASS_OF_KIND, KINDS, ROAD_CLASS, SKY_CLASS, TRACK_CLASS, CarmaBoard

_FILL = {
    "lot": "#9e9e9e", "road": "#757575", "convention": "#d4a017", "track": "#8d6e63", "station": "#5d4037",
    "sky": "#64b5f6", "airport": "#1565c0",
}
_EDGE = {ROAD_CLASS: "#9e9e9e", TRACK_CLASS: "#8d6e63", SKY_CLASS: "#64b5f6"}
_STOP = "#c62828"
_GPS = "#f9a825"
_R = 8.5  # a space's radius
_COL = 25.0  # a column's width
_ROW = 40.0  # a row's height (a space and a label above it)


def _chains(board: CarmaBoard) -> list[list[int]]:
    """The map's runs: maximal paths u1 -> u2 -> ... where each space has one
    successor and the next has one predecessor of the same kind class (a file's
    chains, and runs of single spaces alike); every space in exactly one run."""
    n = board.n_nodes
    cls = [CLASS_OF_KIND[KINDS.index(k)] for k in board.kind]
    preds: list[list[int]] = [[] for _ in range(n)]
    for u, nxt in enumerate(board.adjacency):
        for w in nxt:
            preds[w].append(u)

    def link(u: int) -> int:
        """The space that continues u's run, or -1."""
        same = [w for w in board.adjacency[u] if cls[w] == cls[u] and board.kind[w] == board.kind[u]]
        if len(same) != 1 or board.kind[u] in ("lot", "station", "airport", "convention"):
            return -1
        w = same[0]
        if len([p for p in preds[w] if cls[p] == cls[w] and board.kind[p] == board.kind[w]]) != 1:
            return -1
        if board.gps[u] is not None or board.gps[w] is not None or title(u) != title(w):
            return -1  # a GPS arrow stands alone, and so does each stretch of the file's titles
        return w

    def title(v: int) -> str | None:
        return board.titles[v] if board.titles else None

    nxt = [link(u) for u in range(n)]
    has_prev = [False] * n
    for u in range(n):
        if nxt[u] >= 0:
            has_prev[nxt[u]] = True
    runs = []
    for u in range(n):
        if not has_prev[u]:
            run = [u]
            while nxt[run[-1]] >= 0:
                run.append(nxt[run[-1]])
            runs.append(run)
    return runs


def layout(board: CarmaBoard) -> tuple[list[float], list[int], list[list[int]]]:
    """Each space's column and row (rows: sky group first, then roads, then
    tracks), and the runs drawn as one line each."""
    n = board.n_nodes
    kinds = [KINDS.index(k) for k in board.kind]
    cls = [CLASS_OF_KIND[k] for k in kinds]
    preds: list[list[int]] = [[] for _ in range(n)]
    indeg = [0] * n
    for u, nxt in enumerate(board.adjacency):
        for w in nxt:
            preds[w].append(u)
            indeg[w] += 1
    topo: list[int] = []
    queue = deque(i for i in range(n) if indeg[i] == 0)
    while queue:
        u = queue.popleft()
        topo.append(u)
        for w in board.adjacency[u]:
            indeg[w] -= 1
            if indeg[w] == 0:
                queue.append(w)
    col = [0.0] * n
    for v in topo:  # road-class: the longest road route to it
        if cls[v] != ROAD_CLASS:
            continue
        road = [col[u] + 1 for u in preds[v] if cls[u] == ROAD_CLASS]
        col[v] = max(road) if road else 0.0
    runs = _chains(board)
    run_of = {v: k for k, run in enumerate(runs) for v in run}
    done = [cls[v] == ROAD_CLASS for v in range(n)]
    for v in topo:  # the others: beside their land list's roads, or after their predecessors
        if done[v]:
            continue
        run = runs[run_of[v]]
        prev = col[run[run.index(v) - 1]] + 1 if run.index(v) > 0 else None
        ground = [col[u] for u in (board.land[v] or ()) if done[u]]
        if ground:
            target = sum(ground) / len(ground)
        elif prev is not None:
            target = prev
        else:
            target = max((col[u] + 1 for u in preds[v] if done[u]), default=0.0)
        col[v] = max(target, prev) if prev is not None else target
        done[v] = True
    # rows: the groups sky, road, track; each run the lowest free row of its group
    group = {SKY_CLASS: 0, ROAD_CLASS: 1, TRACK_CLASS: 2}
    rows_of_group: list[list[int]] = [[], [], []]
    by_group: list[list[int]] = [[], [], []]
    for k, run in enumerate(runs):
        by_group[group[cls[run[0]]]].append(k)
    for g in range(3):
        ids = sorted(by_group[g], key=lambda k: (min(col[v] for v in runs[k]), runs[k][0]))
        spans = [(min(col[v] for v in runs[k]) - 0.5, max(col[v] for v in runs[k]) + 0.5) for k in ids]
        assigned = lanes(spans, gap=0.01)
        lane = dict(zip(ids, assigned))
        rows_of_group[g] = [lane.get(k, 0) for k in range(len(runs))]
    offset_sky = max([rows_of_group[0][k] for k in by_group[0]], default=-1) + 1
    offset_road = offset_sky + max([rows_of_group[1][k] for k in by_group[1]], default=-1) + 1
    row = [0] * n
    for k, run in enumerate(runs):
        g = group[cls[run[0]]]
        r = rows_of_group[g][k]
        # the sky group is drawn upwards from the roads: its first row is the lowest
        value = offset_sky - 1 - r if g == 0 else offset_sky + r if g == 1 else offset_road + r
        for v in run:
            row[v] = value
    return col, row, runs


def _tip(board: CarmaBoard, v: int) -> str:
    name = board.nodes[v]
    parts = [name]
    if board.titles and board.titles[v]:
        parts[0] += f" ({board.titles[v]})"
    kind = board.kind[v]
    what = {"lot": f"parking-lot square {board.number[v]}", "convention": "the Convention"}.get(kind, f"{kind} space")
    parts.append(what)
    if board.stop[v]:
        parts.append("Stop sign")
    if board.gps[v] is not None:
        faces = board.gps[v]
        parts.append("GPS arrow: " + ", ".join(f"{f + 1}→{board.nodes[w]}" for f, w in enumerate(faces)))
    parts.append(f"{board.togo[v]} to go")
    if board.adjacency[v]:
        parts.append("next: " + ", ".join(board.nodes[w] for w in board.adjacency[v]))
    if board.land[v]:
        parts.append("lands on " + " or ".join(board.nodes[w] for w in board.land[v]))
    return "; ".join(parts)


def board_svg(board: CarmaBoard) -> str:
    title, where = board_heading("Carmarace", board.name, board.source, "sims/carmarace/boards/default.toml")
    counts = {k: board.kind.count(k) for k in KINDS}
    decks = board.decks.source
    if board.source == "default" or decks == "default":
        decks = "the default decks (boards/decks.toml)"
    pic = Picture(
        title,
        f"{where} · {board.n_nodes} spaces: {counts['lot']} lot squares, {counts['road']} road "
        f"({sum(board.stop)} Stop signs, {sum(g is not None for g in board.gps)} GPS arrows), {counts['track']} track, "
        f"{counts['station']} stations, {counts['sky']} sky, {counts['airport']} airports · decks: {decks}",
    )
    col, row, runs = layout(board)
    n = board.n_nodes
    cls = [CLASS_OF_KIND[KINDS.index(k)] for k in board.kind]
    left = 34.0
    lo = min(col)
    # a small map gets wider columns; a large one wraps
    columns = int(max(col) - lo) + 1
    step = min(44.0, max(_COL, (pic.width - 2 * left) / columns))
    per_band = int((pic.width - 2 * left) // step)
    band = [int((col[v] - lo + 0.5) // per_band) for v in range(n)]
    n_bands = max(band) + 1
    # rows present in each band, compacted; y of every space
    y_of = [0.0] * n
    band_top: list[float] = []
    top = pic.y + 6
    for b in range(n_bands):
        present = sorted({row[v] for v in range(n) if band[v] == b})
        band_top.append(top)
        if n_bands > 1:
            pic.text(10, top + 6, f"row {b + 1}", 12, fill=MUTED)
        y = top + 12
        for r in present:
            here = [v for v in range(n) if band[v] == b and row[v] == r]
            # a row of parking-lot squares carries no label above it (the number is inside)
            height = _ROW if any(board.kind[v] != "lot" for v in here) else 2 * _R + 10
            for v in here:
                y_of[v] = y + height - 14
            y += height
        top = y + 14
        if b + 1 < n_bands:
            pic.line(20, top - 8, pic.width - 20, top - 8, stroke="#e3e3e8", width=1)
    x_of = [left + (col[v] - lo - band[v] * per_band + 0.5) * step for v in range(n)]
    right_edge = left + per_band * step + 8
    left_edge = left - 8

    # ---- edges
    run_next = {run[k]: run[k + 1] for run in runs for k in range(len(run) - 1)}
    for u in range(n):
        for w in board.adjacency[u]:
            c = _EDGE[max(cls[u], cls[w]) if SKY_CLASS not in (cls[u], cls[w]) else SKY_CLASS]
            along = run_next.get(u) == w
            dash = "" if along or (cls[u] == cls[w]) else "4,3"
            width = 2.6 if along else 1.6
            tip = f"{board.nodes[u]} → {board.nodes[w]}"
            x1, y1, x2, y2 = x_of[u], y_of[u], x_of[w], y_of[w]
            if band[u] == band[w]:
                if y1 == y2:
                    pic.line(x1, y1, x2, y2, stroke=c, width=width, dash=dash, tip=tip)
                else:
                    bend = max(18.0, abs(x2 - x1) / 2)
                    d = f"M{x1:.1f},{y1:.1f} C{x1 + bend:.1f},{y1:.1f} {x2 - bend:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
                    pic.path(d, stroke=c, width=width, dash=dash, tip=tip)
                if not along:  # into w along the line's last direction
                    sign = 1 if (y1 != y2 or x2 >= x1) else -1
                    pic.arrowhead(x2 - sign * (_R + 1), y2, sign, 0, 7, c)
                continue
            forward = band[w] > band[u]
            out_x = right_edge if forward else left_edge
            in_x = left_edge if forward else right_edge
            note = f"{tip} (continues on row {band[w] + 1})"
            pic.line(x1, y1, out_x, y1, stroke=c, width=width, dash=dash, tip=note)
            pic.arrowhead(out_x + (6 if forward else -6), y1, 1 if forward else -1, 0, 7, c)
            pic.line(in_x, y2, x2, y2, stroke=c, width=width, dash=dash, tip=f"{tip} (from row {band[u] + 1})")
            pic.arrowhead(in_x + (8 if forward else -8), y2, 1 if forward else -1, 0, 7, c)
    # ---- spaces
    for v in range(n):
        kind = board.kind[v]
        fill = _STOP if board.stop[v] else _GPS if board.gps[v] is not None else _FILL[kind]
        r = _R + (3 if kind == "convention" else 1.5 if kind in ("station", "airport", "lot") else 0)
        pic.circle(x_of[v], y_of[v], r, fill=fill, stroke="white" if kind not in ("convention",) else INK,
                   stroke_width=1.2, cls="node", name=board.nodes[v], tip=_tip(board, v))
        mark = (str(board.number[v]) if board.number[v] is not None else
                {"convention": "C", "station": "T", "airport": "A"}.get(kind, "S" if board.stop[v] else ""))
        if mark:
            pic.centred(x_of[v], y_of[v], mark, 12 if len(mark) < 2 else 11, fill="white" if kind != "convention" else INK,
                        bold=True)
    # ---- labels: a run's title (or its first space) once per band; single spaces by name
    for run in runs:
        pieces: dict[int, list[int]] = {}
        for v in run:
            pieces.setdefault(band[v], []).append(v)
        for b, vs in pieces.items():
            first = vs[0]
            if len(run) > 1:
                t = board.titles[first] if board.titles and board.titles[first] else None
                names = f"{board.nodes[run[0]]}–{board.nodes[run[-1]]}"
                text = f"{t} ({names}, {len(run)})" if t else f"{names} ({len(run)} spaces)"
                if first != run[0]:
                    text = (t or names) + " (continued)"
            elif board.kind[first] == "lot":
                continue
            else:
                text = board.nodes[first]
            x, y = x_of[first], y_of[first]
            candidates = [(x - _R, y - _R - 5, "start"), (x, y - _R - 5, "middle"), (x + _R + 3, y - _R - 2, "start"),
                          (x - _R - 3, y - _R - 2, "end"), (x + _R + 3, y + 4, "start"), (x - _R - 3, y + 4, "end")]
            if len(run) > 1:
                short = board.nodes[run[0]] if first == run[0] else f"{board.nodes[first]}…"
                if not pic.label(candidates, text, 12, fill=MUTED, tip=_tip(board, first)):
                    pic.label(candidates, short, 12, fill=MUTED, tip=_tip(board, first))
            else:
                pic.label(candidates, text, 12, fill=MUTED, tip=_tip(board, first))
    pic.y = top
    pic.legend(
        [
            (Swatch("circle", fill=_FILL["lot"], stroke="white", r=9, text="1", text_fill="white"),
             "parking-lot square (its number: the seat order)"),
            (Swatch("circle", fill=_FILL["road"], stroke="white", r=8), "road space"),
            (Swatch("circle", fill=_STOP, stroke="white", r=8, text="S", text_fill="white"),
             "Stop sign (a train crossing): a road vehicle stops here"),
            (Swatch("circle", fill=_GPS, stroke="white", r=8), "GPS arrow: the die picks the road (hover: which face goes where)"),
            (Swatch("circle", fill=_FILL["convention"], stroke=INK, r=10, text="C"), "the Convention (first pawn there wins)"),
            (Swatch("circle", fill=_FILL["track"], stroke="white", r=8), "track space"),
            (Swatch("circle", fill=_FILL["station"], stroke="white", r=9, text="T", text_fill="white"), "station: trains are boarded here"),
            (Swatch("circle", fill=_FILL["sky"], stroke="white", r=8), "sky space"),
            (Swatch("circle", fill=_FILL["airport"], stroke="white", r=9, text="A", text_fill="white"), "airport: planes board and land here"),
            (Swatch("line", stroke=_EDGE[ROAD_CLASS], width=2.6), "the next space along a road (rail, air route in their colour)"),
            (Swatch("line", stroke=_EDGE[TRACK_CLASS], width=1.6, dash="4,3"),
             "a move between kinds of space: boarding, hopping on or off at a crossing, landing"),
            (Swatch("arrow", stroke=_EDGE[ROAD_CLASS], width=2.6, text_fill=_EDGE[ROAD_CLASS]),
             "the route goes on in the next row (or back to the row named on hover)"),
        ],
        notes=[
            "Left to right: the road's longest route from the parking lot, one column a space; rows wrap like lines "
            "of text. Air routes are drawn above the roads they fly over, railways below the roads they run beside "
            "(each space's land list). Hover a space for its name, its successors, its land list and how far it is "
            "to the Convention without boarding (togo).",
        ],
    )
    return pic.render()
