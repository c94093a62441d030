"""Hand-built positions for the fine points of the spec (section (i)) and the rules behind them.

Each test deals the cards it needs (tests/carmarace/table.py), answers the
decisions that matter by hand and lets the seated players answer the rest.
"""

from __future__ import annotations

from collections import deque

import pytest

from sims.carmarace import SPEC
from sims.carmarace import state as S
from tests.carmarace.table import BOARD, Table, card_id, node

SEDAN = card_id("Sedan")
FIRE_TRUCK = card_id("Fire truck")
JEEP = card_id("Jeep")
TAXI = card_id("Taxi")
BUS = card_id("Bus")
SKATEBOARD = card_id("Skateboard")
FREIGHT = card_id("Freight train")
PEOPLES = card_id("The People's Transport")
PLANE = card_id("Plane Transportation")
JUMBO = card_id("Jumbo jet")
TURBO = card_id("Turbo")
FOG = card_id("Fog")
TRAFFIC_JAM = card_id("Traffic jam")
CRASH = card_id("Crash and burn")
PULL_OVER = card_id("Police pull-over")
MECHANIC = card_id("Roadside mechanic")
TOW = card_id("Tow truck")
ROADBLOCK = card_id("Roadblock")
GREEN = card_id("Green lights")
DERAILMENT = card_id("Derailment")
EMERGENCY = card_id("Emergency landing")
FILLER = card_id("Lost luggage")  # a plane Karma card: never legal on a road vehicle or a train
FILLER2 = card_id("Lost luggage", 1)
SLOT = S.CARD_SLOT


def path_names(move):
    return [BOARD.nodes[v] for v in move["path"]]


def ride(t, card, karma=None):
    """Up to the transport decision of the active seat: play ``card``; own Karma: ``karma`` or none."""
    seat, kind, _ = t.next()
    assert kind == "transport", kind
    t.answer(card)
    got = t.next()
    if got is not None and got[1] == "own_karma":
        t.answer(-1 if karma is None else karma)
        got = t.next()
    return got


def round_passes(t, got):
    """Every round opportunity passes; returns the first decision after the round."""
    while got is not None and got[1] == "karma":
        t.answer(-1)
        got = t.next()
    return got


def drive_move(t, got, answers=None, rest=True):
    """Answer the move's NEXT / GO_ON decisions: from ``answers`` in order, then (``rest``) as the player would."""
    answers = deque(answers or [])
    while got is not None and got[1] in ("next", "go_on"):
        if not answers and not rest:
            return got
        t.answer(answers.popleft() if answers else t.pos.decide())
        got = t.next()
    return got


def last(t, kind):
    found = t.events(kind)
    return found[-1] if found else None


# --------------------------------------------------------------------------- (i) 1: togo
def test_togo_is_the_no_boarding_distance_not_the_shortest_path():
    # every lot square is 108 spaces from the Convention by road (the shortest road trip)
    for name in ("L1", "L5", "L6", "T0", "A0"):
        assert BOARD.togo[node(name)] == 108, name
    # over all edges the railway and air routes would look like free shortcuts from square 5 and 6
    dist = {node("L5"): 0}
    q = deque([node("L5")])
    while q:
        u = q.popleft()
        for w in BOARD.adjacency[u]:
            if w not in dist:
                dist[w] = dist[u] + 1
                q.append(w)
    assert dist[BOARD.convention] < 108
    # a track space's togo goes on along its railway to the next station, then by road
    assert BOARD.togo[node("u3")] == 3 + 1 + 1 + BOARD.togo[node("b7")]
    # a station's togo is by road (a pawn there has not boarded)
    assert BOARD.togo[node("TW1")] == 1 + BOARD.togo[node("b7")]


