"""Redundant Sudoku rules (Demoen & Garcia de la Banda, 2012) as a library.

Sudoku's 27 big constraints (``R1..R9``, ``C1..C9``, ``B1..B9``) are not all needed: the chute
lemmas show that up to six can be left out, and no seven can. This package holds the models
(:mod:`~sudokit.rules.model`), the lemma closure with printed proofs (:mod:`~sudokit.rules.lemmas`),
SAT entailment with counterexample grids (:mod:`~sudokit.rules.sat`), the board symmetries and the
classes of Missing(n) (:mod:`~sudokit.rules.symmetry`, :mod:`~sudokit.rules.classify`), small
constraints (:mod:`~sudokit.rules.small`), the paper's reproduction (:mod:`~sudokit.rules.reproduce`),
DIMACS output (:mod:`~sudokit.rules.cnf`) and pictures (:mod:`~sudokit.rules.picture`).

The one thing most users want is here at the top: :data:`TWENTY_ONE`, a proven set of 21 units that
is enough to validate a completed 9x9 grid, and :func:`check_with_units`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from sudokit.errors import SudokitError
from sudokit.grid import Grid

#: 21 big constraints that are a Sudoku model (Theorem 4.5's shape): every box, and all rows and
#: columns except the middle one of each band and stack. A filled grid satisfying these 21 satisfies
#: all 27 (proof: ``sudokit rules prove 21``), and it is the set with the fewest small constraints (648).
TWENTY_ONE: tuple[str, ...] = (
    "R1", "R3", "R4", "R6", "R7", "R9",
    "C1", "C3", "C4", "C6", "C7", "C9",
    "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9",
)  # fmt: skip


def check_with_units(grid: Grid, names: Iterable[str]) -> bool:
    """True iff every named unit of the grid holds each digit exactly once (so no empty cell).

    ``names`` are big-constraint names of the grid's geometry (``R1``, ``C4``, ``B9``, ``D1``...).
    With :data:`TWENTY_ONE` on a 9x9 grid the answer equals checking all 27 units.
    """
    values = grid.values
    full = _digits(grid.geometry.size)
    return all(frozenset([values[c] for c in cells]) == full for cells in _units_named(grid.geometry, tuple(names)))


@cache
def _digits(n: int) -> frozenset[int]:
    return frozenset(range(1, n + 1))


@cache
def _units_named(geometry, names: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    from sudokit.rules.model import board_of

    b = board_of(geometry)
    return tuple(b.cells(b.lookup(name)) for name in names)


__all__ = ["TWENTY_ONE", "SudokitError", "check_with_units"]
