"""TAXI!'s trace, declared once: every event's name, its row's values and
their meanings.

A row is (kind, turn, six values); an event with lists (a deck's order, the
seats' holdings, a path) goes on in ``data`` rows of six values each, which
its ``decode`` hook reads.  The kernel writes each row with its event's
``write`` (or ``begin`` and ``event_value`` for a row it fills in a loop);
:func:`decode` and the docs' trace schema read the same declarations.  The
``setup`` event is built from the inputs and the ``order`` rows (each deck's
order after the first shuffle); the ``end`` event from its row and the final
state.
"""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from balance.state import Events
from sims.taxi import state as S
from sims.taxi.board import DECKS, WORDS, setup_board_json

TABLET_RESULTS = ("freeway", "green", "blank")
DATA_WIDTH = 6

EVENTS = Events()


def _data(rows: Any, count: int) -> list[int]:
    """The next ``data`` rows' values (``count`` of them, six a row)."""
    out: list[int] = []
    while len(out) < count:
        if rows.peek() != DATA:
            raise RuntimeError("taxi trace: a continuation row is missing")
        out.extend(rows.take()[2:8])
    return out[:count]


def _seats(ctx: TraceContext, values: list[int]) -> list[int]:
    return values[: ctx.n_seats]


def _nodes(ctx: TraceContext, values: list[int]) -> list[int | None]:
    return [v if v >= 0 else None for v in values[: ctx.n_seats]]


def _order(ctx, turn, values, rows):
    _data(rows, values[1])  # read by decode() into the setup event
    return None


def _leg(ctx, turn, values, rows):
    return {"type": "leg", "turn": turn, "leg": values[0], "dest": _nodes(ctx, _data(rows, DATA_WIDTH))}


def _barrier(ctx, turn, values, rows):
    seat, target, a, b, barriers = values[:5]
    return {"type": "barrier", "turn": turn, "seat": seat, "target": target, "segment": [a, b], "barriers": barriers}


def _shuffle(ctx, turn, values, rows):
    return {"type": "shuffle", "turn": turn, "deck": DECKS[values[0]], "order": _data(rows, values[1])}


def _card(ctx, turn, values, rows):
    seat, deck, card, money, greens, whites = values
    barriers, plates = _data(rows, 2)
    if deck < 0:
        return {"type": "card", "turn": turn, "seat": seat, "deck": "none", "card": None}
    c = ctx.board.decks[DECKS[deck]][card]
    return {
        "type": "card", "turn": turn, "seat": seat, "deck": DECKS[deck], "card": card, "kind": c.kind,
        "value": c.value, "money": money, "greens": greens, "whites": whites, "barriers": barriers, "plates": plates,
    }


def _bet(ctx, turn, values, rows):
    return {"type": "bet", "turn": turn, "seat": values[0], "holder": values[1], "word": S.BET_WORDS[values[2]]}


def _reveal(ctx, turn, values, rows):
    holder, word, n_won = values[:3]
    winners = _data(rows, DATA_WIDTH)[:n_won]
    money, greens, whites, plates = (_seats(ctx, _data(rows, DATA_WIDTH)) for _ in range(4))
    return {
        "type": "reveal", "turn": turn, "seat": holder, "word": WORDS[word], "winners": winners,
        "money": money, "greens": greens, "whites": whites, "plates": plates,
    }


def _roll(ctx, turn, values, rows):
    seat, die, bonus = values[:3]
    return {"type": "roll", "turn": turn, "seat": seat, "die": die, "bonus": bonus, "streets": die + bonus}


def _move(ctx, turn, values, rows):
    seat, nodes, streets, greens_used, whites_used = values[:5]
    greens_left, whites_left = _data(rows, 2)
    path = _data(rows, nodes)
    return {
        "type": "move", "turn": turn, "seat": seat, "path": path, "streets": streets, "greens_used": greens_used,
        "whites_used": whites_used, "greens": greens_left, "whites": whites_left,
    }


def _tablet(ctx, turn, values, rows):
    seat, face, result, granted, greens, whites = values
    return {
        "type": "tablet", "turn": turn, "seat": seat, "face": face, "result": TABLET_RESULTS[result],
        "granted": bool(granted), "greens": greens, "whites": whites,
    }


