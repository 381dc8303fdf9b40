"""numba kernels of the nice loops (:mod:`sudokit.logic.loops`), over the chain graph's word rows of
``chains_kernel`` (candidates numbered ``cell * n + digit - 1``, a set of them a row of 64-bit words).

:func:`continuous_loop` is the one search for continuous loops: a breadth-first walk from every start over
bitset levels, returning the shortest loop that removes something; :func:`three_candidate_placement` finds
``a = b - c = a``."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import is_empty, low_bit, lowest_bit, popcount
from sudokit.logic.chains_kernel import spread


@njit(cache=True)
def continuous_loop(strong, conf, limit):
    """The search of ``loops.find_continuous``: from each candidate ``a`` in number order, the breadth-first
    walk over larger candidates, level by level, down to the first closing candidate whose walked-back path
    is a loop that removes something; a start is kept only when its loop is shorter than the best so far.
    Returns the best loop's candidates in loop order (empty when there is none). ``limit``: loops must have
    fewer candidates than this."""
    n_cand, words = strong.shape
    one = np.uint64(1)
    allowed = np.zeros(words, dtype=np.uint64)
    seen_off = np.zeros(words, dtype=np.uint64)
    seen_on = np.zeros(words, dtype=np.uint64)
    conf_a = np.zeros(words, dtype=np.uint64)
    nxt = np.zeros(words, dtype=np.uint64)
    levels = np.zeros((limit + 1, words), dtype=np.uint64)
    path = np.zeros(limit + 1, dtype=np.int64)
    best = np.zeros(0, dtype=np.int64)
    for a in range(n_cand):
        aw, ab = a // 64, np.uint64(a % 64)
        for k in range(words):  # candidates numbered above a
            if k < aw:
                allowed[k] = 0
            elif k > aw:
                allowed[k] = ~np.uint64(0)
            else:
                allowed[k] = ~((one << ab) | ((one << ab) - one))
        leaves = False
        closes = False
        for k in range(words):
            conf_a[k] = conf[a, k] & allowed[k]
            if strong[a, k] & allowed[k]:
                leaves = True
            if conf_a[k]:
                closes = True
        if not leaves or not closes:
            continue
        for k in range(words):
            seen_off[k] = ~allowed[k]
            seen_on[k] = ~allowed[k]
            levels[0, k] = 0
        levels[0, aw] = one << ab
        depth = 0
        found = False
        while depth + 2 < limit and not is_empty(levels[depth]):
            depth += 1
            odd = depth % 2 == 1
            spread(levels[depth - 1], strong if odd else conf, nxt)
            for k in range(words):
                if odd:
                    nxt[k] &= ~seen_on[k]
                    seen_on[k] |= nxt[k]
                else:
                    nxt[k] &= ~seen_off[k]
                    seen_off[k] |= nxt[k]
                levels[depth, k] = nxt[k]
            if not odd or depth < 3:
                continue
            for w0 in range(words):
                x = levels[depth, w0] & conf_a[w0]
                while x:
                    low = low_bit(x)
                    w = w0 * 64 + lowest_bit(low)
                    x ^= low
                    if _loop_removes(levels, strong, conf, w, depth, path):
                        found = True
                        break
                if found:
                    break
            if found:
                best = path[: depth + 1].copy()
                limit = depth + 1
                break
    return best


@njit(cache=True)
def _loop_removes(levels, strong, conf, w, depth, path):
    """Walk back from ``w`` at ``depth`` to the start like ``loops._walk_back`` (into ``path``): whether the
    path has no repeated candidate and, closed into a loop, removes something."""
    words = levels.shape[1]
    path[depth] = w
    cur = w
    for k in range(depth - 1, -1, -1):
        lo = -1
        for j in range(words):
            x = levels[k, j] & (strong[cur, j] if k % 2 == 0 else conf[cur, j])
            if x:
                lo = j * 64 + lowest_bit(x)
                break
        cur = lo
        path[k] = cur
    size = depth + 1
    for i in range(size):
        for j in range(i + 1, size):
            if path[i] == path[j]:
                return False
    for j in range(words):
        removed = np.uint64(0)
        for i in range(size):
            v, u = path[i], path[(i + 1) % size]
            removed |= conf[v, j] & conf[u, j]
        for i in range(size):
            if path[i] >> 6 == j:
                removed &= ~(np.uint64(1) << np.uint64(path[i] & 63))
        if removed:
            return True
    return False


@njit(cache=True)
def three_candidate_placement(strong, conf):
    """``loops._three_candidate_placement``'s search: the first candidate ``a`` (in number order) with two
    strong links to candidates ``b`` and ``c`` that conflict, as (a, b, c) with the lowest such ``b`` and
    then the lowest ``c`` for it, or (-1, -1, -1)."""
    n_cand, words = strong.shape
    for a in range(n_cand):
        count = 0
        for k in range(words):
            count += popcount(strong[a, k])
        if count < 2:
            continue
        for w0 in range(words):
            x = strong[a, w0]
            while x:
                low = low_bit(x)
                b = w0 * 64 + lowest_bit(low)
                x ^= low
                for k in range(words):
                    both = conf[b, k] & strong[a, k]
                    if both:
                        return a, b, k * 64 + lowest_bit(both)
    return -1, -1, -1
