"""Games/s per thread of this tree against a named commit, from the command line both share.

``python -m benchmarks.against COMMIT GAME:N[:PLAYERS] ... [--rounds R] [--cpu]``

Each round times ``python -m balance run GAME --games N --threads 1 --seed 1
[--players PLAYERS]`` in the commit's tree and in this one (fresh processes,
alternating which goes first), and the same command with ``N // 10`` games: the
difference of the two wall times is the time of ``0.9 N`` games, so start-up,
imports and loading the compiled kernels from the cache fall out whatever the
commit's code looks like (any commit with ``balance run`` can be measured, the
kernels before the game contract included).  The commit is checked out into a
temporary worktree (removed after) and warmed by one untimed run per game.
Reports each tree's median games/s and the ratio THIS / COMMIT; each round's
pair goes to stderr as it is measured.  ``--cpu`` times each command by its CPU
time (the children's user and system time) instead of the wall clock, so the time
a command waits for a core on a shared machine does not count.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import resource
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


CLOCK = {"cpu": False}  # main's --cpu


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(tree: Path, game: str, n: int, players: str | None) -> float:
    cmd = [sys.executable, "-m", "balance", "run", game, "--games", str(n), "--threads", "1", "--seed", "1"]
    if players:
        cmd += ["--players", players]
    env = dict(os.environ, NUMBA_NUM_THREADS="1", PYTHONPATH=str(tree))
    now = _cpu_of_children if CLOCK["cpu"] else time.perf_counter
    t = now()
    subprocess.run(cmd, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return now() - t


def rate(tree: Path, game: str, n: int, players: str | None) -> float:
    """games/s of ``0.9 n`` games: the wall time of n games less that of n // 10."""
    small = max(n // 10, 1)
    return (n - small) / max(_run(tree, game, n, players) - _run(tree, game, small, players), 1e-9)


def measure(commit: str, items: list[tuple[str, int, str | None]], rounds: int, tree: Path = ROOT) -> dict:
    rows: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="balance-against-") as tmp:
        old = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(old), commit], cwd=ROOT, check=True)
        try:
            for game, n, players in items:
                for t in (old, tree):  # compile (or load) both trees' kernels, untimed, at the small size
                    _run(t, game, max(n // 10, 1), players)  # (a batch's size may choose its compiled path)
                speeds: dict[str, list[float]] = {"commit": [], "this": []}
                for r in range(rounds):
                    order = [("commit", old), ("this", tree)]
                    for name, t in order if r % 2 == 0 else order[::-1]:
                        speeds[name].append(rate(t, game, n, players))
                    print(f"  {game} round {r}: {commit} {speeds['commit'][-1]:.0f}, this {speeds['this'][-1]:.0f}, "
                          f"ratio {speeds['this'][-1] / speeds['commit'][-1]:.3f}", file=sys.stderr, flush=True)
                c, f = statistics.median(speeds["commit"]), statistics.median(speeds["this"])
                ratios = [b / a for a, b in zip(speeds["commit"], speeds["this"])]
                rows[game] = {"commit": commit, "games": n, "players": players, "commit_rate": c, "this_rate": f,
                              "ratio": statistics.median(ratios), "ratios": ratios, "runs": speeds}
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    return rows


def parse_item(text: str) -> tuple[str, int, str | None]:
    game, _, rest = text.partition(":")
    size, _, players = rest.partition(":")
    return game, int(size) if size else 100_000, players or None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("commit")
    ap.add_argument("games", nargs="+", help="GAME:N[:PLAYERS], e.g. carnage:1000000:greedy,fleet")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", action="store_true", help="time by CPU time, not the wall clock")
    a = ap.parse_args(argv)
    CLOCK["cpu"] = a.cpu
    rows = measure(a.commit, [parse_item(x) for x in a.games], a.rounds)
    for game, r in rows.items():
        print(f"{game:10s} {a.commit} {r['commit_rate']:10.0f} games/s  this {r['this_rate']:10.0f} games/s  "
              f"ratio {r['ratio']:.3f}", flush=True)
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
