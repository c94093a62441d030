"""Whole games: simulate and trace agree, results obey the seeding contract,
parameters are validated, and user players plug in (examples/bahama_bots.py).
(tests/test_contract.py checks the same for every game on a few games; here
with Bahama's own rule variants, boards and players.)"""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest

from balance.errors import UserError
from balance.playerfile import load_player_file
from balance.state import N_SEATS, TURN
from sims.bahama.state import taxi_slot
from tests.bahama.referee import referee_bahama

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bahama_bots.py"


def outcome(out, i):
    return (
        int(out.winner[i]),
        int(out.end_reason[i]),
        int(out.turns[i]),
        [int(x) for x in out.score[i]],
    )


def check_agreement(spec, params, players, seatings, seed, games, board=None):
    out = spec.simulate(params, players, seatings, seed, 0, games, board)
    for g in range(games):
        events = spec.trace(params, players, seatings, seed, g, board)
        setup, end = events[0], events[-1]
        assert setup["game_index"] == g and setup["seed"] == seed
        assert setup["players"] == [
            getattr(players[k], "label", players[k].name) for k in seatings[g % seatings.shape[0]]
        ]
        winner, reason, turns, score = outcome(out, g)
        assert end["type"] == "end"
        assert (
            end["winner"],
            spec.end_reason_names.index(end["reason"]),
            end["turn"],
            end["income"],
        ) == (
            winner,
            reason,
            turns,
            score,
        ), f"game {g}"
        referee_bahama(events)
    return out


CONFIGS = [
    ({}, ["nearest", "nearest"]),
    ({}, ["best_fare", "courier"]),
    ({"must_move": True, "max_turns": 400}, ["random", "nearest", "courier"]),
    (
        {"three_player_discard": True, "capacity": 5, "citizens_waiting": 20},
        ["best_fare", "nearest", "courier"],
    ),
    (
        {"second_lock_waiting": 9, "third_passenger_lock": False, "max_turns": 300},
        ["courier", "random", "best_fare", "nearest"],
    ),
    ({"max_turns": 300}, ["waiter:patience=0", "closer"]),
    (
        {"pickup": "compulsory", "must_move": True, "max_turns": 300},
        ["blocker:patience=0", "waiter", "closer:margin=1"],
    ),
    ({"pickup": "compulsory"}, ["mc:rollouts=8", "blocker:reach=9", "random", "waiter:guard=3"]),
]


@pytest.mark.parametrize("overrides,names", CONFIGS)
def test_simulate_equals_trace_end(spec, overrides, names):
    params = spec.resolve_params(overrides)
    strategies = list(dict.fromkeys(names))
    players = [spec.parse_player(n) for n in strategies]
    seatings = np.asarray([[strategies.index(n) for n in names]], dtype=np.int64)
    check_agreement(spec, params, players, seatings, 20240, 25)


def test_rotated_seatings(spec, defaults):
    players = [spec.player("nearest"), spec.player("courier")]
    seatings = np.asarray([[0, 1], [1, 0]], dtype=np.int64)
    out = check_agreement(spec, defaults, players, seatings, 3, 12)
    # The same game index with the same seating is the same game whatever P.
    alone = spec.simulate(defaults, players, seatings[1:], 3, 5, 1)
    assert outcome(alone, 0) == outcome(out, 5)


def test_trace_schema(spec, defaults, board):
    players = [spec.player("best_fare")]
    events = spec.trace(defaults, players, np.zeros((1, 2), np.int64), 9, 4)
    setup = events[0]
    assert list(setup) == [
        "type",
        "game",
        "seed",
        "game_index",
        "params",
        "players",
        "board",
        "deck",
        "start",
    ]
    assert setup["game"] == "bahama" and setup["params"] == defaults
    assert setup["board"] == board.to_json()
    assert sorted(setup["deck"]) == list(range(52)) and setup["start"] == setup["deck"][:2]
    for i, e in enumerate(events[1:], 1):
        if e["type"] == "turn":
            assert events[i + 1]["type"] == "move" and events[i + 1]["turn"] == e["turn"]
    kinds = {e["type"] for e in events}
    assert kinds == {"setup", "citizen", "turn", "move", "drop", "pickup", "end"}
    assert events[-1]["type"] == "end" and sum(e["type"] == "end" for e in events) == 1


