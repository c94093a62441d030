"""``balance baseline``, ``balance baseline --update`` and ``balance check``: the commands.

``baseline`` plays one run (the rule file's, or a game's defaults) and records
every metric with its counts and 95% interval (:mod:`balance.check.baseline_file`).
``check`` replays each baseline's games with today's code and rules
(:mod:`balance.check.plan`), compares metric by metric
(:mod:`balance.check.comparison`) and returns a :class:`CheckReport`, rendered
by :mod:`balance.check.render`.  ``update`` records every baseline again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from balance.check.baseline_file import FORMAT, Baseline, default_baseline_path
from balance.check.comparison import Comparison, TargetResult, compare
from balance.check.metrics import counts_of, metrics_of
from balance.check.plan import CheckPlan, load_plans, plan_from_config
from balance.config import Config, find_config, targets_to_dict
from balance.errors import UserError
from balance.play import RunResult


def _config(config: str | Path | Config | None, use_config: bool) -> Config | None:
    return config if isinstance(config, Config) else find_config(config, use_default=use_config)


def _play(
    plan: CheckPlan,
    threads: int | None,
    scheduler: str | None,
    progress: Callable[[int], None] | None,
) -> RunResult:
    from balance.play import play

    return play(plan.run, threads=threads, scheduler=scheduler, progress=progress)


def _seconds_per_turn(game: str) -> float:
    from balance.registry import get_game

    return float(get_game(game).seconds_per_turn or 0.0)


def _play_sequential(
    b: Baseline, plan: CheckPlan, looks: int, threads: int | None, scheduler: str | None,
    progress: Callable[[int], None] | None,
) -> tuple[Any, list[Comparison], list[TargetResult], dict[str, Any]]:
    """The baseline's games in looks of the seed's game indices (check.sequential)."""
    from balance.check.sequential import looks_for, sequential_compare
    from balance.executors import make_executor
    from balance.runner import Task, execute, split

    if isinstance(looks, bool) or not isinstance(looks, int) or not 2 <= looks <= 20:
        raise UserError(f"--looks {looks}: expected a whole number of looks, 2 to 20")
    r = plan.run.resolved()
    portable = r.run.absolute()
    state: dict[str, Any] = {"games": 0, "agg": None}
    spt = _seconds_per_turn(plan.game)
    from balance.feel import reading

    feel_reading = reading(r.spec)

    def play_until(n: int) -> dict[str, Any]:
        tasks = [Task(portable, f, k) for f, k in split(state["games"], n - state["games"], 1 << 17)]
        agg = execute(tasks, executor, (lambda t, a: progress(a.games)) if progress else None)[0]
        state["agg"] = agg if state["agg"] is None else state["agg"].merge(agg)
        state["games"] = n
        return counts_of(state["agg"], r.labels, r.spec.end_reason_names, spt, feel_reading)

    with make_executor(threads, scheduler) as executor:
        marks = looks_for(plan.run.games, looks, r.seatings.shape[0])
        rows, targets, info = sequential_compare(b.data["counts"], play_until, marks, plan.settings, plan.targets)
    result = RunResult(r.run.replace(games=state["games"]), r.labels, state["agg"], 0.0, r.spec.end_reason_names,
                       r.spec.score_name)
    return result, rows, targets, info


def _record(plan: CheckPlan, result: RunResult) -> dict[str, Any]:
    from balance import __version__

    counts = counts_of(
        result.aggregate, result.strategies, result.end_reasons, _seconds_per_turn(plan.game), result.feel_reading
    )
    run = plan.run
    return {
        "format": FORMAT,
        "game": plan.game,
        "version": __version__,
        "created": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "config": {
            "params": plan.overrides,
            "rules": result.params,
            "players": list(result.players),
            "seed": run.seed,
            "games": run.games,
            "rotate_seats": run.rotate_seats,
            "board": run.board,
            "player_file": run.player_file,
            "rule_file": plan.rule_file,
        },
        "targets": targets_to_dict(plan.targets),
        "check": plan.settings.to_dict(),
        "counts": counts,
        "metrics": [m.to_dict() for m in metrics_of(counts).values()],
        "elapsed_s": round(result.elapsed_s, 3),
    }


def baseline(
    game: str | None = None,
    *,
    config: str | Path | Config | None = None,
    use_config: bool = True,
    games: int | None = None,
    seed: int | None = None,
    players: str | Sequence[str] | None = None,
    output: str | Path | None = None,
    write: bool = True,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> Baseline:
    """Play one configuration and record its baseline (written to ``output``,
    default ``reports/baselines/GAME.json``, unless ``write=False``).

    The configuration comes from the rule file in force (``config``, else
    ``./balance.toml`` when ``use_config``), or from ``game`` with its default
    rules; ``games``, ``seed`` and ``players`` override it.  ``on_start`` is
    called with the number of games to play, ``progress`` as they finish.
    """
    from balance.registry import get_game
    from balance.runspec import check_games, check_seed, split_players

    cfg = _config(config, use_config)
    if cfg is not None:
        if game is not None and game != cfg.game:
            raise UserError(f"game {game!r} given, but {cfg.where} is for {cfg.game!r}")
        spec = get_game(cfg.game)
        plan = plan_from_config(cfg, spec)
    elif game is None:
        raise UserError(
            "no balance.toml here: give a game ('balance baseline GAME') or --config FILE"
        )
    else:
        spec = get_game(game)
        plan = plan_from_config(Config.for_game(spec.name), spec)
        plan.rule_file = None
    if games is not None:
        plan.run = plan.run.replace(games=check_games(games))
    if seed is not None:
        plan.run = plan.run.replace(seed=check_seed(seed))
    if players is not None:
        plan.run = plan.run.replace(players=split_players(players))
    if on_start is not None:
        on_start(plan.run.games)
    result = _play(
        plan, threads, scheduler or (cfg.scheduler if cfg else None), progress
    )
    out = Baseline(
        Path(output) if output is not None else default_baseline_path(spec.name),
        _record(plan, result),
    )
    if write:
        out.save()
    return out


def update(
    paths: Sequence[str | Path] | None = None,
    *,
    config: str | Path | Config | None = None,
    use_config: bool = True,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
) -> list[Baseline]:
    """Record every baseline again (default: all of ``reports/baselines/``) from its own
    configuration: players, seed and games as recorded, today's code and rules.
    ``on_start`` is called with the number of games of them all."""
    from balance.errors import Interrupted

    cfg = _config(config, use_config)
    out = []
    plans = load_plans(paths, cfg)
    if on_start is not None:
        on_start(sum(plan.run.games for _, plan in plans))
    try:
        for old, plan in plans:
            result = _play(
                plan, threads, scheduler or (cfg.scheduler if cfg else None), progress
            )
            new = Baseline(old.path, _record(plan, result))
            new.save()
            out.append(new)
    except KeyboardInterrupt:
        done = ", ".join(str(b.path) for b in out) or "none"
        raise Interrupted(
            f"{len(out)} of {len(plans)} baselines recorded again ({done}); the others unchanged"
        ) from None
    return out


# --------------------------------------------------------------------------- checking
@dataclass
class BaselineCheck:
    """The check of one baseline."""

    path: str
    game: str
    games: int
    seed: int
    players: list[str]
    alpha: float
    correction: str
    rules_changed: dict[str, tuple[Any, Any]]
    comparisons: list[Comparison]
    targets: list[TargetResult]
    elapsed_s: float
    sequential: dict[str, Any] | None = None  # check --sequential: the looks played and why it stopped

    @property
    def regressions(self) -> list[Comparison]:
        return [c for c in self.comparisons if c.failed]

    @property
    def failed_targets(self) -> list[TargetResult]:
        return [t for t in self.targets if t.failed]

    @property
    def warnings(self) -> list[TargetResult]:
        return [t for t in self.targets if t.verdict == "warn"]

    @property
    def passed(self) -> bool:
        return not self.regressions and not self.failed_targets

    def status(self) -> str:
        parts = []
        if self.regressions:
            parts.append(
                f"{len(self.regressions)} regression{'s' * (len(self.regressions) != 1)}"
            )
        if self.failed_targets:
            parts.append(
                f"{len(self.failed_targets)} failed target{'s' * (len(self.failed_targets) != 1)}"
            )
        if self.warnings:
            parts.append(
                f"{len(self.warnings)} warning{'s' * (len(self.warnings) != 1)}"
            )
        return ("PASS" if self.passed else "FAIL") + (
            f" ({', '.join(parts)})" if parts else ""
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "baseline": self.path,
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "players": self.players,
            "alpha": self.alpha,
            "correction": self.correction,
            "passed": self.passed,
            "rules_changed": {
                k: {"baseline": a, "now": b} for k, (a, b) in self.rules_changed.items()
            },
            "metrics": [c.to_dict() for c in self.comparisons],
            "targets": [t.to_dict() for t in self.targets],
            "elapsed_s": self.elapsed_s,
            **({"sequential": self.sequential} if self.sequential else {}),
        }


@dataclass
class CheckReport:
    """Every baseline's check; ``exit_code`` is 0 when all pass, 1 otherwise."""

    results: list[BaselineCheck] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "baselines": [r.to_dict() for r in self.results]}

    def to_text(self) -> str:
        from balance.check.render import render_text

        return render_text(self)

    def to_markdown(self) -> str:
        from balance.check.render import render_markdown

        return render_markdown(self)

    def to_junit(self) -> str:
        from balance.check.render import render_junit

        return render_junit(self)

    def to_html(self) -> str:
        """A self-contained HTML page: the verdict table with intervals, coloured by verdict."""
        from balance.check.render import render_html

        return render_html(self)


