"""Hypothesis properties of Bahama Taxi over parameters, players and seeds
(strategies: tests/property.py), checked on the referee's replayed state at
every event of the trace (an observer of the replay), not on the kernel's own
bookkeeping: every game ends; the 52 cards are accounted for (pile, start
cards, discard, citizens); at most one taxi per field; capacity and the
end-phase limits hold at every pick-up; income is the fares of the citizens
delivered; a citizen left waiting (pickup = optional only) stays where it
waited; a trace is reproducible and its end is the simulated outcome.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.bahama.referee import BahamaState, referee_bahama
from tests.property import setups, trace_events

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def bahama():
    from sims.bahama import SPEC

    return SPEC


def bahama_invariants(i: int, ev: dict, s: BahamaState) -> None:
    where = f"event {i} ({ev['type']})"
    assert s.cards_accounted() is None, f"{where}: {s.cards_accounted()}"
    assert len(s.deck) == 52
    assert len(set(s.position)) == len(s.position), f"{where}: two taxis on one field"
    for p, aboard in enumerate(s.aboard):
        assert len(aboard) <= s.capacity, f"{where}: seat {p} over capacity"
    drawn = len(s.citizen_origin)
    riding = sum(len(a) for a in s.aboard)
    assert drawn == len(s.waiting()) + riding + sum(s.delivered), f"{where}: citizens not conserved"
    if ev["type"] == "pickup":
        # The end-phase limits, restated on the state after the pick-up: a taxi that
        # took a citizen under a lock holds at most what the lock allows.
        seat = ev["seat"]
        waiting_before = len(s.waiting()) + len(ev["citizens"])
        if s.second_lock and waiting_before <= s.second_lock_waiting:
            assert len(s.aboard[seat]) <= 1, f"{where}: 2nd passenger with {waiting_before} waiting"
        if s.third_lock and len(s.aboard[seat]) >= 3:
            # the replacement is not drawn yet: s.pile() is the pile at the pick-up
            assert s.pile() >= 2, f"{where}: 3rd passenger with the pile out"
    if ev["type"] == "decline":
        # The rulebook's "may take": only with pickup = optional, and the citizen stays.
        assert s.pickup_optional, f"{where}: decline under compulsory pick-up"
        assert s.citizen_where[ev["citizens"][0]] == ("wait", ev["field"]), f"{where}: declined citizen moved"
    income = [0] * len(s.players)
    for k, w in enumerate(s.citizen_where):
        if w[0] == "done":
            income[w[1]] += s.dist[s.citizen_origin[k]][s.citizen_dest[k]]
    assert income == s.income, f"{where}: income is not the fares delivered"


@SETTINGS
@given(data=st.data())
def test_bahama_properties(bahama, data):
    params, names, seed, game = data.draw(setups(bahama), label="setup")
    events = trace_events(bahama, params, names, seed, game)
    state = referee_bahama(events, bahama_invariants)
    assert state.ended and events[-1]["type"] == "end"
    assert state.turn <= params["max_turns"]
    if state.reason == "no_waiting":
        assert not state.waiting()
    else:
        assert state.reason == "turn_limit" and state.turn == params["max_turns"]
    best = max(state.income)
    leaders = [p for p, x in enumerate(state.income) if x == best]
    if state.reason == "no_waiting":
        assert events[-1]["winner"] == (leaders[0] if len(leaders) == 1 else -1)


@SETTINGS
@given(data=st.data())
def test_bahama_trace_is_reproducible(bahama, data):
    params, names, seed, game = data.draw(setups(bahama), label="setup")
    assert trace_events(bahama, params, names, seed, game) == trace_events(bahama, params, names, seed, game)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bahama_trace_is_the_simulated_game(bahama, data):
    params, names, seed, game = data.draw(setups(bahama), label="setup")
    end = trace_events(bahama, params, names, seed, game)[-1]
    assert _simulated(bahama, params, names, seed, game) == (
        end["winner"],
        end["reason"],
        end["turn"],
        end["income"],
    )


def _simulated(spec, params, names, seed, game):
    distinct = list(dict.fromkeys(names))  # labels: mc comes as mc:rollouts=4 (tests/property.py)
    players = [spec.parse_player(n) for n in distinct]
    seatings = np.asarray([[distinct.index(n) for n in names]], dtype=np.int64)
    out = spec.simulate(params, players, seatings, seed, game, 1, spec.load_board(None))
    return (
        int(out.winner[0]),
        spec.end_reason_names[int(out.end_reason[0])],
        int(out.turns[0]),
        [int(x) for x in out.score[0]],
    )
