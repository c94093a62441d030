"""Runs to a precision (``--precision POINTS``): play in rounds until every
headline interval is narrow enough.

A run to a precision plays games ``0 .. n1-1``, then ``n1 .. n2-1`` and so on:
each round extends the same sequence of game indices (game ``g`` under seed
``S`` is always the same game, DESIGN.md's seeding contract), so the games
played are the first ``N`` games of the seed, exactly what ``--games N`` plays,
and the same command always stops at the same ``N``.  After each round the
widest headline half-width ``h`` at ``n`` games predicts the games needed,
``n (h / target)^2`` (a half-width shrinks as ``1/sqrt(n)``), and the next round
plays up to that many (at least 2% more, never past ``--max-games``; a
multiple of the seatings so each is played equally often).  The first round
is a quarter of what the worst case (a rate of 50%) needs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from balance.errors import UserError

MIN_ROUND = 1000
DEFAULT_MAX_GAMES = 10_000_000
Z95 = 1.959963984540054


def check_precision(precision: float | None, max_games: int | None) -> None:
    if precision is None:
        if max_games is not None:
            raise UserError("--max-games goes with --precision (without it, --games says how many games)")
        return
    if not isinstance(precision, (int, float)) or isinstance(precision, bool) or not 0.01 <= precision <= 50:
        raise UserError(f"--precision {precision}: expected a half-width in percentage points, 0.01 to 50")
    if max_games is not None and max_games < 1:
        raise UserError(f"--max-games {max_games}: expected a whole number of at least 1")


def worst_case_games(precision_points: float) -> int:
    """Games a rate of 50% needs for a 95% half-width of ``precision_points``."""
    h = precision_points / 100.0
    return math.ceil(Z95 * Z95 * 0.25 / (h * h))


def _round_up(n: int, multiple: int) -> int:
    return -(-n // multiple) * multiple


@dataclass
class Rounds:
    """What a run to a precision played: the games after each round and the widest
    headline half-width then (in points)."""

    precision: float
    max_games: int
    games: list[int] = field(default_factory=list)
    widest: list[float] = field(default_factory=list)

    @property
    def reached(self) -> bool:
        return bool(self.widest) and self.widest[-1] <= self.precision + 1e-12

    def sentence(self) -> str:
        n = self.games[-1] if self.games else 0
        rounds = len(self.games)
        if self.reached:
            return (
                f"--precision {self.precision:g}: every headline 95% interval is at most ±{self.precision:g} points "
                f"(widest ±{self.widest[-1]:.2f}) after {n:,} games in {rounds} round{'s' if rounds != 1 else ''}"
            )
        return (
            f"--precision {self.precision:g} not reached: the widest headline 95% interval is ±{self.widest[-1]:.2f} "
            f"points after {n:,} games (--max-games {self.max_games:,}); about "
            f"{math.ceil(n * (self.widest[-1] / self.precision) ** 2):,} games would reach it"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "precision_points": self.precision, "max_games": self.max_games, "reached": self.reached,
            "rounds": [{"games": g, "widest_half_width_points": w} for g, w in zip(self.games, self.widest)],
        }


def play_rounds(
    play_range: Callable[[int, int], Any],
    half_widths: Callable[[Any], Sequence[float]],
    precision: float,
    max_games: int | None = None,
    multiple: int = 1,
) -> tuple[Any, Rounds]:
    """Play rounds of games until every half-width (shares, 0..1) is at most
    ``precision`` points: ``play_range(first_game, n)`` plays games
    ``first_game .. first_game + n - 1`` and returns a mergeable aggregate."""
    cap = max_games or DEFAULT_MAX_GAMES
    rounds = Rounds(precision, cap)
    target = precision / 100.0
    size = min(cap, _round_up(max(MIN_ROUND, worst_case_games(precision) // 4), multiple))
    done = 0
    total: Any = None
    while True:
        size = max(1, min(size, cap - done))
        agg = play_range(done, size)
        total = agg if total is None else total.merge(agg)
        done += size
        widest = max(half_widths(total), default=0.0)
        rounds.games.append(done)
        rounds.widest.append(100.0 * widest)
        if widest <= target + 1e-12 or done >= cap:
            return total, rounds
        needed = math.ceil(done * (widest / target) ** 2)
        size = _round_up(max(needed - done, math.ceil(0.02 * done), 1), multiple)


def seat_half_widths(agg: Any) -> list[float]:
    """Half-widths of the Wilson intervals of every seat's and player's win rate."""
    from balance.stats import wilson

    out = []
    for wins in agg.seat_wins:
        lo, hi = wilson(int(wins), agg.games)
        out.append((hi - lo) / 2)
    if agg.n_strategies > 1:
        for wins, games in zip(agg.strategy_wins, agg.strategy_games):
            lo, hi = wilson(int(wins), int(games))
            out.append((hi - lo) / 2)
    return out


class PointSet:
    """Every point's (or table's) aggregate of one round, merged point by point."""

    def __init__(self, aggs: dict[int, Any]) -> None:
        self.aggs = aggs

    def merge(self, other: PointSet) -> PointSet:
        return PointSet({i: a.merge(other.aggs[i]) for i, a in self.aggs.items()})


def play_points_rounds(
    runs: dict[int, Any],
    executor: Any,
    precision: float,
    max_games: int | None,
    multiple: int,
    chunk: int,
    device: str = "cpu",
    progress: Callable[[int], None] | None = None,
) -> tuple[PointSet, Rounds]:
    """Rounds of the same game indices at every point (a sweep's points, a
    tournament's tables) until each point's seats and players are precise enough."""
    from balance.runner import Task, split

    def play_range(first: int, n: int) -> PointSet:
        tasks = [Task(run, f, k, i, device) for i, run in runs.items() for f, k in split(first, n, chunk)]
        merged: dict[int, Any] = {}
        for task, agg in executor.map_unordered(tasks):
            merged[task.point] = merged[task.point].merge(agg) if task.point in merged else agg
            if progress is not None:
                progress(agg.games)
        return PointSet(merged)

    def widths(points: PointSet) -> list[float]:
        return [h for agg in points.aggs.values() for h in seat_half_widths(agg)]

    return play_rounds(play_range, widths, precision, max_games, multiple)
