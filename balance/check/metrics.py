"""The metrics a baseline records and a check compares, from the counts of a run.

``counts_of`` turns an :class:`~balance.aggregate.Aggregate` into JSON-ready
counts (what a baseline file stores); ``metrics_of`` computes every metric from
counts, each with its 95% interval: proportions (win rate per seat and per
player, no-winner rate, each end reason's share) with Wilson intervals, the
mean game length with a normal interval, and the median and 90th percentile of
game length with distribution-free intervals; for a game that declares the
table time of a turn, the same three in minutes (``minutes_mean`` ...: the
turns' figures times ``seconds_per_turn / 60``, targets only: a check compares
them once, as turns); and the game-feel metrics
(:mod:`balance.feel`): P(win | leading at 25%, half time, 75%), the comeback
and kingmaking rates with Wilson intervals, lead changes, the decisive moment
and the final margin as means with normal intervals.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.config import END_REASON
from balance.stats import hist_mean_se, hist_quantile, hist_quantile_ci, wilson, z_value

QUANTILES = {"turns_median": 0.5, "turns_p90": 0.9}


# The game-feel metrics: name -> (the counts behind it, balance.feel.COUNTS).
FEEL_PROPORTIONS = {
    "lead_at_25_wins": ("lead25_wins", "lead25_games"),
    "lead_at_half_wins": ("lead50_wins", "lead50_games"),
    "lead_at_75_wins": ("lead75_wins", "lead75_games"),
    "comeback_rate": ("trail50_wins", "trail50_games"),
    "kingmaking_rate": ("king_changed", "king_games"),
}
FEEL_MEANS = {
    "lead_changes_mean": ("games", "changes_sum", "changes_sq", 1),
    "decisive_moment_mean": ("decisive_n", "decisive_sum", "decisive_sq", 1000),
    "final_margin_mean": ("games", "margin_sum", "margin_sq", 1),
}


def counts_of(
    agg: Any,
    strategies: Sequence[str],
    end_reasons: Sequence[str],
    seconds_per_turn: float = 0.0,
    feel_reading: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The counts behind every metric of an :class:`~balance.aggregate.Aggregate` (JSON-ready);
    with the game's ``seconds_per_turn`` the length in minutes is a metric too;
    ``feel_reading``: how the game's standing reads, balance.feel.reading."""
    from balance.feel import COUNTS

    hist = np.asarray(agg.turns_hist, dtype=np.int64)
    extra = {"seconds_per_turn": float(seconds_per_turn)} if seconds_per_turn else {}
    feel = None
    if getattr(agg, "feel", None) is not None and int(agg.feel[0]) > 0:
        feel = {name: int(agg.feel[i]) for i, name in enumerate(COUNTS)}
        feel["margin_at_end"] = bool((feel_reading or {}).get("margin_at_end", True))
    out = {
        **extra,
        "games": int(agg.games),
        "seat_wins": [int(x) for x in agg.seat_wins],
        "strategies": list(strategies),
        "strategy_wins": [int(x) for x in agg.strategy_wins],
        "strategy_games": [int(x) for x in agg.strategy_games],
        "no_winner": int(agg.no_winner),
        "end_reasons": {
            name: int(agg.end_reasons[i]) for i, name in enumerate(end_reasons)
        },
        "turns_hist": [int(x) for x in np.trim_zeros(hist, "b")],
        # per seat, the games each player sat there: tells which player keeps one seat (no rotation)
        "seat_player_games": [[int(x) for x in row] for row in np.asarray(agg.seat_strategy_games)],
    }
    if feel is not None:
        out["feel"] = feel
    return out


def duplicate_metrics(counts: Mapping[str, Any]) -> dict[str, str]:
    """``strategy_win_rate[NAME]`` metrics that are a ``seat_win_rate[S]`` under
    another name (the player keeps seat S in every game and sits nowhere else:
    the seats do not rotate), each mapped to that seat's metric.  Compared once,
    they do not enlarge the family the Holm correction is taken over.  Counts
    recorded without ``seat_player_games`` tell nothing: none."""
    table = counts.get("seat_player_games")
    n = int(counts["games"])
    if not table or len(counts["strategies"]) <= 1:
        return {}
    out = {}
    for k, name in enumerate(counts["strategies"]):
        seats = [s for s, row in enumerate(table) if k < len(row) and int(row[k]) > 0]
        if len(seats) == 1 and int(table[seats[0]][k]) == n:
            out[f"strategy_win_rate[{name}]"] = f"seat_win_rate[{seats[0]}]"
    return out


