"""Entailment by SAT (python-sat): is a model Sudoku, and if not, a counterexample grid.

Encoding (the *direct* one): variable ``x[c, d]`` says cell ``c`` holds digit ``d``. Every cell
holds exactly one digit. Each big constraint ``u`` has a selector ``s_u``; when ``s_u`` is assumed
true, every digit appears in ``u`` at least once and no digit twice (pairwise at-most-one). Either
half alone is equivalent with ``n`` cells and ``n`` digits, but only both together spare the solver a
pigeonhole argument (resolution needs exponentially long proofs of those): with both, the chute
lemmas become short per-digit counts. A *violation* literal ``v_u`` says unit ``u`` is broken: some
digit is absent from it (by pigeonhole, then another is doubled).

A model ``M`` is Sudoku iff ``M`` plus "some missing unit is violated" is unsatisfiable. One solver
holds the whole board; each query assumes the selectors of ``M`` and an activation literal for one
fresh clause ``OR v_u`` over the units asked about, so the clause database is built once.

A second, independent encoding (:class:`CountingOracle`) states units with a sequential-counter
at-most-one plus at-least-one, and violations as "two cells of the unit share a digit", builds a
fresh formula per query and runs another solver; tests use it to confirm "entailed" verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from sudokit.grid import Grid
from sudokit.rules.model import Board

#: The solver used for queries (CaDiCaL 1.5.3 measured fastest on these instances).
DEFAULT_SOLVER = "cadical153"
SECOND_SOLVER = "cadical195"


@dataclass(frozen=True)
class Verdict:
    """The answer to "does ``model`` entail ``targets``?".

    ``counterexample`` is a filled grid satisfying every constraint of the model and breaking
    ``broken`` (one of the targets), or ``None`` when the model entails them all.
    """

    model: int
    targets: int
    counterexample: Grid | None
    broken: tuple[int, ...]

    @property
    def entailed(self) -> bool:
        """True when no grid satisfies the model and breaks a target."""
        return self.counterexample is None


def unit_holds(grid: Grid, cells) -> bool:
    """True when the cells hold pairwise distinct non-zero digits (a plain-Python check)."""
    values = [grid.values[c] for c in cells]
    return 0 not in values and len(set(values)) == len(values)


def check_counterexample(board: Board, model: int, targets: int, grid: Grid) -> tuple[int, ...]:
    """Independently check a counterexample: the grid must be filled, satisfy every constraint of
    ``model``, and break at least one of ``targets``. Returns the broken targets; raises
    ``AssertionError`` when the grid is not a counterexample."""
    n = board.geometry.size
    assert all(1 <= v <= n for v in grid.values), "a counterexample must be a filled grid"
    for u in board.members(model):
        assert unit_holds(grid, board.cells(u)), f"{board.names[u]} fails in the counterexample"
    broken = tuple(u for u in board.members(targets) if not unit_holds(grid, board.cells(u)))
    assert broken, "the counterexample breaks none of the targets"
    return broken


class Oracle:
    """Incremental SAT oracle for one board (see the module docstring for the encoding)."""

    def __init__(self, board: Board, solver: str = DEFAULT_SOLVER) -> None:
        from pysat.solvers import Solver

        self.board = board
        g = board.geometry
        n = g.size
        self.n = n
        self.solver = Solver(name=solver)
        self.calls = 0
        add = self.solver.add_clause
        for c in g.cells:
            add([self.x(c, d) for d in range(n)])
            for d1, d2 in combinations(range(n), 2):
                add([-self.x(c, d1), -self.x(c, d2)])
        top = g.n_cells * n
        self.select = []
        self.violate = []
        for unit in g.units:
            s = top + 1
            v = top + 2
            top += 2
            for d in range(n):
                add([-s] + [self.x(c, d) for c in unit])
                for a, b in combinations(unit, 2):
                    add([-s, -self.x(a, d), -self.x(b, d)])
            absent = []
            for d in range(n):
                top += 1
                absent.append(top)
                for c in unit:
                    add([-top, -self.x(c, d)])
            add([-v] + absent)
            self.select.append(s)
            self.violate.append(v)
        self.top = top

    def x(self, cell: int, digit0: int) -> int:
        """The variable "cell holds digit ``digit0 + 1``"."""
        return cell * self.n + digit0 + 1

    def entails(self, model: int, targets: int | None = None) -> Verdict:
        """Does ``model`` entail every constraint in ``targets`` (default: all it misses)?"""
        b = self.board
        targets = b.missing(model) if targets is None else targets & ~model
        if not targets:
            return Verdict(model, targets, None, ())
        self.top += 1
        act = self.top
        self.solver.add_clause([-act] + [self.violate[u] for u in b.members(targets)])
        assumptions = [self.select[u] for u in b.members(model)] + [act] + self._digit_order(model)
        self.calls += 1
        sat = self.solver.solve(assumptions=assumptions)
        grid = self._grid() if sat else None
        self.solver.add_clause([-act])  # retire the query clause
        if grid is None:
            return Verdict(model, targets, None, ())
        broken = check_counterexample(b, model, targets, grid)
        return Verdict(model, targets, grid, broken)

    def _digit_order(self, model: int) -> list[int]:
        """Break the digit symmetry: the first unit of the model holds 1..n in cell order.

        Renaming digits maps grids of the model to grids of the model and broken units to broken
        units, so some counterexample (if any) has this form; UNSAT proofs get ``n!`` times smaller.
        """
        present = self.board.members(model)
        if not present:
            return []
        return [self.x(c, i) for i, c in enumerate(self.board.cells(present[0]))]

    def _grid(self) -> Grid:
        true = set(lit for lit in self.solver.get_model() if lit > 0)
        n = self.n
        values = [next(d + 1 for d in range(n) if self.x(c, d) in true) for c in self.board.geometry.cells]
        return Grid(self.board.geometry, tuple(values))

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()


class CountingOracle:
    """A second, independent encoding and solver, used to confirm "entailed" verdicts.

    Units: every digit at least once, and at most once through pysat's sequential counter (not the
    pairwise clauses of :class:`Oracle`). Violation of unit ``u``: some pair of its cells shares a
    digit, through auxiliary "pair ``(a, b)`` both hold ``d``" variables. The whole query is built
    fresh each time (no incremental state shared with :class:`Oracle`).
    """

    def __init__(self, board: Board, solver: str = SECOND_SOLVER) -> None:
        self.board = board
        self.solver_name = solver
        self.n = board.geometry.size

    def entails(self, model: int, targets: int | None = None) -> bool:
        """True when no filled grid satisfies ``model`` and breaks one of ``targets``."""
        from pysat.card import CardEnc, EncType
        from pysat.formula import CNF
        from pysat.solvers import Solver

        b = self.board
        g = b.geometry
        n = self.n
        targets = b.missing(model) if targets is None else targets & ~model

        def x(c: int, d: int) -> int:
            return c * n + d + 1

        cnf = CNF()
        for c in g.cells:
            cnf.append([x(c, d) for d in range(n)])
            cnf.extend([[-x(c, d1), -x(c, d2)] for d1, d2 in combinations(range(n), 2)])
        top = g.n_cells * n
        for u in b.members(model):
            for d in range(n):
                lits = [x(c, d) for c in b.cells(u)]
                cnf.append(lits)
                amo = CardEnc.atmost(lits, bound=1, top_id=top, encoding=EncType.seqcounter)
                top = max(top, amo.nv)
                cnf.extend(amo.clauses)
        clash = []
        for u in b.members(targets):
            for a, c2 in combinations(b.cells(u), 2):
                for d in range(n):
                    top += 1
                    clash.append(top)
                    cnf.extend([[-top, x(a, d)], [-top, x(c2, d)]])
        if not clash:
            return True
        cnf.append(clash)
        present = b.members(model)
        if present:  # digit symmetry: the first unit of the model reads 1..n (see Oracle._digit_order)
            cnf.extend([[x(c, i)] for i, c in enumerate(b.cells(present[0]))])
        with Solver(name=self.solver_name, bootstrap_with=cnf.clauses) as solver:
            return not solver.solve()
