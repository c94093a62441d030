"""The toolkit names no game, and its layering holds (import-linter).

``balance/`` finds games through the registry only: no file in it names a
registered game or its title (the default game comes from ``balance.toml`` or
the registry's first entry).  The toolkit's import contracts (``pyproject.toml``:
no game imported, no cycle, the command line on top) are checked here; the
game contracts are checked by ``make test`` (``lint-imports``) over every game.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from balance.registry import game_names, get_game

ROOT = Path(__file__).resolve().parent.parent
BALANCE = ROOT / "balance"
TOOLKIT_CONTRACTS = ("balance-no-games", "balance-acyclic", "balance-cli-on-top")


def registered_words() -> dict[str, re.Pattern[str]]:
    """Every registered game's name and title, as case-insensitive whole words."""
    words: dict[str, re.Pattern[str]] = {}
    for name in game_names():
        texts = [name]
        try:
            texts.append(get_game(name).title)
        except Exception:  # a game that does not load still has a name to look for  # noqa: BLE001
            pass
        for text in filter(None, texts):
            words[text] = re.compile(rf"(?<![\w]){re.escape(text)}(?![\w])", re.IGNORECASE)
    return words


def hits(files: list[Path]) -> list[str]:
    words = registered_words()
    found = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            for word, pattern in words.items():
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {word!r}: {line.strip()}")
    return found


def toolkit_files() -> list[Path]:
    return sorted(p for p in BALANCE.rglob("*") if p.suffix in (".py", ".toml", ".md") and "__pycache__" not in p.parts)


def test_the_registry_has_games_to_look_for(dicerace):
    words = registered_words()
    assert "dicerace" in words and "Dice Race (test game)" in words


def test_no_toolkit_file_names_a_game(dicerace):
    found = hits(toolkit_files())
    assert not found, "balance/ names a game:\n" + "\n".join(found)


def test_toolkit_import_contracts():
    lint = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(lint).exists():
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    args = [lint, "--no-cache", "--no-logo"]
    for contract in TOOLKIT_CONTRACTS:
        args += ["--contract", contract]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(" KEPT") == len(TOOLKIT_CONTRACTS)
