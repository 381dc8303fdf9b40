"""One compiled representation of a variant puzzle's rules: the arrays :mod:`.solver_kernel` reads.

:meth:`Model.of` builds them once per puzzle: the geometry's units, every cell's peers (the geometry's and
the constraints' :meth:`~sudokit.constraints.base.Constraint.peer_pairs`), the starting candidates (givens
as single digits, unary rules such as odd/even applied) and one propagator per rule, which each constraint
adds through its ``compile(model)`` method with the builder calls below (:meth:`Model.pair`,
:meth:`Model.cage`, :meth:`Model.linear`, ...). A rule the kernel has no propagator for raises
:class:`NotCompiled`; the caller then uses the plain solver (:mod:`sudokit.constraints.solver`).
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from sudokit.constraints import solver_kernel as K
from sudokit.constraints.base import RELATIONS, NotCompiled, pair_table
from sudokit.constraints.cages import KillerCage, cage_combos
from sudokit.constraints.sums import implied_equal_sums

if TYPE_CHECKING:
    from sudokit.constraints.puzzle import VariantPuzzle
    from sudokit.geometry import Geometry

__all__ = ["Model", "NotCompiled", "Run", "run"]


@dataclass
class Model:
    """A puzzle's rules as kernel arrays; the builder methods append propagators."""

    size: int
    n_cells: int
    start: list[int]
    # the propagators so far, as flat lists (one entry per propagator, or per cell / aux value of each)
    _types: list[int] = field(default_factory=list)
    _sizes: list[int] = field(default_factory=list)
    _cells: list[int] = field(default_factory=list)
    _coefs: list[int] = field(default_factory=list)
    _a: list[int] = field(default_factory=list)
    _b: list[int] = field(default_factory=list)
    _aux_sizes: list[int] = field(default_factory=list)
    _aux: list[int] = field(default_factory=list)
    _relations: dict[tuple, int] = field(default_factory=dict)
    _scratch: int = 1
    #: the geometry's peer matrix (bool), set by :meth:`of`: :meth:`linear` groups cells that must differ
    _adjacent: np.ndarray | None = None
    _cell_units: list | None = None  #: each cell's units, set by :meth:`of`: :meth:`linear` groups by them
    _thermos: list[tuple[int, ...]] = field(default_factory=list)  #: the strict thermometers so far
    _thermo_lines: int = 0  #: the thermometers so far, strict or slow
    _thermo_pairs: int = 0  #: the pairs their steps were compiled to (boards up to ``PAIR_MASKS_MOST`` digits)
    _renbans: int = 0  #: the renban lines compiled as cages
    _watched: int = -1  #: the propagators the cells watch: those before this one (-1: all; the Hall intervals'
    # come after, marked by the units instead: :func:`.solver_kernel.propagate`)
    #: the search may branch on a digit's places in a unit (:func:`.solver_kernel.search`'s ``places``)
    places: int = 0
    #: failures before the search's first restart, 0 for none (:func:`.solver_kernel.search`'s ``restart_base``)
    restarts: int = 0
    #: (after, depth) of the search's failed-digit probing on the cells' bounds, None for none
    #: (:func:`.solver_kernel.search`'s ``probe_after``, ``probe_depth``, ``probe_bounds``)
    probe: tuple[int, int] | None = None
    #: the search also weighs each cell by its units' failures (:func:`.solver_kernel.search`'s ``pw``)
    unit_weights: bool = False
    arrays: tuple = ()
    start_array: np.ndarray | None = None  #: ``start`` as the kernel reads it (set with ``arrays``)

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
        self._add(K.T_PAIR, (a, b), a=t)

    def pairs(self, pairs: Sequence[tuple[int, int]], relation: tuple) -> None:
        """:meth:`pair` on each of ``pairs``."""
        t = self._relations.get(relation)
        if t is None:
            t = self._relations[relation] = len(self._relations)
        cells = [s for pair in pairs for s in pair]
        if any(a == b for a, b in pairs):  # a line through a cell twice
            for a, b in pairs:
                self.pair(a, b, relation)
            return
        k = len(pairs)
        self._types.extend([K.T_PAIR] * k)
        self._sizes.extend([2] * k)
        self._cells.extend(cells)
        self._coefs.extend([1] * (2 * k))
        self._a.extend([t] * k)
        self._b.extend([0] * k)
        self._aux_sizes.extend([0] * k)

    def cage(self, cells: Sequence[int], total: int) -> None:
        """Different digits in ``cells`` summing to ``total`` (the no-repeat part is the peers' work)."""
        self._add(K.T_CAGE, cells, b=self._matching(len(cells)), aux=cage_combos(len(cells), total, self.size))

    def _matching(self, k: int) -> int:
        """``T_CAGE``'s ``b`` for a cage of ``k`` cells: 1 when its digit sets are kept only if the cells can
        take them one each (:func:`.solver_kernel._matched`: up to 15 cells and 16 digits), else 0."""
        return int(k <= 15 and self.size <= 16)

    def thermo(self, line: Sequence[int], slow: bool) -> None:
        """Digits increase along ``line`` (never decrease when ``slow``)."""
        self._thermo_lines += 1
        if self.size <= PAIR_MASKS_MOST and len(set(line)) == len(line):
            # each step a pair over mask tables (narrowed in one look-up when a cell changes, not queued): arc
            # consistency on every step, to a fixed point, is the line's bounds ("Bicycle race" 9.0 -> 7.6 ms)
            steps = list(zip(line, line[1:]))
            self._thermo_pairs += len(steps)
            self.pairs(steps, ("at_most",) if slow else ("less",))
        else:
            self._add(K.T_THERMO, line, a=0 if slow else 1)
        if not slow:
            self._thermos.append(tuple(line))

    def _thermo_groups(self, units: np.ndarray) -> None:
        """For each cell of a strict thermometer, the cells above it (reached up any thermometer through it,
        bulbs to tips) and those below, cut by the units: each such group of two or more cells holds as many
        different digits, all above (below) the cell, which is then below its k-th largest (above its k-th
        smallest) candidate, k the group's size (:data:`.solver_kernel.T_ABOVE`)."""
        if not self._thermos:
            return
        up: dict[int, set[int]] = {}
        down: dict[int, set[int]] = {}
        for line in self._thermos:
            for a, b in zip(line, line[1:]):
                up.setdefault(a, set()).add(b)
                down.setdefault(b, set()).add(a)
        unit_sets = [set(u) for u in units.tolist()]
        for direction, steps in ((1, up), (0, down)):
            for cell in steps:
                reached: set[int] = set()
                todo = list(steps[cell])
                while todo:
                    s = todo.pop()
                    if s not in reached:
                        reached.add(s)
                        todo.extend(steps.get(s, ()))
                reached.discard(cell)  # a loop: the thermometers' own bounds fail it
                if len(reached) < 2:
                    continue
                done: set[tuple[int, ...]] = set()
                for unit in unit_sets:
                    group = tuple(sorted(unit & reached))
                    if len(group) >= 2 and group not in done:
                        done.add(group)
                        self._add(K.T_ABOVE, (cell, *group), a=direction)

    def _halls(self, units: np.ndarray, locked: bool = True) -> None:
        """With strict thermometers (their bounds leave the cells' candidates as runs of digits) on a board of
        up to 15 digits and 64 units: each unit's Hall intervals (:data:`.solver_kernel.T_HALL`), one
        propagator per unit in the units' order (``a``: the unit, ``b``: the first of them, or -1 - the first
        when :func:`.solver_kernel.propagate` is to leave locked candidates out)."""
        if not self._thermos or self.size > 15 or units.shape[0] > 64:
            return
        first = self._watched = len(self._types)
        for u, unit in enumerate(units.tolist()):
            self._add(K.T_HALL, unit, a=u, b=first if locked else -1 - first)

    def renban(self, line: Sequence[int]) -> None:
        """A set of consecutive digits (the no-repeat part is the peers' work): a cage whose digit sets are
        the runs of ``len(line)`` consecutive digits, so a digit every fitting run holds is placed or locked
        as in a killer cage."""
        k = len(line)
        if len(set(line)) != k or k > self.size:  # a line through a cell twice: the plain run propagator
            self._add(K.T_RENBAN, line)
            return
        run = (1 << k) - 1
        self._renbans += 1
        self._add(K.T_CAGE, line, b=self._matching(k), aux=[run << start for start in range(self.size - k + 1)])

    def linear(self, cells: Sequence[int], coefs: Sequence[int], total: int) -> None:
        """``sum(coefs[i] * digit(cells[i])) == total``; a cell listed twice has its coefficients added."""
        merged: dict[int, int] = {}
        for s, c in zip(cells, coefs):
            merged[s] = merged.get(s, 0) + c
        items = [(s, c) for s, c in merged.items() if c]
        groups = self._groups(items)
        if len(groups) == len(items):
            self._linear([s for s, _ in items], [c for _, c in items], total)
            return
        flat = [s for _, group in groups for s in group]
        coefs = [c for c, group in groups for _ in group]
        self._reserve(coefs, len(groups))
        self._add(K.T_GSUM, flat, coefs, a=total, aux=[len(group) for _, group in groups])

    def _groups(self, items: list[tuple[int, int]]) -> list[tuple[int, list[int]]]:
        """``items`` (cell, coefficient) as groups of cells with one coefficient that are the geometry's peers
        of each other (so hold different digits); one group per cell when the digits are above 9 (a group's
        totals are bits of one word) or the geometry is unknown. Per coefficient, the unit holding the most
        of the cells left is a group, again and again while one holds two or more (k different digits sum to
        at least k(k+1)/2, so larger groups give the sum tighter bounds: "Long sums 2"'s shaft grouped by
        boxes reaches its bulb's 98, grouped along the line only 83); the cells left join the first group
        whose cells they all see, else make one."""
        adjacent = self._adjacent
        if adjacent is None or self.size > 9:
            return [(c, [s]) for s, c in items]
        groups: list[tuple[int, list[int]]] = []
        for coef in dict.fromkeys(c for _, c in items):
            left = [s for s, c in items if c == coef]
            units_of = self._cell_units
            while len(left) > 2 and units_of is not None:  # (two cells: one group if peers, below)
                count: dict[int, int] = {}
                for s in left:
                    for u in units_of[s]:
                        count[u] = count.get(u, 0) + 1
                most = max(count.values())
                if most < 2:
                    break
                best = min(u for u, n in count.items() if n == most)
                groups.append((coef, [s for s in left if best in units_of[s]]))
                left = [s for s in left if best not in units_of[s]]
            for s in left:
                for c, group in groups:
                    if c == coef and all(adjacent[s, t] for t in group):
                        group.append(s)
                        break
                else:
                    groups.append((coef, [s]))
        return groups

    def _reserve(self, coefs: Sequence[int], groups: int = 0) -> None:
        """Grow the exact-sum scratch for a sum with these coefficients (and ``groups`` words more: a grouped
        sum keeps its groups' totals there)."""
        width = sum(map(abs, coefs)) * (self.size - 1) + 1
        words = 2 * (len(coefs) + 1) * ((width + 63) // 64) + groups
        if words > self._scratch:
            self._scratch = words

    def _linear(self, cells: list[int], coefs: list[int], total: int) -> None:
        """:meth:`linear` on different cells with nonzero coefficients."""
        self._reserve(coefs)
        self._add(K.T_LINEAR, cells, coefs, a=total)

    def sandwich(self, line: Sequence[int], total: int) -> None:
        """The digits between the 1 and the largest digit of ``line`` sum to ``total``. On a whole unit of at
        most 9 digits with its digit sets: those of the digits 2..N-1 that sum to ``total``, and ``2 * N`` words
        of scratch (:func:`.solver_kernel._sandwich_exact`)."""
        n = len(line)
        if self.size <= 9 and self._is_unit(line):
            self._scratch = max(self._scratch, 2 * n)
            self._add(K.T_SANDWICH, line, a=total, b=1, aux=_sandwich_sets(n, total))
            return
        self._scratch = max(self._scratch, n)
        self._add(K.T_SANDWICH, line, a=total)

    def xsum(self, line: Sequence[int], total: int) -> None:
        """The first X digits of ``line`` sum to ``total``, X the first digit (``len(line)`` words of scratch)."""
        self._scratch = max(self._scratch, len(line))
        self._add(K.T_XSUM, line, a=total, b=int(self.size <= 9 and self._is_unit(line)))

    def skyscraper(self, line: Sequence[int], seen: int) -> None:
        """``seen`` digits of ``line`` are taller than every digit before them (scratch: two tables of
        (cells + 1) x (digits + 1) words, :func:`.solver_kernel._skyscraper`)."""
        self._scratch = max(self._scratch, 2 * (len(line) + 1) * (self.size + 1))
        self._add(K.T_SKY, line, a=seen, b=int(self._is_unit(line)))

    def _is_unit(self, cells: Sequence[int]) -> bool:
        """Whether ``cells`` hold every digit once: as many as the digits, all the geometry's peers."""
        adjacent = self._adjacent
        if adjacent is None or len(cells) != self.size:
            return False
        return all(adjacent[a, b] for i, a in enumerate(cells) for b in cells[i + 1 :])

    def quadruple(self, group: Sequence[int], need: dict[int, int]) -> None:
        """Digit ``d`` appears at least ``need[d]`` times in ``group``."""
        self._add(K.T_QUAD, group, aux=[x for d, k in sorted(need.items()) for x in (d, k)])

    def between(self, line: Sequence[int]) -> None:
        """The inner cells of ``line`` lie strictly between its two ends."""
        self._add(K.T_BETWEEN, line)

    def _add(self, t: int, cells: Sequence[int], coefs: Sequence[int] | None = None, a: int = 0, b: int = 0,
             aux: Sequence[int] = ()) -> None:  # fmt: skip
        self._types.append(t)
        self._sizes.append(len(cells))
        self._cells.extend(cells)
        if coefs is None:
            self._coefs.extend([1] * len(cells))
        else:
            self._coefs.extend(coefs)
        self._a.append(a)
        self._b.append(b)
        self._aux_sizes.append(len(aux))
        self._aux.extend(aux)

    # ---- the arrays ----------------------------------------------------------------------------
    @classmethod
    def of(cls, puzzle: VariantPuzzle) -> Model:
        """Compile a puzzle (raises :class:`NotCompiled` for a rule without a propagator)."""
        g = puzzle.geometry
        full = g.all_mask
        start = [1 << (v - 1) if v else full for v in puzzle.givens.values]
        shape = _shape(g)
        model = cls(g.size, g.n_cells, start, _adjacent=shape.adjacent, _cell_units=shape.cell_units)
        cages = _Cages.of(puzzle)
        group_cells: list[int] = []  # the extra peers: groups of cells that must all differ
        group_sizes: list[int] = []
        run: list[KillerCage] = []  # consecutive summed cages: compiled in one go (the same propagators)
        for con in puzzle.constraints:
            if isinstance(con, KillerCage):  # its peer group is in ``cages``
                if type(con) is KillerCage and con.total is not None:
                    run.append(con)
                    continue
                if run:
                    model._cages(run)
                    run = []
                con.compile(model)
                continue
            if run:
                model._cages(run)
                run = []
            con.compile(model)
            groups = con.peer_groups(g)
            if groups:
                flat, sizes_of = _flat_groups(groups)
                group_cells.extend(flat)
                group_sizes.extend(sizes_of)
        if run:
            model._cages(run)
        for left, right in implied_equal_sums(puzzle.constraints):
            if len(left) == len(right) == 1:  # equal digits; longer implied sums cost more than they saved
                model.pair(left[0], right[0], ("equal",))
        model._thermo_groups(_shape(g).units)
        group_cells.extend(cages.cells)
        group_sizes.extend(cages.sizes)
        for cells, coefs, total, distinct in cages.innies_outies(g):
            if distinct:
                model.cage(cells, total)
            else:
                model._linear(cells, coefs, total)  # innies and outies: different cells
        # thermometers only: the Hall intervals instead of locked candidates (lines 79-81 1.5-1.8x faster)
        thermo = {K.T_THERMO, K.T_PAIR, K.T_ABOVE}  # what thermometers compile to
        steps = model._thermo_lines > 0 and model._types.count(K.T_PAIR) == model._thermo_pairs  # pairs: theirs
        only = steps and set(model._types) <= thermo
        model._halls(_shape(g).units, locked=not only)  # last: the propagators after ``_watched``: watched by none
        model._finish(g, group_sizes, group_cells)
        # with thermometers, the units' failures weigh their cells: givens-free thermometers 10-20x fewer nodes
        # (on every model: from 6x more to 3.5x fewer nodes a puzzle, docs/variants.md)
        model.unit_weights = model._thermo_lines > 0
        if only:
            model.places = K.PLACES_SUM  # thermometers only: branching on places proved the givens-free ones
        if (
            steps
            and model._renbans > 0
            and model._types.count(K.T_CAGE) == model._renbans
            and set(model._types) <= thermo | {K.T_HALL, K.T_CAGE}
        ):  # thermometers and renban lines, both and nothing else: probing the bounds at depth 0-2 (thermometers
            # alone: it cost more than it saved with the Hall intervals; docs/variants.md)
            model.probe = (0, 2)
        if g.size <= 9:
            model.restarts = K.RESTART_BASE  # restarts kept exact by nogoods: fewer nodes on the 9x9 corpus
        return model

    def _cages(self, cages: list[KillerCage]) -> None:
        """:meth:`cage` on each of ``cages`` (all with a sum)."""
        k = len(cages)
        size = self.size
        combos = [cage_combos(len(c.cage), c.total, size) for c in cages]  # type: ignore[arg-type]
        sizes = [len(c.cage) for c in cages]
        self._types.extend([K.T_CAGE] * k)
        self._sizes.extend(sizes)
        for c in cages:
            self._cells.extend(c.cage)
        self._coefs.extend([1] * sum(sizes))
        self._a.extend([0] * k)
        self._b.extend(self._matching(n) for n in sizes)
        self._aux_sizes.extend(map(len, combos))
        for combo in combos:
            self._aux.extend(combo)

    def _finish(self, g: Geometry, group_sizes: list[int], group_cells: list[int]) -> None:
        shape = _shape(g)
        sizes = np.array(self._sizes, dtype=np.int32)
        aux_sizes = np.array(self._aux_sizes, dtype=np.int32)
        cells = np.array(self._cells or [0], dtype=np.int32)
        if group_sizes:
            peers, n_peers, adj = _peer_tables(
                shape.adjacent, np.array(group_sizes, dtype=np.int64), np.array(group_cells, dtype=np.int64)
            )
        else:  # the geometry's own peers: shared by every puzzle on it (the kernel only reads them)
            if shape.peers is None:
                none = np.zeros(0, dtype=np.int64)
                shape.peers = _peer_tables(shape.adjacent, none, none)
            peers, n_peers, adj = shape.peers
        watched = self._watched if self._watched >= 0 else len(self._types)
        lo, hi, w_start, w_props = _watch_tables(g.n_cells, sizes, cells, watched)
        self._scratch = max(self._scratch, self.size * (adj.shape[1] + 1))  # locked candidates' boards, places
        self.start_array = np.array(self.start, dtype=np.int64)
        ahi = np.cumsum(aux_sizes, dtype=np.int32)
        alo = (ahi - aux_sizes).astype(np.int32)
        rel = _pair_tables(list(self._relations), self.size)
        self.arrays = (
            shape.units,
            peers,
            n_peers,
            w_start,
            w_props,
            np.array(self._types, dtype=np.int32),
            lo,
            hi,
            np.array(self._a, dtype=np.int64),
            np.array(self._b, dtype=np.int64),
            alo,
            ahi,
            cells,
            np.array(self._coefs or [0], dtype=np.int64),
            np.array(self._aux or [0], dtype=np.int64),
            rel,
            np.int64(g.all_mask),
            adj,
        )

    def keeps_units(self, row: np.ndarray) -> bool:
        """Whether a completed grid (digits by cell) holds every digit once in each unit and stays within
        the starting candidates (the givens, and unary rules such as odd/even): the unit part of checking a
        solution, compiled (:func:`_keeps_units`); the constraints are checked by their ``check`` methods."""
        return bool(_keeps_units(row, self.arrays[0], self.start_array))

    @property
    def scratch(self) -> int:
        """Words of scratch the propagators need (``buf``): the exact-sum rows of the largest linear rule
        (:func:`.solver_kernel._linear_exact`), a sandwich's words, the digits' boards of locked candidates."""
        return self._scratch

    @property
    def n_props(self) -> int:
        return len(self._types)


@functools.lru_cache(maxsize=512)
def _sandwich_sets(n: int, total: int) -> tuple[int, ...]:
    """The sets of the digits 2..n-1 that sum to ``total``, as masks (made once per clue value: 128 subsets
    of 2..8 on 9x9)."""
    inner = range(2, n)
    return tuple(
        sum(1 << (d - 1) for d in combo)
        for k in range(n - 1)
        for combo in itertools.combinations(inner, k)
        if sum(combo) == total
    )


#: Boards of up to this many digits get the pair relations as tables over whole candidate masks (``2 ** size``
#: entries each); larger ones per digit (:func:`_pair_tables`).
PAIR_MASKS_MOST = 9

_PAIR_TABLES: dict[tuple, np.ndarray] = {}


def _pair_tables(relations: list[tuple], size: int) -> np.ndarray:
    """The kernel's ``rel`` array for ``relations`` (in the order of their index), shape (n, 2, width).

    Up to :data:`PAIR_MASKS_MOST` digits, indexed by a whole mask: ``rel[t, 0, m]`` the digits cell b may hold
    when cell a holds one of the digits of ``m`` (the OR of the digits' rows), ``rel[t, 1, m]`` the reverse;
    width ``2 ** size``. Larger boards, indexed by a digit: ``rel[t, 0, x]`` (``rel[t, 1, y]``) for digit x
    (y), and index 0 is how many candidates a cell needs so that every digit of the other keeps a support
    (then that pass can narrow nothing): one more than the most digits of this cell any digit of the other
    has no support among; width ``size + 1``. The kernel tells them apart by the width."""
    masks = size <= PAIR_MASKS_MOST
    width = 1 << size if masks else size + 1
    rel = np.zeros((max(len(relations), 1), 2, width), dtype=np.int64)
    for t, relation in enumerate(relations):
        key = (relation, size, masks)
        table = _PAIR_TABLES.get(key)
        if table is None:
            forward, backward = pair_table(relation, size)
            table = np.zeros((2, width), dtype=np.int64)
            if masks:
                index = np.arange(width)
                for x in range(1, size + 1):
                    has = (index >> (x - 1)) & 1 == 1
                    table[0, has] |= forward[x]
                    table[1, has] |= backward[x]
            else:
                table[0] = forward
                table[1] = backward
                table[0, 0] = max(size - bin(backward[y]).count("1") for y in range(1, size + 1))
                table[1, 0] = max(size - bin(forward[x]).count("1") for x in range(1, size + 1))
            if len(_PAIR_TABLES) > 256:
                _PAIR_TABLES.clear()
            _PAIR_TABLES[key] = table
        rel[t] = table
    return rel


#: :func:`_flat_groups` of the peer groups a constraint hands out as one shared object (anti-knight, ...).
_SHARED_GROUPS: dict[int, tuple] = {}


def _flat_groups(groups) -> tuple[list[int], list[int]]:
    """A constraint's peer groups as (their cells one after another, each group's size)."""
    known = _SHARED_GROUPS.get(id(groups))
    if known is not None and known[0] is groups:
        return known[1], known[2]
    flat = [s for group in groups for s in group]
    sizes = [len(group) for group in groups]
    if isinstance(groups, tuple) and len(sizes) > 8:  # a cached table (lists are made anew each time)
        if len(_SHARED_GROUPS) > 64:
            _SHARED_GROUPS.clear()
        _SHARED_GROUPS[id(groups)] = (groups, flat, sizes)
    return flat, sizes


@njit(cache=True)
def _peer_tables(base, group_sizes, group_cells):
    """The peer tables of a puzzle: ``base`` the geometry's peer matrix (bool), the constraints' peer groups
    (cells that must all differ) as their sizes and their cells one after another. Returns (peers padded
    with -1, n_peers, the peer bit matrix)."""
    n_cells = base.shape[0]
    adjacent = base.copy()
    at = 0
    for k in range(group_sizes.shape[0]):
        end = at + group_sizes[k]
        for i in range(at, end):
            for j in range(i + 1, end):
                a = group_cells[i]
                b = group_cells[j]
                adjacent[a, b] = True
                adjacent[b, a] = True
        at = end
    n_peers = np.zeros(n_cells, dtype=np.int32)
    words = (n_cells + 63) // 64
    adj = np.zeros((n_cells, words), dtype=np.uint64)
    for s in range(n_cells):
        for p in range(n_cells):
            if adjacent[s, p]:
                n_peers[s] += 1
                adj[s, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    width = 1
    for s in range(n_cells):
        width = max(width, n_peers[s])
    peers = np.full((n_cells, width), -1, dtype=np.int32)
    for s in range(n_cells):
        k = 0
        for p in range(n_cells):
            if adjacent[s, p]:
                peers[s, k] = p
                k += 1
    return peers, n_peers, adj


@njit(cache=True)
def _watch_tables(n_cells, sizes, cells, watched):
    """The propagators' tables: ``sizes`` their cell counts and ``cells`` their cells one after another.
    Returns (each propagator's first and end index into ``cells``, the watch lists as CSR: w_start,
    w_props); only the first ``watched`` propagators are in the watch lists."""
    n = sizes.shape[0]
    lo = np.zeros(n, dtype=np.int32)
    hi = np.zeros(n, dtype=np.int32)
    at = 0
    for i in range(n):
        lo[i] = at
        at += sizes[i]
        hi[i] = at
    # watch lists: for each cell the propagators reading it (each once), by cell then propagator
    last = np.full(n_cells, -1, dtype=np.int32)
    w_start = np.zeros(n_cells + 1, dtype=np.int32)
    for i in range(watched):
        for j in range(lo[i], hi[i]):
            s = cells[j]
            if last[s] != i:
                last[s] = i
                w_start[s + 1] += 1
    for s in range(n_cells):
        w_start[s + 1] += w_start[s]
    w_props = np.zeros(max(w_start[n_cells], 1), dtype=np.int32)
    fill = w_start[:n_cells].copy()
    last[:] = -1
    for i in range(watched):
        for j in range(lo[i], hi[i]):
            s = cells[j]
            if last[s] != i:
                last[s] = i
                w_props[fill[s]] = i
                fill[s] += 1
    return lo, hi, w_start, w_props


@njit(cache=True)
def _keeps_units(row, units, start):
    """Whether digits ``row`` (by cell) fill each of ``units`` with different digits 1..n (n the unit size)
    and each cell's digit is one of its ``start`` candidates."""
    n = units.shape[1]
    full = (np.int64(1) << n) - 1
    for c in range(row.shape[0]):
        d = np.int64(row[c])
        if d < 1 or d > n or not (start[c] >> (d - 1)) & 1:
            return False
    for u in range(units.shape[0]):
        seen = np.int64(0)
        for k in range(n):
            seen |= np.int64(1) << (np.int64(row[units[u, k]]) - 1)
        if seen != full:
            return False
    return True


@dataclass
class _Shape:
    """What every puzzle on one geometry shares: units, the peer matrix, the regions innies/outies use."""

    units: np.ndarray  #: (n_units, size) int32
    adjacent: np.ndarray  #: (n_cells, n_cells) bool: the geometry's peers
    region_start: np.ndarray  #: (n_regions + 1,) CSR into ``region_cells``: single units, then runs of
    region_cells: np.ndarray  #: consecutive rows, then of consecutive columns
    counts: np.ndarray  #: (n_regions,) how many units each region is
    peers: tuple | None = None  #: :func:`_peer_tables` of the geometry alone (made when first needed)
    cell_units: list | None = None  #: each cell's units (indices into ``units``; :meth:`Model._groups`)


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
        start = np.zeros(len(regions) + 1, dtype=np.int64)
        start[1:] = np.cumsum([len(r) for r in regions])
        flat = np.array([s for r in regions for s in r], dtype=np.int64)
        shape = _SHAPES[g] = _Shape(units, adjacent, start, flat, np.array(counts, dtype=np.int64))
        shape.cell_units = [[] for _ in range(g.n_cells)]
        for index, unit in enumerate(units.tolist()):
            for s in unit:
                shape.cell_units[s].append(index)
    return shape


#: Innie/outie sums with more cells than this are left out (too weak to pay for their propagation).
MOST_INNIES_OUTIES = 6


def innies_outies(puzzle: VariantPuzzle) -> list[tuple[list[int], list[int], int, bool]]:
    """The killer solvers' innies and outies as sums ``(cells, coefficients, total, distinct)``: for a set R of
    disjoint units (one unit, or consecutive rows, or consecutive columns) holding each digit ``k`` times, the
    summed cages C meeting R give ``sum(R - cells of C) - sum(cells of C - R) = k * (1 + .. + n) - sum(totals
    of C)``. Sound whenever every cage meeting R has a sum (``distinct``: innies only, in one unit, so a cage
    of different digits). Kept when the innies and outies are at most :data:`MOST_INNIES_OUTIES` cells, each
    sum once (the first region that gives it); none when cages overlap."""
    return _Cages.of(puzzle).innies_outies(puzzle.geometry)


@dataclass
class _Cages:
    """A puzzle's killer cages (with or without a sum) as flat lists: their cells one after another, each
    cage's size and total (-1: no sum)."""

    cells: list[int]
    sizes: list[int]
    totals: list[int]

    @classmethod
    def of(cls, puzzle: VariantPuzzle) -> _Cages:
        cages = [c for c in puzzle.constraints if isinstance(c, KillerCage)]
        return cls(
            [s for c in cages for s in c.cage],
            [len(c.cage) for c in cages],
            [-1 if c.total is None else c.total for c in cages],
        )

    def innies_outies(self, g: Geometry) -> list[tuple[list[int], list[int], int, bool]]:
        """:func:`innies_outies` of these cages on ``g``."""
        if not self.totals:
            return []
        shape = _shape(g)
        n_out, lengths, n_inside, out_totals, distinct, out_cells = _innies(
            shape.region_start,
            shape.region_cells,
            shape.counts,
            g.n_cells,
            np.array(self.sizes, dtype=np.int64),
            np.array(self.cells, dtype=np.int64),
            np.array(self.totals, dtype=np.int64),
            g.size * (g.size + 1) // 2,
            MOST_INNIES_OUTIES,
        )
        out = []
        flat = out_cells.tolist()
        at = 0
        for k, n_in, total, one in zip(
            lengths[:n_out].tolist(), n_inside[:n_out].tolist(), out_totals[:n_out].tolist(), distinct[:n_out].tolist()
        ):
            out.append((flat[at : at + k], [1] * n_in + [-1] * (k - n_in), total, one))
            at += k
        return out


@njit(cache=True)
def _innies(region_start, region_cells, counts, n_cells, cage_sizes, cage_cells, totals, full, most):
    """The core of :func:`innies_outies` over the regions of :class:`_Shape` and the cages (their sizes and
    cells one after another, ``totals`` -1 for a cage without a sum). Returns (number of sums, each sum's cell
    count, its innies count, its total, whether it is ``distinct``, and the cells of all sums one after
    another, innies first); no sums when cages overlap."""
    n_regions = counts.shape[0]
    n_cages = totals.shape[0]
    cage_start = np.zeros(n_cages + 1, dtype=np.int64)
    owner = np.full(n_cells, -1, dtype=np.int64)
    for i in range(n_cages):
        cage_start[i + 1] = cage_start[i] + cage_sizes[i]
        for j in range(cage_start[i], cage_start[i + 1]):
            s = cage_cells[j]
            if owner[s] >= 0:  # overlapping cages: a cell's digit would count in two totals
                return 0, cage_start, cage_start, cage_start, np.zeros(1, dtype=np.bool_), cage_cells[:0]
            owner[s] = i
    inner = np.zeros(n_cells, dtype=np.bool_)
    met = np.zeros(n_cages, dtype=np.bool_)
    hit = np.zeros(n_cages, dtype=np.int64)
    lengths = np.zeros(n_regions, dtype=np.int64)
    n_inside = np.zeros(n_regions, dtype=np.int64)
    out_totals = np.zeros(n_regions, dtype=np.int64)
    distinct = np.zeros(n_regions, dtype=np.bool_)
    starts = np.zeros(n_regions + 1, dtype=np.int64)
    out_cells = np.zeros(n_regions * most + 1, dtype=np.int64)
    n_out = 0
    for r in range(n_regions):
        a = region_start[r]
        b = region_start[r + 1]
        n_hit = 0
        n_in = 0
        summed = True
        for j in range(a, b):
            s = region_cells[j]
            inner[s] = True
            o = owner[s]
            if o < 0:
                n_in += 1
            elif not met[o]:
                met[o] = True
                hit[n_hit] = o
                n_hit += 1
                if totals[o] < 0:
                    summed = False
        n_outside = 0
        total = full * counts[r]
        for h in range(n_hit):
            o = hit[h]
            total -= totals[o]
            for j in range(cage_start[o], cage_start[o + 1]):
                if not inner[cage_cells[j]]:
                    n_outside += 1
        k = n_in + n_outside
        if summed and 0 < k <= most:
            at = starts[n_out]
            for j in range(a, b):
                s = region_cells[j]
                if owner[s] < 0:
                    out_cells[at] = s
                    at += 1
            hits = np.sort(hit[:n_hit])  # the cages in the order they were given
            for h in range(n_hit):
                o = hits[h]
                for j in range(cage_start[o], cage_start[o + 1]):
                    s = cage_cells[j]
                    if not inner[s]:
                        out_cells[at] = s
                        at += 1
            new = True
            for q in range(n_out):  # each sum once
                if lengths[q] != k or n_inside[q] != n_in or out_totals[q] != total:
                    continue
                same = True
                for i in range(k):
                    if out_cells[starts[q] + i] != out_cells[starts[n_out] + i]:
                        same = False
                        break
                if same:
                    new = False
                    break
            if new:
                lengths[n_out] = k
                n_inside[n_out] = n_in
                out_totals[n_out] = total
                distinct[n_out] = n_outside == 0 and counts[r] == 1  # innies of one unit only
                starts[n_out + 1] = at
                n_out += 1
        for j in range(a, b):
            inner[region_cells[j]] = False
        for h in range(n_hit):
            met[hit[h]] = False
    return n_out, lengths, n_inside, out_totals, distinct, out_cells[: starts[n_out]]


@dataclass
class Run:
    """The outcome of one kernel search: status code, count, stored solutions, [guesses, nodes, backtracks,
    restarts]."""

    status: int
    count: int
    solutions: np.ndarray
    stats: np.ndarray


class _Scratch(threading.local):
    """The search's work arrays, kept between runs (per thread) and grown when a puzzle needs more: the
    kernel sets every entry it reads before reading it."""

    def __init__(self) -> None:
        self.n_cells = -1
        self.n_props = -1
        self.cells: tuple = ()
        self.props: tuple = ()
        self.buf = np.zeros(0, dtype=np.uint64)
        self.learn: tuple = ()
        self.nogoods = (  # the restarts' nogood store (:func:`.solver_kernel.search`)
            np.zeros(K.NG_LITS, dtype=np.int32),
            np.zeros((K.NG_MAX, 4), dtype=np.int32),
            np.zeros(2 * K.NG_MAX, dtype=np.int32),
        )

    def get(self, n_cells: int, n_props: int, words: int) -> tuple:
        if n_cells != self.n_cells:
            self.n_cells = n_cells
            self.cells = (
                np.zeros((n_cells + 1, n_cells), dtype=np.int64),
                np.zeros((n_cells + 1, n_cells), dtype=np.uint8),
                np.zeros(n_cells + 1, dtype=np.int32),
                np.zeros(n_cells + 1, dtype=np.int64),
            )
            self.spots = (
                np.zeros(n_cells, dtype=np.int32),
                np.zeros(n_cells + 1, dtype=np.int32),
                np.zeros(n_cells, dtype=np.uint8),
            )
            self.learn = (
                np.zeros((3, n_cells + 1), dtype=np.int64),
                np.zeros(n_cells, dtype=np.int32),
                np.zeros(n_cells, dtype=np.int64),
            )
        if n_props != self.n_props:  # the propagator ring's size is its capacity: exactly n_props + 1
            self.n_props = n_props
            self.props = (np.zeros(n_props + 1, dtype=np.int32), np.zeros(max(n_props, 1), dtype=np.uint8))
        if self.buf.shape[0] < words:
            self.buf = np.zeros(words, dtype=np.uint64)
        # the exact-sum rows are skipped when they do not fit: hand over exactly ``words`` of them
        buf = self.buf if self.buf.shape[0] == words else self.buf[:words]
        return (*self.cells, buf, *self.spots, *self.props)

    def nogood_store(self) -> tuple:
        """The search's decisions by level, then the nogood store (``st_dec``, ``ng_lits``, ``ng_meta``,
        ``wnext``, ``whead``, ``mark``); call after :meth:`get`."""
        st_dec, whead, mark = self.learn
        return (st_dec, *self.nogoods, whead, mark)


_SCRATCH = _Scratch()


def run(model: Model, limit: int, budget: int = 0, keep: int = 2, probe_after: int | None = None,
        probe_depth: int | None = None, wdeg_after: int = K.WDEG_AFTER,
        places: int | None = None, restart_base: int | None = None,
        probe_bounds: bool | None = None) -> Run:  # fmt: skip
    """Search ``model`` for up to ``limit`` solutions (``budget`` in clock ticks, 0 = none), keeping the
    first ``keep`` of them; branching by failure weight once ``wdeg_after`` nodes were visited, nodes at depth
    up to ``probe_depth`` probed once ``probe_after`` nodes were visited (each cell's bounds only with
    ``probe_bounds``; the three default to the model's choice, ``Model.probe``, else no probing), branching
    on a digit's places as ``places`` says (default: the model's choice; :func:`.solver_kernel.search`)."""
    n_cells = model.n_cells
    sols = np.zeros((max(keep, 1), n_cells), dtype=np.uint8)
    stats = np.zeros(4, dtype=np.int64)
    status, count = K.search(  # type: ignore[call-arg]  # numba's Dispatcher stub
        model.start_array,
        *model.arrays,
        limit,
        budget,
        wdeg_after,
        probe_after if probe_after is not None else model.probe[0] if model.probe else K.PROBE_AFTER,
        probe_depth if probe_depth is not None else model.probe[1] if model.probe else K.PROBE_DEPTH,
        (model.probe is not None and probe_depth is None) if probe_bounds is None else probe_bounds,
        model.places if places is None else places,
        model.restarts if restart_base is None else restart_base,
        sols,
        stats,
        *_SCRATCH.get(n_cells, model.n_props, model.scratch),
        np.zeros(4, dtype=np.int64),
        np.zeros(model.n_props + n_cells + (model.arrays[0].shape[0] if model.unit_weights else 0), dtype=np.int64),
        *_SCRATCH.nogood_store(),
    )
    return Run(int(status), int(count), sols[: min(int(count), keep)], stats)
