"""Uniqueness techniques: Unique Rectangles (types 1, 2, 4) and BUG+1. They assume the puzzle has exactly
one solution and plain row/column/box geometry (extra units could forbid the swap they rely on)."""

from __future__ import annotations

from itertools import combinations

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step


def _rectangles(state: State):
    """Every rectangle of four empty cells in two rows, two columns and two boxes that share two digits."""
    g, lay, c = state.g, state.lay, state.cands
    n = g.size
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            if len({lay.box_of[s] for s in cells}) != 2:
                continue
            common = c[cells[0]] & c[cells[1]] & c[cells[2]] & c[cells[3]]
            if common.bit_count() < 2:
                continue
            for pair in combinations(digits_of(common), 2):
                yield cells, pair


def unique_rectangle(state: State) -> Step | None:
    """Types 1, 2 and 4 of the deadly pattern {x,y} in a rectangle over two boxes."""
    if not state.g.is_standard:
        return None
    c, peers = state.cands, state.lay.peer_sets
    for cells, (x, y) in _rectangles(state):
        xy = (1 << (x - 1)) | (1 << (y - 1))
        exact = [s for s in cells if c[s] == xy]
        extra = [s for s in cells if c[s] != xy]
        name = f"{text.digit_set((x, y))} in {text.cells(state, cells)}"
        if len(exact) == 3:
            s = extra[0]
            elim = [(s, x), (s, y)]
            return _ur(
                state,
                "Unique Rectangle Type 1",
                cells,
                (x, y),
                elim,
                4.5,
                f"Unique rectangle {name}: {state.label(s)} must break the pattern, so {text.removals(state, elim)}",
            )
        if len(exact) != 2 or extra[1] not in peers[extra[0]]:
            continue
        e0, e1 = extra
        more0, more1 = c[e0] & ~xy, c[e1] & ~xy
        if more0 == more1 and more0.bit_count() == 1:
            z = more0.bit_length()
            common = (peers[e0] & peers[e1]) - set(cells)
            elim = [(s, z) for s in sorted(common) if c[s] >> (z - 1) & 1]
            if elim:
                return _ur(
                    state,
                    "Unique Rectangle Type 2",
                    cells,
                    (x, y),
                    elim,
                    4.6,
                    f"Unique rectangle {name}: {z} must be in {state.label(e0)} or {state.label(e1)}, so "
                    f"{text.removals(state, elim)}",
                )
        shared = [u for u in state.g.units_of[e0] if e1 in state.lay.unit_sets[u]]
        for u in shared:
            for keep, drop in ((x, y), (y, x)):
                if sorted(state.positions(u, keep)) == sorted(extra):
                    elim = [(e0, drop), (e1, drop)]
                    return _ur(
                        state,
                        "Unique Rectangle Type 4",
                        cells,
                        (x, y),
                        elim,
                        4.6,
                        f"Unique rectangle {name}: {keep} must go in {state.label(e0)} or {state.label(e1)} "
                        f"({state.unit_name(u)}), so {text.removals(state, elim)}",
                    )
    return None


def _ur(state, name, cells, pair, elim, rating, explanation) -> Step:
    return Step(
        name,
        eliminations=elim,
        cells=list(cells),
        candidates=[(s, d) for s in cells for d in pair],
        rating=rating,
        explanation=explanation,
    )


def bug_plus_one(state: State) -> Step | None:
    """Every empty cell has two candidates except one with three: the digit of that cell that appears three
    times in its units must go there, else the grid would have zero or two solutions."""
    if not state.g.is_standard:
        return None
    c, g = state.cands, state.g
    empty = state.empty_cells()
    big = [s for s in empty if c[s].bit_count() != 2]
    if len(big) != 1 or c[big[0]].bit_count() != 3:
        return None
    s = big[0]
    for u in range(len(g.units)):
        for d in g.digits:
            n = len(state.positions(u, d))
            if n not in (0, 2) and not (s in g.units[u] and n == 3):
                return None
    for d in digits_of(c[s]):
        if all(len(state.positions(u, d)) == 3 for u in g.units_of[s]):
            return Step(
                "BUG+1",
                placements=[(s, d)],
                cells=[s],
                candidates=[(s, d)],
                explanation=(
                    f"BUG+1: every empty cell but {state.label(s)} has two candidates; only {d} there avoids a "
                    f"grid with two solutions, so place {d} in {state.label(s)}"
                ),
            )
    return None
