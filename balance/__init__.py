"""balance: Monte Carlo balance analysis for board games.

Play millions of games with heuristic players on compiled kernels and read who
wins, how and how long, with confidence intervals.  Heavy modules (numba,
numpy, polars) load lazily, on first use, so the command line starts at once.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "run": ("balance.api", "run"),
    "trace": ("balance.api", "trace"),
    "sweep": ("balance.sweep", "sweep"),
    "load": ("balance.store", "load"),
    "report": ("balance.report", "report"),
    "baseline": ("balance.check", "baseline"),
    "check": ("balance.check", "check"),
    "init": ("balance.config", "init"),
    "RunResult": ("balance.api", "RunResult"),
    "UserError": ("balance.errors", "UserError"),
    "player": ("balance.plugins", "player"),
    "get_game": ("balance.registry", "get_game"),
    "game_names": ("balance.registry", "game_names"),
    "GameSpec": ("balance.game", "GameSpec"),
    "Param": ("balance.game", "Param"),
    "PlayerInfo": ("balance.game", "PlayerInfo"),
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'balance' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
