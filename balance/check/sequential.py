"""``balance check --sequential``: replay a baseline's games in looks and stop as soon
as the verdict is certain, with the false-alarm rate kept at ``alpha``.

A group-sequential design (Jennison & Turnbull, *Group Sequential Methods*, 2000):

* **looks**: today's games are played in ``K`` rounds (default 4) of the seed's
  game indices, ``0..n1-1``, ``n1..n2-1``, ... up to the baseline's games, so the
  last look is exactly the fixed-sample check's games;
* **information**: a metric's difference with the baseline (fixed, ``n_b``
  games) at ``n_k`` games today has variance proportional to ``1/n_b + 1/n_k``;
  its information fraction is ``t_k = (1/n_b + 1/N) / (1/n_b + 1/n_k)``, and the
  z statistics of the looks have the canonical joint distribution
  (``corr(Z_j, Z_k) = sqrt(t_j / t_k)``: the baseline is shared by every look);
* **alpha spending**: Lan & DeMets' O'Brien–Fleming-type function
  ``alpha(t) = 2 - 2 Phi(z_(1-alpha/2) / sqrt(t))``; each look's two-sided
  critical value ``c_k`` is found by numerical integration of the
  continuation region (Armitage, McPherson & Rowe 1969), so that the chance of
  crossing at any look is ``alpha`` exactly;
* **the family**: Holm's procedure made sequential (the graphical procedure
  of Maurer & Bretz 2013 with equal weights): at every look a metric is
  rejected when ``|z| >= c_k`` at level ``alpha / (metrics not yet rejected)``,
  repeated while rejections free level;
* **stopping**: a rejected metric whose change is beyond its tolerance away
  from its target is a regression, and rejection is final: the check stops
  (FAIL) at once.  It stops early for PASS when every metric not rejected has
  its repeated confidence interval (the change ± ``c_k`` standard errors)
  within its tolerance: no later look could make it a regression beyond the
  tolerance (a non-binding stop, which cannot raise the false-alarm rate).

The false-alarm rate, measured by ``tests/test_check_sequential.py`` (docs/ci.md),
stays at most ``alpha``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import NormalDist
from typing import Any

import numpy as np

DEFAULT_LOOKS = 4
_N = NormalDist()
_GRID = 1201


def spending(t: float, alpha: float) -> float:
    """Lan–DeMets O'Brien–Fleming-type alpha spent by information fraction ``t``."""
    if t <= 0:
        return 0.0
    if t >= 1:
        return alpha
    return 2.0 - 2.0 * _N.cdf(_N.inv_cdf(1 - alpha / 2) / math.sqrt(t))


def _norm_cdf(x: np.ndarray) -> np.ndarray:
    from math import erf

    return 0.5 * (1.0 + np.vectorize(erf)(x / math.sqrt(2.0)))


def boundaries(fractions: Sequence[float], alpha: float) -> list[float]:
    """Two-sided critical values ``|Z_k| >= c_k`` of the looks at information
    ``fractions`` (increasing, the last 1) spending ``alpha`` the O'Brien–Fleming way."""
    out: list[float] = []
    spent = 0.0
    grid = None  # values of the score B = Z sqrt(t) in the continuation region
    dens = None  # its sub-density there (not yet stopped)
    prev_t = 0.0
    for t in fractions:
        target = spending(t, alpha) - spent
        if grid is None:
            c = _N.inv_cdf(1 - max(target, 1e-300) / 2) if target > 0 else math.inf
            c = min(c, 40.0)
            half = c * math.sqrt(t)
            grid = np.linspace(-half, half, _GRID)
            dens = np.exp(-grid**2 / (2 * t)) / math.sqrt(2 * math.pi * t)
        else:
            sd = math.sqrt(t - prev_t)
            w = np.full(grid.shape[0], grid[1] - grid[0])
            w[0] = w[-1] = w[0] / 2
            mass = dens * w

            def crossing(c: float) -> float:
                h = c * math.sqrt(t)
                up = 1 - _norm_cdf((h - grid) / sd)
                down = _norm_cdf((-h - grid) / sd)
                return float((mass * (up + down)).sum())

            lo, hi = 0.0, 40.0
            for _ in range(80):
                mid = (lo + hi) / 2
                if crossing(mid) > target:
                    lo = mid
                else:
                    hi = mid
            c = hi
            half = c * math.sqrt(t)
            new = np.linspace(-half, half, _GRID)
            kernel = np.exp(-((new[:, None] - grid[None, :]) ** 2) / (2 * sd * sd)) / (sd * math.sqrt(2 * math.pi))
            dens = kernel @ mass
            grid = new
            target = crossing(c)
        spent += target
        prev_t = t
        out.append(c)
    return out


