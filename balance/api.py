"""The Python API behind every command.  The CLI only parses and prints.

=====================  ==============================================  ======================
``run(game, ...)``     play one run, its figures                        :mod:`balance.runner`
``trace(game, ...)``   one game, event by event                         (here)
``sweep(game, ...)``   a grid of rule variants, stored                  :mod:`balance.sweep`
``report(run_dir)``    the HTML report of a sweep and its JSON twin     :mod:`balance.report`
``run_report(r, out)`` the HTML page of one run (``run --report``)      :mod:`balance.report.run`
``baseline(...)``      record a run's figures as a baseline             :mod:`balance.check`
``check(...)``         replay baselines with today's rules, compare     :mod:`balance.check`
``update(...)``        record every baseline again                      :mod:`balance.check`
``init(game)``         write a starter ``balance.toml``                 :mod:`balance.config`
``load(run_dir)``      a sweep's counts as a polars DataFrame           :mod:`balance.store`
``tournament(...)``    players against each other, rated                :mod:`balance.tournaments`
``train(...)``         a heuristic's parameters tuned against a field   :mod:`balance.train`
``tune(...)``          rule values meeting targets for every line-up    :mod:`balance.tune`
``sensitivity(...)``   which rules matter for each headline metric      :mod:`balance.sensitivity`
``warmup(game)``       a game's kernel compiled ahead (numba's cache)   :mod:`balance.warmup`
=====================  ==============================================  ======================

``import balance`` offers ``balance.run``, ``balance.trace``, ``balance.baseline``,
``balance.init`` and ``balance.load`` directly; ``balance.sweep``,
``balance.report`` and ``balance.check`` name the modules (call
``balance.api.sweep(...)``, or ``from balance.sweep import sweep``).

Every entry point validates all its input before any game is played; a
mistake is a one-line :class:`~balance.errors.UserError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from balance.check import baseline, check, update
from balance.config import Config, default_game, init, run_for
from balance.errors import UserError
from balance.report import report
from balance.play import RunResult, play
from balance.runspec import RunSpec, check_seed
from balance.store import load
from balance.sweep import sweep
from balance.tournaments import tournament
from balance.train import train
from balance.sensitivity import sensitivity
from balance.tune import tune
from balance.warmup import games_to_warm, warmup

__all__ = [
    "RunResult", "RunSpec", "baseline", "check", "default_game", "init", "load", "play", "report", "run",
    "run_report", "sensitivity", "state_at", "sweep", "tournament", "trace", "train", "tune", "update", "warmup",
    "games_to_warm",
]


def run(
    game: str | None = None,
    *,
    games: int | None = None,
    players: str | Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    seed: int | None = None,
    board: str | None = None,
    rotate_seats: bool | None = None,
    player_file: str | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    progress: Callable[[int], None] | None = None,
    device: str = "cpu",
    config: str | Path | Config | None = None,
    use_config: bool = False,
    on_start: Callable[[int], None] | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    seconds_per_turn: float | None = None,
) -> RunResult:
    """Play ``games`` games of one rule set and return their figures.

    Arguments left at None take the defaults (1,000,000 games, seed 0, the
    game's rules and players, fixed seats), or, with a rule file (``config``,
    or ``./balance.toml`` when ``use_config``), the file's ``[game]``, ``[params]``
    and ``[cluster] scheduler``; the arguments given override the file
    (:func:`balance.config.run_for`).
    ``on_start`` is called with the number of games to play once it is known,
    ``progress`` with the number of games finished after each chunk.
    ``device="gpu"`` plays on a CUDA GPU (games with a GPU kernel; the same numbers).
    ``precision`` (points) plays rounds until every seat's and player's 95% interval
    is at most that wide on each side, ``max_games`` at most (:mod:`balance.precision`).
    The description alone (a :class:`RunSpec`) is played by :func:`play`.
    """
    description, cfg = run_for(
        game, config=config, use_config=use_config, params=params, players=players, games=games, seed=seed,
        rotate_seats=rotate_seats, board=board, player_file=player_file,
    )
    if on_start is not None and precision is None:
        on_start(description.games)
    if scheduler is None and cfg is not None:
        scheduler = cfg.scheduler  # [cluster] scheduler of the rule file
    result = play(description, threads=threads, scheduler=scheduler, chunk=chunk, progress=progress, device=device,
                  precision=precision, max_games=max_games, seconds_per_turn=seconds_per_turn)
    if cfg is not None:
        result.extra["rule_file"] = cfg.where
    return result


def trace(
    game: str | None = None,
    *,
    seed: int | None = None,
    game_index: int = 0,
    players: str | Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    board: str | None = None,
    player_file: str | None = None,
    config: str | Path | Config | None = None,
    use_config: bool = False,
) -> list[dict[str, Any]]:
    """The events of one game (game ``game_index`` under ``seed``, default 0),
    with the rule file's run under the arguments given, like :func:`run`."""
    import numpy as np

    if seed is not None:
        check_seed(seed)
    if game_index < 0:
        raise UserError(f"--game-index {game_index}: expected a whole number of at least 0")
    description, _ = run_for(
        game, config=config, use_config=use_config, params=params, players=players, seed=seed, board=board,
        player_file=player_file,
    )
    r = description.replace(games=1).resolved()
    seating = np.asarray([r.seat_index], dtype=np.int64)
    return r.spec.trace(dict(r.rules), list(r.strategies), seating, r.run.seed, game_index, r.board)


