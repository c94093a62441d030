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

The package, one module per job:

================  ==========================================================
``metrics``       counts of a run and every metric with its interval
``baseline_file`` the baseline file: read, write, validate
``plan``          what to play for each baseline (a run description)
``comparison``    tests, tolerances, targets (statistics in balance.stats)
``render``        the text table, Markdown and JUnit XML
``commands``      ``baseline()``, ``update()``, ``check()`` and the report
================  ==========================================================
"""

from __future__ import annotations

from balance.check.baseline_file import FORMAT, Baseline, default_baseline_path, find_baselines, load_baseline
from balance.check.commands import BaselineCheck, CheckReport, baseline, check, update
from balance.check.comparison import Comparison, TargetResult, compare, evaluate_targets
from balance.check.metrics import QUANTILES, Metric, counts_of, metrics_of

__all__ = [
    "FORMAT", "QUANTILES", "Baseline", "BaselineCheck", "CheckReport", "Comparison", "Metric", "TargetResult",
    "baseline", "check", "compare", "counts_of", "default_baseline_path", "evaluate_targets", "find_baselines",
    "load_baseline", "metrics_of", "update",
]
