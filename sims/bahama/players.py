"""Bahama Taxi's heuristic players: compiled functions with the one player
signature of every game (balance.game)::

    @njit
    def my_player(kind, seat, subject, st):  # -> int: the field to drive to
        ...

asked once per turn, for the taxi of ``seat``, before it moves:

* ``kind``: always ``state.KIND_MOVE`` (Bahama Taxi has one decision);
* ``seat``: the seat to move (0 moves first);
* ``subject``: the field the taxi stands on;
* ``st``: the game's state, one flat ``int64`` array, read through
  ``sims.bahama.state`` (``taxi(st, s)``, ``taxi_at(st, f)``,
  ``neighbour(st, f, j)`` for ``j < degree(st, f)``, ``dist(st, a, b)``,
  ``waiting(st, i)`` for ``i < n_waiting(st)`` each going ``origin(st, c)`` →
  ``dest(st, c)`` for ``fare(st, c)``, ``aboard(st, s, i)`` for
  ``i < n_aboard(st, s)``, ``income(st, s)``, ``turn(st)``, ``rule(st, P_*)``).
  Read only: a player must not write to it (numba cannot stop it).

Random numbers only through ``balance.state.draw_below(st, n)`` (the game's
stream), so games stay reproducible.

It returns the destination: the taxi's own field to stay, or a free adjacent
field.  Drop-offs and the pick-up follow from the rules (a citizen waiting on
the field is always taken when capacity and the end-phase limits allow), so
there is nothing else to decide.  The kernel checks every answer: an illegal
one (not adjacent, occupied, off the board, or staying under ``must_move``
while a neighbour is free) becomes *stay*, or under ``must_move`` the first
free neighbour in adjacency order.

Helpers for players: ``may_take`` (could this taxi take a citizen now),
``may_stay``, ``is_legal_move``, ``pile_can_supply`` (state.py).
"""

from __future__ import annotations

from numba import njit

from balance.game import PlayerInfo
from balance.state import draw_below
from sims.bahama.state import (
    aboard,
    degree,
    dest,
    dist,
    fare,
    may_stay,
    may_take,
    n_aboard,
    n_waiting,
    neighbour,
    origin,
    taxi,
    taxi_at,
    waiting,
    waiting_at,
)

_FAR = 1 << 20


@njit(cache=True, _nrt=False, forceinline=False)
def random_player(kind, seat, subject, st):
    """Uniformly among the legal moves (staying included unless must_move forbids it)."""
    here = taxi(st, seat)
    stay = may_stay(st, seat)
    count = 1 if stay else 0
    for j in range(degree(st, here)):
        if taxi_at(st, neighbour(st, here, j)) < 0:
            count += 1
    k = draw_below(st, count)
    if stay:
        if k == 0:
            return here
        k -= 1
    for j in range(degree(st, here)):
        f = neighbour(st, here, j)
        if taxi_at(st, f) < 0:
            if k == 0:
                return f
            k -= 1
    return here


# The heuristics below first choose a target field from where the taxi stands (a
# passenger's destination or a citizen's origin), then take one step along a
# shortest path to it (_step_toward): about 20 table look-ups a turn, which keeps
# a game near 6 µs.  Scoring every neighbour against every job gave the same play
# at four times the cost.
#
# Compiled into the engine's loops (forceinline, through ``heuristics``): the
# default player, nearest, and its step; a call per turn costs a nearest game
# about 5%.  The other heuristics stay calls (forceinline=False; their games
# still run at the previous kernel's speed): the switch is compiled again into
# every loop that asks a player (a game, a playout, the search and its menu),
# and inlining all four there cost ~6 s more of a cold compile.
@njit(cache=True, _nrt=False, forceinline=True)
def _step_toward(st, seat, target, can_take, avoid_pickups):
    """One step toward ``target``: the first free neighbour that is closer (with
    ``avoid_pickups``, one where no citizen would board, if there is one); when
    every closer field is taken by a taxi, a free neighbour as far as here, else
    any free neighbour: giving way breaks the jam of two taxis that each want the
    other's field.  Staying only on the target itself or when boxed in."""
    here = taxi(st, seat)
    if target == here and may_stay(st, seat):
        return here
    d0 = dist(st, here, target)
    closer_with_pickup = -1
    sidestep = -1
    any_free = -1
    for j in range(degree(st, here)):
        f = neighbour(st, here, j)
        if taxi_at(st, f) >= 0:
            continue
        if any_free < 0:
            any_free = f
        d = dist(st, f, target)
        if d < d0:
            if avoid_pickups and can_take and waiting_at(st, f) >= 0:
                if closer_with_pickup < 0:
                    closer_with_pickup = f
            else:
                return f
        elif d == d0 and sidestep < 0:
            sidestep = f
    if closer_with_pickup >= 0:
        return closer_with_pickup
    if sidestep >= 0:
        return sidestep
    if any_free >= 0:
        return any_free
    return here


