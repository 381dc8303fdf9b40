"""The Parity row (logic/parity.py): odd-digit counts over the 45 rule's regions and the parity equations mod 2,
each against the bundled killers' solutions and against brute force; and cages.fitting_sets."""

from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.constraints import KillerCage, VariantPuzzle
from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.geometry import standard
from sudokit.logic import parity
from sudokit.logic.cages import fitting_sets
from sudokit.logic.state import State
from variant_corpus import RECORDS, logic_walk, solution_of

G = standard()
#: "Wecoc #1" (data line 72) and a plain killer (line 12), with their solutions
WECOC = RECORDS[71]
KILLER = RECORDS[11]


def _start(rec) -> State:
    return State.from_variant(read_fpuzzles(rec["fpuzzles"]))


def _keeps(step, rec) -> bool:
    sol = solution_of(rec)
    return all(sol[s] != d for s, d in step.eliminations)


def test_a_box_of_pairs_leaves_its_centre_odd():
    """Wecoc #1: box 5 holds 5 odd digits, its four 2-cell cages (13, 9, 5, 17) one each: E5 is odd."""
    step = parity.parity(_start(WECOC))
    assert step is not None and step.technique == "Parity"
    assert "box 5 holds 5 odd digits" in step.explanation and "the innie E5 holds 1 odd digit" in step.explanation
    e5 = G.cell_of("E5")
    assert sorted(step.eliminations) == [(e5, d) for d in (2, 4, 6, 8)]
    assert _keeps(step, WECOC)


def test_outies_hold_the_odd_digits_the_cages_that_stick_out_leave():
    """Line 12, box 3: its cages inside hold 4 odd digits, so its innies 1; they all lie in two cages that
    stick out (15 in four cells: 1-3 odd digits, 20 in three: 2), whose outies D7, D9 then hold 2-4: both odd."""
    step = parity.parity(_start(KILLER))
    assert step is not None and "their outies D7, D9 hold 2-4 odd digits" in step.explanation
    assert {G.label(s) for s, _ in step.eliminations} == {"D7", "D9"}
    assert {d for _, d in step.eliminations} == {2, 4, 6, 8}
    assert _keeps(step, KILLER)


def _state(cages, known: dict[str, int]) -> State:
    """A state with ``cages`` (labels, total) and some cells narrowed to a mask."""
    cons = [KillerCage(tuple(G.cell_of(x) for x in cells), total) for cells, total in cages]
    state = State.from_variant(VariantPuzzle.build(G, [0] * 81, cons))
    for label, mask in known.items():
        state.cands[G.cell_of(label)] = mask
    state.changed()
    return state


ODD, EVEN = 0b101010101, 0b010101010


def test_a_cage_with_its_other_cells_known_fixes_the_last():
    """Cage A1+A2+A3 = 15 (odd): A1 odd, A2 even leave A3 even."""
    state = _state([(("A1", "A2", "A3"), 15)], {"A1": ODD, "A2": EVEN})
    step = parity._equation_step(state)
    assert step is not None and "A3 is even" in step.explanation and "cage A1+A2+A3 = 15 (odd)" in step.explanation
    assert "A1 is odd and A2 is even" in step.explanation
    assert sorted(step.eliminations) == [(G.cell_of("A3"), d) for d in (1, 3, 5, 7, 9)]


def test_units_and_cages_add_up_mod_2():
    """Row A (5 odd digits: odd) less its three cages (sums 9, 12, 16: odd, even, even) leaves A9 even; nothing
    is known of the cages' cells one by one."""
    cages = [(("A1", "A2"), 9), (("A3", "A4", "A5"), 12), (("A6", "A7", "A8"), 16)]
    state = _state(cages, {})
    step = parity._equation_step(state)
    assert step is not None and "so A9 is even" in step.explanation, step and step.explanation
    assert "row A (5)" in step.explanation


def test_nothing_is_said_where_the_equations_fix_no_cell():
    assert parity._equation_step(_state([(("A1", "A2"), 9)], {})) is None


def _fixed_by_brute_force(n_free: int, cages, rhs_row: int) -> dict[int, int]:
    """Cells 0..n_free-1 of row A (the rest known even), cages as (cells, parity): the bits every 0/1 filling
    with the row's and cages' parities gives each cell, when only one."""
    seen: list[set[int]] = [set() for _ in range(n_free)]
    for bits in range(1 << n_free):
        x = [(bits >> i) & 1 for i in range(n_free)]
        if sum(x) % 2 != rhs_row:
            continue
        if all(sum(x[i] for i in cells) % 2 == p for cells, p in cages):
            for i in range(n_free):
                seen[i].add(x[i])
    return {i: next(iter(s)) for i, s in enumerate(seen) if len(s) == 1}


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_equation_steps_agree_with_brute_force(data):
    """Random cages inside row A's first six cells (the rest of the row even): the equations fix a cell exactly
    when every filling of the parities gives it the same bit (the step names one such cell, with its bit)."""
    n = 6
    cages = []
    free = list(range(n))
    while len(free) >= 2 and data.draw(st.booleans()):
        k = data.draw(st.integers(2, min(3, len(free))))
        cells = free[:k]
        free = free[k:]
        cages.append((tuple(cells), data.draw(st.integers(0, 1))))
    known = {G.label(s): EVEN for s in range(n, 9)}
    named = [(tuple(G.label(s) for s in cells), 10 + p if len(cells) == 2 else 12 + p) for cells, p in cages]
    state = _state(named, known)
    want = _fixed_by_brute_force(n, cages, 1)
    step = parity._equation_step(state)
    if not want:
        assert step is None
        return
    assert step is not None
    (cell,) = {s for s, _ in step.eliminations}
    assert cell in want
    assert f"so {G.label(cell)} is {'odd' if want[cell] else 'even'}" in step.explanation


def test_parity_is_sound_on_the_stalled_wecoc_killers():
    """Lines 72-74 without forcing chains: every step sound, and Parity finds nothing where they stall (what
    is known of parity there the cages already say)."""
    for index in range(71, 74):
        walk = logic_walk(index)
        assert all(_keeps(step, RECORDS[index]) for step in walk.steps)
        assert not walk.state.is_solved() and parity.parity(walk.state) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 511), min_size=1, max_size=4), st.integers(1, 30))
def test_fitting_sets_are_the_digit_sets_of_the_placements(masks, total):
    want = set()
    for digits in permutations(range(1, 10), len(masks)):
        if sum(digits) == total and all(m >> (d - 1) & 1 for m, d in zip(masks, digits)):
            want.add(sum(1 << (d - 1) for d in digits))
    assert set(fitting_sets(masks, total)) == want
