"""ALS-XZ: two almost locked sets (``n`` cells of one unit with ``n + 1`` candidates) joined by a
restricted common digit ``x`` (every ``x`` of one sees every ``x`` of the other). At most one of them
holds ``x``, so the other is locked: any other common digit ``z`` is in one of them, and cells that see
every ``z`` of both lose ``z``. Works on every geometry."""

from __future__ import annotations

from functools import lru_cache

from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.misses import digit_cells
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

MAX_SIZE = 4


def als_xz(state: State) -> Step | None:
    """The first ALS-XZ elimination found: pairs of sets (unit by unit, smaller sets first, in combination
    order; a set already listed under an earlier unit is left out), then ``x`` and ``z`` in increasing
    order. Numba kernels list the sets and search the pairs over cell bitsets; only the pair found is written
    out."""
    from sudokit.logic import als_kernel, state_arrays

    g, c = state.g, state.cands
    n = g.n_cells
    n_words = (n + 63) // 64
    _values, cands = state_arrays.arrays(state)
    units, units_of, _peers, _full = state_arrays.tables(g)
    cells, masks, set_units, members = als_kernel.als_sets(cands, units, units_of, MAX_SIZE, n_words)
    if len(masks) < 2:
        return None
    digits = state_arrays.digit_words(state)
    i, j, x, z = als_kernel.als_xz_search(cells, masks, digits, _peer_words(g), g.size)
    if i < 0:
        return None
    a = frozenset(int(s) for s in members[i] if s >= 0)
    b = frozenset(int(s) for s in members[j] if s >= 0)
    ma, mb, ua, ub, x, z = int(masks[i]), int(masks[j]), int(set_units[i]), int(set_units[j]), int(x), int(z)
    peer_bits = g.peer_bits
    digit_bits = [cells for _token, cells, _held in digit_cells(state)]
    abits = bbits = 0
    for s in a:
        abits |= 1 << s
    for s in b:
        bbits |= 1 << s
    elim_bits = digit_bits[z] & _seeing(a, z, digit_bits, peer_bits) & _seeing(b, z, digit_bits, peer_bits)
    elim_bits &= ~abits & ~bbits
    elim = [(s, z) for s in range(n) if elim_bits >> s & 1]
    return Step(
        "ALS-XZ",
        eliminations=elim,
        cells=sorted(a | b),
        units=[ua, ub],
        candidates=[(s, d) for s in sorted(a | b) for d in digits_of(c[s])],
        explanation=(
            f"ALS-XZ: {text.cells(state, a)} ({state.unit_name(ua)}, "
            f"{text.digit_set(digits_of(ma), state)}) and {text.cells(state, b)} ({state.unit_name(ub)}, "
            f"{text.digit_set(digits_of(mb), state)}) share {state.sym(x)}, which only one of them can hold, so "
            f"{state.sym(z)} "
            f"is in one of them: {text.removals(state, elim)}"
        ),
    )


def _seeing(cells: frozenset[int], d: int, digit_bits: list[int], peer_bits: tuple[int, ...]) -> int:
    """Cells that see every cell of ``cells`` holding candidate ``d``."""
    seen = -1
    for s in cells:
        if digit_bits[d] >> s & 1:
            seen &= peer_bits[s]
    return seen


@lru_cache(maxsize=32)
def _peer_words(g: Geometry):
    """Each cell's peers as 64-bit words (the kernel's cell sets)."""
    import numpy as np

    from sudokit.logic import state_arrays

    n_words = (g.n_cells + 63) // 64
    return np.array([state_arrays.words(b, n_words) for b in g.peer_bits], dtype=np.uint64)
