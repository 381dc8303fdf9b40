"""Unique Rectangle type 3 and nice loops (continuous and discontinuous): each fires on a state captured from
a real solving path with the eliminations or placement it must make, stays quiet where it must, and never
removes a digit of a known solution on the bundled sets."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudokit
from sudokit.formats import parse_grid
from sudokit.geometry import diagonal, standard
from sudokit.grid import Grid, is_solution
from sudokit.logic import BY_NAME, TECHNIQUES, State, Step, explain, loops, next_step, uniqueness
from sudokit.logic.rating import hodoku_level, rate
from sudokit.logic.registry import applicable

DATA = Path(__file__).resolve().parents[1] / "data"
G = standard()

# states in the form "=d" for a placed digit, else the cell's candidates; with the puzzle's solution
UR3 = (
    "=3 =8 69 =2 =5 =1 =4 69 =7 =5 =7 46 =9 468 48 =1 23 23 1469 1469 =2 =3 46 =7 =5 =8 69 "
    "=8 =2 =1 46 =9 34 36 =7 =5 469 3469 469 =7 =1 =5 23689 2369 2369 =7 369 =5 68 =2 38 3689 =4 =1 "
    "1249 1459 =8 145 34 =6 =7 239 2349 469 4569 =3 45 =7 =2 69 =1 =8 1246 146 =7 148 348 =9 236 =5 2346",
    "389251467576948132142367589821694375934715826765823941258136794493572618617489253",
)
UR3_PAIR = (  # the step of this state on the solving path of a sudoku_exchange_rated puzzle
    "=7 89 =6 14 =5 =2 489 =3 149 =1 34 345 =9 =8 =6 =2 45 =7 =2 89 45 147 =3 147 4589 1458 =6 "
    "=9 1346 134 345 =2 345 46 =7 =8 34 =2 =8 3467 467 347 =1 =9 =5 =5 46 =7 =8 =1 =9 =3 46 =2 "
    "=8 =5 =9 1346 46 134 =7 =2 14 =6 147 14 =2 479 =8 459 145 =3 34 1347 =2 57 479 157 68 68 149",
    "786452931143986257295137486931524678428673195567819342859361724674298513312745869",
)
CONTINUOUS = (  # the step of this state on the solving path of a sudoku_exchange_tiers puzzle
    "=7 =4 =5 =2 =8 =1 69 =3 69 38 =1 38 =9 =5 =6 24 24 =7 =6 =2 =9 =3 =7 =4 =1 =5 =8 13 38 =4 56 =9 =2 357 78 "
    "156 =9 3568 =7 56 =1 38 2356 268 =4 =2 56 136 =7 =4 38 359 68 19 =5 69 16 14 =2 79 =8 467 =3 =4 39 23 =8 =6 "
    "79 57 =1 25 18 =7 268 14 =3 =5 46 =9 26",
    "745281936813956427629374158384692571967513284251748369596127843432869715178435692",
)
PLACING = (
    "=5 =9 =3 28 268 68 =1 =4 =7 26 =4 267 =9 =1 567 56 =8 =3 16 17 =8 57 =3 =4 =9 56 =2 "
    "38 357 =1 =4 568 =2 567 5679 59 34 =6 =9 357 5 357 =8 =2 145 248 257 257 =1 568 =9 =3 567 "
    "45 13 135 =4 =6 =7 1358 =2 59 589 =9 =8 256 25 =4 15 57 =3 5 =7 235 25 2358 2589 358 45 =1 =6",
    "593826147247915683618734952371482569469357821825169374154673298986241735732598416",
)
TWO_WEAK = (
    "14567 =8 =3 1456 =2 147 46 =9 4567 4567 456 457 =8 567 479 =1 2357 234567 14567 =2 =9 =3 1567 147 "
    "46 57 =8 1245 345 145 1256 =9 =8 =7 1235 12345 124589 =7 1458 125 15 123 2348 =6 123459 12589 359 "
    "=6 =7 =4 123 238 1235 12359 =3 45 457 124 17 =6 =9 =8 127 46789 469 =2 149 178 =5 36 137 1367 "
    "6789 =1 78 29 =3 279 =5 =4 267",
    "183524697547869123629317458235698714471253869896741235354176982962485371718932546",
)
IN_CELL = (
    "2479 =3 49 17 58 58 12467 169 12467 27 =8 =1 =9 =6 =4 27 =5 =3 4579 57 =6 17 =2 =3 =8 19 147 "
    "=8 =9 =2 =5 47 =1 467 =3 467 13 =6 =7 348 348 =9 =5 =2 14 135 =4 35 =2 37 =6 17 =8 =9 "
    "457 157 =8 46 =9 25 =3 16 1256 =6 =2 35 38 =1 =7 =9 =4 58 3459 15 49 3468 3458 258 126 =7 12568",
    "739158462281964753456723891892541637167389524345276189578492316623817945914635278",
)

GATED = (
    "16 =8 =3 =5 =2 14 46 =9 =7 4567 456 457 =8 67 =9 =1 =2 =3 167 =2 =9 =3 167 147 46 =5 =8 "
    "=2 345 145 =6 =9 =8 =7 13 145 489 =7 148 12 =5 =3 28 =6 149 589 359 =6 =7 =4 12 28 13 159 "
    "=3 45 457 124 17 =6 =9 =8 12 469 469 =2 149 =8 =5 =3 =7 16 6789 =1 78 29 =3 27 =5 =4 26"
)


def state_of(tokens: str, geometry=G) -> State:
    toks = tokens.split()
    values = [int(t[1:]) if t.startswith("=") else 0 for t in toks]
    cands = [0 if t.startswith("=") else sum(1 << (int(ch) - 1) for ch in t) for t in toks]
    return State.from_candidates(geometry, values, cands)


def cands(*items: str) -> list[tuple[int, int]]:
    """``"A9:4"`` -> (cell, digit) pairs, sorted."""
    out = []
    for item in items:
        label, digits = item.split(":")
        out += [(G.cell_of(label), int(d)) for d in digits]
    return sorted(out)


def assert_sound(step: Step, solution) -> None:
    for cell, d in step.placements:
        assert int(solution[cell]) == d, step.explanation
    for cell, d in step.eliminations:
        assert int(solution[cell]) != d, step.explanation


def assert_links_close_a_loop(step: Step) -> None:
    links = step.links
    assert links[0][0] == links[-1][1]
    assert all(links[i][1] == links[i + 1][0] for i in range(len(links) - 1))


# ---- Unique Rectangle type 3 ------------------------------------------------------------------------


def test_unique_rectangle_type3_removes_the_naked_subset_digits_from_the_rest_of_the_unit():
    state = state_of(UR3[0])
    step = uniqueness.unique_rectangle_type3(state)
    assert step.technique == "Unique Rectangle Type 3"
    # {2,3} in B8, B9, E8, E9: E8/E9 hold 6 or 9, a naked triple {4,6,9} with E1 and E3 in row E
    assert sorted(step.eliminations) == cands("E2:469", "E7:69")
    assert step.rating == 4.7
    assert "naked triple {4,6,9} with E1, E3 in row E" in step.explanation
    assert_sound(step, UR3[1])


def test_unique_rectangle_type3_with_a_naked_pair_is_rated_4_6_and_is_the_easiest_step_there():
    state = state_of(UR3_PAIR[0])
    step = next_step(state, applicable(state))
    assert step.technique == "Unique Rectangle Type 3"
    # {8,9} in A2, A7, C2, C7: A7/C7 hold 4 or 5, a naked pair {4,5} with B8 in box 3
    assert sorted(step.eliminations) == cands("A9:4", "C8:45")
    assert step.rating == 4.6
    assert_sound(step, UR3_PAIR[1])
    state.apply(step)
    assert uniqueness.unique_rectangle_type3(state) is None


def test_unique_rectangle_type3_does_not_repeat_itself_once_applied():
    state = state_of(UR3[0])
    step = uniqueness.unique_rectangle_type3(state)
    state.apply(step)
    again = uniqueness.unique_rectangle_type3(state)
    assert again is None or sorted(again.eliminations) != sorted(step.eliminations)


def test_unique_rectangle_type3_needs_a_naked_subset():
    # with 2 back in E3 the roof cells' {6,9} no longer close a subset with E1 and E3
    tokens = UR3[0].split()
    tokens[G.cell_of("E3")] = "2469"
    assert uniqueness.unique_rectangle_type3(state_of(" ".join(tokens))) is None


def test_unique_rectangle_type3_skips_geometries_with_extra_units():
    state = state_of(UR3[0])
    other = State.from_candidates(diagonal(), state.values, state.cands)
    assert uniqueness.unique_rectangle_type3(other) is None
    assert BY_NAME["Unique Rectangle Type 3"] not in applicable(other, uniqueness=False)


# ---- nice loops ---------------------------------------------------------------------------------------


def test_continuous_nice_loop_removes_what_sees_both_ends_of_its_links():
    state = state_of(CONTINUOUS[0])
    step = loops.continuous_nice_loop(state)
    assert step.technique == "Continuous Nice Loop"
    # the weak link (3)H2 - (3)D2 of the loop becomes strong: E2 sees both, so 3 leaves it
    assert step.eliminations == cands("E2:3")
    assert step.explanation.startswith(
        "Continuous Nice Loop (3=8)D2 - (8=7)D8 - (7)G8 = (7-9)G6 = (9)G2 - (9=3)H2 - (3)D2:"
    )
    assert step.rating == 7.2  # 10 candidates: 7.0 + 0.2
    assert [strong for _, _, strong in step.links] == [i % 2 == 0 for i in range(10)]
    assert_links_close_a_loop(step)
    assert_sound(step, CONTINUOUS[1])
    # On this state a WXYZ-Wing (a later, cheaper row) now comes first; that the loop is the solver's own step
    # on a state of its own is pinned by the "Continuous Nice Loop" case of test_logic_techniques.py.
    assert next_step(state, applicable(state)).technique == "WXYZ-Wing"


def test_discontinuous_nice_loop_with_two_strong_links_places_its_candidate():
    state = state_of(PLACING[0])
    step = loops.discontinuous_nice_loop(state)
    assert step.technique == "Discontinuous Nice Loop"
    assert step.placements == [(G.cell_of("A6"), 6)] and not step.eliminations
    assert step.explanation.startswith("Discontinuous Nice Loop (6)A6 = (6)B6 - (6)A5 = (6)A6:")
    assert_links_close_a_loop(step)
    assert_sound(step, PLACING[1])


def test_discontinuous_nice_loop_with_two_weak_links_removes_its_candidate():
    state = state_of(TWO_WEAK[0])
    step = loops.discontinuous_nice_loop(state)
    assert step.explanation.startswith("Discontinuous Nice Loop (4)A9 - (4=6)A7 - (6=4)C7 - (4)A9:")
    assert (G.cell_of("A9"), 4) in step.eliminations
    assert sorted(step.eliminations) == cands("A9:4", "B9:4", "E7:4")
    assert_sound(step, TWO_WEAK[1])


def test_discontinuous_nice_loop_with_a_strong_and_a_weak_link_in_one_cell_removes_the_weak_digit():
    state = state_of(IN_CELL[0])
    step = loops.discontinuous_nice_loop(state)
    assert step.explanation.startswith("Discontinuous Nice Loop (7-4)A7 = (4)D7 - (4=7)D5 - (7)F5 = (7)F7 - (7)A7:")
    assert step.eliminations == [(G.cell_of("A7"), 7)]
    assert_sound(step, IN_CELL[1])


def test_the_table_looks_only_for_three_candidate_placements_after_the_aic():
    # right after the AIC row, longer discontinuous loops are AICs the table has already tried
    row = BY_NAME["Discontinuous Nice Loop"].find
    step = row(state_of(PLACING[0]))
    assert step.placements == [(G.cell_of("A6"), 6)] and len(step.candidates) == 3
    state = state_of(TWO_WEAK[0])
    assert row(state) is None
    assert BY_NAME["AIC"].find(state).eliminations == loops.discontinuous_nice_loop(state).eliminations


def deadly_pattern_state() -> State:
    """A solved grid with the four cells of a swappable rectangle emptied: two completions, each cell {x,y}."""
    solution = [int(ch) for ch in (DATA / "kaggle_sample.solutions.txt").read_text().split()[0]]
    box_of = G.box_of
    for r1, r2 in combinations(range(9), 2):
        for c1, c2 in combinations(range(9), 2):
            a, b, c, d = r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2
            if (
                len({box_of[s] for s in (a, b, c, d)}) == 2
                and solution[a] == solution[d]
                and solution[b] == solution[c]
            ):
                values = [0 if s in (a, b, c, d) else v for s, v in enumerate(solution)]
                return State.from_grid(Grid.from_values(values))
    raise AssertionError("no swappable rectangle")


def test_nice_loops_stay_quiet_on_a_loop_that_proves_nothing():
    state = deadly_pattern_state()
    assert sum(1 for m in state.cands if m) == 4 and all(m.bit_count() == 2 for m in state.cands if m)
    # the four cells do form a closed alternating loop, but it removes nothing and places nothing
    assert loops.continuous_nice_loop(state) is None
    assert loops.discontinuous_nice_loop(state) is None
    assert uniqueness.unique_rectangle_type3(state) is None


def test_nice_loops_stay_quiet_on_an_open_grid():
    state = State.from_candidates(G, [0] * 81, [G.all_mask] * 81)
    assert loops.continuous_nice_loop(state) is None
    assert loops.discontinuous_nice_loop(state) is None


def test_a_continuous_loop_longer_than_an_aic_is_left_to_the_aic():
    # a 6-candidate X-cycle on 1 exists, but a 4-candidate discontinuous loop (an AIC) is shorter
    state = state_of(GATED)
    cont, disc = loops.find_continuous(state), loops.find_discontinuous(state)
    assert (cont.length, disc.length) == (6, 4)
    assert loops.continuous_nice_loop(state) is None
    assert BY_NAME["AIC"].find(state) is not None


@settings(max_examples=25, deadline=None)
@given(row=st.integers(0, 19_999), holes=st.sets(st.integers(0, 80), min_size=45, max_size=64))
def test_nice_loops_never_remove_a_digit_of_any_solution(row, holes):
    """Loops do not assume a unique solution: on puzzles with many solutions they keep every one."""
    solution = [int(ch) for ch in (DATA / "kaggle_sample.solutions.txt").read_text().split()[row]]
    state = State.from_grid(Grid.from_values([0 if s in holes else v for s, v in enumerate(solution)]))
    for find in (loops.continuous_nice_loop, loops.discontinuous_nice_loop):
        step = find(state)
        if step is not None:
            assert_sound(step, solution)


# ---- the table ----------------------------------------------------------------------------------------


def test_the_new_techniques_sit_with_their_ratings_in_the_table():
    names = [t.name for t in TECHNIQUES]
    assert names.index("Unique Rectangle") < names.index("Unique Rectangle Type 3") < names.index("Naked Quad")
    assert names.index("Continuous Nice Loop") < names.index("AIC") < names.index("Discontinuous Nice Loop")
    assert names.index("Discontinuous Nice Loop") < names.index("ALS-XZ")
    assert BY_NAME["Unique Rectangle Type 3"].uniqueness and BY_NAME["Unique Rectangle Type 3"].needs_boxes
    for name in ("Continuous Nice Loop", "Discontinuous Nice Loop"):
        tech = BY_NAME[name]
        assert (tech.se, tech.score, tech.level) == (7.0, 280, "Unfair")


def test_rating_a_puzzle_that_needs_unique_rectangle_type3_counts_its_hodoku_score():
    # found by scanning sudoku_exchange_rated: Unique Rectangle Type 3 is its hardest step
    puzzle = "....5....1..9.6..72...3...69.......8.28...19...7.1.3...59...72.6..2.8..3........."
    r = rate(puzzle, extras=False)
    assert r.solved and r.hardest == "Unique Rectangle Type 3" and r.se == "4.6/1.2/1.2"
    path = explain(puzzle)
    assert is_solution(path.grid, parse_grid(puzzle))
    without = sum(BY_NAME[s.technique].score for s in path.steps if s.technique in BY_NAME)
    assert hodoku_level(path)[0] == without + 14 * r.techniques["Hidden Single"]


# ---- soundness on the bundled sets --------------------------------------------------------------------


def _lines(name: str) -> list[str]:
    return (DATA / name).read_text().split()


def walk_checking_new_techniques(grid: Grid, solution: list[int], max_steps: int = 400) -> int:
    """Follow the logical path; at every state ask the new finders directly and check them against the
    solution, and check the path's own step too (so one walk also proves the path sound). Returns how many of
    the new finders' steps were checked."""
    state = State.from_grid(grid)
    techniques = applicable(state)
    finders = [loops.continuous_nice_loop, loops.discontinuous_nice_loop]
    if state.g.has_boxes and grid.geometry.is_standard:
        finders.append(uniqueness.unique_rectangle_type3)
    checked = 0
    for _ in range(max_steps):
        if state.is_solved():
            break
        for find in finders:
            step = find(state)
            if step is not None:
                for cell, d in step.placements:
                    assert solution[cell] == d, f"{grid.to_line()}: {step.explanation}"
                for cell, d in step.eliminations:
                    assert solution[cell] != d, f"{grid.to_line()}: {step.explanation}"
                checked += 1
        step = next_step(state, techniques)
        if step is None:
            break
        for cell, d in step.placements:
            assert solution[cell] == d, f"{grid.to_line()}: {step.explanation}"
        for cell, d in step.eliminations:
            assert solution[cell] != d, f"{grid.to_line()}: {step.explanation}"
        state.apply(step)
    if state.is_solved():
        assert is_solution(state.to_grid(), grid)
    return checked


