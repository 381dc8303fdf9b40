"""The solving state: a grid's values plus a candidate bitmask per empty cell.

Candidate masks use the foundation's layout (bit ``d-1`` = digit ``d``); a solved cell has mask 0,
so "cells where digit d may go" never includes placed cells. Steps change the state only through
:meth:`State.apply`, which places digits and removes them from peers, or removes candidates.

A variant puzzle's state (:meth:`State.from_variant`) carries two things more, and nothing else changes: its
geometry's peers also hold the cells the constraints keep apart (killer cages, renban lines, anti-knight, ...;
:func:`sudokit.geometry.with_peers`), so singles, subsets, chains and forcing chains see them like any peer;
and ``constraints``, the puzzle's rules, which the variant techniques (``logic/cages.py``,
``logic/variant_rules.py``) read.

``givens`` is the set of cells the puzzle gave, set when a puzzle is loaded (:meth:`State.from_grid`: every
filled cell) and kept through copies; pencil marks (:meth:`State.from_marks`, :meth:`State.from_candidates`)
have no known givens (None). The avoidable rectangles (``logic/avoidable.py``) need it: only a cell solved
on the way, not a given, may take part in their deadly pattern.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache, reduce
from operator import or_
from typing import TYPE_CHECKING

from sudokit.geometry import Geometry, with_peers
from sudokit.grid import Candidates, Grid

if TYPE_CHECKING:
    from sudokit.constraints import Constraint, VariantPuzzle
from sudokit.grid import digits_of as _digits_of

#: ``digits_of`` memoised: techniques convert the same few masks millions of times (tuples are immutable).
digits_of = lru_cache(maxsize=1 << 17)(_digits_of)


@lru_cache(maxsize=64)
def source_units(g: Geometry, lines: bool) -> tuple[int, ...]:
    """The rows then the columns (``lines``), or every other unit in number order: the units a single or a
    locked-candidates search starts from."""
    if lines:
        return tuple(g.rows) + tuple(g.cols)
    kept = set(g.rows) | set(g.cols)
    return tuple(u for u in range(len(g.units)) if u not in kept)


class State:
    """Values and candidates of a grid being solved by logic."""

    __slots__ = ("g", "values", "cands", "_pos", "_stale", "memo", "constraints", "givens")

    def __init__(
        self,
        g: Geometry,
        values: list[int],
        cands: list[int],
        constraints: tuple[Constraint, ...] = (),
        givens: frozenset[int] | None = None,
    ) -> None:
        self.g = g
        self.values = values
        self.cands = cands
        #: a variant puzzle's rules beyond units and peers (empty for a classic grid)
        self.constraints = constraints
        #: the cells the puzzle gave, or None when not known (pencil marks)
        self.givens = givens
        self._pos: list[list[list[int]]] | None = None  # [unit][digit] -> cells, rebuilt after a change
        #: a table built before the last steps, the candidates it was built for and the cells changed since
        #: (:meth:`apply`): brought up to date when next asked for
        self._stale: tuple[list[list[list[int]]], list[int], set[int]] | None = None
        #: work shared by techniques on this very state (e.g. one chain graph for X-chains, XY-chains and
        #: AICs); emptied by every change, like the positions table
        self.memo: dict = {}

    @classmethod
    def from_grid(cls, grid: Grid) -> State:
        """The state of a puzzle: each empty cell's candidates are the digits no peer holds."""
        g = grid.geometry
        values = list(grid.values)
        cands = [0] * g.n_cells
        for s, v in enumerate(values):
            if not v:
                seen = 0
                for p in g.peers[s]:
                    if values[p]:
                        seen |= 1 << (values[p] - 1)
                cands[s] = g.all_mask & ~seen
        return cls(g, values, cands, givens=frozenset(s for s, v in enumerate(values) if v))

    @classmethod
    def from_variant(cls, puzzle: VariantPuzzle) -> State:
        """The state of a variant puzzle: its givens on a geometry whose peers include the constraints' extra
        peers, each empty cell's candidates the digits no peer holds, and the constraints. Nothing else is
        narrowed: what a constraint removes is a step of its own (a cage's combinations, a thermometer's
        bounds, ...)."""
        base = puzzle.geometry
        g = with_peers(base, (pair for con in puzzle.constraints for pair in con.peer_pairs(base)))
        state = cls.from_grid(Grid(g, puzzle.givens.values))
        state.constraints = tuple(puzzle.constraints)
        return state

    @classmethod
    def from_candidates(
        cls, g: Geometry, values: list[int], cands: list[int], givens: frozenset[int] | None = None
    ) -> State:
        """A state with given candidate masks (pencil marks); masks of placed cells are ignored. ``givens``:
        the puzzle's given cells when known (None: unknown)."""
        return cls(g, list(values), [0 if v else m for v, m in zip(values, cands)], givens=givens)

    @classmethod
    def from_marks(cls, candidates: Candidates) -> State:
        """The state of a grid given by its pencil marks (a pencilmark line, a candidate grid): a cell with one
        mark that no peer shares is placed; every other cell keeps exactly its marks. A cell down to one mark
        that a peer still shows (a naked single not yet played) stays open, so the marks are the state."""
        g, masks = candidates.geometry, candidates.masks
        values = [0] * g.n_cells
        for s, m in enumerate(masks):
            if m and not m & (m - 1) and not any(masks[p] & m for p in g.peers[s]):
                values[s] = m.bit_length()
        return cls.from_candidates(g, values, list(masks))

    def copy(self) -> State:
        new = State.__new__(State)
        new.g, new.values, new.cands, new._pos, new._stale, new.memo, new.constraints, new.givens = (
            self.g,
            self.values[:],
            self.cands[:],
            None,
            None,
            {},
            self.constraints,
            self.givens,
        )
        return new

    # ---- queries ------------------------------------------------------------------------------
    def label(self, cell: int) -> str:
        return self.g.label(cell)

    def sym(self, d: int) -> str:
        """Digit ``d`` as the board writes it: ``5``, or ``C`` for 12 on a 16x16 board."""
        return self.g.symbols[d - 1]

    def unit_name(self, u: int) -> str:
        return self.g.unit_names[u]

    def positions(self, u: int, d: int) -> list[int]:
        """Empty cells of unit ``u`` where digit ``d`` is still a candidate (cached until the next change;
        code that writes ``cands`` directly must call :meth:`changed`)."""
        table = self._pos
        if table is None:
            table = self._table()
        return table[u][d]

    def places(self, u: int, d: int) -> list[int]:
        """:meth:`positions` for one look-up, without building the whole table when it is not built (a
        technique writing out the one finding its kernel returned needs a unit or two, not the table)."""
        table = self._pos
        if table is not None:
            return table[u][d]
        bit, c = 1 << (d - 1), self.cands
        return [s for s in self.g.units[u] if c[s] & bit]

    def positions_table(self) -> list[list[list[int]]]:
        """``positions`` for every unit and digit at once: ``table[u][d]`` (do not modify; saves a call per
        look-up in the techniques' inner loops)."""
        table = self._pos
        if table is None:
            table = self._table()
        return table

    def _table(self) -> list[list[list[int]]]:
        """The positions table, made: from a table of a few steps ago when there is one (less every candidate
        removed since), else from scratch."""
        stale = self._stale
        if stale is not None:
            self._stale = None
            table = self._pos = self._positions_without(*stale)
        else:
            table = self._pos = self._positions_table()
        return table

    def _positions_table(self) -> list[list[list[int]]]:
        c = self.cands
        n = self.g.size
        table = []
        for unit in self.g.units:
            row: list[list[int]] = [[] for _ in range(n + 1)]
            for s in unit:
                m = c[s]
                if m:
                    for d in digits_of(m):
                        row[d].append(s)
            table.append(row)
        return table

    def changed(self) -> None:
        """Forget cached positions (and shared work) after writing ``values`` or ``cands`` directly."""
        self._pos = None
        self._stale = None
        if self.memo:
            self.memo = {}

    def placed_in(self, u: int, d: int) -> bool:
        vals = self.values
        return any(vals[s] == d for s in self.g.units[u])

    def digits(self, cell: int) -> tuple[int, ...]:
        return digits_of(self.cands[cell])

    def empty_cells(self) -> list[int]:
        vals = self.values
        return [s for s in range(self.g.n_cells) if not vals[s]]

    def is_solved(self) -> bool:
        return all(self.values)

    def is_broken(self) -> bool:
        """True when an empty cell has no candidate or a digit has no place left in a unit."""
        # per cell: its candidates, or the bit of its digit once placed (placed cells have no candidates)
        bits = [1 << (v - 1) if v else m for v, m in zip(self.values, self.cands)]
        if 0 in bits:
            return True
        full, get = self.g.all_mask, bits.__getitem__
        return any(reduce(or_, map(get, unit)) != full for unit in self.g.units)

    def to_grid(self) -> Grid:
        return Grid(self.g, tuple(self.values))

    # ---- changes ------------------------------------------------------------------------------
    def place(self, cell: int, d: int) -> None:
        """Put ``d`` in ``cell`` and remove it from the cell's peers."""
        self.changed()
        self.values[cell] = d
        self.cands[cell] = 0
        off = ~(1 << (d - 1))
        c = self.cands
        for p in self.g.peers[cell]:
            c[p] &= off

    def eliminate(self, cell: int, d: int) -> None:
        self.changed()
        self.cands[cell] &= ~(1 << (d - 1))

    def apply(self, step) -> list[int]:
        """Carry out a step's placements and eliminations and return the cells whose value or candidates
        changed (for :meth:`broken_at`). A positions table already built is kept with the cells the steps change,
        to be brought up to date rather than rebuilt when next asked for (a step removes a few candidates; most
        states are done with by searches that read no table)."""
        pos, stale = self._pos, self._stale
        before = self.cands[:]
        reach: list[int] = []
        peers = self.g.peers
        for cell, d in step.placements:
            if not self.values[cell]:
                self.place(cell, d)
                reach.append(cell)
                reach.extend(peers[cell])
        for cell, d in step.eliminations:
            self.eliminate(cell, d)
            reach.append(cell)
        after = self.cands
        changed = [s for s in dict.fromkeys(reach) if before[s] != after[s]]
        if pos is not None:
            self._stale = (pos, before, set(changed))
        elif stale is not None:
            stale[2].update(changed)
            self._stale = stale
        return changed

    def broken_at(self, cells: list[int]) -> bool:
        """:meth:`is_broken` for a state that was not broken before ``cells`` changed (what :meth:`apply`
        returns): only those cells and their units can have become broken."""
        values, cands, units, units_of = self.values, self.cands, self.g.units, self.g.units_of
        touched: set[int] = set()
        for s in cells:
            if not values[s] and not cands[s]:
                return True
            touched.update(units_of[s])
        full = self.g.all_mask
        for u in touched:
            seen = 0
            for s in units[u]:
                v = values[s]
                seen |= 1 << (v - 1) if v else cands[s]
            if seen != full:
                return True
        return False

    def _positions_without(
        self, pos: list[list[list[int]]], before: list[int], changed: Iterable[int]
    ) -> list[list[list[int]]]:
        """``pos`` (the table for candidates ``before``) less every candidate removed since from the cells
        ``changed``, as new lists: the old table may still be held elsewhere and is left as it was."""
        units_of, cands = self.g.units_of, self.cands
        table = pos[:]
        fresh = set()
        for s in changed:
            gone = before[s] & ~cands[s]
            if not gone:
                continue
            for u in units_of[s]:
                row = table[u]
                if u not in fresh:
                    row = table[u] = row[:]
                    fresh.add(u)
                for d in digits_of(gone):
                    row[d] = [x for x in row[d] if x != s]
        return table