def state_at(
    game: str | None = None,
    decision: int = 1,
    *,
    seed: int | None = None,
    game_index: int = 0,
    players: str | Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    board: str | None = None,
    player_file: str | None = None,
    config: str | Path | Config | None = None,
    use_config: bool = False,
    static: bool = False,
) -> dict[str, Any]:
    """The state of one game (the game :func:`trace` plays) when its
    ``decision``-th decision is asked (1 = the first): who is asked, what kind
    of decision about what, and the state region by region (``text``)."""
    if seed is not None:
        check_seed(seed)
    if game_index < 0:
        raise UserError(f"--game-index {game_index}: expected a whole number of at least 0")
    if decision < 1:
        raise UserError(f"--state {decision}: the first decision is 1")
    description, _ = run_for(
        game, config=config, use_config=use_config, params=params, players=players, seed=seed, board=board,
        player_file=player_file,
    )
    r = description.replace(games=1).resolved()
    seated = [r.strategies[i] for i in r.seat_index]
    position = r.spec.position(dict(r.rules), seated, seed=r.run.seed, game=game_index, board=r.board)
    pending = position.advance()
    asked = 0 if pending is None else 1
    while pending is not None and asked < decision:
        position.answer(position.decide())
        pending = position.advance()
        asked += pending is not None
    if pending is None:
        raise UserError(
            f"--state {decision}: game {game_index} of seed {r.run.seed} asks {asked} decisions; allowed: 1..{asked}"
        )
    seat, kind, subject = pending
    return {
        "game": r.spec.name,
        "seed": r.run.seed,
        "game_index": game_index,
        "decision": decision,
        "seat": seat,
        "player": position.job.labels[0][seat],
        "kind": kind,
        "subject": subject,
        "turn": int(position.st[_turn_slot()]),
        "text": position.describe(static=static),
    }


def _turn_slot() -> int:
    from balance.state import TURN

    return int(TURN)


def run_report(
    result: RunResult,
    out: str,
    *,
    png: str | None = None,
    band: tuple[float, float] | None = None,
    command: str | None = None,
) -> Any:
    """Write the HTML page of one run (``balance run --report``) and its JSON twin:
    win rates per seat and per player with their intervals and verdicts, end
    reasons, game length, the rules that differ from the defaults and the board.

    >>> r = run("GAME", games=20_000)          # doctest: +SKIP
    >>> run_report(r, "reports/run.html").html  # doctest: +SKIP
    """
    from balance.report.run import run_report as write
    from balance.sweep import _versions, git_commit

    return write(result, out, png=png, band=band, command=command,
                 provenance={"versions": _versions(), "commit": git_commit()})