def _digits(line: str, symbols: str = "123456789") -> list[int]:
    return [symbols.index(ch) + 1 for ch in line]


@pytest.mark.parametrize(
    ("puzzles", "solutions", "every"),
    [
        ("sudoku_exchange_tiers.txt", "sudoku_exchange_tiers.solutions.txt", 16),
        ("kaggle3m_sample.txt", "kaggle3m_sample.solutions.txt", 350),
        ("kaggle_sample.txt", "kaggle_sample.solutions.txt", 400),
    ],
)
def test_new_techniques_never_contradict_known_solutions(puzzles, solutions, every):
    checked = 0
    for p, s in zip(_lines(puzzles)[::every], _lines(solutions)[::every]):
        checked += walk_checking_new_techniques(parse_grid(p), _digits(s))
    assert checked > 0


def test_new_techniques_and_every_path_step_never_contradict_tdoku_solutions():
    # the soundness check of these paths (every step against the solution) lives here, in the same walk:
    # walking the 18 hard paths twice cost ~10 s of CPU
    checked = walked = 0
    for line in _lines("tdoku_test_puzzles.txt"):
        puzzle, count, *rest = line.split(":")
        if count == "1":
            checked += walk_checking_new_techniques(parse_grid(puzzle), _digits(rest[0]))
            walked += 1
    assert checked > 0 and walked == 18


def test_new_techniques_never_contradict_solutions_on_other_geometries():
    symbols = "123456789ABCDEFG"
    p, s = _lines("sudoku16_janko.txt")[0], _lines("sudoku16_janko.solutions.txt")[0]
    walk_checking_new_techniques(parse_grid(p), _digits(s, symbols), max_steps=300)
    for p in _lines("sudoku4_vu.txt")[:20]:
        grid = parse_grid(p)
        walk_checking_new_techniques(grid, list(sudokit.solve(grid).solution.values))
    for p in _lines("xsudoku9.txt")[:3]:
        grid = Grid(diagonal(), parse_grid(p).values)
        solution = sudokit.solve(grid).solution
        assert is_solution(solution, grid)
        walk_checking_new_techniques(grid, list(solution.values))
