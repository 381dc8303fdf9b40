"""numba kernels of the wings (:mod:`sudokit.logic.wings`).

:func:`als_wing_hits` lists Sukaku Explainer's WXYZ- and VWXYZ-Wings in its search order (Python picks the one
it takes and writes it out); the XY-, XYZ- and W-Wing kernels return the first wing found. Candidate masks are an int64
array; digits are numbered from 0 here (bit ``d`` of a mask)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from sudokit.bits import bivalue_cells, lowest_bit, popcount
from sudokit.geometry import Geometry


@lru_cache(maxsize=16)
def sees(g: Geometry) -> np.ndarray:
    """``(n_cells, n_cells)`` boolean array: whether two cells share a unit (a cell does not see itself)."""
    out = np.zeros((g.n_cells, g.n_cells), dtype=np.bool_)
    for s, ps in enumerate(g.peers):
        out[s, list(ps)] = True
    out.flags.writeable = False
    return out


@lru_cache(maxsize=16)
def peer_order(g: Geometry) -> np.ndarray:
    """Each cell's peers in the order ``g.peer_sets[s]`` gives them (what the finders walk), padded with -1."""
    from sudokit.geometry import padded

    out = padded([list(ps) for ps in g.peer_sets])
    out.flags.writeable = False
    return out


@njit(cache=True)
def _seen_holder(cands, seen, a, b, c, z):
    """Whether a cell other than ``a``, ``b``, ``c`` (``c`` may be -1) holding a digit of mask ``z`` sees all of
    them."""
    for t in range(cands.shape[0]):
        if t == a or t == b or t == c or not cands[t] & z or not seen[a, t] or not seen[b, t]:  # noqa: SIM109 (numba)
            continue
        if c < 0 or seen[c, t]:
            return True
    return False


@njit(cache=True)
def xy_hit(cands, seen):
    """The first XY-Wing (:func:`sudokit.logic.wings.xy_wing`): bivalue pivots in cell order, then pairs of
    bivalue peers sharing one digit with it, in cell order. Returns (pivot, a, b) or three -1."""
    n = cands.shape[0]
    bivalue, nb = bivalue_cells(cands)
    near = np.empty(n, dtype=np.int64)
    for i in range(nb):
        pivot = bivalue[i]
        cp = cands[pivot]
        m = 0
        for j in range(nb):
            s = bivalue[j]
            if seen[pivot, s] and popcount(cands[s] & cp) == 1:
                near[m] = s
                m += 1
        for i1 in range(m):
            a = near[i1]
            za = cands[a] & ~cp
            for i2 in range(i1 + 1, m):
                b = near[i2]
                if za != cands[b] & ~cp or (cands[a] & cp) == (cands[b] & cp):
                    continue
                # np.int64(...): a constant argument would compile the callee again, for that literal value
                if _seen_holder(cands, seen, a, b, np.int64(-1), za):
                    return pivot, a, b
    return -1, -1, -1


@njit(cache=True)
def xyz_hit(cands, seen, peers):
    """The first XYZ-Wing (:func:`sudokit.logic.wings.xyz_wing`): pivots with three candidates in cell order,
    then pairs of its bivalue peers (``peers``: in the finder's order) holding only its digits. Returns
    (pivot, a, b) or three -1."""
    n = cands.shape[0]
    near = np.empty(peers.shape[1], dtype=np.int64)
    for pivot in range(n):
        cp = cands[pivot]
        if popcount(cp) != 3:
            continue
        m = 0
        for s in peers[pivot]:
            if s < 0:
                break
            if popcount(cands[s]) == 2 and not cands[s] & ~cp:
                near[m] = s
                m += 1
        for i1 in range(m):
            a = near[i1]
            for i2 in range(i1 + 1, m):
                b = near[i2]
                if cands[a] == cands[b] or (cands[a] | cands[b]) != cp:
                    continue
                if _seen_holder(cands, seen, a, b, pivot, cands[a] & cands[b]):
                    return pivot, a, b
    return -1, -1, -1


@njit(cache=True)
def w_hit(cands, seen, units):
    """The first W-Wing (:func:`sudokit.logic.wings.w_wing`): pairs of equal bivalue cells that do not see each
    other in cell order, their digits x in order, then the first unit (in number order) where x has exactly two
    places, neither of them, one seeing each cell. Returns (a, b, x, unit, p, q) (``p`` sees ``a``) or six
    -1."""
    bivalue, nb = bivalue_cells(cands)
    for i in range(nb):
        a = bivalue[i]
        for j in range(i + 1, nb):
            b = bivalue[j]
            if cands[a] != cands[b] or seen[a, b]:
                continue
            xs = cands[a]
            while xs:
                xm = xs & -xs
                xs ^= xm
                if not _seen_holder(cands, seen, a, b, np.int64(-1), cands[a] & ~xm):
                    continue
                for u in range(units.shape[0]):
                    p = q = -1
                    count = 0
                    for s in units[u]:
                        if s >= 0 and cands[s] & xm:
                            count += 1
                            if count == 1:
                                p = s
                            else:
                                q = s
                    if count != 2 or p == a or p == b or q == a or q == b:  # noqa: SIM109 (numba)
                        continue
                    if not (seen[a, p] and seen[b, q]):
                        p, q = q, p
                    if seen[a, p] and seen[b, q]:
                        return a, b, lowest_bit(xm) + 1, u, p, q
    return -1, -1, -1, -1, -1, -1


