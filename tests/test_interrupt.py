"""Ctrl-C: every long command stops within a kernel slice and says what it kept.

Python answers a signal only between two calls of a compiled kernel, so the local
executor plays a task in slices of about ``SLICE_S`` seconds (before, a baseline of
100,000 Carnage games was one call of 20 s on one core).  The subprocess tests send
a real SIGINT once the command is playing.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from balance.executors import FIRST_SLICE, GROWTH, MIN_SLICE, SLICE_S, LocalExecutor, slice_size
from balance.runner import Task, execute, run_task
from balance.runspec import RunSpec

ROOT = Path(__file__).resolve().parents[1]


# ---- slicing ---------------------------------------------------------------------------
def test_slice_size_rules():
    assert slice_size(10**6, None, None) == FIRST_SLICE
    assert slice_size(100, None, None) == 100  # never more than is left
    assert slice_size(10**6, 10_000.0, 2_000) == int(10_000 * SLICE_S)
    assert slice_size(10**6, 10**7, 1_000) == GROWTH * 1_000  # a fast last call grows it step by step
    assert slice_size(10**6, 1.0, 1_000) == MIN_SLICE


def test_local_executor_plays_a_task_in_short_slices(monkeypatch):
    """A fake clock at 10,000 games/s: after the first call, every call lasts at most
    SLICE_S, the slices tile the task, and each is yielded as it finishes."""
    import balance.executors as ex

    now = [0.0]
    calls: list[tuple[int, int]] = []

    def fake_run_task(task):
        calls.append((task.first_game, task.n_games))
        now[0] += task.n_games / 10_000
        return task.n_games

    monkeypatch.setattr(ex, "run_task", fake_run_task)
    task = Task(RunSpec("carnage", games=131_072), first_game=7, n_games=131_072, point=3)
    with LocalExecutor(clock=lambda: now[0]) as executor:
        parts = list(executor.map_unordered([task]))
    assert len(parts) == len(calls) > 10
    assert [(t.first_game, t.n_games) for t, _ in parts] == calls
    assert all(t.point == 3 and t.run == task.run for t, _ in parts)
    assert calls[0] == (7, FIRST_SLICE)
    starts = [first for first, _ in calls]
    assert starts == sorted(starts) and sum(n for _, n in calls) == 131_072
    assert all(a + n == b for (a, n), (b, _) in zip(calls, calls[1:]))
    assert max(n for _, n in calls[1:]) / 10_000 <= SLICE_S


def test_slices_give_the_numbers_of_one_call(dicerace):
    run = RunSpec("dicerace", games=30_000, seed=5, players=("plain", "cautious"), rotate_seats=True)
    task = Task(run, 0, 30_000)
    whole = run_task(task)
    with LocalExecutor() as executor:
        sliced = execute([task], executor)[0]
    assert sliced.to_dict() == whole.to_dict()


# ---- a real SIGINT -----------------------------------------------------------------------
WRAPPER = """
import pathlib, sys
import balance.executors as ex

marker = pathlib.Path(sys.argv[1])
real = ex.run_task


def run_task(task):
    out = real(task)
    marker.touch()  # the command is playing
    return out


ex.run_task = run_task
from balance.cli import main

main(sys.argv[2:])
"""


def interrupt(tmp_path: Path, argv: list[str], ready) -> subprocess.CompletedProcess:
    """Run ``balance ARGV`` in a subprocess, send SIGINT once ``ready(marker)`` holds,
    and return what it printed and its status."""
    script = tmp_path / "wrapper.py"
    script.write_text(WRAPPER)
    marker = tmp_path / "playing"
    env = {**os.environ, "NUMBA_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, str(script), str(marker), *argv], cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        while not ready(marker):
            if proc.poll() is not None:
                out, err = proc.communicate()
                pytest.fail(f"finished before the interrupt: {proc.returncode} {err}")
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def one_line(res: subprocess.CompletedProcess) -> str:
    assert res.returncode == 130, res.stderr
    # a cold cache's notice (balance.coldstart) comes first when the game compiles in the run
    lines = [line for line in res.stderr.strip().splitlines() if not line.startswith("compiling the ")]
    assert len(lines) == 1 and lines[0].startswith("interrupted: ") and "Traceback" not in res.stderr, res.stderr
    return lines[0]


def test_sigint_during_a_sweep_says_which_points_are_saved(tmp_path):
    out = tmp_path / "sweep"
    points = out / "points"
    res = interrupt(
        tmp_path,
        ["sweep", "carnage", "--param", "car_cost=0..29", "--games", "20000", "--out", str(out)],
        lambda marker: any(points.glob("point-*.parquet")),
    )
    line = one_line(res)
    m = re.search(r"(\d+) of 30 points saved in (\S+): --resume continues", line)
    assert m, line
    saved = int(m.group(1))
    assert 1 <= saved < 30 and len(list(points.glob("point-*.parquet"))) == saved
    assert f"--out {out} --resume" in line


def test_sigint_during_a_tournament_says_which_tables_are_saved(tmp_path):
    out = tmp_path / "t"
    res = interrupt(
        tmp_path,
        ["tournament", "carnage", "--players", "greedy,fleet", "--games", "100000", "--out", str(out)],
        lambda marker: any((out / "tables").glob("[0-9]*.json")),
    )
    line = one_line(res)
    m = re.search(r"(\d+) of 3 tables saved in \S+: --resume continues", line)
    assert m and 1 <= int(m.group(1)) < 3 and len(list((out / "tables").glob("[0-9]*.json"))) == int(m.group(1)), line


@pytest.mark.parametrize(
    "argv, said",
    [
        (["baseline", "carnage", "--no-config", "--games", "1000000", "-o", "b.json"], "nothing written"),
        (["run", "carnage", "--no-config", "--games", "1000000"], "nothing saved"),
    ],
    ids=["baseline", "run"],
)
def test_sigint_during_a_run_or_baseline_says_nothing_was_kept(tmp_path, argv, said):
    res = interrupt(tmp_path, argv, lambda marker: marker.exists())
    assert said in one_line(res)
    assert res.stdout == "" and not (tmp_path / "b.json").exists()


# ---- the progress bar's total ---------------------------------------------------------------
class Recorder:
    """A stand-in for the CLI's progress bar: the totals it is given."""

    totals: list = []

    def __init__(self, total, description="games", enabled=True):
        Recorder.totals.append(total)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def __call__(self, n):
        pass

    def set_total(self, total):
        Recorder.totals.append(total)

    def set_description(self, text):
        pass


def test_baseline_and_check_give_the_progress_bar_a_real_total(dicerace, capsys, tmp_path, monkeypatch):
    """Not "0/?": the number of games is known before the first is played."""
    import balance.cli.checks as checks
    from balance.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(checks, "GameProgress", Recorder)
    (tmp_path / "balance.toml").write_text("[game]\nname = 'dicerace'\ngames = 700\n")
    for argv in (["baseline"], ["check"], ["baseline", "--update"]):
        Recorder.totals = []
        with pytest.raises(SystemExit):
            main(argv)
        assert Recorder.totals[-1] == 700, argv
    capsys.readouterr()
