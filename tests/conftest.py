"""Shared fixtures: the test games registered for toolkit tests.

The toy game (tests/toygame/, Dice Race) and Pig (tests/piggame/, a game with
an exact answer) have no entry point; they are registered when pytest starts,
so that every test parametrised over ``game_names()`` (the contract test, the
golden traces) covers them like any installed game.
"""

from __future__ import annotations

import pytest


def register_test_games() -> None:
    from balance.registry import game_names, register
    from tests.piggame import SPEC as PIG
    from tests.toygame import SPEC as DICERACE

    for spec in (DICERACE, PIG):
        if spec.name not in game_names():
            register(spec)


def pytest_configure(config: pytest.Config) -> None:
    register_test_games()


@pytest.fixture(scope="session")
def dicerace():
    from balance.registry import get_game

    register_test_games()
    return get_game("dicerace")


@pytest.fixture(scope="session")
def pig():
    from balance.registry import get_game

    register_test_games()
    return get_game("pig")


def state_sections(excinfo) -> list[tuple[str, str]]:
    """The state, by region name, of every hand-built position (``Position``)
    alive in the failing frames: a failing rules test shows what the state held."""
    from balance.game import Position

    seen: list[tuple[str, str]] = []
    for entry in reversed(excinfo.traceback):
        for name, value in entry.frame.f_locals.items():
            if isinstance(value, Position) and not any(name in title for title, _ in seen):
                seen.append((f"state of {name!r} ({value.spec.name}) by region", value.describe()))
        if seen:
            break
    return seen


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed and call.excinfo is not None:
        try:
            report.sections.extend(state_sections(call.excinfo))
        except Exception:  # noqa: BLE001 - a report must never fail on its extra section
            pass