def test_reproducible_across_splits_and_threads(spec, defaults):
    players = [spec.player("random"), spec.player("best_fare")]
    params = spec.resolve_params({"max_turns": 300})
    seatings = np.asarray([[0, 1], [1, 1], [1, 0]], dtype=np.int64)
    whole = spec.simulate(params, players, seatings, 77, 0, 600)
    parts = [spec.simulate(params, players, seatings, 77, a, b - a) for a, b in ((0, 1), (1, 250), (250, 600))]
    for name in ("winner", "end_reason", "turns", "score"):
        joined = np.concatenate([getattr(p, name) for p in parts])
        assert np.array_equal(getattr(whole, name), joined), name
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = spec.simulate(params, players, seatings, 77, 0, 600)
    finally:
        numba.set_num_threads(before)
    for name in ("winner", "end_reason", "turns", "score"):
        assert np.array_equal(getattr(whole, name), getattr(single, name)), name
    other_seed = spec.simulate(params, players, seatings, 78, 0, 600)
    assert not np.array_equal(whole.turns, other_seed.turns)


def test_outcome_arrays(spec, defaults):
    out = spec.simulate(defaults, [spec.player("nearest")], np.zeros((1, 3), np.int64), 1, 10, 200)
    assert out.winner.dtype == np.int8 and out.end_reason.dtype == np.int8
    assert out.turns.dtype == np.int32 and out.score.dtype == np.int32 and out.score.shape == (200, 3)
    assert set(np.unique(out.winner)) <= {-1, 0, 1, 2}
    assert (out.end_reason == 0).all(), "default games end with no citizen waiting"
    # Without a turn limit reached, the winner is the unique highest income.
    top = out.score.max(axis=1)
    unique = (out.score == top[:, None]).sum(axis=1) == 1
    assert np.array_equal(out.winner >= 0, unique)
    assert (out.score[np.arange(200)[unique], out.winner[unique]] == top[unique]).all()


def test_players_play_differently(spec, defaults):
    seatings = np.zeros((1, 2), np.int64)
    turns = {
        p.name: spec.simulate(defaults, [p], seatings, 5, 0, 300).turns.mean()
        for p in spec.heuristics
        if p.name != "random"
    }
    assert len(set(turns.values())) == len(turns), turns
    moves = {}
    # closer, waiter and blocker drive like nearest until the end of a game (their
    # game lengths differ, above); the others differ from the first turns.
    for p in spec.heuristics:
        if p.name in ("closer", "waiter", "blocker"):
            continue
        events = spec.trace(spec.resolve_params({"max_turns": 60}), [p], seatings, 5, 0)
        moves[p.name] = [e["to"] for e in events if e["type"] == "move"]
    assert len({tuple(m) for m in moves.values()}) == len(moves)
    assert len({p.description for p in spec.players}) == len(spec.players) >= 5


def test_params_are_validated(spec):
    assert spec.resolve_params({"capacity": "2"})["capacity"] == 2
    for bad in (
        {"capacity": 0},
        {"citizens_waiting": 25},
        {"max_turns": 0},
        {"must_move": "maybe"},
        {"turbo": 1},
    ):
        with pytest.raises(UserError):
            spec.resolve_params(bad)
    for p in spec.params:
        assert p.meaning and p.source
    with pytest.raises(UserError, match="5 players"):
        spec.simulate(
            spec.resolve_params({}),
            [spec.player("nearest")],
            np.zeros((1, 5), np.int64),
            0,
            0,
            1,
        )


