"""Bahama Taxi players: compiled heuristics with one signature.

The signature (built-in and user players alike)::

    @njit
    def my_player(seat, state, rng):  # -> int: the field to drive to
        ...

called once per turn, for the taxi of ``seat``, before it moves:

* ``seat``: the seat to move (0 moves first).
* ``state``: the game's state, one numpy record of
  :data:`sims.bahama.kernel.STATE_DTYPE` (every field documented there), passed
  as a pointer.  The useful parts: ``state.taxi[s]`` field of seat s's taxi;
  ``state.taxi_at[f]`` seat on field f or -1; ``state.neighbours[f, j]`` for
  ``j < state.degree[f]`` the adjacent fields; ``state.dist[a, b]`` distance;
  ``state.waiting[i]`` for ``i < state.counters[C_WAITING]`` the waiting
  citizens, each going ``state.origin[c]`` → ``state.dest[c]`` for
  ``state.fare[c]``; ``state.aboard[s, i]`` for ``i < state.n_aboard[s]`` the
  passengers; ``state.income``; ``state.counters[C_TURN]`` the turn being
  played; ``state.rules`` the rules (``R_*``).  Read only: a player must not
  write to it (numba cannot stop it).
* ``rng``: the game's random stream (``uint64[2]``); draw only with
  :mod:`balance.rng` (``rng_below(rng, n)`` ...), so games stay reproducible.

It returns the destination: the taxi's own field to stay, or a free adjacent
field.  Drop-offs and the pick-up follow from the rules (a citizen waiting on
the field is always taken when capacity and the end-phase limits allow), so
there is nothing else to decide.  The kernel checks every answer: an illegal
one (not adjacent, occupied, off the board, or staying under ``must_move``
while a neighbour is free) becomes *stay*, or under ``must_move`` the first
free neighbour in adjacency order.

Helpers for players: :func:`may_take` (could this taxi take a citizen now),
:func:`may_stay`, :func:`is_legal_move` (re-exported from the kernel).

Speed: the built-ins are compiled with ``_nrt=False`` (no reference counting;
they allocate nothing).  A user's plain ``@njit`` player is fine too: the state
record carries no reference count, only ``rng`` does.
"""

from __future__ import annotations

from numba import njit

from balance.game import PlayerInfo
from balance.rng import rng_below
from sims.bahama.kernel import C_TURN, C_WAITING, is_legal_move, may_stay, may_take

__all__ = [
    "C_TURN",
    "C_WAITING",
    "PLAYERS",
    "builtin_policy",
    "is_legal_move",
    "may_stay",
    "may_take",
]

_FAR = 1 << 20


@njit(cache=True, _nrt=False)
def random_player(seat, state, rng):
    """Uniformly among the legal moves (staying included unless must_move forbids it)."""
    here = state.taxi[seat]
    stay = may_stay(state, seat)
    count = 1 if stay else 0
    for j in range(state.degree[here]):
        if state.taxi_at[state.neighbours[here, j]] < 0:
            count += 1
    k = rng_below(rng, count)
    if stay:
        if k == 0:
            return here
        k -= 1
    for j in range(state.degree[here]):
        f = state.neighbours[here, j]
        if state.taxi_at[f] < 0:
            if k == 0:
                return f
            k -= 1
    return here


