"""Where a game's compiled batch spends its time: a ``perf`` profile of the JIT's functions.

``python -m benchmarks.profile GAME [N] [--players a,b] [--out perf.data]``
(needs ``perf``; the full table after: ``perf report -i perf.data --no-children --sort sym``).

The script plays an untimed warm-up batch (so every kernel is compiled or loaded
from the cache), writes ``/tmp/perf-PID.map`` (``perf report`` reads it to name the
JIT's code: every function of the batch driver's final LLVM module, each with its
address and its length up to the next one), then attaches ``perf record`` (cpu-clock, 4 kHz) to itself while it plays ``N``
games on one thread, and prints the functions that took the most samples.
A function numba inlined is counted in its caller; one it kept as a call has its
own line, so ``inline="always"`` changes what the profile can see.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import time


def _symbols(dispatcher) -> list[tuple[int, str]]:
    """(address, name) of every function defined in a dispatcher's compiled modules."""
    found: dict[int, str] = {}
    for cres in dispatcher.overloads.values():
        library = cres.library
        # the linked module (callees included); loaded from the cache, its bitcode twin
        modules = [getattr(library, "_final_module", None), getattr(library, "_shared_module", None)]
        for module in [m for m in modules if m is not None]:
            for fn in module.functions:
                if fn.is_declaration:
                    continue
                try:
                    addr = library._codegen._engine.get_function_address(fn.name)
                except Exception:  # a function the engine did not emit
                    continue
                if addr:
                    found[addr] = _readable(fn.name)
    return sorted(found.items())


def _readable(name: str) -> str:
    """numba's mangled ``_ZN4sims6bahama6kernel7advance...E...`` as
    ``sims.bahama.kernel.advance`` (the nested name's identifiers)."""
    if not name.startswith("_ZN"):
        return name
    i, words = 3, []
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        n = int(name[i:j])
        words.append(name[j : j + n])
        i = j + n
    words = [w for w in words if not w.startswith("_3c") and not w.startswith("$")]
    return ".".join(words) if words else name


def write_map(dispatchers) -> str:
    syms: dict[int, str] = {}
    for d in dispatchers:
        syms.update(dict(_symbols(d)))
    items = sorted(syms.items())
    path = f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w") as f:
        for (addr, name), nxt in zip(items, [a for a, _ in items[1:]] + [items[-1][0] + 4096]):
            f.write(f"{addr:x} {min(nxt - addr, 1 << 20):x} {name}\n")
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("games", nargs="?", type=int, default=20_000)
    ap.add_argument("--players", default=None, help="a line-up, e.g. greedy,fleet (default: the game's)")
    ap.add_argument("--out", default="perf.data", help="perf's data file")
    ap.add_argument("--top", type=int, default=25, help="functions listed")
    a = ap.parse_args(argv)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from balance.runspec import RunSpec

    kw = {"game": a.game, "games": a.games}
    if a.players:
        kw["players"] = tuple(a.players.split(","))
    r = RunSpec(**kw).resolved()

    def play(k: int, first: int) -> None:
        r.spec.simulate(r.rules, list(r.strategies), r.seatings, 1, first, k, r.board)

    play(min(a.games, 2000), 0)
    path = write_map([r.spec._module("kernel").KERNEL.play_batch])
    perf = subprocess.Popen(
        ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-p", str(os.getpid()), "-o", a.out],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # perf attached
    t = time.perf_counter()
    play(a.games, 10_000_000)
    dt = time.perf_counter() - t
    perf.send_signal(signal.SIGINT)
    perf.wait()
    print(f"{a.game} ({', '.join(str(getattr(p, 'name', p)) for p in r.strategies)}): {a.games} games in {dt:.2f} s, {a.games / dt:,.0f} games/s")
    report = subprocess.run(
        ["perf", "report", "-i", a.out, "--no-children", "--sort", "sym", "--stdio"],
        capture_output=True, text=True,
    ).stdout
    lines = [ln for ln in report.splitlines() if ln.strip() and not ln.startswith("#")]
    print("\n".join(lines[: a.top]))
    print(f"(symbols: {path}; full report: perf report -i {a.out} --no-children --sort sym)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
