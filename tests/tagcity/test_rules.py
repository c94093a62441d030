"""Hand-built Tag City positions for every fine point of the specification's
section (i) (numbered as there), the fallbacks of illegal answers and the
round cap.  Most use a 3 x 4 test sheet where a row is four cells:

    row 0  A A B B        districts A (4 cells), B (4), C (4)
    row 1  A A B B        ring: 0 mono, 1 domino, 2 I3, 3 O4, 4 L3, 5 I4
    row 2  C C C C        centre: dot (drone only); faces v -> slots (v-1, v)

Dice are forced with ``script`` (a die shows its face minus one)."""

from __future__ import annotations

import numpy as np
import pytest

from balance.state import score_at
from sims.tagcity import SPEC
from sims.tagcity.board import load_board, placements
from sims.tagcity.state import (
    ACT_DRONE,
    ACT_PAINT,
    ACT_SOCIAL,
    B_TARGETS,
    FREE_CIRCLES,
    KIND_ACT,
    KIND_ASSIGN,
    SUBJECT_DRAFT,
    SUBJECT_SHARED,
    TAKEN,
    act,
)
from tests.tagcity.referee import referee

TINY = """name = "test sheet"
[sheet]
rows = 3
cols = 4
districts = ["AABB", "AABB", "CCCC"]
district_names = ["A", "B", "C"]
row_values = [[4, 2], [4, 2], [4, 2]]
col_values = [[3, 1], [3, 1], [3, 1], [3, 1]]
district_values = [[5, 2], [5, 2], [6, 3]]
remote = [-1, -2, -3, -4, -5]
[shapes]
mono = [[0, 0]]
domino = [[0, 0], [0, 1]]
I3 = [[0, 0], [0, 1], [0, 2]]
O4 = [[0, 0], [0, 1], [1, 0], [1, 1]]
L3 = [[0, 0], [1, 0], [1, 1]]
I4 = [[0, 0], [0, 1], [0, 2], [0, 3]]
dot = [[0, 0]]
S4 = [[0, 1], [0, 2], [1, 0], [1, 1]]
[hq]
ring_a = ["mono", "domino", "I3", "O4", "L3", "I4"]
centre = ["dot", "S4"]
faces = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0]]
pool_b = ["I4", "L3", "O4", "I3", "domino", "mono", "S4"]
"""

# forced draws: the die showing face v is v - 1
MONO = 0  # face 1, first slot (0)
I3 = 2  # face 3, first slot (2)
DOMINO = 1  # face 2, first slot (1)
O4 = 3  # face 4, first slot (3)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("boards") / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return load_board(path)


class Game:
    """A position stepped by hand: ``expect`` the next question, answer it."""

    def __init__(self, board, params=None, players=("builder", "builder"), script=()):
        self.board = board
        self.params = SPEC.resolve_params(params)
        self.pos = SPEC.position(self.params, list(players), board=board, script=list(script))
        self.place = placements(board, self.params["orientations"])
        self.names = board.shape_names

    def placement(self, shape, cells):
        want = tuple(sorted(r * self.board.cols + c for r, c in cells))
        s = self.names.index(shape)
        for p in range(self.place.first[s], self.place.first[s] + self.place.count[s]):
            if self.place.cells[p] == want:
                return p
        raise AssertionError(f"{shape} has no placement on {cells}")

    def expect(self, seat, kind, subject=None):
        got = self.pos.advance()
        assert got is not None, "the game ended"
        assert got[0] == seat and got[1] == kind, f"expected seat {seat} kind {kind}, got {got}"
        if subject is not None:
            assert got[2] == subject

    def assign(self, seat, mask=0):
        self.expect(seat, KIND_ASSIGN)
        self.pos.answer(mask)

    def paint(self, seat, die, shape, cells, subject=None):
        self.expect(seat, KIND_ACT, subject)
        self.pos.answer(act(ACT_PAINT, die, self.placement(shape, cells)))

    def drone(self, seat, die, shape, cells, subject=None):
        self.expect(seat, KIND_ACT, subject)
        self.pos.answer(act(ACT_DRONE, die, self.placement(shape, cells)))

    def social(self, seat, die, circle=0, subject=None):
        self.expect(seat, KIND_ACT, subject)
        self.pos.answer(act(ACT_SOCIAL, die, circle))

    def raw(self, seat, answer, subject=None):
        self.expect(seat, KIND_ACT, subject)
        self.pos.answer(answer)

    def events(self, kind=None):
        return [e for e in self.pos.events() if kind is None or e["type"] == kind]

    @property
    def st(self):
        return self.pos.st

    def score(self, seat):
        return int(self.st[score_at(seat)])


