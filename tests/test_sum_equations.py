"""Sum equations (logic/sum_equations.py): the rules' sums combined by integer elimination into equations over
few cells; every derived equation holds on the known solution, the null spaces against numpy, and the row on
the corpus killers it opens a step on."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.logic import registry
from sudokit.logic.explain import next_step
from sudokit.logic.state import State, digits_of
from sudokit.logic.sum_combinations import digit_sum, set_sums
from sudokit.logic.sum_equations import NAME, _null_space, derived, equations, sum_equation
from variant_corpus import RECORDS, solution_of


def _walk(line: int, steps: int) -> tuple[State, list[int]]:
    """The state of data line ``line`` after ``steps`` logic steps without forcing chains (or its stall)."""
    rec = RECORDS[line - 1]
    state = State.from_variant(read_fpuzzles(rec["fpuzzles"]))
    rows = registry.applicable(state, techniques=registry.technique_set(exclude="forcing chain,sum equation"))
    for _ in range(steps):
        step = next_step(state, rows)
        if step is None:
            break
        state.apply(step)
    return state, solution_of(rec)


def _holds(state: State, solution: list[int]) -> None:
    eqs = equations(state)
    found = derived(state)
    assert found
    for eq in found:
        assert all(not state.values[s] for s in eq.cells)
        assert sum(w * solution[s] for s, w in zip(eq.cells, eq.weights)) == eq.total
        # the terms named add up to scale x the equation, the placed cells off
        row: dict[int, int] = {}
        total = 0
        for e, m in eq.terms:
            total += m * eqs[e].total
            for s, w in zip(eqs[e].cells, eqs[e].weights):
                if state.values[s]:
                    total -= m * w * state.values[s]
                else:
                    row[s] = row.get(s, 0) + m * w
        assert {s: w for s, w in row.items() if w} == {s: eq.scale * w for s, w in zip(eq.cells, eq.weights)}
        assert total == eq.scale * eq.total


def test_derived_equations_hold_on_the_solution():
    # line 94: a diagonal killer of 5-cell cages at its stall; line 48: little killers and diagonals; line 13
    # ("Killing with flowers") from its start, placed cells taken off as its walk goes
    for line, steps in ((94, 200), (48, 10), (13, 0), (90, 120)):
        state, solution = _walk(line, steps)
        _holds(state, solution)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5), st.integers(1, 6), st.data())
def test_null_space_is_a_basis_of_the_solutions(rows, k, data):
    matrix = [data.draw(st.lists(st.integers(-3, 3), min_size=k, max_size=k)) for _ in range(rows)]
    basis = _null_space(matrix, k)
    m = np.array(matrix, dtype=float)
    for vec in basis:
        assert all(isinstance(x, int) for x in vec) and any(vec)
        assert not np.any(m @ np.array(vec, dtype=float))
    rank = np.linalg.matrix_rank(m) if any(any(r) for r in matrix) else 0
    assert len(basis) == k - rank
    if basis:
        assert np.linalg.matrix_rank(np.array(basis, dtype=float)) == len(basis)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 511), min_size=1, max_size=4))
def test_set_sums_is_every_set_of_different_digits(masks):
    want = 0
    for pick in __import__("itertools").product(*(digits_of(m) for m in masks)):
        if len(set(pick)) == len(pick):
            want |= 1 << sum(pick)
    assert set_sums(tuple(masks)) == want
    assert digit_sum(0b101) == 4


def test_the_row_takes_a_step_on_tarek_41_and_it_is_sound():
    # "tarek unsolvable #41" (line 75) stalls after 11 steps of the other rows; the combination of five
    # cages, three columns, box 1 and box 5 leaves D1 + D3 + D5 + D6 - I4 = 5
    state, solution = _walk(75, 11)
    step = sum_equation(state)
    assert step is not None and step.technique == NAME
    assert step.eliminations and all(solution[s] != d for s, d in step.eliminations)
    assert "that leaves" in step.explanation and "D1 + D3 + D5 + D6 - I4 = 5" in step.explanation
    assert 4.6 <= step.rating <= 5.6


def test_no_two_derived_equations_are_the_same():
    state, _ = _walk(94, 200)
    seen = [frozenset(zip(eq.cells, eq.weights)) for eq in derived(state)]
    assert len(seen) == len(set(seen))
    for a, b in combinations(derived(state)[:30], 2):
        assert (a.cells, a.weights) != (b.cells, tuple(-w for w in b.weights))


def test_the_step_text_adds_up():
    # line 90 after 120 steps has placed cells: the sums named, less the placed cells' part, leave the equation
    import re

    from sudokit.logic.sum_equations import _step

    state, _ = _walk(90, 120)
    assert any(state.values)
    checked = 0
    for eq in derived(state)[:200]:
        step = _step(state, eq, tuple(state.cands[s] for s in eq.cells), [], 0)
        said = re.search(
            r"add up to (-?\d+)(?:; less the placed cells' part \([^)]*= (-?\d+)\))?, that leaves", step.explanation
        )
        assert said, step.explanation
        placed = int(said.group(2) or 0)
        assert int(said.group(1)) - placed == eq.scale * eq.total, step.explanation
        checked += bool(said.group(2))
    assert checked


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 8).flatmap(lambda k: st.tuples(st.just(k), st.lists(st.lists(st.integers(-3, 3), min_size=k,
       max_size=k), max_size=7))))  # fmt: skip
def test_null_space_is_a_whole_number_basis_of_the_kernel(case):
    """Each basis vector solves the equations, is primitive and positive at its free column (1 there, the
    pivots' entries 0); there are as many as the columns less the rank."""
    from math import gcd

    from sudokit.logic.sum_equations import _null_space

    k, matrix = case
    basis = _null_space(matrix, k)
    rank = np.linalg.matrix_rank(np.array(matrix, dtype=float)) if matrix else 0
    assert len(basis) == k - rank
    for vec in basis:
        assert all(sum(a * c for a, c in zip(row, vec)) == 0 for row in matrix)
        assert gcd(*vec) == 1
    if basis:  # independent: the free columns pick out one vector each
        assert np.linalg.matrix_rank(np.array(basis, dtype=float)) == len(basis)
