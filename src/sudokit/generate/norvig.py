"""Norvig's ``random_puzzle``, on top of :mod:`sudokit.methods.norvig`'s propagation (his level is
:func:`sudokit.methods.norvig.level`).

Propagation is the seed's: ``assign`` and ``eliminate`` call each other with the two rules (a cell down
to one digit clears it from its peers; a unit with one place left for a digit puts it there).
"""

from __future__ import annotations

import numpy as np

from sudokit.geometry import Geometry
from sudokit.grid import Grid


def random_puzzle(geometry: Geometry, rng: np.random.Generator, n_givens: int = 17) -> Grid:
    """Norvig's ``random_puzzle(N)``: assign random candidates to cells in random order, with propagation,
    until ``n_givens`` cells are decided and at least ``size - 1`` different digits show; restart on a
    contradiction. As the seed warns, the result may have several solutions (or, rarely, none)."""
    from sudokit.methods.norvig import assign

    g = geometry
    while True:
        values = [g.all_mask] * g.n_cells
        for s in rng.permutation(g.n_cells):
            s = int(s)
            choices = [d for d in g.digits if values[s] >> (d - 1) & 1]
            if not assign(values, s, choices[int(rng.integers(len(choices)))], g):
                break
            decided = [m for m in values if m & (m - 1) == 0]
            if len(decided) >= n_givens and len(set(decided)) >= g.size - 1:
                return Grid(g, tuple(m.bit_length() if m & (m - 1) == 0 else 0 for m in values))
