"""The counter-based generator: reproducible, independent of call order, unbiased."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from balance.rng import rng_below, rng_below_at, rng_d6, rng_float, rng_next, rng_seed, rng_seed_at, rng_shuffle


@njit(cache=True)
def _draws(seed, game, n, bound):
    state = np.zeros(2, np.uint64)
    rng_seed(state, seed, game)
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = rng_below(state, bound)
    return out


@given(seed=st.integers(0, 2**63 - 1), game=st.integers(0, 2**40))
@settings(max_examples=50, deadline=None)
def test_same_seed_and_game_same_stream(seed, game):
    a = _draws(np.uint64(seed), game, 16, 1000)
    b = _draws(np.uint64(seed), game, 16, 1000)
    assert (a == b).all()
    assert ((a >= 0) & (a < 1000)).all()


@njit(cache=True)
def _draws_at(seed, game, n, bound):
    st = np.zeros(5, np.int64)
    rng_seed_at(st, 2, seed, game)
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = rng_below_at(st, 2, bound)
    return out


@given(seed=st.integers(0, 2**63 - 1), game=st.integers(0, 2**40), bound=st.integers(1, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_the_stream_in_state_slots_draws_the_same_numbers(seed, game, bound):
    """rng_below_at (the stream in two int64 slots, as draw_below keeps it) and
    rng_below (a uint64 array): the same 64 draws, for any bound, rejections included."""
    a = _draws(np.uint64(seed), game, 64, bound)
    assert (a == _draws_at(np.uint64(seed), game, 64, bound)).all()
    assert ((a >= 0) & (a < bound)).all()


def test_streams_differ_between_games_and_seeds():
    base = _draws(np.uint64(1), 0, 32, 2**31)
    assert not (base == _draws(np.uint64(1), 1, 32, 2**31)).all()
    assert not (base == _draws(np.uint64(2), 0, 32, 2**31)).all()


def test_d6_is_uniform():
    """Chi-square goodness of fit of 600,000 rolls (5 d.f.): the 99.9% critical value is 20.5."""

    @njit
    def rolls(n):
        state = np.zeros(2, np.uint64)
        rng_seed(state, np.uint64(12345), 0)
        counts = np.zeros(7, np.int64)
        for _ in range(n):
            counts[rng_d6(state)] += 1
        return counts

    counts = rolls(600_000)
    assert counts[0] == 0
    expected = 100_000
    chi2 = float(((counts[1:] - expected) ** 2 / expected).sum())
    assert chi2 < 20.5, f"chi-square {chi2:.2f} for counts {counts[1:].tolist()}"


def test_below_small_bounds_are_uniform_and_in_range():
    for bound in (1, 2, 3, 16, 52):
        draws = _draws(np.uint64(7), 3, 52_000, bound)
        assert draws.min() >= 0 and draws.max() < bound
        counts = np.bincount(draws, minlength=bound)
        expected = draws.size / bound
        chi2 = float(((counts - expected) ** 2 / expected).sum())
        # 99.9% critical values: df=51 -> 90.6; smaller df are lower.
        assert chi2 < 91, f"bound {bound}: chi-square {chi2:.1f}"


def test_float_and_shuffle():
    @njit
    def go():
        state = np.zeros(2, np.uint64)
        rng_seed(state, np.uint64(9), 4)
        xs = np.empty(10_000)
        for i in range(xs.size):
            xs[i] = rng_float(state)
        deck = np.arange(52)
        rng_shuffle(state, deck)
        return xs, deck, rng_next(state)

    xs, deck, _ = go()
    assert 0.0 <= xs.min() and xs.max() < 1.0
    assert abs(xs.mean() - 0.5) < 0.02
    assert sorted(deck.tolist()) == list(range(52))
    assert deck.tolist() != list(range(52))


def test_state_shuffle_draws_like_rng_shuffle_and_touches_only_its_region():
    from balance.state import HEADER_END, RNG, shuffle

    @njit
    def go():
        st = np.zeros(HEADER_END + 60, np.int64)
        rng_seed(st[RNG : RNG + 2].view(np.uint64), np.uint64(5), 7)
        lo = HEADER_END + 4
        st[lo : lo + 52] = np.arange(52)
        st[lo - 1] = -1
        st[lo + 52] = -2
        shuffle(st, lo, lo + 52)
        state = np.zeros(2, np.uint64)
        rng_seed(state, np.uint64(5), 7)
        deck = np.arange(52)
        rng_shuffle(state, deck)
        return st[lo - 1 : lo + 53].copy(), deck

    region, deck = go()
    assert region[0] == -1 and region[-1] == -2  # its neighbours untouched
    assert region[1:-1].tolist() == deck.tolist()  # the same draws, the same order
