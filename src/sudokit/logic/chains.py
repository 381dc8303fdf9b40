"""Chains of alternating strong and weak links: X-chains (one digit), XY-chains (bivalue cells) and AICs
(both), plus simple colouring.

A *strong* link joins two candidates of which at least one is true (the only two places of a digit in a
unit, or the only two digits of a cell); a *weak* link joins two that cannot both be true (same cell, or
same digit in cells that see each other). A chain ``a = b - c = ... = z`` proves "a or z is true", so any
candidate that conflicts with both ends goes. Candidates are numbered ``cell * size + digit - 1`` and sets
of them are Python ints used as bitsets; the breadth-first search from every start runs in a numba kernel
(``chains_kernel``) over the same bitsets split into 64-bit words.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from sudokit.geometry import Geometry
from sudokit.logic import groups, text
from sudokit.logic.misses import first_by_digit, known_misses, miss
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

#: SE's steps: 4, then alternately x1.5 and x4/3 (6, 8, 12, 16, 24, ...), far enough for nested chains
_THRESHOLDS = tuple(4 << (i // 2) if i % 2 == 0 else 6 << (i // 2) for i in range(40))


def length_penalty(nodes: int) -> float:
    """Sudoku-Explainer-style chain penalty: +0.1 each time ``nodes - 2`` passes 4, 6, 8, 12, 16, ..."""
    extra = nodes - 2
    return round(0.1 * sum(1 for t in _THRESHOLDS if extra > t), 1)


@lru_cache(maxsize=32)
def _peer_masks(g: Geometry) -> tuple[int, ...]:
    """For each cell, its peers as a bitset over candidate numbers of digit 1 (shift by ``d - 1`` for d)."""
    n = g.size
    out = []
    for ps in g.peers:
        m = 0
        for p in ps:
            m |= 1 << (p * n)
        out.append(m)
    return tuple(out)


class Graph:
    """Candidates of a state with their conflicts (as bitsets) and strong links.

    The searches run in compiled code over :meth:`link_words`; the Python bitsets and link lists below are
    built on first use only (to spell out a chain that was found, or for a plain search). Build a graph with
    :func:`graph` to share one per state and mode (X-chains, XY-chains, AICs and loops all ask for one on the
    same state)."""

    def __init__(self, state: State, mode: str):
        from sudokit.logic import state_arrays

        g = state.g
        self.n = g.size
        self.n_cells = g.n_cells
        self.g = g
        self.cands = tuple(state.cands)  # a snapshot: the state may change after the graph is built
        self.cand_array = state_arrays.arrays(state)[1]  # the same, for the kernels (shared by the state)
        self.memo = state.memo  # shares the mode-free parts between the state's graphs
        self.mode = mode
        self._link_words: tuple | None = None

    @cached_property
    def _base(self) -> tuple[list[int], dict[int, int], dict[int, int]]:
        """(candidates, in-cell conflicts, same-digit conflicts), shared by the state's graphs."""
        base = self.memo.get("graph-base")
        if base is None:
            n, c = self.n, self.cands
            nodes = []
            in_cell = {}
            same_digit = {}
            digit_bits = [0] * n  # candidate numbers of each digit (index d - 1)
            for s, m in enumerate(c):
                if m:
                    for d in digits_of(m):
                        digit_bits[d - 1] |= 1 << (s * n + d - 1)
            pmask = _peer_masks(self.g)
            for s, m in enumerate(c):
                if not m:
                    continue
                cell_bits = m << (s * n)
                peers_s = pmask[s]
                for d in digits_of(m):
                    v = s * n + d - 1
                    nodes.append(v)
                    in_cell[v] = cell_bits & ~(1 << v)
                    same_digit[v] = (peers_s << (d - 1)) & digit_bits[d - 1]
            base = self.memo["graph-base"] = (nodes, in_cell, same_digit)
        return base

    @property
    def nodes(self) -> list[int]:
        """The candidate numbers, in increasing order."""
        return self._base[0]

    @property
    def in_cell(self) -> dict[int, int]:
        return self._base[1]

    @property
    def same_digit(self) -> dict[int, int]:
        return self._base[2]

    @cached_property
    def strong(self) -> dict[int, list[int] | tuple[()]]:
        """Each candidate's strong links in the graph's mode (sorted; ``()`` for none), in node order."""
        g, n, c = self.g, self.n, self.cands
        strong: dict[int, set[int]] = {}  # only the candidates that have a strong link
        if self.mode in ("y", "aic"):
            for s in range(g.n_cells):
                if c[s].bit_count() == 2:
                    d1, d2 = digits_of(c[s])
                    a, b = s * n + d1 - 1, s * n + d2 - 1
                    strong.setdefault(a, set()).add(b)
                    strong.setdefault(b, set()).add(a)
        if self.mode in ("x", "aic"):
            for unit in g.units:
                for d in g.digits:
                    bit = 1 << (d - 1)
                    where = [s for s in unit if c[s] & bit]
                    if len(where) == 2:
                        a, b = where[0] * n + d - 1, where[1] * n + d - 1
                        strong.setdefault(a, set()).add(b)
                        strong.setdefault(b, set()).add(a)
        out: dict[int, list[int] | tuple[()]] = dict.fromkeys(self.nodes, ())
        for v, w in strong.items():
            out[v] = sorted(w)
        return out

    def link_words(self):
        """(strong links, weak links, conflicts) of every candidate number as (n_candidates, W) arrays of 64-bit
        words, for the chain kernels (built once per graph, in compiled code straight from the candidates)."""
        if self._link_words is None:
            import numpy as np

            from sudokit.logic import chains_kernel, state_arrays

            total = self.n * self.n_cells
            n_words = (total + 63) // 64
            units, _units_of, peers, _full = state_arrays.tables(self.g)
            # conflicts and same-digit links do not depend on the mode: shared by the state's graphs
            memo = self.memo
            conf = memo.get("conf-words")
            if conf is None:
                conf = np.zeros((total, n_words), dtype=np.uint64)
                same = np.zeros((total, n_words), dtype=np.uint64)
                chains_kernel.conflict_words(self.cand_array, peers, self.n, conf, same)
                memo["conf-words"], memo["same-words"] = conf, same
            weak = memo["same-words"] if self.mode in ("x", "y") else conf
            strong = np.zeros((total, n_words), dtype=np.uint64)
            chains_kernel.strong_words(
                self.cand_array, units, self.n, self.mode in ("y", "aic"), self.mode in ("x", "aic"), strong
            )
            self._link_words = (strong, weak, conf)
        return self._link_words


