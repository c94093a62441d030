"""Comparing a baseline with today's run: the tests, the tolerances, the targets.

* proportions (win rate per seat and per player, no-winner rate, each end
  reason's share): difference with its Newcombe 95% interval, two-sided
  two-proportion z-test;
* mean game length: difference of means, normal interval and z-test;
* median and 90th percentile of game length: a percentile-bootstrap 95%
  interval of the difference from the two histograms, and Mood's quantile test
  for the p-value (:mod:`balance.stats`).

The p-values of one baseline are corrected for the number of metrics
(Holm-Bonferroni by default).  A metric *regresses* when its change is
significant after the correction **and** larger than its tolerance.  Targets
are read on today's figures: a target fails when the whole 95% interval lies
outside its band and warns when the interval straddles an edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance import format as fmt
from balance.check.metrics import QUANTILES, Metric, metrics_of
from balance.config import END_REASON, Band, CheckSettings
from balance.stats import (
    bonferroni_adjust,
    holm_adjust,
    mean_difference,
    newcombe,
    quantile_difference_ci,
    quantile_test_p_value,
    two_proportion_p_value,
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
    verdict: str = "ok"  # "ok" | "within tolerance" | "regression" | "not compared"

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
        v, lo, hi = fmt.values(m.kind, (m.value, *m.ci95))
        blo, bhi = fmt.values(m.kind, (self.band.low, self.band.high))
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

