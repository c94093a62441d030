"""Carnage's trace, declared once: each event's name, fields and meaning.

The kernel writes each row with its event's writer (``write_move(st, seat,
car, origin, to)``: a no-op unless the game is traced); :func:`decode` turns
the rows into the event dicts of issue 2's schema: ``setup`` (with the board
and the start money), one ``hq`` event per seat in seat order (where its HQ
and first car are), two setup ``spawn`` events, then per turn ``turn``, the
actions (``buy``, ``drop``, ``move``, ``take``, ``spawn``), ``spawn`` (turn
end), ``upkeep``, ``lose``, and ``end`` last with the final money, deliveries
and cars.  Commuter lists are sorted token ids (a row holds them as a bit mask
of token ids: ``commuter_tokens`` <= 63).

``setup.board.hq`` lists the HQ site of each seat under ``hq = fixed`` and
every site of the board under ``chosen`` and ``anywhere`` (the sites a seat
may choose from, and those the kernel falls back on).
"""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from balance.state import Events
from sims.carnage.state import CARDS, DELIVERED, MONEY, N_CARS

SPAWN_CAUSES = ("setup", "drop", "turn_end")  # state.CAUSE_* order
LOSE_REASONS = ("stuck", "bankrupt")  # state.LOSE_* order


def _ids(mask: int) -> list[int]:
    return [k for k in range(64) if mask >> k & 1]


def _decode_spawn(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    """The cause by name; card, commuter and the card's streets only when one spawned."""
    ev = SPAWNED.decode_row(ctx, turn, values)
    ev["cause"] = SPAWN_CAUSES[ev["cause"]]
    if ev["spawned"]:
        cards = CARDS.values(ctx.st)
        ev["origin"] = int(cards[ev["card"], 0])
        ev["dest"] = int(cards[ev["card"], 1])
    else:
        del ev["card"], ev["commuter"]
    return ev


def _decode_drop(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    ev = DROPPED.decode_row(ctx, turn, values)
    ev["commuters"] = _ids(ev["commuters"])
    return ev


def _decode_take(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    ev = TAKEN.decode_row(ctx, turn, values)
    ev["commuters"] = _ids(ev["commuters"])
    return ev


def _decode_lose(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    ev = LOST.decode_row(ctx, turn, values)
    ev["reason"] = LOSE_REASONS[ev["reason"]]
    return ev


def _decode_end(ctx: TraceContext, turn: int, values: list[int], rows: Any) -> dict[str, Any]:
    """Winner and reason from the row; money, deliveries and cars from the final state."""
    ev = ENDED.decode_row(ctx, turn, values)
    n = ctx.n_seats
    ev["money"] = MONEY.values(ctx.st)[:n].tolist()
    ev["delivered"] = DELIVERED.values(ctx.st)[:n].tolist()
    ev["cars"] = N_CARS.values(ctx.st)[:n].tolist()
    return ev


EVENTS = Events()
SPAWNED = EVENTS.declare(
    "spawn",
    ["cause", "roll:opt", "spawned:bool", "card", "commuter"],
    "a spawn: a d6 rolled (not at setup) and, on a hit with a free token, a commuter placed",
    decode=_decode_spawn,
    meanings={
        "cause": "setup, drop or turn_end (a row holds state.CAUSE_*)",
        "roll": "the d6 (null at setup)",
        "spawned": "a commuter was placed",
        "card": "the spawn card drawn (only when spawned; the decoded event adds its origin and dest)",
        "commuter": "the token placed, the lowest free id (only when spawned)",
    },
)
TURNED = EVENTS.declare("turn", ["seat"], "a seat still in the game begins a turn", meanings={"seat": "whose turn"})
BOUGHT = EVENTS.declare(
    "buy",
    ["seat", "car", "street", "cost"],
    "a seat bought a car onto its HQ",
    meanings={"car": "the new car's index", "street": "the HQ street", "cost": "money paid"},
)
DROPPED = EVENTS.declare(
    "drop",
    ["seat", "car", "street", "commuters"],
    "a car dropped every passenger bound for its street",
    decode=_decode_drop,
    meanings={"commuters": "the token ids delivered, sorted (a row holds them as a bit mask)"},
)
MOVED = EVENTS.declare(
    "move",
    ["seat", "car", "from", "to"],
    "a car moved to a neighbouring street",
    meanings={"from": "the street it left", "to": "the street it stands on now"},
)
TAKEN = EVENTS.declare(
    "take",
    ["seat", "car", "street", "commuters", "fare"],
    "a car took commuters waiting on its street",
    decode=_decode_take,
    meanings={
        "commuters": "the token ids taken, sorted (a row holds them as a bit mask)",
        "fare": "money received (less than the rides' fares when a limited bank runs short)",
    },
)
UPKEPT = EVENTS.declare(
    "upkeep",
    ["seat", "paid", "money"],
    "the seat paid upkeep for its cars at its turn's end",
    meanings={"paid": "upkeep_per_car per car not bought this turn", "money": "the seat's money after"},
)
LOST = EVENTS.declare(
    "lose",
    ["seat", "reason"],
    "a seat is out of the game",
    decode=_decode_lose,
    meanings={"reason": "stuck or bankrupt (a row holds state.LOSE_*)"},
)
ENDED = EVENTS.declare(
    "end",
    ["winner", "reason:reason"],
    "the game is over (the decoded event adds each seat's final money, delivered and cars)",
    decode=_decode_end,
    meanings={"winner": "the winning seat (-1: none)"},
)
HQ_PLACED = EVENTS.declare(
    "hq",
    ["seat", "street"],
    "setup: the seat's HQ, where its first car stands",
    meanings={"street": "the HQ street"},
)

# The kernel's row writers, one value per declared field.
write_spawn = SPAWNED.write  # write_spawn(st, cause, roll, spawned, card, commuter)
write_turn = TURNED.write  # write_turn(st, seat)
write_buy = BOUGHT.write  # write_buy(st, seat, car, street, cost)
write_drop = DROPPED.write  # write_drop(st, seat, car, street, mask)
write_move = MOVED.write  # write_move(st, seat, car, origin, to)
write_take = TAKEN.write  # write_take(st, seat, car, street, mask, fare)
write_upkeep = UPKEPT.write  # write_upkeep(st, seat, paid, money)
write_lose = LOST.write  # write_lose(st, seat, reason)
write_end = ENDED.write  # write_end(st, winner, reason)
write_hq = HQ_PLACED.write  # write_hq(st, seat, street)


def start_money(params: dict[str, Any], n_seats: int) -> list[int]:
    """Each seat's start money: ``start_money``, dealt in seat order from a bank
    of ``bank_money`` tokens when that is above 0 (a seat gets what is left)."""
    start = int(params["start_money"])
    bank = int(params.get("bank_money", 0))
    if bank <= 0:
        return [start] * n_seats
    out = []
    for _ in range(n_seats):
        out.append(min(start, bank))
        bank -= out[-1]
    return out


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    """The events of one traced game (setup first, end last)."""
    board = ctx.board
    n_seats = ctx.n_seats
    sites = board.hq_streets if ctx.params.get("hq", "fixed") != "fixed" else board.hq_streets[:n_seats]
    return EVENTS.decode(
        ctx,
        board={
            "nodes": list(board.names),
            "adjacency": [list(a) for a in board.adjacency],
            "hq": [int(s) for s in sites],
            "spawn_cards": [list(c) for c in board.spawn_cards],
        },
        money=start_money(ctx.params, n_seats),
    )
