"""The Step contract, explanations in plain English, ``explain`` and ``hint``."""

from __future__ import annotations

import json
from pathlib import Path

from sudokit.formats import parse_grid
from sudokit.geometry import standard
from sudokit.grid import is_solution
from sudokit.logic import BY_NAME, TECHNIQUES, State, Step, explain, hint
from sudokit.logic.chains import length_penalty

DATA = Path(__file__).resolve().parents[1] / "data"
EASY = ".5.7.3.6...7...8.....816.......3......5...1..73..4..869.6...2.484.572.93...4.9..."


def open_state(**cells: set[int]) -> State:
    """An empty 9x9 state with every candidate, except the labelled cells given."""
    g = standard()
    cands = [g.all_mask] * 81
    for label, digits in cells.items():
        cands[g.cell_of(label)] = sum(1 << (d - 1) for d in digits)
    return State.from_candidates(g, [0] * 81, cands)


def test_highlight_has_exactly_the_documented_keys_and_shapes():
    step = Step("X", placements=[(3, 4)], eliminations=[(5, 6)], cells=[3], units=[0], candidates=[(3, 4)])
    step.links = [((3, 4), (5, 4), True)]
    h = step.highlight()
    assert set(h) == {"cells", "units", "candidates", "eliminations", "placements", "links"}
    assert h["placements"] == [[3, 4]] and h["eliminations"] == [[5, 6]]
    assert h["links"] == [[[3, 4], [5, 4], True]]
    json.dumps(step.to_dict())


def test_naked_pair_explanation_names_digits_unit_cells_and_removals():
    state = open_state(C1={2, 3}, C5={2, 3})
    step = BY_NAME["Naked Pair"].find(state)
    assert step.explanation == "Naked pair {2,3} in row C (C1, C5): remove 2 and 3 from C2, C3, C4, C6, C7, C8, C9"
    assert step.units == [state.g.rows[2]]


def test_naked_pair_does_not_fire_when_the_cells_hold_three_digits():
    state = open_state(C1={2, 3}, C5={2, 4})
    assert BY_NAME["Naked Pair"].find(state) is None


def test_x_wing_found_on_rows_removes_from_columns():
    g = standard()
    state = open_state()
    for label in ("A", "E"):  # 7 only in columns 2 and 8 of rows A and E
        for col in range(1, 10):
            if col not in (2, 8):
                state.eliminate(g.cell_of(f"{label}{col}"), 7)
    step = BY_NAME["X-Wing"].find(state)
    assert step is not None
    assert {g.label(s) for s, d in step.eliminations} == {f"{r}{c}" for r in "BCDFGHI" for c in (2, 8)}
    assert all(d == 7 for _, d in step.eliminations)


def test_chain_length_penalty_follows_explainer_thresholds():
    assert length_penalty(4) == 0.0
    assert length_penalty(7) == 0.1
    assert length_penalty(9) == 0.2
    assert length_penalty(11) == 0.3


def test_explain_solves_an_easy_puzzle_with_singles_only():
    path = explain(parse_grid(EASY))
    assert path.solved and is_solution(path.grid, parse_grid(EASY))
    assert {s.technique for s in path.steps} <= {"Full House", "Hidden Single", "Naked Single"}
    assert path.rating == max(s.rating for s in path.steps)


def test_explain_accepts_a_string_and_every_step_has_a_registered_rating():
    path = explain(EASY)
    ratings = {t.se for t in TECHNIQUES}
    assert all(s.rating in ratings for s in path.steps)


def test_hint_gentle_level_says_where_to_look_without_giving_the_digit():
    gentle = hint(EASY, level=1)
    full = hint(EASY, level=2)
    assert gentle.technique == full.technique
    assert not gentle.placements and not gentle.eliminations
    assert gentle.explanation.startswith("Look at ")
    assert full.placements


def test_hint_on_a_puzzle_logic_cannot_continue_is_none():
    assert hint("." * 16) is None  # an empty 4x4 grid: many solutions, no logical step


def test_techniques_on_a_6x6_geometry_solve_a_6x6_puzzle():
    from sudokit.grid import Grid

    g = standard(2, 3)
    solution = "123456456123231564564231312645645312"
    values = [int(ch) for ch in solution]
    for s in (0, 4, 7, 9, 14, 15, 20, 22, 26, 28, 31, 35):
        values[s] = 0
    path = explain(Grid(g, tuple(values)))
    assert path.solved
    assert path.grid.to_line() == solution


def test_singles_fire_where_they_should():
    g = standard()
    values = [0] * 81
    for col, d in enumerate([1, 2, 3, 4, 5, 6, 7, 8], start=0):  # row A holds 1..8, A9 is empty
        values[col] = d
    state = State.from_candidates(g, values, [g.all_mask] * 81)
    step = BY_NAME["Full House"].find(state)
    assert step.placements == [(8, 9)] and "A9" in step.explanation
    lone = open_state(E5={4})
    assert BY_NAME["Naked Single"].find(lone).placements == [(g.cell_of("E5"), 4)]
    hidden = open_state()
    for label in ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"):  # 6 only at C3 in box 1
        hidden.eliminate(g.cell_of(label), 6)
    step = BY_NAME["Hidden Single (box)"].find(hidden)
    assert step.placements == [(g.cell_of("C3"), 6)]
