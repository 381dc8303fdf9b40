"""Sudoku Explainer's static chains: bidirectional cycles and forcing chains, found together and the easiest
taken, the way SE rates the 6.5-7.x band.

Every candidate is followed, on and off, through the implications of the grid as it stands (static: nothing
is placed or removed while following; see :mod:`sudokit.logic.se_chains_kernel`):

- a *forcing chain* from a candidate on that reaches another candidate both on and off (or itself off) proves
  it false (it is removed);
- a *bidirectional cycle* leads from a candidate on back to itself on. Its links are conjugate both ways, so
  either its even or its odd candidates are all true: a candidate that sees one of each is removed.

Ratings as SE gives them: a cycle on one digit (X-cycle) or through bivalue cells only (Y-cycle) 6.5, any other
cycle 7.0; a forcing chain on one digit (X-chain) 6.6, any other 7.0 (SE follows bivalue cells alone for
cycles only: measured, rating forcing Y-chains 6.7 loses 18 exact ERs of the 161 of every 10th puzzle that
``sudoku_exchange_rated`` rates 6.0-7.9); each plus the length penalty of its number of candidates
(:func:`sudokit.logic.chains.length_penalty`; a forcing chain counts the start at both ends). Among all
chains found the lowest rating is taken, then the fewest candidates, then the first candidate in grid order:
SE sorts its chaining hints the same way and applies the first.
"""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic.chains import length_penalty
from sudokit.logic.state import State
from sudokit.logic.step import Step

NAME = "Static Forcing Chain"
#: SE base ratings by (kind, mode): kinds 0 false, 1 true (not used), 2 cycle; modes 0 mixed, 1 X, 2 Y
BASE = {
    (0, 0): 7.0,
    (0, 1): 6.6,
    (0, 2): 6.7,
    (1, 0): 7.0,
    (1, 1): 6.6,
    (1, 2): 6.7,
    (2, 0): 7.0,
    (2, 1): 6.5,
    (2, 2): 6.5,
}
#: SE's names by (forcing chain or cycle, mode)
SE_NAMES = {
    (False, 0): "Forcing Chain",
    (False, 1): "Forcing X-Chain",
    (False, 2): "Forcing Y-Chain",
    (True, 0): "Bidirectional Cycle",
    (True, 1): "Bidirectional X-Cycle",
    (True, 2): "Bidirectional Y-Cycle",
}


def _graph(state: State):
    """The state's implication links (kernel arrays), once per state."""
    found = state.memo.get("se-links")
    if found is None:
        from sudokit.logic import se_chains_kernel, state_arrays

        units, units_of, peers, _ = state_arrays.tables(state.g)
        _, cands = state_arrays.arrays(state)
        found = state.memo["se-links"] = se_chains_kernel.graph(cands, units, units_of, peers, state.g.size)
    return found


def _path(state: State, a: int, on: int, target: int, mode: int) -> list[int]:
    """The nodes (``2 * candidate + on``) of the shortest chain from node ``2a + on`` to ``target`` in
    ``mode``; ``target`` -1 asks for the cycle back to the start (closing node first found)."""
    import numpy as np

    from sudokit.logic import se_chains_kernel

    weak, n_weak, strong, n_strong = _graph(state)
    total = weak.shape[0]
    parent = np.empty(2 * total, dtype=np.int64)
    dist = np.empty(2 * total, dtype=np.int64)
    queue = np.empty(2 * total, dtype=np.int64)
    close, _ = se_chains_kernel.bfs(
        a, on, weak, n_weak, strong, n_strong, state.g.size, mode, parent, dist, queue, target < 0
    )
    node = close if target < 0 else target
    out = []
    while node >= 0:
        out.append(int(node))
        node = parent[node]
    out.reverse()
    if target < 0:
        out.append(2 * a + 1)
    return out


def _candidate(state: State, node: int) -> tuple[int, int]:
    n = state.g.size
    return (node >> 1) // n, (node >> 1) % n + 1


