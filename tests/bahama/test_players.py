"""nearest's and best_fare's parameters (RULES.md, "Players"), read in plain
Python from their definitions and checked at every move of whole games: the
target each picks (nearest: the nearest job, a citizen counted ``citizen_steps``
farther; best_fare: the best fare per step, a passenger's fare weighted by
100 + ``aboard_bonus`` percent, a citizen's ride counted at 100 -
``ride_discount`` percent), then the players' own step toward it.  At 0 they are
the players as written (the golden traces hold that)."""

from __future__ import annotations

from fractions import Fraction

from balance.state import player_params_at
from sims.bahama import SPEC
from sims.bahama import players as P
from sims.bahama.state import KIND_MOVE, aboard, dest, dist, fare, may_take, n_aboard, n_waiting, origin, taxi, waiting


def jobs(st, seat):
    """(field, fare, steps to it, is a citizen) of every job, in the players' order."""
    here = int(taxi(st, seat))
    out = [(int(dest(st, c)), int(fare(st, c)), int(dist(st, here, dest(st, c))), False)
           for c in (aboard(st, seat, i) for i in range(n_aboard(st, seat)))]
    if may_take(st, seat):
        out += [(int(origin(st, c)), int(fare(st, c)), int(dist(st, here, origin(st, c))), True)
                for c in (waiting(st, i) for i in range(n_waiting(st)))]
    return here, out


def nearest_target(st, seat, citizen_steps):
    here, found = jobs(st, seat)
    best = None
    for field, _, steps, citizen in found:
        d = steps + (citizen_steps if citizen else 0)
        if best is None or d < best[0]:
            best = (d, field)
    return here if best is None else best[1]


def best_fare_target(st, seat, ride_discount, aboard_bonus):
    here, found = jobs(st, seat)
    target, best_pays, best_steps = here, Fraction(0), Fraction(1)
    for field, pays, steps, citizen in found:
        if citizen:
            value, length = Fraction(pays), steps + Fraction(pays * (100 - ride_discount), 100)
        else:
            value, length = Fraction(pays * (100 + aboard_bonus), 100), Fraction(steps)
        if value * best_steps > best_pays * length:
            target, best_pays, best_steps = field, value, length
    return target


def ask(func, st, seat, subject, values):
    copy = st.copy()
    for k, v in enumerate(values):
        copy[player_params_at(seat, k)] = v
    return int(func(KIND_MOVE, seat, subject, copy))


def step(st, seat, target):
    return int(P._step_toward(st.copy(), seat, target, may_take(st, seat), False))


def test_nearest_and_best_fare_pick_their_targets_as_defined():
    checked = differs = 0
    for game in range(4):
        pos = SPEC.position({}, ["nearest", "best_fare"], seed=11, game=game, record=False)
        while (q := pos.advance()) is not None:
            seat, kind, subject = q
            st = pos.st
            if kind == KIND_MOVE:
                for extra in (0, 2, 6):
                    assert ask(P.nearest, st, seat, subject, [extra]) == step(st, seat, nearest_target(st, seat, extra))
                for values in ((0, 0), (100, 0), (-100, 0), (0, 200), (40, -60)):
                    got = ask(P.best_fare, st, seat, subject, values)
                    assert got == step(st, seat, best_fare_target(st, seat, *values)), (game, values)
                    differs += got != ask(P.best_fare, st, seat, subject, (0, 0))
                checked += 1
            pos.answer(pos.decide())
    assert checked > 100 and differs > 0