def _leg_end(ctx, turn, values, rows):
    leg, share = values[:2]
    flags = _seats(ctx, _data(rows, DATA_WIDTH))
    money = _seats(ctx, _data(rows, DATA_WIDTH))
    position = _nodes(ctx, _data(rows, DATA_WIDTH))
    return {
        "type": "leg_end", "turn": turn, "leg": leg, "arrived": [s for s in range(ctx.n_seats) if flags[s]],
        "share": share, "money": money, "position": position,
    }


def _end(ctx, turn, values, rows):
    winner, reason, legs = values[:3]
    st = ctx.st
    n = ctx.n_seats
    pv = ctx.params["plate_value"]
    money = [int(v) for v in S.MONEY.values(st)[:n]]
    plates = [int(v) for v in S.PLATES.values(st)[:n]]
    return {
        "type": "end", "turn": turn, "winner": winner, "reason": ctx.spec.end_reason_names[reason], "money": money,
        "plates": plates, "wealth": [money[s] + pv * plates[s] for s in range(n)],
        "out": [bool(v) for v in S.OUT.values(st)[:n]], "legs": legs,
    }


def _stray_data(ctx, turn, values, rows):  # pragma: no cover - every data row follows its event
    raise RuntimeError("taxi trace: a continuation row without its event")


ORDER = EVENTS.declare(
    "order", ["deck", "count"], "a deck's order after the setup's shuffle (read into the setup event)",
    meanings={
        "deck": "the deck (0 Journey, 1 Passenger, 2 Expense)", "count": "its cards: data rows of card ids follow",
    },
    decode=_order,
)
LEG = EVENTS.declare(
    "leg", ["leg"], "a leg begins",
    meanings={"leg": "the leg (1-based); then dest, each seat's destination (null: out; a data row)"}, decode=_leg,
)
TURN = EVENTS.declare("turn", ["seat"], "a seat's turn begins", meanings={"seat": "whose turn"})
BARRIER = EVENTS.declare(
    "barrier", ["seat", "target", "segment", "-", "barriers"], "a barrier is placed", meanings={
        "seat": "the seat that places it", "target": "the seat whose turn it is",
        "segment": "the segment's two nodes", "barriers": "barriers the placer has left",
    }, decode=_barrier,
)
BUY = EVENTS.declare(
    "buy", ["seat", "price", "money", "plates"], "a seat bought a taxi plate",
    meanings={"price": "what it paid", "money": "its money after", "plates": "its plates after"},
)
SHUFFLE = EVENTS.declare(
    "shuffle", ["deck", "count"], "an empty draw pile was refilled by shuffling the whole deck", meanings={
        "deck": "the deck's name", "count": "its cards; then order, the new order, card ids top first (data rows)",
    }, decode=_shuffle,
)
CARD = EVENTS.declare(
    "card", ["seat", "deck", "card", "money", "greens", "whites"], "a seat drew a card (or none)", meanings={
        "deck": "the deck's name (none: no card)", "card": "its id in the deck (null: none)",
        "money": "the seat's money after; then its kind, value, greens, whites, barriers and plates (a data row)",
    }, decode=_card,
)
BET = EVENTS.declare(
    "bet", ["seat", "holder", "word"], "an opponent bet on the gamble card's word",
    meanings={"holder": "the seat holding the gamble card", "word": "none, money, freeway or taxi"}, decode=_bet,
)
REVEAL = EVENTS.declare(
    "reveal", ["seat", "word", "winners"], "the gamble card is revealed and the bets are settled", meanings={
        "seat": "the holder", "word": "the card's word",
        "winners": "the seats that bet right, in betting order; then money, greens, whites, plates per seat "
        "(data rows)",
    }, decode=_reveal,
)
SELL = EVENTS.declare(
    "sell", ["seat", "price", "money", "plates"], "a seat in debt sold a plate",
    meanings={"price": "what it got", "money": "its money after", "plates": "its plates after"},
)
ELIMINATE = EVENTS.declare(
    "eliminate", ["seat", "money"], "a seat is out (in debt with no plate left)", meanings={"money": "its debt"}
)
ROLL = EVENTS.declare(
    "roll", ["seat", "die", "bonus"], "the movement die", meanings={
        "die": "its face", "bonus": "extra streets of a streets card (and streets: die + bonus)",
    }, decode=_roll,
)
MOVE = EVENTS.declare(
    "move", ["seat", "nodes", "streets", "greens_used", "whites_used"], "a taxi moved (or stayed put)", meanings={
        "nodes": "nodes of its path, the start included; then greens and whites left (a data row) and the path "
        "(data rows)",
        "streets": "streets used", "greens_used": "green tablets spent", "whites_used": "freeway tablets spent",
    }, decode=_move,
)
ARRIVE = EVENTS.declare(
    "arrive", ["seat", "node", "leg"], "a taxi reached its destination", meanings={"node": "the destination"}
)
TABLET = EVENTS.declare(
    "tablet", ["seat", "face", "result", "granted:bool", "greens", "whites"], "the tablet die", meanings={
        "face": "its face (1..12)", "result": "freeway, green or blank", "granted": "a tablet was left in the supply",
        "greens": "the seat's greens after", "whites": "its freeway tablets after",
    }, decode=_tablet,
)
LEG_END = EVENTS.declare(
    "leg_end", ["leg", "share"], "a leg is over: bonus, jumps", meanings={
        "share": "each arrival's share of the bonus; then arrived (seats), money and position per seat (data rows)",
    }, decode=_leg_end,
)
HIRE = EVENTS.declare(
    "hire", ["seat", "fee", "money"], "a seat without a plate paid the hire fee", meanings={"money": "its money after"}
)
EXPENSE = EVENTS.declare(
    "expense", ["seat", "card", "amount", "money"], "a plate holder drew an Expense card",
    meanings={"card": "its id", "amount": "what it paid", "money": "its money after"},
)
END = EVENTS.declare(
    "end", ["winner", "reason:reason", "legs"], "the game is over", meanings={
        "winner": "the winning seat (-1: none)",
        "legs": "legs completed; then money, plates, wealth and out per seat (the final state)",
    }, decode=_end,
)
DATA = EVENTS.declare(
    "data", ["v0", "v1", "v2", "v3", "v4", "v5"], "six values continuing the event before (read by its decoder)",
    decode=_stray_data,
)

