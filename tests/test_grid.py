"""Grid values, candidate bitmasks and the rule checks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudokit.errors import SudokitError
from sudokit.formats import parse_grid
from sudokit.geometry import diagonal, standard
from sudokit.grid import Candidates, Grid, digits_of, is_solution, mask_of

SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_is_solution_accepts_a_valid_grid_and_its_puzzle():
    assert is_solution(parse_grid(SOLVED), parse_grid(PUZZLE))


def test_is_solution_rejects_changed_givens_swaps_and_blanks():
    solved = parse_grid(SOLVED)
    other = parse_grid("4" + "." * 80)
    swapped = list(solved.values)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not is_solution(Grid(solved.geometry, tuple(swapped)))
    assert not is_solution(solved.with_value(5, 0))
    assert not is_solution(solved, other.with_value(0, 5))


def test_diagonal_rules_reject_a_grid_valid_only_as_plain_sudoku():
    solved = parse_grid(SOLVED)
    assert is_solution(solved)
    assert not is_solution(Grid(diagonal(), solved.values))


def test_conflicts_name_the_unit_and_cells():
    grid = parse_grid("55" + "." * 79)
    found = grid.conflicts()
    assert [c.unit_name for c in found] == ["row A", "box 1"]
    assert found[0].describe(grid.geometry) == "digit 5 twice in row A (A1, A2)"


def test_grid_rejects_wrong_length_and_out_of_range_values():
    with pytest.raises(SudokitError):
        Grid(standard(), (0,) * 80)
    with pytest.raises(SudokitError):
        Grid(standard(), (10,) + (0,) * 80)


def test_candidates_eliminate_peer_digits():
    grid = parse_grid(PUZZLE)
    cands = Candidates.of(grid)
    assert cands[grid.geometry.cell_of("A2")] == (1, 6, 7, 9)
    assert cands[0] == (4,)
    assert Candidates.of(grid, eliminate=False).count(1) == 9


@given(st.sets(st.integers(1, 25)))
def test_mask_and_digits_round_trip(digits):
    assert digits_of(mask_of(digits)) == tuple(sorted(digits))


@pytest.mark.parametrize("box", [1, 2, 3])
def test_is_solution_needs_every_digit_once_in_every_unit(box):
    g = standard(box)
    n = g.size
    rows = [[(box * (r % box) + r // box + c) % n + 1 for c in range(n)] for r in range(n)]
    solved = Grid(g, tuple(v for row in rows for v in row))
    assert is_solution(solved)
    if n > 1:
        swapped = list(solved.values)
        swapped[0], swapped[1] = swapped[1], swapped[0]  # row still fine, columns broken
        assert not is_solution(Grid(g, tuple(swapped)))
    holed = list(solved.values)
    holed[-1] = 0
    assert not is_solution(Grid(g, tuple(holed)))
    puzzle = Grid(g, tuple(v if i % 3 == 0 else 0 for i, v in enumerate(solved.values)))
    assert is_solution(solved, puzzle)
    other = list(puzzle.values)
    other[0] = n if n > 1 else 0
    assert is_solution(solved, Grid(g, tuple(other))) == (n == 1 or other[0] == solved.values[0])
