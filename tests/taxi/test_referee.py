"""The referee replays hundreds of TAXI! traces and rejects corrupted ones.

Default run: 520 traces (every built-in player, mc at a small budget, 2-6
seats, short and long games, random parameter values inside their ranges, the
spec's variants, two user boards); more under ``-m slow``.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import numpy as np
import pytest

from balance.registry import get_game
from tests.property import random_value
from tests.taxi.referee import referee, replay

SPEC = get_game("taxi")
BOARDS = Path(__file__).with_name("boards")
VILLAGE = str(BOARDS / "village.toml")
DECKS_ONLY = str(BOARDS / "decks_only.toml")
SEARCH = "mc:rollouts=4;horizon=4"
VARIANTS = (
    {"arrival_window": "turn"},
    {"game_length": "long"},
    {"card_optional": True},
    {"stop_on_freeway": True},
    {"expense_per_plate": True, "plate_price": 6000},
    {"eliminate_on_debt": False, "start_money": 500},
    {"final_hire_fee": False},
    {"hire_fee": 0},
    {"destination_bonus": 6010},
    {"green_supply": 1, "freeway_supply": 0, "barrier_supply": 1, "plate_supply": 1},
    {"freeway_faces": 6, "green_faces": 6},
    {"taxi_stake": 2000, "plate_price": 9000},
)


MONEY = ("start_money", "destination_bonus", "hire_fee", "plate_price", "plate_value", "plate_sale",
         "money_stake", "money_prize", "taxi_stake")


def random_params(spec, rng):
    """Every parameter drawn inside its range (tests/property.py), amounts rounded
    to $10 notes and the die kept to 12 faces, as check_params asks."""
    values = {p.name: random_value(p, rng) for p in spec.params}
    for name in MONEY:
        values[name] -= values[name] % 10
    values["green_faces"] = min(values["green_faces"], 12 - values["freeway_faces"])
    return spec.resolve_params(values)


def players_for(labels):
    distinct = list(dict.fromkeys(labels))
    return [SPEC.parse_player(x) for x in distinct], np.asarray([[distinct.index(x) for x in labels]])


def trace(labels, params=None, seed=0, game=0, board=None):
    players, seating = players_for(labels)
    values = SPEC.resolve_params(params or {})
    events = SPEC.trace(values, players, seating, seed, game, SPEC.board_for(board))
    return json.loads(json.dumps(events))


def cases(n, rng, board=None, max_seats=6):
    names = [p.name for p in SPEC.heuristics] + ["mc"]
    for k in range(n):
        seats = rng.randint(2, max_seats)
        labels = [rng.choice(names) for _ in range(seats)]
        labels = [SEARCH if x == "mc" else x for x in labels]
        if all(x == "random" for x in labels):
            labels[0] = "cautious"  # all-random games rarely finish: keep the default run short
        u = rng.random()
        if u < 0.3:
            params = {}
        elif u < 0.6:
            params = dict(rng.choice(VARIANTS))
        else:
            params = random_params(SPEC, rng)
            params["max_turns"] = min(params["max_turns"], 3000)
        yield labels, params, rng.randrange(2**32), rng.randrange(10_000), board


def run_cases(batch):
    kinds: dict[str, int] = {}
    for labels, params, seed, game, board in batch:
        events = trace(labels, params, seed, game, board)
        try:
            st = replay(events)
        except AssertionError as exc:
            raise AssertionError(f"{labels} {params} seed {seed} game {game} board {board}: {exc}") from None
        for k, v in st.counts.items():
            kinds[k] = kinds.get(k, 0) + v
    return kinds


def test_500_traces_pass_the_referee():
    rng = random.Random("taxi-referee")
    batch = list(cases(420, rng))
    batch += list(cases(60, rng, board=DECKS_ONLY))
    batch += list(cases(40, rng, board=VILLAGE, max_seats=2))
    assert len(batch) >= 500
    kinds = run_cases(batch)
    # every event kind of the schema was checked, most of them many times
    for kind in ("turn", "barrier", "buy", "shuffle", "card", "bet", "reveal", "sell", "eliminate", "roll",
                 "move", "arrive", "tablet", "leg_end", "hire", "expense", "end", "leg"):
        assert kinds.get(kind, 0) >= 5, f"only {kinds.get(kind, 0)} {kind} events checked"


@pytest.mark.slow
def test_1200_more_traces_pass_the_referee():
    rng = random.Random("taxi-referee-slow")
    batch = list(cases(900, rng)) + list(cases(180, rng, board=DECKS_ONLY))
    batch += list(cases(120, rng, board=VILLAGE, max_seats=2))
    run_cases(batch)


def test_all_random_players_reach_the_cap_and_pass():
    events = trace(["random"] * 3, {"max_turns": 300}, seed=5, game=1)
    referee(events)
    assert events[-1]["reason"] in ("turn_limit", "completed", "last_standing")


# --------------------------------------------------------------------------- corrupted traces
def base_trace():
    return trace(["router", "gambler", "investor", "cautious"], {}, seed=3, game=7)


def rejected(events, match=None):
    with pytest.raises(AssertionError, match=match):
        referee(events)


def first(events, kind, where=lambda e: True):
    return next(i for i, e in enumerate(events) if e["type"] == kind and where(e))


@pytest.fixture(scope="module")
def good():
    events = base_trace()
    referee(events)
    return events


def corrupt(good, kind, change, where=lambda e: True):
    events = copy.deepcopy(good)
    i = first(events, kind, where)
    change(events[i])
    return events


def test_the_untouched_trace_passes(good):
    referee(copy.deepcopy(good))


def test_a_changed_amount_is_rejected(good):
    rejected(corrupt(good, "card", lambda e: e.update(money=e["money"] + 10), lambda e: e["deck"] != "none"))
    rejected(corrupt(good, "hire", lambda e: e.update(fee=e["fee"] - 100)))
    rejected(corrupt(good, "leg_end", lambda e: e.update(share=e["share"] + 10)))


def test_an_illegal_move_is_rejected(good):
    def jump(e):
        e["path"] = [e["path"][0], e["path"][-1]] if len(e["path"]) > 2 else e["path"] + [e["path"][0]]

    rejected(corrupt(good, "move", jump, lambda e: len(e["path"]) > 2))
    # a step backwards along a one-way freeway
    events = copy.deepcopy(good)
    i = first(events, "move", lambda e: len(e["path"]) > 1)
    events[i]["path"] = list(reversed(events[i]["path"]))
    rejected(events)


def test_too_many_streets_are_rejected(good):
    rejected(corrupt(good, "roll", lambda e: e.update(die=1, streets=1 + e["bonus"]), lambda e: e["die"] > 1))


def test_a_swapped_card_is_rejected(good):
    def swap(e):
        e["card"] = (e["card"] + 1) % 50

    rejected(corrupt(good, "card", swap, lambda e: e["deck"] != "none"))


def test_a_wrong_winner_is_rejected(good):
    events = copy.deepcopy(good)
    end = events[-1]
    end["winner"] = (end["winner"] + 1) % 4
    rejected(events)


def test_a_bad_tablet_or_die_is_rejected(good):
    rejected(corrupt(good, "tablet", lambda e: e.update(face=13)))
    rejected(corrupt(good, "tablet", lambda e: e.update(result="green", granted=True), lambda e: e["result"] == "blank"))
    rejected(corrupt(good, "roll", lambda e: e.update(die=7, streets=7 + e["bonus"])))


def test_a_bet_without_stake_or_a_wrong_reveal_is_rejected():
    rng = random.Random(11)
    for _ in range(200):
        events = trace(["gambler", "gambler", "router"], {}, seed=rng.randrange(2**32))
        bets = [i for i, e in enumerate(events) if e["type"] == "bet" and e["word"] != "none"]
        if bets:
            break
    referee(events)
    i = bets[0]
    bad = copy.deepcopy(events)
    k = first(bad, "reveal")
    bad[k]["winners"] = bad[k]["winners"] + [bad[k]["seat"]]
    rejected(bad)
    bad = copy.deepcopy(events)
    bad[i]["word"] = {"money": "taxi", "taxi": "money", "freeway": "money"}[bad[i]["word"]]
    rejected(bad)


def test_a_missing_or_extra_event_is_rejected(good):
    events = copy.deepcopy(good)
    del events[first(events, "tablet")]
    rejected(events)
    events = copy.deepcopy(good)
    i = first(events, "turn")
    events.insert(i + 1, {"type": "buy", "turn": events[i]["turn"], "seat": events[i]["seat"], "price": 15000,
                          "money": -5660, "plates": 1})
    rejected(events)
    events = copy.deepcopy(good)
    events[first(events, "move")]["extra"] = 1
    rejected(events, match="fields")


def test_a_shuffle_out_of_turn_or_a_bad_order_is_rejected(good):
    events = copy.deepcopy(good)
    i = first(events, "card", lambda e: e["deck"] == "passenger")
    events.insert(i, {"type": "shuffle", "turn": events[i]["turn"], "deck": "passenger", "order": list(range(50))})
    rejected(events)
    events = copy.deepcopy(good)
    events[0]["order"]["journey"][0] = events[0]["order"]["journey"][1]
    rejected(events)
