"""docs/adding-a-game.md, followed: a new game passes the contract test without a
change to any shared test file.

The new game is a copy of Dice Race renamed ``newrace`` in a package of its own,
installed the way a third-party game is (a distribution on the path whose entry
point is in the ``balance.games`` group). In a copy of this test folder, the
steps of the page are run as a newcomer would (``python -m tests.golden newrace``,
then pytest), and the contract test collects and passes its checks for it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toygame"


def _new_game(site: Path) -> None:
    package = site / "newrace_game"
    shutil.copytree(TOY, package, ignore=shutil.ignore_patterns("__pycache__"))
    for path in package.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        text = text.replace("tests.toygame", "newrace_game").replace('name = "dicerace"', 'name = "newrace"')
        text = text.replace("class DiceRace", "class NewRace").replace("SPEC = DiceRace()", "SPEC = NewRace()")
        path.write_text(text, encoding="utf-8")
    info = site / "newrace_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: newrace-game\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[balance.games]\nnewrace = newrace_game:SPEC\n", encoding="utf-8")


@pytest.mark.slow
def test_a_game_added_by_the_guide_passes_the_contract_test(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    _new_game(site)
    work = tmp_path / "project"
    shutil.copytree(ROOT / "tests", work / "tests", ignore=shutil.ignore_patterns("__pycache__", "golden"))
    (work / "tests" / "golden").mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), str(work), str(ROOT)]),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache"),
    }
    env.pop("BALANCE_SCHEDULER", None)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, *args], cwd=work, env=env, capture_output=True, text=True, timeout=900
        )

    listed = run("-m", "balance", "games", "--json")
    assert listed.returncode == 0 and '"newrace"' in listed.stdout, listed.stderr
    golden = run("-m", "tests.golden", "newrace")
    assert golden.returncode == 0, golden.stderr
    assert len(list((work / "tests" / "golden" / "newrace").glob("*.jsonl"))) >= 8
    result = run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_contract.py", "-k", "newrace")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    passed = [line for line in result.stdout.splitlines() if " passed" in line]
    assert passed and int(passed[-1].split(" passed")[0].split()[-1]) >= 15, result.stdout[-2000:]