def check(
    baselines: Sequence[str | Path] | None = None,
    *,
    config: str | Path | Config | None = None,
    use_config: bool = True,
    seed: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    sequential: int | None = None,
) -> CheckReport:
    """Re-play each baseline's games with today's code and rules and compare.

    ``sequential``: play them in that many looks and stop when the verdict is
    certain (:mod:`balance.check.sequential`).

    ``baselines``: files (default: every ``reports/baselines/*.json``).  The rule
    file in force (``config``, else ``./balance.toml`` when ``use_config``) gives
    today's rules, targets and tolerances and must be of the baselines' game;
    without one, a baseline is checked with today's defaults updated by the
    overrides it recorded, and its recorded targets and tolerances.  ``seed``
    replaces the recorded seed (independent games: for measuring false alarms).
    Every input is validated before any game is played.
    """
    from balance.runspec import check_seed

    cfg = _config(config, use_config)
    if seed is not None:
        check_seed(seed)
    plans = load_plans(baselines, cfg)
    if on_start is not None:
        on_start(sum(plan.run.games for _, plan in plans))
    report = CheckReport()
    for b, plan in plans:
        if seed is not None:
            plan.run = plan.run.replace(seed=seed)
        start = time.perf_counter()
        seq = None
        if sequential is None:
            result = _play(
                plan, threads, scheduler or (cfg.scheduler if cfg else None), progress
            )
            now = counts_of(
                result.aggregate, result.strategies, result.end_reasons, _seconds_per_turn(plan.game),
                result.feel_reading,
            )
            rows, targets = compare(b.data["counts"], now, plan.settings, plan.targets)
        else:
            result, rows, targets, seq = _play_sequential(
                b, plan, sequential, threads, scheduler or (cfg.scheduler if cfg else None), progress
            )
        recorded = b.data["config"]["rules"]
        changed = {
            k: (recorded.get(k), v)
            for k, v in result.params.items()
            if recorded.get(k) != v
        }
        changed.update(
            {k: (v, None) for k, v in recorded.items() if k not in result.params}
        )
        report.results.append(
            BaselineCheck(
                path=str(b.path),
                game=b.game,
                games=plan.run.games,
                seed=plan.run.seed,
                players=list(plan.run.players or ()),
                alpha=plan.settings.alpha,
                correction=plan.settings.correction,
                rules_changed=changed,
                comparisons=rows,
                targets=targets,
                elapsed_s=time.perf_counter() - start,
                sequential=seq,
            )
        )
    return report

