"""What changes between player lists: the same sweep played by several lists of
players (``balance sweep --players A --players B``), compared point by point.

A finding *changes sign between players* when one list shows it clearly one way
and another list clearly the other way, each with its 95% interval:

* a seat's edge: its win rate above the fair share under one list and below it
  under another (both Wilson intervals clear of the fair share);
* a trend along a swept parameter: a seat's win rate rises from the first value
  to the last under one list and falls under another (both Newcombe intervals
  clear of zero);
* how games end: the most common end reason differs (each the clear leader of
  its list, the intervals of the two leading reasons apart).

Each finding names the players and the point, with the figures behind it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from balance import format as fmt
from balance.report.findings import where
from balance.stats import newcombe

Finding = dict[str, Any]


def _sign_of_edge(seat: Mapping[str, Any], fair: float) -> int:
    lo, hi = seat["ci95"]
    return 1 if lo > fair else -1 if hi < fair else 0


def seat_edges(labels: Sequence[str], datas: Sequence[Mapping[str, Any]]) -> list[Finding]:
    out: list[Finding] = []
    n_seats = len(datas[0]["points"][0]["seats"])
    fair = 1.0 / n_seats
    by_point = [{p["point"]: p for p in d["points"]} for d in datas]
    points = sorted(set.intersection(*(set(b) for b in by_point)))
    for s in range(n_seats):
        flips = []
        for i in points:
            signs = [_sign_of_edge(b[i]["seats"][s], fair) for b in by_point]
            if 1 in signs and -1 in signs:
                flips.append((i, signs))
        if not flips:
            continue
        i, signs = flips[0]
        up, down = signs.index(1), signs.index(-1)
        a, b = by_point[up][i]["seats"][s], by_point[down][i]["seats"][s]
        text = (
            f"Seat {s}'s edge changes sign between players at {where(by_point[up][i]['params'])}: it wins "
            f"{fmt.percent_ci(a['win_rate'], a['ci95'])} with {labels[up]} but {fmt.percent_ci(b['win_rate'], b['ci95'])} "
            f"with {labels[down]} (fair share {fmt.percent(fair)}, n={a['games']:,} each)"
        )
        if len(flips) > 1:
            text += f"; it does so at {len(flips)} of {len(points)} points"
        out.append({"kind": "sign", "text": text + ".", "seat": s, "points": [f[0] for f in flips]})
    return out


def trends(labels: Sequence[str], datas: Sequence[Mapping[str, Any]]) -> list[Finding]:
    out: list[Finding] = []
    for axis in datas[0]["by_axis"]:
        name = axis["name"]
        series = [next(a for a in d["by_axis"] if a["name"] == name)["series"] for d in datas]
        n_seats = len(series[0][0]["seats"])
        for s in range(n_seats):
            moves = []
            for ser in series:
                x, y = ser[0]["seats"][s], ser[-1]["seats"][s]
                d, lo, hi = newcombe(x["wins"], x["games"], y["wins"], y["games"])
                moves.append((1 if lo > 0 else -1 if hi < 0 else 0, d, lo, hi))
            signs = [m[0] for m in moves]
            if 1 in signs and -1 in signs:
                up, down = signs.index(1), signs.index(-1)
                v0, v1 = fmt.format_value(series[0][0]["value"]), fmt.format_value(series[0][-1]["value"])
                ups = fmt.points_ci(moves[up][1], moves[up][2:])
                downs = fmt.points_ci(moves[down][1], moves[down][2:])
                out.append(
                    {
                        "kind": "sign",
                        "text": f"As {name} goes from {v0} to {v1}, seat {s}'s win rate rises with {labels[up]} "
                        f"({ups[0]} points, 95% CI {ups[1]} to {ups[2]}) but falls with {labels[down]} "
                        f"({downs[0]} points, 95% CI {downs[1]} to {downs[2]}).",
                        "axis": name,
                        "seat": s,
                    }
                )
    return out


def _leader(point: Mapping[str, Any]) -> tuple[str, bool]:
    shares = point["end_reason_shares"]
    ranked = sorted(shares, key=lambda r: -shares[r]["share"])
    first = shares[ranked[0]]
    clear = len(ranked) < 2 or first["ci95"][0] > shares[ranked[1]]["ci95"][1]
    return ranked[0], clear


def end_reasons(labels: Sequence[str], datas: Sequence[Mapping[str, Any]]) -> list[Finding]:
    by_point = [{p["point"]: p for p in d["points"]} for d in datas]
    points = sorted(set.intersection(*(set(b) for b in by_point)))
    changed = []
    for i in points:
        leaders = [_leader(b[i]) for b in by_point]
        clear = [(k, r) for k, (r, ok) in enumerate(leaders) if ok]
        if len({r for _, r in clear}) > 1:
            changed.append((i, clear))
    if not changed:
        return []
    i, clear = changed[0]
    parts = [
        f"{r} ({fmt.percent_ci(by_point[k][i]['end_reason_shares'][r]['share'], by_point[k][i]['end_reason_shares'][r]['ci95'])}) "
        f"with {labels[k]}"
        for k, r in clear
    ]
    text = f"How games end depends on the players at {where(by_point[0][i]['params'])}: mostly " + ", but mostly ".join(parts)
    if len(changed) > 1:
        text += f"; the leading end reason differs at {len(changed)} of {len(points)} points"
    return [{"kind": "sign", "text": text + ".", "points": [c[0] for c in changed]}]


def between_players(labels: Sequence[str], datas: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """Every finding that changes between the player lists, or one line saying none does."""
    found = seat_edges(labels, datas) + trends(labels, datas) + end_reasons(labels, datas)
    for f in found:
        f["verdict"] = "unsure"  # a finding that holds for one list and not another: read it with its players
    if not found:
        from balance.summary import detectable_shift

        pairs = ", ".join(" and ".join(p) for p in itertools.combinations(labels, 2))
        games = min(p["games"] for d in datas for p in d["points"])
        fair = 1.0 / len(datas[0]["points"][0]["seats"])
        edge = detectable_shift(games, fair)
        found.append(
            {
                "kind": "note",
                "verdict": "info",
                "text": f"No finding changes sign between players ({pairs}): no seat's edge, trend along a swept "
                "parameter or leading end reason is clearly one way under one list and the other way under another "
                f"(at {games:,} games a point, a seat edge smaller than {fmt.points(edge, 1, sign=False)} points "
                "would usually not show either way).",
                "detectable_seat_edge": edge,
            }
        )
    return found
