"""Soundness: on every bundled set with known solutions, no step of the logical path removes a digit of the
solution or places a wrong one. Puzzles are sampled so the file runs in well under a minute."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.formats import parse_grid
from sudokit.geometry import diagonal
from sudokit.grid import Grid, is_solution
from sudokit.logic import State, explain, next_step
from sudokit.logic.forcing import assume
from sudokit.logic.registry import applicable, technique_set

DATA = Path(__file__).resolve().parents[1] / "data"


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().split()


def brute_force(state: State) -> list[int] | None:
    """A solution by depth-first search with singles propagation (independent of the engine)."""
    empty = [s for s in range(state.g.n_cells) if not state.values[s]]
    if not empty:
        return list(state.values)
    cell = min(empty, key=lambda s: state.cands[s].bit_count())
    for d in state.digits(cell):
        trial = state.copy()
        ok, _ = assume(trial, cell, d)
        if ok:
            found = brute_force(trial)
            if found is not None:
                return found
    return None


def check_path(
    grid: Grid,
    solution: list[int],
    uniqueness: bool = True,
    max_steps: int = 2000,
    techniques: str | frozenset[str] | set[str] | None = None,
    used: set[str] | None = None,
) -> bool:
    """Walk the logical path step by step (with the rows of ``techniques``: a list or preset as the CLI takes
    it, or a set of row names; default all), checking each step against ``solution``; True when solved. ``used``
    collects the rows that took steps."""
    state = State.from_grid(grid)
    chosen = technique_set(techniques) if isinstance(techniques, str) else techniques
    rows = applicable(state, uniqueness, chosen)
    for _ in range(max_steps):
        if state.is_solved():
            break
        step = next_step(state, rows)
        if step is None:
            break
        if used is not None:
            used.add(step.technique)
        for cell, d in step.placements:
            assert solution[cell] == d, f"{grid.to_line()}: {step.explanation}"
        for cell, d in step.eliminations:
            assert solution[cell] != d, f"{grid.to_line()}: {step.explanation}"
        state.apply(step)
    if state.is_solved():
        assert is_solution(state.to_grid(), grid)
    return state.is_solved()


def test_kaggle_sample_steps_are_sound():
    puzzles, solutions = lines("kaggle_sample.txt")[:600], lines("kaggle_sample.solutions.txt")[:600]
    for p, s in zip(puzzles, solutions):
        assert check_path(parse_grid(p), [int(ch) for ch in s])


def test_sudoku_exchange_tiers_steps_are_sound_and_solve_by_logic():
    puzzles = lines("sudoku_exchange_tiers.txt")[::16]
    solutions = lines("sudoku_exchange_tiers.solutions.txt")[::16]
    for p, s in zip(puzzles, solutions):
        assert check_path(parse_grid(p), [int(ch) for ch in s])


def test_hodoku_grouped_chains_and_als_chains_are_sound_on_hodoku_paths():
    """HoDoKu's set (no Sudoku Explainer chains, which come first in the full table): paths of diabolical
    sudoku_exchange_tiers puzzles whose steps include grouped AICs and ALS-Chains (issue #20 item 2), each step
    checked against the solution; the grouped X-chain and continuous loop on their top1465 paths against brute
    force."""
    used: set[str] = set()
    hodoku = technique_set("hodoku")
    puzzles, solutions = lines("sudoku_exchange_tiers.txt"), lines("sudoku_exchange_tiers.solutions.txt")
    for i in (1571, 1616, 1721, 1761):
        grid = parse_grid(puzzles[i - 1])
        assert check_path(grid, [int(ch) for ch in solutions[i - 1]], techniques=hodoku, used=used)
    for p in (lines("top1465.txt")[110], lines("top1465.txt")[488]):
        grid = parse_grid(p)
        assert check_path(grid, brute_force(State.from_grid(grid)), techniques=hodoku, used=used)
    assert {"Grouped X-Chain", "Grouped Continuous Nice Loop", "Grouped AIC", "ALS-Chain"} <= used


def test_kaggle3m_sample_steps_are_sound():
    puzzles = lines("kaggle3m_sample.txt")[::350]
    solutions = lines("kaggle3m_sample.solutions.txt")[::350]
    for p, s in zip(puzzles, solutions):
        assert check_path(parse_grid(p), [int(ch) for ch in s])


# The 18 single-solution lines of tdoku_test_puzzles.txt: every step of their paths is checked against the
# solution in test_logic_loops.py (test_new_techniques_and_every_path_step_never_contradict_tdoku_solutions),
# in the walk that also checks the loop finders there: one walk of these hard paths, not two.


def test_hodoku_set_paths_are_sound_where_its_own_rows_take_steps():
    """HoDoKu's set on paths where its unique rectangle type 5, avoidable rectangle type 1 and forcing net take
    steps (tiers lines 1645, 1847 and 1955 with their solutions; top1465 lines 2 and 3 against brute force)."""
    used: set[str] = set()
    tiers, solutions = lines("sudoku_exchange_tiers.txt"), lines("sudoku_exchange_tiers.solutions.txt")
    for i in (1644, 1846, 1954):
        assert check_path(parse_grid(tiers[i]), [int(ch) for ch in solutions[i]], techniques="hodoku", used=used)
    for p in lines("top1465.txt")[1:3]:
        grid = parse_grid(p)
        assert check_path(grid, brute_force(State.from_grid(grid)), techniques="hodoku", used=used)
    assert {"Unique Rectangle Type 5", "Avoidable Rectangle Type 1", "Forcing Net Contradiction"} <= used


def test_sudoku16_janko_steps_are_sound():
    puzzles = lines("sudoku16_janko.txt")[:2]
    solutions = lines("sudoku16_janko.solutions.txt")[:2]
    symbols = "123456789ABCDEFG"
    for p, s in zip(puzzles, solutions):
        check_path(parse_grid(p), [symbols.index(ch) + 1 for ch in s], max_steps=400)


def test_sudoku4_steps_are_sound():
    for p in lines("sudoku4_vu.txt")[:30]:
        grid = parse_grid(p)
        solution = brute_force(State.from_grid(grid))
        assert check_path(grid, solution)


def test_xsudoku_steps_are_sound_with_the_diagonals():
    for p in lines("xsudoku9.txt")[:4]:
        grid = Grid(diagonal(), parse_grid(p).values)
        solution = brute_force(State.from_grid(grid))
        assert is_solution(Grid(grid.geometry, tuple(solution)), grid)
        check_path(grid, solution)


@settings(max_examples=15, deadline=None)
@given(row=st.integers(0, 19_999), holes=st.sets(st.integers(0, 80), min_size=40, max_size=56))
def test_steps_never_remove_a_digit_of_some_solution(row, holes):
    """Without uniqueness techniques, logic never removes a digit that a valid completion uses, even on
    puzzles with many solutions."""
    solution = [int(ch) for ch in lines("kaggle_sample.solutions.txt")[row]]
    values = [0 if s in holes else v for s, v in enumerate(solution)]
    grid = Grid.from_values(values)
    check_path(grid, solution, uniqueness=False, max_steps=60)


def test_explain_reports_a_stuck_path_without_guessing():
    # two solutions: logic alone cannot finish, and says so
    grid = parse_grid("1." + "." * 14)  # 4x4 with many solutions
    path = explain(grid, uniqueness=False)
    assert not path.solved and path.stuck


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "every"),
    [
        ("norvig_hardest.txt", 3),
        ("sudoku_exchange_rated.txt", 250),
        ("top1465.txt", 150),
        ("forum_hardest_1905_11plus.txt", 16000),  # nested forcing chains: 4 puzzles
    ],
)
def test_hard_sets_without_solutions_are_sound_against_brute_force(name, every):
    for p in lines(name)[::every]:
        grid = parse_grid(p)
        assert check_path(grid, brute_force(State.from_grid(grid)))


def test_sudoku_explainer_chains_are_sound_on_rated_paths():
    """Every step of paths where Sudoku Explainer's static, Nishio, multiple and dynamic forcing chains take
    steps, and aligned triple exclusion (sudoku_exchange_rated, rated 6.6-9.3 by Sukaku Explainer), is checked
    against the solution."""
    used = set()
    rated = lines("sudoku_exchange_rated.txt")
    for p in rated[2900::260] + [rated[3530]]:
        grid = parse_grid(p)
        solution = brute_force(State.from_grid(grid))
        state = State.from_grid(grid)
        techniques = applicable(state)
        while not state.is_solved():
            step = next_step(state, techniques)
            assert step is not None, p
            used.add(step.technique)
            for cell, d in step.placements:
                assert solution[cell] == d, f"{p}: {step.explanation}"
            for cell, d in step.eliminations:
                assert solution[cell] != d, f"{p}: {step.explanation}"
            state.apply(step)
    chains = {"Static Forcing Chain", "Nishio Forcing Chain", "Multiple Forcing Chain", "SE Dynamic Forcing Chain"}
    assert chains | {"Aligned Triple Exclusion"} <= used
