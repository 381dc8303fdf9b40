"""The ALS-XZ kernels (``logic/als_kernel.py``) against plain Python: the sets listed and the pair found."""

from __future__ import annotations

from itertools import combinations

from logic_states import words_of
from sudokit.logic import (
    als,
)
from sudokit.logic.state import State, digits_of


def plain_almost_locked_sets(state: State) -> list[tuple[frozenset[int], int, int]]:
    """Reference: ``(cells, candidates mask, unit)`` of every ALS up to ``als.max_size`` cells, unit by unit,
    smaller sets first, by plain combinations; a set already listed under an earlier unit is left out."""
    g, c = state.g, state.cands
    seen: set[frozenset[int]] = set()
    out = []
    for u, unit in enumerate(g.units):
        empty = [s for s in unit if c[s]]
        for k in range(1, min(als.max_size(g), len(empty) - 1) + 1):
            for combo in combinations(empty, k):
                mask = 0
                for s in combo:
                    mask |= c[s]
                cells = frozenset(combo)
                if mask.bit_count() == k + 1 and cells not in seen:
                    seen.add(cells)
                    out.append((cells, mask, u))
    return out


def plain_als_xz(state: State):
    """Reference: (cells of A, cells of B, x, z) of the first ALS-XZ by the plain pair loop."""
    sets = plain_almost_locked_sets(state)
    c, peers = state.cands, state.g.peer_sets
    where = {d: {s for s in range(state.g.n_cells) if c[s] >> (d - 1) & 1} for d in state.g.digits}

    def seeing(cells, d):
        holders = [s for s in cells if s in where[d]]
        return {t for t in where[d] if t not in cells and all(t in peers[h] for h in holders)}

    for i, (a, ma, _ua) in enumerate(sets):
        for b, mb, _ub in sets[i + 1 :]:
            common = digits_of(ma & mb)
            if len(common) < 2 or a & b:
                continue
            for x in common:
                if not all(q in peers[p] for p in a & where[x] for q in b & where[x]):
                    continue
                for z in common:
                    if z != x and seeing(a, z) & seeing(b, z):
                        return a, b, x, z
    return None


def test_als_kernel_finds_the_pair_the_plain_loop_finds(hard_states, variant_states):
    for state in hard_states + variant_states:
        step = als.als_xz(state)
        ref = plain_als_xz(state)
        assert (step is None) == (ref is None)
        if step is not None:
            a, b, x, z = ref
            assert step.cells == sorted(a | b)
            assert f"share {x}," in step.explanation and {d for _s, d in step.eliminations} == {z}


def test_als_kernel_lists_the_sets_plain_combinations_list(loop_states):
    from sudokit.logic import als_kernel, state_arrays

    listed = 0
    for state in loop_states[::3]:
        _values, cands = state_arrays.arrays(state)
        units, units_of, _peers, _full = state_arrays.tables(state.g)
        n_words = (state.g.n_cells + 63) // 64
        cells, masks, set_units, members = als_kernel.als_sets(cands, units, units_of, als.max_size(state.g), n_words)
        got = [
            (frozenset(int(s) for s in row if s >= 0), int(m), int(u)) for row, m, u in zip(members, masks, set_units)
        ]
        assert got == plain_almost_locked_sets(state)
        assert (cells == words_of([sum(1 << s for s in a) for a, _m, _u in got], state.g.n_cells)).all()
        listed += len(got)
    assert listed >= 1000


def test_als_xy_wing_holds_every_link_of_a_pivot():
    """A pivot set can share several restricted common digits with one set: its links outnumber the sets.
    On this 4x4 state they did (the link list had one place per set: an IndexError in the Python body, a
    write past the array in the compiled one); both forms now give the same answer."""
    from sudokit.formats import parse_grid
    from sudokit.logic import als_kernel

    state = State.from_grid(parse_grid("23411432.12...1."))
    cells, masks, _units, _members, digits, peers = als._sets(state)
    args = (cells, masks, digits, peers, state.g.size)
    plain = tuple(int(v) for v in als_kernel.als_xy_wing_search.py_func(*args))
    assert plain == tuple(int(v) for v in als_kernel.als_xy_wing_search(*args))
