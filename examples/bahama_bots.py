"""Example Bahama Taxi players, loaded without touching the package:

    balance run bahama --player-file examples/bahama_bots.py --players homebody,nearest
    balance trace bahama --player-file examples/bahama_bots.py --players long_haul,courier

A player is a numba-compiled function with Bahama Taxi's player signature
(sims/bahama/players.py)::

    seat, state, rng -> the field to drive to (the taxi's own field = stay)

``state`` is one record of the game (fields documented at
``sims.bahama.kernel.STATE_DTYPE``): ``state.taxi[seat]`` is where the taxi
stands, ``state.neighbours[f, j]`` for ``j < state.degree[f]`` the fields next
to f, ``state.taxi_at[f]`` the seat standing on f (-1: free),
``state.dist[a, b]`` the distance (a ride's fare), ``state.waiting[i]`` for
``i < state.counters[C_WAITING]`` the citizens waiting, each on
``state.origin[c]`` going to ``state.dest[c]`` for ``state.fare[c]``, and
``state.aboard[seat, i]`` for ``i < state.n_aboard[seat]`` the passengers.
Treat it as read-only.  ``rng`` is the game's random stream: draw from it only
with ``balance.rng`` so runs stay reproducible.

Drop-offs and pick-ups follow from the rules: the only decision is where to
drive.  A wrong answer (a field that is not next to the taxi, or taken) is
turned into staying by the kernel, so a buggy player cannot break the rules.

Register each player with ``@player(game, name, one-line description)`` placed
above ``@njit``.
"""

from numba import njit

from balance import player
from balance.rng import rng_below
from sims.bahama.kernel import C_WAITING
from sims.bahama.players import may_take


@player("bahama", "homebody", "waits where it stands unless a job is one step away")
@njit
def homebody(seat, state, rng):
    here = state.taxi[seat]
    can_take = may_take(state, seat)
    for j in range(state.degree[here]):
        f = state.neighbours[here, j]
        if state.taxi_at[f] >= 0:
            continue
        for i in range(state.n_aboard[seat]):
            if state.dest[state.aboard[seat, i]] == f:
                return f
        if can_take and state.waiting_at[f] >= 0:
            return f
    return here  # under must_move the kernel moves it to the first free neighbour


@player(
    "bahama",
    "long_haul",
    "drives for the longest ride waiting, then delivers the nearest passenger",
)
@njit
def long_haul(seat, state, rng):
    here = state.taxi[seat]
    target = -1
    if may_take(state, seat):
        best = -1
        for i in range(state.counters[C_WAITING]):
            c = state.waiting[i]
            if state.fare[c] > best:
                best = state.fare[c]
                target = state.origin[c]
    if target < 0:
        nearest = 1 << 20
        for i in range(state.n_aboard[seat]):
            f = state.dest[state.aboard[seat, i]]
            if state.dist[here, f] < nearest:
                nearest = state.dist[here, f]
                target = f
    if target < 0 or target == here:
        return here
    # A random step among the free neighbours that get closer (ties broken by the rng).
    closer = 0
    for j in range(state.degree[here]):
        f = state.neighbours[here, j]
        if state.taxi_at[f] < 0 and state.dist[f, target] < state.dist[here, target]:
            closer += 1
    if closer == 0:
        return here
    k = rng_below(rng, closer)
    for j in range(state.degree[here]):
        f = state.neighbours[here, j]
        if state.taxi_at[f] < 0 and state.dist[f, target] < state.dist[here, target]:
            if k == 0:
                return f
            k -= 1
    return here
