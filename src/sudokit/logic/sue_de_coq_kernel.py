"""numba kernel of Sue de Coq (:mod:`sudokit.logic.sue_de_coq`): :func:`sdc_search` finds the first pattern
that removes something, in the order the module documents. Cells are int64 indices; candidate masks int64
with bit ``d - 1`` for digit ``d``."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import combo_union, first_combo, next_combo, popcount


@njit(cache=True)
def _side_sets(cands, pool, n, v, need, max_side, sel, masks, gains):
    """The sets of 1 to ``max_side`` cells of ``pool[:n]`` with a gain (cells less digits outside ``v``) of 1
    to ``need - 1``, smaller first and in combination order: each as a bitmask of pool indices in ``sel``, its
    digits in ``masks`` and its gain in ``gains``. Returns how many."""
    count = 0
    idx = np.empty(max_side, dtype=np.int64)
    for k in range(1, min(n, max_side) + 1):
        first_combo(idx, k)
        while True:
            m = combo_union(cands, pool, idx, k)
            gain = k - popcount(m & ~v)
            if 0 < gain < need:
                bits = 0
                for j in range(k):
                    bits |= 1 << idx[j]
                sel[count] = bits
                masks[count] = m
                gains[count] = gain
                count += 1
            if not next_combo(idx, k, n):
                break
    return count


@njit(cache=True)
def _removes(cands, unit_cells, n, core, side, side_n, side_bits, off):
    """Whether a cell of ``unit_cells[:n]`` outside ``core`` and the chosen side set holds a digit of ``off``."""
    for j in range(n):
        s = unit_cells[j]
        if not cands[s] & off:
            continue
        skip = False
        for t in core:
            if t == s:
                skip = True
        for t in range(side_n):
            if (side_bits >> t) & 1 and side[t] == s:
                skip = True
        if not skip:
            return True
    return False


@njit(cache=True)
def sdc_search(cands, pair_line, pair_box, line_units, box_units, in_box, in_line, max_side):
    """The first Sue de Coq: pairs (a line and a box it crosses) in the order given, the intersection's empty
    cells (all, then each two of three), then line sets and box sets (1 to ``max_side`` cells each holding a
    digit of the core, smaller first). ``line_units[p]`` / ``box_units[p]`` are the cells of pair ``p``'s line
    and box; ``in_box[p, s]`` / ``in_line[p, s]`` whether cell ``s`` is in them. Returns (pair, core as three
    cells padded with -1, line set, box set as cells padded with -1), pair -1 if none."""
    size = line_units.shape[1]
    line_cells = np.empty(size, dtype=np.int64)
    box_cells = np.empty(size, dtype=np.int64)
    inter = np.empty(size, dtype=np.int64)
    line_side = np.empty(size, dtype=np.int64)
    box_side = np.empty(size, dtype=np.int64)
    cap = 1 << min(size, 16)
    bsel = np.empty(cap, dtype=np.int64)
    bmask = np.empty(cap, dtype=np.int64)
    bgain = np.empty(cap, dtype=np.int64)
    asel = np.empty(cap, dtype=np.int64)
    amask = np.empty(cap, dtype=np.int64)
    again = np.empty(cap, dtype=np.int64)
    core = np.full(3, -1, dtype=np.int64)
    for p in range(pair_line.shape[0]):
        nl = nb = ni = 0
        for s in line_units[p]:
            if s >= 0 and cands[s]:
                line_cells[nl] = s
                nl += 1
                if in_box[p, s]:
                    inter[ni] = s
                    ni += 1
        if nl < 4 or ni < 2 or ni > 3:
            continue
        for s in box_units[p]:
            if s >= 0 and cands[s]:
                box_cells[nb] = s
                nb += 1
        # cores: all intersection cells, then (for three) each two of them in combination order
        n_cores = 1 if ni == 2 else 4
        for q in range(n_cores):
            core[:] = -1
            if q == 0:
                for j in range(ni):
                    core[j] = inter[j]
                k = ni
            else:
                a, b = (0, 1) if q == 1 else ((0, 2) if q == 2 else (1, 2))
                core[0] = inter[a]
                core[1] = inter[b]
                k = 2
            v = 0
            for j in range(k):
                v |= cands[core[j]]
            need = popcount(v) - k
            if need < 2:
                continue
            na = 0
            for j in range(nl):
                s = line_cells[j]
                if not in_box[p, s] and cands[s] & v:
                    line_side[na] = s
                    na += 1
            nbs = 0
            for j in range(nb):
                s = box_cells[j]
                if not in_line[p, s] and cands[s] & v:
                    box_side[nbs] = s
                    nbs += 1
            if na == 0 or nbs == 0:
                continue
            n_b = _side_sets(cands, box_side, nbs, v, need, max_side, bsel, bmask, bgain)
            if n_b == 0:
                continue
            n_a = _side_sets(cands, line_side, na, v, need, max_side, asel, amask, again)
            for i in range(n_a):
                for j in range(n_b):
                    if again[i] + bgain[j] != need or amask[i] & bmask[j]:
                        continue
                    only_core = v & ~amask[i] & ~bmask[j]
                    if _removes(cands, line_cells, nl, core[:k], line_side, na, asel[i], amask[i] | only_core) or (
                        _removes(cands, box_cells, nb, core[:k], box_side, nbs, bsel[j], bmask[j] | only_core)
                    ):
                        out_a = np.full(size, -1, dtype=np.int64)
                        out_b = np.full(size, -1, dtype=np.int64)
                        t = 0
                        for e in range(na):
                            if (asel[i] >> e) & 1:
                                out_a[t] = line_side[e]
                                t += 1
                        t = 0
                        for e in range(nbs):
                            if (bsel[j] >> e) & 1:
                                out_b[t] = box_side[e]
                                t += 1
                        return p, core.copy(), out_a, out_b
    return -1, core.copy(), np.full(size, -1, dtype=np.int64), np.full(size, -1, dtype=np.int64)
