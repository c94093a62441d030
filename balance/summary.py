"""Figures of one rule set, each with its interval and sample size.

Shared by ``balance run``, the sweep report and ``balance check``: they all
turn an :class:`~balance.aggregate.Aggregate` into the same dictionary.
"""

from __future__ import annotations

from typing import Any, Sequence

from balance.aggregate import Aggregate
from balance.stats import length_summary, wilson


def _rate(successes: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(int(successes), int(n))
    return {"count": int(successes), "n": int(n), "rate": float(successes / n) if n else 0.0, "ci95": [lo, hi]}


def summarize(
    agg: Aggregate,
    strategies: Sequence[str],
    seat_players: Sequence[str],
    end_reasons: Sequence[str],
    score_name: str = "score",
) -> dict[str, Any]:
    """Every figure of an aggregate as plain JSON-ready data."""
    n = agg.games
    seats = []
    for s in range(agg.n_seats):
        r = _rate(agg.seat_wins[s], n)
        seats.append(
            {
                "seat": s,
                "player": seat_players[s],
                "games": n,
                "wins": r["count"],
                "win_rate": r["rate"],
                "ci95": r["ci95"],
                f"mean_{score_name}": float(agg.score_sum[s] / n) if n else 0.0,
            }
        )
    strat = []
    for k, name in enumerate(strategies):
        g = int(agg.strategy_games[k])
        r = _rate(agg.strategy_wins[k], g)
        strat.append({"player": name, "games": g, "wins": r["count"], "win_rate": r["rate"], "ci95": r["ci95"]})
    no_winner = _rate(agg.no_winner, n)
    reasons = {name: int(agg.end_reasons[i]) for i, name in enumerate(end_reasons)}
    shares = {}
    for i, name in enumerate(end_reasons):
        r = _rate(agg.end_reasons[i], n)
        shares[name] = {"share": r["rate"], "ci95": r["ci95"]}
    turns = length_summary(agg.turns_hist) if n else {}
    return {
        "games": n,
        "seats": seats,
        "strategies": strat,
        "no_winner": int(agg.no_winner),
        "no_winner_rate": {"rate": no_winner["rate"], "ci95": no_winner["ci95"]},
        "end_reasons": reasons,
        "end_reason_shares": shares,
        "turns": turns,
    }
