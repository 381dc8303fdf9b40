"""numba kernel of Aligned Triple Exclusion (:mod:`sudokit.logic.triple_exclusion`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import low_bit, lowest_bit, popcount


def work(n_cells: int):
    """Work arrays of :func:`search` on ``n_cells`` cells (made in Python: numba compiles each array
    constructor a kernel meets): the cells of two candidates or more, the excluding cells' flags, the rows of
    excluding cells each cell sees (64-bit words) and of a pair's, the changed cells each cell sees, the
    common ones, and the answer (cells, digits kept)."""
    words = (n_cells + 63) // 64
    return (
        np.empty(n_cells, dtype=np.int64),
        np.zeros(n_cells, dtype=np.uint8),
        np.zeros((n_cells, words), dtype=np.uint64),
        np.empty(words, dtype=np.uint64),
        np.zeros((n_cells, words), dtype=np.uint64),
        np.empty(n_cells, dtype=np.int64),
        np.full(3, -1, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
    )


@njit(cache=True, error_model="numpy")
def search(cands, see, peers, n, min_common, dirty, base, excl, sees, pair, dsees, common, out_cells, out_keep):
    """The first three cells (in grid order) whose allowed digit triples leave out a digit of one of them:
    (cells, the digits each keeps) or (-1s, 0s). ``see[a, b]``: cells a and b are peers. Excluding cells have 2
    or 3 candidates and see all three; a triple is ruled out when two of the cells that see each other hold one
    digit, or an excluding cell's candidates are all among the three digits.

    What three cells give depends only on their candidates and those of the cells that see all three
    (``peers``: each cell's, padded with -1), so only the triples with a cell flagged in ``dirty`` (uint8 per
    cell) among them or among the cells seeing all three are searched: with every cell flagged, all of them;
    with the cells changed since a search on other candidates found nothing, exactly those that can now remove
    something. The arguments after ``dirty`` come from :func:`work`."""
    n_cells = cands.shape[0]
    nb = 0
    for s in range(n_cells):
        c = cands[s]
        if c and c & (c - 1):
            base[nb] = s
            nb += 1
    for s in range(n_cells):
        k = 0
        c = cands[s]
        while c:
            c &= c - 1
            k += 1
        if 2 <= k <= 3:
            excl[s] = 1
    # the excluding cells each cell sees, and all of them, as rows of 64-bit words: a pair of cells with fewer
    # than ``min_common`` of them in common rules out every third cell at once
    words = sees.shape[1]
    for s in range(n_cells):
        for j in range(peers.shape[1]):
            x = peers[s, j]
            if x < 0:
                break
            if excl[x]:
                sees[s, x >> 6] |= np.uint64(1) << np.uint64(x & 63)
            if dirty[x]:
                dsees[s, x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    for i in range(nb):
        a = base[i]
        for j in range(i + 1, nb):
            b = base[j]
            both = 0
            for w in range(words):
                pair[w] = sees[a, w] & sees[b, w]
                both += popcount(pair[w])
            if both < min_common:
                continue
            for k in range(j + 1, nb):
                c3 = base[k]
                if not (dirty[a] or dirty[b] or dirty[c3]):
                    near = np.uint64(0)
                    for w in range(words):
                        near |= dsees[a, w] & dsees[b, w] & dsees[c3, w]
                    if not near:
                        continue  # nothing it depends on changed: it removes nothing, as before
                nc = 0
                for w in range(words):
                    nc += popcount(pair[w] & sees[c3, w])
                if nc < min_common:
                    continue
                nc = 0
                for w in range(words):  # the common excluding cells, in grid order
                    m = pair[w] & sees[c3, w]
                    while m:
                        bit = low_bit(m)
                        m ^= bit
                        common[nc] = w * 64 + lowest_bit(bit)
                        nc += 1
                # for each pair of digits (da, db) the digits c3 may take with them, as a mask: c3's candidates
                # less da and db where it sees a or b, less the last digit of a common excluding cell whose other
                # candidates are da and db (none left when all of them are)
                keep_a = keep_b = keep_c = 0
                ma, mb, mc = cands[a], cands[b], cands[c3]
                for da in range(n):
                    if not (ma >> da) & 1:
                        continue
                    for db in range(n):
                        if not (mb >> db) & 1 or (db == da and see[a, b]):
                            continue
                        pair_bits = (1 << da) | (1 << db)
                        free = mc
                        if see[a, c3]:
                            free &= ~(1 << da)
                        if see[b, c3]:
                            free &= ~(1 << db)
                        for t in range(nc):
                            rest = cands[common[t]] & ~pair_bits
                            if rest & (rest - 1) == 0:  # one digit left (or none): the third cannot take it
                                free &= ~rest if rest else 0
                        if free:
                            keep_a |= 1 << da
                            keep_b |= 1 << db
                            keep_c |= free
                    if keep_a == ma and keep_b == mb and keep_c == mc:
                        break  # every digit kept: nothing to remove
                if keep_a != cands[a] or keep_b != cands[b] or keep_c != cands[c3]:
                    out_cells[0], out_cells[1], out_cells[2] = a, b, c3
                    out_keep[0], out_keep[1], out_keep[2] = keep_a, keep_b, keep_c
                    return out_cells, out_keep
    return out_cells, out_keep
