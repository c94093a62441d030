"""saboteur's attack rules, its parameters (RULES.md, "Players"), read in plain
Python and checked at every attack question of whole games: with
``spare_behind`` k it passes on a seat at least k spaces farther from the finish
than itself and otherwise plays as the spec's saboteur; with ``least_slowdown``
it plays the spec's attack or passes, passes more as the bar rises, and the
defaults (0, 0) are the spec's player (the golden traces hold that)."""

from __future__ import annotations

import numpy as np

from balance.state import SEAT, player_params_at
from sims.carmarace import SPEC
from sims.carmarace import players as P
from sims.carmarace.state import KARMA, pawn_at, togo


def ask(st, seat, subject, spare, least):
    """saboteur's answer in ``seat`` with those attack rules (on a copy)."""
    copy = st.copy()
    copy[player_params_at(seat, P.K_MIN_TRANSPORTS)] = 1
    copy[player_params_at(seat, P.K_SPARE_BEHIND)] = spare
    copy[player_params_at(seat, P.K_LEAST_SLOWDOWN)] = least
    return int(P.saboteur(KARMA, seat, subject, copy))


def test_saboteur_spares_and_holds_back_as_its_parameters_say():
    spared = held = attacks = 0
    for game in range(6):
        pos = SPEC.position({}, ["saboteur", "hunter", "racer"], seed=3, game=game, record=False)
        while (q := pos.advance()) is not None:
            seat, kind, subject = q
            st = pos.st
            if kind == KARMA and seat != st[SEAT]:
                default = ask(st, seat, subject, 0, 0)
                attacks += default != P.NO_ANSWER
                behind = int(togo(st, st[pawn_at(st[SEAT])]) - togo(st, st[pawn_at(seat)]))
                for k in (1, 4, 12):
                    want = int(P.NO_ANSWER) if behind >= k else default
                    assert ask(st, seat, subject, k, 0) == want, (game, k, behind)
                    spared += want != default
                previous = default
                for least in range(1, 5):
                    got = ask(st, seat, subject, 0, least)
                    assert got in (default, P.NO_ANSWER)
                    assert previous != P.NO_ANSWER or got == P.NO_ANSWER  # a higher bar never attacks more
                    held += got != default
                    previous = got
            pos.answer(pos.decide())
    assert attacks > 20 and spared > 0 and held > 0, (attacks, spared, held)


def test_the_attack_rules_change_the_games():
    out = [SPEC.simulate(SPEC.resolve_params({}), [SPEC.parse_player(p), SPEC.parse_player("hunter")],
                         np.array([[0, 1]]), 5, 0, 300) for p in ("saboteur", "saboteur:least_slowdown=3")]
    assert not np.array_equal(out[0].turns, out[1].turns)
