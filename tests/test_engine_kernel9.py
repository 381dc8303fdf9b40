"""The 9x9 bitboard kernel (batch path) agrees with the general kernel on status, count and solution."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from sudokit import bits
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
    kernel.search_rows(puzzles, 0, k, *tables(standard()).args(), limit, 0, sol, status, counts, stats)
    return sol, status, counts, stats


def _fast(puzzles: np.ndarray, limit: int):
    k = len(puzzles)
    sol = np.zeros_like(puzzles)
    status = np.zeros(k, dtype=np.int8)
    counts = np.zeros(k, dtype=np.int64)
    stats = np.zeros((k, 3), dtype=np.int64)
    kernel9.search9_rows(puzzles, 0, k, limit, 0, sol, status, counts, stats, *kernel9.table_args())
    return sol, status, counts, stats


def _assert_same(puzzles: np.ndarray, limit: int) -> None:
    ref_sol, ref_status, ref_counts, _ = _general(puzzles, limit)
    sol, status, counts, stats = _fast(puzzles, limit)
    assert (status == ref_status).all(), np.flatnonzero(status != ref_status)[:5]
    assert (counts == ref_counts).all()
    if limit >= 2:  # with limit 1, SOLVED means "a solution", and the kernels branch differently
        solved = status == SOLVED
        assert (sol[solved] == ref_sol[solved]).all()  # a unique solution is the same grid
    found = counts > 0
    assert verify(puzzles[found], sol[found], standard()).all()
    assert (stats[:, 0] <= stats[:, 1] + stats[:, 2]).all()  # every guess made a node or a backtrack


@pytest.mark.parametrize(("name", "limit"), [("tdoku_test_puzzles", 2), ("tdoku_test_puzzles", 50), ("top1465", 2)])
def test_bitboard_kernel_matches_the_general_kernel_on_a_bundled_set(name, limit):
    puzzles, _ = load_lines(DATA / f"{name}.txt")
    _assert_same(puzzles, limit)


#: Every bundled 9x9 puzzle set (besides the two above, compared in full): the first puzzles of each.
NINE_BY_NINE = (
    "17_clue",
    "forum_hardest_1106",
    "forum_hardest_1905_11plus",
    "inkala",
    "kaggle3m_sample",
    "kaggle_sample",
    "magictour_top100",
    "magictour_topn234",
    "magictour_topn87",
    "norvig_easy50",
    "norvig_hardest",
    "norvig_top95",
    "serg_benchmark",
    "sudoku_exchange_rated",
    "sudoku_exchange_tiers",
)


@pytest.mark.parametrize("name", NINE_BY_NINE)
@pytest.mark.parametrize("limit", [1, 2])
def test_bitboard_kernel_matches_the_general_kernel_on_every_bundled_9x9_set(name, limit):
    puzzles, _ = load_lines(DATA / f"{name}.txt")
    _assert_same(puzzles[:250], limit)


def test_the_list_of_bundled_9x9_sets_is_complete():
    """A 9x9 set added to ``data/`` must join the parity test above."""
    found = set()
    for path in DATA.glob("*.txt"):
        if path.name.count(".") > 1:  # solutions, labels, ratings: not puzzle sets
            continue
        lines = [x for x in path.read_text().split("\n") if x.strip() and not x.startswith("#")]
        if len(lines[0].split()[0].split(":")[0]) == 81:
            found.add(path.stem)
    assert found - {"tdoku_test_puzzles", "top1465", "xsudoku9"} == set(NINE_BY_NINE)


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


@settings(max_examples=60, deadline=None)
@given(
    perm=st.permutations(range(1, 10)),
    keep=st.lists(st.integers(0, 3), min_size=81, max_size=81),
)
def test_bitboard_kernel_matches_counting_to_two_on_puzzles_with_many_solutions(perm, keep):
    """Counting to 2 stops at a deadly rectangle: the same statuses and counts as the general kernel's search."""
    values = [perm[int(ch) - 1] if k == 0 else 0 for ch, k in zip(SOLVED_GRID, keep, strict=True)]  # ~1/4 kept
    _assert_same(np.array([values], dtype=np.uint8), 2)


