"""The report's figures: matplotlib on the Agg canvas, inlined as SVG.

Win rate by seat and by player, game length and end reasons against each swept
parameter; heatmaps for each pair of swept parameters; for a game with a
per-cell heatmap, how often each cell is used.  One rule set (a run, a sweep of
one point) gets figures of its own: each seat and player with its interval,
end reasons with theirs, the histogram of game lengths.  Six seats get six
colours and a legend beside the axes.  Labels go through :mod:`balance.format`.

Every figure is drawn for a page about 760 px wide (8 inches at 10 pt): it
stays readable on an 800 px screen.

**Series, bands and hover values.**  Every plotted series is a group with a
stable id: ``s-KEY-line`` holds its markers, ``s-KEY-band`` its interval (the
Wilson band of a win rate, the p10–p90 band of game length, the interval of a
mean).  :func:`svg_inline` gives every marker, bar and heatmap cell an SVG
``<title>`` (its value, interval and n), which a browser shows on hover; the
page tests (tests/test_pages.py) check that every series has its band, that
every reference resolves and that every marker has its title.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Mapping, Sequence
from typing import Any

from balance import format as fmt
from balance.format import format_value
from balance.report.findings import seats_held, where

_SEAT_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
_REASON_COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")
WIDTH = 8.0  # inches: 576 pt of 10-pt text, about 760 px on an 800 px screen

Tips = dict[str, list[str]]  # group id -> the hover text of each of its markers (or of the group)


def _new_figure(width: float = WIDTH, height: float = 3.6) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from matplotlib.layout_engine import ConstrainedLayoutEngine

    # A little more margin than the default: a browser's font can be a hair wider than
    # matplotlib's metrics, and an edge label (a colour bar's) must not be cut.
    fig = Figure(figsize=(width, height), layout=ConstrainedLayoutEngine(w_pad=0.1, h_pad=0.06))
    FigureCanvasAgg(fig)  # the Agg canvas: no display, no pyplot state
    fig.tips = {}  # filled by the drawing functions, read by svg_inline
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


def _tips(fig: Any) -> Tips:
    if not hasattr(fig, "tips"):
        fig.tips = {}
    return fig.tips


def _positions(axis: Mapping[str, Any], values: Sequence[Any]) -> tuple[list[float], bool]:
    numeric = axis["kind"] in ("int", "float")
    if numeric:
        return [float(v) for v in values], True
    return list(range(len(values))), False


def _set_xticks(ax: Any, axis: Mapping[str, Any], values: Sequence[Any], xs: Sequence[float], numeric: bool) -> None:
    ax.set_xlabel(axis["name"])
    if not numeric or len(values) <= 15:
        ax.set_xticks(xs, [format_value(v) for v in values])
        if len(values) > 8:
            for lab in ax.get_xticklabels():
                lab.set_rotation(45)


def _legend(ax: Any, entries: int) -> None:
    """The legend inside the axes up to four entries; beside them beyond (six
    seats and the fairness bands would hide the lines)."""
    if entries <= 4:
        ax.legend(loc="best", fontsize=9, frameon=False)
    else:
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9, frameon=False)


def _at(axis: Mapping[str, Any], value: Any) -> str:
    return f" at {axis['name']}={format_value(value)}" if axis["name"] != "point" else ""


def player_bands(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player's fair share and band (the seats it holds over the seats)."""
    return list(data["fairness"].get("players") or [])


