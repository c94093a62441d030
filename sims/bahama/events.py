"""Bahama Taxi's trace: issue 5's event dicts from the trace rows.

``setup`` (with the board, the shuffled deck and the start fields), then
``citizen`` x citizens_waiting, then per turn ``turn``, ``move``, ``drop``?,
``pickup`` (then ``citizen``?, the replacement) or ``decline`` (pickup =
optional: the mover left the citizen waiting)?, and ``end`` last.
"""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from sims.bahama.state import (
    DECK,
    EV_CITIZEN,
    EV_DECLINE,
    EV_DROP,
    EV_END,
    EV_MOVE,
    EV_PICKUP,
    EV_TURN,
    N_FIELDS,
)


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    n_seats = ctx.n_seats
    deck = [int(x) for x in ctx.st[DECK : DECK + N_FIELDS]]
    out: list[dict[str, Any]] = [ctx.setup(board=ctx.board.to_json(), deck=deck, start=deck[:n_seats])]
    reasons = ctx.spec.end_reason_names
    for kind, turn, *v in ctx.rows.tolist():
        if kind == EV_CITIZEN:  # -, citizen, origin, destination
            out.append(
                {
                    "type": "citizen",
                    "turn": turn,
                    "citizen": v[1],
                    "origin": v[2],
                    "dest": v[3],
                }
            )
        elif kind == EV_TURN:  # seat
            out.append({"type": "turn", "turn": turn, "seat": v[0]})
        elif kind == EV_MOVE:  # seat, from, to
            out.append({"type": "move", "turn": turn, "seat": v[0], "from": v[1], "to": v[2]})
        elif kind == EV_DROP:  # seat, field, citizen, fare
            out.append(
                {
                    "type": "drop",
                    "turn": turn,
                    "seat": v[0],
                    "field": v[1],
                    "citizens": [v[2]],
                    "fare": v[3],
                }
            )
        elif kind == EV_PICKUP:  # seat, field, citizen
            out.append(
                {
                    "type": "pickup",
                    "turn": turn,
                    "seat": v[0],
                    "field": v[1],
                    "citizens": [v[2]],
                }
            )
        elif kind == EV_DECLINE:  # seat, field, citizen
            out.append(
                {
                    "type": "decline",
                    "turn": turn,
                    "seat": v[0],
                    "field": v[1],
                    "citizens": [v[2]],
                }
            )
        elif kind == EV_END:  # reason, winner, income of seats 0..3
            out.append(
                {
                    "type": "end",
                    "turn": turn,
                    "reason": reasons[v[0]],
                    "income": v[2 : 2 + n_seats],
                    "winner": v[1],
                }
            )
        else:  # pragma: no cover - the kernel writes only the kinds above
            raise RuntimeError(f"unknown trace row kind {kind}")
    return out
