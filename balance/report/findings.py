"""The report's findings: plain-word statements computed from a sweep's figures.

Each finding is one small function of a :class:`Context` (the report's data,
the run's manifest and its counts) returning the statements it makes, each a
dict with its ``kind``, its ``text`` and the numbers behind it.  :data:`FINDINGS`
lists them in the order the report shows them; :func:`findings` runs them all.
Adding a finding is adding a function to that list.

Every rate is shown with its 95% interval (:mod:`balance.format`).  Whether
an end reason is a cap comes from the manifest (``end_reason_info``: the
game's ``EndReason.is_cap``); a run recorded before it was there has no cap.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from balance import format as fmt
from balance.stats import newcombe

Finding = dict[str, Any]


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

    def is_cap(self, reason: str) -> bool:
        """Whether games ending this way were cut by the simulation (EndReason.is_cap)."""
        return any(r.get("name") == reason and r.get("is_cap") for r in self.manifest.get("end_reason_info") or ())


def where(params: Mapping[str, Any]) -> str:
    """``car_cost=10, bonus=2``, or ``the default rules``."""
    return ", ".join(f"{k}={fmt.format_value(v)}" for k, v in params.items()) or "the default rules"


# --------------------------------------------------------------------------- the findings
def incomplete(ctx: Context) -> list[Finding]:
    """Points not played yet."""
    d = ctx.data
    if d["points_finished"] >= d["points_total"]:
        return []
    return [
        {
            "kind": "incomplete",
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
    if len(set(players)) == 1:
        how = f"{players[0]} in every seat"
    else:
        how = ", ".join(f"{p} (seat {s})" for s, p in enumerate(players)) if not m["rotate_seats"] else (
            ", ".join(dict.fromkeys(players)) + ", seats rotated"
        )
    return [
        {
            "kind": "players",
            "text": f"Measured with {how}: every finding below holds for these players; stronger or different "
            "players can change it (balance tournament compares players).",
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
            "text": f"Each seat keeps its player ({', '.join(m['players'])}): a seat's win rate mixes "
            "the seat's edge with its player's strength; sweep with --rotate-seats to tell them apart.",
        }
    ]


def precision(ctx: Context) -> list[Finding]:
    """Games per point and the widest win-rate interval."""
    games = sorted({p["games"] for p in ctx.points})
    widest = max(max(s["ci95"][1] - s["win_rate"], s["win_rate"] - s["ci95"][0]) for p in ctx.points for s in p["seats"])
    return [
        {
            "kind": "precision",
            "text": f"Each point is {' or '.join(f'{g:,}' for g in games)} games with the same seeds at every point "
            f"(common random numbers): every win-rate interval is within ±{fmt.points(widest, sign=False)} points.",
            "games_per_point": games,
            "max_half_width": widest,
        }
    ]


def fairness(ctx: Context) -> list[Finding]:
    """Seats whose win rate leaves the fairness band (and where worst), or none."""
    lo, hi = ctx.band
    band_text = fmt.band(lo, hi)
    points, multi = ctx.points, ctx.multi
    out: list[Finding] = []
    for s in range(ctx.n_seats):
        outside = [p for p in points if not lo <= p["seats"][s]["win_rate"] <= hi]
        if not outside:
            continue
        worst = max(outside, key=lambda p: abs(p["seats"][s]["win_rate"] - ctx.fair))
        w = worst["seats"][s]
        clear = not (w["ci95"][0] <= hi and w["ci95"][1] >= lo)
        text = (
            f"{ctx.seat_label(s).capitalize()} wins {fmt.percent_ci(w['win_rate'], w['ci95'])} at "
            f"{where(worst['params'])}, outside the {band_text} fairness band"
        )
        text += "" if clear else " (its interval reaches into the band: play more games to be sure)"
        if multi and len(outside) == len(points):
            text += f"; outside at all {len(points)} points"
        elif multi:
            text += f"; outside at {len(outside)} of {len(points)} points"
            if 1 < len(outside) <= 5:
                text += " (" + "; ".join(where(p["params"]) for p in outside) + ")"
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
    if not out:
        out.append(
            {
                "kind": "fairness",
                "text": f"Every seat's win rate is inside the {band_text} fairness band "
                + (f"at all {len(points)} points." if multi else "."),
                "band": [lo, hi],
                "points_outside": [],
            }
        )
    return out


def fairest(ctx: Context) -> list[Finding]:
    """The point whose seats are closest to the fair share (several points only)."""
    if not ctx.multi:
        return []
    fair = ctx.fair
    best = min(ctx.points, key=lambda p: max(abs(x["win_rate"] - fair) for x in p["seats"]))
    gap = max(abs(x["win_rate"] - fair) for x in best["seats"])
    return [
        {
            "kind": "fairest",
            "text": f"The fairest point is {where(best['params'])}: every seat within "
            f"{fmt.points(gap, sign=False)} points of {fmt.percent(fair)} ("
            + ", ".join(f"seat {x['seat']} {fmt.percent_ci(x['win_rate'], x['ci95'])}" for x in best["seats"])
            + ").",
            "point": best["point"],
            "params": best["params"],
            "max_gap": gap,
        }
    ]


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
    if dlo > 0 or dhi < 0:
        verb = "rises" if d > 0 else "falls"
        text = (
            f"As {name} goes from {v0} to {v1}{pooled}, {ctx.seat_label(s)}'s win rate {verb} from "
            f"{fmt.percent(a['win_rate'])} to {fmt.percent(b['win_rate'])}: {change} points (95% CI {low} to {high})"
        )
    else:
        text = (
            f"Along {name} ({v0} to {v1}){pooled}, {ctx.seat_label(s)}'s win rate shows no clear change: "
            f"{change} points (95% CI {low} to {high})"
        )
    if cross:
        text += "; it crosses " + fmt.percent(fair) + " between " + " and between ".join(
            f"{name}={fmt.format_value(u)} and {fmt.format_value(v)}" for u, v in cross
        )
    return {
        "kind": "trend",
        "text": text + ".",
        "axis": name,
        "seat": s,
        "from": first["value"],
        "to": last["value"],
        "difference": d,
        "ci95": [dlo, dhi],
        "crossings": [list(c) for c in cross],
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
        "text": f"As {axis['name']} goes from {fmt.format_value(first['value'])} to "
        f"{fmt.format_value(last['value'])}{pooled}, {median} (mean {_mean(t0)} to {_mean(t1)}).",
        "axis": axis["name"],
        "median": [t0["median"], t1["median"]],
        "mean": [t0["mean"], t1["mean"]],
        "mean_se": [t0["mean_se"], t1["mean_se"]],
    }


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
            "text": f"The median game lasts {t['median']} turns (p10 {t['p10']}, p90 {t['p90']}; mean {_mean(t)}).",
            "median": t["median"],
            "mean": t["mean"],
        }
    ]


def players(ctx: Context) -> list[Finding]:
    """Each player's lowest and highest win rate (when several players play)."""
    strategies = ctx.manifest["strategies"]
    if len(strategies) <= 1:
        return []
    out: list[Finding] = []
    for k, name in enumerate(strategies):
        rates = [(p, p["strategies"][k]) for p in ctx.points if p["strategies"][k]["games"]]
        if not rates:
            continue
        lo_p, lo_s = min(rates, key=lambda x: x[1]["win_rate"])
        hi_p, hi_s = max(rates, key=lambda x: x[1]["win_rate"])
        if ctx.multi:
            text = (
                f"Player {name} wins {fmt.percent_ci(lo_s['win_rate'], lo_s['ci95'])} of the games it plays at "
                f"{where(lo_p['params'])} and {fmt.percent_ci(hi_s['win_rate'], hi_s['ci95'])} at "
                f"{where(hi_p['params'])}."
            )
        else:
            text = f"Player {name} wins {fmt.percent_ci(hi_s['win_rate'], hi_s['ci95'])} of the games it plays."
        out.append(
            {
                "kind": "player",
                "text": text,
                "player": name,
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
    if cap and top["share"] > 0.01:
        text += "; more than 1% of games stopped by a cap usually means the rules can stall"
    return [
        {
            "kind": "end_reason",
            "text": text + ".",
            "end_reason": reason,
            "cap_like": cap,
            "highest": {"point": top_p["point"], "share": top["share"], "ci95": top["ci95"]},
            "lowest": {"point": low_p["point"], "share": low["share"], "ci95": low["ci95"]},
        }
    ]


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
            "text": f"Nobody wins {fmt.percent_ci(top['rate'], top['ci95'])} of games at {where(top_p['params'])}"
            + (" (the most of any point)." if ctx.multi else "."),
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
    fairness,
    fairest,
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

