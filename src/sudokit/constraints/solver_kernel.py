"""The compiled variant solver: propagation over a puzzle's compiled constraints, search, count to a limit.

The puzzle arrives as the plain arrays of :class:`sudokit.constraints.solver_model.Model` (built once per
puzzle). Candidates are one ``int64`` mask per cell (bit ``d - 1`` for digit ``d``). Each constraint is a
*propagator*: a type code, a slice of ``p_cells`` (with a coefficient per cell in ``p_coef``), two integer
parameters and a slice of ``aux`` (cage combinations, quadruple digits). ``watch`` (CSR: ``w_start`` /
``w_props``) lists the propagators that read each cell.

Propagation runs to a fixed point over two queues: cells whose mask changed (a cell left with one digit
removes it from its peers: the geometry's, the cages', renban lines', anti-knight / anti-king, ...; every
propagator watching a changed cell is queued) and propagators to run. When both are empty, hidden singles
(a digit with one place left in a unit goes there; one with no place is a contradiction), then locked
candidates, over the units a changed cell lies in, may start them again. Each propagator is exact on fixed
cells (a completed grid that breaks it is rejected), and the caller checks every grid it returns against the
puzzle's ``check`` methods as well.

Propagators (``T_*``):

* ``PAIR`` -- a two-cell relation as two tables: Kropki dots, X/V, whispers, palindromes, non-consecutive,
  negative forms, modular / entropic lines. Up to 9 digits the tables are over whole masks (``rel[t, 0, m]``:
  the digits b may hold when a holds a digit of m; ``rel[t, 1, m]`` the reverse), and a pair is not queued
  as a propagator: :func:`propagate` narrows the other cell with one look-up when a cell changes (arc
  consistency). On larger boards per digit (``rel[t, 0, x]``, ``rel[t, 1, y]``), run from the queue; a pass
  is skipped when the cell it reads has more candidates than ``rel[t, 0, 0]`` (``rel[t, 1, 0]``): then
  every digit of the other cell has a support.
* ``CAGE`` -- a killer cage's sum: the precomputed digit sets of its size and total (``aux``); those that fit
  the cells (each set within the union of candidates, meeting every cell, and with ``b`` = 1 one digit for
  each cell: a matching, :func:`_matched`) narrow every cell to their union, and a digit all of them need
  with one place left in the cage goes there.
* ``THERMO`` -- bounds forward and backward along the line (``a`` = 1 strict, 0 slow).
* ``ABOVE`` -- cell ``cells[0]`` lies below (``a`` = 1; above: 0) every other cell, and those share a unit:
  k of them hold k different digits, so the first cell is below their k-th largest candidate (above their
  k-th smallest). Thermometers that branch or meet give these.
* ``HALL`` -- a unit's Hall intervals (:func:`_hall`: j open cells within j consecutive digits take them; the
  other cells lose them), in models with strict thermometers. Not queued: a changed cell marks its units, and
  :func:`propagate` looks at the marked ones last, when nothing else narrows. In models of thermometers only
  they stand in for locked candidates, which :func:`propagate` then leaves out (``b`` < 0).
* ``RENBAN`` -- the runs of consecutive digits that fit the cells (a renban line of different cells is
  compiled as a ``CAGE`` whose digit sets are the runs).
* ``LINEAR`` -- ``sum(coef[i] * digit[i]) == a``: bounds consistency, then exact support with repeats
  allowed (arrows, little killers, equal sums whose cells share no unit).
* ``GSUM`` -- the same sum over *groups* of cells (``aux``: the group sizes; one coefficient per group) whose
  cells must all differ (they share a unit): one scan per group gives its reachable totals (groups of up to 3
  cells, little killers' and arrows' pieces of a box: every choice of different digits, exact per cell;
  larger ones: the digit sets within the union of candidates meeting every cell), the sum's bounds, then an
  exact pass over the groups' totals (one word per row when they span at most 64 values; two shifts for two
  groups of opposite unit coefficients); a group whose totals fell scans again for them, and its cells keep
  the digits that reach them.
* ``SKY`` -- exact support over (position, tallest so far, number seen) states (:func:`_skyscraper`).
* ``SANDWICH`` -- on a whole unit of at most 9 digits (``b`` = 1): the digit sets that sum to the clue
  (``aux``), each tried at every place of the 1 and the largest digit with places as bits of a word
  (:func:`_sandwich_exact`); else window bounds.
* ``XSUM`` -- on a whole unit of at most 9 digits (``b`` = 1): for each value x of the first cell, the fitting
  sets of x different digits (:func:`_xsum_exact`); else window bounds.
* ``QUAD``, ``BETWEEN`` -- ports of the plain propagators of those kinds.

Compiling: :func:`propagate` and every helper it reaches take arrays and allocate none (per-call work arrays:
the scratch words ``buf``), so they are compiled without numba's reference counting (``_nrt=False``):
otherwise every call updates the counts of its array arguments (atomic operations, even when inlined), which
cost more than the work of a small propagator (kernel-only killer set 3,659 -> 5,729 puzzles/s with
:func:`_run` inlined into :func:`propagate`; ~30 increments and decrements per :func:`propagate` call before
it went too). The hot loops of :func:`propagate` narrow and queue cells in place for the same reason.
No helper is inlined at numba's level (``inline="always"``): numba types and lowers an inlined body again at
every call site, and LLVM inlines the small ones anyway. Leaving :func:`_run` and the bit helpers to LLVM cut
the group's cold compile from about 36 to 30 s of CPU (``jit.warm('variants')`` on an empty cache, 27 November,
load 2-4), for about 4% of the kernel-only killer set (8,250-8,430 against 7,980-8,020 puzzles/s, alternating
runs) and no change on the corpus' uniqueness proofs (8.46-8.50 against 8.48-8.81 s in all, best of 3 each).

Waking: a propagator that is idempotent (a second run with nothing else changed narrows nothing: the grouped
sum, the exact sandwich) is not queued again for the cells only its own run narrowed (their flag is 2 until
something else narrows them too).

Search: depth first on the open cell with the fewest candidates per failure weight (dom/wdeg: a cell weighs
its failed digits, the failures of the propagators watching it and those of its units, a unit's being the
hidden singles that found it without a place for a digit or a cell without a digit), digits low to high, an
explicit stack of candidate copies; optionally (``places``: the model turns it on for puzzles of
thermometers only) on a digit's two or three places in a unit when they are fewer per weight; restarts
(``restart_base``: the model sets it on boards up to 9 digits) with the finished part of the tree kept out by
nogoods watched on two literals. The first ``sol.shape[0]`` solutions are stored for the caller to check.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from sudokit.bits import bit_length, low_bit, lowest_bit, popcount
from sudokit.engine.clock import ticks

#: numba's options for a helper that takes arrays and allocates none: cached, compiled without reference
#: counting (numba's private ``_nrt`` flag; see the module's docstring, "Compiling").
NO_REFCOUNTS: dict[str, Any] = {"cache": True, "_nrt": False}

T_PAIR = 0
T_CAGE = 1
T_THERMO = 2
T_RENBAN = 3
T_LINEAR = 4
T_SANDWICH = 5
T_XSUM = 6
T_SKY = 7
T_QUAD = 8
T_BETWEEN = 9
T_GSUM = 10
T_ABOVE = 11
T_HALL = 12

# results of search (the engine's codes: sudokit.engine.kernel)
SOLVED = 0
NO_SOLUTION = 1
MULTIPLE = 2
TIMEOUT = 5
CLOCK_EVERY = 64


@njit(cache=True)
def _high(m):
    """The largest digit of a mask (0 for an empty one)."""
    return bit_length(m)


@njit(cache=True)
def _low(m):
    """The smallest digit of a non-empty mask."""
    return lowest_bit(m) + 1


@njit(cache=True)
def _span(lo, hi):
    """The mask of the digits lo..hi (empty when lo > hi; lo may be below 1)."""
    if lo < 1:
        lo = 1
    if hi > 62:
        hi = 62
    if lo > hi:
        return np.int64(0)
    return ((np.int64(1) << hi) - 1) & ~((np.int64(1) << (lo - 1)) - 1)


@njit(**NO_REFCOUNTS)
def _queue(s, cq, cflag, qs):
    """Put cell ``s`` on the cell queue (a ring: ``qs[1]`` its end) unless it is there already."""
    if not cflag[s]:
        cflag[s] = 1
        cq[qs[1]] = s
        qs[1] += 1
        if qs[1] == cq.shape[0]:
            qs[1] = 0


@njit(**NO_REFCOUNTS)
def _set(cand, s, m, cq, cflag, qs):
    """Narrow cell ``s`` to ``m`` (a subset of its mask); queue it when it changed. False when empty."""
    if m == cand[s]:
        return True
    if m == 0:
        return False
    cand[s] = m
    _queue(s, cq, cflag, qs)
    return True


@njit(cache=True)
def _mask_range(m, coef, lo, hi):
    """The digits d of ``m`` with lo <= coef * d <= hi."""
    out = np.int64(0)
    while m:
        b = low_bit(m)
        m ^= b
        v = coef * (lowest_bit(b) + 1)
        if lo <= v <= hi:
            out |= b
    return out


@njit(cache=True)
def _term_bounds(m, coef):
    """(min, max) of coef * d over the digits d of a non-empty mask."""
    a = coef * _low(m)
    b = coef * _high(m)
    if a > b:
        return b, a
    return a, b


@njit(**NO_REFCOUNTS)
def _linear(cand, cells, coef, lo_i, hi_i, total, cq, cflag, qs):
    """Bounds consistency of sum(coef[i] * d[i]) == total over cells[lo_i:hi_i]."""
    smin = 0
    smax = 0
    for i in range(lo_i, hi_i):
        a, b = _term_bounds(cand[cells[i]], coef[i])
        smin += a
        smax += b
    if total < smin or total > smax:
        return False
    for i in range(lo_i, hi_i):
        s = cells[i]
        m = cand[s]
        a, b = _term_bounds(m, coef[i])
        lo = total - (smax - b)
        hi = total - (smin - a)
        if (lo > a or hi < b) and not _set(cand, s, _mask_range(m, coef[i], lo, hi), cq, cflag, qs):
            return False
    return True


@njit(**NO_REFCOUNTS)
def _or_shl(buf, dst, src, w, sh):
    """Row ``dst`` |= row ``src`` shifted up by ``sh`` bits (rows of ``w`` uint64 words in ``buf``)."""
    ws = sh >> 6
    bs = np.uint64(sh & 63)
    for j in range(w - 1, ws - 1, -1):
        s1 = j - ws
        v = buf[src + s1] << bs
        if bs and s1 > 0:
            v |= buf[src + s1 - 1] >> (np.uint64(64) - bs)
        buf[dst + j] |= v


@njit(**NO_REFCOUNTS)
def _or_shr(buf, dst, src, w, sh):
    """Row ``dst`` |= row ``src`` shifted down by ``sh`` bits."""
    ws = sh >> 6
    bs = np.uint64(sh & 63)
    for j in range(0, w - ws):
        s1 = j + ws
        v = buf[src + s1] >> bs
        if bs and s1 + 1 < w:
            v |= buf[src + s1 + 1] << (np.uint64(64) - bs)
        buf[dst + j] |= v


@njit(**NO_REFCOUNTS)
def _meets_shl(buf, q, p, w, sh):
    """Whether row ``p`` shifted up by ``sh`` bits shares a bit with row ``q``."""
    ws = sh >> 6
    bs = np.uint64(sh & 63)
    for j in range(ws, w):
        s1 = j - ws
        v = buf[p + s1] << bs
        if bs and s1 > 0:
            v |= buf[p + s1 - 1] >> (np.uint64(64) - bs)
        if v & buf[q + j]:
            return True
    return False


@njit(**NO_REFCOUNTS)
def _linear_exact(cand, cells, coef, lo_i, hi_i, total, buf, cq, cflag, qs):
    """Exact support of sum(coef[i] * d[i]) == total: each cell keeps the digits that belong to some choice
    of one digit per cell (repeats allowed) reaching the total. Prefix sum sets ``P[i]`` and the sets ``Q[i]``
    of prefix sums the cells from ``i`` on can complete, as bit rows over the current bounds; skipped (the
    bounds stand) when the rows do not fit ``buf``."""
    k = hi_i - lo_i
    width = 1
    for i in range(lo_i, hi_i):
        a, b = _term_bounds(cand[cells[i]], coef[i])
        width += b - a
    w = (width + 63) >> 6
    if 2 * (k + 1) * w > buf.shape[0]:
        return True
    qbase = (k + 1) * w
    for j in range(2 * (k + 1) * w):
        buf[j] = 0
    buf[0] = 1  # P[0] = {0}, every P[i] relative to the sum of the lows before i
    pm = 0
    for i in range(k):
        c = coef[lo_i + i]
        m = cand[cells[lo_i + i]]
        lo, _ = _term_bounds(m, c)
        while m:
            b = low_bit(m)
            m ^= b
            _or_shl(buf, (i + 1) * w, i * w, w, c * (lowest_bit(b) + 1) - lo)
        pm += lo
    at = total - pm
    if at < 0 or at >= w * 64:
        return False
    buf[qbase + k * w + (at >> 6)] = np.uint64(1) << np.uint64(at & 63)
    for i in range(k - 1, -1, -1):
        c = coef[lo_i + i]
        s = cells[lo_i + i]
        m = cand[s]
        lo, _ = _term_bounds(m, c)
        keep = np.int64(0)
        while m:
            b = low_bit(m)
            m ^= b
            sh = c * (lowest_bit(b) + 1) - lo
            if _meets_shl(buf, qbase + (i + 1) * w, i * w, w, sh):
                keep |= b
                _or_shr(buf, qbase + i * w, qbase + (i + 1) * w, w, sh)
        if not _set(cand, s, keep, cq, cflag, qs):
            return False
    return True


@njit(**NO_REFCOUNTS)
def _fits(cand, cells, a, b, combo):
    """Whether the digit set ``combo`` meets every cell of cells[a:b]."""
    for i in range(a, b):  # noqa: SIM110 - a loop numba compiles (no generator)
        if not cand[cells[i]] & combo:
            return False
    return True


@njit(**NO_REFCOUNTS)
def _matched(cand, cells, a, b, combo):
    """Whether the cells ``cells[a:b]`` can take the digits of ``combo`` (as many as the cells, up to 15
    cells, digits up to 16), one each: a perfect matching, grown by augmenting paths (Hall's condition: a
    cage's digit set that fits every cell on its own can still be one digit short for two cells). The owner
    of each digit (a cell's index, 15 for none) and the digit each was reached from are 4-bit fields of two
    words."""
    owner = np.int64(-1)  # every field 15: no owner
    for i in range(b - a):
        start = cand[cells[a + i]] & combo
        seen = start
        todo = start
        came = np.int64(-1)  # 15: reached from cell i itself
        found = -1
        while todo:
            bit = low_bit(todo)
            todo ^= bit
            d = lowest_bit(bit)
            j = (owner >> (4 * d)) & 15
            if j == 15:
                found = d
                break
            more = cand[cells[a + j]] & combo & ~seen
            seen |= more
            todo |= more
            while more:
                e = lowest_bit(low_bit(more))
                more &= more - 1
                came = (came & ~(np.int64(15) << (4 * e))) | (np.int64(d) << (4 * e))
        if found < 0:
            return False
        d = found
        while True:  # shift the owners along the path back to cell i
            p = (came >> (4 * d)) & 15
            j = i if p == 15 else (owner >> (4 * p)) & 15
            owner = (owner & ~(np.int64(15) << (4 * d))) | (np.int64(j) << (4 * d))
            if p == 15:
                break
            d = p
    return True


@njit(cache=True)
def _digit_sum(m):
    """The sum of the digits of a mask."""
    t = 0
    while m:
        b = low_bit(m)
        m ^= b
        t += lowest_bit(b) + 1
    return t


def _digit_sets(most: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every set of digits 1..``most`` as masks, by size then value (``start[k]``: where size k begins), and
    each one's digit sum: the table :func:`_group_totals` walks."""
    by_size: list[list[int]] = [[] for _ in range(most + 2)]
    for m in range(1 << most):
        by_size[bin(m).count("1")].append(m)
    sets = np.array([m for group in by_size for m in group], dtype=np.int64)
    start = np.cumsum([0] + [len(group) for group in by_size]).astype(np.int64)
    sums = np.array([sum(d + 1 for d in range(most) if m >> d & 1) for m in sets], dtype=np.int64)
    return sets, start, sums


#: the digit sets of boards up to 9 digits (grouped sums exist only there: ``Model._groups``)
SETS, SETS_START, SETS_SUM = _digit_sets(9)


@njit(**NO_REFCOUNTS)
def _group_totals(cand, cells, a, b, wanted):
    """The totals (bit ``t``: total t) of the digit sets of different digits that fit cells[a:b] (one digit
    per cell: within the union of their candidates, meeting every cell), counting only totals in ``wanted``;
    with ``keep`` the union of those sets, as (totals, keep). The walk for groups of more than 3 cells: the
    table of sets of that size (``SETS``, in increasing order: C(9, k) <= 126 of them on 9 digits) up to the
    union's largest digit, each set's sum looked up; a set whose total and digits are in already is not
    tested against the cells."""
    k = b - a
    union = np.int64(0)
    for i in range(a, b):
        union |= cand[cells[i]]
    totals = np.int64(0)
    keep = np.int64(0)
    end = np.int64(1) << _high(union)
    for j in range(SETS_START[k], SETS_START[k + 1]):
        sub = SETS[j]
        if sub >= end:
            break
        if sub & ~union:
            continue
        t = SETS_SUM[j]
        if not (wanted >> t) & 1 or keep | sub == keep and (totals >> t) & 1:
            continue  # not wanted, or adds nothing: neither a total nor a digit to keep
        if _fits(cand, cells, a, b, sub):
            totals |= np.int64(1) << t
            keep |= sub
    return totals, keep


@njit(**NO_REFCOUNTS)
def _group_scan(cand, cells, a, k, wanted, cq, cflag, qs):
    """The totals (bit ``t``: total t) within ``wanted`` (-1: any) that cells[a:a+k], holding different
    digits, can reach; each cell narrowed to the digits that take part (0: none, a contradiction). Up to 3
    cells exact (every choice of different digits, the last cell's digits as one mask per choice of the
    others: at most 9 x 8 steps); larger groups keep the union of the fitting digit sets
    (:func:`_group_totals`). Either way a second scan with the same ``wanted`` finds the same totals."""
    c0 = cells[a]
    m0 = cand[c0]
    if k == 1:
        m = m0 & (wanted >> 1)
        if m != m0 and m:
            _set(cand, c0, m, cq, cflag, qs)
        return m << 1
    if k > 3:
        totals, keep = _group_totals(cand, cells, a, a + k, wanted)
        if totals:
            for i in range(a, a + k):
                s = cells[i]
                _set(cand, s, cand[s] & keep, cq, cflag, qs)
        return totals
    c1 = cells[a + 1]
    m1 = cand[c1]
    totals = np.int64(0)
    k0 = np.int64(0)
    k1 = np.int64(0)
    if k == 2:
        m = m0
        while m:
            x = low_bit(m)
            m ^= x
            sh = lowest_bit(x) + 2  # bit d - 1 of the other cell is total (x's digit) + d
            ym = m1 & ~x & (wanted >> sh)
            if ym:
                totals |= ym << sh
                k0 |= x
                k1 |= ym
        if totals:
            _set(cand, c0, k0, cq, cflag, qs)
            _set(cand, c1, k1, cq, cflag, qs)
        return totals
    c2 = cells[a + 2]
    m2 = cand[c2]
    k2 = np.int64(0)
    m = m0
    while m:
        x = low_bit(m)
        m ^= x
        dx = lowest_bit(x) + 1
        n1 = m1 & ~x
        while n1:
            y = low_bit(n1)
            n1 ^= y
            sh = dx + lowest_bit(y) + 2
            zm = m2 & ~(x | y) & (wanted >> sh)
            if zm:
                totals |= zm << sh
                k0 |= x
                k1 |= y
                k2 |= zm
    if totals:
        _set(cand, c0, k0, cq, cflag, qs)
        _set(cand, c1, k1, cq, cflag, qs)
        _set(cand, c2, k2, cq, cflag, qs)
    return totals


@njit(cache=True)
def _shift(x, sh):
    """The bits of ``x`` moved up by ``sh`` (down when negative); none left past 63."""
    if sh >= 64 or sh <= -64:
        return np.int64(0)
    if sh >= 0:
        return x << sh
    return x >> -sh


@njit(**NO_REFCOUNTS)
def _group_sum(cand, cells, coef, lo_i, aux, a_lo, a_hi, total, buf, cq, cflag, qs):
    """Exact support of sum over groups g of coef_g * (the sum of g's different digits) == total: the groups'
    sizes are ``aux[a_lo:a_hi]``, their cells one after another from ``lo_i``. One scan per group
    (:func:`_group_scan`: its reachable totals, its cells narrowed to them; kept in the last words of
    ``buf``), the bounds of the sum, then the groups' totals are the digits of one variable in
    :func:`_linear_exact`'s pass (prefix sets forward, completable sets backward, as bit rows: in one word
    each when the sum's span fits 64 bits); a group rescans only when some of its totals fell. Two groups
    of opposite unit coefficients (equal sums) take their totals from two shifts instead. Past the group
    scans, skipped (True) when the rows do not fit ``buf``."""
    n_groups = a_hi - a_lo
    tail = buf.shape[0] - n_groups
    width = 1
    smin = 0
    smax = 0
    at = lo_i
    first = np.int64(0)  # the first group's totals
    for g in range(n_groups):
        k = aux[a_lo + g]
        c = coef[at]
        sums = _group_scan(cand, cells, at, k, np.int64(-1), cq, cflag, qs)
        if sums == 0:
            return False
        if g == 0:
            first = sums
        if tail >= 0:
            buf[tail + g] = np.uint64(sums)
        lo = c * (lowest_bit(sums)) if c > 0 else c * (_high(sums) - 1)
        hi = c * (_high(sums) - 1) if c > 0 else c * lowest_bit(sums)
        smin += lo
        smax += hi
        width += hi - lo
        at += k
    if total < smin or total > smax:
        return False
    k0 = aux[a_lo]
    c0 = coef[lo_i]
    if n_groups == 2 and (c0 == 1 or c0 == -1) and coef[lo_i + k0] == -c0:
        # two groups of opposite unit coefficients (equal sums): t0 - t1 = c0 * total, as two shifts
        sh = c0 * total
        wanted0 = first & _shift(sums, sh)
        wanted1 = sums & _shift(first, -sh)
        if wanted0 == 0 or wanted1 == 0:
            return False
        if wanted0 != first and _group_scan(cand, cells, lo_i, k0, wanted0, cq, cflag, qs) == 0:
            return False
        return wanted1 == sums or _group_scan(cand, cells, lo_i + k0, aux[a_lo + 1], wanted1, cq, cflag, qs) != 0
    w = (width + 63) >> 6
    if 2 * (n_groups + 1) * w > tail:
        return True
    goal = total - smin
    if w == 1:  # one word per row: P[g] in buf[g], Q[g + 1] in a local
        buf[0] = 1
        at = lo_i
        for g in range(n_groups):
            c = coef[at]
            sums = np.int64(buf[tail + g])
            lo = c * (lowest_bit(sums)) if c > 0 else c * (_high(sums) - 1)
            p = buf[g]
            row = np.uint64(0)
            m = sums
            while m:
                b = low_bit(m)
                m ^= b
                row |= p << np.uint64(c * lowest_bit(b) - lo)
            buf[g + 1] = row
            at += aux[a_lo + g]
        if not (buf[n_groups] >> np.uint64(goal)) & np.uint64(1):
            return False
        q = np.uint64(1) << np.uint64(goal)
        for g in range(n_groups - 1, -1, -1):
            k = aux[a_lo + g]
            at -= k
            c = coef[at]
            sums = np.int64(buf[tail + g])
            lo = c * (lowest_bit(sums)) if c > 0 else c * (_high(sums) - 1)
            p = buf[g]
            wanted = np.int64(0)
            nq = np.uint64(0)
            m = sums
            while m:
                b = low_bit(m)
                m ^= b
                sh = np.uint64(c * lowest_bit(b) - lo)
                if (p << sh) & q:
                    wanted |= b
                    nq |= q >> sh
            q = nq
            if wanted == 0:
                return False
            if wanted != sums and _group_scan(cand, cells, at, k, wanted, cq, cflag, qs) == 0:
                return False
        return True
    qbase = (n_groups + 1) * w
    for j in range(2 * (n_groups + 1) * w):
        buf[j] = 0
    buf[0] = 1
    at = lo_i
    for g in range(n_groups):
        c = coef[at]
        sums = np.int64(buf[tail + g])
        lo = c * (lowest_bit(sums)) if c > 0 else c * (_high(sums) - 1)
        m = sums
        while m:
            b = low_bit(m)
            m ^= b
            _or_shl(buf, (g + 1) * w, g * w, w, c * lowest_bit(b) - lo)
        at += aux[a_lo + g]
    buf[qbase + n_groups * w + (goal >> 6)] = np.uint64(1) << np.uint64(goal & 63)
    for g in range(n_groups - 1, -1, -1):
        k = aux[a_lo + g]
        at -= k
        c = coef[at]
        sums = np.int64(buf[tail + g])
        lo = c * (lowest_bit(sums)) if c > 0 else c * (_high(sums) - 1)
        wanted = np.int64(0)
        m = sums
        while m:
            b = low_bit(m)
            m ^= b
            sh = c * lowest_bit(b) - lo
            if _meets_shl(buf, qbase + (g + 1) * w, g * w, w, sh):
                wanted |= b
                _or_shr(buf, qbase + g * w, qbase + (g + 1) * w, w, sh)
        if wanted == 0:
            return False
        if wanted != sums and _group_scan(cand, cells, at, k, wanted, cq, cflag, qs) == 0:
            return False
    return True


@njit(**NO_REFCOUNTS)
def _lock(cand, bit, spots, n_spots, peers, n_peers, adj, cq, cflag, qs):
    """``bit``'s digit must go in one of ``spots[:n_spots]`` (once): every cell that sees them all (a peer of
    each: the AND of their rows of ``adj``, the peer bit matrix) loses it. False on a contradiction."""
    for w in range(adj.shape[1]):
        x = adj[spots[0], w]
        for j in range(1, n_spots):
            x &= adj[spots[j], w]
        while x:
            b = low_bit(x)
            x ^= b
            p = (w << 6) + lowest_bit(b)
            if cand[p] & bit and not _set(cand, p, cand[p] & ~bit, cq, cflag, qs):
                return False
    return True


@njit(**NO_REFCOUNTS)
def _window_ok(cand, cells, lo_i, hi_i, keep_mask, total):
    """Whether cells[lo_i:hi_i], each limited to keep_mask, can sum to total (bounds); min and max sums."""
    smin = 0
    smax = 0
    for i in range(lo_i, hi_i):
        m = cand[cells[i]] & keep_mask
        if m == 0:
            return False, 0, 0
        smin += _low(m)
        smax += _high(m)
    return smin <= total <= smax, smin, smax


@njit(**NO_REFCOUNTS)
def _hall(cand, cells, lo_i, k, cq, cflag, qs):
    """Hall intervals of a unit's ``k`` cells (k <= 15 digits): when j open cells have all their candidates
    within j consecutive digits a..b, those digits are theirs and leave every other cell; more than j such
    cells is a contradiction. Such an interval needs j cells whose span is j digits or fewer, so only the
    narrow cells (spans up to the largest such j) take part: for each smallest digit a of one of them, the
    narrow cells from a up are counted by their largest digit (4-bit fields of one word), then swept up b."""
    widths = np.int64(0)  # the open cells by the width of their span (4-bit fields)
    n_open = 0
    for i in range(lo_i, lo_i + k):
        m = cand[cells[i]]
        if m & (m - 1):
            widths += np.int64(1) << (4 * (_high(m) - lowest_bit(m) - 1))
            n_open += 1
    most = 0  # the largest j below the open cells with j cells no wider than j
    cum = 0
    for j in range(1, n_open):
        cum += (widths >> (4 * (j - 1))) & 15
        if cum >= j:
            most = j
    if most == 0:
        return True
    los = np.int64(0)  # the narrow cells: smallest and largest digit index (4-bit fields by position)
    his = np.int64(0)
    narrow = 0
    lows = np.int64(0)
    for i in range(k):
        m = cand[cells[lo_i + i]]
        if m & (m - 1):
            lo = lowest_bit(m)
            hi = _high(m) - 1
            if hi - lo < most:
                los |= np.int64(lo) << (4 * i)
                his |= np.int64(hi) << (4 * i)
                narrow |= 1 << i
                lows |= low_bit(m)
    while lows:
        la = low_bit(lows)
        lows ^= la
        a = lowest_bit(la)
        hist = np.int64(0)
        top = 0
        z = narrow
        while z:
            i = lowest_bit(z)
            z &= z - 1
            if (los >> (4 * i)) & 15 >= a:
                h = (his >> (4 * i)) & 15
                hist += np.int64(1) << (4 * h)
                if h > top:
                    top = h
        cum = 0
        for b in range(a, top + 1):
            cum += (hist >> (4 * b)) & 15
            if cum > b - a + 1:
                return False
            if cum == b - a + 1 and cum > 1:
                span = _span(a + 1, b + 1)
                for i in range(lo_i, lo_i + k):
                    s = cells[i]
                    m = cand[s]
                    if m & span and m & ~span and not _set(cand, s, m & ~span, cq, cflag, qs):
                        return False
                break  # a wider interval from a holds these cells and as many more digits as cells
    return True


@njit(**NO_REFCOUNTS)
def _run(t, pa, pb, cand, cells, coef, lo_i, hi_i, aux, a_lo, a_hi, rel, full, buf, peers, n_peers, adj, spots, cq,
         cflag, qs):  # fmt: skip
    """Run one propagator; False on a contradiction."""
    k = hi_i - lo_i
    if t == T_PAIR:
        a = cells[lo_i]
        b = cells[lo_i + 1]
        ma = cand[a]
        if rel.shape[2] > full:  # tables over whole masks: arc consistency in two look-ups
            if not _set(cand, b, cand[b] & rel[pa, 0, ma], cq, cflag, qs):
                return False
            return _set(cand, a, ma & rel[pa, 1, cand[b]], cq, cflag, qs)
        if popcount(ma) <= rel[pa, 0, 0]:  # more candidates than that: every digit of b has a support
            allowed = np.int64(0)
            m = ma
            while m:
                bit = low_bit(m)
                m ^= bit
                allowed |= rel[pa, 0, lowest_bit(bit) + 1]
            if not _set(cand, b, cand[b] & allowed, cq, cflag, qs):
                return False
        mb = cand[b]
        if popcount(mb) > rel[pa, 1, 0]:
            return True
        allowed = np.int64(0)
        m = mb
        while m:
            bit = low_bit(m)
            m ^= bit
            allowed |= rel[pa, 1, lowest_bit(bit) + 1]
        return _set(cand, a, ma & allowed, cq, cflag, qs)
    if t == T_CAGE:
        union = np.int64(0)
        for i in range(lo_i, hi_i):
            union |= cand[cells[i]]
        allowed = np.int64(0)
        required = np.int64(-1)
        for j in range(a_lo, a_hi):
            combo = aux[j]
            if combo & ~union:
                continue
            fits = True
            sizes = np.int64(0)  # with pb: how many cells have each number of the set's digits (4-bit fields)
            for i in range(lo_i, hi_i):
                m = cand[cells[i]] & combo
                if not m:
                    fits = False
                    break
                if pb:
                    sizes += np.int64(1) << (4 * min(popcount(m), 15))
            if fits and pb:
                # Hall: some t cells with fewer than t digits between them need t cells of fewer than t
                # digits each; when there are never that many, the matching exists without looking
                fewer = 0
                for t in range(1, k + 1):
                    fewer += (sizes >> (4 * (t - 1))) & 15
                    if fewer >= t:
                        fits = _matched(cand, cells, lo_i, hi_i, combo)
                        break
            if fits:
                allowed |= combo
                required &= combo
        if allowed == 0:
            return False
        for i in range(lo_i, hi_i):
            s = cells[i]
            if not _set(cand, s, cand[s] & allowed, cq, cflag, qs):
                return False
        required &= allowed
        while required:
            bit = low_bit(required)
            required ^= bit
            spot = -1
            n_spots = 0
            for i in range(lo_i, hi_i):
                if cand[cells[i]] & bit:
                    n_spots += 1
                    spot = cells[i]
            if n_spots == 0:
                return False
            if n_spots == 1:
                if not _set(cand, spot, bit, cq, cflag, qs):
                    return False
                continue
            j = 0
            for i in range(lo_i, hi_i):
                if cand[cells[i]] & bit:
                    spots[j] = cells[i]
                    j += 1
            if not _lock(cand, bit, spots, j, peers, n_peers, adj, cq, cflag, qs):
                return False
        return True
    if t == T_THERMO:
        step = pa
        floor = 0
        for i in range(lo_i, hi_i):
            s = cells[i]
            lo = floor + step if floor else 1
            if not _set(cand, s, cand[s] & _span(lo, 62), cq, cflag, qs):
                return False
            floor = _low(cand[s])
        ceiling = 62
        for i in range(hi_i - 1, lo_i - 1, -1):
            s = cells[i]
            if not _set(cand, s, cand[s] & _span(1, ceiling), cq, cflag, qs):
                return False
            ceiling = _high(cand[s]) - step
        return True
    if t == T_RENBAN:
        union = np.int64(0)
        for i in range(lo_i, hi_i):
            union |= cand[cells[i]]
        run = (np.int64(1) << k) - 1
        allowed = np.int64(0)
        for start in range(_high(union) - k + 1):
            r = run << start
            if r & ~union:
                continue
            if _fits(cand, cells, lo_i, hi_i, r):
                allowed |= r
        if allowed == 0:
            return False
        for i in range(lo_i, hi_i):
            s = cells[i]
            if not _set(cand, s, cand[s] & allowed, cq, cflag, qs):
                return False
        return True
    if t == T_LINEAR:
        return _linear(cand, cells, coef, lo_i, hi_i, pa, cq, cflag, qs) and _linear_exact(
            cand, cells, coef, lo_i, hi_i, pa, buf, cq, cflag, qs
        )
    if t == T_ABOVE:
        x = cells[lo_i]
        union = np.int64(0)
        for i in range(lo_i + 1, hi_i):
            union |= cand[cells[i]]
        need = k - 1
        if popcount(union) < need:
            return False
        m = union
        if pa == 1:
            for _ in range(need - 1):
                m ^= np.int64(1) << (_high(m) - 1)
            return _set(cand, x, cand[x] & _span(1, _high(m) - 1), cq, cflag, qs)
        for _ in range(need - 1):
            m ^= low_bit(m)
        return _set(cand, x, cand[x] & _span(_low(m) + 1, 62), cq, cflag, qs)
    if t == T_HALL:
        return _hall(cand, cells, lo_i, k, cq, cflag, qs)
    if t == T_GSUM:
        return _group_sum(cand, cells, coef, lo_i, aux, a_lo, a_hi, pa, buf, cq, cflag, qs)
    if t == T_SANDWICH:
        if pb:
            return _sandwich_exact(cand, cells, lo_i, k, pa, aux, a_lo, a_hi, buf, cq, cflag, qs)
        return _sandwich(cand, cells, lo_i, k, pa, buf, cq, cflag, qs)
    if t == T_XSUM:
        if pb:
            return _xsum_exact(cand, cells, lo_i, k, pa, buf, cq, cflag, qs)
        return _xsum(cand, cells, lo_i, k, pa, buf, cq, cflag, qs)
    if t == T_SKY:
        return _skyscraper(cand, cells, lo_i, k, pa, pb, buf, cq, cflag, qs)
    if t == T_QUAD:
        free = k
        allowed = np.int64(0)
        for j in range(a_lo, a_hi, 2):
            free -= aux[j + 1]
        for j in range(a_lo, a_hi, 2):
            bit = np.int64(1) << (aux[j] - 1)
            need = aux[j + 1]
            allowed |= bit
            spots = 0
            fixed = 0
            for i in range(lo_i, hi_i):
                m = cand[cells[i]]
                if m & bit:
                    spots += 1
                    if m == bit:
                        fixed += 1
            if spots < need:
                return False
            if spots == need and fixed < need:
                for i in range(lo_i, hi_i):
                    s = cells[i]
                    if cand[s] & bit and not _set(cand, s, bit, cq, cflag, qs):
                        return False
        if free == 0:
            for i in range(lo_i, hi_i):
                s = cells[i]
                if not _set(cand, s, cand[s] & allowed, cq, cflag, qs):
                    return False
        return True
    if t == T_BETWEEN:
        if k < 3:
            return True
        first = cells[lo_i]
        last = cells[hi_i - 1]
        top = 99
        bottom = 0
        for i in range(lo_i + 1, hi_i - 1):
            m = cand[cells[i]]
            top = min(top, _high(m))
            bottom = max(bottom, _low(m))
        keep_first = np.int64(0)
        keep_last = np.int64(0)
        keep_mid = np.int64(0)
        for way in range(2):
            lo_end = first if way == 0 else last
            hi_end = last if way == 0 else first
            lo_m = cand[lo_end] & _span(1, top - 1)
            hi_m = cand[hi_end] & _span(bottom + 1, 62)
            if lo_m == 0 or hi_m == 0 or _high(hi_m) - _low(lo_m) < 2:
                continue
            inner = _span(_low(lo_m) + 1, _high(hi_m) - 1)
            if way == 0:
                keep_first |= lo_m
                keep_last |= hi_m
            else:
                keep_first |= hi_m
                keep_last |= lo_m
            keep_mid |= inner
        if not _set(cand, first, cand[first] & keep_first, cq, cflag, qs):
            return False
        if not _set(cand, last, cand[last] & keep_last, cq, cflag, qs):
            return False
        for i in range(lo_i + 1, hi_i - 1):
            s = cells[i]
            if not _set(cand, s, cand[s] & keep_mid, cq, cflag, qs):
                return False
        return True
    return True


@njit(**NO_REFCOUNTS)
def _window_keep(cand, cells, lo_i, hi_i, keep_mask, total, smin, smax, keep, base):
    """OR into keep[base + i] (words of ``buf``) the digits of cell i (limited to keep_mask) that fit the
    window's sum bounds."""
    for i in range(lo_i, hi_i):
        m = cand[cells[i]] & keep_mask
        a = _low(m)
        b = _high(m)
        keep[base + i - lo_i] |= np.uint64(_mask_range(m, 1, total - (smax - b), total - (smin - a)))


@njit(**NO_REFCOUNTS)
def _skyscraper(cand, cells, lo_i, k, c, perm, buf, cq, cflag, qs):
    """Skyscraper: exactly ``c`` digits of cells[lo_i:lo_i + k] are taller than every digit before them.
    Exact support over the states (position, tallest so far, number seen): ``f[i, m]`` has bit v when the
    first i cells can leave tallest m with v seen, ``g[i, m]`` bit v when the rest can end with c seen; a
    digit stays when one state joins the two. With ``perm`` (the line is a whole unit: a permutation of
    1..k) a digit never equals the tallest before it, the tallest after i cells is at least i and the last
    one is k. ``f`` and ``g`` are rows of ``top + 1`` words of ``buf``."""
    top = 0
    for i in range(k):
        top = max(top, _high(cand[cells[lo_i + i]]))
    if c < 1 or c > k or (perm and top < k):
        return False
    r = top + 1
    g0 = (k + 1) * r  # f[i, m] is buf[i * r + m], g[i, m] buf[g0 + i * r + m]
    for j in range(2 * g0):
        buf[j] = 0
    buf[0] = 1
    for i in range(k):
        mm = cand[cells[lo_i + i]]
        for m in range(top + 1):
            src = np.int64(buf[i * r + m])
            if src == 0:
                continue
            x = mm
            while x:
                b = low_bit(x)
                x ^= b
                d = lowest_bit(b) + 1
                if d > m:
                    if not perm or d >= i + 1:
                        buf[(i + 1) * r + d] |= np.uint64(src << 1)
                elif d < m or not perm:
                    buf[(i + 1) * r + m] |= np.uint64(src)
    goal = np.int64(1) << c
    for m in range(top + 1):
        if not perm or m == k:
            buf[g0 + k * r + m] = np.uint64(goal)
    for i in range(k - 1, -1, -1):
        s = cells[lo_i + i]
        mm = cand[s]
        keep = np.int64(0)
        for m in range(top + 1):
            x = mm
            while x:
                b = low_bit(x)
                x ^= b
                d = lowest_bit(b) + 1
                if d > m:
                    if perm and d < i + 1:
                        continue
                    nxt = np.int64(buf[g0 + (i + 1) * r + d]) >> 1
                elif d < m or not perm:
                    nxt = np.int64(buf[g0 + (i + 1) * r + m])
                else:
                    continue
                if nxt:
                    buf[g0 + i * r + m] |= np.uint64(nxt)
                    if np.int64(buf[i * r + m]) & nxt:
                        keep |= b
        if not _set(cand, s, mm & keep, cq, cflag, qs):
            return False
    return True


@njit(**NO_REFCOUNTS)
def _sandwich(cand, cells, lo_i, n, total, keep, cq, cflag, qs):
    """Sandwich: some cell i holds 1 (or n), some j > i holds n (or 1), cells between sum to total (``keep``:
    ``buf``, the digits each cell keeps in its first ``n`` words)."""
    lo_bit = np.int64(1)
    hi_bit = np.int64(1) << (n - 1)
    inner = ~(lo_bit | hi_bit)
    for i in range(n):
        keep[i] = 0
    for i in range(n):
        mi = cand[cells[lo_i + i]]
        if not mi & (lo_bit | hi_bit):
            continue
        for j in range(i + 1, n):
            mj = cand[cells[lo_i + j]]
            for way in range(2):
                e1 = lo_bit if way == 0 else hi_bit
                e2 = hi_bit if way == 0 else lo_bit
                if not (mi & e1 and mj & e2):
                    continue
                ok, smin, smax = _window_ok(cand, cells, lo_i + i + 1, lo_i + j, inner, total)
                if not ok:
                    continue
                outside = True
                for o in range(n):
                    if (o < i or o > j) and not cand[cells[lo_i + o]] & inner:
                        outside = False
                        break
                if not outside:
                    continue
                keep[i] |= np.uint64(e1)
                keep[j] |= np.uint64(e2)
                _window_keep(cand, cells, lo_i + i + 1, lo_i + j, inner, total, smin, smax, keep, i + 1)
                for o in range(n):
                    if o < i or o > j:
                        keep[o] |= np.uint64(cand[cells[lo_i + o]] & inner)
    for i in range(n):
        s = cells[lo_i + i]
        if not _set(cand, s, cand[s] & np.int64(keep[i]), cq, cflag, qs):
            return False
    return True


@njit(**NO_REFCOUNTS)
def _sandwich_exact(cand, cells, lo_i, n, total, aux, a_lo, a_hi, buf, cq, cflag, qs):
    """Sandwich on a whole unit of at most 9 digits (a permutation of 1..n). ``aux[a_lo:a_hi]`` holds every
    set S of digits other than 1 and n that sums to ``total`` (the model's, once per clue). A choice (the 1
    and the n at places i < j, either way round, S between them) fits when every cell between them meets S,
    every digit of S has a place between them and their bounds over S reach ``total``, and every cell outside
    meets the rest R, whose every digit has a place outside, and no two cells on one side are left with the
    same single digit of their side's set (the cheap half of Hall's condition: "Sandwich snipe 18" 7,848 ->
    1,989 nodes; a full matching cut 37,031 -> 27,353 nodes without failure weights, to 31,898 for this
    test, but cost more than it saved); each cell keeps the digits of some fitting choice.
    The test reads each cell only through its digits in S, in R or at the ends, which is what it keeps: a
    second run with nothing else changed keeps the same (:func:`propagate` does not wake it for its own
    changes). Places are bits of one word (bit o: cell o), so a choice costs a few word operations; ``buf[:n]``
    gathers the digits each cell keeps, ``buf[n:2n]`` holds the cells' candidates. The pass stops as soon as
    every candidate of every cell has a fitting choice (nothing can narrow; keeps only grow set by set)."""
    lo_bit = np.int64(1)
    hi_bit = np.int64(1) << (n - 1)
    inner = ((np.int64(1) << n) - 1) & ~(lo_bit | hi_bit)
    all_pos = (np.int64(1) << n) - 1
    has_lo = np.int64(0)  # the places that may hold the 1, the n
    has_hi = np.int64(0)
    for o in range(n):
        m = cand[cells[lo_i + o]]
        buf[o] = 0
        buf[n + o] = np.uint64(m)
        if m & lo_bit:
            has_lo |= np.int64(1) << o
        if m & hi_bit:
            has_hi |= np.int64(1) << o
    end_lo = np.int64(0)  # the places that keep the 1, the n
    end_hi = np.int64(0)
    for c in range(a_lo, a_hi):
        sub = aux[c]
        w = popcount(sub)
        starts = (has_lo & (has_hi >> (w + 1))) | (has_hi & (has_lo >> (w + 1)))  # places i of a fitting pair
        if not starts:
            continue
        rest = inner & ~sub
        meet_s = np.int64(0)  # the cells that hold a digit of S, of R
        meet_r = np.int64(0)
        for o in range(n):
            m = np.int64(buf[n + o])
            if m & sub:
                meet_s |= np.int64(1) << o
            if m & rest:
                meet_r |= np.int64(1) << o
        in_pos = np.int64(0)
        out_pos = np.int64(0)
        span = (np.int64(1) << w) - 1
        while starts:
            i = lowest_bit(starts)
            starts &= starts - 1
            j = i + w + 1
            way0 = (has_lo >> i) & (has_hi >> j) & 1
            way1 = (has_hi >> i) & (has_lo >> j) & 1
            inside = span << (i + 1)
            outside = all_pos & ~inside & ~((np.int64(1) << i) | (np.int64(1) << j))
            if meet_s & inside != inside or meet_r & outside != outside:
                continue
            cov_s = np.int64(0)  # every digit of S needs a place inside, every digit of R one outside
            cov_r = np.int64(0)
            one = np.int64(0)  # the digits a cell is left with alone (inside: of S, outside: of R)
            twice = np.int64(0)  # ... by two cells: no place for both
            smin = 0
            smax = 0
            for o in range(n):
                m = np.int64(buf[n + o])
                if (inside >> o) & 1:
                    y = m & sub
                    cov_s |= y
                    smin += _low(y)
                    smax += _high(y)
                elif (outside >> o) & 1:
                    y = m & rest
                    cov_r |= y
                else:
                    continue
                if not y & (y - 1):
                    twice |= one & y
                    one |= y
            if cov_s != sub or cov_r != rest or twice or smin > total or smax < total:
                continue
            in_pos |= inside
            out_pos |= outside
            if way0:
                end_lo |= np.int64(1) << i
                end_hi |= np.int64(1) << j
            if way1:
                end_hi |= np.int64(1) << i
                end_lo |= np.int64(1) << j
        if in_pos | out_pos:
            lacking = np.int64(0)  # a digit of some cell without a fitting choice so far
            for o in range(n):
                if (in_pos >> o) & 1:
                    buf[o] |= np.uint64(sub)
                if (out_pos >> o) & 1:
                    buf[o] |= np.uint64(rest)
                ends = ((end_lo >> o) & 1) | (((end_hi >> o) & 1) << (n - 1))
                lacking |= np.int64(buf[n + o]) & ~(np.int64(buf[o]) | ends)
            if lacking == 0:
                return True  # every digit of every cell already has a fitting choice: nothing narrows
    for o in range(n):
        keep = np.int64(buf[o])
        if (end_lo >> o) & 1:
            keep |= lo_bit
        if (end_hi >> o) & 1:
            keep |= hi_bit
        s = cells[lo_i + o]
        if not _set(cand, s, cand[s] & keep, cq, cflag, qs):
            return False
    return True


@njit(**NO_REFCOUNTS)
def _xsum_exact(cand, cells, lo_i, n, total, keep, cq, cflag, qs):
    """X-sum on a whole unit of at most 9 digits (a permutation of 1..n): for each value x of the first cell,
    the sets of x different digits holding x that sum to ``total``, fit the first x cells (the first one
    holding x) and leave digits for the others; each cell keeps the digits of some fitting choice."""
    for i in range(n):  # ``keep``: ``buf``, the digits each cell keeps in its first n words
        keep[i] = 0
    full = (np.int64(1) << n) - 1
    first = cells[lo_i]
    saved = cand[first]
    m = saved
    while m:
        bit = low_bit(m)
        m ^= bit
        x = lowest_bit(bit) + 1
        if x > n:
            continue
        cand[first] = bit
        union = bit
        for i in range(1, x):
            union |= cand[cells[lo_i + i]]
        union &= full
        sub = union
        while sub:
            wanted = sub & bit and popcount(sub) == x and _digit_sum(sub) == total
            if wanted and _fits(cand, cells, lo_i, lo_i + x, sub):
                rest = full & ~sub
                if _fits(cand, cells, lo_i + x, lo_i + n, rest):
                    for i in range(n):
                        mi = cand[cells[lo_i + i]]
                        keep[i] |= np.uint64(mi & (sub if i < x else rest))
            sub = (sub - 1) & union
        cand[first] = saved
    for i in range(n):
        s = cells[lo_i + i]
        if not _set(cand, s, cand[s] & np.int64(keep[i]), cq, cflag, qs):
            return False
    return True


@njit(**NO_REFCOUNTS)
def _xsum(cand, cells, lo_i, n, total, keep, cq, cflag, qs):
    """X-sum: with X the first cell's digit, the first X cells sum to total."""
    for i in range(n):  # ``keep``: ``buf``, the digits each cell keeps in its first n words
        keep[i] = 0
    first = cells[lo_i]
    saved = cand[first]
    m = saved
    while m:
        bit = low_bit(m)
        m ^= bit
        x = lowest_bit(bit) + 1
        if x > n:
            continue
        cand[first] = bit  # the window's bounds with the first cell fixed to x
        ok, smin, smax = _window_ok(cand, cells, lo_i, lo_i + x, np.int64(-1), total)
        if ok:
            _window_keep(cand, cells, lo_i, lo_i + x, np.int64(-1), total, smin, smax, keep, 0)
            for i in range(x, n):
                keep[i] |= np.uint64(cand[cells[lo_i + i]])
        cand[first] = saved
    for i in range(n):
        s = cells[lo_i + i]
        if not _set(cand, s, cand[s] & np.int64(keep[i]), cq, cflag, qs):
            return False
    return True


@njit(**NO_REFCOUNTS)
def _board(cand, buf, d, words):
    """The cells holding digit d as a candidate, into ``buf[d * words:(d + 1) * words]`` (bit c: cell c):
    one word at a time, in a register."""
    n = cand.shape[0]
    for w in range(words):
        row = np.uint64(0)
        for c in range(w << 6, min(n, (w + 1) << 6)):
            row |= np.uint64((cand[c] >> d) & 1) << np.uint64(c & 63)
        buf[d * words + w] = row


@njit(**NO_REFCOUNTS)
def propagate(cand, done, units, peers, n_peers, w_start, w_props, p_type, p_lo, p_hi, p_a, p_b, p_alo, p_ahi,
              p_cells, p_coef, aux, rel, full, buf, adj, spots, cq, cflag, pq, pflag, qs, pw, cell_units,
              udirty):  # fmt: skip
    """Propagate to a fixed point from the cells in ``cq`` (``qs`` = [head, tail, phead, ptail]) and the
    propagators in ``pq``; False on a contradiction. Leaves both queues empty and their flags clear.
    ``cell_units[c]`` lists the units of cell c (-1 padded); a changed cell marks them in ``udirty`` (bit 1:
    hidden singles to look for, bit 2: locked candidates), and only marked units are scanned: a unit no
    changed cell lies in is at the fixed point it had. Pairs over mask tables (``rel`` of width ``full + 1``)
    are not queued: a changed cell narrows the other cell of each at once (two tables make a pair arc
    consistent, each side when the other changes). A unit where the hidden singles fail counts the failure
    in ``pw[n_props + n_cells + u]`` when ``pw`` is that long (the search's unit weights).

    The hot loops here narrow a cell and queue it in place rather than through :func:`_set`: a helper that
    takes arrays costs numba reference-count updates (atomic) on them at every call, even inlined, which
    made a peer elimination ~7x slower (root propagation of a classic puzzle: 18 against 2.7 us)."""
    by_mask = rel.shape[2] > full
    n_cq = cq.shape[0]
    last = -1  # the last propagator run, when idempotent (cells it alone narrowed have flag 2)
    at_units = p_type.shape[0] + cand.shape[0]  # the units' failure weights in ``pw`` (when it holds them)
    # the units whose Hall intervals to look at: T_HALL propagators hall_first + bit, which the model puts last,
    # one per unit in order (when there are at most 64 units), watched by no cell: a changed cell marks its units.
    # Their ``b`` is hall_first, or -1 - hall_first for no locked candidates (thermometer-only models)
    hall_todo = np.int64(0)
    n_props = p_type.shape[0]
    hall_first = -1
    locked = True
    if n_props > 0 and p_type[n_props - 1] == T_HALL:
        hall_first = p_b[n_props - 1]
        if hall_first < 0:
            hall_first = -1 - hall_first
            locked = False
    ok = True
    while ok:
        # cells that changed: a single digit leaves the peers, the watching propagators are queued
        while qs[0] != qs[1]:
            s = cq[qs[0]]
            qs[0] += 1
            if qs[0] == cq.shape[0]:
                qs[0] = 0
            own = last if cflag[s] == 2 else -1  # changed only by the last run of an idempotent propagator
            cflag[s] = 0
            for k in range(cell_units.shape[1]):
                u = cell_units[s, k]
                if u < 0:
                    break
                udirty[u] = 3
                if hall_first >= 0:
                    hall_todo |= np.int64(1) << u
            m = cand[s]
            if not done[s] and m & (m - 1) == 0:
                done[s] = 1
                for k in range(n_peers[s]):
                    p = peers[s, k]
                    mp = cand[p]
                    if mp & m:
                        mp &= ~m
                        if mp == 0:
                            ok = False
                            break
                        cand[p] = mp
                        if cflag[p] != 1:  # (not _set: see the note above)
                            if not cflag[p]:
                                t = qs[1]
                                cq[t] = p
                                qs[1] = 0 if t + 1 == n_cq else t + 1
                            cflag[p] = 1
                if not ok:
                    break
            for k in range(w_start[s], w_start[s + 1]):
                i = w_props[k]
                if p_type[i] == T_PAIR and by_mask:  # a pair over mask tables: narrow the other cell now
                    j = p_lo[i]
                    if p_cells[j] == s:
                        o = p_cells[j + 1]
                        allowed = rel[p_a[i], 0, m]
                    else:
                        o = p_cells[j]
                        allowed = rel[p_a[i], 1, m]
                    mp = cand[o]
                    if mp & ~allowed:
                        mp &= allowed
                        if mp == 0:
                            pw[i] += 1
                            ok = False
                            break
                        cand[o] = mp
                        if cflag[o] != 1:
                            if not cflag[o]:
                                t = qs[1]
                                cq[t] = o
                                qs[1] = 0 if t + 1 == n_cq else t + 1
                            cflag[o] = 1
                    continue
                if not pflag[i] and i != own:
                    pflag[i] = 1
                    pq[qs[3]] = i
                    qs[3] += 1
                    if qs[3] == pq.shape[0]:
                        qs[3] = 0
        if not ok:
            break
        if qs[2] != qs[3]:
            i = pq[qs[2]]
            qs[2] += 1
            if qs[2] == pq.shape[0]:
                qs[2] = 0
            pflag[i] = 0
            ok = _run(p_type[i], p_a[i], p_b[i], cand, p_cells, p_coef, p_lo[i], p_hi[i], aux, p_alo[i],
                      p_ahi[i], rel, full, buf, peers, n_peers, adj, spots, cq, cflag, qs)  # fmt: skip
            if not ok:
                pw[i] += 1  # the propagator's weight: its failures (the search's tie-break on hard puzzles)
            elif p_type[i] == T_GSUM or (p_type[i] == T_SANDWICH and p_b[i]):
                # idempotent: what it narrowed (the whole cell queue: it was empty before the run) need not
                # wake it again, unless something else narrows those cells too (then their flag is 1)
                last = i
                h = qs[0]
                while h != qs[1]:
                    cflag[cq[h]] = 2
                    h = 0 if h + 1 == n_cq else h + 1
            continue
        # both queues empty: hidden singles over the units
        changed = False
        for u in range(units.shape[0]):
            if not udirty[u] & 1:
                continue
            udirty[u] &= 2
            once = np.int64(0)
            more = np.int64(0)
            for k in range(units.shape[1]):
                m = cand[units[u, k]]
                more |= once & m
                once |= m
            if once != full:
                if pw.shape[0] > at_units:
                    pw[at_units + u] += 1  # the unit's weight: its failures
                ok = False
                break
            alone = once & ~more
            if alone:
                for k in range(units.shape[1]):
                    s = units[u, k]
                    m = cand[s]
                    hit = m & alone
                    if hit and hit != m:
                        if hit & (hit - 1):
                            ok = False  # two digits need the same cell
                            if pw.shape[0] > at_units:
                                pw[at_units + u] += 1
                            break
                        cand[s] = hit
                        if not cflag[s]:
                            cflag[s] = 1
                            t = qs[1]
                            cq[t] = s
                            qs[1] = 0 if t + 1 == n_cq else t + 1
                        changed = True
                if not ok:
                    break
        if not ok or changed:
            continue
        # still nothing: a digit confined to some cells of a unit leaves every cell that sees them all (those
        # with the digit: the AND of the places' rows of ``adj`` and the digit's board, :func:`_board`)
        words = adj.shape[1]
        n_digits = units.shape[1]
        at_places = n_digits * words  # the digits' boards in ``buf`` (free between propagator runs), then the
        built = np.int64(0)  # places in the unit of each digit; the digits whose boards are built
        for u in range(units.shape[0] if locked else 0):
            if not udirty[u] & 2:
                continue
            udirty[u] &= 1
            ge1 = np.int64(0)  # the digits with at least 1, 2, ... 5 places in the unit
            ge2 = np.int64(0)
            ge3 = np.int64(0)
            ge4 = np.int64(0)
            ge5 = np.int64(0)
            for k in range(units.shape[1]):
                m = cand[units[u, k]]
                ge5 |= ge4 & m
                ge4 |= ge3 & m
                ge3 |= ge2 & m
                ge2 |= ge1 & m
                ge1 |= m
            some = ge2 & ~ge5  # two to four places
            if not some:
                continue
            z = some
            while z:
                e = low_bit(z)
                z ^= e
                buf[at_places + lowest_bit(e)] = 0
            for k in range(units.shape[1]):  # those digits' places: bit k for the unit's k-th cell
                z = cand[units[u, k]] & some
                while z:
                    e = low_bit(z)
                    z ^= e
                    buf[at_places + lowest_bit(e)] |= np.uint64(1) << np.uint64(k)
            while some:
                bit = low_bit(some)
                some ^= bit
                d = lowest_bit(bit)
                if not built & bit:  # built once a pass, when first needed: a board that went stale in the
                    _board(cand, buf, d, words)  # pass holds more cells than the digit's, never fewer
                    built |= bit
                places = np.int64(buf[at_places + d])
                for w in range(words):
                    x = buf[d * words + w]
                    y = places
                    while y and x:
                        e = low_bit(y)
                        y ^= e
                        x &= adj[units[u, lowest_bit(e)], w]
                    while x:
                        b = low_bit(x)
                        x ^= b
                        p = (w << 6) + lowest_bit(b)
                        mp = cand[p]
                        if mp & bit:
                            mp &= ~bit
                            if mp == 0:
                                ok = False
                                break
                            cand[p] = mp
                            if not cflag[p]:
                                cflag[p] = 1
                                t = qs[1]
                                cq[t] = p
                                qs[1] = 0 if t + 1 == n_cq else t + 1
                    if not ok:
                        break
                if not ok:
                    break
            if not ok:
                break
        if qs[0] != qs[1]:
            continue
        while hall_todo:
            bit = low_bit(hall_todo)
            hall_todo ^= bit
            i = hall_first + lowest_bit(bit)
            if not _hall(cand, p_cells, p_lo[i], p_hi[i] - p_lo[i], cq, cflag, qs):
                pw[at_units + lowest_bit(bit) if pw.shape[0] > at_units else i] += 1  # the unit's failure
                ok = False
                break
        if not ok:
            break
        if qs[0] != qs[1]:
            continue
        break
    if not ok:  # empty the queues for the next call
        while qs[0] != qs[1]:
            cflag[cq[qs[0]]] = 0
            qs[0] += 1
            if qs[0] == cq.shape[0]:
                qs[0] = 0
        while qs[2] != qs[3]:
            pflag[pq[qs[2]]] = 0
            qs[2] += 1
            if qs[2] == pq.shape[0]:
                qs[2] = 0
    return ok


#: Failed-digit probing (below) starts once a search has visited this many nodes, at this depth and above:
#: off by default (depth -1), since the corpus' hard puzzles ran 2-10x faster without it (docs/variants.md).
PROBE_AFTER = 1000
PROBE_DEPTH = -1
#: The search branches by failure weight (dom/wdeg) once it has visited this many nodes: from the start.
WDEG_AFTER = 0
#: ``search(..., places=)``: branch on cells only (0), or also on a digit's two or three places in a unit,
#: weighed by the heaviest of those places (``PLACES_MAX``) or by their sum (``PLACES_SUM``).
PLACES_OFF = 0
PLACES_MAX = 1
PLACES_SUM = 2


@njit(cache=True)
def _probe(st_cand, st_done, depth, units, peers, n_peers, w_start, w_props, p_type, p_lo, p_hi, p_a, p_b, p_alo,
           p_ahi, p_cells, p_coef, aux, rel, full, buf, adj, spots, cq, cflag, pq, pflag, qs, pw, cell_units,
           udirty, sup, sup_done, sup_tag, gen, bounds):  # fmt: skip
    """Failed-digit probing of the state at ``depth`` (a hard search's shallow nodes only): each candidate of
    each open cell (with ``bounds``, only its smallest and largest) is propagated on the scratch level
    ``depth + 1``; one that fails is removed and the state propagated again, until a pass removes nothing.
    False when the state itself fails.

    Each probe that holds keeps the fixed point it reached (``sup[k]``, ``sup_done[k]`` for k = cell * digits
    + digit index; ``sup_tag[k]`` = [kept, depth, that depth's node number ``gen[depth]``]). A candidate whose
    fixed point lies within the state is not probed again (that fixed point shows the probe would hold). One
    kept at this node or at an ancestor (its depth's node number unchanged) bounds every solution with that
    digit in the current state, so the probe starts from it, narrowed to the state, and propagates only the
    cells the state narrowed: as sound as a probe from the state (the propagators remove only digits no
    solution has), and as cheap as the change."""
    n_cells = st_cand.shape[1]
    nd = sup.shape[0] // n_cells
    cur = st_cand[depth]
    done = st_done[depth]
    dst = st_cand[depth + 1]
    dst_done = st_done[depth + 1]
    changed = True
    while changed:
        changed = False
        for cell in range(n_cells):
            m = cur[cell]
            if m & (m - 1) == 0:
                continue
            if bounds:
                h = m
                while h & (h - 1):
                    h &= h - 1
                m = low_bit(m) | h
            while m:
                b = low_bit(m)
                m ^= b
                if not cur[cell] & b:
                    continue
                k = cell * nd + lowest_bit(b)
                s = sup[k]
                base = False
                if sup_tag[k, 0]:
                    held = True
                    for c in range(n_cells):
                        if s[c] & ~cur[c]:
                            held = False
                            break
                    if held:  # the last fixed point this digit reached lies within the state
                        continue
                    d0 = sup_tag[k, 1]
                    base = d0 <= depth and sup_tag[k, 2] == gen[d0]
                if base:  # from the kept fixed point, narrowed to the state: queue the cells narrowed
                    sd = sup_done[k]
                    for c in range(n_cells):
                        v = s[c] & cur[c]
                        dst[c] = v
                        dst_done[c] = sd[c]
                        if v != s[c]:
                            _queue(c, cq, cflag, qs)
                else:
                    for c in range(n_cells):
                        dst[c] = cur[c]
                        dst_done[c] = done[c]
                    dst[cell] = b
                    _queue(cell, cq, cflag, qs)
                if propagate(dst, dst_done, units, peers, n_peers, w_start, w_props, p_type, p_lo, p_hi, p_a, p_b,
                             p_alo, p_ahi, p_cells, p_coef, aux, rel, full, buf, adj, spots, cq, cflag, pq, pflag,
                             qs, pw, cell_units, udirty):  # fmt: skip
                    sd = sup_done[k]
                    for c in range(n_cells):
                        s[c] = dst[c]
                        sd[c] = dst_done[c]
                    sup_tag[k, 0] = 1
                    sup_tag[k, 1] = depth
                    sup_tag[k, 2] = gen[depth]
                    continue
                sup_tag[k, 0] = 0
                changed = True
                if not _set(cur, cell, cur[cell] & ~b, cq, cflag, qs):
                    return False
                if not propagate(cur, done, units, peers, n_peers, w_start, w_props, p_type, p_lo, p_hi, p_a, p_b,
                                 p_alo, p_ahi, p_cells, p_coef, aux, rel, full, buf, adj, spots, cq, cflag, pq, pflag,
                                 qs, pw, cell_units, udirty):  # fmt: skip
                    return False
    return True


#: ``search(..., restart_base=)``: restart after this many failures (0: never), each allowance 3/2 of the last;
#: the explored part of the tree is kept out by nogoods (:func:`_add_nogood`), so a restart loses no work and
#: counts no solution twice. The model's choice (``Model.restarts``): this on boards of up to 9 digits, none
#: above (the corpus' 16x16 puzzles took more nodes with restarts).
RESTART_BASE = 100
#: the nogood store's room: literals and nogoods (a restart whose nogoods do not fit is not made).
NG_LITS = 1 << 18
NG_MAX = 1 << 15


@njit(**NO_REFCOUNTS)
def _lit_true(cand, lit):
    """Whether literal ``lit`` (cell * 64 + digit index) holds: the cell is that digit."""
    return cand[lit >> 6] == np.int64(1) << (lit & 63)


@njit(cache=True)
def _ng_cell(cand, c, ng_lits, ng_meta, wnext, whead, cq, cflag, qs):
    """Cell ``c`` was just fixed: visit the nogoods watching it (two watched literals each, never true while
    another is open). A watched literal made true moves its watch to another literal that is not true;
    when there is none the other watched literal must be false: its digit leaves its cell. False on a
    nogood whose literals all hold."""
    prev = -1
    e = whead[c]
    while e >= 0:
        j = e >> 1
        k = e & 1
        nxt = wnext[e]
        pos = ng_meta[j, 2 + k]
        if not _lit_true(cand, ng_lits[pos]):
            prev = e
            e = nxt
            continue
        other = ng_meta[j, 3 - k]
        olit = ng_lits[other]
        ocell = olit >> 6
        obit = np.int64(1) << (olit & 63)
        if not cand[ocell] & obit:  # the nogood holds already
            prev = e
            e = nxt
            continue
        found = -1
        for q in range(ng_meta[j, 0], ng_meta[j, 1]):
            if q != pos and q != other and not _lit_true(cand, ng_lits[q]):
                found = q
                break
        if found >= 0:  # move the watch
            ng_meta[j, 2 + k] = found
            if prev < 0:
                whead[c] = nxt
            else:
                wnext[prev] = nxt
            nc = ng_lits[found] >> 6
            wnext[e] = whead[nc]
            whead[nc] = e
            e = nxt
            continue
        if cand[ocell] == obit or not _set(cand, ocell, cand[ocell] & ~obit, cq, cflag, qs):
            return False
        prev = e
        e = nxt
    return True


@njit(cache=True)
def _clear_cells(cq, cflag, qs):
    """Empty the cell queue (after a failure outside :func:`propagate`)."""
    while qs[0] != qs[1]:
        cflag[cq[qs[0]]] = 0
        qs[0] += 1
        if qs[0] == cq.shape[0]:
            qs[0] = 0


@njit(cache=True)
def _add_nogood(cand, lits, n, ng_lits, ng_meta, wnext, whead, n_ng, n_lits, cq, cflag, qs):
    """Add the nogood ``lits[:n]`` at the root state ``cand``: returns (status, n_ng, n_lits) with status 0
    stored or dropped (a literal is false at the root), 1 the root narrowed (one literal open: its digit
    leaves its cell), -1 every literal holds (nothing is left to search)."""
    w0 = -1
    w1 = -1
    for i in range(n):
        lit = lits[i]
        m = cand[lit >> 6]
        bit = np.int64(1) << (lit & 63)
        if not m & bit:
            return 0, n_ng, n_lits
        if m != bit:
            if w0 < 0:
                w0 = i
            elif w1 < 0:
                w1 = i
    if w0 < 0:
        return -1, n_ng, n_lits
    if w1 < 0:
        lit = lits[w0]
        c = lit >> 6
        if not _set(cand, c, cand[c] & ~(np.int64(1) << (lit & 63)), cq, cflag, qs):
            return -1, n_ng, n_lits
        return 1, n_ng, n_lits
    j = n_ng
    ng_meta[j, 0] = n_lits
    for i in range(n):
        ng_lits[n_lits + i] = lits[i]
    ng_meta[j, 1] = n_lits + n
    ng_meta[j, 2] = n_lits + w0
    ng_meta[j, 3] = n_lits + w1
    for k in range(2):
        c = lits[w0 if k == 0 else w1] >> 6
        wnext[2 * j + k] = whead[c]
        whead[c] = 2 * j + k
    return 0, n_ng + 1, n_lits + n


@njit(cache=True)
def _ng_visit(dst, src, root, mark, stamp, ng_lits, ng_meta, wnext, whead, cq, cflag, qs):
    """After :func:`propagate`: each cell fixed here (fixed in ``dst`` but not in ``src``; at the ``root`` every
    fixed cell) and not visited yet (``mark[c] != stamp``) visits its nogoods (:func:`_ng_cell`); what they
    remove is queued for the caller to propagate. False on a contradiction (the cell queue left empty)."""
    for c in range(dst.shape[0]):
        m = dst[c]
        if m & (m - 1) == 0 and mark[c] != stamp and (root or src[c] & (src[c] - 1)):
            mark[c] = stamp
            if not _ng_cell(dst, c, ng_lits, ng_meta, wnext, whead, cq, cflag, qs):
                _clear_cells(cq, cflag, qs)
                return False
    return True


@njit(cache=True)
def search(start, units, peers, n_peers, w_start, w_props, p_type, p_lo, p_hi, p_a, p_b, p_alo, p_ahi, p_cells,
           p_coef, aux, rel, full, adj, limit, budget, wdeg_after, probe_after, probe_depth, probe_bounds, places,
           restart_base, sols, stats, st_cand, st_done, st_cell, st_rem,
           buf, spots, cq, cflag, pq, pflag, qs, pw, st_dec, ng_lits, ng_meta, wnext, whead, mark):  # fmt: skip
    """Solve / count from the candidates ``start`` (givens as single digits, unary rules applied).

    Returns ``(status, count)``: count exact below ``limit``, else ``limit``; the first ``sols.shape[0]``
    solutions are written to ``sols`` (digits by cell). ``budget`` in clock ticks (0: no limit).
    ``stats`` receives [guesses, nodes, backtracks, restarts]. Once more than ``wdeg_after`` nodes were visited, the
    cell to branch on is the one with the fewest candidates per failure weight (dom/wdeg: ``pw[i]`` counts
    propagator ``i``'s failures, ``pw[n_props + c]`` the failed digits of cell ``c``, ``pw[n_props + n_cells + u]``
    the failures hidden singles found in unit ``u`` (when ``pw`` is that long); a cell weighs 1 + its own count +
    those of the propagators watching it + those of its units), so a hard search turns to the cells its conflicts
    are about; before, simply the fewest candidates. Once more than ``probe_after`` nodes were visited, the nodes at
    depth up to ``probe_depth`` are probed first (:func:`_probe`; with ``probe_bounds`` each cell's smallest and
    largest candidates only). With ``places`` (``PLACES_MAX`` / ``PLACES_SUM``) a digit with two or three places
    left in a unit, fewer than the chosen cell's candidates per failure weight (the weight of its places: the
    heaviest one's, or their sum), is branched on instead: each child puts the digit in one of the places
    (``st_cell`` = -1 - (unit * 64 + digit index), ``st_rem`` the places as bits of the unit's positions).

    With ``restart_base`` > 0 the search restarts from the root after that many failures, then after 3/2 as
    many more, and so on (the failure weights kept). Before it does, the part of the tree it has explored
    becomes nogoods (Lecoutre et al.'s reduced nld-nogoods): for each level i of the branch and each digit
    (place) e already tried and done there, the branch's decisions above i with e cannot all hold again:
    no solution is found twice, and none is missed. ``st_dec[0, i]`` holds the level's choices as tried
    (cell digits or places), ``st_dec[1, i]`` the one being searched, ``st_dec[2, i]`` it as a literal (cell * 64
    + digit index); the nogoods are kept in ``ng_lits`` / ``ng_meta`` (start, end, two watched positions)
    and watched per cell (``whead``, ``wnext``).
    """
    t0 = ticks() if budget > 0 else 0
    n_cells = start.shape[0]
    n_props = p_type.shape[0]
    cand = st_cand[0]
    done = st_done[0]
    for c in range(n_cells):
        if start[c] == 0:  # a given a unary rule refuses (an even digit in an odd circle)
            stats[0] = 0
            stats[1] = 1
            stats[2] = 1
            return NO_SOLUTION, 0
        cand[c] = start[c]
        done[c] = 0
        cflag[c] = 1
        cq[c] = c
    for i in range(n_props):
        pflag[i] = 1
        pq[i] = i
    for i in range(pw.shape[0]):
        pw[i] = 0
    n_units = units.shape[0]
    per_cell = np.zeros(n_cells, dtype=np.int32)
    for u in range(n_units):
        for k in range(units.shape[1]):
            per_cell[units[u, k]] += 1
    cell_units = np.full((n_cells, max(1, per_cell.max())), -1, dtype=np.int32)
    per_cell[:] = 0
    for u in range(n_units):
        for k in range(units.shape[1]):
            c = units[u, k]
            cell_units[c, per_cell[c]] = u
            per_cell[c] += 1
    udirty = np.full(n_units, 3, dtype=np.uint8)
    cwt = np.zeros(n_cells, dtype=np.int64)  # each open cell's failure weight at the current node
    unit_weights = pw.shape[0] >= n_props + n_cells + n_units  # the units' failure weights too
    qs[0] = 0
    qs[1] = n_cells  # the rings have one slot more than they can hold: every cell and propagator queued
    qs[2] = 0
    qs[3] = n_props
    guesses = 0
    nodes = 0
    backtracks = 0
    count = 0
    n_ng = 0
    n_lits = 0
    restarts = 0
    fails = 0
    cutoff = restart_base
    stamp = 0
    lits = np.empty(n_cells + 1, dtype=np.int32)
    # probing's supports: per (cell, digit) the fixpoint its last successful probe reached (:func:`_probe`)
    n_sup = n_cells * popcount(full) if probe_depth >= 0 else 1
    sup = np.zeros((n_sup, n_cells if probe_depth >= 0 else 1), dtype=np.int64)
    sup_done = np.zeros(sup.shape, dtype=np.uint8)
    sup_tag = np.zeros((n_sup, 3), dtype=np.int64)
    gen = np.zeros(n_cells + 2, dtype=np.int64)  # nodes visited by depth
    for c in range(n_cells):
        whead[c] = -1
        mark[c] = 0
    ok = propagate(cand, done, units, peers, n_peers, w_start, w_props, p_type, p_lo, p_hi, p_a, p_b, p_alo,
                   p_ahi, p_cells, p_coef, aux, rel, full, buf, adj, spots, cq, cflag, pq, pflag, qs, pw, cell_units,
                   udirty)  # fmt: skip
    if not ok:
        stats[0] = 0
        stats[1] = 1
        stats[2] = 1
        return NO_SOLUTION, 0
    depth = 0
    while True:
        nodes += 1
        if budget > 0 and nodes % CLOCK_EVERY == 0 and ticks() - t0 > budget:
            stats[0] = guesses
            stats[1] = nodes
            stats[2] = backtracks
            stats[3] = restarts
            return TIMEOUT, count
        if cutoff > 0 and fails >= cutoff and depth > 0:
            # a restart: the branch's finished choices become nogoods first, unless they do not fit
            need_lits = 0
            need_ng = 0
            for i in range(depth):
                k = popcount(st_dec[0, i] & ~st_rem[i] & ~st_dec[1, i])
                need_ng += k
                need_lits += k * (i + 1)
            if n_ng + need_ng > ng_meta.shape[0] or n_lits + need_lits > ng_lits.shape[0]:
                cutoff = 0  # no room: no more restarts (one would search the explored part again)
            else:
                st = 0
                for i in range(depth):
                    done_here = st_dec[0, i] & ~st_rem[i] & ~st_dec[1, i]
                    cell = st_cell[i]
                    while done_here and st >= 0:
                        e = low_bit(done_here)
                        done_here ^= e
                        if cell >= 0:
                            lits[i] = cell * 64 + lowest_bit(e)
                        else:
                            code = -1 - cell
                            lits[i] = units[code // 64, lowest_bit(e)] * 64 + code % 64
                        st, n_ng, n_lits = _add_nogood(st_cand[0], lits, i + 1, ng_lits, ng_meta, wnext, whead,
                                                       n_ng, n_lits, cq, cflag, qs)  # fmt: skip
                    lits[i] = st_dec[2, i]
                stamp += 1
                ok = st >= 0
                while ok:  # the root again, with the new nogoods (not in a function of its own: compile time)
                    ok = _ng_visit(st_cand[0], st_cand[0], True, mark, stamp, ng_lits, ng_meta, wnext, whead, cq,
                                   cflag, qs)  # fmt: skip
                    if not ok or qs[0] == qs[1]:
                        break
                    ok = propagate(st_cand[0], st_done[0], units, peers, n_peers, w_start, w_props, p_type, p_lo,
                                   p_hi, p_a, p_b, p_alo, p_ahi, p_cells, p_coef, aux, rel, full, buf, adj, spots, cq,
                                   cflag, pq, pflag, qs, pw, cell_units, udirty)  # fmt: skip
                if not ok:
                    _clear_cells(cq, cflag, qs)
                    break  # the nogoods cover the whole tree: the count is complete
                depth = 0
                fails = 0
                restarts += 1
                cutoff += cutoff // 2
        cur = st_cand[depth]
        gen[depth] += 1
        ok = True
        if nodes > probe_after and depth <= probe_depth:
            ok = _probe(
                st_cand, st_done, depth, units, peers, n_peers, w_start, w_props, p_type, p_lo, p_hi, p_a, p_b, p_alo,
                p_ahi, p_cells, p_coef, aux, rel, full, buf, adj, spots, cq, cflag, pq, pflag, qs, pw, cell_units,
                udirty, sup, sup_done, sup_tag, gen, probe_bounds,
            )  # fmt: skip
            if ok and n_ng > 0:
                # the cells the probes fixed visit their nogoods too: without it a solution counted before a
                # restart could be reached and counted again (its nogood's last literal set by a probe)
                stamp += 1
                while ok:
                    ok = _ng_visit(cur, cur, True, mark, stamp, ng_lits, ng_meta, wnext, whead, cq, cflag, qs)
                    if not ok or qs[0] == qs[1]:
                        break
                    ok = propagate(cur, st_done[depth], units, peers, n_peers, w_start, w_props, p_type, p_lo, p_hi,
                                   p_a, p_b, p_alo, p_ahi, p_cells, p_coef, aux, rel, full, buf, adj, spots, cq, cflag,
                                   pq, pflag, qs, pw, cell_units, udirty)  # fmt: skip
                if not ok:
                    _clear_cells(cq, cflag, qs)
        if not ok:
            backtracks += 1
            st_rem[depth] = 0  # no digit left to try here
            best = -2
        else:
            best = -1
        best_n = 99
        best_w = 1
        if nodes <= wdeg_after:  # the fewest candidates
            for c in range(n_cells if best == -1 else 0):
                pc = popcount(cur[c])
                if 1 < pc < best_n:
                    best_n = pc
                    best = c
                    if pc == 2:
                        break
        elif best == -1:  # a hard search: the fewest candidates per failure weight (dom/wdeg)
            for c in range(n_cells):
                pc = popcount(cur[c])
                if pc > 1:
                    w = 1 + pw[n_props + c]
                    for k in range(cell_units.shape[1] if unit_weights else 0):
                        u = cell_units[c, k]
                        if u < 0:
                            break
                        w += pw[n_props + n_cells + u]
                    for k in range(w_start[c], w_start[c + 1]):
                        w += pw[w_props[k]]
                    cwt[c] = w
                    if best < 0 or pc * best_w < best_n * w:
                        best = c
                        best_n = pc
                        best_w = w
        place_u = -1
        place_bit = np.int64(0)
        if places and best >= 0 and best_n > 2 and nodes > wdeg_after and units.shape[1] < 63:
            # a digit with fewer places in a unit than the chosen cell has candidates, weighed the same way
            # (the weight of its places: the heaviest one's, or their sum)
            for u in range(n_units):
                ge1 = np.int64(0)
                ge2 = np.int64(0)
                ge3 = np.int64(0)
                ge4 = np.int64(0)
                for k in range(units.shape[1]):
                    m = cur[units[u, k]]
                    if m & (m - 1):
                        ge4 |= ge3 & m
                        ge3 |= ge2 & m
                        ge2 |= ge1 & m
                        ge1 |= m
                some = ge2 & ~ge4  # two or three places
                while some:
                    bit = low_bit(some)
                    some ^= bit
                    pn = 3 if ge3 & bit else 2
                    if pn >= best_n:
                        continue
                    w = 0
                    for k in range(units.shape[1]):
                        c = units[u, k]
                        if cur[c] & bit:
                            if places == PLACES_SUM:
                                w += cwt[c]
                            elif cwt[c] > w:
                                w = cwt[c]
                    if pn * best_w < best_n * w:
                        best_n = pn
                        best_w = w
                        place_u = u
                        place_bit = bit
        if best == -2:
            pass
        elif place_u >= 0:
            rem = np.int64(0)
            for k in range(units.shape[1]):
                if cur[units[place_u, k]] & place_bit:
                    rem |= np.int64(1) << k
            st_cell[depth] = -1 - (place_u * 64 + lowest_bit(place_bit))
            st_rem[depth] = rem
            st_dec[0, depth] = rem
        elif best < 0:
            if count < sols.shape[0]:
                for c in range(n_cells):
                    sols[count, c] = lowest_bit(cur[c]) + 1
            count += 1
            if count >= limit:
                break
            depth -= 1
        else:
            st_cell[depth] = best
            st_rem[depth] = cur[best]
            st_dec[0, depth] = cur[best]
        while depth >= 0:
            rem = st_rem[depth]
            if rem == 0:
                depth -= 1
                continue
            b = low_bit(rem)
            rem ^= b
            st_rem[depth] = rem
            if rem != 0:
                guesses += 1
            src = st_cand[depth]
            src_done = st_done[depth]
            dst = st_cand[depth + 1]
            dst_done = st_done[depth + 1]
            for c in range(n_cells):
                dst[c] = src[c]
                dst_done[c] = src_done[c]
            st_dec[1, depth] = b
            cell = st_cell[depth]
            if cell < 0:  # a digit's places in a unit: b is the place
                code = -1 - cell
                cell = units[code // 64, lowest_bit(b)]
                b = np.int64(1) << (code % 64)
            st_dec[2, depth] = cell * 64 + lowest_bit(b)
            dst[cell] = b
            _queue(cell, cq, cflag, qs)
            stamp += 1
            while True:  # propagate; with nogoods, the cells fixed here visit theirs, until nothing changes
                ok = propagate(dst, dst_done, units, peers, n_peers, w_start, w_props, p_type, p_lo, p_hi, p_a, p_b,
                               p_alo, p_ahi, p_cells, p_coef, aux, rel, full, buf, adj, spots, cq, cflag, pq, pflag,
                               qs, pw, cell_units, udirty)  # fmt: skip
                if not ok or n_ng == 0:
                    break
                ok = _ng_visit(dst, src, False, mark, stamp, ng_lits, ng_meta, wnext, whead, cq, cflag, qs)
                if not ok or qs[0] == qs[1]:
                    break
            if ok:
                depth += 1
                break
            backtracks += 1
            fails += 1
            pw[n_props + cell] += 1  # the cell's weight: digits of it that failed
        if depth < 0:
            break
    stats[0] = guesses
    stats[1] = nodes
    stats[2] = backtracks
    stats[3] = restarts
    if count == 0:
        return NO_SOLUTION, 0
    if count == 1:
        return SOLVED, 1
    return MULTIPLE, count
