"""Two rule sets played on the same games: counts of the pairs, and paired differences.

Game ``g`` under seed ``S`` is the same deal under rules A and under rules B
(common random numbers, docs/architecture.md), so a comparison of A and B is a
comparison of pairs of games.  A :class:`PairedAggregate` keeps, besides each
side's :class:`~balance.aggregate.Aggregate` (every figure of A and of B), what
the paired differences need and nothing per game:

* for every yes/no outcome of a game (seat ``s`` won, player ``k`` won, nobody
  won, the game ended by reason ``r``) the *discordant* pairs: games where it
  happened under A and not under B, and the reverse.  The per-game difference
  ``d_g = y_g - x_g`` is -1, 0 or +1, so its mean and variance follow from
  these two counts alone;
* the joint histogram of game lengths ``(turns under A, turns under B)``:
  the paired difference of the mean length, a paired bootstrap of the
  difference of a quantile (pairs resampled, not the two sides apart) and a
  paired quantile test.

Pairs merge by adding integers, like aggregates: any chunking, thread count or
executor gives the same numbers.

The differences (:func:`balance.rulecompare.paired_rows`): for a proportion, ``mean(d)`` with the
normal interval of the per-game differences ``mean ± z·sd(d)/√n`` and its z
test (McNemar's test without continuity correction); for the mean length the
same on ``turnsB − turnsA``; for the median and the 90th percentile, the
difference of the two quantiles, a percentile interval from a bootstrap of the
pairs and the p-value of a paired Mood test (games at or below the pooled
quantile, compared pair by pair as a proportion).  When A and B are the same
rules every pair agrees: every difference is exactly 0, its interval [0, 0].
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.aggregate import Aggregate

JOINT = 1 << 20  # a joint length cell is turnsA * JOINT + turnsB (no game lasts a million turns)
BOOTSTRAP_REPS = 2000
_BOOTSTRAP_SEED = 20261202  # fixed: the same pairs always print the same interval
QUANTILES = {"turns_median": 0.5, "turns_p90": 0.9}


def indicator_names(n_seats: int, strategies: Sequence[str], end_reasons: Sequence[str]) -> list[str]:
    """The yes/no outcomes of a game, in the columns of the discordant counts,
    named as :func:`balance.check.metrics.metrics_of` names their rates."""
    END_REASON = "end_reason"  # balance.config.END_REASON (not imported: the runner imports this module)
    return (
        [f"seat_win_rate[{s}]" for s in range(n_seats)]
        + [f"strategy_win_rate[{k}]" for k in strategies]
        + ["no_winner_rate"]
        + [f"{END_REASON}[{r}]" for r in end_reasons]
    )


def _indicators(out: Any, seatings: np.ndarray, first_game: int, n_strategies: int, n_reasons: int) -> np.ndarray:
    """bool[n, columns]: per game, each yes/no outcome (columns of :func:`indicator_names`)."""
    n_seats = seatings.shape[1]
    winner = out.winner.astype(np.int64)
    won = winner >= 0
    reason = out.end_reason.astype(np.int64)
    n = winner.shape[0]
    cols = np.zeros((n, n_seats + n_strategies + 1 + n_reasons), np.bool_)
    cols[:, :n_seats] = winner[:, None] == np.arange(n_seats)[None, :]
    row = (np.arange(first_game, first_game + n, dtype=np.int64)) % seatings.shape[0]
    who = np.where(won, seatings[row, np.where(won, winner, 0)], -1)  # the winning player, -1 for none
    cols[:, n_seats : n_seats + n_strategies] = who[:, None] == np.arange(n_strategies)[None, :]
    cols[:, n_seats + n_strategies] = ~won
    cols[:, n_seats + n_strategies + 1 :] = reason[:, None] == np.arange(n_reasons)[None, :]
    return cols


def _reduce(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    uniq, inverse = np.unique(keys, return_inverse=True)
    return uniq.astype(np.int64), np.bincount(inverse, weights=counts, minlength=uniq.shape[0]).astype(np.int64)


@dataclass
class PairedAggregate:
    """Counts of pairs of games (the same game under rules A and B), mergeable."""

    a: Aggregate
    b: Aggregate
    a_only: np.ndarray  # int64[columns]: games where the outcome happened under A, not under B
    b_only: np.ndarray  # int64[columns]: ... under B, not under A
    joint_keys: np.ndarray  # int64[cells]: turnsA * JOINT + turnsB, sorted
    joint_counts: np.ndarray  # int64[cells]: games per cell

    @property
    def games(self) -> int:
        return self.a.games

    @classmethod
    def from_outcomes(
        cls, out_a: Any, out_b: Any, seatings: np.ndarray, first_game: int, n_strategies: int, n_reasons: int
    ) -> PairedAggregate:
        a = Aggregate.from_outcomes(out_a, seatings, first_game, n_strategies, n_reasons)
        b = Aggregate.from_outcomes(out_b, seatings, first_game, n_strategies, n_reasons)
        xa = _indicators(out_a, seatings, first_game, n_strategies, n_reasons)
        xb = _indicators(out_b, seatings, first_game, n_strategies, n_reasons)
        keys = out_a.turns.astype(np.int64) * JOINT + out_b.turns.astype(np.int64)
        jk, jc = _reduce(keys, np.ones(keys.shape[0], np.int64))
        return cls(a, b, (xa & ~xb).sum(axis=0).astype(np.int64), (xb & ~xa).sum(axis=0).astype(np.int64), jk, jc)

    def merge(self, other: PairedAggregate) -> PairedAggregate:
        jk, jc = _reduce(
            np.concatenate([self.joint_keys, other.joint_keys]), np.concatenate([self.joint_counts, other.joint_counts])
        )
        return PairedAggregate(
            self.a.merge(other.a), self.b.merge(other.b), self.a_only + other.a_only, self.b_only + other.b_only, jk, jc
        )

    def joint(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(turns under A, turns under B, games)`` per cell of the joint histogram."""
        return self.joint_keys // JOINT, self.joint_keys % JOINT, self.joint_counts

    def to_dict(self) -> dict[str, Any]:
        tA, tB, c = self.joint()
        return {
            "a": self.a.to_dict(), "b": self.b.to_dict(),
            "a_only": self.a_only.tolist(), "b_only": self.b_only.tolist(),
            "joint_turns": [[int(x), int(y), int(k)] for x, y, k in zip(tA, tB, c)],
        }


