"""The threaded batch kernels (:mod:`sudokit.engine.parallel`): how the blocks of rows are dealt to the threads."""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest

from sudokit.engine import batch, parallel
from sudokit.engine.batch import load_lines, solve_chunk
from sudokit.geometry import standard

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize("n_blocks", [1, 2, 3, 64, 100, 1024])
def test_each_block_is_solved_once(n_blocks):
    assert sorted(parallel.dealt(i, n_blocks) for i in range(n_blocks)) == list(range(n_blocks))


@pytest.mark.parametrize("threads", [2, 4, 8])
def test_a_thread_s_contiguous_iterations_get_blocks_spread_over_the_batch(threads):
    n_blocks = 64
    per = n_blocks // threads
    for t in range(threads):
        mine = sorted(parallel.dealt(i, n_blocks) for i in range(t * per, (t + 1) * per))
        assert len({b % threads for b in mine}) == 1  # every threads-th block
        assert mine[0] < threads and mine[-1] >= n_blocks - threads


def test_the_block_count_is_a_power_of_two_with_64_blocks_a_thread():
    for workers in (2, 3, 4, 5):
        _, n_blocks = batch._on_threads(workers)
        threads = min(workers, numba.config.NUMBA_NUM_THREADS)
        assert n_blocks & (n_blocks - 1) == 0 and n_blocks >= 64 * threads


def test_hard_puzzles_bunched_at_one_end_give_the_one_thread_results():
    puzzles, geometry = load_lines(DATA / "top1465.txt")
    order = np.argsort(-solve_chunk(puzzles, geometry, limit=2).guesses, kind="stable")  # hardest first
    rows = np.ascontiguousarray(np.concatenate([puzzles[order], puzzles[:100]]))
    assert len(rows) >= batch.PARALLEL_FROM
    one = solve_chunk(rows, standard(), limit=2, workers=1)
    two = solve_chunk(rows, standard(), limit=2, workers=2)
    for field in ("solutions", "status", "counts", "guesses", "nodes", "backtracks"):
        assert (getattr(one, field) == getattr(two, field)).all(), field
