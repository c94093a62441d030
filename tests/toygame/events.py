"""Dice Race's trace, declared once: setup, one ``roll`` per turn, ``end``.

The kernel writes each row with its event's ``write``; :func:`decode` and the
docs' trace schema read the same declarations."""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from balance.state import Events

EVENTS = Events()
ROLLED = EVENTS.declare(
    "roll",
    ["seat", "roll", "steps", "pos"],
    "a seat rolled and moved",
    meanings={"roll": "the die", "steps": "steps taken (the first-turn bonus included)", "pos": "the pawn after"},
)
ENDED = EVENTS.declare(
    "end", ["winner", "reason:reason"], "the game is over", meanings={"winner": "the winning seat (-1: none)"}
)

write_roll = ROLLED.write  # the kernel's row writers: write_roll(st, seat, roll, steps, pos)
write_end = ENDED.write


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    return EVENTS.decode(ctx)
