"""HoDoKu's colouring and uniqueness rows of issue #20 item 2 (Multi-Colouring, 3D Medusa, Unique Rectangle
types 5 and 6, Hidden Rectangle, Avoidable Rectangle types 1 and 2, Forcing Net Contradiction and Verity): each
on its own state (the cases in test_logic_techniques.py), explained and highlighted; sound on bundled solving
paths; and used by ``explain`` on a real puzzle. Also the rows fixed after HoDoKu's regression library
(benchmarks/reglib.py): Multi-Colouring's two pairs of colours, almost locked sets of five cells and more."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit.formats import parse_grid, parse_pencilmark
from sudokit.geometry import diagonal
from sudokit.logic import BY_NAME, State, explain, next_step
from sudokit.logic.als import als_xy_wing, death_blossom
from sudokit.logic.avoidable import avoidable_rectangle_type1, avoidable_rectangle_type2
from sudokit.logic.colouring import medusa, multi_colouring
from sudokit.logic.forcing import net_contradiction, net_verity
from sudokit.logic.rectangles import hidden_rectangle, unique_rectangle_type5, unique_rectangle_type6
from sudokit.logic.registry import applicable, technique_set
from sudokit.logic.templates import template_set_delete
from test_logic_techniques import CASES, FIRST_IN_SET, assert_sound, on_case, state_of

DATA = Path(__file__).resolve().parents[1] / "data"


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().split()


def cells(state: State, *labels: str) -> list[int]:
    return [state.g.cell_of(x) for x in labels]


def marks_of(puzzle: str) -> str:
    """The pencilmark line of a 9x9 puzzle's start: every digit in an empty cell, the given alone in a given."""
    one = {ch: "".join(ch if str(d) == ch else "." for d in range(1, 10)) for ch in "123456789"}
    return "".join(one.get(ch, "123456789") for ch in puzzle)


# ---- colouring ---------------------------------------------------------------------------------------------
# sudoku_exchange_tiers line 1501, its start: a type 2 (the row's case is a type 1, where it comes first)
TYPE2 = (
    (
        "14567 =8 =3 1456 =2 147 46 =9 4567 "
        "4567 456 457 =8 567 479 =1 2357 234567 "
        "14567 =2 =9 =3 1567 147 46 57 =8 "
        "1245 345 145 1256 =9 =8 =7 1235 12345 "
        "124589 =7 1458 125 15 123 2348 =6 123459 "
        "12589 359 =6 =7 =4 123 238 1235 12359 "
        "=3 45 457 124 17 =6 =9 =8 127 "
        "46789 469 =2 149 178 =5 36 137 1367 "
        "6789 =1 78 29 =3 279 =5 =4 267"
    ),
    "183524697547869123629317458235698714471253869896741235354176982962485371718932546",
)


def test_multi_colouring_type2_on_its_state():
    state = state_of(TYPE2[0])
    step = multi_colouring(state)
    assert step is not None and step.technique == "Multi-Colouring"
    assert_sound(step, TYPE2[1])
    assert step.eliminations == [(state.g.cell_of("B9"), 2)]
    assert step.explanation.startswith(
        "Multi-Colouring type 2 on 2: clusters {B8} / {B9} and {G4, I9} / {G9} (one colour of each holds every 2)"
    )
    assert "{B9} sees both colours of the other cluster" in step.explanation
    assert sorted(step.cells) == sorted(cells(state, "B8", "B9", "G4", "I9", "G9"))
    assert all(strong for _, _, strong in step.links) and len(step.links) == 3
    assert step.highlight()["eliminations"] == [[state.g.cell_of("B9"), 2]]


def test_multi_colouring_type1_removes_what_sees_both_far_colours():
    # tiers line 1501 start, with B9's 2 gone: no colour sees both colours of another cluster on 2 any more;
    # the step found is a type 1 or on another digit, and sound
    text, solution = TYPE2
    state = state_of(text)
    state.cands[state.g.cell_of("B9")] &= ~(1 << 1)
    state.changed()
    step = multi_colouring(state)
    assert step is not None
    assert_sound(step, solution)
    assert "type 1" in step.explanation or " on 2:" not in step.explanation


