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
