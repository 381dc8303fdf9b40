"""numba kernel of the single-digit patterns made of two strong links joined by a weak one
(:mod:`sudokit.logic.single_digit`: Skyscraper, 2-String Kite, Turbot Fish).

:func:`turbot_hit` replays the Python finder's loops, digit by digit in increasing order, and returns only
which pattern comes first; Python writes that one out. Candidate masks are an int64 array; digits are
numbered from 0 here (bit ``d`` of a mask)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import member
from sudokit.logic.state_arrays import two_places


@njit(cache=True)
def turbot_hit(cands, units, kind, box_of, peers, n, wanted, found):
    """The first ``wanted`` pattern (0 Skyscraper, 1 2-String Kite, 2 Turbot Fish; ``kind[u]``: 0 row,
    1 column, 2 other unit): for each digit, pairs of its strong links (units where it has two places, in unit
    order) with four different cells, ends turned both ways, where one end of each sees the other's and a
    cell seeing both far ends holds the digit. Returns the digit (from 0) and puts (unit 1, unit 2, x, y, z,
    w) into ``found``; -1 when there is none."""
    n_units = units.shape[0]
    link_u = np.empty(n_units, dtype=np.int64)
    link_a = np.empty(n_units, dtype=np.int64)
    link_b = np.empty(n_units, dtype=np.int64)
    for d in range(n):
        m = 0
        for u in range(n_units):
            a, b = two_places(cands, units, u, d)
            if a >= 0:
                link_u[m], link_a[m], link_b[m] = u, a, b
                m += 1
        for i in range(m):
            u1, a1, b1 = link_u[i], link_a[i], link_b[i]
            for j in range(i + 1, m):
                u2, a2, b2 = link_u[j], link_a[j], link_b[j]
                if a1 == a2 or a1 == b2 or b1 == a2 or b1 == b2:  # noqa: SIM109 - plain comparisons compile in numba
                    continue
                k1, k2 = kind[u1], kind[u2]
                if k1 == k2 and k1 != 2:
                    name = 0
                elif (k1 == 0 and k2 == 1) or (k1 == 1 and k2 == 0):
                    name = 1
                else:
                    name = 2
                if name != wanted:
                    continue
                for turn1 in range(2):
                    x, y = (a1, b1) if turn1 == 0 else (b1, a1)
                    for turn2 in range(2):
                        z, w = (a2, b2) if turn2 == 0 else (b2, a2)
                        if not member(peers[y], z):
                            continue
                        if name == 1 and box_of[y] != box_of[z]:
                            continue
                        for t in peers[x]:
                            if t < 0:
                                break
                            if (cands[t] >> d) & 1 and t != y and t != z and t != w and member(peers[w], t):
                                found[0], found[1], found[2], found[3], found[4], found[5] = u1, u2, x, y, z, w
                                return d
    return -1
