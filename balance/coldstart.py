"""A game's first compile, said out loud.

Numba compiles a game's kernel on its first call and caches the machine code on
disk (``cache=True``): a cold start costs about a minute per game
(docs/speed-history.md, "Cold start"), every later process loads it in about a
second.  Without a word the first command of a fresh install looks hung, so the
first call of a cold kernel is wrapped in :func:`compiling`:

- *cold* means that the compiled part (``play_batch``, ``play_traced``) has no
  version in this process and none in numba's cache index for its current
  source (:func:`is_cold`; an index that :mod:`balance.kernelcache` flushed is
  empty, so a changed file reads cold too).  Reading the index is one small
  file: a warm start costs nothing measurable and says nothing;
- a cold start says so on stderr, never on stdout (tests and scripts parse it):
  a spinner on a terminal, one plain line when stderr is piped or a progress
  bar owns the terminal (rich then prints the line above the bar);
- the seconds a cold compile took are kept in ``balance-compile-seconds.json``
  beside the game's cache, so the next cold start (after a change to a game's
  files) gives a measured estimate rather than a guess.

``balance warmup`` (:mod:`balance.warmup`) compiles ahead what the commands need.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

RECORD = "balance-compile-seconds.json"
GUESS = "about a minute"  # before any compile was measured here (30-80 s a game, docs/speed-history.md)

_lock = threading.RLock()  # two threads reaching one cold kernel: one notice, one compile


def cache_entries(dispatcher: Any) -> int | None:
    """How many compiled versions of ``dispatcher`` numba's disk cache holds for
    its current source; None when it has no disk cache (a plain Python function
    under ``NUMBA_DISABLE_JIT=1``, ``cache=False``) or the index is unreadable.

    Numba's own reader: an index written by another numba version, or for an
    older source of the function (its stamp is the source file's hash), reads
    empty, exactly as numba itself would read it before compiling again."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is None:
        return None
    try:
        return len(cache_file._load_index())
    except Exception:  # a damaged index: numba recompiles, but we cannot tell beforehand
        return None


def cached(dispatcher: Any) -> bool:
    """Whether ``dispatcher`` keeps its machine code on disk (``cache=True``)."""
    return getattr(getattr(dispatcher, "_cache", None), "_cache_file", None) is not None


def is_cold(dispatcher: Any) -> bool:
    """Whether calling ``dispatcher`` now compiles it: nothing in this process and
    nothing in its disk cache (a dispatcher without one, ``cache=False``: nothing
    in this process)."""
    overloads = getattr(dispatcher, "overloads", None)
    if overloads is None or len(overloads) > 0:  # plain Python, or compiled in this process already
        return False
    if not cached(dispatcher):
        return True
    return cache_entries(dispatcher) == 0


def cache_folder(dispatcher: Any) -> Path | None:
    """The folder of ``dispatcher``'s numba cache (the game's ``__pycache__``, or
    under NUMBA_CACHE_DIR), where the measured seconds are kept."""
    path = getattr(getattr(dispatcher, "_cache", None), "_cache_path", None)
    return None if path is None else Path(path)


def recorded_seconds(folder: Path | None, key: str) -> float | None:
    """The last measured cold compile of ``key`` (``GAME:part``) kept in ``folder``."""
    if folder is None:
        return None
    try:
        value = json.loads((folder / RECORD).read_text(encoding="utf-8")).get(key)
    except (OSError, ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


def record_seconds(folder: Path | None, key: str, seconds: float) -> None:
    """Keep ``seconds`` as the cold compile of ``key``; silent on a read-only cache."""
    if folder is None:
        return
    path = folder / RECORD
    try:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                data = {}
        except (OSError, ValueError):
            data = {}
        data[key] = round(float(seconds), 1)
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)  # atomic: another process may be reading it
    except OSError:
        pass


def estimate(seconds: float | None, guess: str = GUESS) -> str:
    """``~50 s`` from a measurement, else ``guess``."""
    if seconds is None:
        return guess
    return f"~{seconds:.0f} s" if seconds < 90 else f"~{seconds / 60:.1f} min"


def message(what: str, seconds: float | None, once: bool = True, guess: str = GUESS) -> str:
    """The one line a cold start shows: ``compiling the GAME kernel, once: ~50 s``
    (``once``: kept in the cache; else compiled again by every process)."""
    if not once:
        return f"compiling {what} (not cached: compiled anew in every process): {estimate(seconds, guess)}"
    return f"compiling {what}, once: {estimate(seconds, guess)}"


def compile_for(dispatcher: Any, args: tuple[Any, ...]) -> None:
    """Compile ``dispatcher`` for the types of ``args`` (or load it from the
    cache), as its first call with them would, without calling it."""
    if getattr(dispatcher, "overloads", None) is None:  # plain Python (NUMBA_DISABLE_JIT)
        return
    dispatcher.compile(tuple(dispatcher.typeof_pyval(a) for a in args))


@contextmanager
def compiling(
    what: str, dispatcher: Any, key: str, folder: Path | None = None, guess: str = GUESS
) -> Iterator[bool]:
    """Around the first call of ``dispatcher``: when it is cold (:func:`is_cold`),
    show on stderr that ``what`` compiles and measure how long it takes (kept as
    ``key`` in ``folder``, by default the dispatcher's cache folder; ``guess``
    until then); yields whether it was cold.  Warm, it does nothing at all."""
    if not is_cold(dispatcher):
        yield False
        return
    with _lock:
        if not is_cold(dispatcher):  # another thread compiled it meanwhile
            yield False
            return
        folder = folder if folder is not None else cache_folder(dispatcher)
        start = time.perf_counter()
        with notice(message(what, recorded_seconds(folder, key), cached(dispatcher), guess)):
            yield True
        if not is_cold(dispatcher):
            record_seconds(folder, key, time.perf_counter() - start)


@contextmanager
def notice(text: str) -> Iterator[None]:
    """``text`` on stderr while the body runs: a spinner on a terminal, else one
    line (piped, or a rich progress bar on the terminal: it redirects stderr
    and prints the line above itself)."""
    err = sys.stderr
    live = type(err).__name__ == "FileProxy"  # rich.file_proxy: a live display owns the terminal
    try:
        tty = bool(err.isatty()) and not live
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        print(text, file=err, flush=True)
        yield
        return
    from rich.console import Console

    with Console(stderr=True, highlight=False).status(text, spinner="dots"):
        yield
