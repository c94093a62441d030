"""Carmarace properties over parameters, players, seat counts and seeds (hypothesis).

Checked on the referee's replayed state (tests/carmarace/referee.py), at every
event of the trace, not on the kernel's own bookkeeping:

* every game ends, by the Convention or at the turn limit, within max_turns;
* the cards in the hands, draw piles, discard piles, in front of the players,
  the vehicle and its row always add up to the four decks, deck by deck;
* a pawn only stands on spaces its vehicle may use: every step of every move
  onto a space of the vehicle's class (road vehicles the road, tracks
  vehicles the road and the tracks, trains the tracks, planes the sky), and a
  pawn in the sky between turns has its plane in front (plane_stays_aloft);
* no hand ever holds more than the hand limit (or the gift cards, if more).
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sims.carmarace import SPEC
from tests.carmarace.referee import DECKS, referee
from tests.property import GAME_INDICES, SEEDS, params_for

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PLAYERS = ["hunter", "saboteur", "racer", "random", "mc:rollouts=2;horizon=2"]
ALLOWED = {"road": ("road",), "tracks": ("road", "track"), "train": ("track",), "plane": ("sky",)}


def tables():
    return st.integers(2, 6).flatmap(lambda n: st.lists(st.sampled_from(PLAYERS), min_size=n, max_size=n))


def play(params, labels, seed, game):
    params = dict(params)
    params["max_turns"] = min(params["max_turns"], 2000)
    distinct = list(dict.fromkeys(labels))
    players = [SPEC.parse_player(x) for x in distinct]
    seating = np.asarray([[distinct.index(x) for x in labels]], np.int64)
    events = SPEC.trace(params, players, seating, seed, game)
    return params, json.loads(json.dumps(events))


def check(i, ev, s):
    where = f"event {i} ({ev['type']})"
    # conservation, deck by deck
    held = Counter()
    for d in DECKS:
        for c in s.draw.get(d, []) + s.discard[d]:
            held[s.cards[c]["deck"]] += 1
    for cards in s.hands + [s.pending] + [[c] for c in s.front if c is not None] + s.slots:
        for c in cards:
            held[s.cards[c]["deck"]] += 1
    if s.vehicle is not None and not s.vehicle_kept:
        held["transport"] += 1
    assert held == Counter(c["deck"] for c in s.cards), f"{where}: cards not conserved {held}"
    assert all(len(h) <= s.max_hand for h in s.hands), f"{where}: a hand over the limit"
    # pawns on spaces their vehicles may use
    if ev["type"] == "move":
        card = s.cards[ev["card"]]
        kind = card["mode"] if card["mode"] != "road" else ("tracks" if card["tracks"] and not s.young else "road")
        for v in ev["path"][1:]:
            assert s.cls[v] in ALLOWED[kind], f"{where}: a {card['name']} on {s.nodes[v]} ({s.kind[v]})"
    if ev["type"] == "turn" and s.params["plane_stays_aloft"]:
        for seat, v in enumerate(s.pawn):
            if s.kind[v] == "sky":
                front = s.front[seat]
                assert front is not None and s.cards[front]["mode"] == "plane", f"{where}: seat {seat} aloft, no plane"


@SETTINGS
@given(params=params_for(SPEC), labels=tables(), seed=SEEDS, game=GAME_INDICES)
def test_every_game_ends_and_cards_and_pawns_stay_legal(params, labels, seed, game):
    params, events = play(params, labels, seed, game)
    state = referee(events, check)
    end = events[-1]
    assert end["type"] == "end" and 1 <= end["turn"] <= params["max_turns"]
    if end["reason"] == "convention":
        assert state.pawn[end["winner"]] == state.convention and end["togo"][end["winner"]] == 0
    else:
        assert end["turn"] == params["max_turns"] and end["winner"] == -1


@SETTINGS
@given(labels=tables(), seed=SEEDS, game=GAME_INDICES, good=st.booleans(), young=st.booleans())
def test_the_variants_keep_the_same_laws(labels, seed, game, good, young):
    params = SPEC.resolve_params({"good_karma_step": good, "young_players": young})
    _, events = play(params, labels, seed, game)
    referee(events, check)
    if young:
        assert all(e["type"] not in ("land", "remove") for e in events)
        assert not any(e["type"] == "transport" and e["kept"] and events[0]["cards"][e["card"]]["mode"] == "road"
                       for e in events)
    if not good:
        assert all(e["type"] != "step" for e in events)
