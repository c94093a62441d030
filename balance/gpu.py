"""Running a game's rules on an NVIDIA GPU: the same Python source, a second target.

A game's rules live once, as ``@njit`` functions on plain arrays.  For the GPU
those functions are *recompiled* from their Python source as CUDA device
functions (:func:`cuda_clones`): each clone runs in a copy of its module's
globals where every other cloned function is replaced by its clone, and where
a game may swap a few CPU-only helpers (an allocation, a pointer trick) for GPU
equivalents.  Nothing is transcribed by hand, so the GPU plays exactly the
rules, players and random streams of the CPU kernel, and a game's outcome is
the same number for number on either (a GPU game's ``tests/<game>/test_gpu.py``
checks it in Numba's CUDA simulator; the benchmark on a GPU checks it on the
device).

Optional: ``pip install balance[gpu]`` (numba-cuda) on a machine with an NVIDIA
GPU and driver.  Without one, asking for the GPU is a user error, never a
traceback.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from types import FunctionType, ModuleType
from typing import Any

from balance.errors import UserError

THREADS_PER_BLOCK = 128


def simulated() -> bool:
    """True under Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1: tests)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


def require_cuda() -> Any:
    """``numba.cuda`` when a CUDA GPU (or the simulator) can run kernels; else a
    UserError naming what is missing."""
    try:
        from numba import cuda
    except ImportError:  # pragma: no cover - numba without its CUDA target
        raise UserError(
            "--device gpu needs numba-cuda: pip install balance[gpu]"
        ) from None
    if simulated():
        return cuda
    try:
        available = cuda.is_available()
    except Exception:  # noqa: BLE001 - a broken driver install reads as "none"
        available = False
    if not available:
        raise UserError(
            "--device gpu: no CUDA GPU found (needs an NVIDIA GPU, its driver and "
            "pip install balance[gpu]); allowed here: --device cpu"
        )
    return cuda


def cuda_clones(
    modules: Iterable[ModuleType],
    overrides: Mapping[str, Callable[..., Any]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Every ``@njit`` function defined in ``modules``, recompiled as a CUDA
    device function.

    Returns ``{module name: globals}``: each module's globals as its clones see
    them (njit functions of any of ``modules`` replaced by their clones, module
    objects among ``modules`` by namespaces of clones).  ``overrides`` maps a
    global name to a plain Python function used instead, in every module, as a
    device function (for the few helpers that only make sense on a CPU).
    """
    from numba import cuda

    modules = list(modules)
    names = {m.__name__ for m in modules}
    scopes = {m.__name__: dict(vars(m)) for m in modules}
    clones: dict[int, Any] = {}  # id(njit dispatcher) -> its CUDA clone
    for m in modules:
        scope = scopes[m.__name__]
        for name, value in vars(m).items():
            py = getattr(value, "py_func", None)
            # a region's or an event's helper (balance.state) is cloned wherever it is bound
            helper = getattr(py, "_layout_helper", False)
            if py is None or (py.__module__ != m.__name__ and not helper) or id(value) in clones:
                continue
            if overrides and name in overrides:
                continue
            own = scopes.get(py.__module__, scope) if helper else scope  # its globals are balance.state's
            fn = FunctionType(
                py.__code__, own, py.__name__, py.__defaults__, py.__closure__
            )
            clones[id(value)] = cuda.jit(device=True)(fn)
    replaced = {
        name: cuda.jit(device=True)(fn) for name, fn in (overrides or {}).items()
    }
    namespaces = {n: ModuleType(n + "_cuda") for n in names}
    for n, scope in scopes.items():
        for name, value in list(scope.items()):
            if name in replaced:
                scope[name] = replaced[name]
            elif id(value) in clones:
                scope[name] = clones[id(value)]
            elif isinstance(value, ModuleType) and value.__name__ in names:
                scope[name] = namespaces[value.__name__]
    for n, namespace in namespaces.items():
        namespace.__dict__.update(scopes[n])
    return scopes


def launch_shape(
    cuda: Any, n_items: int, waves: int = 1, threads: int = THREADS_PER_BLOCK
) -> tuple[int, int]:
    """``(blocks, threads per block)`` for a grid-stride loop over ``n_items``:
    enough blocks to fill every multiprocessor ``waves`` times over, no more
    threads than items."""
    if simulated():
        return max(1, min(2, -(-n_items // threads))), threads
    device = cuda.get_current_device()
    per_sm = max(1, device.MAX_THREADS_PER_MULTI_PROCESSOR // threads)
    blocks = device.MULTIPROCESSOR_COUNT * per_sm * waves
    return max(1, min(blocks, -(-n_items // threads))), threads
