"""HoDoKu's avoidable rectangles (types 1 and 2): unique rectangles made of cells solved on the way.

Four cells over two rows, two columns and two boxes, none of them a given, can never end up x, y / y, x: x and
y could then be swapped in those four cells and the givens would still allow both grids, a second solution.
So once some of the four are solved (by the solver, not given), the others must avoid completing the pattern:

- **Type 1**: three cells are solved as x, y, x around the rectangle: the fourth cannot be y (its completing
  digit) and loses it.
- **Type 2**: two cells of one row (or column) are solved as x and y; the other two are exactly {y,z} (under x)
  and {x,z} (under y): one of them must be z, so a cell seeing both loses z.

They need the puzzle's givens (:attr:`State.givens`): a state from pencil marks has none known, and they do not
apply. Plain Python over the rows and columns (only solved cells start a rectangle).
"""

from __future__ import annotations

from collections.abc import Iterator

from sudokit.logic import text
from sudokit.logic.state import State
from sudokit.logic.step import Candidate, Step

TYPE1 = "Avoidable Rectangle Type 1"
TYPE2 = "Avoidable Rectangle Type 2"
RATING = 4.5  # rated like the unique rectangles (Sudoku Explainer has none)


def _rectangles(state: State) -> Iterator[tuple[int, int, int, int]]:
    """Rectangles (a, b, c, d) with a, b solved in one line (a row, then a column), c under a and d under b in
    another line, over exactly two boxes, none of the four cells a given. Only called with known givens."""
    g, vals, givens = state.g, state.values, state.givens
    assert givens is not None
    box = g.box_of
    for kind in (g.rows, g.cols):
        lines = [g.units[u] for u in kind]
        for i, line in enumerate(lines):
            solved = [k for k, s in enumerate(line) if vals[s] and s not in givens]
            for p, k1 in enumerate(solved):
                for k2 in solved[p + 1 :]:
                    a, b = line[k1], line[k2]
                    if vals[a] == vals[b]:
                        continue
                    for j, other in enumerate(lines):
                        if j == i:
                            continue
                        c, d = other[k1], other[k2]
                        if c in givens or d in givens:
                            continue
                        if len({box[a], box[b], box[c], box[d]}) == 2:
                            yield a, b, c, d


def _name(state: State, cells: tuple[int, ...]) -> str:
    x, y = state.values[cells[0]], state.values[cells[1]]
    return f"{text.digit_set((x, y), state)} in {text.cells(state, cells)}"


def avoidable_rectangle_type1(state: State) -> Step | None:
    """Three cells of a rectangle, none given, solved as x, y, x: the fourth cannot be y."""
    if state.givens is None or not state.g.is_standard:
        return None
    vals, c = state.values, state.cands
    for a, b, cc, d in _rectangles(state):
        x, y = vals[a], vals[b]
        # c under a must be y and d under b must be x for the pattern: one solved so, the other still open
        for solved, want_s, open_, want_o in ((cc, y, d, x), (d, x, cc, y)):
            if vals[solved] == want_s and not vals[open_] and c[open_] >> (want_o - 1) & 1:
                cells = (a, b, cc, d)
                elim = [(open_, want_o)]
                three = [s for s in cells if s != open_]
                why = (
                    f"{text.cells(state, three)} were solved (none was given) with {state.sym(x)} and {state.sym(y)} "
                    f"in turn, so {state.label(open_)} = {state.sym(want_o)} would let them swap, a second solution"
                )
                return _step(state, TYPE1, cells, elim, why, [(open_, want_o)])
    return None


def avoidable_rectangle_type2(state: State) -> Step | None:
    """Two cells of a line, none given, solved as x and y; under them exactly {y,z} and {x,z}: one of these is
    z, so a cell seeing both loses z."""
    if state.givens is None or not state.g.is_standard:
        return None
    vals, c, peers = state.values, state.cands, state.g.peer_sets
    for a, b, cc, d in _rectangles(state):
        x, y = vals[a], vals[b]
        if vals[cc] or vals[d]:
            continue
        more_c, more_d = c[cc] & ~(1 << (y - 1)), c[d] & ~(1 << (x - 1))
        if more_c != more_d or more_c.bit_count() != 1 or c[cc] == more_c or c[d] == more_d:
            continue
        z = more_c.bit_length()
        cells = (a, b, cc, d)
        common = (peers[cc] & peers[d]) - set(cells)
        elim = [(s, z) for s in sorted(common) if c[s] >> (z - 1) & 1]
        if elim:
            why = (
                f"{text.cells(state, (a, b))} were solved (neither was given) as {state.sym(x)} and {state.sym(y)}, "
                f"so {state.label(cc)} = {state.sym(y)} and {state.label(d)} = {state.sym(x)} would let the four swap; "
                f"one of {text.cells(state, (cc, d))} must be {state.sym(z)}, and these cells see both"
            )
            cands = [(cc, y), (cc, z), (d, x), (d, z)]
            return _step(state, TYPE2, cells, elim, why, cands)
    return None


def _step(
    state: State, name: str, cells: tuple[int, int, int, int], elim: list[Candidate], why: str, cands: list[Candidate]
) -> Step:
    return Step(
        name,
        eliminations=sorted(elim),
        cells=list(cells),
        candidates=cands,
        rating=RATING,
        explanation=f"{name}: {_name(state, cells)}; {why}: {text.removals(state, elim)}",
    )
