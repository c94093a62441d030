"""Hand-built positions for Carnage's player decisions and rule readings that
came with the player parameters: the order in which cars act, the HQ choice
at setup (``hq = chosen | anywhere``), a take of fewer commuters than free
seats, ``gridlock_turns`` and the bank limit ``bank_money``.

Each test builds a position on the line board s0-s1-s2-s3-s4-s5 (HQs s0, s5,
s2, s3; conftest.line_board), gives the players' answers, forces the dice and
cards, plays with the kernel's own advance and apply (SPEC.position) and checks
the events and the state.
"""

from __future__ import annotations

from balance.state import END_REASON
from sims.carnage import SPEC
from sims.carnage import state as K

from .conftest import DONE, TAKE, Position, d6, move_to

TAKE_RANKS = int(K.ACT_TAKE_RANKS)


def types(events):
    return [e["type"] for e in events]


# --------------------------------------------------------------------------- the order of the cars
def test_order_question_when_two_cars_may_act_and_the_answer_is_obeyed(line):
    p = Position(line, script=d6(6))
    p.car(0, 1)  # car 0
    p.car(0, 4)  # car 1
    p.car(1, 5)
    p.answers(0, 1, move_to(line, 4, 3), DONE)  # car 1 first, then car 0 (alone: no question)
    ev = p.play()
    assert p.asked[:2] == [(0, K.KIND_ORDER, 0), (0, K.KIND_CAR, 1)]
    assert types(ev) == ["turn", "move", "spawn", "upkeep"]
    assert ev[1]["car"] == 1 and ev[1]["to"] == 3
    assert p.asked[2] == (0, K.KIND_CAR, 0)  # the one car left is asked at once
    assert p[K.car_street_at(1)] == 3


def test_an_illegal_order_answer_gets_the_first_car(line):
    for answer in (2, 7, -1):  # no such car, out of range
        p = Position(line, script=d6(6))
        p.car(0, 1)
        p.car(0, 4)
        p.car(1, 5)
        p.answers(0, answer, move_to(line, 1, 2), DONE)
        ev = p.play()
        assert p.asked[1] == (0, K.KIND_CAR, 0), answer  # the subject: car 0
        assert ev[1]["car"] == 0 and ev[1]["to"] == 2


# --------------------------------------------------------------------------- the HQ choice
def _setup(board, hq, answers, n_seats=2):
    """Play the setup under ``hq``: each seat answers its KIND_HQ question from
    ``answers``; the two setup spawns draw cards 0 and 2.  Returns the position
    and the questions asked."""
    pos = SPEC.position({"hq": hq}, ["greedy"] * n_seats, board=board, script=[0, 2])
    asked = []
    queue = list(answers)
    while True:
        pending = pos.advance()
        seat, kind, subject = pending
        if kind != K.KIND_HQ:
            break
        asked.append(pending)
        pos.answer(queue.pop(0))
    return pos, asked


def test_chosen_hqs_in_seat_order_among_the_free_board_sites(line):
    pos, asked = _setup(line, "chosen", [2, 2])  # seat 1 asks for the site seat 0 took
    assert asked == [(0, K.KIND_HQ, 0), (1, K.KIND_HQ, 0)]  # subject: the first free site
    ev = pos.events()
    assert ev[1:3] == [
        {"type": "hq", "turn": 0, "seat": 0, "street": 2},
        {"type": "hq", "turn": 0, "seat": 1, "street": 0},  # illegal answer: the first free site
    ]
    assert [e["type"] for e in ev[3:5]] == ["spawn", "spawn"]  # the spawns come after every HQ
    st = pos.st
    assert st[K.hq_at(0)] == 2 and st[K.hq_at(1)] == 0
    assert st[K.car_street_at(0)] == 2 and st[K.car_street_at(K.MAX_CARS)] == 0


def test_chosen_refuses_a_street_that_is_no_site_and_anywhere_allows_it(line):
    pos, _ = _setup(line, "chosen", [1, 4])
    assert pos.st[K.hq_at(0)] == 0 and pos.st[K.hq_at(1)] == 5  # s1, s4 are not sites: s0, then s5
    pos, _ = _setup(line, "anywhere", [1, 4])
    assert pos.st[K.hq_at(0)] == 1 and pos.st[K.hq_at(1)] == 4
    pos, _ = _setup(line, "anywhere", [1, 1])  # a street with a car: refused
    assert pos.st[K.hq_at(1)] == 0


def test_fixed_hqs_ask_nobody(line):
    pos = SPEC.position({}, ["greedy"] * 2, board=line, script=[0, 2])
    seat, kind, _ = pos.advance()
    assert kind != K.KIND_HQ
    assert [e["street"] for e in pos.events() if e["type"] == "hq"] == [0, 5]


def test_the_heuristics_choose_near_the_spawns_then_away_from_earlier_hqs(line):
    # Thirteen of the sixteen cards start at s1, one each at s0, s2, s4: summed
    # blocks to the origins s1 5, s2 17, s0 19, s3 31, s5 61.
    for hq, expect in (("anywhere", [1, 2]), ("chosen", [2, 0])):
        pos = SPEC.position({"hq": hq}, ["greedy"] * 2, board=line, script=[0, 2])
        while True:
            seat, kind, _ = pos.advance()
            if kind != K.KIND_HQ:
                break
            pos.answer(pos.decide())
        assert [e["street"] for e in pos.events() if e["type"] == "hq"] == expect, hq


