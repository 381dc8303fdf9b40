"""Thin Python wrappers over the numba kernels: one puzzle as a :class:`Grid` or as a numpy array.

One puzzle at a time, :func:`solve` and :func:`count_solutions` first ask the plain-Python port of the same
algorithm (:mod:`sudokit.engine.pure`, same answers and statistics), as long as the compiled kernels are not
loaded in this process: importing numba and loading the cached kernels costs about 0.3 s of CPU (and compiling
them on a cold cache seconds), more than the port needs for a typical 9x9 puzzle (~2-20 ms). The compiled
kernel takes over for good once it is loaded, once a puzzle outgrows the port's node budget, or once the port
has spent :data:`PLAIN_SECONDS` in the process (a caller solving in a loop).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from sudokit.engine.tables import tables
from sudokit.errors import SudokitError, TimeLimitError, expect_int, expect_seconds
from sudokit.geometry import Geometry, for_cells, standard
from sudokit.grid import Grid
from sudokit.result import Result, Stats, Status, checked, invalid_result


def budget_ticks(time_limit: float | None) -> int:
    """A time limit in seconds (already checked by :func:`~sudokit.errors.expect_seconds`) as the kernels'
    ``budget``: cycle-counter ticks, 0 for no limit. Where no counter is readable (see
    :mod:`sudokit.engine.clock`) the kernels cannot time themselves and the limit is not applied."""
    if time_limit is None:
        return 0
    from sudokit.engine.clock import seconds_per_tick

    factor = seconds_per_tick()
    return max(1, min(int(time_limit / factor), 2**62)) if factor > 0 else 0


#: Total seconds of plain-Python solving after which single puzzles go to the compiled kernel.
PLAIN_SECONDS = 0.5
_plain_spent = [0.0]


def _plain(grid: Grid, limit: int) -> Result | None:
    """The plain port's answer while the compiled kernels are not loaded (None when they should answer)."""
    if "sudokit.engine.kernel" in sys.modules or _plain_spent[0] > PLAIN_SECONDS:
        return None
    from sudokit.engine.pure import BudgetExceeded, solve_small

    start = time.perf_counter()
    try:
        return solve_small(grid, limit=limit)
    except BudgetExceeded:
        return None
    finally:
        _plain_spent[0] += time.perf_counter() - start


def _status(code: int) -> Status:
    from sudokit.engine.kernel import INVALID, MULTIPLE, NO_SOLUTION, SOLVED, TIMEOUT

    names = {SOLVED: Status.SOLVED, NO_SOLUTION: Status.NO_SOLUTION, MULTIPLE: Status.MULTIPLE}
    names.update({INVALID: Status.INVALID, TIMEOUT: Status.TIMEOUT})
    return names[code]


class Workspace:
    """The arrays a kernel needs for one geometry: its units/peers and the search scratch, made once."""

    __slots__ = ("geometry", "n_cells", "args", "st_cand", "st_vals", "st_cell", "st_rem", "queue", "solution", "stats")

    def __init__(self, geometry: Geometry) -> None:
        n_cells = geometry.n_cells
        self.geometry = geometry
        self.n_cells = n_cells
        self.args = tables(geometry).args()
        self.st_cand = np.zeros((n_cells + 1, n_cells), dtype=np.int64)
        self.st_vals = np.zeros((n_cells + 1, n_cells), dtype=np.int8)
        self.st_cell = np.zeros(n_cells + 1, dtype=np.int32)
        self.st_rem = np.zeros(n_cells + 1, dtype=np.int64)
        self.queue = np.zeros(n_cells * 2 + 1, dtype=np.int32)
        self.solution = np.zeros(n_cells, dtype=np.uint8)
        self.stats = np.zeros(3, dtype=np.int64)

    def run(self, values: np.ndarray, limit: int, budget: int = 0) -> tuple[int, int]:
        """Run the general kernel on ``values`` (``budget`` in ticks, 0 = no limit); returns ``(status, count)``."""
        from sudokit.engine import kernel

        return kernel.search(
            values,
            *self.args,
            limit,
            budget,
            self.solution,
            self.stats,
            self.st_cand,
            self.st_vals,
            self.st_cell,
            self.st_rem,
            self.queue,
        )


_WORKSPACES: dict[Geometry, Workspace] = {}


def workspace(geometry: Geometry) -> Workspace:
    """The cached :class:`Workspace` of a geometry (one per geometry; not thread-safe)."""
    ws = _WORKSPACES.get(geometry)
    if ws is None:
        ws = _WORKSPACES[geometry] = Workspace(geometry)
    return ws


