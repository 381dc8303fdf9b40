"""Many puzzles at once: chunks of a ``(N, n_cells)`` uint8 array through the kernels, streamed.

``solve_many`` reads its input ``chunk`` puzzles at a time, solves each chunk inside numba (on
``workers`` threads with ``prange`` when asked) and yields one :class:`Batch` of arrays per chunk, in input
order. Memory stays bounded by the chunk size whatever the input length.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from types import ModuleType
from typing import Any

import numpy as np

from sudokit.engine.api import budget_ticks, cell_values, is_variant_chunk, variant_chunk
from sudokit.engine.clock import now
from sudokit.engine.kernel import BROKEN, INVALID, MULTIPLE, NO_SOLUTION, SOLVED, TIMEOUT
from sudokit.engine.tables import tables
from sudokit.errors import SudokitError, expect_int, expect_seconds
from sudokit.geometry import Geometry, for_cells, standard
from sudokit.grid import Grid

#: Status code of a line that could not be read (wrong length or a stray character).
UNREADABLE = 4
STATUS_NAMES = {SOLVED: "solved", NO_SOLUTION: "no_solution", MULTIPLE: "multiple", INVALID: "invalid"}
STATUS_NAMES[UNREADABLE] = "unreadable"
STATUS_NAMES[TIMEOUT] = "timeout"


@dataclass
class Batch:
    """The results of one chunk: row ``i`` belongs to input number ``start + i``.

    ``status`` holds the codes of :data:`STATUS_NAMES`; ``solutions`` rows are zero unless a solution was
    found (for ``multiple`` the row is the first solution found); ``counts`` are solutions found up to the limit;
    ``ticks`` each puzzle's solve time in cycle-counter ticks (see :meth:`seconds`), or the chunk's average when
    it was timed as a whole (``timing="batch"``, the default of :func:`solve_many`).
    """

    start: int
    puzzles: np.ndarray
    solutions: np.ndarray
    status: np.ndarray
    counts: np.ndarray
    guesses: np.ndarray
    nodes: np.ndarray
    backtracks: np.ndarray
    ticks: np.ndarray

    def __len__(self) -> int:
        return len(self.status)

    def seconds(self) -> np.ndarray | None:
        """Each puzzle's solve time in seconds (None on processors whose cycle counter cannot be read)."""
        from sudokit.engine.clock import seconds_per_tick

        factor = seconds_per_tick()
        return self.ticks * factor if factor > 0 else None

    @staticmethod
    def concat(batches: Iterable[Batch]) -> Batch:
        """One batch holding several, in order (for callers that want whole arrays)."""
        parts = list(batches)
        if not parts:
            empty = np.zeros((0, 81), dtype=np.uint8)
            z = np.zeros(0, dtype=np.int64)
            return Batch(0, empty, empty.copy(), np.zeros(0, dtype=np.int8), z, z, z, z, z)
        if len(parts) == 1:  # one chunk: its arrays as they are (no copy)
            return parts[0]
        fields = ("puzzles", "solutions", "status", "counts", "guesses", "nodes", "backtracks", "ticks")
        joined = {f: np.concatenate([getattr(p, f) for p in parts]) for f in fields}
        return Batch(parts[0].start, **joined)


def _lookup(geometry: Geometry) -> np.ndarray:
    """Byte -> cell value table for puzzle strings: symbols (either case), ``.``/``0`` empty, 255 stray (the
    readers' table, :func:`sudokit.formats.text.byte_table`)."""
    from sudokit.formats.text import byte_table

    return byte_table(geometry.size)