def fig_win_rate(
    data: Mapping[str, Any], axis: Mapping[str, Any], by: str, manifest: Mapping[str, Any], ax: Any = None,
    prefix: str = "",
) -> Any:
    """Win rate per seat (``by="seats"``) or per player (``"strategies"``) against the value
    (on ``ax`` when given: a panel of a larger figure, its group ids starting with ``prefix``)."""
    series = axis["series"]
    values = [s["value"] for s in series]
    xs, numeric = _positions(axis, values)
    fig = _new_figure() if ax is None else ax.figure
    ax = fig.add_subplot() if ax is None else ax
    tips = _tips(fig)
    lo, hi = data["fairness"]["band"]
    rows = series[0][by]
    bands = player_bands(data) if by == "strategies" else []
    shared = not bands or len({round(b["fair_share"], 9) for b in bands}) == 1
    if shared:
        if bands:
            lo, hi = bands[0]["band"]
        band = ax.axhspan(100 * lo, 100 * hi, color="#999999", alpha=0.15, lw=0, label=f"fairness band {fmt.band(lo, hi)}")
        band.set_gid(f"{prefix}fair-band")
    for j, row in enumerate(rows):
        rates = [100 * s[by][j]["win_rate"] for s in series]
        los = [100 * s[by][j]["ci95"][0] for s in series]
        his = [100 * s[by][j]["ci95"][1] for s in series]
        color = _SEAT_COLORS[j % len(_SEAT_COLORS)]
        label = f"seat {row['seat']} ({row['player']})" if by == "seats" else row["player"]
        key = f"{prefix}{'seat' if by == 'seats' else 'player'}{j}"
        if not shared:
            b = bands[j]
            span = ax.axhspan(100 * b["band"][0], 100 * b["band"][1], color=color, alpha=0.08, lw=0)
            span.set_gid(f"{prefix}fair-band-{j}")
            ax.axhline(100 * b["fair_share"], color=color, lw=0.8, ls=":")
            label += f" (fair share {fmt.percent(b['fair_share'])}: {seats_held(b['seats'], len(manifest['players']))})"
        if numeric and len(xs) > 1:
            band = ax.fill_between(xs, los, his, color=color, alpha=0.2, lw=0)
            (line,) = ax.plot(xs, rates, marker="o", ms=4, color=color, label=label)
        else:
            cont = ax.errorbar(xs, rates, yerr=[[r - low for r, low in zip(rates, los)], [h - r for r, h in zip(rates, his)]],
                               marker="o", ms=5, capsize=4, color=color, label=label, ls="-" if len(xs) > 1 else "none")
            line, band = cont.lines[0], cont.lines[2][0]
        band.set_gid(f"s-{key}-band")
        line.set_gid(f"s-{key}-line")
        tips[f"s-{key}-line"] = [
            f"{label}{_at(axis, s['value'])}: {fmt.percent_ci(s[by][j]['win_rate'], s[by][j]['ci95'])}, "
            f"n={s[by][j]['games']:,}"
            for s in series
        ]
    _set_xticks(ax, axis, values, xs, numeric)
    ax.set_ylabel("win rate (%)" if by == "seats" else "win rate in its games (%)")
    _legend(ax, len(rows) + (1 if shared else 0))
    return fig


_CHECKPOINT_COLORS = ("#4c72b0", "#dd8452", "#c44e52")


def has_feel(axis: Mapping[str, Any]) -> bool:
    """Whether every value of an axis has game-feel figures (a GPU run or an old store has none)."""
    return all(s.get("feel") for s in axis["series"])


def fig_runaway(axis: Mapping[str, Any]) -> Any:
    """The runaway-leader curve against a swept value: P(win | strictly ahead
    at 25%, 50%, 75% of the game) with 95% Wilson bands, and the fair share."""
    series = axis["series"]
    values = [s["value"] for s in series]
    xs, numeric = _positions(axis, values)
    fig = _new_figure()
    ax = fig.add_subplot()
    tips = _tips(fig)
    fair = series[0]["feel"]["lead_wins"][0]["fair_share"]
    ax.axhline(100 * fair, color="#999999", lw=1, ls=":", label=f"fair share {fmt.percent(fair)}")
    for q, color in enumerate(_CHECKPOINT_COLORS):
        rows = [s["feel"]["lead_wins"][q] for s in series]
        at = rows[0]["at"]
        rates = [100 * (r["rate"] or 0.0) for r in rows]
        los = [100 * r["ci95"][0] for r in rows]
        his = [100 * r["ci95"][1] for r in rows]
        label = f"leading at {at:.0%} of the game"
        key = f"lead{int(100 * at)}"
        if numeric and len(xs) > 1:
            band = ax.fill_between(xs, los, his, color=color, alpha=0.2, lw=0)
            (line,) = ax.plot(xs, rates, marker="o", ms=4, color=color, label=label)
        else:
            cont = ax.errorbar(xs, rates, yerr=[[r - low for r, low in zip(rates, los)], [h - r for r, h in zip(rates, his)]],
                               marker="o", ms=5, capsize=4, color=color, label=label, ls="-" if len(xs) > 1 else "none")
            line, band = cont.lines[0], cont.lines[2][0]
        band.set_gid(f"s-{key}-band")
        line.set_gid(f"s-{key}-line")
        tips[f"s-{key}-line"] = [
            f"P(win | leading at {at:.0%}){_at(axis, s['value'])}: {fmt.percent_ci(r['rate'] or 0.0, r['ci95'])}, n={r['n']:,}"
            for s, r in zip(series, rows)
        ]
    _set_xticks(ax, axis, values, xs, numeric)
    ax.set_ylabel("P(win | leading) (%)")
    _legend(ax, 4)
    return fig


