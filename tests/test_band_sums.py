"""Band sums (logic/band_sums.py): little killers on neighbouring parallel diagonals added up, less the cages
and boxes inside; the arithmetic is checked against a known solution and every removal keeps it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.constraints import Diagonal, KillerCage, LittleKiller, VariantPuzzle
from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.geometry import standard
from sudokit.logic import band_sums
from sudokit.logic.state import State
from variant_corpus import RECORDS, solution_of

#: "Hailstone - little killer [easier]" (data line 49) and its solution
HAILSTONE = RECORDS[48]
SOLUTION = solution_of(HAILSTONE)
G = standard()


def _diagonal_cells(k: int, down: bool) -> tuple[int, ...]:
    return tuple(s for s in range(81) if (s // 9 - s % 9 if down else s // 9 + s % 9) == k)


def _puzzle(down_ks, up_ks, cages, diagonals: bool) -> VariantPuzzle:
    """A puzzle on the Hailstone solution with little killers on the given diagonals (true totals)."""
    cons: list = []
    for ks, down in ((down_ks, True), (up_ks, False)):
        for k in ks:
            line = _diagonal_cells(k, down)
            cons.append(LittleKiller(line, sum(SOLUTION[s] for s in line)))
    for cage in cages:
        cons.append(KillerCage(cage, sum(SOLUTION[s] for s in cage)))
    if diagonals:
        cons += [Diagonal(9, True), Diagonal(9, False)]
    return VariantPuzzle.build(G, [0] * 81, cons)


CAGES = (
    tuple(G.cell_of(x) for x in ("E3", "E4", "F4")),
    tuple(G.cell_of(x) for x in ("D4", "D5", "C5")),
    tuple(G.cell_of(x) for x in ("B1", "B2")),
)


@settings(max_examples=40, deadline=None)
@given(
    st.sets(st.integers(-6, 6), max_size=5),
    st.sets(st.integers(2, 14), max_size=5),
    st.sets(st.integers(0, 2)),
    st.booleans(),
)
def test_every_band_adds_up_on_the_solution(down_ks, up_ks, cage_ids, diagonals):
    """Each band (or crossing pair), less what was taken off, leaves cells counted once or more whose
    solution digits, counted so, add up to the total left."""
    puzzle = _puzzle(sorted(down_ks), sorted(up_ks), [CAGES[i] for i in sorted(cage_ids)], diagonals)
    state = State.from_variant(puzzle)
    for bands, count, total in band_sums._regions(state):
        assert total == sum(SOLUTION[s] * k for s, k in count.items())
        taken, left = band_sums._peel(state, count, total)
        assert all(k >= 0 for k in count.values())
        assert left == sum(SOLUTION[s] * k for s, k in count.items()), (taken, [b.how for b in bands])


def test_a_band_needs_two_neighbouring_diagonals_with_a_little_killer():
    state = State.from_variant(_puzzle([0, 2], [], [], diagonals=False))
    assert band_sums._bands(state, True) == []
    state = State.from_variant(_puzzle([1], [], [], diagonals=True))
    assert [b.total for b in band_sums._bands(state, True)] == [45 + sum(SOLUTION[s] for s in _diagonal_cells(1, True))]


def test_hailstone_crossing_bands_leave_e5_eight_or_nine():
    """Line 49 as loaded (only the givens placed): the two five-clue bands, less the cages sticking out of
    box 5 and the boxes on the diagonals, leave 21 cells adding up to 148 (at most 149): E5 keeps {8,9}."""
    state = State.from_variant(read_fpuzzles(HAILSTONE["fpuzzles"]))
    step = band_sums.band_sum(state)
    assert step is not None and "= 148" in step.explanation and "counted twice" in step.explanation
    e5 = G.cell_of("E5")
    assert {d for s, d in step.eliminations if s == e5} == {5, 6, 7}
    # box 2's five band cells add up to 34 or 35, so A4 + A6 + B5 (A5 = 3 given) to 7 or 8: {1,2,4} or {1,2,5}
    b5 = G.cell_of("B5")
    assert {d for s, d in step.eliminations if s == b5} == {6, 7, 8, 9}, step.explanation
    assert all(SOLUTION[s] != d for s, d in step.eliminations)
