"""User-written players loaded from a Python file (``--player-file my_bots.py``).

A player file decorates compiled functions with :func:`player`::

    from numba import njit
    from balance import player

    @player("GAME", "homebody", "never leaves the start's neighbourhood")
    @njit
    def homebody(kind, seat, subject, st):
        ...

The function has the one player signature (balance.game) and reads the state
through the game's ``state.py`` (see the game's ``players.py``).  The file is
run in a fresh namespace, once per process and file; nothing is installed.
The engine compiles the users' functions into the game's player switch
(:func:`balance.plugins.compile_dispatch`).
"""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any, Callable, Sequence

from balance.errors import UserError
from balance.game import GameSpec, Param, PlayerInfo

_COLLECTED: list[tuple[str, PlayerInfo]] = []
_LOADED: dict[tuple[str, str], tuple[PlayerInfo, ...]] = {}


def player(
    game: str,
    name: str,
    description: str,
    *,
    stochastic: bool = False,
    params: Sequence[Param] = (),
) -> Callable[[Any], Any]:
    """Register the decorated compiled function as a player of ``game``
    (``params``: its own parameters, read in the kernel with
    ``balance.state.player_param(st, seat, k)``)."""

    def register(func: Any) -> Any:
        if not hasattr(func, "py_func") and not _jit_disabled():
            raise TypeError(f"player {name!r}: decorate a numba @njit function (put @player above @njit)")
        info = PlayerInfo(name, description, func, builtin=False, stochastic=stochastic, params=tuple(params))
        _COLLECTED.append((game, info))
        return func

    return register


def _jit_disabled() -> bool:
    """Under NUMBA_DISABLE_JIT=1 (coverage runs, the examples' test) @njit returns the
    plain function, which then plays in Python."""
    import numba

    return bool(numba.config.DISABLE_JIT)


def load_player_file(path: str | Path, spec: GameSpec) -> tuple[PlayerInfo, ...]:
    """The players ``path`` defines for ``spec``; UserError if it defines none."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"player file {str(path)!r} does not exist")
    start = len(_COLLECTED)
    try:
        runpy.run_path(str(file), run_name=f"balance_players_{file.stem}")
    except UserError:
        raise
    except Exception as exc:  # the user's code failed: say where, in one line
        raise UserError(f"player file {str(path)!r} failed to load: {type(exc).__name__}: {exc}") from None
    found = [info for game, info in _COLLECTED[start:] if game == spec.name]
    del _COLLECTED[start:]
    if not found:
        raise UserError(
            f"player file {str(path)!r} defines no player for {spec.name} "
            f"(decorate a @njit function with @balance.player({spec.name!r}, NAME, DESCRIPTION))"
        )
    builtin = {p.name for p in spec.players}
    names = [p.name for p in found]
    for n in names:
        if n in builtin:
            raise UserError(f"player file {str(path)!r}: player {n!r} clashes with a built-in player of {spec.name}")
        if names.count(n) > 1:
            raise UserError(f"player file {str(path)!r}: player {n!r} is defined twice")
    return tuple(found)


def players_in_file(spec: GameSpec, path: str | None) -> tuple[PlayerInfo, ...]:
    """The players a file defines for ``spec``, loaded once per process (none
    without a file)."""
    if not path:
        return ()
    key = (spec.name, str(path))
    if key not in _LOADED:
        _LOADED[key] = load_player_file(path, spec)
    return _LOADED[key]
