"""The 9x9 generator kernel: random solution grid, digging and the minimality check in one compiled call.

:class:`~sudokit.generate.generator.Generator` sends the classic 9x9 board here for every option this kernel
covers (any clue symmetry, a clue count or range, a clue pattern, and the candidates that
``--difficulty``/``--rating`` then rate); other geometries and ``--method norvig`` take the Python path. Per
puzzle, inside numba::

    random grid: box 1 a random permutation, 8 more random digits that agree with their peers, the 9x9
    counting search (:func:`sudokit.engine.kernel9.search9`, limit 1) completes it, a random symmetry of the
    board (relabel, bands, rows in a band, stacks, columns in a stack, transpose) spreads the search's fixed
    digit order over the space of grids; the grid is checked against the rules (27 units, 9 digits each)
        │
        ▼
    dig: (with a pattern: the pattern's cells of the grid, kept when they count exactly 1, else the next grid)
    the clue orbits in random order; remove an orbit, count to 2 with ``search9``, put it back unless
    the count is exactly 1; stop early at a random clue target when a clue range was asked for
        │
        ▼
    check: every orbit of givens is removed in turn and counted again -- each must leave more than one
    solution (with symmetry none: a minimal puzzle); after a dig stopped at a clue target, the puzzle is
    counted once more instead (a pattern's one count is its check). A failure is reported (status
    ``CHECK_FAILED``), never returned as a puzzle; so is any count, in the dig or the check, whose status is
    not solved / no solution / several (the engine's own answer check refused it).

The check re-counts what the dig already implies (a given needed in a larger puzzle is needed in every smaller
one): it is the generator's fused answer check, like the solver's, and costs about 40% of the kernel's time.

Measured (CPU time, 2,000 puzzles of one seed, symmetry none, kernel alone on arrays, load ~11 on 2 shared
cores, so +-15% is noise):

==================================================  ===========  ===========  =========================
variant                                             re-count     no re-count  kept?
==================================================  ===========  ===========  =========================
this kernel                                         2,700-3,500  4,750-5,880  kept
a naked-single test before each count (a removed    3,210        5,690        rejected: early counts on a
cell whose peers hold the 8 other digits stays                                nearly full grid cost ~1 us
forced, no count needed)                                                      anyway
the Python path (one engine call per count)         464-764 (``Generator(fast=False)``, re-count none)
==================================================  ===========  ===========  =========================

Randomness
----------
One puzzle draws only from its own stream, so any slice of a run can be made alone (``--jobs``, chunks on a
cluster) and gives the same puzzles: the ``j``-th *try* of puzzle ``i`` of key ``K`` draws from splitmix64
started at ``mix64(mix64(K ^ i) + j)`` (``mix64`` is splitmix64's finaliser, a bijection of 64-bit words).
``K`` comes from the user's seed through :class:`numpy.random.SeedSequence` (:func:`key_of`). A try is a
bounded number of grids (``max_attempts``); only clue ranges and patterns can need more than one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.engine import kernel9
from sudokit.engine.kernel import MULTIPLE, NO_SOLUTION, SOLVED

#: Row status of :func:`generate_rows`.
OK = 0  #: a puzzle that meets the request
NOT_FOUND = 1  #: ``max_attempts`` grids tried, none met the clue range or pattern: ask again with the next try
CHECK_FAILED = 2  #: the answer check refused the grid or the puzzle (a defect; never returned as a puzzle)

#: Clue symmetries in the kernel's numbering (the row of the orbit tables, :func:`table_args`); -1: a random one.
KERNEL_SYMMETRIES = ("none", "rot180", "rot90", "mirror", "flip", "diagonal")


def _build_tables() -> tuple[np.ndarray, ...]:
    from sudokit.generate.generator import orbits
    from sudokit.geometry import standard

    g = standard()
    n_sym = len(KERNEL_SYMMETRIES)
    cells = np.zeros((n_sym, 81), dtype=np.int64)
    starts = np.zeros((n_sym, 82), dtype=np.int64)
    n_orbits = np.zeros(n_sym, dtype=np.int64)
    for k, name in enumerate(KERNEL_SYMMETRIES):
        at = 0
        groups = orbits(g, name)
        for j, orbit in enumerate(groups):
            starts[k, j] = at
            for s in orbit:
                cells[k, at] = s
                at += 1
        starts[k, len(groups)] = at
        n_orbits[k] = len(groups)
    peers = np.array(g.peers, dtype=np.int64)
    units = np.array(g.units, dtype=np.int64)
    return cells, starts, n_orbits, peers, units


_TABLES: list[tuple] = []


def table_args() -> tuple:
    """The orbit, peer and unit tables, then kernel9's lookup tables as one tuple (passed on to ``search9`` as
    they are, whatever their number), in :func:`generate_rows`' order."""
    if not _TABLES:
        _TABLES.append((*_build_tables(), tuple(kernel9.table_args())))
    return _TABLES[0]


