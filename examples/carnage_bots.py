"""Example player file for Carnage: ``balance run carnage --player-file examples/carnage_bots.py
--players homebody,greedy``.

A player is a numba ``@njit`` function with the one player signature (see
``sims/carnage/players.py`` for Carnage's questions and answers)::

    def my_player(kind, seat, subject, st) -> int

* ``kind == KIND_BUY``: return 1 to buy a car now (asked only when legal).
* ``kind == KIND_CAR``: the next action of car ``subject``: ``ACT_DONE``,
  ``ACT_DROP``, ``ACT_TAKE`` or ``ACT_MOVE + k`` (to ``neighbour(st, street, k)``).
* ``kind == KIND_ORDER`` (which car acts next) and ``KIND_HQ`` (the HQ street,
  only under ``hq = chosen | anywhere``): ``subject`` is the kernel's own
  choice (the first car in fleet order, the first free HQ site); these bots
  return it.
* ``st`` is the game state, one int64 array: read it with the region and rule
  helpers of ``sims/carnage/state.py`` imported below (``st[money_at(seat)]``,
  ``st[car_street_at(c)]`` for the car id ``c = seat * MAX_CARS + car``,
  ``dist(st, a, b)``); draw random numbers only with ``draw_below(st, n)``;
  keep your own notes only with ``remember(st, seat, i, value)`` /
  ``memory(st, seat, i)`` (i < 16, zeroed every game).

An illegal answer is not an error: it ends that car's actions (or declines the
buy), so a bug makes a player weak, never a cheater.  ``@player(game, name,
description)`` registers the function (``stochastic=True`` when it draws random
numbers); put it above ``@njit``.
"""

import numpy as np
from numba import njit

from balance import player
from balance.state import draw_below, memory, remember
from sims.carnage.params import P_CAR_COST
from sims.carnage.players import step_toward
from sims.carnage.state import (
    ACT_DONE,
    ACT_DROP,
    ACT_MOVE,
    ACT_TAKE,
    KIND_BUY,
    KIND_CAR,
    MAX_CARS,
    N_WAITING,
    USED_MOVE,
    can_drop,
    can_take,
    car_load_at,
    car_street_at,
    car_used_at,
    dist,
    hq_at,
    money_at,
    n_cars_at,
    n_neighbours,
    neighbour,
    passengers_at,
    rule_at,
    street_car,
    token_dest_at,
    token_street_at,
    waiting_at,
)

HOME_RADIUS = 2  # blocks from the HQ the homebody is willing to drive to pick up


@player(
    "carnage",
    "homebody",
    "works the streets within 2 blocks of its HQ; never owns more than 2 cars",
)
@njit
def homebody(kind, seat, subject, st):
    if kind == KIND_BUY:  # a second car, once it leaves $5 for the upkeep
        return (
            1
            if st[n_cars_at(seat)] < 2 and st[money_at(seat)] >= st[rule_at(P_CAR_COST)] + 5
            else 0
        )
    if kind != KIND_CAR:  # which car acts next, or the HQ: the kernel's choice
        return subject
    car = subject  # a KIND_CAR question: which car acts
    if can_drop(st, seat, car):
        return ACT_DROP
    if can_take(st, seat, car):
        return ACT_TAKE
    c = seat * MAX_CARS + car
    if st[car_used_at(c)] & USED_MOVE:
        return ACT_DONE
    street = st[car_street_at(c)]
    hq = st[hq_at(seat)]
    target = -1
    best = 1 << 30
    if st[car_load_at(c)] > 0:
        # deliver first: the nearest passenger destination, wherever it is
        for i in range(st[car_load_at(c)]):
            dest = st[token_dest_at(st[passengers_at(c, i)])]
            if dist(st, street, dest) < best:
                best = dist(st, street, dest)
                target = dest
    else:
        # fetch the nearest commuter waiting close to home
        for i in range(st[N_WAITING]):
            origin = st[token_street_at(st[waiting_at(i)])]
            if dist(st, hq, origin) <= HOME_RADIUS and dist(st, street, origin) < best:
                best = dist(st, street, origin)
                target = origin
    if target < 0:
        return ACT_DONE
    return step_toward(st, seat, car, target)


@player(
    "carnage",
    "wanderer",
    "drives at random but always drops and takes; buys every third chance",
    stochastic=True,
)
@njit
def wanderer(kind, seat, subject, st):
    if kind == KIND_BUY:  # memory slot 0: how many buy offers we have seen
        offers = memory(st, seat, 0) + 1
        remember(st, seat, 0, offers)
        return 1 if offers % 3 == 0 else 0
    if kind != KIND_CAR:  # which car acts next, or the HQ: the kernel's choice
        return subject
    car = subject
    if can_drop(st, seat, car):
        return ACT_DROP
    if can_take(st, seat, car):
        return ACT_TAKE
    street = st[car_street_at(seat * MAX_CARS + car)]
    if st[car_used_at(seat * MAX_CARS + car)] & USED_MOVE:
        return ACT_DONE
    n = n_neighbours(st, street)
    k = draw_below(st, np.int64(n))
    if street_car(st, neighbour(st, street, k)) >= 0:
        return (
            ACT_DONE  # occupied: stay (an illegal move would end the car's turn anyway)
        )
    return ACT_MOVE + k
