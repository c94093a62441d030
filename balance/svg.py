"""Small SVG helpers for the board pictures (``GameSpec.board_svg``).

A game draws its board with :class:`Picture`; this module knows nothing of any
game.  What every picture shares, so that pages and tests can rely on it:

* absolute coordinates only (no ``transform``), and no ``id`` or ``href``: a
  picture refers to nothing, so several can share a page and a page may
  rename ids freely;
* a heading (``class="title"``: the game and the board's name; a subtitle with
  the file it was read from), a legend (``<g class="legend">``) and a
  ``<title>`` hover text on every element that stands for a piece of the
  board's data, which also carries ``class`` (``node``, ``street``, ``field``,
  ``cell``, ...) and ``data-name`` (its name in the board file);
* text that stays readable when the picture is shown 800 px wide: the drawing
  is :data:`WIDTH` user units wide and no text is smaller than
  :data:`MIN_FONT` (10 px when the picture is 800 px wide);
* labels placed only where they hit nothing already drawn
  (:meth:`Picture.label`); widths are estimated from Helvetica's metrics with a
  margin (:func:`text_width`), generously, so an estimate that does not overlap
  is a rendering that does not either.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WIDTH = 960  # user units; the picture scales to its container
MIN_FONT = 12.0
FONT = "Arial, 'Liberation Sans', Helvetica, sans-serif"
INK = "#1d1d1f"
MUTED = "#5f6368"
PAPER = "#ffffff"
# Seat colours: the reports' (matplotlib's tab10), seat 0 first.
SEAT_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")

# Helvetica advance widths (1/1000 em) of printable ASCII from the space (32).
_HELVETICA = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
)
_MARGIN = 1.12  # fallback fonts (DejaVu Sans) run wider than Helvetica


def esc(text: object) -> str:
    """Text or an attribute value, XML-escaped."""
    return (
        str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def num(x: float) -> str:
    """A coordinate as short text: one decimal, no trailing ``.0``."""
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else ("0" if s == "-0" else s)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Estimated width of ``text`` at font ``size`` (generous)."""
    units = 0
    for ch in str(text):
        code = ord(ch)
        units += _HELVETICA[code - 32] if 32 <= code < 127 else 900
    return units / 1000 * size * _MARGIN * (1.08 if bold else 1.0)


