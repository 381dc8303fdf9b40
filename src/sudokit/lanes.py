"""Four int64 lanes in one LLVM vector (``<4 x i64>``: one AVX2 register) for the numba kernels.

numba keeps a value of the type :data:`lanes4` in a vector register and lowers each operation to one vector
instruction (on AVX2 a ``vpand``, ``vpor``, ``vpsllq``... acts on all four lanes at once), which numba's own
optimiser does not do for a short loop over four words (it unrolls it and stays scalar). :mod:`sudokit.engine.kernel9`
keeps a digit's three band words and a fourth word that stays 0 side by side, so one ``lanes4`` holds a digit in
all three bands.

- :func:`load4` reads words ``i .. i+3`` of an int64 array and :func:`store4` writes them, :func:`make4` builds
  lanes from four integers, :func:`splat4` repeats one; :func:`lane` reads one lane back.
- ``&``, ``|``, ``^``, ``~``, ``+``, ``-`` act lane by lane (an integer operand stands for four equal lanes),
  ``<<`` and ``>>`` shift each lane by the same count (``>>`` is a logical shift: the kernels shift only
  non-negative words right).
- :func:`any4` is the OR of the lanes (non-zero when any lane is); :func:`zero_lanes` and :func:`diff_lanes`
  give the lanes that are 0, or that differ, as a 4-bit mask.
- :func:`single16` looks at each lane as four 16-bit fields and keeps a field where it has exactly one set
  bit (``x & (x - 1) == 0``): spread a band's three 9-bit rows into three fields and one call finds the rows
  with one place left.
- :func:`rot1` / :func:`rot2` rotate lanes 0..2 (lane ``b`` gets lane ``b + 1`` or ``b + 2``, mod 3; lane 3
  stays): one band sees the other two.
- :func:`byte_masks` compares 32 bytes of a uint8 array at once (one AVX2 compare): the puzzle's givens as a
  bit mask per band.

Under ``NUMBA_DISABLE_JIT=1`` (the kernels run as Python) each name is a plain function on a numpy array of
four int64 words, with the same results.

numba's on-disk cache does not notice an edit to a helper a kernel imports: after changing this module, delete
the stale caches (``find src -name '*.nb[ic]' -delete``), as for :mod:`sudokit.bits`.
"""

from __future__ import annotations

import operator

import numpy as np
from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.core.imputils import lower_builtin
from numba.core.typing.templates import AbstractTemplate, infer_global, signature
from numba.extending import intrinsic, models, register_model

_V = ir.VectorType(ir.IntType(64), 4)
_V16 = ir.VectorType(ir.IntType(16), 16)
_INDEX4 = ir.VectorType(ir.IntType(32), 4)


class Lanes4(types.Type):
    """The numba type of four int64 lanes held as one LLVM vector."""

    def __init__(self) -> None:
        super().__init__(name="Lanes4")


lanes4 = Lanes4()


@register_model(Lanes4)
class _Lanes4Model(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, _V)


def _address(context, builder, arrty, arr, index, vtype=_V):
    """A pointer to ``vtype`` (by default :data:`lanes4`'s) at element ``index`` of the array."""
    data = context.make_array(arrty)(context, builder, arr).data
    return builder.bitcast(builder.gep(data, [index]), vtype.as_pointer())


def _splat(builder, value, vtype=_V):
    """``value`` in every lane of an LLVM vector of ``vtype`` (by default :data:`lanes4`'s)."""
    v = builder.insert_element(ir.Constant(vtype, ir.Undefined), value, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(v, v, ir.Constant(ir.VectorType(ir.IntType(32), vtype.count), [0] * vtype.count))


def _mask4(builder, bits):
    """A <4 x i1> comparison as a 4-bit mask in an int64."""
    return builder.zext(builder.bitcast(bits, ir.IntType(4)), ir.IntType(64))


@intrinsic
def load4(typingctx, arr, i):
    """Words ``i .. i+3`` of a C-contiguous int64 array (no bounds check: the caller keeps ``i + 3`` inside)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and isinstance(i, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        return builder.load(_address(context, builder, signature.args[0], args[0], index), align=8)

    return lanes4(arr, i), codegen


@intrinsic
def store4(typingctx, arr, i, v):
    """Write lanes ``v`` to words ``i .. i+3`` of a C-contiguous int64 array (no bounds check). A later
    :func:`load4` of the same four words takes them straight from the store (a load that spans several
    one-word stores waits until they have reached the cache)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and isinstance(i, types.Integer) and v is lanes4):
        return None

    def codegen(context, builder, signature, args):
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        builder.store(args[2], _address(context, builder, signature.args[0], args[0], index), align=8)
        return context.get_dummy_value()

    return types.none(arr, i, v), codegen