# --------------------------------------------------------------------------- (i) 1-4
def test_1_a_drone_or_social_action_takes_the_die(tiny):
    g = Game(tiny, script=[MONO, DOMINO, I3])
    g.assign(0)  # dice 0 mono, 1 domino, 2 I3
    g.social(1, 1, 0, SUBJECT_DRAFT)  # seat 1 takes the domino die and checks social networks
    assert g.st[TAKEN] == 0b010
    g.drone(0, 0, "O4", [(0, 0), (0, 1), (1, 0), (1, 1)], SUBJECT_DRAFT)  # the mono die, used for a drone
    acts = g.events("action")
    assert [(a["seat"], a["die"], a["kind"]) for a in acts] == [(1, 1, "social"), (0, 0, "drone")]
    g.paint(0, 2, "I3", [(2, 0), (2, 1), (2, 2)], SUBJECT_SHARED)  # the I3 die is the one left
    g.raw(1, act(ACT_PAINT, 0, g.placement("mono", [(0, 0)])), SUBJECT_SHARED)  # die 0 is taken: illegal
    acts = g.events("action")
    assert [(a["die"], a["kind"], a["shared"]) for a in acts[2:]] == [(2, "paint", True), (2, "social", True)]
    assert acts[3]["circle"] == 1  # the fallback: the lowest free circle (0 was circled) and the die left


def test_2_centre_tiles_only_by_drone_and_painting_means_the_dies_tile(tiny):
    g = Game(tiny, script=[I3, I3, I3])
    g.assign(0)
    g.raw(1, act(ACT_PAINT, 0, g.placement("dot", [(0, 0)])), SUBJECT_DRAFT)  # a centre tile with a die
    assert g.events("action")[-1]["kind"] == "social"
    g.raw(0, act(ACT_PAINT, 1, g.placement("mono", [(0, 0)])), SUBJECT_DRAFT)  # not the die's tile
    assert g.events("action")[-1]["kind"] == "social"
    g.drone(0, 2, "dot", [(2, 3)], SUBJECT_SHARED)  # by drone it may
    g.social(1, 2, 2, SUBJECT_SHARED)  # the step is applied once every seat has answered
    assert [a["kind"] for a in g.events("action")[-2:]] == ["drone", "social"]
    g2 = Game(tiny, {"drone_shapes": "centre"}, script=[I3, I3, I3])
    g2.assign(0)
    g2.drone(1, 0, "I3", [(0, 0), (0, 1), (0, 2)], SUBJECT_DRAFT)  # a ring tile: not with drone_shapes=centre
    assert g2.events("action")[-1]["kind"] == "social"
    g2.drone(0, 1, "dot", [(0, 0)], SUBJECT_DRAFT)
    assert g2.events("action")[-1]["kind"] == "drone"


def test_3_the_leader_puts_each_die_on_one_of_the_two_slots_beside_its_face(tiny):
    g = Game(tiny, script=[I3, I3, 5])  # faces 3, 3, 6: slots (2, 3), (2, 3), (5, 0)
    g.assign(0, 0b101)
    assign = g.events("assign")[0]
    assert assign["slots"] == [3, 2, 0] and assign["shapes"] == ["O4", "I3", "mono"]
    g = Game(tiny, script=[I3, I3, I3])
    g.assign(0, 0b000)
    assert g.events("assign")[0]["slots"] == [2, 2, 2]  # several dice on one slot
    g = Game(tiny, script=[I3, I3, 5])
    g.assign(0, 8)  # outside 0..7: every die on its first slot
    assert g.events("assign")[0]["slots"] == [2, 2, 5]


