"""Solve and count variant puzzles: propagation to a fixed point, then search on the fewest candidates.

:func:`solve_variant` and :func:`count_variant` run the compiled kernel (:mod:`.solver_model` builds the
puzzle's arrays once, :mod:`.solver_kernel` searches) and check every grid it returns against every unit and
constraint; a puzzle with a rule the kernel cannot compile goes to the plain-Python solver of this module
(:func:`solve_plain`, :func:`count_plain`), which stays the reference the kernel is tested against.

The plain solver: propagation repeats three steps until nothing changes: a cell left with one digit removes
it from its peers (the geometry's and the constraints' extra peers: cages, renban lines, anti-knight, ...); a
digit with one place left in a unit goes there; every constraint over a changed cell narrows its cells'
candidates. Search
picks an unfilled cell with the fewest candidates and tries each digit on a copy. Every completed grid is
checked against every unit and constraint before it counts as a solution.

Classic puzzles keep the numba engine (:mod:`sudokit.engine.api`).
"""

from __future__ import annotations

import sys
import time
import weakref
from dataclasses import dataclass

from sudokit.constraints.base import Constraint
from sudokit.constraints.cages import KillerCage, cage_combos
from sudokit.constraints.puzzle import VariantPuzzle
from sudokit.errors import SudokitError
from sudokit.grid import Grid
from sudokit.result import Result, Stats, Status, UncheckedSolutionError, invalid_result


class _Timeout(Exception):
    pass


@dataclass
class _Model:
    """What the search reads, built once per puzzle."""

    all_mask: int
    units: list[tuple[int, ...]]
    peers: tuple[tuple[int, ...], ...]
    constraints: list
    watch: list[list[int]]  #: for each cell, the constraints that read it

    @classmethod
    def of(cls, puzzle: VariantPuzzle) -> _Model:
        g = puzzle.geometry
        # region-like kinds keep the base class's propagate: their work is done through units and peers
        cons = [c for c in puzzle.constraints if type(c).propagate is not Constraint.propagate]
        cons += unit_remainder_cages(puzzle)
        watch: list[list[int]] = [[] for _ in g.cells]
        for i, con in enumerate(cons):
            for s in set(con.cells):
                watch[s].append(i)
        return cls(g.all_mask, [tuple(u) for u in g.units], puzzle.peers, cons, watch)


def unit_remainder_cages(puzzle: VariantPuzzle) -> list[KillerCage]:
    """Derived cages (the killer solvers' "innies"): in a unit, the cells outside the summed killer cages that
    lie wholly inside it hold the unit's total minus those cages' sums, without repeats. Sound for any unit
    (it holds every digit once); used for propagation only, never written or checked."""
    g = puzzle.geometry
    cages = [c for c in puzzle.constraints if isinstance(c, KillerCage) and c.total is not None]
    if not cages:
        return []
    full = g.size * (g.size + 1) // 2
    out = []
    for unit, cells in zip(g.units, g.unit_sets):
        inside: list[KillerCage] = []
        used: set[int] = set()
        total = 0
        for cage in cages:
            if cells.issuperset(cage.cage) and used.isdisjoint(cage.cage):
                inside.append(cage)
                used.update(cage.cage)
                total += cage.total or 0  # every cage here has its sum (see above)
        rest = tuple(s for s in unit if s not in used)
        if inside and rest and cage_combos(len(rest), full - total, g.size):
            out.append(KillerCage(rest, full - total))
    return out


class _Search:
    def __init__(self, puzzle: VariantPuzzle, limit: int, deadline: float | None) -> None:
        self.puzzle = puzzle
        self.model = _Model.of(puzzle)
        self.limit = limit
        self.deadline = deadline
        self.solutions: list[tuple[int, ...]] = []
        self.stats = Stats()

    def propagate(self, masks: list[int], placed: list[bool], dirty: set[int]) -> bool:
        m = self.model
        peers, units, cons, watch, full = m.peers, m.units, m.constraints, m.watch, m.all_mask
        n_cells = len(masks)
        while True:
            stack = [s for s in range(n_cells) if not placed[s] and not masks[s] & (masks[s] - 1)]
            while stack:
                s = stack.pop()
                if placed[s]:
                    continue
                placed[s] = True
                bit = masks[s]
                for p in peers[s]:
                    mp = masks[p]
                    if mp & bit:
                        mp &= ~bit
                        if not mp:
                            return False
                        masks[p] = mp
                        dirty.add(p)
                        if not mp & (mp - 1):
                            stack.append(p)
            progress = False
            for unit in units:
                once = twice = 0
                for c in unit:
                    mc = masks[c]
                    twice |= once & mc
                    once |= mc
                if once != full:
                    return False
                alone = once & ~twice
                if alone:
                    for c in unit:
                        mc = masks[c]
                        hit = mc & alone
                        if hit and hit != mc:
                            if hit & (hit - 1):
                                return False  # two digits need the same cell
                            masks[c] = hit
                            dirty.add(c)
                            progress = True
            if progress:
                continue
            if not dirty:
                return True
            todo = sorted({i for s in dirty for i in watch[s]})
            dirty.clear()
            for i in todo:
                con = cons[i]
                cells = con.cells
                before = [masks[s] for s in cells]
                if not con.propagate(masks):
                    return False
                for s, b in zip(cells, before):
                    if masks[s] != b:
                        dirty.add(s)
            if not dirty:
                return True

    def run(self, masks: list[int], placed: list[bool], dirty: set[int]) -> None:
        stats = self.stats
        stats.nodes += 1
        if self.deadline is not None and not stats.nodes & 255 and time.perf_counter() > self.deadline:
            raise _Timeout
        if not self.propagate(masks, placed, dirty):
            stats.backtracks += 1
            return
        best, fewest = -1, 1 << 30
        for s, mask in enumerate(masks):
            k = mask.bit_count()
            if 1 < k < fewest:
                best, fewest = s, k
                if k == 2:
                    break
        if best < 0:
            values = tuple(mask.bit_length() for mask in masks)
            if self.puzzle.is_solution(Grid(self.puzzle.geometry, values)):
                self.solutions.append(values)
            else:  # a propagator that is not yet a full check let a broken grid through: not a solution
                stats.backtracks += 1
            return
        mask = masks[best]
        while mask and len(self.solutions) < self.limit:
            bit = mask & -mask
            mask ^= bit
            if mask:
                stats.guesses += 1
            child = masks.copy()
            child[best] = bit
            self.run(child, placed.copy(), {best})


