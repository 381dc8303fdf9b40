"""Small constraints: the cell-pair ``!=`` rules, and local minimality of a set of them.

A set of small constraints is *locally minimal* for Sudoku when dropping any one of them lets a
filled grid through that breaks the rules. The paper (Section 6) shows this for the 648 pairs of
Theorem 4.5's model by finding, for each pair ``(a, b)``, a grid that keeps the other 647 pairs
different while ``a`` and ``b`` are equal. We ask a SAT solver the same question, pair by pair,
on one incremental instance, and check each grid in plain Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from sudokit.geometry import Geometry
from sudokit.grid import Grid


@dataclass(frozen=True)
class Removal:
    """Dropping ``pair`` from the set: ``grid`` keeps every other pair distinct, ``pair`` equal."""

    pair: tuple[int, int]
    grid: Grid | None


def check_removal(pairs, removed: tuple[int, int], grid: Grid) -> None:
    """Plain-Python check of a removal witness; raises ``AssertionError`` if it is not one."""
    n = grid.geometry.size
    v = grid.values
    assert all(1 <= x <= n for x in v), "a witness must be a filled grid"
    a, b = removed
    assert v[a] == v[b], "the removed pair must hold equal digits"
    for p, q in pairs:
        if (p, q) != removed:
            assert v[p] != v[q], f"cells {p} and {q} must differ"


def local_minimality(geometry: Geometry, pairs, solver: str = "cadical153") -> list[Removal]:
    """For each pair of the set, a witness grid (or ``None`` if dropping it keeps Sudoku)."""
    from pysat.solvers import Solver

    n = geometry.size
    pairs = sorted(pairs)

    def x(c: int, d: int) -> int:
        return c * n + d + 1

    top = geometry.n_cells * n
    out: list[Removal] = []
    with Solver(name=solver) as s:
        for c in geometry.cells:
            s.add_clause([x(c, d) for d in range(n)])
            for d1, d2 in combinations(range(n), 2):
                s.add_clause([-x(c, d1), -x(c, d2)])
        keep, same = {}, {}
        for a, b in pairs:
            top += 2
            keep[a, b], same[a, b] = top - 1, top
            for d in range(n):
                s.add_clause([-keep[a, b], -x(a, d), -x(b, d)])
                s.add_clause([-same[a, b], -x(a, d), x(b, d)])
                s.add_clause([-same[a, b], x(a, d), -x(b, d)])
        for removed in pairs:
            assumptions = [keep[p] for p in pairs if p != removed] + [same[removed]]
            if s.solve(assumptions=assumptions):
                true = {lit for lit in s.get_model() if lit > 0}
                values = tuple(next(d + 1 for d in range(n) if x(c, d) in true) for c in geometry.cells)
                grid = Grid(geometry, values)
                check_removal(pairs, removed, grid)
                out.append(Removal(removed, grid))
            else:
                out.append(Removal(removed, None))
    return out
