"""Group nodes of the chains (HoDoKu's grouped X-chains, nice loops and AICs): a digit's candidates where two
units meet (a box and a line on a classic grid), at least two of them, taken together as one node.

A group is true when one of its cells holds the digit. It is weakly linked to every candidate (or group) of its
digit whose cells see all of its cells, and strongly linked, in a unit, to the candidate or group that holds
every other place of the digit there. With these links the chain searches of :mod:`sudokit.logic.chains` and
:mod:`sudokit.logic.loops` run unchanged over more nodes: the graph's word rows gain one row per group,
numbered ``(n_cells + i) * n + d - 1`` for intersection ``i`` and digit ``d`` (``groups_kernel``).

Every link holds whatever else the chain holds, so a chain that meets a group and one of its cells, or two
groups that share a cell, still proves what it proves."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from sudokit.geometry import Geometry, padded
from sudokit.logic.state import State
from sudokit.logic.step import Candidate


@lru_cache(maxsize=32)
def intersections(g: Geometry) -> np.ndarray:
    """The cells where two units meet, two or more of them (each set once, in unit order), padded with -1."""
    found: dict[tuple[int, ...], None] = {}
    sets = g.unit_sets
    for u in range(len(sets)):
        for v in range(u + 1, len(sets)):
            both = tuple(sorted(sets[u] & sets[v]))
            if len(both) >= 2:
                found.setdefault(both, None)
    rows = list(found)
    if not rows:
        return np.full((0, 2), -1, dtype=np.int64)
    return padded(rows, max(len(r) for r in rows))


class Nodes:
    """The nodes of a chain graph: candidates numbered ``cell * n + digit - 1`` below :attr:`base`, groups above
    it (row ``v - base`` of :attr:`members` and :attr:`size`). A graph without groups has none."""

    def __init__(self, state: State, members: np.ndarray | None = None, size: np.ndarray | None = None):
        self.n = state.g.size
        self.base = state.g.n_cells * self.n
        self.members = np.full((0, 1), -1, dtype=np.int64) if members is None else members
        self.size = np.zeros(0, dtype=np.int64) if size is None else size

    def candidates(self, v: int) -> list[Candidate]:
        """The candidates ``(cell, digit)`` of node ``v``: itself, or a group's cells."""
        if v < self.base:
            return [(v // self.n, v % self.n + 1)]
        k = v - self.base
        return [(int(s), k % self.n + 1) for s in self.members[k, : self.size[k]]]

    def is_group(self, v: int) -> bool:
        return v >= self.base

    def label(self, state: State, v: int) -> str:
        """A node's cells: ``A2`` or ``{A2,A3}``."""
        cells = [s for s, _ in self.candidates(v)]
        return state.label(cells[0]) if len(cells) == 1 else "{" + ",".join(state.label(s) for s in cells) + "}"

    def say(self, state: State, v: int) -> str:
        """``A2 is 5`` or ``{A2,A3} holds 5``."""
        d = state.sym(self.candidates(v)[0][1])
        return f"{self.label(state, v)} {'holds' if self.is_group(v) else 'is'} {d}"

    def removals(self, bits: int) -> list[Candidate]:
        """The candidates of a node bitset, its groups left out (a group's cells go with it: they are in the
        set themselves)."""
        out = []
        while bits:
            low = bits & -bits
            v = low.bit_length() - 1
            bits ^= low
            if v < self.base:
                out.append((v // self.n, v % self.n + 1))
        return sorted(out)


class GroupedGraph(Nodes):
    """The chain graph of a state in mode ``x`` (one digit) or ``aic`` (and cells), with group nodes: word rows
    :attr:`words` (strong links, weak links, conflicts) over candidates and groups."""

    def __init__(self, state: State, mode: str):
        from sudokit.logic import chains_kernel, groups_kernel, state_arrays

        g = state.g
        n = g.size
        inter = intersections(g)
        total = (g.n_cells + inter.shape[0]) * n
        n_words = (total + 63) // 64
        units, units_of, peers, _full = state_arrays.tables(g)
        cands = state_arrays.arrays(state)[1]
        conf = np.zeros((total, n_words), dtype=np.uint64)
        same = np.zeros((total, n_words), dtype=np.uint64)
        strong = np.zeros((total, n_words), dtype=np.uint64)
        chains_kernel.conflict_words(cands, peers, n, conf, same)
        chains_kernel.strong_words(cands, units, n, mode == "aic", True, strong)
        members = np.full((inter.shape[0] * n, inter.shape[1]), -1, dtype=np.int64)
        size = np.zeros(inter.shape[0] * n, dtype=np.int64)
        groups_kernel.add_groups(cands, units, units_of, peers, inter, n, strong, same, conf, members, size)
        super().__init__(state, members, size)
        self.words = (strong, same if mode == "x" else conf, conf)


def graph(state: State, mode: str) -> GroupedGraph:
    """The grouped chain graph of ``state`` in ``mode`` (``x`` or ``aic``), built once per state and mode."""
    key = ("grouped-graph", mode)
    found = state.memo.get(key)
    if found is None:
        found = state.memo[key] = GroupedGraph(state, mode)
    return found


def row_bits(words: np.ndarray) -> int:
    """A row of 64-bit words as a Python int bitset."""
    return int.from_bytes(np.ascontiguousarray(words, dtype="<u8").tobytes(), "little")
