"""Whether logic is stuck for certain on a puzzle with several solutions, shown by solutions.

A sound step removes only candidates that no solution uses. When every candidate of the start state is the
digit of its cell in some solution, no technique can remove anything: logic is stuck, and saying so needs
no walk through every technique (on an empty 25x25 or 35x35 board the forcing chains alone take tens of
seconds to find nothing). :func:`stuck_for_certain` looks for such a set of solutions: again and again it
takes the first candidate no solution found so far uses and solves the puzzle with that digit placed; a
candidate without a solution (logic may remove it) or more than :data:`MAX_SOLVES` solves per digit end the
search (None), and the caller walks the techniques as before. Each solution found also gives the grids its
digits outside the givens make when shifted round (1 -> 2 -> ... among those digits): each kept when it
solves the puzzle (always without constraints; checked against every rule), so an empty board needs one
solve and a board with a few givens a few per given digit.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from sudokit.grid import Grid

if TYPE_CHECKING:
    from sudokit.constraints import VariantPuzzle
    from sudokit.logic.state import State

#: Solves per board digit at most (a few givens need a few per given digit).
MAX_SOLVES = 6

#: Seconds for one solve (a slow one counts as none: the search ends, or a placement of several cells is
#: tried again with one).
SOLVE_SECONDS = 0.25
#: Seconds of CPU for the whole search (then the walk decides, which on the boards that need this long takes
#: minutes). An empty 25x25 with three givens needs 62 solves: 2.7 s of CPU on a 2-core AMD EPYC (Zen 3), under
#: 1.5 s on the faster machine this was first set on.
SEARCH_SECONDS = 6.0


Solve = Callable[[list[int]], "list[int] | None"]
Holds = Callable[[list[int]], bool]


def _solver(puzzle: Grid | VariantPuzzle) -> tuple[Solve, Holds]:
    """How to solve ``puzzle`` from other givens (one solution as a list of digits, or None) and how to check
    a completed grid against every rule of ``puzzle``."""
    from sudokit.constraints import VariantPuzzle
    from sudokit.grid import is_solution

    if isinstance(puzzle, VariantPuzzle) and not puzzle.constraints:
        puzzle = puzzle.givens  # units only (a jigsaw's or extra regions are in its geometry): the grid engine
    if isinstance(puzzle, VariantPuzzle):
        from sudokit.constraints.solver import solve_variant

        variant = puzzle

        def solve_variant_with(values: list[int]) -> list[int] | None:
            givens = Grid(variant.givens.geometry, tuple(values))
            result = solve_variant(replace(variant, givens=givens), limit=1, time_limit=SOLVE_SECONDS)
            return list(result.solution.values) if result.solution is not None else None

        return solve_variant_with, lambda values: variant.is_solution(Grid(variant.geometry, tuple(values)))

    import numpy as np

    from sudokit.engine.api import budget_ticks, workspace

    grid = puzzle
    ws = workspace(grid.geometry)

    def solve_grid_with(values: list[int]) -> list[int] | None:
        _, count = ws.run(np.array(values, dtype=np.uint8), 1, budget_ticks(SOLVE_SECONDS))
        return [int(v) for v in ws.solution] if count else None

    return solve_grid_with, lambda values: is_solution(Grid(grid.geometry, tuple(values)), grid)


def stuck_for_certain(state: State, puzzle: Grid | VariantPuzzle) -> int | None:
    """The number of solutions found that together use every candidate of ``state`` (so no sound step
    exists), or None when no such set was found (a candidate no solution uses, or the search ran out of
    solves). ``state`` is the start state of ``puzzle`` (its givens placed)."""
    t0 = time.process_time()
    solve, holds = _solver(puzzle)
    n = state.g.size
    given = {v for v in state.values if v}
    free = [d for d in range(1, n + 1) if d not in given]
    used = [0] * len(state.values)
    peers = state.g.peer_sets
    found = solves = 0

    def take(solution: list[int]) -> None:
        nonlocal found
        found += 1
        for s, d in enumerate(solution):
            used[s] |= 1 << (d - 1)

    for cell, value in enumerate(state.values):
        if value:
            continue
        while left := state.cands[cell] & ~used[cell]:
            if solves >= MAX_SOLVES * n or time.process_time() - t0 > SEARCH_SECONDS:
                return None
            digit = (left & -left).bit_length()
            values = list(state.values)
            values[cell] = digit
            solution = None
            if digit in given:  # a given digit: placed at once in more cells that no solution has it in yet
                bit, placed = 1 << (digit - 1), [cell]
                for other in range(cell + 1, len(values)):
                    if state.cands[other] & bit & ~used[other] and not any(other in peers[s] for s in placed):
                        placed.append(other)
                        values[other] = digit
                solution = solve(values) if len(placed) > 1 else None
                solves += len(placed) > 1
                values = list(state.values)
                values[cell] = digit
            if solution is None:
                solution = solve(values)
                solves += 1
            if solution is None or solution[cell] != digit:
                return None
            take(solution)
            for k in range(1, len(free)):  # the free digits shifted round k places
                shift = {d: free[(i + k) % len(free)] for i, d in enumerate(free)}
                shifted = [shift.get(d, d) for d in solution]
                if any(not used[s] >> (d - 1) & 1 for s, d in enumerate(shifted)) and holds(shifted):
                    take(shifted)
    return found
