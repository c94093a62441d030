"""The trace declared once (balance.state.Events): each event's writer, its
decoding and the docs' schema come from one declaration.

What is measured: rows written by the compiled writers decode to the declared
fields, kind by kind; every event a game's traces hold is one it declares, with
exactly its declared fields (events decoded field by field); docs/events.md is
what the declarations generate."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from balance.registry import _entry_points, game_names, get_game
from balance.state import EVENT_ROWS, EVENT_WIDTH, EVENTS_AT, N_EVENTS, RECORD, Events, event_value

ROOT = Path(__file__).resolve().parents[1]


def _state(rows=8):
    st = np.zeros(2000, np.int64)
    st[RECORD] = 1
    st[EVENTS_AT] = 1000
    st[EVENT_ROWS] = rows
    return st


def test_writers_and_the_decoder_read_one_declaration():
    from numba import njit

    events = Events()
    moved = events.declare("move", ["seat", "-", "to:opt", "stayed:bool"], "a move")
    ended = events.declare("end", ["reason:reason", "winner", "score:seats"], "the end")
    dropped = events.declare("drop", ["citizens:list"], "a drop")
    write_move, begin_end, write_drop = moved.write, ended.begin, dropped.write

    @njit
    def play(st):
        write_move(st, 2, 99, -1, 1)
        write_drop(st, 7)
        if st[RECORD]:  # begin writes a row unconditionally: the kernel asks first
            at = begin_end(st)
            st[event_value(at, 0)] = 1
            st[event_value(at, 1)] = 0
            for s in range(3):
                st[event_value(at, 2 + s)] = 10 * s

    st = _state()
    play(st)
    n = int(st[N_EVENTS])
    rows = st[1000 : 1000 + n * EVENT_WIDTH].reshape(n, EVENT_WIDTH)
    ctx = SimpleNamespace(rows=rows, n_seats=3, spec=SimpleNamespace(end_reason_names=["a", "b"]),
                          setup=lambda **kw: {"type": "setup", **kw})
    assert events.decode(ctx, board="x") == [
        {"type": "setup", "board": "x"},
        {"type": "move", "turn": 0, "seat": 2, "to": None, "stayed": True},
        {"type": "drop", "turn": 0, "citizens": [7]},
        {"type": "end", "turn": 0, "reason": "b", "winner": 0, "score": [0, 10, 20]},
    ]
    st[RECORD] = 0
    play(st)
    assert int(st[N_EVENTS]) == n  # nothing is written while the game is not traced
    assert [e["event"] for e in events.schema()] == ["move", "end", "drop"]
    assert [f["name"] for f in events.schema()[0]["fields"]] == ["seat", "to", "stayed"]


def test_a_declaration_refuses_what_a_row_cannot_hold():
    events = Events()
    with pytest.raises(ValueError, match="six|6"):
        events.declare("big", list("abcdefg"), "seven values")
    with pytest.raises(ValueError, match="kinds"):
        events.declare("odd", ["x:float"], "an unknown kind")
    events.declare("twice", ["x"], "")
    with pytest.raises(ValueError, match="twice"):
        events.declare("twice", ["x"], "")


DECLARING = [g for g in game_names() if get_game(g).events is not None]


@pytest.mark.parametrize("game", DECLARING)
def test_every_traced_event_is_declared_with_its_fields(game):
    spec = get_game(game)
    declared = {k.name: k for k in spec.events.kinds}
    players = list(spec.default_players)
    distinct = [spec.parse_player(p) for p in dict.fromkeys(players)]
    seating = np.asarray([[list(dict.fromkeys(players)).index(p) for p in players]], np.int64)
    seen = set()
    for g in range(3):
        for ev in spec.trace(spec.resolve_params({}), distinct, seating, 11, g)[1:]:
            kind = declared.get(ev["type"])
            assert kind is not None, f"{game}: event {ev['type']!r} is not declared"
            seen.add(ev["type"])
            if kind.custom is None:
                assert set(ev) == {"type", "turn", *(f.name for f in kind.fields if not f.skipped)}, ev
    assert "end" in seen


def test_docs_events_page_is_what_the_declarations_generate():
    from balance.cli.listing import events_markdown

    page = events_markdown([get_game(g) for g in sorted(_entry_points())])  # what the CLI lists, test games aside
    assert (ROOT / "docs" / "events.md").read_text(encoding="utf-8") == page, (
        "docs/events.md is stale: balance events --markdown > docs/events.md"
    )