# --------------------------------------------------------------------------- (i) 2: Stop signs
def test_an_entered_stop_ends_the_move_and_a_move_starting_on_it_drives_off():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN]}, pawns={0: "a5", 1: "L1"})
    got = round_passes(t, ride(t, SEDAN))
    got = drive_move(t, got, [node("a6"), node("a7"), node("a8")])
    assert got[1] == "refill"  # no NEXT at a8: the Stop ends the move with 3 points left
    assert path_names(last(t, "move")) == ["a5", "a6", "a7", "a8"]
    t.answer(0)
    # seat 0's next turn starts on the Stop: it drives off
    t2 = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN]}, pawns={0: "a8", 1: "L1"})
    got = round_passes(t2, ride(t2, SEDAN))
    assert got[1] == "next" and got[2] == node("a8")
    drive_move(t2, got)
    assert path_names(last(t2, "move"))[:3] == ["a8", "a9", "a10"]


def test_ignores_stops_drives_through_a_crossing():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, FIRE_TRUCK]}, pawns={0: "a5", 1: "L1"})
    got = round_passes(t, ride(t, FIRE_TRUCK))
    drive_move(t, got)
    assert path_names(last(t, "move")) == ["a5", "a6", "a7", "a8", "a9", "a10", "a11"]


def test_a_tracks_vehicle_passes_a_stop_only_onto_the_tracks():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, JEEP]}, pawns={0: "a5", 1: "L1"})
    got = round_passes(t, ride(t, JEEP))
    got = drive_move(t, got, [node("a6"), node("a7"), node("a8")], rest=False)
    assert got[1] == "next" and got[2] == node("a8")
    t.answer(node("a9"))  # along the road past the Stop: illegal, the move ends there
    assert path_names(last(t, "move")) == ["a5", "a6", "a7", "a8"]
    t2 = Table(["hunter", "hunter"], hands={0: [FILLER, JEEP]}, pawns={0: "a5", 1: "L1"})
    got = round_passes(t2, ride(t2, JEEP))
    got = drive_move(t2, got, [node("a6"), node("a7"), node("a8"), node("u3"), node("a9")])
    assert path_names(last(t2, "move")) == ["a5", "a6", "a7", "a8", "u3", "a9"]


def test_trains_board_at_stations_never_at_crossings():
    # at the crossing a8 (an edge onto the track u3) a train has no first step: not playable
    t = Table(["hunter", "hunter"], hands={0: [FILLER, FREIGHT]}, pawns={0: "a8", 1: "L1"})
    assert t.next()[1] == "refill"
    tr = last(t, "transport")
    assert tr["card"] is None
    # next to a station it is: the station counts as one movement point
    t2 = Table(["hunter", "hunter"], hands={0: [FILLER, FREIGHT, PEOPLES]}, pawns={0: "b6", 1: "L1"})
    got = round_passes(t2, ride(t2, FREIGHT))
    got = drive_move(t2, got, [node("TW1"), node("x1"), node("x2")], rest=False)
    t2.answer(-1)
    assert path_names(last(t2, "move")) == ["b6", "TW1", "x1", "x2"]


# --------------------------------------------------------------------------- (i) 3: arrows
def test_the_die_is_rolled_for_an_arrow_entered_and_left():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN]}, pawns={0: "a10", 1: "L1"})
    got = round_passes(t, ride(t, SEDAN))
    got = drive_move(t, got, [node("a11"), node("a12"), node("X1")], rest=False)
    assert got[1] == "go_on" and got[2] == node("X1")
    t.force([3])  # face 4: the Farm road
    t.answer(1)
    drive_move(t, t.next())
    move = last(t, "move")
    assert path_names(move)[:5] == ["a10", "a11", "a12", "X1", "c1"]
    assert move["rolls"] == [{"at": node("X1"), "roll": 4, "to": node("c1")}]


