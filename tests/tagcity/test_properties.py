"""Hypothesis properties of Tag City, checked on the referee's replayed state
(tests/tagcity/referee.py) of games with drawn rules, players, seeds and seat
counts: every game ends within the cap, no two drawings overlap, a player's
score is the sum of its circled values (and of its parts), a target scores at
most once per player, and the high value of a target is circled by one player
only, or by several in one shared step (tie_rule all_high)."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sims.tagcity import SPEC
from tests.property import GAME_INDICES, SEEDS, params_for
from tests.tagcity.referee import replay

PLAYERS = st.sampled_from(["random", "greedy", "builder", "sniper", "closer", "mc:rollouts=2"])
LINEUPS = st.integers(2, 4).flatmap(lambda n: st.lists(PLAYERS, min_size=n, max_size=n))
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(params, labels, seed, game):
    distinct = list(dict.fromkeys(labels))
    seating = np.asarray([[distinct.index(x) for x in labels]], dtype=np.int64)
    events = SPEC.trace(params, [SPEC.parse_player(x) for x in distinct], seating, seed, game)
    events = json.loads(json.dumps(events))
    return events, replay(events)


@SETTINGS
@given(params_for(SPEC), LINEUPS, SEEDS, GAME_INDICES)
def test_every_game_ends_within_the_cap(params, labels, seed, game):
    events, table = play(params, labels, seed, game)
    assert table.ended and events[-1]["type"] == "end"
    assert 1 <= table.rounds <= params["max_rounds"]
    if events[-1]["reason"] == "round_limit":
        assert table.rounds == params["max_rounds"] and events[-1]["winner"] == -1


@SETTINGS
@given(params_for(SPEC), LINEUPS, SEEDS, GAME_INDICES)
def test_no_two_drawings_overlap(params, labels, seed, game):
    _, table = play(params, labels, seed, game)
    for seat in range(table.n):
        cells = [cell for drawing in table.drawings[seat] for cell in drawing]
        assert len(cells) == len(set(cells)) == len(table.painted[seat])
        assert all(0 <= r < table.board.rows and 0 <= c < table.board.cols for r, c in cells)


@SETTINGS
@given(params_for(SPEC), LINEUPS, SEEDS, GAME_INDICES)
def test_a_score_is_the_sum_of_the_circled_values(params, labels, seed, game):
    events, table = play(params, labels, seed, game)
    end = events[-1]
    for seat in range(table.n):
        assert table.score[seat] == sum(table.circled_values[seat]) == end["score"][seat]
        assert end["score"][seat] == end["target_points"][seat] + end["drone_points"][seat] + end["social_points"][seat]
        assert end["drone_points"][seat] == sum(table.board.remote[: end["drones"][seat]])
        assert end["social_points"][seat] == params["social_points"] * end["socials"][seat]
        assert end["drones"][seat] <= params["drone_boxes"]


@SETTINGS
@given(params_for(SPEC), LINEUPS, SEEDS, GAME_INDICES)
def test_a_target_scores_once_per_player_and_its_high_value_once(params, labels, seed, game):
    events, _ = play(params, labels, seed, game)
    scored: set[tuple[int, str, int]] = set()
    high: dict[tuple[str, int], list[tuple[int, bool]]] = {}
    shared = False
    for e in events:
        if e["type"] == "roll":
            shared = False
        elif e["type"] == "action":
            shared = e["shared"]
        elif e["type"] == "complete":
            key = (e["seat"], e["target"], e["index"])
            assert key not in scored, f"{key} scored twice"
            scored.add(key)
            if e["high"]:
                high.setdefault((e["target"], e["index"]), []).append((e["turn"], shared))
    for target, when in high.items():
        if len(when) > 1:  # only players completing it together in one shared step, all high
            assert params["tie_rule"] == "all_high" and len(set(when)) == 1 and when[0][1], f"{target}: {when}"
