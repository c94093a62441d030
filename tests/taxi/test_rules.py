"""Hand-built positions for every fine point of the spec's section (i), and the
fallback of every illegal answer.  Positions are set after the setup (holdings,
nodes, the top cards); the dice are forced (tests/taxi/positions.py)."""

from __future__ import annotations

import pytest

from sims.taxi import state as S
from tests.taxi.positions import Game, card_id, node

FARE = card_id("passenger", "Short fare")  # +$100, nothing else
FARES = list(range(FARE, FARE + 7))


def start(players=("cautious", "cautious"), params=None, **kw):
    g = Game(players, params, **kw)
    assert g.pending[:2] == (0, S.KIND_CARD)
    return g


def fare_turn(g, seat, move=1, tablet=12):
    """``seat`` (asked its card) draws a fare; the dice are forced."""
    assert g.pending[:2] == (seat, S.KIND_CARD), g.pending
    g.top("passenger", next(c for c in FARES if c in g.pile("passenger")))
    g.die(move, tablet)
    g.answer(S.CARD_PASSENGER)


# --------------------------------------------------------------------------- (i) 1 streets
def test_straight_through_crossings_is_one_street_a_reversal_or_a_turn_another():
    g = start()
    g.set(0, node="l7", dest="q1")
    g.set(1, node="n7")  # a taxi in the way never blocks (i) 4
    fare_turn(g, 0, move=6)
    straight = g.entry("n7", "o7", "p7", "r7")
    assert straight >= 0 and g.menu()[straight]["streets"] == 1
    g.drive("n7", "l7")  # reversal
    move = g.last("move")
    assert move["path"] == [node("l7"), node("n7"), node("l7")] and move["streets"] == 2

    g = start()
    g.set(0, node="l7", dest="q1")
    fare_turn(g, 0, move=6)
    g.drive("n7", "o7", "p7", "r7")  # straight on, step by step
    assert g.last("move")["streets"] == 1
    g = start()
    g.set(0, node="l7", dest="q1")
    fare_turn(g, 0, move=6)
    g.drive("n7", "n6")  # a turn
    assert g.last("move")["streets"] == 2


def test_the_first_step_of_every_turn_begins_a_street():
    g = start()
    g.set(0, node="n7", dest="q1")
    fare_turn(g, 0, move=1)
    g.drive("o7")  # the taxi stood on Lane row 7 but a new turn is a new street
    assert g.last("move")["streets"] == 1
    assert g.last("move")["path"] == [node("n7"), node("o7")]


def test_a_move_is_no_longer_than_the_allowance():
    g = start()
    g.set(0, node="l7", dest="q1")
    fare_turn(g, 0, move=1)
    g.step("n7")
    assert g.entry("n6") < 0  # a second street is beyond a die of 1
    assert g.entry("o7") >= 0  # going on along the same street is free


# --------------------------------------------------------------------------- (i) 2 freeway
def test_road_entry_ring_exit_road_is_one_street_and_each_entry_costs_a_tablet():
    g = start()
    g.set(0, node="d11", dest="q1", greens=6, whites=2)
    fare_turn(g, 0, move=1)
    down = ["d13", "d15", "d17", "d18"]
    ring = ["a18", "a15", "a11", "a7", "a3", "a0", "d0"]
    g.drive(*down, *ring, "d1", "d3", "d7", "d9", "d11", *down, "a18", "a15", "b15")
    move = g.last("move")
    assert move["streets"] == 1
    assert move["whites_used"] == 2 and move["greens_used"] == 6  # d13, d15, d3, d9, d13, d15
    assert move["greens"] == 0 and move["whites"] == 0
    assert g.names(move["path"]).count("d13") == 2  # revisits are allowed


def test_round_the_ring_past_its_entry_node_again():
    g = start()
    g.set(0, node="h1", dest="q1", whites=1)
    fare_turn(g, 0, move=1)
    ring = ["h0", "l0", "p0", "s0", "s3", "s7", "s11", "s15", "s18", "p18", "l18", "h18", "d18", "a18", "a15",
            "a11", "a7", "a3", "a0", "d0", "h0", "l0"]
    g.drive(*ring, "l1")
    move = g.last("move")
    assert move["streets"] == 1 and move["whites_used"] == 1
    assert g.names(move["path"])[-3:] == ["h0", "l0", "l1"]


