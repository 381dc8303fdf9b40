"""The library's way onto the batch layer: ``jobs=`` and ``cluster=`` for :func:`~sudokit.engine.solve_many` and
:func:`rate_many`.

:func:`in_order` maps a task over chunks on the runner :func:`~sudokit.jobs.runner.open_runner` gives (this
process, ``jobs`` local processes, or a Dask cluster: an address, ``local:N``, or a ``dask.distributed.Client``
the caller made) and yields the answers in input order, at most a window of chunks in flight -- the same
machinery as the commands' ``--jobs`` and ``--cluster``. A task that raises is run again once; when it fails
again (or the workers running it die) :func:`in_order` raises :class:`~sudokit.errors.SudokitError` naming the
chunk's puzzles: a library call never drops a result silently.

:func:`rate_one` is how ``sudokit rate FILE`` rates each puzzle of its chunks, and :func:`rate_many` the same
over many puzzles.

As with :mod:`multiprocessing`, a script that asks for ``jobs > 1`` is imported again by each worker process:
keep its work under ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from sudokit.errors import SudokitError, expect_int
from sudokit.grid import Candidates, Grid

if TYPE_CHECKING:
    from sudokit.constraints import VariantPuzzle
    from sudokit.logic.rating import Rating

#: Puzzles per chunk of :func:`rate_many` and ``sudokit rate`` on local processes: few, so that the workers share
#: out a heavy tail of hard puzzles.
RATE_CHUNK = 4
#: Puzzles per chunk on a Dask cluster, where each chunk also costs the scheduler and the client ~9 ms of CPU and a
#: worker a ~6 ms gap (measured on ``local:2``, 367 chunks of 4 for top1465): twice as many still leave a chunk
#: well under a second, so the stealing of chunks still shares out the tail.
RATE_CLUSTER_CHUNK = 8
#: Chunks in flight per worker when rating: a hard puzzle can take a hundred times the median, and while it holds
#: the head of the window (answers come in input order) the other workers go on only as far as the window reaches.
RATE_WINDOW = 16


def rate_chunk(cluster: Any = None) -> int:
    """Puzzles per chunk when rating, on a cluster (``cluster`` given) or on local processes."""
    return RATE_CLUSTER_CHUNK if cluster is not None else RATE_CHUNK


def in_order(
    task: Callable[[Any], Any],
    chunks: Iterable[Any],
    *,
    jobs: int = 1,
    cluster: Any = None,
    warm: Callable[[], object] | None = None,
    window_per_worker: int | None = None,
    name: Callable[[Any], str] = lambda chunk: "a chunk",
) -> Iterator[Any]:
    """``task(chunk)`` for every chunk, in input order: here when ``jobs`` is 1 and there is no ``cluster``
    (an exception goes to the caller as it is), else on ``jobs`` processes or the cluster (``warm`` run once in
    each worker first; ``window_per_worker`` chunks in flight per worker, default the runner's). A chunk that
    fails twice raises :class:`SudokitError` with ``name(chunk)`` and why."""
    from sudokit.jobs.batch import Failed, Guarded
    from sudokit.jobs.runner import open_runner

    jobs = expect_int(jobs, "jobs")
    if jobs == 1 and cluster is None:
        yield from map(task, chunks)
        return
    kept: deque = deque()

    def fed() -> Iterator[Any]:
        for chunk in chunks:
            kept.append(chunk)
            yield chunk

    with open_runner(jobs, cluster, warm, report=False) as runner:
        window = window_per_worker * runner.workers if window_per_worker else None
        answers = runner.map(Guarded(task), fed(), window)
        try:
            for answer in answers:
                chunk = kept.popleft()
                if isinstance(answer, Failed):
                    raise SudokitError(answer.why if answer.user else f"{name(chunk)}: failed: {answer.why}")
                yield answer
        finally:
            close = getattr(answers, "close", None)  # (a generator: cancels the chunks in flight)
            if close is not None:
                close()


# ---- rating -----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NotRated:
    """A puzzle :func:`rate_many` does not rate, and why: it cannot be read, or it is not proper (an empty grid,
    no solution, several), as ``sudokit rate`` says ``not rated: WHY``."""

    why: str


def rate_one(
    start: Grid | Candidates | VariantPuzzle, extras: bool = True, techniques: Any = None
) -> Rating | NotRated:
    """``start`` rated as ``sudokit rate`` rates each puzzle of a file: :func:`~sudokit.logic.rating.rate`,
    when it is a proper puzzle (``extras``: Norvig's level and the engine's guesses too)."""
    from sudokit.cli.logic_input import why_not_rated
    from sudokit.logic.rating import not_proper, rate

    why = why_not_rated(start) if isinstance(start, (Grid, Candidates)) else not_proper(start)
    if why is not None:
        return NotRated(why)
    return rate(start, extras=extras, techniques=techniques)


def warm_rating() -> None:
    """Load the rating's first kernels (singles, the engine's counter) where the chunks will run: a batch rates
    at kernel speed, where one puzzle runs the techniques' plain forms (``sudokit.jit.either``)."""
    from sudokit import jit
    from sudokit.engine.api import solve_compiled
    from sudokit.formats import parse_grid
    from sudokit.logic.rating import rate

    with jit.forms("kernel"):
        rate(_WARM_PUZZLE, extras=True)
    # the engine's counter too (the uniqueness check and the guess count of every puzzle): one puzzle runs its
    # plain port until the kernel is loaded, which a batch should not wait for
    solve_compiled(parse_grid(_WARM_PUZZLE))
    # the plain forms' budget for one puzzle is spent: a batch runs every kernel the cache holds from the start
    # (before, the techniques beyond singles ran their plain forms for the batch's first second of CPU)
    jit.charge(jit.PLAIN_SECONDS)


