"""The report's findings: plain-word statements computed from a sweep's figures.

Each finding is one small function of a :class:`Context` (the report's data,
the run's manifest and its counts) returning the statements it makes, each a
dict with its ``kind``, its ``text``, its ``verdict`` (``good``, ``bad``,
``unsure`` or ``info``: the page colours a statement by it,
:mod:`balance.report.html`) and the numbers behind it.  :data:`FINDINGS` lists
them in the order the report shows them; :func:`findings` runs them all.
Adding a finding is adding a function to that list.  :func:`summary` makes the
one or two sentences of the page's summary box from them.

Verdicts come from intervals, never from point estimates: a seat is *inside*
its fairness band when its whole 95% Wilson interval is, *outside* when the
whole interval is outside, and *cannot tell* otherwise
(:func:`balance.summary.band_verdict`).  A statement that something does not
change or does not show says how large it would have had to be to show
(:func:`balance.summary.detectable_shift`, 80% power).

**The fairest values** (:data:`FAIREST_RULE`).  A point's *distance* from a
fair share is its worst seat's ``|win rate - fair share|``; its interval comes
from that seat's Wilson interval (the distance of each end, 0 when the
interval holds the fair share; the largest over the seats).  The point with
the smallest distance is the best by estimate.  Another point is a candidate
too unless it is clearly less fair: the 95% interval of the difference of the
two distances (Newcombe's square-and-add of the two intervals) lies above 0.
The report names every candidate with its interval; several candidates mean
the data cannot tell them apart, and which one comes first changes with the
seed.  The intervals treat the points as independent samples; the points play
the same games (common random numbers), so the rule errs towards naming more
candidates, never fewer.

Every rate is shown with its 95% interval (:mod:`balance.format`).  Whether
an end reason is a cap comes from the manifest (``end_reason_info``: the
game's ``EndReason.is_cap``); a run recorded before it was there has no cap.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from balance import format as fmt
from balance.stats import newcombe
from balance.summary import CANNOT_TELL, INSIDE, OUTSIDE, POWER, band_verdict, detectable_shift

Finding = dict[str, Any]
GOOD, BAD, UNSURE, INFO = "good", "bad", "unsure", "info"

FAIREST_RULE = (
    "How the fairest values are decided: a point's distance from fairness is its worst seat's distance from the "
    "fair share, with an interval from that seat's 95% Wilson interval. The point with the smallest distance is "
    "the best by estimate; another point is a candidate as well unless the 95% interval of the difference of the "
    "two distances (Newcombe's square-and-add) lies wholly above 0. Several candidates cannot be told apart at "
    "this number of games: which one comes first changes with the seed."
)
BAND_RULE = (
    "Inside / outside / cannot tell: a win rate is inside its fairness band when its whole 95% Wilson interval "
    "lies in the band, outside when the whole interval lies out of it, and 'cannot tell' when the interval "
    "reaches across an edge."
)


@dataclass
class Context:
    """What every finding reads."""

    data: Mapping[str, Any]  # balance.report.data.report_data (without findings)
    manifest: Mapping[str, Any]
    aggregates: Mapping[int, Any]

    @property
    def points(self) -> list[Mapping[str, Any]]:
        return self.data["points"]

    @property
    def multi(self) -> bool:
        return len(self.points) > 1

    @property
    def band(self) -> tuple[float, float]:
        lo, hi = self.data["fairness"]["band"]
        return lo, hi

    @property
    def fair(self) -> float:
        return self.data["fairness"]["fair_share"]

    @property
    def n_seats(self) -> int:
        return len(self.manifest["players"])

    def seat_label(self, s: int) -> str:
        return f"seat {s}" + ("" if self.manifest["rotate_seats"] else f" ({self.manifest['players'][s]})")

    def player_band(self, k: int) -> Mapping[str, Any]:
        """Player ``k``'s seats, fair share and band (:func:`balance.report.data.player_fairness`)."""
        return self.data["fairness"]["players"][k]

    def is_cap(self, reason: str) -> bool:
        """Whether games ending this way were cut by the simulation (EndReason.is_cap)."""
        return any(r.get("name") == reason and r.get("is_cap") for r in self.manifest.get("end_reason_info") or ())

    @property
    def games(self) -> list[int]:
        return sorted({p["games"] for p in self.points})

    def games_text(self) -> str:
        return " or ".join(f"{g:,}" for g in self.games) + (" games a point" if self.multi else " games")


def where(params: Mapping[str, Any]) -> str:
    """``car_cost=10, bonus=2``, or ``the default rules``."""
    return ", ".join(f"{k}={fmt.format_value(v)}" for k, v in params.items()) or "the default rules"


def seats_held(held: float, n_seats: int) -> str:
    """``2 of 4 seats``."""
    k = int(round(held))
    text = str(k) if abs(held - k) < 1e-9 else f"{held:.2f}"
    return f"{text} of {n_seats} seat{'s' if n_seats != 1 else ''}"


