"""The multi-core batch kernel: blocks of rows on numba threads, each thread taking the next free block.

A shared counter (one atomic add per block) hands the blocks out, so a thread that meets the hard puzzles of a
batch takes fewer blocks and the other takes more. ``prange`` alone gives each thread one contiguous run of
its iterations whatever their number (``numba.set_parallel_chunksize`` did not change that with the ``omp`` or
``workqueue`` threading layer of numba 0.68), so on a set whose hard puzzles are bunched one thread was left
with most of the work: top1465 spends 59-61% of its one-thread time in its first half, which caps two threads
at 1.64-1.71x (measured 1.66-1.69x); blocks taken in turn model 1.98-2.00x (``benchmarks/parallel.py``).

The ``prange`` runs over the blocks only to start the threads: the first iteration each thread runs takes
blocks until the counter is past the last one, and its later iterations find none left. (The thread count is
not asked for: ``numba.get_num_threads`` in compiled code stops numba from caching it.)

Kept apart from :mod:`sudokit.engine.kernel` so that single-core use never compiles the parallel version.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit, prange, types
from numba.extending import intrinsic

from sudokit.engine.kernel import check_rows, search_rows
from sudokit.engine.kernel9 import search9_rows

if not config.DISABLE_JIT:

    @intrinsic
    def _take(typingctx, counter):
        """``counter[0] += 1`` as one atomic instruction; returns the value before (the block to work on)."""

        def codegen(context, builder, signature, args):
            ary = context.make_array(signature.args[0])(context, builder, args[0])
            one = context.get_constant(types.int64, 1)
            return builder.atomic_rmw("add", ary.data, one, "monotonic")

        return types.int64(counter), codegen

else:  # pragma: no cover - pure Python (NUMBA_DISABLE_JIT): one thread, no race

    @njit
    def _take(counter):
        taken = int(counter[0])
        counter[0] = taken + 1
        return taken


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
    """:func:`search_rows` over ``n_blocks`` slices of ``puzzles``, each thread of the pool taking the next."""
    total = puzzles.shape[0]
    counter = np.zeros(1, dtype=np.int64)
    for _ in prange(n_blocks):  # each thread's first iteration takes blocks until none is left
        while True:
            b = _take(counter)
            if b >= n_blocks:
                break
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
def search9_blocks(
    puzzles, n_blocks, limit, budget, solutions, status, counts, stats, shrink, complex_, expand, keep, box3
):
    """:func:`sudokit.engine.kernel9.search9_rows` over ``n_blocks`` slices of ``puzzles``, each thread of the
    pool taking the next."""
    total = puzzles.shape[0]
    counter = np.zeros(1, dtype=np.int64)
    for _ in prange(n_blocks):  # each thread's first iteration takes blocks until none is left
        while True:
            b = _take(counter)
            if b >= n_blocks:
                break
            lo = b * total // n_blocks
            hi = (b + 1) * total // n_blocks
            search9_rows(
                puzzles, lo, hi, limit, budget, solutions, status, counts, stats, shrink, complex_, expand, keep, box3
            )


@njit(cache=True, parallel=True)
def check_blocks(puzzles, solutions, units, n, ok, n_blocks):
    """:func:`sudokit.engine.kernel.check_rows` over ``n_blocks`` slices of the rows, each thread taking the
    next."""
    total = puzzles.shape[0]
    counter = np.zeros(1, dtype=np.int64)
    for _ in prange(n_blocks):  # each thread's first iteration takes blocks until none is left
        while True:
            b = _take(counter)
            if b >= n_blocks:
                break
            lo = b * total // n_blocks
            hi = (b + 1) * total // n_blocks
            check_rows(puzzles[lo:hi], solutions[lo:hi], units, n, ok[lo:hi])
