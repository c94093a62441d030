"""Carnage's built-in players: compiled heuristics with the one player signature.

The signature (every player, built-in or from a ``--player-file``; balance.game)::

    @njit
    def my_player(kind, seat, subject, st) -> int

* ``kind == KIND_BUY`` (0): "buy a car now?"  Return 1 to buy.  Asked only when
  the purchase is legal: before each of your cars acts and once after the last.
  ``subject`` is the index the new car would get.
* ``kind == KIND_CAR`` (1): "what next for car ``subject``?"  Asked again after
  each action while the car has a legal unused action.  Return ``ACT_DONE`` (0),
  ``ACT_DROP`` (1: every passenger bound for this street), ``ACT_TAKE`` (2: the
  commuters waiting here, longest rides first, up to the free seats) or
  ``ACT_MOVE + k`` (3..8: to ``neighbour(st, street, k)``).
* ``seat``: your seat.  ``st``: the game state, one ``int64`` array laid out as
  state.py's docstring says; read it through its slot constants (e.g.
  ``st[MONEY + seat]``, ``st[CAR_STREET + seat * MAX_CARS + car]``,
  ``st[PARAMS + P_CAR_COST]``) and its helpers ``dist``, ``neighbour``,
  ``n_neighbours``, ``street_car``, ``street_waiting``.  Write only your own
  scratch, ``balance.state.remember(st, seat, i, value)`` / ``memory(st, seat,
  i)`` (i < 16, zeroed each game).  For randomness call
  ``balance.state.draw_below(st, n)`` (the game's own stream; never
  ``np.random``, which would break reproducibility).

The kernel checks every answer: an illegal or unknown one ends that car's
actions (after a buy offer: no buy), so a buggy player cannot break a rule.
``can_buy``, ``can_drop``, ``can_take``, ``can_move`` (state.py) and
``step_toward`` (here) tell what is legal (examples/carnage_bots.py).

This module imports state.py, never kernel.py: the kernel compiles the players
in through :func:`heuristics`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.game import PlayerInfo
from balance.state import draw_below
from sims.carnage.params import P_CAR_CAPACITY, P_CAR_COST, P_UPKEEP_PER_CAR
from sims.carnage.state import (
    ACT_DONE,
    ACT_DROP,
    ACT_MOVE,
    ACT_TAKE,
    CAR_LOAD,
    CAR_STREET,
    CAR_USED,
    HQ,
    KIND_BUY,
    MAX_CAPACITY,
    MAX_CARS,
    MONEY,
    N_CARS,
    N_WAITING,
    PARAMS,
    PASSENGERS,
    TOKEN_DEST,
    TOKEN_FARE,
    TOKEN_STREET,
    USED_MOVE,
    WAITING,
    can_drop,
    can_move,
    can_take,
    dist,
    n_neighbours,
    neighbour,
    street_car,
)

_FAR = 1 << 30
# Arguments to compiled calls are np.int64 / np.bool_, not int / bool: numba would
# compile the callee once per Literal value.
_TWO = np.int64(2)
_GREEDY = np.bool_(True)
_NEAREST = np.bool_(False)
_NEAREST_RESERVE = np.int64(5)
_GREEDY_RESERVE = np.int64(3)
_FLEET_RESERVE = np.int64(1)


@njit(cache=True)
def step_toward(st, seat, car, target):
    """ACT_MOVE + k for the free neighbour closest to ``target`` if it is
    strictly closer than the car (ties: lowest k), else ACT_DONE."""
    street = st[CAR_STREET + seat * MAX_CARS + car]
    best_k = -1
    best_d = dist(st, street, target)
    for k in range(n_neighbours(st, street)):
        nb = neighbour(st, street, k)
        if street_car(st, nb) < 0 and dist(st, nb, target) < best_d:
            best_d = dist(st, nb, target)
            best_k = k
    if best_k < 0:
        return ACT_DONE
    return ACT_MOVE + best_k


@njit(cache=True)
def _leave_hq(st, seat, car):
    """Step off our own HQ (so a car can be bought there) to the free neighbour
    with the most neighbours (towards the busier middle of the map; ties:
    lowest k); else ACT_DONE."""
    c = seat * MAX_CARS + car
    street = st[CAR_STREET + c]
    if street != st[HQ + seat] or st[CAR_USED + c] & USED_MOVE:
        return ACT_DONE
    best_k = -1
    best_n = -1
    for k in range(n_neighbours(st, street)):
        nb = neighbour(st, street, k)
        if street_car(st, nb) < 0 and n_neighbours(st, nb) > best_n:
            best_n = n_neighbours(st, nb)
            best_k = k
    if best_k < 0:
        return ACT_DONE
    return ACT_MOVE + best_k


@njit(cache=True)
def _nearest_dest(st, seat, car):
    """Destination street of the passenger closest to its drop, or -1."""
    c = seat * MAX_CARS + car
    street = st[CAR_STREET + c]
    best = -1
    best_d = _FAR
    for i in range(st[CAR_LOAD + c]):
        d = st[TOKEN_DEST + st[PASSENGERS + c * MAX_CAPACITY + i]]
        if dist(st, street, d) < best_d:
            best_d = dist(st, street, d)
            best = d
    return best


@njit(cache=True)
def _claimed_by_other(st, seat, car, street, d):
    """Another car of ours with a free seat is closer to ``street`` (or as close
    with a lower index): leave that commuter to it."""
    capacity = st[PARAMS + P_CAR_CAPACITY]
    for other in range(st[N_CARS + seat]):
        o = seat * MAX_CARS + other
        if other == car or st[CAR_LOAD + o] >= capacity:
            continue
        od = dist(st, st[CAR_STREET + o], street)
        if od < d or (od == d and other < car):
            return True
    return False


@njit(cache=True)
def _pickup(st, seat, car, greedy):
    """Street of the commuter this car should fetch, or -1: the nearest one
    (``greedy`` false) or the one paying most per step, fare / (blocks to reach
    it + 1) (``greedy`` true); commuters another of our cars is nearer to are
    left to it."""
    street = st[CAR_STREET + seat * MAX_CARS + car]
    best = -1
    best_num = -1
    best_den = 1
    for i in range(st[N_WAITING]):
        k = st[WAITING + i]
        o = st[TOKEN_STREET + k]
        d = dist(st, street, o)
        num = st[TOKEN_FARE + k] if greedy else 1
        # num / (d + 1) > best_num / best_den, in integers
        if num * best_den > best_num * (d + 1) and not _claimed_by_other(
            st, seat, car, o, d
        ):
            best_num = num
            best_den = d + 1
            best = o
    return best


@njit(cache=True)
def _serve(st, seat, car, greedy):
    """Shared driving: drop when possible, take when possible, then move toward
    a target (a passenger's destination or a pickup), else step off the HQ."""
    if can_drop(st, seat, car):
        return ACT_DROP
    if can_take(st, seat, car):
        return ACT_TAKE
    c = seat * MAX_CARS + car
    if st[CAR_USED + c] & USED_MOVE:
        return ACT_DONE
    street = st[CAR_STREET + c]
    dest = _nearest_dest(st, seat, car)
    target = dest
    if st[CAR_LOAD + c] < st[PARAMS + P_CAR_CAPACITY]:
        pickup = _pickup(st, seat, car, greedy)
        if pickup >= 0 and (
            dest < 0 or dist(st, street, pickup) < dist(st, street, dest)
        ):
            target = pickup
    if target >= 0 and target != street:
        act = step_toward(st, seat, car, target)
        if act != ACT_DONE:
            return act
    return _leave_hq(st, seat, car)


@njit(cache=True)
def _reserve_ok(st, seat, turns):
    """Money left after a purchase pays this turn's upkeep and then the larger
    fleet's upkeep for ``turns`` more turns."""
    after = st[MONEY + seat] - st[PARAMS + P_CAR_COST]
    upkeep = st[PARAMS + P_UPKEEP_PER_CAR]
    return after > upkeep * st[N_CARS + seat] + upkeep * (st[N_CARS + seat] + 1) * turns


@njit(cache=True)
def random_player(kind, seat, subject, st):
    """Uniform among the legal answers (buy: a fair coin)."""
    if kind == KIND_BUY:
        return draw_below(st, _TWO)
    car = subject
    drop = can_drop(st, seat, car)
    take = can_take(st, seat, car)
    street = st[CAR_STREET + seat * MAX_CARS + car]
    n = 1  # ACT_DONE
    if drop:
        n += 1
    if take:
        n += 1
    for k in range(n_neighbours(st, street)):
        if can_move(st, seat, car, k):
            n += 1
    r = draw_below(st, np.int64(n))
    if r == 0:
        return ACT_DONE
    r -= 1
    if drop:
        if r == 0:
            return ACT_DROP
        r -= 1
    if take:
        if r == 0:
            return ACT_TAKE
        r -= 1
    for k in range(n_neighbours(st, street)):
        if can_move(st, seat, car, k):
            if r == 0:
                return ACT_MOVE + k
            r -= 1
    return ACT_DONE


@njit(cache=True)
def nearest_player(kind, seat, subject, st):
    """Heads for the nearest waiting commuter or destination, drops and takes at
    once; buys only with 5 turns of upkeep in reserve."""
    if kind == KIND_BUY:
        return 1 if _reserve_ok(st, seat, _NEAREST_RESERVE) else 0
    return _serve(st, seat, subject, _NEAREST)


@njit(cache=True)
def greedy_player(kind, seat, subject, st):
    """Chases the most fare per step; buys with 3 turns of upkeep in reserve."""
    if kind == KIND_BUY:
        return 1 if _reserve_ok(st, seat, _GREEDY_RESERVE) else 0
    return _serve(st, seat, subject, _GREEDY)


@njit(cache=True)
def fleet_player(kind, seat, subject, st):
    """Expands first: buys whenever the money left pays this turn's and the next
    turn's upkeep; drives like nearest."""
    if kind == KIND_BUY:
        return 1 if _reserve_ok(st, seat, _FLEET_RESERVE) else 0
    return _serve(st, seat, subject, _NEAREST)


PLAYERS: tuple[PlayerInfo, ...] = (
    PlayerInfo(
        "random",
        "uniform among legal actions; buys on a coin flip",
        random_player,
        stochastic=True,
    ),
    PlayerInfo(
        "nearest",
        "drives to the nearest commuter or destination; buys only with 5 turns of upkeep in reserve",
        nearest_player,
    ),
    PlayerInfo(
        "greedy",
        "chases the most fare per step; buys with 3 turns of upkeep in reserve",
        greedy_player,
    ),
    PlayerInfo(
        "fleet",
        "expands early: buys a car whenever it can pay the next turn's upkeep; drives like nearest",
        fleet_player,
    ),
)


@njit(cache=True, inline="always")
def heuristics(index, kind, seat, subject, st):
    """The built-in heuristics as one compiled switch on their index in PLAYERS."""
    if index == 0:
        return random_player(kind, seat, subject, st)
    elif index == 1:
        return nearest_player(kind, seat, subject, st)
    elif index == 2:
        return greedy_player(kind, seat, subject, st)
    return fleet_player(kind, seat, subject, st)


assert [p.name for p in PLAYERS] == [
    "random",
    "nearest",
    "greedy",
    "fleet",
]  # heuristics' order
