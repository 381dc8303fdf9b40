"""Run library calls in worker processes with a time limit, so one request cannot hang the server.

The numba engine holds the interpreter while it searches and the generator may search for long, so a
thread cannot be stopped once started. A process can: when a call overruns its limit, the pool's
processes are killed and a fresh pool takes the next request. Each pool serves one kind of work
(the app keeps one for quick calls and one for generating), so a generator that overruns never breaks
a solve running next to it.

Workers start with the ``spawn`` method (safe next to the server's threads) and warm up once: they
import the engine and solve one puzzle, which loads numba's compiled kernels from its cache.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from typing import Any

#: How long the first workers of a pool may take to start and warm up (a cold numba cache compiles).
STARTUP_SECONDS = 180


class WorkTimeout(Exception):
    """A call ran past its time limit (its worker was stopped)."""


class WorkerLost(Exception):
    """A worker died under a call (killed after another call overran, or crashed)."""


class WorkerPool:
    """A restartable pool of worker processes; :meth:`run` awaits one call with a time limit."""

    def __init__(self, workers: int, timeout: float, initializer: Callable[[], None] | None = None):
        self.workers = max(1, workers)
        self.timeout = timeout
        self.initializer = initializer
        self._pool: ProcessPoolExecutor | None = None
        self._ready: Future | None = None
        self._lock = threading.Lock()

    def _current(self) -> tuple[ProcessPoolExecutor, Future]:
        """The live pool and a call that completes once its first worker has warmed up."""
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=self.initializer,
                )
                # with "spawn" a worker starts per call while none is idle: this starts them all
                self._ready = [self._pool.submit(_nothing) for _ in range(self.workers)][0]
            return self._pool, self._ready

    def start(self) -> None:
        """Start the workers now (in the background) rather than on the first call."""
        self._current()

    async def run(self, fn: Callable[..., Any], *args: Any, timeout: float | None = None) -> Any:
        """``fn(*args)`` in a worker; raise :class:`WorkTimeout` after ``timeout`` seconds (default: the pool's).

        The time limit starts once a worker is warm: a first start that compiles numba's kernels (a cold
        cache) is waited for up to :data:`STARTUP_SECONDS` instead, so it cannot be mistaken for a hung call.
        """
        limit = self.timeout if timeout is None else timeout
        pool, ready = self._current()
        done, _ = await asyncio.wait([asyncio.wrap_future(ready)], timeout=STARTUP_SECONDS)
        if not done:
            self._discard(pool, kill=True)
            raise WorkTimeout(f"the worker processes did not start within {STARTUP_SECONDS} s")
        try:
            future = pool.submit(fn, *args)
        except (BrokenExecutor, RuntimeError):  # broken or shut down under us: start afresh once
            self._discard(pool)
            pool, _ = self._current()
            future = pool.submit(fn, *args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), limit)
        except TimeoutError:
            self._discard(pool, kill=True)
            raise WorkTimeout(f"gave up after {limit:g} s") from None
        except BrokenExecutor:
            self._discard(pool)
            raise WorkerLost("the worker stopped (another request overran its time limit); try again") from None

    def _discard(self, pool: ProcessPoolExecutor, kill: bool = False) -> None:
        """Forget ``pool`` (if still current); with ``kill``, stop its processes at once."""
        with self._lock:
            if self._pool is pool:
                self._pool = None
        if kill:
            # ProcessPoolExecutor has no public way to stop a running call: kill its processes.
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (pending calls are cancelled)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()
            pool.shutdown(wait=True, cancel_futures=True)


def _nothing() -> None:
    """A call that only makes a worker start."""
