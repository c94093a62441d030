"""The compiled switch that adds user players (balance.playerfile) to a game's own.

:class:`balance.game.GameSpec` calls :func:`compile_dispatch` when a run seats
a player from a ``--player-file``; the file itself is read by
:mod:`balance.playerfile`.
"""

from __future__ import annotations

from typing import Any, Sequence


def compile_dispatch(builtin: Any, first: int, funcs: Sequence[Any]) -> Any:
    """A compiled ``decide(player, kind, seat, subject, st)``: the built-in
    switch ``builtin`` for indices below ``first``, ``funcs[i](kind, seat,
    subject, st)`` for index ``first + i``.

    Built from source at run time, so it is compiled per process (not cached):
    only runs with user players pay that cost.
    """
    from numba import njit

    args = "kind, seat, subject, st"
    lines = [f"def decide(player, {args}):", f"    if player < {int(first)}:", f"        return builtin(player, {args})"]
    for i in range(len(funcs)):
        lines.append(f"    if player == {int(first) + i}:")
        lines.append(f"        return f{i}({args})")
    lines.append(f"    return f0({args})")
    namespace: dict[str, Any] = {"builtin": builtin, **{f"f{i}": f for i, f in enumerate(funcs)}}
    exec("\n".join(lines), namespace)  # noqa: S102 - source built from our own template
    return njit(namespace["decide"])