def fig_runaway_single(point: Mapping[str, Any]) -> Any:
    """One rule set's runaway-leader curve: P(win | strictly ahead) at 25%, 50%
    and 75% of the game, with 95% Wilson intervals, against the fair share."""
    rows = point["feel"]["lead_wins"]
    fig = _new_figure()
    ax = fig.add_subplot()
    tips = _tips(fig)
    xs = [100 * r["at"] for r in rows]
    rates = [100 * (r["rate"] or 0.0) for r in rows]
    los = [100 * r["ci95"][0] for r in rows]
    his = [100 * r["ci95"][1] for r in rows]
    fair = rows[0]["fair_share"]
    ax.axhline(100 * fair, color="#999999", lw=1, ls=":", label=f"fair share {fmt.percent(fair)}")
    cont = ax.errorbar(xs, rates, yerr=[[r - low for r, low in zip(rates, los)], [h - r for r, h in zip(rates, his)]],
                       marker="o", ms=5, capsize=4, color=_CHECKPOINT_COLORS[0], label="P(win | leading)")
    cont.lines[0].set_gid("s-lead-line")
    cont.lines[2][0].set_gid("s-lead-band")
    tips["s-lead-line"] = [
        f"P(win | leading at {r['at']:.0%}): {fmt.percent_ci(r['rate'] or 0.0, r['ci95'])}, n={r['n']:,}" for r in rows
    ]
    ax.set_xticks(xs, [f"{x:.0f}%" for x in xs])
    ax.set_xlim(15, 85)
    ax.set_xlabel("share of the game played")
    ax.set_ylabel("P(win | leading) (%)")
    _legend(ax, 2)
    return fig


def fig_length(axis: Mapping[str, Any]) -> Any:
    series = axis["series"]
    values = [s["value"] for s in series]
    xs, numeric = _positions(axis, values)
    fig = _new_figure()
    ax = fig.add_subplot()
    tips = _tips(fig)
    med = [s["turns"]["median"] for s in series]
    p10 = [s["turns"]["p10"] for s in series]
    p90 = [s["turns"]["p90"] for s in series]
    mean = [s["turns"]["mean"] for s in series]
    mlo = [s["turns"]["mean_ci95"][0] for s in series]
    mhi = [s["turns"]["mean_ci95"][1] for s in series]
    if numeric and len(xs) > 1:
        band = ax.fill_between(xs, p10, p90, color="#4c72b0", alpha=0.2, lw=0, label="p10–p90")
        mband = ax.fill_between(xs, mlo, mhi, color="#dd8452", alpha=0.35, lw=0)
    else:
        band = ax.vlines(xs, p10, p90, color="#4c72b0", alpha=0.4, lw=8, label="p10–p90")
        mband = ax.vlines(xs, mlo, mhi, color="#dd8452", alpha=0.6, lw=3)
    band.set_gid("s-median-band")
    mband.set_gid("s-mean-band")
    (line,) = ax.plot(xs, med, marker="o", ms=4, color="#4c72b0", label="median")
    line.set_gid("s-median-line")
    (mline,) = ax.plot(xs, mean, marker="s", ms=3, color="#dd8452", ls="--", label="mean (95% CI)")
    mline.set_gid("s-mean-line")
    tips["s-median-line"] = [
        f"median{_at(axis, s['value'])}: {t['median']} turns (95% CI {t['median_ci95'][0]}–{t['median_ci95'][1]}), "
        f"p10 {t['p10']}, p90 {t['p90']}, n={s['games']:,}"
        for s in series
        for t in [s["turns"]]
    ]
    tips["s-mean-line"] = [
        f"mean{_at(axis, s['value'])}: {t['mean']:.2f} turns (95% CI {t['mean_ci95'][0]:.2f}–{t['mean_ci95'][1]:.2f}), "
        f"n={s['games']:,}"
        for s in series
        for t in [s["turns"]]
    ]
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
    tips = _tips(fig)
    bottom = [0.0] * len(values)
    for r, reason in enumerate(reasons):
        shares = [100 * s["end_reason_shares"][reason]["share"] for s in series]
        bars = ax.bar(xs, shares, bottom=bottom, color=_REASON_COLORS[r % len(_REASON_COLORS)], label=reason, width=0.8)
        for i, (patch, s) in enumerate(zip(bars.patches, series)):
            gid = f"bar-{r}-{i}"
            patch.set_gid(gid)
            sh = s["end_reason_shares"][reason]
            tips[gid] = [f"{reason}{_at(axis, s['value'])}: {fmt.percent_ci(sh['share'], sh['ci95'])} of {s['games']:,} games"]
        bottom = [b + x for b, x in zip(bottom, shares)]
    ax.set_xticks(xs, [format_value(v) for v in values])
    if len(values) > 8:
        for lab in ax.get_xticklabels():
            lab.set_rotation(90 if len(values) > 20 else 45)
    ax.set_xlabel(axis["name"])
    ax.set_ylabel("share of games (%)")
    ax.set_ylim(0, 100)
    ax.grid(axis="x", visible=False)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9, frameon=False)
    return fig


