"""Carmarace's trace: the kernel's rows (state.EV_*) as the spec's events (section (g)).

Rows with a list (deck orders, shuffles, removed and discarded cards) are
followed by ``EV_DATA`` rows, six ids each; a ``move`` is its ``EV_MOVE`` row and
one ``EV_PATH`` row per step.  ``land.tied`` is read from the map (the sorted
``land`` list of the space when it has several entries), ``end.at`` and
``end.togo`` from the final state.
"""

from __future__ import annotations

from typing import Any

from balance.game import TraceContext
from sims.carmarace.board import DECKS
from sims.carmarace.state import (
    DRAW_PHASES,
    EV_CLEANUP,
    EV_DATA,
    EV_DECK,
    EV_DRAW,
    EV_END,
    EV_GIFT,
    EV_KARMA,
    EV_LAND,
    EV_LEAVE,
    EV_MOVE,
    EV_PASS,
    EV_PATH,
    EV_REFILL,
    EV_REMOVE,
    EV_SHUFFLE,
    EV_START,
    EV_STEP,
    EV_TRANSPORT,
    EV_TURN,
    PAWN,
    TOGO_SCORE,
    hand_limit_for,
)


def _none(v: int) -> int | None:
    return None if v < 0 else v


def decode(ctx: TraceContext) -> list[dict[str, Any]]:
    board = ctx.board
    rows = ctx.rows.tolist()
    n_seats = ctx.n_seats
    reasons = ctx.spec.end_reason_names
    events: list[dict[str, Any]] = []
    start: list[int] = []
    decks: dict[str, list[int]] = {}
    move: dict[str, Any] | None = None
    i = 0

    def data(n: int) -> list[int]:
        nonlocal i
        out: list[int] = []
        while len(out) < n:
            row = rows[i]
            assert row[0] == EV_DATA, f"trace row {i}: expected data, got kind {row[0]}"
            out.extend(row[2 : 2 + min(6, n - len(out))])
            i += 1
        return out

    while i < len(rows):
        kind, turn, a, b, c, d, e, f = rows[i]
        i += 1
        if kind == EV_START:
            start = [a, b, c, d, e, f][:n_seats]
        elif kind == EV_DECK:
            decks[DECKS[a]] = data(b)
        elif kind == EV_GIFT:
            events.append({"type": "gift", "turn": turn, "seat": a, "card": b})
        elif kind == EV_DRAW:
            events.append({"type": "draw", "turn": turn, "seat": a, "deck": DECKS[b], "card": c,
                           "phase": DRAW_PHASES[d], "hand": e})
        elif kind == EV_SHUFFLE:
            events.append({"type": "shuffle", "turn": turn, "deck": DECKS[a], "order": data(b)})
        elif kind == EV_TURN:
            events.append({"type": "turn", "turn": turn, "seat": a, "at": b})
        elif kind == EV_LEAVE:
            events.append({"type": "leave", "turn": turn, "seat": a, "card": b})
        elif kind == EV_TRANSPORT:
            events.append({"type": "transport", "turn": turn, "seat": a, "card": _none(b), "kept": bool(c),
                           "limit": _none(d)})
        elif kind == EV_KARMA:
            events.append({"type": "karma", "turn": turn, "seat": a, "card": b, "slot": c})
        elif kind == EV_PASS:
            events.append({"type": "pass", "turn": turn, "seat": a})
        elif kind == EV_LAND:
            entries = board.land[c] or ()
            events.append({"type": "land", "turn": turn, "seat": a, "card": b, "from": c, "to": d,
                           "tied": sorted(entries) if len(entries) >= 2 else [], "by": _none(e),
                           "roll": f if f > 0 else None})
        elif kind == EV_STEP:
            events.append({"type": "step", "turn": turn, "seat": a, "from": b, "to": c})
        elif kind == EV_REMOVE:
            removed = [s for s in range(64) if (d >> s) & 1]
            events.append({"type": "remove", "turn": turn, "seat": a, "card": b, "slot": c, "removed": removed,
                           "cards": data(e)})
        elif kind == EV_MOVE:
            move = {"type": "move", "turn": turn, "seat": a, "card": b, "base": c, "karma": d, "speed": e,
                    "path": [f], "rolls": []}
            events.append(move)
        elif kind == EV_PATH:  # from, to, roll, blocked
            assert move is not None and move["path"][-1] == a, f"trace row {i - 1}: a step outside a move"
            if not d:  # d = 1: a roll naming a space the vehicle cannot take ends the move
                move["path"].append(b)
            if c > 0:
                move["rolls"].append({"at": a, "roll": c, "to": b})
        elif kind == EV_CLEANUP:
            events.append({"type": "cleanup", "turn": turn, "seat": a, "discarded": data(c), "kept": _none(b)})
        elif kind == EV_REFILL:
            events.append({"type": "refill", "turn": turn, "seat": a, "discarded": data(b)})
        elif kind == EV_END:
            st = ctx.st
            at = [int(st[PAWN + s]) for s in range(n_seats)]
            events.append({"type": "end", "turn": turn, "winner": a, "reason": reasons[b], "at": at,
                           "togo": [int(st[TOGO_SCORE + s]) for s in range(n_seats)]})
        else:  # pragma: no cover - the kernel writes no other kind
            raise RuntimeError(f"unknown trace row kind {kind}")
    gifts = board.decks.gifts
    setup = ctx.setup(
        turn=0,
        board=board.to_json(),
        cards=[dict(c) for c in board.decks.cards],
        gifts={"airport": gifts["airport"], "station": gifts["station"]},
        decks={name: decks.get(name, []) for name in DECKS},
        squares=[board.number[v] for v in start],
        start=start,
        hand_limit=hand_limit_for(ctx.params, n_seats),
    )
    return [setup, *events]