def test_4_the_draft_starts_left_of_the_leader_who_drafts_last_and_leads_in_turn(tiny):
    g = Game(tiny, players=("builder", "builder", "builder"))
    seen = []
    while len(seen) < 2 * (1 + 3 + 3):
        got = g.pos.advance()
        seen.append(got[:2])
        g.pos.answer(g.pos.decide())
    a, d = KIND_ASSIGN, KIND_ACT
    assert seen == [
        (0, a),
        (1, d),
        (2, d),
        (0, d),
        (0, d),
        (1, d),
        (2, d),
        (1, a),
        (2, d),
        (0, d),
        (1, d),
        (0, d),
        (1, d),
        (2, d),
    ]


# --------------------------------------------------------------------------- (i) 5-7
def _both_paint_row0_but_one_cell(g):
    g.assign(0)  # dice I3, I3, mono
    g.paint(1, 0, "I3", [(0, 0), (0, 1), (0, 2)], SUBJECT_DRAFT)
    g.paint(0, 1, "I3", [(0, 0), (0, 1), (0, 2)], SUBJECT_DRAFT)


@pytest.mark.parametrize("tie_rule, points", [("all_high", [4, 4]), ("draft_order", [2, 4])])
def test_5_the_shared_step_is_simultaneous_and_ties_follow_the_tie_rule(tiny, tie_rule, points):
    g = Game(tiny, {"tie_rule": tie_rule}, script=[I3, I3, MONO])
    _both_paint_row0_but_one_cell(g)
    g.paint(0, 2, "mono", [(0, 3)], SUBJECT_SHARED)
    assert g.score(0) == 0  # seat 1 decides on the state before the step
    g.paint(1, 2, "mono", [(0, 3)], SUBJECT_SHARED)
    done = g.events("complete")
    # seat order, then target order; draft order of round 1 is seat 1, then seat 0
    assert [(c["seat"], c["target"], c["index"], c["points"]) for c in done] == [
        (0, "row", 0, points[0]),
        (1, "row", 0, points[1]),
    ]


def test_5_two_players_may_circle_the_same_circle_in_the_shared_step(tiny):
    g = Game(tiny, {"social_circles": 3}, script=[I3, I3, MONO, I3, I3, I3])
    g.assign(0)
    g.social(1, 0, 0, SUBJECT_DRAFT)
    g.paint(0, 1, "I3", [(2, 0), (2, 1), (2, 2)], SUBJECT_DRAFT)
    g.social(0, 2, 2, SUBJECT_SHARED)
    assert g.st[FREE_CIRCLES] == 0b110  # circle 2 is still free for seat 1
    g.social(1, 2, 2, SUBJECT_SHARED)
    assert [a["circle"] for a in g.events("action")[2:]] == [2, 2]
    assert g.st[FREE_CIRCLES] == 0b010  # closed after the step
    g.assign(1)
    g.social(0, 0, 2, SUBJECT_DRAFT)  # no longer free: the fallback circles the lowest free one
    assert g.events("action")[-1]["circle"] == 1


def test_6_a_completion_in_the_draft_closes_the_high_value_at_once(tiny):
    g = Game(tiny, script=[I3, I3, I3, MONO, MONO, MONO])
    g.assign(0)  # round 1: both paint three cells of row 0, the shared I3 goes on row 2
    g.paint(1, 0, "I3", [(0, 0), (0, 1), (0, 2)])
    g.paint(0, 1, "I3", [(0, 0), (0, 1), (0, 2)])
    g.paint(0, 2, "I3", [(2, 0), (2, 1), (2, 2)])
    g.paint(1, 2, "I3", [(2, 0), (2, 1), (2, 2)])
    g.assign(1)  # round 2: seat 0 drafts first
    g.paint(0, 0, "mono", [(0, 3)])
    g.paint(1, 1, "mono", [(0, 3)])
    done = g.events("complete")
    assert [(c["seat"], c["index"], c["high"], c["points"]) for c in done] == [(0, 0, True, 4), (1, 0, False, 2)]


