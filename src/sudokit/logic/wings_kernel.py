"""numba kernel of the bent-set wings (:func:`sudokit.logic.wings.bent_wing`: WXYZ-Wing, VWXYZ-Wing).

:func:`bent_hit` replays the finder's search (pivots in cell order, then wings among the pivot's peers in cell
order, depth first) and returns only which set comes first; Python writes it out. Candidate masks are an int64
array; digits are numbered from 0 here (bit ``d`` of a mask)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from sudokit.bits import lowest_bit, popcount
from sudokit.geometry import Geometry


@lru_cache(maxsize=16)
def sees(g: Geometry) -> np.ndarray:
    """``(n_cells, n_cells)`` boolean array: whether two cells share a unit (a cell does not see itself)."""
    out = np.zeros((g.n_cells, g.n_cells), dtype=np.bool_)
    for s, ps in enumerate(g.peers):
        out[s, list(ps)] = True
    out.flags.writeable = False
    return out


@njit(cache=True)
def bent_hit(cands, peers, seen, k, found):
    """The first bent set of ``k`` cells: a pivot with 2..k candidates and ``k - 1`` of its peers with 2..k
    candidates, holding ``k`` digits together, of which exactly one (z) is held by two cells that do not see
    each other, and a cell outside holding z sees every z of the set. Returns z (from 0) and puts the cells,
    pivot first, into ``found``; -1 when there is none."""
    n = cands.shape[0]
    near = np.empty(peers.shape[1], dtype=np.int64)
    chosen = np.empty(k, dtype=np.int64)
    union = np.empty(k, dtype=np.int64)
    loose = np.empty(k, dtype=np.int64)
    nxt = np.empty(k + 1, dtype=np.int64)
    for pivot in range(n):
        cp = popcount(cands[pivot])
        if cp < 2 or cp > k:
            continue
        m = 0
        for t in peers[pivot]:  # a geometry's peers are in cell order
            if t < 0:
                break
            c = popcount(cands[t])
            if 2 <= c <= k:
                near[m] = t
                m += 1
        chosen[0], union[0], loose[0] = pivot, cands[pivot], 0
        depth = 1
        nxt[1] = 0
        while depth >= 1:
            if depth == k:
                if popcount(union[k - 1]) == k and loose[k - 1] != 0:
                    z = lowest_bit(loose[k - 1])
                    if _removes(cands, peers, seen, chosen, k, z):
                        for j in range(k):  # a loop: slice assignment costs a second of compiling
                            found[j] = chosen[j]
                        return z
                depth -= 1
                continue
            i = nxt[depth]
            if i >= m:
                depth -= 1
                continue
            nxt[depth] = i + 1
            s = near[i]
            wider = union[depth - 1] | cands[s]
            if popcount(wider) > k:
                continue
            more = loose[depth - 1]
            for j in range(depth):
                t = chosen[j]
                if not seen[s, t]:
                    more |= cands[s] & cands[t]
            if popcount(more) > 1:
                continue
            chosen[depth], union[depth], loose[depth] = s, wider, more
            depth += 1
            nxt[depth] = i + 1
    return -1


@njit(cache=True)
def _removes(cands, peers, seen, cells, k, z):
    """Whether a cell outside ``cells`` holding digit ``z`` sees every cell of ``cells`` holding it."""
    first = -1
    for j in range(k):
        if (cands[cells[j]] >> z) & 1:
            first = cells[j]
            break
    for t in peers[first]:
        if t < 0:
            break
        if not (cands[t] >> z) & 1:
            continue
        ok = True
        for j in range(k):
            s = cells[j]
            if s != first and (cands[s] >> z) & 1 and not seen[t, s]:
                ok = False
                break
        if ok:
            return True
    return False


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
    bivalue = np.empty(n, dtype=np.int64)
    nb = 0
    for s in range(n):
        if popcount(cands[s]) == 2:
            bivalue[nb] = s
            nb += 1
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
    n = cands.shape[0]
    bivalue = np.empty(n, dtype=np.int64)
    nb = 0
    for s in range(n):
        if popcount(cands[s]) == 2:
            bivalue[nb] = s
            nb += 1
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
