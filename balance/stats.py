"""Interval estimates for what the toolkit reports.

* proportions (win rates, end-reason shares): Wilson score intervals;
* differences of two proportions: Newcombe's hybrid score interval (method 10)
  for independent samples;
* game lengths: exact quantiles from a histogram, the mean with its standard
  error; the difference of two means; a bootstrap interval of the difference
  of two quantiles and Mood's quantile test;
* multiple testing: Holm's step-down and Bonferroni adjusted p-values.

Everything here is plain numpy/`math`; the dev-only tests check it against
scipy and statsmodels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

import numpy as np


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile for ``confidence`` (1.959964 for 95%)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be in (0, 1)")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion; ``(0, 1)`` when ``n == 0``."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError("successes must be in 0..n")
    z = z_value(confidence)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = max(0.0, centre - half)
    hi = min(1.0, centre + half)
    # Exact ends: with no successes (or no failures) the bound is 0 (or 1).
    if successes == 0:
        lo = 0.0
    if successes == n:
        hi = 1.0
    return (lo, hi)


def newcombe(
    s1: int, n1: int, s2: int, n2: int, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Difference ``p2 - p1`` and its Newcombe (1998, method 10) interval.

    Returns ``(difference, low, high)``.  Built from the two Wilson intervals,
    it keeps good coverage near 0 and 1 where the Wald interval fails.
    """
    p1 = s1 / n1 if n1 else 0.0
    p2 = s2 / n2 if n2 else 0.0
    l1, u1 = wilson(s1, n1, confidence)
    l2, u2 = wilson(s2, n2, confidence)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (d, max(-1.0, low), min(1.0, high))


def two_proportion_p_value(s1: int, n1: int, s2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test (1.0 when undefined)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (s1 + s2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        return 1.0 if s1 / n1 == s2 / n2 else 0.0
    z = (s2 / n2 - s1 / n1) / math.sqrt(var)
    return math.erfc(abs(z) / math.sqrt(2.0))


def hist_quantile(hist: Sequence[int] | np.ndarray, q: float) -> int:
    """The exact ``q``-quantile (lower, "inverted CDF") of integer values 0..len-1
    given their counts ``hist``."""
    counts = np.asarray(hist, dtype=np.int64)
    total = int(counts.sum())
    if total == 0:
        raise ValueError("empty histogram")
    rank = max(1, math.ceil(q * total))  # the rank-th smallest value
    return int(np.searchsorted(np.cumsum(counts), rank))


def hist_mean_se(hist: Sequence[int] | np.ndarray) -> tuple[float, float]:
    """Mean of integer values given their counts, and its standard error."""
    counts = np.asarray(hist, dtype=np.float64)
    n = counts.sum()
    if n == 0:
        raise ValueError("empty histogram")
    values = np.arange(counts.shape[0], dtype=np.float64)
    mean = float((counts * values).sum() / n)
    if n < 2:
        return mean, float("nan")
    var = float((counts * (values - mean) ** 2).sum() / (n - 1))
    return mean, math.sqrt(var / n)


def hist_quantile_ci(
    hist: Sequence[int] | np.ndarray, q: float, confidence: float = 0.95
) -> tuple[int, int]:
    """Distribution-free interval for the ``q``-quantile (order statistics with
    binomial ranks, normal approximation)."""
    counts = np.asarray(hist, dtype=np.int64)
    n = int(counts.sum())
    if n == 0:
        raise ValueError("empty histogram")
    z = z_value(confidence)
    half = z * math.sqrt(n * q * (1 - q))
    lo_rank = max(1, math.floor(n * q - half))
    hi_rank = min(n, math.ceil(n * q + half) + 1)
    cum = np.cumsum(counts)
    return int(np.searchsorted(cum, lo_rank)), int(np.searchsorted(cum, hi_rank))


def length_summary(hist: Sequence[int] | np.ndarray) -> dict[str, float | int]:
    """Mean (with standard error), median, p10, p90 and max of a length histogram."""
    counts = np.asarray(hist, dtype=np.int64)
    mean, se = hist_mean_se(counts)
    nonzero = np.nonzero(counts)[0]
    return {
        "mean": mean,
        "mean_se": se,
        "median": hist_quantile(counts, 0.5),
        "p10": hist_quantile(counts, 0.1),
        "p90": hist_quantile(counts, 0.9),
        "min": int(nonzero[0]),
        "max": int(nonzero[-1]),
    }


# --------------------------------------------------------------------------- two samples
BOOTSTRAP_REPS = 2000
_BOOTSTRAP_SEED = 20240917  # fixed: the same two samples always print the same interval


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


# --------------------------------------------------------------------------- multiple testing
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


@dataclass(frozen=True)
class PairedDifference:
    """The mean of paired differences ``x - y`` (the same games played two
    ways), its standard error, the two-sided interval at ``confidence`` and the
    z of the mean against zero."""

    mean: float
    se: float
    low: float
    high: float
    z: float
    n: int


def paired_difference(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray,
                      confidence: float = 0.95) -> PairedDifference:
    """Mean of ``x - y`` with a normal interval from the differences' own
    variance: for scores of the same games under two line-ups (common random
    numbers), where most games do not change and the pairing removes their
    spread.  A z of 0 when no difference varies and their mean is 0."""
    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    n = int(d.size)
    if n < 2:
        raise ValueError("a paired difference needs at least two pairs")
    mean = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(n))
    half = z_value(confidence) * se
    z = mean / se if se > 0 else (0.0 if mean == 0 else math.copysign(math.inf, mean))
    return PairedDifference(mean, se, mean - half, mean + half, z, n)
