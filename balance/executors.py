"""Executors: where a run's tasks are played.

Every executor has one protocol: a context manager whose ``map_unordered(tasks)``
yields ``(task, aggregate)`` as chunks complete (:func:`balance.runner.execute`
merges them).  The tasks yielded cover exactly the games of the tasks given,
but an executor may split a task into smaller ones (same run, same point), so
a caller counts games, not tasks.  Tasks are pure functions of their data, so
the merged numbers do not depend on the executor or on the splitting.

* :class:`LocalExecutor` runs tasks one after another in this process; each
  uses every thread (the kernel's workers).  It plays a task in slices of about
  :data:`SLICE_S` seconds: Python answers Ctrl-C only between two kernel calls,
  and a whole task of a slow game on few cores (131,072 games at 5,400 games/s
  on one thread) used to hold it off for 24 s.
* :class:`DaskExecutor` hands them to a Dask cluster (optional extra; Dask is
  imported only when one is asked for).

:func:`make_executor` picks one: the Dask executor when a scheduler address is
given (``--scheduler``, ``BALANCE_SCHEDULER`` or ``[cluster] scheduler``).

The Dask executor
-----------------
``balance run --scheduler tcp://HOST:PORT`` (or ``BALANCE_SCHEDULER``, or
``[cluster] scheduler`` in ``balance.toml``) hands every :class:`~balance.runner.Task`
to an existing Dask cluster instead of this process.  A task is plain data and
:func:`~balance.runner.run_task` resolves its game through the registry, so a
worker needs only ``balance`` and the game packages installed; results come
back as :class:`~balance.aggregate.Aggregate` (integer counts) and merge exactly as
they do locally, so the numbers are the same as a local run with the same seed.

Decisions (docs/scaling.md):

* **One kernel at a time per worker process.**  A task's kernel already uses
  every core of its machine through ``prange``; two kernels side by side would
  only oversubscribe the cores (and Numba's ``workqueue`` threading layer aborts
  on concurrent launches).  A process-wide lock serialises kernels, so a worker
  started with several threads is still safe; one thread per worker process is
  the recommended layout.
* **Compile once per worker.**  Before the first chunk, every connected worker
  plays one game of each distinct configuration (game, players, seating shape,
  board, player file).  That compiles the kernel in the worker process (or
  loads it from Numba's on-disk cache, ``cache=True``, shared by workers on one
  machine); every later task reuses the compiled dispatcher.  The warm-up also
  turns a game missing on a worker into one clear error before any real work.
  A worker that joins later compiles on its first task, once.
* **Losing a worker is survivable.**  Tasks are pure functions of their data,
  so Dask reruns the chunks a lost worker held on the others; the merged result
  does not depend on where or in which order chunks ran.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from balance.aggregate import Aggregate
from balance.errors import UserError
from balance.runner import Task, run_task


# --------------------------------------------------------------------------- local
SLICE_S = 0.5  # seconds a kernel call may last: how long Ctrl-C can wait, and how often progress moves
FIRST_SLICE = 1024  # games of the first call, before the speed is known
MIN_SLICE = 256  # never fewer games a call (the call's own cost stays negligible)
GROWTH = 4  # a slice is at most this many times the last (the first call may include compiling)


def slice_size(n_games: int, rate: float | None, last: int | None) -> int:
    """Games of the next kernel call: about :data:`SLICE_S` seconds at ``rate``
    games/s (the speed measured so far, None before any), at most :data:`GROWTH`
    times the ``last`` call, never fewer than :data:`MIN_SLICE`, never more than
    the ``n_games`` left."""
    if rate is None:
        size = FIRST_SLICE
    else:
        size = int(rate * SLICE_S)
        if last is not None:
            size = min(size, GROWTH * last)
    return max(1, min(n_games, max(MIN_SLICE, size)))


class LocalExecutor:
    """Runs tasks one after another in this process; each uses every thread.

    A CPU task is played in slices of about :data:`SLICE_S` seconds (each
    yielded as its own task), so that Ctrl-C stops a run promptly and progress
    moves; a GPU task in one launch.
    """

    name = "local"

    def __init__(self, threads: int | None = None, clock: Any = None) -> None:
        import time

        self.threads = threads
        self._previous: int | None = None
        self._clock = clock or time.perf_counter
        self._rate: float | None = None  # games/s of the last slice
        self._last: int | None = None

    def __enter__(self) -> "LocalExecutor":
        if self.threads is not None:
            import numba

            if not 1 <= self.threads <= numba.config.NUMBA_NUM_THREADS:
                raise UserError(
                    f"--threads {self.threads}: allowed 1 to {numba.config.NUMBA_NUM_THREADS} on this machine"
                )
            self._previous = numba.get_num_threads()
            numba.set_num_threads(self.threads)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:  # leave the process as we found it
            import numba

            numba.set_num_threads(self._previous)
            self._previous = None

    def map_unordered(self, tasks: Sequence[Task]) -> Iterator[tuple[Task, Aggregate]]:
        for task in tasks:
            if task.device != "cpu":
                yield task, run_task(task)
                continue
            first, end = task.first_game, task.first_game + task.n_games
            while first < end:
                n = slice_size(end - first, self._rate, self._last)
                part = replace(task, first_game=first, n_games=n)
                start = self._clock()
                aggregate = run_task(part)
                elapsed = self._clock() - start
                self._rate = n / max(elapsed, 1e-9)
                self._last = n
                first += n
                yield part, aggregate


def make_executor(threads: int | None = None, scheduler: str | None = None) -> Any:
    """The local executor, or the Dask one when a scheduler address is given."""
    scheduler = scheduler or os.environ.get("BALANCE_SCHEDULER") or None
    if scheduler:
        return DaskExecutor(scheduler, threads)
    return LocalExecutor(threads)


# --------------------------------------------------------------------------- Dask
CONNECT_TIMEOUT_S = 10.0  # reaching the scheduler
WORKER_TIMEOUT_S = 30.0  # waiting for at least one worker to be connected

# One compiled kernel runs at a time in a worker process (see module docstring).
_KERNEL_LOCK = threading.Lock()


def _set_threads(threads: int | None) -> None:
    """Numba threads for this worker thread (thread-local in Numba): the limit
    asked for, capped at what the worker machine has; all of them by default."""
    import numba

    available = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(min(threads, available) if threads else available)


def _run_on_worker(task: Task, threads: int | None) -> Aggregate:
    with _KERNEL_LOCK:
        _set_threads(threads)
        return run_task(task)


def _warm_up_worker(samples: Sequence[Task], threads: int | None) -> tuple[str, str]:
    """Compile (or load from cache) every sample's kernel in this worker process."""
    from distributed import get_worker

    from balance import __version__

    address = get_worker().address
    with _KERNEL_LOCK:
        _set_threads(threads)
        for task in samples:
            try:
                run_task(task)
            except UserError as exc:
                raise UserError(
                    f"Dask worker {address}: {exc} (every worker needs balance and the game packages installed)"
                ) from None
    return address, __version__


