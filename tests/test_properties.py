"""Hypothesis properties over parameters, players and seeds (strategies: tests/property.py).

Every property is checked on the referee's replayed state, at every event of the
trace (an observer of the replay), not on the kernel's own bookkeeping:

* Carnage: every game ends; money is conserved (start + fares - cars - upkeep);
  commuter tokens are conserved (free + waiting + riding = commuter_tokens) and
  so are passengers (spawned = waiting + riding + delivered + returned by losers);
  no two cars share a street; no car holds more than car_capacity.

Bahama Taxi's properties live in tests/bahama/test_properties.py.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance.errors import UserError
from tests.property import setups, trace_events
from tests.referees.carnage import CarnageState, referee_carnage

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _spec(name):
    try:
        from balance.registry import get_game

        return get_game(name)
    except (ImportError, AttributeError, UserError) as exc:  # game not there yet
        pytest.skip(f"{name} game not available: {exc}")


@pytest.fixture(scope="module")
def carnage():
    return _spec("carnage")


# ---- Carnage ------------------------------------------------------------------------
def carnage_invariants(i: int, ev: dict, s: CarnageState) -> None:
    where = f"event {i} ({ev['type']})"
    n_tok = s.params["commuter_tokens"]
    assert s.n_free() + s.n_waiting() + s.n_riding() == n_tok, (
        f"{where}: tokens not conserved"
    )
    assert s.spawned == s.n_waiting() + s.n_riding() + sum(s.delivered) + s.returned, (
        f"{where}: passengers"
    )
    start = s.params["start_money"]
    for p in range(len(s.players)):
        assert s.money[p] == start + s.fares[p] - s.costs[p] - s.upkeep[p], (
            f"{where}: money of seat {p}"
        )
    streets = [st_ for cars in s.fleet for st_ in cars if st_ is not None]
    assert len(streets) == len(set(streets)), f"{where}: two cars share a street"
    for p, cars in enumerate(s.riding):
        for c, aboard in enumerate(cars):
            assert len(aboard) <= s.params["car_capacity"], (
                f"{where}: car {(p, c)} over capacity"
            )
            if aboard:
                assert s.fleet[p][c] is not None, (
                    f"{where}: passengers in a car off the board"
                )


@SETTINGS
@given(data=st.data())
def test_carnage_properties(carnage, data):
    params, names, seed, game = data.draw(setups(carnage), label="setup")
    events = trace_events(carnage, params, names, seed, game)
    state = referee_carnage(events, carnage_invariants)
    # Every game ends, with an end event and a known reason.
    assert state.ended and events[-1]["type"] == "end"
    assert state.turn <= params["max_turns"]
    assert state.reason in (
        "deliveries",
        "cars",
        "last_standing",
        "gridlock",
        "turn_limit",
    )
    # The end event reports the conserved amounts.
    start = params["start_money"]
    assert events[-1]["money"] == [
        start + f - c - u for f, c, u in zip(state.fares, state.costs, state.upkeep)
    ]
    assert sum(events[-1]["delivered"]) <= state.spawned


@SETTINGS
@given(data=st.data())
def test_carnage_trace_is_reproducible(carnage, data):
    params, names, seed, game = data.draw(setups(carnage), label="setup")
    assert trace_events(carnage, params, names, seed, game) == trace_events(
        carnage, params, names, seed, game
    )


# ---- the refereed game is the simulated game ----------------------------------------
def _simulated(spec, params, names, seed, game):
    import numpy as np

    players = [spec.player(n) for n in names]
    seatings = np.arange(len(players), dtype=np.int64)[None, :]
    out = spec.simulate(params, players, seatings, seed, game, 1, spec.load_board(None))
    return (
        int(out.winner[0]),
        spec.end_reasons[int(out.end_reason[0])],
        int(out.turns[0]),
        [int(x) for x in out.score[0]],
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_carnage_trace_is_the_simulated_game(carnage, data):
    params, names, seed, game = data.draw(setups(carnage), label="setup")
    end = trace_events(carnage, params, names, seed, game)[-1]
    assert _simulated(carnage, params, names, seed, game) == (
        end["winner"],
        end["reason"],
        end["turn"],
        end["delivered"],
    )