def test_a_move_may_end_on_an_arrow_with_points_left_and_the_next_one_chooses():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN]}, pawns={0: "a10", 1: "L1"})
    got = round_passes(t, ride(t, SEDAN))
    got = drive_move(t, got, [node("a11"), node("a12"), node("X1")], rest=False)
    t.answer(0)  # stop on the arrow: no roll
    move = last(t, "move")
    assert path_names(move) == ["a10", "a11", "a12", "X1"] and move["rolls"] == []
    # a move starting on the arrow chooses its branch (NEXT, not GO_ON), no roll
    t2 = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN]}, pawns={0: "X1", 1: "L1"})
    got = round_passes(t2, ride(t2, SEDAN))
    assert got[1] == "next" and got[2] == node("X1")
    drive_move(t2, got, [node("c1")], rest=False)
    move = last(t2, "move")
    assert path_names(move)[:2] == ["X1", "c1"] and move["rolls"] == []


# --------------------------------------------------------------------------- (i) 4, 13: move to the closest
def test_a_land_card_ends_the_ride_on_the_spot():
    t = Table(["hunter", "hunter", "hunter"], hands={0: [FILLER, FREIGHT], 1: [DERAILMENT], 2: [card_id("Green signal")]},
              pawns={0: "x3", 1: "L1", 2: "L2"})
    seat, kind, _ = t.next()
    t.answer(FREIGHT)
    seat, kind, _ = t.next()
    assert (seat, kind) == (1, "karma")
    t.answer(DERAILMENT + SLOT * 0)
    got = t.next()
    assert got[1] == "refill" and got[0] == 0  # no more opportunities, no removals, no move
    events = t.events()
    types = [e["type"] for e in events[events.index(last(t, "transport")):]]
    assert types == ["transport", "karma", "land", "cleanup"]
    land = last(t, "land")
    assert (land["from"], land["to"], land["tied"], land["by"], land["roll"]) == (node("x3"), node("b10"), [], None, None)
    assert last(t, "cleanup")["discarded"] == [FREIGHT, DERAILMENT]
    assert t.pawn(0) == "b10"


def test_a_land_card_on_a_road_space_leaves_the_pawn_there_and_still_ends_the_ride():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, FREIGHT], 1: [DERAILMENT]}, pawns={0: "b6", 1: "L1"})
    t.next()
    t.answer(FREIGHT)
    assert t.next()[:2] == (1, "karma")
    t.answer(DERAILMENT)
    assert t.next()[1] == "refill"
    land = last(t, "land")
    assert land["from"] == land["to"] == node("b6") and land["tied"] == [] and land["by"] is None
    assert t.events("move") == []


def test_a_land_card_discards_a_plane_in_front():
    t = Table(["hunter", "hunter", "hunter"], hands={1: [EMERGENCY]}, pawns={0: "z5", 1: "L1", 2: "L2"},
              kept={0: (PLANE, 0)})
    got = t.next()
    assert got[:2] == (1, "karma")  # the plane aloft is ridden without asking
    assert last(t, "transport")["kept"] is True
    t.answer(EMERGENCY)
    t.next()
    land = last(t, "land")
    # z5 lands on g12 or g14: the opponents outvote the mover, choosing the farthest (g12)
    assert land["tied"] == sorted([node("g12"), node("g14")]) and land["to"] == node("g12")
    assert last(t, "cleanup") == {**last(t, "cleanup"), "kept": None, "discarded": [PLANE, EMERGENCY]}
    assert int(t.st[S.kept_at(0)]) == -1


@pytest.mark.parametrize("mover_last, by, to", [(True, 0, "i9"), (False, 1, "h1")])
def test_two_player_vote_ties_go_to_the_player_in_last_position(mover_last, by, to):
    # p1 lands on i9 (22 to go) or h1 (23): the seat in last position decides
    pawns = {0: "p1", 1: "k9" if mover_last else "L1"}
    t = Table(["hunter", "hunter"], hands={0: [FILLER, PEOPLES], 1: [DERAILMENT]}, pawns=pawns)
    t.next()
    t.answer(PEOPLES)
    assert t.next()[:2] == (1, "karma")
    t.answer(DERAILMENT)
    t.next()
    land = last(t, "land")
    assert land["tied"] == sorted([node("i9"), node("h1")])
    assert land["by"] == by and land["to"] == node(to)


