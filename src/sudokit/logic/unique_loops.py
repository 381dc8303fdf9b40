"""Unique loops: the unique rectangle's deadly pattern on 6, 8 or 10 cells.

Take cells that all hold the two digits {x,y} and meet every row, column and box in two cells or none. If
each of them could only be x or y, every unit would hold one x and one y among them, and swapping x and y
there would give a second solution. So in a puzzle with one solution some cell of the loop holds another
digit, and as with the rectangles (:mod:`sudokit.logic.uniqueness`):

- **type 1**: one cell has other digits: it loses x and y;
- **type 2**: the (two) cells with other digits have the same single extra digit z: z is in one of them, so
  cells that see them all lose z;
- **type 3**: two cells with other digits share a unit: one of them holds one of those digits, so together
  they act as one cell, which with ``k - 1`` other cells of the unit can make a naked set of ``k`` digits;
- **type 4**: two cells with other digits share a unit where x has no other place: one of them is x, so
  neither is y.

Sudoku Explainer rates a loop 4.5 + 0.1 for six cells, + 0.2 for eight, + 0.5 for ten (5.0), type 3 adding 0.1
for each digit of its naked set past the first. Only loops with at most two cells holding other digits are
looked for (what types 1-4 need here, and what keeps the search short). The loop is found by a depth-first
walk from cell to cell through shared units (cells in grid order, digit pairs in order); the first loop that
gives a step is taken.
Needs exactly rows, columns and boxes, and assumes one solution.
"""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step
from sudokit.logic.uniqueness import _naked_with

SIZES = (6, 8, 10)
#: at most this many cells of a loop may hold other digits (types 1-4 need one or two)
MAX_EXTRA = 2


def size_bonus(n: int) -> float:
    """Sudoku Explainer's addition for a loop of ``n`` cells."""
    return 0.5 if n >= 10 else 0.2 if n >= 8 else 0.1


def _loops(state: State, x: int, y: int) -> list[tuple[int, ...]]:
    """Every loop of 6, 8 or 10 cells on {x,y} (as sorted tuples, each once), shortest first, then in the order
    a depth-first walk from each cell in turn (to later cells, neighbours in cell order) closes it; walked by
    :func:`sudokit.logic.unique_loops_kernel.loops_of`."""
    import numpy as np

    from sudokit.logic import state_arrays, unique_loops_kernel, wings_kernel

    g, c = state.g, state.cands
    xy = (1 << (x - 1)) | (1 << (y - 1))
    cells = [s for s in state.empty_cells() if c[s] & xy == xy]
    if len(cells) < SIZES[0]:
        return []
    _values, cands = state_arrays.arrays(state)
    _units, units_of, _peers, _full = state_arrays.tables(g)
    sizes = np.array(SIZES, dtype=np.int64)
    found = unique_loops_kernel.loops_of(
        cands, np.array(cells, dtype=np.int64), units_of, wings_kernel.sees(g), xy, sizes, MAX_EXTRA, len(g.units)
    )
    return [tuple(int(s) for s in row if s >= 0) for row in found]


def _possible_pairs(state: State) -> set[int]:
    """The digit pairs (masks) that can make a loop: held alone by at least ``SIZES[0] - MAX_EXTRA`` cells (a
    loop has at least ``SIZES[0]`` cells, at most ``MAX_EXTRA`` of them with other digits)."""
    count: dict[int, int] = {}
    for m in state.cands:
        if m.bit_count() == 2:
            count[m] = count.get(m, 0) + 1
    return {m for m, n in count.items() if n >= SIZES[0] - MAX_EXTRA}


def unique_loop(state: State) -> Step | None:
    """The first unique loop (6, 8 or 10 cells) that gives a type 1, 2, 3 or 4 step."""
    g = state.g
    if not g.is_standard:
        return None
    pairs = _possible_pairs(state)
    if not pairs:
        return None
    for x in g.digits:
        for y in range(x + 1, g.size + 1):
            if (1 << (x - 1)) | (1 << (y - 1)) not in pairs:
                continue
            for loop in _loops(state, x, y):
                step = _loop_step(state, loop, x, y)
                if step is not None:
                    return step
    return None


def _loop_step(state: State, loop: tuple[int, ...], x: int, y: int) -> Step | None:
    c, g, peers = state.cands, state.g, state.g.peer_sets
    xy = (1 << (x - 1)) | (1 << (y - 1))
    extra = [s for s in loop if c[s] != xy]
    base = 4.5 + size_bonus(len(loop))
    name = f"{text.digit_set((x, y), state)} in {text.cells(state, loop)}"
    if not extra:
        return None  # a deadly pattern already: the puzzle has no single solution; leave it to other rows
    if len(extra) == 1:
        s = extra[0]
        elim = [(s, x), (s, y)]
        why = f"{state.label(s)} must break the pattern"
        return _step(state, "Unique Loop Type 1", loop, (x, y), elim, base, name, why)
    mores = {c[s] & ~xy for s in extra}
    if len(mores) == 1:
        more = mores.pop()
        if more.bit_count() == 1:
            z = more.bit_length()
            common = set(peers[extra[0]])
            for s in extra[1:]:
                common &= peers[s]
            elim = [(s, z) for s in sorted(common - set(loop)) if c[s] & more]
            if elim:
                why = f"{state.sym(z)} must be in one of {text.cells(state, extra)}"
                return _step(state, "Unique Loop Type 2", loop, (x, y), elim, base, name, why)
    if len(extra) != 2:
        return None
    e0, e1 = extra
    shared = [u for u in g.units_of[e0] if e1 in g.unit_sets[u]]
    for u in shared:
        for keep, drop in ((x, y), (y, x)):
            if sorted(state.positions(u, keep)) == sorted(extra):
                elim = [(e0, drop), (e1, drop)]
                why = f"{state.sym(keep)} must go in {state.label(e0)} or {state.label(e1)} ({state.unit_name(u)})"
                return _step(state, "Unique Loop Type 4", loop, (x, y), elim, base, name, why)
    pseudo = (c[e0] | c[e1]) & ~xy
    for u in shared:
        others = [s for s in g.units[u] if c[s] and s not in (e0, e1)]
        for k in range(max(2, pseudo.bit_count()), 5):
            found = _naked_with(c, pseudo, others, k)
            if found is not None:
                subset, digits, elim = found
                why = (
                    f"{state.label(e0)} or {state.label(e1)} must hold one of "
                    f"{text.digit_set(digits_of(pseudo), state)}; as one cell they make a naked set "
                    f"{text.digit_set(digits_of(digits), state)} with "
                    f"{text.cells(state, subset)} in {state.unit_name(u)}"
                )
                rating = round(base + 0.1 * (k - 1), 1)
                return _step(state, "Unique Loop Type 3", loop, (x, y), elim, rating, name, why)
    return None


def _step(state: State, kind: str, loop, pair, elim, rating: float, name: str, why: str) -> Step:
    x, y = pair
    return Step(
        "Unique Loop",
        eliminations=sorted(elim),
        cells=list(loop),
        candidates=[(s, d) for s in loop for d in (x, y)],
        rating=round(rating, 1),
        explanation=f"{kind}: unique loop {name}: {why}, so {text.removals(state, sorted(elim))}",
    )
