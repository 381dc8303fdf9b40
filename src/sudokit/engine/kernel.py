"""The general numba kernel: propagate + search over any :class:`~sudokit.geometry.Geometry`.

Representation
--------------
One candidate bitmask per cell, ``int64`` so that boards up to 25x25 (and beyond, up to 62 digits) fit::

    cand[cell]   bit 63 ........ bit n-1 ... bit 2  bit 1  bit 0
                 (always 0)       digit n     digit 3 digit 2 digit 1

    vals[cell]   0 while the cell is open, else its digit 1..n

The geometry comes in as plain integer arrays (``Geometry.unit_array``, ``peer_array``, ``peer_counts``
and the locked-candidate tables of :mod:`sudokit.engine.tables`), so rows/columns/boxes, diagonals,
windows and jigsaw regions are all just "units" to the kernel::

    units[u, k]   k-th cell of unit u            peers[cell, k]  k-th peer (padded with -1)
    A1 A2 .. A9   row A    (unit 0)              peer_counts[cell]  how many
    A1 B1 .. I1   column 1 (unit 9)
    A1 A2 A3 B1 .. C3   box 1 (unit 18), then diagonals / windows / regions

Propagation (to a fixed point):

* naked singles -- assigning a digit removes it from every peer; a peer left with one candidate joins a
  queue and is assigned in turn (a peer left with none is a contradiction);
* hidden singles -- per unit, the digits seen at least once / more than once among the open cells give in
  two OR passes the digits with exactly one place left; a digit with no place at all is a contradiction.
  Each is assigned on the spot, so the units after it in the same pass see its eliminations (measured:
  2-12% faster than queueing them for the next pass, with the same guesses);

* locked candidates (pointing/claiming), once singles are exhausted -- for every pair of units that share
  two or more cells (see :mod:`sudokit.engine.tables`), a digit confined to the shared cells in one unit
  leaves the rest of the other. Measured on this machine (first solution, one core): guesses/puzzle fell
  from 27.4 to 11.9 on top1465 and from 3.46 to 1.02 on 17_clue, and puzzles/sec rose 10-20%; kept.
  Testing the pairs on segment masks ORed once per pass (instead of re-reading both units' cells per pair)
  gained another 5-8% of CPU time.

A 9x9 specialisation of this kernel (16-bit masks, the board as compile-time constant tables, popcount by
lookup) was also measured: the same speed as this general kernel on 17_clue and top1465, so it was dropped.
What did pay on 9x9 is a different representation: per-digit band bitboards, in
:mod:`sudokit.engine.kernel9` (1.4-2x faster), which the batch path and ``count_array`` use for the plain
9x9 board. :func:`search` stays the reference for every geometry and for single puzzles (``solve``, whose
statistics :mod:`sudokit.engine.pure` reproduces).

Search: depth first on the fewest choices, as Knuth's dancing links choose a column: the open cell with the
fewest candidates (digits low to high), unless no cell is down to two candidates and some unit has a digit
with fewer places than that cell has candidates: then the search branches on that digit's places in the
unit (first such unit and digit, places in the unit's order). On 9x9 a cell with two candidates is nearly
always there and the search is as before (norvig_top95: 21.5 -> 21.3 nodes per puzzle, counting to 2); on
sparse 16x16 and 25x25 boards the places keep the search out of the long tail that cell-only branching falls
into (a 16x16 subset of a solution with 54 givens that the fuzz campaign of ``benchmarks/fuzz.py`` found:
more than ten minutes with cell branching, 114 nodes with places). The stack is explicit: one saved copy of
``cand``/``vals`` per level (at most ``n_cells`` levels), with the choice (a cell, or ``-1 - (64 * unit +
digit index)`` for a unit's places) and the options still to try there (digits of the cell, or positions
in the unit). Counting goes on after the first solution until ``limit`` solutions are found.

Restarts, on boards of more than 9 digits (:data:`~sudokit.engine.pure.RESTART_ABOVE`): a wrong choice near
the root of a sparse 16x16 or 25x25 board can leave a subtree with no solution that takes minutes to refute,
while another order finds a solution in a hundred nodes (a heavy tail: the fuzz campaign's 16x16 of 66
givens, counting to 146, ran for over 20 s and 2.4 million nodes). So while no solution has been counted, a
search *run* that has backtracked more than ``RESTART_BACKTRACKS * luby(r)`` times (32 x 1, 1, 2, 1, 1, 2, 4,
...; ``r`` the run from 0) starts again from the propagated givens, and every run after the first takes the
options of each choice point in a pseudo-random order (Park and Miller's minimal standard generator from a
fixed seed, so a puzzle always gets the same search, solution and statistics, in this kernel and in
:mod:`sudokit.engine.pure`). Luby's allowances grow without bound, so a puzzle with no solution is still
proved so, by a long enough run. Once a solution is found the run is never restarted, so counting to
``limit`` stays exact: no solution is counted twice. The first run keeps the plain order.

Conflict weights, on the same boards (the *wdeg* of dom/wdeg, as a tie-break): every option that fails adds 1
to the weight of the cell :func:`_propagate` found without candidates, or of each open cell (in the parent
state) of the unit it found without a place for a digit; a contradiction found by locked candidates blames
nothing. Ties between the cells with the fewest candidates go to the heaviest, so the search returns to the
cells where it keeps failing, and the weights persist over restarts. Measured on random subsets of solutions
(first solution; details in ``docs/engine.md``): the fuzz campaign's 16x16 takes 185 nodes to one solution
and 495 to 146; 2 x 3,000 16x16 subsets at most 518 nodes (before the restarts: 9 + 9 over 1 s, up to
148,416); 200 25x25 subsets 212,692 nodes in all against 2,544,899 before (restarts alone: 1,209,220). 9x9
and smaller boards search as before: no restarts, no weights, the first cell down to two candidates.

Statistics (``stats`` array): ``[guesses, nodes, backtracks]``. A *guess* is a digit tried at a choice point
while other digits remain to be tried there (the last remaining digit is forced, not guessed), so a puzzle
with zero guesses was solved by propagation alone.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import lowest_bit, popcount, unit_scan
from sudokit.engine.clock import ticks
from sudokit.engine.pure import ORDER_MODULUS, ORDER_MULTIPLIER, ORDER_SEED, RESTART_ABOVE, RESTART_BACKTRACKS
from sudokit.engine.pure import luby as plain_luby

# Status codes shared by the kernels and the wrappers.
SOLVED = 0
NO_SOLUTION = 1
MULTIPLE = 2
INVALID = 3
TIMEOUT = 5  #: the time budget ran out first (4 is the batch's "unreadable")
#: The bitboard kernel's answer failed its rule check (:func:`sudokit.engine.kernel9.check9`): never handed out, the
#: callers raise. The highest status code.
BROKEN = 6

#: Search nodes between two reads of the cycle counter when a time budget is set (a read costs ~20 cycles).
CLOCK_EVERY = 64

#: Luby's sequence for the restarts of large boards, compiled from the plain port's (one definition for both).
luby = njit(cache=True)(plain_luby)


@njit(cache=True, inline="always")
def nth_bit(mask, k):
    """The ``k``-th lowest set bit of ``mask`` (``k`` from 0, below the number of set bits), as a mask."""
    for _ in range(k):
        mask &= mask - 1
    return mask & -mask


@njit(cache=True)
def _assign(cell, digit, cand, vals, peers, peer_counts, queue, qtail):
    """Set ``cell`` to ``digit`` (1-based) and remove it from the peers.

    Returns the new queue tail, or ``-2 - p`` on a contradiction (peer ``p`` left without candidates).
    """
    bit = np.int64(1) << (digit - 1)
    vals[cell] = digit
    cand[cell] = bit
    for k in range(peer_counts[cell]):
        p = peers[cell, k]
        m = cand[p]
        if m & bit:
            m &= ~bit
            cand[p] = m
            if vals[p] == 0:
                if m == 0:
                    return -2 - p
                if m & (m - 1) == 0:
                    queue[qtail] = p
                    qtail += 1
            elif m == 0:
                return -2 - p
    return qtail


@njit(cache=True)
def _locked(cand, vals, seg_cells, pair_seg, rest_v, queue):
    """Locked candidates (see :mod:`sudokit.engine.tables` for the arrays).

    First the candidates of the open cells of every segment (a shared part of two units) are ORed once;
    then for each unit pair (u, v) a digit seen inside ``u & v`` but in none of the segments that make up
    ``u - v`` is removed from ``v - u``. Returns the queue tail of the cells left with one candidate, or -1
    on a contradiction.
    """
    n_seg = seg_cells.shape[0]
    seg = np.empty(n_seg, dtype=np.int64)
    for s in range(n_seg):
        m = np.int64(0)
        for k in range(seg_cells.shape[1]):
            c = seg_cells[s, k]
            if c < 0:
                break
            if vals[c] == 0:
                m |= cand[c]
        seg[s] = m
    qtail = 0
    for p in range(pair_seg.shape[0]):
        inside = seg[pair_seg[p, 0]]
        if inside == 0:
            continue
        for k in range(1, pair_seg.shape[1]):
            t = pair_seg[p, k]
            if t < 0:
                break
            inside &= ~seg[t]
        if inside == 0:
            continue
        for k in range(rest_v.shape[1]):
            c = rest_v[p, k]
            if c < 0:
                break
            m = cand[c]
            if vals[c] == 0 and m & inside:
                m &= ~inside
                cand[c] = m
                if m == 0:
                    return -1
                if m & (m - 1) == 0:
                    queue[qtail] = c
                    qtail += 1
    return qtail


@njit(cache=True)
def _propagate(cand, vals, units, peers, peer_counts, seg_cells, pair_seg, rest_v, queue, qtail, n, fail):
    """Naked and hidden singles, then locked candidates, to a fixed point. Returns False on a contradiction,
    and says where in ``fail``: ``fail[0]`` the cell left without candidates, or ``-1 - u`` for unit ``u`` left
    without a place for a digit (``-1 - n_units`` when locked candidates emptied a cell: no blame)."""
    n_units = units.shape[0]
    full = (np.int64(1) << n) - 1
    while True:
        qhead = 0
        while qhead < qtail:
            c = queue[qhead]
            qhead += 1
            if vals[c] != 0:
                continue
            m = cand[c]
            if m == 0:
                fail[0] = c
                return False
            qtail = _assign(c, lowest_bit(m) + 1, cand, vals, peers, peer_counts, queue, qtail)
            if qtail < 0:
                fail[0] = -2 - qtail
                return False
        qtail = 0
        changed = False
        # Hidden singles, unit by unit: each is assigned at once, so later units see its eliminations.
        for u in range(n_units):
            once, twice, placed = unit_scan(cand, vals, units, u, True)
            if (once | placed) != full:
                fail[0] = -1 - u
                return False
            hidden = once & ~twice & ~placed
            while hidden:
                b = hidden & -hidden
                hidden ^= b
                found = False
                for k in range(n):
                    c = units[u, k]
                    if vals[c] == 0 and cand[c] & b:
                        qtail = _assign(c, lowest_bit(b) + 1, cand, vals, peers, peer_counts, queue, qtail)
                        if qtail < 0:
                            fail[0] = -2 - qtail
                            return False
                        found = True
                        changed = True
                        break
                if not found:  # its only place took another hidden single of this unit
                    fail[0] = -1 - u
                    return False
        if qtail == 0 and not changed:
            qtail = _locked(cand, vals, seg_cells, pair_seg, rest_v, queue)
            if qtail < 0:
                fail[0] = -1 - n_units
                return False
            if qtail == 0:
                return True


@njit(cache=True, inline="always")
def finish(count, guesses, nodes, backtracks, stats):
    """Store the search statistics in ``stats`` and return ``(status, count)`` for the solutions found."""
    stats[0] = guesses
    stats[1] = nodes
    stats[2] = backtracks
    if count == 0:
        return NO_SOLUTION, 0
    if count == 1:
        return SOLVED, 1
    return MULTIPLE, count


@njit(cache=True)
def search(
    values,
    units,
    peers,
    peer_counts,
    seg_cells,
    pair_seg,
    rest_v,
    n,
    limit,
    budget,
    solution,
    stats,
    st_cand,
    st_vals,
    st_cell,
    st_rem,
    queue,
):
    """Solve/count one puzzle given as ``values`` (0 = empty). Scratch arrays come from the caller.

    Returns ``(status, count)``; ``solution`` receives the first solution found. ``st_cand``/``st_vals``
    are ``(n_cells + 1, n_cells)`` scratch, ``st_cell``/``st_rem`` ``(n_cells + 1,)``, ``queue`` ``(n_cells,)``.
    ``budget`` is the time allowed in :func:`~sudokit.engine.clock.ticks` (0: no limit); the counter is read
    every :data:`CLOCK_EVERY` nodes and an exhausted budget returns ``(TIMEOUT, solutions found so far)``.
    """
    t0 = ticks() if budget > 0 else 0
    n_cells = values.shape[0]
    full = (np.int64(1) << n) - 1
    cand = st_cand[0]
    vals = st_vals[0]
    for c in range(n_cells):
        cand[c] = full
        vals[c] = 0
    stats[0] = 0
    stats[1] = 0
    stats[2] = 0
    # Givens: a given whose digit a peer given already took is a clash (invalid puzzle).
    for c in range(n_cells):
        d = values[c]
        if d != 0:
            if d > n:
                return INVALID, 0
            bit = np.int64(1) << (d - 1)
            if (cand[c] & bit) == 0:
                return INVALID, 0
            vals[c] = d
            cand[c] = bit
            for k in range(peer_counts[c]):
                p = peers[c, k]
                cand[p] &= ~bit
    qtail = 0
    for c in range(n_cells):
        if vals[c] == 0:
            m = cand[c]
            if m == 0:
                return NO_SOLUTION, 0
            if m & (m - 1) == 0:
                queue[qtail] = c
                qtail += 1
    count = 0
    guesses = 0
    nodes = 0
    backtracks = 0
    fail = np.zeros(1, np.int64)  # where the last propagation failed (see _propagate)
    if not _propagate(cand, vals, units, peers, peer_counts, seg_cells, pair_seg, rest_v, queue, qtail, n, fail):
        stats[2] = 1
        return NO_SOLUTION, 0
    n_units = units.shape[0]
    places = np.zeros(64, np.int64)  # per digit index: its places among a unit's open cells
    restarts = n > RESTART_ABOVE  # large boards: restarts, each run after the first in a pseudo-random order
    seed = np.int64(ORDER_SEED)
    run = 0  # the search runs so far (restarts)
    run_start = 0  # the backtracks before this run
    weight = np.zeros(n_cells if restarts else 0, np.int64)  # contradictions seen at each cell, over all runs
    depth = 0  # the level whose state (st_cand[depth], st_vals[depth]) is to be visited
    while True:
        # Visit the state at ``depth``: a solution, or a choice point on the fewest-candidates cell.
        nodes += 1
        if budget > 0 and nodes % CLOCK_EVERY == 0 and ticks() - t0 > budget:
            finish(count, guesses, nodes, backtracks, stats)
            return TIMEOUT, count
        if restarts and count == 0 and backtracks - run_start > RESTART_BACKTRACKS * luby(run):
            # A run past its allowance with no solution yet: start again from the propagated givens, with
            # other option orders (nothing found is lost: no solution has been counted).
            run += 1
            run_start = backtracks
            depth = 0
        cur_c = st_cand[depth]
        cur_v = st_vals[depth]
        best = -1
        best_n = 99
        if restarts:  # fewest candidates, ties to the heaviest cell (the first of those)
            best_w = np.int64(-1)
            for c in range(n_cells):
                if cur_v[c] == 0:
                    pc = popcount(cur_c[c])
                    if pc < best_n or (pc == best_n and weight[c] > best_w):
                        best_n = pc
                        best = c
                        best_w = weight[c]
        else:
            for c in range(n_cells):
                if cur_v[c] == 0:
                    pc = popcount(cur_c[c])
                    if pc < best_n:
                        best_n = pc
                        best = c
                        if pc == 2:
                            break
        choice = best
        options = cur_c[best] if best >= 0 else np.int64(0)
        if best_n > 2 and best >= 0:
            # No cell is down to two candidates: a digit with fewer places in a unit is the smaller choice.
            for u in range(n_units):
                for d in range(n):
                    places[d] = 0
                for k in range(n):
                    c = units[u, k]
                    if cur_v[c] == 0:
                        m = cur_c[c]
                        while m:
                            b = m & -m
                            m ^= b
                            places[lowest_bit(b)] += 1
                for d in range(n):
                    if 2 <= places[d] < best_n:
                        best_n = places[d]
                        choice = -1 - (64 * u + d)
                if best_n <= 2:
                    break
            if choice < 0:
                code = -1 - choice
                u = code // 64
                bit = np.int64(1) << (code % 64)
                options = np.int64(0)
                for k in range(n):
                    c = units[u, k]
                    if cur_v[c] == 0 and cur_c[c] & bit:
                        options |= np.int64(1) << k
        if best < 0:
            count += 1
            if count == 1:
                for c in range(n_cells):
                    solution[c] = cur_v[c]
            if count >= limit:
                break
            depth -= 1
        else:
            st_cell[depth] = choice
            st_rem[depth] = options
        # Take the next digit at the deepest level that still has one; propagate it on a copy.
        while depth >= 0:
            rem = st_rem[depth]
            if rem == 0:
                depth -= 1
                continue
            if run > 0 and rem & (rem - 1):  # after a restart: another order
                seed = seed * ORDER_MULTIPLIER % ORDER_MODULUS
                b = nth_bit(rem, seed % popcount(rem))
            else:
                b = rem & -rem
            rem ^= b
            st_rem[depth] = rem
            if rem != 0:
                guesses += 1
            src_c = st_cand[depth]
            src_v = st_vals[depth]
            dst_c = st_cand[depth + 1]
            dst_v = st_vals[depth + 1]
            for c in range(n_cells):
                dst_c[c] = src_c[c]
                dst_v[c] = src_v[c]
            choice = st_cell[depth]
            if choice >= 0:  # a digit of the cell
                qt = _assign(choice, lowest_bit(b) + 1, dst_c, dst_v, peers, peer_counts, queue, 0)
            else:  # a place of the unit's digit
                code = -1 - choice
                cell = units[code // 64, lowest_bit(b)]
                qt = _assign(cell, code % 64 + 1, dst_c, dst_v, peers, peer_counts, queue, 0)
            if qt >= 0 and _propagate(
                dst_c, dst_v, units, peers, peer_counts, seg_cells, pair_seg, rest_v, queue, qt, n, fail
            ):
                depth += 1
                break
            backtracks += 1
            if restarts:  # the cell, or the open cells of the unit, where the contradiction showed weigh more
                where = -2 - qt if qt < 0 else fail[0]
                if where >= 0:
                    weight[where] += 1
                elif where > -1 - n_units:
                    for k in range(n):
                        c = units[-1 - where, k]
                        if src_v[c] == 0:
                            weight[c] += 1
        if depth < 0:
            break
    return finish(count, guesses, nodes, backtracks, stats)


@njit(cache=True)
def search_rows(
    puzzles,
    start,
    stop,
    units,
    peers,
    peer_counts,
    seg_cells,
    pair_seg,
    rest_v,
    n,
    limit,
    budget,
    solutions,
    status,
    counts,
    stats,
):
    """Run :func:`search` on rows ``start..stop`` of ``puzzles``, with one set of scratch arrays. ``stats``
    rows as in :func:`sudokit.engine.kernel9.search9_rows` (a fourth column gets each puzzle's ticks)."""
    n_cells = puzzles.shape[1]
    st_cand = np.zeros((n_cells + 1, n_cells), dtype=np.int64)
    st_vals = np.zeros((n_cells + 1, n_cells), dtype=np.int8)
    st_cell = np.zeros(n_cells + 1, dtype=np.int32)
    st_rem = np.zeros(n_cells + 1, dtype=np.int64)
    queue = np.zeros(2 * n_cells + 1, dtype=np.int32)
    timed = stats.shape[1] > 3  # a fourth column asks for each puzzle's time in ticks (engine.clock)
    for i in range(start, stop):
        t0 = ticks() if timed else 0
        st, cnt = search(
            puzzles[i],
            units,
            peers,
            peer_counts,
            seg_cells,
            pair_seg,
            rest_v,
            n,
            limit,
            budget,
            solutions[i],
            stats[i],
            st_cand,
            st_vals,
            st_cell,
            st_rem,
            queue,
        )
        status[i] = st
        counts[i] = cnt
        if timed:
            stats[i, 3] = ticks() - t0


@njit(cache=True)
def check_rows(puzzles, solutions, units, n, ok):
    """``ok[i]`` = row ``i`` of ``solutions`` solves row ``i`` of ``puzzles``: every value in 1..n, each unit
    holding every digit, every given kept. The rule check behind every batch answer."""
    full = (np.int64(1) << n) - 1
    for i in range(puzzles.shape[0]):
        sol = solutions[i]
        good = True
        for c in range(sol.shape[0]):
            v = sol[c]
            if v < 1 or v > n or (puzzles[i, c] != 0 and puzzles[i, c] != v):
                good = False
                break
        if good:
            for u in range(units.shape[0]):
                seen = np.int64(0)
                for k in range(units.shape[1]):
                    seen |= np.int64(1) << (sol[units[u, k]] - 1)
                if seen != full:
                    good = False
                    break
        ok[i] = good
