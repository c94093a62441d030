"""The balance report of a sweep: one self-contained HTML file and its JSON twin.

Everything is computed from the run directory's counts (:mod:`balance.store`),
never from a new game.  The HTML holds its CSS and its figures (matplotlib, Agg
canvas, SVG inlined): it asks nothing of any other file or host, so it can be
mailed, opened offline and printed.  The JSON twin (same name, ``.json``) holds
every number the HTML shows.

What it shows (docs/sweeps.md):

* findings in plain words, computed from the data: seats outside the fairness
  band, the fairest point, how each seat's win rate moves along each swept
  parameter (Newcombe interval of the change), how often games end each way
  (turn caps included), how game length moves;
* per swept parameter: win rate per seat and per player against the value with
  95% Wilson bands, game length (median line, p10–p90 band, mean), end reasons
  stacked; with several swept parameters each plot pools the others, and every
  pair of swept parameters gets heatmaps;
* a table with one row per point and every figure with its interval;
* a footer with the exact command, seed, versions and commit.

The fairness band is the fair share ``1/seats`` ± 10% of it (45–55% for two
seats) unless the caller gives another.
"""

from __future__ import annotations

import html
import io
import itertools
import json
import math
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from balance.errors import UserError

REPORT_FORMAT = "balance-report/1"
FAIR_TOLERANCE = 0.10  # relative: the band is fair share × (1 ± 0.10)
MAX_HEATMAP_PAIRS = 6
CAP_WORDS = re.compile(r"cap|limit|timeout|stall|max|draw", re.IGNORECASE)
_SEAT_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
_REASON_COLORS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")


@dataclass
class ReportResult:
    """Where the report went and what it says."""

    html: Path
    json: Path
    png: Path | None
    data: dict[str, Any] = field(repr=False)


# --------------------------------------------------------------------------- formatting
def _pct(rate: float) -> str:
    if 0 < rate < 0.01:
        return f"{100 * rate:.2f}%"
    return f"{100 * rate:.1f}%"


def _ci(ci: Sequence[float]) -> str:
    lo, hi = ci
    digits = 2 if (0 < hi < 0.01) else 1
    return f"{100 * lo:.{digits}f}–{100 * hi:.{digits}f}"


def _band(lo: float, hi: float) -> str:
    return f"{100 * lo:.4g}–{100 * hi:.4g}%"


def _rate_ci(rate: float, ci: Sequence[float]) -> str:
    return f"{_pct(rate)} ({_ci(ci)})"


def _value(v: Any) -> str:
    from balance.sweep import format_value

    return format_value(v)


def _where(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_value(v)}" for k, v in params.items()) or "the default rules"


def _num(x: float, digits: int = 1) -> str:
    return f"{x:,.{digits}f}"


# --------------------------------------------------------------------------- data
def _summary(agg: Any, manifest: Mapping[str, Any]) -> dict[str, Any]:
    from balance.stats import hist_quantile_ci
    from balance.summary import summarize

    seat_players = ["rotated"] * len(manifest["players"]) if manifest["rotate_seats"] else manifest["players"]
    s = summarize(agg, manifest["strategies"], seat_players, manifest["end_reasons"], manifest["score_name"])
    if agg.games:
        t = s["turns"]
        t["mean_ci95"] = [t["mean"] - 1.959964 * t["mean_se"], t["mean"] + 1.959964 * t["mean_se"]] if agg.games > 1 else [t["mean"], t["mean"]]
        t["median_ci95"] = list(hist_quantile_ci(agg.turns_hist, 0.5))
    return s


def _pool(aggs: Sequence[Any]) -> Any:
    out = aggs[0]
    for a in aggs[1:]:
        out = out.merge(a)
    return out


