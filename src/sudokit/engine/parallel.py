"""The multi-core batch kernel: blocks of rows on numba threads, dealt to the threads in turn.

``prange`` gives each thread one contiguous run of its iterations (``numba.set_parallel_chunksize`` did not
change that with the ``omp`` or ``workqueue`` threading layer of numba 0.68). With iteration ``i`` solving
block ``i`` a thread got one contiguous part of the batch, so on a set whose hard puzzles are bunched one
thread did most of the work: top1465 spends 59-61% of its one-thread time in its first half, which caps two
threads at 1.64-1.71x (measured 1.66-1.69x). Iteration ``i`` now solves block :func:`dealt` ``(i)``, the
bit-reversal of ``i``: with a power-of-two number of blocks, each of 2, 4, 8 ... threads running a contiguous
run of the iterations gets every 2nd, 4th, 8th ... block, spread over the whole batch (top1465 on two threads,
modelled by ``benchmarks/parallel.py``: 1.97-1.98x with 128 blocks, 1.91-1.94x with 64).

Blocks taken from a shared counter by whichever thread is free (an atomic add per block) modelled 1.98-1.99x,
but on this 2-core machine shared with other jobs (load 5.5-6.5) that loop cost 1.4-1.75x the CPU of the
static one under numba's ``omp`` layer, whose idle threads spin (kaggle_sample 0.60-0.61x per CPU second
against 0.86-0.96x, top1465 0.43-0.58x against 0.67x), so it was not kept.

Kept apart from :mod:`sudokit.engine.kernel` so that single-core use never compiles the parallel version.
"""

from __future__ import annotations

from numba import njit, prange

from sudokit.engine.kernel import check_rows, search_rows
from sudokit.engine.kernel9 import search9_rows


@njit(cache=True)
def dealt(i, n_blocks):
    """The block that iteration ``i`` of ``n_blocks`` solves: ``i`` with its bits reversed when ``n_blocks``
    is a power of two (a permutation of the blocks either way), else ``i``."""
    if n_blocks & (n_blocks - 1):
        return i
    out = 0
    bit = 1
    while bit < n_blocks:
        out = (out << 1) | (i & 1)
        i >>= 1
        bit <<= 1
    return out


@njit(cache=True, parallel=True)
def search_blocks(
    puzzles,
    n_blocks,
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
    """:func:`search_rows` over ``n_blocks`` slices of ``puzzles`` (dealt to the threads by :func:`dealt`)."""
    total = puzzles.shape[0]
    for i in prange(n_blocks):
        b = dealt(i, n_blocks)
        search_rows(
            puzzles,
            b * total // n_blocks,
            (b + 1) * total // n_blocks,
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
        )


@njit(cache=True, parallel=True)
def search9_blocks(puzzles, n_blocks, limit, budget, solutions, status, counts, stats, shrink, expand):
    """:func:`sudokit.engine.kernel9.search9_rows` over ``n_blocks`` slices of ``puzzles`` (dealt to the
    threads by :func:`dealt`)."""
    total = puzzles.shape[0]
    for i in prange(n_blocks):
        b = dealt(i, n_blocks)
        lo = b * total // n_blocks
        hi = (b + 1) * total // n_blocks
        search9_rows(puzzles, lo, hi, limit, budget, solutions, status, counts, stats, shrink, expand)


@njit(cache=True, parallel=True)
def check_blocks(puzzles, solutions, units, n, ok, n_blocks):
    """:func:`sudokit.engine.kernel.check_rows` over ``n_blocks`` slices of the rows (dealt by :func:`dealt`)."""
    total = puzzles.shape[0]
    for i in prange(n_blocks):
        b = dealt(i, n_blocks)
        lo = b * total // n_blocks
        hi = (b + 1) * total // n_blocks
        check_rows(puzzles[lo:hi], solutions[lo:hi], units, n, ok[lo:hi])
