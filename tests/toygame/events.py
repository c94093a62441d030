"""Dice Race's trace: setup, one ``roll`` per turn, ``end``."""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from tests.toygame.state import EV_END, EV_ROLL


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [ctx.setup()]
    reasons = ctx.spec.end_reason_names
    for kind, turn, a, b, c, d, _, _ in ctx.rows.tolist():
        if kind == EV_ROLL:
            out.append({"type": "roll", "turn": turn, "seat": a, "roll": b, "steps": c, "pos": d})
        elif kind == EV_END:
            out.append({"type": "end", "turn": turn, "winner": a, "reason": reasons[b]})
        else:  # pragma: no cover - the kernel writes no other kind
            raise RuntimeError(f"unknown trace row {kind}")
    return out
