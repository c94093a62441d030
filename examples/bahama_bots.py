"""Example Bahama Taxi players, loaded without touching the package:

    balance run bahama --player-file examples/bahama_bots.py --players homebody,nearest
    balance trace bahama --player-file examples/bahama_bots.py --players long_haul,courier

A player is a numba-compiled function with the one player signature of every
game (sims/bahama/players.py has the full contract)::

    kind, seat, subject, st -> an answer

Two decisions: ``kind == KIND_MOVE`` once per turn, ``subject`` the field the
taxi stands on, answer the field to drive to (the taxi's own field = stay);
``kind == KIND_PICKUP`` (with the default rule ``pickup = optional``) after a
move that ends on a citizen the taxi may take, ``subject`` the citizen, answer
``PICKUP_TAKE`` or ``PICKUP_DECLINE``.  ``st`` is the game's state: one int64
array, read through the accessors of ``sims.bahama.state``: ``taxi(st, s)``
where seat s's taxi stands, ``neighbour(st, f, j)`` for ``j < degree(st, f)``
the fields next to f, ``taxi_at(st, f)`` the seat standing on f (-1: free),
``dist(st, a, b)`` the distance (a ride's fare), ``waiting(st, i)`` for
``i < n_waiting(st)`` the citizens waiting, each on ``origin(st, c)`` going to
``dest(st, c)`` for ``fare(st, c)``, ``aboard(st, s, i)`` for
``i < n_aboard(st, s)`` the passengers.  Treat it as read-only.  Draw random
numbers only with ``balance.state.draw_below(st, n)`` (the game's stream), so
runs stay reproducible.

Drop-offs follow from the rules.  A wrong move (a field that is not next to the
taxi, or taken) is turned into staying by the kernel, and a pick-up answer
other than ``PICKUP_DECLINE`` takes, so a buggy player cannot break the rules.

Register each player with ``@player(game, name, one-line description)`` placed
above ``@njit``.
"""

from numba import njit

from balance import player
from balance.state import draw_below
from sims.bahama.state import (
    KIND_PICKUP,
    PICKUP_TAKE,
    aboard,
    degree,
    dest,
    dist,
    fare,
    may_take,
    n_aboard,
    n_waiting,
    neighbour,
    origin,
    taxi_at,
    waiting,
    waiting_at,
)


@player("bahama", "homebody", "waits where it stands unless a job is one step away")
@njit
def homebody(kind, seat, here, st):
    if kind == KIND_PICKUP:
        return PICKUP_TAKE  # every citizen it stops on
    can_take = may_take(st, seat)
    for j in range(degree(st, here)):
        f = neighbour(st, here, j)
        if taxi_at(st, f) >= 0:
            continue
        for i in range(n_aboard(st, seat)):
            if dest(st, aboard(st, seat, i)) == f:
                return f
        if can_take and waiting_at(st, f) >= 0:
            return f
    return here  # under must_move the kernel moves it to the first free neighbour


@player(
    "bahama",
    "long_haul",
    "drives for the longest ride waiting, then delivers the nearest passenger",
    stochastic=True,
)
@njit
def long_haul(kind, seat, here, st):
    if kind == KIND_PICKUP:
        return PICKUP_TAKE
    target = -1
    if may_take(st, seat):
        best = -1
        for i in range(n_waiting(st)):
            c = waiting(st, i)
            if fare(st, c) > best:
                best = fare(st, c)
                target = origin(st, c)
    if target < 0:
        nearest = 1 << 20
        for i in range(n_aboard(st, seat)):
            f = dest(st, aboard(st, seat, i))
            if dist(st, here, f) < nearest:
                nearest = dist(st, here, f)
                target = f
    if target < 0 or target == here:
        return here
    # A random step among the free neighbours that get closer (ties broken by the game's stream).
    closer = 0
    for j in range(degree(st, here)):
        f = neighbour(st, here, j)
        if taxi_at(st, f) < 0 and dist(st, f, target) < dist(st, here, target):
            closer += 1
    if closer == 0:
        return here
    k = draw_below(st, closer)
    for j in range(degree(st, here)):
        f = neighbour(st, here, j)
        if taxi_at(st, f) < 0 and dist(st, f, target) < dist(st, here, target):
            if k == 0:
                return f
            k -= 1
    return here
