"""Intervals and histogram quantiles (reference checks against scipy are in test_intervals_reference)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.stats import hist_mean_se, hist_quantile, length_summary, newcombe, wilson


@given(n=st.integers(1, 10**7), frac=st.floats(0, 1))
@settings(max_examples=200, deadline=None)
def test_wilson_contains_estimate_and_stays_in_unit_interval(n, frac):
    k = int(round(frac * n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_known_value():
    # Newcombe (1998), table I: 81/263 -> 0.2553 to 0.3662
    lo, hi = wilson(81, 263)
    assert round(lo, 4) == 0.2553 and round(hi, 4) == 0.3662


def test_newcombe_known_value():
    # Newcombe (1998) method 10 example: 56/70 vs 48/80 -> difference 0.2, CI 0.0524 to 0.3339
    d, lo, hi = newcombe(48, 80, 56, 70)
    assert round(d, 4) == 0.2 and round(lo, 4) == 0.0524 and round(hi, 4) == 0.3339


@given(st.lists(st.integers(0, 60), min_size=1, max_size=300), st.floats(0.01, 0.99))
@settings(max_examples=200, deadline=None)
def test_hist_quantile_equals_sorted_rank(values, q):
    hist = np.bincount(values)
    ordered = sorted(values)
    rank = max(1, int(np.ceil(q * len(values))))
    assert hist_quantile(hist, q) == ordered[rank - 1]
    assert hist_quantile(hist, q) == int(np.quantile(values, q, method="inverted_cdf"))


@given(st.lists(st.integers(0, 60), min_size=2, max_size=300))
@settings(max_examples=100, deadline=None)
def test_hist_mean_and_summary(values):
    hist = np.bincount(values)
    mean, se = hist_mean_se(hist)
    assert abs(mean - np.mean(values)) < 1e-9
    assert abs(se - np.std(values, ddof=1) / np.sqrt(len(values))) < 1e-9
    s = length_summary(hist)
    assert s["min"] == min(values) and s["max"] == max(values)
    assert s["p10"] <= s["median"] <= s["p90"]
