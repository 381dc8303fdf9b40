"""Running a job's chunks on a Dask cluster: ``--cluster tcp://HOST:PORT`` or ``--cluster local:N``.

:class:`ClusterRunner` is the :class:`~sudokit.jobs.runner.Runner` on :mod:`dask.distributed` (the optional
extra ``sudokit[cluster]``; imported only when a cluster is asked for):

* **Where.** ``tcp://HOST:PORT`` connects to a running scheduler (``dask scheduler``, workers started with
  ``dask worker tcp://HOST:PORT`` on any number of machines, each with the same sudokit installed);
  ``local:N`` starts a ``LocalCluster`` of N single-threaded worker processes on 127.0.0.1 for tests and
  demos, closed again by :meth:`ClusterRunner.close`; from the library, a ``dask.distributed.Client`` the caller
  made (``solve_many(..., cluster=client)``), left open by :meth:`ClusterRunner.close`. A bad address, a
  scheduler that does not answer within
  :data:`CONNECT_SECONDS`, a cluster without workers or workers running another sudokit version are one
  :class:`~sudokit.errors.SudokitError` line each.
* **Warm workers.** A worker plugin checks each worker runs this sudokit version, sets numba to one thread
  per task (the worker processes and threads are the parallelism), and compiles or loads the kernels once --
  the engine's by default, or the command's own warm-up instead (``open_runner``), and any added with
  :meth:`ClusterRunner.warm` -- before the first chunk; a worker that joins later warms up as it joins.
* **Quiet local workers.** The scheduler, nannies and workers of ``local:N`` share this machine's cores with
  the chunks: they run without Dask's statistical profiler and check the memory and the event loop less often
  (:data:`QUIET_LOCAL`), and at the end their processes are ended at once (:func:`_end_workers`).
* **What is shipped.** The task goes by reference (a top-level function of an installed module, pickled as
  its name, with its small settings), each chunk (puzzle text or arrays) by value, and its answers (output
  bytes, stderr lines, counts) come back by value.
* **Order and memory.** Chunks are submitted in input order and at most ``window`` of them are in flight
  (default four per worker); answers are yielded in input order as the oldest chunk finishes, so memory
  stays bounded.
* **Failures.** A task that raises is run again up to :data:`RETRIES` times (Dask's ``retries=``; the batch
  layer's tasks catch their own errors first); a worker that dies mid-chunk (killed, out of memory, machine
  lost) loses nothing: the scheduler runs its chunks elsewhere, up to Dask's ``allowed-failures`` times per
  chunk, after which the chunk is answered as :class:`~sudokit.jobs.batch.Failed` (the command marks its
  puzzles as failed and names their lines) and the job goes on. A lost scheduler stops the job with one line.
* **Time guard.** Once every chunk before it is answered, a chunk has :data:`CHUNK_SECONDS` to finish (the
  commands also give each puzzle its own time limit inside the task); past that it is answered as
  :class:`~sudokit.jobs.batch.Failed` instead of holding up every later line, and the process of the worker
  stuck in it is ended (its nanny starts a fresh one) so it does not keep a core.
* **Overhead.** :attr:`ClusterRunner.stats` adds up, per chunk, the time spent inside the task on the worker
  and the gap a worker waited between two chunks (scheduling, shipping the chunk and its answer, the
  window's refill): :meth:`ClusterStats.overhead` is that gap per chunk, printed on stderr by ``close``.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sudokit.errors import SudokitError
from sudokit.jobs.address import ADDRESS_FORMS, parse_address
from sudokit.words import plural

try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # no Dask: ClusterRunner says how to install it
    WorkerPlugin = object  # type: ignore[misc,assignment]

Chunk = TypeVar("Chunk")
Answer = TypeVar("Answer")

#: How long to wait for the scheduler to answer, and then for its first worker.
CONNECT_SECONDS = 10.0
#: How long a chunk may run once every chunk before it is answered (the per-chunk time guard).
CHUNK_SECONDS = 600.0
#: How many times a task that raised is run again.
RETRIES = 2
#: The kernel groups (:data:`sudokit.jit.GROUPS`) each worker compiles or loads before its first chunk (the
#: engine: every command uses it); a command adds its own warm-up with :meth:`ClusterRunner.warm`.
WARM_GROUPS: tuple[str, ...] = ("solver",)
#: Dask settings for the scheduler, nannies and workers of ``local:N``, whose event loops share the machine's
#: cores with the chunks: Dask's defaults wake each worker's event loop about 170 times a second (its
#: statistical profiler every 10 ms, the event loop's tick every 20 ms, the memory monitor every 100 ms), and
#: each wake-up takes the GIL from the chunk running in that worker's thread. Measured with py-spy on a
#: ``local:2`` rate: 7% of each worker's samples in its event loop, half of it the profiler. Nothing of
#: sudokit reads the profiles; the memory limits are still enforced, every second. And Dask's nannies start
#: their workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which also turns off glibc's sliding mmap threshold:
#: every array of 128 KiB or more became an mmap/munmap pair and fresh pages to fault in (strace: about 100
#: pairs a second in a worker rating, 3 in 8 s without it; the workers' system time 0.6-1.1 s per 200 puzzles,
#: 0.13 s without it, as in a ``--jobs 2`` worker). A worker of ``local:N`` lives for one command: it need not
#: hand freed memory back to the system so eagerly.
QUIET_LOCAL: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}
#: How long the ``LocalCluster`` of ``local:N`` waits for a worker that died to come back (its nanny starts a fresh
#: one) before it closes that nanny for good and goes on with one worker fewer: Dask's
#: ``distributed.deploy.lost-worker-timeout``, 15 s by default, which the cluster reads in this process when a
#: worker is lost, so it is raised here for the whole process (never lowered). A fresh worker loads numba and the
#: kernels before it registers: in CI at load 7 that took longer than 15 s, and the cluster lost a worker.
LOST_WORKER_SECONDS = 600.0


@dataclass
class ClusterStats:
    """Where a job's time went, added up over every chunk answered so far."""

    chunks: int = 0
    compute: float = 0.0  #: seconds inside the task, summed over the chunks (worker clocks)
    gaps: float = 0.0  #: seconds a worker waited between the end of one chunk and the start of its next
    gapped: int = 0  #: how many chunks followed another on the same worker (the gaps' count)
    wall: float = 0.0  #: seconds from the first submit to the last answer, over every ``map``
    _last: dict[str, float] = field(default_factory=dict, repr=False)  #: worker -> when its last chunk ended

    def add(self, worker: str, start: float, stop: float) -> None:
        """One chunk that ran on ``worker`` from ``start`` to ``stop`` (that worker's clock)."""
        self.chunks += 1
        self.compute += stop - start
        before = self._last.get(worker)
        if before is not None and start >= before:
            self.gaps += start - before
            self.gapped += 1
        if before is None or stop > before:
            self._last[worker] = stop

    def overhead(self) -> float:
        """Seconds per chunk a worker spends between chunks: Dask's overhead while the window keeps it fed."""
        return self.gaps / self.gapped if self.gapped else 0.0

    def describe(self, workers: int) -> str:
        """``12 chunks on 2 workers in 3.1 s (5.9 s in the tasks); Dask overhead 4.2 ms per chunk``."""
        overhead = (
            f"; Dask overhead {self.overhead() * 1000:.1f} ms per chunk"
            if self.gapped
            else " (too few chunks to measure the Dask overhead)"
        )
        return (
            f"{plural(self.chunks, 'chunk')} on {plural(workers, 'worker')} in {self.wall:.1f} s"
            f" ({self.compute:.1f} s in the tasks){overhead}"
        )