#: A puzzle solved by singles: rating it loads the kernels every rating uses.
_WARM_PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def _rate_chunk(extras: bool, techniques: Any, chunk: tuple[int, list]) -> list[Rating | NotRated]:
    """A chunk of :func:`rate_many` (its first puzzle's index, its puzzles), rated one by one."""
    from sudokit.logic.explain import read_start

    out: list[Rating | NotRated] = []
    for puzzle in chunk[1]:
        if isinstance(puzzle, str):
            try:
                puzzle = read_start(puzzle)
            except SudokitError as exc:
                out.append(NotRated(str(exc)))
                continue
        out.append(rate_one(puzzle, extras, techniques))
    return out


def rate_many(
    puzzles: Iterable[str | Grid | Candidates | VariantPuzzle],
    *,
    extras: bool = True,
    techniques: Any = None,
    jobs: int = 1,
    cluster: Any = None,
    chunk: int | None = None,
) -> Iterator[Rating | NotRated]:
    """Rate many puzzles, yielding for each, in input order, its :class:`~sudokit.logic.rating.Rating` (what
    :func:`~sudokit.logic.rating.rate` gives) or :class:`NotRated` (a line that cannot be read, an empty grid,
    no solution, several): the ratings ``sudokit rate FILE`` prints.

    ``puzzles``: puzzle strings (a grid line, a pencilmark line, an f-puzzles / SudokuPad link), Grids,
    Candidates or VariantPuzzles. ``extras``: Norvig's level and the engine's guesses too (``--fast`` is
    ``extras=False``); ``techniques``: the technique set (a comma list of names and presets, or a
    :class:`~sudokit.logic.registry.TechniqueSet`). ``jobs``: processes on this machine; ``cluster``: a Dask
    cluster (an address ``tcp://HOST:8786``, ``local:N``, or a ``dask.distributed.Client``; the
    ``sudokit[cluster]`` extra) -- the same ratings either way, ``chunk`` puzzles per task (default
    :func:`rate_chunk`)."""
    from sudokit.logic.registry import technique_set

    chosen = technique_set(techniques)  # an unknown name is an error before any work
    size = expect_int(rate_chunk(cluster) if chunk is None else chunk, "chunk", high=2**31)
    jobs = expect_int(jobs, "jobs")
    answers = in_order(
        functools.partial(_rate_chunk, extras, chosen),
        _numbered(iter(puzzles), size),
        jobs=jobs,
        cluster=cluster,
        warm=warm_rating,
        window_per_worker=RATE_WINDOW,
        name=lambda c: _puzzles(c[0], len(c[1])),
    )
    for answer in answers:
        yield from answer


def _numbered(source: Iterator, size: int) -> Iterator[tuple[int, list]]:
    """``(index of the first, items)`` ``size`` items at a time."""
    start = 0
    while part := list(islice(source, size)):
        yield start, part
        start += len(part)


def _puzzles(start: int, n: int) -> str:
    """``puzzles 4-7`` (0-based, as the library counts them) or ``puzzle 4``."""
    return f"puzzle {start}" if n == 1 else f"puzzles {start}-{start + n - 1}"