_LOADED: list[bool] = []


def load() -> None:
    """Compile (or load from numba's cache) :func:`generate_rows` now, on zero rows, before any clock runs."""
    if _LOADED:
        return
    _LOADED.append(True)
    empty = np.zeros((0, 81), dtype=np.uint8)
    info = np.zeros((0, 4), dtype=np.int64)
    none = np.zeros(0, dtype=np.uint8)
    generate_rows(np.uint64(0), 0, 0, 0, -1, 81, 1, True, none, empty, empty.copy(), info, *table_args())


def key_of(entropy: int) -> int:
    """The kernel's 64-bit key for a seed (an int entropy, as :class:`numpy.random.SeedSequence` takes)."""
    return int(np.random.SeedSequence(entropy).generate_state(1, np.uint64)[0])


# ---- the random stream -----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _mix(z):
    """splitmix64's finaliser (a bijection of uint64)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _next(rs):
    """The next 64-bit word of the splitmix64 stream whose state is ``rs[0]``."""
    z = rs[0] + np.uint64(0x9E3779B97F4A7C15)
    rs[0] = z
    return _mix(z)


@njit(cache=True, inline="always")
def _below(rs, n):
    """A random integer in ``0..n-1`` (31 random bits reduced mod ``n``: bias below 2**-26 for n <= 81)."""
    return np.int64(_next(rs) >> np.uint64(33)) % n


@njit(cache=True, inline="always")
def _shuffle(rs, a, n):
    """Fisher-Yates shuffle of ``a[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = _below(rs, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


# ---- one puzzle ------------------------------------------------------------------------------------
@njit(cache=True)
def _random_grid(rs, grid, work, perm, peers, units, sol, stats, st, st_band, st_bit, st_rem, tabs):
    """A random valid solution grid into ``grid`` ((81,) uint8); ``work``/``sol`` (81,) and ``perm`` (9,) scratch."""
    while True:
        for c in range(81):
            work[c] = 0
        for k in range(9):
            perm[k] = k + 1
        _shuffle(rs, perm, 9)
        for k in range(9):
            work[(k // 3) * 9 + k % 3] = perm[k]
        for _ in range(8):
            c = _below(rs, 81)
            if work[c]:
                continue
            used = 0
            for p in peers[c]:
                used |= np.int64(1) << work[p]
            free = 0
            for d in range(1, 10):
                if not (used >> d) & 1:
                    free += 1
            if free == 0:
                continue
            pick = _below(rs, free)
            for d in range(1, 10):
                if not (used >> d) & 1:
                    if pick == 0:
                        work[c] = d
                        break
                    pick -= 1
        status, count = kernel9.search9(work, 1, 0, sol, stats, st, st_band, st_bit, st_rem, *tabs)
        if count == 1:
            if status != SOLVED:  # the engine's own answer check refused its grid
                return False
            break
    # A random symmetry of the board: relabel digits, permute bands, rows in bands, stacks, columns, transpose.
    rows = np.empty(9, dtype=np.int64)
    cols = np.empty(9, dtype=np.int64)
    for which in range(2):
        out = rows if which == 0 else cols
        for k in range(3):
            perm[k] = k
        _shuffle(rs, perm, 3)
        for b in range(3):
            for k in range(3):
                perm[3 + k] = k
            _shuffle(rs, perm[3:], 3)
            for k in range(3):
                out[3 * b + k] = 3 * perm[b] + perm[3 + k]
    for k in range(9):
        perm[k] = k + 1
    _shuffle(rs, perm, 9)
    flip = _below(rs, 2) == 1
    for r in range(9):
        for c in range(9):
            v = perm[sol[rows[r] * 9 + cols[c]] - 1]
            if flip:
                grid[c * 9 + r] = v
            else:
                grid[r * 9 + c] = v
    # The answer check: every unit holds the nine digits.
    for u in range(27):
        seen = 0
        for c in units[u]:
            seen |= np.int64(1) << grid[c]
        if seen != 0x3FE:
            return False
    return True


@njit(cache=True)
def _count2(values, sol, stats, st, st_band, st_bit, st_rem, tabs):
    """Solutions of ``values`` counted to 2; -1 for any other status of the engine (a refused answer)."""
    status, count = kernel9.search9(values, 2, 0, sol, stats, st, st_band, st_bit, st_rem, *tabs)
    if status != SOLVED and status != MULTIPLE and status != NO_SOLUTION:
        return -1
    return count


@njit(cache=True)
def generate_rows(
    key,
    first,
    try_index,
    symmetry,
    lo,
    hi,
    max_attempts,
    check,
    pattern,
    puzzles,
    solutions,
    info,
    cells,
    starts,
    n_orbits,
    peers,
    units,
    tabs,
):
    """Puzzles ``first .. first + len(puzzles) - 1`` of ``key`` (try ``try_index`` of each), one per row.

    ``symmetry``: a row of the orbit tables (:data:`KERNEL_SYMMETRIES`), -1 for a random one per puzzle.
    ``lo``/``hi``: the clue range (``lo`` = -1 for none: a minimal puzzle); the dig stops at a random target in
    it, and a grid whose dig ends above ``hi`` is replaced, at most ``max_attempts`` grids per row. ``check``:
    re-count every orbit of givens (without a range), or the puzzle (with one). ``pattern``: (81,) uint8, the
    givens' cells (HoDoKu's pattern mode: grids are tried until those cells make a unique puzzle, no digging),
    or an empty array for none. Writes ``puzzles``/``solutions`` rows (uint8) and ``info`` rows ``[status,
    grids tried, symmetry used, clues]``.
    """
    sol = np.zeros(81, dtype=np.uint8)
    work = np.zeros(81, dtype=np.uint8)
    perm = np.zeros(9, dtype=np.int64)
    order = np.zeros(81, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    st = np.zeros((83, kernel9.STATE_WORDS), dtype=np.int64)
    st_band = np.zeros(82, dtype=np.int64)
    st_bit = np.zeros(82, dtype=np.int64)
    st_rem = np.zeros(82, dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    ranged = lo >= 0
    patterned = pattern.shape[0] == 81
    for row in range(puzzles.shape[0]):
        rs[0] = _mix(_mix(key ^ np.uint64(first + row)) + np.uint64(try_index))
        grid = solutions[row]
        values = puzzles[row]
        sym = symmetry if symmetry >= 0 else _below(rs, 6)
        info[row, 0] = NOT_FOUND
        info[row, 2] = sym
        n_orb = n_orbits[sym]
        attempts = 0
        while attempts < max_attempts:
            attempts += 1
            if not _random_grid(rs, grid, work, perm, peers, units, sol, stats, st, st_band, st_bit, st_rem, tabs):
                info[row, 0] = CHECK_FAILED
                break
            if patterned:
                clues = 0
                for c in range(81):
                    values[c] = grid[c] if pattern[c] else 0
                    clues += pattern[c] != 0
                info[row, 3] = clues
                n = _count2(values, sol, stats, st, st_band, st_bit, st_rem, tabs)
                if n < 0:
                    info[row, 0] = CHECK_FAILED
                    break
                if n == 1:
                    info[row, 0] = OK
                    break
                continue
            stop_at = lo + _below(rs, hi - lo + 1) if ranged else 0
            for c in range(81):
                values[c] = grid[c]
            for k in range(n_orb):
                order[k] = k
            _shuffle(rs, order, n_orb)
            clues = 81
            refused = False
            for k in range(n_orb):
                if clues <= stop_at:
                    break
                o = order[k]
                a = starts[sym, o]
                b = starts[sym, o + 1]
                for j in range(a, b):
                    values[cells[sym, j]] = 0
                n = _count2(values, sol, stats, st, st_band, st_bit, st_rem, tabs)
                refused |= n < 0
                if n == 1:
                    clues -= b - a
                else:
                    for j in range(a, b):
                        values[cells[sym, j]] = grid[cells[sym, j]]
            info[row, 3] = clues
            if refused:
                info[row, 0] = CHECK_FAILED
                break
            if ranged and not lo <= clues <= hi:
                continue
            info[row, 0] = OK
            if check and ranged:  # the dig stopped at a target: the puzzle is unique, no more
                if _count2(values, sol, stats, st, st_band, st_bit, st_rem, tabs) != 1:
                    info[row, 0] = CHECK_FAILED
            elif check:  # no orbit of givens can go (symmetry none: no given can go, a minimal puzzle)
                for o in range(n_orb):
                    a = starts[sym, o]
                    b = starts[sym, o + 1]
                    if values[cells[sym, a]] == 0:
                        continue
                    for j in range(a, b):
                        values[cells[sym, j]] = 0
                    if _count2(values, sol, stats, st, st_band, st_bit, st_rem, tabs) < 2:
                        info[row, 0] = CHECK_FAILED
                    for j in range(a, b):
                        values[cells[sym, j]] = grid[cells[sym, j]]
            break
        info[row, 1] = attempts
