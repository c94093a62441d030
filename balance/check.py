"""Balance regression checks: record a baseline, re-simulate it, compare.

``baseline`` plays one configuration (game, rules, players, seed, games) and
records every metric with its counts and 95% interval, plus the configuration
itself and the package version, as JSON (``reports/baselines/GAME.json``).

``check`` re-plays each baseline's games (same seed, players and number of
games: common random numbers) with today's code and today's rules and compares
metric by metric:

* proportions (win rate per seat and per player, no-winner rate, each end
  reason's share): difference with its Newcombe 95% interval, two-sided
  two-proportion z-test;
* mean game length: difference of means, normal interval and z-test;
* median and 90th percentile of game length: a percentile-bootstrap 95%
  interval of the difference from the two histograms, and Mood's quantile test
  (the share of games at or below the pooled quantile, compared as two
  proportions) for the p-value.

The p-values of one baseline are corrected for the number of metrics
(Holm-Bonferroni by default).  A metric *regresses* when its change is
significant after the correction **and** larger than its tolerance.  Every test
above treats the two samples as independent; under common random numbers they
are positively correlated, which makes the tests conservative (docs/ci.md).

Targets (``[targets]`` of ``balance.toml``) are read on today's figures: a
target fails when the whole 95% interval lies outside its band and warns when
the interval straddles an edge.
"""

from __future__ import annotations

import json
import math
import sys
import time
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from balance.config import (
    END_REASON,
    Band,
    CheckSettings,
    Config,
    find_config,
    parse_check,
    parse_targets,
    targets_to_dict,
)
from balance.errors import UserError
from balance.stats import (
    hist_mean_se,
    hist_quantile,
    hist_quantile_ci,
    newcombe,
    two_proportion_p_value,
    wilson,
    z_value,
)

FORMAT = "balance-baseline/1"
BASELINE_DIR = Path("reports") / "baselines"
BOOTSTRAP_REPS = 2000
_BOOTSTRAP_SEED = 20240917  # fixed: the same two samples always print the same interval
QUANTILES = {"turns_median": 0.5, "turns_p90": 0.9}


# --------------------------------------------------------------------------- counts and metrics
def counts_of(
    agg: Any, strategies: Sequence[str], end_reasons: Sequence[str]
) -> dict[str, Any]:
    """The counts behind every metric of an :class:`~balance.runner.Aggregate` (JSON-ready)."""
    hist = np.asarray(agg.turns_hist, dtype=np.int64)
    return {
        "games": int(agg.games),
        "seat_wins": [int(x) for x in agg.seat_wins],
        "strategies": list(strategies),
        "strategy_wins": [int(x) for x in agg.strategy_wins],
        "strategy_games": [int(x) for x in agg.strategy_games],
        "no_winner": int(agg.no_winner),
        "end_reasons": {
            name: int(agg.end_reasons[i]) for i, name in enumerate(end_reasons)
        },
        "turns_hist": [int(x) for x in np.trim_zeros(hist, "b")],
    }


@dataclass
class Metric:
    """One figure with its 95% interval: a proportion (``count``/``n``), a mean or a quantile."""

    name: str
    kind: str  # "proportion" | "mean" | "quantile"
    value: float
    ci95: tuple[float, float]
    n: int
    count: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "name": self.name,
            "kind": self.kind,
            "value": self.value,
            "ci95": list(self.ci95),
            "n": self.n,
        }
        if self.count is not None:
            out["count"] = self.count
        return out