# The kernel's row writers (one value per declared slot)
write_order = ORDER.write
write_leg = LEG.write  # write_leg(st, leg), then a data row
write_turn = TURN.write
write_barrier = BARRIER.write
write_buy = BUY.write
write_shuffle = SHUFFLE.write  # write_shuffle(st, deck, count), then data rows
write_card = CARD.write
write_bet = BET.write
write_reveal = REVEAL.write
write_sell = SELL.write
write_eliminate = ELIMINATE.write
write_roll = ROLL.write
write_move = MOVE.write  # write_move(st, seat, nodes, streets, greens used, whites used), then data rows
write_arrive = ARRIVE.write
write_tablet = TABLET.write
write_leg_end = LEG_END.write
write_hire = HIRE.write
write_expense = EXPENSE.write
write_end = END.write
write_data = DATA.write
begin_data = DATA.begin  # a data row the kernel fills: st[event_value(at, k)]


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    board = ctx.board
    params = ctx.params
    n = ctx.n_seats
    rows = ctx.rows.tolist()
    order: dict[str, list[int]] = {}
    i = 0
    while i < len(rows) and rows[i][0] == ORDER:
        _, _, deck, count, *_ = rows[i]
        i += 1
        values: list[int] = []
        while len(values) < count:
            values.extend(rows[i][2:8])
            i += 1
        order[DECKS[deck]] = values[:count]
    return EVENTS.decode(
        ctx,
        turn=0,
        board=setup_board_json(board, n, S.legs_of(params)),
        order=order,
        money=[params["start_money"]] * n,
        position=[board.base] * n,
        supply={
            "green": params["green_supply"],
            "freeway": params["freeway_supply"],
            "barrier": params["barrier_supply"],
            "plate": params["plate_supply"],
        },
    )