def _run(task: Callable[[Chunk], Answer], chunk: Chunk) -> tuple[Answer, str, float, float]:
    """On a worker: the task's answer, the worker's address, and when the task started and stopped."""
    from distributed import get_worker

    _one_thread()
    start = time.perf_counter()
    answer = task(chunk)
    stop = time.perf_counter()
    try:
        where = get_worker().address
    except ValueError:  # not on a worker (a test calling it directly)
        where = ""
    return answer, where, start, stop


#: What this process has warmed (a plugin set up again by a later ``warm`` or job finds it done).
_warmed: set[str] = set()

#: A warm-up step: a kernel group's name (:data:`sudokit.jit.GROUPS`) or a command's top-level function.
Step = str | Callable[[], object]


def _step_name(step: Step) -> str:
    if isinstance(step, str):
        return step
    return f"{getattr(step, '__module__', '')}.{getattr(step, '__qualname__', repr(step))}"


def warm_worker(steps: Iterable[Step], version: str) -> None:
    """On a worker: check its sudokit is ``version``, run numba on one thread per task (the workers' processes
    and threads are the parallelism), then run each warm-up step not run here before."""
    import os

    import sudokit
    from sudokit import jit

    if sudokit.__version__ != version:
        raise SudokitError(f"this worker has sudokit {sudokit.__version__}, the job was started with {version}")
    if "numba" not in sys.modules:
        os.environ["NUMBA_NUM_THREADS"] = "1"
    for step in steps:
        name = _step_name(step)
        if name not in _warmed:
            if isinstance(step, str):
                jit.warm(step)
            else:
                _one_thread()
                step()
            _warmed.add(name)


