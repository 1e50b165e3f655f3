"""``time.perf_counter()`` read from compiled code, so a search can keep to its deadline.

Where Python's ``perf_counter`` is ``clock_gettime(CLOCK_MONOTONIC)`` (Linux, and most
64-bit Unix systems), the compiled code calls ``clock_gettime`` itself: a direct call
that numba caches with the rest of the kernel.  Elsewhere it falls back to numba's
object mode, which works everywhere but is compiled again in every process (about
0.15 s of a search's start-up).
"""
from __future__ import annotations

import sys
import time

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, objmode, types
from numba.core import cgutils
from numba.extending import intrinsic

#: Whether ``perf_counter`` is the monotonic clock that compiled code can read directly
#: (a 64-bit ``struct timespec``: two 64-bit words).
DIRECT = (getattr(time, "CLOCK_MONOTONIC", None) is not None and sys.maxsize > 2 ** 32
          and time.get_clock_info("perf_counter").implementation == "clock_gettime(CLOCK_MONOTONIC)")


@intrinsic
def _monotonic_ns(typingctx):
    """``clock_gettime(CLOCK_MONOTONIC)`` in nanoseconds, as a call to the C library."""
    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        timespec = ir.LiteralStructType([word, word])
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        slot = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [ir.Constant(ir.IntType(32), time.CLOCK_MONOTONIC), slot])
        seconds = builder.load(cgutils.gep_inbounds(builder, slot, 0, 0))
        nanoseconds = builder.load(cgutils.gep_inbounds(builder, slot, 0, 1))
        return builder.add(builder.mul(seconds, ir.Constant(word, 1_000_000_000)), nanoseconds)
    return types.int64(), codegen


if DIRECT:
    @njit(cache=True)
    def now():
        """``time.perf_counter()``, read directly."""
        return _monotonic_ns() * 1e-9
else:  # pragma: no cover - other platforms
    @njit(cache=True)
    def now():
        """``time.perf_counter()``, through object mode."""
        with objmode(x="float64"):
            x = time.perf_counter()
        return x