# --------------------------------------------------------------------------- one rule set
def fig_rates_single(data: Mapping[str, Any], point: Mapping[str, Any], by: str, manifest: Mapping[str, Any]) -> Any:
    """One rule set: each seat's (or player's) win rate with its 95% Wilson
    interval, against its fairness band (a player's: its seats over the seats)."""
    rows = point[by]
    fig = _new_figure(height=max(2.4, 1.2 + 0.42 * len(rows)))
    ax = fig.add_subplot()
    tips = _tips(fig)
    ys = list(range(len(rows)))[::-1]  # the first seat at the top
    bands = player_bands(data) if by == "strategies" else []
    lo, hi = data["fairness"]["band"]
    for j, (row, y) in enumerate(zip(rows, ys)):
        color = _SEAT_COLORS[j % len(_SEAT_COLORS)]
        blo, bhi = bands[j]["band"] if bands else (lo, hi)
        span = ax.fill_betweenx([y - 0.4, y + 0.4], 100 * blo, 100 * bhi, color="#999999", alpha=0.2, lw=0,
                                label=None if j else ("fairness band" if by == "seats" else "its fairness band"))
        span.set_gid(f"fair-band-{j}")
        rate, (clo, chi) = 100 * row["win_rate"], row["ci95"]
        cont = ax.errorbar([rate], [y], xerr=[[rate - 100 * clo], [100 * chi - rate]], marker="o", ms=6, capsize=4,
                           color=color, ls="none")
        key = f"{'seat' if by == 'seats' else 'player'}{j}"
        cont.lines[0].set_gid(f"s-{key}-line")
        cont.lines[2][0].set_gid(f"s-{key}-band")
        label = f"seat {row['seat']} ({row['player']})" if by == "seats" else row["player"]
        fair = bands[j]["fair_share"] if bands else data["fairness"]["fair_share"]
        extra = f" ({seats_held(bands[j]['seats'], len(manifest['players']))})" if bands else ""
        tips[f"s-{key}-line"] = [
            f"{label}{extra}: {fmt.percent_ci(row['win_rate'], row['ci95'])} of {row['games']:,} games; "
            f"fair share {fmt.percent(fair)}, band {fmt.band(blo, bhi)}"
        ]
    labels = []
    for j, row in enumerate(rows):
        if by == "seats":
            labels.append(f"seat {row['seat']} ({row['player']})")
        else:
            labels.append(f"{row['player']} ({seats_held(bands[j]['seats'], len(manifest['players']))})" if bands else row["player"])
    ax.set_yticks(ys, labels)
    ax.set_xlabel("win rate (%), 95% Wilson interval" if by == "seats" else "win rate in its games (%), 95% Wilson interval")
    ax.grid(axis="y", visible=False)
    ax.legend(loc="best", fontsize=9, frameon=False)
    return fig


