"""Hand-traced positions for Carnage's tricky rules (issue 2's fine points).

Each test builds a position on the line board s0-s1-s2-s3-s4-s5 (HQs s0, s5,
s2, s3; see conftest.line_board), gives the players' answers and forces the
dice, plays turns with the kernel's own advance and apply (SPEC.position) and
checks the events and the state.
"""

from __future__ import annotations

from balance.state import END_REASON, SCRIPT_POS
from sims.carnage import state as K

from .conftest import DONE, DROP, TAKE, Position, d6, move_to


def types(events):
    return [e["type"] for e in events]


def test_take_pays_fare_at_once_longest_rides_first(line):
    p = Position(line, script=d6(6))  # the turn_end roll: no spawn
    p.car(0, 1)
    p.money(0, 9)
    p.commuter(0, 1, 2)  # 1 block: fare 2
    p.commuter(1, 1, 4)  # 3 blocks: fare 6
    p.commuter(2, 1, 5)  # 4 blocks: fare 8
    p.car(1, 5)
    p.answers(0, TAKE, DONE)
    ev = p.play()
    assert types(ev) == ["turn", "take", "spawn", "upkeep"]
    assert ev[1] == {
        "type": "take",
        "turn": 1,
        "seat": 0,
        "car": 0,
        "street": 1,
        "commuters": [1, 2],
        "fare": 14,
    }
    assert ev[3] == {
        "type": "upkeep",
        "turn": 1,
        "seat": 0,
        "paid": 1,
        "money": 9 + 14 - 1,
    }
    assert p[K.N_WAITING] == 1 and p[K.token_status_at(0)] == K.TOKEN_WAITING
    assert p[K.car_load_at(0)] == 2  # capacity 2


def test_drop_reaching_win_deliveries_wins_at_once_with_all_its_commuters(line):
    p = Position(line, win_deliveries=7)
    p.st[K.delivered_at(0)] = 6
    p.commuter(0, 1, 3, waiting=False)
    p.commuter(1, 2, 3, waiting=False)
    p.car(0, 3, load=[0, 1])
    p.car(1, 5)
    p.answers(0, DROP)
    ev = p.play()
    assert types(ev) == [
        "turn",
        "drop",
        "end",
    ]  # no spawn roll, no upkeep after the win
    assert ev[1]["commuters"] == [0, 1]
    assert (
        ev[2]["winner"] == 0
        and ev[2]["reason"] == "deliveries"
        and ev[2]["delivered"] == [8, 0]
    )
    assert p[K.N_FREE] == 16  # delivered tokens are back in the supply


def test_drop_spawns_right_after_it_one_roll_per_commuter(line):
    # rolls 3 (spawns with card 2) and 4 (no spawn) for the two drops, 6 at turn end
    p = Position(line, script=[*d6(3), 2, *d6(4), *d6(6)])
    p.commuter(0, 1, 3, waiting=False)
    p.commuter(1, 2, 3, waiting=False)
    p.car(0, 3, load=[0, 1])
    p.car(1, 5)
    p.answers(0, DROP, DONE)
    ev = p.play()
    assert types(ev) == ["turn", "drop", "spawn", "spawn", "spawn", "upkeep"]
    assert ev[2] == {
        "type": "spawn",
        "turn": 1,
        "cause": "drop",
        "roll": 3,
        "spawned": True,
        "card": 2,
        "commuter": 0,
        "origin": 2,
        "dest": 3,  # token 0 is free again: lowest free id
    }
    assert ev[3] == {
        "type": "spawn",
        "turn": 1,
        "cause": "drop",
        "roll": 4,
        "spawned": False,
    }
    assert ev[4]["cause"] == "turn_end" and ev[4]["roll"] == 6


def test_spawn_with_no_free_token_still_rolls_and_draws_no_card(line):
    p = Position(line, commuter_tokens=2, script=[*d6(1), 7])
    p.commuter(0, 1, 4)
    p.commuter(1, 4, 1)
    p.car(0, 2)
    p.car(1, 5)
    p.answers(0, DONE)
    ev = p.play()
    assert ev[-2] == {
        "type": "spawn",
        "turn": 1,
        "cause": "turn_end",
        "roll": 1,
        "spawned": False,
    }
    assert p[SCRIPT_POS] == 1  # the forced card (7) was not drawn


def test_bought_car_cannot_act_that_turn_and_pays_no_upkeep(line):
    p = Position(line, script=d6(6, 6, 6))
    p.car(0, 1)  # off the HQ (s0), so a car can be bought there
    p.car(1, 5)
    p.money(0, 15)
    p.answers(
        0, 1, DONE, move_to(line, 0, 1)
    )  # buy; car 0 done; (a move for car 1: never asked)
    ev = p.play()
    assert types(ev) == ["turn", "buy", "spawn", "upkeep"]
    assert ev[1] == {
        "type": "buy",
        "turn": 1,
        "seat": 0,
        "car": 1,
        "street": 0,
        "cost": 10,
    }
    assert ev[3]["paid"] == 1 and ev[3]["money"] == 15 - 10 - 1  # only the old car pays
    assert p.asked == [(0, K.KIND_BUY, 1), (0, K.KIND_CAR, 0)]  # none for car 1
    # Next own turn the new car acts and both cars pay.
    p.answers(1, DONE)
    p.play()
    p.answers(
        0, DONE
    )  # car 0 stays on s1; car 1 (on s0, next to it) has no legal action
    ev = p.play()
    assert ev[-1]["paid"] == 2


