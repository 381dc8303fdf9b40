"""Basic fish (X-Wing, Swordfish, Jellyfish): ``k`` rows whose places for a digit lie in ``k`` columns
(or the other way round) remove the digit from the rest of those columns. Rows and columns only, so it
works on any geometry.

The basic fish search has two forms side by side that name the same fish (tested against each other): a numba
kernel (``fish_kernel.fish_hit``) and plain Python (:func:`fish_plain`); :func:`sudokit.jit.either` chooses.
Finned fish run in their kernel only."""

from __future__ import annotations

from functools import lru_cache, partial
from itertools import combinations

import numpy as np

from sudokit import jit
from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.misses import first_by_digit
from sudokit.logic.state import State
from sudokit.logic.step import Step

KERNELS = "sudokit.logic.fish_kernel"
FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def basic_fish(state: State, k: int) -> Step | None:
    """The first ``k``-fish found, rows as base first, then columns; digit by digit, then combinations of
    the base lines in increasing order (the kernel or the plain form finds which; Python writes out that
    one)."""
    hit = jit.either(KERNELS, fish_plain, _fish_kernel, state, k)
    return None if hit is None else fish_step(state, *hit)


def _fish_kernel(state: State, k: int) -> tuple[int, list[int]] | None:
    from sudokit.logic import fish_kernel, state_arrays

    _values, cands = state_arrays.arrays(state)
    units = state_arrays.tables(state.g)[0]
    found = np.empty(k, dtype=np.int64)
    for base, cover, cover_index in _fish_tables(state.g):
        d = fish_kernel.fish_hit(cands, units, base, cover, cover_index, state.g.size, k, found)
        if d >= 0:
            return int(d) + 1, [int(base[i]) for i in found]
    return None


def fish_plain(state: State, k: int) -> tuple[int, list[int]] | None:
    """:func:`fish_kernel.fish_hit` in plain Python, in the same order (rows as base, then columns; digit by
    digit; combinations of the base lines holding the digit in 2 to ``k`` places): (digit from 1, base lines)
    of the first ``k``-fish that removes something, or None."""
    g, cands = state.g, state.cands
    table = state.positions_table()
    for base, cover_of, base_of in ((g.rows, g.col_of, g.row_of), (g.cols, g.row_of, g.col_of)):
        for d in range(1, g.size + 1):
            lines = [u for u in base if 2 <= len(table[u][d]) <= k]
            if len(lines) < k:
                continue
            bit = 1 << (d - 1)
            for combo in combinations(lines, k):
                covers = {cover_of[s] for u in combo for s in table[u][d]}
                if len(covers) == k and any(
                    cands[s] & bit and base_of[s] not in combo for c in covers for s in g.units[c]
                ):
                    return d, list(combo)
    return None


@lru_cache(maxsize=32)
def _fish_tables(g: Geometry) -> tuple:
    """(base lines, cover lines, position in the cover lines of each cell's cover line) as arrays, rows as
    base first, then columns."""
    out = []
    for base, cover, cover_of in ((g.rows, g.cols, g.col_of), (g.cols, g.rows, g.row_of)):
        index = {u: i for i, u in enumerate(cover)}
        out.append(
            (
                np.array(base, dtype=np.int64),
                np.array(cover, dtype=np.int64),
                np.array([index[cover_of[s]] for s in range(g.n_cells)], dtype=np.int64),
            )
        )
    return tuple(out)


def fish_step(state: State, d: int, combo: list[int]) -> Step:
    """The fish step of digit ``d`` with the base lines ``combo`` (their places for ``d`` lie in
    ``len(combo)`` cover lines)."""
    g = state.g
    cover_of = g.col_of if combo[0] in g.rows else g.row_of
    bit = 1 << (d - 1)
    inside = {s for u in combo for s in state.positions(u, d)}
    covers = sorted({cover_of[s] for s in inside})
    elim = [(s, d) for v in covers for s in state.g.units[v] if state.cands[s] & bit and s not in inside]
    name = FISH_NAMES[len(combo)]
    return Step(
        name,
        eliminations=elim,
        cells=sorted(inside),
        units=list(combo) + covers,
        candidates=[(s, d) for s in sorted(inside)],
        explanation=(
            f"{name} on {state.sym(d)}: in {_names(state, combo)}, {state.sym(d)} can only go in "
            f"{_names(state, covers)} "
            f"({text.cells(state, inside)}): {text.removals(state, elim)}"
        ),
    )


