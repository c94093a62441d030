"""Keeping Numba's on-disk cache honest across files.

Numba invalidates a cached function only when *its own* source file changes.
A game's cached kernel, though, compiles in code and constants from other
files: the rules inline the players, both inline balance/rng.py and
balance/parallel.py, parameters are frozen in as constants.  An edit to one of
those would leave stale machine code in the cache.

:func:`drop_stale_cache` keys a game's cache on a digest of every file its
cached functions depend on: when the digest changes, every cached function of
the game's modules is flushed and recompiles on first use.  Costs a few file
reads per import; an installed package never changes, so only developers pay
the recompile.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any


def cached_functions(modules: Iterable[ModuleType]) -> list[Any]:
    """The ``@njit(cache=True)`` dispatchers defined in ``modules``."""
    found = []
    for module in modules:
        for value in vars(module).values():
            py = getattr(value, "py_func", None)
            cache = getattr(value, "_cache", None)
            if (
                py is not None
                and py.__module__ == module.__name__
                and getattr(cache, "_cache_path", None) is not None
                and value not in found
            ):
                found.append(value)
    return found


def sources_digest(files: Iterable[Path]) -> str:
    """SHA-256 over the files' names and contents, in sorted order."""
    digest = hashlib.sha256()
    for path in sorted({Path(f).resolve() for f in files}):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def drop_stale_cache(tag: str, functions: Sequence[Any], files: Iterable[Path]) -> bool:
    """Flush the cached ``functions`` unless ``files`` are unchanged since the
    last call; True when it flushed.

    The digest is kept as ``TAG-sources.sha256`` beside the cache.  A read-only
    cache, or ``NUMBA_DISABLE_JIT=1`` (nothing cached), leaves everything as is.
    """
    functions = [f for f in functions if getattr(getattr(f, "_cache", None), "_cache_path", None) is not None]
    if not functions:
        return False
    try:
        digest = sources_digest(files)
        stamp = Path(functions[0]._cache._cache_path) / f"{tag}-sources.sha256"
        if stamp.is_file() and stamp.read_text() == digest:
            return False
        for function in functions:
            function._cache.flush()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only install: its sources never change either
        return False
    return True
