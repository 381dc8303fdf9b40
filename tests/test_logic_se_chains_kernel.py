"""Sudoku Explainer's chain kernels (``logic/se_chains_kernel.py``, ``logic/implication_kernel.py``) against
plain Python: the implication links of a state, and a static propagation's reach."""

from __future__ import annotations

import numpy as np

from sudokit.logic import implication_kernel, se_chains_kernel, state_arrays
from sudokit.logic.state import State


def plain_links(state: State) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Reference: each candidate's weak (on -> off) and strong (off -> on) implications, from the definitions."""
    n = state.g.size
    weak: dict[int, set[int]] = {}
    strong: dict[int, set[int]] = {}
    for s in state.empty_cells():
        for d in state.digits(s):
            a = s * n + d - 1
            weak[a] = {s * n + e - 1 for e in state.digits(s) if e != d}
            weak[a] |= {p * n + d - 1 for p in state.g.peers[s] if state.cands[p] >> (d - 1) & 1}
            strong[a] = set()
            if state.cands[s].bit_count() == 2:
                strong[a] |= {s * n + e - 1 for e in state.digits(s) if e != d}
            for u in state.g.units_of[s]:
                places = [t for t in state.g.units[u] if state.cands[t] >> (d - 1) & 1]
                if len(places) == 2:
                    strong[a] |= {t * n + d - 1 for t in places if t != s}
    return weak, strong


def plain_static_reach(start: int, weak: dict[int, set[int]], strong: dict[int, set[int]]) -> set[int]:
    """Reference: the nodes (2 * candidate + on) a candidate on reaches through the static links."""
    seen = {2 * start + 1}
    todo = [2 * start + 1]
    while todo:
        node = todo.pop()
        a, on = divmod(node, 2)
        for b in (weak if on else strong).get(a, ()):
            nb = 2 * b + (0 if on else 1)
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen


def test_links_and_static_reach_match_plain_python(hard_states):
    for state in hard_states[:6]:
        weak_ref, strong_ref = plain_links(state)
        units, units_of, peers, _ = state_arrays.tables(state.g)
        _, cands = state_arrays.arrays(state)
        n = state.g.size
        weak, n_weak, strong, n_strong = se_chains_kernel.graph(cands, units, units_of, peers, n)
        for a in weak_ref:
            assert set(weak[a, : n_weak[a]].tolist()) == weak_ref[a]
            assert set(strong[a, : n_strong[a]].tolist()) == strong_ref[a]
        reached, causes, n_causes, q_on, q_off, c, live = implication_kernel.scratch(cands.shape[0], n, len(units))
        base = np.empty_like(live)
        bits = np.zeros((len(reached) + 63) // 64, dtype=np.uint64)
        implication_kernel.places(cands, units, n, base)
        for a in list(weak_ref)[::7]:
            contradiction = implication_kernel.follow(
                np.array([2 * a + 1], dtype=np.int64), cands, units, units_of, peers, n, False, False,
                reached, bits, causes, n_causes, q_on, q_off, c, base, live,
            )  # fmt: skip
            ref = plain_static_reach(a, weak_ref, strong_ref)
            got = set(np.nonzero(reached)[0].tolist())
            if contradiction < 0:
                assert got == ref
            else:  # stopped early: what it reached is part of the reference, and the candidate is both ways there
                assert got <= ref and {2 * contradiction, 2 * contradiction + 1} <= ref
