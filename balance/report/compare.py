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
  its list, the intervals of the two leading reasons apart);
* how games end along a swept parameter: an end reason's share rises from the
  first value to the last under one list and falls under another;
* game length along a swept parameter: the mean rises under one list and falls
  under another (both 95% intervals clear of zero).

A finding *changes size between players* when the same move (a seat's win
rate, an end reason's share) differs between two lists by more than SIZE
points and the 95% interval of that difference is clear of zero (the lists'
intervals combined as if independent: the lists play the same seeds, so this
is conservative).

Each finding names the players and the point, with the figures behind it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from balance import format as fmt
from balance.report.findings import where
from balance.stats import newcombe

Finding = dict[str, Any]
SIZE = 0.05  # a move that differs by less between two lists is not called a change of size
Z95 = 1.959963984540054


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


def _share_move(first: Mapping[str, Any], last: Mapping[str, Any], count: str, name: str) -> tuple[int, float, float, float]:
    """The move of a share from the first value of an axis to the last: its
    sign (1 up, -1 down, 0 cannot tell), the difference in points and its
    Newcombe interval."""
    d, lo, hi = newcombe(first[count][name], first["games"], last[count][name], last["games"])
    return (1 if lo > 0 else -1 if hi < 0 else 0, d, lo, hi)


def _size_change(moves: Sequence[tuple[int, float, float, float]]) -> tuple[int, int, float, float, float] | None:
    """The two lists whose moves differ most, when by more than SIZE with a
    95% interval clear of zero: (list a, list b, difference, low, high)."""
    best = None
    for a, b in itertools.combinations(range(len(moves)), 2):
        da, db = moves[a][1], moves[b][1]
        se = math.hypot((moves[a][3] - moves[a][2]) / (2 * Z95), (moves[b][3] - moves[b][2]) / (2 * Z95))
        diff = da - db
        lo, hi = diff - Z95 * se, diff + Z95 * se
        if abs(diff) > SIZE and (lo > 0 or hi < 0) and (best is None or abs(diff) > abs(best[2])):
            best = (a, b, diff, lo, hi)
    return best


def _points(move: tuple[int, float, float, float]) -> str:
    text = fmt.points_ci(move[1], move[2:])
    return f"{text[0]} points, 95% CI {text[1]} to {text[2]}"


def end_reason_trends(labels: Sequence[str], datas: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """An end reason's share along each swept parameter, list against list:
    rising under one and falling under another (a change of sign), or moving
    the same way by clearly different amounts (a change of size)."""
    out: list[Finding] = []
    for axis in datas[0]["by_axis"]:
        name = axis["name"]
        series = [next(a for a in d["by_axis"] if a["name"] == name)["series"] for d in datas]
        if len(series[0]) < 2:
            continue
        v0, v1 = fmt.format_value(series[0][0]["value"]), fmt.format_value(series[0][-1]["value"])
        for reason in series[0][0]["end_reasons"]:
            moves = [_share_move(ser[0], ser[-1], "end_reasons", reason) for ser in series]
            if max(abs(m[1]) for m in moves) == 0:
                continue
            signs = [m[0] for m in moves]
            if 1 in signs and -1 in signs:
                up, down = signs.index(1), signs.index(-1)
                out.append({
                    "kind": "sign", "axis": name, "end_reason": reason,
                    "text": f"As {name} goes from {v0} to {v1}, games ending by {reason} rise with {labels[up]} "
                    f"({_points(moves[up])}) but fall with {labels[down]} ({_points(moves[down])}).",
                })
                continue
            size = _size_change(moves)
            if size is not None:
                a, b, diff, lo, hi = size
                way = "rise" if moves[a][1] + moves[b][1] > 0 else "fall"
                way = f"{way} with both" if moves[a][0] == moves[b][0] != 0 else "move"
                out.append({
                    "kind": "size", "axis": name, "end_reason": reason,
                    "text": f"As {name} goes from {v0} to {v1}, games ending by {reason} {way}, by "
                    f"{_points(moves[a])} with {labels[a]} and by {_points(moves[b])} with {labels[b]}: a "
                    f"difference of {fmt.points(diff)} points (95% CI {fmt.points(lo)} to {fmt.points(hi)}).",
                })
    return out


def length_trends(labels: Sequence[str], datas: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """The mean game length along each swept parameter, list against list."""
    out: list[Finding] = []
    for axis in datas[0]["by_axis"]:
        name = axis["name"]
        series = [next(a for a in d["by_axis"] if a["name"] == name)["series"] for d in datas]
        if len(series[0]) < 2:
            continue
        moves = []
        for ser in series:
            a, b = ser[0]["turns"], ser[-1]["turns"]
            d = b["mean"] - a["mean"]
            half = Z95 * math.hypot(a["mean_se"], b["mean_se"])
            moves.append((1 if d - half > 0 else -1 if d + half < 0 else 0, d, d - half, d + half))
        signs = [m[0] for m in moves]
        if 1 in signs and -1 in signs:
            up, down = signs.index(1), signs.index(-1)
            v0, v1 = fmt.format_value(series[0][0]["value"]), fmt.format_value(series[0][-1]["value"])
            out.append({
                "kind": "sign", "axis": name,
                "text": f"As {name} goes from {v0} to {v1}, games get longer with {labels[up]} "
                f"({moves[up][1]:+.1f} turns, 95% CI {moves[up][2]:+.1f} to {moves[up][3]:+.1f}) but shorter with "
                f"{labels[down]} ({moves[down][1]:+.1f} turns, {moves[down][2]:+.1f} to {moves[down][3]:+.1f}).",
            })
    return out


def between_players(labels: Sequence[str], datas: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """Every finding that changes between the player lists, or one line saying none does."""
    found = (
        seat_edges(labels, datas) + trends(labels, datas) + end_reasons(labels, datas)
        + end_reason_trends(labels, datas) + length_trends(labels, datas)
    )
    for f in found:
        f["verdict"] = "unsure"  # a finding that holds for one list and not another: read it with its players
    if not found:
        from balance.summary import detectable_shift

        lists = "; ".join(labels)
        games = min(p["games"] for d in datas for p in d["points"])
        fair = 1.0 / len(datas[0]["points"][0]["seats"])
        edge = detectable_shift(games, fair)
        found.append(
            {
                "kind": "note",
                "verdict": "info",
                "text": f"No finding changes sign or size between the player lists ({lists}): no seat's edge, trend along a "
                "swept parameter (win rates, end reasons, length) or leading end reason is clearly one way under one "
                "list and the other way under another, or clearly larger under one "
                f"(at {games:,} games a point, a seat edge smaller than {fmt.points(edge, 1, sign=False)} points "
                "would usually not show either way).",
                "detectable_seat_edge": edge,
            }
        )
    return found
