"""The GPU benchmark: Carnage on an NVIDIA GPU against the CPU kernel on the same
machine (``python -m benchmarks.gpu --out DIR``; needs numba-cuda and a GPU).

It measures, with the default rules and players:

* parity: the same games on the CPU kernel (every core) and on the GPU, array
  for array (winner, end reason, turns, deliveries), for the default seating
  rotated and for four different players at four seats;
* the GPU kernel's compile time (first call, in this process), its registers
  and local memory per thread;
* games/s on the GPU for a few launch shapes (threads per block, waves), the
  best shape again at 10,000,000 games; each figure the median of ``--repeat``
  runs, transfers of inputs and outputs included;
* games/s of the CPU kernel on the same machine, every core and one thread.

It writes ``gpu-benchmarks.json`` and ``gpu-benchmarks.md`` into ``--out``.

``--ptx FILE`` only compiles the kernel to PTX for ``--cc`` (default 9.0, Hopper)
and needs no GPU: numba-cuda and CUDA's NVVM suffice (``CUDA_HOME`` pointing at
a toolkit).  It checks that the recompiled rules build for the CUDA target.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

PARITY_GAMES = 1_000_000
PARITY_GAMES_4P = 200_000
SHAPE_GAMES = 1_000_000
BIG_GAMES = 10_000_000
CPU_GAMES = 1_000_000
SHAPES = ((64, 1), (128, 1), (256, 1), (128, 4))  # (threads per block, waves)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=".", help="folder for the JSON and Markdown")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply game counts")
    ap.add_argument(
        "--ptx", metavar="FILE", help="only compile the kernel to PTX (no GPU needed)"
    )
    ap.add_argument(
        "--cc", default="9.0", help="compute capability for --ptx (default 9.0)"
    )
    args = ap.parse_args(argv)
    if args.ptx:
        return compile_only(Path(args.ptx), tuple(int(x) for x in args.cc.split(".")))
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)

    def n_of(n: int) -> int:
        return max(64, int(n * args.scale))

    import numba
    from numba import cuda

    from balance.game import Outcomes
    from balance.seating import seatings_for
    from sims.carnage import SPEC
    from sims.carnage import gpu as carnage_gpu

    result: dict[str, Any] = {
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "cpu_threads": numba.get_num_threads(),
        "cpu": platform.processor() or platform.machine(),
    }
    try:
        from importlib.metadata import version

        result["numba_cuda"] = version("numba-cuda")
    except Exception:  # noqa: BLE001
        result["numba_cuda"] = None
    from balance.gpu import simulated

    if simulated():  # developing this script without a GPU
        result.update(gpu="CUDA simulator", gpu_cc=[0, 0], gpu_sms=1)
    else:
        dev = cuda.get_current_device()
        result["gpu"] = (
            dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
        )
        result["gpu_cc"] = list(dev.compute_capability)
        result["gpu_sms"] = dev.MULTIPROCESSOR_COUNT

    def save() -> None:
        (out_dir / "gpu-benchmarks.json").write_text(
            json.dumps(result, indent=2) + "\n"
        )

    def log(msg: str) -> None:
        print(msg, flush=True)

    board = SPEC.load_board(None)

    def prepared(names: list[str], rotate: bool) -> tuple[Any, ...]:
        distinct = list(dict.fromkeys(names))
        seat_index = [distinct.index(n) for n in names]
        strategies = [SPEC.player(n) for n in distinct]
        seatings = seatings_for(seat_index, rotate)
        params = SPEC.resolve_params()
        job = SPEC._job(params, strategies, seatings, board)
        return params, strategies, seatings, job

    def cpu_run(names: list[str], rotate: bool, n: int, seed: int) -> tuple[float, Any]:
        params, strategies, seatings, _ = prepared(names, rotate)
        t = time.perf_counter()
        o = SPEC.simulate(params, strategies, seatings, seed, 0, n, board)
        return time.perf_counter() - t, o

    def gpu_run(
        names: list[str],
        rotate: bool,
        n: int,
        seed: int,
        threads: int = 128,
        waves: int = 1,
    ) -> tuple[float, Any]:
        _, _, _, job = prepared(names, rotate)
        o = Outcomes.empty(n, job.seat_index.shape[1])
        cuda.synchronize()
        t = time.perf_counter()
        carnage_gpu.simulate(
            SPEC, job, seed, 0, n, o, waves=waves, threads=threads
        )
        cuda.synchronize()
        return time.perf_counter() - t, o

    default = list(SPEC.default_players)
    four = ["random", "nearest", "greedy", "fleet"]

    # Compile (GPU first: the CPU kernel compiles on its first call below).
    t = time.perf_counter()
    gpu_run(default, True, 1000, 1)
    result["gpu_compile_s"] = round(time.perf_counter() - t, 2)
    kern = carnage_gpu._kernel(prepared(default, True)[3].image.shape[0])
    for key, getter in (
        ("regs_per_thread", "get_regs_per_thread"),
        ("local_bytes_per_thread", "get_local_mem_per_thread"),
    ):
        try:
            result[key] = int(getattr(kern, getter)())
        except Exception as exc:  # noqa: BLE001
            result[key] = f"n/a ({type(exc).__name__})"
    log(
        f"GPU compile {result['gpu_compile_s']} s, regs {result['regs_per_thread']}, local {result['local_bytes_per_thread']}"
    )
    save()
    t = time.perf_counter()
    cpu_run(default, True, 1000, 1)
    result["cpu_compile_s"] = round(time.perf_counter() - t, 2)
    save()

    # Parity.
    parity = {}
    for label, names, n in (
        ("default rotated", default, n_of(PARITY_GAMES)),
        ("4 players rotated", four, n_of(PARITY_GAMES_4P)),
    ):
        _, c = cpu_run(names, True, n, 2026)
        _, g = gpu_run(names, True, n, 2026)
        same = [
            bool(np.array_equal(getattr(c, f), getattr(g, f)))
            for f in ("winner", "end_reason", "turns", "score")
        ]
        mismatched = int(
            np.sum(
                (c.winner != g.winner)
                | (c.end_reason != g.end_reason)
                | (c.turns != g.turns)
                | np.any(c.score != g.score, axis=1)
            )
        )
        parity[label] = {
            "games": n,
            "identical": all(same),
            "games_differing": mismatched,
            "players": names,
        }
        log(f"parity {label}: {n} games, identical={all(same)}, differing {mismatched}")
    result["parity"] = parity
    save()

    # GPU launch shapes.
    shapes = []
    n = n_of(SHAPE_GAMES)
    for threads, waves in SHAPES:
        rates = [
            n / gpu_run(default, False, n, 11 + r, threads, waves)[0]
            for r in range(args.repeat)
        ]
        shapes.append(
            {
                "threads_per_block": threads,
                "waves": waves,
                "games": n,
                "games_per_s": statistics.median(rates),
                "runs": rates,
            }
        )
        log(f"GPU {threads} x waves {waves}: {statistics.median(rates):,.0f} games/s")
        save()
    result["gpu_shapes"] = shapes
    best = max(shapes, key=lambda s: s["games_per_s"])
    n = n_of(BIG_GAMES)
    rates = [
        n
        / gpu_run(default, False, n, 21 + r, best["threads_per_block"], best["waves"])[
            0
        ]
        for r in range(args.repeat)
    ]
    result["gpu_big"] = {
        "games": n,
        "threads_per_block": best["threads_per_block"],
        "waves": best["waves"],
        "games_per_s": statistics.median(rates),
        "runs": rates,
    }
    log(f"GPU {n:,} games: {statistics.median(rates):,.0f} games/s")
    save()

    # CPU on the same machine.
    n = n_of(CPU_GAMES)
    cpu_all = [n / cpu_run(default, False, n, 31 + r)[0] for r in range(args.repeat)]
    all_threads = numba.get_num_threads()
    numba.set_num_threads(1)
    n1 = max(1000, n // 8)
    cpu_one = [n1 / cpu_run(default, False, n1, 41 + r)[0] for r in range(args.repeat)]
    numba.set_num_threads(all_threads)
    result["cpu_all"] = {
        "threads": all_threads,
        "games": n,
        "games_per_s": statistics.median(cpu_all),
        "runs": cpu_all,
    }
    result["cpu_one"] = {
        "threads": 1,
        "games": n1,
        "games_per_s": statistics.median(cpu_one),
        "runs": cpu_one,
    }
    result["gpu_vs_cpu_all"] = (
        result["gpu_big"]["games_per_s"] / result["cpu_all"]["games_per_s"]
    )
    result["gpu_vs_cpu_one"] = (
        result["gpu_big"]["games_per_s"] / result["cpu_one"]["games_per_s"]
    )
    log(
        f"CPU {all_threads} threads: {statistics.median(cpu_all):,.0f} games/s; 1 thread {statistics.median(cpu_one):,.0f}"
    )
    save()
    (out_dir / "gpu-benchmarks.md").write_text(markdown(result))
    log(markdown(result))
    return 0 if all(p["identical"] for p in parity.values()) else 1


def compile_only(path: Path, cc: tuple[int, ...]) -> int:
    """Compile the batch kernel to PTX for ``cc`` without a GPU."""
    import re

    from numba import cuda, types
    from numba.cuda import dispatcher

    from sims.carnage import SPEC
    from sims.carnage import gpu as carnage_gpu

    class _Device:  # numba-cuda compiles device functions for the current device
        compute_capability = cc

    dispatcher.get_current_device = lambda: _Device()
    board = SPEC.load_board(None)
    image = SPEC.encode(SPEC.resolve_params(), board, len(SPEC.default_players))
    kern = carnage_gpu._kernel(image.shape[0])

    def arr(dtype: Any, ndim: int = 1) -> Any:
        return types.Array(dtype, ndim, "C")

    i64, i32, i8 = types.int64, types.int32, types.int8
    signature = (
        arr(i64), arr(i64, 2), arr(i64, 3),  # image, seatings, player parameters
        types.uint64, i64, i64, arr(i8), arr(i8), arr(i32), arr(i32, 2),
    )  # fmt: skip
    t = time.perf_counter()
    ptx, _ = cuda.compile_ptx(kern.py_func, signature, cc=cc)
    elapsed = time.perf_counter() - t
    path.write_text(ptx)
    frames = re.findall(r"__local_depot\d+\[(\d+)\]", ptx)
    print(
        f"compiled for sm_{''.join(map(str, cc))} in {elapsed:.1f} s: {len(ptx):,} characters "
        f"of PTX in {path}; local frame {', '.join(frames) or 'none'} bytes per thread"
    )
    try:  # assemble for the chip too, where nvJitLink is installed (numba-cuda[cu12/cu13])
        from cuda.bindings import nvjitlink
    except ImportError:
        return 0
    data = ptx.encode()
    arch = f"-arch=sm_{''.join(map(str, cc))}"
    handle = nvjitlink.create(3, [arch, "-Xptxas=-v", "-verbose"])
    nvjitlink.add_data(handle, nvjitlink.InputType.PTX, data, len(data), "carnage")
    nvjitlink.complete(handle)
    log = bytearray(nvjitlink.get_info_log_size(handle))
    nvjitlink.get_info_log(handle, log)
    for line in log.decode(errors="replace").splitlines():
        if "registers" in line or "spill" in line:
            print(line.strip())
    return 0


def markdown(r: dict[str, Any]) -> str:
    def f(x: float) -> str:
        return f"{x:,.0f}"

    lines = [
        "# GPU benchmark: Carnage",
        "",
        (
            f"`python -m benchmarks.gpu` on {r['gpu']} (compute capability "
            f"{'.'.join(map(str, r['gpu_cc']))}, {r['gpu_sms']} multiprocessors) beside "
            f"{r['cpu_threads']} CPU threads; {r['date']}; Python {r['python']}, numba {r['numba']}, "
            f"numba-cuda {r['numba_cuda']}, numpy {r['numpy']}. Default rules and players "
            "(greedy, fleet); medians of the runs listed in gpu-benchmarks.json; GPU times "
            "include copying inputs and outputs."
        ),
        "",
        "| measure | value |",
        "|---|---|",
    ]
    for label, p in r["parity"].items():
        lines.append(
            f"| parity, {label} ({', '.join(p['players'])}), {f(p['games'])} games | "
            f"{'identical' if p['identical'] else 'DIFFERENT: ' + str(p['games_differing']) + ' games'} |"
        )
    big = r["gpu_big"]
    lines += [
        f"| GPU, {f(big['games'])} games ({big['threads_per_block']} threads per block, waves {big['waves']}) | {f(big['games_per_s'])} games/s |",
    ]
    for s in r["gpu_shapes"]:
        lines.append(
            f"| GPU, {f(s['games'])} games, {s['threads_per_block']} threads per block, waves {s['waves']} | {f(s['games_per_s'])} games/s |"
        )
    lines += [
        f"| CPU kernel, {r['cpu_all']['threads']} threads, {f(r['cpu_all']['games'])} games | {f(r['cpu_all']['games_per_s'])} games/s |",
        f"| CPU kernel, 1 thread, {f(r['cpu_one']['games'])} games | {f(r['cpu_one']['games_per_s'])} games/s |",
        f"| GPU / CPU ({r['cpu_all']['threads']} threads) | {r['gpu_vs_cpu_all']:.1f}× |",
        f"| GPU / CPU (1 thread) | {r['gpu_vs_cpu_one']:.1f}× |",
        f"| GPU kernel compile (first call) | {r['gpu_compile_s']} s |",
        f"| CPU kernel first call (a compile unless cached) | {r['cpu_compile_s']} s |",
        f"| registers / local memory per GPU thread | {r['regs_per_thread']} / {r['local_bytes_per_thread']} bytes |",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
