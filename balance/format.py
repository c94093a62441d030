"""Every percentage and interval the toolkit shows: the CLI, the report and the check.

One rule decides the decimals of a share shown in percent (or of a difference
of shares, in points), so that a rare event never reads as none at all:

* one decimal when the largest number shown together (a value and its
  interval, or a difference and its interval) is at least 1% (one point), or
  when all of them are zero: ``58.3%``, ``0.0%``;
* below 1%, enough decimals for two significant digits of that largest
  number: ``0.42%``, ``0.038%``, ``0.0038%``.

So 377 games in 1,000,000 show as ``0.038%`` and its interval with the same
three decimals, never ``0.0%``.  Values given together share one number of
decimals, decided by the largest of them; a value alone decides its own.

Numbers that are not shares (mean lengths, quantiles) and sweep values
(``format_value``) are formatted here too, so that every caller shows them
the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

MAX_DECIMALS = 8  # a share of 1 in 10^10 games still shows two digits


def decimals(*shares: float) -> int:
    """Decimals for shares (0..1) shown together in percent (the rule above)."""
    finite = [abs(float(x)) for x in shares if x is not None and math.isfinite(float(x))]
    top = max(finite, default=0.0)
    if top == 0.0 or top >= 0.01:
        return 1
    return min(MAX_DECIMALS, 1 - math.floor(math.log10(100.0 * top)))


def number(share: float, digits: int | None = None, *, sign: bool = False) -> str:
    """A share as a number in percent, without the ``%``: ``58.3``, ``+0.31``."""
    d = decimals(share) if digits is None else digits
    return f"{100.0 * share:{'+' if sign else ''}.{d}f}"


def percent(share: float, digits: int | None = None) -> str:
    """A share in percent: ``58.3%``, ``0.038%``."""
    return number(share, digits) + "%"


def interval(ci: Sequence[float], digits: int | None = None, *, unit: str = "") -> str:
    """An interval of shares: ``55.2–57.2`` (``unit="%"``: ``55.2%–57.2%``)."""
    lo, hi = ci
    d = decimals(lo, hi) if digits is None else digits
    return f"{number(lo, d)}{unit}–{number(hi, d)}{unit}"


def percent_ci(share: float, ci: Sequence[float]) -> str:
    """A share and its 95% interval, as the report writes them: ``56.2% (55.2–57.2)``."""
    d = decimals(share, *ci)
    return f"{percent(share, d)} ({interval(ci, d)})"


def percent_ci_cell(share: float, ci: Sequence[float]) -> str:
    """A share and its interval for a terminal table (the value right-aligned):
    `` 56.2%  (55.2–57.2)``."""
    d = decimals(share, *ci)
    return f"{number(share, d):>5}%  ({interval(ci, d)})"


def points(diff: float, digits: int | None = None, *, sign: bool = True) -> str:
    """A difference of shares in percentage points, without the unit: ``+4.8``."""
    return number(diff, digits, sign=sign)


def points_ci(diff: float, ci: Sequence[float], *, sign: bool = True) -> tuple[str, str, str]:
    """A difference and its interval in points, with one number of decimals."""
    d = decimals(diff, *ci)
    return points(diff, d, sign=sign), points(ci[0], d, sign=sign), points(ci[1], d, sign=sign)


def band(low: float, high: float) -> str:
    """A band of shares someone chose (not measured): ``45–55%``, ``30–36.67%``."""
    return f"{100 * low:.4g}–{100 * high:.4g}%"


def value(kind: str, x: float) -> str:
    """A figure of a given kind: ``proportion`` in percent, ``quantile`` as a whole
    number of turns, ``mean`` with two decimals."""
    if kind == "proportion":
        return percent(x)
    if kind == "quantile":
        return f"{x:g}"
    return f"{x:.2f}"


def values(kind: str, xs: Iterable[float]) -> list[str]:
    """Figures of one kind shown together (a value and its interval): proportions
    share one number of decimals."""
    xs = list(xs)
    if kind == "proportion":
        d = decimals(*xs)
        return [percent(x, d) for x in xs]
    return [value(kind, x) for x in xs]


def difference(kind: str, x: float, *, sign: bool = True, digits: int | None = None) -> str:
    """A change of a figure: points for a proportion, turns otherwise."""
    s = "+" if sign else ""
    if kind == "proportion":
        return points(x, digits, sign=sign)
    if kind == "quantile":
        return f"{x:{s}g}"
    return f"{x:{s}.2f}"


def differences(kind: str, xs: Iterable[float], *, sign: bool = True) -> list[str]:
    """Changes shown together (a difference and its interval)."""
    xs = list(xs)
    d = decimals(*xs) if kind == "proportion" else None
    return [difference(kind, x, sign=sign, digits=d) for x in xs]


def p_value(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def format_value(v: Any) -> str:
    """A parameter value as a user writes it (``true``, ``12``, ``0.35``, ``wide``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)
