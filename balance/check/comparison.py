"""Comparing a baseline with today's run: the tests, the tolerances, the targets.

* proportions (win rate per seat and per player, no-winner rate, each end
  reason's share): difference with its Newcombe 95% interval, two-sided
  two-proportion z-test;
* mean game length: difference of means, normal interval and z-test;
* median and 90th percentile of game length: a percentile-bootstrap 95%
  interval of the difference from the two histograms, and Mood's quantile test
  for the p-value (:mod:`balance.stats`).

The p-values of one baseline are corrected for the number of metrics
(Holm-Bonferroni by default).  A player's win rate that is a seat's win rate
under another name (each player keeps its seat: no rotation) is compared once,
as the seat's, and does not enlarge that family (:func:`duplicate_metrics`).

Verdicts (docs/ci.md), from the adjusted p-value, the change and its interval:

================  ==========================================================  =======
verdict           when                                                        fails
================  ==========================================================  =======
ok                no significant change, and the change is within tolerance   no
within tolerance  a significant change no larger than the tolerance           no
cannot tell       beyond the tolerance by its estimate, but not significant   no
                  after the correction: more games would tell
regression        a significant change beyond the tolerance, away from the    **yes**
                  metric's target (or with no target to move toward)
toward target     a significant change beyond the tolerance that brings the   no
                  metric closer to its target: record a new baseline
not compared      in one side only                                            no
================  ==========================================================  =======

A metric's target is its band in ``[targets]``; a seat's win rate without one,
when the seats are comparable (one player in every seat, or seats rotated),
has its fair share ``1/seats``.  Targets are read on today's figures, from
the interval: inside (the whole 95% interval in the band), outside (the whole
interval out of it: the target fails) or cannot tell (a warning).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from balance import format as fmt
from balance.check.metrics import QUANTILES, Metric, duplicate_metrics, metrics_of
from balance.config import END_REASON, Band, CheckSettings
from balance.stats import (
    bonferroni_adjust,
    holm_adjust,
    mean_difference,
    newcombe,
    quantile_difference_ci,
    quantile_test_p_value,
    two_proportion_p_value,
    z_value,
)


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
    verdict: str = "ok"  # "ok" | "within tolerance" | "cannot tell" | "regression" | "toward target" | "not compared"
    target: Band | None = None  # what "toward" is read against (a [targets] band, or a seat's fair share)

    @property
    def failed(self) -> bool:
        return self.verdict == "regression"

    def sentence(self) -> str:
        """``seat_win_rate[0] moved from 51.0% to 55.8% (+4.8 points, 95% CI +4.1 to +5.5): ...``"""
        if self.baseline is None or self.now is None:
            side = "baseline" if self.baseline is None else "current run"
            return f"{self.name}: not in the {side}; not compared"
        b, n = fmt.value(self.kind, self.baseline.value), fmt.value(self.kind, self.now.value)
        d, lo, hi = fmt.differences(self.kind, (self.diff, *self.ci95))
        unit = " points" if self.kind == "proportion" else " turns"
        moved = f"moved from {b} to {n}" if b != n else f"stayed at {b}"
        text = f"{self.name} {moved} ({d}{unit}, 95% CI {lo} to {hi}; adjusted p {fmt.p_value(self.p_adjusted)})"
        tol = fmt.difference(self.kind, self.tolerance, sign=False) + unit
        if self.verdict == "regression":
            away = self.target is not None and _distance(self.now.value, self.target) > _distance(self.baseline.value, self.target)
            return f"{text}: outside tolerance ±{tol}" + (f", away from its target {self._target()}" if away else "")
        if self.verdict == "toward target":
            return (
                f"{text}: beyond tolerance ±{tol}, toward its target {self._target()}; "
                "not a regression (record a new baseline if the change is meant)"
            )
        if self.verdict == "cannot tell":
            return (
                f"{text}: beyond tolerance ±{tol} by its estimate, but not significant after the correction; "
                "cannot tell (more games would)"
            )
        if self.verdict == "within tolerance":
            return f"{text}: significant but within tolerance ±{tol}"
        return f"{text}: not significant"

    def _target(self) -> str:
        t = self.target
        lo, hi = fmt.values(self.kind, (t.low, t.high))
        return lo if t.low == t.high else f"[{lo}, {hi}]"

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
            "target": self.target.to_list() if self.target else None,
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
        v, lo, hi = fmt.values(m.kind, (m.value, *m.ci95))
        blo, bhi = fmt.values(m.kind, (self.band.low, self.band.high))
        where = {
            "ok": "inside the target",
            "warn": "cannot tell whether it is inside the target (its interval reaches across an edge of",
            "fail": "outside the target",
        }[self.verdict]
        close = ")" if self.verdict == "warn" else ""
        return f"{self.name} is {v} (95% CI {lo} to {hi}, n={m.n:,}): {where} [{blo}, {bhi}]{close}"

    @property
    def reading(self) -> str:
        """``inside``, ``outside`` or ``cannot tell``: the target read from the interval."""
        return {"ok": "inside", "warn": "cannot tell", "fail": "outside"}[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.name,
            "target": self.target,
            "band": self.band.to_list(),
            "value": self.metric.value,
            "ci95": list(self.metric.ci95),
            "n": self.metric.n,
            "verdict": self.verdict,
            "reading": self.reading,
        }


def compare(
    base: Mapping[str, Any],
    now: Mapping[str, Any],
    settings: CheckSettings | None = None,
    targets: Mapping[str, Band] | None = None,
) -> tuple[list[Comparison], list[TargetResult]]:
    """Compare two sets of counts (see :func:`counts_of`): metrics and targets."""
    settings = settings or CheckSettings()
    targets = targets or {}
    mb, mn = metrics_of(base), metrics_of(now)
    # Both sides play the same players in the same seats; a baseline recorded before
    # seat_player_games was counted learns it from today's counts.
    same = duplicate_metrics(now) or duplicate_metrics(base)
    hb = np.asarray(base["turns_hist"], dtype=np.int64)
    hn = np.asarray(now["turns_hist"], dtype=np.int64)
    comparable = seats_comparable(now) or seats_comparable(base)
    rows: list[Comparison] = []
    for name in [*mb, *(k for k in mn if k not in mb)]:
        if name in same or name.startswith("minutes_"):  # minutes: the turns' test again (a target only)
            continue
        b, n = mb.get(name), mn.get(name)
        kind = (b or n).kind
        row = Comparison(name, kind, b, n, tolerance=settings.tolerance_for(name))
        row.target = target_of(name, targets, len(now["seat_wins"]), comparable)
        if b is None or n is None:
            row.verdict = "not compared"
        elif kind == "proportion":
            row.diff, lo, hi = newcombe(b.count, b.n, n.count, n.n)
            row.ci95 = (lo, hi)
            row.p_value = two_proportion_p_value(b.count, b.n, n.count, n.n)
        elif kind == "mean" and name != "turns_mean":  # a game-feel mean: from the two intervals
            row.diff, lo, hi, row.p_value = means_difference(b, n)
            row.ci95 = (lo, hi)
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
        row.verdict = verdict(row, p <= settings.alpha)
    return rows, evaluate_targets(mn, targets)


def means_difference(b: Metric, n: Metric) -> tuple[float, float, float, float]:
    """Today's mean minus the baseline's, its 95% normal interval and the
    two-sided p-value (independent samples, each standard error read back from
    its 95% interval)."""
    z = z_value()
    se = math.hypot((b.ci95[1] - b.ci95[0]) / (2 * z), (n.ci95[1] - n.ci95[0]) / (2 * z))
    diff = n.value - b.value
    if se == 0.0:
        return diff, diff, diff, 1.0 if diff == 0.0 else 0.0
    p = 2.0 * (1.0 - NormalDist().cdf(abs(diff) / se))
    return diff, diff - z * se, diff + z * se, p


def verdict(row: Comparison, significant: bool) -> str:
    """A compared metric's verdict (the table of the module docstring)."""
    # A little slack so that 0.05 - 0.03 == 0.02 reads as "equal to the tolerance".
    beyond = abs(row.diff) > row.tolerance + 1e-12
    if not beyond:
        return "within tolerance" if significant else "ok"
    if not significant:
        return "cannot tell"
    if row.target is not None and _distance(row.now.value, row.target) < _distance(row.baseline.value, row.target) - 1e-12:
        return "toward target"
    return "regression"


