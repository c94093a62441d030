"""The runner: aggregation equals a direct count; chunking and threads change nothing."""

from __future__ import annotations

import numpy as np
import pytest

import balance
from balance.aggregate import Aggregate
from balance.runner import seatings_for, split


def test_aggregate_equals_direct_count(dicerace):
    params = dicerace.resolve_params({"first_bonus": 1})
    players = [dicerace.player("plain"), dicerace.player("cautious")]
    seatings = seatings_for([0, 1], rotate=True)
    out = dicerace.simulate(params, players, seatings, 5, 100, 5001)
    agg = Aggregate.from_outcomes(out, seatings, 100, 2, 2)
    assert agg.games == 5001
    for s in range(2):
        assert agg.seat_wins[s] == int((out.winner == s).sum())
    assert agg.no_winner == int((out.winner < 0).sum())
    assert agg.end_reasons.tolist() == [int((out.end_reason == r).sum()) for r in range(2)]
    assert agg.turns_hist.sum() == 5001
    assert (agg.turns_hist == np.bincount(out.turns)).all()
    # strategy wins counted game by game
    games = np.arange(100, 5101)
    strat_of_winner = [seatings[g % 2][w] for g, w in zip(games, out.winner) if w >= 0]
    assert agg.strategy_wins.tolist() == [strat_of_winner.count(0), strat_of_winner.count(1)]
    assert agg.strategy_games.tolist() == [5001, 5001]
    assert agg.seat_strategy_games.sum() == 2 * 5001


def test_chunking_and_threads_do_not_change_results(dicerace):
    a = balance.run("dicerace", games=30_000, params={"first_bonus": 3}, seed=11).to_dict()
    b = balance.run("dicerace", games=30_000, params={"first_bonus": 3}, seed=11, chunk=997, threads=1).to_dict()
    for key in ("seats", "strategies", "end_reasons", "turns", "no_winner"):
        assert a[key] == b[key]


def test_prefix_property(dicerace):
    """The first 1,000 games of a 20,000-game run are the games of a 1,000-game run."""
    params = dicerace.resolve_params({})
    players = [dicerace.player("plain")]
    seatings = np.zeros((1, 2), np.int64)
    long = dicerace.simulate(params, players, seatings, 3, 0, 20_000)
    short = dicerace.simulate(params, players, seatings, 3, 0, 1_000)
    assert (long.winner[:1000] == short.winner).all()
    assert (long.turns[:1000] == short.turns).all()
    tail = dicerace.simulate(params, players, seatings, 3, 1000, 500)
    assert (long.turns[1000:1500] == tail.turns).all()


def test_merge_is_order_independent(dicerace):
    params = dicerace.resolve_params({})
    players = [dicerace.player("plain")]
    seatings = np.zeros((1, 2), np.int64)
    parts = [
        Aggregate.from_outcomes(dicerace.simulate(params, players, seatings, 1, f, n), seatings, f, 1, 2)
        for f, n in split(0, 10_000, 3_333)
    ]
    ab = parts[0].merge(parts[1]).merge(parts[2]).merge(parts[3])
    ba = parts[3].merge(parts[2]).merge(parts[0]).merge(parts[1])
    assert ab.games == ba.games == 10_000
    assert (ab.turns_hist == ba.turns_hist).all() and (ab.seat_wins == ba.seat_wins).all()


def test_seatings_rotation_covers_every_distinct_seating():
    assert seatings_for([0, 1], False).tolist() == [[0, 1]]
    assert seatings_for([0, 1], True).tolist() == [[0, 1], [1, 0]]
    rot = seatings_for([0, 0, 1], True).tolist()
    assert rot[0] == [0, 0, 1] and sorted(rot) == [[0, 0, 1], [0, 1, 0], [1, 0, 0]]
    assert len(seatings_for([0, 1, 2, 3], True)) == 24


def test_rotation_balances_a_strong_and_weak_player(dicerace):
    r = balance.run("dicerace", games=20_000, players="plain,cautious", rotate_seats=True, seed=2).to_dict()
    plain, cautious = r["strategies"]
    assert plain["games"] == cautious["games"] == 20_000
    assert plain["win_rate"] > cautious["win_rate"]
    # each seating half the games: seat 0 holds each strategy 10,000 times
    assert "warning" not in r


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": 0}, "--games"),
        ({"seed": -1}, "--seed"),
        ({"players": "plain"}, "players"),
        ({"players": "plain,nobody"}, "unknown player 'nobody'"),
        ({"params": {"target": 0}}, "target"),
        ({"params": {"nope": 1}}, "unknown parameter 'nope'"),
        ({"params": {"target": "8.5"}}, "target"),
    ],
)
def test_bad_input_raises_user_error(dicerace, kwargs, message):
    with pytest.raises(balance.UserError, match=message):
        balance.run("dicerace", **{"games": 10, **kwargs})
