"""The library calls behind the API that may take time, as plain functions over plain data.

Each task takes a puzzle line and a variant name (already validated by :mod:`.inputs`) and returns a
JSON-ready dict, so it can run in a worker process (:mod:`.worker`). The words of the answers are the
library's: status ``solved`` / ``multiple`` / ``no_solution`` / ``invalid``, cells as indices, digits 1..n.
"""

from __future__ import annotations

from typing import Any

from sudokit.grid import Grid
from sudokit.result import Status
from sudokit.web.inputs import cached_geometry, fixed_size

#: A small puzzle the workers solve once when they start, to load the compiled kernels.
_WARM_UP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: A puzzle (top1465 #1) whose logical path tries every row of the technique table and reaches forcing
#: chains, so rating it once loads (or, on a cold cache, compiles) every logic kernel.
_WARM_UP_LOGIC = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def grid_of(line: str, variant: str) -> Grid:
    """Rebuild a validated puzzle from its line and variant name."""
    from sudokit.formats import parse_grid

    if fixed_size(variant):
        return parse_grid(line, geometry=cached_geometry(variant), mode="line")
    return parse_grid(line, geometry=cached_geometry(variant, len(line)), mode="line")


def warm_up() -> None:
    """Run once what the tasks run (the engine's solve and count, a rating by logic with its extras), so that
    numba loads its cached machine code, or compiles it on a cold cache, before the worker takes calls: a
    first hint or rating must not spend its time limit compiling (the logic takes 0.3 s here when the cache
    is warm, about 25 s when it is cold)."""
    from sudokit import jit
    from sudokit.engine import count_solutions
    from sudokit.engine.api import solve_compiled
    from sudokit.formats import parse_grid
    from sudokit.logic.rating import rate

    solve_compiled(parse_grid(_WARM_UP))  # the kernel itself: sudokit.solve would answer in plain Python
    count_solutions(_WARM_UP, limit=2)
    with jit.forms("kernel"):  # the techniques' kernels too, not their plain forms (a worker lives long)
        rate(_WARM_UP_LOGIC)
        # HoDoKu's set reaches the chain, ALS and forcing rows that Sudoku Explainer's chains come before
        rate(_WARM_UP_LOGIC, extras=False, techniques="hodoku")


def stats_dict(stats) -> dict[str, Any]:
    """Search statistics as JSON."""
    return {
        "guesses": stats.guesses,
        "nodes": stats.nodes,
        "backtracks": stats.backtracks,
        "seconds": round(stats.seconds, 6),
    }


def solve_task(line: str, variant: str) -> dict[str, Any]:
    """Solve and prove uniqueness (limit 2): status, the solution when unique (the engine checks it against
    the rules before returning it), the count found."""
    from sudokit.engine import solve

    result = solve(grid_of(line, variant), limit=2)
    solution = result.solution
    return {
        "status": str(result.status),
        "solution": list(solution.values) if solution is not None else None,
        "count": result.count,
        "message": result.message,
        "stats": stats_dict(result.stats),
    }


def count_task(line: str, variant: str, limit: int) -> dict[str, Any]:
    """How many solutions, counted up to ``limit`` (``exact`` is false when the limit was reached)."""
    from sudokit.engine import count_solutions

    puzzle = grid_of(line, variant)
    if puzzle.conflicts():
        return {"count": 0, "limit": limit, "exact": True}
    count = count_solutions(puzzle, limit=limit)
    return {"count": count, "limit": limit, "exact": count < limit}


def step_json(step, values: list[int], cands: list[int]) -> dict[str, Any]:
    """A logic step with the board it applies to (values and candidate masks before the step)."""
    return {**step.to_dict(), "values": list(values), "masks": list(cands)}


def path_json(start, path, stuck_hint: str = "") -> dict[str, Any]:
    """An explained path as the page steps through it: each step with the board before it (replayed from
    ``start``, a grid, marks or a variant puzzle), the board it ends on and a sentence on how it ended."""
    from sudokit.logic.explain import start_state

    state = start_state(start)
    steps = []
    for step in path.steps:
        steps.append(step_json(step, state.values, state.cands))
        state.apply(step)
    if path.solved:
        message = f"solved by logic in {len(steps)} steps"
    elif path.stuck:
        message = f"logic is stuck after {len(steps)} steps{stuck_hint}"
    else:
        message = f"logic stopped after {len(steps)} steps"
    return {
        "steps": steps,
        "solved": path.solved,
        "stuck": path.stuck,
        "rating": path.rating if path.solved else None,
        "final": list(state.values),
        "final_masks": list(state.cands),
        "message": message,
    }


def _logic_state(puzzle: Grid, masks: list[int] | None):
    """The logic state of a puzzle; ``masks`` (the page's candidates) can only narrow the usual ones."""
    from sudokit.logic import State

    state = State.from_grid(puzzle)
    if masks is None:
        return state
    narrowed = [a & b for a, b in zip(state.cands, masks)]
    return State.from_candidates(puzzle.geometry, state.values, narrowed, givens=state.givens)


def hint_task(line: str, variant: str, masks: list[int] | None = None) -> dict[str, Any]:
    """The next logical step from the grid (and the page's candidates, when given), or why there is none.

    A grid with several solutions gets no step from techniques that assume a unique one."""
    from sudokit.logic import next_step
    from sudokit.logic.rating import check_proper
    from sudokit.logic.registry import applicable

    puzzle = grid_of(line, variant)
    clash = puzzle.conflicts()
    if clash:
        return {"step": None, "message": f"the grid breaks the rules: {clash[0].describe(puzzle.geometry)}"}
    if puzzle.is_complete:
        return {"step": None, "message": "the grid is complete"}
    state = _logic_state(puzzle, masks)
    if state.is_broken():
        return {"step": None, "message": "a cell has no candidate left: an earlier digit is wrong"}
    check = check_proper(puzzle)
    if check.status is Status.NO_SOLUTION:
        return {"step": None, "message": "the grid has no solution: an earlier digit is wrong"}
    before_values, before_cands = state.values[:], state.cands[:]
    step = next_step(state, applicable(state, uniqueness=check.proper))
    if step is None:
        return {"step": None, "message": "no technique applies here: logic is stuck (try Solve)"}
    return {"step": step_json(step, before_values, before_cands), "message": ""}


def _start(puzzle, masks: list[int] | None):
    """What logic starts from: the grid, or with the page's candidates the pencil marks they leave (placed
    cells keep their digit), as :class:`~sudokit.grid.Candidates` for the proper-puzzle check and the rating."""
    from sudokit.grid import Candidates

    if masks is None:
        return puzzle
    state = _logic_state(puzzle, masks)
    marks = [1 << (v - 1) if v else m for v, m in zip(state.values, state.cands)]
    return Candidates(puzzle.geometry, tuple(marks))


def explain_task(line: str, variant: str, masks: list[int] | None = None) -> dict[str, Any]:
    """The whole logical path, each step with the board before it, so the page can step back and forth;
    from the page's candidates when given, as a hint starts from them.

    A puzzle with several solutions is explained without the techniques that assume a unique one."""
    from sudokit.logic import explain
    from sudokit.logic.rating import check_proper

    puzzle = grid_of(line, variant)
    clash = puzzle.conflicts()
    if clash:
        return {
            "steps": [],
            "solved": False,
            "stuck": False,
            "rating": None,
            "final": list(puzzle.values),
            "final_masks": [],
            "message": f"the grid breaks the rules: {clash[0].describe(puzzle.geometry)}",
        }
    start = _start(puzzle, masks)
    check = check_proper(start)
    if check.status is Status.NO_SOLUTION:
        return {
            "steps": [],
            "solved": False,
            "stuck": False,
            "rating": None,
            "final": list(puzzle.values),
            "final_masks": [],
            "message": check.why,
        }
    return path_json(start, explain(start, uniqueness=check.proper))


def generate_task(variant: str, size: int, difficulty: str | None, time_limit: float) -> dict[str, Any]:
    """A new unique puzzle of the variant, of the difficulty when one is named (``error`` when none is found)."""
    from sudokit.errors import SudokitError
    from sudokit.generate import Generator
    from sudokit.web.views import puzzle_json

    geometry = cached_geometry(variant) if fixed_size(variant) else cached_geometry(variant, size * size)
    try:
        made = Generator(geometry, difficulty=difficulty, time_limit=time_limit).one()
    except SudokitError as exc:
        return {"error": str(exc)}
    rating = None
    if made.rating is not None:
        rating = {"level": made.rating.level, "value": made.rating.value, "text": str(made.rating)}
    return {**puzzle_json(made.puzzle, variant), "rating": rating, "symmetry": made.symmetry}


def rate_task(line: str, variant: str, masks: list[int] | None = None) -> dict[str, Any]:
    """Every difficulty measure of the puzzle (SE-style, HoDoKu-style, Norvig's level, engine guesses); from
    the page's candidates when given (then without Norvig's level and the guesses, which need a grid).

    Only proper puzzles (one solution) are rated."""
    from sudokit.logic.rating import not_proper, rate

    puzzle = grid_of(line, variant)
    clash = puzzle.conflicts()
    if clash:
        return {"error": f"the grid breaks the rules: {clash[0].describe(puzzle.geometry)}"}
    start = _start(puzzle, masks)
    why = not_proper(start)
    if why is not None:
        return {"error": f"not rated: {why}"}
    rating = rate(start)
    if rating.solved:
        summary = f"{rating.level}, SE {rating.se}, {rating.steps} steps, hardest: {rating.hardest}"
    else:
        summary = f"beyond these techniques (SE {rating.se}) after {rating.steps} steps"
    return {**rating.to_dict(), "summary": summary}
