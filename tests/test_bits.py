"""The compiled bit helpers shared by the engine's and the logic's kernels (``sudokit/bits.py``) against plain
Python, on signed and unsigned 64-bit integers."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from sudokit import bits


@njit(cache=False)
def _ops(x):
    return bits.popcount(x), bits.low_bit(x), bits.lowest_bit(x) if x else -1


@njit(cache=False)
def _all_combos(k, m):
    idx = np.empty(k, dtype=np.int64)
    out = []
    bits.first_combo(idx, k)
    while True:
        out.append(idx.copy())
        if not bits.next_combo(idx, k, m):
            break
    return out


@njit(cache=False)
def _union(masks, items, k, m):
    idx = np.empty(k, dtype=np.int64)
    out = []
    bits.first_combo(idx, k)
    while True:
        out.append(bits.combo_union(masks, items, idx, k))
        if not bits.next_combo(idx, k, m):
            break
    return out


@settings(deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_bit_operations_on_signed_and_unsigned_words(x):
    low = x & -x
    want_lowest = low.bit_length() - 1 if x else -1
    assert _ops(np.uint64(x)) == (bin(x).count("1"), low, want_lowest)
    signed = x - 2**64 if x >= 2**63 else x
    count, low_signed, lowest = _ops(np.int64(signed))
    assert (count, low_signed & (2**64 - 1), lowest) == (bin(x).count("1"), low, want_lowest)


@njit(cache=False)
def _lengths(x):
    return bits.bit_length(np.uint64(x)), bits.bit_length(np.int64(x)), bits.bit_length(np.int32(x & 0x7FFF_FFFF))


@settings(deadline=None)
@given(st.integers(0, 2**63 - 1))
def test_bit_length_is_the_highest_bit_plus_one(x):
    """``bit_length`` (``ctlz``) on 64- and 32-bit words, 0 included, against Python's and its plain form."""
    want = (x.bit_length(), x.bit_length(), (x & 0x7FFF_FFFF).bit_length())
    assert _lengths(x) == want
    assert bits.bit_length_plain(x) == want[0]


@settings(deadline=None)
@given(st.integers(1, 7).flatmap(lambda m: st.tuples(st.integers(1, m), st.just(m))))
def test_combinations_come_in_the_order_of_itertools(km):
    k, m = km
    assert [tuple(int(i) for i in c) for c in _all_combos(k, m)] == list(combinations(range(m), k))


def test_combo_union_ors_the_masks_a_combination_picks():
    masks = np.array([1, 2, 4, 8, 16, 32], dtype=np.int64)
    items = np.array([5, 3, 0, 1], dtype=np.int64)
    want = [masks[items[list(c)]].sum() for c in combinations(range(4), 2)]
    assert _union(masks, items, 2, 4) == want


def test_membership_and_word_rows():
    row = np.array([4, 7, 2, -1, 9], dtype=np.int64)
    assert [bits.member(row, x) for x in (4, 2, 9, -1, 5)] == [True, True, False, False, False]
    a = np.array([0, 1 << 63], dtype=np.uint64)
    b = np.array([0, 1 << 63], dtype=np.uint64)
    c = np.array([1, 0], dtype=np.uint64)
    assert (bits.any_and(a, b), bits.any_and(a, c)) == (True, False)
    assert (bits.is_empty(a), bits.is_empty(np.zeros(2, dtype=np.uint64))) == (False, True)


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 511)), min_size=9, max_size=9), st.booleans())
def test_unit_scan_counts_the_open_cells_and_the_placed_digits(cells, keeps_bit):
    # a unit of nine cells: (digit or 0, candidates); a placed cell's mask is its bit (engine) or 0 (logic)
    values = np.array([v for v, _m in cells], dtype=np.int64)
    masks = [(1 << (v - 1) if keeps_bit else 0) if v else m for v, m in cells]
    cands = np.array(masks, dtype=np.int64)
    units = np.arange(9, dtype=np.int64).reshape(1, 9)
    open_masks = [m for (v, _), m in zip(cells, masks) if not v]
    once = more = 0
    for m in open_masks:
        more |= once & m
        once |= m
    placed = 0
    for v, _m in cells:
        if v:
            placed |= 1 << (v - 1)
    assert bits.unit_scan(cands, values, units, 0, keeps_bit) == (once, more, placed)