def graph(state: State, mode: str) -> Graph:
    """The chain graph of ``state`` in ``mode`` ("x", "y" or "aic"), built once per state and mode."""
    key = ("graph", mode)
    found = state.memo.get(key)
    if found is None:
        found = state.memo[key] = Graph(state, mode)
    return found


def bit_numbers(x: int) -> list[int]:
    """The numbers of the bits set in ``x``, lowest first (candidate numbers of a bitset)."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


def find_chain(state: State, mode: str, max_nodes: int = 20, grouped: bool = False) -> tuple[list[int], int] | None:
    """The shortest chain (as node numbers, strong link first) whose ends remove something, with the bitset of
    what it removes. ``grouped``: over the graph with group nodes too (:mod:`sudokit.logic.groups`), whose
    bitset may name groups beside their candidates.

    A numba kernel runs the breadth-first search from every start over bitsets and keeps the start of the
    shortest chain (the first such start in candidate order); only that start is searched again node by node
    to spell the chain out, by a second kernel (the first one found in link order, as a plain breadth-first
    search would)."""
    from sudokit.logic import chains_kernel

    # an X-chain stays on one digit, so a digit that gave no chain on the same cells is skipped (see ``misses``)
    tag = ("X-Chain", max_nodes)
    skip = known_misses(tag, state) if mode == "x" and not grouped else frozenset()
    strong_w, weak_w, conf_w = groups.graph(state, mode).words if grouped else graph(state, mode).link_words()
    skip_bits = sum(1 << (d - 1) for d in skip)
    a, _length = chains_kernel.best_start(strong_w, weak_w, conf_w, max_nodes, state.g.size, skip_bits)
    best = None
    if a >= 0:
        chain, removed = chains_kernel.spell_chain(strong_w, weak_w, conf_w, a, max_nodes)
        best = [int(v) for v in chain], sum(1 << int(v) for v in removed)
    if best is None and mode == "x" and not grouped:
        for d in state.g.digits:
            if d not in skip:
                miss(tag, state, d)
    return best


def _describe(state: State, nodes: groups.Nodes, chain: list[int]) -> str:
    parts = []
    for i, v in enumerate(chain):
        if i:
            parts.append(" = " if i % 2 else " - ")
        parts.append(f"{nodes.label(state, v)}({state.sym(nodes.candidates(v)[0][1])})")
    return "".join(parts)


_NAMES = {"x": "X-Chain", "y": "XY-Chain", "aic": "AIC"}
_BASE = {"x": 6.6, "y": 6.6, "aic": 7.0}


def _chain_step(state: State, mode: str, max_nodes: int, grouped: bool = False) -> Step | None:
    found = find_chain(state, mode, max_nodes, grouped)
    if found is None:
        return None
    chain, elim_bits = found
    nodes = groups.graph(state, mode) if grouped else groups.Nodes(state)
    elim = nodes.removals(elim_bits)
    if not elim:
        return None
    cands = [nodes.candidates(v) for v in chain]
    links = [(a, b, i % 2 == 0) for i in range(len(chain) - 1) for a in cands[i] for b in cands[i + 1]]
    name = ("Grouped " if grouped else "") + _NAMES[mode]
    return Step(
        name,
        eliminations=elim,
        cells=sorted({s for cs in cands for s, _ in cs}),
        candidates=[c for cs in cands for c in cs],
        links=links,
        rating=round(_BASE[mode] + length_penalty(len(chain)), 1),
        explanation=(
            f"{name} {_describe(state, nodes, chain)}: {nodes.say(state, chain[0])} or "
            f"{nodes.say(state, chain[-1])}, so {text.removals(state, elim)}"
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


def grouped_x_chain(state: State) -> Step | None:
    """X-chain whose nodes may be groups: a digit's candidates where a box and a line meet (``groups``)."""
    return _chain_step(state, "x", 16, grouped=True)


