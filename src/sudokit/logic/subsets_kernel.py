"""numba kernels of naked and hidden subsets (:mod:`sudokit.logic.subsets`), and of the direct hidden subsets.

Each kernel replays its Python finder's loops in the same order and returns only *which* subset comes first;
Python then writes it out as a step, with the same builder the plain search uses. Arguments are the state's
``values`` and ``cands`` as int64 arrays and the tables of ``state_arrays.tables``. Digits are numbered from
0 here (bit ``d`` of a mask)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import combo_union, first_combo, member, next_combo, popcount
from sudokit.logic.intersections_kernel import makes_single


@njit(cache=True)
def hidden_subset_hit(values, cands, units, units_of, n, k, direct, single_ok):
    """The hidden-subset search of ``subsets``: the first (unit, digit mask) of ``k`` digits, each with 2 to ``k``
    places in the unit, that share exactly ``k`` cells holding other digits too (and, when ``direct`` is 1,
    whose removals leave a hidden single in a unit ``single_ok`` allows; when it is 2, in the same unit, as
    Sudoku Explainer's direct hidden sets: another digit left one place there); (-1, 0) when there is none."""
    size = units.shape[1]
    digit = np.empty(n, dtype=np.int64)
    places = np.empty(n, dtype=np.int64)  # each digit's places in the unit (bit i: the unit's i-th cell)
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
            places[d] = b
            if 2 <= count <= k:
                digit[m] = d
                m += 1
        if m < k:
            continue
        first_combo(idx, k)
        while True:
            union = combo_union(places, digit, idx, k)
            inside = 0
            for j in range(k):
                inside |= 1 << digit[idx[j]]
            if popcount(union) == k:
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
                if ne and direct == 2:
                    if _single_left(places, union, inside, n):
                        return u, inside
                elif ne and (not direct or makes_single(values, cands, units, units_of, single_ok, gone_s, gone_d, ne)):
                    return u, inside
            if not next_combo(idx, k, m):
                break
    return -1, 0


@njit(cache=True, inline="always")
def _single_left(places, union, inside, n):
    """Whether a digit outside ``inside`` with several places in the unit (``places``) keeps one outside the
    subset's cells ``union``: the hidden single a direct hidden subset leaves in its own unit."""
    found = False
    for e in range(n):
        if not (inside >> e) & 1 and popcount(places[e]) > 1 and popcount(places[e] & ~union) == 1:
            found = True
            break
    return found


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
            if c and popcount(c) <= k:
                pool[m] = s
                m += 1
        if m < k:
            continue
        first_combo(idx, k)
        while True:
            union = combo_union(cands, pool, idx, k)
            if popcount(union) == k and _removes(cands, units, units_of, pool, idx, k, union):
                for j in range(k):
                    found[j] = pool[idx[j]]
                return u
            if not next_combo(idx, k, m):
                break
    return -1


@njit(cache=True, inline="always")
def _removes(cands, units, units_of, pool, idx, k, union):
    """Whether a unit holding every cell ``pool[idx[j]]`` has another cell with a digit of ``union``."""
    first = pool[idx[0]]
    for v in units_of[first]:
        if v < 0:
            break
        shared = True
        for j in range(1, k):
            if not member(units_of[pool[idx[j]]], v):
                shared = False
                break
        if not shared:
            continue
        for t in units[v]:
            if cands[t] & union:
                inside = False
                for j in range(k):
                    if pool[idx[j]] == t:
                        inside = True
                        break
                if not inside:
                    return True
    return False
