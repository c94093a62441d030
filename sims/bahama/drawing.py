"""Bahama Taxi's board as an SVG picture (``balance board bahama --svg FILE``).

Drawn from the board file alone, as the rulebook describes the board (RULES.md,
"The board"): "Each of the four parts of the board holds the fields of one
suit [...] The crowded city centre is shown by the fields in the middle of the
board, labelled with the face cards."  So each suit has a quarter, in the
suits' cycle ♠ → ♥ → ♣ → ♦ clockwise; the face cards (K, Q, J) are on the
innermost ring, and every other field on the ring of its distance in roads
from the nearest face card.  Within a ring the fields are ordered by where
their neighbours are (a few barycentre sweeps, deterministic), which keeps
roads short; the rings are spaced so that no two fields touch, whatever the
board.  Roads inside a suit are drawn in its colour, roads between suits grey.
"""

from __future__ import annotations

import math

from balance.graph import distances
from balance.svg import Picture, Swatch, board_heading
from sims.bahama.board import RANKS, SUITS, Board

_SUIT_INK = {"♠": "#1d1d1f", "♥": "#c62828", "♣": "#2e7d32", "♦": "#1565c0"}
_SUIT_FILL = {"♠": "#ececef", "♥": "#fde8e8", "♣": "#e5f3e6", "♦": "#e3eefb"}
_SUIT_NAME = {"♠": "spades", "♥": "hearts", "♣": "clubs", "♦": "diamonds"}
FACES = ("K", "Q", "J")
_R = 19.0  # a field's radius
_GAP = 10.0


def layout(board: Board) -> tuple[list[tuple[float, float]], list[int], list[float]]:
    """Each field's position (centre at 0, 0), its ring and the rings' radii."""
    n = len(board.names)
    suit = [SUITS.index(name[-1]) for name in board.names]
    faces = [i for i, name in enumerate(board.names) if name[:-1] in FACES]
    dist = distances(board.adjacency)
    ring = [int(min(dist[i, f] for f in faces)) for i in range(n)]
    rings = max(ring) + 1
    quarter = math.pi / 2
    start = [-math.pi + q * quarter for q in range(4)]  # ♠ top left, then clockwise
    members = {(q, k): [i for i in range(n) if suit[i] == q and ring[i] == k] for q in range(4) for k in range(rings)}
    spacing = 2 * _R + _GAP
    radius: list[float] = []
    for k in range(rings):
        most = max(len(members[(q, k)]) for q in range(4))
        step = quarter / max(most, 1)
        need = spacing / (2 * math.sin(step / 2)) if most else 0.0
        base = 70.0 if k == 0 else radius[-1] + max(spacing, 78.0)
        radius.append(max(base, need))
    # start: rank order; then barycentre sweeps over every neighbour's angle
    angle = [0.0] * n
    order = {key: sorted(ids, key=lambda i: RANKS.index(board.names[i][:-1])) for key, ids in members.items()}

    def place() -> None:
        for (q, k), ids in order.items():
            step = quarter / max(len(ids), 1)
            for j, i in enumerate(ids):
                angle[i] = start[q] + (j + 0.5) * step

    place()
    for _ in range(6):
        for (q, k), ids in order.items():
            centre = start[q] + quarter / 2

            def pull(i: int) -> float:
                if not board.adjacency[i]:
                    return 0.0
                sx = sum(math.cos(angle[j] - centre) for j in board.adjacency[i])
                sy = sum(math.sin(angle[j] - centre) for j in board.adjacency[i])
                return math.atan2(sy, sx)

            order[(q, k)] = sorted(ids, key=lambda i: (pull(i), RANKS.index(board.names[i][:-1])))
        place()
    xy = [(radius[ring[i]] * math.cos(angle[i]), radius[ring[i]] * math.sin(angle[i])) for i in range(n)]
    return xy, ring, radius


