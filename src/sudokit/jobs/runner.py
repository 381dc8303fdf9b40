"""Where the chunks of a job run: the :class:`Runner` protocol, and the in-process runner.

A task is a plain top-level function of one chunk (so it pickles by reference to a process or a Dask
worker) returning that chunk's answers. ``Runner.map`` yields the answers in the order of the chunks,
keeping at most ``window`` chunks in flight, so memory stays bounded whatever the input length.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TypeVar

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
