"""Run library calls in worker processes with a time limit, so one request cannot hang the server.

The numba engine holds the interpreter while it searches and the generator may search for long, so a
thread cannot be stopped once started. A process can. The pool keeps a fixed number of workers, each a
process of its own with a pipe to the server, and follows three rules:

- A call waits for a free worker (at most ``queue_timeout`` seconds, with at most ``max_waiting`` calls
  waiting), and only then does its own time limit start: time spent in the queue never counts against it.
  A call that finds no worker in time is refused with :class:`WorkerBusy`.
- A worker goes back to the free list only after it has answered its call. Any other end (the call ran
  past its limit, the request was cancelled, the process died) kills that worker alone, and a fresh one is
  started in its place; calls running on the other workers carry on.
- Workers start with the ``spawn`` method (safe next to the server's threads) and warm up once before they
  take calls (``initializer``: it loads numba's cached kernels, or compiles them on a cold cache), so a
  warm-up never spends a call's time limit.

``concurrent.futures.ProcessPoolExecutor`` cannot do this: it has no way to stop one running call, and a
worker killed under it breaks the whole executor and every call in flight on it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import pickle
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

#: How long a worker may take to start and warm up (a cold numba cache compiles every kernel).
STARTUP_SECONDS = 180
#: How many calls may wait for a worker at once, by default; more are refused at once.
MAX_WAITING = 256

log = logging.getLogger("sudokit.web")


class WorkRefused(Exception):
    """A call the pool did not carry out: the server answers 503 with this message."""


class WorkTimeout(WorkRefused):
    """A call ran past its time limit (its worker was killed and replaced)."""


class WorkerLost(WorkRefused):
    """The worker died under a call (it crashed or was killed from outside)."""


class WorkerBusy(WorkRefused):
    """No worker came free in time, or too many calls are waiting already."""


class _Worker:
    """One worker process and the server's end of its pipe. Its blocking methods run in a thread."""

    def __init__(self, context, initializer: Callable[[], None] | None):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, initializer), daemon=True, name="sudokit-worker")
        self.process.start()
        child.close()

    def wait_ready(self, seconds: float) -> bool:
        """Block until the worker has warmed up; False when it died or took longer than ``seconds``."""
        try:
            return self.conn.poll(seconds) and self.conn.recv() == "ready"
        except (EOFError, OSError):
            return False

    def call(self, fn: Callable[..., Any], args: tuple, limit: float) -> tuple[str, Any]:
        """Send one call and block for its answer: ``("ok", value)``, ``("error", exception)``, or
        ``("timeout", None)`` / ``("lost", None)`` when the worker overran ``limit`` or died."""
        try:
            self.conn.send((fn, args))
            if not self.conn.poll(limit):
                return "timeout", None
            return self.conn.recv()
        except (EOFError, OSError):
            return "lost", None

    def kill(self) -> None:
        """Stop the process at once (whatever it is doing) and close the pipe."""
        self.process.kill()
        self.process.join()
        self.conn.close()


def _serve(conn, initializer: Callable[[], None] | None) -> None:  # pragma: no cover - runs in the worker
    """The worker's loop: warm up, say ``ready``, then answer calls until the server closes the pipe.

    Ctrl-C in the terminal reaches the workers too (they share the server's process group): they ignore
    it, since the server stops them itself, so no traceback of a call cut short is printed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        try:
            initializer()
        except Exception as exc:  # a failed warm-up only makes the first calls slower
            print(f"sudokit: note: worker warm-up failed ({type(exc).__name__}: {exc})", file=sys.stderr)
    conn.send("ready")
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer = ("ok", fn(*args))
        except Exception as exc:
            exc.add_note("in the worker process:\n" + traceback.format_exc().rstrip())
            answer = ("error", _sendable(exc))
        try:
            conn.send(answer)
        except Exception as exc:  # an answer that does not pickle: say so instead
            conn.send(("error", RuntimeError(f"{fn.__name__} returned what cannot be sent back: {exc}")))


def _sendable(exc: Exception) -> Exception:  # pragma: no cover - runs in the worker
    """``exc`` if it survives the trip through the pipe, else a RuntimeError that says what it was."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        error = RuntimeError(f"{type(exc).__name__}: {exc}")
        error.__notes__ = getattr(exc, "__notes__", [])
        return error
    return exc


