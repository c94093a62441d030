"""Coin Race's trace, declared once: setup, one ``flip`` per turn, ``end``."""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from balance.state import Events

EVENTS = Events()
FLIPPED = EVENTS.declare("flip", ["seat", "heads", "points"], "the seat flipped (heads 0/1; its points after)")
ENDED = EVENTS.declare("end", ["winner", "reason:reason"], "the game is over")
write_flip = FLIPPED.write
write_end = ENDED.write


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    return EVENTS.decode(ctx)