def cell_values(values: np.ndarray, size: int, what: str = "puzzle array", first_row: int = 0) -> np.ndarray:
    """``values`` (any shape) as a C-contiguous uint8 array, after checking that every entry is an integer
    from 0 to ``size``; otherwise a :class:`SudokitError` naming the first bad entry by row (counted from
    ``first_row``: a chunk's place in the whole array) and column.

    A plain cast would wrap 257 to 1, truncate 1.9 to 1 and turn NaN or 0.5 into an empty cell: a silently
    different puzzle. Booleans, integers and integral floats are taken; anything else is refused."""
    if not isinstance(values, np.ndarray):
        raise SudokitError(f"{what} must be a numpy array, not {type(values).__name__}")
    if values.dtype == np.uint8:
        if not values.size or values.max() <= size:  # one reduction: the common case of a clean array
            return np.ascontiguousarray(values)
        bad = values > size
    elif values.dtype.kind in "biu":
        bad = (values < 0) | (values > size)
    elif values.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(values) | (values < 0) | (values > size) | (values != np.floor(values))
    else:
        raise SudokitError(f"{what} must hold integers 0..{size}, not {values.dtype} values")
    if bad.any():
        where = np.argwhere(bad)[0]
        value = values[tuple(where)].item()
        if len(where) == 2:
            place = f"row {first_row + where[0]}, column {where[1]}"
        else:
            place = f"index {where[0]}" if len(where) else ""
        raise SudokitError(f"{what}, {place}: {value!r} is not a digit 0..{size} (0 = empty)")
    return np.ascontiguousarray(values, dtype=np.uint8)


def _as_values(values: np.ndarray, geometry: Geometry) -> np.ndarray:
    if not (isinstance(values, np.ndarray) and values.dtype == np.uint8 and values.flags.c_contiguous):
        values = cell_values(values, geometry.size)
    if values.shape != (geometry.n_cells,):
        raise SudokitError(f"expected {geometry.n_cells} cell values, got an array of shape {values.shape}")
    return values


def _check_geometry(geometry: object) -> None:
    if geometry is not None and not isinstance(geometry, Geometry):
        raise SudokitError(f"geometry must be a Geometry (e.g. sudokit.standard()), not {type(geometry).__name__}")


def count_array(values: np.ndarray, geometry: Geometry, limit: int = 2, time_limit: float | None = None) -> int:
    """Number of solutions of ``values`` ((n_cells,) uint8, 0 = empty), exact below ``limit``, else ``limit``.

    Clashing givens count as 0 solutions. The low-level entry for callers that solve in a tight loop: a
    C-contiguous ``(81,)`` uint8 array on the plain 9x9 board, an ``int`` limit and no time limit go straight
    to the bitboard kernel's short entry (:func:`sudokit.engine.kernel9.count9`, which refuses a value over 9).
    ``time_limit`` (seconds) stops the search: :class:`~sudokit.errors.TimeLimitError` then carries the
    solutions found so far.
    """
    if (
        time_limit is None
        and (geometry is _CLASSIC or geometry == _CLASSIC)
        and type(values) is np.ndarray
        and values.dtype == np.uint8
        and values.shape == (81,)
        and values.flags.c_contiguous
        and type(limit) is int
        and 0 < limit < 2**63
    ):
        status, count = _count9(values, limit)
        if status >= 0:
            return count
        cell_values(values, 9)  # a value over 9 (the kernel looked no further): raises, naming it
    limit = expect_int(limit, "limit")
    budget = budget_ticks(expect_seconds(time_limit))
    if not isinstance(geometry, Geometry):
        _check_geometry(geometry)
        raise SudokitError("count_array needs the puzzle's geometry")
    values = _as_values(values, geometry)
    if geometry == _CLASSIC:  # only the count is returned, so the faster 9x9 kernel gives the same answer
        status, count = _count9(values, limit, budget)
        if status < 0:
            cell_values(values, 9)  # a value over 9: raises, naming it
    else:
        status, count = workspace(geometry).run(values, limit, budget)
    if status == _TIMEOUT:
        raise TimeLimitError(f"time limit of {time_limit:g} s reached after {int(count)} solutions", int(count))
    return int(count)


_CLASSIC = standard()
_TIMEOUT = 5  # kernel.TIMEOUT, without importing numba here
_SCRATCH9: list = []