def metrics_of(counts: Mapping[str, Any]) -> dict[str, Metric]:
    """Every compared metric, by name (``seat_win_rate[0]``, ``end_reason[NAME]``, ``turns_p90`` ...)."""
    n = int(counts["games"])
    out: dict[str, Metric] = {}

    def prop(name: str, k: int, m: int) -> None:
        out[name] = Metric(name, "proportion", k / m if m else 0.0, wilson(k, m), m, k)

    for seat, wins in enumerate(counts["seat_wins"]):
        prop(f"seat_win_rate[{seat}]", int(wins), n)
    # One distinct player: its win rate is 1 - no_winner_rate, already compared.
    if len(counts["strategies"]) > 1:
        for name, wins, games in zip(
            counts["strategies"], counts["strategy_wins"], counts["strategy_games"]
        ):
            prop(f"strategy_win_rate[{name}]", int(wins), int(games))
    prop("no_winner_rate", int(counts["no_winner"]), n)
    for reason, k in counts["end_reasons"].items():
        prop(f"{END_REASON}[{reason}]", int(k), n)
    hist = np.asarray(counts["turns_hist"], dtype=np.int64)
    if n and hist.sum() > 0:
        mean, se = hist_mean_se(hist)
        half = z_value() * se if math.isfinite(se) else float("inf")
        out["turns_mean"] = Metric(
            "turns_mean", "mean", mean, (mean - half, mean + half), n
        )
        for name, q in QUANTILES.items():
            lo, hi = hist_quantile_ci(hist, q)
            out[name] = Metric(
                name,
                "quantile",
                float(hist_quantile(hist, q)),
                (float(lo), float(hi)),
                n,
            )
    return out


