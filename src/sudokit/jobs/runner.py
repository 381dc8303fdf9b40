"""Where the chunks of a job run: the :class:`Runner` protocol, and the in-process runner.

A task is a plain top-level function of one chunk (so it pickles by reference to a process or a Dask
worker) returning that chunk's answers. ``Runner.map`` yields the answers in the order of the chunks,
keeping at most ``window`` chunks in flight, so memory stays bounded whatever the input length.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

Chunk = TypeVar("Chunk")
Answer = TypeVar("Answer")


class Runner(Protocol):
    """Runs the chunks of a job somewhere; answers come back in input order."""

    #: How many chunks can run at once (processes, Dask worker threads).
    workers: int

    def map(
        self, task: Callable[[Chunk], Answer], chunks: Iterable[Chunk], window: int | None = None
    ) -> Iterator[Answer]:
        """``task(chunk)`` for every chunk, yielded in input order, at most ``window`` chunks in flight
        (default: twice :attr:`workers`). Closing the iterator early cancels what has not started."""
        ...

    def close(self) -> None:
        """Release the workers (idempotent)."""
        ...


class InProcess:
    """Every chunk in this process, one after another: ``--jobs 1``."""

    workers = 1

    def map(
        self, task: Callable[[Chunk], Answer], chunks: Iterable[Chunk], window: int | None = None
    ) -> Iterator[Answer]:
        for chunk in chunks:
            yield task(chunk)

    def close(self) -> None:
        pass


@contextmanager
def open_runner(
    jobs: int = 1, cluster: Any = None, warm: Callable[[], object] | None = None, report: bool = True
) -> Iterator[Runner]:
    """The runner a command's ``--jobs`` / ``--cluster`` options ask for, closed on leaving the block.

    ``cluster`` (an address such as ``tcp://host:8786``, ``local:N``, or -- from the library -- a
    ``dask.distributed.Client``, which is left open) takes a Dask cluster
    (:class:`sudokit.jobs.cluster.ClusterRunner`, the ``sudokit[cluster]`` extra; ``report``: its overhead line
    on stderr at the end); else ``jobs`` > 1 a pool of local processes
    (:class:`~sudokit.jobs.processes.Processes`); else this process (:class:`InProcess`). ``warm`` loads the
    command's kernels once where the chunks will run (in each worker; here for InProcess); on a cluster it
    replaces the runner's default warm-up (the engine's kernels), as in a local pool."""
    runner: Runner
    if cluster is not None:
        import importlib

        if isinstance(cluster, str):  # a mistyped address is refused before Dask is imported
            from sudokit.jobs.address import parse_address

            parse_address(cluster)

        try:
            cluster_runner = importlib.import_module("sudokit.jobs.cluster").ClusterRunner
        except ImportError as exc:
            from sudokit.errors import SudokitError

            missing = getattr(exc, "name", None) or ""
            why = "this sudokit has no cluster runner" if missing == "sudokit.jobs.cluster" else str(exc)
            raise SudokitError(f"--cluster {cluster}: {why} (pip install 'sudokit[cluster]')") from None
        # the command's warm-up in place of the runner's default (the whole engine): the workers load what the
        # command needs and no more, as a local pool's do, and are warmed in one round trip
        steps = {} if warm is None else {"warm": (warm,)}
        runner = cluster_runner(cluster, report=report, **steps)
    elif jobs > 1:
        from sudokit.jobs.processes import Processes

        runner = Processes(jobs, warm)
    else:
        runner = InProcess()
        if warm is not None:
            warm()
    try:
        yield runner
    finally:
        runner.close()
