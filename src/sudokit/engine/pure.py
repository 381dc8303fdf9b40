"""The engine's algorithm in plain Python, for one small job: a single puzzle from the command line.

Loading numba costs more wall time (about a second on a busy machine) than propagate + search needs for a
typical 9x9 puzzle, so ``sudokit solve PUZZLE`` first runs this port with a node budget and only falls back
to the compiled kernel when the budget runs out. Same propagation (naked and hidden singles, locked
candidates, in the same order), same search order (with the restarts, the pseudo-random option order and the
conflict weights of boards over 9 digits) and the same statistics as :mod:`sudokit.engine.kernel`; candidate
masks are Python ints (bit ``d-1`` for digit ``d``). The restart constants and Luby's sequence are defined
here, free of numba, and the kernel compiles the same :func:`luby`.
"""

from __future__ import annotations

import time

from sudokit.geometry import Geometry
from sudokit.grid import Grid
from sudokit.result import Result, Stats, Status, checked, invalid_result

#: Boards with more digits than this (16x16, 25x25, ...) take the options of a choice point in a pseudo-random
#: order and restart while no solution has been found (see :mod:`sudokit.engine.kernel`); 9x9 and smaller
#: boards search in the plain order, without restarts.
RESTART_ABOVE = 9
#: Backtracks allowed in the first search run before a restart; run ``r`` (from 0) is allowed ``luby(r)`` times as many.
RESTART_BACKTRACKS = 32
#: The order's generator, Park and Miller's minimal standard (``x * 48271 % (2**31 - 1)``, exact in int64). Every
#: search starts from the same seed, so a puzzle gets the same search, solution and statistics every time, in
#: both ports.
ORDER_SEED = 1
ORDER_MULTIPLIER = 48271
ORDER_MODULUS = 2**31 - 1


def luby(r: int) -> int:
    """The ``r``-th term (from 0) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    size = 1
    power = 0
    while size < r + 1:
        power += 1
        size = 2 * size + 1
    while size - 1 != r:
        size = (size - 1) >> 1
        power -= 1
        r = r % size
    return 1 << power


class BudgetExceeded(Exception):
    """The node budget ran out before the search finished."""


def locked_tables(geometry: Geometry) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """Segments, unit pairs and their eliminations for locked candidates, as plain lists.

    ``seg_cells[s]`` are the cells of segment ``s``: first every shared part ``u & v`` of two or more cells,
    then single cells where a ``u - v`` is not a union of shared parts. ``pair_seg[p]`` is
    ``[inside segment, outside segments...]`` for the ordered unit pair ``p``, whose outside segments cover
    ``u - v`` exactly, and ``rest_v[p]`` the cells of ``v - u``.
    """
    sets = geometry.unit_sets
    index: dict[frozenset, int] = {}
    seg_cells: list[list[int]] = []
    pairs = []
    for i, u in enumerate(sets):
        for j, v in enumerate(sets):
            if i != j and len(u & v) >= 2:
                pairs.append((i, j))
                if u & v not in index:
                    index[u & v] = len(seg_cells)
                    seg_cells.append(sorted(u & v))
    shared = list(index)
    pair_seg, rest_v = [], []
    for i, j in pairs:
        u, v = sets[i], sets[j]
        rest = set(u - v)
        cover = [index[u & v]]
        for part in shared:
            if part <= rest:
                cover.append(index[part])
                rest -= part
        for c in sorted(rest):
            key = frozenset([c])
            if key not in index:
                index[key] = len(seg_cells)
                seg_cells.append([c])
            cover.append(index[key])
        pair_seg.append(cover)
        rest_v.append(sorted(v - u))
    if not pairs:  # the kernels want 2-d arrays even when no pair qualifies
        return [[]], [[0]], [[]]
    return seg_cells, pair_seg, rest_v


def propagate(
    cand: list[int], vals: list[int], queue: list[int], geo: Geometry, pairs, full: int, fail: list[int]
) -> bool:
    """The kernel's propagation, in the same order (the queue first in, first out); on a contradiction ``fail[0]``
    says where, as in :func:`sudokit.engine.kernel._propagate`. With ``pairs`` None, only the two rules of
    Norvig's propagation (naked and hidden singles), without locked candidates."""
    peers, units = geo.peers, geo.units

    def assign(c: int, bit: int) -> bool:
        vals[c] = bit.bit_length()
        cand[c] = bit
        for p in peers[c]:
            m = cand[p]
            if m & bit:
                m &= ~bit
                cand[p] = m
                if m == 0:
                    fail[0] = p
                    return False
                if not vals[p] and m & (m - 1) == 0:
                    queue.append(p)
        return True

    while True:
        head = 0
        while head < len(queue):
            c = queue[head]
            head += 1
            if vals[c]:
                continue
            if cand[c] == 0:
                fail[0] = c
                return False
            if not assign(c, cand[c]):
                return False
        queue.clear()
        changed = False
        for u, unit in enumerate(units):
            once = twice = placed = 0
            for c in unit:
                m = cand[c]
                if vals[c]:
                    placed |= m
                else:
                    twice |= once & m
                    once |= m
            if once | placed != full:
                fail[0] = -1 - u
                return False
            hidden = once & ~twice & ~placed
            while hidden:
                b = hidden & -hidden
                hidden ^= b
                cell = next((c for c in unit if not vals[c] and cand[c] & b), None)
                if cell is None:
                    fail[0] = -1 - u
                    return False
                if not assign(cell, b):
                    return False
                changed = True
        if queue or changed:
            continue
        if pairs is None:
            return True
        seg_cells, pair_seg, rest_v = pairs
        seg = [0] * len(seg_cells)
        for i, cells in enumerate(seg_cells):
            m = 0
            for c in cells:
                if not vals[c]:
                    m |= cand[c]
            seg[i] = m
        for segs, targets in zip(pair_seg, rest_v):
            confined = seg[segs[0]]
            if not confined:
                continue
            for t in segs[1:]:
                confined &= ~seg[t]
            if not confined:
                continue
            for c in targets:
                m = cand[c]
                if not vals[c] and m & confined:
                    m &= ~confined
                    cand[c] = m
                    if m == 0:
                        fail[0] = -1 - len(units)
                        return False
                    if m & (m - 1) == 0:
                        queue.append(c)
        if not queue:
            return True


