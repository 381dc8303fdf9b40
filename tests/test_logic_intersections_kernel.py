"""The locked-candidates kernel (``logic/intersections_kernel.py``) against plain loops."""

from __future__ import annotations

from sudokit.logic import (
    intersections,
)
from sudokit.logic.state import State


def plain_locked(state: State, sources, name: str, single: str | None):
    """Reference: the first locked-candidates step from ``sources`` by plain loops (the search before the
    kernel), made direct when ``single`` is given."""
    g = state.g
    for u in sources:
        for d in g.digits:
            where = state.positions(u, d)
            if len(where) < 2:
                continue
            common = set(g.units_of[where[0]])
            for s in where[1:]:
                common &= set(g.units_of[s])
            common.discard(u)
            for v in sorted(common):
                if any(state.cands[s] >> (d - 1) & 1 and s not in g.unit_sets[u] for s in g.units[v]):
                    step = intersections._locked_step(state, u, d, v, name)
                    if single is not None:
                        step = intersections.direct(state, step, single)
                    if step is not None:
                        return step
    return None


def test_locked_candidates_kernel_finds_the_step_plain_loops_find(loop_states, kernels):
    found = 0
    for state in loop_states:
        g = state.g
        lines = list(g.rows + g.cols)
        others = [u for u in range(len(g.units)) if u not in lines]
        for find, sources, name, single in (
            (intersections.pointing, others, "Pointing", None),
            (intersections.claiming, lines, "Claiming", None),
            (intersections.direct_pointing, others, "Pointing", "box"),
        ):
            want = plain_locked(state, sources, name, single)
            assert find(State(g, state.values[:], state.cands[:])) == want
            found += want is not None
    assert found >= 100
