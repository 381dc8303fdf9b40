"""The unique rectangle kernels (``logic/uniqueness_kernel.py``) against trying every rectangle."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from logic_states import fresh
from sudokit.geometry import from_name
from sudokit.logic import (
    uniqueness,
)
from sudokit.logic.state import State, digits_of


def plain_rectangles(state: State) -> list[tuple[tuple[int, int, int, int], tuple[int, int]]]:
    """Reference: every (cells, pair) of four empty cells in two rows, two columns and two boxes sharing two
    digits, by trying every pair of rows and of columns."""
    g, c, box_of = state.g, state.cands, state.g.box_of
    n = g.size
    out = []
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            common = c[cells[0]] & c[cells[1]] & c[cells[2]] & c[cells[3]]
            if len({box_of[s] for s in cells}) != 2:
                continue
            out += [(cells, pair) for pair in combinations(digits_of(common), 2)]
    return out


def plain_ur3(state: State):
    """Reference: the type 3 search over every rectangle and shared unit (the loop before the kernel)."""
    c, peers, g = state.cands, state.g.peer_sets, state.g
    best = None
    for cells, (x, y) in plain_rectangles(state):
        xy = (1 << (x - 1)) | (1 << (y - 1))
        extra = [s for s in cells if c[s] != xy]
        if len(extra) != 2 or extra[1] not in peers[extra[0]]:
            continue
        pseudo = (c[extra[0]] | c[extra[1]]) & ~xy
        if pseudo.bit_count() > 4:
            continue
        for u in g.units_of[extra[0]]:
            if extra[1] not in g.units[u]:
                continue
            others = [s for s in g.units[u] if c[s] and s not in extra]
            for k in range(max(2, pseudo.bit_count()), 5 if best is None else best[0]):
                if uniqueness._naked_with(c, pseudo, others, k) is not None:
                    best = (k, cells, (x, y), u)
                    break
            if best is not None and best[0] == 2:
                return uniqueness.ur3_step(state, best[1], best[2], best[3], best[0])
    return None if best is None else uniqueness.ur3_step(state, best[1], best[2], best[3], best[0])


def listed_rectangles(state: State) -> list[tuple[tuple[int, int, int, int], tuple[int, int]]]:
    return [((a, b, c, d), (x, y)) for a, b, c, d, x, y in uniqueness._rectangles(state).tolist()]


@settings(max_examples=40, deadline=None)
@given(masks=st.lists(st.integers(0, 511), min_size=81, max_size=81))
def test_rectangle_kernel_lists_what_trying_every_rectangle_lists(masks):
    state = State.from_candidates(from_name("standard"), [0] * 81, masks)
    assert listed_rectangles(state) == plain_rectangles(state)


def test_rectangle_kernels_find_the_step_plain_loops_find(loop_states):
    found = 0
    for state in loop_states:
        if not state.g.is_standard:
            continue
        rects = plain_rectangles(state)
        assert listed_rectangles(state) == rects
        new = fresh(state)
        first = next((s for s in (uniqueness.ur_step(state, cells, pair) for cells, pair in rects) if s), None)
        assert (uniqueness.unique_rectangle(new), uniqueness.unique_rectangle_type3(new)) == (
            first,
            plain_ur3(state),
        )
        found += first is not None
    assert found >= 10
