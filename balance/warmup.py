"""``balance warmup``: a game's kernel compiled ahead, not on a command's first call.

Numba compiles a game's compiled code on first use and keeps it in its disk
cache (``cache=True``; :mod:`balance.coldstart` says so when a command meets a
cold cache).  :func:`warmup` pays that once, at a time of the user's choosing
(``make demo`` does it first): it plays one game of the game's defaults (its
rules, board and default players) through ``GameSpec.simulate`` and traces it
through ``GameSpec.trace``, exactly the calls the commands make, so what it
compiles is what they load:

- *the batch* (``play_batch`` over the game's rules, its heuristics and the
  search player ``mc``: one compiled switch holds every built-in player, so a
  run that seats ``mc`` needs nothing more): ``run``, ``sweep``, ``compare``,
  ``check``, ``tournament``, ``train``, ``tune``, ``sensitivity``;
- *the traced game* (``play_traced``): ``trace``.

A player file's players are compiled by every process that seats them (they are
not cached) and a GPU run compiles its own kernel (docs/gpu.md); neither is
warmed here.

Each compile is timed with numba's own compile events, so the answer says how
many functions compiled and which took the most time (their own time, callees
excluded); a warm cache compiles none: ``already compiled``.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# What each compiled part serves (the answer's words).
PARTS = {
    "play_batch": ("the batch", "run, sweep, compare, check, tournament, train, tune, sensitivity; mc included"),
    "play_traced": ("the traced game", "trace"),
}
SLOWEST = 3  # functions named in the one-line answer


@dataclass(frozen=True)
class Warmup:
    """What :func:`warmup` did for one game."""

    game: str
    seconds: float  # wall time, compile or cache load included
    compiled: tuple[str, ...]  # the parts that compiled now (PARTS' keys); () when all were cached
    functions: int  # numba compiles (not cache loads) it took
    own_seconds: tuple[tuple[str, float], ...] = field(default=())  # per function, callees excluded, slowest first
    jit: bool = True  # False under NUMBA_DISABLE_JIT=1: nothing compiles

    def line(self) -> str:
        """``GAME: compiled in 52.3 s, ...`` or ``GAME: already compiled (0.8 s to load the cache)``."""
        if not self.jit:
            return f"{self.game}: nothing to compile (NUMBA_DISABLE_JIT=1: the games run as Python)"
        if not self.functions:
            return f"{self.game}: already compiled ({self.seconds:.1f} s to load the cache)"
        parts = " and ".join(f"{PARTS[p][0]} ({PARTS[p][1]})" for p in self.compiled) or "the game's functions"
        slowest = ", ".join(f"{name} {s:.1f} s" for name, s in self.own_seconds[:SLOWEST])
        return (
            f"{self.game}: compiled in {self.seconds:.1f} s, {self.functions} functions: {parts}; "
            f"the slowest: {slowest}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seconds": round(self.seconds, 2),
            "compiled": list(self.compiled),
            "already_compiled": self.jit and not self.functions,
            "functions": self.functions,
            "own_seconds": {name: round(s, 2) for name, s in self.own_seconds},
        }


def games_to_warm(names: Sequence[str] | None) -> list[str]:
    """The games asked for, checked before any compiles (UserError naming an
    unknown one and the allowed games); none given: every registered game."""
    from balance.registry import game_names, get_game

    if not names:
        return game_names()
    for name in names:
        get_game(name)
    return list(dict.fromkeys(names))


def warmup(game: str) -> Warmup:
    """Compile ``game``'s batch and traced game (or load them from the cache)."""
    from numba.core import config as numba_config
    from numba.core import event

    from balance.coldstart import is_cold
    from balance.registry import get_game
    from balance.runspec import RunSpec

    spec = get_game(game)
    r = RunSpec(game=spec.name, games=1).resolved()  # the defaults: rules, board, players
    if numba_config.DISABLE_JIT:
        return Warmup(spec.name, 0.0, (), 0, jit=False)
    kernel = importlib.import_module(f"{spec.package}.kernel").KERNEL
    cold = [part for part in PARTS if is_cold(getattr(kernel, part))]
    rules, players = dict(r.rules), list(r.strategies)
    start = time.perf_counter()
    with event.install_recorder("numba:compile") as recorder:
        spec.simulate(rules, players, r.seatings, 0, 0, 1, r.board)
        spec.trace(rules, players, r.seatings, 0, 0, r.board)
    seconds = time.perf_counter() - start
    own = own_seconds(recorder.buffer)
    compiled = tuple(part for part in cold if not is_cold(getattr(kernel, part)))
    return Warmup(spec.name, seconds, compiled, sum(n for n, _ in own.values()), _slowest_first(own))


def own_seconds(buffer: Sequence[tuple[float, Any]]) -> dict[str, tuple[int, float]]:
    """Per compiled function (``module.name``): how many compiles and their own
    seconds, from numba's ``numba:compile`` events (nested: a function's compile
    types and compiles its callees first; their time is theirs, not its).  Only
    functions kept in the disk cache count: one without (an ``inline="always"``
    helper, say) compiles again in every process, warmed up or not."""
    from balance.coldstart import cached

    own: dict[str, tuple[int, float]] = {}
    stack: list[list[Any]] = []  # [dispatcher, start, seconds spent in callees]
    for at, ev in buffer:
        if ev.is_start:
            stack.append([ev.data["dispatcher"], at, 0.0])
            continue
        if not stack:
            continue
        dispatcher, began, inner = stack.pop()
        total = at - began
        if stack:
            stack[-1][2] += total
        if not cached(dispatcher):
            continue
        name = function_name(dispatcher)
        n, s = own.get(name, (0, 0.0))
        own[name] = (n + 1, s + total - inner)
    return own


def function_name(dispatcher: Any) -> str:
    """A game's own by its module's last name (``kernel.advance``,
    ``players.heuristics``), the engine's copy for the game as ``drivers``
    (``drivers.play_batch``), the toolkit's and numba's by their package
    (``balance.state.event``, ``numba.unicode.str_eq``)."""
    py = getattr(dispatcher, "py_func", None)
    if py is None:
        return repr(dispatcher)
    package, _, module = py.__module__.rpartition(".")
    if module.startswith("balance_drivers_"):
        module = "drivers"
    elif package.split(".")[0] in ("balance", "numba"):
        module = f"{package.split('.')[0]}.{module}"
    return f"{module}.{py.__qualname__}"


def _slowest_first(own: dict[str, tuple[int, float]]) -> tuple[tuple[str, float], ...]:
    return tuple(sorted(((name, s) for name, (_, s) in own.items()), key=lambda item: -item[1]))
