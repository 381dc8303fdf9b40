"""Aligned Triple Exclusion (Sudoku Explainer 7.5).

Like aligned pair exclusion (:mod:`sudokit.logic.exclusion`) on three cells: every triple of digits the three
could hold together is ruled out when two cells that see each other would hold one digit, or when a cell with
two or three candidates that sees all three (an *excluding* cell) would be left with none. A digit of one of the
three that no allowed triple keeps is removed. As in SE it comes after the static chains and before Nishio;
the three cells are taken in grid order, with at least two excluding cells (as for pairs; one gives the same
ratings on every 10th puzzle ``sudoku_exchange_rated`` rates 7.0-9.4), and the first that removes something is
the step (:mod:`sudokit.logic.triple_exclusion_kernel`). Works on every geometry.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

NAME = "Aligned Triple Exclusion"
SE = 7.5
#: excluding cells the three cells must share
MIN_COMMON = 2


@lru_cache(maxsize=16)
def _see(g: Geometry):
    import numpy as np

    see = np.zeros((g.n_cells, g.n_cells), dtype=np.uint8)
    for s, ps in enumerate(g.peer_sets):
        for p in ps:
            see[s, p] = 1
    return see


#: each thread's last candidates the search found nothing on, by geometry (see :func:`_dirty`)
_last = threading.local()


def _dirty(g: Geometry, cands):
    """The cells to search from (uint8 flags): those whose candidates (an int64 array) differ from the last ones
    this thread's search found nothing on, on the same geometry (every cell when there are none); None when no
    cell differs. Three cells whose candidates, and those of every cell seeing all three, are as they were
    remove nothing now either: along a solving path a step changes a few cells, and only the triples near them
    are searched again."""
    import numpy as np

    before = getattr(_last, "misses", {}).get(g)
    if before is None or before.shape != cands.shape:
        return np.ones(cands.shape[0], dtype=np.uint8)
    flags = (before != cands).view(np.uint8)
    return flags if flags.any() else None


def _missed(g: Geometry, cands) -> None:
    """Remember that the search found nothing on ``cands`` (one geometry a thread: a batch rates one kind)."""
    _last.misses = {g: cands.copy()}


def aligned_triple_exclusion(state: State) -> Step | None:
    """The first three cells whose allowed digit triples leave out a digit of one of them, or None."""
    from sudokit.logic import state_arrays, triple_exclusion_kernel

    g = state.g
    _, cands = state_arrays.arrays(state)
    dirty = _dirty(g, cands)
    if dirty is None:  # the very candidates the search last found nothing on
        return None
    cells, keep = triple_exclusion_kernel.search(
        cands, _see(g), g.peer_array, g.size, MIN_COMMON, dirty, *triple_exclusion_kernel.work(g.n_cells)
    )
    if cells[0] < 0:
        _missed(g, cands)
        return None
    trio = [int(s) for s in cells]
    elim = [(s, d) for s, k in zip(trio, keep) for d in digits_of(state.cands[s] & ~int(k))]
    peers = state.g.peer_sets
    common = [
        x for x in state.empty_cells() if 2 <= state.cands[x].bit_count() <= 3 and all(x in peers[s] for s in trio)
    ]
    cover = ", ".join(f"{state.label(s)} {text.digit_set(state.digits(s), state)}" for s in common)
    return Step(
        NAME,
        eliminations=elim,
        cells=[*trio, *common],
        candidates=[(s, d) for s in (*trio, *common) for d in state.digits(s)],
        explanation=(
            f"Aligned triple exclusion on {text.cells(state, trio)}: {cover} see all three, so the three cannot "
            f"hold every candidate of one of them, nor one digit twice where they see each other; no allowed "
            f"triple keeps the digits below: {text.removals(state, elim)}"
        ),
    )