def players_phrase(manifest: Mapping[str, Any]) -> str:
    """``plain and cautious (seats rotated)``, ``greedy (seat 0) and fleet (seat 1)``, ``plain in every seat``."""
    players = list(manifest["players"])
    if len(set(players)) == 1:
        return f"{players[0]} in every seat"
    if manifest["rotate_seats"]:
        names = list(dict.fromkeys(players))
        counted = [f"{p}" + (f" (×{players.count(p)})" if players.count(p) > 1 else "") for p in names]
        return _and(counted) + " (seats rotated)"
    return _and([f"{p} (seat {s})" for s, p in enumerate(players)])


def _and(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _names(points: Sequence[Mapping[str, Any]], limit: int = 5) -> str:
    names = [where(p["params"]) for p in points[:limit]]
    more = len(points) - limit
    return "; ".join(names) + (f"; and {more} more" if more > 0 else "")


# --------------------------------------------------------------------------- the findings
def incomplete(ctx: Context) -> list[Finding]:
    """Points not played yet."""
    d = ctx.data
    if d["points_finished"] >= d["points_total"]:
        return []
    return [
        {
            "kind": "incomplete",
            "verdict": UNSURE,
            "text": f"Only {d['points_finished']} of {d['points_total']} points are finished: "
            "run the same sweep again with --resume to complete it.",
            "finished": d["points_finished"],
            "total": d["points_total"],
        }
    ]


def measured_with(ctx: Context) -> list[Finding]:
    """The players every figure of the report holds for."""
    m = ctx.manifest
    players = list(m["players"])
    return [
        {
            "kind": "players",
            "verdict": INFO,
            "text": f"Measured with {players_phrase(m)}: every finding below holds for these players; stronger or "
            "different players can change it (balance tournament compares players).",
            "players": players,
            "rotate_seats": bool(m["rotate_seats"]),
        }
    ]


def seats_keep_players(ctx: Context) -> list[Finding]:
    """Different players in fixed seats: a seat's rate mixes seat and player."""
    m = ctx.manifest
    if len(set(m["players"])) <= 1 or m["rotate_seats"]:
        return []
    return [
        {
            "kind": "note",
            "verdict": INFO,
            "text": f"Each seat keeps its player ({', '.join(m['players'])}): a seat's win rate mixes "
            "the seat's edge with its player's strength; sweep with --rotate-seats to tell them apart.",
        }
    ]


def precision(ctx: Context) -> list[Finding]:
    """Games per point and the widest win-rate interval."""
    widest = max(max(s["ci95"][1] - s["win_rate"], s["win_rate"] - s["ci95"][0]) for p in ctx.points for s in p["seats"])
    where_ = "each point is" if ctx.multi else "the run is"
    text = f"{where_.capitalize()} {' or '.join(f'{g:,}' for g in ctx.games)} games"
    text += " with the same seeds at every point (common random numbers)" if ctx.multi else ""
    return [
        {
            "kind": "precision",
            "verdict": INFO,
            "text": f"{text}: every win-rate interval is within ±{fmt.points(widest, sign=False)} points.",
            "games_per_point": ctx.games,
            "max_half_width": widest,
        }
    ]


def power(ctx: Context) -> list[Finding]:
    """What the run could have shown: the smallest seat edge (and, with several
    points, the smallest change between two points) it detects with 80% power."""
    n = min(ctx.games)
    edge = detectable_shift(n, ctx.fair)
    change = detectable_shift(n, ctx.fair, two_sample=True)
    text = (
        f"Power: at {n:,} games{' a point' if ctx.multi else ''}, a seat whose win rate differs from its fair share "
        f"{fmt.percent(ctx.fair)} by less than {fmt.points(edge, 1, sign=False)} points would usually not show"
    )
    if ctx.multi:
        text += f", nor a change between two points smaller than {fmt.points(change, 1, sign=False)} points"
    text += (
        f" (two-sided 95% test, {POWER:.0%} power; say, a first seat winning {fmt.percent(ctx.fair + edge, 1)} "
        f"where {fmt.percent(ctx.fair, 1)} is fair): 'no clear change' below means no change that large."
    )
    return [
        {
            "kind": "power",
            "verdict": INFO,
            "text": text,
            "games": n,
            "power": POWER,
            "detectable_seat_edge": edge,
            "detectable_change": change if ctx.multi else None,
        }
    ]


def _verdicts(ctx: Context, s: int, band: tuple[float, float]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = {INSIDE: [], OUTSIDE: [], CANNOT_TELL: []}
    for p in ctx.points:
        out[band_verdict(p["seats"][s]["ci95"], band)].append(p)
    return out


def fairness(ctx: Context) -> list[Finding]:
    """Each seat against the fairness band, from its interval: where it is outside
    (and where worst), where the interval cannot tell, or that every seat is inside."""
    lo, hi = ctx.band
    band_text = fmt.band(lo, hi)
    points, multi, total = ctx.points, ctx.multi, len(ctx.points)
    out: list[Finding] = []
    for s in range(ctx.n_seats):
        v = _verdicts(ctx, s, (lo, hi))
        outside, unsure, inside = v[OUTSIDE], v[CANNOT_TELL], v[INSIDE]
        if not outside and not unsure:
            continue
        label = ctx.seat_label(s).capitalize()
        if outside:
            worst = max(outside, key=lambda p: abs(p["seats"][s]["win_rate"] - ctx.fair))
        else:
            worst = max(unsure, key=lambda p: abs(p["seats"][s]["win_rate"] - ctx.fair))
        w = worst["seats"][s]
        rate = fmt.percent_ci(w["win_rate"], w["ci95"])
        if outside:
            text = f"{label} wins {rate}" + (f" at {where(worst['params'])}" if multi else "")
            text += f", outside the {band_text} fairness band (its whole 95% interval)"
            if multi:
                text += f"; outside at {'all ' + str(total) if len(outside) == total else f'{len(outside)} of {total}'} points"
                if 1 < len(outside) <= 5 and len(outside) < total:
                    text += " (" + _names(outside) + ")"
            if unsure:
                text += f"; cannot tell at {len(unsure)}" + (f" ({_names(unsure)})" if multi and len(unsure) <= 5 else "")
            verdict = BAD
        else:
            text = f"{label} wins {rate}" + (f" at {where(worst['params'])}" if multi else "")
            text += (
                f": cannot tell whether it is inside the {band_text} fairness band (its 95% interval reaches across "
                "an edge; more games would tell)"
            )
            if multi and len(unsure) == total:
                text += f"; cannot tell at all {total} points"
            elif multi:
                text += f"; cannot tell at {len(unsure)} of {total} points" + (f" ({_names(unsure)})" if len(unsure) <= 5 else "")
            verdict = UNSURE
        if multi and inside:
            text += f"; inside at {len(inside)}"
        out.append(
            {
                "kind": "fairness",
                "verdict": verdict,
                "text": text + ".",
                "seat": s,
                "point": worst["point"],
                "params": worst["params"],
                "win_rate": w["win_rate"],
                "ci95": w["ci95"],
                "band": [lo, hi],
                "points_outside": [p["point"] for p in outside],
                "points_cannot_tell": [p["point"] for p in unsure],
                "points_inside": [p["point"] for p in inside],
            }
        )
    if not out:
        out.append(
            {
                "kind": "fairness",
                "verdict": GOOD,
                "text": f"Every seat's win rate is inside the {band_text} fairness band"
                + (f" at all {len(points)} points" if multi else "")
                + ": each whole 95% interval lies in the band.",
                "band": [lo, hi],
                "points_outside": [],
                "points_cannot_tell": [],
                "points_inside": [p["point"] for p in points],
            }
        )
    return out


def distance(point: Mapping[str, Any], fair: float) -> tuple[float, float, float]:
    """A point's distance from fairness (its worst seat's ``|win rate - fair
    share|``) and that distance's interval, from the seats' Wilson intervals."""
    d = lo = hi = 0.0
    for x in point["seats"]:
        a, b = x["ci95"]
        d = max(d, abs(x["win_rate"] - fair))
        lo = max(lo, 0.0 if a <= fair <= b else min(abs(a - fair), abs(b - fair)))
        hi = max(hi, abs(a - fair), abs(b - fair))
    return d, lo, hi


def fairest_candidates(points: Sequence[Mapping[str, Any]], fair: float) -> tuple[Mapping[str, Any], list[Mapping[str, Any]]]:
    """The best point by estimate and every point that cannot be told less fair
    than it (:data:`FAIREST_RULE`), the best first, then by distance."""
    dist = {p["point"]: distance(p, fair) for p in points}
    best = min(points, key=lambda p: (dist[p["point"]][0], p["point"]))
    db, _, hb = dist[best["point"]]
    candidates = []
    for p in points:
        d, lo, _ = dist[p["point"]]
        low = (d - db) - math.sqrt((d - lo) ** 2 + (hb - db) ** 2)
        if p is best or low <= 0:
            candidates.append(p)
    candidates.sort(key=lambda p: (p is not best, dist[p["point"]][0], p["point"]))
    return best, candidates


def _worst_seat(point: Mapping[str, Any], fair: float) -> Mapping[str, Any]:
    return max(point["seats"], key=lambda x: abs(x["win_rate"] - fair))


def _candidate_text(p: Mapping[str, Any], fair: float) -> str:
    x = _worst_seat(p, fair)
    return f"{where(p['params'])} (worst seat {x['seat']}: {fmt.percent_ci(x['win_rate'], x['ci95'])})"


def fairest(ctx: Context) -> list[Finding]:
    """The fairest points: the best by estimate and every point the data cannot
    tell less fair than it (several points only; :data:`FAIREST_RULE`)."""
    if not ctx.multi:
        return []
    fair = ctx.fair
    best, candidates = fairest_candidates(ctx.points, fair)
    gap = distance(best, fair)[0]
    others = len(ctx.points) - len(candidates)
    seats = ", ".join(f"seat {x['seat']} {fmt.percent_ci(x['win_rate'], x['ci95'])}" for x in best["seats"])
    if len(candidates) == 1:
        text = (
            f"The fairest point is {where(best['params'])}: every seat within {fmt.points(gap, sign=False)} points of "
            f"{fmt.percent(fair)} ({seats}); every other point is clearly less fair."
        )
        verdict = INFO
    elif others == 0:
        listed = "; ".join(_candidate_text(p, fair) for p in candidates[:3])
        text = (
            f"No point is clearly fairer than the others: all {len(ctx.points)} are within noise of the best by "
            f"estimate (the closest: {listed}). At {ctx.games_text()} they cannot be told apart, so which one comes "
            "first changes with the seed; more games, or values further apart, would tell."
        )
        verdict = UNSURE
    else:
        listed = "; ".join(_candidate_text(p, fair) for p in candidates[:6])
        more = len(candidates) - 6
        text = (
            f"The fairest points, within noise of each other ({len(candidates)} of {len(ctx.points)}): {listed}"
            + (f"; and {more} more" if more > 0 else "")
            + f". At {ctx.games_text()} they cannot be told apart, so which one comes first (now "
            f"{where(best['params'])}, every seat within {fmt.points(gap, sign=False)} points of {fmt.percent(fair)}) "
            f"changes with the seed; the other {others} point{'s are' if others != 1 else ' is'} clearly less fair."
        )
        verdict = UNSURE
    return [
        {
            "kind": "fairest",
            "verdict": verdict,
            "text": text,
            "point": best["point"],
            "params": best["params"],
            "max_gap": gap,
            "candidates": [p["point"] for p in candidates],
            "candidate_params": [p["params"] for p in candidates],
            "rule": FAIREST_RULE,
        }
    ]


CROSSING_RULE = (
    "How a crossing is read: between the two swept values whose win rates lie on either side of the fair share, "
    "the rate is taken as linear; the crossing is where that line meets the fair share, and its 95% interval is "
    "every value where the line through the points' 95% Wilson intervals still contains the fair share (the "
    "interval ends where the upper and the lower bound cross it). Read only when the rate crosses once."
)


def crossing(xs: Sequence[float], rates: Sequence[float], lows: Sequence[float], highs: Sequence[float],
             level: float) -> dict[str, Any] | None:
    """Where a response measured at increasing ``xs`` crosses ``level`` (linear
    between points), with the interval of values where its pointwise 95% band
    contains ``level`` (:data:`CROSSING_RULE`); None unless it crosses exactly once.
    An interval end outside the swept values is None (not reached)."""

    def meets(ys: Sequence[float]) -> list[float]:
        out = []
        for (x0, y0), (x1, y1) in itertools.pairwise(zip(xs, ys)):
            if (y0 - level) * (y1 - level) < 0:
                out.append(x0 + (level - y0) * (x1 - x0) / (y1 - y0))
            elif y1 == level and (y0 - level) != 0:
                out.append(x1)
        return out

    at = meets(rates)
    if len(at) != 1:
        return None
    rising = rates[-1] > rates[0]
    upper, lower = meets(highs), meets(lows)  # a rising rate: its band contains level from where the
    # upper bound rises through it to where the lower bound does
    def nearest(cands: list[float], side: int) -> float | None:
        picks = [c for c in cands if (c <= at[0] if side < 0 else c >= at[0])]
        return (max(picks) if side < 0 else min(picks)) if picks else None

    lo = nearest(upper if rising else lower, -1)
    hi = nearest(lower if rising else upper, +1)
    return {"value": at[0], "ci95": [lo, hi], "rule": CROSSING_RULE}


def player_distance(point: Mapping[str, Any]) -> tuple[float, float, float]:
    """A point's distance from fairness between players: its worst player's
    ``|win rate - its own fair share|`` and that distance's interval (as :func:`distance`)."""
    d = lo = hi = 0.0
    for x in point["strategies"]:
        a, b = x["ci95"]
        fair = x["fair_share"]
        d = max(d, abs(x["win_rate"] - fair))
        lo = max(lo, 0.0 if a <= fair <= b else min(abs(a - fair), abs(b - fair)))
        hi = max(hi, abs(a - fair), abs(b - fair))
    return d, lo, hi


def fairest_for_players(ctx: Context) -> list[Finding]:
    """The fairest points between the players (each against its own fair share), by the
    rule of :data:`FAIREST_RULE`: with several distinct players only."""
    points = ctx.points
    if not ctx.multi or not points or len(points[0].get("strategies", ())) < 2:
        return []
    dist = {p["point"]: player_distance(p) for p in points}
    best = min(points, key=lambda p: (dist[p["point"]][0], p["point"]))
    db, _, hb = dist[best["point"]]
    candidates = [
        p for p in points
        if p is best or (dist[p["point"]][0] - db) - math.sqrt((dist[p["point"]][0] - dist[p["point"]][1]) ** 2 + (hb - db) ** 2) <= 0
    ]
    candidates.sort(key=lambda p: (p is not best, dist[p["point"]][0], p["point"]))

    def worst(p: Mapping[str, Any]) -> str:
        x = max(p["strategies"], key=lambda s: abs(s["win_rate"] - s["fair_share"]))
        return (f"{where(p['params'])} (worst player {x['player']}: {fmt.percent_ci(x['win_rate'], x['ci95'])} "
                f"against its share {fmt.percent(x['fair_share'])})")

    listed = "; ".join(worst(p) for p in candidates[:6]) + (f"; and {len(candidates) - 6} more" if len(candidates) > 6 else "")
    if len(candidates) == 1:
        text = f"Between the players, the fairest point is {listed}; every other point is clearly less fair."
        verdict = INFO
    else:
        text = (f"Between the players, the fairest points, within noise of each other ({len(candidates)} of "
                f"{len(points)}): {listed}. At {ctx.games_text()} they cannot be told apart.")
        verdict = UNSURE
    return [{
        "kind": "fairest_players", "verdict": verdict, "text": text, "point": best["point"],
        "candidates": [p["point"] for p in candidates], "rule": FAIREST_RULE,
    }]


def seat_trend(ctx: Context, axis: Mapping[str, Any], s: int) -> Finding:
    """How seat ``s``'s win rate moves from the first value of a swept parameter to
    the last (Newcombe interval of the change), and where it crosses the fair share."""
    series = axis["series"]
    first, last = series[0], series[-1]
    pooled = f" (pooled over {', '.join(axis['pooled_over'])})" if axis["pooled_over"] else ""
    a, b = first["seats"][s], last["seats"][s]
    d, dlo, dhi = newcombe(a["wins"], a["games"], b["wins"], b["games"])
    fair = ctx.fair
    cross = []
    for u, v in itertools.pairwise(series):
        ru, rv = u["seats"][s]["win_rate"] - fair, v["seats"][s]["win_rate"] - fair
        if ru * rv < 0:
            cross.append((u["value"], v["value"]))
    change, low, high = fmt.points_ci(d, (dlo, dhi))
    name, v0, v1 = axis["name"], fmt.format_value(first["value"]), fmt.format_value(last["value"])
    detectable = detectable_shift(min(a["games"], b["games"]), fair, two_sample=True)
    if dlo > 0 or dhi < 0:
        verb = "rises" if d > 0 else "falls"
        text = (
            f"As {name} goes from {v0} to {v1}{pooled}, {ctx.seat_label(s)}'s win rate {verb} from "
            f"{fmt.percent(a['win_rate'])} to {fmt.percent(b['win_rate'])}: {change} points (95% CI {low} to {high})"
        )
    else:
        text = (
            f"Along {name} ({v0} to {v1}){pooled}, {ctx.seat_label(s)}'s win rate shows no clear change: "
            f"{change} points (95% CI {low} to {high}; a change smaller than {fmt.points(detectable, 1, sign=False)} "
            "points would not show at this n)"
        )
    where_cross = None
    numeric = all(isinstance(p["value"], (int, float)) and not isinstance(p["value"], bool) for p in series)
    if cross and numeric and len(cross) == 1:
        where_cross = crossing([float(p["value"]) for p in series], [p["seats"][s]["win_rate"] for p in series],
                               [p["seats"][s]["ci95"][0] for p in series], [p["seats"][s]["ci95"][1] for p in series],
                               fair)
    if where_cross is not None:
        lo, hi = where_cross["ci95"]
        ends = (f"{lo:.3g}" if lo is not None else f"below {fmt.format_value(first['value'])}",
                f"{hi:.3g}" if hi is not None else f"beyond {fmt.format_value(last['value'])}")
        u, v = cross[0]
        text += (f"; it crosses {fmt.percent(fair)} between {name}={fmt.format_value(u)} and {fmt.format_value(v)}, "
                 f"at {name} ≈ {where_cross['value']:.3g} (95% CI {ends[0]} to {ends[1]}; linear between the swept "
                 "values, from their Wilson intervals)")
    elif cross:
        text += "; it crosses " + fmt.percent(fair) + " between " + " and between ".join(
            f"{name}={fmt.format_value(u)} and {fmt.format_value(v)}" for u, v in cross
        )
    return {
        "kind": "trend",
        "verdict": INFO,
        "text": text + ".",
        "axis": name,
        "seat": s,
        "from": first["value"],
        "to": last["value"],
        "difference": d,
        "ci95": [dlo, dhi],
        "detectable": detectable,
        "crossings": [list(c) for c in cross],
        "crossing": where_cross,
    }


def length_trend(ctx: Context, axis: Mapping[str, Any]) -> Finding:
    """How game length moves from the first value of a swept parameter to the last."""
    series = axis["series"]
    first, last = series[0], series[-1]
    pooled = f" (pooled over {', '.join(axis['pooled_over'])})" if axis["pooled_over"] else ""
    t0, t1 = first["turns"], last["turns"]
    if t0["median"] == t1["median"]:
        median = f"the median game stays at {t0['median']} turns"
    else:
        median = f"the median game goes from {t0['median']} to {t1['median']} turns"
    return {
        "kind": "length",
        "verdict": INFO,
        "text": f"As {axis['name']} goes from {fmt.format_value(first['value'])} to "
        f"{fmt.format_value(last['value'])}{pooled}, {median} (mean {_mean(t0)} to {_mean(t1)})"
        + _minutes(ctx, t0, t1) + ".",
        "axis": axis["name"],
        "median": [t0["median"], t1["median"]],
        "mean": [t0["mean"], t1["mean"]],
        "mean_se": [t0["mean_se"], t1["mean_se"]],
    }


def _minutes(ctx: Context, *turns: Mapping[str, Any]) -> str:
    """``; at 60 s a turn, 20.2 ± 0.12 to 25.2 ± 0.14 minutes`` when the run recorded
    the table time of a turn (the game's ``seconds_per_turn``), else nothing."""
    spt = ctx.manifest.get("seconds_per_turn")
    if not spt:
        return ""
    scale = float(spt) / 60.0
    shown = " to ".join(f"{t['mean'] * scale:,.1f} ± {1.96 * t['mean_se'] * scale:,.2f}" for t in turns)
    return f"; at {spt:g} s a turn, {shown} minutes at the table"


def _mean(t: Mapping[str, Any]) -> str:
    """``31.4 ± 0.12``: a mean length and the half-width of its 95% interval."""
    return f"{t['mean']:,.1f} ± {1.96 * t['mean_se']:,.2f}"


def along_axes(ctx: Context) -> list[Finding]:
    """Per swept parameter: each seat's trend, then game length."""
    out: list[Finding] = []
    for axis in ctx.data["by_axis"]:
        if len(axis["series"]) < 2:
            continue
        out += [seat_trend(ctx, axis, s) for s in range(ctx.n_seats)]
        out.append(length_trend(ctx, axis))
    return out


def length(ctx: Context) -> list[Finding]:
    """Game length of a single point."""
    if ctx.multi:
        return []
    t = ctx.points[0]["turns"]
    return [
        {
            "kind": "length",
            "verdict": INFO,
            "text": f"The median game lasts {t['median']} turns (95% CI {t['median_ci95'][0]}–{t['median_ci95'][1]}; "
            f"p10 {t['p10']}, p90 {t['p90']}; mean {_mean(t)}{_minutes(ctx, t)}).",
            "median": t["median"],
            "mean": t["mean"],
        }
    ]


def players(ctx: Context) -> list[Finding]:
    """Each player against its own fairness band (its fair share is the seats
    it holds over the seats), when several players play."""
    strategies = ctx.manifest["strategies"]
    if len(strategies) <= 1:
        return []
    out: list[Finding] = []
    for k, name in enumerate(strategies):
        rates = [(p, p["strategies"][k]) for p in ctx.points if p["strategies"][k]["games"]]
        pb = ctx.player_band(k)
        if not rates or (not ctx.manifest["rotate_seats"] and pb["seats"] == 1):
            continue  # a player keeping one seat: its rate is that seat's, judged above
        band = tuple(pb["band"])
        share = (
            f"{seats_held(pb['seats'], ctx.n_seats)}: fair share {fmt.percent(pb['fair_share'])}, band "
            f"{fmt.band(*band)}"
        )
        verdicts = {INSIDE: [], OUTSIDE: [], CANNOT_TELL: []}
        for p, r in rates:
            verdicts[band_verdict(r["ci95"], band)].append(p)
        lo_p, lo_s = min(rates, key=lambda x: x[1]["win_rate"])
        hi_p, hi_s = max(rates, key=lambda x: x[1]["win_rate"])
        if ctx.multi:
            text = (
                f"Player {name} ({share}) wins {fmt.percent_ci(lo_s['win_rate'], lo_s['ci95'])} of the games it plays "
                f"at {where(lo_p['params'])} and {fmt.percent_ci(hi_s['win_rate'], hi_s['ci95'])} at "
                f"{where(hi_p['params'])}: against its band, inside at {len(verdicts[INSIDE])}, outside at "
                f"{len(verdicts[OUTSIDE])}, cannot tell at {len(verdicts[CANNOT_TELL])} of {len(rates)} points."
            )
        else:
            reading = {INSIDE: "inside its band", OUTSIDE: "outside its band", CANNOT_TELL: "cannot tell (its interval "
                       "reaches across an edge of its band)"}[band_verdict(hi_s["ci95"], band)]
            text = f"Player {name} ({share}) wins {fmt.percent_ci(hi_s['win_rate'], hi_s['ci95'])} of the games it plays: {reading}."
        verdict = BAD if verdicts[OUTSIDE] else UNSURE if verdicts[CANNOT_TELL] else GOOD
        out.append(
            {
                "kind": "player",
                "verdict": verdict,
                "text": text,
                "player": name,
                "seats": pb["seats"],
                "fair_share": pb["fair_share"],
                "band": list(band),
                "points_outside": [p["point"] for p in verdicts[OUTSIDE]],
                "points_cannot_tell": [p["point"] for p in verdicts[CANNOT_TELL]],
                "lowest": {"point": lo_p["point"], "win_rate": lo_s["win_rate"], "ci95": lo_s["ci95"]},
                "highest": {"point": hi_p["point"], "win_rate": hi_s["win_rate"], "ci95": hi_s["ci95"]},
            }
        )
    return out


def end_reason(ctx: Context, reason: str) -> list[Finding]:
    """How often games end by ``reason`` and where most often; a cap (the game's
    ``EndReason.is_cap``) hit by more than 1% of games is flagged."""
    shares = [(p, p["end_reason_shares"][reason]) for p in ctx.points]
    top_p, top = max(shares, key=lambda x: x[1]["share"])
    low_p, low = min(shares, key=lambda x: x[1]["share"])
    if top["share"] == 0:
        return []
    cap = ctx.is_cap(reason)
    verb = f"hit the {reason}" if cap else f"end by {reason}"
    if ctx.multi and top["share"] != low["share"]:
        text = (
            f"Games {verb} in {fmt.percent_ci(top['share'], top['ci95'])} of games at {where(top_p['params'])} "
            f"(least: {fmt.percent_ci(low['share'], low['ci95'])} at {where(low_p['params'])})"
        )
    else:
        text = f"Games {verb} in {fmt.percent_ci(top['share'], top['ci95'])} of games" + (
            " at every point" if ctx.multi else ""
        )
    stalls = cap and top["share"] > 0.01
    if stalls:
        hole = _hole(ctx, top_p, reason)
        text += f"; {hole}" if hole else "; more than 1% of games stopped by a cap usually means the rules can stall"
    return [
        {
            "kind": "end_reason",
            "verdict": BAD if stalls else INFO,
            "text": text + ".",
            "end_reason": reason,
            "cap_like": cap,
            "highest": {"point": top_p["point"], "share": top["share"], "ci95": top["ci95"]},
            "lowest": {"point": low_p["point"], "share": low["share"], "ci95": low["ci95"]},
        }
    ]


def _hole(ctx: Context, point: Mapping[str, Any], reason: str) -> str:
    """What balance.holes says of the line-up's games at ``point`` hitting the
    cap ``reason`` (a rule hole its staller exploits and the setting that
    closes it, or a stall); "" for a game not installed here."""
    from balance.errors import UserError
    from balance.holes import find_holes
    from balance.registry import get_game

    try:
        spec = get_game(ctx.manifest["game"])
    except (UserError, KeyError):
        return ""
    params = {**(ctx.manifest.get("params") or {}), **(point.get("params") or {})}
    for hole in find_holes(spec, point["end_reasons"], ctx.manifest.get("players") or (), params):
        if hole.reason == reason:
            return f"with {', '.join(hole.players)}, {hole.explanation()}"
    return ""


def end_reasons(ctx: Context) -> list[Finding]:
    """Every end reason, in the game's order."""
    return [f for reason in ctx.manifest["end_reasons"] for f in end_reason(ctx, reason)]


def no_winner(ctx: Context) -> list[Finding]:
    """Games nobody wins, at the point where most."""
    top_p, top = max(((p, p["no_winner_rate"]) for p in ctx.points), key=lambda x: x[1]["rate"])
    if top["rate"] <= 0:
        return []
    return [
        {
            "kind": "no_winner",
            "verdict": INFO,
            "text": f"Nobody wins {fmt.percent_ci(top['rate'], top['ci95'])} of games"
            + (f" at {where(top_p['params'])} (the most of any point)." if ctx.multi else "."),
            "point": top_p["point"],
            "rate": top["rate"],
            "ci95": top["ci95"],
        }
    ]


FINDINGS: tuple[Callable[[Context], list[Finding]], ...] = (
    incomplete,
    measured_with,
    seats_keep_players,
    precision,
    power,
    fairness,
    fairest,
    fairest_for_players,
    along_axes,
    length,
    players,
    end_reasons,
    no_winner,
)


def findings(
    data: Mapping[str, Any], manifest: Mapping[str, Any], aggregates: Mapping[int, Any] | None = None
) -> list[Finding]:
    """Every finding of :data:`FINDINGS`, in order."""
    ctx = Context(data, manifest, aggregates or {})
    return [f for finding in FINDINGS for f in finding(ctx)]


# --------------------------------------------------------------------------- the summary box
def _worst(verdicts: Sequence[str]) -> str:
    for v in (BAD, UNSURE, GOOD):
        if v in verdicts:
            return v
    return INFO


def summary(data: Mapping[str, Any], manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The answer of a report in one or two sentences, naming its players, and
    the verdict that colours it: how many points have every seat inside the
    fairness band (from the intervals), the fairest values, what the run could
    have detected."""
    points = data["points"]
    lo, hi = data["fairness"]["band"]
    band = fmt.band(lo, hi)
    who = players_phrase(manifest)
    by_point = []
    for p in points:
        vs = [band_verdict(x["ci95"], (lo, hi)) for x in p["seats"]]
        by_point.append(OUTSIDE if OUTSIDE in vs else CANNOT_TELL if CANNOT_TELL in vs else INSIDE)
    counts = {v: by_point.count(v) for v in (INSIDE, OUTSIDE, CANNOT_TELL)}
    found = data.get("findings") or []
    sentences = []
    if len(points) == 1:
        p = points[0]
        if counts[INSIDE]:
            first = f"With {who}, every seat's win rate is inside the {band} fairness band"
        else:
            worst = max(p["seats"], key=lambda x: abs(x["win_rate"] - data["fairness"]["fair_share"]))
            reading = "outside" if counts[OUTSIDE] else "cannot tell whether it is inside"
            first = (
                f"With {who}, seat {worst['seat']} wins {fmt.percent_ci(worst['win_rate'], worst['ci95'])}: "
                f"{reading} the {band} fairness band"
            )
        first += f" ({p['games']:,} games)."
        sentences.append(first)
        outside_players = [f for f in found if f["kind"] == "player" and f["verdict"] == BAD]
        if outside_players:
            listed = [
                f"{f['player']} ({seats_held(f['seats'], len(manifest['players']))}) wins "
                f"{fmt.percent_ci(f['highest']['win_rate'], f['highest']['ci95'])} of its games against a fair share "
                f"of {fmt.percent(f['fair_share'])}"
                for f in outside_players
            ]
            one = len(listed) == 1
            sentences.append(
                "Outside " + ("its" if one else "their") + " own fairness band" + ("" if one else "s") + ": "
                + "; ".join(listed) + "."
            )
    else:
        total = len(points)
        if counts[INSIDE] == total:
            first = f"With {who}, every seat's win rate is inside the {band} fairness band at all {total} points"
        else:
            parts = []
            if counts[INSIDE]:
                parts.append(f"every seat is inside the {band} fairness band at {counts[INSIDE]} of {total} points")
            if counts[OUTSIDE]:
                parts.append(
                    f"some seat is outside it at {counts[OUTSIDE]}" if parts
                    else f"some seat is outside the {band} fairness band at {counts[OUTSIDE]} of {total} points"
                )
            if counts[CANNOT_TELL]:
                parts.append(
                    f"the intervals cannot tell at {counts[CANNOT_TELL]}" if parts
                    else f"the intervals cannot tell whether every seat is inside the {band} fairness band at "
                    f"{counts[CANNOT_TELL]} of {total} points"
                )
            first = f"With {who}, " + _and(parts)
        sentences.append(first + f" ({' or '.join(f'{g:,}' for g in sorted({p['games'] for p in points}))} games a point).")
        fair_f = next((f for f in found if f["kind"] == "fairest"), None)
        if fair_f is not None:
            best = next(p for p in points if p["point"] == fair_f["point"])
            x = _worst_seat(best, data["fairness"]["fair_share"])
            n_c = len(fair_f["candidates"])
            text = f"Fairest: {where(best['params'])} (worst seat {x['seat']}: {fmt.percent_ci(x['win_rate'], x['ci95'])})"
            if n_c == len(points):
                text += ", but no point is clearly fairer than the others (all within noise)"
            elif n_c > 1:
                text += f", within noise of {n_c - 1} other point{'s' if n_c > 2 else ''}"
            else:
                text += ", clearly fairer than every other point"
            sentences.append(text + ".")
    stalls = [f for f in found if f["kind"] == "end_reason" and f.get("cap_like") and f["verdict"] == BAD]
    for f in stalls:  # a rule hole or a stall: the answer a designer must read first
        sentences.append(f["text"])
    pw = next((f for f in found if f["kind"] == "power"), None)
    if pw is not None:
        sentences.append(
            f"At this n a seat edge smaller than {fmt.points(pw['detectable_seat_edge'], 1, sign=False)} points "
            "would not show."
        )
    verdict = {INSIDE: GOOD, OUTSIDE: BAD, CANNOT_TELL: UNSURE}
    verdicts = [verdict[v] for v in by_point] + [BAD for _ in stalls]
    if len(points) == 1 and any(f["kind"] == "player" and f["verdict"] == BAD for f in found):
        verdicts.append(BAD)  # the box names a player outside its band
    return {"sentences": sentences, "verdict": _worst(verdicts)}