def test_custom_board(spec, tmp_path, defaults):
    from sims.bahama import board as bahama_board

    # The default roads plus a ring through the four aces: a different game.
    ring = [("A♠", "A♣"), ("A♥", "A♦")]
    text = bahama_board.default_toml().replace(
        "edges = [", "edges = [\n" + "".join(f'["{a}", "{b}"], ' for a, b in ring)
    )
    path = tmp_path / "ring.toml"
    path.write_text(text, encoding="utf-8")
    mine = spec.load_board(str(path))
    assert mine.n_edges == 130
    players = [spec.player("nearest")]
    seatings = np.zeros((1, 2), np.int64)
    events = spec.trace(defaults, players, seatings, 1, 0, mine)
    assert events[0]["board"] == mine.to_json()
    check_agreement(spec, defaults, players, seatings, 1, 5, mine)


# ---- user players --------------------------------------------------------------------
@numba.njit
def vandal(kind, seat, subject, st):
    pick = st[TURN] % 4
    if pick == 0:
        return 999
    if pick == 1:
        return -7
    if pick == 2:
        return st[taxi_slot((seat + 1) % st[N_SEATS])]  # another taxi's field
    return (subject + 26) % 52  # usually not adjacent


@pytest.fixture(scope="module")
def user_players(spec):
    found = load_player_file(EXAMPLE, spec)
    by_name = {p.name: p for p in found}
    assert set(by_name) == {"homebody", "long_haul"}
    from balance.game import PlayerInfo

    vandal_info = PlayerInfo("vandal", "answers garbage", vandal, builtin=False)
    return [
        by_name["homebody"],
        by_name["long_haul"],
        vandal_info,
        spec.player("nearest"),
    ]


def test_player_file_players(spec, user_players):
    params = spec.resolve_params({"max_turns": 200})
    seatings = np.asarray([[0, 3], [1, 2], [3, 1], [2, 3]], dtype=np.int64)
    check_agreement(spec, params, user_players, seatings, 42, 16)
    # A built-in seated through the user-player path plays exactly as through the built-in one.
    mixed = spec.simulate(params, user_players, np.asarray([[3, 3]]), 42, 0, 50)
    plain = spec.simulate(params, [spec.player("nearest")], np.zeros((1, 2), np.int64), 42, 0, 50)
    assert np.array_equal(mixed.score, plain.score) and np.array_equal(mixed.turns, plain.turns)


def test_buggy_player_cannot_break_the_rules(spec, user_players):
    for must_move in (False, True):
        params = spec.resolve_params({"max_turns": 120, "must_move": must_move})
        events = spec.trace(params, user_players, np.asarray([[2, 3]]), 8, 0)
        state = referee_bahama(events)  # every move legal: the kernel's fallback
        assert state.turn == events[-1]["turn"]


def test_player_file_errors(spec, tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_player_file(tmp_path / "none.py", spec)
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    with pytest.raises(UserError, match="defines no player for bahama"):
        load_player_file(empty, spec)


def test_same_games_without_the_jit(spec):
    """NUMBA_DISABLE_JIT=1 (coverage, the speed-up benchmark) plays the same games."""
    import json
    import os
    import subprocess
    import sys

    script = (
        "import json, numpy as np\n"
        "from sims.bahama import SPEC\n"
        "params = SPEC.resolve_params({'max_turns': 300, 'must_move': True})\n"
        "pl = [SPEC.player(n) for n in ('nearest', 'random', 'best_fare')]\n"
        "seat = np.array([[0, 1, 2]])\n"
        "out = SPEC.simulate(params, pl, seat, 4, 3, 4)\n"
        "ev = SPEC.trace(params, pl, seat, 4, 5)\n"
        "print(json.dumps([out.winner.tolist(), out.turns.tolist(), out.score.tolist(), ev]))\n"
    )
    runs = []
    for disable in ("0", "1"):
        env = {**os.environ, "NUMBA_DISABLE_JIT": disable, "PYTHONWARNINGS": "ignore"}
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        proc = subprocess.run(
            [sys.executable, "-c", script],
            check=False,
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        runs.append(json.loads(proc.stdout))
    assert runs[0] == runs[1]
