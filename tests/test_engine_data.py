"""Every bundled puzzle set through the batch engine, checked in bulk against the rules.

Solutions are verified with :func:`rules_hold` below (a vectorised numpy rule check over the whole batch,
independent of the engine's own compiled check), cross-checked on a sample with the per-grid
:func:`sudokit.grid.is_solution`.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from sudokit.engine.batch import MULTIPLE, SOLVED, UNREADABLE, load_lines, solve_all, solve_many, verify
from sudokit.geometry import diagonal, for_size, standard
from sudokit.grid import Grid, is_solution

DATA = Path(__file__).resolve().parents[1] / "data"


def rules_hold(puzzles: np.ndarray, solutions: np.ndarray, geometry) -> np.ndarray:
    """True where row ``i`` of ``solutions`` solves row ``i`` of ``puzzles``: values in 1..n, every unit holds
    every digit (the OR of the digits' bits is full), every given kept."""
    n = geometry.size
    sol = solutions.astype(np.int64)
    in_range = ((sol >= 1) & (sol <= n)).all(axis=1)
    bits = np.where((sol >= 1) & (sol <= n), np.int64(1) << np.clip(sol - 1, 0, 62), 0)
    units_full = (np.bitwise_or.reduce(bits[:, geometry.unit_array], axis=2) == (1 << n) - 1).all(axis=1)
    keeps = ((puzzles == 0) | (puzzles == solutions)).all(axis=1)
    return in_range & units_full & keeps


UNIQUE_SETS = [
    "17_clue",
    "kaggle_sample",
    "kaggle3m_sample",
    "norvig_top95",
    "norvig_hardest",
    "top1465",
    "forum_hardest_1106",
    "magictour_top100",
    "magictour_topn87",
    "magictour_topn234",
    "inkala",
    "sudoku_exchange_rated",
    "sudoku_exchange_tiers",
    "sudoku16_janko",
    "sudoku16_vu",
    "sudoku4_vu",
]


def _check_sample(puzzles: np.ndarray, solutions: np.ndarray, geometry, every: int) -> None:
    for i in range(0, len(puzzles), every):
        grid = Grid(geometry, tuple(int(v) for v in puzzles[i]))
        assert is_solution(Grid(geometry, tuple(int(v) for v in solutions[i])), grid)


@pytest.mark.parametrize("name", UNIQUE_SETS)
def test_every_puzzle_of_a_bundled_set_is_solved_uniquely_and_verified(name):
    path = DATA / f"{name}.txt"
    puzzles, geometry = load_lines(path)
    batch = solve_all(puzzles, geometry=geometry, limit=2, chunk=16384)
    assert (batch.status == SOLVED).all(), np.flatnonzero(batch.status != SOLVED)[:5]
    assert rules_hold(puzzles, batch.solutions, geometry).all()
    _check_sample(puzzles, batch.solutions, geometry, every=max(1, len(puzzles) // 20))


@pytest.mark.slow
def test_the_hardest_forum_set_is_solved_and_verified():
    puzzles, geometry = load_lines(DATA / "forum_hardest_1905_11plus.txt")
    # The whole set (48,766 puzzles) at any-solution speed; uniqueness is checked on every 8th puzzle.
    batch = solve_all(puzzles, geometry=geometry, limit=1, workers=2)
    assert (batch.status == SOLVED).all()
    assert rules_hold(puzzles, batch.solutions, geometry).all()
    sample = solve_all(puzzles[::8], geometry=geometry, limit=2)
    assert (sample.status == SOLVED).all()


def test_bundled_solutions_match_the_engine():
    for name in ("kaggle_sample", "sudoku16_janko", "kaggle3m_sample", "sudoku_exchange_tiers"):
        puzzles, geometry = load_lines(DATA / f"{name}.txt")
        expected, _ = load_lines(DATA / f"{name}.solutions.txt", geometry)
        batch = solve_all(puzzles, geometry=geometry)
        assert (batch.solutions == expected).all(), name


def test_tdoku_test_puzzle_counts_match():
    lines = [line.split(":") for line in (DATA / "tdoku_test_puzzles.txt").read_text().split()]
    puzzles, geometry = load_lines(DATA / "tdoku_test_puzzles.txt")
    batch = solve_all(puzzles, geometry=geometry, limit=2)
    for parts, status, count, solution in zip(lines, batch.status, batch.counts, batch.solutions):
        want = int(parts[1])
        assert min(int(count), 2) == min(want, 2), parts[0]
        if want == 1:
            assert status == SOLVED
            if len(parts) > 2:
                assert "".join(map(str, solution)) == parts[2]
    exact = solve_all(puzzles, geometry=geometry, limit=10_000)
    assert [int(c) for c in exact.counts] == [int(p[1]) for p in lines]


def test_every_serg_benchmark_puzzle_has_several_solutions():
    puzzles, geometry = load_lines(DATA / "serg_benchmark.txt")
    batch = solve_all(puzzles, geometry=geometry, limit=2)
    assert (batch.status == MULTIPLE).all()
    assert (batch.counts == 2).all()
    assert rules_hold(puzzles, batch.solutions, geometry).all()  # the first solution found is still a solution


@pytest.mark.parametrize("name,size", [("xsudoku9", 9), ("xsudoku16", 16)])
def test_diagonal_sets_are_solved_and_verified(name, size):
    geometry = diagonal(for_size(size))
    puzzles, _ = load_lines(DATA / f"{name}.txt", geometry)
    batch = solve_all(puzzles, geometry=geometry)
    assert (batch.status == SOLVED).all()
    assert rules_hold(puzzles, batch.solutions, geometry).all()
    # The diagonals matter: some puzzle's standard-rules solutions are not all diagonal solutions.
    plain = solve_all(puzzles, geometry=for_size(size), limit=2)
    assert (plain.status == MULTIPLE).any() or not rules_hold(puzzles, plain.solutions, geometry).all()


def test_solve_many_streams_chunks_in_input_order():
    puzzles, geometry = load_lines(DATA / "norvig_top95.txt")
    batches = list(solve_many(puzzles, geometry=geometry, chunk=40))
    assert [b.start for b in batches] == [0, 40, 80]
    assert [len(b) for b in batches] == [40, 40, 15]
    whole = solve_all(puzzles, geometry=geometry)
    joined = np.concatenate([b.solutions for b in batches])
    assert (joined == whole.solutions).all()
    assert (np.concatenate([b.puzzles for b in batches]) == puzzles).all()


def test_solve_many_takes_strings_and_marks_unreadable_lines():
    good = (DATA / "norvig_top95.txt").read_text().split()[:3]
    lines = [good[0], "not a puzzle", good[1], "1" * 80 + "x", "11" + "." * 79, good[2]]
    batch = solve_all(iter(lines), chunk=4)
    assert batch.status.tolist() == [SOLVED, UNREADABLE, SOLVED, UNREADABLE, 3, SOLVED]
    assert batch.counts.tolist() == [1, 0, 1, 0, 0, 1]
    assert (batch.solutions[1] == 0).all()


def test_two_workers_give_the_same_results_as_one():
    puzzles, geometry = load_lines(DATA / "top1465.txt")
    one = solve_all(puzzles, geometry=geometry, workers=1)
    two = solve_all(puzzles, geometry=geometry, workers=2)
    assert (one.solutions == two.solutions).all()
    assert (one.guesses == two.guesses).all()


def test_verify_catches_a_broken_solution():
    puzzles, geometry = load_lines(DATA / "norvig_top95.txt")
    batch = solve_all(puzzles[:5], geometry=geometry)
    broken = batch.solutions.copy()
    broken[0, [0, 1]] = broken[0, [1, 0]]  # swap two cells of a row: columns now repeat
    broken[1, 0] = 0
    assert verify(puzzles[:5], broken, standard()).tolist() == [False, False, True, True, True]


def test_the_engines_rule_check_agrees_with_the_reference_on_damaged_grids():
    puzzles, geometry = load_lines(DATA / "top1465.txt")
    batch = solve_all(puzzles[:1200], geometry=geometry)
    rng = np.random.default_rng(7)
    damaged = batch.solutions.copy()
    for i in range(len(damaged)):
        kind = i % 4
        if kind == 1:  # a cell changed to another digit (or out of range)
            damaged[i, rng.integers(81)] = rng.integers(0, 11)
        elif kind == 2:  # two cells swapped
            a, b = rng.integers(81, size=2)
            damaged[i, [a, b]] = damaged[i, [b, a]]
        elif kind == 3:  # a valid grid that ignores the givens: another puzzle's solution
            damaged[i] = batch.solutions[(i + 1) % len(damaged)]
    want = rules_hold(puzzles[:1200], damaged, geometry)
    assert not want.all() and want.any()
    assert (verify(puzzles[:1200], damaged, geometry) == want).all()
    from sudokit.engine.batch import PARALLEL_FROM

    assert len(damaged) >= PARALLEL_FROM  # so that two workers really check on threads
    assert (verify(puzzles[:1200], damaged, geometry, workers=2) == want).all()
    from sudokit.engine.kernel9 import check9

    # the check the 9x9 kernel runs on each answer it writes
    fused = np.array([check9(p, d) for p, d in zip(puzzles[:1200], damaged, strict=True)])
    assert (fused == want).all()


def test_a_kernel_answer_that_breaks_the_rules_is_never_returned(monkeypatch):
    from sudokit.engine import api, kernel9
    from sudokit.result import UncheckedSolutionError

    # The 9x9 kernel checks each answer as it writes it (check9: tested on damaged grids above) and reports a
    # grid that failed as BROKEN; the batch must turn that into an error, never hand the grid out.
    def broken9(puzzles, start, stop, limit, budget, solutions, status, counts, stats, *tables):
        solutions[start:stop] = 1  # a grid of ones, which the fused check refused
        status[start:stop] = kernel9.BROKEN
        counts[start:stop] = 1

    monkeypatch.setattr(kernel9, "search9_rows", broken9)
    puzzles, geometry = load_lines(DATA / "norvig_top95.txt")
    with pytest.raises(UncheckedSolutionError, match="puzzle 0"):
        solve_all(puzzles[:3], geometry=geometry)

    # The general kernel's answers are checked after the batch (verify).
    def broken_kernel(puzzles, start, stop, *args):
        solutions, status, counts = args[-4], args[-3], args[-2]
        solutions[start:stop] = 1  # "solved", with a grid of ones
        status[start:stop] = SOLVED
        counts[start:stop] = 1

    from sudokit.engine import kernel

    monkeypatch.setattr(kernel, "search_rows", broken_kernel)
    with pytest.raises(UncheckedSolutionError, match="puzzle 0"):
        solve_all(np.zeros((2, 81), dtype=np.uint8), geometry=diagonal())
    # count_array's short path checks the first solution too.
    monkeypatch.setattr(api, "_SCRATCH9", [])
    monkeypatch.setattr(kernel9, "count9", lambda values, limit, budget, work, solution: (kernel9.BROKEN, 1))
    with pytest.raises(UncheckedSolutionError):
        api.count_array(puzzles[0], geometry, 2)


def test_each_puzzle_of_a_batch_is_timed():
    from sudokit.engine import clock

    puzzles, geometry = load_lines(DATA / "norvig_top95.txt")
    start = time.perf_counter()
    batch = solve_all(puzzles, geometry=geometry, timing="puzzle")
    wall = time.perf_counter() - start
    seconds = batch.seconds()
    if not clock.AVAILABLE:  # pragma: no cover - processors without a readable cycle counter
        assert seconds is None
        return
    assert (batch.ticks > 0).all()
    assert 0 < seconds.sum() <= wall
    assert len(set(batch.ticks.tolist())) > 1  # each its own time


def test_a_batch_timed_as_a_whole_gives_each_puzzle_the_average():
    from sudokit.engine import clock
    from sudokit.errors import SudokitError

    puzzles, geometry = load_lines(DATA / "norvig_top95.txt")
    start = time.perf_counter()
    batch = solve_all(puzzles, geometry=geometry)  # timing="batch", the default
    wall = time.perf_counter() - start
    assert (batch.status == SOLVED).all()
    if clock.AVAILABLE:
        assert len(set(batch.ticks.tolist())) == 1 and batch.ticks[0] > 0
        assert 0 < batch.seconds().sum() <= wall
    with pytest.raises(SudokitError, match="timing must be"):
        solve_all(puzzles[:2], geometry=geometry, timing="each")