@njit(cache=True)
def als_wing_hits(cands, peers, seen, k, out):
    """Sukaku Explainer's WXYZ-Wing (``k`` 4) and VWXYZ-Wing (``k`` 5): ``k - 1`` cells that all see each other
    holding ``k`` digits together (an almost locked set, cells in increasing order), and a bivalue cell outside
    it, seeing one of its cells, whose two digits are among the set's. A digit of the bivalue cell whose every
    place in the set sees it is restricted: when one is, the set and the cell hold the other (or, when both
    are, every digit is locked). Each hit is a row of ``out``: the set's cells, the bivalue cell, the
    restricted digit, the other one (from 0) and whether both are restricted (1). Returns the number of rows
    (at most ``out.shape[0]``), in Sukaku Explainer's search order."""
    n = cands.shape[0]
    m = k - 1
    chosen = np.empty(m, dtype=np.int64)
    union = np.empty(m, dtype=np.int64)
    nxt = np.empty(m + 1, dtype=np.int64)
    rows = 0
    pairs, n_pairs = bivalue_cells(cands)  # the bivalue cells, in cell order
    for a in range(n):
        ca = popcount(cands[a])
        if ca < 2 or ca > k:
            continue
        chosen[0], union[0] = a, cands[a]
        depth = 1
        nxt[1] = 0
        while depth >= 1:
            if depth == m:
                u = union[m - 1]
                if popcount(u) == k:
                    for p in range(n_pairs):
                        yz = pairs[p]
                        c = cands[yz]
                        if c & ~u:
                            continue
                        near = False
                        inside = False
                        for j in range(m):
                            if chosen[j] == yz:
                                inside = True
                            elif seen[yz, chosen[j]]:
                                near = True
                        if inside or not near:
                            continue
                        x = lowest_bit(c)
                        z = lowest_bit(c & (c - 1))
                        rx = True
                        rz = True
                        for j in range(m):
                            s = chosen[j]
                            if not seen[yz, s]:
                                if (cands[s] >> x) & 1:
                                    rx = False
                                if (cands[s] >> z) & 1:
                                    rz = False
                        if not rx and not rz:
                            continue
                        if rows < out.shape[0]:
                            for j in range(m):
                                out[rows, j] = chosen[j]
                            out[rows, m] = yz
                            out[rows, m + 1] = x if rx else z
                            out[rows, m + 2] = z if rx else x
                            out[rows, m + 3] = 1 if rx and rz else 0
                            rows += 1
                depth -= 1
                continue
            i = nxt[depth]
            nxt[depth] = i + 1
            if i >= peers.shape[1] or peers[a, i] < 0:
                depth -= 1
                continue
            t = peers[a, i]
            if t <= chosen[depth - 1] or popcount(cands[t]) < 2:
                continue
            wider = union[depth - 1] | cands[t]
            if popcount(wider) > k:
                continue
            ok = True
            for j in range(1, depth):
                if not seen[t, chosen[j]]:
                    ok = False
                    break
            if not ok:
                continue
            chosen[depth], union[depth] = t, wider
            depth += 1
            if depth < m + 1:
                nxt[depth] = i + 1
    return rows


@njit(cache=True)
def _seen_by_all(cands, seen, out, row, m, d, extra):
    """Whether a cell outside the wing of ``out[row]`` holds digit ``d`` (from 0) and sees every cell of the set
    holding it (and ``extra`` when it is not -1)."""
    yz = out[row, m]
    for t in range(cands.shape[0]):
        if not (cands[t] >> d) & 1 or t == yz:
            continue
        if extra >= 0 and not seen[t, extra]:
            continue
        ok = True
        for j in range(m):
            c = out[row, j]
            if c == t or ((cands[c] >> d) & 1 and not seen[t, c]):
                ok = False
                break
        if ok:
            return True
    return False


@njit(cache=True)
def als_wing_removes(cands, seen, k, out, rows):
    """For each of the first ``rows`` rows of :func:`als_wing_hits`, whether the wing removes anything at all
    (``wings._als_wing_removals`` is not empty): its z from the cells seeing the bivalue cell and the set's
    every z, and when doubly linked its x likewise or another digit of the set from the cells seeing its every
    place in the set. Python writes out only the rows flagged."""
    m = k - 1
    flags = np.zeros(rows, dtype=np.bool_)
    for r in range(rows):
        yz = out[r, m]
        if _seen_by_all(cands, seen, out, r, m, out[r, m + 2], yz):
            flags[r] = True
            continue
        if not out[r, m + 3]:
            continue
        x, z = out[r, m + 1], out[r, m + 2]
        if _seen_by_all(cands, seen, out, r, m, x, yz):
            flags[r] = True
            continue
        union = 0
        for j in range(m):
            union |= cands[out[r, j]]
        for d in range(64):
            if (union >> d) & 1 and d != x and d != z and _seen_by_all(cands, seen, out, r, m, d, -1):
                flags[r] = True
                break
    return flags