def _distance(value: float, band: Band) -> float:
    return max(band.low - value, 0.0, value - band.high)


def seats_comparable(counts: Mapping[str, Any]) -> bool:
    """Whether the seats' win rates measure the seats alone: one player in every
    seat, or every player in every seat equally often (seats rotated)."""
    if len(counts["strategies"]) <= 1:
        return True
    table = counts.get("seat_player_games")
    if not table:
        return False
    return all(len({int(row[k]) for row in table}) == 1 for k in range(len(counts["strategies"])))


def target_of(name: str, targets: Mapping[str, Band], n_seats: int, comparable: bool) -> Band | None:
    """The band a metric is read against when it moves: its ``[targets]`` entry,
    else, for a seat's win rate in comparable seats, the fair share ``1/seats``."""
    for key, band in targets.items():
        if key.startswith(END_REASON + "."):
            if name == f"{END_REASON}[{key.split('.', 1)[1]}]":
                return band
        elif key in ("seat_win_rate", "strategy_win_rate"):
            if name.startswith(key + "["):
                return band
        elif key == name:
            return band
    if name.startswith("seat_win_rate[") and comparable and n_seats:
        return Band(1.0 / n_seats, 1.0 / n_seats)
    return None


def detectable_change(rows: list[Comparison], alpha: float) -> float | None:
    """The smallest change of a seat's win rate near its fair share that this
    check shows with 80% power: two samples of the baseline's games, the
    level of the first Holm step (alpha over the metrics compared)."""
    from balance.summary import detectable_shift

    seats = [r for r in rows if r.name.startswith("seat_win_rate[") and r.baseline is not None]
    if not seats:
        return None
    tested = sum(r.verdict != "not compared" for r in rows)
    return detectable_shift(seats[0].baseline.n, 1.0 / len(seats), two_sample=True, alpha=alpha, tests=tested)


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

