"""Batch speed of two source trees, measured in one interleaved run.

``python -m benchmarks.interleave BEFORE AFTER [--games N] [--rounds R] [--cpu] [--players A,B] [GAME[:N] ...]``
plays, for each game and each of ``R`` rounds, one timed batch of ``N`` games
with the game's default rules and players in BEFORE, then in AFTER (each in a
fresh process on one thread, ``NUMBA_NUM_THREADS=1``, its kernel compiled by an
untimed warm-up batch), alternating which tree goes first.  Interleaving spreads
the drift of a shared machine over both trees; the report is each tree's median
games/s and the ratio AFTER / BEFORE (each round's pair goes to stderr as it is measured).

``--cpu`` times the batch by the process's CPU time instead of the wall clock:
on a machine shared with other work, the time a process waits for a core then
does not count (the cache and the clock still move with the load).
``--players`` plays that line-up instead of the game's default (``--after-players``
another one in AFTER: a player's new default against the earlier one).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_SNIPPET = r"""
import json, sys, time
import numpy as np
from balance.registry import get_game
from balance.runspec import RunSpec
try:
    import tests.conftest as c; c.register_test_games()
except Exception:
    pass
game, n, clock, players = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
kw = {"players": tuple(players.split(","))} if players else {}
r = RunSpec(game=game, games=n, **kw).resolved()
play = lambda k, first: r.spec.simulate(r.rules, list(r.strategies), r.seatings, 1, first, k, r.board)
play(min(n, 2000), 0)
now = time.process_time if clock == "cpu" else time.perf_counter
t = now()
play(n, 10_000_000)
print(json.dumps(n / (now() - t)))
"""


def one(tree: str, game: str, n: int, cpu: bool = False, players: str = "") -> float:
    env = dict(os.environ, NUMBA_NUM_THREADS="1", PYTHONPATH=tree)
    out = subprocess.run(
        [sys.executable, "-c", _SNIPPET, game, str(n), "cpu" if cpu else "wall", players],
        cwd=tree, env=env, capture_output=True, text=True, check=True,
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("games", nargs="*", default=["carnage", "taxi", "tagcity", "carmarace", "bahama"])
    ap.add_argument("--games", dest="n", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cpu", action="store_true", help="time by CPU time, not the wall clock")
    ap.add_argument("--players", default="", help="a line-up, e.g. mc,mc (default: the game's)")
    ap.add_argument("--after-players", default=None, help="the line-up in AFTER (default: --players)")
    a = ap.parse_args(argv)
    rows = {}
    for item in a.games:
        game, _, size = item.partition(":")
        n = int(size) if size else a.n
        speeds: dict[str, list[float]] = {"before": [], "after": []}
        for r in range(a.rounds):
            order = [("before", a.before), ("after", a.after)]
            for name, tree in order if r % 2 == 0 else order[::-1]:
                players = a.after_players if name == "after" and a.after_players is not None else a.players
                speeds[name].append(one(tree, game, n, a.cpu, players))
            print(f"  {game} round {r}: before {speeds['before'][-1]:.0f}, after {speeds['after'][-1]:.0f}, "
                  f"ratio {speeds['after'][-1] / speeds['before'][-1]:.3f}", file=sys.stderr, flush=True)
        b, f = statistics.median(speeds["before"]), statistics.median(speeds["after"])
        rows[game] = {"games": n, "before": b, "after": f, "ratio": f / b, "runs": speeds}
        print(f"{game:10s} before {b:10.0f} games/s  after {f:10.0f} games/s  ratio {f / b:.3f}", flush=True)
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