def _count9(values: np.ndarray, limit: int, budget: int = 0) -> tuple[int, int]:
    """The bitboard kernel's count of a ``(81,)`` uint8 array: ``(status, count)``, status -1 when a value is
    over 9 (nothing searched)."""
    if not _SCRATCH9:
        from sudokit.engine import kernel9

        _SCRATCH9.extend([kernel9.count9, np.zeros(kernel9.WORK_SIZE, dtype=np.int64), np.zeros(81, np.uint8)])
    count9, work, solution = _SCRATCH9
    status, count = count9(values, limit, budget, work, solution)
    if status == 6:  # kernel9.BROKEN: the first solution failed the fused rule check
        from sudokit.result import UncheckedSolutionError

        raise UncheckedSolutionError("the engine's 9x9 kernel found a grid that breaks the rules")
    return status, count


def solve_array(values: np.ndarray, geometry: Geometry) -> np.ndarray | None:
    """Any one solution of ``values`` ((n_cells,) uint8) as a new uint8 array, or None when there is none.

    Uniqueness is not checked (this is ``limit=1``).
    """
    if not isinstance(geometry, Geometry):
        _check_geometry(geometry)
        raise SudokitError("solve_array needs the puzzle's geometry")
    ws = workspace(geometry)
    status, count = ws.run(_as_values(values, geometry), 1)
    if count == 0:
        return None
    return ws.solution.copy()


def _as_grid(puzzle: Grid | str, geometry: Geometry | None) -> Grid:
    _check_geometry(geometry)
    if isinstance(puzzle, Grid):
        if geometry is not None and geometry != puzzle.geometry:
            return Grid(geometry, puzzle.values)
        return puzzle
    if isinstance(puzzle, str):
        from sudokit.formats import parse_grid

        return parse_grid(puzzle, geometry=geometry)
    if isinstance(puzzle, np.ndarray):
        geo = geometry or for_cells(int(puzzle.size))
        return Grid(geo, tuple(cell_values(puzzle, geo.size, "puzzle").ravel().tolist()))
    raise SudokitError(f"cannot solve a {type(puzzle).__name__}: give a Grid or a puzzle string")


_VARIANT_FIRST = frozenset("hHfFsScC{N")  # http(s)://, fpuzzles…, scl…, ctc…, JSON, an N4Ig… payload


def _variant(puzzle: object):
    """A variant puzzle (constraints beyond units: f-puzzles links, JSON text or a parsed f-puzzles dict,
    VariantPuzzle) or None. A classic puzzle string (a digit, '.', '0' or a layout character first) is turned
    away at its first character."""
    if isinstance(puzzle, str) and puzzle.lstrip()[:1] not in _VARIANT_FIRST:
        return None
    from sudokit.formats.fpuzzles import as_variant, read_fpuzzles

    if isinstance(puzzle, dict):
        return read_fpuzzles(puzzle)
    return as_variant(puzzle)


def is_variant_chunk(items: list) -> bool:
    """Whether :func:`variant_chunk` takes this chunk: its first item is a variant puzzle."""
    first = items[0] if items else None
    if isinstance(first, Grid) or first is None:
        return False
    try:
        return _variant(first) is not None
    except SudokitError:
        if not isinstance(first, str):
            raise
        return False  # an unreadable classic-looking line: the classic reader reports it


def variant_chunk(items: list, start: int, limit: int, time_limit: float | None):
    """:func:`sudokit.engine.solve_many`'s chunk of variant puzzles (VariantPuzzles, links, f-puzzles JSON) as
    a :class:`~sudokit.engine.batch.Batch`, or None when the chunk's first item is not a variant puzzle. An
    item that cannot be read gets status ``unreadable`` and the batch goes on; every grid is checked."""
    from sudokit.constraints.puzzle import VariantPuzzle

    if not is_variant_chunk(items):
        return None
    from sudokit.constraints.solver import solve_variant
    from sudokit.engine.batch import STATUS_NAMES, UNREADABLE, Batch
    from sudokit.engine.clock import seconds_per_tick

    codes = {name: code for code, name in STATUS_NAMES.items()}
    puzzles: list[VariantPuzzle | None] = []
    for i, item in enumerate(items):
        if isinstance(item, Grid):
            raise SudokitError(f"puzzle {start + i}: a classic Grid in a batch of variant puzzles")
        try:
            puzzles.append(_variant(item))
        except SudokitError:
            puzzles.append(None)
    sizes = {p.geometry.n_cells for p in puzzles if p is not None} or {81}
    if len(sizes) > 1:
        raise SudokitError(f"variant puzzles of several sizes in one batch (cells: {sorted(sizes)}); one size per call")
    n_cells = sizes.pop()
    k = len(items)
    out = Batch(start, np.zeros((k, n_cells), np.uint8), np.zeros((k, n_cells), np.uint8), np.zeros(k, np.int8),
                *(np.zeros(k, np.int64) for _ in range(5)))  # fmt: skip
    factor = seconds_per_tick()
    for i, puzzle in enumerate(puzzles):
        if puzzle is None:
            out.status[i] = UNREADABLE
            continue
        result = solve_variant(puzzle, limit, time_limit)
        out.puzzles[i] = puzzle.givens.values
        out.status[i] = codes[result.status.value]
        out.counts[i] = result.count or 0
        if result.solution is not None:
            out.solutions[i] = result.solution.values
        out.guesses[i], out.nodes[i], out.backtracks[i] = (
            result.stats.guesses,
            result.stats.nodes,
            result.stats.backtracks,
        )
        out.ticks[i] = int(result.stats.seconds / factor) if factor > 0 else 0
    return out