def wrap(text: str, size: float, width: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (a longer word stays whole)."""
    lines: list[str] = []
    line = ""
    for word in str(text).split():
        trial = f"{line} {word}" if line else word
        if line and text_width(trial, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines or [""]


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle (x0 <= x1, y0 <= y1)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def hits(self, other: Box, pad: float = 0.0) -> bool:
        return not (
            self.x1 + pad <= other.x0 or other.x1 + pad <= self.x0 or self.y1 + pad <= other.y0 or other.y1 + pad <= self.y0
        )


def text_box(x: float, y: float, text: str, size: float, anchor: str = "start", bold: bool = False) -> Box:
    """The box a one-line text takes, ``y`` its baseline."""
    w = text_width(text, size, bold)
    x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return Box(x0, y - 0.8 * size, x0 + w, y + 0.25 * size)


def circle_box(cx: float, cy: float, r: float) -> Box:
    return Box(cx - r, cy - r, cx + r, cy + r)


@dataclass(frozen=True)
class Swatch:
    """A legend entry's symbol: ``kind`` = circle | square | line | arrow (a line with an
    arrowhead in ``text_fill``), and its style; ``text`` is written on it."""

    kind: str
    fill: str = "none"
    stroke: str = INK
    width: float = 1.0
    dash: str = ""
    text: str = ""
    text_fill: str = INK
    r: float = 7.0


def _hover(tip: str | None) -> str:
    return f"<title>{esc(tip)}</title>" if tip else ""


def _data(cls: str | None, name: str | None) -> str:
    out = f' class="{esc(cls)}"' if cls else ""
    return out + (f' data-name="{esc(name)}"' if name is not None else "")


class Picture:
    """An SVG picture built element by element: a heading, the drawing (the
    game's), a legend, then :meth:`render`.

    ``self.y`` is where the drawing may start (below the heading); a game moves
    it down as it draws and the legend goes below it."""

    def __init__(self, title: str, subtitle: str = "", width: float = WIDTH) -> None:
        self.width = width
        self.title = title
        self.parts: list[str] = []
        self.taken: list[Box] = []  # what labels must not hit
        self.parts.append(
            f'<text class="title" x="16" y="30" font-size="20" font-weight="bold" fill="{INK}">{esc(title)}</text>'
        )
        self.y = 44.0
        for line in wrap(subtitle, 13, width - 32) if subtitle else []:
            self.parts.append(f'<text class="subtitle" x="16" y="{num(self.y + 6)}" font-size="13" fill="{MUTED}">{esc(line)}</text>')
            self.y += 17
        self.y += 12

    # ----- elements ----------------------------------------------------------------
    def add(self, element: str) -> None:
        self.parts.append(element)

    def circle(
        self, cx: float, cy: float, r: float, *, fill: str, stroke: str = INK, stroke_width: float = 1.0,
        cls: str | None = None, name: str | None = None, tip: str | None = None, dash: str = "", occupy: bool = True,
    ) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(
            f'<circle{_data(cls, name)} cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{num(stroke_width)}"{dashed}>{_hover(tip)}</circle>'
        )
        if occupy:
            self.taken.append(circle_box(cx, cy, r))

    def rect(
        self, x: float, y: float, w: float, h: float, *, fill: str, stroke: str = "none", stroke_width: float = 1.0,
        rx: float = 0.0, cls: str | None = None, name: str | None = None, tip: str | None = None, occupy: bool = False,
    ) -> None:
        corner = f' rx="{num(rx)}"' if rx else ""
        self.parts.append(
            f'<rect{_data(cls, name)} x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"{corner} fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{num(stroke_width)}">{_hover(tip)}</rect>'
        )
        if occupy:
            self.taken.append(Box(x, y, x + w, y + h))

    def line(
        self, x1: float, y1: float, x2: float, y2: float, *, stroke: str, width: float = 1.0, dash: str = "",
        cls: str | None = None, name: str | None = None, tip: str | None = None, cap: str = "round", opacity: float = 1.0,
    ) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        faded = f' opacity="{num(opacity)}"' if opacity < 1 else ""
        self.parts.append(
            f'<line{_data(cls, name)} x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" stroke="{stroke}" '
            f'stroke-width="{num(width)}" stroke-linecap="{cap}"{dashed}{faded}>{_hover(tip)}</line>'
        )

    def path(
        self, d: str, *, stroke: str = "none", width: float = 1.0, fill: str = "none", dash: str = "",
        cls: str | None = None, name: str | None = None, tip: str | None = None, opacity: float = 1.0,
        join: str = "round",
    ) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        faded = f' opacity="{num(opacity)}"' if opacity < 1 else ""
        self.parts.append(
            f'<path{_data(cls, name)} d="{d}" fill="{fill}" stroke="{stroke}" stroke-width="{num(width)}" '
            f'stroke-linejoin="{join}" stroke-linecap="round"{dashed}{faded}>{_hover(tip)}</path>'
        )

    def arrowhead(self, x: float, y: float, dx: float, dy: float, size: float, fill: str) -> None:
        """A filled triangle pointing along (dx, dy) with its tip at (x, y)."""
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        ux, uy = dx / length, dy / length
        bx, by = x - ux * size, y - uy * size
        px, py = -uy * size * 0.55, ux * size * 0.55
        self.parts.append(
            f'<path d="M{num(x)},{num(y)} L{num(bx + px)},{num(by + py)} L{num(bx - px)},{num(by - py)} Z" '
            f'fill="{fill}" stroke="none"/>'
        )

    def text(
        self, x: float, y: float, text: str, size: float = 12.0, *, anchor: str = "start", fill: str = INK,
        bold: bool = False, cls: str | None = "label", tip: str | None = None, occupy: bool = True, halo: bool = True,
    ) -> Box:
        """A one-line text at baseline ``y``, drawn whatever it hits (see :meth:`label`);
        ``halo``: a white outline keeps it readable over lines."""
        weight = ' font-weight="bold"' if bold else ""
        outline = ' stroke="white" stroke-width="3" stroke-linejoin="round" paint-order="stroke"' if halo else ""
        self.parts.append(
            f'<text{_data(cls, None)} x="{num(x)}" y="{num(y)}" font-size="{num(size)}" text-anchor="{anchor}" '
            f'fill="{fill}"{weight}{outline}>{_hover(tip)}{esc(text)}</text>'
        )
        box = text_box(x, y, text, size, anchor, bold)
        if occupy:
            self.taken.append(box)
        return box

    def free(self, box: Box, pad: float = 1.5) -> bool:
        """Whether ``box`` is inside the picture's width and hits nothing taken."""
        return box.x0 >= 2 and box.x1 <= self.width - 2 and not any(box.hits(t, pad) for t in self.taken)

    def label(
        self, candidates: Iterable[tuple[float, float, str]], text: str, size: float = 12.0, *, fill: str = INK,
        bold: bool = False, tip: str | None = None,
    ) -> bool:
        """Draw ``text`` at the first candidate (x, baseline y, anchor) where it
        hits nothing already drawn; False (nothing drawn) when every one does."""
        for x, y, anchor in candidates:
            if self.free(text_box(x, y, text, size, anchor, bold)):
                self.text(x, y, text, size, anchor=anchor, fill=fill, bold=bold, tip=tip)
                return True
        return False

    def centred(self, cx: float, cy: float, text: str, size: float, fill: str = INK, bold: bool = False,
                tip: str | None = None) -> None:
        """A short text centred on (cx, cy), inside a symbol already drawn (not a label)."""
        self.text(cx, cy + 0.35 * size, text, size, anchor="middle", fill=fill, bold=bold, cls="inlabel", tip=tip,
                  occupy=False, halo=False)

    # ----- legend ------------------------------------------------------------------
    def legend(
        self, entries: Sequence[tuple[Swatch, str]], *, notes: Sequence[str] = (), columns: int = 2,
        heading: str = "Legend", blocks: Sequence[tuple[str, Sequence[str]]] = (),
    ) -> None:
        """A boxed legend below everything drawn so far: each entry a swatch and
        its meaning (wrapped), then notes (one paragraph each), then blocks (a
        heading and its lines, e.g. a list of cards)."""
        x0, top = 16.0, self.y + 8
        inner = self.width - 2 * x0
        col_w = (inner - 16) / columns
        size = 12.5
        out = ['<g class="legend">']
        out.append(
            f'<text x="{num(x0 + 10)}" y="{num(top + 20)}" font-size="14" font-weight="bold" fill="{INK}">{esc(heading)}</text>'
        )
        y = top + 34
        rows: list[list[tuple[Swatch, list[str]]]] = []
        for k in range(0, len(entries), columns):
            rows.append([(sw, wrap(t, size, col_w - 40)) for sw, t in entries[k : k + columns]])
        for row in rows:
            height = max(len(lines) for _, lines in row) * 16 + 6
            for c, (sw, lines) in enumerate(row):
                cx = x0 + 10 + c * col_w
                out.append(_swatch(sw, cx + 12, y + 7))
                for j, line in enumerate(lines):
                    out.append(
                        f'<text x="{num(cx + 32)}" y="{num(y + 11 + 16 * j)}" font-size="{size}" fill="{INK}">{esc(line)}</text>'
                    )
            y += height
        for note in notes:
            y += 4
            for line in wrap(note, size, inner - 20):
                out.append(f'<text x="{num(x0 + 10)}" y="{num(y + 11)}" font-size="{size}" fill="{MUTED}">{esc(line)}</text>')
                y += 16
        for title, lines in blocks:
            y += 8
            out.append(
                f'<text x="{num(x0 + 10)}" y="{num(y + 11)}" font-size="13" font-weight="bold" fill="{INK}">{esc(title)}</text>'
            )
            y += 18
            for text in lines:
                for line in wrap(text, size, inner - 20):
                    out.append(f'<text x="{num(x0 + 10)}" y="{num(y + 11)}" font-size="{size}" fill="{INK}">{esc(line)}</text>')
                    y += 16
        y += 8
        out.insert(
            1,
            f'<rect x="{num(x0)}" y="{num(top)}" width="{num(inner)}" height="{num(y - top)}" rx="6" fill="#f7f7f9" '
            f'stroke="#d9d9de"/>',
        )
        out.append("</g>")
        self.parts.extend(out)
        self.y = y + 8

    # ----- the document ------------------------------------------------------------
    def render(self) -> str:
        """The SVG document (its ``<title>`` = the heading)."""
        height = int(self.y + 8)
        w = int(self.width)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{height}" viewBox="0 0 {w} {height}" '
            f'font-family="{FONT}" role="img">'
        )
        return "\n".join(
            [head, f"<title>{esc(self.title)}</title>", f'<rect width="{w}" height="{height}" fill="{PAPER}"/>', *self.parts, "</svg>"]
        ) + "\n"