def _worker_addresses(client: Any) -> list[str]:
    try:
        info = client.scheduler_info(n_workers=-1)  # newer Dask lists 5 workers unless asked for all
    except TypeError:
        info = client.scheduler_info()
    return list(info["workers"])


def _sample_key(task: Task) -> tuple[Any, ...]:
    """What decides which kernel specialisation a task compiles."""
    run = task.run
    return (run.game, run.players, run.rotate_seats, run.board, run.player_file)


class DaskExecutor:
    """Runs tasks on the Dask cluster at ``scheduler``; the same protocol as
    :class:`LocalExecutor`: a context manager whose
    :meth:`map_unordered` yields ``(task, aggregate)`` as chunks complete.

    ``threads`` limits the Numba threads each task uses on its worker (capped at
    the worker's cores); by default a task uses every core of its worker.
    """

    name = "dask"

    def __init__(self, scheduler: str, threads: int | None = None) -> None:
        if threads is not None and threads < 1:
            raise UserError(f"--threads {threads}: expected a whole number of at least 1")
        self.scheduler = scheduler.strip()
        self.threads = threads
        self.client: Any = None
        self._warmed: set[tuple[str, tuple[Any, ...]]] = set()

    # ----- connection ---------------------------------------------------------
    def __enter__(self) -> DaskExecutor:
        try:
            from distributed import Client
        except ImportError:
            raise UserError(
                f"--scheduler {self.scheduler}: the Dask executor needs Dask; pip install balance[dask]"
            ) from None
        self._check_address()
        try:
            self.client = Client(self.scheduler, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
        except ValueError as exc:
            raise UserError(f"--scheduler {self.scheduler}: not a Dask scheduler address ({exc})") from None
        except (OSError, TimeoutError) as exc:
            raise UserError(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from None
        try:
            self.client.wait_for_workers(1, timeout=WORKER_TIMEOUT_S)
        except (OSError, TimeoutError):
            self.client.close()
            self.client = None
            raise UserError(
                f"no Dask worker connected to {self.scheduler} within {WORKER_TIMEOUT_S:.0f} s; "
                f"start one with 'dask worker {self.scheduler}'"
            ) from None
        return self

    def _check_address(self) -> None:
        """Refuse a malformed address before a Client exists (a half-built one
        lingers until exit, trying to close)."""
        from distributed.comm.addressing import parse_address
        from distributed.comm.registry import backends

        try:
            scheme, location = parse_address(self.scheduler, strict=False)
        except (ValueError, TypeError) as exc:
            raise UserError(f"--scheduler {self.scheduler}: not a Dask scheduler address ({exc})") from None
        if scheme not in backends or not location:
            known = ", ".join(f"{name}://" for name in sorted(backends))
            raise UserError(
                f"--scheduler {self.scheduler}: not a Dask scheduler address; expected tcp://HOST:PORT "
                f"(schemes: {known})"
            )

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    # ----- work ---------------------------------------------------------------
    def warm_up(self, tasks: Sequence[Task]) -> None:
        """Compile each distinct configuration once on every connected worker."""
        from balance import __version__

        samples: dict[tuple[Any, ...], Task] = {}
        for task in tasks:
            samples.setdefault(_sample_key(task), replace(task, n_games=1))
        todo: dict[str, list[Task]] = {}
        for address in _worker_addresses(self.client):
            missing = [t for k, t in samples.items() if (address, k) not in self._warmed]
            if missing:
                todo[address] = missing
        if not todo:
            return
        run_id = uuid.uuid4().hex[:8]
        # Loose restriction: if a worker leaves meanwhile, its warm-up runs
        # elsewhere (harmless) instead of waiting forever for it.
        futures = [
            self.client.submit(
                _warm_up_worker,
                todo_samples,
                self.threads,
                workers=[address],
                allow_other_workers=True,
                pure=False,
                key=f"balance-warm-up-{run_id}-{i}",
            )
            for i, (address, todo_samples) in enumerate(todo.items())
        ]
        for address, version in self.client.gather(futures):
            if version != __version__:
                raise UserError(
                    f"Dask worker {address} runs balance {version}, this machine {__version__}; "
                    "install the same version everywhere"
                )
        for address, todo_samples in todo.items():
            self._warmed.update((address, _sample_key(t)) for t in todo_samples)

    def map_unordered(self, tasks: Sequence[Task]) -> Iterator[tuple[Task, Aggregate]]:
        from distributed import as_completed

        tasks = list(tasks)
        if not tasks:
            return
        self.warm_up(tasks)
        run_id = uuid.uuid4().hex[:8]
        keys = [f"balance-{t.run.game}-{run_id}-p{t.point}-g{t.first_game}" for t in tasks]
        futures = self.client.map(_run_on_worker, tasks, [self.threads] * len(tasks), key=keys, pure=False)
        task_of = dict(zip(keys, tasks))
        pending = {f.key: f for f in futures}
        del futures
        try:
            for future in as_completed(list(pending.values()), loop=self.client.loop):
                aggregate = future.result()  # a task's own error (e.g. a UserError) is raised here
                del pending[future.key]
                future.release()  # free the result on the cluster at once
                yield task_of[future.key], aggregate
        finally:
            if pending:  # stopped early (error, Ctrl-C): leave nothing running on the cluster
                self.client.cancel(list(pending.values()))
