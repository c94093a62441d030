"""Carnage's GPU kernel (sims/carnage/gpu.py) against the CPU kernel.

The GPU kernel is the CPU kernel's own source recompiled for CUDA, so the
contract is strict: game g under seed S has the same winner, end reason, turns
and deliveries on both.  No GPU is needed here: Numba's CUDA simulator
(NUMBA_ENABLE_CUDASIM=1) runs the kernel as Python, thread by thread, through
the same launch, copies and grid-stride loop; the simulator must be chosen
before numba.cuda is imported, hence the subprocesses.  On a GPU the same
comparison runs at scale in ``python -m benchmarks.gpu``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PARITY = """
import json, sys
import numpy as np
from sims.carnage import SPEC
from balance.runner import resolve_players, seatings_for

cases = json.loads(sys.argv[1])
result = []
for names, rotate, seed, first, n, params in cases:
    strategies, seat_index = resolve_players(SPEC, names, None)
    seatings = seatings_for(seat_index, rotate)
    values = SPEC.resolve_params(params)
    cpu = SPEC.simulate(values, strategies, seatings, seed, first, n, None)
    gpu = SPEC.simulate(values, strategies, seatings, seed, first, n, None, device="gpu")
    fields = ('winner', 'end_reason', 'turns', 'score')
    same = [bool(np.array_equal(getattr(cpu, f), getattr(gpu, f))) for f in fields]
    result.append({"same": same, "games": n, "turns": int(cpu.turns.sum()),
                   "winners": sorted(set(int(w) for w in cpu.winner)),
                   "reasons": sorted(set(int(r) for r in cpu.end_reason))})