# --------------------------------------------------------------------------- (i) 3 lights
def test_lights_are_paid_on_entering_a_move_may_end_on_one_and_leave_it_free():
    g = start()
    g.set(0, node="d7", dest="q1", greens=1)
    fare_turn(g, 0, move=1)
    assert g.menu()[g.entry("d9")]["greens"] == 1  # entering the light costs one
    g.drive("d9")
    move = g.last("move")
    assert move["greens_used"] == 1 and move["greens"] == 0
    g.until(S.KIND_CARD, seat=0)  # seat 1 plays its turn
    fare_turn(g, 0, move=1)
    menu = g.menu()
    assert menu and all(e["greens"] == 0 for e in menu if e["steps"] == 1)  # the start is never paid
    g.drive("d11")
    assert g.last("move")["greens_used"] == 0


def test_without_a_green_tablet_a_light_cannot_be_entered():
    g = start()
    g.set(0, node="d7", dest="q1", greens=0)
    fare_turn(g, 0, move=6)
    assert node("d9") not in [e["node"] for e in g.menu()]
    assert g.entry("d3") < 0 and g.entry("c7") >= 0 and g.entry("f7") >= 0


# --------------------------------------------------------------------------- (i) 4 directions
def test_entries_and_exits_are_one_way_and_the_freeway_too():
    g = start()
    g.set(0, node="d1", dest="q1", whites=3)
    fare_turn(g, 0, move=6)
    assert g.entry("d0") < 0  # d0->d1 is an exit: not the other way
    g = start()
    g.set(0, node="h1", dest="q1", whites=0)
    fare_turn(g, 0, move=6)
    assert g.entry("h0") < 0  # an entry needs a freeway tablet
    g = start()
    g.set(0, node="h1", dest="q1", whites=1)
    fare_turn(g, 0, move=6)
    g.step("h0")
    assert g.entry("l0") >= 0 and g.entry("d0") < 0  # clockwise only


def test_a_move_may_not_end_on_the_freeway_unless_stop_on_freeway():
    g = start()
    g.set(0, node="h1", dest="q1", whites=1)
    fare_turn(g, 0, move=6)
    g.drive("h0", "l0")  # STOP on the ring: the move is undone
    move = g.last("move")
    assert move["path"] == [node("h1")] and move["streets"] == 0 and move["whites_used"] == 0
    assert g.get(0, "whites") == 1 and g.get(0, "node") == node("h1")
    g = start(params={"stop_on_freeway": True})
    g.set(0, node="h1", dest="q1", whites=1)
    fare_turn(g, 0, move=6)
    g.drive("h0", "l0")
    assert g.last("move")["path"] == [node("h1"), node("h0"), node("l0")]
    assert g.get(0, "node") == node("l0") and g.get(0, "whites") == 0


# --------------------------------------------------------------------------- (i) 5 arrival
def test_driving_over_the_destination_is_not_arriving():
    g = start()
    g.set(0, node="l7", dest="o7")
    fare_turn(g, 0, move=6)
    g.drive("n7", "o7", "p7")
    assert not g.all("arrive")


def test_a_jump_at_the_legs_end_is_not_an_arrival():
    g = start()
    g.set(0, node="h9", dest="q1")  # seat 0 far from its stop
    g.set(1, node="r1", dest="q1")
    fare_turn(g, 0, move=1)
    g.drive()
    fare_turn(g, 1, move=1)  # cautious drives r1 -> q1
    g.decide()
    while g.kind() == S.KIND_MOVE:
        g.decide()
    arrivals = g.all("arrive")
    assert [a["seat"] for a in arrivals] == [1]
    leg_end = g.last("leg_end")
    assert leg_end["arrived"] == [1] and leg_end["position"][0] == node("q1")


# --------------------------------------------------------------------------- (i) 6 rounds
def adjacent(g, seat, at, dest):
    g.set(seat, node=at, dest=dest)


def arrive_turn(g, seat):
    """``seat`` (cautious, one street from its stop) draws a fare and drives there."""
    fare_turn(g, seat, move=1)
    while g.pending is not None and g.pending[0] == seat and g.kind() == S.KIND_MOVE:
        g.decide()


