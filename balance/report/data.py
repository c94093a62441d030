"""Every number of a sweep's report (its JSON twin), computed from the stored counts.

Nothing here plays a game: the figures come from the run directory's
aggregates (:func:`balance.store.open_run`).  Per point: the summary of
:mod:`balance.summary` plus intervals of the mean and median length; per swept
parameter: the points pooled by value; per pair of swept parameters: a grid
of cells; for a game with a per-cell heatmap, how often each cell is used.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from balance.report.findings import findings, summary

REPORT_FORMAT = "balance-report/1"
FAIR_TOLERANCE = 0.10  # relative: the band is fair share × (1 ± 0.10); a player's, its own share × the same
MAX_HEATMAP_PAIRS = 6
MAX_HEAT_POINTS = 4  # cell heatmaps of every point up to this many, else of the first and the last


def _summary(agg: Any, manifest: Mapping[str, Any]) -> dict[str, Any]:
    from balance.stats import hist_quantile_ci
    from balance.summary import summarize

    seat_players = ["rotated"] * len(manifest["players"]) if manifest["rotate_seats"] else manifest["players"]
    s = summarize(
        agg, manifest["strategies"], seat_players, manifest["end_reasons"], manifest["score_name"], manifest.get("feel")
    )
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
    data["fairness"]["players"] = player_fairness(points, band, fair)
    if len(points) == 1:  # one rule set: its figures draw the whole length histogram
        import numpy as np

        data["length_hist"] = [int(x) for x in np.trim_zeros(np.asarray(aggregates[points[0]["point"]].turns_hist), "b")]
    heat = cell_heat(manifest, aggregates)
    if heat is not None:  # only games that opt into a per-cell heatmap
        data["cell_heat"] = heat
    data["findings"] = findings(data, manifest, aggregates)
    data["summary"] = summary(data, manifest)
    return data


def player_fairness(points: Sequence[Mapping[str, Any]], band: Sequence[float], fair: float) -> list[dict[str, Any]]:
    """Each player's seats (held per game), fair share (those seats over the
    seats) and band (the seats' band scaled to its share): a player in two of
    four seats is judged against 50%, not 25%."""
    out = []
    for row in points[0]["strategies"] if points else []:
        k = row["fair_share"] / fair if fair else 1.0
        out.append(
            {
                "player": row["player"],
                "seats": row["seats"],
                "fair_share": row["fair_share"],
                "band": [min(1.0, band[0] * k), min(1.0, band[1] * k)],
            }
        )
    return out


def heat_points(finished: Sequence[int]) -> list[int]:
    """The points whose cell heatmap the report draws: every point up to
    :data:`MAX_HEAT_POINTS`, else the first and the last."""
    finished = sorted(finished)
    if len(finished) <= MAX_HEAT_POINTS:
        return finished
    return [finished[0], finished[-1]]


def cell_heat(manifest: Mapping[str, Any], aggregates: Mapping[int, Any]) -> dict[str, Any] | None:
    """How often each cell is used, per game, at the points :func:`heat_points`
    picks (None: the game has no heatmap).  ``per_game[r][c]``: the times cell
    ``(r, c)`` was used, summed over the point's games, divided by its games."""
    shape = (manifest.get("heatmap") or {}).get("shape")
    if not shape:
        return None
    rows, cols = int(shape[0]), int(shape[1])
    points = []
    for i in heat_points([i for i in aggregates if aggregates[i].heat is not None and aggregates[i].games]):
        agg = aggregates[i]
        grid = agg.heat.reshape(rows, cols) / agg.games
        points.append(
            {
                "point": i,
                "params": manifest["points"][i],
                "games": int(agg.games),
                "total": int(agg.heat.sum()),
                "per_game": grid.tolist(),
            }
        )
    return {"shape": [rows, cols], "points": points}