class WorkerPool:
    """A fixed number of worker processes; :meth:`run` awaits one call in one of them, with a time limit."""

    def __init__(
        self,
        workers: int,
        timeout: float,
        initializer: Callable[[], None] | None = None,
        queue_timeout: float | None = None,
        max_waiting: int = MAX_WAITING,
    ):
        self.workers = max(1, workers)
        self.timeout = timeout
        self.queue_timeout = timeout if queue_timeout is None else queue_timeout
        self.max_waiting = max_waiting
        self.initializer = initializer
        self._context = multiprocessing.get_context("spawn")
        # each worker has one blocking job at a time in these threads (its start or its call); the pool
        # has twice as many threads as workers, so a job never waits for a thread
        self._threads: ThreadPoolExecutor | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle: list[_Worker] = []
        self._waiters: collections.deque[asyncio.Future] = collections.deque()
        self._all: set[_Worker] = set()
        self._all_lock = threading.Lock()
        self._warm = False
        self._closing = threading.Event()  # set by close(): wakes a start that waits to try again

    # ---- starting and replacing workers (blocking parts run in the pool's threads) -----------
    def start(self) -> None:
        """Start the workers now (they warm up in the background); call it from the event loop.

        The pool serves one event loop at a time. When it is used from a new one (the last one has
        ended, as with successive ``asyncio.run`` calls), its workers carry over to the new loop."""
        loop = asyncio.get_running_loop()
        if self._loop is not None and self._loop is not loop:
            self._loop = loop
            self._waiters.clear()  # they belonged to the ended loop
        if self._loop is None:
            self._loop = loop
            self._threads = ThreadPoolExecutor(2 * self.workers, thread_name_prefix="sudokit-pool")
            for _ in range(self.workers):
                self._submit(self._start_one)

    def _submit(self, job: Callable[[], None]) -> None:
        if self._closed or self._threads is None:
            return
        with contextlib.suppress(RuntimeError):  # closed meanwhile
            self._threads.submit(job)

    def _start_one(self) -> None:
        """Start a worker and hand it to the loop once warm. A start that fails is tried again after a
        pause that doubles each time (up to a minute), so a worker that cannot start does not spin."""
        pause = 1.0
        while not self._closed:
            try:
                worker = _Worker(self._context, self.initializer)
            except Exception as exc:  # no process could be made (out of memory, out of processes)
                log.error("sudokit: could not start a worker process: %s", exc)
            else:
                with self._all_lock:
                    self._all.add(worker)
                if self._closed:  # close() may have listed the workers before this one was added
                    self._drop(worker)
                    return
                if worker.wait_ready(STARTUP_SECONDS) and not self._closed:
                    assert self._loop is not None
                    try:
                        self._loop.call_soon_threadsafe(self._arrived, worker)
                        return
                    except RuntimeError:  # the loop has closed
                        pass
                elif not self._closed:
                    worker.process.join(1)
                    code = worker.process.exitcode
                    why = f"did not warm up in {STARTUP_SECONDS} s" if code is None else f"exited with status {code}"
                    log.error("sudokit: a worker process %s; starting another in %g s", why, pause)
                self._drop(worker)
            if self._closing.wait(pause):
                return
            pause = min(60.0, 2 * pause)

    def _arrived(self, worker: _Worker) -> None:
        self._warm = True
        self._release(worker)

    def _drop(self, worker: _Worker) -> None:
        """Kill one worker and forget it."""
        worker.kill()
        with self._all_lock:
            self._all.discard(worker)

    def _renew(self, worker: _Worker, call: Future) -> None:
        """Kill ``worker`` now and start its replacement once ``call`` (its thread) is done with the pipe."""
        worker.process.kill()

        def replace(_: Future) -> None:
            def job() -> None:
                self._drop(worker)
                self._start_one()

            self._submit(job)

        call.add_done_callback(replace)

    # ---- handing workers to calls (all on the event loop's thread) ------------------------
    def _release(self, worker: _Worker) -> None:
        """A free worker: to the longest-waiting call, or onto the free list."""
        if self._closed:
            self._drop(worker)
            return
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _withdraw(self, waiter: asyncio.Future) -> None:
        """A call stops waiting: if a worker was handed to it meanwhile, pass that worker on."""
        if waiter.done() and not waiter.cancelled():
            self._release(waiter.result())
        else:
            waiter.cancel()
            with contextlib.suppress(ValueError):
                self._waiters.remove(waiter)

    async def _acquire(self) -> _Worker:
        if self._idle:
            return self._idle.pop()
        if len(self._waiters) >= self.max_waiting:
            raise WorkerBusy(f"busy: the queue of calls waiting for a worker is full ({self.max_waiting}); try again")
        # while no worker has warmed up yet (the first start, maybe compiling), wait for the start-up
        wait = self.queue_timeout if self._warm else STARTUP_SECONDS
        assert self._loop is not None
        waiter = self._loop.create_future()
        self._waiters.append(waiter)
        try:
            await asyncio.wait([waiter], timeout=wait)
        except BaseException:
            self._withdraw(waiter)
            raise
        if not waiter.done():
            self._withdraw(waiter)
            raise WorkerBusy(f"busy: no worker came free within {wait:g} s; try again")
        return waiter.result()

    async def run(self, fn: Callable[..., Any], *args: Any, timeout: float | None = None) -> Any:
        """``fn(*args)`` in a worker; its time limit (``timeout``, default the pool's) starts once a worker
        has taken the call. Raises :class:`WorkTimeout`, :class:`WorkerLost` or :class:`WorkerBusy`
        (all :class:`WorkRefused`), or the exception ``fn`` raised."""
        if self._closed:
            raise WorkerBusy("the server is shutting down")
        self.start()
        limit = self.timeout if timeout is None else timeout
        worker = await self._acquire()
        assert self._threads is not None
        call = self._threads.submit(worker.call, fn, args, limit)
        try:
            kind, value = await asyncio.wrap_future(call)
        except BaseException:  # the request was cancelled mid-call: its worker may still be busy
            self._renew(worker, call)
            raise
        if kind in ("ok", "error"):
            self._release(worker)
        else:  # overran or died: this worker alone is replaced, calls on the others carry on
            self._renew(worker, call)
        if kind == "ok":
            return value
        if kind == "error":
            raise value
        if kind == "timeout":
            raise WorkTimeout(f"gave up after {limit:g} s")
        raise WorkerLost("the worker process died during the call; try again")

    @property
    def _closed(self) -> bool:
        return self._closing.is_set()

    def close(self) -> None:
        """Kill every worker; calls still waiting are refused."""
        self._closing.set()
        with self._all_lock:
            workers = list(self._all)
            self._all.clear()
        for worker in workers:  # their pipes close when the threads waiting on them are done
            worker.process.kill()
            worker.process.join()
        self._idle.clear()
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_exception(WorkerBusy("the server is shutting down"))
        self._waiters.clear()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
