"""Cold starts: ``balance warmup`` and the notice a cold cache shows (balance.coldstart).

The fast tests fake what a cold cache looks like (a dispatcher with nothing in
this process and an empty index) or use a one-line function compiled in a temp
folder; the test that compiles a game cold is marked slow.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from balance import coldstart
from balance.cli import main
from balance.warmup import Warmup, own_seconds

ROOT = Path(__file__).resolve().parents[1]


def call(capsys, *argv):
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


# --------------------------------------------------------------------------- the command
def test_an_unknown_game_is_one_line_exit_2_and_nothing_compiles(capsys, monkeypatch):
    warmed = []
    monkeypatch.setattr("balance.api.warmup", lambda name: warmed.append(name))
    code, out, err = call(capsys, "warmup", "dicerace", "nosuchgame")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: unknown game 'nosuchgame'; allowed: ")
    assert "dicerace" in lines[0] and "Traceback" not in err
    assert warmed == []  # every name is checked before anything compiles


def test_warmup_prints_a_line_per_game(capsys, monkeypatch):
    answers = {
        "dicerace": Warmup("dicerace", 41.96, ("play_batch", "play_traced"), 37,
                           (("drivers.play_batch", 20.5), ("kernel.advance", 8.25), ("players.heuristics", 3.0))),
        "pig": Warmup("pig", 0.84, (), 0),
    }
    monkeypatch.setattr("balance.api.warmup", lambda name: answers[name])
    code, out, err = call(capsys, "warmup", "dicerace", "pig")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "dicerace: compiled in 42.0 s, 37 functions: the batch (run, sweep, compare, check, tournament, train, tune, "
        "sensitivity; mc included) and the traced game (trace); the slowest: drivers.play_batch 20.5 s, "
        "kernel.advance 8.2 s, players.heuristics 3.0 s",
        "pig: already compiled (0.8 s to load the cache)",
    ]
    code, out, _ = call(capsys, "warmup", "pig", "--json")
    assert code == 0 and json.loads(out) == [
        {"game": "pig", "seconds": 0.84, "compiled": [], "already_compiled": True, "functions": 0, "own_seconds": {}}
    ]


def test_no_game_given_warms_every_installed_game(capsys, monkeypatch):
    from balance.registry import game_names

    warmed = []
    monkeypatch.setattr("balance.api.warmup", lambda name: warmed.append(name) or Warmup(name, 0.5, (), 0))
    code, out, _ = call(capsys, "warmup")
    assert code == 0 and warmed == game_names() and len(out.splitlines()) == len(warmed)


def test_warmup_of_a_game_really_loads_it(dicerace, capsys):
    """The real thing on the toy game: compiled already by then (the first call of
    this process compiles it or loads it), so it says so."""
    from balance.api import warmup

    warmup("dicerace")
    capsys.readouterr()  # a cold cache said so
    again = warmup("dicerace")
    assert again.functions == 0 and again.compiled == ()
    assert again.line().startswith("dicerace: already compiled (")
    assert capsys.readouterr().err == ""


def test_own_seconds_leave_the_callees_time_to_the_callees():
    dispatchers = {}

    def ev(name, start, cached=True):
        cache = SimpleNamespace(_cache_file=object()) if cached else SimpleNamespace()
        dispatcher = dispatchers.setdefault(name, SimpleNamespace(py_func=_named(name), _cache=cache))
        return SimpleNamespace(is_start=start, data={"dispatcher": dispatcher})

    buffer = [(0.0, ev("batch", True)), (1.0, ev("advance", True)), (4.0, ev("advance", False)),
              (4.0, ev("helper", True, cached=False)), (4.5, ev("helper", False, cached=False)),
              (6.0, ev("batch", False)), (6.0, ev("trace", True)), (6.5, ev("trace", False))]
    # the helper without a disk cache compiles in every process: its time is its own, and not counted
    assert own_seconds(buffer) == {"kernel.advance": (1, 3.0), "kernel.batch": (1, 2.5), "kernel.trace": (1, 0.5)}


def _named(name):
    def f():
        pass

    f.__module__, f.__qualname__ = "somegame.kernel", name
    return f


# --------------------------------------------------------------------------- telling a cold cache
@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """A module with one cached numba function, its cache in tmp_path/__pycache__."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", "")
    if config.DISABLE_JIT:
        pytest.skip("NUMBA_DISABLE_JIT=1: nothing is compiled or cached")
    path = tmp_path / "tinykernel.py"
    path.write_text("from numba import njit\n\n\n@njit(cache=True)\ndef add_one(x):\n    return x + 1\n")
    return path


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_cache_reads_cold_until_compiled_and_warm_in_the_next_process(tiny):
    from numba import njit

    first = _load(tiny, "tinykernel").add_one
    assert coldstart.cache_folder(first) == tiny.parent / "__pycache__"
    assert coldstart.is_cold(first) and coldstart.cache_entries(first) == 0
    assert first(1) == 2
    assert not coldstart.is_cold(first)  # compiled in this process
    assert list((tiny.parent / "__pycache__").glob("tinykernel.add_one-*.nbi"))
    fresh = _load(tiny, "tinykernel_again").add_one  # what the next process sees: the index on disk
    assert fresh.overloads == {} and coldstart.cache_entries(fresh) == 1 and not coldstart.is_cold(fresh)
    fresh._cache.flush()  # what balance.kernelcache does when a game's file changes
    assert coldstart.is_cold(_load(tiny, "tinykernel_flushed").add_one)
    tiny.write_text(tiny.read_text() + "\n# edited\n")  # another source: numba's stamp no longer matches
    first(2)
    assert coldstart.is_cold(_load(tiny, "tinykernel_edited").add_one)
    uncached = njit(cache=False)(first.py_func)
    assert coldstart.is_cold(uncached) and not coldstart.cached(uncached)
    assert not coldstart.is_cold(first.py_func)  # plain Python (NUMBA_DISABLE_JIT): nothing compiles