def test_two_player_vote_last_position_ties_go_to_the_higher_seat():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, PEOPLES], 1: [DERAILMENT]}, pawns={0: "p1", 1: "p1"})
    t.next()
    t.answer(PEOPLES)
    t.next()
    t.answer(DERAILMENT)
    t.next()
    land = last(t, "land")
    assert land["by"] == 1 and land["to"] == node("h1")  # seat 1 decides against the mover


def test_random_tie_rule_rolls_among_the_sorted_entries():
    t = Table(["hunter", "hunter", "hunter"], {"tie_rule": "random"}, hands={0: [FILLER, PEOPLES], 1: [DERAILMENT]},
              pawns={0: "p1", 1: "L1", 2: "L2"})
    t.next()
    t.answer(PEOPLES)
    t.next()
    t.force([0])
    t.answer(DERAILMENT)
    t.next()
    land = last(t, "land")
    assert land["roll"] == 1 and land["to"] == min(node("i9"), node("h1")) and land["by"] is None


# --------------------------------------------------------------------------- (i) 5: on top, removals
def test_on_top_cards_replace_a_card_and_ignore_the_limit():
    t = Table(["hunter", "hunter", "hunter"], hands={0: [FILLER, SKATEBOARD, MECHANIC, TURBO], 1: [FOG], 2: [PULL_OVER]},
              pawns={0: "a1", 1: "L1", 2: "L2"})
    t.next()
    t.answer(SKATEBOARD)  # karma limit 1
    got = t.next()
    assert got[1] == "own_karma"
    t.answer(MECHANIC)  # an on_top card cannot open the row: treated as none
    got = t.next()
    assert got[:2] == (1, "karma") and t.events("karma") == []
    t.answer(FOG)  # a plain card on an empty row: legal
    got = t.next()
    assert got[:2] == (2, "karma")
    t.answer(PULL_OVER + SLOT * 0)  # limit reached (1 slot) but on_top covers slot 0
    got = t.next()
    assert got[:2] == (0, "karma")
    t.answer(TURBO)  # a plain card with the limit reached: illegal, a pass
    got = round_passes(t, t.next())
    karma = t.events("karma")
    assert [(e["card"], e["slot"]) for e in karma] == [(FOG, 0), (PULL_OVER, 0)]
    move = last(t, "move")
    assert move["karma"] == -3 and move["speed"] == 0 and move["path"] == [node("a1")]  # (i) 14: floored at 0


def test_a_covered_removal_card_does_not_resolve():
    t = Table(["saboteur", "hunter", "hunter"], hands={0: [FILLER, SEDAN, TRAFFIC_JAM], 1: [TOW], 2: [MECHANIC]},
              pawns={0: "a1", 1: "L1", 2: "L2"})
    t.next()
    t.answer(SEDAN)
    t.next()
    t.answer(-1)
    got = t.next()
    t.answer(TOW + SLOT * 0)  # seat 1: Tow truck opens slot 0
    got = t.next()
    t.answer(MECHANIC + SLOT * 0)  # seat 2 covers it with Roadside mechanic (+2)
    got = t.next()
    assert got[:2] == (0, "karma")
    t.answer(TRAFFIC_JAM + SLOT * 1)  # the active seat slows itself (-3), slot 1
    round_passes(t, t.next())
    assert t.events("remove") == []
    move = last(t, "move")
    assert (move["base"], move["karma"], move["speed"]) == (6, -1, 5)


