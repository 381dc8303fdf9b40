"""The four-lane vector type of the kernels (``sudokit/lanes.py``): each compiled operation against its plain
numpy form and against plain Python on the four words."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from sudokit import lanes
from sudokit.lanes import (
    any4,
    byte_masks,
    diff_lanes,
    lane,
    load4,
    make4,
    rot1,
    rot2,
    single16,
    splat4,
    store4,
    zero_lanes,
)

WORD = st.integers(0, (1 << 62) - 1)
SMALL = st.integers(0, 1 << 20)  # with some zero and single-bit fields in the 16-bit view
FOUR = st.lists(st.one_of(WORD, SMALL, st.sampled_from([0, 1, 1 << 16, 3 << 32])), min_size=4, max_size=4)


@njit(cache=False)
def _compiled(words, k, shift, out):
    a = load4(words, 0)
    b = load4(words, 4)
    results = (
        a & b,
        a | b,
        a ^ b,
        ~a,
        a + b,
        a - b,
        a << shift,
        a >> shift,
        a & 0x1FF,
        0x1FF | a,
        single16(a),
        rot1(a),
        rot2(a),
        make4(lane(a, 3), lane(a, 2), lane(a, 1), lane(a, 0)),
        splat4(lane(a, k)),
    )
    for i, r in enumerate(results):
        for j in range(4):
            out[i, j] = lane(r, j)
    c = a
    c &= b
    c |= make4(1, 2, 4, 8)
    c ^= a
    c <<= 1
    c >>= 2
    for j in range(4):
        out[len(results), j] = lane(c, j)
    return any4(a), zero_lanes(a & b), diff_lanes(a, b)


def _expected(a, b, k, shift):
    m = (1 << 64) - 1

    def signed(x):
        x &= m
        return x - (1 << 64) if x >> 63 else x

    def single(x):
        out = 0
        for f in range(4):
            field = (x >> (16 * f)) & 0xFFFF
            if field and field & (field - 1) == 0:
                out |= field << (16 * f)
        return out

    rows = [
        [x & y for x, y in zip(a, b)],
        [x | y for x, y in zip(a, b)],
        [x ^ y for x, y in zip(a, b)],
        [~x for x in a],
        [signed(x + y) for x, y in zip(a, b)],
        [signed(x - y) for x, y in zip(a, b)],
        [signed(x << shift) for x in a],
        [x >> shift for x in a],
        [x & 0x1FF for x in a],
        [x | 0x1FF for x in a],
        [single(x) for x in a],
        [a[1], a[2], a[0], a[3]],
        [a[2], a[0], a[1], a[3]],
        a[::-1],
        [a[k]] * 4,
    ]
    c = [(((((x & y) | z) ^ x) << 1) & m) >> 2 for x, y, z in zip(a, b, (1, 2, 4, 8))]
    rows.append([signed(x) for x in c])
    tail = (
        a[0] | a[1] | a[2] | a[3],
        sum(1 << j for j in range(4) if a[j] & b[j] == 0),
        sum(1 << j for j in range(4) if a[j] != b[j]),
    )
    return [[signed(x) for x in row] for row in rows], tail


@settings(max_examples=200, deadline=None)
@given(FOUR, FOUR, st.integers(0, 3), st.integers(0, 40))
def test_compiled_lanes_match_plain_python(a, b, k, shift):
    words = np.array(a + b, dtype=np.int64)
    out = np.zeros((16, 4), dtype=np.int64)
    tail = _compiled(words, k, shift, out)
    rows, expected_tail = _expected(a, b, k, shift)
    assert out.tolist() == rows
    assert tuple(tail) == expected_tail


@settings(max_examples=100, deadline=None)
@given(FOUR, FOUR, st.integers(0, 3))
def test_plain_forms_match_the_compiled_ones(a, b, k):
    words = np.array(a + b, dtype=np.int64)
    out = np.zeros((16, 4), dtype=np.int64)
    tail = _compiled(words, k, 5, out)
    x = lanes.load4_plain(words, 0)
    y = lanes.load4_plain(words, 4)
    assert lanes.single16_plain(x).tolist() == out[10].tolist()
    assert lanes.rot1_plain(x).tolist() == out[11].tolist()
    assert lanes.rot2_plain(x).tolist() == out[12].tolist()
    assert lanes.make4_plain(*x[::-1]).tolist() == out[13].tolist()
    assert lanes.splat4_plain(lanes.lane_plain(x, k)).tolist() == out[14].tolist()
    assert (lanes.any4_plain(x), lanes.zero_lanes_plain(x & y), lanes.diff_lanes_plain(x, y)) == tuple(tail)


@njit(cache=False)
def _stored(words, i, out):
    store4(out, i, load4(words, 0) ^ load4(words, 4))


@settings(max_examples=100, deadline=None)
@given(FOUR, FOUR, st.integers(0, 4))
def test_store4_writes_the_four_lanes_and_nothing_else(a, b, i):
    words = np.array(a + b, dtype=np.int64)
    out = np.full(8, 7, dtype=np.int64)
    _stored(words, i, out)
    expected = [7] * 8
    expected[i : i + 4] = [x ^ y for x, y in zip(a, b)]
    assert out.tolist() == expected
    plain = np.full(8, 7, dtype=np.int64)
    lanes.store4_plain(plain, i, lanes.load4_plain(words, 0) ^ lanes.load4_plain(words, 4))
    assert plain.tolist() == expected


@njit(cache=False)
def _byte_masks(values, i, limit):
    return byte_masks(values, i, limit)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 12), st.integers(0, 255)), min_size=81, max_size=81), st.integers(0, 49))
def test_byte_masks_mark_the_nonzero_bytes_and_those_over_the_limit(values, i):
    arr = np.array(values, dtype=np.uint8)
    expected = (
        sum(1 << k for k in range(32) if values[i + k] != 0),
        sum(1 << k for k in range(32) if values[i + k] > 9),
    )
    assert _byte_masks(arr, i, 9) == expected
    assert lanes.byte_masks_plain(arr, i, 9) == expected
