"""The kernel of the bent-set wings (``logic/wings_kernel.py``: WXYZ-Wing, VWXYZ-Wing) against a plain
depth-first search over each pivot's peers."""

from __future__ import annotations

import pytest

from logic_states import fresh
from sudokit.logic import wings
from sudokit.logic.state import State
from sudokit.logic.step import Step


def plain_bent(state: State, k: int) -> Step | None:
    """Reference: pivots in cell order, wings among the pivot's peers in cell order, depth first; a set is
    kept while it holds at most k digits and at most one digit sits in two cells that do not see each other."""
    c, peers = state.cands, state.g.peer_sets

    def grow(chosen: list[int], union: int, near: list[int], start: int) -> Step | None:
        if len(chosen) == k:
            loose = {
                d
                for i, a in enumerate(chosen)
                for b in chosen[i + 1 :]
                if b not in peers[a]
                for d in range(1, state.g.size + 1)
                if (c[a] & c[b]) >> (d - 1) & 1
            }
            if union.bit_count() != k or len(loose) != 1:
                return None
            return wings.bent_step(state, k, chosen, union, loose.pop())
        for i in range(start, len(near)):
            wider = union | c[near[i]]
            if wider.bit_count() > k:
                continue
            found = grow([*chosen, near[i]], wider, near, i + 1)
            if found is not None:
                return found
        return None

    for pivot in range(state.g.n_cells):
        if 2 <= c[pivot].bit_count() <= k:
            step = grow([pivot], c[pivot], sorted(s for s in peers[pivot] if 2 <= c[s].bit_count() <= k), 0)
            if step is not None:
                return step
    return None


@pytest.mark.parametrize("k", [4, 5])
def test_bent_kernel_finds_the_step_plain_search_finds(loop_states, k):
    found = 0
    for state in loop_states:
        want = plain_bent(state, k)
        assert wings.bent_wing(fresh(state), k) == want
        found += want is not None
    assert found >= 20, found
