"""Play many games: split them into chunks, run the chunks, merge aggregates.

A *task* is a contiguous range of game indices under one rule set.  Each task
runs ``GameSpec.simulate`` (all cores through ``prange``) and reduces the
outcome arrays to an :class:`Aggregate` at once, so memory stays flat however
many games are played.  Because game ``g`` depends only on ``(seed, g)`` and
the rules, the merged aggregate is the same for any chunking, thread count or
executor.
"""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np

from balance.errors import UserError
from balance.game import GameSpec, Outcomes, Player, PlayerInfo

DEFAULT_CHUNK = 1 << 17  # games per task: big enough to amortise the call, small for progress
GPU_CHUNK = 1 << 22  # games per task on a GPU: one launch that fills every multiprocessor
DEVICES = ("cpu", "gpu")


# --------------------------------------------------------------------------- aggregates
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

    def __post_init__(self) -> None:
        z = np.zeros
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
        ):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        a, b = self.turns_hist, other.turns_hist
        size = max(a.shape[0], b.shape[0])
        out.turns_hist = np.zeros(size, np.int64)
        out.turns_hist[: a.shape[0]] += a
        out.turns_hist[: b.shape[0]] += b
        return out


# --------------------------------------------------------------------------- configuration
def seatings_for(strategy_of_seat: Sequence[int], rotate: bool) -> np.ndarray:
    """``int64[P, n_seats]``: one row, or every distinct seating when rotating."""
    base = tuple(int(k) for k in strategy_of_seat)
    if not rotate:
        return np.asarray([base], dtype=np.int64)
    perms = sorted(set(itertools.permutations(base)))
    # Start from the seating as given, so game 0 is the unrotated game.
    perms.remove(base)
    return np.asarray([base, *perms], dtype=np.int64)


@dataclass(frozen=True)
class Task:
    """Games ``first_game .. first_game + n_games - 1`` of one rule set.

    Plain data (picklable): a worker process resolves the game by name.
    """

    game: str
    params: tuple[tuple[str, Any], ...]
    strategies: tuple[str, ...]
    seatings: tuple[tuple[int, ...], ...]
    seed: int
    first_game: int
    n_games: int
    board: str | None = None
    player_file: str | None = None
    point: int = 0  # index of the sweep point this task belongs to
    device: str = "cpu"  # "gpu": on a CUDA GPU (the same outcomes)


def resolve_players(
    spec: GameSpec, names: Sequence[str], player_file: str | None
) -> tuple[list[Player], list[int]]:
    """Distinct seated players (in order of first appearance) and, per seat, the
    index of its player.  A name may carry parameter values:
    ``greedy:reserve=3;side_step=false``."""
    extra = _player_file(spec, player_file)
    if not (spec.min_players <= len(names) <= spec.max_players):
        raise UserError(
            f"{len(names)} players for {spec.name}; allowed: {spec.min_players} to {spec.max_players}"
        )
    strategies: list[Player] = []
    seat_index: list[int] = []
    for name in names:
        seated = spec.parse_player(name, extra)
        if seated not in strategies:
            strategies.append(seated)
        seat_index.append(strategies.index(seated))
    return strategies, seat_index


_PLAYER_CACHE: dict[tuple[str, str], tuple[PlayerInfo, ...]] = {}


def _player_file(spec: GameSpec, player_file: str | None) -> tuple[PlayerInfo, ...]:
    """The players a file defines for ``spec``, loaded once per process."""
    if not player_file:
        return ()
    key = (spec.name, player_file)
    if key not in _PLAYER_CACHE:
        from balance.plugins import load_player_file

        _PLAYER_CACHE[key] = load_player_file(player_file, spec)
    return _PLAYER_CACHE[key]


def run_task(task: Task) -> Aggregate:
    """Play one task and reduce it to an Aggregate (runs in any process)."""
    from balance.registry import get_game

    spec = get_game(task.game)
    extra = _player_file(spec, task.player_file)
    players = [spec.parse_player(label, extra) for label in task.strategies]
    seatings = np.asarray(task.seatings, dtype=np.int64)
    board = spec.board_for(task.board)
    out = spec.simulate(
        dict(task.params), players, seatings, task.seed, task.first_game, task.n_games, board, device=task.device
    )
    return Aggregate.from_outcomes(out, seatings, task.first_game, len(players), len(spec.end_reasons))


def split(first: int, n: int, chunk: int) -> Iterator[tuple[int, int]]:
    start = first
    end = first + n
    while start < end:
        size = min(chunk, end - start)
        yield start, size
        start += size


# --------------------------------------------------------------------------- executors
class LocalExecutor:
    """Runs tasks one after another in this process; each uses every thread (prange)."""

    name = "local"

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads
        self._previous: int | None = None

    def __enter__(self) -> "LocalExecutor":
        if self.threads is not None:
            import numba

            if not 1 <= self.threads <= numba.config.NUMBA_NUM_THREADS:
                raise UserError(
                    f"--threads {self.threads}: allowed 1 to {numba.config.NUMBA_NUM_THREADS} on this machine"
                )
            self._previous = numba.get_num_threads()
            numba.set_num_threads(self.threads)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:  # leave the process as we found it
            import numba

            numba.set_num_threads(self._previous)
            self._previous = None

    def map_unordered(self, tasks: Sequence[Task]) -> Iterator[tuple[Task, Aggregate]]:
        for task in tasks:
            yield task, run_task(task)


def make_executor(threads: int | None = None, scheduler: str | None = None) -> Any:
    """The local executor, or the Dask one when a scheduler address is given."""
    scheduler = scheduler or os.environ.get("BALANCE_SCHEDULER") or None
    if scheduler:
        from balance.dask_executor import DaskExecutor  # optional extra

        return DaskExecutor(scheduler, threads)
    return LocalExecutor(threads)


def execute(
    tasks: Sequence[Task],
    executor: Any,
    on_result: Callable[[Task, Aggregate], None] | None = None,
) -> dict[int, Aggregate]:
    """Run every task, merge the aggregates per point (order-independent)."""
    merged: dict[int, Aggregate] = {}
    for task, agg in executor.map_unordered(tasks):
        merged[task.point] = merged[task.point].merge(agg) if task.point in merged else agg
        if on_result is not None:
            on_result(task, agg)
    return merged
