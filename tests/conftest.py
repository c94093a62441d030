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
