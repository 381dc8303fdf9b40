"""The kernels of the wings (``logic/wings_kernel.py``: XY-Wing, XYZ-Wing, W-Wing, and Sukaku Explainer's
WXYZ-Wing and VWXYZ-Wing) against plain Python searches."""

from __future__ import annotations

import pytest

from logic_states import fresh
from sudokit.logic import wings
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step


def plain_als_wings(state: State, k: int) -> list[tuple[int, ...]]:
    """Reference: Sukaku Explainer's search by plain loops: sets of k - 1 cells that all see each other (in
    increasing order, each with 2+ candidates) holding k digits, then each bivalue cell outside them that sees
    one of them and holds two of their digits, with one of those digits (or both) restricted."""
    c, peers = state.cands, state.g.peer_sets
    rows: list[tuple[int, ...]] = []

    def grow(chosen: list[int], union: int) -> None:
        if len(chosen) == k - 1:
            if union.bit_count() != k:
                return
            for yz in range(state.g.n_cells):
                if c[yz].bit_count() != 2 or c[yz] & ~union or yz in chosen:
                    continue
                if not any(s in peers[yz] for s in chosen):
                    continue
                x, z = (d - 1 for d in digits_of(c[yz]))
                rx = all(s in peers[yz] or not c[s] >> x & 1 for s in chosen)
                rz = all(s in peers[yz] or not c[s] >> z & 1 for s in chosen)
                if rx or rz:
                    rows.append((*chosen, yz, x if rx else z, z if rx else x, int(rx and rz)))
            return
        for t in sorted(peers[chosen[0]]):
            wider = union | c[t]
            fits = t > chosen[-1] and c[t].bit_count() >= 2 and wider.bit_count() <= k
            if fits and all(t in peers[s] for s in chosen[1:]):
                grow([*chosen, t], wider)

    for a in range(state.g.n_cells):
        if 2 <= c[a].bit_count() <= k:
            grow([a], c[a])
    return rows


@pytest.mark.parametrize("k", [4, 5])
def test_als_wing_kernel_lists_the_wings_plain_loops_list(loop_states, k):
    import numpy as np

    from sudokit.logic import wings_kernel
    from sudokit.logic.state_arrays import arrays

    found = 0
    for state in loop_states:
        want = plain_als_wings(state, k)
        out = np.empty((4096, k + 3), dtype=np.int64)
        n = wings_kernel.als_wing_hits(arrays(state)[1], state.g.peer_array, wings_kernel.sees(state.g), k, out)
        assert [tuple(int(v) for v in row) for row in out[:n]] == want
        found += wings.als_wing(fresh(state), k) is not None
    assert found >= 10, found


@pytest.mark.parametrize("k", [4, 5])
def test_als_wing_removes_flags_the_wings_whose_removals_are_not_empty(loop_states, k):
    """``als_wing_removes`` against ``wings._als_wing_removals``, row by row (both kinds must occur)."""
    import numpy as np

    from sudokit.logic import wings_kernel
    from sudokit.logic.state_arrays import arrays

    seen_flags = set()
    for state in loop_states:
        cands, seen = arrays(state)[1], wings_kernel.sees(state.g)
        out = np.empty((4096, k + 3), dtype=np.int64)
        n = wings_kernel.als_wing_hits(cands, state.g.peer_array, seen, k, out)
        flags = wings_kernel.als_wing_removes(cands, seen, k, out, n)
        where = [0] * (state.g.size + 1)
        for s, c in enumerate(state.cands):
            for d in digits_of(c):
                where[d] |= 1 << s
        for row, flag in zip(out[:n], flags):
            als = [int(c) for c in row[: k - 1]]
            yz, x, z, double = int(row[k - 1]), int(row[k]) + 1, int(row[k + 1]) + 1, bool(row[k + 2])
            elim, _ = wings._als_wing_removals(state, als, yz, x, z, double, where)
            assert bool(flag) == bool(elim), (als, yz, x, z, double)
            seen_flags.add(bool(flag))
    assert seen_flags == {False, True}


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