def miss_turn(g, seat):
    fare_turn(g, seat, move=1)
    while g.pending is not None and g.pending[0] == seat and g.kind() == S.KIND_MOVE:
        g.answer(S.STOP)


def test_the_round_of_the_first_arrival_is_played_out_and_its_arrivals_share():
    g = start(("cautious",) * 3)
    adjacent(g, 0, "f13", "e13")
    adjacent(g, 1, "h9", "q1")
    adjacent(g, 2, "f5", "f4")
    arrive_turn(g, 0)
    assert not g.all("leg_end")  # seats 1 and 2 still play this round
    miss_turn(g, 1)
    assert not g.all("leg_end")
    arrive_turn(g, 2)
    leg_end = g.last("leg_end")
    assert leg_end["arrived"] == [0, 2] and leg_end["share"] == 3000 and leg_end["turn"] == 3
    assert g.pending[:2] == (0, S.KIND_CARD) and g.last("turn") == {"type": "turn", "turn": 4, "seat": 0}


def test_a_round_ends_after_the_highest_seat_still_in_even_when_it_is_eliminated():
    g = start(("cautious",) * 3)
    adjacent(g, 0, "f13", "e13")
    arrive_turn(g, 0)
    miss_turn(g, 1)
    g.set(2, money=100)
    g.top("journey", card_id("journey", "dangerous driving"))  # a $500 fine
    g.answer(S.CARD_JOURNEY)
    types = [e["type"] for e in g.events()]
    assert types[-7:-3] == ["card", "eliminate", "leg_end", "hire"]  # no die, no tablet: the leg ends
    assert g.pending[:2] == (0, S.KIND_CARD)
    fare_turn(g, 0, move=1)
    g.answer(S.STOP)
    g.until(S.KIND_CARD, seat=1)
    fare_turn(g, 1, move=1)
    g.answer(S.STOP)
    g.until(S.KIND_CARD)
    assert g.pending[0] == 0  # rounds skip the eliminated seat


def test_arrival_window_turn_ends_the_leg_after_the_arrival_and_goes_on_in_order():
    g = start(("cautious",) * 3, params={"arrival_window": "turn"})
    adjacent(g, 0, "h9", "q1")
    adjacent(g, 1, "r1", "q1")
    miss_turn(g, 0)
    arrive_turn(g, 1)
    leg_end = g.last("leg_end")
    assert leg_end["arrived"] == [1] and leg_end["share"] == 6000 and leg_end["turn"] == 2
    assert g.pending[:2] == (2, S.KIND_CARD)  # the next seat after the arrival


# --------------------------------------------------------------------------- (i) 7 bonus
@pytest.mark.parametrize("bonus, share", [(6000, 1500), (6010, 1500), (6040, 1510)])
def test_the_bonus_share_is_rounded_down_to_ten_dollars(bonus, share):
    g = start(("cautious",) * 4, params={"destination_bonus": bonus})
    for seat, (at, dest) in enumerate((("f13", "e13"), ("r1", "q1"), ("f5", "f4"), ("b1", "b2"))):
        adjacent(g, seat, at, dest)
    for seat in range(4):
        arrive_turn(g, seat)
    leg_end = g.last("leg_end")
    assert leg_end["arrived"] == [0, 1, 2, 3] and leg_end["share"] == share
    assert leg_end["money"] == [9340 + 100 + share] * 4


# --------------------------------------------------------------------------- (i) 8 leg end
def test_bonus_jumps_then_charges_in_seat_order_each_debt_settled_before_the_next():
    g = start(("cautious",) * 3)
    g.set(0, node="h9", dest="q1", plates=1, money=0)
    g.supply(plate=35)
    adjacent(g, 1, "r1", "q1")
    adjacent(g, 2, "h9", "e13")
    g.top("expense", card_id("expense", "Engine rebuild"))
    miss_turn(g, 0)
    arrive_turn(g, 1)
    miss_turn(g, 2)
    events = g.events()
    i = max(k for k, e in enumerate(events) if e["type"] == "leg_end")
    kinds = [(e["type"], e.get("seat")) for e in events[i:]]
    assert kinds[:6] == [("leg_end", None), ("expense", 0), ("sell", 0), ("hire", 1), ("hire", 2), ("leg", None)]
    assert events[i]["money"] == [100, 9440 + 6000, 9440]  # the bonus first
    assert events[i]["position"] == [node("q1"), node("q1"), node("e13")]  # then the jumps
    assert events[i + 1]["amount"] == 2000 and events[i + 1]["money"] == -1900
    assert events[i + 2]["money"] == 3100 and events[i + 2]["plates"] == 0
    # no plate any more: seat 0 pays the hire fee again at the next leg's end
    g.set(0, node="b9", dest="b11")
    arrive_turn(g, 0)
    miss_turn(g, 1)
    miss_turn(g, 2)
    charges = [e for e in g.events() if e["type"] in ("hire", "expense")][-3:]
    assert [(e["type"], e["seat"]) for e in charges] == [("hire", 0), ("hire", 1), ("hire", 2)]