def test_removals_resolve_left_to_right_and_take_whole_slots():
    t = Table(
        ["hunter", "hunter", "hunter"],
        hands={0: [FILLER, SEDAN, ROADBLOCK], 1: [FOG, TOW], 2: [PULL_OVER, TURBO]},
        pawns={0: "a1", 1: "L1", 2: "L2"},
    )
    t.next()
    t.answer(SEDAN)
    t.next()
    t.answer(ROADBLOCK)  # slot 0: remove_all
    # seat 0 holds no road card: a forced pass after its own card
    for seat, answer in ((1, FOG + SLOT * 1), (2, TURBO + SLOT * 2), (1, TOW + SLOT * 3),
                         (2, PULL_OVER + SLOT * 1)):
        got = t.next()
        assert got[:2] == (seat, "karma"), got
        t.answer(answer)
    drive_move(t, round_passes(t, t.next()))
    removes = t.events("remove")
    # slot 0 (Roadblock) removes slots 1-3; slot 3's Tow truck, removed, never resolves
    assert len(removes) == 1
    r = removes[0]
    assert (r["card"], r["slot"], r["removed"]) == (ROADBLOCK, 0, [1, 2, 3])
    assert r["cards"] == [FOG, PULL_OVER, TURBO, TOW]
    move = last(t, "move")
    assert move["karma"] == 0 and move["speed"] == 6
    cleanup = last(t, "cleanup")
    assert cleanup["discarded"] == [SEDAN, ROADBLOCK, FOG, PULL_OVER, TURBO, TOW]


# --------------------------------------------------------------------------- (i) 6: the round
def test_round_order_passing_is_final_and_the_own_card_is_no_opportunity():
    t = Table(["hunter", "hunter", "hunter"], hands={0: [FILLER, SEDAN, TURBO, GREEN], 1: [FOG, TRAFFIC_JAM], 2: []},
              pawns={0: "a1", 1: "L1", 2: "L2"})
    t.next()
    t.answer(SEDAN)
    assert t.next()[1] == "own_karma"
    t.answer(TURBO)
    asked = []
    got = t.next()
    while got[1] == "karma":
        asked.append(got[0])
        t.answer(-1 if got[0] == 1 else GREEN + SLOT * 1)
        got = t.next()
    # seat 1 first (not the active seat though it played), seat 2 has no card: a forced pass;
    # seat 0, with no road card left, passes without being asked
    assert asked == [1, 0]
    plays = [(e["type"], e["seat"]) for e in t.events("karma", "pass")]
    assert plays == [("karma", 0), ("pass", 1), ("pass", 2), ("karma", 0), ("pass", 0)]


# --------------------------------------------------------------------------- (i) 7: Good Karma
def test_good_karma_step_can_win_in_another_players_round():
    t = Table(["hunter", "hunter"], {"good_karma_step": True}, hands={0: [FILLER, SEDAN], 1: [GREEN]},
              pawns={0: "a1", 1: "k10"})
    t.next()
    t.answer(SEDAN)
    got = t.next()
    assert got[:2] == (1, "karma")
    t.answer(GREEN)
    got = t.next()
    assert got == (1, "step", node("k10"))
    t.answer(BOARD.convention)
    assert t.next() is None
    types = [e["type"] for e in t.events()][-4:]
    assert types == ["transport", "karma", "step", "end"]
    end = t.events("end")[0]
    assert end["winner"] == 1 and end["reason"] == "convention" and end["togo"][1] == 0


def test_no_step_without_the_variant_or_for_the_active_seat():
    t = Table(["hunter", "hunter"], {"good_karma_step": True}, hands={0: [FILLER, SEDAN, GREEN]}, pawns={0: "a1", 1: "L1"})
    t.next()
    t.answer(SEDAN)
    t.next()
    t.answer(GREEN)
    got = round_passes(t, t.next())
    assert got[1] in ("next", "go_on") and t.events("step") == []


