"""Counter-based random numbers for compiled kernels.

The seeding contract (docs/architecture.md): game ``g`` under master seed ``S``
draws every random number from its own xoroshiro128+ stream whose state is
derived from ``(S, g)`` by splitmix64.  Nothing else draws random numbers, so a
game's outcome depends on ``(S, g)``, the rules and the players only, never on
threads, chunking or the executor.

The state is a ``uint64`` array of length 2 owned by the caller (one per worker,
reused game after game): no allocation per game or per turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# All arithmetic stays in uint64: mixing with int64 would promote to float64.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SEED_SALT = np.uint64(0xD1B54A32D192ED03)
_SEARCH_SALT = np.uint64(0x8CB92BA72F3D8DD7)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S24 = np.uint64(24)
_S16 = np.uint64(16)
_S37 = np.uint64(37)
_S64_MINUS_24 = np.uint64(64 - 24)
_S64_MINUS_37 = np.uint64(64 - 37)
_S32 = np.uint64(32)
_MASK32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def splitmix64(x):
    """One splitmix64 output for counter ``x`` (a pure function)."""
    z = np.uint64(x) + _GOLDEN
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def _seed_words(seed, game):
    """The two words of game ``game``'s stream under master seed ``seed``."""
    s = splitmix64(np.uint64(seed) ^ _SEED_SALT)
    s0 = splitmix64(s ^ splitmix64(np.uint64(game)))
    s1 = splitmix64(s0 + _GOLDEN)
    if s0 == np.uint64(0) and s1 == np.uint64(0):  # the one forbidden state
        s1 = _GOLDEN
    return s0, s1


@njit(cache=True)
def rng_seed(state, seed, game):
    """Seed ``state`` (uint64[2]) for game ``game`` under master seed ``seed``."""
    s0, s1 = _seed_words(seed, game)
    state[0] = s0
    state[1] = s1


@njit(cache=True, inline="always")
def rng_seed_at(st, at, seed, game):
    """:func:`rng_seed` into two ``int64`` slots of ``st`` (``st[at]``,
    ``st[at + 1]``), the stream :func:`rng_below_at` draws from."""
    s0, s1 = _seed_words(seed, game)
    st[at] = np.int64(s0)
    st[at + 1] = np.int64(s1)


@njit(cache=True)
def rng_seed_search(state, seed, game, search, playout):
    """Seed ``state`` for playout ``playout`` of the ``search``-th decision a
    search player made in game ``game`` under master seed ``seed``.

    A stream of its own, derived from the same counters as the game's (so a
    search is reproducible whatever the thread or chunk), but never the game's
    true stream: a playout must not see the rolls the real game will make.
    """
    s = splitmix64(np.uint64(seed) ^ _SEARCH_SALT)
    s = splitmix64(s ^ splitmix64(np.uint64(game)))
    s = splitmix64(s ^ splitmix64(np.uint64(search)))
    s0 = splitmix64(s ^ splitmix64(np.uint64(playout) + _GOLDEN))
    s1 = splitmix64(s0 + _GOLDEN)
    if s0 == np.uint64(0) and s1 == np.uint64(0):
        s1 = _GOLDEN
    state[0] = s0
    state[1] = s1


@njit(cache=True, inline="always")
def _rotl(x, k, k_complement):
    return (x << k) | (x >> k_complement)


@njit(cache=True)
def rng_next(state):
    """Next 64 random bits (xoroshiro128+)."""
    s0 = state[0]
    s1 = state[1]
    result = s0 + s1
    s1 ^= s0
    state[0] = _rotl(s0, _S24, _S64_MINUS_24) ^ s1 ^ (s1 << _S16)
    state[1] = _rotl(s1, _S37, _S64_MINUS_37)
    return result


@njit(cache=True, inline="always")
def _bounded(r, bound):
    """Lemire's multiply-shift on 32 random bits ``r``: (accepted, value).  The
    rejection threshold ``2**32 mod bound`` is below ``bound``, so its division
    is computed only for the rare product whose low half is below ``bound``."""
    m = r * bound
    low = m & _MASK32
    if low < bound and low < (np.uint64(0x100000000) - bound) % bound:
        return False, np.int64(0)
    return True, np.int64(m >> _S32)


@njit(cache=True)
def rng_below(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32``, without bias.

    Lemire's multiply-shift with rejection on the high 32 bits of the output
    (xoroshiro128+'s low bits are its weakest).
    """
    bound = np.uint64(n)
    while True:
        ok, v = _bounded(rng_next(state) >> _S32, bound)
        if ok:
            return v


@njit(cache=True, inline="always")
def rng_below_at(st, at, n):
    """:func:`rng_below` on a stream kept in two ``int64`` slots of ``st``
    (``st[at]``, ``st[at + 1]``, the bits of its two ``uint64`` words): the
    same numbers, without a ``uint64`` view of ``st`` per draw."""
    bound = np.uint64(n)
    while True:
        s0 = np.uint64(st[at])
        s1 = np.uint64(st[at + 1])
        result = s0 + s1
        s1 ^= s0
        st[at] = np.int64(_rotl(s0, _S24, _S64_MINUS_24) ^ s1 ^ (s1 << _S16))
        st[at + 1] = np.int64(_rotl(s1, _S37, _S64_MINUS_37))
        ok, v = _bounded(result >> _S32, bound)
        if ok:
            return v


@njit(cache=True)
def rng_d6(state):
    """One roll of a six-sided die: 1..6."""
    return rng_below(state, 6) + 1


@njit(cache=True)
def rng_float(state):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(rng_next(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def rng_shuffle(state, values):
    """Shuffle ``values`` in place (Fisher-Yates, uniform)."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = rng_below(state, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
