"""The Dask executor against a real cluster: a ``dask scheduler`` process and two
``dask worker`` processes on 127.0.0.1.

Workers are separate processes and find games through the ``balance.games``
entry points; the toy game has none, so each worker preloads a small file that
registers it.  Every process runs in its own process group and the fixture
kills the groups (worker, nanny and all) in ``finally``, whatever happens.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("distributed")

from balance.errors import UserError
from balance.aggregate import Aggregate
from balance.executors import LocalExecutor
from balance.runner import Task, execute, split
from balance.runspec import RunSpec

ROOT = Path(__file__).resolve().parent.parent
DASK = Path(sys.executable).with_name("dask")
START_TIMEOUT_S = 60

PRELOAD = """\
from balance.registry import register
from tests.toygame import SPEC

try:
    register(SPEC)
except ValueError:
    pass
"""

FIELDS = (
    "seat_wins",
    "strategy_wins",
    "strategy_games",
    "seat_strategy_games",
    "seat_strategy_wins",
    "end_reasons",
    "reason_by_winner",
    "turns_hist",
    "score_sum",
)


def assert_same(a: Aggregate, b: Aggregate) -> None:
    assert (a.games, a.no_winner) == (b.games, b.no_winner)
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def sweep_tasks(points: tuple[int, ...], games: int, chunk: int, seed: int = 7) -> list[Task]:
    """A sweep of ``first_bonus`` over ``points``, ``games`` games each, in chunks."""
    return [
        Task(
            RunSpec(
                "dicerace",
                (("first_bonus", bonus), ("max_turns", 400), ("target", 30)),
                ("plain", "cautious"),
                seed,
                games,
                rotate_seats=True,
            ),
            first,
            n,
            point=point,
        )
        for point, bonus in enumerate(points)
        for first, n in split(0, games, chunk)
    ]


def _kill_group(proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


class Cluster:
    """A scheduler and workers, each a process group of its own."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.scheduler_file = tmp / "scheduler.json"
        self.preload = tmp / "balance_test_preload.py"
        self.preload.write_text(PRELOAD)
        self.env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            # Two workers on a shared machine: one Numba thread each.
            "NUMBA_NUM_THREADS": "1",
            "DASK_DISTRIBUTED__WORKER__DAEMON": "False",
        }
        self.scheduler: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        self.address = ""

    def _spawn(self, args: list[str], log: str) -> subprocess.Popen:
        out = open(self.tmp / log, "wb")
        try:
            return subprocess.Popen(
                args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        finally:
            out.close()

    def start(self, n_workers: int) -> None:
        self.scheduler = self._spawn(
            [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--idle-timeout", "300",
             "--scheduler-file", str(self.scheduler_file)],
            "scheduler.log",
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self.scheduler_file.exists() or not self.scheduler_file.read_text().strip():
            if self.scheduler.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("dask scheduler did not start:\n" + self.log("scheduler.log"))
            time.sleep(0.1)
        time.sleep(0.1)  # the file is written in one go, but be safe about a partial read
        self.address = json.loads(self.scheduler_file.read_text())["address"]
        for i in range(n_workers):
            self.workers.append(
                self._spawn(
                    [str(DASK), "worker", self.address, "--host", "127.0.0.1", "--nthreads", "1",
                     "--no-dashboard", "--name", f"w{i}", "--preload", str(self.preload), "--death-timeout", "30",
                     "--local-directory", str(self.tmp / f"w{i}")],
                    f"worker{i}.log",
                )
            )
        self.wait_for_workers(n_workers, deadline)

    def wait_for_workers(self, n: int, deadline: float) -> None:
        from distributed import Client

        with Client(self.address, timeout=20, set_as_default=False) as client:
            try:
                client.wait_for_workers(n, timeout=max(1.0, deadline - time.monotonic()))
            except TimeoutError:
                raise RuntimeError(
                    "dask workers did not start:\n" + "\n".join(self.log(f"worker{i}.log") for i in range(n))
                ) from None

    def n_workers(self) -> int:
        from distributed import Client

        with Client(self.address, timeout=20, set_as_default=False) as client:
            return len(client.scheduler_info(n_workers=-1)["workers"])

    def log(self, name: str) -> str:
        path = self.tmp / name
        return path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"

    def stop(self) -> None:
        procs = [*self.workers, *([self.scheduler] if self.scheduler else [])]
        for proc in procs:
            _kill_group(proc, signal.SIGTERM)
        deadline = time.monotonic() + 5
        for proc in procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _kill_group(proc, signal.SIGKILL)  # and any child left in the group
            proc.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, dicerace):
    c = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        c.start(2)
        yield c
    finally:
        c.stop()


def local(tasks: list[Task]) -> dict[int, Aggregate]:
    with LocalExecutor() as ex:
        return execute(tasks, ex)


def test_sweep_on_cluster_matches_local(cluster):
    from balance.executors import DaskExecutor

    tasks = sweep_tasks((0, 3, 6), games=60_000, chunk=7_000)
    seen: list[int] = []
    with DaskExecutor(cluster.address) as ex:
        remote = execute(tasks, ex, lambda t, a: seen.append(a.games))
        warmed = {address for address, _ in ex._warmed}
    assert warmed and len(warmed) == 2  # each worker compiled once, before the chunks
    assert sorted(seen) == sorted(t.n_games for t in tasks)  # progress: one call per chunk
    expected = local(tasks)
    assert sorted(remote) == [0, 1, 2]
    for point in expected:
        assert_same(remote[point], expected[point])


def test_sweep_command_on_cluster_matches_local(cluster, tmp_path):
    """The sweep API end to end (store and all) with ``scheduler=``."""
    sweep = pytest.importorskip("balance.sweep").sweep

    kwargs = dict(params={"first_bonus": "0..3"}, games=30_000, players="plain,cautious", seed=5, chunk=4_000)
    remote = sweep("dicerace", out=tmp_path / "remote", scheduler=cluster.address, **kwargs)
    here = sweep("dicerace", out=tmp_path / "local", **kwargs)
    assert remote.points_played == here.points_played == 4
    assert remote.figures() == here.figures()


def test_run_api_on_cluster_matches_local(cluster):
    from balance.api import run

    kwargs = dict(games=50_000, players="plain,cautious", params={"target": 25}, seed=3, rotate_seats=True)
    remote = run("dicerace", scheduler=cluster.address, chunk=6_000, **kwargs)
    here = run("dicerace", chunk=50_000, **kwargs)
    assert_same(remote.aggregate, here.aggregate)


def test_losing_a_worker_mid_sweep_gives_the_same_result(cluster):
    from balance.executors import DaskExecutor

    # Many small chunks so both workers still hold work when one dies.
    tasks = sweep_tasks((1, 4), games=120_000, chunk=2_500, seed=11)
    victim = cluster.workers[1]
    done = 0

    def kill_after_a_few(task: Task, agg: Aggregate) -> None:
        nonlocal done
        done += 1
        if done == 4:
            info = ex.client.scheduler_info(n_workers=-1)["workers"]
            address = next(a for a, w in info.items() if w["name"] == "w1")
            held = [*ex.client.processing([address])[address], *ex.client.has_what([address])[address]]
            assert held, "the victim holds no chunk: nothing would be rescheduled"
            _kill_group(victim)  # the worker and its nanny: a machine gone, not a restart
            victim.wait(timeout=10)

    with DaskExecutor(cluster.address) as ex:
        remote = execute(tasks, ex, kill_after_a_few)
    assert victim.poll() is not None
    assert done == len(tasks)
    assert cluster.n_workers() == 1
    expected = local(tasks)
    for point in expected:
        assert_same(remote[point], expected[point])


def test_unreachable_scheduler_is_one_line_user_error(monkeypatch):
    import socket

    import balance.executors as dx

    monkeypatch.setattr(dx, "CONNECT_TIMEOUT_S", 1.0)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(UserError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1") as err:
        with dx.DaskExecutor(f"tcp://127.0.0.1:{port}"):
            pass
    assert "\n" not in str(err.value)
    with pytest.raises(UserError, match="not a Dask scheduler address"):
        with dx.DaskExecutor("nonsense://x"):
            pass


def test_missing_dask_says_how_to_install(monkeypatch):
    import builtins

    from balance.executors import DaskExecutor

    real_import = builtins.__import__

    def no_distributed(name, *args, **kwargs):
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    with pytest.raises(UserError, match=r"pip install balance\[dask\]"):
        with DaskExecutor("tcp://127.0.0.1:8786"):
            pass


TOY_CLI = (
    "import sys; from balance.registry import register; from tests.toygame import SPEC; "
    "register(SPEC); from balance.cli import main; main(sys.argv[1:])"
)


def test_cli_bad_scheduler_exits_2_with_one_line():
    proc = subprocess.run(
        [sys.executable, "-c", TOY_CLI, "run", "dicerace", "--games", "10", "--scheduler", "nonsense://x"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --scheduler nonsense://x: not a Dask"), proc.stderr
