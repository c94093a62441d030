"""Pig's trace: setup, one ``roll`` per roll, one ``hold`` per hold, ``end``."""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from tests.piggame.state import EV_END, EV_HOLD, EV_ROLL


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [ctx.setup()]
    reasons = ctx.spec.end_reason_names
    for kind, turn, a, b, c, d, _, _ in ctx.rows.tolist():
        if kind == EV_ROLL:
            out.append({"type": "roll", "turn": turn, "seat": a, "face": b, "turn_total": c, "score": d})
        elif kind == EV_HOLD:
            out.append({"type": "hold", "turn": turn, "seat": a, "banked": b, "score": c})
        elif kind == EV_END:
            out.append({"type": "end", "turn": turn, "winner": a, "reason": reasons[b],
                        "score": [int(x) for x in ctx.st[_score_slots(ctx)]]})
        else:  # pragma: no cover - the kernel writes no other kind
            raise RuntimeError(f"unknown trace row {kind}")
    return out


def _score_slots(ctx: TraceContext) -> slice:
    from balance.state import SCORE

    return slice(SCORE, SCORE + ctx.n_seats)