def _solved_state(grid: np.ndarray, givens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A state with no open cell holding ``grid`` (the kernel's layout), and the scratch row of its given cells."""
    s = np.zeros(kernel9.STATE_WORDS, dtype=np.int64)
    given = np.zeros(kernel9.STATE_WORDS, dtype=np.int64)
    for c in range(81):
        band, bit = divmod(c, 27)
        s[4 * (grid[c] - 1) + band] |= 1 << bit
        if givens[c]:
            given[27 + band] |= 1 << bit
    return s, given


def _rectangles(grid: np.ndarray, givens: np.ndarray, code: int, d: int) -> list[np.ndarray]:
    """Every grid that swaps digit ``d + 1`` and another in four cells of two rows of band ``code - 3`` (two
    columns of stack ``code - 6``), none given, and is still a solution: by brute force."""
    g = grid.reshape(9, 9)
    given = givens.reshape(9, 9)
    out = []
    lines = [3 * ((code - 3) % 3) + i for i in range(3)]
    for i in lines:
        for j in lines:
            for a in range(9):
                for b in range(9):
                    cells = [(i, a), (i, b), (j, a), (j, b)] if code < 6 else [(a, i), (b, i), (a, j), (b, j)]
                    if i >= j or a == b or any(given[x] for x in cells):
                        continue
                    p, q, r, u = (g[x] for x in cells)
                    if p == d + 1 and p == u and q == r:
                        swapped = g.copy()
                        for x, v in zip(cells, (q, p, p, q), strict=True):
                            swapped[x] = v
                        if verify(givens[None, :] * grid, swapped.reshape(1, 81), standard()).all():
                            out.append(swapped)
    return out


@settings(max_examples=150, deadline=None)
@given(
    perm=st.permutations(range(1, 10)),
    transpose=st.booleans(),
    givens=st.lists(st.integers(0, 3), min_size=81, max_size=81),  # 0: a given (about a quarter of the cells)
    code=st.integers(3, 8),
    d=st.integers(0, 8),
)
def test_a_deadly_rectangle_is_found_exactly_when_a_swap_gives_a_second_solution(perm, transpose, givens, code, d):
    grid = np.array([perm[int(ch) - 1] for ch in SOLVED_GRID], dtype=np.uint8)
    if transpose:
        grid = np.ascontiguousarray(grid.reshape(9, 9).T).reshape(81)
    mask = (np.array(givens) == 0).astype(np.uint8)
    s, given_row = _solved_state(grid, mask)
    choice = np.array([code], dtype=np.int64), np.array([d], dtype=np.int64), np.array([1], dtype=np.int64)
    found = kernel9._deadly(s, grid * mask, grid.copy(), given_row, *choice, 1)
    assert found == bool(_rectangles(grid, mask, code, d))
    assert not kernel9._deadly(s, grid * mask, grid.copy(), given_row, choice[0], choice[1], choice[2] * 0, 1)


def _variants(line: str):
    """A hard puzzle (one solution), the same with a wrong digit added (none) and with its first six givens
    removed (usually several): each needs guesses, so the search takes last alternatives in place."""
    puzzle = np.array([0 if ch in ".0" else int(ch) for ch in line.strip()], dtype=np.uint8)
    sol, status, _, _ = _general(puzzle[None, :], 2)
    assert status[0] == SOLVED
    wrong = puzzle.copy()
    for cell in np.flatnonzero(puzzle == 0):  # a wrong digit whose dead end only the search finds
        wrong = puzzle.copy()
        wrong[cell] = sol[0, cell] % 9 + 1
        _, status, _, stats = _general(wrong[None, :], 2)
        if status[0] == NO_SOLUTION and stats[0, 0] > 0:
            break
    loose = puzzle.copy()
    loose[np.flatnonzero(puzzle)[:6]] = 0
    return [puzzle, wrong, loose]


@pytest.mark.parametrize("limit", [1, 2, 7])
def test_last_alternative_in_place_keeps_status_and_count_on_zero_one_and_many_solutions(limit):
    lines = (DATA / "norvig_top95.txt").read_text().split()[:12]
    puzzles = np.array([v for line in lines for v in _variants(line)], dtype=np.uint8)
    ref = _general(puzzles, limit)
    _assert_same(puzzles, limit)
    _, status, counts, stats = _fast(puzzles, limit)
    assert {SOLVED, NO_SOLUTION} <= set(status.tolist())
    assert (counts > 1).any() or limit == 1
    assert (counts == ref[2]).all()
    searched = stats[:, 1] > 0
    assert (stats[searched & (status == NO_SOLUTION), 2] > 0).any()  # dead ends found by the search
    # Every digit tried below the root ends as a node or a backtrack, so tries = nodes - 1 + backtracks; the
    # tries that are not guesses are last alternatives, which the search runs in place.
    guesses, nodes, backtracks = stats[searched].T
    assert (nodes - 1 + backtracks - guesses > 0).any()


def test_bitboard_kernel_gives_the_same_answers_when_run_again_on_the_same_scratch():
    """The scratch is reused from puzzle to puzzle and from call to call (borrowed, without refcounts)."""
    puzzles, _ = load_lines(DATA / "norvig_top95.txt")
    first = _fast(puzzles, 2)
    again = _fast(puzzles[::-1].copy(), 2)
    assert (first[0] == again[0][::-1]).all() and (first[3] == again[3][::-1]).all()


def _state(line: str) -> np.ndarray:
    """The kernel's state of a grid: per digit and band the cells where the digit may go (word ``4 * d + b``),
    open cells (word ``OPEN + b``)."""
    from sudokit.formats import parse_grid
    from sudokit.grid import Candidates

    grid = parse_grid(line)
    cands = Candidates.of(grid)
    s = np.zeros(kernel9.STATE_WORDS, dtype=np.int64)
    for cell in range(81):
        b, bit = divmod(cell, 27)
        for d in range(9):
            if cands.masks[cell] >> d & 1:
                s[4 * d + b] |= 1 << bit
        if grid.values[cell] == 0:
            s[kernel9.OPEN + b] |= 1 << bit
    return s


@pytest.mark.parametrize("index", range(0, 95, 19))
def test_branching_picks_the_bivalue_cell_with_the_most_open_peers(index):
    from sudokit.formats import parse_grid
    from sudokit.grid import Candidates

    line = (DATA / "norvig_top95.txt").read_text().split()[index]
    grid = parse_grid(line)
    cands = Candidates.of(grid)
    geo = standard()
    bivalue = [c for c in range(81) if grid.values[c] == 0 and cands.count(c) == 2]
    open_peers = {c: sum(1 for p in geo.peers[c] if grid.values[p] == 0) for c in bivalue}
    band, bit, rem = kernel9._choose(_state(line))
    if not bivalue:
        assert bin(rem).count("1") == min(cands.count(c) for c in range(81) if grid.values[c] == 0)
        return
    best = max(open_peers.values())
    expected = next(c for c in bivalue if open_peers[c] == best)  # the first in cell order on a tie
    assert 27 * band + bit.bit_length() - 1 == expected
    assert rem == cands.masks[expected]


@njit
def _ctz_popcount(v):
    return bits.lowest_bit(v), bits.popcount(v)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, (1 << 62) - 1))
