"""The search player ``mc``'s own guarantees, on the toy game (quick): it is
reproducible, it never reads the game's true stream, it improves on a weak
rollout policy, it plays exactly its rollout policy's game when nothing is
clearly better, and a clear decision costs fewer playouts than the budget.

Its strength in every registered game (never significantly worse than its
rollout policy) is checked by the contract test (tests/test_contract.py); the
figures per game are in docs/players.md; Pig's exact answer in tests/pig/.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.state import ARM_VALUE, SCORE, SEARCH_DEVIATIONS, SEARCH_PLAYOUTS, SEARCHES, TURN, WINNER
from balance.stats import wilson


def _final_states(spec, labels, seed, games, params=None):
    """The final state of each game (the search's counters are in its header)."""
    distinct = list(dict.fromkeys(labels))
    players = [spec.parse_player(x) for x in distinct]
    seating = np.array([[distinct.index(x) for x in labels]], np.int64)
    job = spec._job(spec.resolve_params(params or {}), players, seating, None)
    for g in range(games):
        yield job.kernel.play_traced(
            job.image, job.seat_index[0], job.player_params[0], np.uint64(seed), np.int64(g), np.int64(1),
            np.bool_(job.search),
        )


def test_search_is_reproducible_and_finds_the_whole_roll(dicerace):
    spec = dicerace
    params = spec.resolve_params({})
    players = [spec.parse_player("mc:rollouts=24"), spec.parse_player("plain")]
    seating = np.array([[0, 1]], np.int64)
    one = spec.trace(params, players, seating, 5, 3)
    two = spec.trace(params, players, seating, 5, 3)
    assert one == two
    # Moving the whole roll is never worse in a race, and it is plain's answer:
    # the search has no evidence against it and never moves less.
    rolls = [e for e in one if e["type"] == "roll" and e["seat"] == 0]
    assert rolls and all(e["steps"] == e["roll"] for e in rolls)


def test_search_never_touches_the_game_stream(dicerace):
    """The dice of a game are the same whoever plays: a search draws only from
    streams of its own."""
    spec = dicerace
    params = spec.resolve_params({"target": 1000, "max_turns": 30})
    seating = np.array([[0, 1]], np.int64)
    rolls = []
    for first in ("mc:rollouts=12", "mc:rollouts=12;crn=false", "plain"):
        players = [spec.parse_player(first), spec.parse_player("plain")]
        rolls.append([e["roll"] for e in spec.trace(params, players, seating, 9, 4) if e["type"] == "roll"])
    assert rolls[0] == rolls[1] == rolls[2]


def _whole_sixes(spec, crn, rollouts=1600, games=40):
    """How often mc over ``cautious`` moves the whole six, among its sixes."""
    label = f"mc:rollout_policy=cautious;rollouts={rollouts};crn={crn};futility=0"
    params = spec.resolve_params({"target": 40})
    players = [spec.parse_player(label), spec.parse_player("plain")]
    seating = np.array([[0, 1]], np.int64)
    sixes = whole = others = kept = 0
    for g in range(games):
        for e in spec.trace(params, players, seating, 3, g):
            if e["type"] == "roll" and e["seat"] == 0 and e["turn"] > 1:
                if e["roll"] == 6:
                    sixes += 1
                    whole += e["steps"] == 6
                else:
                    others += 1
                    kept += e["steps"] == e["roll"]
    return whole, sixes, kept, others


def test_search_improves_on_a_weak_rollout_policy(dicerace):
    """``cautious`` moves one step less on a six.  Searching over its playouts,
    mc finds that the whole six is better and leaves cautious's answer there;
    below six it keeps cautious's answer (the whole roll).  The extra step
    decides a race in few playouts, so the evidence takes many: with common
    random numbers most of the sixes are found at 1,600 playouts, without them
    (every answer its own dice) far fewer: the pairing cancels the dice both
    answers share.  (Without the futility bound: with it, a gain this small,
    invisible in the first rounds, is given up early by design.)"""
    whole, sixes, kept, others = _whole_sixes(dicerace, "true")
    assert sixes > 40 and whole >= 0.7 * sixes, (whole, sixes)
    assert kept == others
    alone, sixes_alone, kept, others = _whole_sixes(dicerace, "false")
    assert kept == others
    assert alone / sixes_alone < whole / sixes - 0.2, (alone, sixes_alone, whole, sixes)


def test_without_evidence_mc_plays_its_rollout_policys_games(dicerace):
    """With an evidence no playout can give, mc answers what its rollout policy
    answers: the same games, game for game, as that policy."""
    spec = dicerace
    seatings = np.array([[0, 1], [1, 0]], np.int64)
    params = spec.resolve_params({})
    base = spec.simulate(params, [spec.parse_player("cautious"), spec.parse_player("plain")], seatings, 4, 0, 300)
    mc = spec.simulate(
        params, [spec.parse_player("mc:rollout_policy=cautious;evidence=10"), spec.parse_player("plain")],
        seatings, 4, 0, 300,
    )
    for name in ("winner", "end_reason", "turns", "score"):
        np.testing.assert_array_equal(getattr(base, name), getattr(mc, name), err_msg=name)


def _decide_at(spec, label, position, other, roll, target=20):
    """mc's answer with seat 0 at ``position``, seat 1 at ``other`` and
    ``roll`` to move, and the playouts it used."""
    from balance.state import SCORE

    pos = spec.position({"target": target}, [label, "plain"], script=[roll - 1])
    assert pos.advance() == (0, 0, roll)
    pos.st[SCORE + 0] = position
    pos.st[SCORE + 1] = other
    answer = pos.decide()
    return answer, int(pos.st[SEARCH_PLAYOUTS])


def test_a_clear_decision_stops_early_and_a_close_one_takes_the_budget(dicerace):
    """Four steps from the target with a four to move, and the opponent two
    steps from it, the whole roll wins at once and every shorter move loses
    five games in six: the race drops them after a few rounds.  At the start of a long race one step more or
    less rarely matters: without the futility bound the race spends most of its budget and keeps the whole
    roll (plain's answer) for want of evidence; with it, the shorter moves, which would need a lucky streak
    to clear the evidence, stop costing playouts long before the budget is spent."""
    budget = 700
    answer, used = _decide_at(dicerace, f"mc:rollouts={budget}", position=16, other=18, roll=4)
    assert answer == 4 and used < 0.2 * budget, used
    answer, used = _decide_at(dicerace, f"mc:rollouts={budget};futility=0", position=0, other=0, roll=4, target=200)
    assert answer == 4 and used > 0.6 * budget, used
    answer, curtailed = _decide_at(dicerace, f"mc:rollouts={budget}", position=0, other=0, roll=4, target=200)
    assert answer == 4 and curtailed < 0.5 * used, (curtailed, used)


def test_the_futility_bound_drops_a_challenger_only_without_a_chance(dicerace):
    """drop_futile on a hand-made race: a challenger whose mean difference is
    far below the evidence bound is dropped; one whose mean already clears it,
    or sits near it with many rounds still to come, is kept.  The same mean
    is dropped when few rounds are left: its chance depends on the budget left."""
    from balance.engine import ARM_ALIVE, ARM_DIFF, ARM_SQUARES, drop_futile

    st = np.zeros(4000, np.int64)

    def race_of(means, rounds, spread=300.0):
        for a, m in enumerate(means):
            st[ARM_ALIVE + a] = 1
            st[ARM_DIFF + a] = int(m * rounds)
            st[ARM_SQUARES + a] = int(rounds * (m * m + spread * spread * (rounds - 1) / rounds))
        return len(means)

    n = race_of([0.0, -150.0, 200.0, 40.0], rounds=8)  # arm 0 is the incumbent
    alive = drop_futile(st, np.int64(n), np.int64(0), np.int64(8), np.int64(64), np.float64(1.0), np.float64(0.1))
    assert [int(st[ARM_ALIVE + a]) for a in range(n)] == [1, 0, 1, 1] and alive == 3
    # mean 20 with 2 of 10 rounds left: it would need ~100 by the end; the
    # rounds to come spread the final mean by ~47, so its chance is ~4.5% (< 10%)
    n = race_of([0.0, 20.0], rounds=8)
    drop_futile(st, np.int64(n), np.int64(0), np.int64(8), np.int64(10), np.float64(1.0), np.float64(0.1))
    assert st[ARM_ALIVE + 1] == 0


def test_a_horizon_in_rounds_is_a_turn_per_seat_in_play(dicerace):
    """``horizon_unit = rounds``: one round is as many player turns as seats in
    play, so ``mc:horizon=1;horizon_unit=rounds`` plays the games of
    ``mc:horizon=2`` heads up and of ``mc:horizon=3`` at three seats (and
    neither of the other), its playouts cut at the same turns."""
    spec = dicerace
    params = {"target": 60, "max_turns": 80}

    def games(labels):
        out = []
        for st in _final_states(spec, labels, 3, 12, params):
            out.append((int(st[SEARCH_PLAYOUTS]), int(st[SEARCH_DEVIATIONS]), int(st[TURN]), int(st[WINNER]),
                        tuple(int(v) for v in st[SCORE : SCORE + len(labels)]),
                        tuple(int(v) for v in st[ARM_VALUE : ARM_VALUE + 8])))  # the last search's playout values
        return out

    rounds = "mc:rollouts=16;horizon=1;horizon_unit=rounds"
    for n in (2, 3):
        by_rounds = games([rounds] + ["cautious"] * (n - 1))
        assert by_rounds == games([f"mc:rollouts=16;horizon={n}"] + ["cautious"] * (n - 1))
        assert by_rounds != games([f"mc:rollouts=16;horizon={5 - n}"] + ["cautious"] * (n - 1))


def test_flat_allocation_spends_the_whole_budget(dicerace):
    """``allocation = even`` (flat Monte Carlo): every decision with n answers
    plays budget // n rounds of all of them."""
    states = list(_final_states(dicerace, ["mc:rollouts=60;allocation=even", "plain"], seed=1, games=10))
    searched = sum(int(st[SEARCHES]) for st in states)
    playouts = sum(int(st[SEARCH_PLAYOUTS]) for st in states)
    assert searched > 0 and 0.8 * 60 * searched <= playouts <= 60 * searched


def test_mc_beats_a_weaker_player_heads_up(dicerace):
    """On its own game mc (over plain, the optimal policy) beats cautious."""
    spec = dicerace
    players = [spec.parse_player("mc"), spec.parse_player("cautious")]
    seatings = np.array([[0, 1], [1, 0]], np.int64)
    out = spec.simulate(spec.resolve_params({}), players, seatings, 8, 0, 4000)
    seat_of_mc = np.arange(4000) % 2
    won = int((out.winner == seat_of_mc).sum())
    lost = int((out.winner == 1 - seat_of_mc).sum())
    assert wilson(won, won + lost)[0] > 0.5


def test_a_search_menu_asks_each_heuristic_with_its_own_parameters():
    """A searching seat's parameter slots hold its rollout policy's values; a
    game's menu that asks another heuristic lends that heuristic's defaults for
    the call (balance.state.lend_params), and gives the policy's back."""
    from balance.registry import get_game
    from balance.state import MAX_PLAYER_PARAMS, MC_PARAMS, PLAYER_PARAMS, lend_params, return_params

    spec = get_game("carmarace")  # hunter's min_transports is 2, saboteur's (mc's policy) 1
    names = [h.name for h in spec.heuristics]
    pos = spec.position({}, ["mc", "hunter"])
    st = pos.st
    own = st[PLAYER_PARAMS : PLAYER_PARAMS + MAX_PLAYER_PARAMS].copy()
    assert own[0] == 1
    hunter = names.index("hunter")
    assert lend_params(st, 0, hunter)
    assert st[PLAYER_PARAMS] == 2 and (st[PLAYER_PARAMS + MC_PARAMS : PLAYER_PARAMS + MAX_PLAYER_PARAMS] == own[MC_PARAMS:]).all()
    return_params(st, 0, True)
    assert (st[PLAYER_PARAMS : PLAYER_PARAMS + MAX_PLAYER_PARAMS] == own).all()
    assert not lend_params(st, 0, names.index("saboteur"))  # the policy itself keeps its values


def test_the_engine_reads_each_search_parameter_where_the_game_writes_it(dicerace):
    """mc's parameters are written in declaration order from MC_PARAMS on
    (GameSpec._player_values) and read by the engine at fixed slots: a
    parameter declared out of order would be read as another (a float's bits as
    a choice).  Every declared parameter has its slot, and a value set through
    the player syntax lands in it."""
    from balance import engine
    from balance.game import ALLOCATIONS
    from balance.state import MC_PARAMS

    slots = {
        "rollouts": engine.MC_ROLLOUTS, "rollout_policy": engine.MC_ROLLOUT_POLICY, "horizon": engine.MC_HORIZON,
        "crn": engine.MC_CRN, "evidence": engine.MC_EVIDENCE, "allocation": engine.MC_ALLOCATION,
        "indifference": engine.MC_INDIFFERENCE, "futility": engine.MC_FUTILITY,
    }
    mc = dicerace.player("mc")
    # horizon_unit has no slot of its own: it is the sign of the horizon's, and comes last
    assert [p.name for p in mc.params] == [*sorted(slots, key=slots.get), "horizon_unit"]
    assert all(slots[p.name] == MC_PARAMS + k for k, p in enumerate(mc.params[:-1]))
    assert ALLOCATIONS == engine.ALLOCATIONS and engine.ALLOCATION_EVEN == ALLOCATIONS.index("even")
    values = dicerace._player_values(
        dicerace.parse_player(
            "mc:rollouts=77;horizon=3;crn=false;evidence=2.5;allocation=even;indifference=0.25;futility=0.125"
        ),
        dicerace.heuristics,
    )
    assert values[engine.MC_ROLLOUTS] == 77 and values[engine.MC_HORIZON] == 3 and values[engine.MC_CRN] == 0
    assert values[engine.MC_ALLOCATION] == engine.ALLOCATION_EVEN
    assert values[engine.MC_EVIDENCE : engine.MC_EVIDENCE + 1].view(np.float64)[0] == 2.5
    assert values[engine.MC_INDIFFERENCE : engine.MC_INDIFFERENCE + 1].view(np.float64)[0] == 0.25
    assert values[engine.MC_FUTILITY : engine.MC_FUTILITY + 1].view(np.float64)[0] == 0.125
    rounds = dicerace._player_values(dicerace.parse_player("mc:horizon=3;horizon_unit=rounds"), dicerace.heuristics)
    assert rounds[engine.MC_HORIZON] == -3 and (np.delete(rounds, engine.MC_HORIZON) == np.delete(
        dicerace._player_values(dicerace.parse_player("mc:horizon=3"), dicerace.heuristics), engine.MC_HORIZON)).all()


@pytest.mark.parametrize("game", ["carnage", "bahama", "taxi", "tagcity", "carmarace"])
def test_every_shipped_game_states_its_measured_budget_ladder(game):
    """docs/players.md's convergence figure travels with the game: the default
    against 4x its budget on 2,000 or more games, and 16x against 4x,
    each with the command that measures it; ``balance players`` shows them."""
    from balance.registry import get_game

    spec = get_game(game)
    rungs = {(r.rollouts, r.against): r for r in spec.mc_ladder}
    four = rungs[(4 * spec.mc_rollouts, spec.mc_rollouts)]
    assert int(four.command.split("--games ")[1].split()[0]) >= 2000
    assert (16 * spec.mc_rollouts, 4 * spec.mc_rollouts) in rungs
    for rung in spec.mc_ladder:
        assert rung.command.startswith(f"balance run {game} --players mc:rollouts={rung.rollouts},")
        assert rung.won + rung.lost <= int(rung.command.split("--games ")[1].split()[0])
    mc = next(p for p in spec.players if p.name == "mc")
    assert any(note.startswith("budget ladder: 4x") for note in mc.notes)


def test_a_game_without_a_measured_ladder_says_so(dicerace):
    mc = next(p for p in dicerace.players if p.name == "mc")
    assert any("not measured" in note for note in mc.notes)