def report_data(
    manifest: Mapping[str, Any],
    aggregates: Mapping[int, Any],
    band: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """Every number of the report (the JSON twin), computed from the stored counts."""
    n_seats = len(manifest["players"])
    fair = 1.0 / n_seats
    band = band or (fair * (1 - FAIR_TOLERANCE), fair * (1 + FAIR_TOLERANCE))
    axes = manifest["axes"]
    swept = [a for a in axes if len(a["values"]) > 1]
    fixed_axes = {a["name"]: a["values"][0] for a in axes if len(a["values"]) == 1}
    points = []
    for i, params in enumerate(manifest["points"]):
        if i in aggregates:
            points.append({"point": i, "params": params, **_summary(aggregates[i], manifest)})

    def key(params: Mapping[str, Any], names: Sequence[str]) -> tuple[str, ...]:
        return tuple(json.dumps(params[n]) for n in names)

    axis_series = []
    for axis in swept:
        name = axis["name"]
        series = []
        for value in axis["values"]:
            members = [i for i, p in enumerate(manifest["points"]) if i in aggregates and p[name] == value and type(p[name]) is type(value)]
            if members:
                series.append({"value": value, "points": members, **_summary(_pool([aggregates[i] for i in members]), manifest)})
        axis_series.append(
            {
                "name": name,
                "kind": axis["kind"],
                "pooled_over": [a["name"] for a in swept if a["name"] != name],
                "series": series,
            }
        )

    heatmaps = []
    for a, b in list(itertools.combinations(swept, 2))[:MAX_HEATMAP_PAIRS]:
        cells: dict[tuple[str, ...], list[int]] = {}
        for i, p in enumerate(manifest["points"]):
            if i in aggregates:
                cells.setdefault(key(p, [a["name"], b["name"]]), []).append(i)
        grid = []
        for vb in b["values"]:
            row = []
            for va in a["values"]:
                members = cells.get((json.dumps(va), json.dumps(vb)))
                if not members:
                    row.append(None)
                    continue
                s = _summary(_pool([aggregates[i] for i in members]), manifest)
                row.append(
                    {
                        "games": s["games"],
                        "seats": [{"win_rate": x["win_rate"], "ci95": x["ci95"]} for x in s["seats"]],
                        "no_winner_rate": s["no_winner_rate"],
                        "median_turns": s["turns"]["median"],
                        "median_turns_ci95": s["turns"]["median_ci95"],
                        "mean_turns": s["turns"]["mean"],
                    }
                )
            grid.append(row)
        heatmaps.append({"x": a["name"], "y": b["name"], "x_values": a["values"], "y_values": b["values"], "cells": grid})

    data: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "game": manifest["game"],
        "title": manifest.get("title", manifest["game"]),
        "run": {
            k: manifest.get(k)
            for k in (
                "seed", "games_per_point", "players", "strategies", "rotate_seats", "board", "board_sha256",
                "player_file", "end_reasons", "score_name", "command", "version", "versions", "commit", "created",
                "sessions", "complete",
            )
        },
        "axes": axes,
        "swept": [a["name"] for a in swept],
        "fixed_axes": fixed_axes,
        "rules": manifest.get("params", {}),
        "param_info": manifest.get("param_info", {}),
        "points_total": len(manifest["points"]),
        "points_finished": len(points),
        "fairness": {"fair_share": fair, "band": list(band), "tolerance": FAIR_TOLERANCE},
        "points": points,
        "by_axis": axis_series,
        "heatmaps": heatmaps,
    }
    data["findings"] = findings(data, manifest, aggregates)
    return data


