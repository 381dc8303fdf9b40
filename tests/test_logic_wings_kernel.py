"""The kernels of the wings (``logic/wings_kernel.py``: XY-Wing, XYZ-Wing, W-Wing, and the bent sets WXYZ-Wing,
VWXYZ-Wing) against plain Python searches (for the bent sets a depth-first search over each pivot's peers)."""

from __future__ import annotations

import pytest

from logic_states import fresh
from sudokit.logic import wings
from sudokit.logic.state import State, digits_of
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


# ---- XY-Wing, XYZ-Wing, W-Wing: the plain searches the kernels replaced -------------------------------------
def plain_xy_wing(state: State) -> Step | None:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: whichever the pivot is, one pincer is z."""
    c, peers = state.cands, state.g.peer_sets
    bivalue = [s for s in range(state.g.n_cells) if c[s].bit_count() == 2]
    for pivot in bivalue:
        near = [s for s in bivalue if s in peers[pivot] and (c[s] & c[pivot]).bit_count() == 1]
        for i, a in enumerate(near):
            for b in near[i + 1 :]:
                za = c[a] & ~c[pivot]
                if za != c[b] & ~c[pivot] or (c[a] & c[pivot]) == (c[b] & c[pivot]):
                    continue
                z = za.bit_length()
                elim = wings._seen_by_all(state, [a, b], z)
                if elim:
                    return wings.xy_step(state, pivot, a, b)
    return None


def plain_xyz_wing(state: State) -> Step | None:
    """Pivot {x,y,z} seeing pincers {x,z} and {y,z}: z is in one of the three, so cells seeing all lose z."""
    c, peers = state.cands, state.g.peer_sets
    n = state.g.n_cells
    for pivot in range(n):
        if c[pivot].bit_count() != 3:
            continue
        near = [s for s in peers[pivot] if c[s].bit_count() == 2 and c[s] & ~c[pivot] == 0]
        for i, a in enumerate(near):
            for b in near[i + 1 :]:
                if c[a] == c[b] or (c[a] | c[b]) != c[pivot]:
                    continue
                z = (c[a] & c[b]).bit_length()
                elim = wings._seen_by_all(state, [pivot, a, b], z)
                if elim:
                    return wings.xyz_step(state, pivot, a, b)
    return None


def plain_w_wing(state: State) -> Step | None:
    """Two cells {x,y} that do not see each other, joined by a strong link on x (a unit where x has
    exactly two places, one seeing each cell): one of the two cells is y."""
    g, c, peers = state.g, state.cands, state.g.peer_sets
    bivalue = [s for s in range(g.n_cells) if c[s].bit_count() == 2]
    for i, a in enumerate(bivalue):
        for b in bivalue[i + 1 :]:
            if c[a] != c[b] or b in peers[a]:
                continue
            for x in digits_of(c[a]):
                y = next(d for d in digits_of(c[a]) if d != x)
                elim = wings._seen_by_all(state, [a, b], y)
                if not elim:
                    continue
                for u in range(len(g.units)):
                    where = state.positions(u, x)
                    if len(where) != 2 or a in where or b in where:
                        continue
                    p, q = where
                    if not (p in peers[a] and q in peers[b]):
                        p, q = q, p
                    if p in peers[a] and q in peers[b]:
                        return Step(
                            "W-Wing",
                            eliminations=elim,
                            cells=[a, b, p, q],
                            units=[u],
                            candidates=[(a, x), (a, y), (b, x), (b, y), (p, x), (q, x)],
                            links=[((a, x), (p, x), False), ((p, x), (q, x), True), ((q, x), (b, x), False)],
                            explanation=(
                                f"W-Wing: {state.label(a)} and {state.label(b)} are both "
                                f"{{{state.sym(min(x, y))},{state.sym(max(x, y))}}} "
                                f"and {state.sym(x)} in {state.unit_name(u)} is at {state.label(p)} or "
                                f"{state.label(q)}: one of "
                                f"them is {state.sym(y)}, so {wings.text.removals(state, elim)}"
                            ),
                        )
    return None


@pytest.mark.parametrize(
    ("plain", "kernel"),
    [(plain_xy_wing, wings.xy_wing), (plain_xyz_wing, wings.xyz_wing), (plain_w_wing, wings.w_wing)],
)
def test_wing_kernels_find_the_step_plain_search_finds(loop_states, plain, kernel):
    found = 0
    for state in loop_states:
        want = plain(state)
        assert kernel(fresh(state)) == want
        found += want is not None
    assert found >= 20, found
