"""Compiled bit helpers shared by the numba kernels of :mod:`sudokit.engine` and :mod:`sudokit.logic`.

Candidate masks are integers with bit ``d - 1`` for digit ``d``; cell and candidate sets too large for one
integer are rows of 64-bit words, lowest first. A helper is compiled into each kernel that calls it (the
three bit operations are LLVM intrinsics, written in place of the call).

- :func:`popcount` and :func:`lowest_bit` are the LLVM ``ctpop`` and ``cttz`` intrinsics (one instruction
  each on any 64-bit integer, signed or not), :func:`bit_length` the width less ``ctlz`` (the highest set
  bit's number plus one: a mask's largest digit); :func:`low_bit` keeps only the lowest set bit (``x & -x``, with
  the integer's own type, which plain numba code cannot write for ``uint64``). Iterating over the bits of
  ``x`` is ``while x: b = low_bit(x); x ^= b; ... lowest_bit(b) ...``.
- :func:`first_combo` / :func:`next_combo` walk the ``k``-combinations of ``m`` indices in lexicographic
  order (``itertools.combinations``), :func:`combo_union` ORs the masks a combination picks.
- :func:`unit_scan` is the hidden-single scan of one unit: the digits seen in one open cell or more, in two
  or more, and placed.
- :func:`member` tests membership in a row of a table padded with -1 (a unit's cells, a cell's units or
  peers); :func:`any_and` and :func:`is_empty` test rows of words.

numba's on-disk cache does not notice an edit to a helper a kernel imports: after changing this module,
delete the stale caches (``find src -name '*.nb[ic]' -delete``).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.extending import intrinsic


def _to_int64(builder, value, width: int):
    """An LLVM integer of ``width`` bits as an i64 (counts and indices are never negative)."""
    if width < 64:
        return builder.zext(value, ir.IntType(64))
    if width > 64:
        return builder.trunc(value, ir.IntType(64))
    return value


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an integer (``ctpop``), as an int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return _to_int64(builder, builder.ctpop(args[0]), x.bitwidth)

    return types.int64(x), codegen


@intrinsic
def lowest_bit(typingctx, x):
    """The number of the lowest set bit of a non-zero integer (``cttz``: one ``tzcnt``/``bsf``), as an
    int64; for a single bit ``1 << k`` that is ``k``. Undefined for 0."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return _to_int64(builder, builder.cttz(args[0], ir.Constant(ir.IntType(1), 1)), x.bitwidth)

    return types.int64(x), codegen


@intrinsic
def bit_length(typingctx, x):
    """The number of bits of a non-negative integer up to its highest set bit (``int.bit_length``: the
    width less ``ctlz``, one ``lzcnt``/``bsr``), as an int64; 0 for 0. For a candidate mask, its largest
    digit."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        width = ir.Constant(args[0].type, x.bitwidth)
        return _to_int64(builder, builder.sub(width, lz), x.bitwidth)

    return types.int64(x), codegen


@intrinsic
def low_bit(typingctx, x):
    """Only the lowest set bit of ``x`` (``x & -x``; 0 for 0), of ``x``'s own integer type."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.and_(args[0], builder.neg(args[0]))

    return x(x), codegen


def popcount_plain(x):
    """:func:`popcount` in plain Python (a 64-bit integer's bits, as the intrinsic counts them)."""
    return (int(x) & 0xFFFF_FFFF_FFFF_FFFF).bit_count()


def lowest_bit_plain(x):
    """:func:`lowest_bit` in plain Python."""
    v = int(x)
    return (v & -v).bit_length() - 1


def bit_length_plain(x):
    """:func:`bit_length` in plain Python."""
    return int(x).bit_length()


def low_bit_plain(x):
    """:func:`low_bit` in plain Python, of ``x``'s own type (the sign bit of a signed 64-bit ``x`` stays
    negative, as in compiled code)."""
    v = int(x)
    b = v & -v
    if b == 1 << 63 and type(x) is not int and getattr(x, "dtype", None) is not None and x.dtype.kind == "i":
        b = -b
    return type(x)(b)


#: The plain-Python form of each intrinsic, for running a kernel's Python body (``sudokit.jit.python_form``).
PLAIN_FORMS = {
    popcount: popcount_plain,
    lowest_bit: lowest_bit_plain,
    low_bit: low_bit_plain,
    bit_length: bit_length_plain,
}

if config.DISABLE_JIT:  # NUMBA_DISABLE_JIT=1 runs the kernels as Python, where no intrinsic can be called
    popcount, lowest_bit, low_bit = popcount_plain, lowest_bit_plain, low_bit_plain  # type: ignore[assignment]
    bit_length = bit_length_plain  # type: ignore[assignment]


@njit(cache=True, inline="always")
def bivalue_cells(cands):
    """The cells with exactly two candidates, in cell order, as (array, count): the first ``count`` entries."""
    n = cands.shape[0]
    cells = np.empty(n, dtype=np.int64)
    count = 0
    for s in range(n):
        if popcount(cands[s]) == 2:
            cells[count] = s
            count += 1
    return cells, count


@njit(cache=True, inline="always")
def unit_scan(cands, values, units, u, keeps_bit):
    """(digits that are candidates of at least one open cell of unit ``u``, of at least two, digits placed
    there) as masks: ``once & ~more & ~placed`` are the unit's hidden singles, and ``once | placed`` short of
    every digit means a digit has no place left. ``values[s]`` is a cell's digit (0 while open) and
    ``cands[s]`` its candidates; ``keeps_bit``: a placed cell's mask is its digit's bit (the engine's
    kernels), else it is 0 (the logic's state)."""
    once = 0
    more = 0
    placed = 0
    for k in range(units.shape[1]):
        s = units[u, k]
        m = cands[s]
        v = values[s]
        if v:
            placed |= m if keeps_bit else 1 << (v - 1)
        else:
            more |= once & m
            once |= m
    return once, more, placed


@njit(cache=True)
def member(row, x):
    """Whether ``x`` is in ``row``, a row of a table padded with -1 (units of a cell, peers, cells of a unit)."""
    for t in row:
        if t < 0:
            return False
        if t == x:
            return True
    return False


@njit(cache=True)
def any_and(a, b):
    """Whether the word rows ``a`` and ``b`` share a bit."""
    for w in range(a.shape[0]):  # noqa: SIM110 - a plain loop compiles in numba
        if a[w] & b[w]:
            return True
    return False


@njit(cache=True)
def is_empty(x):
    """Whether the word row ``x`` has no bit set."""
    for k in range(x.shape[0]):  # noqa: SIM110 - a plain loop compiles in numba
        if x[k]:
            return False
    return True


@njit(cache=True)
def first_combo(idx, k):
    """Set ``idx`` to the first combination of ``k`` indices: 0, 1, ..., k - 1."""
    for j in range(k):
        idx[j] = j


@njit(cache=True)
def next_combo(idx, k, m):
    """Advance ``idx`` (``k`` increasing indices below ``m``) to the next combination in lexicographic order;
    False after the last one."""
    i = k - 1
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@njit(cache=True)
def combo_union(masks, items, idx, k):
    """The masks of ``items[idx[0]], ..., items[idx[k - 1]]`` ORed together (e.g. the candidates of one
    combination's cells)."""
    union = 0
    for j in range(k):
        union |= masks[items[idx[j]]]
    return union