# A state from a puzzle of HoDoKu's regression library (its Multi Colors 1 section): on 3, the clusters A1 / A3
# and H1 / H3 see each other twice (A1-H1 in column 1, A3-H3 in column 3), so D1 and E3 both lose 3
BOTH_PAIRS = (
    (
        "23 =9 235 25 =4 =1 =8 =7 =6 "
        "=7 =8 26 =3 29 69 =1 =5 =4 "
        "=4 =1 56 =8 57 67 =3 =2 =9 "
        "238 35 =9 =1 2357 347 47 =6 2378 "
        "=1 35 2358 257 =6 347 =9 48 2378 "
        "=6 =7 =4 29 239 =8 =5 =1 23 "
        "=9 =6 =7 =4 =8 =5 =2 =3 =1 "
        "38 =4 38 67 =1 =2 67 =9 =5 "
        "=5 =2 =1 679 379 3679 467 48 78"
    ),
    "392541876786329154415876329239154768158267943674938512967485231843712695521693487",
)


def test_multi_colouring_type1_makes_both_pairs_removals_in_one_step():
    text, solution = BOTH_PAIRS
    state = state_of(text)
    on_three = None
    for _ in range(5):
        step = multi_colouring(state)
        if step is None:
            break
        assert_sound(step, solution)
        if " on 3:" in step.explanation:
            on_three = step
            break
        state.apply(step)
    assert on_three is not None
    assert sorted(on_three.eliminations) == sorted(cells_3(state, "D1", "E3"))
    assert "{A1} and {H1} see each other" in on_three.explanation
    assert "{A3} and {H3} see each other" in on_three.explanation


def cells_3(state: State, *labels: str) -> list[tuple[int, int]]:
    return [(c, 3) for c in cells(state, *labels)]


# ---- almost locked sets of five cells and more (from puzzles of HoDoKu's regression library) ------------------
BIG_ALS_WING = (
    (
        "=8 56 69 269 =4 =3 2567 579 =1 "
        "469 =3 =1 269 =5 =7 246 49 =8 "
        "4569 =7 =2 =1 89 68 3456 3459 3569 "
        "267 =9 =3 =5 =1 2468 4678 478 26 "
        "267 246 =5 69 789 2468 34678 =1 2369 "
        "=1 =8 46 =3 79 246 4567 4579 2569 "
        "259 245 49 48 23 =1 358 =6 =7 "
        "256 2456 =7 48 23 =9 =1 358 35 "
        "=3 =1 =8 =7 =6 =5 =9 =2 =4"
    ),
    "856243791931657248472198536693514872725986413184372659549821367267439185318765924",
)
BIG_ALS_BLOSSOM = (
    (
        "=1 =8 =6 24 =7 =5 249 2349 39 "
        "459 2459 257 248 =3 246 =1 247 68 "
        "=3 24 27 18 16 =9 246 2478 =5 "
        "=8 =7 25 2459 456 246 =3 49 =1 "
        "=6 =3 14 149 =8 =7 49 =5 =2 "
        "45 1245 =9 =3 145 12 =8 =6 =7 "
        "=2 16 14 =7 145 18 569 389 39 "
        "=7 146 =3 145 =9 148 256 28 68 "
        "59 59 =8 =6 =2 =3 =7 =1 =4"
    ),
    "186275943925834176347169285872546391631987452459312867214758639763491528598623714",
)


@pytest.mark.parametrize(
    ("case", "row", "cell", "digit", "shown"),
    [
        (BIG_ALS_WING, als_xy_wing, "F8", 7, "C = A8, B8, C7, C8, C9 (box 3, {3,4,5,6,7,9})"),
        (BIG_ALS_BLOSSOM, death_blossom, "H4", 1, "5: H2, H6, H7, H8, H9 (row H, {1,2,4,5,6,8})"),
    ],
    ids=["als_xy_wing", "death_blossom"],
)
def test_als_rows_with_sets_of_five_cells(case, row, cell, digit, shown):
    text, solution = case
    state = state_of(text)
    step = row(state)
    assert step is not None
    assert_sound(step, solution)
    assert step.eliminations == [(state.g.cell_of(cell), digit)]
    assert shown in step.explanation


