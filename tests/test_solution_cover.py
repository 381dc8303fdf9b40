"""Logic stuck for certain: solutions that use every candidate (``sudokit.logic.solution_cover``), and
``hint`` / ``explain`` on puzzles with several solutions (big empty boards answer at once)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sudokit.cli import main
from sudokit.formats.fpuzzles import parse_variant
from sudokit.geometry import for_cells
from sudokit.grid import Grid, is_solution
from sudokit.logic import explain, hint
from sudokit.logic.explain import start_state
from sudokit.logic.solution_cover import stuck_for_certain


def _all_solutions(grid: Grid) -> list[tuple[int, ...]]:
    """Every solution, by plain backtracking over the geometry's peers."""
    g = grid.geometry
    values = list(grid.values)
    out: list[tuple[int, ...]] = []

    def fill(s: int) -> None:
        if s == len(values):
            if is_solution(Grid(g, tuple(values)), grid):
                out.append(tuple(values))
            return
        if grid.values[s]:
            if all(values[p] != values[s] for p in g.peer_sets[s] if p < s):
                fill(s + 1)
            return
        for d in range(1, g.size + 1):
            if all(values[p] != d for p in g.peer_sets[s]):
                values[s] = d
                fill(s + 1)
                values[s] = 0

    fill(0)
    return out


def _grid(text: str) -> Grid:
    g = for_cells(len(text))
    return Grid(g, tuple(int(c) if c.isdigit() else 0 for c in text))


def test_stuck_only_when_every_candidate_is_in_a_solution():
    """4x4 grids with several solutions, against every solution by brute force: a number back means every
    candidate of the start state is some solution's digit; None means one is not, or the search gave up."""
    cases = [
        "12..34..........",  # many solutions, all candidates used
        "12..34..2..1....",
        "1...............",
        "1234............",
    ]
    for text in cases:
        grid = _grid(text)
        state = start_state(grid)
        sols = _all_solutions(grid)
        in_some = [0] * 16
        for sol in sols:
            for s, d in enumerate(sol):
                in_some[s] |= 1 << (d - 1)
        all_used = all(not (c & ~in_some[s]) for s, c in enumerate(state.cands))
        got = stuck_for_certain(state, grid)
        if got is not None:
            assert all_used and len(sols) > 1, text
        elif all_used and len(sols) > 1:
            assert got is not None, text  # a small board: the search finds them


def test_a_proper_puzzle_is_never_stuck_for_certain():
    grid = _grid("1.3..4..2..1....")
    assert len(_all_solutions(grid)) == 1
    assert stuck_for_certain(start_state(grid), grid) is None
    assert hint(grid, several_solutions=True) is not None


def test_a_step_that_exists_is_still_found_with_several_solutions():
    """A 4x4 grid with several solutions and a sound step (r1c4 is 4): the search meets a candidate no
    solution uses and the walk goes on as before."""
    grid = _grid("123.............")
    assert len(_all_solutions(grid)) > 1
    assert stuck_for_certain(start_state(grid), grid) is None
    step = hint(grid, uniqueness=False, several_solutions=True)
    assert step is not None
    assert explain(grid, uniqueness=False, several_solutions=True).steps


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_hint_and_explain_on_an_empty_25x25_variant_answer_stuck_without_uniqueness(tmp_path):
    """An f-puzzles 25x25 with three givens: the walk took minutes (unique rectangles, forcing chains on a
    board with 15,000 candidates); solutions that use every candidate say at once that no step exists. The
    techniques that assume a unique solution are left out, as for a classic puzzle with several solutions."""
    grid = [[{} for _ in range(25)] for _ in range(25)]
    grid[0][0] = {"value": 1, "given": True}
    grid[1][3] = {"value": 2, "given": True}
    grid[4][2] = {"value": 3, "given": True}
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"size": 25, "grid": grid}))
    puzzle = parse_variant(path.read_text())
    assert stuck_for_certain(start_state(puzzle), puzzle) is not None
    for command in ("hint", "explain"):
        result = _run(command, str(path))
        assert result.exit_code == 1, result.output
        assert "Logic is stuck" in result.output
        assert "techniques that assume a unique solution are left out" in result.output
    rated = _run("rate", str(path))
    assert rated.exit_code == 1 and "more than one solution" in rated.output