def spell(state: State, nodes: list[int]) -> str:
    """``D1=6 -> D1<>3 -> H1=3 -> ...``"""
    parts = []
    for node in nodes:
        s, d = _candidate(state, node)
        parts.append(f"{state.label(s)}{'=' if node & 1 else '<>'}{state.sym(d)}")
    return " -> ".join(parts)


def _cycle_eliminations(state: State, nodes: list[int]) -> list[tuple[int, int]]:
    """Candidates outside the cycle that see (weakly) one of its on candidates and one of its off ones."""
    weak, n_weak, _, _ = _graph(state)
    inside = {node >> 1 for node in nodes}
    seen: tuple[dict[int, bool], dict[int, bool]] = ({}, {})
    for node in nodes[:-1]:
        a = node >> 1
        side = seen[node & 1]
        for b in weak[a, : n_weak[a]]:
            side[int(b)] = True
    n = state.g.size
    return sorted((b // n, b % n + 1) for b in seen[0] if b in seen[1] and b not in inside)


def static_forcing_chain(state: State) -> Step | None:
    """The easiest bidirectional cycle or static forcing chain of the state, SE-rated, or None."""
    import numpy as np

    from sudokit.logic import se_chains_kernel, state_arrays

    weak, n_weak, strong, n_strong = _graph(state)
    _, cands = state_arrays.arrays(state)
    found, target, *work = se_chains_kernel.search_arrays(weak.shape[0])
    se_chains_kernel.search_all(cands, weak, n_weak, strong, n_strong, state.g.size, found, target, *work)
    options = []
    for a, mode, kind in zip(*np.nonzero(found)):
        nodes = int(found[a, mode, kind])
        if kind == 1 or (mode == 2 and kind != 2):  # SE starts from a candidate on; bivalue cells alone: cycles
            continue
        options.append((round(BASE[kind, mode] + length_penalty(nodes), 1), nodes, int(a), int(kind), int(mode)))
    options.sort()
    for rating, _, a, kind, mode in options:
        if kind == 2:
            path = _path(state, a, 1, -1, mode)
            elims = _cycle_eliminations(state, path)
            if not elims:
                continue
            return _step(state, path, kind, mode, rating, elims)
        if kind == 1:
            return _step(state, _path(state, a, 0, 2 * a + 1, mode), kind, mode, rating, None)
        q = int(target[a, mode])
        on, off = _path(state, a, 1, 2 * q + 1, mode), _path(state, a, 1, 2 * q, mode)
        return _step(state, off if q == a else on, kind, mode, rating, None, None if q == a else off)
    return None


def _step(state: State, nodes: list[int], kind: int, mode: int, rating: float, elims, other=None) -> Step:
    se_name = SE_NAMES[kind == 2, mode]
    cand = [_candidate(state, node) for node in nodes + (other or [])]
    links = [(cand[i], cand[i + 1], not nodes[i] & 1) for i in range(len(nodes) - 1)]
    if other:
        links += [(cand[len(nodes) + i], cand[len(nodes) + i + 1], not other[i] & 1) for i in range(len(other) - 1)]
    start = cand[0]
    placements, eliminations = [], []
    if kind == 0:
        eliminations = [start]
        what = text.removals(state, eliminations)
        why = f"if {state.label(start[0])} were {state.sym(start[1])} it could not be, so {what}"
        if other:
            q = cand[-1]
            why = (
                f"and {spell(state, other)}: if {state.label(start[0])} were {state.sym(start[1])}, "
                f"{state.label(q[0])} would be {state.sym(q[1])} and not, so {what}"
            )
    elif kind == 1:
        placements = [start]
        what = text.placements(state, placements)
        why = f"if {state.label(start[0])} were not {state.sym(start[1])} it would have to be, so {what}"
    else:
        eliminations = elims
        why = f"either every '=' or every '<>' of the cycle holds, so {text.removals(state, eliminations)}"
    return Step(
        NAME,
        placements=placements,
        eliminations=eliminations,
        cells=sorted({s for s, _ in cand}),
        candidates=sorted(set(cand)),
        links=links,
        rating=rating,
        explanation=f"{se_name}: {spell(state, nodes)}: {why}",
    )