def _room_for(n_cells: int) -> None:
    """The search recurses once per choice, at most once per cell: make room on large boards (25x25 and up)."""
    if sys.getrecursionlimit() < n_cells + 200:
        sys.setrecursionlimit(n_cells + 200)


def initial_masks(puzzle: VariantPuzzle) -> list[int]:
    """The candidates before propagation: a given is its own digit, any other cell every digit."""
    full = puzzle.geometry.all_mask
    return [1 << (v - 1) if v else full for v in puzzle.givens.values]


def solve_plain(puzzle: VariantPuzzle, limit: int = 2, time_limit: float | None = None) -> Result:
    """:func:`solve_variant` on the plain-Python solver (the reference; any rule, slower).

    The result's ``puzzle`` is the givens (their geometry holds the constraints' extra units); a solution is
    checked against every unit and constraint before it is returned.
    """
    if limit < 1:
        raise SudokitError("limit must be at least 1")
    start = time.perf_counter()
    grid = puzzle.givens
    bad = invalid_result(grid, "variant")
    if bad is not None:
        bad.stats.seconds = time.perf_counter() - start
        return bad
    deadline = None if time_limit is None else start + time_limit
    _room_for(len(grid.values))
    search = _Search(puzzle, limit, deadline)
    masks = initial_masks(puzzle)
    timed_out = False
    try:
        search.run(masks, [False] * len(masks), set(range(len(masks))))
    except _Timeout:
        timed_out = True
    stats = search.stats
    stats.seconds = time.perf_counter() - start
    found = search.solutions
    count = len(found)
    if timed_out and count < limit:
        return Result(Status.TIMEOUT, grid, count=count, stats=stats, method="variant", message="time limit reached")
    if count == 0:
        return Result(
            Status.NO_SOLUTION,
            grid,
            count=0,
            stats=stats,
            method="variant",
            message="no grid keeps these givens and constraints",
        )
    solution = Grid(puzzle.geometry, found[0])
    if not puzzle.is_solution(solution):  # pragma: no cover - run() only keeps checked grids
        raise UncheckedSolutionError(f"variant solver returned a broken grid: {solution.to_line()}")
    if count >= 2 and limit >= 2:
        return Result(
            Status.MULTIPLE, grid, count=count, stats=stats, method="variant", message=f"at least {count} solutions"
        )
    return Result(Status.SOLVED, grid, solution=solution, count=count, stats=stats, method="variant")


def count_plain(puzzle: VariantPuzzle, limit: int = 2) -> int:
    """:func:`count_variant` on the plain-Python solver."""
    if limit < 1:
        raise SudokitError("limit must be at least 1")
    if invalid_result(puzzle.givens) is not None:
        return 0
    _room_for(len(puzzle.givens.values))
    search = _Search(puzzle, limit, None)
    masks = initial_masks(puzzle)
    search.run(masks, [False] * len(masks), set(range(len(masks))))
    return len(search.solutions)


#: Solutions the kernel hands back for checking (a count above this checks the first ones only).
KEEP = 16


#: The last puzzle compiled (a weak reference) and its model (None: a rule without a compiled propagator). A
#: puzzle is immutable and the kernel only reads its model, so the next call on the same puzzle (a uniqueness
#: proof after a solve, a count after a hint) compiles nothing; one entry, so a batch keeps no models alive.
_last: tuple = (None, None)


def _compiled(puzzle: VariantPuzzle):
    """The puzzle's compiled model (made unless it was the last one compiled), or None when a rule has no
    compiled propagator."""
    global _last
    from sudokit.constraints.solver_model import Model, NotCompiled

    ref, model = _last
    if ref is not None and ref() is puzzle:
        return model
    try:
        model = Model.of(puzzle)
    except NotCompiled:
        model = None
    _last = (weakref.ref(puzzle), model)
    return model