def solve(
    puzzle: Grid | str, geometry: Geometry | None = None, limit: int = 2, time_limit: float | None = None
) -> Result:
    """Solve one puzzle with the fast engine (a variant puzzle, a :class:`~sudokit.constraints.VariantPuzzle`
    or an f-puzzles / SudokuPad link or JSON text, goes to :func:`sudokit.constraints.solver.solve_variant`).

    ``limit`` is how many solutions to look for: 2 (the default) also proves uniqueness
    (status ``solved``) or reports ``multiple``; 1 takes any solution without checking uniqueness.
    Clashing givens give ``invalid`` with a message naming the conflict. ``time_limit`` (seconds) stops
    a long search with status ``timeout``, as the methods do. The solution is verified against the rules
    before it is returned. (Plain Python or the compiled kernel, see the module's notes: the answer and the
    statistics are the same.)
    """
    limit = expect_int(limit, "limit")
    expect_seconds(time_limit)
    if not isinstance(puzzle, Grid) and (variant := _variant(puzzle)) is not None:
        from sudokit.constraints.solver import solve_variant

        return solve_variant(variant, limit, time_limit)
    grid = _as_grid(puzzle, geometry)
    return _plain(grid, limit) or solve_compiled(grid, limit, time_limit)


def solve_compiled(grid: Grid, limit: int = 2, time_limit: float | None = None) -> Result:
    """:func:`solve` on the compiled kernel whatever has been loaded (the plain port's reference)."""
    budget = budget_ticks(expect_seconds(time_limit))
    start = time.perf_counter()
    bad = invalid_result(grid, "engine")
    if bad is not None:
        bad.stats.seconds = time.perf_counter() - start
        return bad
    ws = workspace(grid.geometry)
    values = np.array(grid.values, dtype=np.uint8)
    status, count = ws.run(values, limit, budget)
    seconds = time.perf_counter() - start
    g, nodes, back = (int(x) for x in ws.stats)
    stats = Stats(guesses=g, nodes=nodes, backtracks=back, seconds=seconds)
    st = _status(int(status))
    if st is Status.SOLVED:
        solution = checked(Grid(grid.geometry, tuple(ws.solution.tolist())), grid)
        return Result(st, grid, solution=solution, count=1, stats=stats)
    if st is Status.TIMEOUT:
        found = f" after {int(count)} solution{'s' if count != 1 else ''}" if count else ""
        return Result(st, grid, count=int(count), stats=stats, message=f"time limit of {time_limit:g} s reached{found}")
    if st is Status.MULTIPLE:
        return Result(st, grid, count=int(count), stats=stats, message=f"at least {int(count)} solutions")
    if st is Status.INVALID:  # pragma: no cover - conflicts() catches clashes first
        return Result(st, grid, count=0, stats=stats, message="the givens clash")
    return Result(st, grid, count=0, stats=stats, message="no grid completes these givens")


def count_solutions(
    puzzle: Grid | str, limit: int = 2, geometry: Geometry | None = None, time_limit: float | None = None
) -> int:
    """Number of solutions, exact when below ``limit``, else ``limit``. Clashing givens have 0. Variant
    puzzles (as for :func:`solve`) are counted by :func:`sudokit.constraints.solver.count_variant` (the variant
    kernel, under the same time limit).

    ``limit`` is an integer from 1 to 2**63 - 1. ``time_limit`` (seconds) stops a long count with
    :class:`~sudokit.errors.TimeLimitError`, whose ``count`` is the solutions found by then.
    """
    limit = expect_int(limit, "limit")
    expect_seconds(time_limit)
    if not isinstance(puzzle, Grid) and (variant := _variant(puzzle)) is not None:
        from sudokit.constraints.solver import count_variant

        return count_variant(variant, limit, time_limit)
    grid = _as_grid(puzzle, geometry)
    plain = _plain(grid, limit)
    if plain is not None:
        return 0 if plain.count is None else int(plain.count)  # only an invalid grid has no count
    return count_array(np.array(grid.values, dtype=np.uint8), grid.geometry, limit, time_limit)