def test_bit_intrinsics_match_python(x):
    assert _ctz_popcount(x) == ((x & -x).bit_length() - 1, bin(x).count("1"))


def test_kernel_still_works_unborrowed_if_numba_moves_its_array_internals(tmp_path):
    """``_borrow`` uses an internal of numba; without it the kernels fall back to plain (counted) arrays."""
    import os
    import subprocess
    import sys

    script = f"""
import sys, types
import numba.np.arrayobj as real

class Moved(types.ModuleType):  # numba's module as a later release might have it: no populate_array
    def __getattr__(self, name):
        if name == "populate_array":
            raise AttributeError(name)
        return getattr(real, name)

sys.modules["numba.np.arrayobj"] = Moved("numba.np.arrayobj")
from sudokit.engine import kernel9
sys.modules["numba.np.arrayobj"] = real
from sudokit.engine.batch import load_lines, solve_all, verify
assert kernel9.populate_array is None
puzzles, geometry = load_lines({str(DATA / "norvig_top95.txt")!r})
batch = solve_all(puzzles[:20], geometry=geometry, limit=2)
assert verify(batch.puzzles, batch.solutions, geometry).all()
print(sorted(set(batch.status.tolist())))
"""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # do not mix these builds into the shared cache
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"[{SOLVED}]"