@njit(cache=True, _nrt=False, forceinline=True)
def nearest(kind, seat, subject, st):
    """Heads for the nearest job: a passenger's destination or a citizen it may take."""
    here = taxi(st, seat)
    can_take = may_take(st, seat)
    target = here
    best = _FAR
    for i in range(n_aboard(st, seat)):
        f = dest(st, aboard(st, seat, i))
        d = dist(st, here, f)
        if d < best:
            best = d
            target = f
    if can_take:
        for i in range(n_waiting(st)):
            f = origin(st, waiting(st, i))
            d = dist(st, here, f)
            if d < best:
                best = d
                target = f
    return _step_toward(st, seat, target, can_take, False)


@njit(cache=True, _nrt=False, forceinline=False)
def best_fare(kind, seat, subject, st):
    """Goes for the best fare per step: a passenger's fare over the steps to its
    destination, a citizen's fare over the steps to it plus its ride."""
    here = taxi(st, seat)
    can_take = may_take(st, seat)
    target = here
    best_fare_ = 0
    best_steps = 1
    for i in range(n_aboard(st, seat)):
        c = aboard(st, seat, i)
        f = dest(st, c)
        pays = fare(st, c)
        steps = dist(st, here, f)
        if pays * best_steps > best_fare_ * steps:
            best_fare_ = pays
            best_steps = steps
            target = f
    if can_take:
        for i in range(n_waiting(st)):
            c = waiting(st, i)
            f = origin(st, c)
            pays = fare(st, c)
            steps = dist(st, here, f) + pays
            if pays * best_steps > best_fare_ * steps:
                best_fare_ = pays
                best_steps = steps
                target = f
    return _step_toward(st, seat, target, can_take, False)


@njit(cache=True, _nrt=False, forceinline=False)
def courier(kind, seat, subject, st):
    """Delivers before taking more: with passengers aboard it drives to the nearest
    destination avoiding citizens on the way; empty, it fetches the highest fare."""
    here = taxi(st, seat)
    target = here
    n = n_aboard(st, seat)
    if n > 0:
        best = _FAR
        for i in range(n):
            f = dest(st, aboard(st, seat, i))
            d = dist(st, here, f)
            if d < best:
                best = d
                target = f
    else:
        best_fare_ = -1
        best_steps = _FAR
        for i in range(n_waiting(st)):
            c = waiting(st, i)
            f = origin(st, c)
            pays = fare(st, c)
            steps = dist(st, here, f)
            if pays > best_fare_ or (pays == best_fare_ and steps < best_steps):
                best_fare_ = pays
                best_steps = steps
                target = f
    return _step_toward(st, seat, target, may_take(st, seat), n > 0)


# Order = the built-in player index of ``heuristics`` (mc comes after them).
PLAYERS: tuple[PlayerInfo, ...] = (
    PlayerInfo(
        "random",
        "drives to a uniformly random legal field (or stays)",
        random_player,
        stochastic=True,
    ),
    PlayerInfo(
        "nearest",
        "heads for the nearest job: a passenger's destination or a citizen it may take",
        nearest,
    ),
    PlayerInfo(
        "best_fare",
        "goes for the best fare per step, counting a citizen's whole ride",
        best_fare,
    ),
    PlayerInfo(
        "courier",
        "delivers before taking more; when empty, fetches the highest fare waiting",
        courier,
    ),
)


@njit(cache=True, _nrt=False, forceinline=True)
def heuristics(index, kind, seat, subject, st):
    """The built-in heuristic ``PLAYERS[index]`` (a compiled switch)."""
    if index == 1:
        return nearest(kind, seat, subject, st)
    if index == 0:
        return random_player(kind, seat, subject, st)
    if index == 2:
        return best_fare(kind, seat, subject, st)
    return courier(kind, seat, subject, st)
