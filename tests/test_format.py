"""balance.format: one rule for every percentage and interval the toolkit shows.

The rule: one decimal when the largest number shown together is at least 1%
(one point) or all are zero; below that, two significant digits of the largest.
The CLI, the report and the check all show a rare rate the same way."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from balance import format as fmt


@pytest.mark.parametrize(
    "shares, digits",
    [
        ((0.583,), 1),
        ((0.0,), 1),
        ((0.01,), 1),
        ((0.0099,), 2),
        ((0.0042,), 2),
        ((0.001,), 2),  # 0.10%
        ((0.00099,), 3),
        ((377 / 1_000_000,), 3),
        ((0.000038,), 4),
        ((1e-9,), 8),  # capped
        ((0.0, 0.0, 0.00077), 3),  # none seen in 5,000 games: the interval's top decides
        ((0.005, 0.0042, 0.012), 1),  # an interval reaching 1%
        ((-0.051, 0.003), 1),  # differences: by absolute value
    ],
)
def test_decimals(shares, digits):
    assert fmt.decimals(*shares) == digits


def test_shares_and_intervals():
    assert fmt.percent(377 / 1_000_000) == "0.038%"
    assert fmt.percent(0.583) == "58.3%"
    assert fmt.percent_ci(0.562, (0.552, 0.572)) == "56.2% (55.2–57.2)"
    assert fmt.percent_ci(0.0, (0.0, 0.0013)) == "0.00% (0.00–0.13)"  # one count of decimals for the three
    assert fmt.percent_ci_cell(0.304, (0.298, 0.31)) == " 30.4%  (29.8–31.0)"
    assert fmt.percent_ci_cell(0.0, (0.0, 0.00077)) == "0.000%  (0.000–0.077)"
    assert fmt.points_ci(-0.0006, (-0.0027, 0.0015)) == ("-0.06", "-0.27", "+0.15")
    assert fmt.values("proportion", (0.011, 0.0098, 0.013)) == ["1.1%", "1.0%", "1.3%"]
    assert fmt.values("quantile", (9, 8, 10)) == ["9", "8", "10"]
    assert fmt.differences("mean", (-0.08, -0.09, -0.07)) == ["-0.08", "-0.09", "-0.07"]
    assert fmt.band(0.45, 0.55) == "45–55%" and fmt.band(0.3, 1 / 3 * 1.1) == "30–36.67%"
    assert fmt.p_value(0.0004) == "<0.001" and fmt.p_value(0.25) == "0.250"
    assert fmt.format_value(True) == "true" and fmt.format_value(0.35) == "0.35" and fmt.format_value(12) == "12"


@given(st.integers(1, 10**9), st.integers(10, 10**10))
def test_a_rare_rate_never_reads_as_none(k, n):
    """Any count above zero shows a non-zero digit, alone or with its interval."""
    share = min(k, n) / n
    assert any(c in "123456789" for c in fmt.percent(share))
    assert any(c in "123456789" for c in fmt.percent_ci(share, (share / 2, share * 2)).split(" (")[0])


def test_every_caller_uses_the_one_rule(dicerace, tmp_path):
    """The same rare share in the terminal table, the report's table and the check's table."""
    from balance.check.render import _value_ci
    from balance.cli.common import pct

    share, ci = 0.00038, (0.0002, 0.0007)
    assert pct(share, ci).split() == ["0.038%", "(0.020–0.070)"]
    assert fmt.percent_ci(share, ci) == "0.038% (0.020–0.070)"
    assert _value_ci("proportion", share, ci) == "0.038% (0.020%–0.070%)"
