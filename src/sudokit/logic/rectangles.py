"""HoDoKu's further uniqueness rectangles: Unique Rectangle types 5 and 6 and the Hidden Rectangle.

Like types 1 to 4 (``uniqueness.py``, whose list of candidate rectangles they share) they assume the puzzle
has exactly one solution: the four cells of a rectangle over two rows, two columns and two boxes can never be
left as {x,y} alone, since x and y could then be swapped. Plain Python over that list.
"""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic.state import State
from sudokit.logic.step import Candidate, Step
from sudokit.logic.uniqueness import _rectangles

TYPE5 = "Unique Rectangle Type 5"
TYPE6 = "Unique Rectangle Type 6"
HIDDEN = "Hidden Rectangle"


def _each(state: State):
    """The rectangles as (cells top-left, top-right, bottom-left, bottom-right; x; y; the cells that hold
    exactly {x,y}), rows paired first, then columns, then digit pairs."""
    if not state.g.is_standard:
        return
    c = state.cands
    for row in _rectangles(state):
        a, b, cc, d, x, y = (int(v) for v in row)
        xy = (1 << (x - 1)) | (1 << (y - 1))
        cells = (a, b, cc, d)
        yield cells, x, y, [s for s in cells if c[s] == xy]


def _name(state: State, cells: tuple[int, ...], x: int, y: int) -> str:
    return f"{text.digit_set((x, y), state)} in {text.cells(state, cells)}"


def _step(state: State, name: str, cells, x: int, y: int, elim: list[Candidate], why: str, **more) -> Step:
    return Step(
        name,
        eliminations=sorted(elim),
        cells=list(cells) + more.get("cells", []),
        units=more.get("units", []),
        candidates=[(s, d) for s in cells for d in (x, y)] + more.get("candidates", []),
        rating=4.5,
        explanation=f"{name}: {_name(state, cells, x, y)}; {why}: {text.removals(state, elim)}",
    )


def unique_rectangle_type5(state: State) -> Step | None:
    """Two cells on a diagonal, or three cells, of the rectangle hold one extra digit z besides {x,y} (the
    others exactly {x,y}): one of them is z, so a cell seeing all of them loses z. (Two such cells in one
    unit are type 2.)"""
    c, peers = state.cands, state.g.peer_sets
    for cells, x, y, exact in _each(state):
        xy = (1 << (x - 1)) | (1 << (y - 1))
        extra = [s for s in cells if s not in exact]
        if len(extra) not in (2, 3) or len({c[s] & ~xy for s in extra}) != 1:
            continue
        z_bit = c[extra[0]] & ~xy
        if z_bit & (z_bit - 1):
            continue
        if len(extra) == 2 and extra[1] in peers[extra[0]]:
            continue
        z = z_bit.bit_length()
        common = frozenset.intersection(*(peers[s] for s in extra)) - set(cells)
        elim = [(s, z) for s in sorted(common) if c[s] & z_bit]
        if elim:
            why = f"one of {text.cells(state, extra)} must be {state.sym(z)}, and these cells see them all"
            return _step(state, TYPE5, cells, x, y, elim, why, candidates=[(s, z) for s in extra])
    return None


def unique_rectangle_type6(state: State) -> Step | None:
    """The cells holding exactly {x,y} lie on one diagonal and x has no other place in the rectangle's two
    rows (or two columns): x in either other cell would put x in the other too and y in the first two, the
    deadly pattern, so both lose x."""
    g = state.g
    for cells, x, y, exact in _each(state):
        a, b, cc, d = cells
        if sorted(exact) not in (sorted((a, d)), sorted((b, cc))):
            continue
        extra = [s for s in cells if s not in exact]
        for digit in (x, y):
            for units in ([g.row_of[a], g.row_of[cc]], [g.col_of[a], g.col_of[b]]):
                if all(set(state.positions(u, digit)) <= set(cells) for u in units):
                    elim = [(s, digit) for s in extra]
                    why = (
                        f"{state.sym(digit)} has no other place in {text.and_list([state.unit_name(u) for u in units])}"
                        f", so {text.cells(state, extra)} cannot hold it"
                    )
                    return _step(state, TYPE6, cells, x, y, elim, why, units=units)
    return None


def hidden_rectangle(state: State) -> Step | None:
    """A corner holds exactly {x,y} and, in the row and the column of the opposite corner, x has no place
    outside the rectangle: y in the opposite corner would put x in its two neighbours and y in the first corner,
    the deadly pattern, so the opposite corner loses y."""
    g = state.g
    for cells, x, y, exact in _each(state):
        a, b, cc, d = cells
        opposite = {a: d, d: a, b: cc, cc: b}
        for corner in exact:
            o = opposite[corner]
            row, col = g.row_of[o], g.col_of[o]  # unit numbers
            for keep, drop in ((x, y), (y, x)):
                if set(state.positions(row, keep)) <= set(cells) and set(state.positions(col, keep)) <= set(cells):
                    elim = [(o, drop)]
                    why = (
                        f"{state.label(corner)} is {text.digit_set((x, y), state)} and {state.sym(keep)} has no other "
                        f"place in {state.unit_name(row)} and {state.unit_name(col)}, so {state.label(o)} cannot be "
                        f"{state.sym(drop)}"
                    )
                    return _step(state, HIDDEN, cells, x, y, elim, why, units=[row, col])
    return None
