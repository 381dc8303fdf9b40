"""Grids (digits in cells) and candidates (bitmasks), with the rule checks every result goes through.

A *puzzle* is a :class:`Grid` whose empty cells hold 0; a *solution* is a complete grid. Candidates are
bitmasks: bit ``d-1`` is set when digit ``d`` may still go in the cell::

    digit:   9 8 7 6 5 4 3 2 1
    bit:     8 7 6 5 4 3 2 1 0      e.g. candidates {2, 3, 9} -> 0b100000110
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sudokit.errors import SudokitError
from sudokit.geometry import Geometry, for_cells


@dataclass(frozen=True)
class Conflict:
    """Two or more cells of one unit holding the same digit."""

    unit: int
    unit_name: str
    digit: int
    cells: tuple[int, ...]

    def describe(self, geometry: Geometry) -> str:
        """E.g. ``digit 5 twice in row A (A1, A7)``."""
        names = ", ".join(geometry.label(s) for s in self.cells)
        times = "twice" if len(self.cells) == 2 else f"{len(self.cells)} times"
        return f"digit {geometry.symbols[self.digit - 1]} {times} in {self.unit_name} ({names})"


@dataclass(frozen=True)
class Grid:
    """Digits in cells: ``values[s]`` is 1..n, or 0 for an empty cell."""

    geometry: Geometry
    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.geometry, Geometry):
            raise SudokitError(f"a grid needs a Geometry, not {type(self.geometry).__name__}")
        if type(self.values) is not tuple:
            raise SudokitError(f"grid values must be a tuple of digits, not {type(self.values).__name__}")
        try:  # the sum of ints is an int: one cheap pass refuses floats, strings and None
            whole = type(sum(self.values)) is int
        except TypeError:
            whole = False
        if not whole:
            raise SudokitError("grid values must be integers 0..n (use Grid.from_values for other number types)")
        if len(self.values) != self.geometry.n_cells:
            g = self.geometry
            raise SudokitError(f"a {g.size}x{g.size} grid has {g.n_cells} cells, got {len(self.values)}")
        n = self.geometry.size
        if self.values and (min(self.values) < 0 or max(self.values) > n):
            for s, v in enumerate(self.values):
                if not 0 <= v <= n:
                    raise SudokitError(f"cell {self.geometry.label(s)} holds {v}, outside 0..{n}")

    @classmethod
    def from_values(cls, values: Iterable[int], geometry: Geometry | None = None) -> Grid:
        """A grid from digits (0 = empty); the standard geometry is chosen from the length if none is given."""
        import math
        import numbers

        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise SudokitError(f"Grid.from_values takes a sequence of digits, not {type(values).__name__}")
        vals: list[int] = []
        for s, v in enumerate(values):
            # 0.5 or NaN is no digit: refused, never truncated into one
            if not isinstance(v, numbers.Real) or not math.isfinite(v) or v != int(v):
                raise SudokitError(f"value {s} is {v!r}, not a digit")
            vals.append(int(v))
        return cls(geometry or for_cells(len(vals)), tuple(vals))

    @classmethod
    def empty(cls, geometry: Geometry) -> Grid:
        """A grid with no digits."""
        return cls(geometry, (0,) * geometry.n_cells)

    def __str__(self) -> str:
        return self.to_line()

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, cell: int) -> int:
        return self.values[cell]

    def to_line(self, blank: str = ".") -> str:
        """One line, row by row, ``blank`` for empty cells (the 81-character form for 9x9)."""
        return "".join(map([blank, *self.geometry.symbols].__getitem__, self.values))

    def to_array(self):
        """The values as a ``(n_cells,)`` uint8 numpy array."""
        import numpy as np

        return np.array(self.values, dtype=np.uint8)

    @property
    def givens(self) -> int:
        """How many cells hold a digit (Norvig's ``squares`` count for a puzzle)."""
        return sum(1 for v in self.values if v)

    @property
    def is_complete(self) -> bool:
        """True when no cell is empty."""
        return all(self.values)

    def with_value(self, cell: int, digit: int) -> Grid:
        """A copy with one cell set (``digit`` 0 clears it)."""
        vals = list(self.values)
        vals[cell] = digit
        return Grid(self.geometry, tuple(vals))

    def conflicts(self) -> list[Conflict]:
        """Every unit in which a digit stands in more than one cell."""
        return conflicts(self.geometry, self.values)

    def is_consistent(self) -> bool:
        """True when no unit holds a digit twice (the givens may still have no solution)."""
        return not self.conflicts()

    def is_solution_of(self, puzzle: Grid) -> bool:
        """True when this grid solves ``puzzle``: complete, every unit a permutation, givens kept."""
        return is_solution(self, puzzle)

    # Jupyter shows a board as a picture.
    def _repr_svg_(self) -> str:  # pragma: no cover - exercised by the render tests
        from sudokit.render.svg import board_svg

        return board_svg(self)


def conflicts(geometry: Geometry, values: Sequence[int]) -> list[Conflict]:
    """Every unit of ``geometry`` in which some digit of ``values`` appears more than once."""
    found = []
    for u, (unit, get) in enumerate(zip(geometry.units, geometry.unit_getters)):
        held = get(values)
        distinct = set(held)
        distinct.discard(0)
        if len(distinct) == len(held) - held.count(0):  # no digit twice: the usual case, checked quickly
            continue
        where: dict[int, list[int]] = {}
        for s in unit:
            if values[s]:
                where.setdefault(values[s], []).append(s)
        for d in sorted(where):
            if len(where[d]) > 1:
                found.append(Conflict(u, geometry.unit_names[u], d, tuple(where[d])))
    return found


def is_solution(grid: Grid, puzzle: Grid | None = None) -> bool:
    """True when ``grid`` is complete, every unit holds each digit once, and ``puzzle``'s givens are kept."""
    if not isinstance(grid, Grid) or not isinstance(puzzle, (Grid, type(None))):
        raise SudokitError("is_solution compares Grids (sudokit.parse reads one from text)")
    g = grid.geometry
    if puzzle is not None:
        kept = [v for p, v in zip(puzzle.values, grid.values) if p]
        if puzzle.geometry != g or kept != [p for p in puzzle.values if p]:
            return False
    values = grid.values
    if 0 in values:
        return False
    n = g.size  # values are 1..n here, so n different values in a unit are each digit once
    return all(len(set(get(values))) == n for get in g.unit_getters)


# ---- candidates -----------------------------------------------------------------------------
def mask_of(digits: Iterable[int]) -> int:
    """The bitmask of some digits: ``mask_of([2, 3]) == 0b110``."""
    m = 0
    for d in digits:
        m |= 1 << (d - 1)
    return m


def digits_of(mask: int) -> tuple[int, ...]:
    """The digits in a bitmask, ascending: ``digits_of(0b110) == (2, 3)``."""
    out = []
    d = 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return tuple(out)


@dataclass(frozen=True)
class Candidates:
    """For each cell, the bitmask of digits that may still go there."""

    geometry: Geometry
    masks: tuple[int, ...]

    @classmethod
    def of(cls, grid: Grid, eliminate: bool = True) -> Candidates:
        """Candidates of a puzzle: a given is its own digit; an empty cell every digit not in a peer
        (every digit at all when ``eliminate`` is false)."""
        g = grid.geometry
        masks = []
        for s, v in enumerate(grid.values):
            if v:
                masks.append(1 << (v - 1))
            elif eliminate:
                seen = mask_of(grid.values[p] for p in g.peers[s] if grid.values[p])
                masks.append(g.all_mask & ~seen)
            else:
                masks.append(g.all_mask)
        return cls(g, tuple(masks))

    def __getitem__(self, cell: int) -> tuple[int, ...]:
        return digits_of(self.masks[cell])

    def count(self, cell: int) -> int:
        """How many candidates a cell has."""
        return self.masks[cell].bit_count()

    def to_grid(self) -> Grid:
        """The grid of cells that have exactly one candidate (others empty)."""
        return Grid(self.geometry, tuple(digits_of(m)[0] if m.bit_count() == 1 else 0 for m in self.masks))