def run_pair(task: Any) -> PairedAggregate:
    """Play one task's games under its rules (A) and its ``versus`` rules (B)."""
    ra = task.run.resolved()
    rb = task.versus.resolved()
    outs = []
    for r, run in ((ra, task.run), (rb, task.versus)):
        outs.append(
            r.spec.simulate(
                r.rules, list(r.strategies), r.seatings, run.seed, task.first_game, task.n_games, r.board,
                device=task.device,
            )
        )
    return PairedAggregate.from_outcomes(
        outs[0], outs[1], ra.seatings, task.first_game, len(ra.strategies), len(ra.spec.end_reasons)
    )


# --------------------------------------------------------------------------- paired statistics
@dataclass(frozen=True)
class Paired:
    """A paired difference (B minus A): estimate, standard error, 95% interval, two-sided p."""

    diff: float
    se: float
    low: float
    high: float
    p_value: float


def _z(confidence: float) -> float:
    from balance.stats import z_value

    return z_value(confidence)


def paired_from_sums(n: int, sum_d: float, sum_d2: float, confidence: float = 0.95) -> Paired:
    """The mean of ``n`` per-game differences given their sum and sum of squares:
    the normal interval from the differences' own variance and the z test against 0."""
    if n < 2:
        raise ValueError("a paired difference needs at least two pairs")
    mean = sum_d / n
    var = max(0.0, (sum_d2 - n * mean * mean) / (n - 1))
    se = math.sqrt(var / n)
    if se == 0.0:
        return Paired(mean, 0.0, mean, mean, 1.0 if mean == 0 else 0.0)
    half = _z(confidence) * se
    return Paired(mean, se, mean - half, mean + half, math.erfc(abs(mean) / se / math.sqrt(2.0)))


def paired_proportion(n: int, a_only: int, b_only: int, confidence: float = 0.95) -> Paired:
    """``p_B - p_A`` from the discordant pairs (d = +1 for ``b_only``, -1 for ``a_only``)."""
    return paired_from_sums(n, float(b_only - a_only), float(b_only + a_only), confidence)


def _quantile_of(values: np.ndarray, counts: np.ndarray, q: float) -> int:
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(counts[order])
    rank = max(1, math.ceil(q * int(cum[-1])))
    return int(values[order][int(np.searchsorted(cum, rank))])