@intrinsic
def byte_masks(typingctx, arr, i, limit):
    """Bytes ``i .. i+31`` of a C-contiguous uint8 array as two 32-bit masks (bit ``k``: byte ``i + k``): the
    bytes that are not 0, and those over ``limit`` (0..255). No bounds check: the caller keeps ``i + 31``
    inside. One vector compare each instead of a test per byte."""
    if not (
        isinstance(arr, types.Array)
        and arr.dtype == types.uint8
        and arr.layout == "C"
        and isinstance(i, types.Integer)
        and isinstance(limit, types.Integer)
    ):
        return None

    def codegen(context, builder, signature, args):
        v32 = ir.VectorType(ir.IntType(8), 32)
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        x = builder.load(_address(context, builder, signature.args[0], args[0], index, v32), align=1)
        top = builder.trunc(context.cast(builder, args[2], signature.args[2], types.int64), ir.IntType(8))
        over = builder.icmp_unsigned(">", x, _splat(builder, top, v32))
        nonzero = builder.icmp_unsigned("!=", x, ir.Constant(v32, [0] * 32))
        i64 = ir.IntType(64)
        masks = (builder.zext(builder.bitcast(m, ir.IntType(32)), i64) for m in (nonzero, over))
        return context.make_tuple(builder, signature.return_type, list(masks))

    return types.UniTuple(types.int64, 2)(arr, i, limit), codegen


@intrinsic
def make4(typingctx, a, b, c, d):
    """Four lanes from four integers."""
    if not all(isinstance(x, types.Integer) for x in (a, b, c, d)):
        return None

    def codegen(context, builder, signature, args):
        v = ir.Constant(_V, ir.Undefined)
        for k in range(4):
            x = context.cast(builder, args[k], signature.args[k], types.int64)
            v = builder.insert_element(v, x, ir.Constant(ir.IntType(32), k))
        return v

    return lanes4(a, b, c, d), codegen


