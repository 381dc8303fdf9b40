"""numba kernels of the ALS techniques (:mod:`sudokit.logic.als`): :func:`als_sets` lists the almost locked
sets in the order ``als.als_xz`` takes them, :func:`hold_see` where each set holds each digit and which cells
see all of them; :func:`als_xz_search`, :func:`als_xy_wing_search` and :func:`death_blossom_search` find the
first ALS-XZ, ALS-XY-Wing and Death Blossom that remove something.

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
def hold_see(als_cells, als_mask, digit_cells, peers, size):
    """For each set ``i`` and digit ``d`` of it: ``hold[i, d]``, its cells holding ``d``, and ``see[i, d]``, the
    cells that see every one of them (both rows of ``W`` words; zero for digits the set lacks)."""
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
    return hold, see


@njit(cache=True)
def _restricted(hold, see, i, j, x):
    """Whether ``x`` is a restricted common digit of sets ``i`` and ``j``: every ``x`` of one sees every ``x``
    of the other (``x`` in both)."""
    for w in range(hold.shape[2]):  # noqa: SIM110 - numba compiles no generator in all()
        if hold[j, x, w] & ~see[i, x, w]:
            return False
    return True


@njit(cache=True)
def als_xz_search(als_cells, als_mask, digit_cells, peers, size):
    """``als.als_xz``'s search over pairs of almost locked sets, in the same order: (i, j, x, z) of the first
    pair (``i < j``) with a restricted common digit ``x`` and a digit ``z`` they remove, or (-1, -1, -1, -1).

    Cell sets are rows of ``W`` 64-bit words: ``als_cells`` (n_als, W), ``digit_cells`` (size + 1, W) the
    cells holding each digit as a candidate, ``peers`` (n_cells, W)."""
    n_als, words = als_cells.shape
    hold, see = hold_see(als_cells, als_mask, digit_cells, peers, size)
    for i in range(n_als):
        ma = als_mask[i]
        for j in range(i + 1, n_als):
            common = ma & als_mask[j]
            if popcount(common) < 2 or any_and(als_cells[i], als_cells[j]):
                continue
            for x in range(1, size + 1):
                if not (common >> (x - 1)) & 1:
                    continue
                if not _restricted(hold, see, i, j, x):
                    continue
                for z in range(1, size + 1):
                    if z == x or not (common >> (z - 1)) & 1:
                        continue
                    for w in range(words):
                        if digit_cells[z, w] & see[i, z, w] & see[j, z, w] & ~als_cells[i, w] & ~als_cells[j, w]:
                            return i, j, x, z
    return -1, -1, -1, -1


@njit(cache=True)
def als_xy_wing_search(als_cells, als_mask, digit_cells, peers, size):
    """ALS-XY-Wing: the first (a, b, c, x, y, z) with sets ``a``, ``b``, ``c`` pairwise apart, ``x`` a
    restricted common digit of ``a`` and ``b``, ``y != x`` one of ``b`` and ``c``, and ``z`` (neither) a digit of
    ``a`` and ``c`` that some cell outside them sees in all its places there; or six -1. Pivots ``b`` in list
    order, then ``a < c`` in list order, digits in increasing order."""
    n_als, words = als_cells.shape
    hold, see = hold_see(als_cells, als_mask, digit_cells, peers, size)
    # (a, x) links of one pivot: a set may share several restricted common digits with it
    linked = np.empty(n_als * size, dtype=np.int64)
    link_digit = np.empty(n_als * size, dtype=np.int64)
    for b in range(n_als):
        n = 0
        for a in range(n_als):
            common = als_mask[a] & als_mask[b]
            if a == b or not common or any_and(als_cells[a], als_cells[b]):
                continue
            for x in range(1, size + 1):
                if (common >> (x - 1)) & 1 and _restricted(hold, see, a, b, x):
                    linked[n] = a
                    link_digit[n] = x
                    n += 1
        for p in range(n):
            a, x = linked[p], link_digit[p]
            for q in range(n):
                c, y = linked[q], link_digit[q]
                if c <= a or y == x or any_and(als_cells[a], als_cells[c]):
                    continue
                zs = als_mask[a] & als_mask[c] & ~(np.int64(1) << (x - 1)) & ~(np.int64(1) << (y - 1))
                if not zs:
                    continue
                for z in range(1, size + 1):
                    if not (zs >> (z - 1)) & 1:
                        continue
                    for w in range(words):
                        if digit_cells[z, w] & see[a, z, w] & see[c, z, w] & ~als_cells[a, w] & ~als_cells[c, w]:
                            return a, b, c, x, y, z
    return -1, -1, -1, -1, -1, -1


@njit(cache=True)
def death_blossom_search(als_cells, als_mask, digit_cells, peers, cands, size, max_petals):
    """Death Blossom: a stem cell with 2 to ``max_petals`` candidates and, for each of its digits ``d``, an
    almost locked set (a petal) holding ``d`` only in cells that see the stem, petals pairwise apart and apart
    from the stem, all holding a digit ``z`` the stem lacks, that some cell outside them sees in all its places
    there. Returns (stem, z, petal of each stem digit in increasing digit order, padded with -1) of the first,
    stems in cell order, or stem -1."""
    n_als, words = als_cells.shape
    n_cells = cands.shape[0]
    hold, see = hold_see(als_cells, als_mask, digit_cells, peers, size)
    petals = np.full(max_petals, -1, dtype=np.int64)
    options = np.empty((max_petals, n_als), dtype=np.int64)
    counts = np.zeros(max_petals, dtype=np.int64)
    digits = np.empty(max_petals, dtype=np.int64)
    pos = np.zeros(max_petals, dtype=np.int64)
    for stem in range(n_cells):
        m = cands[stem]
        k = popcount(m)
        if k < 2 or k > max_petals:
            continue
        sw, sb = stem >> 6, np.uint64(1) << np.uint64(stem & 63)
        t = 0
        ok = True
        for d in range(1, size + 1):
            if not (m >> (d - 1)) & 1:
                continue
            digits[t] = d
            counts[t] = 0
            for i in range(n_als):
                if not (als_mask[i] >> (d - 1)) & 1 or als_cells[i, sw] & sb:
                    continue
                inside = True  # every d of the petal sees the stem
                for w in range(words):
                    if hold[i, d, w] & ~peers[stem, w]:
                        inside = False
                        break
                if inside:
                    options[t, counts[t]] = i
                    counts[t] += 1
            if counts[t] == 0:
                ok = False
                break
            t += 1
        if not ok:
            continue
        # depth-first over one petal per digit, keeping the digits all petals share (less the stem's)
        level = 0
        pos[0] = 0
        while level >= 0:
            if pos[level] >= counts[level]:
                level -= 1
                if level >= 0:
                    pos[level] += 1
                continue
            i = options[level, pos[level]]
            fits = True
            for e in range(level):
                if any_and(als_cells[petals[e]], als_cells[i]):
                    fits = False
                    break
            shared = als_mask[i] & ~m
            for e in range(level):
                shared &= als_mask[petals[e]]
            if not fits or not shared:
                pos[level] += 1
                continue
            petals[level] = i
            if level + 1 < k:
                level += 1
                pos[level] = 0
                continue
            for z in range(1, size + 1):
                if not (shared >> (z - 1)) & 1:
                    continue
                for w in range(words):
                    x = digit_cells[z, w]
                    for e in range(k):
                        x &= see[petals[e], z, w] & ~als_cells[petals[e], w]
                    if x:
                        out = np.full(max_petals, -1, dtype=np.int64)
                        for e in range(k):
                            out[e] = petals[e]
                        return stem, z, out
            pos[level] += 1
    return -1, -1, np.full(max_petals, -1, dtype=np.int64)


@njit(cache=True)
def _rcc_links(als_cells, als_mask, hold, see, size):
    """Every pair of sets apart with a restricted common digit, as lists by set: set ``i``'s links are
    ``to[start[i]:start[i + 1]]`` with their digits ``via[...]`` (sets in list order, then digits)."""
    n_als = als_cells.shape[0]
    start = np.zeros(n_als + 1, dtype=np.int64)
    to_list = []
    via_list = []
    for i in range(n_als):
        for j in range(n_als):
            common = als_mask[i] & als_mask[j]
            if i == j or not common or any_and(als_cells[i], als_cells[j]):
                continue
            for x in range(1, size + 1):
                if (common >> (x - 1)) & 1 and _restricted(hold, see, i, j, x):
                    to_list.append(j)
                    via_list.append(x)
        start[i + 1] = len(to_list)
    to = np.empty(len(to_list), dtype=np.int64)
    via = np.empty(len(via_list), dtype=np.int64)
    for k in range(len(to_list)):
        to[k] = to_list[k]
        via[k] = via_list[k]
    return start, to, via


@njit(cache=True)
def als_chain_search(als_cells, als_mask, digit_cells, peers, size, min_sets, max_sets):
    """ALS-Chain: the shortest chain of ``min_sets`` to ``max_sets`` almost locked sets, pairwise apart, each
    joined to the next by a restricted common digit, no two links in a row by the same digit, whose first and
    last sets share a digit ``z`` (neither the first link's nor the last one's) that some cell outside them
    sees in all its places there. Breadth first from each first set and ``z`` in order over (set, digit of
    the link into it), each reached once. Returns (z, the sets, the link digits), the last two padded with -1,
    or z = -1."""
    n_als, words = als_cells.shape
    hold, see = hold_see(als_cells, als_mask, digit_cells, peers, size)
    start, to, via = _rcc_links(als_cells, als_mask, hold, see, size)
    cap = n_als * (size + 1)
    node = np.empty(cap, dtype=np.int64)
    digit = np.empty(cap, dtype=np.int64)
    parent = np.empty(cap, dtype=np.int64)
    depth = np.empty(cap, dtype=np.int64)
    stamp = np.full((n_als, size + 1), -1, dtype=np.int64)
    target = np.empty(words, dtype=np.uint64)
    best_z, best_len = -1, max_sets + 1
    best_sets = np.full(max_sets, -1, dtype=np.int64)
    best_via = np.full(max_sets, -1, dtype=np.int64)
    run = 0
    for a in range(n_als):
        if start[a] == start[a + 1]:
            continue
        for z in range(1, size + 1):
            if not (als_mask[a] >> (z - 1)) & 1:
                continue
            seen_any = False
            for w in range(words):
                target[w] = digit_cells[z, w] & see[a, z, w] & ~als_cells[a, w]
                if target[w]:
                    seen_any = True
            if not seen_any:
                continue
            run += 1
            tail = 0
            for k in range(start[a], start[a + 1]):
                if via[k] == z or stamp[to[k], via[k]] == run:
                    continue
                stamp[to[k], via[k]] = run
                node[tail], digit[tail], parent[tail], depth[tail] = to[k], via[k], -1, 2
                tail += 1
            head = 0
            found = -1
            while head < tail and found < 0:
                s = head
                head += 1
                j, x, d = node[s], digit[s], depth[s]
                if d + 1 >= best_len:
                    break
                for k in range(start[j], start[j + 1]):
                    m, y = to[k], via[k]
                    if y == x or stamp[m, y] == run:
                        continue
                    apart = not any_and(als_cells[a], als_cells[m])
                    p = s
                    while apart and p >= 0:
                        if any_and(als_cells[node[p]], als_cells[m]):
                            apart = False
                        p = parent[p]
                    if not apart:
                        continue
                    stamp[m, y] = run
                    node[tail], digit[tail], parent[tail], depth[tail] = m, y, s, d + 1
                    tail += 1
                    if d + 1 < min_sets or y == z or not (als_mask[m] >> (z - 1)) & 1:
                        continue
                    for w in range(words):
                        if target[w] & see[m, z, w] & ~als_cells[m, w]:
                            found = tail - 1
                            break
                    if found >= 0:
                        break
            if found >= 0:
                best_z, best_len = z, depth[found]
                best_sets[:] = -1
                best_via[:] = -1
                p = found
                i = best_len - 1
                while p >= 0:
                    best_sets[i] = node[p]
                    best_via[i - 1] = digit[p]
                    p = parent[p]
                    i -= 1
                best_sets[0] = a
    return best_z, best_sets, best_via