def paired_quantile(
    ta: np.ndarray, tb: np.ndarray, counts: np.ndarray, q: float, confidence: float = 0.95, reps: int = BOOTSTRAP_REPS
) -> Paired:
    """``quantile(B) - quantile(A)`` of paired lengths (cells of the joint histogram):
    a percentile interval from resampling the pairs, and the p-value of the paired
    Mood test (at or below the pooled quantile, pair by pair)."""
    n = int(counts.sum())
    diff = float(_quantile_of(tb, counts, q) - _quantile_of(ta, counts, q))
    rng = np.random.default_rng(_BOOTSTRAP_SEED)
    samples = rng.multinomial(n, counts / n, size=reps)  # int64[reps, cells]
    rank = max(1, math.ceil(q * n))
    draws = np.empty(reps)
    qs = []
    for side in (ta, tb):
        order = np.argsort(side, kind="stable")
        cum = np.cumsum(samples[:, order], axis=1)
        qs.append(side[order][(cum >= rank).argmax(axis=1)])
    draws[:] = qs[1] - qs[0]
    alpha = 1.0 - confidence
    lo, hi = np.quantile(draws, [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
    pooled = _quantile_of(np.concatenate([ta, tb]), np.concatenate([counts, counts]), q)
    below_a, below_b = ta <= pooled, tb <= pooled
    a_only = int(counts[below_a & ~below_b].sum())
    b_only = int(counts[below_b & ~below_a].sum())
    p = paired_proportion(n, a_only, b_only).p_value
    return Paired(diff, float("nan"), float(min(lo, diff)), float(max(hi, diff)), p)


@dataclass
class PairedRow:
    """One metric under A and under B, and their paired difference."""

    name: str
    kind: str  # "proportion" | "mean" | "quantile"
    a: Any  # balance.check.metrics.Metric
    b: Any
    diff: float
    ci95: tuple[float, float]
    p_value: float
    p_adjusted: float = 1.0
    changed: bool = False  # the Holm-adjusted p-value at most alpha
    unit: str = ""  # "" for proportions (points), "turns", "minutes"
    tested: bool = True  # False: the same test as another row (minutes of turns), outside the family
    paired: bool = True  # False: an unpaired difference (game feel), Holm-adjusted in a family of its own

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.name, "kind": self.kind, "unit": self.unit or "points",
            "a": self.a.to_dict(), "b": self.b.to_dict(),
            "difference": self.diff, "ci95": list(self.ci95),
            "interval": "paired" if self.paired else "unpaired",
            "p_value": self.p_value, "p_adjusted": self.p_adjusted if self.tested or not self.paired else None,
            "in_family": self.tested, "family": "paired" if self.tested else None if self.paired else "game feel",
            "changed": self.changed,
        }


def unpaired_proportion(a: Mapping[str, Any], b: Mapping[str, Any]) -> tuple[float, float, float]:
    """The same difference as if A and B were independent samples (Newcombe): what
    pairing is measured against."""
    from balance.stats import newcombe

    return newcombe(int(a["count"]), int(a["n"]), int(b["count"]), int(b["n"]))


def unpaired_difference(a: Any, b: Any, confidence: float = 0.95) -> Paired:
    """B − A of two figures counted per side only (each a
    :class:`~balance.check.metrics.Metric`), as if A and B were independent
    samples: a proportion's Newcombe hybrid score interval with the pooled
    two-proportion z test, a mean's normal interval of the difference of two
    means (each standard error read back from its side's 95% interval) with
    its z test.  A and B play the same deals, so they are positively
    correlated and the paired interval, were the figures kept game by game,
    would be narrower: this one is conservative."""
    from balance.stats import newcombe, two_proportion_p_value, z_value

    if a.kind == "proportion":
        diff, low, high = newcombe(int(a.count), int(a.n), int(b.count), int(b.n), confidence)
        return Paired(diff, float("nan"), low, high, two_proportion_p_value(int(a.count), int(a.n), int(b.count), int(b.n)))
    if a.kind != "mean":
        raise ValueError(f"an unpaired difference of a {a.kind}: only proportions and means")
    z95 = z_value(0.95)
    se = math.hypot((a.ci95[1] - a.ci95[0]) / (2 * z95), (b.ci95[1] - b.ci95[0]) / (2 * z95))
    diff = b.value - a.value
    if se == 0.0:
        return Paired(diff, 0.0, diff, diff, 1.0 if diff == 0.0 else 0.0)
    half = _z(confidence) * se
    return Paired(diff, se, diff - half, diff + half, math.erfc(abs(diff) / se / math.sqrt(2.0)))