# --------------------------------------------------------------------------- partial takes
def test_a_take_of_chosen_ranks_leaves_the_others_waiting(line):
    p = Position(line, script=d6(6))
    p.car(0, 1)
    p.commuter(0, 1, 2)  # fare 2: rank 2
    p.commuter(1, 1, 4)  # fare 6: rank 1
    p.commuter(2, 1, 5)  # fare 8: rank 0
    p.car(1, 5)
    p.answers(0, TAKE_RANKS + 0b010, DONE)  # only the second-longest ride
    ev = p.play()
    assert types(ev) == ["turn", "take", "spawn", "upkeep"]
    assert ev[1]["commuters"] == [1] and ev[1]["fare"] == 6
    assert p[K.car_load_at(0)] == 1 and p[K.N_WAITING] == 2
    assert p.asked.count((0, K.KIND_CAR, 0)) == 2  # a seat is free, the take used: move or done


def test_a_take_of_more_ranks_than_free_seats_or_waiting_commuters_is_illegal(line):
    for mask in (0b111, 0b1000):  # three commuters for two seats; a rank nobody holds
        p = Position(line, script=d6(6))
        p.car(0, 1)
        p.commuter(0, 1, 2)
        p.commuter(1, 1, 4)
        p.commuter(2, 1, 5)
        p.car(1, 5)
        p.answers(0, TAKE_RANKS + mask)
        ev = p.play()
        assert types(ev) == ["turn", "spawn", "upkeep"], mask  # the car's actions ended
        assert p[K.N_WAITING] == 3


def test_the_detour_parameter_leaves_a_commuter_going_the_other_way(line):
    # A car on s2 with a passenger for s5 and one free seat; waiting there: a
    # commuter for s0 (rank 0: 2 blocks, token 1) and one for s4 (rank 1: token
    # 2).  The one for s0 adds 4 blocks to the ride, the one for s4 none.
    for detour, expect in ((0, TAKE_RANKS + 0b10), (4, TAKE_RANKS + 0b01), (99, TAKE)):
        p = Position(line, players=[f"greedy:detour={detour}", "greedy"])
        p.commuter(0, 2, 5, waiting=False)
        p.car(0, 2, load=[0])
        p.car(1, 0)
        p.commuter(1, 2, 0)
        p.commuter(2, 2, 4)
        assert p.pos.advance() == (0, K.KIND_CAR, 0)
        assert p.pos.decide() == expect, detour


# --------------------------------------------------------------------------- gridlock_turns
def _gridlocked(line, turns):
    p = Position(line, gridlock_limit=1, gridlock_turns=turns, script=d6(*[6] * 8))
    p.car(0, 0)
    p.car(1, 5)
    p.commuter(0, 2, 3)
    p.commuter(1, 3, 2)  # 2 waiting > limit 1, nobody takes them
    played = 0
    while p[END_REASON] < 0 and played < 6:
        p.play()
        played += 1
    return p, played


def test_gridlock_turns_counts_the_consecutive_turn_ends_over_the_limit(line):
    for turns in (1, 2, 3, 5):
        p, played = _gridlocked(line, turns)
        assert played == turns, turns
        assert SPEC.end_reason_names[p[END_REASON]] == "gridlock"
        assert p[K.STREAK] == turns


# --------------------------------------------------------------------------- the bank
def test_a_limited_bank_deals_what_it_has_in_seat_order(line):
    pos = SPEC.position({"bank_money": 25, "start_money": 10}, ["greedy"] * 3, board=line, script=[0, 2])
    pos.advance()
    assert [pos.st[K.money_at(s)] for s in range(3)] == [10, 10, 5]
    assert pos.st[K.BANK] == 0
    assert pos.events()[0]["money"] == [10, 10, 5]


def test_a_fare_the_bank_cannot_pay_is_paid_as_far_as_it_goes(line):
    p = Position(line, bank_money=22, start_money=10, script=d6(6))  # 2 left after dealing
    assert p[K.BANK] == 2
    p.car(0, 1)
    p.commuter(0, 1, 4)  # fare 6
    p.car(1, 5)
    p.answers(0, TAKE, DONE)
    ev = p.play()
    assert ev[1]["type"] == "take" and ev[1]["fare"] == 2  # the bank had 2
    assert p[K.BANK] == 1  # the upkeep of 1 went back to it
    assert ev[-1] == {"type": "upkeep", "turn": 1, "seat": 0, "paid": 1, "money": 5 + 2 - 1}


def test_a_purchase_and_a_bankruptcy_return_money_to_the_bank(line):
    p = Position(line, bank_money=30, start_money=10, script=d6(6, 6))
    p.car(0, 1)
    p.car(1, 5)
    p.money(0, 12)
    p.money(1, 1)
    p.st[K.BANK] = 30 - 13
    p.answers(0, 1, DONE)
    p.play()
    assert p[K.BANK] == 30 - 13 + 10 + 1  # the car's price, the upkeep of the old car
    p.play()  # seat 1 pays 1 of upkeep and is bankrupt: it has nothing more to return
    assert p[K.BANK] == 30 - 13 + 10 + 1 + 1
    assert p[K.BANK] + p[K.money_at(0)] == 30
