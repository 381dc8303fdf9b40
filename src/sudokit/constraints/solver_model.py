"""One compiled representation of a variant puzzle's rules: the arrays :mod:`.solver_kernel` reads.

:meth:`Model.of` builds them once per puzzle: the geometry's units, every cell's peers (the geometry's and
the constraints' :meth:`~sudokit.constraints.base.Constraint.peer_pairs`), the starting candidates (givens
as single digits, unary rules such as odd/even applied) and one propagator per rule, which each constraint
adds through its ``compile(model)`` method with the builder calls below (:meth:`Model.pair`,
:meth:`Model.cage`, :meth:`Model.linear`, ...). A rule the kernel has no propagator for raises
:class:`NotCompiled`; the caller then uses the plain solver (:mod:`sudokit.constraints.solver`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sudokit.constraints import solver_kernel as K
from sudokit.constraints.base import RELATIONS, NotCompiled, pair_table
from sudokit.constraints.cages import cage_combos

if TYPE_CHECKING:
    from sudokit.constraints.puzzle import VariantPuzzle

__all__ = ["Model", "NotCompiled", "Run", "run"]


@dataclass
class Model:
    """A puzzle's rules as kernel arrays; the builder methods append propagators."""

    size: int
    n_cells: int
    start: list[int]
    _props: list[tuple[int, list[int], list[int], int, int, list[int]]] = field(default_factory=list)
    _relations: dict[tuple, int] = field(default_factory=dict)
    arrays: tuple = ()

    # ---- builder calls (used by the constraints' compile methods) ----------------------------------
    def restrict(self, cell: int, mask: int) -> None:
        """A unary rule: ``cell`` holds a digit of ``mask``."""
        self.start[cell] &= mask

    def pair(self, a: int, b: int, relation: tuple) -> None:
        """``relation`` (a :data:`~sudokit.constraints.base.RELATIONS` entry) between cells a and b."""
        if a == b:  # a line through a cell twice: the relation of a digit with itself
            ok = RELATIONS[relation[0]]
            self.restrict(a, sum(1 << (x - 1) for x in range(1, self.size + 1) if ok(x, x, *relation[1:])))
            return
        t = self._relations.get(relation)
        if t is None:
            t = self._relations[relation] = len(self._relations)
        self._add(K.T_PAIR, [a, b], a=t)

    def cage(self, cells: Sequence[int], total: int) -> None:
        """Different digits in ``cells`` summing to ``total`` (the no-repeat part is the peers' work)."""
        self._add(K.T_CAGE, list(cells), aux=list(cage_combos(len(cells), total, self.size)))

    def thermo(self, line: Sequence[int], slow: bool) -> None:
        """Digits increase along ``line`` (never decrease when ``slow``)."""
        self._add(K.T_THERMO, list(line), a=0 if slow else 1)

    def renban(self, line: Sequence[int]) -> None:
        """A set of consecutive digits (the no-repeat part is the peers' work)."""
        self._add(K.T_RENBAN, list(line))

    def linear(self, cells: Sequence[int], coefs: Sequence[int], total: int) -> None:
        """``sum(coefs[i] * digit(cells[i])) == total``; a cell listed twice has its coefficients added."""
        merged: dict[int, int] = {}
        for s, c in zip(cells, coefs):
            merged[s] = merged.get(s, 0) + c
        items = [(s, c) for s, c in merged.items() if c]
        self._add(K.T_LINEAR, [s for s, _ in items], [c for _, c in items], a=total)

    def sandwich(self, line: Sequence[int], total: int) -> None:
        """The digits between the 1 and the largest digit of ``line`` sum to ``total``."""
        self._add(K.T_SANDWICH, list(line), a=total)

    def xsum(self, line: Sequence[int], total: int) -> None:
        """The first X digits of ``line`` sum to ``total``, X the first digit."""
        self._add(K.T_XSUM, list(line), a=total)

    def skyscraper(self, line: Sequence[int], seen: int) -> None:
        """``seen`` digits of ``line`` are taller than every digit before them."""
        self._add(K.T_SKY, list(line), a=seen)

    def quadruple(self, group: Sequence[int], need: dict[int, int]) -> None:
        """Digit ``d`` appears at least ``need[d]`` times in ``group``."""
        self._add(K.T_QUAD, list(group), aux=[x for d, k in sorted(need.items()) for x in (d, k)])

    def between(self, line: Sequence[int]) -> None:
        """The inner cells of ``line`` lie strictly between its two ends."""
        self._add(K.T_BETWEEN, list(line))

    def _add(self, t: int, cells: list[int], coefs: list[int] | None = None, a: int = 0, b: int = 0, aux=()) -> None:
        self._props.append((t, cells, coefs if coefs is not None else [1] * len(cells), a, b, list(aux)))

    # ---- the arrays ----------------------------------------------------------------------------
    @classmethod
    def of(cls, puzzle: VariantPuzzle) -> Model:
        """Compile a puzzle (raises :class:`NotCompiled` for a rule without a propagator)."""
        from sudokit.constraints.solver import unit_remainder_cages

        g = puzzle.geometry
        full = g.all_mask
        start = [1 << (v - 1) if v else full for v in puzzle.givens.values]
        model = cls(g.size, g.n_cells, start)
        for con in puzzle.constraints:
            con.compile(model)
        for cage in unit_remainder_cages(puzzle):
            cage.compile(model)
        model._finish(puzzle)
        return model

    def _finish(self, puzzle: VariantPuzzle) -> None:
        g = puzzle.geometry
        n_cells = self.n_cells
        units = np.array([list(u) for u in g.units], dtype=np.int32).reshape(len(g.units), g.size)
        peer_lists = puzzle.peers
        width = max((len(p) for p in peer_lists), default=0)
        peers = np.full((n_cells, max(width, 1)), -1, dtype=np.int32)
        n_peers = np.zeros(n_cells, dtype=np.int32)
        for s, ps in enumerate(peer_lists):
            peers[s, : len(ps)] = ps
            n_peers[s] = len(ps)
        props = self._props
        n = len(props)
        p_type = np.array([p[0] for p in props], dtype=np.int32)
        p_a = np.array([p[3] for p in props], dtype=np.int64)
        p_b = np.array([p[4] for p in props], dtype=np.int64)
        lo = np.zeros(n, dtype=np.int32)
        hi = np.zeros(n, dtype=np.int32)
        alo = np.zeros(n, dtype=np.int32)
        ahi = np.zeros(n, dtype=np.int32)
        cells: list[int] = []
        coefs: list[int] = []
        aux: list[int] = []
        watch: list[list[int]] = [[] for _ in range(n_cells)]
        for i, (_, cs, cf, _, _, ax) in enumerate(props):
            lo[i] = len(cells)
            cells += cs
            coefs += cf
            hi[i] = len(cells)
            alo[i] = len(aux)
            aux += ax
            ahi[i] = len(aux)
            for s in dict.fromkeys(cs):
                watch[s].append(i)
        w_start = np.zeros(n_cells + 1, dtype=np.int32)
        w_start[1:] = np.cumsum([len(w) for w in watch])
        w_props = np.array([i for w in watch for i in w] or [0], dtype=np.int32)
        rel = np.zeros((max(len(self._relations), 1), 2, self.size + 1), dtype=np.int64)
        for relation, t in self._relations.items():
            forward, backward = pair_table(relation, self.size)
            rel[t, 0] = forward
            rel[t, 1] = backward
        self.arrays = (
            units,
            peers,
            n_peers,
            w_start,
            w_props,
            p_type,
            lo,
            hi,
            p_a,
            p_b,
            alo,
            ahi,
            np.array(cells or [0], dtype=np.int32),
            np.array(coefs or [0], dtype=np.int64),
            np.array(aux or [0], dtype=np.int64),
            rel,
            np.int64(g.all_mask),
        )

    @property
    def scratch(self) -> int:
        """Words of the exact-sum rows the largest linear rule needs (:func:`.solver_kernel._linear_exact`)."""
        most = 1
        for t, cells, coefs, *_ in self._props:
            if t == K.T_LINEAR:
                width = sum(abs(c) for c in coefs) * (self.size - 1) + 1
                most = max(most, 2 * (len(cells) + 1) * ((width + 63) // 64))
        return most

    @property
    def n_props(self) -> int:
        return len(self._props)


@dataclass
class Run:
    """The outcome of one kernel search: status code, count, stored solutions, [guesses, nodes, backtracks]."""

    status: int
    count: int
    solutions: np.ndarray
    stats: np.ndarray


def run(model: Model, limit: int, budget: int = 0, keep: int = 2) -> Run:
    """Search ``model`` for up to ``limit`` solutions (``budget`` in clock ticks, 0 = none), keeping the
    first ``keep`` of them."""
    n_cells = model.n_cells
    n_props = model.n_props
    sols = np.zeros((max(keep, 1), n_cells), dtype=np.uint8)
    stats = np.zeros(3, dtype=np.int64)
    status, count = K.search(
        np.array(model.start, dtype=np.int64),
        *model.arrays,
        limit,
        budget,
        sols,
        stats,
        np.zeros((n_cells + 1, n_cells), dtype=np.int64),
        np.zeros((n_cells + 1, n_cells), dtype=np.uint8),
        np.zeros(n_cells + 1, dtype=np.int32),
        np.zeros(n_cells + 1, dtype=np.int64),
        np.zeros(model.scratch, dtype=np.uint64),
        np.zeros(n_cells + 1, dtype=np.int32),
        np.zeros(n_cells, dtype=np.uint8),
        np.zeros(n_props + 1, dtype=np.int32),
        np.zeros(max(n_props, 1), dtype=np.uint8),
        np.zeros(4, dtype=np.int64),
    )
    return Run(int(status), int(count), sols[: min(int(count), keep)], stats)