# --------------------------------------------------------------------------- statistics
def holm_adjust(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (reject where adjusted <= alpha)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def bonferroni_adjust(p_values: Sequence[float]) -> list[float]:
    m = len(p_values)
    return [min(1.0, m * p) for p in p_values]


def mean_difference(
    h1: np.ndarray, h2: np.ndarray, confidence: float = 0.95
) -> tuple[float, float, float, float]:
    """``(d, low, high, p)`` for the difference of means (second minus first), normal theory."""
    m1, se1 = hist_mean_se(h1)
    m2, se2 = hist_mean_se(h2)
    d = m2 - m1
    se = math.sqrt(
        (se1 if math.isfinite(se1) else 0.0) ** 2
        + (se2 if math.isfinite(se2) else 0.0) ** 2
    )
    if se == 0.0:
        return d, d, d, (1.0 if d == 0 else 0.0)
    half = z_value(confidence) * se
    p = math.erfc(abs(d) / se / math.sqrt(2.0))  # two-sided, accurate far into the tail
    return d, d - half, d + half, p


def quantile_test_p_value(h1: np.ndarray, h2: np.ndarray, q: float) -> float:
    """Mood's quantile test: games at or below the pooled ``q``-quantile, as two proportions.

    Under "same distribution" the pooled sample is exchangeable, so the share at
    or below any quantile of the pooled sample is the same in both groups.
    """
    size = max(h1.shape[0], h2.shape[0])
    a, b = _pad(h1, size), _pad(h2, size)
    m = hist_quantile(a + b, q)
    return two_proportion_p_value(
        int(a[: m + 1].sum()), int(a.sum()), int(b[: m + 1].sum()), int(b.sum())
    )


def quantile_difference_ci(
    h1: np.ndarray,
    h2: np.ndarray,
    q: float,
    confidence: float = 0.95,
    reps: int = BOOTSTRAP_REPS,
) -> tuple[float, float]:
    """Percentile-bootstrap interval of ``quantile(h2) - quantile(h1)``, resampling each
    histogram (multinomially, independently) with a fixed seed."""
    rng = np.random.default_rng(_BOOTSTRAP_SEED)
    alpha = 1.0 - confidence
    draws = _bootstrap_quantiles(h2, q, reps, rng) - _bootstrap_quantiles(
        h1, q, reps, rng
    )
    lo, hi = np.quantile(draws, [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
    return float(lo), float(hi)


def _bootstrap_quantiles(
    hist: np.ndarray, q: float, reps: int, rng: np.random.Generator
) -> np.ndarray:
    counts = np.asarray(hist, dtype=np.int64)
    n = int(counts.sum())
    nz = np.nonzero(counts)[0]
    lo, hi = int(nz[0]), int(nz[-1])
    part = counts[lo : hi + 1]
    samples = rng.multinomial(n, part / n, size=reps)  # int64[reps, bins]
    rank = max(1, math.ceil(q * n))
    idx = (np.cumsum(samples, axis=1) >= rank).argmax(axis=1)
    return (idx + lo).astype(np.float64)


def _pad(h: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros(size, np.int64)
    out[: h.shape[0]] = h
    return out


# --------------------------------------------------------------------------- comparison
@dataclass
class Comparison:
    """One metric, baseline against now."""

    name: str
    kind: str
    baseline: Metric | None
    now: Metric | None
    diff: float = 0.0
    ci95: tuple[float, float] = (0.0, 0.0)
    p_value: float = 1.0
    p_adjusted: float = 1.0
    tolerance: float = 0.0
    verdict: str = "ok"  # "ok" | "within tolerance" | "regression" | "not compared"

    @property
    def failed(self) -> bool:
        return self.verdict == "regression"

    def sentence(self) -> str:
        """``seat_win_rate[0] moved from 51.0% to 55.8% (+4.8 points, 95% CI +4.1 to +5.5): ...``"""
        if self.baseline is None or self.now is None:
            side = "baseline" if self.baseline is None else "current run"
            return f"{self.name}: not in the {side}; not compared"
        b, n = (
            _fmt_value(self.kind, self.baseline.value),
            _fmt_value(self.kind, self.now.value),
        )
        d, lo, hi = (
            _fmt_diff(self.kind, x, sign=True) for x in (self.diff, *self.ci95)
        )
        unit = " points" if self.kind == "proportion" else " turns"
        moved = f"moved from {b} to {n}" if b != n else f"stayed at {b}"
        text = f"{self.name} {moved} ({d}{unit}, 95% CI {lo} to {hi}; adjusted p {_fmt_p(self.p_adjusted)})"
        tol = _fmt_diff(self.kind, self.tolerance, sign=False) + unit
        if self.verdict == "regression":
            return f"{text}: outside tolerance ±{tol}"
        if self.verdict == "within tolerance":
            return f"{text}: significant but within tolerance ±{tol}"
        return f"{text}: not significant"

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.name,
            "kind": self.kind,
            "baseline": self.baseline.to_dict() if self.baseline else None,
            "now": self.now.to_dict() if self.now else None,
            "difference": self.diff,
            "ci95": list(self.ci95),
            "p_value": self.p_value,
            "p_adjusted": self.p_adjusted,
            "tolerance": self.tolerance,
            "verdict": self.verdict,
        }


@dataclass
class TargetResult:
    """One balance goal read on today's figures."""

    name: str  # "seat_win_rate[0]", "turns_median", "end_reason[gridlock]" ...
    target: str  # its key in [targets]
    band: Band
    metric: Metric
    verdict: str  # "ok" | "warn" | "fail"

    @property
    def failed(self) -> bool:
        return self.verdict == "fail"

    def sentence(self) -> str:
        m = self.metric
        v = _fmt_value(m.kind, m.value)
        lo, hi = (_fmt_value(m.kind, x) for x in m.ci95)
        blo, bhi = (_fmt_value(m.kind, x) for x in (self.band.low, self.band.high))
        where = {
            "ok": "inside",
            "warn": "straddles an edge of",
            "fail": "outside",
        }[self.verdict]
        return f"{self.name} is {v} (95% CI {lo} to {hi}, n={m.n:,}): {where} the target [{blo}, {bhi}]"

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.name,
            "target": self.target,
            "band": self.band.to_list(),
            "value": self.metric.value,
            "ci95": list(self.metric.ci95),
            "n": self.metric.n,
            "verdict": self.verdict,
        }


def compare(
    base: Mapping[str, Any],
    now: Mapping[str, Any],
    settings: CheckSettings | None = None,
    targets: Mapping[str, Band] | None = None,
) -> tuple[list[Comparison], list[TargetResult]]:
    """Compare two sets of counts (see :func:`counts_of`): metrics and targets."""
    settings = settings or CheckSettings()
    mb, mn = metrics_of(base), metrics_of(now)
    hb = np.asarray(base["turns_hist"], dtype=np.int64)
    hn = np.asarray(now["turns_hist"], dtype=np.int64)
    rows: list[Comparison] = []
    for name in [*mb, *(k for k in mn if k not in mb)]:
        b, n = mb.get(name), mn.get(name)
        kind = (b or n).kind
        row = Comparison(name, kind, b, n, tolerance=settings.tolerance_for(name))
        if b is None or n is None:
            row.verdict = "not compared"
        elif kind == "proportion":
            row.diff, lo, hi = newcombe(b.count, b.n, n.count, n.n)
            row.ci95 = (lo, hi)
            row.p_value = two_proportion_p_value(b.count, b.n, n.count, n.n)
        elif kind == "mean":
            row.diff, lo, hi, row.p_value = mean_difference(hb, hn)
            row.ci95 = (lo, hi)
        else:
            q = QUANTILES[name]
            row.diff = n.value - b.value
            row.ci95 = quantile_difference_ci(hb, hn, q)
            row.p_value = quantile_test_p_value(hb, hn, q)
        rows.append(row)
    tested = [r for r in rows if r.verdict != "not compared"]
    adjust = holm_adjust if settings.correction == "holm" else bonferroni_adjust
    for row, p in zip(tested, adjust([r.p_value for r in tested])):
        row.p_adjusted = p
        if p <= settings.alpha:
            # Compare with a little slack so 0.05 - 0.03 == 0.02 reads as "equal to the tolerance".
            row.verdict = (
                "regression"
                if abs(row.diff) > row.tolerance + 1e-12
                else "within tolerance"
            )
    return rows, evaluate_targets(mn, targets or {})


def evaluate_targets(
    metrics: Mapping[str, Metric], targets: Mapping[str, Band]
) -> list[TargetResult]:
    out: list[TargetResult] = []
    for key, band in targets.items():
        if key.startswith(END_REASON + "."):
            names = [f"{END_REASON}[{key.split('.', 1)[1]}]"]
        elif key in ("seat_win_rate", "strategy_win_rate"):
            names = [m for m in metrics if m.startswith(key + "[")]
        else:
            names = [key]
        for name in names:
            if name not in metrics:
                continue
            m = metrics[name]
            lo, hi = m.ci95
            if lo >= band.low and hi <= band.high:
                verdict = "ok"
            elif hi < band.low or lo > band.high:
                verdict = "fail"
            else:
                verdict = "warn"
            out.append(TargetResult(name, key, band, m, verdict))
    return out


# --------------------------------------------------------------------------- baseline files
@dataclass
class Baseline:
    """A recorded baseline: where it lives and its JSON document."""

    path: Path | None
    data: dict[str, Any]

    @property
    def game(self) -> str:
        return self.data["game"]

    def metrics(self) -> dict[str, Metric]:
        return metrics_of(self.data["counts"])

    def to_dict(self) -> dict[str, Any]:
        return self.data

    def save(self, path: str | Path | None = None) -> Path:
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no path to save the baseline to")
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        tmp.write_text(json.dumps(self.data, indent=1) + "\n", encoding="utf-8")
        tmp.replace(target)
        self.path = target
        return target


def default_baseline_path(game: str) -> Path:
    return BASELINE_DIR / f"{game}.json"


def load_baseline(path: str | Path) -> Baseline:
    """Read and validate a baseline file; :class:`UserError` (one line) when missing or corrupt."""
    p = Path(path)
    if not p.is_file():
        raise UserError(
            f"baseline {p}: no such file (record one with 'balance baseline')"
        )
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"baseline {p}: corrupt, not valid JSON ({exc})") from None
    _validate_baseline(data, str(p))
    return Baseline(p, data)


def _validate_baseline(data: Any, where: str) -> None:
    def bad(reason: str) -> UserError:
        return UserError(
            f"baseline {where}: corrupt ({reason}); record it again with 'balance baseline'"
        )

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f"not a {FORMAT} file")
    if not isinstance(data.get("game"), str):
        raise bad("no game name")
    cfg = data.get("config")
    if not isinstance(cfg, dict):
        raise bad("no config")
    if not isinstance(cfg.get("params"), dict) or not isinstance(
        cfg.get("rules"), dict
    ):
        raise bad("config.params / config.rules missing")
    if not isinstance(cfg.get("players"), list) or not all(
        isinstance(x, str) for x in cfg["players"]
    ):
        raise bad("config.players is not a list of names")
    for key in ("seed", "games"):
        if (
            isinstance(cfg.get(key), bool)
            or not isinstance(cfg.get(key), int)
            or cfg[key] < 0
        ):
            raise bad(f"config.{key} is not a whole number")
    if cfg["games"] < 1:
        raise bad("config.games is 0")
    if not isinstance(cfg.get("rotate_seats"), bool):
        raise bad("config.rotate_seats is not true/false")
    for key in ("board", "player_file"):
        if cfg.get(key) is not None and not isinstance(cfg[key], str):
            raise bad(f"config.{key} is not a file name")
    c = data.get("counts")
    if not isinstance(c, dict):
        raise bad("no counts")

    def ints(value: Any, length: int | None = None) -> bool:
        return (
            isinstance(value, list)
            and all(
                isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value
            )
            and (length is None or len(value) == length)
        )

    games = c.get("games")
    if games != cfg["games"]:
        raise bad("counts.games differs from config.games")
    if not ints(c.get("seat_wins"), len(cfg["players"])):
        raise bad("counts.seat_wins")
    names = c.get("strategies")
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise bad("counts.strategies")
    if not ints(c.get("strategy_wins"), len(names)) or not ints(
        c.get("strategy_games"), len(names)
    ):
        raise bad("counts.strategy_wins / strategy_games")
    if not isinstance(c.get("no_winner"), int) or not 0 <= c["no_winner"] <= games:
        raise bad("counts.no_winner")
    reasons = c.get("end_reasons")
    if not isinstance(reasons, dict) or not ints(list(reasons.values())):
        raise bad("counts.end_reasons")
    if not ints(c.get("turns_hist")) or sum(c["turns_hist"]) != games:
        raise bad("counts.turns_hist does not add up to the games")
    if sum(c["seat_wins"]) + c["no_winner"] != games or sum(reasons.values()) != games:
        raise bad("counts do not add up to the games")
    if any(w > g or g > games for w, g in zip(c["strategy_wins"], c["strategy_games"])):
        raise bad("counts.strategy_wins above strategy_games")
    for key in ("targets", "check"):
        if not isinstance(data.get(key, {}), dict):
            raise bad(f"{key} is not a table")


