"""Validity-preserving transforms of puzzles, random isomorphs, and the minlex canonical form.

A :class:`Transform` moves cells and renames digits: ``new[i] = digits[old[cells[i]]]``. The standard
symmetries of a Sudoku board are built from a few generators::

    relabel        digits 1..n renamed by any permutation
    bands/stacks   whole bands (box_rows rows) or stacks (box_cols columns) reordered
    rows/cols      rows inside one band, columns inside one stack reordered
    transpose      rows become columns (square boxes only: 2x3 boxes would become 3x2)
    rotate         quarter turns clockwise (a quarter turn needs square boxes; a half turn never does)
    mirror / flip  left-right / top-bottom

Every transform is checked against the puzzle's geometry before it is applied: it must send each unit
onto a unit, so diagonal, windoku or jigsaw puzzles accept only the transforms that keep their extra
units (e.g. rotations, transposition and mirrors keep both diagonals; band swaps do not).

:func:`canonical` gives the minimum-lexicographic form (0 for empty cells) over the whole group of a
standard board of size up to 9, so isomorphic puzzles and grids share one key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from sudokit.errors import SudokitError
from sudokit.geometry import Geometry, standard
from sudokit.grid import Grid

#: Largest board whose canonical form is computed (a 16x16 board has 24**4 * 24 column orders per row).
CANON_MAX_SIZE = 9


@dataclass(frozen=True)
class Transform:
    """A cell permutation and a digit relabelling: cell ``i`` of the result takes ``digits[v]`` where
    ``v`` is the value of cell ``cells[i]`` of the input (``digits[0] == 0`` keeps empty cells empty)."""

    cells: tuple[int, ...]
    digits: tuple[int, ...]

    @classmethod
    def identity(cls, geometry: Geometry) -> Transform:
        """The transform that changes nothing."""
        return cls(tuple(geometry.cells), tuple(range(geometry.size + 1)))

    def then(self, other: Transform) -> Transform:
        """This transform followed by ``other``."""
        return Transform(tuple(self.cells[c] for c in other.cells), tuple(other.digits[d] for d in self.digits))

    def inverse(self) -> Transform:
        """The transform that undoes this one."""
        cells = [0] * len(self.cells)
        for i, c in enumerate(self.cells):
            cells[c] = i
        digits = [0] * len(self.digits)
        for d, e in enumerate(self.digits):
            digits[e] = d
        return Transform(tuple(cells), tuple(digits))

    def preserves(self, geometry: Geometry) -> bool:
        """True when the cell permutation sends every unit of ``geometry`` onto a unit."""
        units = geometry.unit_index
        where = [0] * len(self.cells)
        for i, c in enumerate(self.cells):
            where[c] = i
        return all(frozenset(where[s] for s in unit) in units for unit in geometry.units)

    def apply(self, grid: Grid) -> Grid:
        """The transformed grid; raises :class:`SudokitError` if the transform breaks the geometry's units."""
        g = grid.geometry
        if len(self.cells) != g.n_cells or len(self.digits) != g.size + 1:
            raise SudokitError(f"this transform is for another board size than {g.size}x{g.size}")
        if not self.preserves(g):
            raise SudokitError(f"this transform does not keep the units of the {g.name} geometry")
        return Grid(g, tuple(self.digits[grid.values[c]] for c in self.cells))


# ---- generators ----------------------------------------------------------------------------------
def _cells(geometry: Geometry, source) -> Transform:
    """A pure cell permutation: cell (r, c) of the result comes from cell ``source(r, c)``."""
    n = geometry.size
    return Transform(
        tuple(source(r, c)[0] * n + source(r, c)[1] for r in range(n) for c in range(n)), tuple(range(n + 1))
    )


def _check_perm(order: Sequence[int], size: int, what: str) -> tuple[int, ...]:
    order = tuple(int(x) for x in order)
    if sorted(order) != list(range(size)):
        raise SudokitError(f"{what} must name each of the {size} places exactly once")
    return order


def _boxes(geometry: Geometry) -> tuple[int, int]:
    if geometry.box_rows is None or geometry.box_cols is None:
        raise SudokitError(f"the {geometry.name} geometry has no bands or stacks")
    return geometry.box_rows, geometry.box_cols


def relabel(geometry: Geometry, mapping: Sequence[int] | str) -> Transform:
    """Rename digit ``d`` to ``mapping[d-1]`` (a permutation of 1..n, or a string such as ``"912345678"``)."""
    if isinstance(mapping, str):
        sym = geometry.symbols
        if any(ch.upper() not in sym for ch in mapping):
            raise SudokitError(f"relabel {mapping!r} uses symbols outside {sym}")
        mapping = [sym.index(ch.upper()) + 1 for ch in mapping]
    order = _check_perm([d - 1 for d in mapping], geometry.size, "a relabelling")
    return Transform(tuple(geometry.cells), (0, *(d + 1 for d in order)))