def board_svg(board: Board) -> str:
    name = board.title
    source = "default" if board.source == "default board" else board.source.removeprefix("board file ").strip("'")
    title, where = board_heading("Bahama Taxi", name, source, "sims/bahama/boards/default.toml")
    pic = Picture(title, f"{where} · {len(board.names)} fields (one per card), {board.n_edges} roads")
    xy, ring, radius = layout(board)
    outer = radius[-1] + _R + 34
    cx, cy = pic.width / 2, pic.y + outer + 6
    suit = [name[-1] for name in board.names]
    # the quarters and the city centre
    for q, s in enumerate(SUITS):
        a0 = -math.pi + q * math.pi / 2
        a1 = a0 + math.pi / 2
        x0, y0 = cx + outer * math.cos(a0), cy + outer * math.sin(a0)
        x1, y1 = cx + outer * math.cos(a1), cy + outer * math.sin(a1)
        pic.path(f"M{cx:.1f},{cy:.1f} L{x0:.1f},{y0:.1f} A{outer:.1f},{outer:.1f} 0 0 1 {x1:.1f},{y1:.1f} Z",
                 fill=_SUIT_FILL[s], stroke="white", width=3, opacity=0.8)
        mid = a0 + math.pi / 4
        lx, ly = cx + (outer + 2) * math.cos(mid), cy + (outer + 2) * math.sin(mid)
        pic.text(lx, ly + (12 if ly > cy else -2), f"{s} {_SUIT_NAME[s]}", 15, anchor="start" if lx > cx else "end",
                 fill=_SUIT_INK[s], bold=True)
    pic.circle(cx, cy, radius[0] + _R + 8, fill="#fff8dc", stroke="#e0c97a", stroke_width=1.5, dash="5,4", occupy=False,
               tip="the crowded city centre: the face cards")
    for k in range(1, len(radius)):
        pic.circle(cx, cy, radius[k], fill="none", stroke="#c9c9cf", stroke_width=1, dash="2,5", occupy=False)
    # roads
    for i, nbrs in enumerate(board.adjacency):
        for j in nbrs:
            if i < j:
                same = suit[i] == suit[j]
                pic.line(cx + xy[i][0], cy + xy[i][1], cx + xy[j][0], cy + xy[j][1],
                         stroke=_SUIT_INK[suit[i]] if same else "#8a8a92", width=2 if same else 1.6,
                         dash="" if same else "6,4", opacity=0.55 if same else 0.8, cls="road",
                         name=f"{board.names[i]}-{board.names[j]}", tip=f"road {board.names[i]} – {board.names[j]}")
    # fields
    for i, field in enumerate(board.names):
        x, y = cx + xy[i][0], cy + xy[i][1]
        s = suit[i]
        nbrs = ", ".join(board.names[j] for j in board.adjacency[i])
        where = "the city centre (a face card)" if ring[i] == 0 else f"{ring[i]} road{'s' if ring[i] > 1 else ''} from the city centre"
        tip = f"{field} (field {i}): {where}; {len(board.adjacency[i])} roads to {nbrs}"
        face = field[:-1] in FACES
        pic.circle(x, y, _R, fill="#fffdf2" if face else "white", stroke=_SUIT_INK[s], stroke_width=2.2 if face else 1.5,
                   cls="field", name=field, tip=tip)
        pic.centred(x, y, field, 13, fill=_SUIT_INK[s], bold=True, tip=tip)
    pic.y = cy + outer + 30
    pic.legend(
        [
            (Swatch("circle", fill="white", stroke=_SUIT_INK["♥"], width=1.5, r=10, text="7", text_fill=_SUIT_INK["♥"]),
             "field, labelled with its card (every card of the deck is one field)"),
            (Swatch("circle", fill="#fff8dc", stroke="#e0c97a", dash="4,3", r=10),
             "the city centre: the face cards K, Q, J"),
            (Swatch("line", stroke=_SUIT_INK["♣"], width=2), "road inside a suit's quarter (its colour)"),
            (Swatch("line", stroke="#8a8a92", width=1.6, dash="6,4"), "road between two quarters"),
        ],
        notes=[
            "Rings: the face cards innermost, every other field on the ring of its distance in roads from the nearest "
            "face card. A fare is the fewest roads between origin and destination, whatever route is driven.",
        ],
    )
    return pic.render()

