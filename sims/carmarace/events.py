"""Carmarace's trace, declared once: every event the kernel writes, its fields
and their meanings (the spec's section (g)).

Rows with a list (deck orders, shuffles, removed and discarded cards) are
followed by ``data`` rows, six ids each, read by the event's own decoder; a
``move`` is its row and one ``path`` row per step.  ``start`` and ``deck`` rows
go into the ``setup`` event (``start``, ``squares``, ``decks``).  ``land.tied``
is read from the map (the sorted ``land`` list of the space when it has several
entries), ``end.at`` and ``end.togo`` from the final state.

The kernel writes each row with its event's ``write`` (bound below), or, for a
row it fills itself, ``begin`` and ``balance.state.event_value``.
"""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from balance.state import Events
from sims.carmarace.board import DECKS
from sims.carmarace.state import DRAW_PHASES, hand_limit_for, pawn_at, togo_score_at

EVENTS = Events()


def _list(rows: Any, n: int) -> list[int]:
    """The ``n`` ids of the ``data`` rows that follow (six a row)."""
    out: list[int] = []
    while len(out) < n:
        assert rows.peek() == DATA, f"trace: expected data, got kind {rows.peek()}"
        row = rows.take()
        out.extend(row[2 : 2 + min(6, n - len(out))])
    return out


def _stray_data(ctx: Any, turn: int, values: list[int], rows: Any) -> None:  # pragma: no cover
    raise AssertionError("trace: a data row that no event announced")


