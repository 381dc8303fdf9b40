"""The fast engine: statuses, counts, checked solutions, every geometry, and the low-level array entries."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.engine import count_array, count_solutions, solve, solve_array
from sudokit.errors import SudokitError
from sudokit.geometry import Geometry, diagonal, for_size, jigsaw, standard, windoku
from sudokit.grid import Grid, is_solution
from sudokit.result import Status

TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
TOP95_FIRST_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."


def pattern_solution(geometry: Geometry, seed: int = 0) -> Grid:
    """A valid complete standard grid (the shifted-rows pattern), with digits and rows shuffled in bands."""
    rng = random.Random(seed)
    n, br, bc = geometry.size, geometry.box_rows, geometry.box_cols
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    rows = [b * br + r for b in rng.sample(range(n // br), n // br) for r in rng.sample(range(br), br)]
    values = [digits[(bc * (r % br) + r // br + c) % n] for r in rows for c in range(n)]
    return Grid(geometry, tuple(values))


def remove_cells(grid: Grid, fraction: float, seed: int = 0) -> Grid:
    rng = random.Random(seed)
    return Grid(grid.geometry, tuple(0 if rng.random() < fraction else v for v in grid.values))


def brute_count(grid: Grid, limit: int = 10_000) -> int:
    """Solutions counted by plain backtracking over the cells in order: the slow, obvious reference."""
    geo = grid.geometry
    values = list(grid.values)
    empty = [s for s in geo.cells if values[s] == 0]

    def go(i: int) -> int:
        if i == len(empty):
            return 1
        s = empty[i]
        total = 0
        used = {values[p] for p in geo.peers[s]}
        for d in geo.digits:
            if d not in used:
                values[s] = d
                total += go(i + 1)
                values[s] = 0
                if total >= limit:
                    break
        return total

    if grid.conflicts():
        return 0
    return min(go(0), limit)


def test_solves_a_hard_puzzle_and_returns_the_checked_unique_solution():
    result = solve(TOP95_FIRST)
    assert result.status is Status.SOLVED
    assert result.count == 1
    assert result.solution.to_line() == TOP95_FIRST_SOLUTION
    assert is_solution(result.solution, result.puzzle)
    assert result.method == "engine"


def test_stats_are_filled():
    result = solve(HARD1)
    assert result.stats.nodes >= 1
    assert result.stats.guesses > 0
    assert result.stats.seconds > 0
    assert not result.stats.solved_without_guessing


def test_an_easy_puzzle_is_solved_without_guessing():
    easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    result = solve(easy)
    assert result.status is Status.SOLVED
    assert result.stats.guesses == 0 and result.stats.solved_without_guessing


def test_norvig_hard1_has_several_solutions():
    result = solve(HARD1)
    assert result.status is Status.MULTIPLE
    assert result.count == 2
    assert result.solution is None
    assert count_solutions(HARD1, limit=10) == 10


def test_limit_one_takes_any_solution_without_checking_uniqueness():
    result = solve(HARD1, limit=1)
    assert result.status is Status.SOLVED
    assert is_solution(result.solution, result.puzzle)


def test_clashing_givens_are_invalid_and_the_message_names_the_conflict():
    result = solve("11" + "." * 79)
    assert result.status is Status.INVALID
    assert "1" in result.message and "row A" in result.message
    assert count_solutions("11" + "." * 79) == 0


def test_consistent_givens_without_completion_have_no_solution():
    # Row A holds 1..8; the 9 in column 9 leaves A9 without a candidate, yet no unit repeats a digit.
    puzzle = "12345678." + "........9" + "." * 63
    result = solve(puzzle)
    assert result.status is Status.NO_SOLUTION
    assert result.count == 0 and result.solution is None
    assert count_solutions(puzzle) == 0


def test_empty_4x4_board_has_288_solutions():
    empty = Grid.empty(for_size(4))
    assert count_solutions(empty, limit=1000) == 288
    assert count_solutions(empty, limit=100) == 100


def test_solve_accepts_a_geometry_for_a_string():
    puzzle = "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3"
    result = solve(puzzle, geometry=diagonal())
    assert result.status is Status.SOLVED
    assert result.solution.geometry == diagonal()
    assert is_solution(result.solution, result.puzzle)


def test_count_and_solve_array_work_on_uint8_arrays():
    geo = standard()
    values = np.array([0 if ch == "." else int(ch) for ch in TOP95_FIRST], dtype=np.uint8)
    assert count_array(values, geo) == 1
    solution = solve_array(values, geo)
    assert solution.dtype == np.uint8
    assert "".join(map(str, solution)) == TOP95_FIRST_SOLUTION
    hard1 = np.array([0 if ch == "." else int(ch) for ch in HARD1], dtype=np.uint8)
    assert count_array(hard1, geo, limit=3) == 3
    clash = np.zeros(81, dtype=np.uint8)
    clash[:2] = 5
    assert count_array(clash, geo) == 0
    assert solve_array(clash, geo) is None


def test_count_arrays_short_path_still_refuses_a_value_over_nine_and_takes_other_arrays():
    geo = standard()
    values = np.array([0 if ch == "." else int(ch) for ch in TOP95_FIRST], dtype=np.uint8)
    bad = values.copy()
    bad[40] = 12
    with pytest.raises(SudokitError, match="index 40: 12 is not a digit"):
        count_array(bad, geo)
    with pytest.raises(SudokitError, match="index 40: 12 is not a digit"):
        count_array(bad, geo, time_limit=5.0)  # the checked path
    assert count_array(values.astype(np.int64), geo) == 1  # not uint8: checked, converted, counted
    assert count_array(np.stack([values, values])[:, ::1][0], geo, limit=np.int64(2)) == 1
    assert count_array(values, geo, limit=1) == 1


def test_array_entries_reject_a_wrong_shape():
    with pytest.raises(SudokitError):
        count_array(np.zeros(80, dtype=np.uint8), standard())
    with pytest.raises(SudokitError):
        count_solutions(TOP95_FIRST, limit=0)


@pytest.mark.parametrize("size", [4, 6, 9, 12, 16, 25])
def test_standard_boards_of_every_size_are_solved_and_checked(size):
    geo = for_size(size)
    full = pattern_solution(geo, seed=size)
    # Sparse 25x25 grids can send depth-first search into a long tail (seen: 1.3M nodes at 50% removed).
    puzzle = remove_cells(full, 0.4 if size == 25 else 0.5, seed=size)
    result = solve(puzzle, limit=1)
    assert result.status is Status.SOLVED
    assert is_solution(result.solution, puzzle)
    assert count_solutions(full) == 1  # a full grid is its own unique solution


def test_empty_25x25_board_is_filled():
    geo = for_size(25)
    result = solve(Grid.empty(geo), limit=1)
    assert result.status is Status.SOLVED
    assert is_solution(result.solution)


def test_windoku_and_diagonal_boards_are_solved_and_checked():
    for geo in (windoku(), diagonal(), diagonal(for_size(16))):
        filled = solve(Grid.empty(geo), limit=1)
        assert filled.status is Status.SOLVED, geo
        assert is_solution(filled.solution)
        puzzle = remove_cells(filled.solution, 0.6, seed=3)
        result = solve(puzzle, limit=1)
        assert result.status is Status.SOLVED
        assert is_solution(result.solution, puzzle)


def jigsaw_with_solution() -> tuple[Geometry, Grid]:
    """A jigsaw board built from a solved standard grid: two cells holding the same digit trade boxes 1 and 2,
    so the grid still solves the new regions."""
    full = pattern_solution(standard(), seed=7)
    marks = [str((r // 3) * 3 + c // 3) for r in range(9) for c in range(9)]
    box1 = [r * 9 + c for r in range(3) for c in range(3)]
    box2 = [r * 9 + c for r in range(3) for c in range(3, 6)]
    a, b = next((a, b) for a in box1 for b in box2 if full.values[a] == full.values[b])
    marks[a], marks[b] = marks[b], marks[a]
    geo = jigsaw("".join(marks))
    return geo, Grid(geo, full.values)


def test_jigsaw_boards_are_solved_and_checked():
    geo, full = jigsaw_with_solution()
    assert geo.units[-9:] != standard().units[-9:]
    assert is_solution(full)
    for seed in range(5):
        puzzle = remove_cells(full, 0.6, seed=seed)
        result = solve(puzzle, limit=1)
        assert result.status is Status.SOLVED
        assert is_solution(result.solution, puzzle)
        assert count_solutions(puzzle, limit=2) >= 1


def test_the_engine_does_not_load_with_the_package():
    code = "import sys, sudokit; print('numba' in sys.modules, 'sudokit.engine' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_star_import_does_not_load_the_engine_and_gives_the_result_types():
    code = "import sys; from sudokit import *; print('numba' in sys.modules, Status.SOLVED, Result.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "solved", "Result"]


@settings(max_examples=40, deadline=None)
@given(
    size=st.sampled_from([4, 6]),
    seed=st.integers(0, 10**6),
    fraction=st.floats(0.3, 0.95),
)
def test_counts_agree_with_brute_force_on_small_boards(size, seed, fraction):
    geo = for_size(size)
    puzzle = remove_cells(pattern_solution(geo, seed), fraction, seed)
    if size == 6 and puzzle.givens < 12:  # keep the brute force quick
        puzzle = remove_cells(pattern_solution(geo, seed), 0.6, seed)
    expected = brute_count(puzzle, limit=50)
    assert count_solutions(puzzle, limit=50) == expected
    result = solve(puzzle)
    assert result.status is (Status.SOLVED if expected == 1 else Status.MULTIPLE)
    if result.solution is not None:
        assert is_solution(result.solution, puzzle)
    any_one = solve(puzzle, limit=1)
    assert is_solution(any_one.solution, puzzle)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_clashing_givens_are_always_reported_invalid(seed):
    geo = standard()
    rng = random.Random(seed)
    values = list(remove_cells(pattern_solution(geo, seed), 0.7, seed).values)
    unit = geo.units[rng.randrange(len(geo.units))]
    a, b = rng.sample(unit, 2)
    digit = rng.randint(1, 9)
    values[a] = values[b] = digit
    result = solve(Grid(geo, tuple(values)))
    assert result.status is Status.INVALID
    assert result.message
