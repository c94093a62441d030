"""Counts over a set of games of one rule set: what every figure is computed from.

An :class:`Aggregate` reduces a batch's outcome arrays (:class:`balance.game.Outcomes`)
at once: wins per seat, per player and per (seat, player), end reasons (also
per winner), the histogram of game lengths, per-seat score sums and, for a
game with a per-cell heatmap, how often each cell was used, and the
game-feel counts (:mod:`balance.feel`).  Aggregates merge
by adding integers, so the merge order cannot change a number and memory
stays flat however many games are played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balance.feel import FEEL_COUNTS
from balance.game import Outcomes


@dataclass
class Aggregate:
    """Counts over a set of games of one rule set (mergeable)."""

    n_seats: int
    n_strategies: int
    n_reasons: int
    games: int = 0
    seat_wins: np.ndarray = field(default=None)  # int64[n_seats]
    strategy_wins: np.ndarray = field(default=None)  # int64[n_strategies]
    strategy_games: np.ndarray = field(default=None)  # int64[n_strategies]: games it took part in
    seat_strategy_games: np.ndarray = field(default=None)  # int64[n_seats, n_strategies]
    seat_strategy_wins: np.ndarray = field(default=None)  # int64[n_seats, n_strategies]
    no_winner: int = 0
    end_reasons: np.ndarray = field(default=None)  # int64[n_reasons]
    reason_by_winner: np.ndarray = field(default=None)  # int64[n_seats + 1, n_reasons]; row n_seats = no winner
    turns_hist: np.ndarray = field(default=None)  # int64[max turns + 1]
    score_sum: np.ndarray = field(default=None)  # float64[n_seats]
    heat: np.ndarray | None = None  # int64[cells]: per-cell counts of a game with a heatmap; None without
    feel: np.ndarray = field(default=None)  # int64[FEEL_COUNTS]: the game-feel counts (balance.feel)

    def __post_init__(self) -> None:
        z = np.zeros
        if self.feel is None:
            self.feel = z(FEEL_COUNTS, np.int64)
        if self.seat_wins is None:
            self.seat_wins = z(self.n_seats, np.int64)
        if self.strategy_wins is None:
            self.strategy_wins = z(self.n_strategies, np.int64)
        if self.strategy_games is None:
            self.strategy_games = z(self.n_strategies, np.int64)
        if self.seat_strategy_games is None:
            self.seat_strategy_games = z((self.n_seats, self.n_strategies), np.int64)
        if self.seat_strategy_wins is None:
            self.seat_strategy_wins = z((self.n_seats, self.n_strategies), np.int64)
        if self.end_reasons is None:
            self.end_reasons = z(self.n_reasons, np.int64)
        if self.reason_by_winner is None:
            self.reason_by_winner = z((self.n_seats + 1, self.n_reasons), np.int64)
        if self.turns_hist is None:
            self.turns_hist = z(1, np.int64)
        if self.score_sum is None:
            self.score_sum = z(self.n_seats, np.float64)

    @classmethod
    def from_outcomes(
        cls, out: Outcomes, seatings: np.ndarray, first_game: int, n_strategies: int, n_reasons: int
    ) -> "Aggregate":
        n_seats = seatings.shape[1]
        n = len(out)
        agg = cls(n_seats, n_strategies, n_reasons)
        agg.games = n
        if n == 0:
            return agg
        winner = out.winner.astype(np.int64)
        won = winner >= 0
        agg.seat_wins = np.bincount(winner[won], minlength=n_seats).astype(np.int64)
        agg.no_winner = int(n - won.sum())
        agg.end_reasons = np.bincount(out.end_reason.astype(np.int64), minlength=n_reasons).astype(np.int64)
        row = np.where(won, winner, n_seats)
        agg.reason_by_winner = (
            np.bincount(row * n_reasons + out.end_reason.astype(np.int64), minlength=(n_seats + 1) * n_reasons)
            .reshape(n_seats + 1, n_reasons)
            .astype(np.int64)
        )
        agg.turns_hist = np.bincount(out.turns.astype(np.int64)).astype(np.int64)
        agg.score_sum = out.score.astype(np.float64).sum(axis=0)
        if out.heat is not None:
            agg.heat = np.asarray(out.heat, dtype=np.int64).copy()
        if out.feel is not None:
            agg.feel = np.asarray(out.feel, dtype=np.int64).copy()
        # Seatings: game g uses seatings[g % P]; count games and wins per (seat, strategy).
        P = seatings.shape[0]
        perm = (np.arange(first_game, first_game + n, dtype=np.int64)) % P
        games_per_perm = np.bincount(perm, minlength=P)
        wins_per_perm_seat = np.bincount(perm[won] * n_seats + winner[won], minlength=P * n_seats).reshape(
            P, n_seats
        )
        for p in range(P):
            for s in range(n_seats):
                k = int(seatings[p, s])
                agg.seat_strategy_games[s, k] += games_per_perm[p]
                agg.seat_strategy_wins[s, k] += wins_per_perm_seat[p, s]
            for k in set(int(x) for x in seatings[p]):
                agg.strategy_games[k] += games_per_perm[p]
            for s in range(n_seats):
                agg.strategy_wins[int(seatings[p, s])] += wins_per_perm_seat[p, s]
        return agg

    def merge(self, other: "Aggregate") -> "Aggregate":
        out = Aggregate(self.n_seats, self.n_strategies, self.n_reasons)
        out.games = self.games + other.games
        out.no_winner = self.no_winner + other.no_winner
        for name in (
            "seat_wins",
            "strategy_wins",
            "strategy_games",
            "seat_strategy_games",
            "seat_strategy_wins",
            "end_reasons",
            "reason_by_winner",
            "score_sum",
            "feel",
        ):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        a, b = self.turns_hist, other.turns_hist
        size = max(a.shape[0], b.shape[0])
        out.turns_hist = np.zeros(size, np.int64)
        out.turns_hist[: a.shape[0]] += a
        out.turns_hist[: b.shape[0]] += b
        out.heat = _add_heat(self.heat, other.heat)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The fields, in order, as plain data (``heat`` only when there is one)."""
        out: dict[str, Any] = {}
        for key, value in vars(self).items():
            if key == "heat" and value is None:
                continue
            out[key] = value.tolist() if isinstance(value, np.ndarray) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Aggregate:
        """The inverse of :meth:`to_dict`."""
        agg = cls(int(data["n_seats"]), int(data["n_strategies"]), int(data["n_reasons"]))
        for key, value in data.items():
            if key in ("n_seats", "n_strategies", "n_reasons"):
                continue
            current = getattr(agg, key, None)
            if isinstance(current, np.ndarray):
                value = np.asarray(value, dtype=current.dtype)
            elif key == "heat" and value is not None:
                value = np.asarray(value, dtype=np.int64)
            setattr(agg, key, value)
        return agg


def _add_heat(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """Heat of two sets of games: cell by cell (a set of no games has none)."""
    if a is None or b is None:
        return None if a is None and b is None else (a if b is None else b).copy()
    if a.shape != b.shape:
        raise ValueError(f"heatmaps of {a.shape[0]} and {b.shape[0]} cells do not merge")
    return a + b
