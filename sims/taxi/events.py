"""TAXI!'s trace: the kernel's rows as the spec's events, field for field.

A row is (kind, turn, six values); events with lists (orders, per-seat
holdings, a path) continue in EV_DATA rows (state.py lists the rows).  The
``setup`` event is built from the inputs and the setup rows (deck orders); the
``end`` event from its row and the final state.
"""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from sims.taxi import state as S
from sims.taxi.board import DECKS, WORDS, setup_board_json

TABLET_RESULTS = ("freeway", "green", "blank")


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    board = ctx.board
    params = ctx.params
    n = ctx.n_seats
    rows = ctx.rows.tolist()
    decks = [board.decks[d] for d in DECKS]
    stops = S.legs_of(params)
    i = 0

    def data(count: int) -> list[int]:
        """The next rows' values (``count`` of them, six a row)."""
        nonlocal i
        out: list[int] = []
        while len(out) < count:
            row = rows[i]
            if row[0] != S.EV_DATA:
                raise RuntimeError(f"taxi trace: row {i} is not a continuation row")
            out.extend(row[2:8])
            i += 1
        return out[:count]

    def seats(values: list[int]) -> list[int]:
        return values[:n]

    def nodes(values: list[int]) -> list[int | None]:
        return [v if v >= 0 else None for v in values[:n]]

    order: dict[str, list[int]] = {}
    while i < len(rows) and rows[i][0] == S.EV_ORDER:
        _, _, deck, count, *_ = rows[i]
        i += 1
        order[DECKS[deck]] = data(count)
    out: list[dict[str, Any]] = [
        ctx.setup(
            turn=0,
            board=setup_board_json(board, n, stops),
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
    ]
    reasons = ctx.spec.end_reason_names
    while i < len(rows):
        kind, turn, a, b, c, d, e, f = rows[i]
        i += 1
        if kind == S.EV_LEG:
            out.append({"type": "leg", "turn": turn, "leg": a, "dest": nodes(data(6))})
        elif kind == S.EV_TURN:
            out.append({"type": "turn", "turn": turn, "seat": a})
        elif kind == S.EV_BARRIER:
            out.append({"type": "barrier", "turn": turn, "seat": a, "target": b, "segment": [c, d], "barriers": e})
        elif kind == S.EV_BUY:
            out.append({"type": "buy", "turn": turn, "seat": a, "price": b, "money": c, "plates": d})
        elif kind == S.EV_SHUFFLE:
            out.append({"type": "shuffle", "turn": turn, "deck": DECKS[a], "order": data(b)})
        elif kind == S.EV_CARD:
            barriers, plates = data(2)
            if b < 0:
                out.append({"type": "card", "turn": turn, "seat": a, "deck": "none", "card": None})
            else:
                card = decks[b][c]
                out.append({
                    "type": "card", "turn": turn, "seat": a, "deck": DECKS[b], "card": c, "kind": card.kind,
                    "value": card.value, "money": d, "greens": e, "whites": f, "barriers": barriers,
                    "plates": plates,
                })
        elif kind == S.EV_BET:
            out.append({"type": "bet", "turn": turn, "seat": a, "holder": b, "word": S.BET_WORDS[c]})
        elif kind == S.EV_REVEAL:
            winners = data(6)[:c]
            money, greens, whites, plates = (seats(data(6)) for _ in range(4))
            out.append({
                "type": "reveal", "turn": turn, "seat": a, "word": WORDS[b], "winners": winners,
                "money": money, "greens": greens, "whites": whites, "plates": plates,
            })
        elif kind == S.EV_SELL:
            out.append({"type": "sell", "turn": turn, "seat": a, "price": b, "money": c, "plates": d})
        elif kind == S.EV_ELIMINATE:
            out.append({"type": "eliminate", "turn": turn, "seat": a, "money": b})
        elif kind == S.EV_ROLL:
            out.append({"type": "roll", "turn": turn, "seat": a, "die": b, "bonus": c, "streets": b + c})
        elif kind == S.EV_MOVE:
            greens_left, whites_left = data(2)
            path = data(b)
            out.append({
                "type": "move", "turn": turn, "seat": a, "path": path, "streets": c, "greens_used": d,
                "whites_used": e, "greens": greens_left, "whites": whites_left,
            })
        elif kind == S.EV_ARRIVE:
            out.append({"type": "arrive", "turn": turn, "seat": a, "node": b, "leg": c})
        elif kind == S.EV_TABLET:
            out.append({
                "type": "tablet", "turn": turn, "seat": a, "face": b, "result": TABLET_RESULTS[c],
                "granted": bool(d), "greens": e, "whites": f,
            })
        elif kind == S.EV_LEG_END:
            flags = seats(data(6))
            money = seats(data(6))
            position = nodes(data(6))
            out.append({
                "type": "leg_end", "turn": turn, "leg": a, "arrived": [s for s in range(n) if flags[s]],
                "share": b, "money": money, "position": position,
            })
        elif kind == S.EV_HIRE:
            out.append({"type": "hire", "turn": turn, "seat": a, "fee": b, "money": c})
        elif kind == S.EV_EXPENSE:
            out.append({"type": "expense", "turn": turn, "seat": a, "card": b, "amount": c, "money": d})
        elif kind == S.EV_END:
            st = ctx.st
            pv = params["plate_value"]
            money = [int(st[S.MONEY + s]) for s in range(n)]
            plates = [int(st[S.PLATES + s]) for s in range(n)]
            out.append({
                "type": "end", "turn": turn, "winner": a, "reason": reasons[b], "money": money,
                "plates": plates, "wealth": [money[s] + pv * plates[s] for s in range(n)],
                "out": [bool(st[S.OUT + s]) for s in range(n)], "legs": c,
            })
        else:  # pragma: no cover - the kernel writes no other kind
            raise RuntimeError(f"taxi trace: unknown row kind {kind} at row {i - 1}")
    return out

