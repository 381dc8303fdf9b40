"""The Udacity AIND Sudoku project: eliminate, only choice, naked twins, reduce, then search.

The strategies follow the notebook (``seeds/udacity-aind-sudoku-notebook.md``) and the diagonal-Sudoku
write-up (``seeds/diagonal-sudoku-naked-twins.md``), on any :class:`~sudokit.geometry.Geometry`: diagonal
Sudoku is simply the diagonal geometry, whose two extra units every strategy then respects.

``values`` is a list with one candidate bitmask per cell (bit ``d-1`` for digit ``d``), where the notebook
has a dict of digit strings. A cell with one candidate is *solved*; a cell with none is a contradiction.
Every function that can meet a contradiction returns ``None`` for it (the notebook's ``False``).

Where the notebook is subtly wrong, this module is not: see :func:`naked_twins`.
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokit.geometry import Geometry
from sudokit.grid import Grid, digits_of
from sudokit.methods.runner import Budget
from sudokit.methods.trace import SILENT, Recorder, Trace

Values = list[int]


def _single(mask: int) -> bool:
    """True when ``mask`` holds exactly one digit."""
    return mask != 0 and mask & (mask - 1) == 0


def grid_values(puzzle: Grid) -> Values:
    """Candidates before any strategy: a given is its own digit, an empty cell may be any digit."""
    full = puzzle.geometry.all_mask
    return [1 << (v - 1) if v else full for v in puzzle.values]


def _set(values: Values, cell: int, mask: int, rule: str, rec: Recorder) -> None:
    """Narrow a cell to ``mask``, recording the eliminations and, once one digit is left, the assignment
    (the seed's ``assign_value`` history)."""
    if rec.on:
        for d in digits_of(values[cell] & ~mask):
            rec.note("eliminate", cell, d, rule)
        if _single(mask):
            rec.note("assign", cell, mask.bit_length(), rule)
    values[cell] = mask


def eliminate(values: Values, geometry: Geometry, rec: Recorder = SILENT) -> Values:
    """Strategy 1: remove the digit of every solved cell from its peers.

    Like the notebook, the solved cells are the ones solved when the pass starts; cells solved during the
    pass are used by the next pass of :func:`reduce_puzzle`.
    """
    solved = [s for s, m in enumerate(values) if _single(m)]
    for s in solved:
        bit = values[s]
        for p in geometry.peers[s]:
            if values[p] & bit:
                _set(values, p, values[p] & ~bit, "eliminate", rec)
    return values


def _alone(values: Values, unit: tuple[int, ...]) -> int:
    """The digits (as a mask) that fit in exactly one cell of ``unit``, leaving out solved cells' digits."""
    once = twice = solved = 0
    for s in unit:
        m = values[s]
        twice |= once & m
        once |= m
        if m & (m - 1) == 0:
            solved |= m
    return once & ~twice & ~solved


def only_choice(values: Values, geometry: Geometry, rec: Recorder = SILENT) -> Values:
    """Strategy 2: a digit that fits in only one cell of a unit goes there.

    Units are visited in order and, within a unit, digits from 1 up, each on the candidates as they are by
    then, as in the notebook (placing one digit can leave a later digit with a single place).
    """
    for unit in geometry.units:
        alone = _alone(values, unit)
        while alone:
            bit = alone & -alone  # the smallest digit left to look at
            s = next(c for c in unit if values[c] & bit)
            if values[s] != bit:
                _set(values, s, bit, "only_choice", rec)
                alone = _alone(values, unit) & ~(2 * bit - 1)  # the larger digits, looked at afresh
            else:
                alone ^= bit
    return values


def find_twins(values: Values, geometry: Geometry) -> list[tuple[int, int, int]] | None:
    """Every naked pair as ``(unit index, cell a, cell b)``: two cells of one unit with the same two candidates.

    Returns ``None`` when three or more cells of a unit share the same two candidates: those cells cannot
    all be filled, a contradiction.
    """
    pairs = {s for s, m in enumerate(values) if m.bit_count() == 2}
    twins: list[tuple[int, int, int]] = []
    if len(pairs) < 2:
        return twins
    for u, unit in enumerate(geometry.units):
        by_pair: dict[int, list[int]] = {}
        for s in unit:
            if s in pairs:
                by_pair.setdefault(values[s], []).append(s)
        for cells in by_pair.values():
            if len(cells) > 2:
                return None
            if len(cells) == 2:
                twins.append((u, cells[0], cells[1]))
    return twins


def naked_twins(values: Values, geometry: Geometry, rec: Recorder = SILENT) -> Values | None:
    """Strategy 3: two cells of one unit with the same two candidates take both digits, so the *other* cells
    of *that* unit lose them.

    The twins are all found first, on the candidates as given, and only then are their digits removed, so
    the result does not depend on the order the units are visited in. (The notebook's version edits the
    grid while it scans, so pairs created during the scan are acted on in some unit orders and not others;
    it also ignores a unit where three cells share one pair, which is a contradiction and returns ``None``
    here.) Twins that appear because of this pass are found by the next pass of :func:`reduce_puzzle`.
    """
    twins = find_twins(values, geometry)
    if twins is None:
        return None
    for u, a, b in twins:
        pair = values[a] | values[b]
        for s in geometry.units[u]:
            if s != a and s != b and values[s] & pair:
                _set(values, s, values[s] & ~pair, "naked_twins", rec)
    return values


#: The strategies of :func:`reduce_puzzle`, in the order the notebook's final version applies them.
STRATEGIES = {"eliminate": eliminate, "only_choice": only_choice, "naked_twins": naked_twins}


def reduce_puzzle(
    values: Values, geometry: Geometry, rec: Recorder = SILENT, strategies: tuple[str, ...] = tuple(STRATEGIES)
) -> Values | None:
    """Apply the strategies in turn until a whole round changes nothing; ``None`` if a cell loses every candidate.

    The notebook stops when a round solves no new cell; this stops when a round removes no candidate, so a
    round in which naked twins only narrowed cells is followed by another (which may solve some).
    """
    while True:
        before = list(values)
        for name in strategies:
            out = STRATEGIES[name](values, geometry, rec)
            if out is None:
                rec.note("fail", rule=name)
                return None
        empty = next((s for s, m in enumerate(values) if m == 0), None)
        if empty is not None:
            rec.note("fail", empty, rule="empty")
            return None
        if values == before:
            return values


def search(values: Values, geometry: Geometry, budget: Budget, rec: Recorder = SILENT) -> Iterator[Values]:
    """Depth-first search with propagation: reduce, then try each candidate of the unsolved cell with the
    fewest candidates (the first such cell in reading order). Yields every solution."""
    budget.node()
    reduced = reduce_puzzle(values, geometry, rec)
    if reduced is None:
        budget.backtracks += 1
        return
    unsolved = [s for s, m in enumerate(reduced) if not _single(m)]
    if not unsolved:
        rec.note("solved")
        yield reduced
        return
    s = min(unsolved, key=lambda c: (reduced[c].bit_count(), c))
    child = rec.deeper()
    digits = digits_of(reduced[s])
    for i, d in enumerate(digits):
        budget.branch(i, len(digits))
        rec.note("guess", s, d, "search")
        attempt = list(reduced)
        _set(attempt, s, 1 << (d - 1), "search", child)
        yield from search(attempt, geometry, budget, child)
        rec.note("backtrack", s, d, "search")


def solutions(puzzle: Grid, budget: Budget, trace: Trace | None = None) -> Iterator[tuple[int, ...]]:
    """Every solution of ``puzzle`` by this method, as digit tuples (for :func:`sudokit.methods.runner.run`)."""
    for values in search(grid_values(puzzle), puzzle.geometry, budget, Recorder(trace)):
        yield tuple(m.bit_length() for m in values)


def propagate(puzzle: Grid) -> Values | None:
    """Candidates after the strategies alone (no search): the "after propagation" stage."""
    return reduce_puzzle(grid_values(puzzle), puzzle.geometry)
