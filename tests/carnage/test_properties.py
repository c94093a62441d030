"""Hypothesis properties of Carnage over parameters, players and seeds
(strategies: tests/property.py; players: every built-in one, mc at a small
budget, tests/carnage/helpers.py).

Every property is checked on the referee's replayed state, at every event of the
trace (an observer of the replay), not on the kernel's own bookkeeping: every
game ends; money is conserved (start + fares - cars - upkeep, and with a
bank limit, bank + the money of the seats in play = bank_money); commuter tokens
are conserved (free + waiting + riding = commuter_tokens) and so are
passengers (spawned = waiting + riding + delivered + returned by losers); no
two cars share a street; no car holds more than car_capacity.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.carnage.helpers import player_labels, simulated, trace_events
from tests.carnage.referee import CarnageState, replay
from tests.property import GAME_INDICES, SEEDS, params_for

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def carnage():
    from sims.carnage import SPEC

    return SPEC


@st.composite
def setups(draw, spec):
    """(params, player labels, seed, game index)."""
    labels = st.lists(st.sampled_from(player_labels(spec)), min_size=spec.min_players, max_size=spec.max_players)
    return draw(params_for(spec)), draw(labels), draw(SEEDS), draw(GAME_INDICES)


def carnage_invariants(i: int, ev: dict, s: CarnageState) -> None:
    where = f"event {i} ({ev['type']})"
    n_tok = s.params["commuter_tokens"]
    assert s.n_free() + s.n_waiting() + s.n_riding() == n_tok, f"{where}: tokens not conserved"
    assert s.spawned == s.n_waiting() + s.n_riding() + sum(s.delivered) + s.returned, f"{where}: passengers"
    for p in range(len(s.players)):
        assert s.money[p] == s.dealt[p] + s.fares[p] - s.costs[p] - s.upkeep[p], f"{where}: money of seat {p}"
    if s.params["bank_money"] > 0:
        in_play = sum(max(m, 0) for m, alive in zip(s.money, s.alive) if alive)
        assert s.bank >= 0 and s.bank + in_play == s.params["bank_money"], f"{where}: bank"
    streets = [st_ for cars in s.fleet for st_ in cars if st_ is not None]
    assert len(streets) == len(set(streets)), f"{where}: two cars share a street"
    for p, cars in enumerate(s.riding):
        for c, aboard in enumerate(cars):
            assert len(aboard) <= s.params["car_capacity"], f"{where}: car {(p, c)} over capacity"
            if aboard:
                assert s.fleet[p][c] is not None, f"{where}: passengers in a car off the board"


@SETTINGS
@given(data=st.data())
def test_carnage_properties(carnage, data):
    params, labels, seed, game = data.draw(setups(carnage), label="setup")
    events = trace_events(carnage, params, labels, seed, game)
    state = replay(events, carnage_invariants)
    # Every game ends, with an end event and a known reason.
    assert state.ended and events[-1]["type"] == "end"
    assert state.turn <= params["max_turns"]
    assert state.reason in carnage.end_reason_names
    # The end event reports the conserved amounts.
    dealt = events[0]["money"]
    assert events[-1]["money"] == [m + f - c - u for m, f, c, u in zip(dealt, state.fares, state.costs, state.upkeep)]
    assert sum(events[-1]["delivered"]) <= state.spawned


@SETTINGS
@given(data=st.data())
def test_carnage_trace_is_reproducible(carnage, data):
    params, labels, seed, game = data.draw(setups(carnage), label="setup")
    assert trace_events(carnage, params, labels, seed, game) == trace_events(carnage, params, labels, seed, game)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_carnage_trace_is_the_simulated_game(carnage, data):
    params, labels, seed, game = data.draw(setups(carnage), label="setup")
    end = trace_events(carnage, params, labels, seed, game)[-1]
    assert simulated(carnage, params, labels, seed, game) == (end["winner"], end["reason"], end["turn"], end["delivered"])
