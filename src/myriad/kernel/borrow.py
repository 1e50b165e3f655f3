"""Arrays handed to compiled functions without reference counts.

Every compiled call that receives an array, or a tuple of arrays such as the
:class:`~myriad.kernel.layout.Tables`, increments and decrements each array's reference
count (an atomic operation each).  An entry point that holds its arrays for its whole
call can pass them on *borrowed* instead: the same data, without those counts.
"""
from __future__ import annotations

from typing import Any

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _unowned_array(context: Any, builder: Any, ty: Any, value: Any) -> Any:
    ary = context.make_array(ty)(context, builder, value=value)
    ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
    ary.parent = cgutils.get_null_value(ary.parent.type)
    return ary._getvalue()


@intrinsic
def borrowed(typingctx: Any, x: Any) -> Any:
    """``x`` (an array, or a tuple such as :class:`Tables` or :class:`Work`) with its arrays'
    reference counts left out: the same data, but passing it to a compiled function no
    longer increments and decrements a count per array (an atomic operation each: a call
    that passes the tables and the work arrays paid some 30 of them).  Only for arrays
    that outlive every use of the result (a search's arguments, held by its caller) and
    never returned to Python."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ty, value = signature.args[0], args[0]
        if isinstance(ty, types.Array):
            return _unowned_array(context, builder, ty, value)
        for i, member in enumerate(ty):
            if isinstance(member, types.Array):
                item = _unowned_array(context, builder, member, builder.extract_value(value, i))
                value = builder.insert_value(value, item, i)
        return value
    return x(x), codegen