def grouped_aic(state: State) -> Step | None:
    """AIC whose nodes may be groups: a digit's candidates where a box and a line meet (``groups``)."""
    return _chain_step(state, "aic", 20, grouped=True)


def simple_colouring(state: State) -> Step | None:
    """Colour each digit's conjugate pairs in two colours: a cell seeing both colours loses the digit
    (trap); two cells of one colour that see each other make that colour false (wrap)."""
    return first_by_digit("Simple Colouring", state, lambda d: _colouring_on(state, d))


def _colouring_on(state: State, d: int) -> Step | None:
    """The first simple-colouring step on digit ``d``."""
    g, peers = state.g, state.g.peer_sets
    bit = 1 << (d - 1)
    adj: dict[int, list[int]] = {}
    for u in range(len(g.units)):
        where = state.positions(u, d)
        if len(where) == 2:
            a, b = where
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
    from sudokit.logic.colouring import two_colourings

    for colour in two_colourings(adj):
        if len(colour) < 4:
            continue
        pairs = [((s, d), (t, d), True) for s in sorted(colour) for t in adj[s] if s < t]  # conjugate pairs
        groups = ([s for s, k in colour.items() if k == 0], [s for s, k in colour.items() if k == 1])
        for k in (0, 1):
            grp = groups[k]
            if any(t in peers[s] for i, s in enumerate(grp) for t in grp[i + 1 :]):
                elim = [(s, d) for s in sorted(grp)]
                return _colour_step(
                    state, d, groups, elim, "two cells of one colour see each other, so that colour is false", pairs
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
            return _colour_step(state, d, groups, elim, "these cells see both colours", pairs)
    return None


def _colour_step(state: State, d: int, groups, elim, why: str, links) -> Step:
    a, b = (sorted(x) for x in groups)
    return Step(
        "Simple Colouring",
        eliminations=elim,
        cells=a + b,
        candidates=[(s, d) for s in a + b],
        links=links,
        explanation=(
            f"Simple colouring on {state.sym(d)}: one of {{{text.cells(state, a)}}} and {{{text.cells(state, b)}}} "
            f"holds "
            f"every {state.sym(d)}; {why}: {text.removals(state, elim)}"
        ),
    )
