"""Peter Norvig's solver: propagate on every assignment, then depth-first search; and his difficulty level.

Following ``seeds/norvig-solver-python3-commentary-ja.md`` (the listing at its end), on any geometry:

- :func:`assign` puts digit ``d`` in cell ``s`` by eliminating every other candidate of ``s``;
- :func:`eliminate` removes ``d`` from ``s`` and propagates with two rules:
  (1) a cell reduced to one digit removes that digit from its peers (rule ``norvig:peers``);
  (2) a unit with one place left for a digit puts it there (rule ``norvig:unit``);
- :func:`parse_grid` assigns the givens; :func:`search` tries the candidates of the cell with the fewest.

``values`` is a list of candidate bitmasks, one per cell, where Norvig has a dict of digit strings. Failure
is a value, as in the original: ``assign`` and ``eliminate`` return ``False`` on a contradiction.

:func:`level` is the measure the commentary reports: the product of the candidate counts after
:func:`parse_grid`, as a power of ten (1.7e+25 -> 25 for Inkala's 2006 puzzle).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sudokit.geometry import Geometry
from sudokit.grid import Grid, digits_of
from sudokit.methods.runner import Budget
from sudokit.methods.trace import SILENT, Recorder, Trace

Values = list[int]


def assign(values: Values, s: int, d: int, g: Geometry, rec: Recorder = SILENT, rule: str = "given") -> bool:
    """Eliminate every digit but ``d`` from cell ``s`` and propagate; False on a contradiction."""
    if rec.on and values[s] != 1 << (d - 1):
        rec.note("assign", s, d, rule)
    others = values[s] & ~(1 << (d - 1))
    return all(eliminate(values, s, d2, g, rec, rule) for d2 in digits_of(others))


def eliminate(values: Values, s: int, d: int, g: Geometry, rec: Recorder = SILENT, rule: str = "") -> bool:
    """Remove ``d`` from cell ``s``; propagate when a cell or a unit is down to one place. False on a contradiction.

    ``rule`` names why ``d`` goes: ``norvig:peers`` when a peer of ``s`` was reduced to ``d`` (rule 1); else
    :func:`assign` is clearing the other digits of ``s`` itself, which its own event already records.
    """
    bit = 1 << (d - 1)
    if not values[s] & bit:
        return True  # already eliminated
    values[s] &= ~bit
    left = values[s]
    if left == 0:
        rec.note("fail", s, d, rule)
        return False  # contradiction: removed the last candidate
    from_peer = rule == "norvig:peers"  # else ``assign`` is clearing cell s itself, already recorded
    if rec.on and from_peer:
        rec.note("eliminate", s, d, rule)
    # (1) a cell reduced to one digit d2: eliminate d2 from its peers
    if left & (left - 1) == 0:
        d2 = left.bit_length()
        if from_peer:
            rec.note("assign", s, d2, rule)
        if not all(eliminate(values, p, d2, g, rec, "norvig:peers") for p in g.peers[s]):
            return False
    # (2) a unit with a single place left for d: put it there
    for u in g.units_of[s]:
        places = [c for c in g.units[u] if values[c] & bit]
        if not places:
            rec.note("fail", None, d, "norvig:unit")
            return False  # contradiction: no place for d in this unit
        if len(places) == 1 and values[places[0]] != bit and not assign(values, places[0], d, g, rec, "norvig:unit"):
            return False
    return True


@contextmanager
def _deep_recursion(cells: int):
    """Room for propagation chains: ``eliminate`` and ``assign`` call each other once per step of a chain."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 40 * cells + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def parse_grid(puzzle: Grid, rec: Recorder = SILENT) -> Values | None:
    """Candidates after assigning the givens with propagation; ``None`` if a contradiction shows up."""
    g = puzzle.geometry
    values = [g.all_mask] * g.n_cells
    with _deep_recursion(g.n_cells):
        for s, d in enumerate(puzzle.values):
            if d and not assign(values, s, d, g, rec, "given"):
                return None
    return values


def search(values: Values | None, g: Geometry, budget: Budget, rec: Recorder = SILENT) -> Iterator[Values]:
    """Depth-first search with propagation: try each candidate of the unsolved cell with the fewest
    candidates (the first such cell in reading order). Yields every solution."""
    budget.node()
    if values is None:
        budget.backtracks += 1
        return
    unsolved = [s for s, m in enumerate(values) if m & (m - 1)]
    if not unsolved:
        rec.note("solved")
        yield values
        return
    s = min(unsolved, key=lambda c: (values[c].bit_count(), c))
    child = rec.deeper()
    digits = digits_of(values[s])
    for i, d in enumerate(digits):
        budget.branch(i, len(digits))
        rec.note("guess", s, d, "search")
        attempt = list(values)
        with _deep_recursion(g.n_cells):
            ok = assign(attempt, s, d, g, child, "search")
        yield from search(attempt if ok else None, g, budget, child)
        rec.note("backtrack", s, d, "search")


def solutions(puzzle: Grid, budget: Budget, trace: Trace | None = None) -> Iterator[tuple[int, ...]]:
    """Every solution of ``puzzle`` by this method, as digit tuples (for :func:`sudokit.methods.runner.run`)."""
    rec = Recorder(trace)
    for values in search(parse_grid(puzzle, rec), puzzle.geometry, budget, rec):
        yield tuple(m.bit_length() for m in values)


def propagate(puzzle: Grid) -> Values | None:
    """Candidates after the givens are assigned with propagation: the "after propagation" stage."""
    return parse_grid(puzzle)


@dataclass(frozen=True)
class Level:
    """Norvig's difficulty measure for one puzzle."""

    squares: int  #: number of givens
    product: int  #: product of the candidate counts after initial propagation (0 on a contradiction)

    @property
    def log10(self) -> float:
        """``log10(product)``; infinite (-inf) when propagation found a contradiction."""
        return math.log10(self.product) if self.product else -math.inf

    @property
    def exponent(self) -> int | None:
        """The power of ten the commentary reports (1.7e+25 -> 25); None on a contradiction."""
        return len(str(self.product)) - 1 if self.product else None

    def __str__(self) -> str:
        shown = f"{self.product:.1e}" if self.product else "contradiction"
        return f"squares = {self.squares}\nlevel = {shown}"


def level(puzzle: Grid) -> Level:
    """Norvig's level of ``puzzle``: the product of candidate counts once the givens are propagated."""
    values = parse_grid(puzzle)
    product = 0 if values is None else math.prod(m.bit_count() for m in values)
    return Level(puzzle.givens, product)