def strings_to_array(lines: list[str], geometry: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """Puzzle strings to a ``(k, n_cells)`` uint8 array and a mask of the unreadable rows."""
    n_cells = geometry.n_cells
    out = np.zeros((len(lines), n_cells), dtype=np.uint8)
    bad = np.zeros(len(lines), dtype=bool)
    table = _lookup(geometry)
    stripped = [line.strip() for line in lines]
    if all(len(x) == n_cells for x in stripped):
        raw = "".join(stripped).encode("ascii", "replace")
        if len(raw) == n_cells * len(lines):  # no multi-byte characters: convert all rows at once
            out = table[np.frombuffer(raw, dtype=np.uint8)].reshape(len(lines), n_cells)
            bad = (out == 255).any(axis=1)
            out[bad] = 0
            return out, bad
    for i, line in enumerate(stripped):
        raw = line.encode("ascii", "replace")
        if len(raw) != n_cells:
            bad[i] = True
            continue
        row = table[np.frombuffer(raw, dtype=np.uint8)]
        if (row == 255).any():
            bad[i] = True
            continue
        out[i] = row
    return out, bad


_STANDARD9 = standard()
_NO_ROWS = np.zeros(0, dtype=np.intp)


def _is_classic9(geometry: Geometry) -> bool:
    """The plain 9x9 board (rows, columns, 3x3 boxes), which the bitboard kernel serves. The shared instance is
    recognised first (calling ``standard()`` here cost about a microsecond, twice per batch)."""
    return geometry is _STANDARD9 or (
        geometry.size == 9 and geometry.is_standard and geometry.box_rows == 3 and geometry == _STANDARD9
    )


@functools.cache
def _kernel9() -> ModuleType:
    """The bitboard kernel's module, imported on first use (it builds tables and loads numba code); a
    function-level import on every batch cost about a microsecond."""
    from sudokit.engine import kernel9

    return kernel9


#: Batches smaller than this stay on one thread: starting threads costs more than it gains.
PARALLEL_FROM = 1024


def solve_chunk(
    puzzles: np.ndarray,
    geometry: Geometry,
    limit: int = 2,
    workers: int = 1,
    start: int = 0,
    time_limit: float | None = None,
    timing: str = "batch",
) -> Batch:
    """Solve every row of a ``(k, n_cells)`` uint8 array; returns one :class:`Batch` whose solutions have all
    been checked against the rules (on the plain 9x9 board by the kernel itself, :func:`kernel9.check9
    <sudokit.engine.kernel9.check9>`, as it writes each answer; elsewhere by :func:`verify`). ``time_limit``:
    seconds per puzzle (status ``timeout``). ``timing``: ``"puzzle"`` times each puzzle in the kernel (the
    ``ticks`` column); ``"batch"`` (the default, a little cheaper) times the chunk and gives each puzzle the
    chunk's average."""
    limit = expect_int(limit, "limit")
    workers = expect_int(workers, "workers")
    budget = budget_ticks(expect_seconds(time_limit))
    if timing not in ("batch", "puzzle"):
        raise SudokitError(f"timing must be 'batch' or 'puzzle', not {timing!r}")
    puzzles = np.ascontiguousarray(puzzles, dtype=np.uint8)
    k, n_cells = puzzles.shape
    if n_cells != geometry.n_cells:
        raise SudokitError(f"rows have {n_cells} cells but the geometry has {geometry.n_cells}")
    solutions = np.zeros((k, n_cells), dtype=np.uint8)  # (np.zeros_like cost a microsecond more)
    status = np.zeros(k, dtype=np.int8)
    counts = np.zeros(k, dtype=np.int64)
    per_puzzle = timing == "puzzle"
    stats = np.zeros((k, 4 if per_puzzle else 3), dtype=np.int64)  # guesses, nodes, backtracks[, ticks]
    workers = workers if k >= PARALLEL_FROM else 1
    fused = _is_classic9(geometry)  # the bitboard kernel checks each answer as it writes it
    if per_puzzle or not k:
        _search(puzzles, geometry, limit, workers, (solutions, status, counts, stats), budget)
        ticks = stats[:, 3] if per_puzzle else np.zeros(k, dtype=np.int64)
    else:
        t0 = now()
        _search(puzzles, geometry, limit, workers, (solutions, status, counts, stats), budget)
        ticks = np.empty(k, dtype=np.int64)
        ticks.fill((now() - t0) // k)  # (np.full cost half a microsecond more)
    if fused:  # a status byte BROKEN is a wrong answer (status.max() cost 1.3 us a batch, this 0.1 us)
        wrong = np.flatnonzero(status == BROKEN) if BROKEN in status.tobytes() else _NO_ROWS
    else:
        found = (status == SOLVED) | (status == MULTIPLE)
        wrong = np.flatnonzero(found & ~verify(puzzles, solutions, geometry, workers))
    if len(wrong):
        from sudokit.result import UncheckedSolutionError

        row = int(wrong[0])
        raise UncheckedSolutionError(f"the engine returned a grid that breaks the rules for puzzle {start + row}")
    return Batch(start, puzzles, solutions, status, counts, stats[:, 0], stats[:, 1], stats[:, 2], ticks)


def _search(puzzles: np.ndarray, geometry: Geometry, limit: int, workers: int, out: tuple, budget: int = 0) -> None:
    """Run the kernel that serves ``geometry`` (the bitboard kernel on the plain 9x9 board, else the general
    one) on every row, on ``workers`` threads; ``out`` = (solutions, status, counts, stats) to fill, ``stats``
    with a fourth column when each puzzle is to be timed; ``budget`` is each puzzle's time in ticks (0: no
    limit)."""
    k = len(puzzles)
    if not k:
        return
    serial: Callable[..., Any]  # either kernel's row loop (their argument lists differ)
    if _is_classic9(geometry):
        kernel9 = _kernel9()
        args = (limit, budget, *out, *kernel9.table_args())
        serial, blocks = kernel9.search9_rows, "search9_blocks"
    else:
        from sudokit.engine import kernel

        args = (*tables(geometry).args(), limit, budget, *out)
        serial, blocks = kernel.search_rows, "search_blocks"
    if workers <= 1:
        serial(puzzles, 0, k, *args)
        return
    parallel, n_blocks = _on_threads(workers)
    getattr(parallel, blocks)(puzzles, n_blocks, *args)


def _on_threads(workers: int):
    """The threaded kernels (:mod:`sudokit.engine.parallel`) with numba's pool set to ``workers`` threads, and
    how many blocks of rows to split a batch into: a power of two, at least 64 a thread, so that the blocks
    dealt to each thread (:func:`sudokit.engine.parallel.dealt`) spread over the whole batch (top1465 on two
    threads, modelled: 1.92-1.94x with 64 blocks, 1.97-1.98x with 128)."""
    import numba

    from sudokit.engine import parallel

    threads = min(workers, numba.config.NUMBA_NUM_THREADS)  # more workers than threads would only wait
    numba.set_num_threads(threads)
    return parallel, 1 << max(7, (threads * 64 - 1).bit_length())


def warm_up(geometry: Geometry, workers: int = 1) -> None:
    """Compile, or load from numba's disk cache, the kernels that batches on ``geometry`` use (the threaded
    one too when ``workers > 1``), so that timings leave that out."""
    empty = np.zeros((1, geometry.n_cells), dtype=np.uint8)
    solve_chunk(empty, geometry, limit=1)
    if workers > 1:
        out = (np.zeros_like(empty), np.zeros(1, np.int8), np.zeros(1, np.int64), np.zeros((1, 4), np.int64))
        _search(empty, geometry, 1, workers, out)
        parallel, _ = _on_threads(workers)
        parallel.check_blocks(empty, empty, tables(geometry).units, geometry.size, np.zeros(1, np.bool_), 1)


def solve_many(
    puzzles: Iterable[str | Grid] | np.ndarray,
    geometry: Geometry | None = None,
    workers: int = 1,
    chunk: int = 8192,
    limit: int = 2,
    time_limit: float | None = None,
    timing: str = "batch",
    *,
    jobs: int = 1,
    cluster: Any = None,
) -> Iterator[Batch]:
    """Solve many puzzles, yielding one :class:`Batch` of arrays per ``chunk`` puzzles, in input order.

    ``puzzles`` is a ``(N, n_cells)`` uint8 array (0 = empty) or any iterable of puzzle strings (one line
    each, ``.`` or ``0`` for empty) or Grids. Unreadable strings get status ``UNREADABLE`` and the batch goes
    on. ``geometry`` defaults to the standard board of the first puzzle's size. ``workers > 1`` solves each
    chunk on that many threads. ``limit`` as in :func:`sudokit.engine.solve` (1 = any solution);
    ``time_limit`` is the seconds allowed per puzzle (status ``timeout`` after that). ``timing="puzzle"`` times
    each puzzle in the kernel (``Batch.ticks``); the default ``"batch"`` times each chunk and gives its puzzles
    the average.

    ``jobs > 1`` solves the chunks on that many processes (each on ``workers`` threads), ``cluster`` on a Dask
    cluster (an address ``tcp://HOST:8786``, ``local:N``, or a ``dask.distributed.Client``; the
    ``sudokit[cluster]`` extra): the same batches, in input order, through the batch layer
    (:func:`sudokit.jobs.api.in_order`; a chunk that fails twice raises :class:`SudokitError`).

    An array must hold integers 0..n (any integer or float dtype): any other value is an error naming its row
    and column, never a silently different puzzle. Grids must all have the batch's geometry.
    """
    limit = expect_int(limit, "limit")
    workers = expect_int(workers, "workers")
    chunk = expect_int(chunk, "chunk", high=2**31)
    jobs = expect_int(jobs, "jobs")
    expect_seconds(time_limit)
    if geometry is not None and not isinstance(geometry, Geometry):
        raise SudokitError(f"geometry must be a Geometry, not {type(geometry).__name__}")
    if isinstance(puzzles, (str, bytes, Grid)):
        raise SudokitError("solve_many takes many puzzles (lines, Grids or an array); use solve for one")
    task = functools.partial(_solve_part, (limit, workers, time_limit, timing))
    parts = _parts(puzzles, geometry, chunk)
    if jobs == 1 and cluster is None:
        yield from map(task, parts)
        return
    from sudokit.jobs.api import in_order

    warm = functools.partial(warm_up, geometry or standard())  # the kernels, loaded once in each worker
    yield from in_order(task, parts, jobs=jobs, cluster=cluster, warm=warm, name=_Part.name)


@dataclass
class _Part:
    """A chunk of :func:`solve_many` as it goes to whoever solves it: ``rows`` of an array, or ``items`` (puzzle
    strings, Grids; ``variants``: variant puzzles), in ``geometry``, the first being puzzle ``start``; or the
    ``error`` that reading it met (raised in its turn, after the chunks before it)."""

    start: int
    geometry: Geometry | None = None
    rows: np.ndarray | None = None
    items: list | None = None
    variants: bool = False
    error: SudokitError | None = None

    def name(self) -> str:
        n = len(self.rows) if self.rows is not None else len(self.items or ())
        return f"puzzles {self.start}-{self.start + n - 1}"


def _parts(puzzles: Iterable[str | Grid] | np.ndarray, geometry: Geometry | None, chunk: int) -> Iterator[_Part]:
    """The chunks of :func:`solve_many`'s input, their geometry found and checked; the heavy work (reading the
    strings, checking an array's values) is :func:`_solve_part`'s."""
    geo: Geometry | None  # the batch's geometry: given, or found from the first puzzle
    if isinstance(puzzles, np.ndarray):
        if puzzles.ndim != 2:
            raise SudokitError(f"a puzzle array must have shape (N, n_cells), not {puzzles.shape}")
        geo = geometry or for_cells(puzzles.shape[1])
        if puzzles.shape[1] != geo.n_cells:
            raise SudokitError(f"rows have {puzzles.shape[1]} cells but the geometry has {geo.n_cells}")
        for lo in range(0, len(puzzles), chunk):
            yield _Part(lo, geo, rows=puzzles[lo : lo + chunk])
        return
    try:
        it = iter(puzzles)
    except TypeError:
        kind = type(puzzles).__name__
        raise SudokitError(f"solve_many takes an iterable of puzzles or an array, not {kind}") from None
    geo = geometry
    done = 0
    while True:
        items = list(islice(it, chunk))
        if not items:
            return
        try:
            if geometry is None and is_variant_chunk(items):
                yield _Part(done, items=items, variants=True)  # links, f-puzzles JSON: the variant solver
                done += len(items)
                continue
            for i, x in enumerate(items):
                if not isinstance(x, (str, Grid)):
                    raise SudokitError(f"puzzle {done + i}: expected a puzzle string or a Grid, not {type(x).__name__}")
            if geo is None:
                first = items[0]
                geo = first.geometry if isinstance(first, Grid) else _guess_geometry(first)
            for i, x in enumerate(items):
                if isinstance(x, Grid) and x.geometry != geo:
                    raise SudokitError(
                        f"puzzle {done + i} is a {x.geometry.name} grid but the batch's geometry is {geo.name} "
                        "(one geometry per call)"
                    )
        except SudokitError as exc:
            yield _Part(done, items=items, error=exc)
            return
        yield _Part(done, geo, items=items)
        done += len(items)


def _solve_part(settings: tuple[int, int, float | None, str], part: _Part) -> Batch:
    """One chunk of :func:`solve_many` solved (``settings``: its limit, threads, time limit, timing)."""
    limit, workers, time_limit, timing = settings
    if part.error is not None:
        raise part.error
    if part.variants:
        assert part.items is not None  # (a variant chunk has its items)
        found = variant_chunk(part.items, part.start, limit, time_limit)
        assert found is not None  # (_parts found its first item a variant puzzle)
        return found
    geo = part.geometry
    assert geo is not None  # (_parts found it)
    if part.rows is not None:
        rows = part.rows
        by_kernel = rows.dtype == np.uint8 and _is_classic9(geo)  # the 9x9 kernel calls a value over 9 invalid
        if not by_kernel:
            rows = cell_values(rows, geo.size, first_row=part.start)
        batch = solve_chunk(rows, geo, limit, workers, part.start, time_limit, timing)
        if by_kernel and INVALID in batch.status.tobytes():  # was it a value over 9? then name it
            cell_values(rows, geo.size, first_row=part.start)
        return batch
    items = part.items or []
    if all(isinstance(x, Grid) for x in items):
        arr = np.array([x.values for x in items], dtype=np.uint8).reshape(len(items), geo.n_cells)
        bad = np.zeros(len(items), dtype=bool)
    else:
        arr, bad = strings_to_array([x.to_line() if isinstance(x, Grid) else x for x in items], geo)
    batch = solve_chunk(arr, geo, limit, workers, part.start, time_limit, timing)
    batch.status[bad] = UNREADABLE
    batch.solutions[bad] = 0
    batch.counts[bad] = 0
    return batch


def _guess_geometry(line: str) -> Geometry:
    n_cells = len(line.strip())
    try:
        return for_cells(n_cells)
    except SudokitError:
        return standard()


def solve_all(puzzles: Iterable[str | Grid] | np.ndarray, **kwargs) -> Batch:
    """:func:`solve_many` gathered into one :class:`Batch` of whole arrays (memory grows with the input)."""
    return Batch.concat(solve_many(puzzles, **kwargs))


def load_lines(path, geometry: Geometry | None = None) -> tuple[np.ndarray, Geometry]:
    """A one-puzzle-per-line file as a ``(N, n_cells)`` uint8 array, read with numpy in one go.

    Blank lines and ``#`` comments are skipped; anything after the grid (``:count``, a space and a rating) is
    ignored. Every line must be a readable puzzle (use :func:`sudokit.formats.read_entries` for messy files).
    """
    from pathlib import Path

    data = Path(path).read_bytes().replace(b"\r", b"")
    width = data.find(b"\n")
    n_cells = width if width > 0 else len(data)
    if width > 0 and len(data) % (width + 1) == 0:
        flat = np.frombuffer(data, dtype=np.uint8).reshape(-1, width + 1)
        if (flat[:, width] == ord("\n")).all():
            geometry = geometry or for_cells(n_cells)
            return _decode(flat[:, :width], geometry, path), geometry
    rows = []
    for raw in data.split(b"\n"):
        raw = raw.strip()
        if raw and not raw.startswith(b"#"):
            rows.append(raw.split(b":")[0].split()[0])
    if not rows:
        raise SudokitError(f"{path}: no puzzle lines")
    geometry = geometry or for_cells(len(rows[0]))
    if any(len(r) != geometry.n_cells for r in rows):
        raise SudokitError(f"{path}: every line must have {geometry.n_cells} cells")
    flat = np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(len(rows), geometry.n_cells)
    return _decode(flat, geometry, path), geometry


def _decode(chars: np.ndarray, geometry: Geometry, path) -> np.ndarray:
    out = _lookup(geometry)[chars]
    bad = np.flatnonzero((out == 255).any(axis=1))
    if len(bad):
        raise SudokitError(f"{path}: line {bad[0] + 1} is not a puzzle line")
    return out


def verify(puzzles: np.ndarray, solutions: np.ndarray, geometry: Geometry, workers: int = 1) -> np.ndarray:
    """Rule check of many solutions at once: True where row ``i`` of ``solutions`` solves row ``i`` of ``puzzles``
    (every unit holds each digit once and every given is kept), in compiled code, on ``workers`` threads."""
    puzzles = np.ascontiguousarray(puzzles, dtype=np.uint8)
    solutions = np.ascontiguousarray(solutions, dtype=np.uint8)
    ok = np.zeros(len(puzzles), dtype=np.bool_)
    args = (puzzles, solutions, tables(geometry).units, geometry.size, ok)
    if workers > 1 and len(puzzles) >= PARALLEL_FROM:
        parallel, n_blocks = _on_threads(workers)
        parallel.check_blocks(*args, n_blocks)
    else:
        from sudokit.engine.kernel import check_rows

        check_rows(*args)
    return ok
