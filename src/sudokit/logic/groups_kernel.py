"""numba kernel of the group nodes (:mod:`sudokit.logic.groups`): :func:`add_groups` adds a digit's group nodes
(its candidates where two units meet, at least two of them) to the chain graph's word rows of
``chains_kernel``, with their weak and strong links.

Candidates are numbered ``cell * n + digit - 1``; the group of digit ``d`` in intersection ``i`` is numbered
``(n_cells + i) * n + d - 1``, as if the intersection were one more cell. A set of nodes is a row of 64-bit
words."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import member


@njit(cache=True, inline="always")
def _join(words, a, b):
    """Nodes ``a`` and ``b`` gain each other as links."""
    one = np.uint64(1)
    words[a, b >> 6] |= one << np.uint64(b & 63)
    words[b, a >> 6] |= one << np.uint64(a & 63)


@njit(cache=True)
def add_groups(cands, units, units_of, peers, inter, n, strong, same, conf, members, size):
    """Add the group nodes of the candidate masks ``cands`` to the word rows ``strong``, ``same`` (same-digit
    weak links) and ``conf`` (every weak link), whose candidate rows are filled already. ``inter`` lists the
    cells of each intersection of two units (padded with -1). Fills ``members`` (each group's cells, in
    intersection order) and ``size`` (its number of cells; 0 for no group: fewer than two candidates, or the
    same cells as a group of an earlier intersection).

    Weak links: a group and a candidate (or another group) of its digit whose cells see every cell of the
    group. Strong links: a group and a candidate or another group that are together every
    place of their digit in a unit."""
    n_cells = cands.shape[0]
    n_inter, width = inter.shape
    base = n_cells * n
    n_groups = n_inter * n
    for i in range(n_inter):
        for d in range(n):
            g = i * n + d
            k = 0
            for j in range(width):
                s = inter[i, j]
                if s < 0:
                    break
                if (cands[s] >> d) & 1:
                    members[g, k] = s
                    k += 1
            if k < 2:
                continue
            twin = False
            for h in range(d, g, n):
                if size[h] == k:
                    twin = True
                    for j in range(k):
                        if members[h, j] != members[g, j]:
                            twin = False
                            break
                    if twin:
                        break
            if not twin:
                size[g] = k
    sees = np.zeros(n_cells, dtype=np.int64)
    for g in range(n_groups):
        k = size[g]
        if k == 0:
            continue
        d = g % n
        node = base + g
        sees[:] = 0
        for j in range(k):
            s = members[g, j]
            for p in peers[s]:
                if p < 0:
                    break
                sees[p] += 1
        for s in range(n_cells):
            if sees[s] == k and (cands[s] >> d) & 1:
                _join(same, node, s * n + d)
                _join(conf, node, s * n + d)
        for h in range(g + n, n_groups, n):
            if size[h] == 0:
                continue
            seen = True
            for j in range(size[h]):
                if sees[members[h, j]] != k:
                    seen = False
                    break
            if seen:
                _join(same, node, base + h)
                _join(conf, node, base + h)
    for g in range(n_groups):
        k = size[g]
        if k == 0:
            continue
        d = g % n
        for t in range(units_of.shape[1]):
            u = units_of[members[g, 0], t]
            if u < 0:
                break
            inside = True
            for j in range(1, k):
                if not member(units_of[members[g, j]], u):
                    inside = False
                    break
            if not inside:
                continue
            rest = 0
            other = -1
            for s in units[u]:
                if (cands[s] >> d) & 1 and not member(members[g, :k], s):
                    rest += 1
                    other = s
            if rest == 1:
                _join(strong, base + g, other * n + d)
            elif rest >= 2:
                for h in range(g + n, n_groups, n):
                    if size[h] != rest:
                        continue
                    fits = True
                    for j in range(rest):
                        s = members[h, j]
                        if not member(units_of[s], u) or member(members[g, :k], s):
                            fits = False
                            break
                    if fits:
                        _join(strong, base + g, base + h)
