"""Carnage's built-in players: compiled heuristics with the one player signature.

The signature (every player, built-in or from a ``--player-file``; balance.game)::

    @njit
    def my_player(kind, seat, subject, st) -> int

* ``kind == KIND_HQ`` (3): "which street is your HQ?"  Asked at setup, in seat
  order, under the rule ``hq = chosen`` (answer one of the board's HQ sites
  nobody chose yet: ``hq_site(st, i)`` for ``i < st[N_SITES]``) or ``hq =
  anywhere`` (any street without a car); ``can_choose_hq(st, street)`` tells.
  ``subject`` is the street the kernel gives for an illegal answer (the first
  free site).  Under ``hq = fixed`` (the default) nobody is asked.
* ``kind == KIND_BUY`` (0): "buy a car now?"  Return 1 to buy.  Asked only when
  the purchase is legal: at the start of your turn and each time one of your
  cars has finished acting.  ``subject`` is the index the new car would get.
* ``kind == KIND_ORDER`` (2): "which of your cars acts next?"  Asked when two
  or more of the cars you owned at the turn's start may still act (``may_act``:
  not finished this turn and with a legal unused action); return one of them.
  A car acts until it is done, then it has finished for this turn.  ``subject``
  is the first of them in fleet order (what an illegal answer gets).
* ``kind == KIND_CAR`` (1): "what next for car ``subject``?"  Asked again after
  each action while the car has a legal unused action.  Return ``ACT_DONE`` (0:
  the car has finished), ``ACT_DROP`` (1: every passenger bound for this street),
  ``ACT_TAKE`` (2: the commuters waiting here, longest rides first, up to the
  free seats), ``ACT_MOVE + k`` (3..8: to ``neighbour(st, street, k)``) or
  ``ACT_TAKE_RANKS + mask`` (16 + 1..255: only the commuters of these ranks in
  the take order, ``waiting_ranked(st, street, r)`` for bit r; fewer than the
  free seats allow).
* ``seat``: your seat.  ``st``: the game state, one ``int64`` array of the
  named regions state.py declares; read it through their helpers (e.g.
  ``st[money_at(seat)]``, ``st[car_street_at(seat * MAX_CARS + car)]``,
  ``st[hq_at(seat)]``, ``st[rule_at(P_CAR_COST)]``) and the rule helpers
  ``dist``, ``neighbour``, ``n_neighbours``, ``street_car``, ``street_waiting``.  Your
  parameters: ``balance.state.player_param(st, seat, k)`` (k: the declaration
  index in PLAYERS).  Write only your own scratch,
  ``balance.state.remember(st, seat, i, value)`` / ``memory(st, seat, i)``
  (i < 16, zeroed each game).  For randomness call
  ``balance.state.draw_below(st, n)`` (the game's own stream; never
  ``np.random``, which would break reproducibility).

The kernel checks every answer: an illegal or unknown car answer ends that
car's actions (after a buy offer: no buy; choosing a car or an HQ: the
subject), so a buggy player cannot break a rule.  ``can_buy``, ``can_drop``,
``can_take``, ``can_take_ranks``, ``can_move``, ``may_act``,
``can_choose_hq`` (state.py) and ``step_toward`` (here) tell what is legal
(examples/carnage_bots.py).

The driving heuristics (nearest, greedy, fleet, blocker) share their first
parameters, in this order: ``reserve`` (turns of upkeep kept after a purchase),
``side_step`` (go round a blocked street) and ``detour`` (the most blocks a
second passenger may add to the first one's ride); blocker adds ``block_at``
and ``block_with``.

This module imports state.py, never kernel.py: the kernel compiles the players
in through :func:`heuristics`.

Calls (kernel.py's docstring): nothing here allocates, so every function is
compiled without reference counting (``_nrt=False``).  ``nearest``,
``greedy`` and ``fleet`` are compiled into the engine's loops through
``heuristics`` (``forceinline=True``), each one call away from its answer:
``_serve`` for a car, ``_order`` for the next car, with the helpers they run
compiled into them.  The players and helpers a default game seldom runs stay
calls (``forceinline=False``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.game import Param, PlayerInfo
from balance.state import N_SEATS, draw_below, memory, player_param, remember
from sims.carnage.params import (
    P_CAR_CAPACITY,
    P_CAR_COST,
    P_MAX_CARS,
    P_UPKEEP_PER_CAR,
)
from sims.carnage.state import (
    ACT_DONE,
    ACT_DROP,
    ACT_MOVE,
    ACT_TAKE,
    ACT_TAKE_RANKS,
    KIND_BUY,
    KIND_CAR,
    KIND_HQ,
    KIND_ORDER,
    MAX_CARS,
    MAX_RANKS,
    MAY_ACT,
    N_CARDS,
    N_START,
    N_STREETS,
    N_WAITING,
    USED_DROP,
    USED_MOVE,
    USED_TAKE,
    alive_at,
    can_choose_hq,
    can_drop,
    can_move,
    can_take,
    car_load_at,
    car_street_at,
    car_used_at,
    card_at,
    closer_slots,
    dist,
    hq_at,
    level_slots,
    lowest_slot,
    money_at,
    n_cars_at,
    n_neighbours,
    neighbour,
    passengers_at,
    rule_at,
    street_car,
    street_waiting,
    token_dest_at,
    token_fare_at,
    token_street_at,
    waiting_at,
    waiting_ranked,
)

_FAR = 1 << 30
# Arguments to compiled calls are np.int64 / np.bool_, not int / bool: numba would
# compile the callee once per Literal value.
_TWO = np.int64(2)
_GREEDY = np.bool_(True)
_NEAREST = np.bool_(False)
# The driving heuristics' parameters, by declaration index.
K_RESERVE = np.int64(0)
K_SIDE_STEP = np.int64(1)
K_DETOUR = np.int64(2)
K_BLOCK_AT = np.int64(3)
K_BLOCK_WITH = np.int64(4)
NO_DETOUR_LIMIT = 99  # detour: take whatever the seats allow
BLOCK_MARGIN = 4  # blocker: an opponent this close to a car's price may buy soon


# --------------------------------------------------------------------------- moving
@njit(cache=True, _nrt=False, forceinline=True)
def step_toward(st, seat, car, target):
    """ACT_MOVE + k for the free neighbour closest to ``target`` if it is
    strictly closer than the car (ties: lowest k), else ACT_DONE."""
    # A neighbour is a block closer, as far or a block farther (shortest
    # paths), so the answer is the lowest free slot of those a block closer.
    street = st[car_street_at(seat * MAX_CARS + car)]
    slots = closer_slots(st, street, target)
    while slots:
        k = lowest_slot(slots)
        if street_car(st, neighbour(st, street, k)) < 0:
            return ACT_MOVE + k
        slots &= slots - 1
    return ACT_DONE


@njit(cache=True, _nrt=False, forceinline=False)
def step_aside(st, seat, car, target):
    """When every street closer to ``target`` holds a car: ACT_MOVE + k to a
    free neighbour as far from ``target`` as the car is (a way round the
    block), the first (lowest k) with a free street closer to the target
    beyond it, else the first such neighbour; else ACT_DONE."""
    street = st[car_street_at(seat * MAX_CARS + car)]
    first = -1
    slots = level_slots(st, street, target)
    while slots:
        k = lowest_slot(slots)
        slots &= slots - 1
        nb = neighbour(st, street, k)
        if street_car(st, nb) >= 0:
            continue
        if first < 0:
            first = k
        beyond = closer_slots(st, nb, target)  # as far as the car: a block closer is closer than the car
        while beyond:
            if street_car(st, neighbour(st, nb, lowest_slot(beyond))) < 0:
                return ACT_MOVE + k
            beyond &= beyond - 1
    if first < 0:
        return ACT_DONE
    return ACT_MOVE + first


@njit(cache=True, _nrt=False, inline="always")
def _drive_to(st, seat, car, target):
    """The move toward ``target``: a step closer, else (``side_step``) a step
    round the block when the target is two or more blocks away (next to it,
    the car waits for the street to clear), else ACT_DONE."""
    act = step_toward(st, seat, car, target)
    if act == ACT_DONE and player_param(st, seat, K_SIDE_STEP):
        if dist(st, st[car_street_at(seat * MAX_CARS + car)], target) >= 2:
            act = step_aside(st, seat, car, target)
    return act


@njit(cache=True, _nrt=False, forceinline=True)
def _leave_hq(st, seat, car):
    """Step off our own HQ (so a car can be bought there) to the free neighbour
    with the most neighbours (towards the busier middle of the map; ties:
    lowest k); else ACT_DONE."""
    c = seat * MAX_CARS + car
    street = st[car_street_at(c)]
    if street != st[hq_at(seat)] or st[car_used_at(c)] & USED_MOVE:
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


# --------------------------------------------------------------------------- targets
@njit(cache=True, _nrt=False, forceinline=True)
def _nearest_dest(st, seat, car):
    """Destination street of the passenger closest to its drop, or -1."""
    c = seat * MAX_CARS + car
    street = st[car_street_at(c)]
    best = -1
    best_d = _FAR
    for i in range(st[car_load_at(c)]):
        d = st[token_dest_at(st[passengers_at(c, i)])]
        if dist(st, street, d) < best_d:
            best_d = dist(st, street, d)
            best = d
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def _claimed_by_other(st, seat, car, street, d):
    """Another car of ours with a free seat is closer to ``street`` (or as close
    with a lower index): leave that commuter to it."""
    capacity = st[rule_at(P_CAR_CAPACITY)]
    for other in range(st[n_cars_at(seat)]):
        o = seat * MAX_CARS + other
        if other == car or st[car_load_at(o)] >= capacity:
            continue
        od = dist(st, st[car_street_at(o)], street)
        if od < d or (od == d and other < car):
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def _pickup(st, seat, car, greedy):
    """Street of the commuter this car should fetch, or -1: the nearest one
    (``greedy`` false) or the one paying most per step, fare / (blocks to reach
    it + 1) (``greedy`` true); commuters another of our cars is nearer to are
    left to it, and so are those on the car's street once it has taken there
    (it left them on purpose)."""
    c = seat * MAX_CARS + car
    street = st[car_street_at(c)]
    taken = st[car_used_at(c)] & USED_TAKE
    best = -1
    best_num = -1
    best_den = 1
    for i in range(st[N_WAITING]):
        k = st[waiting_at(i)]
        o = st[token_street_at(k)]
        if taken and o == street:
            continue
        d = dist(st, street, o)
        num = st[token_fare_at(k)] if greedy else 1
        # num / (d + 1) > best_num / best_den, in integers
        if num * best_den > best_num * (d + 1) and not _claimed_by_other(st, seat, car, o, d):
            best_num = num
            best_den = d + 1
            best = o
    return best


@njit(cache=True, _nrt=False, inline="always")
def _target(st, seat, car, greedy):
    """Where the car drives: the nearest passenger destination, or a commuter to
    fetch when one is nearer and a seat is free; -1: nowhere."""
    c = seat * MAX_CARS + car
    street = st[car_street_at(c)]
    dest = _nearest_dest(st, seat, car)
    target = dest
    if st[car_load_at(c)] < st[rule_at(P_CAR_CAPACITY)]:
        pickup = _pickup(st, seat, car, greedy)
        if pickup >= 0 and (dest < 0 or dist(st, street, pickup) < dist(st, street, dest)):
            target = pickup
    return target


# --------------------------------------------------------------------------- taking
@njit(cache=True, _nrt=False, forceinline=True)
def _take_answer(st, seat, car):
    """ACT_TAKE, or ACT_TAKE_RANKS + mask leaving out the commuters whose ride
    would add more than ``detour`` blocks to the first passenger's (the one
    aboard, or else the first one taken: an empty car always takes one);
    ACT_DONE when the passenger aboard leaves room for none of them."""
    limit = player_param(st, seat, K_DETOUR)
    if limit >= NO_DETOUR_LIMIT:
        return ACT_TAKE
    c = seat * MAX_CARS + car
    street = st[car_street_at(c)]
    free = st[rule_at(P_CAR_CAPACITY)] - st[car_load_at(c)]
    anchor = _nearest_dest(st, seat, car)  # the first passenger's destination
    mask = 0
    taken = 0
    for r in range(min(street_waiting(st, street), MAX_RANKS)):
        if taken >= free:
            break
        k = waiting_ranked(st, street, np.int64(r))
        d = st[token_dest_at(k)]
        if anchor < 0:
            anchor = d
        else:
            # extra blocks to serve both: the better order, less the first ride alone
            both = min(dist(st, street, anchor), dist(st, street, d)) + dist(st, anchor, d)
            if both - dist(st, street, anchor) > limit:
                continue
        mask |= 1 << r
        taken += 1
    if mask == 0:
        return ACT_DONE
    return ACT_TAKE_RANKS + mask


# --------------------------------------------------------------------------- driving
@njit(cache=True, _nrt=False, forceinline=False)
def _serve(st, seat, car, greedy):
    """Shared driving: drop when possible, take when possible, then move toward
    a target (a passenger's destination or a pickup), else step off the HQ."""
    if can_drop(st, seat, car):
        return ACT_DROP
    if can_take(st, seat, car):
        act = _take_answer(st, seat, car)
        if act != ACT_DONE:
            return act
    c = seat * MAX_CARS + car
    if st[car_used_at(c)] & USED_MOVE:
        return ACT_DONE
    street = st[car_street_at(c)]
    target = _target(st, seat, car, greedy)
    if target >= 0 and target != street:
        act = _drive_to(st, seat, car, target)
        if act != ACT_DONE:
            return act
    return _leave_hq(st, seat, car)


@njit(cache=True, _nrt=False, forceinline=True)
def _reserve_ok(st, seat, turns):
    """Money left after a purchase pays this turn's upkeep and then the larger
    fleet's upkeep for ``turns`` more turns."""
    after = st[money_at(seat)] - st[rule_at(P_CAR_COST)]
    upkeep = st[rule_at(P_UPKEEP_PER_CAR)]
    return after > upkeep * st[n_cars_at(seat)] + upkeep * (st[n_cars_at(seat)] + 1) * turns


@njit(cache=True, _nrt=False, forceinline=True)
def _in_the_way(st, seat, other, there, target):
    """A car of ours that may act next and stands on a street that would
    bring car ``other`` (on street ``there``) closer to ``target``, its
    nearest passenger's destination, when ``other`` has no free street closer
    (a jam of our own making); -1 when none."""
    if target == there or step_toward(st, seat, other, target) != ACT_DONE:
        return -1
    d = dist(st, there, target)
    for car in range(st[N_START]):
        if car == other or not (st[MAY_ACT] >> car) & 1:
            continue
        here = st[car_street_at(seat * MAX_CARS + car)]
        if dist(st, here, there) == 1 and dist(st, here, target) < d:
            return car
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def _order(st, seat, first, greedy):
    """The car to act next (among the MAY_ACT bits): one that can drop (its
    spawns may feed the cars still to act), else one standing in the way of
    another of ours that has no free street closer to its goal (its nearest
    passenger's destination), else the first in fleet order."""
    # One pass, one look at each car's passengers: the nearest destination
    # tells both whether the car can drop (it is the car's street) and where
    # a jam would cost it most.  A car that can drop comes first whatever
    # came before it, so the first jam found waits for the end of the pass.
    jam = -1
    for car in range(st[N_START]):
        if not (st[MAY_ACT] >> car) & 1:
            continue
        c = seat * MAX_CARS + car
        there = st[car_street_at(c)]
        target = -1
        best_d = _FAR
        for i in range(st[car_load_at(c)]):  # as _nearest_dest
            d = st[token_dest_at(st[passengers_at(c, i)])]
            if dist(st, there, d) < best_d:
                best_d = dist(st, there, d)
                target = d
        used = st[car_used_at(c)]
        if best_d == 0 and not used & USED_DROP:  # can_drop: a passenger bound for this street
            return np.int64(car)
        if jam < 0 and target >= 0 and not used & USED_MOVE:
            jam = _in_the_way(st, seat, np.int64(car), there, target)
    if jam >= 0:
        return np.int64(jam)
    return first


@njit(cache=True, _nrt=False, forceinline=False)
def hq_score(st, seat, street):
    """How good ``street`` is as an HQ (higher is better): close to where
    commuters appear (minus the summed blocks to the 16 spawn cards' origins),
    then far from the HQs chosen before (the nearest one, in blocks)."""
    near = 0
    for j in range(N_CARDS):
        near += dist(st, street, st[card_at(j, 0)])
    apart = 0
    first = True
    for s in range(seat):
        d = dist(st, street, st[hq_at(s)])
        if first or d < apart:
            apart = d
            first = False
    return -near * 64 + apart


@njit(cache=True, _nrt=False, forceinline=False)
def _choose_hq(st, seat, fallback):
    """The allowed street with the best ``hq_score`` (ties: the lowest index)."""
    best = fallback
    best_score = hq_score(st, seat, fallback)
    for street in range(st[N_STREETS]):
        if can_choose_hq(st, street):
            score = hq_score(st, seat, street)
            if score > best_score or (score == best_score and street < best):
                best = street
                best_score = score
    return best


@njit(cache=True, _nrt=False, inline="always")
def _driver(kind, seat, subject, st, greedy):
    """The shared competent play of the driving heuristics, but the buy."""
    if kind == KIND_CAR:
        return _serve(st, seat, subject, greedy)
    if kind == KIND_ORDER:
        return _order(st, seat, subject, greedy)
    return _choose_hq(st, seat, subject)


# --------------------------------------------------------------------------- the players
@njit(cache=True, _nrt=False, forceinline=False)
def random_player(kind, seat, subject, st):
    """Uniform among the legal answers (buy: a fair coin; a take fills the
    seats; an HQ: uniform among the allowed streets)."""
    if kind == KIND_BUY:
        return draw_below(st, _TWO)
    if kind == KIND_ORDER:
        n = 0
        for car in range(st[N_START]):
            if (st[MAY_ACT] >> car) & 1:
                n += 1
        r = draw_below(st, np.int64(n))
        for car in range(st[N_START]):
            if (st[MAY_ACT] >> car) & 1:
                if r == 0:
                    return np.int64(car)
                r -= 1
        return subject
    if kind == KIND_HQ:
        n = 0
        for street in range(st[N_STREETS]):
            if can_choose_hq(st, street):
                n += 1
        r = draw_below(st, np.int64(n))
        for street in range(st[N_STREETS]):
            if can_choose_hq(st, street):
                if r == 0:
                    return np.int64(street)
                r -= 1
        return subject
    car = subject
    drop = can_drop(st, seat, car)
    take = can_take(st, seat, car)
    street = st[car_street_at(seat * MAX_CARS + car)]
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


@njit(cache=True, _nrt=False, forceinline=True)
def nearest_player(kind, seat, subject, st):
    """Heads for the nearest waiting commuter or destination, drops and takes at
    once; buys with ``reserve`` (5) turns of upkeep in reserve."""
    if kind == KIND_BUY:
        return 1 if _reserve_ok(st, seat, player_param(st, seat, K_RESERVE)) else 0
    return _driver(kind, seat, subject, st, _NEAREST)


@njit(cache=True, _nrt=False, forceinline=True)
def greedy_player(kind, seat, subject, st):
    """Chases the most fare per step; buys with ``reserve`` (3) turns of upkeep
    in reserve."""
    if kind == KIND_BUY:
        return 1 if _reserve_ok(st, seat, player_param(st, seat, K_RESERVE)) else 0
    return _driver(kind, seat, subject, st, _GREEDY)


@njit(cache=True, _nrt=False, forceinline=True)
def fleet_player(kind, seat, subject, st):
    """Expands first: buys whenever the money left pays ``reserve`` (1) more
    turns of upkeep; drives like nearest."""
    if kind == KIND_BUY:
        return 1 if _reserve_ok(st, seat, player_param(st, seat, K_RESERVE)) else 0
    return _driver(kind, seat, subject, st, _NEAREST)


@njit(cache=True, _nrt=False, forceinline=False)
def block_target(st, seat):
    """The opponent whose HQ the blocker parks on: the one still in the game
    owning at least ``block_at`` cars (and fewer than max_cars) with the most
    cars, then the most money (ties: the next seat after ours); -1 when none."""
    best = -1
    best_cars = -1
    best_money = -1
    n_seats = st[N_SEATS]
    at_least = player_param(st, seat, K_BLOCK_AT)
    for i in range(1, n_seats):
        s = (seat + i) % n_seats
        if not st[alive_at(s)] or st[n_cars_at(s)] < at_least or st[n_cars_at(s)] >= st[rule_at(P_MAX_CARS)]:
            continue
        if st[money_at(s)] < st[rule_at(P_CAR_COST)] - BLOCK_MARGIN:
            continue
        if st[n_cars_at(s)] > best_cars or (st[n_cars_at(s)] == best_cars and st[money_at(s)] > best_money):
            best = s
            best_cars = st[n_cars_at(s)]
            best_money = st[money_at(s)]
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def _blocking_car(st, seat, goal):
    """Our car that blocks ``goal``: the one chosen before (memory slot 0) while
    it still may, else our car without passengers nearest to it (ties: the
    lowest index), else our car nearest to it."""
    chosen = memory(st, seat, 0) - 1
    if 0 <= chosen < st[N_START]:
        return chosen
    best = -1
    best_d = _FAR
    for car in range(st[N_START]):
        c = seat * MAX_CARS + car
        d = dist(st, st[car_street_at(c)], goal) + (_FAR // 2 if st[car_load_at(c)] > 0 else 0)
        if d < best_d:
            best_d = d
            best = car
    remember(st, seat, 0, best + 1)
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def blocker_player(kind, seat, subject, st):
    """Drives like greedy; when an opponent owns ``block_at`` cars (one short of
    winning by cars, by default) and has nearly a car's price (BLOCK_MARGIN),
    and it owns ``block_with`` cars itself, one of its cars parks on that
    opponent's HQ so that it cannot buy; the parked car still takes and drops
    what comes to its street."""
    if kind == KIND_BUY:
        return 1 if _reserve_ok(st, seat, player_param(st, seat, K_RESERVE)) else 0
    if kind == KIND_CAR:
        target_seat = block_target(st, seat)
        if st[n_cars_at(seat)] < player_param(st, seat, K_BLOCK_WITH):
            target_seat = -1
        if target_seat < 0:
            remember(st, seat, 0, 0)
        else:
            goal = st[hq_at(target_seat)]
            car = subject
            if car == _blocking_car(st, seat, goal):
                c = seat * MAX_CARS + car
                street = st[car_street_at(c)]
                if can_drop(st, seat, car):
                    return ACT_DROP
                if can_take(st, seat, car):
                    return ACT_TAKE
                if street == goal or st[car_used_at(c)] & USED_MOVE:
                    return ACT_DONE
                if street_car(st, goal) >= 0 and dist(st, street, goal) == 1:
                    return ACT_DONE  # wait next to it for the street to clear
                return _drive_to(st, seat, car, goal)
    return _driver(kind, seat, subject, st, _GREEDY)


def _driving_params(reserve: int) -> tuple[Param, ...]:
    """The parameters the driving heuristics share (the order of K_*)."""
    return (
        Param(
            "reserve",
            "int",
            reserve,
            "turns of upkeep (of the larger fleet) the money left after a purchase must pay; "
            "a large value never buys",
            "reading: a plan, not a rule; the default is the player's own (RULES.md 'Players' measures 0..8)",
            low=0,
            high=100,
        ),
        Param(
            "side_step",
            "bool",
            True,
            "when every street closer to its goal holds a car, step to a free street as far from the goal "
            "(round the block) instead of waiting",
            "reading: what a driver does in a jam; false waits (the players before side-stepping)",
        ),
        Param(
            "detour",
            "int",
            NO_DETOUR_LIMIT,
            "the most blocks a second passenger may add to the first one's ride (takes fewer commuters "
            "than free seats); 99 takes whatever the seats allow",
            "reading: fares are paid at pick-up, so a full car pays most; RULES.md 'Players' measures 0..4 and 99",
            low=0,
            high=NO_DETOUR_LIMIT,
        ),
    )


PLAYERS: tuple[PlayerInfo, ...] = (
    PlayerInfo(
        "random",
        "uniform among legal actions; buys on a coin flip",
        random_player,
        stochastic=True,
    ),
    PlayerInfo(
        "nearest",
        "drives to the nearest commuter or destination; buys with 5 turns of upkeep in reserve",
        nearest_player,
        params=_driving_params(5),
    ),
    PlayerInfo(
        "greedy",
        "chases the most fare per step; buys with 3 turns of upkeep in reserve",
        greedy_player,
        params=_driving_params(3),
    ),
    PlayerInfo(
        "fleet",
        "expands early: buys a car whenever it can pay the next turn's upkeep; drives like nearest",
        fleet_player,
        params=_driving_params(1),
    ),
    PlayerInfo(
        "blocker",
        "drives like greedy; with 3 cars of its own, when an opponent owns 3 and nearly a car's price, "
        "its car nearest to that opponent's HQ parks there, so the opponent cannot buy its fourth",
        blocker_player,
        params=(
            *_driving_params(3),
            Param(
                "block_at",
                "int",
                3,
                "cars an opponent owns when the blocker starts parking on its HQ (3: one short of win_cars)",
                "reading: a parked car earns little, so it blocks the purchase that would win; "
                "measured 1..3 in RULES.md 'Players'",
                low=1,
                high=8,
            ),
            Param(
                "block_with",
                "int",
                3,
                "cars it owns before one of them goes to block (the others keep earning)",
                "reading: a parked car earns little; measured 1..3 in RULES.md 'Players'",
                low=1,
                high=8,
            ),
        ),
    ),
)


@njit(cache=True, _nrt=False, inline="always")
def heuristics(index, kind, seat, subject, st):
    """The built-in heuristics as one compiled switch on their index in PLAYERS."""
    if index == 0:
        return random_player(kind, seat, subject, st)
    elif index == 1:
        return nearest_player(kind, seat, subject, st)
    elif index == 2:
        return greedy_player(kind, seat, subject, st)
    elif index == 3:
        return fleet_player(kind, seat, subject, st)
    return blocker_player(kind, seat, subject, st)


assert [p.name for p in PLAYERS] == [
    "random",
    "nearest",
    "greedy",
    "fleet",
    "blocker",
]  # heuristics' order