@lru_cache(maxsize=32)
def _fin_tables(g: Geometry) -> tuple:
    """Per-geometry tables of :func:`finned_fish`, rows as base first, then columns: (base, cover units,
    cover line of each cell, band masks, box of each base line in each cover band, cover index of each cell,
    base lines (as indices into base) of each band of boxes). Needs rectangular boxes."""
    if g.box_rows is None or g.box_cols is None:
        raise ValueError(f"finned fish need rectangular boxes; {g.name} has none")
    index_of = {u: i for i, u in enumerate(g.cols)} | {u: i for i, u in enumerate(g.rows)}
    out = []
    for base, cover_units, cover_of, band in (
        (g.rows, g.cols, g.col_of, g.box_cols),
        (g.cols, g.rows, g.row_of, g.box_rows),
    ):
        # fins must share a box, so their cover indices lie in one band of ``band`` lines: every cover index
        # outside that band must be a cover, and the rest of the covers come from inside the band
        bands = [((1 << band) - 1) << (i * band) for i in range(g.size // band)]
        # box of base line u's cells in cover band b (None if they span boxes): a cheap exact pre-check that
        # the fins share a box, before the cell lists are built
        line_box = {}
        for u in base:
            per: dict[int, set[int]] = {}
            for s in g.units[u]:
                per.setdefault(index_of[cover_of[s]] // band, set()).add(g.box_of[s])
            line_box[u] = [next(iter(per[b])) if len(per.get(b, ())) == 1 else None for b in range(len(bands))]
        cover_index = [index_of[cover_of[s]] for s in range(g.n_cells)]
        across = g.size // (g.size // band)  # base lines per band of boxes (box_rows when rows are the base)
        base_bands = [[i for i in range(len(base)) if i // across == b] for b in range(g.size // across)]
        arrays = (  # for the kernels: band masks, each band of boxes as a run of base lines, base, cover indices
            np.array(bands, dtype=np.int64),
            np.array([group[0] for group in base_bands], dtype=np.int64),
            np.array([len(group) for group in base_bands], dtype=np.int64),
            np.array(base, dtype=np.int64),
            np.array(cover_index, dtype=np.int64),
        )
        out.append((base, cover_units, cover_of, bands, line_box, cover_index, base_bands, arrays))
    return tuple(out)


def finned_fish(state: State, k: int) -> Step | None:
    """A fish whose base lines also hold ``d`` in a few extra cells (the fins), all in one box: either the
    fish holds, or a fin is ``d``, so cells of the cover lines inside the fins' box lose ``d``. Needs boxes."""
    g = state.g
    if not g.has_boxes:
        return None
    pos = state.positions_table()
    for o, tables in enumerate(_fin_tables(g)):
        step = first_by_digit(("finned", k, o), state, partial(_finned_on, state, k, pos=pos, tables=tables))
        if step is not None:
            return step
    return None


def _finned_on(state: State, k: int, d: int, pos, tables: tuple) -> Step | None:
    """The first finned ``k``-fish on digit ``d`` with the base lines of ``tables``."""
    g, c = state.g, state.cands
    box_of = g.box_of
    size = g.size
    base, cover_units, cover_of, bands, line_box, cover_index, base_bands, arrays = tables
    band = bands[0].bit_count()
    bit = 1 << (d - 1)
    # the k-combinations of lines that can give a step (few), found by a kernel from the candidates; the covers
    # and the step are then spelled out here, in the same order as before
    from sudokit.logic import fish_kernel, state_arrays

    _values, cands = state_arrays.arrays(state)
    kept, hits = fish_kernel.finned_lines(
        cands, g.unit_array, arrays[3], arrays[4], bit, k, k + band, arrays[0], arrays[1], arrays[2]
    )
    if not hits:
        return None
    order = [base[i] for i in kept]  # base units are in increasing order, as ``sorted(lines)`` was
    lines = {u: pos[u][d] for u in order}
    span_of = {u: sum(1 << cover_index[s] for s in lines[u]) for u in order}
    for h in range(0, len(hits), k + 2):
        combo = tuple(order[j] for j in hits[h : h + k])
        union, found = hits[h + k], hits[h + k + 1]
        fin_bands = {bi for bi in range(len(bands)) if found >> bi & 1}
        inside = None
        for bi, band_mask in enumerate(bands):
            if bi not in fin_bands:
                continue
            required = union & ~band_mask
            need = k - required.bit_count()
            if need < 0:
                continue
            optional = [i for i in range(size) if (union & band_mask) >> i & 1]
            for extra in combinations(optional, need):
                cover_mask = required
                for i in extra:
                    cover_mask |= 1 << i
                if not union & ~cover_mask:
                    continue
                fin_box = None
                for u in combo:
                    if span_of[u] & ~cover_mask:
                        b = line_box[u][bi]
                        if b is None:
                            fin_box = None
                            break
                        if fin_box is None:
                            fin_box = b
                        elif b != fin_box:
                            fin_box = -1
                            break
                if fin_box == -1:
                    continue
                if inside is None:
                    inside = [s for u in combo for s in lines[u]]
                    where = [cover_index[s] for s in inside]
                fins = [s for s, i in zip(inside, where) if not cover_mask >> i & 1]
                first = box_of[fins[0]]
                if any(box_of[s] != first for s in fins):
                    continue
                covers = [cover_units[i] for i in range(size) if cover_mask >> i & 1]
                box = g.unit_sets[first]
                body = [s for s in inside if cover_of[s] in covers]
                elim = [(s, d) for v in covers for s in g.units[v] if s in box and c[s] & bit and s not in inside]
                if elim:
                    name = f"Finned {FISH_NAMES[k]}"
                    return Step(
                        name,
                        eliminations=elim,
                        cells=sorted(inside),
                        units=list(combo) + list(covers),
                        candidates=[(s, d) for s in sorted(inside)],
                        explanation=(
                            f"{name} on {state.sym(d)}: in {_names(state, combo)}, {state.sym(d)} goes in "
                            f"{_names(state, covers)} "
                            f"({text.cells(state, body)}) or in the fin {text.cells(state, fins)}: "
                            f"{text.removals(state, elim)}"
                        ),
                    )
    return None


def _names(state: State, units) -> str:
    return text.and_list([state.unit_name(u) for u in units])