# --------------------------------------------------------------------------- findings
def findings(data: Mapping[str, Any], manifest: Mapping[str, Any], aggregates: Mapping[int, Any]) -> list[dict[str, Any]]:
    """Plain-word statements computed from the data (each with its numbers)."""
    from balance.stats import newcombe

    out: list[dict[str, Any]] = []
    points = data["points"]
    lo, hi = data["fairness"]["band"]
    band_text = _band(lo, hi)
    n_seats = len(manifest["players"])
    seat_label = [
        f"seat {s}" + ("" if manifest["rotate_seats"] else f" ({manifest['players'][s]})") for s in range(n_seats)
    ]
    multi = len(points) > 1

    if data["points_finished"] < data["points_total"]:
        out.append(
            {
                "kind": "incomplete",
                "text": f"Only {data['points_finished']} of {data['points_total']} points are finished: "
                "run the same sweep again with --resume to complete it.",
                "finished": data["points_finished"],
                "total": data["points_total"],
            }
        )

    if len(set(manifest["players"])) > 1 and not manifest["rotate_seats"]:
        out.append(
            {
                "kind": "note",
                "text": f"Each seat keeps its player ({', '.join(manifest['players'])}): a seat's win rate mixes "
                "the seat's edge with its player's strength; sweep with --rotate-seats to tell them apart.",
            }
        )

    games = sorted({p["games"] for p in points})
    widest = max(max(s["ci95"][1] - s["win_rate"], s["win_rate"] - s["ci95"][0]) for p in points for s in p["seats"])
    out.append(
        {
            "kind": "precision",
            "text": f"Each point is {' or '.join(f'{g:,}' for g in games)} games with the same seeds at every point "
            f"(common random numbers): every win-rate interval is within ±{100 * widest:.2f} points.",
            "games_per_point": games,
            "max_half_width": widest,
        }
    )

    # Fairness: which seats leave the band, and where worst.
    any_out = False
    for s in range(n_seats):
        outside = [p for p in points if not lo <= p["seats"][s]["win_rate"] <= hi]
        if not outside:
            continue
        any_out = True
        worst = max(outside, key=lambda p: abs(p["seats"][s]["win_rate"] - data["fairness"]["fair_share"]))
        w = worst["seats"][s]
        clear = not (w["ci95"][0] <= hi and w["ci95"][1] >= lo)
        text = (
            f"{seat_label[s].capitalize()} wins {_rate_ci(w['win_rate'], w['ci95'])} at {_where(worst['params'])}, "
            f"outside the {band_text} fairness band"
        )
        text += "" if clear else " (its interval reaches into the band: play more games to be sure)"
        if multi and len(outside) == len(points):
            text += f"; outside at all {len(points)} points"
        elif multi:
            text += f"; outside at {len(outside)} of {len(points)} points"
            if 1 < len(outside) <= 5:
                text += " (" + "; ".join(_where(p["params"]) for p in outside) + ")"
        out.append(
            {
                "kind": "fairness",
                "text": text + ".",
                "seat": s,
                "point": worst["point"],
                "params": worst["params"],
                "win_rate": w["win_rate"],
                "ci95": w["ci95"],
                "band": [lo, hi],
                "points_outside": [p["point"] for p in outside],
            }
        )
    if not any_out:
        out.append(
            {
                "kind": "fairness",
                "text": f"Every seat's win rate is inside the {band_text} fairness band "
                + (f"at all {len(points)} points." if multi else "."),
                "band": [lo, hi],
                "points_outside": [],
            }
        )

    if multi:
        fair = data["fairness"]["fair_share"]
        best = min(points, key=lambda p: max(abs(x["win_rate"] - fair) for x in p["seats"]))
        gap = max(abs(x["win_rate"] - fair) for x in best["seats"])
        out.append(
            {
                "kind": "fairest",
                "text": f"The fairest point is {_where(best['params'])}: every seat within {100 * gap:.1f} points "
                f"of {_pct(fair)} (" + ", ".join(
                    f"seat {x['seat']} {_rate_ci(x['win_rate'], x['ci95'])}" for x in best["seats"]
                ) + ").",
                "point": best["point"],
                "params": best["params"],
                "max_gap": gap,
            }
        )

    # Trends along each swept parameter: first value against last (Newcombe interval).
    for axis in data["by_axis"]:
        series = axis["series"]
        if len(series) < 2:
            continue
        first, last = series[0], series[-1]
        pooled = f" (pooled over {', '.join(axis['pooled_over'])})" if axis["pooled_over"] else ""
        for s in range(n_seats):
            a, b = first["seats"][s], last["seats"][s]
            d, dlo, dhi = newcombe(a["wins"], a["games"], b["wins"], b["games"])
            cross = []
            fair = data["fairness"]["fair_share"]
            for u, v in itertools.pairwise(series):
                ru, rv = u["seats"][s]["win_rate"] - fair, v["seats"][s]["win_rate"] - fair
                if ru * rv < 0:
                    cross.append((u["value"], v["value"]))
            if dlo > 0 or dhi < 0:
                verb = "rises" if d > 0 else "falls"
                text = (
                    f"As {axis['name']} goes from {_value(first['value'])} to {_value(last['value'])}{pooled}, "
                    f"{seat_label[s]}'s win rate {verb} from {_pct(a['win_rate'])} to {_pct(b['win_rate'])}: "
                    f"{100 * d:+.1f} points (95% CI {100 * dlo:+.1f} to {100 * dhi:+.1f})"
                )
            else:
                text = (
                    f"Along {axis['name']} ({_value(first['value'])} to {_value(last['value'])}){pooled}, "
                    f"{seat_label[s]}'s win rate shows no clear change: {100 * d:+.1f} points "
                    f"(95% CI {100 * dlo:+.1f} to {100 * dhi:+.1f})"
                )
            if cross:
                text += "; it crosses " + _pct(fair) + " between " + " and between ".join(
                    f"{axis['name']}={_value(u)} and {_value(v)}" for u, v in cross
                )
            out.append(
                {
                    "kind": "trend",
                    "text": text + ".",
                    "axis": axis["name"],
                    "seat": s,
                    "from": first["value"],
                    "to": last["value"],
                    "difference": d,
                    "ci95": [dlo, dhi],
                    "crossings": [list(c) for c in cross],
                }
            )
        t0, t1 = first["turns"], last["turns"]
        if t0["median"] == t1["median"]:
            median = f"the median game stays at {t0['median']} turns"
        else:
            median = f"the median game goes from {t0['median']} to {t1['median']} turns"
        out.append(
            {
                "kind": "length",
                "text": f"As {axis['name']} goes from {_value(first['value'])} to {_value(last['value'])}{pooled}, "
                f"{median} (mean {_num(t0['mean'], 1)} ± {_num(1.96 * t0['mean_se'], 2)} to "
                f"{_num(t1['mean'], 1)} ± {_num(1.96 * t1['mean_se'], 2)}).",
                "axis": axis["name"],
                "median": [t0["median"], t1["median"]],
                "mean": [t0["mean"], t1["mean"]],
                "mean_se": [t0["mean_se"], t1["mean_se"]],
            }
        )

    if not multi:
        t = points[0]["turns"]
        out.append(
            {
                "kind": "length",
                "text": f"The median game lasts {t['median']} turns (p10 {t['p10']}, p90 {t['p90']}; "
                f"mean {_num(t['mean'], 1)} ± {_num(1.96 * t['mean_se'], 2)}).",
                "median": t["median"],
                "mean": t["mean"],
            }
        )

    # Players (strategies) when several play.
    if len(manifest["strategies"]) > 1:
        for k, name in enumerate(manifest["strategies"]):
            rates = [(p, p["strategies"][k]) for p in points if p["strategies"][k]["games"]]
            if not rates:
                continue
            lo_p, lo_s = min(rates, key=lambda x: x[1]["win_rate"])
            hi_p, hi_s = max(rates, key=lambda x: x[1]["win_rate"])
            if multi:
                text = (
                    f"Player {name} wins {_rate_ci(lo_s['win_rate'], lo_s['ci95'])} of the games it plays at "
                    f"{_where(lo_p['params'])} and {_rate_ci(hi_s['win_rate'], hi_s['ci95'])} at {_where(hi_p['params'])}."
                )
            else:
                text = f"Player {name} wins {_rate_ci(hi_s['win_rate'], hi_s['ci95'])} of the games it plays."
            out.append(
                {
                    "kind": "player",
                    "text": text,
                    "player": name,
                    "lowest": {"point": lo_p["point"], "win_rate": lo_s["win_rate"], "ci95": lo_s["ci95"]},
                    "highest": {"point": hi_p["point"], "win_rate": hi_s["win_rate"], "ci95": hi_s["ci95"]},
                }
            )

    # End reasons: how often games end each way, and where most often.
    for reason in manifest["end_reasons"]:
        shares = [(p, p["end_reason_shares"][reason]) for p in points]
        top_p, top = max(shares, key=lambda x: x[1]["share"])
        low_p, low = min(shares, key=lambda x: x[1]["share"])
        if top["share"] == 0:
            continue
        cap = bool(CAP_WORDS.search(reason))
        verb = f"hit the {reason}" if cap else f"end by {reason}"
        if multi and top["share"] != low["share"]:
            text = (
                f"Games {verb} in {_rate_ci(top['share'], top['ci95'])} of games at {_where(top_p['params'])} "
                f"(least: {_rate_ci(low['share'], low['ci95'])} at {_where(low_p['params'])})"
            )
        else:
            text = f"Games {verb} in {_rate_ci(top['share'], top['ci95'])} of games" + (
                " at every point" if multi else ""
            )
        if cap and top["share"] > 0.01:
            text += "; more than 1% of games stopped by a cap usually means the rules can stall"
        out.append(
            {
                "kind": "end_reason",
                "text": text + ".",
                "end_reason": reason,
                "cap_like": cap,
                "highest": {"point": top_p["point"], "share": top["share"], "ci95": top["ci95"]},
                "lowest": {"point": low_p["point"], "share": low["share"], "ci95": low["ci95"]},
            }
        )

    nw = [(p, p["no_winner_rate"]) for p in points]
    top_p, top = max(nw, key=lambda x: x[1]["rate"])
    if top["rate"] > 0:
        out.append(
            {
                "kind": "no_winner",
                "text": f"Nobody wins {_rate_ci(top['rate'], top['ci95'])} of games at {_where(top_p['params'])}"
                + (" (the most of any point)." if multi else "."),
                "point": top_p["point"],
                "rate": top["rate"],
                "ci95": top["ci95"],
            }
        )
    return out


