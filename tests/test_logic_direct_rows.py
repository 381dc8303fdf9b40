"""The "direct" rows skip their search when the state has no plain locked candidates or hidden subset of that
size (``intersections.locked_hit``, ``subsets.hidden_hit``, kept per state): they must find exactly what their
full search finds, whether the plain row ran on the state before them or not."""

from __future__ import annotations

import pytest

from sudokit import jit
from sudokit.logic import intersections, subsets
from sudokit.logic.state import State


def _full_direct_claiming(state: State):
    """Direct claiming without the shortcut: the columns, then the rows."""
    for kind in ("column", "row"):
        step = intersections._first(state, kind, "Claiming", kind)
        if step is not None:
            return step
    return None


SEARCHES = (
    (
        intersections.direct_pointing,
        lambda s: intersections._first(s, False, "Pointing", "box"),
        intersections.pointing,
    ),
    (intersections.direct_claiming, _full_direct_claiming, intersections.claiming),
    (
        lambda s: subsets.direct_hidden_subset(s, 2),
        lambda s: subsets._first_hidden(s, 2, intersections.DIRECT_SUBSET),
        lambda s: subsets.hidden_subset(s, 2),
    ),
    (
        lambda s: subsets.direct_hidden_subset(s, 3),
        lambda s: subsets._first_hidden(s, 3, intersections.DIRECT_SUBSET),
        lambda s: subsets.hidden_subset(s, 3),
    ),
)


@pytest.mark.parametrize("mode", ["kernel", "plain"])
def test_direct_rows_find_what_their_full_search_finds(loop_states, mode):
    found = skipped = 0
    with jit.forms(mode):
        for state in loop_states:
            g = state.g
            for direct, full, plain in SEARCHES:
                want = full(State(g, state.values[:], state.cands[:]))
                assert direct(State(g, state.values[:], state.cands[:])) == want
                after = State(g, state.values[:], state.cands[:])
                plain_step = plain(after)  # the plain row first: the direct row reads its kept answer
                assert direct(after) == want
                found += want is not None
                skipped += plain_step is None
    assert found >= 20
    assert skipped >= 20