print(json.dumps(result))
"""


def _env(simulator: bool) -> dict[str, str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])
        ),
    }
    env.pop("BALANCE_SCHEDULER", None)
    if simulator:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    else:
        env.pop("NUMBA_ENABLE_CUDASIM", None)
    return env


def _run(argv: list[str], simulator: bool) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-W", "ignore", *argv],
        cwd=ROOT,
        env=_env(simulator),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _python(
    code: str, *args: str, simulator: bool = True
) -> subprocess.CompletedProcess:
    return _run(["-c", code, *args], simulator)


def _balance(*args: str, simulator: bool) -> subprocess.CompletedProcess:
    return _run(["-m", "balance", *args], simulator)


def test_gpu_kernel_plays_the_cpu_kernels_games():
    cases = [
        # default players, seats rotated, a first game far from 0
        [["greedy", "fleet"], True, 2026, 10**9, 48, {}],
        # every built-in player at four seats (24 seatings), other rules
        [
            ["random", "nearest", "greedy", "fleet"],
            True,
            7,
            0,
            48,
            {"car_cost": 8, "spawn_on_turn_end": 4, "max_cars": 6},
        ],
        # three seats, cheap cars: games that end by cars
        [
            ["fleet", "nearest", "random"],
            False,
            1,
            5,
            30,
            {"car_cost": 5, "win_cars": 3},
        ],
    ]
    proc = _python(PARITY, json.dumps(cases))
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    for case, r in zip(cases, result):
        assert r["same"] == [True] * 4, (case, r)
    # The cases are not trivial: many turns, several winners and end reasons.
    assert sum(r["turns"] for r in result) > 1000
    assert len(set().union(*(r["reasons"] for r in result))) >= 3
    assert len(set().union(*(r["winners"] for r in result))) >= 3


def test_balance_run_device_gpu_gives_the_cpu_numbers():
    args = [
        "run",
        "carnage",
        "--games",
        "96",
        "--seed",
        "11",
        "--rotate-seats",
        "--json",
    ]
    gpu = _balance(*args, "--device", "gpu", simulator=True)
    cpu = _balance(*args, simulator=False)
    assert gpu.returncode == 0 and cpu.returncode == 0, gpu.stderr + cpu.stderr
    g, c = json.loads(gpu.stdout), json.loads(cpu.stdout)
    assert g.pop("device") == "gpu" and c.pop("device") == "cpu"
    for key in ("elapsed_s", "games_per_second"):
        g.pop(key), c.pop(key)
    # the GPU kernel keeps no game-feel record (docs/gpu.md): everything else is the CPU's
    assert not g.pop("feel", None) and c.pop("feel")
    assert g == c


def test_sweep_device_gpu_stores_the_cpu_points_and_resumes_across_devices(tmp_path):
    import polars as pl

    import balance

    common = [
        "sweep",
        "carnage",
        "--param",
        "car_cost=8,12",
        "--param",
        "spawn_on_drop=2,5",
        "--games",
        "40",
    ]
    cpu = _balance(*common, "--out", str(tmp_path / "cpu"), simulator=False)
    gpu = _balance(
        *common, "--device", "gpu", "--out", str(tmp_path / "gpu"), simulator=True
    )
    assert cpu.returncode == 0 and gpu.returncode == 0, cpu.stderr + gpu.stderr
    assert "on the GPU" in gpu.stdout
    frame_cpu, frame_gpu = (
        balance.load(tmp_path / "cpu"),
        balance.load(tmp_path / "gpu"),
    )
    feel = pl.col("measure").str.starts_with("feel_")  # the CPU's game-feel record (none on the GPU)
    assert frame_cpu.filter(feel).height > 0 and frame_gpu.filter(feel).height == 0
    assert frame_cpu.height > 0 and frame_gpu.equals(frame_cpu.filter(~feel))
    manifest = json.loads((tmp_path / "gpu" / "manifest.json").read_text())
    assert [s["device"] for s in manifest["sessions"]] == ["gpu"]
    # A CPU sweep that lost two points (as if stopped before them) is finished
    # on the GPU: the device is not part of a sweep's identity.
    from balance.store import POINTS_DIR

    points = sorted((tmp_path / "cpu" / POINTS_DIR).iterdir())
    assert len(points) == 4
    for lost in points[2:]:
        lost.unlink()
    again = _balance(
        *common,
        "--device",
        "gpu",
        "--out",
        str(tmp_path / "cpu"),
        "--resume",
        simulator=True,
    )
    assert again.returncode == 0, again.stderr
    assert "2 of 4 points already done" in again.stdout
    resumed = balance.load(tmp_path / "cpu")
    assert resumed.filter(~feel).equals(frame_cpu.filter(~feel))  # the GPU's two points: no feel record
    sessions = json.loads((tmp_path / "cpu" / "manifest.json").read_text())["sessions"]
    assert [(s["device"], s["points_played"]) for s in sessions] == [
        ("cpu", 4),
        ("gpu", 2),
    ]


def _no_gpu() -> bool:
    proc = _python(
        "from numba import cuda; print(cuda.is_available())", simulator=False
    )
    return proc.stdout.strip() == "False"


@pytest.mark.skipif(not _no_gpu(), reason="this machine has a CUDA GPU")
def test_device_gpu_without_a_gpu_is_one_line_exit_2():
    proc = _balance(
        "run", "carnage", "--games", "10", "--device", "gpu", simulator=False
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: --device gpu: no CUDA GPU found")
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["bahama", "--device", "gpu"],
            "error: --device gpu: bahama has no GPU kernel; games with one: carnage",
        ),
        (["carnage", "--device", "tpu"], "error: --device 'tpu': allowed: cpu, gpu"),
        (
            [
                "carnage",
                "--device",
                "gpu",
                "--player-file",
                "examples/carnage_bots.py",
                "--players",
                "greedy,homebody",
            ],
            "error: --device gpu plays the built-in players only",
        ),
        (
            ["carnage", "--device", "gpu", "--scheduler", "tcp://127.0.0.1:1"],
            "error: --device gpu runs on this machine; drop --scheduler",
        ),
        (
            ["carnage", "--device", "gpu", "--players", "mc,greedy"],
            "error: --device gpu plays the heuristic players (random, nearest, greedy, fleet, blocker); mc runs with --device cpu",
        ),
    ],
)
def test_device_mistakes_are_one_line_exit_2(args, message):
    proc = _balance("run", *args, "--games", "10", simulator=True)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(message), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stdout == ""