# --------------------------------------------------------------------------- figures
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
        ax.set_xticks(xs, [_value(v) for v in values])


def fig_win_rate(data: Mapping[str, Any], axis: Mapping[str, Any], by: str, manifest: Mapping[str, Any]) -> Any:
    """Win rate per seat (``by="seats"``) or per player (``"strategies"``) against the value."""
    series = axis["series"]
    values = [s["value"] for s in series]
    xs, numeric = _positions(axis, values)
    fig = _new_figure()
    ax = fig.add_subplot()
    lo, hi = data["fairness"]["band"]
    ax.axhspan(100 * lo, 100 * hi, color="#999999", alpha=0.15, lw=0, label=f"fairness band {_band(lo, hi)}")
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
            err = [[r - l for r, l in zip(rates, los)], [h - r for r, h in zip(rates, his)]]
            ax.errorbar(xs, rates, yerr=err, marker="o", ms=5, capsize=4, color=color, label=label, ls="-" if len(xs) > 1 else "none")
    _set_xticks(ax, axis, values, xs, numeric)
    ax.set_ylabel("win rate (%)" if by == "seats" else "win rate in the games it plays (%)")
    ax.legend(loc="best", fontsize=9, frameon=False)
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
    ax.set_xticks(xs, [_value(v) for v in values])
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
    ax.set_xticks(range(nx), [_value(v) for v in hm["x_values"]])
    ax.set_yticks(range(ny), [_value(v) for v in hm["y_values"]])
    ax.set_xlabel(hm["x"])
    ax.set_ylabel(hm["y"])
    if nx * ny <= 200:
        finite = grid[np.isfinite(grid)]
        mid = (finite.min() + finite.max()) / 2 if finite.size else 0
        for y in range(ny):
            for x in range(nx):
                if np.isfinite(grid[y, x]):
                    v = grid[y, x]
                    text = f"{v:.0f}" if what == "length" else f"{v:.1f}"
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
        axes = [{"name": "point", "kind": "choice", "pooled_over": [], "series": [{"value": _where(p["params"]), **p}]}]
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
    return figs