def _swatch(sw: Swatch, cx: float, cy: float) -> str:
    dash = f' stroke-dasharray="{sw.dash}"' if sw.dash else ""
    if sw.kind == "circle":
        out = (
            f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(sw.r)}" fill="{sw.fill}" stroke="{sw.stroke}" '
            f'stroke-width="{num(sw.width)}"{dash}/>'
        )
    elif sw.kind == "square":
        s = sw.r
        out = (
            f'<rect x="{num(cx - s)}" y="{num(cy - s)}" width="{num(2 * s)}" height="{num(2 * s)}" fill="{sw.fill}" '
            f'stroke="{sw.stroke}" stroke-width="{num(sw.width)}"{dash}/>'
        )
    elif sw.kind in ("line", "arrow"):
        out = (
            f'<line x1="{num(cx - 12)}" y1="{num(cy)}" x2="{num(cx + 12)}" y2="{num(cy)}" stroke="{sw.stroke}" '
            f'stroke-width="{num(sw.width)}" stroke-linecap="round"{dash}/>'
        )
        if sw.kind == "arrow":
            out += (
                f'<path d="M{num(cx + 5)},{num(cy)} L{num(cx - 3)},{num(cy - 5)} L{num(cx - 3)},{num(cy + 5)} Z" '
                f'fill="{sw.text_fill}"/>'
            )
    else:
        out = ""
    if sw.text:
        out += (
            f'<text x="{num(cx)}" y="{num(cy + 4.2)}" font-size="12" text-anchor="middle" fill="{sw.text_fill}" '
            f'font-weight="bold">{esc(sw.text)}</text>'
        )
    return out


