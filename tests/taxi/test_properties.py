"""Hypothesis properties of TAXI!, checked on the referee's replayed state at every
event of a trace (an observer of the replay), not on the kernel's bookkeeping:

* every game ends (``end`` last, within ``max_turns``);
* money is conserved up to the bank: the players' money is the start money plus
  what the bank paid (bonuses, prizes, fares, plate sales) minus what it received
  (fines, fees, expenses, purchases);
* tablets, barriers and plates are conserved: held + supply (+ barriers placed
  this turn) = the box;
* every move respects its allowance (streets <= die + bonus) and spends no more
  tablets than were held; amounts stay multiples of $10; money is negative only
  while a debt is being settled (or for good with ``eliminate_on_debt`` false).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.registry import get_game
from tests.property import GAME_INDICES, SEEDS, param_value
from tests.taxi.referee import Referee

SPEC = get_game("taxi")
NAMES = ["random", "cautious", "router", "gambler", "investor"]
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


MONEY = ("start_money", "destination_bonus", "hire_fee", "plate_price", "plate_value", "plate_sale",
         "money_stake", "money_prize", "taxi_stake")


@st.composite
def taxi_params(draw):
    """Every parameter inside its range (tests/property.py), amounts rounded to $10
    notes and the die's faces kept to 12, as check_params asks."""
    values = {p.name: draw(param_value(p)) for p in SPEC.params}
    for name in MONEY:
        values[name] -= values[name] % 10
    values["green_faces"] = min(values["green_faces"], 12 - values["freeway_faces"])
    return SPEC.resolve_params(values)


def short(params):
    params = dict(params)
    params["max_turns"] = min(params["max_turns"], 1500)
    return SPEC.resolve_params(params)


class Watch:
    """The observer: what the properties check at every event."""

    def __init__(self):
        self.roll = None
        self.moves = 0
        self.events = 0

    def __call__(self, i, ev, st):
        self.events += 1
        p = st.params
        box = (p["green_supply"], p["freeway_supply"], p["barrier_supply"], p["plate_supply"])
        held = (sum(st.greens) + st.supply["green"], sum(st.whites) + st.supply["freeway"],
                sum(st.barriers) + st.supply["barrier"] + st.placed, sum(st.plates) + st.supply["plate"])
        assert held == box, f"event {i}: the box is not conserved {held} != {box}"
        assert sum(st.money) == st.start_total + st.bank_out - st.bank_in, f"event {i}: money"
        assert all(m % 10 == 0 for m in st.money), f"event {i}: a sum that is not $10 notes"
        if p["eliminate_on_debt"]:
            assert all(st.out[s] or st.money[s] >= 0 or st.settling == s for s in range(st.n)), f"event {i}: debt"
        if ev["type"] == "roll":
            self.roll = ev["streets"]
        elif ev["type"] == "move":
            self.moves += 1
            assert ev["streets"] <= self.roll, f"event {i}: {ev['streets']} streets for {self.roll}"
            assert ev["greens_used"] + ev["greens"] >= 0 and ev["whites"] >= 0


def check(params, names, seed, game):
    distinct = list(dict.fromkeys(names))
    players = [SPEC.parse_player(x) for x in distinct]
    seating = np.asarray([[distinct.index(x) for x in names]])
    events = SPEC.trace(params, players, seating, seed, game)
    watch = Watch()
    Referee(events, watch).run()
    end = events[-1]
    assert end["type"] == "end" and end["turn"] <= params["max_turns"]
    assert watch.events == len(events)
    return events


@SETTINGS
@given(taxi_params(), st.lists(st.sampled_from(NAMES), min_size=2, max_size=6), SEEDS, GAME_INDICES)
def test_every_game_ends_and_conserves_money_tablets_barriers_and_plates(params, names, seed, game):
    check(short(params), names, seed, game)


@SETTINGS
@given(st.sampled_from([{}, {"arrival_window": "turn"}, {"game_length": "long"}, {"expense_per_plate": True},
                        {"eliminate_on_debt": False, "start_money": 0}, {"stop_on_freeway": True}]),
       st.lists(st.sampled_from(NAMES[1:]), min_size=2, max_size=6), SEEDS, GAME_INDICES)
def test_the_heuristics_finish_every_variant(variant, names, seed, game):
    events = check(SPEC.resolve_params(variant), names, seed, game)
    assert events[-1]["reason"] in ("completed", "last_standing")  # never the cap
