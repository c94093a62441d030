"""``balance run``: one run description validated, played and summed up.

:func:`play` checks everything before a game is played, splits the run into
tasks (:mod:`balance.runner`), plays them on the executor asked for
(:mod:`balance.executors`) and returns a :class:`RunResult`: what was played
(every rule listed), the merged aggregate and the figures.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from balance.aggregate import Aggregate
from balance.errors import UserError
from balance.runner import execute, tasks_for
from balance.runspec import RunSpec, check_device
from balance.seating import uneven_warning


def check_gpu_run(spec: Any, scheduler: str | None, player_file: str | None) -> None:
    """Everything ``--device gpu`` needs, checked before any game is played."""
    if not spec.has_gpu:
        from balance.registry import game_names, get_game

        with_gpu = [n for n in game_names() if get_game(n).has_gpu]
        raise UserError(
            f"--device gpu: {spec.name} has no GPU kernel; games with one: {', '.join(with_gpu) or 'none'}"
        )
    if scheduler or os.environ.get("BALANCE_SCHEDULER"):
        raise UserError("--device gpu runs on this machine; drop --scheduler (and BALANCE_SCHEDULER)")
    if player_file:
        raise UserError("--device gpu plays the built-in players only; a --player-file runs with --device cpu")
    from balance.gpu import require_cuda

    require_cuda()


@dataclass
class RunResult:
    """One run's results: what was played (``run``, every rule listed), the
    aggregate and the figures."""

    run: RunSpec
    strategies: list[str]  # each distinct player's label
    aggregate: Aggregate
    elapsed_s: float
    end_reasons: list[str]
    score_name: str
    extra: dict[str, Any] = field(default_factory=dict)
    device: str = "cpu"

    @property
    def game(self) -> str:
        return self.run.game

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.run.params)

    @property
    def players(self) -> list[str]:
        return list(self.run.players or ())

    @property
    def seed(self) -> int:
        return self.run.seed

    @property
    def games(self) -> int:
        return self.run.games

    @property
    def rotate_seats(self) -> bool:
        return self.run.rotate_seats

    @property
    def board(self) -> str | None:
        return self.run.board

    @property
    def params_changed(self) -> dict[str, dict[str, Any]]:
        """The rules that differ from the game's defaults: ``{name: {"value", "default"}}``."""
        from balance.registry import get_game

        defaults = get_game(self.game).defaults()
        return {
            k: {"value": v, "default": defaults.get(k)} for k, v in self.params.items() if defaults.get(k) != v
        }

    @property
    def feel_reading(self) -> dict[str, Any]:
        from balance.feel import reading
        from balance.registry import get_game

        return reading(get_game(self.game))

    def holes(self, end_counts: dict[str, int]) -> list[dict[str, Any]]:
        """The caps this line-up hit in more than 1% of its games (balance.holes)."""
        from balance.holes import find_holes
        from balance.registry import get_game

        return [h.to_dict() for h in find_holes(get_game(self.game), end_counts, self.players, self.params)]

    def to_dict(self) -> dict[str, Any]:
        from balance import __version__
        from balance.summary import summarize

        seat_players = ["rotated"] * len(self.players) if self.rotate_seats else self.players
        figures = summarize(
            self.aggregate, self.strategies, seat_players, self.end_reasons, self.score_name, self.feel_reading
        )
        from balance.summary import minutes

        figures["minutes"] = minutes(figures["turns"], self.extra.get("seconds_per_turn", 0.0),
                                     self.extra.get("seconds_per_turn_source", ""))
        return {
            "holes": self.holes(figures["end_reasons"]),
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "params": self.params,
            "params_changed": self.params_changed,
            "players": self.players,
            "rotate_seats": self.rotate_seats,
            "board": self.board,
            "player_file": self.run.player_file,
            "device": self.device,
            **figures,
            "elapsed_s": self.elapsed_s,
            "games_per_second": self.games / self.elapsed_s if self.elapsed_s > 0 else None,
            "version": __version__,
            **self.extra,
        }


def play(
    run: RunSpec,
    *,
    threads: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    progress: Callable[[int], None] | None = None,
    device: str = "cpu",
    precision: float | None = None,
    max_games: int | None = None,
    seconds_per_turn: float | None = None,
) -> RunResult:
    """Validate ``run``, play its games on the executor asked for, and sum them up.

    ``progress`` is called with the number of games finished after each chunk;
    ``device="gpu"`` plays on a CUDA GPU (games with a GPU kernel; the same numbers).
    """
    from balance.executors import make_executor

    check_device(device)
    r = run.resolved()
    if device == "gpu":
        check_gpu_run(r.spec, scheduler, run.player_file)
    extra: dict[str, Any] = {}
    if seconds_per_turn is not None:
        if not 0 < seconds_per_turn <= 86_400:
            raise UserError(f"--seconds-per-turn {seconds_per_turn:g}: expected seconds, more than 0 and at most 86400")
        extra.update(seconds_per_turn=float(seconds_per_turn), seconds_per_turn_source=f"--seconds-per-turn {seconds_per_turn:g}")
    elif r.spec.seconds_per_turn:
        extra.update(seconds_per_turn=float(r.spec.seconds_per_turn), seconds_per_turn_source=r.spec.seconds_per_turn_source)
    start = time.perf_counter()
    with make_executor(threads, scheduler) as executor:
        if precision is None:
            merged = execute(tasks_for(r.run, chunk, device=device), executor, (lambda t, a: progress(a.games)) if progress else None)
        else:  # rounds of the seed's next game indices (balance.precision)
            from balance.precision import check_precision, play_rounds, seat_half_widths
            from balance.runner import Task, split

            check_precision(precision, max_games)
            portable = r.run.absolute()

            def play_range(first: int, n: int) -> Aggregate:
                from balance.runner import DEFAULT_CHUNK, GPU_CHUNK

                size = chunk or (GPU_CHUNK if device == "gpu" else DEFAULT_CHUNK)
                tasks = [Task(portable, f, k, 0, device) for f, k in split(first, n, size)]
                return execute(tasks, executor, (lambda t, a: progress(a.games)) if progress else None)[0]

            total, rounds = play_rounds(play_range, seat_half_widths, precision, max_games, r.seatings.shape[0])
            merged = {0: total}
            r = dataclasses.replace(r, run=r.run.replace(games=total.games))
            run = run.replace(games=total.games)
            extra["precision"] = rounds.to_dict()
            extra["precision_note"] = rounds.sentence()
    elapsed = time.perf_counter() - start
    warning = uneven_warning(run.games, r.seatings.shape[0])
    if run.rotate_seats and warning:
        extra["warning"] = warning
    seat_players = [r.strategies[k].label for k in r.seat_index]
    if not run.rotate_seats and len(set(seat_players)) > 1:
        extra["seat_note"] = (
            f"the seats hold different players ({', '.join(seat_players)}) and do not rotate: the win rate by seat "
            "mixes each seat's edge with its player's strength (--rotate-seats, or one player in every seat, "
            "separates them)"
        )
    return RunResult(
        run=r.run,
        strategies=r.labels,
        aggregate=merged[0],
        elapsed_s=elapsed,
        end_reasons=r.spec.end_reason_names,
        score_name=r.spec.score_name,
        extra=extra,
        device=device,
    )
