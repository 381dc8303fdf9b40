"""The integer arrays a kernel reads for one geometry, built once per geometry and cached.

Besides the geometry's own ``unit_array``/``peer_array``/``peer_counts`` (copied here as int32, the width the
engine's kernels were tuned with), the kernels need tables for
locked candidates: every ordered pair of units (u, v) that share two or more cells (box/row and box/column on
standard boards, and whatever diagonals, windows or jigsaw regions add). A digit whose candidates in u all
lie in u & v cannot be elsewhere in v. The shared parts are *segments*; on a 9x9 board there are 54, and
each pair's ``u - v`` is exactly two other segments, so one pass ORs 54 x 3 cells and then tests each of the
108 pairs with three masks::

            box 1          row A = segment(A, box1) | segment(A, box2) | segment(A, box3)
          +-------+
    row A | s s s | . . . . . .      pair (box 1, row A):  inside  = seg(A, box 1)
    row B | t t t |                                        outside = seg(B, box 1) | seg(C, box 1)
    row C | r r r |                  digits in inside & ~outside leave row A outside box 1
          +-------+

    seg_cells[s]   cells of segment s (padded with -1)
    pair_seg[p]    [inside segment, outside segments ...] of pair p (padded with -1)
    rest_v[p]      cells of v - u, where the eliminations happen (padded with -1)

Where ``u - v`` is not a union of segments (some jigsaw or diagonal pairs) single cells fill the gap as
one-cell segments, so the same loop serves every geometry.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sudokit.engine.pure import locked_tables
from sudokit.errors import SudokitError
from sudokit.geometry import Geometry, padded


@dataclass(frozen=True)
class Tables:
    """Kernel inputs for one geometry."""

    n: int
    units: np.ndarray
    peers: np.ndarray
    peer_counts: np.ndarray
    seg_cells: np.ndarray
    pair_seg: np.ndarray
    rest_v: np.ndarray

    def args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """Positional arguments in the kernels' order (after the puzzle arguments)."""
        return (self.units, self.peers, self.peer_counts, self.seg_cells, self.pair_seg, self.rest_v, self.n)


_CACHE: dict[Geometry, Tables] = {}


def tables(geometry: Geometry) -> Tables:
    """The cached :class:`Tables` of ``geometry``."""
    found = _CACHE.get(geometry)
    if found is not None:
        return found
    if geometry.size > 62:
        raise SudokitError(f"board size {geometry.size} is too large for the engine (at most 62 digits)")
    seg_cells, pair_seg, rest_v = locked_tables(geometry)
    found = Tables(
        n=geometry.size,
        units=np.ascontiguousarray(geometry.unit_array, dtype=np.int32),
        peers=np.ascontiguousarray(geometry.peer_array, dtype=np.int32),
        peer_counts=np.ascontiguousarray(geometry.peer_counts, dtype=np.int32),
        seg_cells=padded(seg_cells, dtype="int32"),
        pair_seg=padded(pair_seg, dtype="int32"),
        rest_v=padded(rest_v, dtype="int32"),
    )
    _CACHE[geometry] = found
    return found
