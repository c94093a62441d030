"""Carnage on an NVIDIA GPU: one game per CUDA thread, the CPU kernel's own rules.

The rules (kernel.py's ``advance`` and ``apply``), the state helpers
(state.py, balance/state.py), the built-in heuristics (players.py), the
engine's ``reset_game`` and the random streams (balance/rng.py) are recompiled
for CUDA from their Python source by :func:`balance.gpu.cuda_clones`; only the
reference-count-free view of the state is swapped (a GPU array has no
reference count).  The game loop below is the engine's ``play_on`` with the
built-in heuristics as the players.  Game ``g`` under seed ``S`` therefore
ends exactly as on the CPU: same winner, end, turns and deliveries
(tests/carnage/test_gpu.py, in Numba's CUDA simulator; ``python -m
benchmarks.gpu`` on a GPU).

Each thread keeps one state in local memory, copies the game's image (rules,
board, HQs, cards) into it once and plays games ``i, i + grid, i + 2 grid,
...`` of the batch (a grid-stride loop), so nothing is allocated per game.
The heuristic players only: a player file's functions are compiled for the
CPU by balance.plugins, and the search player ``mc`` needs a second state per
thread for its playouts (run it with ``--device cpu``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from balance.errors import UserError
from balance.game import GameSpec, Job, Outcomes

_KERNELS: dict[int, Any] = {}  # state size -> compiled batch kernel


def _batch_source(
    image,
    seatings,
    player_params,
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
        st[j] = image[j]
    n_seats = seatings.shape[1]
    n_seatings = seatings.shape[0]
    st[SIZE] = _STATE_SIZE  # noqa: F821 - as engine.new_state: no trace rows, no search workspace
    st[N_SEATS] = n_seats  # noqa: F821
    st[EVENTS_AT] = _STATE_SIZE  # noqa: F821
    st[EVENT_ROWS] = 0  # noqa: F821
    st[SCRATCH_AT] = 0  # noqa: F821
    i = cuda.grid(1)  # noqa: F821
    stride = cuda.gridsize(1)  # noqa: F821
    while i < n_games:
        g = first_game + i
        p = g % n_seatings
        reset_game(st, seatings[p], player_params[p], seed, g, RECORD_OFF)  # noqa: F821
        while st[END_REASON] < 0:  # noqa: F821 - engine.play_on, the heuristics deciding
            advance(st)  # noqa: F821
            if st[END_REASON] >= 0:  # noqa: F821
                break
            seat = st[DECIDER]  # noqa: F821
            apply(st, heuristics(st[seating_at(seat)], st[DECISION], seat, st[SUBJECT], st))  # noqa: F821
        winner[i] = st[WINNER]  # noqa: F821
        end_reason[i] = st[END_REASON]  # noqa: F821
        turns[i] = st[TURN]  # noqa: F821
        for s in range(n_seats):
            score[i, s] = st[score_at(s)]  # noqa: F821
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

        import balance.engine
        import balance.rng
        import balance.state
        from balance.gpu import cuda_clones
        from sims.carnage import kernel, players, state

        modules = [balance.rng, balance.state, balance.engine, state, players, kernel]
        scopes = cuda_clones(modules, overrides={"unmanaged": _same_state})
        scope = dict(scopes[kernel.__name__])
        shared = scopes[balance.state.__name__]
        for name in (
            "SIZE", "N_SEATS", "EVENTS_AT", "EVENT_ROWS", "SCRATCH_AT", "END_REASON", "DECIDER",
            "seating_at", "DECISION", "SUBJECT", "WINNER", "TURN", "score_at",
        ):
            scope[name] = shared[name]
        scope.update(
            reset_game=scopes[balance.engine.__name__]["reset_game"],
            heuristics=scopes[players.__name__]["heuristics"],
            RECORD_OFF=balance.engine.RECORD_OFF,
            cuda=cuda,
            int64=types.int64,
            _STATE_SIZE=int(state_size),
        )
        src = _batch_source
        fn = FunctionType(src.__code__, scope, "carnage_batch", src.__defaults__)
        _KERNELS[state_size] = cuda.jit(fn)
    return _KERNELS[state_size]


def check_players(spec: GameSpec, job: Job) -> None:
    """The GPU plays the built-in heuristics only."""
    if not job.builtin_only:
        raise UserError("--device gpu plays the built-in players only; a --player-file runs with --device cpu")
    n = len(spec.heuristics)
    if int(job.seat_index.max()) >= n:
        names = ", ".join(p.name for p in spec.heuristics)
        raise UserError(f"--device gpu plays the heuristic players ({names}); mc runs with --device cpu")


def simulate(
    spec: GameSpec,
    job: Job,
    seed: int,
    first_game: int,
    n_games: int,
    out: Outcomes,
    waves: int = 1,
    threads: int = 128,
) -> None:
    """Games first_game .. first_game + n_games - 1 on the GPU into ``out``
    (host arrays, as GameSpec.simulate's); ``job`` is GameSpec._job's."""
    from balance.gpu import launch_shape, require_cuda

    check_players(spec, job)
    cuda = require_cuda()
    if n_games <= 0:
        return
    image = np.ascontiguousarray(job.image, dtype=np.int64)
    kern = _kernel(image.shape[0])
    blocks, threads = launch_shape(cuda, n_games, waves, threads)
    to = cuda.to_device
    host = (out.winner, out.end_reason, out.turns, out.score)
    dev_out = [cuda.device_array(a.shape, a.dtype) for a in host]
    kern[blocks, threads](
        to(image),
        to(np.ascontiguousarray(job.seat_index, dtype=np.int64)),
        to(np.ascontiguousarray(job.player_params, dtype=np.int64)),
        np.uint64(int(seed) % 2**64),
        np.int64(first_game),
        np.int64(n_games),
        *dev_out,
    )
    for array, dev in zip(host, dev_out):
        dev.copy_to_host(array)
