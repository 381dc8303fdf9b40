"""numba kernels of the chains (:mod:`sudokit.logic.chains`): the chain graph's links as rows of 64-bit words
(:func:`conflict_words`, :func:`strong_words`), the search for the start of the shortest chain
(:func:`best_start`) and the chain from that start (:func:`spell_chain`). The nice loops' kernels
(``loops_kernel``) walk the same word rows with :func:`spread`.

Candidates are numbered ``cell * n + digit - 1``; a set of them is a row of ``W`` 64-bit words."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import is_empty, low_bit, lowest_bit, popcount
from sudokit.logic.state_arrays import two_places


@njit(cache=True)
def best_start(strong, weak, conf, limit, n, skip):
    """Replay of ``find_chain``'s loop over starts: each start's shortest useful chain (breadth-first over
    bitsets of candidates, ``W`` 64-bit words per set), keeping a start only when it beats the best so far.
    The starts are the candidates, in number order, that have a strong link and a conflict, leaving out
    digit ``d`` when bit ``d - 1`` of ``skip`` is set (``n`` digits). Returns (the best start's candidate
    number, its chain's number of nodes) or (-1, -1).

    ``strong``, ``weak``, ``conf`` are (n_candidates, W) arrays: strong links, weak links and conflicts."""
    words = strong.shape[1]
    seen_off = np.zeros(words, dtype=np.uint64)
    seen_on = np.zeros(words, dtype=np.uint64)
    frontier = np.zeros(words, dtype=np.uint64)
    new = np.zeros(words, dtype=np.uint64)
    keep = np.zeros(words, dtype=np.uint64)
    one = np.uint64(1)
    best_i, best_len = -1, -1
    for a in range(strong.shape[0]):
        if (skip >> (a % n)) & 1 or is_empty(strong[a]) or is_empty(conf[a]):
            continue
        aw, ab = a // 64, np.uint64(a % 64)
        for w in range(words):
            keep[w] = conf[a, w]
            seen_off[w] = 0
            seen_on[w] = 0
            frontier[w] = 0
        keep[aw] &= ~(one << ab)
        seen_off[aw] = one << ab
        frontier[aw] = one << ab
        depth = 1
        on = False
        found = -1
        while depth < limit and not is_empty(frontier):
            spread(frontier, weak if on else strong, new)
            if on:
                for k in range(words):
                    new[k] &= ~seen_off[k]
                    seen_off[k] |= new[k]
            else:
                for k in range(words):
                    new[k] &= ~seen_on[k]
                    seen_on[k] |= new[k]
                if depth + 1 >= 4:
                    for w in range(words):
                        x = new[w]
                        if w == aw:
                            x &= ~(one << ab)
                        while x:
                            low = low_bit(x)
                            v = w * 64 + lowest_bit(low)
                            hit = False
                            for k in range(words):
                                m = keep[k] & conf[v, k]
                                if k == w:
                                    m &= ~low
                                if m:
                                    hit = True
                                    break
                            if hit:
                                found = depth + 1
                                break
                            x ^= low
                        if found > 0:
                            break
            if found > 0:
                break
            for k in range(words):
                frontier[k] = new[k]
            on = not on
            depth += 1
        if found > 0 and (best_len < 0 or found < best_len):
            best_i, best_len = a, found
            limit = found
    return best_i, best_len


@njit(cache=True)
def spell_chain(strong, weak, conf, a, limit):
    """The chain ``chains.find_chain`` reports from start ``a``: the first shortest chain (strong link first) in
    breadth-first order, links taken in increasing candidate number, whose ends remove something. Returns
    (the chain's candidate numbers, the candidate numbers it removes); both empty when no chain of fewer than
    ``limit`` nodes exists."""
    n_cand, words = strong.shape
    parent = np.full(2 * n_cand, -2, dtype=np.int64)  # key 2 * candidate + on; -2 unseen, -1 the start
    frontier = np.empty(2 * n_cand, dtype=np.int64)
    nxt = np.empty(2 * n_cand, dtype=np.int64)
    parent[2 * a] = -1
    frontier[0] = 2 * a
    size = 1
    depth = 1
    while size and depth < limit:
        count = 0
        check = depth + 1 >= 4
        for i in range(size):
            key = frontier[i]
            v = key >> 1
            on = key & 1
            for w0 in range(words):
                x = weak[v, w0] if on else strong[v, w0]
                while x:
                    low = low_bit(x)
                    x ^= low
                    w = w0 * 64 + lowest_bit(low)
                    k = 2 * w if on else 2 * w + 1
                    if parent[k] != -2:
                        continue
                    parent[k] = key
                    nxt[count] = k
                    count += 1
                    if on or not check or w == a:
                        continue
                    removed = []
                    for j in range(words):
                        m = conf[a, j] & conf[w, j]
                        while m:
                            low_m = low_bit(m)
                            m ^= low_m
                            b = j * 64 + lowest_bit(low_m)
                            if b != a and b != w:
                                removed.append(b)
                    if removed:
                        chain = []
                        j = k
                        while j != -1:
                            chain.append(j >> 1)
                            j = parent[j]
                        chain.reverse()
                        return np.array(chain, dtype=np.int64), np.array(removed, dtype=np.int64)
        for i in range(count):
            frontier[i] = nxt[i]
        size = count
        depth += 1
    return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)


@njit(cache=True)
def conflict_words(cands, peers, n, conf, same):
    """Fill ``conf`` (each candidate's conflicts: the other candidates of its cell and its digit in the
    cell's peers) and ``same`` (the latter only), rows and bits numbered ``cell * n + digit - 1``, from the
    candidate masks ``cands`` and the peer table ``peers`` (padded with -1). Both start zeroed."""
    one = np.uint64(1)
    for s in range(cands.shape[0]):
        m = cands[s]
        if m == 0:
            continue
        for d in range(n):
            if not (m >> d) & 1:
                continue
            v = s * n + d
            for e in range(n):
                if e != d and (m >> e) & 1:
                    b = s * n + e
                    conf[v, b >> 6] |= one << np.uint64(b & 63)
            for k in range(peers.shape[1]):
                p = peers[s, k]
                if p < 0:
                    break
                if (cands[p] >> d) & 1:
                    b = p * n + d
                    bit = one << np.uint64(b & 63)
                    conf[v, b >> 6] |= bit
                    same[v, b >> 6] |= bit


@njit(cache=True)
def _link(words, a, b):
    """Candidates ``a`` and ``b`` gain each other as links (rows of 64-bit words, lowest first)."""
    one = np.uint64(1)
    words[a, b >> 6] |= one << np.uint64(b & 63)
    words[b, a >> 6] |= one << np.uint64(a & 63)


@njit(cache=True)
def strong_words(cands, units, n, in_cells, in_units, strong):
    """Fill ``strong`` (zeroed) with the strong links of the candidate masks ``cands``: the two digits of a
    bivalue cell when ``in_cells``, the only two places of a digit in a unit (rows of ``units``) when
    ``in_units``; numbered ``cell * n + digit - 1``."""
    if in_cells:
        for s in range(cands.shape[0]):
            m = cands[s]
            if popcount(m) != 2:
                continue
            _link(strong, s * n + lowest_bit(m), s * n + lowest_bit(m & (m - 1)))
    if in_units:
        for u in range(units.shape[0]):
            for d in range(n):
                first, second = two_places(cands, units, u, d)
                if first >= 0:
                    _link(strong, first * n + d, second * n + d)


@njit(cache=True)
def spread(frontier, links, out):
    """``out`` = the union of ``links[v]`` over the candidates ``v`` of ``frontier``."""
    words = out.shape[0]
    for k in range(words):
        out[k] = 0
    for w in range(words):
        x = frontier[w]
        while x:
            low = low_bit(x)
            v = w * 64 + lowest_bit(low)
            for k in range(words):
                out[k] |= links[v, k]
            x ^= low
