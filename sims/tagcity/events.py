"""Tag City's trace (RULES.md, "Trace"): the kernel's rows decoded into the
specification's events, field for field.  Cells, shapes and tile names come
from the board's placement table; the ring, the side-B shuffle and the end's
per-seat figures from the final state."""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from sims.tagcity.board import board_json, placements
from sims.tagcity.state import (
    ACT_DRONE,
    ACT_PAINT,
    B_POOL_B,
    B_RING,
    DRONE_PTS,
    DRONES,
    EV_ACTION,
    EV_ASSIGN,
    EV_COMPLETE,
    EV_END,
    EV_ROLL,
    POOL_ORDER,
    RING,
    SOCIAL_PTS,
    SOCIALS,
    TARGET_PTS,
)

KINDS = ("paint", "drone", "social")
CONDITIONS = ("all_targets", "social", "drones")


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    board = ctx.board
    st = ctx.st
    n = ctx.n_seats
    names = board.shape_names
    place = placements(board, ctx.params["orientations"])
    ring = [names[int(x)] for x in RING.values(st)[: int(st[B_RING])]]
    setup = ctx.setup(turn=0, board=board_json(board), ring=ring, first_player=0, dice=n + 1)
    if ctx.params["hq_side"] == "B":
        setup["pool_order"] = [names[int(x)] for x in POOL_ORDER.values(st)[: int(st[B_POOL_B])]]
    out: list[dict[str, Any]] = [setup]
    reasons = ctx.spec.end_reason_names
    cols = board.cols
    target_pts, drone_pts, social_pts = (r.values(st)[:n] for r in (TARGET_PTS, DRONE_PTS, SOCIAL_PTS))
    for kind, turn, a, b, c, d, e, f in ctx.rows.tolist():
        if kind == EV_ROLL:
            out.append({"type": "roll", "turn": turn, "leader": a, "dice": [b, c, d, e, f][: n + 1]})
        elif kind == EV_ASSIGN:
            slots = [b, c, d, e, f][: n + 1]
            out.append({"type": "assign", "turn": turn, "seat": a, "slots": slots, "shapes": [ring[s] for s in slots]})
        elif kind == EV_ACTION:
            seat, die, shared, act = a & 15, (a >> 4) & 15, (a >> 8) & 1, (a >> 12) & 15
            ev: dict[str, Any] = {
                "type": "action",
                "turn": turn,
                "seat": seat,
                "die": die,
                "shared": bool(shared),
                "kind": KINDS[act],
            }
            if act in (ACT_PAINT, ACT_DRONE):
                ev["shape"] = names[place.shape[b]]
                ev["cells"] = [[cell // cols, cell % cols] for cell in place.cells[b]]
                if act == ACT_DRONE:
                    ev["box"] = c
            else:
                ev["circle"] = b if b >= 0 else None
            ev["points"] = d
            ev["score"] = e
            out.append(ev)
        elif kind == EV_COMPLETE:
            target, index = board.target(b)
            out.append(
                {
                    "type": "complete",
                    "turn": turn,
                    "seat": a,
                    "target": target,
                    "index": index,
                    "high": bool(c),
                    "points": d,
                    "score": e,
                }
            )
        elif kind == EV_END:
            out.append(
                {
                    "type": "end",
                    "turn": turn,
                    "winner": a,
                    "reason": reasons[b],
                    "conditions": [CONDITIONS[k] for k in range(3) if (c >> k) & 1],
                    "score": [int(x) for x in target_pts + drone_pts + social_pts],
                    "target_points": [int(x) for x in target_pts],
                    "drone_points": [int(x) for x in drone_pts],
                    "social_points": [int(x) for x in social_pts],
                    "drones": [int(x) for x in DRONES.values(st)[:n]],
                    "socials": [int(x) for x in SOCIALS.values(st)[:n]],
                }
            )
        else:  # pragma: no cover - the kernel writes no other kind
            raise RuntimeError(f"unknown trace row {kind}")
    return out
