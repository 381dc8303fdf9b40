"""Uniqueness techniques: Unique Rectangles (types 1 to 4) and BUG+1. They assume the puzzle has exactly
one solution and plain row/column/box geometry (extra units could forbid the swap they rely on)."""

from __future__ import annotations

from itertools import combinations

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step


def _rectangles(state: State):
    """Every rectangle of four empty cells in two rows, two columns and two boxes that share two digits, as
    rows (four cells, x, y) of an array listed by a numba kernel once per state (rows paired first, then
    columns, then digit pairs)."""
    found = state.memo.get("rectangles")
    if found is None:
        from sudokit.logic import state_arrays, uniqueness_kernel

        _values, cands = state_arrays.arrays(state)
        found = state.memo["rectangles"] = uniqueness_kernel.rectangles(cands, state.g.box_of_array, state.g.size)
    return found


def _kernel_args(state: State) -> tuple:
    """What both rectangle kernels take: the rectangles, the candidates and the geometry's tables."""
    from sudokit.logic import state_arrays

    units, units_of, peers, _full = state_arrays.tables(state.g)
    return _rectangles(state), state_arrays.arrays(state)[1], units, units_of, peers


def unique_rectangle(state: State) -> Step | None:
    """Types 1, 2 and 4 of the deadly pattern {x,y} in a rectangle over two boxes: the first rectangle that
    gives one (a numba kernel finds which)."""
    if not state.g.is_standard:
        return None
    from sudokit.logic import uniqueness_kernel

    args = _kernel_args(state)
    i = uniqueness_kernel.ur_first(*args)
    if i < 0:
        return None
    a, b, c, d, x, y = (int(v) for v in args[0][i])
    return ur_step(state, (a, b, c, d), (x, y))


def ur_step(state: State, cells: tuple[int, int, int, int], pair: tuple[int, int]) -> Step | None:
    """The type 1, 2 or 4 step of the rectangle ``cells`` on the digits ``pair``, if it gives one."""
    c, peers = state.cands, state.g.peer_sets
    x, y = pair
    xy = (1 << (x - 1)) | (1 << (y - 1))
    exact = [s for s in cells if c[s] == xy]
    extra = [s for s in cells if c[s] != xy]
    name = f"{text.digit_set((x, y), state)} in {text.cells(state, cells)}"
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
        return None
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
                4.5,  # Sudoku Explainer rates types 1, 2 and 4 alike
                f"Unique rectangle {name}: {state.sym(z)} must be in {state.label(e0)} or {state.label(e1)}, so "
                f"{text.removals(state, elim)}",
            )
    shared = [u for u in state.g.units_of[e0] if e1 in state.g.unit_sets[u]]
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
                    4.5,
                    f"Unique rectangle {name}: {state.sym(keep)} must go in {state.label(e0)} or {state.label(e1)} "
                    f"({state.unit_name(u)}), so {text.removals(state, elim)}",
                )
    return None


_SUBSET = {2: "pair", 3: "triple", 4: "quad"}


def unique_rectangle_type3(state: State) -> Step | None:
    """Type 3: the two cells breaking the pattern {x,y} share a unit and hold other digits besides x and y.
    One of those extra digits must be in them, so together they act as one cell (a pseudo-cell) holding the
    extra digits. If the pseudo-cell and k-1 other cells of the shared unit hold only k digits, they form a
    naked subset and those digits leave the rest of the unit. The smallest subset found is reported (the first
    of its size over the rectangles and their shared units; a numba kernel finds which)."""
    if not state.g.is_standard:
        return None
    from sudokit.logic import uniqueness_kernel

    args = _kernel_args(state)
    i, u, k = uniqueness_kernel.ur3_best(*args)
    if i < 0:
        return None
    a, b, c, d, x, y = (int(v) for v in args[0][i])
    return ur3_step(state, (a, b, c, d), (x, y), int(u), int(k))


def ur3_step(state: State, cells: tuple[int, int, int, int], pair: tuple[int, int], u: int, k: int) -> Step:
    """The type 3 step of the rectangle ``cells`` on ``pair`` with a naked subset of size ``k`` in unit ``u``
    (known to exist)."""
    c = state.cands
    x, y = pair
    xy = (1 << (x - 1)) | (1 << (y - 1))
    extra = [s for s in cells if c[s] != xy]
    e0, e1 = extra
    pseudo = (c[e0] | c[e1]) & ~xy
    others = [s for s in state.g.units[u] if c[s] and s != e0 and s != e1]
    subset, digits, elim = _naked_with(c, pseudo, others, k)
    rectangle = f"{text.digit_set((x, y), state)} in {text.cells(state, cells)}"
    ds = digits_of(pseudo)
    held = state.sym(ds[0]) if len(ds) == 1 else f"one of {text.digit_set(ds, state)}"
    return Step(
        "Unique Rectangle Type 3",
        eliminations=elim,
        cells=list(cells) + list(subset),
        units=[u],
        candidates=[(s, d) for s in cells for d in (x, y)]
        + [(s, d) for s in extra for d in digits_of(c[s] & pseudo)]
        + [(s, d) for s in subset for d in digits_of(c[s])],
        rating=round(4.5 + 0.1 * (k - 1), 1),
        explanation=(
            f"Unique rectangle {rectangle}: {state.label(e0)} or {state.label(e1)} must hold {held}; as one cell "
            f"they form a naked {_SUBSET[k]} "
            f"{text.digit_set(digits_of(digits), state)} with {text.cells(state, subset)} in {state.unit_name(u)}, so "
            f"{text.removals(state, elim)}"
        ),
    )


def _naked_with(c: list[int], pseudo: int, others: list[int], k: int):
    """k-1 cells of ``others`` that hold, with the pseudo-cell's digits, exactly k digits and leave
    something to remove from the remaining cells: (cells, digits mask, eliminations) or None."""
    fits = [s for s in others if (c[s] | pseudo).bit_count() <= k]
    for combo in combinations(fits, k - 1):
        digits = pseudo
        for s in combo:
            digits |= c[s]
        if digits.bit_count() != k:
            continue
        elim = [(s, d) for s in others if s not in combo for d in digits_of(c[s] & digits)]
        if elim:
            return combo, digits, elim
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
                    f"BUG+1: every empty cell but {state.label(s)} has two candidates; only {state.sym(d)} there "
                    f"avoids a "
                    f"grid with two solutions, so place {state.sym(d)} in {state.label(s)}"
                ),
            )
    return None