def test_compile_for_compiles_without_calling(tiny):
    import numpy as np

    add_one = _load(tiny, "tinykernel_ahead").add_one
    coldstart.compile_for(add_one, (np.int64(3),))
    assert len(add_one.overloads) == 1 and not coldstart.is_cold(add_one)


class FakeDispatcher:
    """What coldstart reads of a numba dispatcher: its overloads and its cache index."""

    def __init__(self, folder: Path, entries: int) -> None:
        self.overloads: dict = {}
        self._cache = SimpleNamespace(
            _cache_path=str(folder), _cache_file=SimpleNamespace(_load_index=lambda: dict.fromkeys(range(entries)))
        )

    def compile(self) -> None:
        self.overloads[("int64",)] = object()


def test_the_notice_shows_on_stderr_only_when_cold(tmp_path, capsys):
    cold, warm = FakeDispatcher(tmp_path, 0), FakeDispatcher(tmp_path, 2)
    with coldstart.compiling("the somegame kernel", warm, "somegame:play_batch") as was_cold:
        warm.compile()
    assert was_cold is False and capsys.readouterr() == ("", "")
    with coldstart.compiling("the somegame kernel", cold, "somegame:play_batch") as was_cold:
        cold.compile()
    out, err = capsys.readouterr()
    assert was_cold is True and out == ""
    assert err == "compiling the somegame kernel, once: about a minute\n"
    kept = json.loads((tmp_path / coldstart.RECORD).read_text())
    assert set(kept) == {"somegame:play_batch"} and kept["somegame:play_batch"] >= 0
    (tmp_path / coldstart.RECORD).write_text(json.dumps({"somegame:play_batch": 52.4}))
    again = FakeDispatcher(tmp_path, 0)
    with coldstart.compiling("the somegame kernel", again, "somegame:play_batch"):
        again.compile()
    assert capsys.readouterr() == ("", "compiling the somegame kernel, once: ~52 s\n")
    with coldstart.compiling("the somegame kernel", again, "somegame:play_batch"):  # compiled in this process now
        pass
    assert capsys.readouterr() == ("", "")


def test_a_failed_compile_keeps_no_time(tmp_path, capsys):
    cold = FakeDispatcher(tmp_path, 0)
    with pytest.raises(RuntimeError), coldstart.compiling("the somegame kernel", cold, "somegame:play_batch"):
        raise RuntimeError("does not compile")
    assert "compiling the somegame kernel" in capsys.readouterr().err
    assert not (tmp_path / coldstart.RECORD).exists()


def test_estimates_and_the_uncached_wording():
    assert coldstart.estimate(None) == coldstart.GUESS
    assert coldstart.estimate(49.6) == "~50 s" and coldstart.estimate(150) == "~2.5 min"
    assert coldstart.message("the g kernel with your players", 20, once=False) == (
        "compiling the g kernel with your players (not cached: compiled anew in every process): ~20 s"
    )


def test_a_command_says_so_on_stderr_when_the_cache_is_cold(dicerace, capsys, monkeypatch):
    """A real run of the toy game, its kernel made to read cold: the notice on
    stderr, the JSON on stdout untouched; warm, not a word more."""
    from balance.api import warmup

    warmup("dicerace")
    capsys.readouterr()
    def figures(out):
        return {k: v for k, v in json.loads(out).items() if k not in ("games_per_second", "elapsed_s")}

    code, out, err = call(capsys, "run", "dicerace", "--games", "200", "--json", "--no-config")
    assert code == 0 and err == ""
    warm = figures(out)
    monkeypatch.setattr(coldstart, "is_cold", lambda dispatcher: True)
    code, out, err = call(capsys, "run", "dicerace", "--games", "200", "--json", "--no-config")
    assert code == 0 and figures(out) == warm
    assert err.startswith("compiling the dicerace kernel, once: ") and len(err.splitlines()) == 1
    code, out, err = call(capsys, "trace", "dicerace", "--seed", "3", "--no-config")
    assert code == 0 and err.startswith("compiling the dicerace kernel for traces, once: ")
    assert all(json.loads(line) for line in out.splitlines())


@pytest.mark.slow
def test_warmup_compiles_cold_once_and_then_says_nothing(tmp_path):
    """A fresh numba cache: the toy game really compiles cold, then every later
    process loads it silently."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    env.pop("NUMBA_DISABLE_JIT", None)
    register = "from tests.conftest import register_test_games; register_test_games(); from balance.cli import main; "

    def balance(*argv: str) -> subprocess.CompletedProcess:
        code = register + f"main({list(argv)!r})"
        return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=900)

    first = balance("warmup", "dicerace")
    assert first.returncode == 0, first.stderr[-3000:]
    assert first.stdout.startswith("dicerace: compiled in ") and "the batch (run, sweep" in first.stdout
    assert "compiling the dicerace kernel, once: about a minute" in first.stderr
    kept = list((tmp_path / "numba-cache").rglob(coldstart.RECORD))
    assert len(kept) == 1 and "dicerace:play_batch" in json.loads(kept[0].read_text())
    second = balance("warmup", "dicerace")
    assert second.returncode == 0 and second.stdout.startswith("dicerace: already compiled (")
    assert second.stderr == ""
    run = balance("run", "dicerace", "--games", "100", "--json", "--no-config")
    assert run.returncode == 0 and run.stderr == "" and json.loads(run.stdout)
