"""numba kernel of the single-digit patterns made of two strong links joined by a weak one
(:mod:`sudokit.logic.single_digit`: Skyscraper, 2-String Kite, Turbot Fish).

:func:`turbot_hit` replays the Python finder's loops, digit by digit in increasing order, and returns only
which pattern comes first; Python writes that one out. Candidate masks are an int64 array; digits are
numbered from 0 here (bit ``d`` of a mask)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import member
from sudokit.logic.state_arrays import two_places


@njit(cache=True)
def turbot_hit(cands, units, kind, box_of, peers, n, wanted, found):
    """The first ``wanted`` pattern (0 Skyscraper, 1 2-String Kite, 2 Turbot Fish; ``kind[u]``: 0 row,
    1 column, 2 other unit): for each digit, pairs of its strong links (units where it has two places, in unit
    order) with four different cells, ends turned both ways, where one end of each sees the other's and a
    cell seeing both far ends holds the digit. Returns the digit (from 0) and puts (unit 1, unit 2, x, y, z,
    w) into ``found``; -1 when there is none."""
    n_units = units.shape[0]
    link_u = np.empty(n_units, dtype=np.int64)
    link_a = np.empty(n_units, dtype=np.int64)
    link_b = np.empty(n_units, dtype=np.int64)
    for d in range(n):
        m = 0
        for u in range(n_units):
            a, b = two_places(cands, units, u, d)
            if a >= 0:
                link_u[m], link_a[m], link_b[m] = u, a, b
                m += 1
        for i in range(m):
            u1, a1, b1 = link_u[i], link_a[i], link_b[i]
            for j in range(i + 1, m):
                u2, a2, b2 = link_u[j], link_a[j], link_b[j]
                if a1 == a2 or a1 == b2 or b1 == a2 or b1 == b2:  # noqa: SIM109 - plain comparisons compile in numba
                    continue
                k1, k2 = kind[u1], kind[u2]
                if k1 == k2 and k1 != 2:
                    name = 0
                elif (k1 == 0 and k2 == 1) or (k1 == 1 and k2 == 0):
                    name = 1
                else:
                    name = 2
                if name != wanted:
                    continue
                for turn1 in range(2):
                    x, y = (a1, b1) if turn1 == 0 else (b1, a1)
                    for turn2 in range(2):
                        z, w = (a2, b2) if turn2 == 0 else (b2, a2)
                        if not member(peers[y], z):
                            continue
                        if name == 1 and box_of[y] != box_of[z]:
                            continue
                        for t in peers[x]:
                            if t < 0:
                                break
                            if (cands[t] >> d) & 1 and t != y and t != z and t != w and member(peers[w], t):
                                found[0], found[1], found[2], found[3], found[4], found[5] = u1, u2, x, y, z, w
                                return d
    return -1


@njit(cache=True, inline="always")
def _er_on(cands, units, bit, boxes, box_rows, box_cols, rows, cols, row_of, col_of, where, found):
    """:func:`empty_rectangle_hit` on one digit (mask ``bit``): True with ``found`` filled, or False."""
    for bi in range(boxes.shape[0]):
        b = boxes[bi]
        nw = 0
        for s in units[b]:
            if s >= 0 and cands[s] & bit:
                where[nw] = s
                nw += 1
        if nw < 2:
            continue
        many_rows = many_cols = False
        for i in range(1, nw):
            many_rows = many_rows or row_of[where[i]] != row_of[where[0]]
            many_cols = many_cols or col_of[where[i]] != col_of[where[0]]
        if not (many_rows and many_cols):
            continue
        for r in box_rows[bi]:
            if r < 0:
                break
            for col in box_cols[bi]:
                if col < 0:
                    break
                cross = True
                for i in range(nw):
                    if row_of[where[i]] != r and col_of[where[i]] != col:
                        cross = False
                        break
                if not cross:
                    continue
                for orient in range(2):
                    lines = cols if orient == 0 else rows
                    cross_of = row_of if orient == 0 else col_of
                    er_line = r if orient == 0 else col
                    er_cross = col if orient == 0 else r
                    for u in lines:
                        if member(box_cols[bi], u) or member(box_rows[bi], u):
                            continue
                        p0 = p1 = -1
                        count = 0
                        for s in units[u]:
                            if s >= 0 and cands[s] & bit:
                                count += 1
                                if count == 1:
                                    p0 = s
                                else:
                                    p1 = s
                        if count != 2:
                            continue
                        for turn in range(2):
                            near = p0 if turn == 0 else p1
                            far = p1 if turn == 0 else p0
                            if cross_of[near] != er_line:
                                continue
                            if member(box_rows[bi], cross_of[far]) or member(box_cols[bi], cross_of[far]):
                                continue
                            target = -1
                            for s in units[er_cross]:
                                if s >= 0 and cross_of[s] == cross_of[far]:
                                    target = s
                                    break
                            if target < 0 or member(units[b], target) or not cands[target] & bit:
                                continue
                            found[0] = b
                            found[1] = r
                            found[2] = col
                            found[3] = u
                            found[4] = near
                            found[5] = far
                            found[6] = target
                            return True
    return False


@njit(cache=True)
def empty_rectangle_hit(cands, units, boxes, box_rows, box_cols, rows, cols, row_of, col_of, skip, found):
    """The first empty rectangle (:func:`sudokit.logic.single_digit.empty_rectangle`), digits in order except
    those in the mask ``skip`` (bit ``d - 1``), then boxes, the box's rows and columns (``box_rows``,
    ``box_cols``: in the finder's order, padded with -1), strong links in the columns then the rows, each
    link both ways. Returns (digit from 1, or -1; the mask of the digits searched before it without one) and
    fills ``found`` with (box, row, column, link unit, near end, far end, target cell)."""
    size = units.shape[1]
    where = np.empty(size, dtype=np.int64)
    empty = 0
    for d in range(1, size + 1):
        bit = 1 << (d - 1)
        if skip & bit:
            continue
        if _er_on(cands, units, bit, boxes, box_rows, box_cols, rows, cols, row_of, col_of, where, found):
            return d, empty
        empty |= bit
    return -1, empty
