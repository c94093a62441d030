"""balance.kernelcache: an edit to a file a cached kernel depends on, but that
Numba does not watch, must not leave stale machine code behind.

A throwaway package: ``rules.py`` holds a cached ``@njit`` function that freezes
in a constant from ``consts.py``.  Each step runs in a fresh process, as a
developer's next command would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

RULES = """
from numba import njit
from consts import BONUS

@njit(cache=True)
def score(x):
    return x + BONUS
"""

RUN = """
import sys
import rules
if sys.argv[1] == "guarded":
    from pathlib import Path
    import consts
    from balance.kernelcache import cached_functions, drop_stale_cache
    flushed = drop_stale_cache("toy", cached_functions([rules]), [Path(rules.__file__), Path(consts.__file__)])
else:
    flushed = None
print(rules.score(1), flushed)
"""


def _run(folder: Path, mode: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}
    env.pop("NUMBA_CACHE_DIR", None)  # the cache goes beside rules.py, in tmp_path
    env.pop("NUMBA_DISABLE_JIT", None)
    proc = subprocess.run(
        [sys.executable, "-c", RUN, mode],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.mark.parametrize("mode", ["unguarded", "guarded"])
def test_an_edit_to_an_unwatched_file_recompiles_only_with_the_guard(
    tmp_path: Path, mode: str
) -> None:
    (tmp_path / "rules.py").write_text(RULES)
    (tmp_path / "consts.py").write_text("BONUS = 1\n")
    first = _run(tmp_path, mode)
    assert first.split()[0] == "2"
    (tmp_path / "consts.py").write_text("BONUS = 100\n")
    after_edit = _run(tmp_path, mode)
    if mode == "unguarded":
        # What the guard is for: Numba alone serves the stale machine code.
        assert after_edit == "2 None"
    else:
        assert first == "2 True"  # no digest yet: flushed once
        assert after_edit == "101 True"
        assert _run(tmp_path, mode) == "101 False"  # unchanged since: the cache is used


def test_every_compiled_copy_of_the_engine_is_flushed_with_its_game(monkeypatch):
    """Each engine function compiled for a game inlines the game's rules; all of
    them (the game-feel drivers too) must be keyed on the game's files, or an
    edit to the rules is served stale by the copies left out."""
    from balance import engine
    from tests.toygame import kernel as toy

    seen: list[str] = []
    monkeypatch.setattr(engine, "_drop_stale_cache", lambda module, compiled: seen.extend(f.py_func.__name__ for f in compiled))
    engine.compile_kernel(toy.__name__, **{k: v for k, v in toy.KERNEL.supplied.items() if k != "standing"},
                          n_heuristics=toy.KERNEL.n_heuristics)
    assert {t.__name__ for t in engine._TEMPLATE} <= set(seen)