# The heuristics below first choose a target field from where the taxi stands (a
# passenger's destination or a citizen's origin), then take one step along a
# shortest path to it (_step_toward): about 20 table look-ups a turn, which keeps
# a game near 10 µs.  Scoring every neighbour against every job gave the same play
# at four times the cost.
@njit(cache=True, _nrt=False)
def _step_toward(state, seat, target, can_take, avoid_pickups):
    """One step toward ``target``: the first free neighbour that is closer (with
    ``avoid_pickups``, one where no citizen would board, if there is one); when
    every closer field is taken by a taxi, a free neighbour as far as here, else
    any free neighbour: giving way breaks the jam of two taxis that each want the
    other's field.  Staying only on the target itself or when boxed in."""
    here = state.taxi[seat]
    if target == here and may_stay(state, seat):
        return here
    d0 = state.dist[here, target]
    closer_with_pickup = -1
    sidestep = -1
    any_free = -1
    for j in range(state.degree[here]):
        f = state.neighbours[here, j]
        if state.taxi_at[f] >= 0:
            continue
        if any_free < 0:
            any_free = f
        d = state.dist[f, target]
        if d < d0:
            if avoid_pickups and can_take and state.waiting_at[f] >= 0:
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


@njit(cache=True, _nrt=False)
def nearest(seat, state, rng):
    """Heads for the nearest job: a passenger's destination or a citizen it may take."""
    here = state.taxi[seat]
    can_take = may_take(state, seat)
    target = here
    best = _FAR
    for i in range(state.n_aboard[seat]):
        f = state.dest[state.aboard[seat, i]]
        d = state.dist[here, f]
        if d < best:
            best = d
            target = f
    if can_take:
        for i in range(state.counters[C_WAITING]):
            f = state.origin[state.waiting[i]]
            d = state.dist[here, f]
            if d < best:
                best = d
                target = f
    return _step_toward(state, seat, target, can_take, False)


@njit(cache=True, _nrt=False)
def best_fare(seat, state, rng):
    """Goes for the best fare per step: a passenger's fare over the steps to its
    destination, a citizen's fare over the steps to it plus its ride."""
    here = state.taxi[seat]
    can_take = may_take(state, seat)
    target = here
    best_fare_ = 0
    best_steps = 1
    for i in range(state.n_aboard[seat]):
        c = state.aboard[seat, i]
        f = state.dest[c]
        fare = state.fare[c]
        steps = state.dist[here, f]
        if fare * best_steps > best_fare_ * steps:
            best_fare_ = fare
            best_steps = steps
            target = f
    if can_take:
        for i in range(state.counters[C_WAITING]):
            c = state.waiting[i]
            f = state.origin[c]
            fare = state.fare[c]
            steps = state.dist[here, f] + fare
            if fare * best_steps > best_fare_ * steps:
                best_fare_ = fare
                best_steps = steps
                target = f
    return _step_toward(state, seat, target, can_take, False)


@njit(cache=True, _nrt=False)
def courier(seat, state, rng):
    """Delivers before taking more: with passengers aboard it drives to the nearest
    destination avoiding citizens on the way; empty, it fetches the highest fare."""
    here = state.taxi[seat]
    target = here
    n = state.n_aboard[seat]
    if n > 0:
        best = _FAR
        for i in range(n):
            f = state.dest[state.aboard[seat, i]]
            d = state.dist[here, f]
            if d < best:
                best = d
                target = f
    else:
        best_fare_ = -1
        best_steps = _FAR
        for i in range(state.counters[C_WAITING]):
            c = state.waiting[i]
            f = state.origin[c]
            fare = state.fare[c]
            steps = state.dist[here, f]
            if fare > best_fare_ or (fare == best_fare_ and steps < best_steps):
                best_fare_ = fare
                best_steps = steps
                target = f
    return _step_toward(state, seat, target, may_take(state, seat), n > 0)


# Order = the built-in player index used by builtin_policy.
PLAYERS: tuple[PlayerInfo, ...] = (
    PlayerInfo(
        "random", "drives to a uniformly random legal field (or stays)", random_player
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


@njit(cache=True, _nrt=False)
def builtin_policy(index, seat, state, rng):
    """The built-in player ``PLAYERS[index]`` (a compiled switch, cached)."""
    if index == 0:
        return random_player(seat, state, rng)
    if index == 1:
        return nearest(seat, state, rng)
    if index == 2:
        return best_fare(seat, state, rng)
    return courier(seat, state, rng)