def test_7_one_drawing_completes_a_row_a_column_and_a_district_each_scoring_once(tiny):
    g = Game(tiny, script=[I3, DOMINO, MONO, MONO, MONO, I3, MONO, MONO, MONO])
    g.assign(0, 0b010)  # I3, I3, mono
    g.paint(1, 0, "I3", [(0, 1), (0, 2), (0, 3)])
    g.social(0, 1, 0)
    g.paint(0, 2, "mono", [(1, 1)])
    g.paint(1, 2, "mono", [(1, 1)])
    g.assign(1)  # mono, mono, I3
    g.social(0, 0, 1)
    g.paint(1, 1, "mono", [(1, 0)])
    g.social(0, 2, 2)
    g.paint(1, 2, "I3", [(2, 1), (2, 2), (2, 3)])  # completes column 1
    g.assign(0)  # round 3: mono x 3; seat 1 lacks (0, 0) and (2, 0)
    g.paint(1, 0, "mono", [(2, 0)])  # completes row 2 and district C
    g.paint(0, 1, "mono", [(0, 0)])
    g.paint(0, 2, "mono", [(1, 0)])
    g.paint(1, 2, "mono", [(0, 0)])  # completes row 0, column 0 and district A at once
    done = [(c["seat"], c["target"], c["index"], c["high"], c["points"]) for c in g.events("complete")]
    assert done == [
        (1, "col", 1, True, 3),
        (1, "row", 2, True, 4),
        (1, "district", 2, True, 6),
        (1, "row", 0, True, 4),
        (1, "col", 0, True, 3),
        (1, "district", 0, True, 5),
    ]
    events = g.pos.events()
    last = max(i for i, e in enumerate(events) if e["type"] == "action")
    assert events[last]["cells"] == [[0, 0]] and [e["type"] for e in events[last + 1 :]] == ["complete"] * 3
    assert g.score(1) == 3 + 4 + 6 + 4 + 3 + 5


# --------------------------------------------------------------------------- (i) 8-10
def test_8_all_targets_means_completed_by_someone_not_every_sheet_full():
    players = [SPEC.player("builder"), SPEC.player("sniper")]
    for game in range(20):
        events = SPEC.trace(SPEC.resolve_params({}), players, np.array([[0, 1]]), 4, game)
        if events[-1]["reason"] == "all_targets":
            break
    painted = [0, 0]
    for e in events:
        if e["type"] == "action" and e["kind"] != "social":
            painted[e["seat"]] += len(e["cells"])
    assert max(painted) < 96  # neither sheet is full
    referee(events)


def test_9_the_round_is_played_out_with_a_null_circle_but_no_drone_on_a_full_remote(tiny):
    g = Game(tiny, {"social_circles": 1, "drone_boxes": 1}, script=[I3, I3, MONO])
    g.assign(0)
    g.social(1, 0, 0)  # the last circle: the social condition holds
    g.drone(0, 1, "dot", [(2, 3)])  # the round goes on; seat 0 fills its one-box remote
    g.drone(0, 2, "mono", [(2, 2)], SUBJECT_SHARED)  # a full remote: not even now (fallback: social)
    g.social(1, 2, 0, SUBJECT_SHARED)  # no free circle: allowed, nothing circled
    assert g.pos.advance() is None
    acts = g.events("action")
    assert [(a["kind"], a.get("circle", "-"), a["points"]) for a in acts] == [
        ("social", 0, 0),
        ("drone", "-", -1),
        ("social", None, 0),
        ("social", None, 0),
    ]
    end = g.events("end")[0]
    assert end["reason"] == "social" and end["conditions"] == ["social", "drones"] and end["socials"] == [0, 1]


def test_10_the_drone_box_is_the_first_free_one_and_penalties_add_up(tiny):
    g = Game(tiny, script=[I3, I3, I3])
    g.assign(0)
    g.social(1, 0, 0)
    g.drone(0, 1, "dot", [(0, 0)])
    g.drone(0, 2, "dot", [(0, 1)], SUBJECT_SHARED)
    g.drone(1, 2, "O4", [(0, 0), (0, 1), (1, 0), (1, 1)], SUBJECT_SHARED)
    drones = [(a["seat"], a["box"], a["points"], a["score"]) for a in g.events("action") if a["kind"] == "drone"]
    assert drones == [(0, 0, -1, -1), (0, 1, -2, -3), (1, 0, -1, -1)]


