"""Carnage's trace: the kernel's rows as the event dicts of issue 2's schema.

``setup`` (with the board and the start money), two setup ``spawn`` events,
then per turn ``turn``, the actions (``buy``, ``drop``, ``move``, ``take``,
``spawn``), ``spawn`` (turn end), ``upkeep``, ``lose``, and ``end`` last with
the final money, deliveries and cars.  Commuter lists are sorted token ids.
"""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from sims.carnage.state import (
    CARDS,
    DELIVERED,
    EV_BUY,
    EV_DROP,
    EV_END,
    EV_LOSE,
    EV_MOVE,
    EV_SPAWN,
    EV_TAKE,
    EV_TURN,
    EV_UPKEEP,
    MONEY,
    N_CARS,
)

SPAWN_CAUSES = ("setup", "drop", "turn_end")
LOSE_REASONS = ("stuck", "bankrupt")


def _ids(mask: int) -> list[int]:
    return [k for k in range(64) if mask >> k & 1]


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    """The events of one traced game (setup first, end last)."""
    st = ctx.st
    board = ctx.board
    n_seats = ctx.n_seats
    reasons = ctx.spec.end_reason_names
    out: list[dict[str, Any]] = [
        ctx.setup(
            board={
                "nodes": list(board.names),
                "adjacency": [list(a) for a in board.adjacency],
                "hq": [int(s) for s in board.hq_streets[:n_seats]],
                "spawn_cards": [list(c) for c in board.spawn_cards],
            },
            money=[int(ctx.params["start_money"])] * n_seats,
        )
    ]
    for row in ctx.rows.tolist():
        kind, turn, a, b, c, d, e, _ = row
        if kind == EV_SPAWN:
            ev: dict[str, Any] = {
                "type": "spawn",
                "turn": turn,
                "cause": SPAWN_CAUSES[a],
                "roll": None if b < 0 else b,
                "spawned": bool(c),
            }
            if c:
                ev.update(
                    card=d,
                    commuter=e,
                    origin=int(st[CARDS + 2 * d]),
                    dest=int(st[CARDS + 2 * d + 1]),
                )
        elif kind == EV_TURN:
            ev = {"type": "turn", "turn": turn, "seat": a}
        elif kind == EV_BUY:
            ev = {"type": "buy", "turn": turn, "seat": a, "car": b, "street": c, "cost": d}
        elif kind == EV_DROP:
            ev = {"type": "drop", "turn": turn, "seat": a, "car": b, "street": c, "commuters": _ids(d)}
        elif kind == EV_MOVE:
            ev = {"type": "move", "turn": turn, "seat": a, "car": b, "from": c, "to": d}
        elif kind == EV_TAKE:
            ev = {
                "type": "take",
                "turn": turn,
                "seat": a,
                "car": b,
                "street": c,
                "commuters": _ids(d),
                "fare": e,
            }
        elif kind == EV_UPKEEP:
            ev = {"type": "upkeep", "turn": turn, "seat": a, "paid": b, "money": c}
        elif kind == EV_LOSE:
            ev = {"type": "lose", "turn": turn, "seat": a, "reason": LOSE_REASONS[b]}
        elif kind == EV_END:
            ev = {
                "type": "end",
                "turn": turn,
                "winner": a,
                "reason": reasons[b],
                "money": st[MONEY : MONEY + n_seats].tolist(),
                "delivered": st[DELIVERED : DELIVERED + n_seats].tolist(),
                "cars": st[N_CARS : N_CARS + n_seats].tolist(),
            }
        else:  # pragma: no cover - the kernel writes no other kind
            raise RuntimeError(f"unknown trace row {row}")
        out.append(ev)
    return out
