"""Fixtures shared by the Bahama Taxi tests."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def spec() -> Any:
    from sims.bahama import SPEC

    return SPEC


@pytest.fixture(scope="session")
def board(spec: Any) -> Any:
    return spec.load_board(None)


@pytest.fixture(scope="session")
def defaults(spec: Any) -> dict[str, Any]:
    return spec.resolve_params({})