def test_medusa_on_its_state():
    state, step = on_case("3D Medusa")
    assert sorted(step.eliminations) == sorted([(state.g.cell_of("I1"), 8), (state.g.cell_of("F1"), 9)])
    assert step.explanation.startswith("3D Medusa rule 5: blue {C5=1, C6=7, D2=3")
    assert "each sees one colour on its digit while its cell holds the other colour" in step.explanation
    assert step.explanation.endswith("remove 8 from I1; 9 from F1")
    digits = {d for _, d in step.candidates}
    assert len(digits) > 1  # a cluster of one digit is simple colouring's
    assert all(strong for _, _, strong in step.links)


def test_medusa_applied_again_and_again_stays_sound():
    # from its state, every step Medusa alone finds (rules 1-6 as they come) keeps the solution's digits
    text, solution = CASES["3D Medusa"]
    state = state_of(text)
    found = 0
    while not state.is_solved():
        step = medusa(state)
        if step is None:
            break
        assert_sound(step, solution)
        found += 1
        state.apply(step)
    assert found >= 1


def test_medusa_is_only_in_its_own_set():
    assert "3D Medusa" not in technique_set("hodoku").names
    assert "3D Medusa" in technique_set("hodoku,medusa").names
    assert "Multi-Colouring" in technique_set("hodoku").names
    for name in ("Multi-Colouring", "3D Medusa"):
        assert name not in technique_set("se").names
    assert (BY_NAME["Multi-Colouring"].score, BY_NAME["Multi-Colouring"].level) == (200, "Hard")
    assert (BY_NAME["3D Medusa"].score, BY_NAME["3D Medusa"].level) == (280, "Unfair")


# ---- rectangles ----------------------------------------------------------------------------------------------
def test_hidden_rectangle_on_its_state():
    state, step = on_case("Hidden Rectangle")
    assert step.eliminations == [(state.g.cell_of("A3"), 5)]
    assert sorted(step.cells) == sorted(cells(state, "A1", "A3", "F1", "F3"))
    assert sorted(step.units) == sorted([state.g.row_of[state.g.cell_of("A3")], state.g.col_of[state.g.cell_of("A3")]])
    assert step.explanation == (
        "Hidden Rectangle: {1,5} in A1, A3, F1, F3; F1 is {1,5} and 1 has no other place in row A and column 3, "
        "so A3 cannot be 5: remove 5 from A3"
    )


def test_unique_rectangle_type6_on_its_state():
    state, step = on_case("Unique Rectangle Type 6")
    assert sorted(step.eliminations) == sorted([(state.g.cell_of("G9"), 1), (state.g.cell_of("I5"), 1)])
    assert step.explanation.startswith("Unique Rectangle Type 6: {1,8} in G5, G9, I5, I9; 1 has no other place")
    assert len(step.units) == 2


def test_rectangle_rows_need_uniqueness_and_plain_boxes():
    for name in ("Hidden Rectangle", "Unique Rectangle Type 6"):
        state = state_of(CASES[name][0])
        other = State.from_candidates(diagonal(), state.values, state.cands)
        row = BY_NAME[name]
        assert row.find(other) is None
        assert row not in applicable(state, uniqueness=False)
        assert (row.score, row.level, row.uniqueness) == (100, "Hard", True)


def test_new_rows_are_sound_on_kaggle3m_paths():
    """Every 60th puzzle of kaggle3m_sample: each new finder tried on every state of the HoDoKu-set path."""
    finders = (
        multi_colouring,
        medusa,
        unique_rectangle_type5,
        unique_rectangle_type6,
        hidden_rectangle,
        avoidable_rectangle_type1,
        avoidable_rectangle_type2,
    )
    puzzles, solutions = lines("kaggle3m_sample.txt")[::60], lines("kaggle3m_sample.solutions.txt")[::60]
    fired = dict.fromkeys(finders, 0)
    hodoku = technique_set("hodoku")
    for p, s in zip(puzzles, solutions):
        state = State.from_grid(parse_grid(p))
        rows = applicable(state, techniques=hodoku)
        while not state.is_solved():
            for find in finders:
                mine = find(state)
                if mine is not None:
                    assert mine.eliminations
                    assert_sound(mine, s)
                    fired[find] += 1
            step = next_step(state, rows)
            if step is None:
                break
            state.apply(step)
    assert fired[multi_colouring] and fired[medusa] and fired[avoidable_rectangle_type1]