def seats_held(counts: Mapping[str, Any]) -> dict[str, float]:
    """Per player, the seats it holds a game (from ``seat_player_games``; empty without)."""
    table = counts.get("seat_player_games")
    if not table:
        return {}
    out = {}
    for k, name in enumerate(counts["strategies"]):
        games = int(counts["strategy_games"][k])
        out[name] = sum(int(row[k]) for row in table) / games if games else 0.0
    return out


@dataclass
class Metric:
    """One figure with its 95% interval: a proportion (``count``/``n``), a mean or a quantile."""

    name: str
    kind: str  # "proportion" | "mean" | "quantile"
    value: float
    ci95: tuple[float, float]
    n: int
    count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "name": self.name,
            "kind": self.kind,
            "value": self.value,
            "ci95": list(self.ci95),
            "n": self.n,
        }
        if self.count is not None:
            out["count"] = self.count
        return out


def metrics_of(counts: Mapping[str, Any]) -> dict[str, Metric]:
    """Every compared metric, by name (``seat_win_rate[0]``, ``end_reason[NAME]``, ``turns_p90`` ...)."""
    n = int(counts["games"])
    out: dict[str, Metric] = {}

    def prop(name: str, k: int, m: int) -> None:
        out[name] = Metric(name, "proportion", k / m if m else 0.0, wilson(k, m), m, k)

    for seat, wins in enumerate(counts["seat_wins"]):
        prop(f"seat_win_rate[{seat}]", int(wins), n)
    # One distinct player: its win rate is 1 - no_winner_rate, already compared.
    if len(counts["strategies"]) > 1:
        for name, wins, games in zip(
            counts["strategies"], counts["strategy_wins"], counts["strategy_games"]
        ):
            prop(f"strategy_win_rate[{name}]", int(wins), int(games))
    prop("no_winner_rate", int(counts["no_winner"]), n)
    for reason, k in counts["end_reasons"].items():
        prop(f"{END_REASON}[{reason}]", int(k), n)
    hist = np.asarray(counts["turns_hist"], dtype=np.int64)
    if n and hist.sum() > 0:
        mean, se = hist_mean_se(hist)
        half = z_value() * se if math.isfinite(se) else float("inf")
        out["turns_mean"] = Metric(
            "turns_mean", "mean", mean, (mean - half, mean + half), n
        )
        for name, q in QUANTILES.items():
            lo, hi = hist_quantile_ci(hist, q)
            out[name] = Metric(
                name,
                "quantile",
                float(hist_quantile(hist, q)),
                (float(lo), float(hi)),
                n,
            )
        scale = float(counts.get("seconds_per_turn") or 0.0) / 60.0
        for name in [k for k in out if k.startswith("turns_")] if scale else ():
            m = out[name]
            minutes = name.replace("turns_", "minutes_")  # the turns' figure at the table's pace
            out[minutes] = Metric(minutes, "mean", m.value * scale, (m.ci95[0] * scale, m.ci95[1] * scale), n)
    feel = counts.get("feel")
    if feel:
        for name, (wins, games) in FEEL_PROPORTIONS.items():
            if int(feel[games]) > 0:
                prop(name, int(feel[wins]), int(feel[games]))
        for name, (games, total, squares, scale) in FEEL_MEANS.items():
            if name == "final_margin_mean" and not feel.get("margin_at_end", True):
                total, squares = "round_margin_sum", "round_margin_sq"
            m = int(feel[games])
            if m > 1:
                mean, se = _mean_se(m, float(feel[total]), float(feel[squares]))
                half = z_value() * se
                out[name] = Metric(name, "mean", mean / scale, ((mean - half) / scale, (mean + half) / scale), m)
    return out


def _mean_se(n: int, total: float, squares: float) -> tuple[float, float]:
    """A mean and its standard error from a sum and a sum of squares."""
    mean = total / n
    var = max(0.0, (squares - total * total / n) / (n - 1))
    return mean, math.sqrt(var / n)

