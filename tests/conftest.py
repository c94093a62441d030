"""Shared fixtures: the toy game registered for toolkit tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def dicerace():
    from balance.registry import get_game, register

    from tests.toygame import SPEC

    try:
        register(SPEC)
    except ValueError:
        pass
    return get_game("dicerace")
