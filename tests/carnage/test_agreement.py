"""Simulation and traces agree, and outcomes depend only on (seed, g, params, players, board)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from balance.errors import UserError
from sims.carnage import SPEC

SEATINGS = np.array([[0, 1]])


def _players(*names):
    return [SPEC.player(n) for n in names]


def _outcome(o, i):
    return (
        int(o.winner[i]),
        SPEC.end_reason_names[o.end_reason[i]],
        int(o.turns[i]),
        o.score[i].tolist(),
    )


@pytest.mark.parametrize(
    "names, over",
    [
        (("greedy", "fleet"), {}),
        (("random", "nearest", "fleet"), {"car_cost": 6, "max_cars": 3}),
        (
            ("nearest", "greedy", "random", "fleet"),
            {"start_money": 30, "gridlock_limit": 4},
        ),
        (
            ("random", "random"),
            {
                "spawn_on_drop": 6,
                "car_capacity": 1,
                "commuter_tokens": 5,
                "max_turns": 40,
            },
        ),
    ],
)
def test_simulate_equals_trace_end_for_many_games(names, over):
    params = SPEC.resolve_params(over)
    players = _players(*names)
    seatings = np.arange(len(players))[None, :]
    seed = 987654321
    first = 1000
    out = SPEC.simulate(params, players, seatings, seed, first, 150)
    for i in range(0, 150, 3):
        events = SPEC.trace(params, players, seatings, seed, first + i)
        end = events[-1]
        assert end["type"] == "end"
        assert _outcome(out, i) == (
            end["winner"],
            end["reason"],
            end["turn"],
            end["delivered"],
        ), first + i
        assert sum(e["type"] == "turn" for e in events) == end["turn"]


def test_rotated_seatings_use_row_g_mod_p():
    params = SPEC.resolve_params({})
    players = _players("greedy", "fleet")
    rot = np.array([[0, 1], [1, 0]])
    both = SPEC.simulate(params, players, rot, 5, 0, 40)
    fixed = [SPEC.simulate(params, players, rot[[r]], 5, 0, 40) for r in (0, 1)]
    for g in range(40):
        assert _outcome(both, g) == _outcome(fixed[g % 2], g)
    trace = SPEC.trace(params, players, rot, 5, 3)
    assert trace[0]["players"] == ["fleet", "greedy"]


def test_outcomes_do_not_depend_on_chunking_or_threads():
    params = SPEC.resolve_params({})
    players = _players("greedy", "fleet")
    whole = SPEC.simulate(params, players, SEATINGS, 42, 0, 3000)
    parts = [
        SPEC.simulate(params, players, SEATINGS, 42, lo, n)
        for lo, n in ((0, 1), (1, 998), (999, 2001))
    ]
    for field in ("winner", "end_reason", "turns", "score"):
        joined = np.concatenate([getattr(p, field) for p in parts])
        assert np.array_equal(joined, getattr(whole, field)), field
    # the first 1,000 games of a long run are the games of a short run
    short = SPEC.simulate(params, players, SEATINGS, 42, 0, 1000)
    assert np.array_equal(short.turns, whole.turns[:1000])
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = SPEC.simulate(params, players, SEATINGS, 42, 0, 3000)
    finally:
        numba.set_num_threads(before)
    for field in ("winner", "end_reason", "turns", "score"):
        assert np.array_equal(getattr(single, field), getattr(whole, field)), field


def test_other_seeds_give_other_games():
    params = SPEC.resolve_params({})
    players = _players("greedy", "fleet")
    a = SPEC.simulate(params, players, SEATINGS, 1, 0, 500)
    b = SPEC.simulate(params, players, SEATINGS, 2, 0, 500)
    assert not np.array_equal(a.turns, b.turns)


def test_trace_setup_event_is_complete():
    params = SPEC.resolve_params({"car_cost": 12})
    events = SPEC.trace(params, _players("greedy", "fleet"), SEATINGS, 77, 9)
    setup = events[0]
    assert list(setup) == [
        "type",
        "game",
        "seed",
        "game_index",
        "params",
        "players",
        "board",
        "money",
    ]
    assert (
        setup["game"] == "carnage" and setup["seed"] == 77 and setup["game_index"] == 9
    )
    assert setup["params"] == params and setup["players"] == ["greedy", "fleet"]
    board = SPEC.load_board()
    assert setup["board"]["adjacency"] == [list(a) for a in board.adjacency]
    assert setup["board"]["hq"] == list(board.hq[:2])
    assert (
        len(setup["board"]["spawn_cards"]) == 16
        and len(setup["board"]["nodes"]) == board.n_streets
    )
    assert setup["money"] == [params["start_money"]] * 2
    hqs = events[1:3]  # hq = fixed: each seat's site, in seat order
    assert hqs == [
        {"type": "hq", "turn": 0, "seat": s, "street": int(board.hq[s])} for s in (0, 1)
    ]
    spawns = [e for e in events[3:5]]
    assert all(
        e["type"] == "spawn" and e["cause"] == "setup" and e["roll"] is None
        for e in spawns
    )


def test_trace_setup_event_under_chosen_hqs_and_a_bank():
    params = SPEC.resolve_params({"hq": "chosen", "bank_money": 25, "start_money": 10})
    players = _players("greedy", "fleet", "nearest")
    events = SPEC.trace(params, players, np.array([[0, 1, 2]]), 5, 1)
    board = SPEC.load_board()
    assert events[0]["board"]["hq"] == list(board.hq)  # every site may be chosen
    assert events[0]["money"] == [10, 10, 5]  # dealt from 25 tokens in seat order
    hqs = [e for e in events[1:4]]
    assert [e["seat"] for e in hqs] == [0, 1, 2]
    assert len({e["street"] for e in hqs}) == 3 and all(e["street"] in board.hq for e in hqs)


def test_outcome_arrays_have_the_contract_types():
    out = SPEC.simulate(
        SPEC.resolve_params({}),
        _players("greedy", "fleet", "nearest"),
        np.array([[0, 1, 2]]),
        3,
        0,
        50,
    )
    assert out.winner.dtype == np.int8 and out.end_reason.dtype == np.int8
    assert (
        out.turns.dtype == np.int32
        and out.score.dtype == np.int32
        and out.score.shape == (50, 3)
    )
    assert (
        len(
            SPEC.simulate(
                SPEC.resolve_params({}), _players("greedy", "fleet"), SEATINGS, 3, 0, 0
            )
        )
        == 0
    )


def test_more_players_than_hq_sites_is_refused(tmp_path):
    from tests.carnage.test_board import write_board

    path = write_board(tmp_path, hq=["h0.0", "h4.3"])
    board = SPEC.load_board(str(path))
    with pytest.raises(UserError, match="HQ sites"):
        SPEC.simulate(
            SPEC.resolve_params({}),
            _players("greedy", "fleet", "nearest"),
            np.array([[0, 1, 2]]),
            1,
            0,
            5,
            board,
        )


def test_check_params_refuses_a_game_nobody_can_win():
    with pytest.raises(UserError, match="no way to win"):
        SPEC.resolve_params(
            {"win_cars": 5, "max_cars": 4, "spawn_on_drop": 0, "spawn_on_turn_end": 0}
        )
    SPEC.resolve_params(
        {"win_cars": 5, "max_cars": 4}
    )  # no car win, but deliveries still can
    with pytest.raises(UserError, match="spawn_on_drop"):
        SPEC.resolve_params({"spawn_on_drop": "7"})
