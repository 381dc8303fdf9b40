"""Chains of alternating strong and weak links: X-chains (one digit), XY-chains (bivalue cells) and AICs
(both), plus simple colouring.

A *strong* link joins two candidates of which at least one is true (the only two places of a digit in a
unit, or the only two digits of a cell); a *weak* link joins two that cannot both be true (same cell, or
same digit in cells that see each other). A chain ``a = b - c = ... = z`` proves "a or z is true", so any
candidate that conflicts with both ends goes. Candidates are numbered ``cell * size + digit - 1`` and sets
of them are Python ints used as bitsets, which keeps the search fast enough in pure Python.
"""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

_THRESHOLDS = (4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)


def length_penalty(nodes: int) -> float:
    """Sudoku-Explainer-style chain penalty: +0.1 each time ``nodes - 2`` passes 4, 6, 8, 12, 16, ..."""
    extra = nodes - 2
    return round(0.1 * sum(1 for t in _THRESHOLDS if extra > t), 1)


class Graph:
    """Candidates of a state with their conflicts (as bitsets) and strong links."""

    def __init__(self, state: State, mode: str):
        g = state.g
        n = g.size
        self.n = n
        c = state.cands
        self.nodes = [s * n + d - 1 for s in range(g.n_cells) if c[s] for d in digits_of(c[s])]
        present = 0
        for v in self.nodes:
            present |= 1 << v
        self.present = present
        peers = g.peers
        conf = {}
        for v in self.nodes:
            s, d = divmod(v, n)
            bits = 0
            for e in digits_of(c[s]):
                if e != d + 1:
                    bits |= 1 << (s * n + e - 1)
            same = 0
            for p in peers[s]:
                if c[p] >> d & 1:
                    same |= 1 << (p * n + d)
            conf[v] = (bits, same)
        self.in_cell = {v: conf[v][0] for v in self.nodes}
        self.same_digit = {v: conf[v][1] for v in self.nodes}
        strong: dict[int, set[int]] = {v: set() for v in self.nodes}
        if mode in ("y", "aic"):
            for s in range(g.n_cells):
                if c[s].bit_count() == 2:
                    d1, d2 = digits_of(c[s])
                    a, b = s * n + d1 - 1, s * n + d2 - 1
                    strong[a].add(b)
                    strong[b].add(a)
        if mode in ("x", "aic"):
            for u in range(len(g.units)):
                for d in g.digits:
                    where = state.positions(u, d)
                    if len(where) == 2:
                        a, b = where[0] * n + d - 1, where[1] * n + d - 1
                        strong[a].add(b)
                        strong[b].add(a)
        self.strong = {v: sorted(w) for v, w in strong.items()}
        self.mode = mode

    def conflicts(self, v: int) -> int:
        return self.in_cell[v] | self.same_digit[v]

    def weak_next(self, v: int) -> list[int]:
        bits = self.same_digit[v] if self.mode in ("x", "y") else self.conflicts(v)
        out = []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def find_chain(state: State, mode: str, max_nodes: int = 20) -> tuple[list[int], int] | None:
    """The shortest chain (as candidate numbers, strong link first) whose ends remove something, with the
    bitset of what it removes."""
    graph = Graph(state, mode)
    best: tuple[list[int], int] | None = None
    limit = max_nodes
    for a in graph.nodes:
        if not graph.strong[a]:
            continue
        conf_a = graph.conflicts(a)
        if not conf_a:
            continue
        # BFS over (candidate, on?) starting from "a is off"
        parent = {(a, False): None}
        frontier = [(a, False)]
        depth = 1
        while frontier and depth < limit:
            nxt = []
            for v, on in frontier:
                steps = graph.weak_next(v) if on else graph.strong[v]
                for w in steps:
                    key = (w, not on)
                    if key in parent:
                        continue
                    parent[key] = (v, on)
                    nxt.append(key)
                    if not on and depth + 1 >= 4 and w != a:
                        elim = conf_a & graph.conflicts(w) & ~(1 << a) & ~(1 << w)
                        if elim:
                            chain = []
                            k = key
                            while k is not None:
                                chain.append(k[0])
                                k = parent[k]
                            chain.reverse()
                            if best is None or len(chain) < len(best[0]):
                                best = (chain, elim)
                                limit = len(chain)
                            break
                else:
                    continue
                break
            frontier = nxt
            depth += 1
            if best is not None and depth >= limit:
                break
    return best