@intrinsic
def splat4(typingctx, x):
    """Four lanes equal to ``x``."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return _splat(builder, context.cast(builder, args[0], signature.args[0], types.int64))

    return lanes4(x), codegen


@intrinsic
def lane(typingctx, v, k):
    """Lane ``k`` (0..3) as an int64."""
    if v is not lanes4 or not isinstance(k, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.extract_element(args[0], args[1])

    return types.int64(v, k), codegen


@intrinsic
def any4(typingctx, v):
    """The OR of the four lanes."""
    if v is not lanes4:
        return None

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(64), [_V]), "llvm.vector.reduce.or.v4i64"
        )
        return builder.call(fn, [args[0]])

    return types.int64(v), codegen


@intrinsic
def zero_lanes(typingctx, v):
    """The lanes that are 0, as a mask (bit ``k``: lane ``k``)."""
    if v is not lanes4:
        return None

    def codegen(context, builder, signature, args):
        return _mask4(builder, builder.icmp_unsigned("==", args[0], ir.Constant(_V, [0] * 4)))

    return types.int64(v), codegen


@intrinsic
def diff_lanes(typingctx, a, b):
    """The lanes where ``a`` and ``b`` differ, as a mask (bit ``k``: lane ``k``)."""
    if a is not lanes4 or b is not lanes4:
        return None

    def codegen(context, builder, signature, args):
        return _mask4(builder, builder.icmp_unsigned("!=", args[0], args[1]))

    return types.int64(a, b), codegen


@intrinsic
def single16(typingctx, v):
    """Each 16-bit field of each lane kept where it has exactly one set bit, else 0."""
    if v is not lanes4:
        return None

    def codegen(context, builder, signature, args):
        x = builder.bitcast(args[0], _V16)
        rest = builder.and_(x, builder.add(x, ir.Constant(_V16, [0xFFFF] * 16)))  # x & (x - 1)
        alone = builder.sext(builder.icmp_unsigned("==", rest, ir.Constant(_V16, [0] * 16)), _V16)
        return builder.bitcast(builder.and_(x, alone), _V)

    return lanes4(v), codegen


def _permutation(order: tuple[int, int, int, int]):
    @intrinsic
    def permute(typingctx, v):
        if v is not lanes4:
            return None

        def codegen(context, builder, signature, args):
            return builder.shuffle_vector(args[0], args[0], ir.Constant(_INDEX4, list(order)))

        return lanes4(v), codegen

    return permute


rot1 = _permutation((1, 2, 0, 3))
rot1.__doc__ = "Lanes 0..2 rotated: lane ``b`` gets lane ``(b + 1) % 3``; lane 3 stays."
rot2 = _permutation((2, 0, 1, 3))
rot2.__doc__ = "Lanes 0..2 rotated: lane ``b`` gets lane ``(b + 2) % 3``; lane 3 stays."


def _operand(context, builder, value, typ):
    """An operand as lanes: an integer is broadcast (cast to int64 first)."""
    if typ is lanes4:
        return value
    return _splat(builder, context.cast(builder, value, typ, types.int64))


def _register_binary(ops, method: str, shift: bool = False) -> None:
    """Typing and lowering of ``lanes4 OP lanes4``, ``lanes4 OP int`` and ``int OP lanes4`` (for a shift only
    ``lanes4 OP int``: every lane by the same count): one LLVM vector instruction each."""
    for op in ops:

        @infer_global(op)
        class _Typing(AbstractTemplate):
            def generic(self, args, kws):
                if len(args) != 2 or kws:
                    return None
                a, b = args
                if a is lanes4 and isinstance(b, types.Integer):
                    return signature(lanes4, a, b)
                if not shift and lanes4 in (a, b) and all(x is lanes4 or isinstance(x, types.Integer) for x in args):
                    return signature(lanes4, a, b)
                return None

        def lower(context, builder, sig, args):
            x = _operand(context, builder, args[0], sig.args[0])
            y = _operand(context, builder, args[1], sig.args[1])
            return getattr(builder, method)(x, y)

        lower_builtin(op, Lanes4, types.Integer)(lower)
        if not shift:
            lower_builtin(op, Lanes4, Lanes4)(lower)
            lower_builtin(op, types.Integer, Lanes4)(lower)


_register_binary((operator.and_, operator.iand), "and_")
_register_binary((operator.or_, operator.ior), "or_")
_register_binary((operator.xor, operator.ixor), "xor")
_register_binary((operator.add, operator.iadd), "add")
_register_binary((operator.sub, operator.isub), "sub")
_register_binary((operator.lshift, operator.ilshift), "shl", shift=True)
_register_binary((operator.rshift, operator.irshift), "lshr", shift=True)


@infer_global(operator.invert)
class _InvertTyping(AbstractTemplate):
    def generic(self, args, kws):
        if len(args) == 1 and not kws and args[0] is lanes4:
            return signature(lanes4, lanes4)
        return None


@lower_builtin(operator.invert, Lanes4)
def _lower_invert(context, builder, sig, args):
    return builder.not_(args[0])


# Plain forms: numpy arrays of four int64 words, for NUMBA_DISABLE_JIT=1.


def load4_plain(arr, i):
    return np.array(arr[i : i + 4], dtype=np.int64)


def store4_plain(arr, i, v):
    arr[i : i + 4] = v


def byte_masks_plain(arr, i, limit):
    x = np.asarray(arr[i : i + 32], dtype=np.int64)
    bits = 1 << np.arange(len(x), dtype=np.int64)
    return int(bits[x != 0].sum()), int(bits[x > limit].sum())


def make4_plain(a, b, c, d):
    return np.array([a, b, c, d], dtype=np.int64)


def splat4_plain(x):
    return np.full(4, x, dtype=np.int64)


def lane_plain(v, k):
    return int(v[k])


def any4_plain(v):
    return int(v[0] | v[1] | v[2] | v[3])


def zero_lanes_plain(v):
    return sum(1 << k for k in range(4) if v[k] == 0)


def diff_lanes_plain(a, b):
    return sum(1 << k for k in range(4) if a[k] != b[k])


def single16_plain(v):
    x = np.ascontiguousarray(v, dtype=np.int64).view(np.uint16)
    alone = (x & (x - np.uint16(1))) == 0
    return np.where(alone, x, np.uint16(0)).view(np.int64)


def rot1_plain(v):
    return v[[1, 2, 0, 3]]


def rot2_plain(v):
    return v[[2, 0, 1, 3]]


if config.DISABLE_JIT:  # the kernels run as Python, where no intrinsic can be called
    load4, store4, make4, splat4 = load4_plain, store4_plain, make4_plain, splat4_plain  # type: ignore[assignment]
    lane, any4, byte_masks = lane_plain, any4_plain, byte_masks_plain  # type: ignore[assignment]
    zero_lanes, diff_lanes, single16 = zero_lanes_plain, diff_lanes_plain, single16_plain  # type: ignore[assignment]
    rot1, rot2 = rot1_plain, rot2_plain  # type: ignore[assignment]
