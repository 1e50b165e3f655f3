"""Machine instructions compiled code needs and numba does not offer as functions: on a
bit set in one 64-bit word, the count of set bits and the index of the lowest and of the
highest one (LLVM's ``ctpop``, ``cttz`` and ``ctlz``); and a prefetch of a table row, so
that a load known to miss the caches starts early."""
from __future__ import annotations

from typing import Any

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx: Any, bits: Any) -> Any:
    """The number of set bits of the ``uint64`` ``bits``, as an ``int64``."""
    if bits != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])
    return types.int64(types.uint64), codegen


@intrinsic
def lowest(typingctx: Any, bits: Any) -> Any:
    """The index of the lowest set bit of the nonzero ``uint64`` ``bits``, as an
    ``int64`` (64 for zero)."""
    if bits != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.uint64), codegen


@intrinsic
def highest(typingctx: Any, bits: Any) -> Any:
    """The index of the highest set bit of the nonzero ``uint64`` ``bits``, as an
    ``int64`` (-1 for zero)."""
    if bits != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)
    return types.int64(types.uint64), codegen


@intrinsic
def prefetch(typingctx: Any, table: Any, row: Any) -> Any:
    """Start loading row ``row`` (in range) of the C-contiguous 2-D ``table`` into the caches,
    without waiting for it (a hint: nothing else changes)."""
    if not (isinstance(table, types.Array) and table.ndim == 2 and table.layout == "C"
            and isinstance(row, types.Integer)):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ty = signature.args[0]
        array = context.make_array(ty)(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        zero = context.get_constant(types.intp, 0)
        item = cgutils.get_item_pointer(context, builder, ty, array, [index, zero], wraparound=False)
        byte = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        hint = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [byte, word, word, word]),
                                              "llvm.prefetch.p0")
        # read (0), keep in every cache level (3), data (1)
        builder.call(hint, [builder.bitcast(item, byte), word(0), word(3), word(1)])
        return context.get_dummy_value()
    return types.none(table, row), codegen
