"""Sue de Coq (HoDoKu's name; also "two-sector disjoint subsets").

Take 2 or 3 empty cells ``C`` where a line (row or column) meets a box, holding the digits ``V`` with at
least ``|C| + 2`` of them. Add cells ``A`` of the line outside the box and cells ``B`` of the box outside the
line such that no digit is a candidate both in ``A`` and in ``B``, and ``C``, ``A`` and ``B`` together hold
exactly as many digits as they have cells. ``C`` and ``A`` lie in one line and ``C`` and ``B`` in one box, and
``A`` and ``B`` share no digit, so all those cells hold different digits: each digit of the set is in exactly
one of them. Then a digit of ``A`` is in ``A`` or ``C`` (the line) and leaves the rest of the line; a digit of
``B`` leaves the rest of the box; a digit only ``C`` holds leaves both.

Plain Python on the candidate masks. What a line and a box give depends only on their cells' candidates, so
a line and box that gave nothing are remembered (:mod:`sudokit.logic.misses`) and skipped on the next states
of a path until one of their cells changes. Needs boxes; works on any box shape.
"""

from __future__ import annotations

from itertools import combinations

from sudokit.logic import misses, text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

_TAG = "sue-de-coq"
#: at most this many cells on each side (the line's and the box's sets)
MAX_SIDE = 4
#: HoDoKu's score for a Sue de Coq (level Unfair)
SCORE = 250


def _sides(cells: list[int], c: list[int], v: int, need: int) -> list[tuple[tuple[int, ...], int, int]]:
    """The sets of 1 to ``MAX_SIDE`` of ``cells`` that can make one side of the pattern with the intersection's
    digits ``v``, smaller first: (cells, digits, gain), where gain = cells less the digits outside ``v``; it must
    be 1 to ``need - 1`` (the other side gains at least 1 too)."""
    out = []
    outside = ~v
    for k in range(1, min(len(cells), MAX_SIDE) + 1):
        for combo in combinations(cells, k):
            m = 0
            for s in combo:
                m |= c[s]
            gain = k - (m & outside).bit_count()
            if 0 < gain < need:
                out.append((combo, m, gain))
    return out


def sue_de_coq(state: State) -> Step | None:
    """The first Sue de Coq that removes something: lines (rows, then columns) in unit order, the boxes they
    cross, the intersection's cells (all of them first, then pairs), then line sets and box sets by size."""
    g = state.g
    if not g.has_boxes:
        return None
    c = state.cands
    units, unit_sets = g.units, g.unit_sets
    unit_key: dict[int, tuple[int, ...]] = {}
    for line in (*g.rows, *g.cols):
        line_cells = [s for s in units[line] if c[s]]
        if len(line_cells) < 4:
            continue
        for box in g.boxes:
            inter = [s for s in line_cells if s in unit_sets[box]]
            if len(inter) < 2:
                continue
            # what this line and box give depends only on their cells' candidates: a miss is remembered
            for u in (line, box):
                if u not in unit_key:
                    unit_key[u] = tuple([c[s] for s in units[u]])
            key = (_TAG, g, line, box, unit_key[line], unit_key[box])
            if misses.known(key):
                continue
            box_cells = [s for s in units[box] if c[s]]
            line_rest = [s for s in line_cells if s not in unit_sets[box]]
            box_rest = [s for s in box_cells if s not in unit_sets[line]]
            for k in range(len(inter), 1, -1):
                for core in combinations(inter, k):
                    v = 0
                    for s in core:
                        v |= c[s]
                    need = v.bit_count() - k  # what A and B must gain between them
                    if need < 2:
                        continue
                    # the cells of each side hold a digit of the core (HoDoKu's sets do too)
                    line_side = [s for s in line_rest if c[s] & v]
                    box_side = [s for s in box_rest if c[s] & v]
                    if not line_side or not box_side:
                        continue
                    step = _pair(state, line, box, core, v, need, line_side, box_side, line_cells, box_cells)
                    if step is not None:
                        return step
            misses.remember(key)
    return None


def _pair(state, line, box, core, v, need, line_side, box_side, line_cells, box_cells) -> Step | None:
    """The first line set and box set that complete the pattern on ``core`` and remove something."""
    c = state.cands
    by_gain: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    for b, mb, gain_b in _sides(box_side, c, v, need):
        by_gain.setdefault(gain_b, []).append((b, mb))
    if not by_gain:
        return None
    for a, ma, gain_a in _sides(line_side, c, v, need):
        for b, mb in by_gain.get(need - gain_a, ()):
            if ma & mb:
                continue
            only_core = v & ~ma & ~mb
            off_line, off_box = ma | only_core, mb | only_core
            elim = [(s, d) for s in line_cells if s not in core and s not in a for d in digits_of(c[s] & off_line)]
            elim += [(s, d) for s in box_cells if s not in core and s not in b for d in digits_of(c[s] & off_box)]
            if elim:
                # a third cell of the intersection left out of the core is in both lists
                return _step(state, line, box, core, a, b, v, ma, mb, sorted(set(elim)))
    return None


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
