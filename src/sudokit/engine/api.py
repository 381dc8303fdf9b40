"""Thin Python wrappers over the numba kernels: one puzzle as a :class:`Grid` or as a numpy array."""

from __future__ import annotations

import time

import numpy as np

from sudokit.engine import kernel
from sudokit.engine.kernel import INVALID, MULTIPLE, NO_SOLUTION, SOLVED
from sudokit.engine.tables import tables
from sudokit.errors import SudokitError
from sudokit.geometry import Geometry, for_cells, standard
from sudokit.grid import Grid
from sudokit.result import Result, Stats, Status, checked, invalid_result

_STATUS = {SOLVED: Status.SOLVED, NO_SOLUTION: Status.NO_SOLUTION, MULTIPLE: Status.MULTIPLE, INVALID: Status.INVALID}


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

    def run(self, values: np.ndarray, limit: int) -> tuple[int, int]:
        """Run the general kernel on ``values``; returns ``(status, count)``."""
        return kernel.search(
            values,
            *self.args,
            limit,
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


def _as_values(values: np.ndarray, geometry: Geometry) -> np.ndarray:
    if values.dtype != np.uint8 or not values.flags.c_contiguous:
        values = np.ascontiguousarray(values, dtype=np.uint8)
    if values.shape != (geometry.n_cells,):
        raise SudokitError(f"expected {geometry.n_cells} cell values, got an array of shape {values.shape}")
    return values


def count_array(values: np.ndarray, geometry: Geometry, limit: int = 2) -> int:
    """Number of solutions of ``values`` ((n_cells,) uint8, 0 = empty), exact below ``limit``, else ``limit``.

    Clashing givens count as 0 solutions. The low-level entry for callers that solve in a tight loop.
    """
    if limit < 1:
        raise SudokitError("limit must be at least 1")
    values = _as_values(values, geometry)
    if geometry == _CLASSIC:  # only the count is returned, so the faster 9x9 kernel gives the same answer
        return int(_count9(values, limit))
    ws = workspace(geometry)
    status, count = ws.run(values, limit)
    return int(count)


_CLASSIC = standard()
_SCRATCH9: list = []


def _count9(values: np.ndarray, limit: int) -> int:
    from sudokit.engine import kernel9

    if not _SCRATCH9:
        _SCRATCH9.extend(
            [
                np.zeros(81, dtype=np.uint8),
                np.zeros(3, dtype=np.int64),
                np.zeros((83, 31), dtype=np.int64),
                np.zeros(82, dtype=np.int64),
                np.zeros(82, dtype=np.int64),
                np.zeros(82, dtype=np.int64),
                kernel9.table_args(),
            ]
        )
    sol, stats, st, st_band, st_bit, st_rem, tabs = _SCRATCH9
    status, count = kernel9.search9(values, limit, sol, stats, st, st_band, st_bit, st_rem, *tabs)
    return count


def solve_array(values: np.ndarray, geometry: Geometry) -> np.ndarray | None:
    """Any one solution of ``values`` ((n_cells,) uint8) as a new uint8 array, or None when there is none.

    Uniqueness is not checked (this is ``limit=1``).
    """
    ws = workspace(geometry)
    status, count = ws.run(_as_values(values, geometry), 1)
    if count == 0:
        return None
    return ws.solution.copy()


def _as_grid(puzzle: Grid | str, geometry: Geometry | None) -> Grid:
    if isinstance(puzzle, Grid):
        if geometry is not None and geometry != puzzle.geometry:
            return Grid(geometry, puzzle.values)
        return puzzle
    if isinstance(puzzle, str):
        from sudokit.formats import parse_grid

        return parse_grid(puzzle, geometry=geometry)
    if isinstance(puzzle, np.ndarray):
        geo = geometry or for_cells(int(puzzle.size))
        return Grid(geo, tuple(int(v) for v in puzzle.ravel()))
    raise SudokitError(f"cannot solve a {type(puzzle).__name__}: give a Grid or a puzzle string")


_VARIANT_FIRST = frozenset("hHfF{N")  # http(s)://, fpuzzles…, JSON, an N4Ig… payload


def _variant(puzzle: object):
    """A variant puzzle (constraints beyond units: f-puzzles links, JSON, VariantPuzzle) or None. A classic
    puzzle string (a digit, '.', '0' or a layout character first) is turned away at its first character."""
    if isinstance(puzzle, str) and puzzle.lstrip()[:1] not in _VARIANT_FIRST:
        return None
    from sudokit.formats.fpuzzles import as_variant

    return as_variant(puzzle)


def solve(puzzle: Grid | str, geometry: Geometry | None = None, limit: int = 2) -> Result:
    """Solve one puzzle with the fast engine (a variant puzzle, a :class:`~sudokit.constraints.VariantPuzzle`
    or an f-puzzles / SudokuPad link or JSON text, goes to :func:`sudokit.constraints.solver.solve_variant`).

    ``limit`` is how many solutions to look for: 2 (the default) also proves uniqueness
    (status ``solved``) or reports ``multiple``; 1 takes any solution without checking uniqueness.
    Clashing givens give ``invalid`` with a message naming the conflict. The solution is verified
    against the rules before it is returned.
    """
    if limit < 1:
        raise SudokitError("limit must be at least 1")
    if not isinstance(puzzle, Grid) and (variant := _variant(puzzle)) is not None:
        from sudokit.constraints.solver import solve_variant

        return solve_variant(variant, limit)
    grid = _as_grid(puzzle, geometry)
    start = time.perf_counter()
    bad = invalid_result(grid, "engine")
    if bad is not None:
        bad.stats.seconds = time.perf_counter() - start
        return bad
    ws = workspace(grid.geometry)
    values = np.array(grid.values, dtype=np.uint8)
    status, count = ws.run(values, limit)
    seconds = time.perf_counter() - start
    g, nodes, back = (int(x) for x in ws.stats)
    stats = Stats(guesses=g, nodes=nodes, backtracks=back, seconds=seconds)
    st = _STATUS[int(status)]
    if st is Status.SOLVED:
        solution = checked(Grid(grid.geometry, tuple(ws.solution.tolist())), grid)
        return Result(st, grid, solution=solution, count=1, stats=stats)
    if st is Status.MULTIPLE:
        return Result(st, grid, count=int(count), stats=stats, message=f"at least {int(count)} solutions")
    if st is Status.INVALID:  # pragma: no cover - conflicts() catches clashes first
        return Result(st, grid, count=0, stats=stats, message="the givens clash")
    return Result(st, grid, count=0, stats=stats, message="no grid completes these givens")


def count_solutions(puzzle: Grid | str, limit: int = 2, geometry: Geometry | None = None) -> int:
    """Number of solutions, exact when below ``limit``, else ``limit``. Clashing givens have 0. Variant
    puzzles (as for :func:`solve`) are counted by :func:`sudokit.constraints.solver.count_variant`."""
    if limit < 1:
        raise SudokitError("limit must be at least 1")
    if not isinstance(puzzle, Grid) and (variant := _variant(puzzle)) is not None:
        from sudokit.constraints.solver import count_variant

        return count_variant(variant, limit)
    grid = _as_grid(puzzle, geometry)
    return count_array(np.array(grid.values, dtype=np.uint8), grid.geometry, limit)
