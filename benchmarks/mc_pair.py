"""Games a second of one search pairing, one numba thread (docs/players.md, the
search player's cost)::

    python -m benchmarks.mc_pair GAME GAMES [A [B]]     # default: mc against mc

Seats alternate (game g seats A first when g is even), seed 7; the first two games
of another seed are played first, so compiling is not timed.  Timed by the
process's CPU time (one thread: the time it waits for a core on a shared machine
does not count; ``wall_seconds`` is the wall clock).  Prints one JSON line.
"""

from __future__ import annotations

import json
import sys
import time


def main(argv: list[str]) -> None:
    import numba
    import numpy as np

    from balance.registry import get_game

    numba.set_num_threads(1)
    game, n = argv[0], int(argv[1])
    a = argv[2] if len(argv) > 2 else "mc"
    b = argv[3] if len(argv) > 3 else a
    spec = get_game(game)
    if a == b:
        players, seatings = [spec.parse_player(a)], np.array([[0, 0]], np.int64)
    else:
        players, seatings = [spec.parse_player(a), spec.parse_player(b)], np.array([[0, 1], [1, 0]], np.int64)
    params = spec.resolve_params({})
    spec.simulate(params, players, seatings, 99, 10**6, 2)  # compile and warm up
    start, wall = time.process_time(), time.perf_counter()
    out = spec.simulate(params, players, seatings, 7, 0, n)
    seconds, wall = time.process_time() - start, time.perf_counter() - wall
    print(json.dumps({"game": game, "a": a, "b": b, "games": n, "seconds": round(seconds, 2), "wall_seconds": round(wall, 2),
                      "games_per_s": round(n / seconds, 2), "mean_turns": float(out.turns.mean())}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
