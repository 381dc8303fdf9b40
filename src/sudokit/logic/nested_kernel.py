"""numba kernels of the nested forcing chain (:mod:`sudokit.logic.nested`): an assumption followed by singles
and, inside it, by contradiction forcing chains.

:func:`deep_assume` places the assumed digit and follows the singles it forces (``forcing_kernel.follow``);
whenever they run out it looks, in the grid reached, for an inner assumption that breaks the grid under
singles alone (cells in order, digits in order), removes that candidate there, follows the singles again,
and goes on until the grid breaks or no inner assumption breaks it. :func:`nested_search` runs that from
every candidate and keeps the contradiction with the least work, by iterative deepening over caps on it.

The *work* counted is SE's chain complexity in spirit: every deduction of the outer chain plus, for each
candidate an inner chain removed, that chain's own deductions and its two ends.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.logic.forcing_kernel import BROKEN, CAPPED, DONE, assume, follow, mark_units, search_arrays

#: no cap on a propagation of singles (every one ends by itself)
NO_CAP = 1 << 40


@njit(cache=True, error_model="numpy", inline="always")
def deep_assume(vals, c, units, units_of, peers, full, cell, digit, cap, queue, dirty, vals2, c2, queue2, dirty2):
    """Assume ``digit`` in ``cell`` (arrays changed in place) and follow singles and inner contradictions
    until the grid breaks, nothing more follows, or the work reaches ``cap``. Returns (outcome: BROKEN, DONE
    or CAPPED, work, inner chains used)."""
    n_cells = vals.shape[0]
    # np.int64(...): a constant argument would compile the callee again, for that literal value
    ok, made = assume(vals, c, units, units_of, peers, full, cell, digit, np.int64(NO_CAP), queue, dirty)
    work = made
    if not ok:
        return BROKEN, work, 0
    inner = 0
    progress = True
    while progress:
        progress = False
        for s in range(n_cells):
            if vals[s]:
                continue
            for d in range(1, 33):
                if vals[s]:
                    break
                bit = np.int64(1) << (d - 1)
                if not c[s] & bit:
                    if c[s] < bit:
                        break
                    continue
                if work >= cap:
                    return CAPPED, work, inner
                for k in range(n_cells):
                    vals2[k] = vals[k]
                    c2[k] = c[k]
                ok2, made2 = assume(vals2, c2, units, units_of, peers, full, s, d, np.int64(NO_CAP), queue2, dirty2)
                if ok2:
                    continue
                # the inner chain removes d from s in the outer grid; follow the singles that gives
                work += made2 + 2
                inner += 1
                progress = True
                m = c[s] & ~bit
                c[s] = m
                if not m:
                    return BROKEN, work, inner
                dirty[:] = 0
                n_dirty = mark_units(dirty, units_of, s)
                qn = 0
                if not m & (m - 1):
                    e = 0
                    while not (m >> e) & 1:
                        e += 1
                    queue[0, 0] = s
                    queue[0, 1] = e + 1
                    qn = 1
                outcome, made3 = follow(
                    vals, c, units, units_of, peers, full, np.int64(NO_CAP), queue, qn, dirty, n_dirty, np.int64(0)
                )
                work += made3
                if outcome == BROKEN:
                    return BROKEN, work, inner
    return DONE, work, inner


def nested_arrays(values: np.ndarray, units: np.ndarray, peers: np.ndarray):
    """Work arrays of :func:`nested_search`: the outer assumption's and the inner one's (each
    ``forcing_kernel.search_arrays``: values, candidate masks, queue, unit flags)."""
    return (*search_arrays(values, units, peers), *search_arrays(values, units, peers))


@njit(cache=True, error_model="numpy")
def nested_search(
    values, cands, units, units_of, peers, full, order, caps, vals, c, queue, dirty, vals2, c2, queue2, dirty2
):
    """(cell, digit, work, inner chains) of the nested contradiction with the least work over the candidates
    ``order`` ((cell, digit) rows), or (-1, -1, -1, -1): iterative deepening over ``caps``; a candidate whose
    assumption ended by itself below a cap (no contradiction) is dropped from later rounds. ``order`` is
    reworked in place; the last eight arguments are work space (:func:`nested_arrays`)."""
    n_cells = values.shape[0]
    todo = order
    n_todo = order.shape[0]
    best_s, best_d, best_work, best_inner = -1, -1, -1, -1
    for cap in caps:
        kept = 0
        for i in range(n_todo):
            s = todo[i, 0]
            d = todo[i, 1]
            for k in range(n_cells):
                vals[k] = values[k]
                c[k] = cands[k]
            limit = cap if best_s < 0 else min(cap, best_work)
            outcome, work, inner = deep_assume(
                vals, c, units, units_of, peers, full, s, d, limit, queue, dirty, vals2, c2, queue2, dirty2
            )
            if outcome == BROKEN and (best_s < 0 or work < best_work):
                best_s, best_d, best_work, best_inner = s, d, work, inner
            if outcome == CAPPED:
                todo[kept, 0] = s
                todo[kept, 1] = d
                kept += 1
        if best_s >= 0:
            break
        n_todo = kept
    return best_s, best_d, best_work, best_inner