def test_upkeep_paid_in_full_below_zero_then_bankrupt_and_the_cars_leave(line):
    p = Position(line, n_seats=3, script=d6(6, 6, 6, 6))
    p.commuter(0, 1, 4, waiting=False)
    p.car(0, 1, load=[0])
    p.car(0, 2)  # two cars: upkeep 2
    p.car(1, 5)
    p.car(2, 3)
    p.money(0, 1)
    ev = p.play()
    assert types(ev)[-3:] == ["spawn", "upkeep", "lose"]
    assert ev[-2] == {"type": "upkeep", "turn": 1, "seat": 0, "paid": 2, "money": -1}
    assert ev[-1] == {"type": "lose", "turn": 1, "seat": 0, "reason": "bankrupt"}
    assert p[K.alive_at(0)] == 0 and p[K.n_cars_at(0)] == 0
    assert (
        p[K.street_car_at(p.st, 1)] == -1 and p[K.street_car_at(p.st, 2)] == -1
    )  # the cars left
    assert (
        p[K.token_status_at(0)] == K.TOKEN_FREE and p[K.N_FREE] == 16
    )  # passenger's token returned
    assert p.play()[0] == {"type": "turn", "turn": 2, "seat": 1}
    assert p.play()[0]["seat"] == 2
    assert p.play()[0]["seat"] == 1  # seat 0 is skipped from now on


def test_stuck_player_loses_at_once_without_spawn_or_upkeep(line):
    p = Position(line)
    p.car(0, 0)  # s0's only neighbour is s1
    p.car(1, 1)
    ev = p.play()
    assert ev == [
        {"type": "turn", "turn": 1, "seat": 0},
        {"type": "lose", "turn": 1, "seat": 0, "reason": "stuck"},
        {
            "type": "end",
            "turn": 1,
            "winner": 1,
            "reason": "last_standing",
            "money": [5, 5],
            "delivered": [0, 0],
            "cars": [0, 1],
        },
    ]


def test_gridlock_after_two_consecutive_turn_ends_only(line):
    p = Position(line, gridlock_limit=1, script=d6(6, 6, 6, 6, 6))
    p.car(0, 0)
    p.car(1, 5)
    p.commuter(0, 2, 3)
    p.commuter(1, 3, 2)  # 2 waiting > limit 1
    p.answers(0, DONE)
    assert types(p.play())[-1] == "upkeep"  # first turn end over the limit: play on
    assert p[K.STREAK] == 1
    p.answers(1, DONE)
    ev = p.play()
    assert (
        ev[-1]["type"] == "end"
        and ev[-1]["reason"] == "gridlock"
        and ev[-1]["winner"] == -1
    )


def test_gridlock_streak_resets_when_a_turn_ends_under_the_limit(line):
    p = Position(line, gridlock_limit=1, script=d6(6, 6, 6, 6, 6))
    p.car(0, 0)
    p.car(1, 4)
    p.commuter(0, 2, 3)
    p.commuter(1, 3, 2)
    p.answers(0, DONE)
    p.play()
    assert p[K.STREAK] == 1
    p.answers(1, move_to(line, 4, 3), TAKE, DONE)  # seat 1 drives to s3 and takes commuter 1
    assert types(p.play())[-1] == "upkeep"
    assert p[K.STREAK] == 0 and p[END_REASON] == -1


def test_three_and_four_players_play_to_the_last_one_standing(line):
    for n_seats in (3, 4):
        p = Position(line, n_seats=n_seats, script=d6(*[6] * 8))
        for seat, street in zip(range(n_seats), (0, 5, 2, 3)):
            p.car(seat, street)
            p.money(seat, 1)
        p.money(n_seats - 1, 50)
        events = []
        while p[END_REASON] < 0:
            events += p.play()
        losers = [e["seat"] for e in events if e["type"] == "lose"]
        assert losers == list(range(n_seats - 1))
        assert (
            events[-1]["reason"] == "last_standing"
            and events[-1]["winner"] == n_seats - 1
        )
        assert events[-1]["turn"] == n_seats - 1


def test_owning_win_cars_wins_at_once(line):
    p = Position(line, win_cars=2)
    p.car(0, 1)
    p.car(1, 5)
    p.money(0, 10)
    p.answers(0, 1)
    ev = p.play()
    assert types(ev) == ["turn", "buy", "end"]
    assert (
        ev[-1]["reason"] == "cars"
        and ev[-1]["cars"] == [2, 1]
        and ev[-1]["money"] == [0, 5]
    )


def test_illegal_answers_end_the_car_s_actions_and_change_nothing(line):
    for answer in (
        move_to(line, 1, 2),
        DROP,
        TAKE,
        99,
        -7,
    ):  # occupied street, nothing to drop or take, nonsense
        p = Position(line, script=d6(6))  # the same position for every answer
        p.car(0, 1)
        p.car(1, 2)
        p.money(0, 5)
        p.answers(0, answer)
        ev = p.play()
        assert types(ev) == ["turn", "spawn", "upkeep"], answer
        assert p[K.car_street_at(0)] == 1
        assert p.asked == [(0, K.KIND_CAR, 0)], answer  # the car's actions ended at once


def test_each_action_at_most_once_per_car_and_turn(line):
    p = Position(line, script=d6(6))
    p.car(0, 1)
    p.car(1, 5)
    p.answers(0, move_to(line, 1, 2), move_to(line, 2, 3))
    ev = p.play()
    assert types(ev) == ["turn", "move", "spawn", "upkeep"]
    assert p[K.car_street_at(0)] == 2


def test_turn_limit_ends_with_no_winner(line):
    p = Position(line, max_turns=3, script=d6(6, 6, 6))
    p.car(0, 1)
    p.car(1, 4)
    events = []
    while p[END_REASON] < 0:
        events += p.play()
    assert (
        events[-1]["reason"] == "turn_limit"
        and events[-1]["winner"] == -1
        and events[-1]["turn"] == 3
    )
