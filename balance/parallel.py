"""Dynamic work sharing for compiled batch kernels.

A batch kernel runs ``prange`` over its workers (one per thread); each worker
claims the next few games from a shared counter until none are left.  A thread
that the operating system holds back (a shared or noisy machine) then simply
claims fewer games, instead of the others idling at the end of a static split.
Which worker plays a game never changes the game: game ``g`` depends only on
``(seed, g)`` (the seeding contract), and its outcome goes to slot ``g``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.core import config as numba_config
from numba.extending import intrinsic

# The counter sits alone in a 128-byte span (two cache lines, the unit of the
# adjacent-line prefetcher), so the workers' claims touch nothing else.
COUNTER_SLOTS = 16
COUNTER = 8
MAX_BATCH = 256  # games per claim: about 2 ms of a typical game, far above a claim's cost


@intrinsic
def _fetch_add(typingctx, counter, index, value):
    """``counter[index] += value`` as one atomic operation; the old value."""
    if not (
        isinstance(counter, types.Array)
        and counter.dtype == types.int64
        and isinstance(index, types.Integer)
        and isinstance(value, types.Integer)
    ):
        return None

    def codegen(context, builder, signature, args):
        arrty = signature.args[0]
        ary = context.make_array(arrty)(context, builder, args[0])
        idx = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, arrty, ary, [idx])
        val = context.cast(builder, args[2], signature.args[2], types.int64)
        return builder.atomic_rmw("add", ptr, val, "monotonic")

    return types.int64(counter, index, value), codegen


@njit(cache=True)
def new_counter():
    """A zeroed claim counter (shared by the workers of one batch)."""
    return np.zeros(COUNTER_SLOTS, np.int64)


@njit(cache=True)
def claim(counter, size):
    """The first index of the next ``size`` items (atomic; may pass the end)."""
    return _fetch_add(counter, COUNTER, size)


@njit(cache=True)
def batch_size(n_items, n_workers):
    """Items per claim: at most MAX_BATCH, and at least 8 claims per worker."""
    return max(1, min(MAX_BATCH, n_items // (8 * max(1, n_workers))))


if numba_config.DISABLE_JIT:  # pure Python: one thread at a time anyway

    def claim(counter, size):
        old = int(counter[COUNTER])
        counter[COUNTER] = old + size
        return old