# --------------------------------------------------------------------------- (i) 11-16
def test_11_negative_scores_compare_as_signed_integers(tiny):
    g = Game(tiny, {"social_points": -3, "social_circles": 3}, script=[I3, I3, I3])
    g.assign(0)
    g.social(1, 0, 0)
    g.social(0, 1, 1)
    g.paint(0, 2, "I3", [(0, 0), (0, 1), (0, 2)], SUBJECT_SHARED)
    g.social(1, 2, 2, SUBJECT_SHARED)
    end = g.events("end")[0]
    assert end["score"] == [-3, -6] and end["winner"] == 0 and end["reason"] == "social"


def test_12_legality_is_inside_no_overlap_allowed_orientation(tiny):
    g = Game(tiny, script=[4, 4, 4])  # face 5: slots L3 / I4
    g.assign(0)
    g.paint(1, 0, "L3", [(1, 1), (1, 2), (2, 1)])  # straddles districts A, B and C, touches nothing
    g.raw(0, act(ACT_PAINT, 1, g.placement("L3", [(0, 0), (1, 0), (1, 1)])), SUBJECT_DRAFT)
    g.raw(0, act(ACT_PAINT, 2, g.placement("L3", [(1, 2), (2, 2), (2, 3)])), SUBJECT_SHARED)
    g.raw(1, act(ACT_PAINT, 2, g.placement("L3", [(1, 1), (2, 1), (2, 2)])), SUBJECT_SHARED)  # overlaps its own (1, 1)
    kinds = [a["kind"] for a in g.events("action")]
    assert kinds == ["paint", "paint", "paint", "social"]
    # S and Z: the same tile with orientations=all, not with rotate; fixed allows the printed one only
    z = [(0, 0), (0, 1), (1, 1), (1, 2)]
    g = Game(tiny, script=[I3, I3, I3])
    g.assign(0)
    g.drone(1, 0, "S4", z)
    assert g.events("action")[-1]["kind"] == "drone"
    s4 = tiny.shape_names.index("S4")
    for rule, count in (("all", 2 * 4 + 2 * 3), ("rotate", 4 + 3), ("fixed", 4)):  # flat: 2 x 2 corners, upright 1 x 3
        place = placements(tiny, rule)
        cells = {place.cells[p] for p in range(place.first[s4], place.first[s4] + place.count[s4])}
        assert ((0, 1, 5, 6) in cells) == (rule == "all")  # Z on the top-left corner
        assert len(cells) == place.count[s4] == count
    g = Game(tiny, {"orientations": "fixed"}, script=[4, 4, 4])
    g.assign(0)
    g.paint(1, 0, "L3", [(0, 0), (1, 0), (1, 1)])  # as printed
    g.raw(0, act(ACT_PAINT, 1, 10**6))  # no such placement
    assert [a["kind"] for a in g.events("action")] == ["paint", "social"]
    assert placements(tiny, "fixed").count[4] == 2 * 3  # L3 as printed only: 2 x 3 corners


def test_13_the_first_condition_names_the_end_and_ties_go_in_order(tiny):
    # social holds first (draft), drones later (shared): reason social, both listed
    g = Game(tiny, {"social_circles": 1, "drone_boxes": 1}, script=[I3, I3, I3])
    g.assign(0)
    g.social(1, 0, 0)
    g.paint(0, 1, "I3", [(0, 0), (0, 1), (0, 2)])
    g.drone(0, 2, "dot", [(2, 3)], SUBJECT_SHARED)
    g.drone(1, 2, "dot", [(2, 3)], SUBJECT_SHARED)
    end = g.events("end")[0]
    assert end["reason"] == "social" and end["conditions"] == ["social", "drones"]
    # both at one check (the shared step): the earlier in the order all_targets, social, drones
    g = Game(tiny, {"social_circles": 1, "drone_boxes": 1}, script=[I3, I3, I3])
    g.assign(0)
    g.paint(1, 0, "I3", [(0, 0), (0, 1), (0, 2)])
    g.paint(0, 1, "I3", [(0, 0), (0, 1), (0, 2)])
    g.drone(0, 2, "dot", [(2, 3)], SUBJECT_SHARED)
    g.social(1, 2, 0, SUBJECT_SHARED)
    end = g.events("end")[0]
    assert end["reason"] == "social" and end["conditions"] == ["social", "drones"] and end["turn"] == 1