@dataclass
class _Plan:
    """What to play for one baseline (or one new baseline), all validated."""

    game: str
    overrides: dict[str, Any]  # what the rule file (or the recorded baseline) sets
    rules: dict[str, Any]  # every parameter
    players: list[str]
    seed: int
    games: int
    rotate_seats: bool
    board: str | None
    player_file: str | None
    targets: dict[str, Band]
    settings: CheckSettings
    rule_file: str | None


def _rules(spec: Any, overrides: Mapping[str, Any], where: str) -> dict[str, Any]:
    try:
        return spec.resolve_params(overrides)
    except UserError as exc:
        raise UserError(f"{where}: {exc}") from None


def _plan_from_config(cfg: Config, spec: Any) -> _Plan:
    return _Plan(
        game=spec.name,
        overrides=dict(cfg.params),
        rules=_rules(spec, cfg.params, cfg.where),
        players=list(cfg.players)
        if cfg.players is not None
        else list(spec.default_players),
        seed=cfg.seed,
        games=cfg.games,
        rotate_seats=cfg.rotate_seats,
        board=cfg.board,
        player_file=cfg.player_file,
        targets=dict(cfg.targets),
        settings=cfg.check,
        rule_file=cfg.where,
    )


def _plan_from_baseline(b: Baseline, spec: Any, cfg: Config | None) -> _Plan:
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
    return _Plan(
        game=spec.name,
        overrides=overrides,
        rules=rules,
        players=list(rec["players"]),
        seed=int(rec["seed"]),
        games=int(rec["games"]),
        rotate_seats=bool(rec["rotate_seats"]),
        board=board,
        player_file=player_file,
        targets=targets,
        settings=settings,
        rule_file=rule_file,
    )


