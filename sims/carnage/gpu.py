"""Carnage on an NVIDIA GPU: one game per CUDA thread, the CPU kernel's own rules.

The rules (kernel.py), the built-in players (players.py) and the random streams
(balance/rng.py) are recompiled for CUDA from their Python source by
:func:`balance.gpu.cuda_clones`; only two CPU helpers are swapped: the
reference-count-free view of the state (a GPU array has no reference count)
and the allocation of the state (a thread's local array instead).  Game ``g``
under seed ``S`` therefore ends exactly as on the CPU: same winner, end, turns
and deliveries (tests/carnage/test_gpu.py, in Numba's CUDA simulator;
``python -m benchmarks.gpu`` on a GPU).

Each thread keeps one state in local memory, fills in the board once and plays
games ``i, i + grid, i + 2 grid, ...`` of the batch (a grid-stride loop), so
nothing is allocated per game.  Built-in players only: a player file's
functions are compiled for the CPU by balance.plugins.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.errors import UserError
from balance.game import Outcomes

_KERNELS: dict[int, Any] = {}  # state size -> compiled batch kernel


def _batch_source(
    neighbours,
    n_nbrs,
    distances,
    hq,
    cards,
    params,
    seatings,
    seed,
    first_game,
    n_games,
    winner,
    end_reason,
    turns,
    score,
):
    """The batch kernel (compiled in kernel.py's globals, see :func:`_kernel`)."""
    st = cuda.local.array(_STATE_SIZE, int64)  # noqa: F821 - set by _kernel
    for j in range(_STATE_SIZE):  # noqa: F821
        st[j] = 0
    n_seats = seatings.shape[1]
    n_seatings = seatings.shape[0]
    init_state(  # noqa: F821
        st, neighbours, n_nbrs, distances, hq, cards, params, n_seats, 0
    )
    i = cuda.grid(1)  # noqa: F821
    stride = cuda.gridsize(1)  # noqa: F821
    while i < n_games:
        g = first_game + i
        play_game(st, seatings[g % n_seatings], seed, g, RECORD_OFF)  # noqa: F821
        winner[i] = st[WINNER]  # noqa: F821
        end_reason[i] = st[END_REASON]  # noqa: F821
        turns[i] = st[TURN]  # noqa: F821
        for seat in range(n_seats):
            score[i, seat] = st[DELIVERED + seat]  # noqa: F821
        i += stride


def _same_state(st):
    """A GPU array has no reference count: the state is used as it is."""
    return st


def _kernel(state_size: int) -> Any:
    """The batch kernel for states of ``state_size`` slots (compiled once per
    board size and process)."""
    if state_size not in _KERNELS:
        from types import FunctionType

        from numba import cuda, types

        import balance.rng
        from balance.gpu import cuda_clones
        from sims.carnage import kernel, players

        scopes = cuda_clones(
            [balance.rng, kernel, players], overrides={"_unmanaged": _same_state}
        )
        scope = scopes[kernel.__name__]
        scope.update(cuda=cuda, int64=types.int64, _STATE_SIZE=int(state_size))
        src = _batch_source
        fn = FunctionType(src.__code__, scope, "carnage_batch", src.__defaults__)
        _KERNELS[state_size] = cuda.jit(fn)
    return _KERNELS[state_size]


def simulate(
    board: Any,
    params: np.ndarray,
    seatings: np.ndarray,
    seed: int,
    first_game: int,
    n_games: int,
    out: Outcomes,
    waves: int = 1,
    threads: int = 128,
) -> None:
    """Games first_game .. first_game + n_games - 1 on the GPU into ``out``
    (host arrays, as CarnageSpec.simulate's).

    ``seatings`` are built-in player indices; ``params`` the int64 rule array.
    """
    from balance.gpu import launch_shape, require_cuda
    from sims.carnage.kernel import state_size

    cuda = require_cuda()
    if n_games <= 0:
        return
    n_streets = board.neighbours.shape[0]
    kern = _kernel(state_size(n_streets, 0))
    n_seats = seatings.shape[1]
    hq = np.ascontiguousarray(board.hq_streets[:n_seats])
    blocks, threads = launch_shape(cuda, n_games, waves, threads)
    to = cuda.to_device
    host = (out.winner, out.end_reason, out.turns, out.score)
    dev_out = [cuda.device_array(a.shape, a.dtype) for a in host]
    kern[blocks, threads](
        to(board.neighbours),
        to(board.n_neighbours),
        to(board.dist),
        to(hq),
        to(board.cards),
        to(np.ascontiguousarray(params, dtype=np.int64)),
        to(np.ascontiguousarray(seatings, dtype=np.int64)),
        np.uint64(int(seed) % 2**64),
        np.int64(first_game),
        np.int64(n_games),
        *dev_out,
    )
    for array, dev in zip(host, dev_out):
        dev.copy_to_host(array)


def check_players(policy: Any) -> None:
    """The GPU plays built-in players only."""
    if policy is not None:
        raise UserError(
            "--device gpu plays the built-in players only; "
            "a --player-file runs with --device cpu"
        )
