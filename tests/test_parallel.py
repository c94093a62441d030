"""balance.parallel: workers claiming batches from one atomic counter.

The batch kernels rely on two facts tested here: every item is claimed by
exactly one worker however the claims interleave (the counter's add is atomic),
and the batch size keeps every worker busy while staying small.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit, prange

from balance.parallel import MAX_BATCH, batch_size, claim, new_counter


@njit(parallel=True)
def _claim_all(n_items, n_workers, batch, seen, claims):
    counter = new_counter()
    for w in prange(n_workers):
        while True:
            lo = claim(counter, batch)
            if lo >= n_items:
                break
            claims[w] += 1
            for i in range(lo, min(lo + batch, n_items)):
                seen[i] += 1


@pytest.mark.parametrize("batch", [1, 7, 256])
def test_every_item_is_claimed_exactly_once(batch: int) -> None:
    # 400,000 claims of one item by every thread at once: a non-atomic
    # read-add-write would hand some items out twice (and skip none).
    n_items = 400_000
    n_workers = numba.get_num_threads()
    seen = np.zeros(n_items, np.int64)
    claims = np.zeros(n_workers, np.int64)
    _claim_all(n_items, n_workers, batch, seen, claims)
    assert seen.min() == 1 and seen.max() == 1
    assert claims.sum() == -(-n_items // batch)


def test_claims_are_consecutive_from_zero() -> None:
    counter = new_counter()
    assert [claim(counter, 5) for _ in range(4)] == [0, 5, 10, 15]
    assert counter.sum() == 20  # one slot holds the count; the rest is padding


@given(n_items=st.integers(0, 10**9), n_workers=st.integers(1, 512))
def test_batch_size_bounds(n_items: int, n_workers: int) -> None:
    b = batch_size(n_items, n_workers)
    assert 1 <= b <= MAX_BATCH
    if n_items >= 8 * n_workers * MAX_BATCH:
        assert b == MAX_BATCH
    else:  # small runs: at least 8 claims per worker when there are items enough
        assert b == max(1, n_items // (8 * n_workers))
