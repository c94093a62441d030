"""Who sits where: the seatings a run plays.

A run seats its players by seat (``--players a,b,c``).  Without
``--rotate-seats`` every game uses that one seating.  With it, the rows are
every distinct seating of those players, the given one first, and game ``g``
is played with row ``g % P``: each seating is played equally often when the
number of games is a multiple of ``P``.

``P`` is the number of distinct orders of the players: ``n!`` for ``n``
distinct players (2, 6, 24, 120 and **720** for six), fewer when a player
sits more than once (``a,a,b``: 3).  Six distinct players rotated need a
multiple of 720 games for every seating to count the same (the run says so
otherwise).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence

import numpy as np


def seatings_for(strategy_of_seat: Sequence[int], rotate: bool) -> np.ndarray:
    """``int64[P, n_seats]``: one row, or every distinct seating when rotating."""
    base = tuple(int(k) for k in strategy_of_seat)
    if not rotate:
        return np.asarray([base], dtype=np.int64)
    perms = sorted(set(itertools.permutations(base)))
    # Start from the seating as given, so game 0 is the unrotated game.
    perms.remove(base)
    return np.asarray([base, *perms], dtype=np.int64)


def n_seatings(strategy_of_seat: Sequence[int], rotate: bool) -> int:
    """How many rows :func:`seatings_for` gives, without listing them."""
    if not rotate:
        return 1
    counts = Counter(int(k) for k in strategy_of_seat)
    return math.factorial(len(strategy_of_seat)) // math.prod(math.factorial(c) for c in counts.values())


def uneven_warning(games: int, rows: int, what: str = "games") -> str | None:
    """The note a run or a sweep prints when its games do not split evenly over
    the seatings (None when they do)."""
    if rows <= 1 or games % rows == 0:
        return None
    return (
        f"{games} {what} is not a multiple of the {rows} seatings: "
        f"some seatings {'were' if what == 'games' else 'are'} played once more than others"
    )