def _choice(
    cand: list[int], vals: list[int], open_cells: list[int], geo: Geometry, weight: list[int] | None
) -> tuple[int, int]:
    """The kernel's choice point: ``(cell, its candidates)``, or ``(-1 - (64 * unit + digit index), the
    digit's places as positions in the unit)`` when no cell has two candidates and a unit's digit has fewer
    places than the best cell has candidates (see :mod:`sudokit.engine.kernel`). With ``weight`` (large
    boards), ties between cells go to the heaviest."""
    if weight is None:
        best = min(open_cells, key=lambda c: cand[c].bit_count())
    else:
        best = min(open_cells, key=lambda c: (cand[c].bit_count(), -weight[c]))
    fewest = cand[best].bit_count()
    choice, options = best, cand[best]
    if fewest > 2:
        for u, unit in enumerate(geo.units):
            places = [0] * geo.size
            for c in unit:
                if not vals[c]:
                    m = cand[c]
                    while m:
                        b = m & -m
                        m ^= b
                        places[b.bit_length() - 1] += 1
            for d, count in enumerate(places):
                if 2 <= count < fewest:
                    fewest = count
                    choice = -1 - (64 * u + d)
            if fewest <= 2:
                break
        if choice < 0:
            where, index = divmod(-1 - choice, 64)
            bit = 1 << index
            options = sum(1 << k for k, c in enumerate(geo.units[where]) if not vals[c] and cand[c] & bit)
    return choice, options


def _nth_bit(mask: int, k: int) -> int:
    """The ``k``-th lowest set bit of ``mask`` (``k`` from 0), as a mask."""
    for _ in range(k):
        mask &= mask - 1
    return mask & -mask


