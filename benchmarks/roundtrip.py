"""The engine's round trip per decision, on the tests' toy game (Dice Race: one
decision a turn, rules of a few lines), with and without the game-feel counters
of the tree it runs in.

``python -m benchmarks.roundtrip [N]`` plays ``N`` games (default 400,000) on one
thread at two targets (30 and 200 steps: about 16 and 110 decisions a game), best
of three CPU-time runs, and prints games/s and nanoseconds a decision: what the
engine's loop (advance, ask the seat's player, apply), the game's reset and its
game-feel record cost when the rules themselves cost next to nothing.
"""

from __future__ import annotations

import sys
import time


def main(argv: list[str] | None = None) -> int:
    import os

    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    import tests.conftest as c
    from balance.runspec import RunSpec

    c.register_test_games()
    n = int((argv or sys.argv[1:] or ["400000"])[0])
    for target in (30, 200):
        r = RunSpec(game="dicerace", params=(("target", target),), games=10).resolved()

        def play(k: int, first: int):
            return r.spec.simulate(r.rules, list(r.strategies), r.seatings, 1, first, k, r.board)

        play(2000, 0)
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            out = play(n, 10_000_000)
            best = min(best, time.process_time() - t)
        turns = float(out.turns.mean())
        print(f"target {target}: {n / best:,.0f} games/s, {turns:.1f} decisions a game, "
              f"{best / (n * turns) * 1e9:.1f} ns a decision", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
