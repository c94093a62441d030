"""The report's figures: matplotlib on the Agg canvas, inlined as SVG.

Win rate by seat and by player, game length and end reasons against each swept
parameter; heatmaps for each pair of swept parameters; for a game with a
per-cell heatmap, how often each cell is used.  Six seats get six colours and
a legend beside the axes.  Labels go through :mod:`balance.format`.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

from balance import format as fmt
from balance.format import format_value
from balance.report.findings import where

_SEAT_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
_REASON_COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")


def _new_figure(width: float = 10.0, height: float = 4.0) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)  # the Agg canvas: no display, no pyplot state
    return fig


_RC = {
    "svg.hashsalt": "balance-report",  # stable element ids: same data, same file
    "svg.fonttype": "none",  # text stays text (smaller, selectable, searchable)
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
}


def _positions(axis: Mapping[str, Any], values: Sequence[Any]) -> tuple[list[float], bool]:
    numeric = axis["kind"] in ("int", "float")
    if numeric:
        return [float(v) for v in values], True
    return list(range(len(values))), False


def _set_xticks(ax: Any, axis: Mapping[str, Any], values: Sequence[Any], xs: Sequence[float], numeric: bool) -> None:
    ax.set_xlabel(axis["name"])
    if not numeric or len(values) <= 15:
        ax.set_xticks(xs, [format_value(v) for v in values])


def _legend(ax: Any, entries: int) -> None:
    """The legend inside the axes up to five entries; beside them beyond (six
    seats and the fairness band would hide the lines)."""
    if entries <= 5:
        ax.legend(loc="best", fontsize=9, frameon=False)
    else:
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9, frameon=False)


def fig_win_rate(data: Mapping[str, Any], axis: Mapping[str, Any], by: str, manifest: Mapping[str, Any]) -> Any:
    """Win rate per seat (``by="seats"``) or per player (``"strategies"``) against the value."""
    series = axis["series"]
    values = [s["value"] for s in series]
    xs, numeric = _positions(axis, values)
    fig = _new_figure()
    ax = fig.add_subplot()
    lo, hi = data["fairness"]["band"]
    ax.axhspan(100 * lo, 100 * hi, color="#999999", alpha=0.15, lw=0, label=f"fairness band {fmt.band(lo, hi)}")
    rows = series[0][by]
    for j, row in enumerate(rows):
        rates = [100 * s[by][j]["win_rate"] for s in series]
        los = [100 * s[by][j]["ci95"][0] for s in series]
        his = [100 * s[by][j]["ci95"][1] for s in series]
        color = _SEAT_COLORS[j % len(_SEAT_COLORS)]
        label = f"seat {row['seat']} ({row['player']})" if by == "seats" else row["player"]
        if numeric and len(xs) > 1:
            ax.fill_between(xs, los, his, color=color, alpha=0.2, lw=0)
            ax.plot(xs, rates, marker="o", ms=4, color=color, label=label)
        else:
            err = [[r - low for r, low in zip(rates, los)], [h - r for r, h in zip(rates, his)]]
            ax.errorbar(xs, rates, yerr=err, marker="o", ms=5, capsize=4, color=color, label=label, ls="-" if len(xs) > 1 else "none")
    _set_xticks(ax, axis, values, xs, numeric)
    ax.set_ylabel("win rate (%)" if by == "seats" else "win rate in the games it plays (%)")
    _legend(ax, len(rows) + 1)
    return fig


def fig_length(axis: Mapping[str, Any]) -> Any:
    series = axis["series"]
    values = [s["value"] for s in series]
    xs, numeric = _positions(axis, values)
    fig = _new_figure()
    ax = fig.add_subplot()
    med = [s["turns"]["median"] for s in series]
    p10 = [s["turns"]["p10"] for s in series]
    p90 = [s["turns"]["p90"] for s in series]
    mean = [s["turns"]["mean"] for s in series]
    if numeric and len(xs) > 1:
        ax.fill_between(xs, p10, p90, color="#4c72b0", alpha=0.2, lw=0, label="p10–p90")
    else:
        ax.vlines(xs, p10, p90, color="#4c72b0", alpha=0.4, lw=8, label="p10–p90")
    ax.plot(xs, med, marker="o", ms=4, color="#4c72b0", label="median")
    ax.plot(xs, mean, marker="s", ms=3, color="#dd8452", ls="--", label="mean")
    _set_xticks(ax, axis, values, xs, numeric)
    ax.set_ylabel("game length (player turns)")
    ax.legend(loc="best", fontsize=9, frameon=False)
    return fig


def fig_end_reasons(axis: Mapping[str, Any], reasons: Sequence[str]) -> Any:
    series = axis["series"]
    values = [s["value"] for s in series]
    xs = list(range(len(values)))
    fig = _new_figure()
    ax = fig.add_subplot()
    bottom = [0.0] * len(values)
    for r, reason in enumerate(reasons):
        shares = [100 * s["end_reason_shares"][reason]["share"] for s in series]
        ax.bar(xs, shares, bottom=bottom, color=_REASON_COLORS[r % len(_REASON_COLORS)], label=reason, width=0.8)
        bottom = [b + x for b, x in zip(bottom, shares)]
    ax.set_xticks(xs, [format_value(v) for v in values])
    if len(values) > 20:
        for lab in ax.get_xticklabels():
            lab.set_rotation(90)
    ax.set_xlabel(axis["name"])
    ax.set_ylabel("share of games (%)")
    ax.set_ylim(0, 100)
    ax.grid(axis="x", visible=False)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9, frameon=False)
    return fig


def fig_heatmap(hm: Mapping[str, Any], what: str, seat: int | None, data: Mapping[str, Any]) -> Any:
    import numpy as np

    cells = hm["cells"]
    ny, nx = len(hm["y_values"]), len(hm["x_values"])
    grid = np.full((ny, nx), np.nan)
    for y in range(ny):
        for x in range(nx):
            c = cells[y][x]
            if c is None:
                continue
            grid[y, x] = 100 * c["seats"][seat]["win_rate"] if what == "win" else (
                c["median_turns"] if what == "length" else 100 * c["no_winner_rate"]["rate"]
            )
    fig = _new_figure(10.0, max(3.0, min(8.0, 1.2 + 0.45 * ny)))
    ax = fig.add_subplot()
    ax.grid(False)
    if what == "win":
        fair = 100 * data["fairness"]["fair_share"]
        dev = float(np.nanmax(np.abs(grid - fair))) if np.isfinite(grid).any() else 1.0
        dev = max(dev, 100 * (data["fairness"]["band"][1] - data["fairness"]["fair_share"]))
        im = ax.imshow(grid, cmap="RdBu_r", vmin=fair - dev, vmax=fair + dev, aspect="auto", origin="lower")
        label = f"seat {seat} win rate (%)"
    elif what == "length":
        im = ax.imshow(grid, cmap="viridis", aspect="auto", origin="lower")
        label = "median game length (turns)"
    else:
        im = ax.imshow(grid, cmap="Oranges", aspect="auto", origin="lower", vmin=0)
        label = "games nobody wins (%)"
    fig.colorbar(im, ax=ax, label=label)
    ax.set_xticks(range(nx), [format_value(v) for v in hm["x_values"]])
    ax.set_yticks(range(ny), [format_value(v) for v in hm["y_values"]])
    ax.set_xlabel(hm["x"])
    ax.set_ylabel(hm["y"])
    if nx * ny <= 200:
        finite = grid[np.isfinite(grid)]
        mid = (finite.min() + finite.max()) / 2 if finite.size else 0
        for y in range(ny):
            for x in range(nx):
                if np.isfinite(grid[y, x]):
                    v = grid[y, x]
                    text = f"{v:.0f}" if what == "length" else fmt.number(v / 100)
                    dark = (what == "length" and v < mid) or (what == "win" and abs(v - fair) > 0.6 * dev)
                    ax.text(x, y, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    return fig


_ID = re.compile(r'\bid="([^"]+)"')


def svg_inline(fig: Any, prefix: str, label: str) -> str:
    """The figure as an inline ``<svg>``: no XML prologue, no metadata, no namespace
    URLs, ids prefixed so that several figures can share one page."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context(_RC):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None, "Format": None, "Type": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.DOTALL)
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg)
    ids = set(_ID.findall(svg))
    svg = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', svg)
    svg = re.sub(r'(href="#)([^"]+)"', lambda m: f'{m.group(1)}{prefix}-{m.group(2)}"' if m.group(2) in ids else m.group(0), svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}-{m.group(1)})" if m.group(1) in ids else m.group(0), svg)
    # Scale with the page: keep the viewBox, drop the fixed size.
    svg = re.sub(r'<svg([^>]*?)\swidth="[^"]*"\s+height="[^"]*"', r'<svg\1 width="100%"', svg, count=1)
    svg = svg.replace("<svg", f'<svg role="img" aria-label="{html.escape(label)}"', 1)
    return svg.strip()


