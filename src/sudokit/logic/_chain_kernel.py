"""numba kernel for the chain search of :func:`sudokit.logic.chains.find_chain` (imported lazily).

Kept apart from ``_kernels`` so that each module's compiled cache stays valid when the other changes."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def best_start(starts, strong, weak, conf, limit):
    """Replay of ``find_chain``'s loop over starts: each start's shortest useful chain (breadth-first over
    bitsets of candidates, ``W`` 64-bit words per set), keeping a start only when it beats the best so far.
    Returns (index into ``starts`` of the best start, its number of nodes) or (-1, -1).

    ``strong``, ``weak``, ``conf`` are (n_candidates, W) arrays: strong links, weak links and conflicts."""
    n, words = strong.shape
    seen_off = np.zeros(words, dtype=np.uint64)
    seen_on = np.zeros(words, dtype=np.uint64)
    frontier = np.zeros(words, dtype=np.uint64)
    new = np.zeros(words, dtype=np.uint64)
    keep = np.zeros(words, dtype=np.uint64)
    one = np.uint64(1)
    best_i, best_len = -1, -1
    for si in range(starts.shape[0]):
        a = starts[si]
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
        while depth < limit:
            any_frontier = False
            for w in range(words):
                if frontier[w]:
                    any_frontier = True
                    break
            if not any_frontier:
                break
            for w in range(words):
                new[w] = 0
            for w in range(words):
                x = frontier[w]
                while x:
                    low = x & (~x + one)
                    v = w * 64 + _bit_index(low)
                    if on:
                        for k in range(words):
                            new[k] |= weak[v, k]
                    else:
                        for k in range(words):
                            new[k] |= strong[v, k]
                    x ^= low
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
                            low = x & (~x + one)
                            v = w * 64 + _bit_index(low)
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
            best_i, best_len = si, found
            limit = found
    return best_i, best_len


@njit(cache=True)
def _bit_index(low):
    n = 0
    while low > np.uint64(1):
        low >>= np.uint64(1)
        n += 1
    return n


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
def set_bits(words, rows, bits):
    """``words[rows[i]]`` gains bit ``bits[i]`` (as 64-bit words, lowest first), for every ``i``."""
    one = np.uint64(1)
    for i in range(rows.shape[0]):
        b = bits[i]
        words[rows[i], b >> 6] |= one << np.uint64(b & 63)
