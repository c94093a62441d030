"""The benchmark suite: ``make bench`` (``python -m benchmarks.run``).

For each built-in game, with its default rules and players, it measures

* games/s of ``balance.run`` with 1 thread and with every core (median of
  ``--repeat`` runs of 1,000,000 games) and their ratio;
* the same kernel (``GameSpec.simulate``, 1 thread) compiled and with
  ``NUMBA_DISABLE_JIT=1`` (a few hundred games, in a subprocess) and their ratio;
* cold compile (``balance run GAME --games 1000`` in a subprocess with an empty
  ``NUMBA_CACHE_DIR``) and warm start (the same command with the cache filled);
* the search player ``mc`` against itself (2 seats, one thread), interleaved
  with the flat search of earlier versions at their default budget, and the
  ratio of the two;
* peak RSS of a 10,000,000-game ``balance run`` (``getrusage`` of the children of
  a fresh wrapper process, so only that run counts);
* sweep overhead: ``balance.sweep`` of 4 points against 4 plain runs of the same
  points;
* Dask: the same 4-point sweep through a local cluster of two workers (one Numba
  thread each, so both sides use every core once) against the local executor;

plus ``balance --help`` time, once; with ``--against COMMIT`` (``make bench``: the
Makefile's ``AGAINST``), games/s per thread of ``balance run`` against that commit,
interleaved in the same run (:mod:`benchmarks.against`).  It writes ``docs/benchmarks.md`` (a table with
machine, CPU, date and versions) and ``docs/benchmarks.json``.

``--toy`` benchmarks the tests' toy game with small counts (developing the suite
without the CPU cost); ``--scale`` multiplies every game count.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

RUN_GAMES = 1_000_000  # throughput runs (the parallel-efficiency target is stated at 1M)
KERNEL_GAMES = 200_000  # compiled single-thread kernel, for the JIT ratio
RSS_GAMES = 10_000_000
AGAINST_GAMES = 300_000  # `balance run` per round and tree, against a named commit (--against)
SWEEP_POINTS = 4
SWEEP_GAMES = 1_000_000  # per point, for both the sweep overhead and Dask
START_GAMES = 1_000  # warm start / cold compile
NOJIT_SECONDS = 3.0  # how long the interpreted kernel runs for its estimate

# The targets on the reference 2-core machine (None: no target stated).
TARGETS: dict[str, dict[str, float]] = {
    "carnage": {"games_per_s_all": 100_000},
    "bahama": {"games_per_s_all": 150_000},
    "taxi": {"games_per_s_all": 10_000},
    "tagcity": {"games_per_s_all": 3_000},  # builder,sniper (issue 13)
    "carmarace": {"games_per_s_all": 5_000},  # 4 x hunter (issue 14)
}
# Games far slower than the flagship play fewer games per measure, so that each game's
# share of the suite takes about as long (the counts shown in the tables are the real ones).
GAME_SCALE: dict[str, float] = {"taxi": 0.1, "carmarace": 0.05, "tagcity": 0.02}
# The search player: games of mc against itself (2 seats, one thread) per measure,
# and the search of earlier versions at that version's default budget (flat Monte
# Carlo: allocation=even), measured side by side in the same run.
MC_GAMES: dict[str, int] = {"carnage": 300, "bahama": 300, "taxi": 60, "tagcity": 40, "carmarace": 80, "dicerace": 200}
EARLIER_MC: dict[str, str] = {
    "carnage": "mc:allocation=even;crn=true;rollouts=64",
    "bahama": "mc:allocation=even;crn=true;rollouts=64;rollout_policy=nearest",
    "taxi": "mc:allocation=even;crn=true;rollouts=32",
    "tagcity": "mc:allocation=even;crn=true;rollouts=64",
    "carmarace": "mc:allocation=even;crn=true;rollouts=32",
    "dicerace": "mc:allocation=even;crn=true;rollouts=16",
}
GENERIC_TARGETS = {
    "parallel_ratio": 1.8,  # stated for Carnage at 1M games; shown for every game
    "jit_ratio": 100.0,
    "warm_start_s": 2.0,
    "cold_compile_s": 30.0,
    "dask_vs_local": 0.8,  # Dask throughput at least 80% of the local executor's
}

TOY_PREFIX = "from balance.registry import register; from tests.toygame import SPEC; register(SPEC); "
TOY_PRELOAD = """\
from balance.registry import register
from tests.toygame import SPEC

