"""Sue de Coq (HoDoKu's name; also "two-sector disjoint subsets").

Take 2 or 3 empty cells ``C`` where a line (row or column) meets a box, holding the digits ``V`` with at
least ``|C| + 2`` of them. Add cells ``A`` of the line outside the box and cells ``B`` of the box outside the
line such that no digit is a candidate both in ``A`` and in ``B``, and ``C``, ``A`` and ``B`` together hold
exactly as many digits as they have cells. ``C`` and ``A`` lie in one line and ``C`` and ``B`` in one box, and
``A`` and ``B`` share no digit, so all those cells hold different digits: each digit of the set is in exactly
one of them. Then a digit of ``A`` is in ``A`` or ``C`` (the line) and leaves the rest of the line; a digit of
``B`` leaves the rest of the box; a digit only ``C`` holds leaves both.

A numba kernel (``sue_de_coq_kernel``) searches every line and box; ``tests/test_logic_hodoku.py`` holds the
plain-Python reference it must agree with. Needs boxes; works on any box shape.
"""

from __future__ import annotations

from functools import lru_cache

from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

#: at most this many cells on each side (the line's and the box's sets)
MAX_SIDE = 4
#: HoDoKu's score for a Sue de Coq (level Unfair)
SCORE = 250


@lru_cache(maxsize=32)
def _pairs(g: Geometry) -> tuple:
    """Every line (rows, then columns) with each box it crosses, as the kernel takes them: (line units, box
    units, the line's cells, the box's cells, cell in the box?, cell in the line?) per pair."""
    import numpy as np

    from sudokit.geometry import padded

    pairs = [(line, box) for line in (*g.rows, *g.cols) for box in g.boxes if g.unit_sets[line] & g.unit_sets[box]]
    in_box = np.zeros((len(pairs), g.n_cells), dtype=np.bool_)
    in_line = np.zeros((len(pairs), g.n_cells), dtype=np.bool_)
    for p, (line, box) in enumerate(pairs):
        in_box[p, list(g.units[box])] = True
        in_line[p, list(g.units[line])] = True
    return (
        np.array([line for line, _ in pairs], dtype=np.int64),
        np.array([box for _, box in pairs], dtype=np.int64),
        padded([g.units[line] for line, _ in pairs], g.size),
        padded([g.units[box] for _, box in pairs], g.size),
        in_box,
        in_line,
    )


def sue_de_coq(state: State) -> Step | None:
    """The first Sue de Coq that removes something: lines (rows, then columns) in unit order, the boxes they
    cross, the intersection's 2 or 3 empty cells (all of them first, then each two of three), then line sets
    and box sets (1 to ``MAX_SIDE`` cells, each holding a digit of the intersection; smaller first, in
    combination order). A numba kernel finds which; only that one is written out."""
    g = state.g
    if not g.has_boxes:
        return None
    from sudokit.logic import state_arrays, sue_de_coq_kernel

    pair_line, pair_box, line_units, box_units, in_box, in_line = _pairs(g)
    _values, cands = state_arrays.arrays(state)
    p, core, a, b = sue_de_coq_kernel.sdc_search(
        cands, pair_line, pair_box, line_units, box_units, in_box, in_line, MAX_SIDE
    )
    if p < 0:
        return None
    line, box = int(pair_line[p]), int(pair_box[p])
    core_cells = tuple(int(s) for s in core if s >= 0)
    line_set = tuple(int(s) for s in a if s >= 0)
    box_set = tuple(int(s) for s in b if s >= 0)
    c = state.cands
    v = ma = mb = 0
    for s in core_cells:
        v |= c[s]
    for s in line_set:
        ma |= c[s]
    for s in box_set:
        mb |= c[s]
    only_core = v & ~ma & ~mb
    off_line, off_box = ma | only_core, mb | only_core
    elim = {
        (s, d) for s in g.units[line] if s not in core_cells and s not in line_set for d in digits_of(c[s] & off_line)
    }
    # a third cell of the intersection left out of the core is in both the line and the box
    elim |= {
        (s, d) for s in g.units[box] if s not in core_cells and s not in box_set for d in digits_of(c[s] & off_box)
    }
    return _step(state, line, box, core_cells, line_set, box_set, v, ma, mb, sorted(elim))


def _step(state, line, box, core, a, b, v, ma, mb, elim) -> Step:
    c = state.cands
    cells = sorted((*core, *a, *b))
    digits = v | ma | mb
    return Step(
        "Sue de Coq",
        eliminations=elim,
        cells=cells,
        units=[line, box],
        candidates=[(s, d) for s in cells for d in digits_of(c[s])],
        explanation=(
            f"Sue de Coq: {text.cells(state, core)} ({state.unit_name(line)} in {state.unit_name(box)}) hold "
            f"{text.digit_set(digits_of(v), state)}; with {text.cells(state, a)} of the line "
            f"({text.digit_set(digits_of(ma), state)}) and {text.cells(state, b)} of the box "
            f"({text.digit_set(digits_of(mb), state)}), {len(cells)} cells hold only the {digits.bit_count()} "
            f"digits {text.digit_set(digits_of(digits), state)}, each once: {text.removals(state, elim)}"
        ),
    )
