"""Pig's trace, declared once: setup, one ``roll`` per roll, one ``hold`` per
hold, ``end``."""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from balance.state import Events, SCORE

EVENTS = Events()
ROLLED = EVENTS.declare(
    "roll",
    ["seat", "face", "turn_total", "score"],
    "the seat to move rolled",
    meanings={"turn_total": "the turn total after the roll (0 on a bust)", "score": "the seat's banked points"},
)
HELD = EVENTS.declare(
    "hold", ["seat", "banked", "score"], "the seat banked its turn total", meanings={"score": "banked points after"}
)


def _end(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    return {"type": "end", "turn": turn, "winner": values[0], "reason": ctx.spec.end_reason_names[values[1]],
            "score": [int(x) for x in SCORE.values(ctx.st)[: ctx.n_seats]]}


ENDED = EVENTS.declare(
    "end", ["winner", "reason:reason"], "the game is over; score: each seat's banked points (the final state)",
    decode=_end,
)
write_roll = ROLLED.write  # the kernel's row writers
write_hold = HELD.write
write_end = ENDED.write


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    return EVENTS.decode(ctx)
