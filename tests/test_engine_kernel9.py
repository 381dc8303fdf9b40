"""The 9x9 bitboard kernel (batch path) agrees with the general kernel on status, count and solution."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.engine import kernel, kernel9
from sudokit.engine.batch import INVALID, NO_SOLUTION, SOLVED, load_lines, solve_all, verify
from sudokit.engine.tables import tables
from sudokit.geometry import diagonal, standard

DATA = Path(__file__).resolve().parents[1] / "data"
SOLVED_GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def _general(puzzles: np.ndarray, limit: int):
    """The general kernel on every row (the reference)."""
    k = len(puzzles)
    sol = np.zeros_like(puzzles)
    status = np.zeros(k, dtype=np.int8)
    counts = np.zeros(k, dtype=np.int64)
    stats = np.zeros((k, 3), dtype=np.int64)
    kernel.search_rows(puzzles, 0, k, *tables(standard()).args(), limit, sol, status, counts, stats)
    return sol, status, counts, stats


def _fast(puzzles: np.ndarray, limit: int):
    k = len(puzzles)
    sol = np.zeros_like(puzzles)
    status = np.zeros(k, dtype=np.int8)
    counts = np.zeros(k, dtype=np.int64)
    stats = np.zeros((k, 3), dtype=np.int64)
    kernel9.search9_rows(puzzles, 0, k, limit, sol, status, counts, stats, *kernel9.table_args())
    return sol, status, counts, stats


def _assert_same(puzzles: np.ndarray, limit: int) -> None:
    ref_sol, ref_status, ref_counts, _ = _general(puzzles, limit)
    sol, status, counts, stats = _fast(puzzles, limit)
    assert (status == ref_status).all(), np.flatnonzero(status != ref_status)[:5]
    assert (counts == ref_counts).all()
    solved = status == SOLVED
    assert (sol[solved] == ref_sol[solved]).all()  # a unique solution is the same grid
    found = counts > 0
    assert verify(puzzles[found], sol[found], standard()).all()
    assert (stats[:, 0] <= stats[:, 1] + stats[:, 2]).all()  # every guess made a node or a backtrack


@pytest.mark.parametrize(("name", "limit"), [("tdoku_test_puzzles", 2), ("tdoku_test_puzzles", 50), ("top1465", 2)])
def test_bitboard_kernel_matches_the_general_kernel_on_a_bundled_set(name, limit):
    puzzles, _ = load_lines(DATA / f"{name}.txt")
    _assert_same(puzzles, limit)


def test_bitboard_kernel_reports_every_serg_puzzle_as_multiple():
    puzzles, _ = load_lines(DATA / "serg_benchmark.txt")
    _assert_same(puzzles[:200], 2)
    sol, status, counts, _ = _fast(puzzles, 2)
    assert (counts == 2).all()


def test_bitboard_kernel_finds_clashes_and_dead_ends():
    rows = [
        "11" + "." * 79,  # same digit twice in a row
        "1" + "." * 8 + "1" + "." * 71,  # twice in a column
        "1" + "." * 9 + "1" + "." * 70,  # twice in a box
        "12345678." + "........9" + "." * 63,  # A9 has no candidate left
        "." * 81,  # many solutions
        SOLVED_GRID,
        SOLVED_GRID[:80] + ".",
    ]
    puzzles = np.array([[0 if ch == "." else int(ch) for ch in r] for r in rows], dtype=np.uint8)
    _assert_same(puzzles, 2)
    _, status, _, _ = _fast(puzzles, 2)
    assert list(status[:4]) == [INVALID, INVALID, INVALID, NO_SOLUTION]


def test_batch_path_uses_the_bitboard_kernel_only_for_the_plain_9x9_board():
    puzzles, _ = load_lines(DATA / "norvig_top95.txt")
    batch = solve_all(puzzles, geometry=standard(), limit=2)
    _, _, _, stats = _fast(puzzles, 2)
    assert (batch.guesses == stats[:, 0]).all() and (batch.nodes == stats[:, 1]).all()
    x_puzzles, x_geo = load_lines(DATA / "xsudoku9.txt", geometry=diagonal())
    x_batch = solve_all(x_puzzles, geometry=x_geo, limit=2)
    assert (x_batch.status == SOLVED).all() and verify(x_puzzles, x_batch.solutions, x_geo).all()


@settings(max_examples=60, deadline=None)
@given(
    perm=st.permutations(range(1, 10)),
    keep=st.lists(st.booleans(), min_size=81, max_size=81),
    extra=st.lists(st.tuples(st.integers(0, 80), st.integers(1, 9)), max_size=3),
)
def test_bitboard_kernel_matches_on_random_puzzles(perm, keep, extra):
    """Relabelled grids with random cells removed, and sometimes random (possibly clashing) digits added."""
    values = [perm[int(ch) - 1] if k else 0 for ch, k in zip(SOLVED_GRID, keep, strict=True)]
    for cell, digit in extra:
        values[cell] = digit
    puzzles = np.array([values], dtype=np.uint8)
    _assert_same(puzzles, 3)