# --------------------------------------------------------------------------- (i) 9 debt
def test_payment_in_full_then_plates_sold_one_at_a_time_only_while_in_debt():
    g = start()
    g.set(0, money=100, plates=2, node="h9", dest="q1")
    g.supply(plate=34)
    g.top("journey", card_id("journey", "dangerous driving"))
    g.die(1)
    g.answer(S.CARD_JOURNEY)
    card, *sells = [e for e in g.events() if e["type"] in ("card", "sell", "eliminate")]
    assert card["money"] == -400
    assert [(s["type"], s["money"], s["plates"]) for s in sells] == [("sell", 4600, 1)]


def test_elimination_with_no_plate_ends_a_two_player_game_at_once():
    g = start()
    g.set(0, money=100, greens=2, node="h9", dest="q1")
    g.top("journey", card_id("journey", "dangerous driving"))
    g.answer(S.CARD_JOURNEY)
    types = [e["type"] for e in g.events()]
    assert types[-3:] == ["card", "eliminate", "end"]
    end = g.events()[-1]
    assert end["reason"] == "last_standing" and end["winner"] == 1 and end["out"] == [True, False]
    assert end["wealth"][0] == -400 and g.pending is None


def test_without_elimination_a_player_plays_on_in_debt():
    g = start(params={"eliminate_on_debt": False})
    g.set(0, money=100, node="h9", dest="q1")
    g.top("journey", card_id("journey", "dangerous driving"))
    g.die(1)
    g.answer(S.CARD_JOURNEY)
    assert not g.all("eliminate") and g.kind() == S.KIND_MOVE and g.get(0, "money") == -400


# --------------------------------------------------------------------------- (i) 10, 11 bets
def test_bets_need_the_stake_are_asked_in_order_and_settled_against_the_supply():
    g = start(("cautious",) * 4)
    g.set(1, greens=1)
    g.set(2, greens=1)
    g.set(3, money=500)
    g.supply(freeway=1, green=28)
    g.top("journey", card_id("journey", "FREEWAY"))
    g.die(1)
    g.answer(S.CARD_JOURNEY)
    asked = []
    for answer in (S.BET_FREEWAY, S.BET_FREEWAY, S.BET_MONEY):  # seat 3 cannot stake $1,000
        assert g.kind() == S.KIND_BET and g.pending[2] == 0
        asked.append(g.pending[0])
        g.answer(answer)
    assert asked == [1, 2, 3]
    bets = g.all("bet")
    assert [(b["seat"], b["word"]) for b in bets] == [(1, "freeway"), (2, "freeway"), (3, "none")]
    reveal = g.last("reveal")
    assert reveal["word"] == "freeway" and reveal["winners"] == [1, 2]
    assert reveal["whites"] == [0, 1, 0, 0] and reveal["greens"] == [0, 1, 1, 0]  # the supply had one


def test_the_holder_collects_lost_stakes_and_never_pays():
    g = start(("cautious",) * 4)
    g.set(2, greens=1)
    g.supply(green=29)
    g.top("journey", card_id("journey", "MONEY"))
    g.die(1)
    g.answer(S.CARD_JOURNEY)
    for answer in (S.BET_TAXI, S.BET_FREEWAY, S.BET_MONEY):
        g.answer(answer)
    reveal = g.last("reveal")
    assert reveal["winners"] == [3]
    assert reveal["money"] == [9340 + 5000, 9340 - 5000, 9340, 9340 + 3000]
    assert reveal["greens"] == [1, 0, 0, 0]