# ---- explain on real puzzles ---------------------------------------------------------------------------------
def test_explain_uses_the_rows_on_real_puzzles():
    # sudoku_exchange_tiers line 1501 with HoDoKu's set and 3D Medusa
    path = explain(lines("sudoku_exchange_tiers.txt")[1500], techniques=technique_set("hodoku,medusa"))
    assert path.solved and "3D Medusa" in {s.technique for s in path.steps}
    # kaggle3m_sample line 1048 (Hidden Rectangle) and line 1513 (Unique Rectangle Type 6) with HoDoKu's set
    for line, name in ((1048, "Hidden Rectangle"), (1513, "Unique Rectangle Type 6")):
        path = explain(lines("kaggle3m_sample.txt")[line - 1], techniques=technique_set("hodoku"))
        assert path.solved and name in {s.technique for s in path.steps}


def test_unique_rectangle_type5_on_its_state():
    state, step = on_case("Unique Rectangle Type 5")
    assert step.eliminations == [(state.g.cell_of("C1"), 8)]
    assert step.explanation == (
        "Unique Rectangle Type 5: {4,9} in B2, B4, C2, C4; one of B2, C2, C4 must be 8, and these cells see them "
        "all: remove 8 from C1"
    )
    assert {(s, d) for s, d in step.candidates if d == 8} == {(state.g.cell_of(x), 8) for x in ("B2", "C2", "C4")}
    assert sorted(step.cells) == sorted(cells(state, "B2", "B4", "C2", "C4"))


def test_explain_uses_unique_rectangle_type5_on_a_real_puzzle():
    # sudoku_exchange_tiers line 1645, step 31 of its HoDoKu-set path
    path = explain(lines("sudoku_exchange_tiers.txt")[1644], techniques=technique_set("hodoku"))
    assert path.solved
    assert path.steps[30].technique == "Unique Rectangle Type 5"
    assert path.steps[30].explanation.endswith("remove 8 from C1")


# ---- avoidable rectangles ------------------------------------------------------------------------------------
def test_avoidable_rectangle_type1_on_its_state():
    state, step = on_case("Avoidable Rectangle Type 1")
    assert step.eliminations == [(state.g.cell_of("C6"), 6)]
    assert sorted(step.cells) == sorted(cells(state, "C4", "C6", "I4", "I6"))
    assert step.candidates == [(state.g.cell_of("C6"), 6)]
    assert step.explanation == (
        "Avoidable Rectangle Type 1: {6,7} in C4, C6, I4, I6; C4, I4, I6 were solved (none was given) with 6 and 7 "
        "in turn, so C6 = 6 would let them swap, a second solution: remove 6 from C6"
    )
    assert step.highlight()["eliminations"] == [[state.g.cell_of("C6"), 6]]


def test_avoidable_rectangle_type2_on_its_state():
    state, step = on_case("Avoidable Rectangle Type 2")
    assert step.eliminations == [(state.g.cell_of("F4"), 5)]
    assert sorted(step.cells) == sorted(cells(state, "D4", "D5", "H4", "H5"))
    d4, h4 = cells(state, "D4", "H4")
    assert sorted(step.candidates) == sorted([(d4, 4), (d4, 5), (h4, 7), (h4, 5)])
    assert step.explanation == (
        "Avoidable Rectangle Type 2: {4,7} in D4, D5, H4, H5; D5, H5 were solved (neither was given) as 7 and 4, "
        "so D4 = 4 and H4 = 7 would let the four swap; one of D4, H4 must be 5, and these cells see both: "
        "remove 5 from F4"
    )


def test_explain_uses_avoidable_rectangle_type2_on_a_real_puzzle():
    # sudoku_exchange_rated line 3716, step 29 of its HoDoKu-set path
    path = explain(lines("sudoku_exchange_rated.txt")[3715], techniques=technique_set("hodoku"))
    assert path.solved and path.steps[28].technique == "Avoidable Rectangle Type 2"