def fig_reasons_single(point: Mapping[str, Any], reasons: Sequence[str]) -> Any:
    """One rule set: the share of games ending each way, with 95% Wilson intervals."""
    fig = _new_figure(height=max(2.2, 1.0 + 0.38 * len(reasons)))
    ax = fig.add_subplot()
    tips = _tips(fig)
    ys = list(range(len(reasons)))[::-1]
    for r, (reason, y) in enumerate(zip(reasons, ys)):
        sh = point["end_reason_shares"][reason]
        share, (lo, hi) = 100 * sh["share"], sh["ci95"]
        bars = ax.barh([y], [share], color=_REASON_COLORS[r % len(_REASON_COLORS)], height=0.7)
        bars.patches[0].set_gid(f"bar-{r}")
        tip = f"{reason}: {fmt.percent_ci(sh['share'], sh['ci95'])} of {point['games']:,} games"
        tips[f"bar-{r}"] = [tip]
        cont = ax.errorbar([share], [y], xerr=[[share - 100 * lo], [100 * hi - share]], marker="|", ms=8, capsize=3,
                           color="#1d1d1f", ls="none")
        cont.lines[0].set_gid(f"s-reason{r}-line")
        cont.lines[2][0].set_gid(f"s-reason{r}-band")
        tips[f"s-reason{r}-line"] = [tip]
    ax.set_yticks(ys, list(reasons))
    ax.set_xlabel("share of games (%), 95% Wilson interval")
    ax.set_xlim(0, 100)
    ax.grid(axis="y", visible=False)
    return fig


def fig_length_single(point: Mapping[str, Any], hist: Sequence[int]) -> Any:
    """One rule set: how many games last each number of turns, the p10–p90 band,
    the median and the mean with their 95% intervals."""
    t = point["turns"]
    fig = _new_figure()
    ax = fig.add_subplot()
    tips = _tips(fig)
    n = max(1, sum(hist))
    xs = list(range(len(hist)))
    share = [100 * c / n for c in hist]
    ax.bar(xs, share, width=1.0, color="#4c72b0", alpha=0.55, lw=0, label="games (%)")
    top = max(share) if share else 1.0
    band = ax.axvspan(t["p10"] - 0.5, t["p90"] + 0.5, color="#4c72b0", alpha=0.12, lw=0, label=f"p10–p90: {t['p10']}–{t['p90']}")
    band.set_gid("s-median-band")
    (line,) = ax.plot([t["median"]], [top * 1.05], marker="v", ms=8, color="#1d1d1f", ls="none",
                      label=f"median {t['median']} (95% CI {t['median_ci95'][0]}–{t['median_ci95'][1]})")
    line.set_gid("s-median-line")
    tips["s-median-line"] = [
        f"median {t['median']} turns (95% CI {t['median_ci95'][0]}–{t['median_ci95'][1]}), p10 {t['p10']}, "
        f"p90 {t['p90']}, max {t['max']}, n={point['games']:,}"
    ]
    cont = ax.errorbar([t["mean"]], [top * 1.12], xerr=[[t["mean"] - t["mean_ci95"][0]], [t["mean_ci95"][1] - t["mean"]]],
                       marker="D", ms=5, color="#dd8452", capsize=3, ls="none",
                       label=f"mean {t['mean']:.2f} (95% CI {t['mean_ci95'][0]:.2f}–{t['mean_ci95'][1]:.2f})")
    cont.lines[0].set_gid("s-mean-line")
    cont.lines[2][0].set_gid("s-mean-band")
    tips["s-mean-line"] = [f"mean {t['mean']:.2f} turns (95% CI {t['mean_ci95'][0]:.2f}–{t['mean_ci95'][1]:.2f}), n={point['games']:,}"]
    ax.set_xlim(max(-0.5, t["min"] - 1.5), t["max"] + 1.5)
    ax.set_ylim(0, top * 1.25)
    ax.set_xlabel("game length (player turns)")
    ax.set_ylabel("share of games (%)")
    ax.legend(loc="upper right", fontsize=9, frameon=False)
    return fig


