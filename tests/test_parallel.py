"""The threaded batch kernels (:mod:`sudokit.engine.parallel`): each block of rows goes to exactly one thread."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit, prange

from sudokit.engine import batch, parallel
from sudokit.engine.batch import load_lines, solve_chunk
from sudokit.geometry import standard

DATA = Path(__file__).resolve().parents[1] / "data"


@njit(parallel=True, cache=False)
def _blocks_taken(n_blocks: int, taken: np.ndarray) -> None:
    """The threaded kernels' loop with a count of the times each block was taken in place of the solving."""
    counter = np.zeros(1, dtype=np.int64)
    for _ in prange(n_blocks):
        while True:
            b = parallel._take(counter)
            if b >= n_blocks:
                break
            taken[b] += 1
            x = 0.0  # a little work, so that the other thread is running before the blocks run out
            for k in range(20000):
                x += np.sqrt(k + b)
            taken[n_blocks + b] = x > 0


def test_each_block_is_taken_once_by_two_threads():
    import numba

    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    for n_blocks in (1, 2, 3, 64, 1000):
        taken = np.zeros(2 * n_blocks, dtype=np.int64)
        _blocks_taken(n_blocks, taken)
        assert (taken[:n_blocks] == 1).all(), np.flatnonzero(taken[:n_blocks] != 1)[:5]


def test_hard_puzzles_bunched_at_one_end_give_the_one_thread_results():
    puzzles, geometry = load_lines(DATA / "top1465.txt")
    order = np.argsort(-solve_chunk(puzzles, geometry, limit=2).guesses, kind="stable")  # hardest first
    rows = np.ascontiguousarray(np.concatenate([puzzles[order], puzzles[:100]]))
    assert len(rows) >= batch.PARALLEL_FROM
    one = solve_chunk(rows, standard(), limit=2, workers=1)
    two = solve_chunk(rows, standard(), limit=2, workers=2)
    for field in ("solutions", "status", "counts", "guesses", "nodes", "backtracks"):
        assert (getattr(one, field) == getattr(two, field)).all(), field