def _kernel_run(puzzle: VariantPuzzle, model, limit: int, time_limit: float | None):
    """The kernel's run and its solutions as grids, each checked against every unit (with the givens) and
    every constraint."""
    from sudokit.constraints.solver_model import run
    from sudokit.engine.api import budget_ticks

    out = run(model, limit, budget_ticks(time_limit), keep=min(limit, KEEP))
    grids = []
    for row in out.solutions:
        values = tuple(row.tolist())
        grid = Grid(puzzle.geometry, values)
        if not model.keeps_units(row) or puzzle.broken(values):
            raise UncheckedSolutionError(f"variant kernel returned a broken grid: {grid.to_line()}")
        grids.append(grid)
    return out, grids


def _plain_while_cold(puzzle: VariantPuzzle, limit: int, time_limit: float | None) -> Result | None:
    """The plain solver's answer while the variant kernels are cold (:func:`sudokit.jit.plain_budget`: a
    first command after an install answers without a 24-second compile), or None when it is not its turn or
    it ran out of its budget before the answer (the kernels are compiled then). Within the caller's own
    ``time_limit``, a timeout is the answer."""
    from sudokit import jit

    budget = jit.plain_budget("variants")
    if budget <= 0.0:
        return None
    mine = time_limit is not None and time_limit <= budget
    start = time.process_time()  # CPU, as the compile it weighs against
    result = solve_plain(puzzle, limit, time_limit if mine else (None if budget == float("inf") else budget))
    answered = result.status is not Status.TIMEOUT or mine
    jit.spent_plain("variants", time.process_time() - start, answered)
    return result if answered else None


def solve_variant(puzzle: VariantPuzzle, limit: int = 2, time_limit: float | None = None) -> Result:
    """Solve a variant puzzle: ``limit`` 2 (the default) also proves uniqueness, 1 takes any solution.

    The compiled kernel answers (the plain solver when a rule has no compiled form, or first while the kernel
    is cold: :func:`_plain_while_cold`). The result's ``puzzle`` is the givens (their geometry holds the
    constraints' extra units); a solution is checked against every unit and constraint before it is returned.
    ``time_limit`` (seconds) gives status ``timeout``.
    """
    from sudokit.constraints.solver_kernel import TIMEOUT

    if limit < 1:
        raise SudokitError("limit must be at least 1")
    start = time.perf_counter()
    grid = puzzle.givens
    cold = _plain_while_cold(puzzle, limit, time_limit)
    if cold is not None:
        return cold
    model = _compiled(puzzle)
    if model is None:
        return solve_plain(puzzle, limit, time_limit)
    out, grids = _kernel_run(puzzle, model, limit, time_limit)
    if out.count == 0:  # clashing givens have no solution: say which clash (looked for only now)
        bad = invalid_result(grid, "variant")
        if bad is not None:
            bad.stats.seconds = time.perf_counter() - start
            return bad
    g, nodes, back = (int(x) for x in out.stats[:3])
    stats = Stats(guesses=g, nodes=nodes, backtracks=back, seconds=time.perf_counter() - start)
    count = out.count
    if out.status == TIMEOUT:
        return Result(Status.TIMEOUT, grid, count=count, stats=stats, method="variant", message="time limit reached")
    if count == 0:
        return Result(
            Status.NO_SOLUTION,
            grid,
            count=0,
            stats=stats,
            method="variant",
            message="no grid keeps these givens and constraints",
        )
    if count >= 2 and limit >= 2:
        return Result(
            Status.MULTIPLE, grid, count=count, stats=stats, method="variant", message=f"at least {count} solutions"
        )
    return Result(Status.SOLVED, grid, solution=grids[0], count=count, stats=stats, method="variant")


def count_variant(puzzle: VariantPuzzle, limit: int = 2, time_limit: float | None = None) -> int:
    """Number of solutions, exact below ``limit``, else ``limit``; clashing givens have 0. ``time_limit``
    (seconds) stops the count with :class:`~sudokit.errors.TimeLimitError` (its ``count``: found so far)."""
    from sudokit.constraints.solver_kernel import TIMEOUT
    from sudokit.errors import TimeLimitError

    if limit < 1:
        raise SudokitError("limit must be at least 1")
    cold = _plain_while_cold(puzzle, limit, time_limit)
    if cold is not None:
        found = (cold.count or 0) if cold.status is not Status.INVALID else 0
        if cold.status is Status.TIMEOUT:
            raise TimeLimitError(f"time limit of {time_limit:g} s reached after {found} solutions", found)
        return found
    model = _compiled(puzzle)
    if model is None:
        return count_plain(puzzle, limit)  # (clashing givens: 0, the plain counter looks for them first)
    out, _ = _kernel_run(puzzle, model, limit, time_limit)  # clashing givens fail the first propagation: 0
    if out.status == TIMEOUT:
        raise TimeLimitError(f"time limit of {time_limit:g} s reached after {out.count} solutions", out.count)
    return out.count