def bands(geometry: Geometry, order: Sequence[int]) -> Transform:
    """Band ``order[k]`` becomes band ``k``."""
    br, bc = _boxes(geometry)
    order = _check_perm(order, geometry.size // br, "a band order")
    return _cells(geometry, lambda r, c: (order[r // br] * br + r % br, c))


def stacks(geometry: Geometry, order: Sequence[int]) -> Transform:
    """Stack ``order[k]`` becomes stack ``k``."""
    br, bc = _boxes(geometry)
    order = _check_perm(order, geometry.size // bc, "a stack order")
    return _cells(geometry, lambda r, c: (r, order[c // bc] * bc + c % bc))


def rows(geometry: Geometry, band: int, order: Sequence[int]) -> Transform:
    """Inside band ``band``, row ``order[k]`` of the band becomes its row ``k``."""
    br, bc = _boxes(geometry)
    if not 0 <= band < geometry.size // br:
        raise SudokitError(f"band {band} does not exist (0..{geometry.size // br - 1})")
    order = _check_perm(order, br, "a row order")
    return _cells(geometry, lambda r, c: (band * br + order[r % br] if r // br == band else r, c))


def cols(geometry: Geometry, stack: int, order: Sequence[int]) -> Transform:
    """Inside stack ``stack``, column ``order[k]`` of the stack becomes its column ``k``."""
    br, bc = _boxes(geometry)
    if not 0 <= stack < geometry.size // bc:
        raise SudokitError(f"stack {stack} does not exist (0..{geometry.size // bc - 1})")
    order = _check_perm(order, bc, "a column order")
    return _cells(geometry, lambda r, c: (r, stack * bc + order[c % bc] if c // bc == stack else c))


def transpose(geometry: Geometry) -> Transform:
    """Rows become columns."""
    return _cells(geometry, lambda r, c: (c, r))


def rotate(geometry: Geometry, quarter_turns: int = 1) -> Transform:
    """Turn the board clockwise by ``quarter_turns`` quarter turns."""
    n = geometry.size
    out = Transform.identity(geometry)
    quarter = _cells(geometry, lambda r, c: (n - 1 - c, r))
    for _ in range(quarter_turns % 4):
        out = out.then(quarter)
    return out


def mirror(geometry: Geometry) -> Transform:
    """Reflect left-right."""
    n = geometry.size
    return _cells(geometry, lambda r, c: (r, n - 1 - c))


def flip(geometry: Geometry) -> Transform:
    """Reflect top-bottom."""
    n = geometry.size
    return _cells(geometry, lambda r, c: (n - 1 - r, c))


# ---- random isomorphs ----------------------------------------------------------------------------
def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _is_standard_board(geometry: Geometry) -> bool:
    rows = geometry.box_rows
    return rows is not None and geometry.is_standard and geometry == standard(rows, geometry.box_cols)


def random_transform(geometry: Geometry, rng: np.random.Generator | int | None = None) -> Transform:
    """A random symmetry of ``geometry`` (uniform over the whole group for standard boards).

    Standard boards use every generator; other geometries (diagonal, windoku, jigsaw) draw from the
    relabellings combined with those of the eight rotations and reflections that keep their units.
    """
    rng = _rng(rng)
    n = geometry.size
    out = relabel(geometry, [int(d) + 1 for d in rng.permutation(n)])
    if _is_standard_board(geometry):
        br, bc = _boxes(geometry)
        out = out.then(bands(geometry, rng.permutation(n // br).tolist()))
        for b in range(n // br):
            out = out.then(rows(geometry, b, rng.permutation(br).tolist()))
        out = out.then(stacks(geometry, rng.permutation(n // bc).tolist()))
        for s in range(n // bc):
            out = out.then(cols(geometry, s, rng.permutation(bc).tolist()))
        if br == bc and rng.integers(2):
            out = out.then(transpose(geometry))
        return out
    valid = _dihedral_symmetries(geometry)
    return out.then(valid[int(rng.integers(len(valid)))])


@cache
def _dihedral_symmetries(geometry: Geometry) -> list[Transform]:
    """The rotations and reflections of the square that keep ``geometry``'s units."""
    shapes = [rotate(geometry, k) for k in range(4)]
    shapes += [s.then(transpose(geometry)) for s in shapes]
    return [s for s in shapes if s.preserves(geometry)]


def random_isomorph(grid: Grid, rng: np.random.Generator | int | None = None) -> Grid:
    """``grid`` under a random symmetry of its geometry (see :func:`random_transform`)."""
    return random_transform(grid.geometry, rng).apply(grid)


# ---- canonical form ------------------------------------------------------------------------------
def _canon_geometry(geometry: Geometry) -> tuple[int, int, int]:
    if not _is_standard_board(geometry):
        raise SudokitError(f"the canonical form is defined for standard boards, not for {geometry.name}")
    if geometry.size > CANON_MAX_SIZE:
        raise SudokitError(f"the canonical form is computed for boards up to 9x9, not {geometry.size}x{geometry.size}")
    return geometry.size, *_boxes(geometry)


def canonical(grid: Grid) -> Grid:
    """The minimum-lexicographic isomorph of a puzzle or solution grid (0 = empty sorts first).

    Isomorphic grids (same up to relabelling, band/stack/row/column permutations and transposition)
    get the same canonical grid, so ``canonical(p).to_line()`` is a key for deduplicating up to symmetry.
    """
    from sudokit.generate.minlex import minlex

    n, br, bc = _canon_geometry(grid.geometry)
    return Grid(grid.geometry, tuple(int(v) for v in minlex(grid.to_array(), n, br, bc)))


def canonical_many(values: np.ndarray, geometry: Geometry) -> np.ndarray:
    """Canonical forms of many grids at once: ``(m, n_cells)`` uint8 in, same shape out (all cores)."""
    from sudokit.generate.minlex import minlex_many

    n, br, bc = _canon_geometry(geometry)
    values = np.asarray(values, dtype=np.uint8)
    if values.ndim != 2 or values.shape[1] != geometry.n_cells:
        raise SudokitError(f"expected an array of shape (m, {geometry.n_cells}), got {values.shape}")
    return minlex_many(values, n, br, bc)