def test_a_bettor_never_sees_the_word_only_the_revealed_count():
    from sims.taxi.players import router

    g = start(("router",) * 3)
    g.set(1, money=20000)
    g.top("journey", card_id("journey", "MONEY"))
    g.die(1)
    g.answer(S.CARD_JOURNEY)
    assert g.pending[:2] == (1, S.KIND_BET)
    st = g.st
    choice = router(S.KIND_BET, 1, 0, st)
    assert choice == S.BET_TAXI  # 2/6 x $15,000 - 4/6 x $5,000 > 0, the best EV
    for word in (S.C_GAMBLE_FREEWAY, S.C_GAMBLE_TAXI):  # another word in the holder's hand: the same bet
        st[S.CARD_KIND] = word
        assert router(S.KIND_BET, 1, 0, st) == choice
    st[S.CARD_KIND] = S.C_GAMBLE_MONEY
    st[S.revealed_at(2)] = 2  # both taxi cards seen since the last shuffle
    assert router(S.KIND_BET, 1, 0, st) == S.BET_MONEY


# --------------------------------------------------------------------------- (i) 12 decks
def test_a_deck_is_reshuffled_only_when_a_draw_finds_it_empty():
    g = start()
    g.set(0, node="h9", dest="q1")
    g.drawn("passenger", 1)
    g.die(1)
    g.answer(S.CARD_PASSENGER)
    assert not g.all("shuffle")
    g.answer(S.STOP)
    assert g.pending[:2] == (1, S.KIND_CARD)
    g.answer(S.CARD_PASSENGER)
    events = g.events()
    shuffle = g.last("shuffle")
    i = events.index(shuffle)
    assert shuffle["deck"] == "passenger" and sorted(shuffle["order"]) == list(range(50))
    assert events[i + 1]["type"] == "card" and events[i + 1]["card"] == shuffle["order"][0]


def test_a_gamble_card_is_discarded_after_its_reveal():
    g = start()
    g.set(0, node="h9", dest="q1")
    gamble = card_id("journey", "TAXI")
    at = int(g.st[S.O_ORDER])
    g.st[at : at + 50] = [c for c in range(50) if c != gamble] + [gamble]
    g.drawn("journey", 1)  # the last card of the pile is the gamble card
    g.die(1)
    g.answer(S.CARD_JOURNEY)
    g.answer(S.BET_NONE)
    g.answer(S.STOP)
    g.answer(S.CARD_JOURNEY)  # seat 1: the pile is empty
    shuffle = g.last("shuffle")
    assert gamble in shuffle["order"] and len(shuffle["order"]) == 50


def test_expense_per_plate_reshuffles_with_the_cards_just_paid():
    g = start(("cautious",) * 2, params={"expense_per_plate": True})
    g.set(0, node="h9", dest="q1", plates=3, money=50000)
    g.supply(plate=33)
    adjacent(g, 1, "r1", "q1")
    g.drawn("expense", 1)
    last = int(g.st[S.order_at(g.st, 2, 49)])
    miss_turn(g, 0)
    arrive_turn(g, 1)
    events = g.events()
    i = events.index(g.last("leg_end"))
    kinds = [e["type"] for e in events[i + 1 : i + 6]]
    assert kinds == ["expense", "shuffle", "expense", "expense", "hire"]
    assert events[i + 1]["card"] == last and last in events[i + 2]["order"] and len(events[i + 2]["order"]) == 50


# --------------------------------------------------------------------------- (i) 13 tablet die
def test_the_tablet_die_is_thrown_after_a_no_move_card_and_grants_only_from_the_supply():
    g = start(params={"green_supply": 0})
    g.set(0, node="h9", dest="q1")
    g.top("journey", card_id("journey", "Flat tyre"))
    g.force(4)  # the tablet die: face 5, a green face
    g.answer(S.CARD_JOURNEY)
    types = [e["type"] for e in g.events() if e["turn"] == 1]
    assert types == ["turn", "card", "tablet"]
    tablet = g.last("tablet")
    assert tablet["face"] == 5 and tablet["result"] == "green" and tablet["granted"] is False


@pytest.mark.parametrize("face, result", [(1, "freeway"), (2, "freeway"), (3, "green"), (7, "green"),
                                          (8, "blank"), (12, "blank")])
