"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish (two strong links joined by a weak
link) and Empty Rectangle (which needs boxes).

The search for the first three has two forms side by side that name the same pattern (tested against each
other): a numba kernel (``single_digit_kernel.turbot_hit``) and plain Python (:func:`turbot_plain`);
:func:`sudokit.jit.either` chooses. Empty rectangles are plain Python."""

from __future__ import annotations

from functools import cache, lru_cache
from types import ModuleType

from sudokit import jit
from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.misses import known_mask, miss_mask
from sudokit.logic.state import State
from sudokit.logic.step import Step

KERNELS = "sudokit.logic.single_digit_kernel"


@cache
def _modules() -> tuple[ModuleType, ...]:
    """single_digit_kernel, state_arrays: imported at the first search (numba comes with them), then kept
    (an import statement in every search cost more than a small kernel's work)."""
    from sudokit.logic import single_digit_kernel, state_arrays

    return single_digit_kernel, state_arrays


_PATTERNS = ("Skyscraper", "2-String Kite", "Turbot Fish")


def _turbot(state: State, wanted: str) -> Step | None:
    """The first ``wanted`` pattern (Skyscraper, 2-String Kite or Turbot Fish): digit by digit, pairs of the
    digit's strong links in unit order, each link's ends turned both ways (the kernel or the plain form finds
    which; Python writes out that one)."""
    hit = jit.either(KERNELS, turbot_plain, _turbot_kernel, state, _PATTERNS.index(wanted))
    return None if hit is None else turbot_step(state, wanted, *hit)


def _turbot_kernel(state: State, wanted: int) -> tuple[int, tuple[int, int], tuple[int, int, int, int]] | None:
    import numpy as np

    single_digit_kernel, state_arrays = _modules()

    _values, cands = state_arrays.arrays(state)
    units, _units_of, peers, _full = state_arrays.tables(state.g)
    found = np.empty(6, dtype=np.int64)
    d = single_digit_kernel.turbot_hit(
        cands, units, _kinds(state.g), state.g.box_of_array, peers, state.g.size, wanted, found
    )
    if d < 0:
        return None
    u1, u2, x, y, z, w = (int(v) for v in found)
    return int(d) + 1, (u1, u2), (x, y, z, w)


def turbot_plain(state: State, wanted: int) -> tuple[int, tuple[int, int], tuple[int, int, int, int]] | None:
    """:func:`single_digit_kernel.turbot_hit` in plain Python, in the same order (``wanted``: 0 Skyscraper,
    1 2-String Kite, 2 Turbot Fish): (digit from 1, the two links' units, the cells x, y, z, w) of the first
    pattern that removes something, or None."""
    g, cands = state.g, state.cands
    kinds, peer_sets, box_of = _kind_codes(g), g.peer_sets, g.box_of
    table = state.positions_table()
    for d in range(1, g.size + 1):
        bit = 1 << (d - 1)
        links = [(u, row[d][0], row[d][1]) for u, row in enumerate(table) if len(row[d]) == 2]
        for i, (u1, a1, b1) in enumerate(links):
            for u2, a2, b2 in links[i + 1 :]:
                if len({a1, b1, a2, b2}) < 4:
                    continue
                k1, k2 = kinds[u1], kinds[u2]
                name = 0 if k1 == k2 and k1 != 2 else 1 if {k1, k2} == {0, 1} else 2
                if name != wanted:
                    continue
                for x, y in ((a1, b1), (b1, a1)):
                    for z, w in ((a2, b2), (b2, a2)):
                        if z not in peer_sets[y] or (name == 1 and box_of[y] != box_of[z]):
                            continue
                        if any(cands[t] & bit and t not in (y, z, w) and t in peer_sets[w] for t in g.peers[x]):
                            return d, (u1, u2), (x, y, z, w)
    return None


@lru_cache(maxsize=32)
def _kind_codes(g: Geometry) -> tuple[int, ...]:
    """Each unit's kind: 0 row, 1 column, 2 any other unit."""
    code = {"row": 0, "column": 1}
    return tuple(code.get(kind, 2) for kind in g.unit_kinds)


@lru_cache(maxsize=32)
def _kinds(g: Geometry):
    """:func:`_kind_codes` as an int64 array for the kernel."""
    import numpy as np

    return np.array(_kind_codes(g), dtype=np.int64)


def turbot_step(state: State, name: str, d: int, units: tuple[int, int], cells: tuple[int, int, int, int]) -> Step:
    """The step of two strong links on ``d`` (in ``units``) through ``x = y - z = w``: cells that see both ``x``
    and ``w`` lose ``d``."""
    peers = state.g.peer_sets
    u1, u2 = units
    x, y, z, w = cells
    common = (peers[x] & peers[w]) - {x, y, z, w}
    elim = [(s, d) for s in sorted(common) if state.cands[s] >> (d - 1) & 1]
    return Step(
        name,
        eliminations=elim,
        cells=[x, y, z, w],
        units=[u1, u2],
        candidates=[(s, d) for s in (x, y, z, w)],
        links=[((x, d), (y, d), True), ((y, d), (z, d), False), ((z, d), (w, d), True)],
        explanation=(
            f"{name} on {state.sym(d)}: {state.sym(d)} is in {state.label(x)} or {state.label(y)} "
            f"({state.unit_name(u1)}) and in {state.label(z)} or {state.label(w)} "
            f"({state.unit_name(u2)}); {state.label(y)} and {state.label(z)} see each other, "
            f"so {state.label(x)} or {state.label(w)} is {state.sym(d)}: {text.removals(state, elim)}"
        ),
    )


def skyscraper(state: State) -> Step | None:
    """Two strong links in parallel rows (or columns) with one end of each in a common line."""
    return _turbot(state, "Skyscraper")


def two_string_kite(state: State) -> Step | None:
    """A strong link in a row and one in a column whose ends meet in a box."""
    return _turbot(state, "2-String Kite")


def turbot_fish(state: State) -> Step | None:
    """Any other two strong links joined by a weak link (one link in a box or extra unit)."""
    return _turbot(state, "Turbot Fish")


def empty_rectangle(state: State) -> Step | None:
    """A box whose places for ``d`` lie in one row and one column of it (not in just one), with a strong
    link on ``d`` in a line outside the box: the cell where the other end's line meets the box's line
    cannot be ``d``. Needs rectangular boxes. Digits in order (skipping those a memo of misses knows give
    nothing), then boxes, the box's rows and columns, strong links in the columns then the rows: the first one
    is found by :func:`sudokit.logic.single_digit_kernel.empty_rectangle_hit`."""
    import numpy as np

    single_digit_kernel, state_arrays = _modules()

    g = state.g
    if not g.has_boxes:
        return None
    tag = "Empty Rectangle"
    skip = known_mask(tag, state)
    if skip == g.all_mask:  # every digit gave nothing before on the cells it has now
        return None
    found = np.empty(7, dtype=np.int64)
    _values, cands = state_arrays.arrays(state)
    boxes, box_rows, box_cols, rows, cols, row_of, col_of = _er_tables(g)
    d, empty = single_digit_kernel.empty_rectangle_hit(
        cands, g.unit_array, boxes, box_rows, box_cols, rows, cols, row_of, col_of, skip, found
    )
    miss_mask(tag, state, int(empty))
    if d < 0:
        return None
    b, r, col, u, near, far, target = (int(v) for v in found)
    return empty_rectangle_step(state, int(d), b, r, col, u, near, far, target)


@lru_cache(maxsize=32)
def _er_tables(g: Geometry) -> tuple:
    """The empty rectangle kernel's view of ``g``: the boxes; each box's rows and columns (in the order a set of
    them is walked: the plain search's order), padded with -1; the rows; the columns; each cell's row and
    column."""
    import numpy as np

    from sudokit.geometry import padded

    box_rows = padded([list({g.row_of[s] for s in g.units[b]}) for b in g.boxes])
    box_cols = padded([list({g.col_of[s] for s in g.units[b]}) for b in g.boxes])
    return (
        np.array(g.boxes, dtype=np.int64),
        box_rows,
        box_cols,
        np.array(g.rows, dtype=np.int64),
        np.array(g.cols, dtype=np.int64),
        np.array(g.row_of, dtype=np.int64),
        np.array(g.col_of, dtype=np.int64),
    )


def empty_rectangle_step(
    state: State, d: int, b: int, r: int, col: int, u: int, near: int, far: int, target: int
) -> Step:
    """The step of the empty rectangle on ``d`` in box ``b`` (its places in row ``r`` and column ``col``) with
    the strong link ``near`` = ``far`` in unit ``u``: ``target`` loses ``d``."""
    where = state.positions(b, d)
    elim = [(target, d)]
    return Step(
        "Empty Rectangle",
        eliminations=elim,
        cells=where + [near, far],
        units=[b, u],
        candidates=[(s, d) for s in where + [near, far]],
        explanation=(
            f"Empty rectangle on {state.sym(d)} in {state.unit_name(b)} (its "
            f"{state.sym(d)}s lie in "
            f"{state.unit_name(r)} and {state.unit_name(col)}) with {state.sym(d)} at "
            f"{state.label(near)} or {state.label(far)} in {state.unit_name(u)}: "
            f"{text.removals(state, elim)}"
        ),
    )
