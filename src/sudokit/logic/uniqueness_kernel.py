"""numba kernels of unique rectangles (:mod:`sudokit.logic.uniqueness`).

:func:`rectangles` lists the candidate rectangles once per state; :func:`ur_first` and :func:`ur3_best` replay
the Python finders' loops over them and name the rectangle (and unit and subset size) that gives the step, so
Python writes out only that one. Arguments are the state's candidate masks as an int64 array and the
geometry's tables from ``state_arrays.tables`` (digits numbered from 1 in the rectangles, as in Python)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import combo_union, first_combo, member, next_combo, popcount


@njit(cache=True)
def rectangles(cands, box_of, n):
    """Every rectangle of four empty cells in two rows, two columns and two boxes whose cells share two
    digits, as rows (top-left, top-right, bottom-left, bottom-right, x, y): rows paired first, then columns,
    then the digit pairs in increasing order."""
    out = []
    cols = np.empty(n, dtype=np.int64)
    masks = np.empty(n, dtype=np.int64)
    for r1 in range(n - 1):
        top = r1 * n
        for r2 in range(r1 + 1, n):
            bottom = r2 * n
            count = 0
            for col in range(n):
                m = cands[top + col] & cands[bottom + col]
                if m & (m - 1):  # two digits or more
                    cols[count] = col
                    masks[count] = m
                    count += 1
            for i in range(count):
                for j in range(i + 1, count):
                    common = masks[i] & masks[j]
                    if not common & (common - 1):
                        continue
                    a, b, c, d = top + cols[i], top + cols[j], bottom + cols[i], bottom + cols[j]
                    if (box_of[a] == box_of[c]) == (box_of[a] == box_of[b]):
                        continue
                    for x in range(n):
                        if (common >> x) & 1:
                            for y in range(x + 1, n):
                                if (common >> y) & 1:
                                    out.append((a, b, c, d, x + 1, y + 1))
    found = np.empty((len(out), 6), dtype=np.int64)
    for i in range(len(out)):
        for j in range(6):
            found[i, j] = out[i][j]
    return found


@njit(cache=True)
def _extra(rect, cands, xy, out):
    """The rectangle's cells whose candidates are not exactly ``xy`` go into ``out``; returns how many."""
    count = 0
    for j in range(4):
        if cands[rect[j]] != xy:
            out[count] = rect[j]
            count += 1
    return count


@njit(cache=True)
def ur_first(rects, cands, units, units_of, peers):
    """The first rectangle (index into ``rects``) that gives a type 1, 2 or 4 step in
    ``uniqueness.unique_rectangle``, or -1."""
    extra = np.empty(4, dtype=np.int64)
    for i in range(rects.shape[0]):
        rect = rects[i]
        x, y = rect[4], rect[5]
        xy = (1 << (x - 1)) | (1 << (y - 1))
        n_extra = _extra(rect, cands, xy, extra)
        if n_extra == 1:
            return i  # type 1
        if n_extra != 2:
            continue
        e0, e1 = extra[0], extra[1]
        if not member(peers[e0], e1):
            continue
        more0, more1 = cands[e0] & ~xy, cands[e1] & ~xy
        if more0 == more1 and popcount(more0) == 1:  # type 2: the extra digit z leaves their common peers
            for t in peers[e0]:
                if t < 0:
                    break
                if (
                    cands[t] & more0
                    and member(peers[e1], t)
                    and t != rect[0]
                    and t != rect[1]
                    and t != rect[2]
                    and t != rect[3]
                ):
                    return i
        for u in units_of[e0]:  # type 4: x or y has only the two extra cells left in a unit holding both
            if u < 0:
                break
            if not member(units[u], e1):
                continue
            for keep in (x, y):
                bit = 1 << (keep - 1)
                places = 0
                only = True
                for t in units[u]:
                    if cands[t] & bit:
                        places += 1
                        if t != e0 and t != e1:
                            only = False
                if only and places == 2:
                    return i
    return -1


@njit(cache=True)
def ur3_best(rects, cands, units, units_of, peers):
    """``uniqueness.unique_rectangle_type3``'s search: (rectangle index, unit, subset size) of the smallest
    naked subset the pseudo-cell forms, the first one of that size, or (-1, -1, -1)."""
    size = units.shape[1]
    extra = np.empty(4, dtype=np.int64)
    others = np.empty(size, dtype=np.int64)
    best_i, best_u, best_k = -1, -1, 5
    for i in range(rects.shape[0]):
        rect = rects[i]
        xy = (1 << (rect[4] - 1)) | (1 << (rect[5] - 1))
        if _extra(rect, cands, xy, extra) != 2 or not member(peers[extra[0]], extra[1]):
            continue
        e0, e1 = extra[0], extra[1]
        pseudo = (cands[e0] | cands[e1]) & ~xy
        if popcount(pseudo) > 4:  # a naked quad at most
            continue
        for u in units_of[e0]:
            if u < 0:
                break
            if not member(units[u], e1):
                continue
            m = 0
            for s in units[u]:
                if cands[s] and s != e0 and s != e1:
                    others[m] = s
                    m += 1
            for k in range(max(2, popcount(pseudo)), best_k):
                if _naked_with(cands, pseudo, others, m, k):
                    best_i, best_u, best_k = i, u, k
                    break
            if best_k == 2:
                break
        if best_k == 2:
            break
    return best_i, best_u, best_k


@njit(cache=True)
def _naked_with(cands, pseudo, others, m, k):
    """Whether ``k - 1`` of the ``m`` cells ``others`` hold, with the pseudo-cell's digits, exactly ``k`` digits
    and leave something to remove from the remaining cells (``uniqueness._naked_with``)."""
    fits = np.empty(m, dtype=np.int64)
    n_fits = 0
    for j in range(m):
        if popcount(cands[others[j]] | pseudo) <= k:
            fits[n_fits] = others[j]
            n_fits += 1
    pick = k - 1
    if n_fits < pick:
        return False
    idx = np.empty(pick, dtype=np.int64)
    first_combo(idx, pick)
    while True:
        digits = pseudo | combo_union(cands, fits, idx, pick)
        if popcount(digits) == k:
            for j in range(m):
                s = others[j]
                if not cands[s] & digits:
                    continue
                chosen = False
                for q in range(pick):
                    if fits[idx[q]] == s:
                        chosen = True
                        break
                if not chosen:
                    return True
        if not next_combo(idx, pick, n_fits):
            break
    return False
