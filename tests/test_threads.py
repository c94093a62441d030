"""The seeding contract at the process level: the same numbers for any thread
count and any chunk size.

Thread counts are fixed when Numba starts, so each count runs in its own
``balance run --json`` subprocess with ``NUMBA_NUM_THREADS`` set.  The toy game
has no entry point; its subprocess registers it before calling the CLI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np


ROOT = Path(__file__).resolve().parent.parent
TOY_CLI = (
    "import sys; from balance.registry import register; from tests.toygame import SPEC; "
    "register(SPEC); from balance.cli import main; main(sys.argv[1:])"
)
TIMING_KEYS = ("elapsed_s", "games_per_second")


def balance_run_json(args: list[str], numba_threads: int, toy: bool = False) -> dict:
    env = {
        **os.environ,
        "NUMBA_NUM_THREADS": str(numba_threads),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("BALANCE_SCHEDULER", None)
    cmd = [sys.executable, "-c", TOY_CLI] if toy else [sys.executable, "-m", "balance"]
    proc = subprocess.run(
        [*cmd, "run", *args, "--json"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    for key in TIMING_KEYS:
        data.pop(key)
    return data


def test_toy_game_same_json_for_one_and_two_threads():
    args = ["dicerace", "--games", "300000", "--players", "plain,cautious", "--rotate-seats", "--seed", "5",
            "--param", "first_bonus=2"]
    one = balance_run_json(args, 1, toy=True)
    two = balance_run_json(args, 2, toy=True)
    assert one == two
    assert one["games"] == 300_000


def test_chunk_size_does_not_change_results(dicerace):
    from balance.api import run

    kwargs = dict(games=100_003, players="cautious,plain,plain", params={"target": 40}, seed=9, rotate_seats=True)
    reference = run("dicerace", chunk=100_003, **kwargs)
    for chunk in (1, 997, 4096, 65_536):
        if chunk == 1:
            other = run("dicerace", chunk=1, **{**kwargs, "games": 301})
            whole = run("dicerace", chunk=301, **{**kwargs, "games": 301})
            assert other.to_dict() | {k: 0 for k in TIMING_KEYS} == whole.to_dict() | {k: 0 for k in TIMING_KEYS}
            continue
        result = run("dicerace", chunk=chunk, **kwargs)
        a, b = reference.aggregate, result.aggregate
        assert (a.games, a.no_winner) == (b.games, b.no_winner)
        for name in ("seat_wins", "strategy_wins", "strategy_games", "seat_strategy_games",
                     "seat_strategy_wins", "end_reasons", "reason_by_winner", "turns_hist", "score_sum"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=f"chunk {chunk}: {name}")


def test_threads_option_in_process_same_result(dicerace):
    """``--threads 1`` (numba.set_num_threads) against every thread."""
    import numba

    from balance.api import run

    kwargs = dict(games=50_000, seed=1, params={"first_bonus": 1})
    try:
        one = run("dicerace", threads=1, **kwargs).to_dict()
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    every = run("dicerace", **kwargs).to_dict()
    for d in (one, every):
        for key in TIMING_KEYS:
            d.pop(key)
    assert one == every
