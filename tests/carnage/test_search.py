"""The search player on Carnage: its hooks (candidates, evaluate) and its games.

mc itself is the toolkit's (balance/engine.py); Carnage supplies the answers it
compares (the legal ones) and the value of a playout's last position.
"""

from __future__ import annotations

import numpy as np

from balance.state import MAX_CANDIDATES, VALUE_SCALE
from sims.carnage import SPEC
from sims.carnage import kernel as K
from sims.carnage import state as S
from tests.carnage.helpers import simulated, trace_events
from tests.carnage.referee import referee

from .conftest import DONE, DROP, TAKE, Position, move_to


def _candidates(st):
    out = np.zeros(MAX_CANDIDATES, np.int64)
    n = K.candidates(st, out)
    return [int(a) for a in out[:n]]


def test_candidates_are_the_legal_answers(line):
    p = Position(line, script=[5])  # the drop's spawn roll: a 6, no spawn
    p.commuter(0, 4, 2, waiting=False)  # riding to s2
    p.commuter(1, 1, 3)  # waiting where the car stands
    p.car(0, 1, load=[0])
    p.car(1, 0)  # s0 is taken: only s2 is free next to s1
    p.money(0, 5)
    assert p.pos.advance() == (0, S.KIND_CAR, 0)
    assert _candidates(p.st) == [TAKE, move_to(line, 1, 2), DONE]  # nothing to drop on s1
    p.pos.answer(move_to(line, 1, 2))
    assert p.pos.advance() == (0, S.KIND_CAR, 0)
    assert _candidates(p.st) == [DROP]  # a drop alone: a delivery is never worth holding back
    p.pos.answer(DROP)
    assert p.events()[-2]["type"] == "drop"


def test_candidates_of_a_take_the_order_and_the_hq(line):
    p = Position(line, script=[5])
    p.commuter(0, 1, 2)  # rank 1
    p.commuter(1, 1, 4)  # rank 0
    p.car(0, 1)  # car 0 on s1, two commuters for its two seats
    p.car(0, 3)  # car 1 on s3
    p.car(1, 5)
    assert p.pos.advance() == (0, S.KIND_ORDER, 0)
    assert _candidates(p.st) == [0, 1]  # every car that may act
    p.pos.answer(0)
    assert p.pos.advance() == (0, S.KIND_CAR, 0)
    # take both, take the first only, then the moves and done
    assert _candidates(p.st) == [TAKE, S.ACT_TAKE_RANKS + 1, move_to(line, 1, 0), move_to(line, 1, 2), DONE]
    pos = SPEC.position({"hq": "chosen"}, ["greedy"] * 2, board=line)
    assert pos.advance()[1] == S.KIND_HQ
    assert _candidates(pos.st) == [2, 0, 3, 5]  # every free site, best hq_score first


def test_candidates_of_a_buy_offer_are_buy_or_not(line):
    p = Position(line)
    p.car(0, 1)
    p.car(1, 5)
    p.money(0, 12)
    assert p.pos.advance() == (0, S.KIND_BUY, 1)
    assert _candidates(p.st) == [1, 0]


def test_evaluate_a_won_a_lost_and_a_cut_game(line):
    p = Position(line)
    p.car(0, 1)
    p.car(1, 4)
    p.money(0, 10)
    p.money(1, 10)
    # a cut playout, both seats alike: half each
    assert K.evaluate(p.st, np.int64(0)) == K.evaluate(p.st, np.int64(1)) == VALUE_SCALE // 2
    p.st[S.delivered_at(0)] = 3  # seat 0 ahead: more than half
    assert K.evaluate(p.st, np.int64(0)) > VALUE_SCALE // 2 > K.evaluate(p.st, np.int64(1))
    p.st[S.alive_at(1)] = 0  # a seat out of the game is worth nothing
    assert K.evaluate(p.st, np.int64(1)) == 0 and K.evaluate(p.st, np.int64(0)) == VALUE_SCALE
    K._end(p.st, K.END_CARS, np.int64(1))  # a win is VALUE_SCALE, a loss 0
    assert K.evaluate(p.st, np.int64(1)) == VALUE_SCALE and K.evaluate(p.st, np.int64(0)) == 0


def test_mc_at_its_default_budget_plays_legal_reproducible_games():
    params = SPEC.resolve_params({})
    for labels, seed, game in ((["mc", "greedy"], 5, 0), (["fleet", "mc", "nearest"], 6, 1)):
        events = trace_events(SPEC, params, labels, seed, game)
        referee(events)
        assert trace_events(SPEC, params, labels, seed, game) == events
        end = events[-1]
        assert simulated(SPEC, params, labels, seed, game) == (end["winner"], end["reason"], end["turn"], end["delivered"])
