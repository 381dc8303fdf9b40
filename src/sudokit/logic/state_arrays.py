"""The solving state and its geometry as int64 arrays, the form every logic kernel reads (numba is imported
with this module: the techniques import it lazily, since numba is slow to import).

- :func:`tables`: the geometry's units, each cell's units and each cell's peers (padded with -1) and the
  all-digits mask, once per geometry;
- :func:`arrays`: the state's values and candidate masks, once per state (the kernels only read them);
- :func:`digit_words`: the cells holding each digit as a candidate, as rows of 64-bit words, once per state;
- :func:`unit_sources`: the units a single or a locked-candidates search starts from;
- :func:`two_places`: the compiled look-up of a digit's two places in a unit (a strong link), which the
  single-digit patterns and the chain graph share.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from sudokit.geometry import Geometry
from sudokit.logic.state import source_units


def tables(g: Geometry) -> tuple:
    """(units, units_of padded with -1, peers padded with -1, all-digits mask) for ``g``: the geometry's own
    read-only int64 arrays."""
    return g.unit_array, g.cell_unit_array, g.peer_array, g.all_mask


def arrays(state) -> tuple[np.ndarray, np.ndarray]:
    """The state's values and candidate masks as int64 arrays for the kernels (made once per state; the
    kernels only read them)."""
    found = state.memo.get("arrays")
    if found is None:
        found = state.memo["arrays"] = (
            np.array(state.values, dtype=np.int64),
            np.array(state.cands, dtype=np.int64),
        )
    return found


def digit_words(state) -> np.ndarray:
    """:func:`digit_words_of` the state's candidates (made once per state)."""
    found = state.memo.get("digit-words")
    if found is None:
        n_words = (state.g.n_cells + 63) // 64
        found = state.memo["digit-words"] = digit_words_of(arrays(state)[1], state.g.size, n_words)
    return found


@njit(cache=True)
def digit_words_of(cands, size, n_words):
    """The cells holding each digit as a candidate, as rows of ``n_words`` 64-bit words (row ``d`` for digit
    ``d``; row 0 empty)."""
    out = np.zeros((size + 1, n_words), dtype=np.uint64)
    for s in range(cands.shape[0]):
        m = cands[s]
        for d in range(size):
            if (m >> d) & 1:
                out[d + 1, s >> 6] |= np.uint64(1) << np.uint64(s & 63)
    return out


def words(bits: int, n_words: int) -> list[int]:
    """A Python int bitset as ``n_words`` 64-bit words, lowest first."""
    return [(bits >> (64 * w)) & 0xFFFFFFFFFFFFFFFF for w in range(n_words)]


@lru_cache(maxsize=64)
def unit_sources(g: Geometry, lines: bool) -> np.ndarray:
    """:func:`~sudokit.logic.state.source_units` as an int64 array."""
    return np.array(source_units(g, lines), dtype=np.int64)


@njit(cache=True)
def two_places(cands, units, u, d):
    """The two cells of unit ``u`` where digit ``d`` (from 0) is a candidate, in unit order, or (-1, -1)
    when it has another number of places there."""
    first, second, count = -1, -1, 0
    for s in units[u]:
        if (cands[s] >> d) & 1:
            count += 1
            if count == 1:
                first = s
            elif count == 2:
                second = s
            else:
                return -1, -1
    return (first, second) if count == 2 else (-1, -1)
