"""Tag City's trace (RULES.md, "Trace"), declared once: the setup, then one
``roll`` and one ``assign`` per round, an ``action`` per act, a ``complete``
per target completed, the ``end``.

The kernel writes each row with its event's writer (``write_action`` ...) or,
for a row of one value per die, fills it itself (``begin_roll``); the decoder
reads the same declarations.  Cells, shapes and tile names come from the
board's placement table; the ring, the side-B shuffle and the end's per-seat
figures from the final state."""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from balance.state import Events
from sims.tagcity.board import board_json, placements
from sims.tagcity.state import (
    ACT_DRONE,
    ACT_PAINT,
    B_POOL_B,
    B_RING,
    DRONE_PTS,
    DRONES,
    POOL_ORDER,
    RING,
    SOCIAL_PTS,
    SOCIALS,
    TARGET_PTS,
)

KINDS = ("paint", "drone", "social")
CONDITIONS = ("all_targets", "social", "drones")


def _ring(ctx: TraceContext) -> list[str]:
    """The ring's tiles this game (side B: drawn), by name."""
    names = ctx.board.shape_names
    return [names[int(x)] for x in RING.values(ctx.st)[: int(ctx.st[B_RING])]]


def _roll(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    return {"type": "roll", "turn": turn, "leader": values[0], "dice": values[1 : ctx.n_seats + 2]}


def _assign(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    slots = values[1 : ctx.n_seats + 2]
    ring = _ring(ctx)
    return {"type": "assign", "turn": turn, "seat": values[0], "slots": slots, "shapes": [ring[s] for s in slots]}


def _action(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    a, b, c, d, e = values[:5]
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
        place = placements(ctx.board, ctx.params["orientations"])
        cols = ctx.board.cols
        ev["shape"] = ctx.board.shape_names[place.shape[b]]
        ev["cells"] = [[cell // cols, cell % cols] for cell in place.cells[b]]
        if act == ACT_DRONE:
            ev["box"] = c
    else:
        ev["circle"] = b if b >= 0 else None
    ev["points"] = d
    ev["score"] = e
    return ev


def _complete(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    seat, t, high, points, score = values[:5]
    target, index = ctx.board.target(t)
    return {
        "type": "complete",
        "turn": turn,
        "seat": seat,
        "target": target,
        "index": index,
        "high": bool(high),
        "points": points,
        "score": score,
    }


def _end(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    winner, reason, held = values[:3]
    st = ctx.st
    n = ctx.n_seats
    target_pts, drone_pts, social_pts = (r.values(st)[:n] for r in (TARGET_PTS, DRONE_PTS, SOCIAL_PTS))
    return {
        "type": "end",
        "turn": turn,
        "winner": winner,
        "reason": ctx.spec.end_reason_names[reason],
        "conditions": [CONDITIONS[k] for k in range(3) if (held >> k) & 1],
        "score": [int(x) for x in target_pts + drone_pts + social_pts],
        "target_points": [int(x) for x in target_pts],
        "drone_points": [int(x) for x in drone_pts],
        "social_points": [int(x) for x in social_pts],
        "drones": [int(x) for x in DRONES.values(st)[:n]],
        "socials": [int(x) for x in SOCIALS.values(st)[:n]],
    }


EVENTS = Events()
ROLL = EVENTS.declare(
    "roll",
    ["leader", "dice", "-", "-", "-", "-"],
    "a round began: its leader rolled the N + 1 dice",
    decode=_roll,
    meanings={
        "leader": "the round's leader (the seat)",
        "dice": "the N + 1 dice (1..6), in roll order, from this slot on",
    },
)
ASSIGN = EVENTS.declare(
    "assign",
    ["seat", "slots", "-", "-", "-", "-"],
    "the leader put each die on one of the two ring slots beside its face (decoded with the slots' tiles, shapes)",
    decode=_assign,
    meanings={"seat": "the leader", "slots": "per die: the ring slot it sits on, from this slot on"},
)
ACTION = EVENTS.declare(
    "action",
    ["seat", "arg", "box", "points", "score"],
    "a seat took a die and painted its tile, used a drone or checked a social circle",
    decode=_action,
    meanings={
        "seat": "seat | die << 4 | shared << 8 | kind << 12 (kind: paint, drone, social; shared: the shared step)",
        "arg": "paint, drone: the placement (decoded as its shape and cells); social: the circle (-1: none)",
        "box": "drone: the remote box used (-1: none)",
        "points": "points the act scored (a drone's box, a social circle)",
        "score": "the seat's score after",
    },
)
COMPLETE = EVENTS.declare(
    "complete",
    ["seat", "target", "high:bool", "points", "score"],
    "a seat completed a target (decoded as the target's kind and index)",
    decode=_complete,
    meanings={
        "seat": "the seat",
        "target": "the target: rows, then columns, then districts",
        "high": "its high value (the first to complete it)",
        "points": "points scored",
        "score": "the seat's score after",
    },
)
END = EVENTS.declare(
    "end",
    ["winner", "reason:reason", "conditions"],
    "the game is over (decoded with each seat's points by source, drones and social circles)",
    decode=_end,
    meanings={
        "winner": "the winning seat (-1: none)",
        "reason": "why it ended",
        "conditions": "the end conditions that held: bit 0 all_targets, 1 social, 2 drones",
    },
)

# The kernel's row writers.
begin_roll = ROLL.begin  # at = begin_roll(st); st[event_value(at, 0)] = leader; dice from value 1 on
begin_assign = ASSIGN.begin  # the same: the leader, then each die's slot
write_action = ACTION.write  # write_action(st, packed, arg, box, points, score)
write_complete = COMPLETE.write  # write_complete(st, seat, target, high, points, score)
write_end = END.write  # write_end(st, winner, reason, conditions)


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    board = ctx.board
    st = ctx.st
    names = board.shape_names
    setup = ctx.setup(turn=0, board=board_json(board), ring=_ring(ctx), first_player=0, dice=ctx.n_seats + 1)
    if ctx.params["hq_side"] == "B":
        setup["pool_order"] = [names[int(x)] for x in POOL_ORDER.values(st)[: int(st[B_POOL_B])]]
    return EVENTS.decode(ctx, [setup])
