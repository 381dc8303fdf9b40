"""numba kernels of ALS-XZ (:mod:`sudokit.logic.als`): :func:`als_sets` lists the almost locked sets in the
order ``als.als_xz`` takes them, :func:`als_xz_search` finds the first pair that removes something.

Cell sets are rows of ``W`` 64-bit words (``W = ceil(n_cells / 64)``); candidate masks are int64 with bit
``d - 1`` for digit ``d``."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import any_and, combo_union, first_combo, low_bit, lowest_bit, member, next_combo, popcount


@njit(cache=True)
def als_sets(cands, units, units_of, max_size, n_words):
    """The almost locked sets of the candidates ``cands``: for each unit, its sets of ``k`` empty
    cells (``k`` from 1 to ``max_size``, and below the unit's number of empty cells) with ``k + 1``
    candidates, in combination order; a set already listed under an earlier unit is left out. Returns (cells
    as rows of ``n_words`` 64-bit words, candidate masks, units, member cells padded with -1)."""
    n_units, size = units.shape
    empty = np.zeros(n_units, dtype=np.int64)
    for u in range(n_units):
        for s in units[u]:
            if cands[s]:
                empty[u] += 1
    found_cells = []
    found_mask = []
    found_unit = []
    pool = np.empty(size, dtype=np.int64)
    idx = np.empty(max_size, dtype=np.int64)
    for u in range(n_units):
        m = 0
        for s in units[u]:
            if cands[s]:
                pool[m] = s
                m += 1
        for k in range(1, min(max_size, m - 1) + 1):
            first_combo(idx, k)
            while True:
                mask = combo_union(cands, pool, idx, k)
                if popcount(mask) == k + 1 and not _listed_before(units_of, empty, pool, idx, k, u, max_size):
                    for j in range(k):
                        found_cells.append(pool[idx[j]])
                    for _ in range(k, max_size):
                        found_cells.append(-1)
                    found_mask.append(mask)
                    found_unit.append(u)
                if not next_combo(idx, k, m):
                    break
    n = len(found_mask)
    members = np.empty((n, max_size), dtype=np.int64)  # filled by hand: reshape costs seconds of compiling
    cells = np.zeros((n, n_words), dtype=np.uint64)
    for i in range(n):
        for j in range(max_size):
            s = found_cells[i * max_size + j]
            members[i, j] = s
            if s >= 0:
                cells[i, s >> 6] |= np.uint64(1) << np.uint64(s & 63)
    return cells, np.array(found_mask, dtype=np.int64), np.array(found_unit, dtype=np.int64), members


@njit(cache=True)
def _listed_before(units_of, empty, pool, idx, k, u, max_size):
    """Whether an earlier unit than ``u`` holds the cells ``pool[idx[:k]]`` and lists sets of ``k`` cells."""
    for v in units_of[pool[idx[0]]]:
        if v < 0 or v >= u:
            break
        if k > min(max_size, empty[v] - 1):
            continue
        inside = True
        for j in range(1, k):
            if not member(units_of[pool[idx[j]]], v):
                inside = False
                break
        if inside:
            return True
    return False


@njit(cache=True)
def als_xz_search(als_cells, als_mask, digit_cells, peers, size):
    """``als.als_xz``'s search over pairs of almost locked sets, in the same order: (i, j, x, z) of the first
    pair (``i < j``) with a restricted common digit ``x`` and a digit ``z`` they remove, or (-1, -1, -1, -1).

    Cell sets are rows of ``W`` 64-bit words: ``als_cells`` (n_als, W), ``digit_cells`` (size + 1, W) the
    cells holding each digit as a candidate, ``peers`` (n_cells, W)."""
    n_als, words = als_cells.shape
    hold = np.zeros((n_als, size + 1, words), dtype=np.uint64)
    see = np.zeros((n_als, size + 1, words), dtype=np.uint64)
    for i in range(n_als):
        for d in range(1, size + 1):
            if not (als_mask[i] >> (d - 1)) & 1:
                continue
            for w in range(words):
                hold[i, d, w] = digit_cells[d, w] & als_cells[i, w]
                see[i, d, w] = ~np.uint64(0)
            for w in range(words):
                x = hold[i, d, w]
                while x:
                    low = low_bit(x)
                    cell = w * 64 + lowest_bit(low)
                    for v in range(words):
                        see[i, d, v] &= peers[cell, v]
                    x ^= low
    for i in range(n_als):
        ma = als_mask[i]
        for j in range(i + 1, n_als):
            common = ma & als_mask[j]
            if popcount(common) < 2 or any_and(als_cells[i], als_cells[j]):
                continue
            for x in range(1, size + 1):
                if not (common >> (x - 1)) & 1:
                    continue
                restricted = True
                for w in range(words):
                    if hold[j, x, w] & ~see[i, x, w]:
                        restricted = False
                        break
                if not restricted:
                    continue
                for z in range(1, size + 1):
                    if z == x or not (common >> (z - 1)) & 1:
                        continue
                    for w in range(words):
                        if digit_cells[z, w] & see[i, z, w] & see[j, z, w] & ~als_cells[i, w] & ~als_cells[j, w]:
                            return i, j, x, z
    return -1, -1, -1, -1
