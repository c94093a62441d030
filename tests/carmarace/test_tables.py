"""What the kernel keeps so that no decision works it out again, checked against
a plain reading at every decision of whole games (state.py, "Hand counts", and
build_sure_next):

* each hand's counts (``hand_counts``) are the hand counted card by card, also
  after ``determinize`` deals the other hands again;
* the card table's class and effect as played are move_class and effect_of as
  the rules define them (R17, R24), and ``launch`` is R8's playable;
* has_legal_karma, the stranded flags and the playable transports of a hand
  read from the counts say what a walk over the hand says;
* at every NEXT question, the answer read from SURE_NEXT (where it says the
  points left do not matter) is the one the value tables give.
"""

from __future__ import annotations

import pytest

from balance.state import DECIDER, N_SEATS
from sims.carmarace import SPEC
from sims.carmarace import kernel as K
from sims.carmarace import players as P
from sims.carmarace import state as S
from sims.carmarace.params import P_KARMA_MUST_MATCH, P_PLANE_STAYS_ALOFT, P_YOUNG_PLAYERS

CASES = [
    ({}, ["hunter"] * 4),
    ({"young_players": True}, ["racer", "saboteur", "random"]),
    ({"plane_stays_aloft": False, "karma_must_match": False}, ["hunter", "saboteur", "racer", "random", "hunter", "racer"]),
    ({"good_karma_step": True, "karma_limit_delta": -1, "start_squares": "highest"}, ["saboteur"] * 6),
]


def _plain_class(st, c):
    mode = S.card(st, c, S.C_MODE)
    if mode == S.MODE_TRAIN:
        return S.M_TRAIN
    if mode == S.MODE_PLANE:
        return S.M_PLANE
    if st[S.rule_at(P_YOUNG_PLAYERS)]:
        return S.M_ROAD
    return S.card(st, c, S.C_TRACKS) * 2 + S.card(st, c, S.C_IGNORES)


def _plain_effect(st, c):
    return S.E_NONE if st[S.rule_at(P_YOUNG_PLAYERS)] else S.card(st, c, S.C_EFFECT)


def _hand(st, seat):
    return [int(st[S.hand_at(seat, i)]) for i in range(st[S.hand_n_at(seat)])]


def _counted(st, seat):
    """The hand's counters (T_*), counted card by card."""
    counts = [0] * 32
    for c in _hand(st, seat):
        if S.card(st, c, S.C_DECK) == S.D_TRANSPORT:
            counts[S.T_CLASS + _plain_class(st, c)] += 1
            continue
        mode = S.card(st, c, S.C_DECK) - 1
        counts[(S.T_ON_TOP if _plain_effect(st, c) == S.E_ON_TOP else S.T_PLAIN) + mode] += 1
        speed = S.card(st, c, S.C_SPEED)
        if speed:
            counts[(S.T_FAST if speed > 0 else S.T_SLOW) + mode] += 1
    return counts


def _check_counts(st):
    for seat in range(st[N_SEATS]):
        want = _counted(st, seat)
        got = [int(S.hand_count(st, seat, t)) for t in range(32)]
        assert got == want, (seat, _hand(st, seat))


def _check_hand_questions(st, seat):
    u = int(st[S.pawn_at(seat)])
    hand = _hand(st, seat)
    transports = [c for c in hand if S.card(st, c, S.C_DECK) == S.D_TRANSPORT]
    playable = [c for c in transports if S.step_mask(st, _plain_class(st, c), u, 0) != 0]
    assert S.playable_in_hand(st, seat, u) == len(playable)
    for without in [-1, *transports]:
        rest = [c for c in transports if c != without]
        rail = any(_plain_class(st, c) in (S.M_TRACKS, S.M_TRACKS_IGNORES, S.M_TRAIN) for c in rest)
        plane = any(_plain_class(st, c) == S.M_PLANE for c in rest)
        sky = int(st[S.rule_at(P_PLANE_STAYS_ALOFT)] == 0 and not plane)
        assert tuple(P.stranded_flags(st, seat, without)) == (int(not rail), sky)
    if st[S.VEHICLE] >= 0:
        n = st[S.N_SLOTS]
        legal = False
        for c in hand:
            if S.card(st, c, S.C_DECK) == S.D_TRANSPORT:
                continue
            if st[S.rule_at(P_KARMA_MUST_MATCH)] and S.card(st, c, S.C_DECK) != S.card(st, st[S.VEHICLE], S.C_MODE) + 1:
                continue
            legal |= n > 0 if _plain_effect(st, c) == S.E_ON_TOP else n < st[S.V_LIMIT]
        assert S.has_legal_karma(st, seat) == legal


@pytest.mark.parametrize("params, players", CASES)
def test_kept_tables_say_what_the_hands_and_the_values_say(params, players):
    nexts = sure = 0
    for game in range(3):
        pos = SPEC.position(params, players, seed=11, game=game, record=False)
        st = pos.st
        if game == 0:
            for c in range(st[S.N_CARDS]):
                assert S.move_class(st, c) == _plain_class(st, c)
                assert S.effect_of(st, c) == _plain_effect(st, c)
                for u in range(st[S.N_NODES]):
                    assert S.playable(st, c, u) == (S.step_mask(st, _plain_class(st, c), u, 0) != 0)
        while (q := pos.advance()) is not None:
            seat, kind, subject = q
            _check_counts(st)
            for s in range(st[N_SEATS]):
                _check_hand_questions(st, s)
            if kind == S.NEXT:
                m = S.move_class(st, st[S.VEHICLE])
                track, sky = P.stranded_flags(st, seat, -1)
                by_values = P.move_by_values(st, subject, m, track, sky)
                read = S.sure_next(st, S.table_index(m, track, sky), subject, st[S.MV_ENTERED])
                assert read in (-2, by_values), (subject, read, by_values)
                assert P.hunter(kind, seat, subject, st) == by_values
                nexts += 1
                sure += read != -2
            if st[DECIDER] >= 0 and game == 0:
                for s in range(st[N_SEATS]):  # the hands dealt again as a search sees them
                    copy = st.copy()
                    K.determinize(copy, s)
                    _check_counts(copy)
            pos.answer(pos.decide())
    assert nexts > 50 and sure > nexts // 2, (nexts, sure)


def test_a_sure_answer_needs_one_step_no_worse_or_none():
    pos = SPEC.position({}, ["hunter"] * 2, record=False)
    st = pos.st
    for t in range(S.N_TABLES):
        m, ts, ss = S.table_flags(t)
        for u in range(st[S.N_NODES]):
            for entered in range(2):
                mask = S.step_mask(st, m, u, entered)
                steps = [S.next_of(st, u, k) for k in range(S.n_next(st, u)) if (mask >> k) & 1]
                read = S.sure_next(st, t, u, entered)
                if not steps:
                    assert read == -1
                elif len(steps) == 1 and S.node_value(st, steps[0], ts, ss) <= S.node_value(st, u, ts, ss):
                    assert read == steps[0]
                else:
                    assert read == -2
