"""Planning a check: what to play for each baseline, all validated before any game.

A :class:`CheckPlan` is a run description (:class:`~balance.runspec.RunSpec`)
with the rules in force, the targets and the check settings.  Today's rules
come from the rule file in force (``balance.toml``) when there is one, else
from today's defaults updated by the overrides the baseline recorded; the
players, seed, games and seat rotation always from the baseline (common random
numbers: the same games are played again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from balance.check.baseline_file import Baseline, find_baselines, load_baseline
from balance.config import Band, CheckSettings, Config, parse_check, parse_targets
from balance.errors import UserError
from balance.runspec import RunSpec


@dataclass
class CheckPlan:
    """What to play for one baseline (or one new baseline), all validated."""

    run: RunSpec  # every rule parameter, the players by seat
    overrides: dict[str, Any]  # what the rule file (or the recorded baseline) sets
    targets: dict[str, Band]
    settings: CheckSettings
    rule_file: str | None

    @property
    def game(self) -> str:
        return self.run.game

    @property
    def rules(self) -> dict[str, Any]:
        return dict(self.run.params)


def _rules(spec: Any, overrides: Mapping[str, Any], where: str) -> dict[str, Any]:
    try:
        return spec.resolve_params(overrides)
    except UserError as exc:
        raise UserError(f"{where}: {exc}") from None


def plan_from_config(cfg: Config, spec: Any) -> CheckPlan:
    """A new baseline of the rule file's run (or of a game's defaults)."""
    rules = _rules(spec, cfg.params, cfg.where)
    players = cfg.players if cfg.players is not None else list(spec.default_players)
    return CheckPlan(
        run=cfg.run.replace(game=spec.name, params=tuple(rules.items()), players=tuple(players)),
        overrides=dict(cfg.params),
        targets=dict(cfg.targets),
        settings=cfg.check,
        rule_file=cfg.where,
    )


def plan_from_baseline(b: Baseline, spec: Any, cfg: Config | None) -> CheckPlan:
    """Today's rules for a recorded baseline: the rule file's when one is in force,
    else today's defaults updated by the overrides the baseline recorded."""
    where = f"baseline {b.path}"
    rec = b.data["config"]
    if cfg is not None:
        overrides, rules = dict(cfg.params), _rules(spec, cfg.params, cfg.where)
        targets, settings, rule_file = dict(cfg.targets), cfg.check, cfg.where
        board, player_file = (
            cfg.board or rec.get("board"),
            cfg.player_file or rec.get("player_file"),
        )
    else:
        overrides = dict(rec["params"])
        rules = _rules(spec, overrides, where)
        targets = parse_targets(b.data.get("targets", {}), spec, where)
        settings = parse_check(b.data.get("check", {}), spec, where)
        board, player_file, rule_file = (
            rec.get("board"),
            rec.get("player_file"),
            rec.get("rule_file"),
        )
    run = RunSpec(
        game=spec.name,
        params=tuple(rules.items()),
        players=tuple(rec["players"]),
        seed=int(rec["seed"]),
        games=int(rec["games"]),
        rotate_seats=bool(rec["rotate_seats"]),
        board=board,
        player_file=player_file,
    )
    return CheckPlan(run=run, overrides=overrides, targets=targets, settings=settings, rule_file=rule_file)


def load_plans(paths: Sequence[str | Path] | None, cfg: Config | None) -> list[tuple[Baseline, CheckPlan]]:
    """Every baseline (default: all of ``reports/baselines/``) and what to play for it;
    a bad baseline, player, board or player file stops here, before any game."""
    from balance.registry import game_names, get_game

    plans = []
    for path in find_baselines(paths):
        b = load_baseline(path)
        if b.game not in game_names():
            raise UserError(
                f"baseline {path}: unknown game {b.game!r}; allowed: {', '.join(game_names()) or '(none installed)'}"
            )
        if cfg is not None and cfg.game != b.game:
            raise UserError(
                f"baseline {path} is of game {b.game!r}, but {cfg.where} is for {cfg.game!r}"
            )
        spec = get_game(b.game)
        plan = plan_from_baseline(b, spec, cfg)
        # Players, board and player file too, so a bad one stops us before any game is played.
        try:
            plan.run.resolved()
        except UserError as exc:
            raise UserError(f"baseline {path}: {exc}") from None
        plans.append((b, plan))
    return plans
