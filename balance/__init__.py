"""balance: Monte Carlo balance analysis for board games.

Play millions of games with heuristic players on compiled kernels and read who
wins, how and how long, with confidence intervals.  Heavy modules (numba,
numpy, polars) load lazily, on first use, so the command line starts at once.

The Python API is :mod:`balance.api` (``balance.api.sweep(...)``,
``balance.api.check(...)``, ...).  The names below are offered here too;
``balance.sweep``, ``balance.report`` and ``balance.check`` are the modules
of those commands (each module does one thing; none is also a function).
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "run": ("balance.api", "run"),
    "trace": ("balance.api", "trace"),
    "load": ("balance.store", "load"),
    "baseline": ("balance.check", "baseline"),
    "init": ("balance.config", "init"),
    "tournament": ("balance.tournaments", "tournament"),
    "RunResult": ("balance.play", "RunResult"),
    "RunSpec": ("balance.runspec", "RunSpec"),
    "UserError": ("balance.errors", "UserError"),
    "player": ("balance.playerfile", "player"),
    "get_game": ("balance.registry", "get_game"),
    "game_names": ("balance.registry", "game_names"),
    "GameSpec": ("balance.game", "GameSpec"),
    "Param": ("balance.game", "Param"),
    "PlayerInfo": ("balance.game", "PlayerInfo"),
}
# Modules reached as attributes (``balance.sweep.plan``) even before anything imported them.
_MODULES = ("api", "sweep", "report", "check", "store", "config", "format", "stats")

__all__ = ["__version__", *_LAZY, *_MODULES]


def __getattr__(name: str) -> Any:
    import importlib

    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    if name in _MODULES:
        return importlib.import_module(f"balance.{name}")
    raise AttributeError(f"module 'balance' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