def _describe(state: State, chain: list[int]) -> str:
    n = state.g.size
    parts = []
    for i, v in enumerate(chain):
        s, d = divmod(v, n)
        if i:
            parts.append(" = " if i % 2 else " - ")
        parts.append(f"{state.label(s)}({d + 1})")
    return "".join(parts)


_NAMES = {"x": "X-Chain", "y": "XY-Chain", "aic": "AIC"}
_BASE = {"x": 6.6, "y": 6.6, "aic": 7.0}


def _chain_step(state: State, mode: str, max_nodes: int) -> Step | None:
    found = find_chain(state, mode, max_nodes)
    if found is None:
        return None
    chain, elim_bits = found
    n = state.g.size
    elim = sorted(divmod(v, n) for v in _bits(elim_bits))
    elim = [(s, d + 1) for s, d in elim]
    cands = [(v // n, v % n + 1) for v in chain]
    links = [(cands[i], cands[i + 1], i % 2 == 0) for i in range(len(cands) - 1)]
    name = _NAMES[mode]
    a, z = cands[0], cands[-1]
    return Step(
        name,
        eliminations=elim,
        cells=sorted({s for s, _ in cands}),
        candidates=cands,
        links=links,
        rating=round(_BASE[mode] + length_penalty(len(chain)), 1),
        explanation=(
            f"{name} {_describe(state, chain)}: {state.label(a[0])} is {a[1]} or {state.label(z[0])} is {z[1]}, "
            f"so {text.removals(state, elim)}"
        ),
    )


def x_chain(state: State) -> Step | None:
    """Single-digit chain of strong links in units joined by weak links."""
    return _chain_step(state, "x", 16)


def xy_chain(state: State) -> Step | None:
    """Chain through bivalue cells, each linked to the next by a shared digit."""
    return _chain_step(state, "y", 16)


def aic(state: State) -> Step | None:
    """Alternating inference chain mixing cell and unit links."""
    return _chain_step(state, "aic", 20)


def simple_colouring(state: State) -> Step | None:
    """Colour each digit's conjugate pairs in two colours: a cell seeing both colours loses the digit
    (trap); two cells of one colour that see each other make that colour false (wrap)."""
    g, peers = state.g, state.lay.peer_sets
    for d in g.digits:
        bit = 1 << (d - 1)
        adj: dict[int, list[int]] = {}
        for u in range(len(g.units)):
            where = state.positions(u, d)
            if len(where) == 2:
                a, b = where
                adj.setdefault(a, []).append(b)
                adj.setdefault(b, []).append(a)
        seen: dict[int, int] = {}
        for start in sorted(adj):
            if start in seen:
                continue
            colour = {start: 0}
            stack = [start]
            while stack:
                s = stack.pop()
                for t in adj[s]:
                    if t not in colour:
                        colour[t] = 1 - colour[s]
                        stack.append(t)
            seen.update(colour)
            if len(colour) < 4:
                continue
            groups = ([s for s, k in colour.items() if k == 0], [s for s, k in colour.items() if k == 1])
            for k in (0, 1):
                grp = groups[k]
                if any(t in peers[s] for i, s in enumerate(grp) for t in grp[i + 1 :]):
                    elim = [(s, d) for s in sorted(grp)]
                    return _colour_step(
                        state, d, groups, elim, "two cells of one colour see each other, so that colour is false"
                    )
            elim = []
            for s in range(g.n_cells):
                if (
                    state.cands[s] & bit
                    and s not in colour
                    and any(t in peers[s] for t in groups[0])
                    and any(t in peers[s] for t in groups[1])
                ):
                    elim.append((s, d))
            if elim:
                return _colour_step(state, d, groups, elim, "these cells see both colours")
    return None


def _colour_step(state: State, d: int, groups, elim, why: str) -> Step:
    a, b = (sorted(x) for x in groups)
    return Step(
        "Simple Colouring",
        eliminations=elim,
        cells=a + b,
        candidates=[(s, d) for s in a + b],
        explanation=(
            f"Simple colouring on {d}: one of {{{text.cells(state, a)}}} and {{{text.cells(state, b)}}} holds "
            f"every {d}; {why}: {text.removals(state, elim)}"
        ),
    )
