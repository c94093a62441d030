"""Shared fixtures: the toy game registered for toolkit tests.

The toy game (tests/toygame/) has no entry point; it is registered when pytest
starts, so that every test parametrised over ``game_names()`` (the contract
test, the golden traces) covers it like any installed game.
"""

from __future__ import annotations

import pytest


def register_test_games() -> None:
    from balance.registry import game_names, register
    from tests.toygame import SPEC

    if SPEC.name not in game_names():
        register(SPEC)


def pytest_configure(config: pytest.Config) -> None:
    register_test_games()


@pytest.fixture(scope="session")
def dicerace():
    from balance.registry import get_game

    register_test_games()
    return get_game("dicerace")