def test_avoidable_rectangles_need_solved_cells_not_givens():
    for name, corner in (("Avoidable Rectangle Type 1", "I4"), ("Avoidable Rectangle Type 2", "D5")):
        state = state_of(CASES[name][0])
        row = BY_NAME[name]
        assert row.find(state) is not None
        # a corner given: the swap would change a given, so no deadly pattern
        assert state.givens is not None
        given = State.from_candidates(state.g, state.values, state.cands, state.givens | {state.g.cell_of(corner)})
        assert row.find(given) is None
        # givens not known (pencil marks): the rows do not apply
        assert row.find(State.from_candidates(state.g, state.values, state.cands)) is None
        assert row.find(State.from_candidates(diagonal(), state.values, state.cands, state.givens)) is None
        assert row not in applicable(state, uniqueness=False)
        assert (row.score, row.level, row.uniqueness) == (100, "Hard", True)
        assert name in technique_set("hodoku").names and name not in technique_set("se").names


def test_the_state_knows_its_givens():
    puzzle = lines("sudoku_exchange_tiers.txt")[1846]
    state = State.from_grid(parse_grid(puzzle))
    assert state.givens == frozenset(s for s, ch in enumerate(puzzle) if ch != ".")
    step = next_step(state, applicable(state))
    state.apply(step)
    copy = state.copy()
    assert copy.givens == state.givens and len(copy.givens) == sum(ch != "." for ch in puzzle)
    assert State.from_marks(parse_pencilmark(marks_of(puzzle))).givens is None


def test_explain_uses_avoidable_rectangle_type1_on_a_real_puzzle():
    # sudoku_exchange_tiers line 1847, step 42 of its HoDoKu-set path
    puzzle, solution = lines("sudoku_exchange_tiers.txt")[1846], lines("sudoku_exchange_tiers.solutions.txt")[1846]
    path = explain(puzzle, techniques=technique_set("hodoku"))
    assert path.solved
    assert path.steps[41].technique == "Avoidable Rectangle Type 1"
    for step in path.steps:
        assert_sound(step, solution)
    # from pencil marks of the same start the givens are unknown: no avoidable rectangle on the path
    marks = marks_of(puzzle)
    assert "Avoidable Rectangle Type 1" not in {s.technique for s in explain(marks, techniques="hodoku").steps}


# ---- forcing nets ------------------------------------------------------------------------------------------------
def test_forcing_net_contradiction_is_the_dynamic_chain_under_hodokus_name():
    state, step = on_case("Forcing Net Contradiction")
    assert step.eliminations == [(state.g.cell_of("C3"), 3)]
    assert step.explanation.startswith("Forcing Net Contradiction: if C3 were 3, ")
    dynamic = BY_NAME["Dynamic Forcing Chain"].find(state)
    assert (dynamic.eliminations, dynamic.rating) == (step.eliminations, step.rating)
    hodoku = technique_set("hodoku").names
    assert "Forcing Net Contradiction" in hodoku and "Dynamic Forcing Chain" not in hodoku
    assert "Forcing Net Contradiction" not in technique_set("se").names
    row = BY_NAME["Forcing Net Contradiction"]
    assert (row.score, row.level) == (700, "Extreme")


def test_forcing_net_verity_on_its_state():
    state, step = on_case("Forcing Net Verity")
    assert step.placements == [(state.g.cell_of("I8"), 8)]
    assert step.explanation == "Forcing Net Verity: whichever of {5,6,9} A2 takes, I8 ends up 8, so place 8 in I8"
    a2 = state.g.cell_of("A2")
    assert {(a2, d) for d in (5, 6, 9)} <= set(step.candidates)
    assert (BY_NAME["Forcing Net Verity"].score, BY_NAME["Forcing Net Verity"].level) == (700, "Extreme")


def test_forcing_nets_are_sound_on_hard_paths():
    """Both net rows on every 4th state of the HoDoKu-set paths of five top1465 puzzles (no solutions bundled:
    checked against the engine's)."""
    from sudokit.engine import solve

    for p in lines("top1465.txt")[:50:10]:
        grid = parse_grid(p)
        solution = solve(grid).solution.values
        state = State.from_grid(grid)
        rows = applicable(state, techniques=technique_set("hodoku"))
        for k in range(60):
            if state.is_solved():
                break
            if k % 4 == 0:
                for find in (net_contradiction, net_verity):
                    mine = find(state)
                    if mine is not None:
                        assert all(solution[c] == d for c, d in mine.placements)
                        assert all(solution[c] != d for c, d in mine.eliminations)
            state.apply(next_step(state, rows))


