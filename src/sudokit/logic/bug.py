"""Bivalue Universal Grave, types 2 to 4 (type 1 is :func:`sudokit.logic.uniqueness.bug_plus_one`).

A *BUG* is a state where every empty cell has two candidates and every digit has two places or none in
every unit: such a state has no solution or at least two. When the state becomes a BUG once a few *extra*
candidates are taken out of the cells with three or more, a puzzle with one solution must use one of those
extras, and that gives eliminations:

- **type 2**: every extra is the same digit: it is in one of the extra cells, so every cell that sees them
  all loses it (Sudoku Explainer 5.7);
- **type 3**: the extra cells all lie in one unit, and their extra digits with ``k - 1`` other cells of the
  unit form a naked set of ``k`` digits: the other cells of the unit lose those digits (5.7 + 0.1 for each
  digit past the first: a pair is 5.8);
- **type 4**: two extra cells in one unit share a digit that has no other place in that unit: one of them
  holds it and the other one of its extras, so each keeps only its extras and that digit (5.7).

Needs exactly rows, columns and boxes, and assumes one solution.
"""

from __future__ import annotations

from itertools import combinations

from sudokit.logic import text
from sudokit.logic.misses import digit_cells
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step


def extras(state: State) -> dict[int, int] | None:
    """The BUG's extra candidates, ``{cell: mask}``, of the cells with three or more candidates, or None when
    taking them out does not leave a BUG. A candidate is extra when its digit has three or more places in each
    unit of its cell; what is left must have two candidates in every cell and two places or none for every
    digit in every unit."""
    if "bug-extras" in state.memo:
        return state.memo["bug-extras"]
    found = _extras(state)
    state.memo["bug-extras"] = found
    return found


def _extras(state: State) -> dict[int, int] | None:
    g, c = state.g, state.cands
    if not g.is_standard:
        return None
    big = [s for s in state.empty_cells() if c[s].bit_count() != 2]
    if not big or any(c[s].bit_count() < 2 for s in big):
        return None
    out = {}
    where = digit_cells(state)  # each digit's cells as a bitset: its places in a unit are one AND away
    unit_bits = g.unit_bits
    for s in big:
        m = 0
        for d in digits_of(c[s]):
            cells = where[d][1]
            if all((cells & unit_bits[u]).bit_count() >= 3 for u in g.units_of[s]):
                m |= 1 << (d - 1)
        if (c[s] & ~m).bit_count() != 2:
            return None
        out[s] = m
    for unit in g.units:
        for d in g.digits:
            bit = 1 << (d - 1)
            left = sum(1 for s in unit if c[s] & bit and not out.get(s, 0) & bit)
            if left not in (0, 2):
                return None
    return out


def _common_peers(state: State, cells: list[int]) -> set[int]:
    peers = state.g.peer_sets
    common = set(peers[cells[0]])
    for s in cells[1:]:
        common &= peers[s]
    return common - set(cells)


def _intro(state: State, ex: dict[int, int]) -> str:
    parts = [f"{state.label(s)} {text.digit_set(digits_of(m), state)}" for s, m in sorted(ex.items())]
    return (
        "without the extra candidates " + ", ".join(parts) + " the grid would be a BUG (no solution or two), "
        "so one of them is true"
    )


def bug_type2(state: State) -> Step | None:
    """All extras are one digit: cells that see every extra cell lose it."""
    ex = extras(state)
    if not ex or len(ex) < 2:
        return None
    masks = set(ex.values())
    if len(masks) != 1:
        return None
    m = masks.pop()
    if m.bit_count() != 1:
        return None
    d = m.bit_length()
    cells = sorted(ex)
    elim = [(s, d) for s in sorted(_common_peers(state, cells)) if state.cands[s] & m]
    if not elim:
        return None
    return Step(
        "BUG Type 2",
        eliminations=elim,
        cells=cells,
        candidates=[(s, d) for s in cells],
        explanation=(
            f"BUG type 2: {_intro(state, ex)}: {state.sym(d)} is in one of them, so {text.removals(state, elim)}"
        ),
    )


def bug_type3(state: State) -> Step | None:
    """The extra cells share a unit, and their extras form a naked set with other cells of that unit."""
    ex = extras(state)
    if not ex or len(ex) < 2:
        return None
    g, c = state.g, state.cands
    cells = sorted(ex)
    union = 0
    for m in ex.values():
        union |= m
    best = None
    for u, unit in enumerate(g.units):
        if not all(s in unit for s in cells):
            continue
        others = [s for s in unit if c[s] and s not in ex]
        for k in range(max(2, union.bit_count()), 5):
            for group in combinations(others, k - 1):
                m = union
                for s in group:
                    m |= c[s]
                if m.bit_count() != k:
                    continue
                rest = [s for s in others if s not in group]
                elim = [(s, d) for s in rest for d in digits_of(c[s] & m)]
                if elim:
                    rating = round(5.7 + 0.1 * (k - 1), 1)
                    if best is None or rating < best[0]:
                        best = (rating, u, list(group), m, elim)
                    break
            if best is not None and best[1] == u:
                break
    if best is None:
        return None
    rating, u, subset, m, elim = best
    return Step(
        "BUG Type 3",
        eliminations=sorted(elim),
        cells=cells + subset,
        units=[u],
        candidates=[(s, d) for s in cells for d in digits_of(ex[s])]
        + [(s, d) for s in subset for d in state.digits(s)],
        rating=rating,
        explanation=(
            f"BUG type 3: {_intro(state, ex)}; with {text.cells(state, subset)} they hold only "
            f"{text.digit_set(digits_of(m), state)} in {state.unit_name(u)}, a naked set, so "
            f"{text.removals(state, sorted(elim))}"
        ),
    )


def bug_type4(state: State) -> Step | None:
    """Two extra cells in one unit where a shared digit has no other place: each keeps its extras and that
    digit."""
    ex = extras(state)
    if not ex or len(ex) != 2:
        return None
    g, c = state.g, state.cands
    a, b = sorted(ex)
    for u in g.units_of[a]:
        if b not in g.units[u]:
            continue
        for d in digits_of(c[a] & c[b] & ~ex[a] & ~ex[b]):
            if len(state.positions(u, d)) != 2:
                continue
            bit = 1 << (d - 1)
            elim = [(s, x) for s in (a, b) for x in digits_of(c[s] & ~ex[s] & ~bit)]
            if not elim:
                continue
            return Step(
                "BUG Type 4",
                eliminations=elim,
                cells=[a, b],
                units=[u],
                candidates=[(s, x) for s in (a, b) for x in digits_of(ex[s] | bit)],
                explanation=(
                    f"BUG type 4: {_intro(state, ex)}; {state.sym(d)} goes in {state.label(a)} or {state.label(b)} "
                    f"({state.unit_name(u)}), so the other holds its extra: {text.removals(state, elim)}"
                ),
            )
    return None
