"""numba kernel of Aligned Pair Exclusion (:mod:`sudokit.logic.exclusion`).

:func:`pair_hit` replays the finder's search (pairs of cells in grid order) and returns only which pair comes
first; Python writes it out. Candidate masks are an int64 array (bit ``d - 1`` for digit ``d``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import bivalue_cells, low_bit, lowest_bit, popcount


@njit(cache=True)
def pair_hit(cands, seen):
    """The first pair of cells ``(a, b)``, ``a < b``, each with two or more candidates, seen both by at least
    two bivalue cells (the excluding cells), where a digit of ``a`` or of ``b`` is in no pair of digits the two
    can hold together: not one digit twice when they see each other, nor both digits of an excluding cell.
    ``(-1, -1)`` when there is none."""
    n = cands.shape[0]
    bivalue, nb = bivalue_cells(cands)
    if nb < 2:
        return -1, -1
    base = np.empty(n, dtype=np.int64)
    n_base = 0
    for s in range(n):
        if popcount(cands[s]) >= 2:
            for j in range(nb):
                if seen[s, bivalue[j]]:
                    base[n_base] = s
                    n_base += 1
                    break
    # the bivalue cells each base cell sees, as rows of 64-bit words over their numbers in ``bivalue``: a pair's
    # common ones are an AND of two rows, and most pairs have fewer than two
    words = (nb + 63) // 64
    vis = np.zeros((n_base, words), dtype=np.uint64)
    for i in range(n_base):
        a = base[i]
        for k in range(nb):
            if seen[a, bivalue[k]]:
                vis[i, k >> 6] |= np.uint64(1) << np.uint64(k & 63)
    covers = np.empty(nb, dtype=np.int64)
    for i in range(n_base):
        a = base[i]
        ca = cands[a]
        for j in range(i + 1, n_base):
            b = base[j]
            n_cov = 0
            for w in range(words):
                n_cov += popcount(vis[i, w] & vis[j, w])
            if n_cov < 2:
                continue
            n_cov = 0
            for w in range(words):
                m = vis[i, w] & vis[j, w]
                while m:
                    bit = low_bit(m)
                    m ^= bit
                    covers[n_cov] = cands[bivalue[w * 64 + lowest_bit(bit)]]
                    n_cov += 1
            cb = cands[b]
            see = seen[a, b]
            keep_a = 0
            keep_b = 0
            xs = ca
            while xs:
                xm = xs & -xs
                xs ^= xm
                ys = cb
                while ys:
                    ym = ys & -ys
                    ys ^= ym
                    if xm == ym and see:
                        continue
                    both = xm | ym
                    covered = False
                    for k in range(n_cov):
                        if covers[k] == both:
                            covered = True
                            break
                    if covered:
                        continue
                    keep_a |= xm
                    keep_b |= ym
            if ca & ~keep_a or cb & ~keep_b:
                return a, b
    return -1, -1