def test_explain_uses_the_forcing_net_on_a_real_puzzle():
    # top1465 line 2, step 25 of its HoDoKu-set path
    path = explain(lines("top1465.txt")[1], techniques=technique_set("hodoku"))
    assert path.solved and path.steps[24].technique == "Forcing Net Contradiction"
    assert "Dynamic Forcing Chain" not in {s.technique for s in path.steps}


def test_explain_uses_multi_colouring_without_the_strong_link_rows():
    # sudoku_exchange_tiers line 1505: in HoDoKu's set the rows of 2-6 strong links (Sukaku Explainer's) take
    # what two joined clusters find; without those of 3 and 4 links Multi-Colouring gives step 26, its case
    path = explain(
        lines("sudoku_exchange_tiers.txt")[1504],
        techniques=technique_set(*FIRST_IN_SET["Multi-Colouring"]),
        max_steps=26,
    )
    step = path.steps[25]
    assert step.technique == "Multi-Colouring"
    assert step.explanation.startswith("Multi-Colouring type 1 on 6: clusters {A7} / {E7} and {E3, G1, I8}")
    text, solution = CASES["Multi-Colouring"]
    assert step.eliminations == multi_colouring(state_of(text)).eliminations
    for s in path.steps:
        assert_sound(s, solution)


# ---- templates on a classic grid ---------------------------------------------------------------------------
def test_template_delete_on_its_state():
    state, step = on_case("Template Set/Delete")
    assert sorted(step.eliminations) == sorted((state.g.cell_of(x), 9) for x in ("B4", "H5", "I5"))
    assert step.explanation == (
        "Template Set/Delete: 9 goes once in every row, column and box, never in two cells that see each other; "
        "none of the 9 ways to place every 9 uses B4, H5, I5: remove 9 from B4, H5, I5"
    )
    assert {d for _, d in step.candidates} == {9}
    row = BY_NAME["Template Set/Delete"]
    assert (row.score, row.level, row.variant) == (10000, "Extreme", False)
    assert "Template Set/Delete" in technique_set("hodoku").names
    assert "Template Set/Delete" not in technique_set("se").names


def test_template_set_places_a_digit_every_template_puts_there():
    # the start of tiers line 1606: all 11 templates of 4 use C4 (set comes before delete for a digit)
    puzzle, solution = lines("sudoku_exchange_tiers.txt")[1605], lines("sudoku_exchange_tiers.solutions.txt")[1605]
    state = State.from_grid(parse_grid(puzzle))
    step = template_set_delete(state)
    assert step.placements == [(state.g.cell_of("C4"), 4)] and not step.eliminations
    assert step.explanation.endswith("all 11 ways to place every 4 use C4: place 4 in C4")
    assert_sound(step, solution)


def test_explain_uses_templates_without_forcing_chains():
    # without the grouped chains and ALS-Chain too (issue #20 item 2): they take the steps of this path first
    path = explain(
        # HoDoKu's finned Franken Swordfish (before its templates, as in HoDoKu) takes step 16 otherwise
        lines("sudoku_exchange_tiers.txt")[1605],
        techniques=technique_set(
            "hodoku", exclude="forcing chain,grouped nice loop,Grouped X-Chain,ALS-Chain,franken fish"
        ),
    )
    assert "Template Set/Delete" in {s.technique for s in path.steps}
    solution = lines("sudoku_exchange_tiers.solutions.txt")[1605]
    for step in path.steps:
        assert_sound(step, solution)


def test_explain_uses_the_forcing_net_verity_without_the_rows_before_it():
    # top1465 line 1: in HoDoKu's set the contradiction chain, the cell chain and the contradiction net (tried
    # before the verity) take its steps; without them it gives step 30 (29 while almost locked sets had at most 4
    # cells: one ALS-XY-Wing more now comes before it)
    rows = technique_set("hodoku", exclude="Contradiction Forcing Chain,Cell Forcing Chain,Forcing Net Contradiction")
    path = explain(lines("top1465.txt")[0], techniques=rows)
    assert path.solved
    step = path.steps[29]
    assert step.technique == "Forcing Net Verity"
    assert step.explanation == "Forcing Net Verity: whichever of {5,6,9} A2 takes, I8 ends up 8, so place 8 in I8"
    solution = "468931527751624839392578461134756298289413675675289314846192753513867942927345186"
    for s in path.steps:
        assert_sound(s, solution)