def board_heading(game_title: str, board_name: str, source: str, default_file: str) -> tuple[str, str]:
    """The title and subtitle of a board picture: the game and the board's name,
    then where it was read from (the game's default file, or the user's)."""
    if not board_name:
        title = f"{game_title} board"
    elif board_name.lower().startswith(game_title.lower()):
        title = board_name
    else:
        title = f"{game_title}: {board_name}"
    where = f"default board ({default_file})" if source in ("default", "", None) else f"board file {source}"
    return title, where


def graph_layout(adjacency: Sequence[Sequence[int]], iterations: int = 300) -> list[tuple[float, float]]:
    """Positions for a connected graph that has no coordinates: distinct integer
    grid points (so any two are at least 1 apart), neighbours about 1.5 apart.

    Stress majorization (Guttman transforms) on the graph distances from a
    start given by two pivot nodes (the farthest from node 0, then the farthest
    from it): the same graph always gets the same picture.  Then each node, the
    most central first, takes the free grid point nearest to it."""
    import numpy as np

    from balance.graph import distances

    n = len(adjacency)
    if n == 1:
        return [(0.0, 0.0)]
    d = distances(adjacency).astype(float)
    d[d < 0] = d.max() + 1  # a disconnected part: just far away
    p1 = int(np.argmax(d[0]))
    p2 = int(np.argmax(d[p1]))
    x = np.stack([d[p1] - d[p2], d[p1] + d[p2] - d[p1, p2]], axis=1) / 2
    x += 1e-3 * np.stack([np.arange(n), np.arange(n)[::-1]], axis=1)  # separate ties deterministically
    x -= x.mean(axis=0)
    for _ in range(iterations):
        diff = x[:, None, :] - x[None, :, :]
        dist = np.sqrt((diff**2).sum(axis=2))
        np.fill_diagonal(dist, 1.0)
        b = -d / np.maximum(dist, 1e-9)
        np.fill_diagonal(b, 0.0)
        np.fill_diagonal(b, -b.sum(axis=1))
        x = b @ x / n
    pairs = [(u, v) for u in range(n) for v in adjacency[u] if u < v]
    edge = np.median([np.linalg.norm(x[u] - x[v]) for u, v in pairs]) if pairs else 1.0
    x = x / (edge or 1.0) * 1.5
    order = np.argsort(np.linalg.norm(x - x.mean(axis=0), axis=1), kind="stable")
    taken: set[tuple[int, int]] = set()
    out: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for i in order:
        px, py = x[i]
        cx, cy = int(round(px)), int(round(py))
        best = None
        radius = 0
        while best is None:
            for gx in range(cx - radius, cx + radius + 1):
                for gy in range(cy - radius, cy + radius + 1):
                    if (gx, gy) in taken or max(abs(gx - cx), abs(gy - cy)) != radius:
                        continue
                    cost = (gx - px) ** 2 + (gy - py) ** 2
                    if best is None or cost < best[0]:
                        best = (cost, gx, gy)
            radius += 1
        taken.add((best[1], best[2]))
        out[int(i)] = (float(best[1]), float(best[2]))
    return out


def lanes(intervals: Sequence[tuple[float, float]], gap: float = 0.0) -> list[int]:
    """Greedy interval colouring: a lane for each closed interval (start, end) so
    that two intervals in one lane are more than ``gap`` apart; intervals are
    taken in the given order, each in the lowest lane it fits."""
    used: list[list[tuple[float, float]]] = []
    out: list[int] = []
    for a, b in intervals:
        for k, taken in enumerate(used):
            if all(b + gap < x or y + gap < a for x, y in taken):
                taken.append((a, b))
                out.append(k)
                break
        else:
            used.append([(a, b)])
            out.append(len(used) - 1)
    return out
