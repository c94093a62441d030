"""Game feel: who is ahead as a game goes, and what it says about the game.

Seat balance asks whether every seat wins its share; game feel asks how the
wins come about.  Each game declares its *standing* (``standing`` in its
kernel: its score where the score means standing, else the search's win
estimate ``evaluate``; ``GameSpec.standing_name`` says which), and the engine
samples it at every round end and at the game's end into a fixed per-game
record (``balance.engine``, ``FO_*``; docs/architecture.md), which the kernel
adds up, game by game at its end, into the counts below (``feel_count``: no
row per game is kept).  With ``R``
samples in a game (its round ends, then its end) and sample ``k`` taken at the
share ``k / R`` of the game, the counts below give:

* **lead changes** per game: how often a different seat is strictly ahead
  than the last one that was (a tie at the top changes nothing);
* **decisive moment**: ``k / R`` for the first sample ``k`` from which the
  eventual winner is strictly ahead at every sample (1 when it is not strictly
  ahead at the end); games with a winner;
* **P(win | leading at 25%, 50%, 75%)**: the share of games won by the seat
  strictly ahead at sample ``ceil(q R)``, among the games with one there; the
  runaway-leader curve, read against the fair share ``1 / seats``;
* **comeback rate**: the share of games won by the seat strictly last at
  half time (sample ``ceil(R / 2)``), among the games with one;
* **kingmaking** (3+ seats, games with a winner): a player's last chance of
  winning is read as the sample from which it stays last (ties too) to the
  end; the estimate is the share of games in which the seat strictly ahead at
  the first such moment of the game is not the eventual winner: the result
  changed while a player who could no longer win was still playing.  It
  counts every such change, whether or not that player caused it: an upper
  bound on kingmaking, not a proof of it;
* **final margin**: the leader's standing minus the next best, at the end
  (at the last round end where the standing is the win estimate: at the end
  that is a full win for the winner by definition).

Counts are integers (the decisive moment in thousandths), so aggregates merge
by addition in any order.  Proportions carry Wilson intervals, means their
normal interval from the standard error (every figure its interval and n).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from balance.stats import wilson, z_value

# The counts of int64[FEEL_COUNTS] (Aggregate.feel), in this order.
COUNTS = (
    "games",  # games with a game-feel record
    "changes_sum", "changes_sq",  # lead changes per game: sum, sum of squares
    "decisive_n", "decisive_sum", "decisive_sq",  # decisive moment (thousandths) over games with a winner
    "lead25_games", "lead50_games", "lead75_games",  # games with a strict leader at 25%, 50%, 75%
    "lead25_wins", "lead50_wins", "lead75_wins",  # ... won by that leader
    "trail50_games", "trail50_wins",  # games with a strict last place at half time; won by it
    "king_games", "king_changed",  # 3+ seats, a winner; the leader at a player's last chance did not win
    "margin_sum", "margin_sq",  # final margin (at the end)
    "round_margin_sum", "round_margin_sq",  # the margin at the last round end
)
FEEL_COUNTS = len(COUNTS)
AT = {name: i for i, name in enumerate(COUNTS)}
CHECKPOINTS = (0.25, 0.5, 0.75)
PERMILLE = 1000
WIN_ESTIMATE = "win estimate"  # GameSpec.standing_name of a game whose standing is its ``evaluate``


def reading(spec: Any) -> dict[str, Any]:
    """How a game's standing is read: its name, and whether the final margin
    is taken at the end (a score) or at the last round end (the win estimate)."""
    name = getattr(spec, "standing_name", WIN_ESTIMATE)
    at_end = getattr(spec, "margin_at_end", None)
    return {"standing": name, "margin_at_end": name != WIN_ESTIMATE if at_end is None else bool(at_end)}


def empty() -> np.ndarray:
    return np.zeros(FEEL_COUNTS, np.int64)


def _mean(n: int, total: float, squares: float, scale: float = 1.0) -> dict[str, Any]:
    """A mean from its sum and sum of squares, with its 95% normal interval."""
    if n <= 0:
        return {"mean": None, "ci95": [None, None], "n": 0}
    mean = total / n
    var = max(0.0, (squares - total * total / n) / (n - 1)) if n > 1 else float("nan")
    half = z_value() * math.sqrt(var / n) if n > 1 else float("nan")
    lo, hi = (mean - half, mean + half) if n > 1 else (None, None)
    return {
        "mean": mean / scale,
        "ci95": [None if lo is None else lo / scale, None if hi is None else hi / scale],
        "n": int(n),
    }


def _rate(wins: int, n: int, fair: float) -> dict[str, Any]:
    lo, hi = wilson(int(wins), int(n))
    return {"count": int(wins), "n": int(n), "rate": wins / n if n else None, "ci95": [lo, hi], "fair_share": fair}


def summarize(feel: np.ndarray | None, n_seats: int, standing: str = "", margin_at_end: bool = True) -> dict[str, Any] | None:
    """Every game-feel figure of an aggregate's counts, with intervals and n
    (None when no game kept a record: a GPU run, a store older than them)."""
    if feel is None or int(feel[AT["games"]]) == 0:
        return None
    c = {name: int(feel[i]) for i, name in enumerate(COUNTS)}
    n = c["games"]
    fair = 1.0 / n_seats
    margin = "margin" if margin_at_end else "round_margin"
    return {
        "games": n,
        "standing": standing,
        "lead_changes": _mean(n, c["changes_sum"], c["changes_sq"]),
        "decisive_moment": _mean(c["decisive_n"], c["decisive_sum"], c["decisive_sq"], PERMILLE),
        "lead_wins": [
            {"at": at, **_rate(c[f"lead{label}_wins"], c[f"lead{label}_games"], fair)}
            for at, label in zip(CHECKPOINTS, ("25", "50", "75"))
        ],
        "comeback": _rate(c["trail50_wins"], c["trail50_games"], fair),
        "kingmaking": _rate(c["king_changed"], c["king_games"], fair) if n_seats >= 3 else None,
        "final_margin": {
            **_mean(n, c[f"{margin}_sum"], c[f"{margin}_sq"]),
            "at": "end" if margin_at_end else "last round end",
        },
    }


def lead_at_half(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """P(win | leading at half time) of a summary (the check's metric)."""
    return None if summary is None else summary["lead_wins"][1]


def number_ci(mean: float, ci: Any) -> str:
    """A mean and its 95% interval for a table cell: three significant digits
    of the larger end."""
    lo, hi = ci
    if lo is None or hi is None:
        return f"{mean:.3g}"
    big = max(abs(lo), abs(hi), abs(mean))
    digits = 0 if big >= 100 else max(0, 2 - int(math.floor(math.log10(big)))) if big > 0 else 2
    return f"{mean:.{digits}f} ({lo:.{digits}f} to {hi:.{digits}f})"


def rows(summary: dict[str, Any], pct: Any) -> list[tuple[str, str, str]]:
    """The game-feel table: (figure, value with its 95% interval, games behind
    it); ``pct(rate, ci)`` writes a share."""
    out = []

    def mean_row(label: str, m: dict[str, Any], share: bool = False) -> None:
        if m["n"]:
            cell = pct(m["mean"], m["ci95"]) if share and m["ci95"][0] is not None else number_ci(m["mean"], m["ci95"])
            out.append((label, cell, f"{m['n']:,}"))

    def rate_row(label: str, r: dict[str, Any] | None) -> None:
        if r is not None and r["n"]:
            out.append((label, pct(r["rate"], r["ci95"]), f"{r['n']:,}"))

    mean_row("lead changes per game", summary["lead_changes"])
    mean_row("decisive moment (share of the game)", summary["decisive_moment"], share=True)
    fair = summary["lead_wins"][0]["fair_share"]
    for r in summary["lead_wins"]:
        rate_row(f"P(win | leading at {r['at']:.0%}) (fair {fair:.0%})", r)
    rate_row(f"comeback: last at half time wins (fair {fair:.0%})", summary["comeback"])
    rate_row("kingmaking estimate", summary["kingmaking"])
    m = summary["final_margin"]
    mean_row(f"final margin ({summary['standing']}, at the {m['at']})", m)
    return out
