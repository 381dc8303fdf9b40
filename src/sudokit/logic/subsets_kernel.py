"""numba kernels for the techniques that look inside one unit at a time: locked candidates (pointing and
claiming), naked and hidden subsets, and their "direct" forms (imported lazily).

Each kernel replays its Python finder's loops in the same order and returns only *which* finding comes first
(a unit, a digit, a set of cells or digits); Python then writes that finding out as a step, with the same
builder the plain search uses. Most calls find nothing, and then no Python loop runs at all.

Arguments are the state's ``values`` and ``cands`` as int64 arrays and the geometry's tables from
``_kernels.tables``; ``single_ok[u]`` tells whether unit ``u`` may hold the hidden single of a "direct" step.
Digits are numbered from 0 here (bit ``d`` of a mask)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.logic._kernels import _cells_union, _first_combo, _member, _next_combo, _popcount


@njit(cache=True)
def _makes_single(values, cands, units, units_of, single_ok, gone_s, gone_d, count):
    """Whether removing the candidates ``(gone_s[i], gone_d[i])`` (``i < count``) leaves a digit one place in
    a unit allowed by ``single_ok`` where it had several and is not yet placed (``intersections.direct``)."""
    for i in range(count):
        s, d = gone_s[i], gone_d[i]
        for u in units_of[s]:
            if u < 0:
                break
            if not single_ok[u]:
                continue
            before = 0
            left = 0
            placed = False
            for t in units[u]:
                if values[t] == d + 1:
                    placed = True
                    break
                if (cands[t] >> d) & 1:
                    before += 1
                    out = False
                    for j in range(count):
                        if gone_s[j] == t and gone_d[j] == d:
                            out = True
                            break
                    if not out:
                        left += 1
            if not placed and left == 1 and before > 1:
                return True
    return False


@njit(cache=True)
def locked_hit(values, cands, units, units_of, sources, n, direct, single_ok):
    """The locked-candidates search of ``intersections``: over the source units in the given order, their
    digits and then the other units in number order, the first (source unit, digit, other unit) whose digit's
    places in the source all lie in the other unit and that removes something from it (and, when ``direct``,
    leaves a hidden single); (-1, -1, -1) when there is none."""
    size = units.shape[1]
    where = np.empty(size, dtype=np.int64)
    gone_s = np.empty(size, dtype=np.int64)
    gone_d = np.empty(size, dtype=np.int64)
    for u in sources:
        for d in range(n):
            count = 0
            for s in units[u]:
                if (cands[s] >> d) & 1:
                    where[count] = s
                    count += 1
            if count < 2:
                continue
            for v in units_of[where[0]]:
                if v < 0:
                    break
                if v == u:
                    continue
                shared = True
                for i in range(1, count):
                    if not _member(units_of[where[i]], v):
                        shared = False
                        break
                if not shared:
                    continue
                ne = 0
                for t in units[v]:
                    if (cands[t] >> d) & 1 and not _member(units_of[t], u):
                        gone_s[ne] = t
                        gone_d[ne] = d
                        ne += 1
                if ne and (not direct or _makes_single(values, cands, units, units_of, single_ok, gone_s, gone_d, ne)):
                    return u, d, v
    return -1, -1, -1


@njit(cache=True)
def hidden_subset_hit(values, cands, units, units_of, n, k, direct, single_ok):
    """The hidden-subset search of ``subsets``: the first (unit, digit mask) of ``k`` digits, each with 2 to ``k``
    places in the unit, that share exactly ``k`` cells holding other digits too (and, when ``direct``, whose
    removals leave a hidden single); (-1, 0) when there is none."""
    size = units.shape[1]
    digit = np.empty(n, dtype=np.int64)
    bits = np.empty(n, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    gone_s = np.empty(size * n, dtype=np.int64)
    gone_d = np.empty(size * n, dtype=np.int64)
    for u in range(units.shape[0]):
        m = 0
        for d in range(n):
            b = 0
            count = 0
            for i in range(size):
                if (cands[units[u, i]] >> d) & 1:
                    b |= 1 << i
                    count += 1
            if 2 <= count <= k:
                digit[m] = d
                bits[m] = b
                m += 1
        if m < k:
            continue
        _first_combo(idx, k)
        while True:
            union = 0
            inside = 0
            for j in range(k):
                union |= bits[idx[j]]
                inside |= 1 << digit[idx[j]]
            if _popcount(union) == k:
                ne = 0
                for i in range(size):
                    if not (union >> i) & 1:
                        continue
                    s = units[u, i]
                    rest = cands[s] & ~inside
                    for d in range(n):
                        if (rest >> d) & 1:
                            gone_s[ne] = s
                            gone_d[ne] = d
                            ne += 1
                if ne and (not direct or _makes_single(values, cands, units, units_of, single_ok, gone_s, gone_d, ne)):
                    return u, inside
            if not _next_combo(idx, k, m):
                break
    return -1, 0


@njit(cache=True)
def naked_subset_hit(cands, units, units_of, k, found):
    """The naked-subset search of ``subsets``: the first unit and ``k`` of its cells (in unit order, each with 1 to
    ``k`` candidates) whose candidates together are ``k`` digits, such that another cell of a unit holding
    all ``k`` has one of those digits. The cells go into ``found``; returns the unit, or -1."""
    size = units.shape[1]
    pool = np.empty(size, dtype=np.int64)
    idx = np.empty(k, dtype=np.int64)
    for u in range(units.shape[0]):
        m = 0
        for s in units[u]:
            c = cands[s]
            if c and _popcount(c) <= k:
                pool[m] = s
                m += 1
        if m < k:
            continue
        _first_combo(idx, k)
        while True:
            union = _cells_union(cands, pool, idx, k)
            if _popcount(union) == k and _removes(cands, units, units_of, pool, idx, k, union):
                for j in range(k):
                    found[j] = pool[idx[j]]
                return u
            if not _next_combo(idx, k, m):
                break
    return -1


@njit(cache=True)
def _removes(cands, units, units_of, pool, idx, k, union):
    """Whether a unit holding every cell ``pool[idx[j]]`` has another cell with a digit of ``union``."""
    first = pool[idx[0]]
    for v in units_of[first]:
        if v < 0:
            break
        shared = True
        for j in range(1, k):
            if not _member(units_of[pool[idx[j]]], v):
                shared = False
                break
        if not shared:
            continue
        for t in units[v]:
            if cands[t] & union:
                member = False
                for j in range(k):
                    if pool[idx[j]] == t:
                        member = True
                        break
                if not member:
                    return True
    return False


@njit(cache=True)
def full_house_hit(values, units, full):
    """The first unit with one empty cell left whose givens leave one digit for it: (unit, cell, digit from
    1), or (-1, -1, -1)."""
    for u in range(units.shape[0]):
        empty = -1
        count = 0
        missing = full
        for s in units[u]:
            v = values[s]
            if v:
                missing &= ~(1 << (v - 1))
            else:
                count += 1
                empty = s
        if count == 1 and missing and not missing & (missing - 1):
            d = 0
            while not (missing >> d) & 1:
                d += 1
            return u, empty, d + 1
    return -1, -1, -1


@njit(cache=True)
def hidden_single_hit(cands, units, sources):
    """The first unit of ``sources`` where a digit has one place left, with its lowest such digit: (unit,
    cell, digit from 1), or (-1, -1, -1)."""
    for u in sources:
        once = 0
        more = 0
        for s in units[u]:
            m = cands[s]
            more |= once & m
            once |= m
        only = once & ~more
        if only:
            d = 0
            while not (only >> d) & 1:
                d += 1
            for s in units[u]:
                if (cands[s] >> d) & 1:
                    return u, s, d + 1
    return -1, -1, -1


@njit(cache=True)
def naked_single_hit(values, cands):
    """The first empty cell with one candidate left: (cell, digit from 1), or (-1, -1)."""
    for s in range(cands.shape[0]):
        m = cands[s]
        if not values[s] and m and not m & (m - 1):
            d = 0
            while not (m >> d) & 1:
                d += 1
            return s, d + 1
    return -1, -1
