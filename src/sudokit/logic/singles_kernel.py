"""numba kernels of the singles (:mod:`sudokit.logic.singles`): full house, hidden single, naked single.

Each returns the first single in the plain search's order; Python writes it out as a step. Arguments are the
state's ``values`` and ``cands`` as int64 arrays and the units of ``state_arrays.tables``."""

from __future__ import annotations

from numba import njit

from sudokit.bits import lowest_bit, unit_scan


@njit(cache=True)
def full_house_hit(values, units, full):
    """The first unit with one empty cell left whose givens leave one digit for it: (unit, cell, digit from
    1), or (-1, -1, -1)."""
    for u in range(units.shape[0]):
        empty = -1
        count = 0
        missing = full
        for s in units[u]:
            v = values[s]
            if v:
                missing &= ~(1 << (v - 1))
            else:
                count += 1
                empty = s
        if count == 1 and missing and not missing & (missing - 1):
            d = lowest_bit(missing)
            return u, empty, d + 1
    return -1, -1, -1


@njit(cache=True)
def hidden_single_hit(values, cands, units, sources):
    """The first unit of ``sources`` where a digit has one place left, with its lowest such digit: (unit,
    cell, digit from 1), or (-1, -1, -1)."""
    for u in sources:
        once, more, _placed = unit_scan(cands, values, units, u, False)
        only = once & ~more
        if only:
            d = lowest_bit(only)
            for s in units[u]:
                if (cands[s] >> d) & 1:
                    return u, s, d + 1
    return -1, -1, -1


@njit(cache=True)
def naked_single_hit(values, cands):
    """The first empty cell with one candidate left: (cell, digit from 1), or (-1, -1)."""
    for s in range(cands.shape[0]):
        m = cands[s]
        if not values[s] and m and not m & (m - 1):
            d = lowest_bit(m)
            return s, d + 1
    return -1, -1