def _deck(ctx: Any, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    return {"type": "deck", "deck": DECKS[values[0]], "order": _list(rows, values[1])}


def _draw(ctx: Any, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    seat, deck, card, phase, hand = values[:5]
    return {"type": "draw", "turn": turn, "seat": seat, "deck": DECKS[deck], "card": card,
            "phase": DRAW_PHASES[phase], "hand": hand}


def _shuffle(ctx: Any, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    return {"type": "shuffle", "turn": turn, "deck": DECKS[values[0]], "order": _list(rows, values[1])}


def _land(ctx: Any, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    seat, card, frm, to, by, roll = values
    entries = ctx.board.land[frm] or ()
    return {"type": "land", "turn": turn, "seat": seat, "card": card, "from": frm, "to": to,
            "tied": sorted(entries) if len(entries) >= 2 else [], "by": None if by < 0 else by,
            "roll": roll if roll > 0 else None}


def _remove(ctx: Any, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    seat, card, slot, mask, n = values[:5]
    removed = [s for s in range(64) if (mask >> s) & 1]
    return {"type": "remove", "turn": turn, "seat": seat, "card": card, "slot": slot, "removed": removed,
            "cards": _list(rows, n)}


def _move(ctx: Any, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    seat, card, base, karma, speed, start = values
    move = {"type": "move", "turn": turn, "seat": seat, "card": card, "base": base, "karma": karma,
            "speed": speed, "path": [start], "rolls": []}
    while rows.peek() == PATH:
        _, _, frm, to, roll, blocked = rows.take()[:6]
        assert move["path"][-1] == frm, "trace: a step outside the move"
        if not blocked:  # blocked: a roll naming a space the vehicle cannot take ends the move
            move["path"].append(to)
        if roll > 0:
            move["rolls"].append({"at": frm, "roll": roll, "to": to})
    return move


def _stray_path(ctx: Any, turn: int, values: list[int], rows: Any) -> None:  # pragma: no cover
    raise AssertionError("trace: a step outside a move")


def _cleanup(ctx: Any, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    seat, kept, n = values[:3]
    return {"type": "cleanup", "turn": turn, "seat": seat, "discarded": _list(rows, n),
            "kept": None if kept < 0 else kept}


def _refill(ctx: Any, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    seat, n = values[:2]
    return {"type": "refill", "turn": turn, "seat": seat, "discarded": _list(rows, n)}


def _end(ctx: Any, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    st = ctx.st
    n_seats = ctx.n_seats
    return {"type": "end", "turn": turn, "winner": values[0], "reason": ctx.spec.end_reason_names[values[1]],
            "at": [int(st[pawn_at(s)]) for s in range(n_seats)],
            "togo": [int(st[togo_score_at(s)]) for s in range(n_seats)]}


DATA = EVENTS.declare(
    "data", ["v0", "v1", "v2", "v3", "v4", "v5"],
    "six ids of the list the event before announces (read by that event's decoder)", decode=_stray_data,
)
START = EVENTS.declare(
    "start", ["start:seats"], "each seat's start space (decoded into setup: start, squares)",
    meanings={"start": "the start space of each seat"},
)
DECK = EVENTS.declare(
    "deck", ["deck", "n"], "a deck's setup order, top first (decoded into setup: decks)", decode=_deck,
    meanings={"deck": "the deck (transport, road, train, plane)", "n": "its cards: data rows follow"},
)
GIFT = EVENTS.declare("gift", ["seat", "card"], "a start gift handed to a seat (R3)")
DRAW = EVENTS.declare(
    "draw", ["seat", "deck", "card", "phase", "hand"], "a seat drew a card", decode=_draw,
    meanings={"deck": "the deck's name", "phase": "setup, draw or refill", "hand": "the hand's size after"},
)
SHUFFLE = EVENTS.declare(
    "shuffle", ["deck", "n"], "a deck's discard pile shuffled into its draw pile (R7)", decode=_shuffle,
    meanings={"deck": "the deck's name", "n": "its cards: the new order, top first, in data rows"},
)
TURN = EVENTS.declare("turn", ["seat", "at"], "a seat's turn begins", meanings={"at": "its pawn's space"})
LEAVE = EVENTS.declare("leave", ["seat", "card"], "the card kept in front of a seat is discarded")
TRANSPORT = EVENTS.declare(
    "transport", ["seat", "card:opt", "kept:bool", "limit:opt"], "the vehicle of the turn (none: no ride)",
    meanings={"card": "the vehicle (null: none)", "kept": "the card kept in front", "limit": "its karma limit"},
)
KARMA = EVENTS.declare("karma", ["seat", "card", "slot"], "a Karma card played on the vehicle's row (R11, R12)")
PASS = EVENTS.declare("pass", ["seat"], "a seat passed in the karma round")
LAND = EVENTS.declare(
    "land", ["seat", "card", "from", "to", "by", "roll"],
    "a move-to-closest card moved the active pawn (R13)", decode=_land,
    meanings={"by": "the seat that chose among tied entries (null: none)", "roll": "the die that did (null)"},
)
STEP = EVENTS.declare("step", ["seat", "from", "to"], "a Good-Karma step (R14)")
REMOVE = EVENTS.declare(
    "remove", ["seat", "card", "slot", "removed", "n"], "a removal card resolved (R15)", decode=_remove,
    meanings={"removed": "the removed slots (a bitmask in the row)", "n": "the removed cards: data rows follow"},
)
MOVE = EVENTS.declare(
    "move", ["seat", "card", "base", "karma", "speed", "start"], "the vehicle's move (R16-R20)", decode=_move,
    meanings={"start": "the first space of its path; a path row per step follows"},
)
PATH = EVENTS.declare(
    "path", ["from", "to", "roll", "blocked"], "one step of the move (read by the move's decoder)",
    decode=_stray_path,
    meanings={"roll": "the die at an arrow (0: none)",
              "blocked": "1: the die named a space the vehicle cannot take; the move ends on the arrow"},
)
CLEANUP = EVENTS.declare(
    "cleanup", ["seat", "kept", "n"], "the vehicle and its row discarded (R21)", decode=_cleanup,
    meanings={"kept": "the vehicle kept in front (null: none)", "n": "the discarded cards: data rows follow"},
)
REFILL = EVENTS.declare(
    "refill", ["seat", "n"], "the refill's discard (R22)", decode=_refill,
    meanings={"n": "the discarded cards: data rows follow"},
)
END = EVENTS.declare(
    "end", ["winner", "reason:reason"], "the game is over (at, togo: the final state)", decode=_end,
    meanings={"winner": "the winning seat (-1: none)"},
)

# The kernel's row writers: write_gift(st, seat, card), ...
begin_data = DATA.begin  # at = begin_data(st) while st[RECORD]; st[event_value(at, k)] = id
begin_start = START.begin
write_deck = DECK.write
write_gift = GIFT.write
write_draw = DRAW.write
write_shuffle = SHUFFLE.write
write_turn = TURN.write
write_leave = LEAVE.write
write_transport = TRANSPORT.write
write_karma = KARMA.write
write_pass = PASS.write
write_land = LAND.write
write_step = STEP.write
begin_remove = REMOVE.begin
write_move = MOVE.write
write_path = PATH.write
write_cleanup = CLEANUP.write
write_refill = REFILL.write
write_end = END.write


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    events = EVENTS.decode(ctx, [])
    start: list[int] = []
    decks: dict[str, list[int]] = {}
    rest: list[dict[str, Any]] = []
    for e in events:
        if e["type"] == "start":
            start = e["start"]
        elif e["type"] == "deck":
            decks[e["deck"]] = e["order"]
        else:
            rest.append(e)
    board = ctx.board
    gifts = board.decks.gifts
    setup = ctx.setup(
        turn=0,
        board=board.to_json(),
        cards=[dict(c) for c in board.decks.cards],
        gifts={"airport": gifts["airport"], "station": gifts["station"]},
        decks={name: decks.get(name, []) for name in DECKS},
        squares=[board.number[v] for v in start],
        start=start,
        hand_limit=hand_limit_for(ctx.params, ctx.n_seats),
    )
    return [setup, *rest]
