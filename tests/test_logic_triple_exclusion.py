"""Aligned Triple Exclusion searched again only near the cells changed since its last miss
(``logic/triple_exclusion.py``) finds what a search of every triple finds."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from logic_states import fresh
from sudokit.logic import triple_exclusion
from sudokit.logic.state import State


def full_search(state: State):
    """The step of a search of every triple (nothing remembered)."""
    triple_exclusion._last.misses = {}
    return triple_exclusion.aligned_triple_exclusion(fresh(state))


def after_miss(before: State, state: State):
    """The step on ``state`` of a search that found nothing on ``before`` just now (None if it found one)."""
    triple_exclusion._last.misses = {}
    if triple_exclusion.aligned_triple_exclusion(fresh(before)) is not None:
        return None
    return triple_exclusion.aligned_triple_exclusion(fresh(state))


def test_a_search_after_a_miss_finds_what_a_full_search_finds(loop_states):
    compared = found = 0
    for before, state in zip(loop_states, loop_states[1:]):
        if before.g != state.g or triple_exclusion.aligned_triple_exclusion(fresh(before)) is not None:
            continue
        want = full_search(state)
        assert after_miss(before, state) == want
        compared += 1
        found += want is not None
    assert compared >= 100 and found >= 1, (compared, found)


def test_the_same_candidates_again_are_a_miss_without_a_search(hard_states):
    miss = next(s for s in hard_states if full_search(s) is None)
    assert triple_exclusion._dirty(miss.g, np.array(miss.cands, dtype=np.int64)) is None


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_removing_any_candidates_after_a_miss_changes_nothing_found(hard_states, data):
    """Any state after a miss (candidates removed anywhere, not only by a step) gets a full search's answer."""
    misses = [s for s in hard_states if full_search(s) is None]
    before = data.draw(st.sampled_from(misses))
    state = fresh(before)
    open_cells = [s for s in state.empty_cells() if state.cands[s].bit_count() >= 2]
    for s in data.draw(st.lists(st.sampled_from(open_cells), min_size=1, max_size=4, unique=True)):
        digits = state.digits(s)
        d = data.draw(st.sampled_from(digits))
        state.cands[s] &= ~(1 << (d - 1))
    assert after_miss(before, state) == full_search(state)
