"""Every method on the full puzzle sets of the issue: each solution is checked, each count matches the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit.formats import read_entries, read_puzzles
from sudokit.geometry import diagonal
from sudokit.grid import Grid, is_solution
from sudokit.methods import METHODS
from sudokit.result import Status

DATA = Path(__file__).resolve().parents[1] / "data"


def solve_all(name: str, puzzles: list[Grid], limit: int) -> list[Status]:
    statuses = []
    for puzzle in puzzles:
        result = METHODS[name](puzzle, limit=limit, time_limit=60)
        if result.solution is not None:
            assert is_solution(result.solution, puzzle), (name, puzzle.to_line())
        statuses.append(result.status)
    return statuses


@pytest.mark.parametrize("name", list(METHODS))
def test_every_method_proves_easy50_and_hardest_unique(name):
    puzzles = read_puzzles(DATA / "norvig_easy50.txt") + read_puzzles(DATA / "norvig_hardest.txt")
    assert len(puzzles) == 49 + 11
    assert solve_all(name, puzzles, limit=2) == [Status.SOLVED] * len(puzzles)


@pytest.mark.parametrize("name", list(METHODS))
def test_every_method_solves_xsudoku9_with_the_diagonal_geometry(name):
    puzzles = [Grid(diagonal(), p.values) for p in read_puzzles(DATA / "xsudoku9.txt")]
    assert solve_all(name, puzzles, limit=2) == [Status.SOLVED] * 9


@pytest.mark.parametrize(
    "name",
    ["udacity", "norvig", pytest.param("ac3", marks=pytest.mark.slow)],  # ac3: ~10 s, 90k nodes
)
def test_every_method_solves_top95(name):
    puzzles = read_puzzles(DATA / "norvig_top95.txt")
    assert solve_all(name, puzzles, limit=1) == [Status.SOLVED] * 95


@pytest.mark.slow
@pytest.mark.parametrize("name", list(METHODS))
def test_every_method_counts_the_tdoku_test_puzzles_right(name):
    seen = {Status.SOLVED: 0, Status.NO_SOLUTION: 0, Status.MULTIPLE: 0}
    for entry in read_entries(DATA / "tdoku_test_puzzles.txt"):
        result = METHODS[name](entry.grid, limit=2, time_limit=60)
        expected = Status.NO_SOLUTION if entry.count == 0 else Status.SOLVED if entry.count == 1 else Status.MULTIPLE
        assert result.status == expected, (entry.line, result.status, entry.count)
        if expected == Status.SOLVED:
            assert result.solution == entry.solution
        if expected == Status.MULTIPLE:
            assert result.count == 2 and is_solution(result.solution, entry.grid)
        seen[result.status] += 1
    assert seen == {Status.SOLVED: 18, Status.NO_SOLUTION: 10, Status.MULTIPLE: 15}
