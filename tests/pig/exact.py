"""Pig solved exactly (tests/piggame/RULES.md), by value iteration as in Neller
and Presser, "Optimal Play of the Dice Game Pig" (2004), for two seats.

A position is (i, j, k): the score of the seat to move, the other seat's score
and the turn total, with i + k < target (a seat reaching the target wins at
once).  The win probability of the seat to move satisfies

    roll(i, j, k) = 1/6 (1 - P(j, i, 0)) + 1/6 sum_{r=2..6} P(i, j, k + r)
    hold(i, j, k) = 1 - P(j, i + k, 0)                    (k >= 1)
    P(i, j, k)    = max(roll, hold) for optimal play,  P = 1 once i + k >= target

and, for two fixed policies, the same equations with each policy's choice in
place of the max (one table per policy: the win probability of that policy
when it is to move).  Positions are solved by layers of decreasing score sum
i + j (Neller and Presser's order): a hold moves to a larger sum, a roll to a
larger turn total, and only a bust stays in the layer (to (j, i, 0)), so each
layer is iterated (Gauss-Seidel) until its largest change is below ``tol``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit


@njit(cache=True)
def _solve(target, roll_a, roll_b, optimal, tol):
    """Win probabilities v[m, i, j, k] of player m (0: a, 1: b) to move, and
    for ``optimal`` the optimal choice (a plays optimally against itself)."""
    v = np.zeros((2, target, target, target), np.float64)
    choice = np.zeros((target, target, target), np.bool_)
    movers = 1 if optimal else 2
    for total in range(2 * target - 2, -1, -1):
        lo = max(0, total - target + 1)
        hi = min(total, target - 1)
        while True:
            change = 0.0
            for i in range(lo, hi + 1):
                j = total - i
                for m in range(movers):
                    o = m if optimal else 1 - m
                    for k in range(target - 1 - i, -1, -1):
                        roll = 1.0 - v[o, j, i, 0]
                        for r in range(2, 7):
                            roll += 1.0 if i + k + r >= target else v[m, i, j, k + r]
                        roll /= 6.0
                        if k == 0:
                            new = roll
                        else:
                            hold = 1.0 - v[o, j, i + k, 0]
                            if optimal:
                                choice[i, j, k] = roll >= hold
                                new = max(roll, hold)
                            else:
                                rolls = roll_a[i, j, k] if m == 0 else roll_b[i, j, k]
                                new = roll if rolls else hold
                        change = max(change, abs(new - v[m, i, j, k]))
                        v[m, i, j, k] = new
            if change < tol:
                break
    for i in range(target):
        for j in range(target):
            choice[i, j, 0] = True
    return v, choice


def optimal(target: int = 100, tol: float = 1e-13) -> tuple[np.ndarray, np.ndarray]:
    """(P, roll): the optimal win probability of the seat to move and the
    optimal choice (True: roll) at every position (i, j, k)."""
    dummy = np.zeros((1, 1, 1), np.bool_)
    v, choice = _solve(target, dummy, dummy, True, tol)
    return v[0], choice


def hold_at(n: int, target: int = 100) -> np.ndarray:
    """The policy "roll while the turn total is below n" (True: roll)."""
    k = np.arange(target)[None, None, :]
    return np.broadcast_to(k < n, (target, target, target)).copy()


@dataclass(frozen=True)
class Match:
    """Exact win probabilities of a two-seat game between policies a and b."""

    a_first: float  # P(a wins) when a is seat 0
    a_second: float  # P(a wins) when a is seat 1

    @property
    def a_rotated(self) -> float:
        """P(a wins) with seats alternating game by game."""
        return (self.a_first + self.a_second) / 2


def match(a: np.ndarray, b: np.ndarray, target: int = 100, tol: float = 1e-13) -> Match:
    """Exact win probabilities of policy ``a`` against policy ``b`` (boolean
    arrays over (i, j, k): True rolls), by policy evaluation."""
    v, _ = _solve(target, np.ascontiguousarray(a), np.ascontiguousarray(b), False, tol)
    return Match(a_first=float(v[0, 0, 0, 0]), a_second=1.0 - float(v[1, 0, 0, 0]))


def one_step(policy: np.ndarray, target: int = 100) -> np.ndarray:
    """The one-step improvement of ``policy`` (both seats playing it): at every
    position the better of roll and hold when every later decision is the
    policy's.  What a flat search over the policy's playouts finds with
    unlimited playouts, when the opponent plays the policy too."""
    v, _ = _solve(target, np.ascontiguousarray(policy), np.ascontiguousarray(policy), False, 1e-13)
    i, j, k = np.meshgrid(np.arange(target), np.arange(target), np.arange(target), indexing="ij")
    p = v[0].copy()
    p[i + k >= target] = 1.0  # a seat whose turn total reaches the target has won
    padded = np.concatenate([p, np.ones((target, target, 6))], axis=2)
    ahead = sum(padded[:, :, r : r + target] for r in range(2, 7))
    roll = ((1.0 - p[:, :, 0].T[:, :, None]) + ahead) / 6.0
    hold = np.where(i + k >= target, 1.0, 1.0 - p[j, np.minimum(i + k, target - 1), 0])
    return (roll > hold) | (k == 0)
