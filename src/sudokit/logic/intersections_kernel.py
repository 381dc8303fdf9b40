"""numba kernels of locked candidates (:mod:`sudokit.logic.intersections`): pointing, claiming and their
"direct" form, and :func:`makes_single`, the test of every "direct" step (the hidden subsets' too).

:func:`locked_hit` replays the Python finder's loops in the same order and returns only which finding comes
first (source unit, digit, other unit); Python writes it out as a step. Arguments are the state's ``values``
and ``cands`` as int64 arrays and the tables of ``state_arrays.tables``; ``single_ok[u]`` tells whether unit
``u`` may hold the hidden single of a "direct" step. Digits are numbered from 0 here (bit ``d`` of a mask)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import member


@njit(cache=True, inline="always")
def makes_single(values, cands, units, units_of, single_ok, gone_s, gone_d, count):
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
                    if not member(units_of[where[i]], v):
                        shared = False
                        break
                if not shared:
                    continue
                ne = 0
                for t in units[v]:
                    if (cands[t] >> d) & 1 and not member(units_of[t], u):
                        gone_s[ne] = t
                        gone_d[ne] = d
                        ne += 1
                if ne and (not direct or makes_single(values, cands, units, units_of, single_ok, gone_s, gone_d, ne)):
                    return u, d, v
    return -1, -1, -1