def _givens_state(values: np.ndarray) -> np.ndarray:
    """The bitboard state of a puzzle's givens before propagation (as ``search9`` sets it up)."""
    s = np.zeros(kernel9.STATE_WORDS, dtype=np.int64)
    for d in range(9):
        for b in range(3):
            word = 0
            for j in range(27):
                r, c = divmod(27 * b + j, 9)
                v = values[9 * r + c]
                seen = any(
                    values[9 * rr + cc] == d + 1
                    for rr in range(9)
                    for cc in range(9)
                    if (rr, cc) != (r, c) and (rr == r or cc == c or (rr // 3, cc // 3) == (r // 3, c // 3))
                )
                if v == d + 1 or (v == 0 and not seen):
                    word |= 1 << j
            s[4 * d + b] = word
    for b in range(3):
        s[kernel9.OPEN + b] = sum(1 << j for j in range(27) if values[27 * b + j] == 0)
    s[kernel9.MARK] = (1 << 27) - 1
    return s


def _triads_left(s: np.ndarray) -> tuple[int, int]:
    """(candidates a naked or hidden triad of a mini-row or mini-column would still clear, the branching score)
    by the definitions, cell by cell: the reference for ``kernel9._triads``."""

    def cand(d: int, r: int, c: int) -> bool:
        return bool(s[4 * d + r // 3] >> (9 * (r % 3) + c) & 1)

    def is_open(r: int, c: int) -> bool:
        return bool(s[kernel9.OPEN + r // 3] >> (9 * (r % 3) + c) & 1)

    clears = set()
    score = 0
    for orient in (0, 1):  # mini-rows, then mini-columns (the transposed board)
        for line in range(9):  # a row (a column)
            for part in range(3):  # the box along it

                def at(i: int, p: int = part, ln: int = line, o: int = orient) -> tuple[int, int]:
                    return (ln, 3 * p + i) if o == 0 else (3 * p + i, ln)

                cells = [at(i) for i in range(3)]
                digits = {d for d in range(9) if any(cand(d, *rc) for rc in cells)}
                others = [at(i, p) for p in range(3) if p != part for i in range(3)]  # the rest of the line
                locked = {d for d in digits if not any(cand(d, *rc) for rc in others)}
                # score: a band's mini-rows, a stack's mini-columns
                score += len(digits) << (7 * (line // 3) + 21 * orient)
                lines = range(3 * (line // 3), 3 * (line // 3) + 3)
                box = [at(i, part, ln) for ln in lines if ln != line for i in range(3)]  # the rest of the box
                if len(digits) == 3:
                    clears |= {(d, rc) for d in digits for rc in box + others if is_open(*rc) and cand(d, *rc)}
                if len(locked) == 3:
                    rest = set(range(9)) - locked
                    clears |= {(d, rc) for d in rest for rc in cells if is_open(*rc) and cand(d, *rc)}
    return len(clears), score


def test_propagation_applies_every_triad_and_keeps_the_solution():
    """At the root's fixed point no naked or hidden triad is left to apply (checked cell by cell), word ``MARK``
    holds the branching score, and every digit of the unique solution is still a candidate."""
    puzzles = np.concatenate(
        [load_lines(DATA / f"{name}.txt")[0][:25] for name in ("top1465", "forum_hardest_1905_11plus")]
    )
    sol, status, _, _ = _general(puzzles, 2)
    assert (status == SOLVED).all()
    found_before = 0
    checked = 0
    for values, solution in zip(puzzles, sol):
        s = _givens_state(values)
        found_before += _triads_left(s)[0] > 0
        assert kernel9._propagate(s)
        for cell, v in enumerate(solution):
            b, j = divmod(cell, 27)
            assert s[4 * (v - 1) + b] >> j & 1, cell  # sound: the solution's digit survives
        if s[kernel9.OPEN] | s[kernel9.OPEN + 1] | s[kernel9.OPEN + 2]:
            checked += 1
            assert _triads_left(s) == (0, s[kernel9.MARK])
    assert found_before > 10 and checked > 10  # the reference finds triads, and most roots stay open