def _one_thread() -> None:
    """numba's threaded kernels on one thread in this thread (numba's setting is per thread)."""
    if "numba" in sys.modules:
        import numba

        numba.set_num_threads(1)


class _Warm(WorkerPlugin):
    """The Dask worker plugin that runs :func:`warm_worker` on each worker as it starts or joins. On the
    workers of ``local:N`` (``own``) it also makes the process ignore SIGINT: Ctrl-C in the terminal reaches
    the whole process group, and stopping those workers is the ``sudokit`` process's job (it keeps the lines
    written and prints the summary); without this each worker would print a traceback."""

    name = "sudokit-warm"

    def __init__(self, steps: tuple[Step, ...], version: str, own: bool = False):
        self.steps = steps
        self.version = version
        self.own = own

    def setup(self, worker: Any) -> None:
        if self.own:
            import signal
            import threading

            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)
        warm_worker(self.steps, self.version)


class ClusterRunner:
    """A :class:`~sudokit.jobs.runner.Runner` on a Dask cluster (see the module docstring)."""

    def __init__(
        self,
        address: Any,
        *,
        chunk_seconds: float = CHUNK_SECONDS,
        retries: int = RETRIES,
        connect_seconds: float = CONNECT_SECONDS,
        warm: Iterable[Step] = WARM_GROUPS,
        report: bool = True,
    ):
        given = None if isinstance(address, str) else address  # a Client the caller made (the library's cluster=)
        kind, number = ("client", 0) if given is not None else parse_address(address)
        self.address = _address_of(given) if given is not None else address.strip()
        self.chunk_seconds = chunk_seconds
        self.retries = retries
        self.report = report
        self.stats = ClusterStats()
        self.cluster: Any = None
        self.client: Any = None
        self._own_client = given is None  #: close the client at the end (not one the caller made)
        try:
            import distributed
        except ImportError:
            raise SudokitError(
                f"--cluster {self.address} needs Dask: pip install 'sudokit[cluster]' (dask[distributed])"
            ) from None
        if given is not None and not isinstance(given, distributed.Client):
            raise SudokitError(
                f"cluster: expected an address ({ADDRESS_FORMS}) or a dask.distributed.Client,"
                f" not {type(given).__name__}"
            )
        try:
            if kind == "local":
                self._start_local(distributed, number)
            elif given is not None:
                self.client = given
            else:
                self.client = self._connect(distributed, connect_seconds)
            self._wait_for_workers(connect_seconds)
            self._steps: tuple[Step, ...] = ()
            self.warm(*warm)
            self.workers = max(1, sum(self.client.nthreads().values()))
        except BaseException:
            self.close(quiet=True)
            raise

    def _start_local(self, distributed: Any, workers: int) -> None:
        import dask
        from dask.utils import parse_timedelta

        lost = "distributed.deploy.lost-worker-timeout"
        if (parse_timedelta(dask.config.get(lost, 0)) or 0) < LOST_WORKER_SECONDS:
            dask.config.set({lost: LOST_WORKER_SECONDS})
        try:
            with dask.config.set(QUIET_LOCAL):
                # the nannies hand their settings to every worker they start, also after a worker died: a deep
                # copy of them (a nanny's copy shares the sections of Dask's own, which the block puts back)
                settings = dask.config.merge(dask.config.config)
                self.cluster = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,  # no dashboard; the scheduler's small HTTP server on any free port:
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.CRITICAL,  # a worker's error comes back as one line, never a traceback
                    env={"NUMBA_NUM_THREADS": "1"},
                    config=settings,
                )
        except Exception as exc:  # no processes to be had, no port to bind
            why = _one_line(exc)
            raise SudokitError(f"--cluster {self.address}: the local cluster did not start ({why})") from None
        self.client = distributed.Client(self.cluster, set_as_default=False)

    def _connect(self, distributed: Any, seconds: float) -> Any:
        try:
            return distributed.Client(self.address, timeout=seconds, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            why = _one_line(exc)
            detail = "" if why.startswith("Timed out") else f" ({why})"
            raise SudokitError(
                f"--cluster {self.address}: no Dask scheduler answered within {seconds:g} s{detail};"
                " start one with `dask scheduler` and give its tcp:// address"
            ) from None

    def _wait_for_workers(self, seconds: float) -> None:
        try:
            self.client.wait_for_workers(1, timeout=seconds)
        except (OSError, TimeoutError):
            raise SudokitError(
                f"--cluster {self.address}: the scheduler has no workers (none joined within {seconds:g} s);"
                f" start them with `dask worker {self.address}`"
            ) from None

    def warm(self, *steps: Step) -> None:
        """Run these warm-up steps (kernel group names, or a command's top-level function that loads its
        kernels) once on every worker, now and on any worker that joins later; checks the workers' sudokit."""
        import sudokit

        self._steps += tuple(step for step in steps if step not in self._steps)
        try:
            plugin = _Warm(self._steps, sudokit.__version__, own=self.cluster is not None)
            replies = self.client.register_plugin(plugin, name="sudokit-warm")
        except Exception as exc:  # the plugin could not be unpickled: no sudokit on the workers
            raise SudokitError(
                f"--cluster {self.address}: the workers cannot run sudokit ({_one_line(exc)}); install the same"
                f" sudokit ({sudokit.__version__}) with its cluster extra on every worker"
            ) from None
        for worker, reply in sorted((replies or {}).items()):
            if isinstance(reply, dict) and reply.get("status") == "error":
                why = reply.get("exception_text") or reply.get("text") or reply.get("exception") or "failed"
                raise SudokitError(f"--cluster {self.address}: worker {worker} could not start: {_one_line(why)}")

    # -- the Runner protocol ------------------------------------------------------------------------------------
    workers: int

    def map(
        self, task: Callable[[Chunk], Answer], chunks: Iterable[Chunk], window: int | None = None
    ) -> Iterator[Answer]:
        """``task(chunk)`` for every chunk on the cluster, yielded in input order, at most ``window`` chunks in
        flight (default: four times :attr:`workers`, more than a local pool's two: each chunk's answer has a
        network round trip to make, and a slow chunk at the head of the window stalls the others only once
        the window is used up). Closing the iterator early cancels what has not finished."""
        if self.client is None:
            raise SudokitError(f"--cluster {self.address}: the runner is closed")
        limit = max(1, window if window is not None else 4 * self.workers)
        pending: deque[tuple[int, Any]] = deque()
        start = time.perf_counter()
        try:
            for index, chunk in enumerate(chunks):
                pending.append((index, self.client.submit(_run, task, chunk, retries=self.retries, pure=False)))
                if len(pending) >= limit:
                    yield self._answer(*pending.popleft())
            while pending:
                yield self._answer(*pending.popleft())
        finally:
            self.stats.wall += time.perf_counter() - start
            if pending and self.client is not None:
                self.client.cancel([future for _, future in pending])

    def _answer(self, index: int, future: Any) -> Any:
        """The answer of chunk ``index`` (0-based), waiting at most the time guard. A chunk past the guard,
        or one that every worker running it died of, is answered with :class:`~sudokit.jobs.batch.Failed`
        (the command answers its puzzles as failed and names their lines; the job goes on)."""
        from distributed import KilledWorker

        from sudokit.jobs.batch import Failed

        try:
            answer, worker, start, stop = future.result(timeout=self.chunk_seconds)
        except TimeoutError:
            where = self._stop_stuck(future)
            return Failed(f"the chunk ran longer than the cluster's time guard ({self.chunk_seconds:g} s){where}")
        except KilledWorker:
            return Failed("every Dask worker that ran the chunk died")
        except Exception as exc:
            if type(exc).__name__ in ("CancelledError", "FutureCancelledError"):
                raise SudokitError(
                    f"--cluster {self.address}: chunk {index + 1} was lost with the connection to the scheduler"
                ) from None
            raise
        self.stats.add(worker, start, stop)
        return answer

    def _stop_stuck(self, future: Any) -> str:
        """Forget the stuck chunk and end the worker process running it, so it does not keep a core (a kernel
        cannot be stopped any other way); its nanny starts a fresh one. Best effort: says what was done."""
        worker = None
        with contextlib.suppress(Exception):
            worker = self.client.run_on_scheduler(_processing_on, future.key)
        future.cancel()  # first, so the scheduler does not run the chunk again elsewhere
        if not worker:
            return ""
        try:
            self.client.run(_exit_worker, workers=[worker], wait=False)
        except Exception:
            return f" on worker {worker}"
        return f" on worker {worker}, which was restarted"

    def close(self, quiet: bool = False) -> None:
        """Disconnect (a Client the caller made stays open); end the workers of ``local:N`` (at once: see
        :func:`_end_workers`). Prints the overhead line when chunks ran (idempotent)."""
        client, cluster, self.client, self.cluster = self.client, self.cluster, None, None
        if client is not None and self._own_client:
            with contextlib.suppress(Exception):
                client.close()
        if cluster is not None:
            with contextlib.suppress(Exception):
                _end_workers(cluster)
            with contextlib.suppress(Exception):
                cluster.close()
        if self.report and not quiet and (client is not None) and self.stats.chunks:
            sys.stderr.write(f"sudokit: cluster {self.address}: {self.stats.describe(self.workers)}\n")

    def interrupted(self) -> None:
        """Ctrl-C: the command is ending. Dask's loggers in this process say nothing more: the closing cluster
        puts back the log levels it silenced, and comms that close late (a worker's batched stream) then log
        their closing at INFO, with a traceback (so may tornado's and asyncio's on its event loop)."""
        roots = ("distributed", "tornado", "asyncio")
        for name in [*roots, *logging.root.manager.loggerDict]:
            if name.split(".")[0] in roots:
                logger = logging.getLogger(name)
                logger.setLevel(logging.CRITICAL + 1)  # also for the loggers made later below these
                logger.disabled = True

    def __enter__(self) -> ClusterRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.client is None else f"{getattr(self, 'workers', 0)} workers"
        return f"ClusterRunner({self.address!r}, {state})"


def _end_workers(cluster: Any) -> None:
    """End the worker processes of a ``LocalCluster`` this runner started, at once, their nannies told first
    not to start new ones: by then every answer is in or given up, and the workers keep nothing. A graceful
    close (each worker's shutdown, then its interpreter's with every kernel loaded) kept the command waiting
    1.7 s at load 9; a local pool's workers are terminated the same way (:mod:`sudokit.jobs.processes`)."""
    import os
    import signal

    for nanny in list(cluster.workers.values()):
        pid = getattr(nanny, "pid", None)
        nanny.close_gracefully(reason="sudokit-done")  # no restart when its worker process ends
        if pid:
            with contextlib.suppress(OSError):  # (on Windows, SIGTERM ends the process too)
                os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))


def _address_of(client: Any) -> str:
    """The scheduler address of a Client, for messages (its repr when it has none)."""
    try:
        return str(client.scheduler.address)
    except Exception:  # noqa: BLE001 - only for messages
        return repr(client)


def _processing_on(key: Any, dask_scheduler: Any = None) -> str | None:
    """On the scheduler (Dask passes itself as ``dask_scheduler``): the worker running task ``key``, if any."""
    state = dask_scheduler.tasks.get(key)
    return state.processing_on.address if state is not None and state.processing_on is not None else None


async def _exit_worker() -> None:  # pragma: no cover - ends the worker process it runs in
    """On a worker, in its event loop beside the stuck task (a coroutine, so Dask need not wait for an answer
    that never comes): end the process now; its nanny restarts it."""
    import os

    os._exit(1)


def _one_line(what: object) -> str:
    text = " ".join(str(what).split())
    return text if len(text) <= 200 else text[:197] + "..."
