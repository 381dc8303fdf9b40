"""Work kept across states (logic/puzzle_memo.py) and the exact fits the sum rows share: a row answers alike
on a state whose puzzle's work was kept along a walk and on a fresh copy of it (nothing kept); the memos are
per puzzle and per set of placed cells; the fits agree with a brute force."""

from __future__ import annotations

from functools import partial
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.logic import (
    band_sums,
    cage_chains,
    cages,
    killer_sums,
    region_sums,
    sum_combinations,
    sum_equations,
    templates,
    unit_cages,
)
from sudokit.logic.cages import distinct_fit, weighted_fit
from sudokit.logic.puzzle_memo import PUZZLES, placed_memo, puzzle_memo
from variant_corpus import logic_walk, start_state

#: The rows that keep work per puzzle or per placed cells.
ROWS = [
    sum_combinations.sum_combination,
    sum_equations.sum_equation,
    cages.innies_outies,
    cages.unit_combinations,
    region_sums.region_sum,
    band_sums.band_sum,
    killer_sums.virtual_cage,
    cage_chains.variant_aic,
    unit_cages.cages_around_unit,
    partial(unit_cages.cages_around_unit, k=2),
    templates.pattern_overlay,
]


def _fresh(index, state):
    """A copy of ``state`` on a puzzle object of its own: nothing kept for it yet."""
    fresh = start_state(index)
    fresh.values[:] = state.values
    fresh.cands[:] = state.cands
    fresh.changed()
    return fresh


@pytest.mark.parametrize("index", [47, 48])  # little killers, arrows and cages: every row above has work
def test_rows_answer_alike_with_kept_work_and_without(index):
    walk = logic_walk(index)
    state = start_state(index)
    for k, step in enumerate(walk.steps):
        # a sample of the walk's states (the suite's cost): the rows asked on one state, then on the next (what
        # they kept from the one before, a step ago, is what a walk reuses) and on a fresh copy of it
        if k % 20 == 3:
            for row in ROWS:
                row(state)
        elif k % 20 == 4:
            kept = [row(state) for row in ROWS]
            assert kept == [row(_fresh(index, state)) for row in ROWS], k
        state.apply(step)


def test_memos_are_per_puzzle_and_per_placed_cells():
    state = start_state(47)
    mine = puzzle_memo(state)
    assert puzzle_memo(state.copy()) is mine  # a copy shares the puzzle
    assert puzzle_memo(start_state(47)) is not mine  # the same puzzle read again is another puzzle object
    placed = placed_memo(state, "test")
    assert placed_memo(state.copy(), "test") is placed and placed_memo(state, "other") is not placed
    after = state.copy()
    cell = next(s for s in range(81) if not after.values[s])
    after.place(cell, after.digits(cell)[0])
    assert placed_memo(after, "test") is not placed and puzzle_memo(after) is mine


def test_the_puzzle_asked_for_longest_ago_is_forgotten_first():
    first = start_state(47)
    memo = puzzle_memo(first)
    memo["mark"] = 1
    others = [start_state(47) for _ in range(2 * PUZZLES)]
    for other in others[: PUZZLES - 2]:
        puzzle_memo(other)
    assert puzzle_memo(first) is memo  # asked for again while fewer than PUZZLES others came: kept
    for other in others[PUZZLES:]:
        puzzle_memo(other)
    assert puzzle_memo(first) is not memo  # PUZZLES others since: forgotten
    assert "mark" not in puzzle_memo(first)


def _choices(masks):
    return product(*[[d for d in range(1, 10) if m >> (d - 1) & 1] for m in masks])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 511), max_size=6), st.integers(0, 45))
def test_distinct_fit_is_exact(masks, total):
    sets, keep = set(), [0] * len(masks)
    for choice in _choices(masks):
        if len(set(choice)) == len(choice) and sum(choice) == total:
            sets.add(sum(1 << (d - 1) for d in choice))
            for i, d in enumerate(choice):
                keep[i] |= 1 << (d - 1)
    assert distinct_fit(tuple(masks), total) == (tuple(sorted(sets)), tuple(keep))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_weighted_fit_is_exact(data):
    k = data.draw(st.integers(0, 5))
    masks = data.draw(st.lists(st.integers(1, 511), min_size=k, max_size=k))
    weights = data.draw(st.lists(st.sampled_from([1, -1, 2, -2, 3]), min_size=k, max_size=k))
    before = tuple(tuple(j for j in range(i) if data.draw(st.booleans())) for i in range(k))
    total = data.draw(st.integers(-20, 45))
    keep = [0] * k
    for choice in _choices(masks):
        apart = all(choice[i] != choice[j] for i in range(k) for j in before[i])
        if apart and sum(w * d for w, d in zip(weights, choice)) == total:
            for i, d in enumerate(choice):
                keep[i] |= 1 << (d - 1)
    assert weighted_fit(tuple(masks), tuple(weights), total, before) == tuple(keep)