def _play(
    plan: _Plan,
    threads: int | None,
    scheduler: str | None,
    progress: Callable[[int], None] | None,
) -> Any:
    from balance.api import run

    return run(
        plan.game,
        games=plan.games,
        players=plan.players,
        params=plan.rules,
        seed=plan.seed,
        board=plan.board,
        rotate_seats=plan.rotate_seats,
        player_file=plan.player_file,
        threads=threads,
        scheduler=scheduler,
        progress=progress,
    )


def _record(plan: _Plan, result: Any) -> dict[str, Any]:
    from balance import __version__

    counts = counts_of(result.aggregate, result.strategies, result.end_reasons)
    return {
        "format": FORMAT,
        "game": plan.game,
        "version": __version__,
        "created": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "config": {
            "params": plan.overrides,
            "rules": result.params,
            "players": list(result.players),
            "seed": plan.seed,
            "games": plan.games,
            "rotate_seats": plan.rotate_seats,
            "board": plan.board,
            "player_file": plan.player_file,
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
) -> Baseline:
    """Play one configuration and record its baseline (written to ``output``,
    default ``reports/baselines/GAME.json``, unless ``write=False``).

    The configuration comes from the rule file in force (``config``, else
    ``./balance.toml`` when ``use_config``), or from ``game`` with its default
    rules; ``games``, ``seed`` and ``players`` override it.
    """
    from balance.api import check_games, check_seed, parse_players
    from balance.registry import get_game

    cfg = (
        config
        if isinstance(config, Config)
        else find_config(config, use_default=use_config)
    )
    if cfg is not None:
        if game is not None and game != cfg.game:
            raise UserError(f"game {game!r} given, but {cfg.where} is for {cfg.game!r}")
        spec = get_game(cfg.game)
        plan = _plan_from_config(cfg, spec)
    elif game is None:
        raise UserError(
            "no balance.toml here: give a game ('balance baseline GAME') or --config FILE"
        )
    else:
        spec = get_game(game)
        plan = _plan_from_config(Config(path=None, game=spec.name), spec)
        plan.rule_file = None
    if games is not None:
        plan.games = check_games(games)
    if seed is not None:
        plan.seed = check_seed(seed)
    if players is not None:
        plan.players = parse_players(players, spec)
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


def find_baselines(paths: Sequence[str | Path] | None = None) -> list[Path]:
    """The given baseline files, or every ``reports/baselines/*.json``."""
    if paths:
        return [Path(p) for p in paths]
    found = sorted(BASELINE_DIR.glob("*.json"))
    if not found:
        raise UserError(
            f"no baselines in {BASELINE_DIR}/: record one with 'balance baseline'"
        )
    return found


def _load_plans(
    paths: Sequence[str | Path] | None, cfg: Config | None
) -> list[tuple[Baseline, _Plan]]:
    from balance.api import prepare
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
        plan = _plan_from_baseline(b, spec, cfg)
        # Players, board and player file too, so a bad one stops us before any game is played.
        try:
            prepare(plan.game, plan.rules, plan.players, plan.board, plan.player_file)
        except UserError as exc:
            raise UserError(f"baseline {path}: {exc}") from None
        plans.append((b, plan))
    return plans


def update(
    paths: Sequence[str | Path] | None = None,
    *,
    config: str | Path | Config | None = None,
    use_config: bool = True,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Baseline]:
    """Record every baseline again (default: all of ``reports/baselines/``) from its own
    configuration: players, seed and games as recorded, today's code and rules."""
    cfg = (
        config
        if isinstance(config, Config)
        else find_config(config, use_default=use_config)
    )
    out = []
    for old, plan in _load_plans(paths, cfg):
        result = _play(
            plan, threads, scheduler or (cfg.scheduler if cfg else None), progress
        )
        new = Baseline(old.path, _record(plan, result))
        new.save()
        out.append(new)
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
    baseline_version: str = ""

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
        return render_text(self)

    def to_markdown(self) -> str:
        return render_markdown(self)

    def to_junit(self) -> str:
        return render_junit(self)


def check(
    baselines: Sequence[str | Path] | None = None,
    *,
    config: str | Path | Config | None = None,
    use_config: bool = True,
    seed: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> CheckReport:
    """Re-play each baseline's games with today's code and rules and compare.

    ``baselines``: files (default: every ``reports/baselines/*.json``).  The rule
    file in force (``config``, else ``./balance.toml`` when ``use_config``) gives
    today's rules, targets and tolerances and must be of the baselines' game;
    without one, a baseline is checked with today's defaults updated by the
    overrides it recorded, and its recorded targets and tolerances.  ``seed``
    replaces the recorded seed (independent games: for measuring false alarms).
    Every input is validated before any game is played.
    """
    from balance.api import check_seed

    cfg = (
        config
        if isinstance(config, Config)
        else find_config(config, use_default=use_config)
    )
    if seed is not None:
        check_seed(seed)
    plans = _load_plans(baselines, cfg)
    report = CheckReport()
    for b, plan in plans:
        if seed is not None:
            plan.seed = seed
        start = time.perf_counter()
        result = _play(
            plan, threads, scheduler or (cfg.scheduler if cfg else None), progress
        )
        now = counts_of(result.aggregate, result.strategies, result.end_reasons)
        rows, targets = compare(b.data["counts"], now, plan.settings, plan.targets)
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
                games=plan.games,
                seed=plan.seed,
                players=list(plan.players),
                alpha=plan.settings.alpha,
                correction=plan.settings.correction,
                rules_changed=changed,
                comparisons=rows,
                targets=targets,
                elapsed_s=time.perf_counter() - start,
                baseline_version=str(b.data.get("version", "")),
            )
        )
    return report


