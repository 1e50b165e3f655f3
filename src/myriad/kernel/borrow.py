"""How an entry point hands its arrays to the compiled calls below it cheaply.

Every compiled call that receives an array, or a tuple of arrays such as the
:class:`~myriad.kernel.layout.Tables`, increments and decrements each array's reference
count (an atomic operation each).  An entry point that holds its arrays for its whole
call can pass them on *borrowed* instead: the same data, without those counts.

A tuple of arrays is also passed by value: numba flattens it into its arrays' fields
(pointer, sizes, strides: 7 to 9 words an array), so a call taking the tables and a
search's work arrays took some 270 arguments.  :func:`by_ref` gives the callees a pointer
to the tuple instead, which reads like the tuple (``t.params``) and costs one argument.
An entry point does both with :func:`lent`.
"""
from __future__ import annotations

import hashlib
from typing import Any

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.core.typing.templates import AttributeTemplate
from numba.extending import (infer_getattr, intrinsic, lower_getattr_generic, models,
                             register_model)


def _unowned_array(context: Any, builder: Any, ty: Any, value: Any) -> Any:
    ary = context.make_array(ty)(context, builder, value=value)
    ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
    ary.parent = cgutils.get_null_value(ary.parent.type)
    return ary._getvalue()


def _unowned(context: Any, builder: Any, ty: Any, value: Any) -> Any:
    """An array, or each array of a tuple, without its reference count."""
    if isinstance(ty, types.Array):
        return _unowned_array(context, builder, ty, value)
    for i, member in enumerate(ty):
        if isinstance(member, types.Array):
            item = _unowned_array(context, builder, member, builder.extract_value(value, i))
            value = builder.insert_value(value, item, i)
    return value


@intrinsic
def borrowed(typingctx: Any, x: Any) -> Any:
    """``x`` (an array, or a tuple such as :class:`Tables` or :class:`Work`) with its arrays'
    reference counts left out: the same data, but passing it to a compiled function no
    longer increments and decrements a count per array (an atomic operation each: a call
    that passes the tables and the work arrays paid some 30 of them).  Only for arrays
    that outlive every use of the result (a search's arguments, held by its caller) and
    never returned to Python."""
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _unowned(context, builder, signature.args[0], args[0])
    return x(x), codegen


class Ref(types.Type):
    """A pointer to a named tuple held by the caller's frame (made by :func:`by_ref`):
    its fields read as the tuple's."""

    def __init__(self, target: Any) -> None:
        self.target = target
        digest = hashlib.sha1(str(target).encode()).hexdigest()[:12]
        super().__init__(name=f"Ref[{getattr(target, 'instance_class', type(target)).__name__}:{digest}]")

    @property
    def key(self) -> Any:
        return self.target


@register_model(Ref)
class _RefModel(models.PrimitiveModel):
    def __init__(self, dmm: Any, fe_type: Ref) -> None:
        super().__init__(dmm, fe_type, dmm.lookup(fe_type.target).get_value_type().as_pointer())


@infer_getattr
class _RefFields(AttributeTemplate):
    key = Ref

    def generic_resolve(self, ty: Ref, attr: str) -> Any:  # type: ignore[override]  # numba: NotImplemented
        fields = ty.target.fields
        return ty.target.types[fields.index(attr)] if attr in fields else None


@lower_getattr_generic(Ref)
def _ref_field(context: Any, builder: Any, ty: Ref, value: Any, attr: str) -> Any:
    index = ty.target.fields.index(attr)
    item = builder.load(cgutils.gep_inbounds(builder, value, 0, index))
    return impl_ret_borrowed(context, builder, ty.target.types[index], item)


@intrinsic
def by_ref(typingctx: Any, x: Any) -> Any:
    """A :class:`Ref` to the named tuple ``x`` (the tables, a search's work arrays), kept
    in this function's frame: pass it to the calls below instead of ``x``, never return
    it or keep it past this call."""
    if not isinstance(x, (types.NamedTuple, types.NamedUniTuple)):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        slot = cgutils.alloca_once(builder, args[0].type)
        builder.store(args[0], slot)
        return slot
    return Ref(x)(x), codegen


@intrinsic
def lent(typingctx: Any, x: Any) -> Any:
    """``by_ref(borrowed(x))``: what an entry point hands the calls below it of the named
    tuple it holds for its whole call (the tables, a search's work arrays)."""
    if not isinstance(x, (types.NamedTuple, types.NamedUniTuple)):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        value = _unowned(context, builder, signature.args[0], args[0])
        slot = cgutils.alloca_once(builder, value.type)
        builder.store(value, slot)
        return slot
    return Ref(x)(x), codegen
