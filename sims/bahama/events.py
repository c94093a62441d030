"""Bahama Taxi's trace (issue 5's event dicts), each event declared once: its
name, the values of its row and what they mean.

``setup`` (with the board, the shuffled deck and the start fields), then
``citizen`` x citizens_waiting, then per turn ``turn``, ``move``, ``drop``?,
``pickup`` (then ``citizen``?, the replacement) or ``decline`` (pickup =
optional: the mover left the citizen waiting)?, and ``end`` last.

The kernel writes each row with its event's writer (``write_move(st, seat,
here, to)``; ``end``'s row it fills itself, from ``begin_end``);
:func:`decode` and the docs' trace schema read the same declarations.  The
events are declared in the order of their row kinds (citizen 0 .. decline 6).
"""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from balance.state import Events
from sims.bahama.state import DECK

EVENTS = Events()
CITIZEN = EVENTS.declare(
    "citizen",
    ["-", "citizen", "origin", "dest"],
    "a citizen drawn from the pile (two cards) now waits",
    meanings={
        "citizen": "the citizen's id (draw order)",
        "origin": "the field it waits on (the bottom card)",
        "dest": "the field it is going to (the top card)",
    },
)
NEW_TURN = EVENTS.declare("turn", ["seat"], "a player turn begins", meanings={"seat": "the seat to move"})
MOVE = EVENTS.declare(
    "move",
    ["seat", "from", "to"],
    "the mover's taxi drove to an adjacent field, or stayed (from = to)",
    meanings={"seat": "the mover", "from": "the field it stood on", "to": "the field it stands on now"},
)
DROP = EVENTS.declare(
    "drop",
    ["seat", "field", "citizens:list", "fare"],
    "a passenger bound for the field the taxi stopped on got off and paid",
    meanings={"seat": "the mover", "field": "where", "citizens": "the passenger", "fare": "the fare collected"},
)
PICKUP = EVENTS.declare(
    "pickup",
    ["seat", "field", "citizens:list"],
    "the taxi took the citizen waiting on its field",
    meanings={"seat": "the mover", "field": "where", "citizens": "the citizen taken"},
)


def _decode_end(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    # The declared fields read as usual; own decoder only to keep the keys in the
    # order the end event has always had (reason, income, winner).
    return {
        "type": "end",
        "turn": turn,
        "reason": ctx.spec.end_reason_names[values[0]],
        "income": values[2 : 2 + ctx.n_seats],
        "winner": values[1],
    }


END = EVENTS.declare(
    "end",
    ["reason:reason", "winner", "income:seats"],
    "the game is over",
    decode=_decode_end,
    meanings={
        "reason": "why it ended (an end reason)",
        "winner": "the winning seat (-1: none, a tie or the turn cap)",
        "income": "the fares each seat collected",
    },
)
DECLINE = EVENTS.declare(
    "decline",
    ["seat", "field", "citizens:list"],
    "pickup = optional: the mover left the citizen on its field waiting",
    meanings={"seat": "the mover", "field": "where", "citizens": "the citizen left waiting"},
)

# The kernel's row writers (no-ops unless the game is traced).
write_citizen = CITIZEN.write  # write_citizen(st, -1, citizen, origin, dest)
write_turn = NEW_TURN.write  # write_turn(st, seat)
write_move = MOVE.write  # write_move(st, seat, from, to)
write_drop = DROP.write  # write_drop(st, seat, field, citizen, fare)
write_pickup = PICKUP.write  # write_pickup(st, seat, field, citizen)
write_decline = DECLINE.write  # write_decline(st, seat, field, citizen)
begin_end = END.begin  # at = begin_end(st) while st[RECORD]; then st[event_value(at, k)]


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    deck = [int(x) for x in DECK.values(ctx.st)]
    return EVENTS.decode(ctx, board=ctx.board.to_json(), deck=deck, start=deck[: ctx.n_seats])