# --------------------------------------------------------------------------- rendering
def _pct_digits(x: float) -> int:
    """Decimals for a proportion in percent: one, or enough to tell a rare event
    (0.038%) from none at all."""
    x = abs(x)
    return 1 if x >= 0.01 or x == 0 else (2 if x >= 0.001 else 3)


def _fmt_value(kind: str, x: float) -> str:
    if kind == "proportion":
        return f"{100 * x:.{_pct_digits(x)}f}%"
    if kind == "quantile":
        return f"{x:g}"
    return f"{x:.2f}"


def _fmt_diff(kind: str, x: float, sign: bool = True) -> str:
    s = "+" if sign else ""
    if kind == "proportion":
        return f"{100 * x:{s}.{_pct_digits(x)}f}"
    if kind == "quantile":
        return f"{x:{s}g}"
    return f"{x:{s}.2f}"


def _fmt_p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _fmt_ci(kind: str, ci: tuple[float, float]) -> str:
    return f"({_fmt_value(kind, ci[0])}–{_fmt_value(kind, ci[1])})"


_VERDICT_TEXT = {
    "ok": "ok",
    "within tolerance": "ok (within ±{tol})",
    "regression": "REGRESSION (beyond ±{tol})",
    "not compared": "not compared",
}


def _row(c: Comparison) -> list[str]:
    if c.baseline is None or c.now is None:
        m = c.baseline or c.now
        cells = [
            _fmt_value(c.kind, m.value) if c.baseline else "–",
            _fmt_value(c.kind, m.value) if c.now else "–",
        ]
        return [c.name, *cells, "–", "–", "not compared"]
    unit = " pts" if c.kind == "proportion" else ""
    tol = _fmt_diff(c.kind, c.tolerance, sign=False) + unit
    return [
        c.name,
        f"{_fmt_value(c.kind, c.baseline.value)} {_fmt_ci(c.kind, c.baseline.ci95)}",
        f"{_fmt_value(c.kind, c.now.value)} {_fmt_ci(c.kind, c.now.ci95)}",
        f"{_fmt_diff(c.kind, c.diff)}{unit} ({_fmt_diff(c.kind, c.ci95[0])} to {_fmt_diff(c.kind, c.ci95[1])})",
        _fmt_p(c.p_adjusted),
        _VERDICT_TEXT[c.verdict].format(tol=tol),
    ]


