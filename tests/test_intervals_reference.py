"""Dev-only: balance.stats and the tests of balance.check against scipy and statsmodels.

scipy and statsmodels are test dependencies only (the ``test`` extra); the
toolkit computes everything with numpy and ``math``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")
sm_proportion = pytest.importorskip("statsmodels.stats.proportion")
sm_multitest = pytest.importorskip("statsmodels.stats.multitest")
sm_weightstats = pytest.importorskip("statsmodels.stats.weightstats")

from balance.stats import (  # noqa: E402 - after the importorskip above
    bonferroni_adjust,
    holm_adjust,
    mean_difference,
    quantile_difference_ci,
    quantile_test_p_value,
)
from balance.stats import (  # noqa: E402
    hist_mean_se,
    hist_quantile,
    hist_quantile_ci,
    newcombe,
    two_proportion_p_value,
    wilson,
    z_value,
)

PROPORTIONS = [
    (0, 10),
    (1, 10),
    (5, 10),
    (10, 10),
    (3, 1000),
    (510, 1000),
    (49_000, 100_000),
    (99_990, 100_000),
]
PAIRS = [
    ((510, 1000), (558, 1000)),
    ((0, 50), (3, 60)),
    ((50, 50), (40, 50)),
    ((49_000, 100_000), (54_000, 100_000)),
    ((7, 13), (2, 29)),
    ((0, 100), (0, 100)),
]


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_z_value(confidence):
    assert z_value(confidence) == pytest.approx(
        scipy_stats.norm.ppf(0.5 + confidence / 2), abs=1e-12
    )


@pytest.mark.parametrize("k, n", PROPORTIONS)
@pytest.mark.parametrize("confidence", [0.95, 0.99])
def test_wilson_matches_statsmodels(k, n, confidence):
    lo, hi = sm_proportion.proportion_confint(
        k, n, alpha=1 - confidence, method="wilson"
    )
    ours = wilson(k, n, confidence)
    assert ours == pytest.approx((lo, hi), abs=1e-12)


@pytest.mark.parametrize("first, second", PAIRS)
def test_newcombe_matches_statsmodels(first, second):
    (s1, n1), (s2, n2) = first, second
    d, lo, hi = newcombe(s1, n1, s2, n2)
    # statsmodels compares the first sample minus the second: ours is second minus first.
    ref_lo, ref_hi = sm_proportion.confint_proportions_2indep(
        s2, n2, s1, n1, method="newcomb", compare="diff"
    )
    assert d == pytest.approx(s2 / n2 - s1 / n1, abs=1e-15)
    assert (lo, hi) == pytest.approx((ref_lo, ref_hi), abs=1e-12)


@pytest.mark.parametrize(
    "first, second",
    [p for p in PAIRS if p[0][0] + p[1][0] not in (0, p[0][1] + p[1][1])],
)
def test_two_proportion_p_value_matches_statsmodels(first, second):
    (s1, n1), (s2, n2) = first, second
    _, p = sm_proportion.proportions_ztest([s1, s2], [n1, n2])
    # Absolute slack: 1 - cdf(z) underflows to 0 below ~1e-16 (harmless for any decision).
    assert two_proportion_p_value(s1, n1, s2, n2) == pytest.approx(
        p, rel=1e-9, abs=1e-15
    )


def _sample(seed: int, n: int, lam: float = 30.0) -> np.ndarray:
    return np.random.default_rng(seed).poisson(lam, n)


@pytest.mark.parametrize("q", [0.1, 0.5, 0.9, 0.99])
def test_hist_quantile_matches_numpy_inverted_cdf(q):
    x = _sample(1, 2001)
    assert hist_quantile(np.bincount(x), q) == int(
        np.quantile(x, q, method="inverted_cdf")
    )


def test_hist_mean_se_matches_scipy():
    x = _sample(2, 5000)
    mean, se = hist_mean_se(np.bincount(x))
    assert mean == pytest.approx(x.mean(), rel=1e-12)
    assert se == pytest.approx(scipy_stats.sem(x), rel=1e-9)


@pytest.mark.parametrize("n, q", [(1000, 0.5), (5000, 0.9), (200, 0.5)])
def test_hist_quantile_ci_ranks_match_exact_binomial_ranks(n, q):
    # Distinct values 0..n-1: the interval's ends are order statistics (value = rank - 1).
    lo, hi = hist_quantile_ci(np.ones(n, np.int64), q)
    exact_lo = scipy_stats.binom.ppf(0.025, n, q)  # rank r: P(Bin(n, q) < r) ~ 0.025
    exact_hi = scipy_stats.binom.ppf(0.975, n, q) + 1
    assert abs((lo + 1) - exact_lo) <= 2 and abs((hi + 1) - exact_hi) <= 2


def test_holm_and_bonferroni_match_statsmodels():
    rng = np.random.default_rng(3)
    for m in (1, 2, 5, 12):
        p = np.concatenate(
            [rng.uniform(0, 0.02, m // 2), rng.uniform(0, 1, m - m // 2)]
        )
        for ours, method in ((holm_adjust, "holm"), (bonferroni_adjust, "bonferroni")):
            _, ref, _, _ = sm_multitest.multipletests(p, alpha=0.05, method=method)
            assert ours(list(p)) == pytest.approx(list(ref), abs=1e-12)


def test_mean_difference_matches_statsmodels_unequal_variance_z():
    a, b = _sample(4, 3000, 30.0), _sample(5, 2500, 30.6)
    d, lo, hi, p = mean_difference(np.bincount(a), np.bincount(b))
    cm = sm_weightstats.CompareMeans(
        sm_weightstats.DescrStatsW(b), sm_weightstats.DescrStatsW(a)
    )
    ref_lo, ref_hi = cm.zconfint_diff(alpha=0.05, usevar="unequal")
    _, ref_p = cm.ztest_ind(usevar="unequal")
    assert d == pytest.approx(b.mean() - a.mean(), rel=1e-12)
    assert (lo, hi) == pytest.approx((ref_lo, ref_hi), rel=1e-9)
    assert p == pytest.approx(ref_p, rel=1e-9)


def test_quantile_test_is_moods_median_test():
    a, b = (
        _sample(6, 1001, 30.0),
        _sample(7, 1000, 31.0),
    )  # odd pooled size: one middle value
    ref = scipy_stats.median_test(a, b, ties="below", correction=False)
    assert quantile_test_p_value(np.bincount(a), np.bincount(b), 0.5) == pytest.approx(
        ref.pvalue, rel=1e-9
    )


def test_quantile_difference_ci_agrees_with_scipy_bootstrap():
    a, b = _sample(8, 3000, 30.0), _sample(9, 3000, 31.5)
    lo, hi = quantile_difference_ci(np.bincount(a), np.bincount(b), 0.9)

    def diff(x, y, axis=-1):
        q = np.quantile(y, 0.9, axis=axis, method="inverted_cdf") - np.quantile(
            x, 0.9, axis=axis, method="inverted_cdf"
        )
        return q.astype(np.float64)

    ref = scipy_stats.bootstrap(
        (a, b),
        diff,
        method="percentile",
        n_resamples=2000,
        random_state=np.random.default_rng(0),
        vectorized=True,
    ).confidence_interval
    # Quantiles of integers: the bootstrap ends are whole numbers and may differ by one.
    assert abs(lo - ref.low) <= 1 and abs(hi - ref.high) <= 1
    assert lo <= 1.5 * (31.5 - 30) + 2 and hi >= 0


def test_wilson_coverage_by_simulation():
    """The 95% Wilson interval covers the true rate in about 95% of samples."""
    rng = np.random.default_rng(10)
    for p, n in ((0.5, 200), (0.05, 400)):
        k = rng.binomial(n, p, 4000)
        covered = sum(lo <= p <= hi for lo, hi in (wilson(int(x), n) for x in k))
        assert 0.93 <= covered / 4000 <= 0.97, (p, n, covered)
    assert not math.isnan(wilson(0, 1)[0])
