"""``--jobs N``: the chunks of a job on a pool of local processes, answered in input order.

Start method: **forkserver** (spawn where there is none). A batch command may already have run numba's
threaded kernels in the parent (solve loads its thread pool; canon's canonical form runs on every core), and
``fork`` copies a process that has threads into a child that has only one: numba's thread pools (workqueue,
OpenMP, TBB) are documented as not fork-safe, and a child that forks while another thread holds a lock can
hang. A forkserver child is forked from a small server started before any of that, so it is clean, and starts
faster than ``spawn`` (which re-imports everything in each worker).

Each worker, once at start: ignores SIGINT (Ctrl-C is the parent's to handle: it keeps what was written and
prints the summary), runs numba on one thread (the processes are the parallelism; N processes of N threads
would only fight over the cores), and runs the command's ``warm`` function (loading its kernels), so the first
chunk's timings and time limits leave that out.

A chunk whose worker dies (a crash, the out-of-memory killer) breaks the pool: the pool is started again and
the chunk at the head of the window is run again on its own, so that the one that killed it is found; a chunk
that breaks the pool twice is answered with :class:`~sudokit.jobs.batch.Failed`. A task that raises is retried
by :class:`~sudokit.jobs.batch.Guarded`, in the worker; one whose chunk or answer cannot be sent (pickled)
is run once more and then answered with :class:`~sudokit.jobs.batch.Failed` too.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

_END = object()
#: The head chunk's second try: after its task raised (AGAIN), or alone in a new pool after a worker died
#: (ALONE: if the pool breaks again, this chunk killed it). No other chunk is sent during either.
AGAIN, ALONE = 1, 2
#: The most processes ``--jobs`` starts (more is a typo: each worker holds its own interpreter and kernels).
MAX_PROCESSES = 256


def start_method() -> str:
    """``forkserver`` where the platform has it (Linux, macOS), else ``spawn`` (never ``fork``: see above)."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _worker_start(warm: Callable[[], Any] | None) -> None:
    """Run once in each worker before its first chunk."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ["NUMBA_NUM_THREADS"] = "1"  # read when numba is imported (not yet, unless the server preloaded it)
    import sys

    if "numba" in sys.modules:
        import numba

        numba.set_num_threads(1)
    if warm is not None:
        warm()


class Processes:
    """A pool of ``workers`` processes (:class:`~sudokit.jobs.runner.Runner`); ``warm()`` runs in each at start."""

    def __init__(self, workers: int, warm: Callable[[], Any] | None = None) -> None:
        if workers > MAX_PROCESSES:
            from sudokit.errors import SudokitError

            raise SudokitError(f"--jobs {workers}: at most {MAX_PROCESSES} processes")
        self.workers = workers
        self._warm = warm
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context(start_method())
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_worker_start, initargs=(self._warm,)
            )
        return self._pool

    def _submit(self, task: Callable[[Any], Any], chunk: Any) -> Any:
        """The future of ``task(chunk)`` on the pool, or None when the pool is broken: a worker died since the
        last answer was read (the reader then finds out which chunk killed it, see :meth:`map`)."""
        try:
            return self._executor().submit(task, chunk)
        except BrokenProcessPool:
            return None

    def _restart(self) -> None:
        """A new pool after a worker died (the old one refuses work)."""
        self._stop()
        self._executor()

    def map(self, task: Callable[[Any], Any], chunks: Iterable[Any], window: int | None = None) -> Iterator[Any]:
        from sudokit.jobs.batch import Failed

        window = max(1, window or 2 * self.workers)
        source = iter(chunks)
        flight: deque[list] = deque()  # [chunk, its future (None: to submit), 0 | AGAIN | ALONE]
        try:
            while True:
                if not (flight and flight[0][2]):  # not finding which chunk broke the pool
                    for item in flight:
                        if item[1] is None:
                            item[1] = self._submit(task, item[0])
                    while len(flight) < window and (not flight or flight[-1][1] is not None):
                        chunk = next(source, _END)
                        if chunk is _END:
                            break
                        flight.append([chunk, self._submit(task, chunk), 0])
                if not flight:
                    return
                head = flight[0]
                if head[1] is None:  # the pool broke (another chunk's worker died) before this one was sent
                    self._restart()
                    for item in flight:
                        item[1] = None
                    head[1] = self._executor().submit(task, head[0])
                    continue
                try:
                    answer = head[1].result()
                except BrokenProcessPool as exc:
                    self._restart()
                    for item in flight:
                        item[1] = None
                    if head[2] == ALONE:  # it broke the pool on its own: twice in all
                        flight.popleft()
                        yield Failed(f"the worker running it died twice ({exc})")
                        continue
                    head[2] = ALONE
                    head[1] = self._submit(task, head[0])  # alone, to find the chunk that kills
                    continue
                except Exception as exc:  # noqa: BLE001 - the task raised, or its chunk or answer did not pickle
                    if head[2]:
                        flight.popleft()
                        yield Failed(f"{type(exc).__name__}: {exc}")
                        continue
                    head[2] = AGAIN
                    head[1] = self._submit(task, head[0])  # once more (None: the pool broke meanwhile)
                    continue
                flight.popleft()
                yield answer
        finally:
            for item in flight:
                if item[1] is not None:
                    item[1].cancel()

    def _stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        pool.shutdown(wait=False, cancel_futures=True)
        stop = getattr(pool, "terminate_workers", None)  # Python 3.14
        if stop is not None:
            stop()
        else:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                if process.is_alive():
                    process.terminate()
        pool.shutdown(wait=True)

    def close(self) -> None:
        """Stop the workers (a chunk still running is abandoned: the caller has stopped reading answers)."""
        self._stop()
