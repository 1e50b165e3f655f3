"""Bit sets in one 64-bit word, for compiled code: the count of set bits and the index of
the lowest and of the highest one, each a single machine instruction (LLVM's ``ctpop``,
``cttz`` and ``ctlz``), which numba does not offer as functions."""
from __future__ import annotations

from typing import Any

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from llvmlite import ir
from numba import types
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