try:
    register(SPEC)
except ValueError:  # preloaded twice in one process
    pass
"""
CLI_CODE = "import sys; {prefix}from balance.cli import main; main(sys.argv[1:])"

NOJIT_CODE = """
import json, sys, time
{prefix}
import numpy as np
from balance.runspec import RunSpec

resolved = RunSpec(sys.argv[1]).resolved()
spec = resolved.spec
budget = float(sys.argv[2])
players, seatings = list(resolved.strategies), resolved.seatings
params = spec.resolve_params()
board = spec.load_board(None)

def play(n):
    t = time.perf_counter()
    spec.simulate(params, players, seatings, 0, 0, n, board)
    return time.perf_counter() - t

n = 4
while True:  # grow until one call takes a tenth of the budget
    dt = play(n)
    if dt > budget / 10 or n >= 1_000_000:
        break
    n *= 4
n = max(n, int(n * (budget / 3) / max(dt, 1e-9)))
rates = [n / play(n) for _ in range(3)]
print(json.dumps({{"games": n, "rates": rates}}))
"""

RSS_CODE = """
import json, resource, subprocess, sys, time
t = time.perf_counter()
proc = subprocess.run(sys.argv[1:], capture_output=True, text=True)
elapsed = time.perf_counter() - t
if proc.returncode:
    sys.exit(proc.stderr)
kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
print(json.dumps({"maxrss_kib": kib, "wall_s": elapsed, "run": json.loads(proc.stdout)}))
"""


# --------------------------------------------------------------------------- helpers
def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def summary(values: list[float]) -> dict[str, Any]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": values}


def pythonpath_env(**extra: str) -> dict[str, str]:
    env = {**os.environ, **extra}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env.pop("BALANCE_SCHEDULER", None)
    return env


def timed_subprocess(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    t = time.perf_counter()
    proc = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if proc.returncode:
        raise RuntimeError(f"{' '.join(args[:6])}... failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return elapsed, proc.stdout


class Bench:
    def __init__(self, toy: bool, scale: float, repeat: int) -> None:
        self.toy = toy
        self.scale = scale
        self.repeat = repeat
        self.prefix = TOY_PREFIX if toy else ""
        self.cores = os.cpu_count() or 1

    def n(self, games: int, game: str | None = None) -> int:
        return max(1, int(games * self.scale * GAME_SCALE.get(game or "", 1.0)))

    def cli(self) -> list[str]:
        """How a subprocess calls the ``balance`` command (the toy game registered first)."""
        return [sys.executable, "-c", CLI_CODE.format(prefix=self.prefix)]

    # ----- single measurements --------------------------------------------------
    def run_rate(self, game: str, games: int, threads: int | None) -> tuple[float, float]:
        """games/s, and the cores this process actually got (CPU time / wall time):
        on a shared machine the second figure tells a slow kernel from a busy machine."""
        import numba

        from balance.api import run

        before = resource.getrusage(resource.RUSAGE_SELF)
        try:
            result = run(game, games=games, threads=threads)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        after = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return games / result.elapsed_s, cpu / result.elapsed_s

    def kernel_rate(self, game: str, games: int) -> float:
        """The compiled kernel alone on one thread: ``simulate`` without aggregation."""
        import numba

        from balance.runspec import RunSpec

        resolved = RunSpec(game).resolved()
        spec = resolved.spec
        players, seatings = list(resolved.strategies), resolved.seatings
        params = spec.resolve_params()
        board = spec.load_board(None)
        numba.set_num_threads(1)
        try:
            t = time.perf_counter()
            spec.simulate(params, players, seatings, 0, 0, games, board)
            return games / (time.perf_counter() - t)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    def mc_rate(self, game: str, label: str, games: int) -> float:
        """games/s of ``label`` (an mc) in both seats of a 2-seat game, one thread."""
        import numba

        import numpy as np

        from balance.registry import get_game

        spec = get_game(game)
        seatings = np.zeros((1, 2), np.int64)
        params = spec.resolve_params()
        numba.set_num_threads(1)
        try:
            player = spec.parse_player(label)
            spec.simulate(params, [player], seatings, 1, 10**6, 2)  # compile
            t = time.perf_counter()
            spec.simulate(params, [player], seatings, 0, 0, games)
            return games / (time.perf_counter() - t)
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)

    def nojit(self, game: str) -> dict[str, Any]:
        env = pythonpath_env(NUMBA_DISABLE_JIT="1", NUMBA_NUM_THREADS="1")
        code = NOJIT_CODE.format(prefix=self.prefix)
        _, out = timed_subprocess([sys.executable, "-c", code, game, str(NOJIT_SECONDS * self.scale**0.5)], env)
        data = json.loads(out)
        return {"games": data["games"], **summary(data["rates"])}

    def start_time(self, game: str, cache_dir: str | None) -> float:
        env = pythonpath_env(**({"NUMBA_CACHE_DIR": cache_dir} if cache_dir else {}))
        elapsed, _ = timed_subprocess([*self.cli(), "run", game, "--games", str(START_GAMES), "--json"], env)
        return elapsed

    def peak_rss(self, game: str) -> dict[str, Any]:
        games = self.n(RSS_GAMES, game)
        args = [sys.executable, "-c", RSS_CODE, *self.cli(), "run", game, "--games", str(games), "--json"]
        _, out = timed_subprocess(args, pythonpath_env())
        data = json.loads(out)
        return {
            "games": games,
            "peak_rss_mib": data["maxrss_kib"] / 1024,
            "wall_s": data["wall_s"],
            "games_per_s": data["run"]["games_per_second"],
        }

    def help_time(self) -> dict[str, Any]:
        script = Path(sys.executable).with_name("balance")
        args = [str(script), "--help"] if script.exists() and not self.toy else [*self.cli(), "--help"]
        timed_subprocess(args, pythonpath_env())  # file-system cache
        return summary([timed_subprocess(args, pythonpath_env())[0] for _ in range(5)])

    # ----- sweeps -----------------------------------------------------------------
    @staticmethod
    def sweep_axis(game: str) -> tuple[str, list[int]]:
        """The first integer parameter with room for 4 values from its default."""
        from balance.registry import get_game

        for p in get_game(game).params:
            if p.kind != "int":
                continue
            values = [p.default + i for i in range(SWEEP_POINTS)]
            if p.high is not None and values[-1] > p.high:
                values = [p.default - i for i in range(SWEEP_POINTS)][::-1]
            if all((p.low is None or v >= p.low) and (p.high is None or v <= p.high) for v in values):
                return p.name, values
        raise RuntimeError(f"{game}: no integer parameter to sweep")

    def sweep_time(self, game: str, games: int, scheduler: str | None) -> float:
        from balance.sweep import sweep

        name, values = self.sweep_axis(game)
        with tempfile.TemporaryDirectory(prefix="balance-bench-") as tmp:
            t = time.perf_counter()
            sweep(game, params={name: ",".join(map(str, values))}, games=games, out=Path(tmp) / "run",
                  scheduler=scheduler)
            return time.perf_counter() - t

    def plain_runs_time(self, game: str, games: int) -> float:
        from balance.api import run

        name, values = self.sweep_axis(game)
        t = time.perf_counter()
        for v in values:
            run(game, games=games, params={name: v})
        return time.perf_counter() - t


# --------------------------------------------------------------------------- local cluster
class LocalCluster:
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, each a
    process group of its own (killed on exit).  Each worker gets one Numba thread
    per core it stands for, so the two together use every core once."""

    def __init__(self, n_workers: int, cores: int, preload: str) -> None:
        self.n_workers = n_workers
        self.tmp = Path(tempfile.mkdtemp(prefix="balance-bench-dask-"))
        self.env = pythonpath_env(NUMBA_NUM_THREADS=str(max(1, cores // n_workers)))
        self.procs: list[subprocess.Popen] = []
        self.preload = preload
        self.address = ""

    def _spawn(self, args: list[str], name: str) -> None:
        with open(self.tmp / f"{name}.log", "wb") as out:
            self.procs.append(
                subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True)
            )

    def __enter__(self) -> LocalCluster:
        try:
            self._start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start(self) -> None:
        from distributed import Client

        dask = str(Path(sys.executable).with_name("dask"))
        sfile = self.tmp / "scheduler.json"
        self._spawn([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(sfile)], "scheduler")
        deadline = time.monotonic() + 60
        while not sfile.exists() or not sfile.read_text().strip():
            if time.monotonic() > deadline or self.procs[0].poll() is not None:
                raise RuntimeError("dask scheduler did not start")
            time.sleep(0.1)
        time.sleep(0.1)
        self.address = json.loads(sfile.read_text())["address"]
        extra = ["--preload", self.preload] if self.preload else []
        for i in range(self.n_workers):
            self._spawn([dask, "worker", self.address, "--host", "127.0.0.1", "--nthreads", "1",
                         "--no-dashboard", "--death-timeout", "30", "--local-directory", str(self.tmp / f"w{i}"),
                         *extra], f"worker{i}")
        with Client(self.address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(self.n_workers, timeout=120)

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


# --------------------------------------------------------------------------- suite
def bench_game(b: Bench, game: str, cluster: LocalCluster | None) -> dict[str, Any]:
    out: dict[str, Any] = {}

    log(f"{game}: cold compile (empty NUMBA_CACHE_DIR)")
    with tempfile.TemporaryDirectory(prefix="balance-bench-cache-") as cache:
        out["cold_compile_s"] = b.start_time(game, cache)

    log(f"{game}: warm start")
    b.start_time(game, None)  # fill the project's own cache
    out["warm_start_s"] = summary([b.start_time(game, None) for _ in range(b.repeat)])

    b.run_rate(game, b.n(10_000, game), None)  # compile in this process
    games = b.n(RUN_GAMES, game)
    # Paired design: each repeat runs 1 thread then all cores back to back, and the
    # scaling figure is the median of the per-pair ratios, so a machine whose speed
    # drifts (a shared host) moves both sides of a ratio alike.
    pairs = []
    for r in range(max(b.repeat, 5)):
        log(f"{game}: {games:,} games, 1 thread then all cores (pair {r + 1})")
        pairs.append((b.run_rate(game, games, 1), b.run_rate(game, games, None)))
    for k, label in enumerate(("one_thread", "all_cores")):
        out[f"games_per_s_{label}"] = summary([pair[k][0] for pair in pairs])
        out[f"cores_obtained_{label}"] = summary([pair[k][1] for pair in pairs])
    out["run_games"] = games
    ratios = summary([many[0] / one[0] for one, many in pairs])
    out["parallel_ratio"] = ratios["median"]
    out["parallel_ratio_range"] = [ratios["min"], ratios["max"]]

    log(f"{game}: kernel, compiled and NUMBA_DISABLE_JIT=1")
    kgames = b.n(KERNEL_GAMES, game)
    out["kernel_one_thread"] = {"games": kgames, **summary([b.kernel_rate(game, kgames) for _ in range(b.repeat)])}
    out["kernel_nojit"] = b.nojit(game)
    out["jit_ratio"] = out["kernel_one_thread"]["median"] / out["kernel_nojit"]["median"]

    mgames = max(2, int(MC_GAMES.get(game, 100) * b.scale))
    log(f"{game}: the search player, {mgames} games of mc against itself, and the earlier flat search")
    now, earlier = [], []
    for _ in range(b.repeat):  # interleaved: a drifting machine moves both alike
        now.append(b.mc_rate(game, "mc", mgames))
        earlier.append(b.mc_rate(game, EARLIER_MC.get(game, "mc:allocation=even"), mgames))
    out["mc"] = {
        "games": mgames, "now": summary(now), "earlier": summary(earlier),
        "earlier_label": EARLIER_MC.get(game, "mc:allocation=even"),
        "ratio": statistics.median(a / b_ for a, b_ in zip(now, earlier)),
    }

    log(f"{game}: peak RSS of {b.n(RSS_GAMES, game):,} games")
    out["peak_rss"] = b.peak_rss(game)

    sgames = b.n(SWEEP_GAMES, game)
    name, values = b.sweep_axis(game)
    out["sweep"] = {"param": name, "values": values, "games_per_point": sgames}
    log(f"{game}: sweep of {SWEEP_POINTS} x {sgames:,} against {SWEEP_POINTS} plain runs")
    b.sweep_time(game, b.n(10_000, game), None)  # first store write, imports
    out["sweep"]["sweep_s"] = b.sweep_time(game, sgames, None)
    out["sweep"]["plain_runs_s"] = b.plain_runs_time(game, sgames)
    out["sweep"]["overhead"] = out["sweep"]["sweep_s"] / out["sweep"]["plain_runs_s"] - 1
    if cluster is not None:
        log(f"{game}: the same sweep on Dask, {cluster.n_workers} local workers")
        dask_s = b.sweep_time(game, sgames, cluster.address)
        total = SWEEP_POINTS * sgames
        out["dask"] = {
            "workers": cluster.n_workers,
            "games": total,
            "dask_s": dask_s,
            "local_s": out["sweep"]["sweep_s"],
            "dask_games_per_s": total / dask_s,
            "local_games_per_s": total / out["sweep"]["sweep_s"],
            "dask_vs_local": out["sweep"]["sweep_s"] / dask_s,
        }
    return out


def machine(b: Bench) -> dict[str, Any]:
    import numba

    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = round(int(line.split()[1]) / 1024**2, 1)
    except OSError:
        pass
    versions = {"python": platform.python_version()}
    for mod in ("balance", "numba", "llvmlite", "numpy", "polars", "dask", "distributed"):
        try:
            versions[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001 -- an optional extra not installed
            versions[mod] = None
    try:
        layer = numba.threading_layer()
    except ValueError:
        layer = None
    commit = None
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip() or None
        if commit and subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                                     text=True).stdout.strip():
            commit += " (with uncommitted changes)"
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": b.cores,
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": layer,
        "memory_gib": mem,
        "versions": versions,
        "commit": commit,
    }


def check_targets(game: str, r: dict[str, Any]) -> list[tuple[str, str, str, bool]]:
    """(what, target, measured, met) rows."""
    rows: list[tuple[str, str, str, bool]] = []
    if "error" in r:
        return [("benchmark", "runs", "failed: " + r["error"][:120], False)]
    t = {**GENERIC_TARGETS, **TARGETS.get(game, {})}
    if "games_per_s_all" in t:
        v = r["games_per_s_all_cores"]["median"]
        rows.append(("games/s, all cores", f">= {t['games_per_s_all']:,.0f}", f"{v:,.0f}", v >= t["games_per_s_all"]))
    v = r["parallel_ratio"]
    rows.append(("all cores / 1 thread", f">= {t['parallel_ratio']}x", f"{v:.2f}x", v >= t["parallel_ratio"]))
    v = r["jit_ratio"]
    rows.append(("compiled / NUMBA_DISABLE_JIT", f">= {t['jit_ratio']:.0f}x", f"{v:,.0f}x", v >= t["jit_ratio"]))
    v = r["warm_start_s"]["median"]
    rows.append(("warm start", f"< {t['warm_start_s']} s", f"{v:.2f} s", v < t["warm_start_s"]))
    v = r["cold_compile_s"]
    rows.append(("cold compile", f"< {t['cold_compile_s']:.0f} s", f"{v:.1f} s", v < t["cold_compile_s"]))
    if "dask" in r:
        v = r["dask"]["dask_vs_local"]
        rows.append(("Dask / local throughput", f">= {t['dask_vs_local']:.0%}", f"{v:.0%}", v >= t["dask_vs_local"]))
    return rows


def fmt_s(s: dict[str, Any], scale: float = 1.0, digits: int = 0) -> str:
    return f"{s['median'] * scale:,.{digits}f} ({s['min'] * scale:,.{digits}f}–{s['max'] * scale:,.{digits}f})"


def write_markdown(path: Path, data: dict[str, Any]) -> None:
    m = data["machine"]
    games = list(data["games"])
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`python -m benchmarks.run`); the numbers below are from one run of it. "
        "Machine-readable twin: [`benchmarks.json`](benchmarks.json).",
        "",
        f"- **Date**: {data['date']}",
        f"- **Machine**: {m['platform']}, {m['cores']} cores, {m['memory_gib']} GiB",
        f"- **CPU**: {m['cpu']}",
        f"- **Numba**: {m['numba_threads']} threads, threading layer `{m['threading_layer']}`",
        "- **Versions**: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items() if v),
        f"- **Commit**: {m['commit']}",
        f"- **Load average** (1 min) before / after: {data['load_before']:.2f} / {data['load_after']:.2f}",
        f"- **Repeats**: median of {data['repeat']} runs where a range (min–max) is shown; one run otherwise",
        "",
        "Every game with its default rules and default players, master seed 0. Measured by hand "
        "against earlier versions of the project: [speed-history.md](speed-history.md).",
        "",
    ]
    # The load average after the run counts the benchmark's own threads, so only the
    # load before it and the CPU the all-cores runs actually obtained tell of other work.
    obtained = [
        r["cores_obtained_all_cores"]["median"]
        for r in data["games"].values()
        if isinstance(r.get("cores_obtained_all_cores"), dict)
    ]
    starved = [c for c in obtained if c < 0.9 * m["cores"]]
    if data["load_before"] > 0.5 * m["cores"] or starved:
        got = f"the all-cores runs obtained {min(obtained):.2f} of {m['cores']} cores" if obtained else ""
        lines += [
            f"> **Shared machine during this run**: load average {data['load_before']:.1f} before it started"
            + (f"; {got}" if got else "")
            + ". Absolute games/s and above all the all-cores / 1-thread ratio are depressed (the "
            "benchmark's threads waited for cores); relative figures measured side by side (sweep overhead, "
            "Dask / local, compiled / interpreted) are less affected. Rerun `make bench` on a quiet machine "
            "for the scaling figures.",
            "",
        ]
    lines += [
        "| measure | " + " | ".join(games) + " |",
        "|---|" + "---:|" * len(games),
    ]

    def row(label: str, get: Callable[[dict[str, Any]], str]) -> None:
        cells = []
        for g in games:
            try:
                cells.append(get(data["games"][g]))
            except (KeyError, TypeError):
                cells.append("–")
        if all(c == "–" for c in cells):  # not measured by this run (older JSON, a failed game)
            return
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    row("games/s, 1 thread (`balance.run`)", lambda r: fmt_s(r["games_per_s_one_thread"]))
    row(f"games/s, all {m['cores']} cores", lambda r: fmt_s(r["games_per_s_all_cores"]))
    row("cores obtained (CPU time / wall), 1 thread", lambda r: fmt_s(r["cores_obtained_one_thread"], digits=2))
    row(f"cores obtained, all {m['cores']} cores", lambda r: fmt_s(r["cores_obtained_all_cores"], digits=2))
    row(
        "all cores / 1 thread (median of paired runs)",
        lambda r: f"{r['parallel_ratio']:.2f}×"
        + (
            f" ({r['parallel_ratio_range'][0]:.2f}–{r['parallel_ratio_range'][1]:.2f})"
            if r.get("parallel_ratio_range")
            else ""
        )
        + f" ({r['run_games']:,} games a run)",
    )
    row("kernel games/s, 1 thread, compiled", lambda r: f"{fmt_s(r['kernel_one_thread'])} "
        f"({r['kernel_one_thread']['games']:,} games)")
    row("kernel games/s, `NUMBA_DISABLE_JIT=1`", lambda r: f"{fmt_s(r['kernel_nojit'], digits=1)} "
        f"({r['kernel_nojit']['games']:,} games)")
    row("compiled / interpreted", lambda r: f"{r['jit_ratio']:,.0f}×")
    row("cold compile, s (`balance run --games 1000`, empty cache)", lambda r: f"{r['cold_compile_s']:.1f}")
    row("warm start, s (the same, cache filled)", lambda r: fmt_s(r["warm_start_s"], digits=2))
    row("mc against itself, games/s, 1 thread", lambda r: f"{fmt_s(r['mc']['now'], digits=1)} ({r['mc']['games']} games)")
    row("… the earlier flat search", lambda r: f"{fmt_s(r['mc']['earlier'], digits=1)} (`{r['mc']['earlier_label']}`)")
    row("… mc now / earlier", lambda r: f"{r['mc']['ratio']:.2f}×")
    row("peak RSS, MiB (`balance run`)", lambda r: f"{r['peak_rss']['peak_rss_mib']:,.0f} "
        f"({r['peak_rss']['games']:,} games)")
    row("… its games/s", lambda r: f"{r['peak_rss']['games_per_s']:,.0f}")
    row("sweep of 4 points, s", lambda r: f"{r['sweep']['sweep_s']:.1f} ({r['sweep']['games_per_point']:,} "
        f"games each, {r['sweep']['param']}={','.join(map(str, r['sweep']['values']))})")
    row("4 plain runs of the same points, s", lambda r: f"{r['sweep']['plain_runs_s']:.1f}")
    row("sweep overhead", lambda r: f"{r['sweep']['overhead']:+.1%}")
    row("Dask, 2 local workers: games/s", lambda r: f"{r['dask']['dask_games_per_s']:,.0f}")
    row("local executor, same sweep: games/s", lambda r: f"{r['dask']['local_games_per_s']:,.0f}")
    row("Dask / local", lambda r: f"{r['dask']['dask_vs_local']:.0%}")
    h = data["help_s"]
    lines += [
        "",
        f"`balance --help`: {h['median']:.2f} s (median of 5; {h['min']:.2f}–{h['max']:.2f}).",
        "",
        "## Against the targets of the issue",
        "",
        "| game | measure | target | measured | met |",
        "|---|---|---|---:|:-:|",
    ]
    for g in games:
        for what, target, value, met in check_targets(g, data["games"][g]):
            lines.append(f"| {g} | {what} | {target} | {value} | {'yes' if met else '**no**'} |")
    lines += against_table(data.get("against"))
    lines += [
        "",
        "## How it is measured",
        "",
        "- *games/s* is `balance.run` end to end in one warm process (kernel, aggregation, merging), "
        "1,000,000 games a run (the slower games fewer, `GAME_SCALE`: TAXI! 100,000, Carmarace 50,000, "
        "Tag City 20,000; every count is in the tables); *1 thread* is `threads=1`, *all cores* the default.",
        "- *kernel* is `GameSpec.simulate` alone on one thread; *interpreted* is the same call in a "
        "subprocess with `NUMBA_DISABLE_JIT=1`, on as many games as fit in a few seconds.",
        "- *cold compile* runs `balance run GAME --games 1000` in a subprocess whose `NUMBA_CACHE_DIR` is a "
        "new empty folder (everything compiles); *warm start* is the same command with Numba's on-disk cache "
        "filled, process start and imports included.",
        "- *mc* plays the game's search player at its defaults in both seats of a 2-seat game on one thread "
        "(`GameSpec.simulate`), interleaved with the search of earlier versions at their default budget: the "
        "flat Monte Carlo kept as `mc:allocation=even` (docs/players.md); the ratio is the median of the pairs.",
        "- *peak RSS* is `ru_maxrss` of the children of a fresh wrapper process that runs only that command.",
        "- *sweep overhead* compares `balance.sweep` (4 points, store written) with 4 `balance.run` calls "
        "of the same points in the same warm process.",
        "- *Dask* runs that sweep with `scheduler=` on a `dask scheduler` and 2 `dask worker` processes on "
        "127.0.0.1 (`--nthreads 1`, `NUMBA_NUM_THREADS` = cores / 2 each, so both sides use every core once); "
        "the time includes connecting and the per-worker warm-up.",
        "",
        "## Noise",
        "",
        "These figures come from one run of the suite on a machine that may be shared: other processes take "
        "cores at will (see the load average above, and *cores obtained*: CPU time of the benchmark process "
        "over wall time, 1.0 per fully used core), and CPU frequency and cache state vary. Medians of "
        "several runs, with their min–max, are shown where a measure is cheap enough to repeat; single "
        "measurements (cold compile, peak RSS, sweeps, Dask) can be off by 10–30% on a busy machine. "
        "Compare runs on the same machine, quiet, before reading a difference of a few percent.",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def against_table(rows: dict[str, Any] | None) -> list[str]:
    """The games/s per thread of this commit against a named one (``--against``), measured in this run."""
    if not rows:
        return []
    if "error" in rows:
        return ["", f"## Against commit {rows['commit']}", "", f"Not measured: {rows['error']}"]
    commit = next(iter(rows.values()))["commit"]
    lines = [
        "",
        f"## Against commit {commit}",
        "",
        f"`python -m benchmarks.against {commit} GAME:N` in this run (`make bench AGAINST={commit}`): "
        "`balance run GAME --games N --threads 1` with the default players in the commit's tree and in this one, "
        "fresh processes alternating which goes first; the time of N/10 games is subtracted, so start-up and "
        "loading the cache fall out. Medians of the rounds; the ratio is the median of the rounds' ratios.",
        "",
        f"| game | games a run | {commit}, games/s | this commit, games/s | ratio | the rounds' ratios |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for game, r in rows.items():
        lines.append(
            f"| {game} | {r['games']:,} | {r['commit_rate']:,.0f} | {r['this_rate']:,.0f} | {r['ratio']:.2f}× | "
            + ", ".join(f"{x:.2f}" for x in r["ratios"]) + " |"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="game to benchmark (repeatable; default: all built-in)")
    parser.add_argument("--toy", action="store_true", help="benchmark the tests' toy game (development)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every game count (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measure that is repeated (default 3)")
    parser.add_argument("--no-dask", action="store_true", help="skip the Dask comparison")
    parser.add_argument("--out", default=str(ROOT / "docs"), help="folder for benchmarks.md/json (default docs/)")
    parser.add_argument(
        "--against", default=None, metavar="COMMIT",
        help="also measure games/s per thread against this commit in the same run (benchmarks.against)",
    )
    args = parser.parse_args(argv)

    b = Bench(args.toy, args.scale, args.repeat)
    if args.toy:
        exec(TOY_PREFIX)  # noqa: S102 -- registers the toy game in this process
    from balance.registry import _entry_points

    games = args.game or (["dicerace"] if args.toy else sorted(_entry_points()))
    data: dict[str, Any] = {
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "repeat": args.repeat,
        "scale": args.scale,
        "load_before": os.getloadavg()[0],
        "games": {},
    }
    log(f"games: {', '.join(games)}; scale {args.scale}; {args.repeat} repeats")
    data["help_s"] = b.help_time()
    cluster = None
    preload = None
    try:
        if not args.no_dask:
            try:
                import distributed  # noqa: F401
            except ImportError:
                log("dask[distributed] not installed: skipping the Dask comparison")
            else:
                if args.toy:
                    preload = Path(tempfile.mkdtemp(prefix="balance-bench-")) / "toy_preload.py"
                    preload.write_text(TOY_PRELOAD)
                log("starting a local Dask cluster (2 workers)")
                try:
                    cluster = LocalCluster(2, b.cores, str(preload) if preload else "").__enter__()
                except Exception as exc:  # noqa: BLE001 -- measure the rest without Dask
                    log(f"local Dask cluster did not start ({exc}): skipping the Dask comparison")
                    cluster = None
        for game in games:
            try:
                data["games"][game] = bench_game(b, game, cluster)
            except Exception as exc:  # noqa: BLE001 -- one broken game must not lose the others' figures
                log(f"{game}: FAILED: {exc}")
                data["games"][game] = {"error": " ".join(str(exc).split())[:500]}
    finally:
        if cluster is not None:
            cluster.__exit__(None, None, None)
        if preload is not None:
            shutil.rmtree(preload.parent, ignore_errors=True)
    if args.against and not args.toy:
        from benchmarks.against import measure

        items = [(g, b.n(AGAINST_GAMES, g), None) for g in games if "error" not in data["games"][g]]
        log(f"against {args.against}: {', '.join(g for g, _, _ in items)}, {max(b.repeat, 3)} interleaved rounds")
        try:
            data["against"] = measure(args.against, items, max(b.repeat, 3))
        except Exception as exc:  # noqa: BLE001 -- a commit that cannot be checked out loses only this table
            log(f"against {args.against}: FAILED: {exc}")
            data["against"] = {"error": " ".join(str(exc).split())[:500], "commit": args.against}
    data["load_after"] = os.getloadavg()[0]
    data["machine"] = machine(b)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "benchmarks.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    write_markdown(out / "benchmarks.md", data)
    log(f"wrote {out / 'benchmarks.md'} and {out / 'benchmarks.json'}")
    for g in games:
        for what, target, value, met in check_targets(g, data["games"][g]):
            log(f"{g}: {what}: {value} (target {target}){'' if met else '  <- MISSED'}")


if __name__ == "__main__":
    main()
