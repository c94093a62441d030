"""A game that lives in its own installed package: found through its entry
point, it ships its own referee, hand-picked golden cases and golden traces,
and passes the whole contract test with no edit to a file of this repository.

What is measured: Dice Race (tests/toygame) copied into a package ``extdice``
outside the repository, installed as a distribution (a ``.dist-info`` with its
``balance.games`` entry point, on PYTHONPATH) with a self-contained referee;
``python -m tests.golden extdice`` writes its traces into the package, then
``pytest tests/test_contract.py -k extdice`` runs in a fresh process.  The
contract must have found the referee (its tests ran) and passed.  A broken copy
(a typing error in its kernel) names its own file and line in one line."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toygame"


def install(site: Path, name: str, broken: bool = False) -> Path:
    """Copy the toy game into ``site/<name>`` and install it there."""
    package = site / name
    package.mkdir(parents=True)
    for source in TOY.glob("*.py"):
        text = source.read_text().replace("tests.toygame", name)
        if source.name == "__init__.py":
            text = text.replace('name = "dicerace"', f'name = "{name}"').replace("tests/toygame/RULES.md", "RULES.md")
        if broken and source.name == "kernel.py":
            text = text.replace("    st[ROLL] = draw_below(st, np.int64(6)) + 1", '    st[ROLL] = draw_below(st, np.int64(6)) + "one"')
            assert '"one"' in text
        (package / source.name).write_text(text)
    shutil.copy(TOY / "RULES.md", package / "RULES.md")
    referee = (ROOT / "tests" / "dicerace" / "referee.py").read_text()
    referee = referee.replace(
        "from tests.referees import IllegalTrace",
        "class IllegalTrace(AssertionError):\n    def __init__(self, index, event, message):\n"
        "        super().__init__(f'event {index}: {message}')",
    )
    (package / "referee.py").write_text(referee)
    (package / "golden_cases.py").write_text(
        'CASES = {"long-race": {"players": ["cautious", "plain", "plain"], "params": {"target": 60}, "seed": 4, "game": 2}}\n'
    )
    info = site / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[balance.games]\n{name} = {name}:SPEC\n")
    return package


def _env(tmp_path: Path, site: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")
    return env


@pytest.mark.slow
def test_a_game_installed_from_its_own_package_passes_the_contract(tmp_path):
    site = tmp_path / "site"
    package = install(site, "extdice")
    env = _env(tmp_path, site)
    made = subprocess.run([sys.executable, "-m", "tests.golden", "extdice"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert made.returncode == 0, made.stderr[-3000:]
    golden = sorted(p.name for p in (package / "golden").glob("*.jsonl"))
    assert "long-race.jsonl" in golden and "default-seed0-game0.jsonl" in golden
    assert not (ROOT / "tests" / "golden" / "extdice").exists()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", "tests/test_contract.py",
         "tests/test_layout.py", "-k", "extdice"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200,
    )
    assert run.returncode == 0, run.stdout[-4000:]
    passed = int(re.search(r"(\d+) passed", run.stdout).group(1))
    assert passed >= 20 and " failed" not in run.stdout and "skipped" not in run.stdout, run.stdout[-2000:]


def test_a_typing_error_in_a_game_names_the_games_own_file_and_line(tmp_path):
    site = tmp_path / "site"
    package = install(site, "brokendice", broken=True)
    env = _env(tmp_path, site)
    res = subprocess.run([sys.executable, "-m", "balance", "run", "brokendice", "--games", "10", "--no-config"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert res.returncode != 0
    kernel = package / "kernel.py"
    line = next(i for i, text in enumerate(kernel.read_text().splitlines(), 1) if '"one"' in text)
    lines = res.stderr.strip().splitlines()
    assert lines[0].startswith("compiling the brokendice kernel, once"), res.stderr[-3000:]  # a cold cache says so
    error = lines[1]
    assert error.startswith("error: "), res.stderr[-3000:]
    assert f"{kernel}:{line}" in error and "brokendice" in error, res.stderr[-3000:]
    assert "Traceback" not in res.stderr
