"""Figures of one rule set, each with its interval and sample size.

Shared by ``balance run``, the sweep report and ``balance check``: they all
turn an :class:`~balance.aggregate.Aggregate` into the same dictionary.

Also the two readings every page and verdict shares:

* **fair shares**: a seat's fair share of the wins is ``1/seats``; a player's is
  the seats it holds over the seats (a player in two of four seats: 50%), so a
  player is never judged against a one-seat share (:func:`fair_shares`);
* **verdicts from intervals**: a rate is *inside* a band when its whole 95%
  interval is, *outside* when the whole interval is outside, and *cannot
  tell* otherwise (:func:`band_verdict`); a statement of "no clear effect"
  carries the smallest effect the run could have shown (:func:`detectable_shift`).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any, Sequence

from balance.aggregate import Aggregate
from balance.stats import length_summary, wilson, z_value

INSIDE, OUTSIDE, CANNOT_TELL = "inside", "outside", "cannot tell"
POWER = 0.80  # the power at which a page states what a run could have detected


def band_verdict(ci: Sequence[float], band: Sequence[float]) -> str:
    """``inside`` (the whole 95% interval in the band), ``outside`` (the whole
    interval out of it) or ``cannot tell`` (the interval reaches across an edge)."""
    lo, hi = float(ci[0]), float(ci[1])
    low, high = float(band[0]), float(band[1])
    if low <= lo and hi <= high:
        return INSIDE
    if hi < low or lo > high:
        return OUTSIDE
    return CANNOT_TELL


def detectable_shift(
    n: int, share: float = 0.5, *, two_sample: bool = False, alpha: float = 0.05, power: float = POWER, tests: int = 1
) -> float:
    """The smallest shift of a proportion near ``share`` that ``n`` games show
    with probability ``power`` in a two-sided test at level ``alpha`` (divided by
    ``tests``, the Bonferroni bound of a Holm family): ``(z_(1-a/2) + z_power) *
    sqrt(share (1 - share) / n)``, doubled variance for the difference of two
    samples of ``n``.  A shift smaller than this would usually not show."""
    if n <= 0:
        return 1.0
    share = min(max(share, 1e-9), 1 - 1e-9)
    z = z_value(1.0 - alpha / max(1, tests)) + NormalDist().inv_cdf(power)
    return z * math.sqrt(share * (1 - share) * (2 if two_sample else 1) / n)


def fair_shares(agg: Aggregate) -> list[tuple[float, float]]:
    """Per player: ``(seats it holds a game, on average; its fair share of the wins)``.

    A player's fair share is the seats it holds over the seats: with the
    players ``saver, sprinter, router, router`` the router's is 2/4, whoever
    sits where (seats rotated or not)."""
    out = []
    for k in range(agg.n_strategies):
        games = int(agg.strategy_games[k])
        seats = float(agg.seat_strategy_games[:, k].sum()) / games if games else 0.0
        out.append((seats, seats / agg.n_seats if agg.n_seats else 0.0))
    return out


def _rate(successes: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(int(successes), int(n))
    return {"count": int(successes), "n": int(n), "rate": float(successes / n) if n else 0.0, "ci95": [lo, hi]}


def summarize(
    agg: Aggregate,
    strategies: Sequence[str],
    seat_players: Sequence[str],
    end_reasons: Sequence[str],
    score_name: str = "score",
    feel_reading: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Every figure of an aggregate as plain JSON-ready data (``feel_reading``:
    how the game's standing reads, ``balance.feel.reading``)."""
    from balance.feel import summarize as summarize_feel
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
                "fair_share": 1.0 / agg.n_seats,
                f"mean_{score_name}": float(agg.score_sum[s] / n) if n else 0.0,
            }
        )
    strat = []
    for k, (name, (held, fair)) in enumerate(zip(strategies, fair_shares(agg))):
        g = int(agg.strategy_games[k])
        r = _rate(agg.strategy_wins[k], g)
        strat.append(
            {
                "player": name, "games": g, "wins": r["count"], "win_rate": r["rate"], "ci95": r["ci95"],
                "seats": round(held, 6), "fair_share": fair,
            }
        )
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
        "detectable_seat_edge": detectable_shift(n, 1.0 / agg.n_seats) if n else None,
        "feel": summarize_feel(agg.feel, agg.n_seats, **(feel_reading or {})),
    }


def minutes(turns: dict[str, Any], seconds_per_turn: float, source: str = "") -> dict[str, Any] | None:
    """Game length in minutes at the table: the length in player turns (mean with
    its 95% interval, median, p90) times ``seconds_per_turn / 60``; None when the
    table time of a turn is not known."""
    if not seconds_per_turn or not turns:
        return None
    scale = float(seconds_per_turn) / 60.0
    half = 1.959963984540054 * turns["mean_se"] if math.isfinite(turns["mean_se"]) else 0.0
    return {
        "seconds_per_turn": float(seconds_per_turn),
        "source": source,
        "mean": turns["mean"] * scale,
        "mean_ci95": [(turns["mean"] - half) * scale, (turns["mean"] + half) * scale],
        "median": turns["median"] * scale,
        "p90": turns["p90"] * scale,
    }
