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
    _scratch: int = 1
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
        width = sum(abs(c) for _, c in items) * (self.size - 1) + 1
        self._scratch = max(self._scratch, 2 * (len(items) + 1) * ((width + 63) // 64))
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
        g = puzzle.geometry
        full = g.all_mask
        start = [1 << (v - 1) if v else full for v in puzzle.givens.values]
        model = cls(g.size, g.n_cells, start)
        for con in puzzle.constraints:
            con.compile(model)
        for cells, coefs, total, distinct in innies_outies(puzzle):
            if distinct:
                model.cage(cells, total)
            else:
                model.linear(cells, coefs, total)
        model._finish(puzzle)
        return model

    def _finish(self, puzzle: VariantPuzzle) -> None:
        g = puzzle.geometry
        n_cells = self.n_cells
        shape = _shape(g)
        adjacent = shape.adjacent.copy()  # the peer matrix: the geometry's, then the constraints'
        extra = [pair for con in puzzle.constraints for pair in con.peer_pairs(g)]
        if extra:
            a, b = np.array(extra, dtype=np.int64).T
            adjacent[a, b] = True
            adjacent[b, a] = True
        n_peers = adjacent.sum(axis=1).astype(np.int32)
        rows, flat = np.nonzero(adjacent)
        peers = np.full((n_cells, max(int(n_peers.max(initial=0)), 1)), -1, dtype=np.int32)
        firsts = np.concatenate(([0], np.cumsum(n_peers)[:-1]))
        peers[rows, np.arange(len(flat)) - np.repeat(firsts, n_peers)] = flat
        packed = np.packbits(adjacent, axis=1, bitorder="little")
        words = (n_cells + 63) // 64
        packed = np.pad(packed, ((0, 0), (0, words * 8 - packed.shape[1])))
        adj = np.ascontiguousarray(packed).view("<u8").astype(np.uint64)
        props = self._props
        n = len(props)
        p_type = np.array([p[0] for p in props], dtype=np.int32)
        p_a = np.array([p[3] for p in props], dtype=np.int64)
        p_b = np.array([p[4] for p in props], dtype=np.int64)
        sizes = np.array([len(p[1]) for p in props], dtype=np.int32)
        aux_sizes = np.array([len(p[5]) for p in props], dtype=np.int32)
        hi = np.cumsum(sizes, dtype=np.int32)
        lo = (hi - sizes).astype(np.int32)
        ahi = np.cumsum(aux_sizes, dtype=np.int32)
        alo = (ahi - aux_sizes).astype(np.int32)
        cells = np.array([s for p in props for s in p[1]] or [0], dtype=np.int32)
        coefs = np.array([c for p in props for c in p[2]] or [0], dtype=np.int64)
        aux = np.array([x for p in props for x in p[5]] or [0], dtype=np.int64)
        # watch lists: for each cell the propagators reading it (each once), by cell then propagator
        owner = np.repeat(np.arange(n, dtype=np.int64), sizes)
        keys = np.unique(cells[: int(hi[-1]) if n else 0].astype(np.int64) * max(n, 1) + owner)
        watch_cells = keys // max(n, 1)
        w_props = (keys % max(n, 1)).astype(np.int32) if len(keys) else np.zeros(1, dtype=np.int32)
        w_start = np.zeros(n_cells + 1, dtype=np.int32)
        w_start[1:] = np.cumsum(np.bincount(watch_cells, minlength=n_cells))
        rel = np.zeros((max(len(self._relations), 1), 2, self.size + 1), dtype=np.int64)
        for relation, t in self._relations.items():
            forward, backward = pair_table(relation, self.size)
            rel[t, 0] = forward
            rel[t, 1] = backward
        self.arrays = (
            shape.units,
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
            cells,
            coefs,
            aux,
            rel,
            np.int64(g.all_mask),
            adj,
        )

    @property
    def scratch(self) -> int:
        """Words of the exact-sum rows the largest linear rule needs (:func:`.solver_kernel._linear_exact`)."""
        return self._scratch

    @property
    def n_props(self) -> int:
        return len(self._props)


@dataclass(frozen=True)
class _Shape:
    """What every puzzle on one geometry shares: units, the peer matrix, the regions innies/outies use."""

    units: np.ndarray  #: (n_units, size) int32
    adjacent: np.ndarray  #: (n_cells, n_cells) bool: the geometry's peers
    regions: np.ndarray  #: (n_regions, n_cells) bool: single units, runs of consecutive rows or columns
    counts: np.ndarray  #: (n_regions,) how many units each region is
    single: np.ndarray  #: (n_regions,) bool: the region is one unit
    cells: list[list[int]]  #: each region's cells
    cell_sets: list[frozenset[int]]  #: each region's cells as a set
    weights: np.ndarray  #: ``regions`` as float32 (for matrix products)
    sizes: np.ndarray  #: (n_regions,) float32 cells of each region


_SHAPES: dict = {}


def _shape(g) -> _Shape:
    shape = _SHAPES.get(g)
    if shape is None:
        units = np.array([list(u) for u in g.units], dtype=np.int32).reshape(len(g.units), g.size)
        adjacent = np.zeros((g.n_cells, g.n_cells), dtype=bool)
        for u in units:
            adjacent[np.ix_(u, u)] = True
        np.fill_diagonal(adjacent, False)
        regions = [list(u) for u in g.units]
        counts = [1] * len(regions)
        for kind in ("row", "column"):
            lines = [list(u) for u, k in zip(g.units, g.unit_kinds) if k == kind]
            for a in range(len(lines)):
                for b in range(a + 2, len(lines)):
                    regions.append([s for line in lines[a:b] for s in line])
                    counts.append(b - a)
        member = np.zeros((len(regions), g.n_cells), dtype=bool)
        for i, region in enumerate(regions):
            member[i, region] = True
        c = np.array(counts, dtype=np.int64)
        weights = member.astype(np.float32)
        sets = [frozenset(r) for r in regions]
        shape = _SHAPES[g] = _Shape(units, adjacent, member, c, c == 1, regions, sets, weights, weights.sum(axis=1))
    return shape


#: Innie/outie sums with more cells than this are left out (too weak to pay for their propagation).
MOST_INNIES_OUTIES = 6


def innies_outies(puzzle: VariantPuzzle) -> list[tuple[list[int], list[int], int, bool]]:
    """The killer solvers' innies and outies as sums ``(cells, coefficients, total, distinct)``: for a set R of
    disjoint units (one unit, or consecutive rows, or consecutive columns) holding each digit ``k`` times, the
    summed cages C meeting R give ``sum(R - cells of C) - sum(cells of C - R) = k * (1 + .. + n) - sum(totals
    of C)``. Sound whenever every cage meeting R has a sum (``distinct``: innies only, in one unit, so a cage
    of different digits). Kept when the innies and outies are at most :data:`MOST_INNIES_OUTIES` cells."""
    from sudokit.constraints.cages import KillerCage

    g = puzzle.geometry
    cages = [c for c in puzzle.constraints if isinstance(c, KillerCage)]
    if not cages:
        return []
    if sum(len(c.cage) for c in cages) != len({s for c in cages for s in c.cage}):
        return []  # overlapping cages: a cell's digit would count in two totals
    shape = _shape(g)
    owners = [-1] * g.n_cells
    for i, cage in enumerate(cages):
        for s in cage.cage:
            owners[s] = i  # the cages do not overlap (above)
    owner = np.array(owners, dtype=np.int64)
    covered = owner >= 0
    member = np.zeros((g.n_cells, len(cages)), dtype=np.float32)  # float: the products go to BLAS
    member[np.flatnonzero(covered), owner[covered]] = 1
    sizes = member.sum(axis=0)  # cells each cage owns
    met = (shape.weights @ member) > 0
    unsummed = np.array([c.total is None for c in cages])
    n_in = shape.weights @ (~covered).astype(np.float32)
    n_out = met.astype(np.float32) @ sizes - (shape.sizes - n_in)
    keep = ~(met & unsummed).any(axis=1) & (n_in + n_out > 0) & (n_in + n_out <= MOST_INNIES_OUTIES)
    full = g.size * (g.size + 1) // 2
    totals = np.array([c.total or 0 for c in cages], dtype=np.int64)
    out = []
    seen: set[tuple] = set()
    kept = np.flatnonzero(keep)
    sub = met[kept]
    sums = (full * shape.counts[kept] - sub.astype(np.int64) @ totals).tolist()
    rows, cols = np.nonzero(sub)
    hits: list[list[int]] = [[] for _ in kept]
    for a, b in zip(rows.tolist(), cols.tolist()):
        hits[a].append(b)
    for r, hit, total in zip(kept.tolist(), hits, sums):
        region = shape.cells[r]
        inside = [s for s in region if owners[s] < 0]
        inner = shape.cell_sets[r]
        outside = [s for i in hit for s in cages[i].cage if owners[s] == i and s not in inner]
        key = (tuple(inside), tuple(outside), total)
        if key not in seen:
            seen.add(key)
            distinct = bool(shape.single[r]) and not outside
            out.append((inside + outside, [1] * len(inside) + [-1] * len(outside), total, distinct))
    return out


@dataclass
class Run:
    """The outcome of one kernel search: status code, count, stored solutions, [guesses, nodes, backtracks]."""

    status: int
    count: int
    solutions: np.ndarray
    stats: np.ndarray


def run(model: Model, limit: int, budget: int = 0, keep: int = 2, probe_after: int = K.PROBE_AFTER) -> Run:
    """Search ``model`` for up to ``limit`` solutions (``budget`` in clock ticks, 0 = none), keeping the
    first ``keep`` of them; shallow nodes are probed once ``probe_after`` nodes were visited."""
    n_cells = model.n_cells
    n_props = model.n_props
    sols = np.zeros((max(keep, 1), n_cells), dtype=np.uint8)
    stats = np.zeros(3, dtype=np.int64)
    status, count = K.search(  # type: ignore[call-arg]  # numba's Dispatcher stub
        np.array(model.start, dtype=np.int64),
        *model.arrays,
        limit,
        budget,
        probe_after,
        sols,
        stats,
        np.zeros((n_cells + 1, n_cells), dtype=np.int64),
        np.zeros((n_cells + 1, n_cells), dtype=np.uint8),
        np.zeros(n_cells + 1, dtype=np.int32),
        np.zeros(n_cells + 1, dtype=np.int64),
        np.zeros(model.scratch, dtype=np.uint64),
        np.zeros(n_cells, dtype=np.int32),
        np.zeros(n_cells + 1, dtype=np.int32),
        np.zeros(n_cells, dtype=np.uint8),
        np.zeros(n_props + 1, dtype=np.int32),
        np.zeros(max(n_props, 1), dtype=np.uint8),
        np.zeros(4, dtype=np.int64),
    )
    return Run(int(status), int(count), sols[: min(int(count), keep)], stats)