def build_figures(data: Mapping[str, Any], manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every figure: ``{"id", "title", "caption", "section", "figure"}`` (matplotlib Figures)."""
    import matplotlib

    figs: list[dict[str, Any]] = []
    axes = list(data["by_axis"])
    if not axes:
        # One point (or only fixed parameters): the same figures with one category.
        p = data["points"][0]
        axes = [{"name": "point", "kind": "choice", "pooled_over": [], "series": [{"value": where(p["params"]), **p}]}]
    several_players = len(manifest["strategies"]) > 1
    with matplotlib.rc_context(_RC):
        for axis in axes:
            name = axis["name"]
            pooled = f" Pooled over {', '.join(axis['pooled_over'])}." if axis["pooled_over"] else ""
            n = ", ".join(sorted({f"{s['games']:,}" for s in axis["series"]}))
            figs.append(
                {
                    "id": f"win-seat-{name}",
                    "section": name,
                    "title": f"Win rate by seat against {name}",
                    "caption": f"Lines: win rate; bands: 95% Wilson intervals; grey: the fairness band. "
                    f"{n} games per value.{pooled}",
                    "figure": fig_win_rate(data, axis, "seats", manifest),
                }
            )
            if several_players:
                figs.append(
                    {
                        "id": f"win-player-{name}",
                        "section": name,
                        "title": f"Win rate by player against {name}",
                        "caption": f"Share of the games each player takes part in that it wins, with 95% Wilson "
                        f"intervals.{pooled}",
                        "figure": fig_win_rate(data, axis, "strategies", manifest),
                    }
                )
            figs.append(
                {
                    "id": f"length-{name}",
                    "section": name,
                    "title": f"Game length against {name}",
                    "caption": f"Median (line), 10th–90th percentile (band) and mean (dashed) of the player turns "
                    f"a game lasts.{pooled}",
                    "figure": fig_length(axis),
                }
            )
            figs.append(
                {
                    "id": f"reasons-{name}",
                    "section": name,
                    "title": f"How games end against {name}",
                    "caption": f"Share of games by end reason (stacked to 100%).{pooled}",
                    "figure": fig_end_reasons(axis, manifest["end_reasons"]),
                }
            )
        for hm in data["heatmaps"]:
            pair = f"{hm['x']} × {hm['y']}"
            others = [a for a in data["swept"] if a not in (hm["x"], hm["y"])]
            pooled = f" Pooled over {', '.join(others)}." if others else ""
            for s in range(len(manifest["players"])):
                figs.append(
                    {
                        "id": f"heat-seat{s}-{hm['x']}-{hm['y']}",
                        "section": pair,
                        "title": f"Seat {s} win rate: {pair}",
                        "caption": f"Win rate (%) of seat {s} in each cell; white is the fair share. Intervals in "
                        f"the table below and the JSON twin.{pooled}",
                        "figure": fig_heatmap(hm, "win", s, data),
                    }
                )
            figs.append(
                {
                    "id": f"heat-length-{hm['x']}-{hm['y']}",
                    "section": pair,
                    "title": f"Median game length: {pair}",
                    "caption": f"Median player turns per game in each cell.{pooled}",
                    "figure": fig_heatmap(hm, "length", None, data),
                }
            )
            if any(c and c["no_winner_rate"]["rate"] > 0 for row in hm["cells"] for c in row):
                figs.append(
                    {
                        "id": f"heat-nowinner-{hm['x']}-{hm['y']}",
                        "section": pair,
                        "title": f"Games nobody wins: {pair}",
                        "caption": f"Share (%) of games without a winner in each cell.{pooled}",
                        "figure": fig_heatmap(hm, "no_winner", None, data),
                    }
                )
        heat = data.get("cell_heat")
        for entry in (heat or {}).get("points", []):
            figs.append(
                {
                    "id": f"cells-point{entry['point']}",
                    "section": "cells",
                    "title": f"How often each cell is used: {where(entry['params'])}",
                    "caption": f"Times each cell is used per game, averaged over the point's {entry['games']:,} "
                    "games (row 0 at the top). "
                    + ("Every point." if len(heat["points"]) == data["points_finished"] else "The first and the last point."),
                    "figure": fig_cell_heat(heat, entry),
                }
            )
    return figs


def fig_cell_heat(heat: Mapping[str, Any], entry: Mapping[str, Any]) -> Any:
    """A game's per-cell heatmap at one point: uses per game of each cell."""
    import numpy as np

    grid = np.asarray(entry["per_game"], dtype=float)
    rows, cols = grid.shape
    fig = _new_figure(10.0, max(3.0, min(9.0, 1.0 + 8.0 * rows / max(cols, 1))))
    ax = fig.add_subplot()
    ax.grid(False)
    im = ax.imshow(grid, cmap="viridis", aspect="equal", origin="upper", vmin=0)  # square cells: the sheet's shape
    fig.colorbar(im, ax=ax, label="uses per game")
    if cols <= 30:
        ax.set_xticks(range(cols))
    if rows <= 30:
        ax.set_yticks(range(rows))
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    if rows * cols <= 200:
        top = float(grid.max()) if grid.size else 0.0
        for y in range(rows):
            for x in range(cols):
                v = grid[y, x]
                ax.text(x, y, f"{v:.2g}", ha="center", va="center", fontsize=8,
                        color="white" if v < 0.5 * top else "black")
    return fig