# --------------------------------------------------------------------------- HTML
_CSS = """
:root { --ink: #1d1d1f; --muted: #5f6368; --rule: #d9d9de; --accent: #1f77b4; --warn: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 40px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 32px 0 8px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 20px 0 4px; }
p.lede { color: var(--muted); margin: 0 0 12px; }
ul.findings { padding-left: 20px; }
ul.findings li { margin: 4px 0; }
ul.findings li.fairness, ul.findings li.incomplete { color: var(--warn); }
figure { margin: 12px 0 20px; break-inside: avoid; page-break-inside: avoid; }
figure svg { display: block; width: 100%; height: auto; max-height: 520px; }
figcaption { color: var(--muted); font-size: 13px; }
figcaption b { color: var(--ink); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 12.5px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--rule); text-align: right; white-space: nowrap; }
th { background: #f5f5f7; position: sticky; top: 0; }
td.l, th.l { text-align: left; }
footer { margin-top: 36px; border-top: 1px solid var(--rule); padding-top: 10px; color: var(--muted); font-size: 13px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { white-space: pre-wrap; word-break: break-all; background: #f5f5f7; padding: 8px; margin: 4px 0; }
@media print {
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  h2 { break-after: avoid; page-break-after: avoid; }
  .scroll { overflow: visible; }
  table { font-size: 8pt; }
  th { position: static; }
}
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _table(data: Mapping[str, Any], manifest: Mapping[str, Any]) -> str:
    n_seats = len(manifest["players"])
    several = len(manifest["strategies"]) > 1
    axes = [a["name"] for a in data["axes"] if len(a["values"]) > 1] or [a["name"] for a in data["axes"]]
    head = ["point", *axes, "games"]
    head += [f"seat {s}" + ("" if manifest["rotate_seats"] else f" ({manifest['players'][s]})") + " wins" for s in range(n_seats)]
    if several:
        head += [f"{name} wins" for name in manifest["strategies"]]
    head += ["no winner"] + [f"end: {r}" for r in manifest["end_reasons"]]
    head += ["mean turns (95% CI)", "median (95% CI)", "p10–p90", "max"]
    rows = []
    for p in data["points"]:
        t = p["turns"]
        cells = [str(p["point"]), *(_value(p["params"][a]) for a in axes), f"{p['games']:,}"]
        cells += [_rate_ci(s["win_rate"], s["ci95"]) for s in p["seats"]]
        if several:
            cells += [_rate_ci(s["win_rate"], s["ci95"]) for s in p["strategies"]]
        cells.append(_rate_ci(p["no_winner_rate"]["rate"], p["no_winner_rate"]["ci95"]))
        cells += [_rate_ci(p["end_reason_shares"][r]["share"], p["end_reason_shares"][r]["ci95"]) for r in manifest["end_reasons"]]
        cells += [
            f"{t['mean']:.2f} ({t['mean_ci95'][0]:.2f}–{t['mean_ci95'][1]:.2f})",
            f"{t['median']} ({t['median_ci95'][0]}–{t['median_ci95'][1]})",
            f"{t['p10']}–{t['p90']}",
            str(t["max"]),
        ]
        rows.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
    return (
        '<div class="scroll"><table id="points-table"><thead><tr>'
        + "".join(f"<th>{_e(h)}</th>" for h in head)
        + "</tr></thead><tbody>\n"
        + "\n".join(rows)
        + "\n</tbody></table></div>"
    )


def _rules_table(data: Mapping[str, Any]) -> str:
    info = data["param_info"]
    swept = set(data["swept"])
    rows = []
    for name, value in data["rules"].items():
        meaning = info.get(name, {}).get("meaning", "")
        shown = "swept" if name in swept else _value(value)
        default = info.get(name, {}).get("default")
        mark = "" if name in swept or default is None or default == value else " (default " + _value(default) + ")"
        rows.append(f'<tr><td class="l"><code>{_e(name)}</code></td><td>{_e(shown + mark)}</td><td class="l">{_e(meaning)}</td></tr>')
    return (
        '<div class="scroll"><table id="rules-table"><thead><tr><th class="l">parameter</th><th>value</th>'
        '<th class="l">meaning</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></div>"
    )


def render_html(data: Mapping[str, Any], figures: Sequence[Mapping[str, Any]], manifest: Mapping[str, Any]) -> str:
    run = data["run"]
    swept = data["swept"]
    title = f"{data['title']}: sweep of {', '.join(swept)}" if swept else f"{data['title']}: one rule set"
    players = ", ".join(run["players"]) + (" (seats rotated)" if run["rotate_seats"] else "")
    lede = (
        f"{data['points_finished']:,} point{'s' if data['points_finished'] != 1 else ''} × "
        f"{run['games_per_point']:,} games, players {players}, seed {run['seed']}. "
        "Every figure carries its 95% interval; the same games (seeds) are played at every point."
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{_CSS}</style></head><body><main>",
        f"<header><h1>{_e(title)}</h1><p class=\"lede\">{_e(lede)}</p></header>",
        '<section id="findings"><h2>Findings</h2><ul class="findings">',
    ]
    parts += [f'<li class="{_e(f["kind"])}">{_e(f["text"])}</li>' for f in data["findings"]]
    parts.append("</ul></section>")
    section = None
    for k, f in enumerate(figures):
        if f["section"] != section:
            if section is not None:
                parts.append("</section>")
            section = f["section"]
            sid = re.sub(r"[^A-Za-z0-9_-]+", "-", section)
            parts.append(f'<section id="sec-{_e(sid)}"><h2>{_e(section)}</h2>')
        parts.append(
            f'<figure id="fig-{_e(f["id"])}">{f["svg"]}'
            f"<figcaption><b>{_e(f['title'])}.</b> {_e(f['caption'])}</figcaption></figure>"
        )
    if section is not None:
        parts.append("</section>")
    parts.append('<section id="points"><h2>Every point</h2>')
    parts.append(
        "<p class=\"lede\">Win rates and end-reason shares with 95% Wilson intervals; mean length with its 95% "
        "interval; median with a distribution-free 95% interval.</p>"
    )
    parts.append(_table(data, manifest))
    parts.append("</section>")
    parts.append('<section id="rules"><h2>Rules played</h2>')
    parts.append(_rules_table(data))
    parts.append("</section>")
    versions = ", ".join(f"{k} {v}" for k, v in (run.get("versions") or {}).items())
    resumed = len(run.get("sessions") or [])
    parts.append(
        '<footer id="reproduce"><h3>Reproduce</h3>'
        f"<pre>{_e(run.get('command') or '')}</pre>"
        f"<p>Seed {_e(run['seed'])} · {_e(run['games_per_point'])} games per point · "
        f"versions: {_e(versions)} · commit {_e(run.get('commit') or 'unknown')} · "
        f"created {_e(run.get('created') or '')}"
        + (f" · played in {resumed} sessions (resumed)" if resumed > 1 else "")
        + (f" · board sha256 {_e(run['board_sha256'][:12])}" if run.get("board_sha256") else "")
        + ". Same command, same numbers: game g uses the random stream of (seed, g) at every point.</p></footer>"
    )
    parts.append("</main></body></html>\n")
    return "\n".join(parts)


# --------------------------------------------------------------------------- entry point
def report(
    run_dir: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    png: str | os.PathLike[str] | None = None,
    band: tuple[float, float] | None = None,
) -> ReportResult:
    """Write the HTML report of a sweep run and its JSON twin (``out`` with ``.json``).

    ``out`` defaults to ``<run_dir>/report.html``.  ``png`` also writes the main
    figure (win rate by seat against the first swept parameter) as a PNG.
    """
    from balance.store import atomic_write_bytes, open_run

    run = Path(run_dir)
    if not run.is_dir():
        raise UserError(f"{run_dir}: no such directory; give a run directory written by 'balance sweep'")
    out_path = Path(out) if out is not None else run / "report.html"
    if out_path.is_dir():
        raise UserError(f"-o {out}: is a directory; give a file name such as report.html")
    if png is not None and Path(png).is_dir():
        raise UserError(f"--png {png}: is a directory; give a file name such as figure.png")
    if band is not None and not (0 <= band[0] < band[1] <= 1):
        raise UserError(f"fairness band {band}: expected two shares 0 <= low < high <= 1")
    manifest, aggregates = open_run(run)
    if not aggregates:
        raise UserError(f"{run_dir}: no finished point yet; run or resume the sweep first")
    data = report_data(manifest, aggregates, band)
    figures = build_figures(data, manifest)
    for k, f in enumerate(figures):
        f["svg"] = svg_inline(f["figure"], f"f{k}", f["title"])
    page = render_html(data, figures, manifest)
    data = dict(data)
    data["figures"] = [{"id": f["id"], "title": f["title"], "caption": f["caption"]} for f in figures]
    json_path = out_path.with_suffix(".json")
    atomic_write_bytes(out_path, page.encode("utf-8"))
    atomic_write_bytes(json_path, (json.dumps(_finite(data), indent=1, default=_json_default) + "\n").encode("utf-8"))
    png_path = None
    if png is not None:
        import matplotlib

        png_path = Path(png)
        buf = io.BytesIO()
        main_figure = figures[0]["figure"]
        main_figure.suptitle(f"{data['title']}: {figures[0]['title'].lower()}", fontsize=12)
        with matplotlib.rc_context(_RC):
            main_figure.savefig(buf, format="png", dpi=150, metadata={"Software": None})
        atomic_write_bytes(png_path, buf.getvalue())
    return ReportResult(out_path, json_path, png_path, data)


def _json_default(value: Any) -> Any:
    from balance.store import _json_default as default

    return default(value)


def _finite(value: Any) -> Any:
    """NaN and infinities (e.g. the standard error of one game) as null: strict JSON."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


class _CallableModule(type(sys)):
    """``balance.report`` is both this module and the API function (see balance/sweep.py)."""

    def __call__(self, *args: Any, **kwargs: Any) -> ReportResult:
        return report(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
