"""The naked and hidden subset kernels (``logic/subsets_kernel.py``) against plain combinations."""

from __future__ import annotations

from itertools import combinations

import pytest

from logic_states import fresh
from sudokit.logic import (
    intersections,
    subsets,
)
from sudokit.logic.state import State


def plain_naked(state: State, k: int):
    """Reference: the first naked subset by plain combinations of each unit's cells."""
    g, c = state.g, state.cands
    for unit in g.units:
        pool = [s for s in unit if c[s] and c[s].bit_count() <= k]
        for combo in combinations(pool, k):
            union = 0
            for s in combo:
                union |= c[s]
            if union.bit_count() != k:
                continue
            shared = [v for v in range(len(g.units)) if all(s in g.units[v] for s in combo)]
            if any(t not in combo and c[t] & union for v in shared for t in g.units[v]):
                return subsets.naked_step(state, list(combo))
    return None


def plain_hidden(state: State, k: int, single: str | None):
    """Reference: the first hidden subset by plain combinations of each unit's digits (made direct when
    ``single`` is given)."""
    g, c = state.g, state.cands
    for u in range(len(g.units)):
        places = {d: state.positions(u, d) for d in g.digits if 2 <= len(state.positions(u, d)) <= k}
        for ds in combinations(sorted(places), k):
            cells = {s for d in ds for s in places[d]}
            inside = sum(1 << (d - 1) for d in ds)
            if len(cells) != k or not any(c[s] & ~inside for s in cells):
                continue
            step = subsets.hidden_step(state, u, ds)
            if single is not None:  # "same": the single in the subset's own unit (Sudoku Explainer's direct sets)
                step = intersections.direct(state, step, single, only=(u,) if single == "same" else None)
            if step is not None:
                return step
    return None


@pytest.mark.parametrize("k", [2, 3, 4])
def test_subset_kernels_find_the_step_plain_combinations_find(loop_states, k, kernels):
    found = 0
    for state in loop_states:
        new = fresh(state)
        want = (plain_naked(state, k), plain_hidden(state, k, None), plain_hidden(state, k, "same"))
        got = (subsets.naked_subset(new, k), subsets.hidden_subset(new, k), subsets.direct_hidden_subset(new, k))
        assert got == want
        found += sum(w is not None for w in want)
    assert found >= 20