def solve_small(grid: Grid, limit: int = 2, node_budget: int = 300) -> Result:
    """Solve ``grid`` like :func:`sudokit.engine.solve`; raise :class:`BudgetExceeded` past ``node_budget``."""
    start = time.perf_counter()
    bad = invalid_result(grid, "engine")
    if bad is not None:
        return bad
    geo = grid.geometry
    full = (1 << geo.size) - 1
    pairs = locked_tables(geo)
    cand = [full] * geo.n_cells
    vals = [0] * geo.n_cells
    for c, d in enumerate(grid.values):
        if d:
            bit = 1 << (d - 1)
            cand[c] = bit
            vals[c] = d
            for p in geo.peers[c]:
                cand[p] &= ~bit
    queue = [c for c in geo.cells if not vals[c] and cand[c] and cand[c] & (cand[c] - 1) == 0]
    fail = [0]  # where the last propagation failed
    if any(not vals[c] and not cand[c] for c in geo.cells) or not propagate(cand, vals, queue, geo, pairs, full, fail):
        stats = Stats(backtracks=1, seconds=time.perf_counter() - start)
        return Result(Status.NO_SOLUTION, grid, count=0, stats=stats, message="no grid completes these givens")
    guesses = nodes = backtracks = count = 0
    first: list[int] | None = None
    restarts = geo.size > RESTART_ABOVE  # large boards: restarts, each run after the first in a pseudo-random order
    seed = ORDER_SEED
    run = run_start = 0  # the search runs so far (restarts), the backtracks before this run
    weight = [0] * geo.n_cells if restarts else None  # contradictions seen at each cell, over all runs
    stack = [(cand, vals, -1, 0)]  # (state, cell, digits left) per level
    while stack:
        if restarts and count == 0 and backtracks - run_start > RESTART_BACKTRACKS * luby(run):
            # A run past its allowance with no solution yet: start again from the propagated givens.
            run += 1
            run_start = backtracks
            del stack[1:]
        cand, vals, _, _ = stack[-1]
        nodes += 1
        if nodes > node_budget:
            raise BudgetExceeded
        open_cells = [c for c in geo.cells if not vals[c]]
        if not open_cells:
            count += 1
            first = first or list(vals)
            if count >= limit:
                break
            stack.pop()
        else:
            stack[-1] = (cand, vals, *_choice(cand, vals, open_cells, geo, weight))
        while stack:
            cand, vals, cell, rem = stack[-1]
            if not rem:
                stack.pop()
                continue
            if run > 0 and rem & (rem - 1):  # after a restart: another order
                seed = seed * ORDER_MULTIPLIER % ORDER_MODULUS
                b = _nth_bit(rem, seed % rem.bit_count())
            else:
                b = rem & -rem
            rem ^= b
            stack[-1] = (cand, vals, cell, rem)
            guesses += rem != 0
            new_c, new_v = list(cand), list(vals)
            if cell >= 0:  # a digit of the cell
                new_c[cell] = b
                target = cell
            else:  # a place of the unit's digit
                unit, index = divmod(-1 - cell, 64)
                target = geo.units[unit][b.bit_length() - 1]
                new_c[target] = 1 << index
            if propagate(new_c, new_v, [target], geo, pairs, full, fail):
                stack.append((new_c, new_v, -1, 0))
                break
            backtracks += 1
            if weight is not None:  # the cell, or the open cells of the unit, where the contradiction showed
                where = fail[0]
                if where >= 0:
                    weight[where] += 1
                elif where > -1 - len(geo.units):
                    for c in geo.units[-1 - where]:
                        if not vals[c]:
                            weight[c] += 1
    stats = Stats(guesses=guesses, nodes=nodes, backtracks=backtracks, seconds=time.perf_counter() - start)
    if count == 0:
        return Result(Status.NO_SOLUTION, grid, count=0, stats=stats, message="no grid completes these givens")
    if count == 1 and first is not None:  # the one solution found was kept in ``first``
        return Result(Status.SOLVED, grid, solution=checked(Grid(geo, tuple(first)), grid), count=1, stats=stats)
    return Result(Status.MULTIPLE, grid, count=count, stats=stats, message=f"at least {count} solutions")