_HEAD = [
    "metric",
    "baseline (95% CI)",
    "now (95% CI)",
    "change (95% CI)",
    "p adj.",
    "verdict",
]
_THEAD = ["target", "band", "now (95% CI)", "verdict"]


def _target_row(t: TargetResult) -> list[str]:
    m = t.metric
    band = f"[{_fmt_value(m.kind, t.band.low)}, {_fmt_value(m.kind, t.band.high)}]"
    return [
        t.name,
        band,
        f"{_fmt_value(m.kind, m.value)} {_fmt_ci(m.kind, m.ci95)}",
        t.verdict.upper() if t.verdict != "ok" else "ok",
    ]


def _header(r: BaselineCheck) -> str:
    return (
        f"{r.game}: {r.path}: {r.games:,} games per side, seed {r.seed}, players {', '.join(r.players)}; "
        f"{r.correction} correction, alpha {r.alpha:g}"
    )


def _changed_line(r: BaselineCheck) -> str | None:
    if not r.rules_changed:
        return None
    items = ", ".join(f"{k} {a!r} → {b!r}" for k, (a, b) in r.rules_changed.items())
    return f"rules changed since the baseline: {items}"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    line = lambda cells: "  ".join(f"{c:<{w}}" for c, w in zip(cells, widths)).rstrip()
    return [line(head), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def render_text(report: CheckReport) -> str:
    """A plain-text table per baseline, then one line per regression or failed target."""
    out: list[str] = []
    for r in report.results:
        out.append(_header(r))
        if (changed := _changed_line(r)) is not None:
            out.append(changed)
        out.append("")
        out += _table(_HEAD, [_row(c) for c in r.comparisons])
        if r.targets:
            out.append("")
            out += _table(_THEAD, [_target_row(t) for t in r.targets])
        out.append("")
        for c in r.regressions:
            out.append(f"REGRESSION: {c.sentence()}")
        for t in r.failed_targets:
            out.append(f"FAILED TARGET: {t.sentence()}")
        for t in r.warnings:
            out.append(f"warning: {t.sentence()}")
        out.append(f"{r.game}: {r.status()}  ({r.elapsed_s:.1f} s)")
        out.append("")
    out.append(
        "balance check: " + ("all baselines pass" if report.passed else "FAILED")
    )
    return "\n".join(out) + "\n"


def render_markdown(report: CheckReport) -> str:
    """GitHub-flavoured Markdown for a pull-request comment."""

    def md(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    out = [
        "## Balance check: "
        + ("✅ all baselines pass" if report.passed else "❌ failed"),
        "",
    ]
    for r in report.results:
        icon = "✅" if r.passed else "❌"
        out.append(f"### {icon} `{r.game}`: {r.status()}")
        out.append("")
        out.append(
            f"`{r.path}`: {r.games:,} games per side, seed {r.seed}, players {', '.join(r.players)}; "
            f"{r.correction} correction, α = {r.alpha:g}."
        )
        if (changed := _changed_line(r)) is not None:
            out.append(
                f"Rules changed since the baseline: {changed.split(': ', 1)[1]}."
            )
        out.append("")
        for c in r.regressions:
            out.append(f"- ❌ **{c.name}** {c.sentence()[len(c.name) + 1 :]}")
        for t in r.failed_targets:
            out.append(f"- ❌ target: {t.sentence()}")
        for t in r.warnings:
            out.append(f"- ⚠️ target: {t.sentence()}")
        if r.regressions or r.targets:
            out.append("")
        out.append(md(_HEAD))
        out.append(md(["---"] * len(_HEAD)))
        for c in r.comparisons:
            cells = _row(c)
            if c.failed:
                cells = [f"**{x}**" for x in cells]
            out.append(md(cells))
        if r.targets:
            out += ["", md(_THEAD), md(["---"] * len(_THEAD))]
            out += [md(_target_row(t)) for t in r.targets]
        out.append("")
    return "\n".join(out)


def render_junit(report: CheckReport) -> str:
    """JUnit XML: a test suite per baseline, a test case per metric and per target."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", name="balance check")
    for r in report.results:
        failures = len(r.regressions) + len(r.failed_targets)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=f"balance check {r.game} ({r.path})",
            tests=str(len(r.comparisons) + len(r.targets)),
            failures=str(failures),
            errors="0",
            skipped=str(sum(c.verdict == "not compared" for c in r.comparisons)),
            time=f"{r.elapsed_s:.3f}",
        )
        props = ET.SubElement(suite, "properties")
        for k, v in (
            ("games", r.games),
            ("seed", r.seed),
            ("players", ",".join(r.players)),
            ("alpha", r.alpha),
        ):
            ET.SubElement(props, "property", name=k, value=str(v))
        for c in r.comparisons:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"balance.{r.game}.metrics",
                name=c.name,
                time="0",
            )
            if c.failed:
                ET.SubElement(
                    case, "failure", message=c.sentence(), type="regression"
                ).text = c.sentence()
            elif c.verdict == "not compared":
                ET.SubElement(case, "skipped", message=c.sentence())
            else:
                ET.SubElement(case, "system-out").text = c.sentence()
        for t in r.targets:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"balance.{r.game}.targets",
                name=t.name,
                time="0",
            )
            if t.failed:
                ET.SubElement(
                    case, "failure", message=t.sentence(), type="target"
                ).text = t.sentence()
            else:
                ET.SubElement(case, "system-out").text = (
                    "warning: " if t.verdict == "warn" else ""
                ) + t.sentence()
    ET.indent(root)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + ET.tostring(root, encoding="unicode")
        + "\n"
    )


# ``balance.check`` names both this module and its main function (the API's
# ``balance.check(...)``).  Once the module is imported, ``import balance.check``
# binds the package attribute to the module, so make the module callable too.
class _CallableModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> CheckReport:
        return check(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