# --------------------------------------------------------------------------- (i) 8, 9: gifts, lazy shuffle
def test_gifts_leave_the_deck_before_the_shuffle_and_count_toward_the_hand():
    players = ["hunter"] * 6
    events = SPEC.trace(SPEC.resolve_params({}), [SPEC.parse_player("hunter")], [[0] * 6], 3, 1)
    setup = events[0]
    gifts = [e for e in events if e["type"] == "gift"]
    assert [(g["seat"], g["card"]) for g in gifts] == [(4, setup["gifts"]["station"]), (5, setup["gifts"]["airport"])]
    assert PEOPLES not in setup["decks"]["transport"] and PLANE not in setup["decks"]["transport"]
    assert len(setup["decks"]["transport"]) == 48
    for seat in (4, 5):
        draws = [e for e in events if e["type"] == "draw" and e["phase"] == "setup" and e["seat"] == seat]
        assert len(draws) == setup["hand_limit"] - 1 and draws[-1]["hand"] == setup["hand_limit"]
    assert len(players) == 6


def test_no_gift_without_the_gift_squares_or_with_gifts_off():
    e4 = SPEC.trace(SPEC.resolve_params({}), [SPEC.parse_player("hunter")], [[0] * 4], 3, 1)
    assert [e for e in e4 if e["type"] == "gift"] == []
    e6 = SPEC.trace(SPEC.resolve_params({"start_gifts": False}), [SPEC.parse_player("hunter")], [[0] * 6], 3, 1)
    assert [e for e in e6 if e["type"] == "gift"] == []
    assert len(e6[0]["decks"]["transport"]) == 50
    eh = SPEC.trace(SPEC.resolve_params({"start_squares": "highest"}), [SPEC.parse_player("hunter")], [[0] * 2], 3, 1)
    assert eh[0]["squares"] == [5, 6] and [(g["seat"]) for g in eh if g["type"] == "gift"] == [0, 1]


def test_a_deck_is_reshuffled_only_when_a_draw_finds_its_pile_empty():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN]}, pawns={0: "a1", 1: "L1"}, draws=True)
    st = t.st
    d = S.D_ROAD
    first = int(st[S.deck_first_at(d)])
    n = int(st[S.draw_n_at(d)])
    pile = [int(st[S.draw_pile_at(st, first + i)]) for i in range(n)]
    for i, c in enumerate(pile):
        st[S.discard_at(st, first + i)] = c
    st[S.disc_n_at(d)] = n
    st[S.draw_n_at(d)] = 0
    got = t.next()
    assert got[1] == "draw"
    t.answer(d)
    events = t.events()
    assert [e["type"] for e in events[-2:]] == ["shuffle", "draw"]
    shuffle, draw = events[-2:]
    assert sorted(shuffle["order"]) == sorted(pile) and draw["card"] == shuffle["order"][0]
    got = t.next()
    t.answer(d)
    assert t.events()[-1]["type"] == "draw" and t.events()[-2]["type"] == "draw"  # no second shuffle


# --------------------------------------------------------------------------- (i) 10: cards kept in front
def _own_turn(t, ride_answer=None, card=None):
    """Play seat 0's turn: ride the kept card (or play ``card``), everyone passes, hunter moves, no refill."""
    got = t.next()
    assert (got[1] == "ride") == (ride_answer is not None), got
    if got[1] == "ride":
        t.answer(ride_answer)
        got = t.next()
    if got[1] == "transport":
        t.answer(card)
        got = t.next()
    if got[1] == "own_karma":
        t.answer(-1)
        got = t.next()
    got = drive_move(t, round_passes(t, got))
    assert got[1] == "refill"
    t.answer(0)


def _skip_turn(t):
    """Seat 1 holds nothing: its turn asks nothing (its draws are stopped by the table)."""
    assert t.hand(1) == []


@pytest.mark.parametrize("card, rides", [(TAXI, 2), (BUS, 3)])
def test_a_taxi_is_ridden_twice_and_a_bus_three_times(card, rides):
    t = Table(["hunter", "hunter"], hands={0: [FILLER, card]}, pawns={0: "a1", 1: "L1"})
    _own_turn(t, card=card)
    for k in range(1, rides):
        assert last(t, "cleanup")["kept"] == card
        _skip_turn(t)
        _own_turn(t, ride_answer=1)
        assert last(t, "transport")["kept"] is True
    assert last(t, "cleanup")["kept"] is None and last(t, "cleanup")["discarded"][0] == card