def test_13_without_finish_round_the_game_stops_after_the_action(tiny):
    g = Game(tiny, {"social_circles": 1, "finish_round": False}, script=[I3, I3, I3])
    g.assign(0)
    g.social(1, 0, 0)
    assert g.pos.advance() is None
    events = g.pos.events()
    assert [e["type"] for e in events[-2:]] == ["action", "end"] and events[-1]["reason"] == "social"


def test_14_social_circles_break_a_tie_and_a_null_circle_does_not_count(tiny):
    g = Game(tiny, {"social_circles": 1}, script=[I3, I3, I3])
    g.assign(0)
    g.social(1, 0, 0)  # seat 1 circles the last circle
    g.social(0, 1, 0)  # seat 0: no free circle, nothing circled
    g.social(0, 2, 0, SUBJECT_SHARED)
    g.social(1, 2, 0, SUBJECT_SHARED)
    end = g.events("end")[0]
    assert end["score"] == [0, 0] and end["socials"] == [0, 1] and end["winner"] == 1
    g = Game(tiny, {"social_circles": 2}, script=[I3, I3, I3])
    g.assign(0)
    g.social(1, 0, 0)
    g.social(0, 1, 1)
    g.social(0, 2, 0, SUBJECT_SHARED)
    g.social(1, 2, 0, SUBJECT_SHARED)
    end = g.events("end")[0]
    assert end["score"] == [0, 0] and end["socials"] == [1, 1] and end["winner"] == -1


def test_15_the_targets_come_from_the_board(tiny):
    g = Game(tiny, script=[I3, I3, I3])
    g.pos.advance()
    assert int(g.st[B_TARGETS]) == 3 + 4 + 3
    assert g.events()[0]["board"]["sheet"]["rows"] == 3


def test_16_every_random_outcome_is_in_the_trace(tiny):
    # side B: the pool is shuffled by forced draws (Fisher-Yates from the last tile down)
    g = Game(tiny, {"hq_side": "B"}, script=[0, 0, 0, 0, 0, 0, I3, I3, MONO])
    g.pos.advance()
    setup = g.events()[0]
    pool = ["I4", "L3", "O4", "I3", "domino", "mono", "S4"]
    expected = list(pool)
    for i in range(len(expected) - 1, 0, -1):
        expected[i], expected[0] = expected[0], expected[i]
    assert setup["pool_order"] == expected and setup["ring"] == expected[:6]
    assert g.events("roll")[0]["dice"] == [3, 3, 1]


# --------------------------------------------------------------------------- caps and fallbacks
def test_the_round_cap_ends_the_game_without_a_winner():
    players = [SPEC.player("builder"), SPEC.player("builder")]
    params = SPEC.resolve_params({"max_rounds": 2})
    out = SPEC.simulate(params, players, np.array([[0, 1]]), 1, 0, 10)
    assert (out.turns == 2).all() and (out.winner == -1).all()
    assert set(out.end_reason.tolist()) == {SPEC.end_reason_names.index("round_limit")}


@pytest.mark.parametrize("answer", [-1, 10**9, act(ACT_PAINT, 7, 0), act(3, 0, 0), act(ACT_SOCIAL, 1, 40)])
def test_an_illegal_act_becomes_social_with_the_lowest_free_circle_and_die(tiny, answer):
    g = Game(tiny, script=[I3, I3, I3])
    g.assign(0)
    g.social(1, 0, 0)
    g.raw(0, answer)
    last = g.events("action")[-1]
    assert (last["kind"], last["die"], last["circle"]) == ("social", 1, 1)
