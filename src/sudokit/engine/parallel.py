"""The multi-core batch kernel: blocks of rows on numba threads (``prange``).

Kept apart from :mod:`sudokit.engine.kernel` so that single-core use never compiles the parallel version.
"""

from __future__ import annotations

from numba import njit, prange

from sudokit.engine.kernel import check_rows, search_rows
from sudokit.engine.kernel9 import search9_rows


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
    """:func:`search_rows` over ``n_blocks`` slices of ``puzzles``, run on the numba thread pool."""
    total = puzzles.shape[0]
    for b in prange(n_blocks):
        lo = b * total // n_blocks
        hi = (b + 1) * total // n_blocks
        search_rows(
            puzzles,
            lo,
            hi,
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
    """:func:`sudokit.engine.kernel9.search9_rows` over ``n_blocks`` slices of ``puzzles``, on numba threads."""
    total = puzzles.shape[0]
    for b in prange(n_blocks):
        lo = b * total // n_blocks
        hi = (b + 1) * total // n_blocks
        search9_rows(
            puzzles, lo, hi, limit, budget, solutions, status, counts, stats, shrink, complex_, expand, keep, box3
        )


@njit(cache=True, parallel=True)
def check_blocks(puzzles, solutions, units, n, ok, n_blocks):
    """:func:`sudokit.engine.kernel.check_rows` over ``n_blocks`` slices of the rows, on numba threads."""
    total = puzzles.shape[0]
    for b in prange(n_blocks):
        lo = b * total // n_blocks
        hi = (b + 1) * total // n_blocks
        check_rows(puzzles[lo:hi], solutions[lo:hi], units, n, ok[lo:hi])