def fig_heatmap(hm: Mapping[str, Any], what: str, seat: int | None, data: Mapping[str, Any]) -> Any:
    import numpy as np
    from matplotlib.patches import Rectangle

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
    fig = _new_figure(WIDTH, max(3.0, min(8.0, 1.2 + 0.45 * ny)))
    ax = fig.add_subplot()
    tips = _tips(fig)
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
    finite = grid[np.isfinite(grid)]
    mid = (finite.min() + finite.max()) / 2 if finite.size else 0
    for y in range(ny):
        for x in range(nx):
            c = cells[y][x]
            if c is None:
                continue
            at = f"{hm['x']}={format_value(hm['x_values'][x])}, {hm['y']}={format_value(hm['y_values'][y])}"
            if what == "win":
                s = c["seats"][seat]
                tip = f"seat {seat} at {at}: {fmt.percent_ci(s['win_rate'], s['ci95'])}, n={c['games']:,}"
            elif what == "length":
                lo, hi = c["median_turns_ci95"]
                tip = f"{at}: median {c['median_turns']} turns (95% CI {lo}–{hi}), n={c['games']:,}"
            else:
                r = c["no_winner_rate"]
                tip = f"{at}: nobody wins {fmt.percent_ci(r['rate'], r['ci95'])}, n={c['games']:,}"
            if nx * ny <= 400:  # a transparent cell on top of the raster carries the hover text
                cell = Rectangle((x - 0.5, y - 0.5), 1, 1, fill=True, facecolor="#ffffff", alpha=0.0, lw=0)
                cell.set_gid(f"cell-{y}-{x}")
                ax.add_patch(cell)
                tips[f"cell-{y}-{x}"] = [tip]
            if nx * ny <= 200 and np.isfinite(grid[y, x]):
                v = grid[y, x]
                text = f"{v:.0f}" if what == "length" else fmt.number(v / 100)
                dark = (what == "length" and v < mid) or (what == "win" and abs(v - fair) > 0.6 * dev)
                ax.text(x, y, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    return fig


# --------------------------------------------------------------------------- SVG
_ID = re.compile(r'\bid="([^"]+)"')
_G = re.compile(r"<g\b|</g>")
_USE = re.compile(r"<use\b[^>]*/>")


def _group_end(svg: str, start: int) -> int:
    """The index just past the ``</g>`` that closes the group opened at ``start``."""
    depth = 0
    for m in _G.finditer(svg, start):
        depth += 1 if m.group(0) == "<g" else -1
        if depth == 0:
            return m.end()
    return len(svg)


def _add_titles(svg: str, gid: str, texts: Sequence[str]) -> str:
    """Hover text for group ``gid``: each of its markers (``<use>``) gets its own
    ``<title>`` (wrapped in a group), or the group one ``<title>`` of its own."""
    opening = f'<g id="{gid}">'
    start = svg.find(opening)
    if start < 0:
        return svg
    end = _group_end(svg, start)
    body = svg[start + len(opening) : end]
    uses = _USE.findall(body)
    if uses and len(uses) == len(texts):
        it = iter(texts)
        body = _USE.sub(lambda m: f"<g><title>{html.escape(next(it))}</title>{m.group(0)}</g>", body)
        return svg[: start + len(opening)] + body + svg[end:]
    title = "<title>" + html.escape("; ".join(texts)) + "</title>"
    return svg[: start + len(opening)] + title + body + svg[end:]


def svg_inline(fig: Any, prefix: str, label: str) -> str:
    """The figure as an inline ``<svg>``: no XML prologue, no metadata, no namespace
    URLs, ids prefixed so that several figures can share one page (``prefix``
    must be unique on the page), hover text on every marker, bar and cell."""
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
    for gid, texts in _tips(fig).items():
        svg = _add_titles(svg, f"{prefix}-{gid}", texts)
    # Scale with the page: keep the viewBox, drop the fixed size.
    svg = re.sub(r'<svg([^>]*?)\swidth="[^"]*"\s+height="[^"]*"', r'<svg\1 width="100%"', svg, count=1)
    svg = svg.replace("<svg", f'<svg role="img" aria-label="{html.escape(label)}"', 1)
    return svg.strip()


# --------------------------------------------------------------------------- the figures of a report
def _single_axis(data: Mapping[str, Any]) -> dict[str, Any]:
    p = data["points"][0]
    return {"name": "point", "kind": "choice", "pooled_over": [], "series": [{"value": where(p["params"]), **p}]}


def build_figures(data: Mapping[str, Any], manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every figure: ``{"id", "title", "caption", "section", "figure"}`` (matplotlib Figures)."""
    import matplotlib

    figs: list[dict[str, Any]] = []
    several_players = len(manifest["strategies"]) > 1
    bands = player_bands(data)
    own_share = bool(bands) and len({round(b["fair_share"], 9) for b in bands}) > 1
    player_band = (
        " Each player's band is around its own fair share (the seats it holds over the seats)."
        if own_share
        else " Grey: the fairness band."
    )
    with matplotlib.rc_context(_RC):
        if not data["by_axis"]:
            _single_figures(figs, data, manifest, several_players)
        for axis in data["by_axis"]:
            name = axis["name"]
            pooled = f" Pooled over {', '.join(axis['pooled_over'])}." if axis["pooled_over"] else ""
            n = ", ".join(sorted({f"{s['games']:,}" for s in axis["series"]}))
            figs.append(
                {
                    "id": f"win-seat-{name}",
                    "section": name,
                    "title": f"Win rate by seat against {name}",
                    "caption": f"Lines and markers: win rate; bands: 95% Wilson intervals; grey: the fairness band. "
                    f"{n} games per value.{pooled} Hover over a marker for its value.",
                    "figure": fig_win_rate(data, axis, "seats", manifest),
                }
            )
            if several_players:
                figs.append(
                    {
                        "id": f"win-player-{name}",
                        "section": name,
                        "title": f"Win rate by player against {name}",
                        "caption": "Share of the games each player takes part in that it wins, with 95% Wilson "
                        f"intervals.{player_band}{pooled}",
                        "figure": fig_win_rate(data, axis, "strategies", manifest),
                    }
                )
            figs.append(
                {
                    "id": f"length-{name}",
                    "section": name,
                    "title": f"Game length against {name}",
                    "caption": "Median (line and markers) with the 10th–90th percentile (band), mean (dashed) with "
                    f"its 95% interval, in player turns.{pooled}",
                    "figure": fig_length(axis),
                }
            )
            figs.append(
                {
                    "id": f"reasons-{name}",
                    "section": name,
                    "title": f"How games end against {name}",
                    "caption": f"Share of games by end reason (stacked to 100%); hover over a bar for its 95% "
                    f"interval.{pooled}",
                    "figure": fig_end_reasons(axis, manifest["end_reasons"]),
                }
            )
            if has_feel(axis):
                standing = axis["series"][0]["feel"]["standing"]
                figs.append(
                    {
                        "id": f"runaway-{name}",
                        "section": name,
                        "title": f"Runaway leader against {name}",
                        "caption": "P(win | strictly ahead at 25%, 50%, 75% of the game), of the games with a "
                        f"strict leader there (who is ahead: {standing}); bands: 95% Wilson intervals; dotted: "
                        f"the fair share. {n} games per value.{pooled} Hover over a marker for its value.",
                        "figure": fig_runaway(axis),
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
                        "caption": f"Win rate (%) of seat {s} in each cell; white is the fair share. Hover over a "
                        f"cell for its 95% interval (also in the table below and the JSON twin).{pooled}",
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


def _single_figures(figs: list[dict[str, Any]], data: Mapping[str, Any], manifest: Mapping[str, Any], several: bool) -> None:
    """The figures of one rule set (a run, or a sweep of one point)."""
    p = data["points"][0]
    n = f"{p['games']:,} games."
    figs.append(
        {
            "id": "win-seat-point",
            "section": "win rates",
            "title": "Win rate by seat",
            "caption": f"Markers: win rate; whiskers: 95% Wilson intervals; grey: the fairness band. {n}",
            "figure": fig_rates_single(data, p, "seats", manifest),
        }
    )
    if several:
        figs.append(
            {
                "id": "win-player-point",
                "section": "win rates",
                "title": "Win rate by player",
                "caption": "Share of the games each player takes part in that it wins, with 95% Wilson intervals. "
                f"Grey: each player's fairness band, around its fair share (the seats it holds over the seats). {n}",
                "figure": fig_rates_single(data, p, "strategies", manifest),
            }
        )
    hist = data.get("length_hist")
    figs.append(
        {
            "id": "length-point",
            "section": "game length",
            "title": "Game length",
            "caption": "Share of games by length in player turns; band: 10th–90th percentile; triangle: the median; "
            f"diamond: the mean with its 95% interval. {n}",
            "figure": fig_length_single(p, hist) if hist else fig_length(_single_axis(data)),
        }
    )
    figs.append(
        {
            "id": "reasons-point",
            "section": "how games end",
            "title": "How games end",
            "caption": f"Share of games by end reason with 95% Wilson intervals. {n}",
            "figure": fig_reasons_single(p, manifest["end_reasons"]),
        }
    )
    if p.get("feel"):
        figs.append(
            {
                "id": "runaway-point",
                "section": "game feel",
                "title": "Runaway leader",
                "caption": "P(win | strictly ahead at 25%, 50%, 75% of the game), of the games with a strict leader "
                f"there (who is ahead: {p['feel']['standing']}); whiskers: 95% Wilson intervals; dotted: the fair "
                f"share. {n}",
                "figure": fig_runaway_single(p),
            }
        )


def fig_cell_heat(heat: Mapping[str, Any], entry: Mapping[str, Any]) -> Any:
    """A game's per-cell heatmap at one point: uses per game of each cell."""
    import numpy as np

    grid = np.asarray(entry["per_game"], dtype=float)
    rows, cols = grid.shape
    fig = _new_figure(WIDTH, max(3.0, min(9.0, 1.0 + 6.4 * rows / max(cols, 1))))
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


# --------------------------------------------------------------------------- stand-alone PNG
def png_title(data: Mapping[str, Any], axis_name: str | None, pooled: Sequence[str], players: str) -> str:
    what = f"win rate by seat against {axis_name}" if axis_name else "win rate by seat"
    pooled_text = f" (pooled over {', '.join(pooled)})" if pooled else ""
    return f"{data['title']}: {what}{pooled_text}\nplayers {players}; 95% Wilson bands; grey: the fairness band"


def players_text(manifest: Mapping[str, Any]) -> str:
    return ", ".join(manifest["players"]) + (" (seats rotated)" if manifest["rotate_seats"] else "")


def png_figure(data: Mapping[str, Any], manifest: Mapping[str, Any]) -> Any:
    """The stand-alone main figure: win rate by seat against the first swept
    parameter, titled with the game, what is pooled, the players and n."""
    axis = data["by_axis"][0] if data["by_axis"] else _single_axis(data)
    if data["by_axis"]:
        fig = fig_win_rate(data, axis, "seats", manifest)
        name = axis["name"]
    else:
        fig = fig_rates_single(data, data["points"][0], "seats", manifest)
        name = None
    games = ", ".join(sorted({f"{s['games']:,}" for s in axis["series"]}))
    fig.suptitle(png_title(data, name, axis["pooled_over"], players_text(manifest)) + f"; {games} games per value",
                 fontsize=11)
    return fig


def png_set_figure(runs: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any]]]) -> Any:
    """The stand-alone figure of a sweep played by several player lists: one
    titled panel per list, the same axes."""
    first = runs[0][1]
    axis_name = first["by_axis"][0]["name"] if first["by_axis"] else None
    fig = _new_figure(WIDTH, 0.6 + 2.9 * len(runs))
    axes = fig.subplots(len(runs), 1, sharex=True, squeeze=False)[:, 0]
    for i, (ax, (label, data, manifest)) in enumerate(zip(axes, runs)):
        axis = data["by_axis"][0] if data["by_axis"] else _single_axis(data)
        fig_win_rate(data, axis, "seats", manifest, ax=ax, prefix=f"a{i}-")
        games = ", ".join(sorted({f"{s['games']:,}" for s in axis["series"]}))
        ax.set_title(f"players {label}" + (" (seats rotated)" if manifest["rotate_seats"] else "")
                     + f"; {games} games per value", fontsize=10, loc="left")
    pooled = first["by_axis"][0]["pooled_over"] if first["by_axis"] else []
    what = f"win rate by seat against {axis_name}" if axis_name else "win rate by seat"
    pooled_text = f" (pooled over {', '.join(pooled)})" if pooled else ""
    fig.suptitle(f"{first['title']}: {what}{pooled_text}, {len(runs)} player lists on the same games\n"
                 "95% Wilson bands; grey: the fairness band", fontsize=11)
    return fig