def test_a_kept_taxi_may_be_left():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, TAXI, SEDAN]}, pawns={0: "a1", 1: "L1"})
    _own_turn(t, card=TAXI)
    _skip_turn(t)
    assert t.next()[1] == "ride"
    t.answer(0)
    assert t.next()[1] == "transport"
    assert last(t, "leave") == {"type": "leave", "turn": 3, "seat": 0, "card": TAXI}


def test_a_plane_is_kept_only_while_aloft_and_must_be_ridden():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, PLANE]}, pawns={0: "g9", 1: "L1"})
    _own_turn(t, card=PLANE)
    assert last(t, "cleanup")["kept"] == PLANE  # g9 -> AC -> z1 .. z5: in the sky
    assert BOARD.kind[node(t.pawn(0))] == "sky"
    _skip_turn(t)
    _own_turn(t)
    assert last(t, "transport")["kept"] is True and t.events("leave") == []  # ridden, no choice
    # six more spaces: z11, still aloft
    assert last(t, "cleanup")["kept"] == PLANE
    t2 = Table(["hunter", "hunter"], {"plane_stays_aloft": False}, hands={0: [FILLER, PLANE]}, pawns={0: "g9", 1: "L1"})
    got = round_passes(t2, ride(t2, PLANE))
    got = drive_move(t2, got, [node(x) for x in ("AC", "z1", "z2", "z3", "z4", "z5")])
    assert got[1] == "refill" and t2.pawn(0) == "z5"
    assert last(t2, "cleanup")["kept"] is None  # plane_stays_aloft off: the pawn waits in the sky


def test_a_plane_landing_at_an_airport_is_not_kept():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, JUMBO]}, pawns={0: "z15", 1: "L1"})
    _own_turn(t, card=JUMBO)
    assert t.pawn(0) == "A1" and last(t, "cleanup")["kept"] is None


# --------------------------------------------------------------------------- (i) 11: playable transports
def test_a_road_vehicle_cannot_be_played_on_a_track_but_can_leave_a_station():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN]}, pawns={0: "x3", 1: "L1"})
    assert t.next()[1] == "refill" and last(t, "transport")["card"] is None
    t2 = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN, JEEP]}, pawns={0: "x3", 1: "L1"})
    got = t2.next()
    assert got[1] == "transport"
    t2.answer(SEDAN)  # not playable: treated as none
    assert last(t2, "transport")["card"] is None
    t3 = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN]}, pawns={0: "TW1", 1: "L1"})
    got = round_passes(t3, ride(t3, SEDAN))
    drive_move(t3, got)
    assert path_names(last(t3, "move"))[:2] == ["TW1", "b7"]


# --------------------------------------------------------------------------- (i) 12: the turn limit
def test_max_turns_counts_player_turns_and_ends_after_the_refill():
    events = SPEC.trace(SPEC.resolve_params({"max_turns": 3}), [SPEC.parse_player("hunter")], [[0] * 4], 1, 0)
    end = events[-1]
    assert end["type"] == "end" and end["turn"] == 3 and end["reason"] == "turn_limit" and end["winner"] == -1
    assert events[-2]["type"] in ("refill", "draw") and events[-2]["turn"] == 3
    assert max(e["turn"] for e in events) == 3


def test_the_end_follows_the_move_that_reaches_the_convention():
    t = Table(["hunter", "hunter"], hands={0: [FILLER, SEDAN]}, pawns={0: "k8", 1: "L1"})
    got = round_passes(t, ride(t, SEDAN))
    drive_move(t, got)
    assert t.next() is None
    assert [e["type"] for e in t.events()][-2:] == ["move", "end"]
    assert path_names(last(t, "move")) == ["k8", "k9", "k10", "CON"]