def test_the_tablet_die_faces(face, result):
    g = start()
    g.set(0, node="h9", dest="q1")
    fare_turn(g, 0, move=1, tablet=face)
    g.answer(S.STOP)
    assert g.last("tablet")["result"] == result


# --------------------------------------------------------------------------- (i) 14 barriers
def test_a_barrier_is_placed_before_the_targets_card_once_per_holder_and_returned():
    g = start()
    g.set(0, node="h9", dest="q1", barriers=2)
    g.supply(barrier=10)
    g.set(1, node="l7", dest="q1")
    miss_turn(g, 0)
    assert g.pending[:2] == (0, S.KIND_BARRIER) and g.pending[2] == 1
    seg = BOARD_SEG("n7", "o7")
    g.answer(seg)
    assert g.pending[:2] == (1, S.KIND_CARD)  # asked once, although it holds two
    assert g.get(0, "barriers") == 1
    fare_turn(g, 1, move=6)
    assert g.entry("n7", "o7") < 0 and g.entry("n7") >= 0  # the barred segment cannot be driven
    g.answer(S.STOP)
    types = [e["type"] for e in g.events() if e["turn"] == 2]
    assert types[:3] == ["turn", "barrier", "card"]
    barrier = g.last("barrier")
    assert barrier["segment"] == [node("n7"), node("o7")] and barrier["barriers"] == 1 and barrier["target"] == 1
    assert int(g.st[S.SUPPLY_BARRIER]) == 11  # back in the supply after that turn


def test_an_illegal_barrier_is_kept():
    g = start()
    g.set(0, node="h9", dest="q1", barriers=1)
    miss_turn(g, 0)
    g.answer(10_000)
    assert g.get(0, "barriers") == 1 and not g.all("barrier")


def BOARD_SEG(a, b):
    from tests.taxi.positions import BOARD

    return BOARD.segment_of(node(a), node(b))


# --------------------------------------------------------------------------- (i) 15 ends
def test_a_tie_for_the_most_wealth_has_no_winner():
    g = start()
    g.st[S.LEG] = 15
    g.set(0, node="h9", dest="j9")
    g.set(1, node="l9", dest="j9")
    arrive_turn(g, 0)
    arrive_turn(g, 1)
    end = g.events()[-1]
    assert end["type"] == "end" and end["reason"] == "completed" and end["winner"] == -1
    assert end["wealth"][0] == end["wealth"][1] and end["legs"] == 15


def test_the_turn_limit_has_no_winner():
    g = start(params={"max_turns": 2})
    g.set(0, money=90000)
    while g.pending is not None:
        g.decide()
    end = g.events()[-1]
    assert end["reason"] == "turn_limit" and end["winner"] == -1 and end["turn"] == 2 and end["legs"] == 0


# --------------------------------------------------------------------------- illegal answers
def test_illegal_card_answers_draw_a_passenger_card():
    for answer in (S.CARD_NONE, 7, -3):
        g = start()
        g.set(0, node="h9", dest="q1")
        g.die(1)
        g.answer(answer)
        assert g.last("card")["deck"] == "passenger"


def test_card_optional_allows_no_card():
    g = start(params={"card_optional": True})
    g.set(0, node="h9", dest="q1")
    g.die(1)
    g.answer(S.CARD_NONE)
    assert g.last("card") == {"type": "card", "turn": 1, "seat": 0, "deck": "none", "card": None}


def test_an_illegal_move_answer_leaves_the_taxi_where_it_stood():
    g = start()
    g.set(0, node="l7", dest="q1", greens=0)
    fare_turn(g, 0, move=6)
    g.step("n7")
    g.step("o7")
    g.answer(999)
    move = g.last("move")
    assert move["path"] == [node("l7")] and move["streets"] == 0 and g.get(0, "node") == node("l7")


def test_an_illegal_buy_answer_buys_nothing():
    g = start()
    g.set(0, node="h9", dest="q1")
    miss_turn(g, 0)
    g.set(0, money=20000)
    g.until(S.KIND_CARD, seat=1)
    miss_turn(g, 1)
    assert g.pending[:2] == (0, S.KIND_BUY) and g.pending[2] == 15000
    g.answer(5)
    assert not g.all("buy") and g.get(0, "plates") == 0
    assert g.pending[:2] == (0, S.KIND_CARD)
