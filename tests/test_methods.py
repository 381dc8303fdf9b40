"""The seeds' algorithms: the registry, the strategies on the seeds' own examples, levels, AC-3 counts, traces."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import SudokitError
from sudokit.formats import parse_grid, read_puzzles
from sudokit.geometry import Geometry, diagonal, for_size, standard
from sudokit.grid import Grid, digits_of, is_solution, mask_of
from sudokit.methods import DESCRIPTIONS, METHODS, PROPAGATORS, ac3, get, norvig, udacity
from sudokit.methods.runner import Budget
from sudokit.methods.trace import Trace, board_states, read_trace, write_trace
from sudokit.result import Status

DATA = Path(__file__).resolve().parents[1] / "data"
G9 = standard()
GRID1 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
GRID2 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
DIAGONAL_GRID = "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3"
DIAGONAL_SOLUTION = "267945381853716249491823576576438192384192657129657438642379815935281764718564923"

# The notebook's before_naked_twins_1, row by row ("." is never used: every cell has candidates).
BEFORE_NAKED_TWINS_1 = """
1 237 4 2357 9 257 27 6 8
9 5 6 27 1 8 27 3 4
23 237 8 4 37 6 9 5 1
5 1 2379 237 347 279 34 8 6
8 37 379 6 347 579 345 1 2
6 4 23 1235 8 125 35 9 7
7 8 1 9 2 3 6 4 5
4 9 5 17 6 17 8 2 3
23 6 23 8 5 4 1 7 9
"""


def board(text: str, geometry: Geometry = G9) -> list[int]:
    """Candidate masks from rows of space-separated digit strings."""
    return [mask_of(int(ch) for ch in word) for word in text.split()]


def shown(values: list[int]) -> list[str]:
    return ["".join(str(d) for d in digits_of(m)) for m in values]


def at(label: str) -> int:
    return G9.cell_of(label)


# ---- the registry ----------------------------------------------------------------------------
def test_registry_lists_the_three_seed_methods_with_a_description_each():
    assert list(METHODS) == ["udacity", "norvig", "ac3"]
    assert set(DESCRIPTIONS) == set(METHODS) == set(PROPAGATORS)
    assert all(DESCRIPTIONS[name] for name in METHODS)
    assert get("Norvig") is METHODS["norvig"]


def test_get_rejects_an_unknown_method_as_a_user_error():
    with pytest.raises(SudokitError, match="unknown method 'dlx'"):
        get("dlx")


@pytest.mark.parametrize("name", list(METHODS))
def test_every_method_solves_the_notebook_grids_and_checks_them(name):
    for line in (GRID1, GRID2):
        puzzle = parse_grid(line)
        result = METHODS[name](puzzle)
        assert result.status == Status.SOLVED and result.count == 1
        assert is_solution(result.solution, puzzle)
        assert result.method == name and result.stats.nodes >= 1 and result.stats.seconds > 0


@pytest.mark.parametrize("name", list(METHODS))
def test_every_method_reports_invalid_givens_without_searching(name):
    puzzle = parse_grid("11" + "." * 79)
    result = METHODS[name](puzzle, trace=True)
    assert result.status == Status.INVALID and "row A" in result.message
    assert result.trace.outcome == "invalid"


@pytest.mark.parametrize("name", list(METHODS))
def test_limit_one_stops_at_the_first_of_several_solutions(name):
    puzzle = parse_grid("." * 81)
    first = METHODS[name](puzzle, limit=1)
    assert first.status == Status.SOLVED and first.count == 1 and is_solution(first.solution)
    several = METHODS[name](puzzle, limit=2)
    assert several.status == Status.MULTIPLE and several.count == 2 and is_solution(several.solution)


@pytest.mark.parametrize("name", list(METHODS))
def test_a_node_limit_stops_the_search_with_a_timeout_status(name):
    result = METHODS[name](parse_grid(GRID2), node_limit=3)
    assert result.status == Status.TIMEOUT and result.solution is None
    assert "node limit of 3" in result.message and result.stats.nodes == 4


@pytest.mark.parametrize("name", ["udacity", "norvig"])
def test_hard1_is_stopped_by_the_time_limit_instead_of_hanging(name):
    result = METHODS[name](parse_grid(HARD1), time_limit=0.5)
    assert result.status == Status.TIMEOUT and "time limit" in result.message
    assert result.stats.seconds < 5


def test_ac3_finds_two_solutions_of_hard1_at_once():
    result = METHODS["ac3"](parse_grid(HARD1), time_limit=10)
    assert result.status == Status.MULTIPLE and result.count == 2 and is_solution(result.solution)


def test_limits_must_be_positive():
    with pytest.raises(SudokitError):
        METHODS["norvig"](parse_grid(GRID1), limit=0)
    with pytest.raises(SudokitError):
        Budget(time_limit=0)
    with pytest.raises(SudokitError):
        Budget(node_limit=0)


# ---- Udacity strategies on the notebook's examples -------------------------------------------
NOTEBOOK_AFTER_ELIMINATE = """
45 4578 3 49 2 147 6 5789 57
9 24678 47 3 47 5 78 278 1
25 257 1 8 79 6 4 23579 2357
345 345 8 1 3456 2 9 34567 34567
7 123459 49 459 34569 4 1 13456 8
1345 13459 6 7 3459 8 2 1345 345
134 1347 2 6 478 9 5 1478 47
8 1467 47 2 457 3 17 1467 9
46 4679 5 4 1 47 3 24678 2467
"""

NOTEBOOK_AFTER_ONLY_CHOICE = """
45 8 3 9 2 1 6 5789 57
9 6 47 3 4 5 8 278 1
2 257 1 8 7 6 4 23579 2357
345 345 8 1 3456 2 9 34567 34567
7 2 9 5 34569 4 1 13456 8
1345 13459 6 7 3459 8 2 1345 345
134 1347 2 6 8 9 5 1478 47
8 1467 47 2 5 3 17 6 9
6 9 5 4 1 7 3 8 2
"""


def test_eliminate_matches_the_notebook_output_for_grid1():
    values = udacity.eliminate(udacity.grid_values(parse_grid(GRID1)), G9)
    assert shown(values) == NOTEBOOK_AFTER_ELIMINATE.split()


def test_only_choice_after_eliminate_matches_the_notebook_output_for_grid1():
    values = udacity.eliminate(udacity.grid_values(parse_grid(GRID1)), G9)
    assert shown(udacity.only_choice(values, G9)) == NOTEBOOK_AFTER_ONLY_CHOICE.split()


def test_reduce_puzzle_solves_grid1_like_the_notebook():
    values = udacity.reduce_puzzle(udacity.grid_values(parse_grid(GRID1)), G9)
    assert "".join(shown(values)) == "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def test_naked_twins_on_before_naked_twins_1_clears_only_column_3():
    before = board(BEFORE_NAKED_TWINS_1)
    after = udacity.naked_twins(list(before), G9)
    changed = {G9.label(s): shown([after[s]])[0] for s in G9.cells if after[s] != before[s]}
    # F3/I3 = 23 are twins in column 3: D3 and E3 lose 2 and 3. Nothing else is a twin's other cell.
    assert changed == {"D3": "79", "E3": "79"}


def test_naked_twins_a_second_time_reaches_the_notebooks_expected_result():
    # D3 = E3 = 79 are new twins in box 4 (and column 3), so E2 = 37 loses its 7: the notebook's printout.
    once = udacity.naked_twins(board(BEFORE_NAKED_TWINS_1), G9)
    twice = udacity.naked_twins(list(once), G9)
    assert shown(twice)[at("E2")] == "3"
    assert [G9.label(s) for s in G9.cells if twice[s] != once[s]] == ["E2"]


def test_naked_twins_39_23_23_box_example_from_the_diagonal_seed():
    # Box 1 as in the seed: 39 8 7 / 6 5 4 / 23 23 1; every other cell may be anything.
    values = [G9.all_mask] * 81
    for label, digits in zip(("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"),
                             ("39", "8", "7", "6", "5", "4", "23", "23", "1")):  # fmt: skip
        values[at(label)] = mask_of(int(c) for c in digits)
    after = udacity.naked_twins(list(values), G9)
    assert shown(after)[at("A1")] == "9"  # the 3 goes from the top-left cell
    assert shown(after)[at("C1")] == shown(after)[at("C2")] == "23"  # the twins keep both digits
    # C1 and C2 share row C too, so the rest of that row loses 2 and 3; other rows and columns do not.
    assert all(shown(after)[at(f"C{c}")] == "1456789" for c in range(4, 10))
    assert shown(after)[at("A4")] == shown(after)[at("D1")] == "123456789"


def test_naked_twins_reports_three_cells_with_the_same_pair_as_a_contradiction():
    values = [G9.all_mask] * 81
    for label in ("A1", "A2", "A3"):
        values[at(label)] = mask_of([2, 3])
    assert udacity.naked_twins(values, G9) is None
    assert udacity.reduce_puzzle(values, G9) is None


def _solution_candidates(seed: int, keep: float) -> tuple[list[int], list[int]]:
    """A known solution and random candidate sets that all contain its digit."""
    solution = [int(c) for c in DIAGONAL_SOLUTION]
    rng = random.Random(seed)
    values = []
    for d in solution:
        extra = [x for x in range(1, 10) if x != d and rng.random() < keep]
        values.append(mask_of([d, *extra[:1]]) if rng.random() < 0.6 else mask_of([d, *extra]))
    return solution, values


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.floats(0.05, 0.5))
def test_naked_twins_never_removes_a_digit_of_the_solution(seed, keep):
    solution, values = _solution_candidates(seed, keep)
    after = udacity.naked_twins(list(values), G9)
    assert after is not None
    assert all(after[s] & (1 << (d - 1)) for s, d in enumerate(solution))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.permutations(range(27)))
def test_naked_twins_does_not_depend_on_the_order_of_the_units(seed, order):
    _, values = _solution_candidates(seed, 0.3)
    shuffled = Geometry("shuffled", 9, tuple(G9.units[i] for i in order), tuple(G9.unit_names[i] for i in order))
    assert udacity.naked_twins(list(values), G9) == udacity.naked_twins(list(values), shuffled)


def test_udacity_solves_the_diagonal_seed_grid_only_with_the_diagonal_geometry():
    puzzle = Grid(diagonal(), parse_grid(DIAGONAL_GRID).values)
    result = METHODS["udacity"](puzzle)
    assert result.status == Status.SOLVED and result.solution.to_line() == DIAGONAL_SOLUTION
    plain = METHODS["udacity"](parse_grid(DIAGONAL_GRID), limit=2)
    assert plain.status == Status.MULTIPLE


# ---- Norvig: propagation and level -----------------------------------------------------------
def test_norvig_parse_grid_of_grid2_matches_the_seeds_candidates():
    values = norvig.parse_grid(parse_grid(GRID2))
    assert shown(values)[:9] == ["4", "1679", "12679", "139", "2369", "269", "8", "1239", "5"]
    assert shown(values)[at("I9")] == "23689"


def test_norvig_parse_grid_reports_a_contradiction_as_none():
    # A1 and B2 cannot both be 1..8 free while row A needs 9 twice: givens that force a clash.
    puzzle = parse_grid("12345678." + "........9" + "." * 63)
    assert norvig.parse_grid(puzzle) is None


@pytest.mark.parametrize(
    "line, squares, exponent",
    [
        ("85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.", 22, 25),
        ("..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..", 23, 31),
        ("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..", 21, 36),
        (HARD1, 17, 46),
    ],
)
def test_norvig_level_matches_the_seeds_exponents(line, squares, exponent):
    lv = norvig.level(parse_grid(line))
    assert (lv.squares, lv.exponent) == (squares, exponent)
    assert exponent <= lv.log10 < exponent + 1


def test_norvig_level_prints_like_the_seed():
    lv = norvig.level(parse_grid("85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."))
    assert str(lv) == "squares = 22\nlevel = 1.7e+25"


def test_norvig_level_of_a_puzzle_solved_by_propagation_is_zero():
    lv = norvig.level(parse_grid(GRID1))
    assert lv.product == 1 and lv.exponent == 0 and lv.log10 == 0


# ---- AC-3 ------------------------------------------------------------------------------------
def test_ac3_counts_810_constraints_and_1620_arcs_on_9x9():
    assert len(ac3.constraints(G9)) == 810 and len(set(ac3.constraints(G9))) == 810
    assert len(ac3.arcs(G9)) == 1620
    assert len(ac3.constraints(for_size(4))) == 16 * 7 // 2
    assert len(ac3.constraints(diagonal())) == 810 + 54  # each diagonal adds pairs not already in a unit


def test_textbook_ac3_and_the_singleton_queue_reach_the_same_domains():
    from collections import deque

    for line in (GRID1, GRID2, HARD1):
        puzzle = parse_grid(line)
        fast, textbook = ac3.initial_domains(puzzle), ac3.initial_domains(puzzle)
        assert ac3.ac3(fast, G9, deque(ac3.arcs(G9)))
        assert ac3.ac3(textbook, G9, deque(ac3.arcs(G9)), textbook=True)
        assert fast == textbook


# The AC-3 seed's four example boards, row by row.
AC3_ALONE = ["8....7.3.", ".3....47.", "..1.8.5.6", "..9.7....", "....1....", ".5....1..", ".18.59..4", "7....8.93",
             "....6...."]  # fmt: skip
AC3_BACKTRACKING = ["..3...6..", "92...8..4", ".8..1....", "..9.....3", "......41.", "3.86..7..", "......2.6",
                    "8......41", ".46..3879"]  # fmt: skip
AC3_NONE = ["516849732", "3.76.5...", "8.97...65", "135.6.9.7", "472591..6", "96837..5.", "253186.74", "6842.75..",
            "791.5.6.8"]  # fmt: skip
AC3_SEVERAL = [".8...9743", ".5...8.1.", ".1.......", "8....5...", "...8.4...", "...3....6", ".......7.", ".3.5...8.",
               "9724...5."]  # fmt: skip


def test_ac3_reaches_the_seeds_four_outcomes_on_its_four_boards():
    alone = METHODS["ac3"](parse_grid("".join(AC3_ALONE)), trace=True)
    assert alone.trace.outcome == ac3.SOLVED_BY_AC3 and alone.stats.nodes == 1
    assert alone.solution.to_line()[:18] == "846527931532691478"  # the seed's "Solved After AC3"
    searched = METHODS["ac3"](parse_grid("".join(AC3_BACKTRACKING)), trace=True)
    assert searched.status == Status.SOLVED and searched.trace.outcome == ac3.NEEDED_BACKTRACKING
    assert searched.solution.to_line()[:18] == "153492687927568134"  # the seed's "Solution"
    none = METHODS["ac3"](parse_grid("".join(AC3_NONE)), trace=True)
    assert none.status == Status.NO_SOLUTION and none.trace.outcome == ac3.NO_SOLUTION
    several = METHODS["ac3"](parse_grid("".join(AC3_SEVERAL)), trace=True)
    assert several.status == Status.MULTIPLE and several.trace.outcome == ac3.SEVERAL_SOLUTIONS


def test_ac3_alone_gives_the_seeds_after_ac3_board():
    masks = PROPAGATORS["ac3"](parse_grid("".join(AC3_BACKTRACKING)))
    singles = "".join(str(m.bit_length()) if m & (m - 1) == 0 else "." for m in masks)
    rows = [singles[i : i + 9] for i in range(0, 81, 9)]
    assert rows == ["..3...68.", "92...8134", ".8..1.92.", "..9...563", "......418", "3.86..792", "......256",
                    "8.....341", ".46..3879"]  # fmt: skip


def test_mac_picks_the_cell_with_fewest_candidates_then_most_open_neighbours():
    domains = ac3.initial_domains(parse_grid("." * 81))
    domains[at("E5")] = mask_of([1, 2])
    domains[at("A1")] = mask_of([3, 4])
    # Both have two candidates and twenty open neighbours: reading order decides.
    assert ac3.select_cell(domains, G9) == at("A1")
    domains[at("A2")] = mask_of([5])  # A1 now has one open neighbour fewer
    assert ac3.select_cell(domains, G9) == at("E5")


def test_least_constraining_value_comes_first():
    domains = ac3.initial_domains(parse_grid("." * 81))
    domains[at("A1")] = mask_of([1, 2])
    for label in ("A2", "A3", "B1"):
        domains[at(label)] &= ~mask_of([2])  # three neighbours can no longer take a 2
    assert ac3.order_digits(domains, at("A1"), G9) == [2, 1]  # a 2 rules out 17 neighbour digits, a 1 20
    for label in ("C1", "D1", "E1", "F1", "G1"):
        domains[at(label)] &= ~mask_of([1])
    assert ac3.order_digits(domains, at("A1"), G9) == [1, 2]


# ---- traces ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(METHODS))
def test_the_trace_replays_to_the_solution(name):
    puzzle = parse_grid(GRID2)
    result = METHODS[name](puzzle, limit=2, trace=True)  # proving uniqueness backtracks for sure
    trace = result.trace
    assert isinstance(trace, Trace) and trace.method == name and trace.puzzle == puzzle
    kinds = {e.kind for e in trace.events}
    assert {"assign", "eliminate", "guess", "backtrack", "solved"} <= kinds
    assert trace.count("guess") >= result.stats.guesses and trace.count("solved") == 1
    complete = [grid for _, grid in board_states(trace) if grid.is_complete]
    assert complete and complete[0] == result.solution
    # every cell that is not a given is assigned at least once on the way
    assigned = {cell for cell, _ in trace.assignments()}
    assert assigned >= {s for s in G9.cells if not puzzle.values[s]}


def test_rules_name_the_strategy_that_made_each_step():
    rules = {e.rule for e in METHODS["udacity"](parse_grid(GRID2), trace=True).trace.events}
    assert {"eliminate", "only_choice", "search"} <= rules
    rules = {e.rule for e in METHODS["norvig"](parse_grid(GRID2), trace=True).trace.events}
    assert {"norvig:peers", "norvig:unit", "search"} <= rules
    rules = {e.rule for e in METHODS["ac3"](parse_grid(GRID2), trace=True).trace.events}
    assert {"ac3", "search"} <= rules


def test_ac3_trace_records_the_queue_and_where_each_mac_call_starts():
    result = METHODS["ac3"](parse_grid(GRID2), limit=1, trace=True)
    trace = result.trace
    assert trace.queue_lengths[0] == 1620 and trace.queue_lengths[-1] == 0
    # one MAC call per assignment tried: those that led to a node, and those that failed at once
    assert len(trace.search_starts) == result.stats.nodes - 1 + result.stats.backtracks
    assert all(trace.queue_lengths[i] == 20 for i in trace.search_starts)  # the arcs into the assigned cell
    assert trace.search_starts == sorted(trace.search_starts)


def test_no_trace_unless_asked():
    assert METHODS["norvig"](parse_grid(GRID2)).trace is None


def test_a_trace_written_as_json_reads_back_the_same(tmp_path):
    result = METHODS["ac3"](Grid(diagonal(), parse_grid(DIAGONAL_GRID).values), trace=True)
    path = write_trace(result.trace, tmp_path / "t.json")
    data = json.loads(path.read_text())
    assert data["method"] == "ac3" and data["geometry"] == "diagonal" and data["events"][0]["label"]
    assert data["assignments"] == [list(a) for a in result.trace.assignments()]
    back = read_trace(path)
    assert back.geometry == diagonal() and back.events == result.trace.events
    assert back.queue_lengths == result.trace.queue_lengths and back.outcome == result.trace.outcome


def test_a_trace_written_before_unit_kinds_reads_with_the_boards_kinds(tmp_path):
    result = METHODS["norvig"](parse_grid(GRID2), trace=True)
    data = result.trace.to_json()
    del data["unit_kinds"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert read_trace(path).geometry == standard()


def test_reading_a_broken_trace_is_a_user_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SudokitError, match="not a readable trace"):
        read_trace(bad)


# ---- other sizes ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(METHODS))
def test_every_method_solves_4x4_and_16x16(name):
    sixteen = read_puzzles(DATA / "sudoku16_vu.txt")
    # AC-3's naked-single propagation is weak on 16x16: most of this set takes it far longer (see docs/methods.md)
    big = [sixteen[9]] if name == "ac3" else sixteen[:2]
    for puzzle in read_puzzles(DATA / "sudoku4_vu.txt")[:10] + big:
        result = METHODS[name](puzzle, limit=1 if puzzle.geometry.size == 16 else 2, time_limit=60)
        assert result.status == Status.SOLVED and is_solution(result.solution, puzzle)


@pytest.mark.parametrize("name", list(PROPAGATORS))
def test_propagation_never_removes_a_digit_of_the_solution(name):
    for line in (GRID2, HARD1):
        puzzle = parse_grid(line)
        solution = METHODS["norvig"](puzzle, limit=1, time_limit=120).solution if line != HARD1 else None
        masks = PROPAGATORS[name](puzzle)
        assert masks is not None
        if solution is not None:
            assert all(masks[s] & (1 << (d - 1)) for s, d in enumerate(solution.values))


def test_revise_removes_a_neighbours_only_digit_and_nothing_else():
    domains = [mask_of([1, 2, 3]), mask_of([2]), mask_of([2, 3])]
    assert ac3.revise(domains, 0, 1) and domains[0] == mask_of([1, 3])
    assert not ac3.revise(domains, 0, 2)  # a neighbour with two digits always leaves support
    assert not ac3.revise(domains, 0, 1)  # already consistent
