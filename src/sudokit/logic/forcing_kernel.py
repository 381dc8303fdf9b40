"""numba kernels of the forcing chains (:mod:`sudokit.logic.forcing`): the one propagation that follows an
assumption, and the contradiction search over every candidate.

:func:`follow` follows the singles an assumption forces: a placement removes its digit from the cell's
peers, a peer left with one candidate is queued, and the units touched by a change are searched for hidden
singles in ascending unit number (a flag per unit, scanned from unit 0 up). The number of deductions before
a contradiction, and so the rating, depends on that order; it is fixed here so that it never rests on an
implementation detail. The dynamic forcing chain (``forcing.assume`` with ``locked=True``) calls
:func:`follow` again after each locked-candidates step it makes in Python, so both kinds of chain share it.

Arguments: the values and candidate masks as int64 arrays (changed in place), the tables of
``state_arrays.tables`` and scratch space from :func:`scratch`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import low_bit, lowest_bit, unit_scan

#: :func:`follow`'s outcomes
BROKEN, DONE, CAPPED = -1, 0, 1


def scratch(n_cells: int, units: np.ndarray, peers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(queue of (cell, digit) rows, one flag per unit) large enough for any propagation on the geometry."""
    queue = np.empty((n_cells * (units.shape[1] + peers.shape[1] + 2), 2), dtype=np.int64)
    return queue, np.zeros(units.shape[0], dtype=np.uint8)


@njit(cache=True, error_model="numpy")
def follow(vals, c, units, units_of, peers, full, limit, queue, qn, dirty, n_dirty, made):
    """Follow the queued placements (``queue[:qn]``, taken last in, first out) and the hidden singles of the
    flagged units (``n_dirty`` of them flagged in ``dirty``) until nothing is left or ``made`` (the count of
    deductions so far) reaches ``limit``. Returns (:data:`BROKEN`, :data:`DONE` or :data:`CAPPED`, deductions
    made in all); the flags are clear again unless it stopped early."""
    n = units.shape[1]
    n_units = units.shape[0]
    while made < limit:
        while qn:
            qn -= 1
            s = queue[qn, 0]
            d = queue[qn, 1]
            if vals[s]:
                if vals[s] != d:
                    return BROKEN, made
                continue
            bit = np.int64(1) << (d - 1)
            if not c[s] & bit:
                return BROKEN, made
            vals[s] = d
            c[s] = 0
            made += 1
            n_dirty += mark_units(dirty, units_of, s)
            off = ~bit
            for k in range(peers.shape[1]):
                p = peers[s, k]
                if p < 0:
                    break
                m = c[p]
                if m & bit:
                    m &= off
                    c[p] = m
                    if not m:
                        return BROKEN, made
                    n_dirty += mark_units(dirty, units_of, p)
                    if not m & (m - 1):
                        queue[qn, 0] = p
                        queue[qn, 1] = lowest_bit(m) + 1
                        qn += 1
        if n_dirty:
            # ascending unit number; nothing is flagged during the scan
            n_dirty = 0
            for u in range(n_units):
                if not dirty[u]:
                    continue
                dirty[u] = 0
                once, more, placed = unit_scan(c, vals, units, u, False)
                if (once | placed) != full:
                    return BROKEN, made
                only = once & ~more & ~placed
                while only:
                    bit = low_bit(only)
                    only ^= bit
                    for k in range(n):
                        s = units[u, k]
                        if c[s] & bit:
                            queue[qn, 0] = s
                            queue[qn, 1] = lowest_bit(bit) + 1
                            qn += 1
                            break
            if qn:
                continue
        return DONE, made
    return CAPPED, made


@njit(cache=True, error_model="numpy")
def mark_units(dirty, units_of, s):
    """Flag the units holding cell ``s`` as touched (``units_of`` padded with -1); returns how many were not
    flagged yet."""
    new = 0
    for k in range(units_of.shape[1]):
        u = units_of[s, k]
        if u < 0:
            break
        if not dirty[u]:
            dirty[u] = 1
            new += 1
    return new


@njit(cache=True, error_model="numpy", inline="always")
def assume(vals, c, units, units_of, peers, full, cell, digit, limit, queue, dirty):
    """Place ``digit`` in ``cell`` and :func:`follow` the singles it forces (arrays changed in place):
    returns (still consistent, deductions made)."""
    queue[0, 0] = cell
    queue[0, 1] = digit
    dirty[:] = 0
    # np.int64(...): a constant argument would compile the callee again, for that literal value
    outcome, made = follow(
        vals, c, units, units_of, peers, full, limit, queue, np.int64(1), dirty, np.int64(0), np.int64(0)
    )
    return outcome != BROKEN, made


def search_arrays(values: np.ndarray, units: np.ndarray, peers: np.ndarray):
    """Work arrays of :func:`contradiction_search` (and, twice over, of the nested chain's search): a copy
    of the values and of the candidate masks, a queue and the unit flags (:func:`scratch`). Made in Python:
    numba compiles each array constructor a kernel meets, and optimises it again in every kernel that calls
    it."""
    return (np.empty_like(values), np.empty_like(values), *scratch(values.shape[0], units, peers))


@njit(cache=True, error_model="numpy")
def contradiction_search(values, cands, units, units_of, peers, full, order, limits, vals, c, queue, dirty):
    """``forcing``'s contradiction search following singles only: (cell, digit, made) of the contradiction
    with the fewest deductions over the candidates ``order`` ((cell, digit) rows), or (-1, -1, -1). Iterative
    deepening over the caps ``limits``: a candidate whose propagation stopped by itself below a cap gives the
    same answer under any larger one, so later rounds skip it. ``order`` is reworked in place (the candidates
    left for the next round); the last four arguments are work space (:func:`search_arrays`)."""
    n_cells = values.shape[0]
    todo_cands = order
    n_todo = order.shape[0]
    best_s, best_d, best_made = -1, -1, -1
    for limit in limits:
        kept = 0
        for i in range(n_todo):
            s = todo_cands[i, 0]
            d = todo_cands[i, 1]
            for k in range(n_cells):  # a plain copy: slice assignment costs seconds of compiling
                vals[k] = values[k]
                c[k] = cands[k]
            ok, made = assume(vals, c, units, units_of, peers, full, s, d, limit, queue, dirty)
            if not ok and (best_s < 0 or made < best_made):
                best_s, best_d, best_made = s, d, made
            if not ok or made >= limit:
                todo_cands[kept, 0] = s
                todo_cands[kept, 1] = d
                kept += 1
        if best_s >= 0:
            break
        n_todo = kept
    return best_s, best_d, best_made
