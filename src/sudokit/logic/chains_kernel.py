"""numba kernel for the chain search of :func:`sudokit.logic.chains.find_chain` (imported lazily).

Kept apart from ``_kernels`` so that each module's compiled cache stays valid when the other changes."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.logic._kernels import _two_places


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
        if (skip >> (a % n)) & 1 or not _any_row(strong, a) or not _any_row(conf, a):
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
        while depth < limit and not _empty(frontier):
            _spread(frontier, weak if on else strong, new)
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
    one = np.uint64(1)
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
                    low = x & (~x + one)
                    x ^= low
                    w = w0 * 64 + _bit_index(low)
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
                            low_m = m & (~m + one)
                            m ^= low_m
                            b = j * 64 + _bit_index(low_m)
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
def _bit_index(low):
    """The number of the single bit set in ``low`` (a uint64)."""
    n = 0
    while low > np.uint64(1):
        low >>= np.uint64(1)
        n += 1
    return n


@njit(cache=True)
def _empty(x):
    """Whether the word row ``x`` has no bit set."""
    for k in range(x.shape[0]):  # noqa: SIM110 - a plain loop compiles in numba
        if x[k]:
            return False
    return True


@njit(cache=True)
def _any_row(words, v):
    for k in range(words.shape[1]):  # noqa: SIM110 - a plain loop compiles in numba
        if words[v, k]:
            return True
    return False


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
            if m == 0 or m & (m - 1) == 0 or (m & (m - 1)) & ((m & (m - 1)) - 1):
                continue  # not exactly two digits
            d1 = 0
            while not (m >> d1) & 1:
                d1 += 1
            d2 = d1 + 1
            while not (m >> d2) & 1:
                d2 += 1
            _link(strong, s * n + d1, s * n + d2)
    if in_units:
        for u in range(units.shape[0]):
            for d in range(n):
                first, second = _two_places(cands, units, u, d)
                if first >= 0:
                    _link(strong, first * n + d, second * n + d)


# ---- nice loops (``sudokit.logic.loops``) ---------------------------------------------------------------


@njit(cache=True)
def _lowest(x, words):
    """The number of the lowest bit set in the word row ``x`` (-1 when empty)."""
    for k in range(words):
        if x[k]:
            return k * 64 + _bit_index(x[k] & (~x[k] + np.uint64(1)))
    return -1


@njit(cache=True)
def _spread(frontier, links, out):
    """``out`` = the union of ``links[v]`` over the candidates ``v`` of ``frontier``."""
    one = np.uint64(1)
    words = out.shape[0]
    for k in range(words):
        out[k] = 0
    for w in range(words):
        x = frontier[w]
        while x:
            low = x & (~x + one)
            v = w * 64 + _bit_index(low)
            for k in range(words):
                out[k] |= links[v, k]
            x ^= low


@njit(cache=True)
def continuous_start(strong, conf, limit):
    """Replay of ``loops.find_continuous``'s loop over starts: from each candidate ``a`` in number order, the
    breadth-first walk over larger candidates, down to the first closing candidate whose walked-back path is a
    loop that removes something; a start is kept only when its loop is shorter than the best so far. Returns
    (the best start, its loop's number of candidates) or (-1, -1). ``limit``: loops must have fewer
    candidates than this."""
    n_cand, words = strong.shape
    one = np.uint64(1)
    allowed = np.zeros(words, dtype=np.uint64)
    seen_off = np.zeros(words, dtype=np.uint64)
    seen_on = np.zeros(words, dtype=np.uint64)
    conf_a = np.zeros(words, dtype=np.uint64)
    nxt = np.zeros(words, dtype=np.uint64)
    levels = np.zeros((limit + 1, words), dtype=np.uint64)
    path = np.zeros(limit + 1, dtype=np.int64)
    best_a, best_len = -1, -1
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
        while depth + 2 < limit and not _empty(levels[depth]):
            depth += 1
            odd = depth % 2 == 1
            _spread(levels[depth - 1], strong if odd else conf, nxt)
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
                    low = x & (~x + one)
                    w = w0 * 64 + _bit_index(low)
                    x ^= low
                    if _loop_removes(levels, strong, conf, w, depth, path):
                        found = True
                        break
                if found:
                    break
            if found:
                best_a, best_len = a, depth + 1
                limit = depth + 1
                break
    return best_a, best_len


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
                lo = j * 64 + _bit_index(x & (~x + np.uint64(1)))
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
    one = np.uint64(1)
    for a in range(n_cand):
        count = 0
        for k in range(words):
            x = strong[a, k]
            while x and count < 2:
                x &= x - one
                count += 1
        if count < 2:
            continue
        for w0 in range(words):
            x = strong[a, w0]
            while x:
                low = x & (~x + one)
                b = w0 * 64 + _bit_index(low)
                x ^= low
                for k in range(words):
                    both = conf[b, k] & strong[a, k]
                    if both:
                        return a, b, k * 64 + _bit_index(both & (~both + one))
    return -1, -1, -1
