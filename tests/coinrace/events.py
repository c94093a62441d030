"""Coin Race's trace: setup, one ``flip`` per turn, ``end``."""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from tests.coinrace.state import EV_END, EV_FLIP


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [ctx.setup()]
    reasons = ctx.spec.end_reason_names
    for kind, turn, a, b, c, _, _, _ in ctx.rows.tolist():
        if kind == EV_FLIP:
            out.append({"type": "flip", "turn": turn, "seat": a, "heads": b, "points": c})
        elif kind == EV_END:
            out.append({"type": "end", "turn": turn, "winner": a, "reason": reasons[b]})
    return out
