"""DIMACS CNF for external SAT solvers: a puzzle, or the question "is this model Sudoku?".

Variable ``(cell * n + d) + 1`` says cell ``cell`` holds digit ``d + 1`` (729 variables on 9x9).

* ``minimal`` (Lynce & Ouaknine's minimal encoding): every cell holds at least one digit, and no
  digit appears twice in a unit. Enough for puzzles: a solution reads off the true variables.
* ``extended``: adds "at most one digit per cell" and "every digit at least once per unit", the
  redundant clauses that make unit propagation much stronger (and, for model questions, spare the
  solver pigeonhole reasoning).

For a model, the formula is the model's units plus "some unit it leaves out is broken" (a digit is
absent from it); it is unsatisfiable exactly when the model is Sudoku. Model formulas always say
"exactly one digit per cell", since otherwise a broken unit means nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from sudokit.grid import Grid
from sudokit.rules.model import Board


def _x(n: int, cell: int, d: int) -> int:
    return cell * n + d + 1


def _units(n: int, units, clauses: list[list[int]], extended: bool) -> None:
    for unit in units:
        for d in range(n):
            for a, b in combinations(unit, 2):
                clauses.append([-_x(n, a, d), -_x(n, b, d)])
            if extended:
                clauses.append([_x(n, c, d) for c in unit])


def _cells(n: int, n_cells: int, clauses: list[list[int]], at_most_one: bool) -> None:
    for c in range(n_cells):
        clauses.append([_x(n, c, d) for d in range(n)])
        if at_most_one:
            clauses += [[-_x(n, c, d1), -_x(n, c, d2)] for d1, d2 in combinations(range(n), 2)]


def puzzle_cnf(grid: Grid, encoding: str = "minimal") -> tuple[int, list[list[int]]]:
    """``(n_vars, clauses)`` for a puzzle: its geometry's units and one unit clause per given."""
    g = grid.geometry
    n = g.size
    clauses: list[list[int]] = []
    _cells(n, g.n_cells, clauses, at_most_one=encoding == "extended")
    _units(n, g.units, clauses, extended=encoding == "extended")
    clauses += [[_x(n, c, v - 1)] for c, v in enumerate(grid.values) if v]
    return g.n_cells * n, clauses


def model_cnf(board: Board, model: int, encoding: str = "extended") -> tuple[int, list[list[int]]]:
    """``(n_vars, clauses)``, unsatisfiable iff ``model`` has exactly the solutions of Sudoku."""
    g = board.geometry
    n = g.size
    clauses: list[list[int]] = []
    _cells(n, g.n_cells, clauses, at_most_one=True)
    _units(n, [board.cells(u) for u in board.members(model)], clauses, extended=encoding == "extended")
    top = g.n_cells * n
    broken = []
    for u in board.members(board.missing(model)):
        for d in range(n):
            top += 1  # "digit d is absent from unit u"
            broken.append(top)
            clauses += [[-top, -_x(n, c, d)] for c in board.cells(u)]
    clauses.append(broken)  # empty when nothing is missing: trivially unsatisfiable, as it should be
    return top, clauses


def read_solution(grid_or_board, true_vars) -> list[int]:
    """Digits per cell from a solver's true variables (the first true digit of each cell)."""
    g = grid_or_board.geometry
    n = g.size
    true = set(v for v in true_vars if v > 0)
    return [next((d + 1 for d in range(n) if _x(n, c, d) in true), 0) for c in g.cells]


def to_dimacs(n_vars: int, clauses: list[list[int]], comments: Sequence[str] = ()) -> str:
    """The DIMACS text: comment lines, the ``p cnf`` header, one clause per line ending in 0."""
    lines = [f"c {line}" for line in comments]
    lines.append(f"p cnf {n_vars} {len(clauses)}")
    lines += [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return "\n".join(lines) + "\n"