def looks_for(games: int, looks: int, multiple: int) -> list[int]:
    """Games after each look: about equal rounds, each a multiple of the seatings, the last all."""
    marks = []
    for k in range(1, looks + 1):
        n = games if k == looks else min(games, -(-(games * k // looks) // multiple) * multiple)
        if n > (marks[-1] if marks else 0):
            marks.append(n)
    return marks


def fractions_for(marks: Sequence[int], n_base: int) -> list[float]:
    total = 1 / n_base + 1 / marks[-1]
    return [total / (1 / n_base + 1 / n) for n in marks]


def _z(p: float) -> float:
    return -_N.inv_cdf(max(p, 1e-300) / 2) if p < 1 else 0.0  # from the tail: exact for tiny p


def sequential_compare(
    base: dict[str, Any],
    play_until: Callable[[int], dict[str, Any]],
    marks: Sequence[int],
    settings: Any,
    targets: Any,
) -> tuple[list[Any], list[Any], dict[str, Any]]:
    """Compare ``base`` with today's counts at each look (``play_until(n)``: today's
    counts of the first ``n`` games) until the verdict is certain (module docstring)."""
    from balance.check.comparison import compare, verdict

    fractions = fractions_for(marks, int(base["games"]))
    tables: dict[int, list[float]] = {}
    rejected: set[str] = set()
    looked = []
    rows: list[Any] = []
    stop = "all looks played"
    for k, n in enumerate(marks):
        now = play_until(n)
        rows, found = compare(base, now, settings, targets)
        tested = [r for r in rows if r.verdict != "not compared"]
        m = len(tested)

        def c_at(level_count: int) -> float:
            if level_count not in tables:
                tables[level_count] = boundaries(fractions, settings.alpha / level_count)
            return tables[level_count][k]

        changed = True
        while changed:
            changed = False
            free = m - len(rejected)
            for r in tested:
                if r.name not in rejected and free > 0 and abs(_z(r.p_value)) >= c_at(free):
                    rejected.add(r.name)
                    changed = True
                    break
        for r in tested:
            r.verdict = verdict(r, r.name in rejected)
        c_now = c_at(max(1, m - len(rejected)))
        looked.append({"games": n, "information": fractions[k], "critical_z": c_now, "rejected": sorted(rejected)})
        if any(r.failed for r in tested):
            stop = f"a regression is certain at look {k + 1} of {len(marks)}"
            break
        if k < len(marks) - 1:
            settled = True
            for r in tested:
                if r.name in rejected:
                    if r.verdict != "ok" and r.verdict != "within tolerance":
                        settled = False
                    continue
                se = abs(r.ci95[1] - r.ci95[0]) / (2 * 1.959963984540054)
                if abs(r.diff) + c_now * se > r.tolerance:
                    settled = False
            if settled:
                stop = f"every metric within its tolerance at look {k + 1} of {len(marks)}"
                break
    info = {
        "design": "group sequential, Lan-DeMets O'Brien-Fleming-type alpha spending, sequential Holm",
        "looks_planned": len(marks),
        "looks_played": len(looked),
        "games_played": looked[-1]["games"],
        "games_planned": marks[-1],
        "stopped": stop,
        "looks": looked,
    }
    return rows, found, info
