"""Measurements of the search player ``mc`` (docs/players.md): do common
random numbers lower the variance of its comparisons in a game, and what its
searches cost.

``crn_variance`` plays games with ``mc`` seated, and at its decisions (every
``every``-th) measures, for each candidate against the rollout policy's own
answer, the variance of the paired difference of playout values with common
random numbers (the round's stream shared by both answers) and with a stream
per answer and round.  Common random numbers pay where the first is smaller;
they cost where the same dice go to another seat after one answer than after
the other (the test game of docs/players.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class CrnVariance:
    game: str
    players: tuple[str, ...]
    decisions: int  # decisions measured
    comparisons: int  # candidate-against-incumbent pairs measured
    rounds: int
    with_crn: float  # mean variance of a paired difference, common random numbers
    independent: float  # the same, a stream per answer and round
    crn_lower: int  # comparisons where common random numbers gave the lower variance

    @property
    def ratio(self) -> float:
        """with_crn / independent: below 1, common random numbers pay."""
        return self.with_crn / self.independent if self.independent > 0 else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": list(self.players), "decisions": self.decisions,
            "comparisons": self.comparisons, "rounds": self.rounds, "with_crn": self.with_crn,
            "independent": self.independent, "ratio": self.ratio, "crn_lower": self.crn_lower,
        }


def crn_variance(
    game: str, players: list[str], *, games: int = 20, seed: int = 0, rounds: int = 32, every: int = 1,
    params: dict[str, Any] | None = None,
) -> CrnVariance:
    """The variances of mc's paired comparisons with and without common random
    numbers, at the decisions of the ``mc`` seats of ``players`` (labels by
    seat) over ``games`` games."""
    from balance.registry import get_game
    from balance.state import DECIDER, MAX_CANDIDATES, SEATING

    spec = get_game(game)
    out = np.zeros((MAX_CANDIDATES, 3), np.float64)
    crn = ind = 0.0
    decisions = comparisons = lower = 0
    k = 0
    for g in range(games):
        pos = spec.position(params, players, seed=seed, game=g, record=False)
        mc = pos.kernel.mc
        probe = pos.kernel.crn_probe
        while pos.advance() is not None:
            seat = int(pos.st[DECIDER])
            if int(pos.st[SEATING + seat]) == mc:
                k += 1
                if k % every == 0:
                    n = int(probe(pos.st, np.int64(rounds), out))
                    if n:
                        decisions += 1
                        for a in range(n):
                            if out[a, 2] == 0.0:
                                comparisons += 1
                                crn += out[a, 0]
                                ind += out[a, 1]
                                lower += int(out[a, 0] < out[a, 1])
            pos.answer(pos.decide())
    return CrnVariance(
        game, tuple(players), decisions, comparisons, rounds,
        float(crn / max(comparisons, 1)), float(ind / max(comparisons, 1)), int(lower),
    )
