"""Play many games: split a run into chunks, run the chunks, merge aggregates.

A :class:`Task` is a contiguous range of game indices of one run
(:class:`~balance.runspec.RunSpec`).  Each task runs ``GameSpec.simulate``
(all cores through the kernel's workers) and reduces the outcome arrays to an
:class:`~balance.aggregate.Aggregate` at once, so memory stays flat however
many games are played.  Because game ``g`` depends only on ``(seed, g)`` and
the rules, the merged aggregate is the same for any chunking, thread count or
executor (:mod:`balance.executors`).

:func:`balance.play.play` is ``balance run``: one run, validated, played on an
executor and summed up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from balance.aggregate import Aggregate
from balance.runspec import RunSpec, resolve_players
from balance.seating import seatings_for

# seatings_for and resolve_players are offered here too: what a hand-made batch needs.
__all__ = [
    "DEFAULT_CHUNK", "GPU_CHUNK", "Task", "execute", "resolve_players", "run_task", "seatings_for", "split",
    "tasks_for",
]

DEFAULT_CHUNK = 1 << 17  # games per task: big enough to amortise the call, small for progress
GPU_CHUNK = 1 << 22  # games per task on a GPU: one launch that fills every multiprocessor


@dataclass(frozen=True)
class Task:
    """Games ``first_game .. first_game + n_games - 1`` of one run.

    Plain data (picklable): a worker process resolves the game by name.
    ``point`` is the sweep point (or tournament table) the games count for.
    """

    run: RunSpec
    first_game: int
    n_games: int
    point: int = 0
    device: str = "cpu"  # "gpu": on a CUDA GPU (the same outcomes)
    versus: RunSpec | None = None  # other rules for the same games: a paired task (balance compare)


def split(first: int, n: int, chunk: int) -> Iterator[tuple[int, int]]:
    start = first
    end = first + n
    while start < end:
        size = min(chunk, end - start)
        yield start, size
        start += size


def tasks_for(run: RunSpec, chunk: int | None = None, *, point: int = 0, device: str = "cpu") -> list[Task]:
    """The run's games in chunks (paths made absolute for any worker)."""
    size = chunk or (GPU_CHUNK if device == "gpu" else DEFAULT_CHUNK)
    portable = run.absolute()
    return [Task(portable, first, n, point, device) for first, n in split(0, run.games, size)]


def run_task(task: Task) -> Aggregate:
    """Play one task and reduce it to an Aggregate (runs in any process); a task
    with ``versus`` rules plays its games under both (a PairedAggregate)."""
    if task.versus is not None:
        from balance.paired import run_pair

        return run_pair(task)
    r = task.run.resolved()
    out = r.spec.simulate(
        r.rules, list(r.strategies), r.seatings, task.run.seed, task.first_game, task.n_games, r.board,
        device=task.device,
    )
    return Aggregate.from_outcomes(out, r.seatings, task.first_game, len(r.strategies), len(r.spec.end_reasons))


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
