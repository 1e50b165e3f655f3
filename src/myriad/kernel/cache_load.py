"""Loading the kernel's cached code without the work a cache hit does not need.

numba (0.68, where this was written and checked) does two things on every cache hit that only a later compilation
uses, and they are most of a kernel process's own start-up:

- it loads its typing and lowering registries (``target_context.refresh()``: imports of
  most of ``numba.np`` and ``numba.cpython``, about 0.14 s), which only type inference and
  lowering read.  Of that work, running cached code needs one thing, the runtime
  (``rtsys.initialize``), which :func:`install` does at once;
- it parses each cached function's LLVM bitcode (about 0.11 s for the search alone),
  kept only so that a function compiled later in the process can link it in.  Here the
  bitcode is kept as bytes and parsed when something links it
  (``_get_module_for_linking``); the names the code defines, which numba's engine must
  know to hand out addresses, are read from the object code's ELF symbol table instead.

Either way SciPy's BLAS is kept out of sight while cached code loads: numba looks for it
once (when ``numba.np.arraymath`` is imported, which unpickling the search's environment
does) only to choose how ``np.correlate`` multiplies, which the kernel never calls, and
importing ``scipy.linalg`` would cost about 0.12-0.2 s wherever SciPy is installed.

A compilation still loads the registries first (numba's compiler refreshes both contexts
when it starts), so a process that compiles behaves as before.  Where numba's internals
are not the expected ones, or the object code is not 64-bit little-endian ELF, numba's
own loader runs unchanged: :func:`install` returns False.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
import struct
import sys
from typing import Any, NamedTuple

#: The internals of numba this module relies on: (module, class, attribute).
NEEDED = (
    ("numba.core.caching", "Cache", "_load_overload"),
    ("numba.core.caching", "Cache", "_guard_against_spurious_io_errors"),
    ("numba.core.codegen", "CPUCodeLibrary", "_unserialize"),
    ("numba.core.codegen", "CPUCodeLibrary", "_get_module_for_linking"),
    ("numba.core.codegen", "CPUCodeLibrary", "_set_compiled_object"),
    ("numba.core.codegen", "CPUCodeLibrary", "enable_object_caching"),
    ("numba.core.codegen", "CPUCodeLibrary", "_finalize_final_module"),
    ("numba.core.codegen", "JitEngine", "_load_defined_symbols"),
    ("numba.core.runtime", "rtsys", "initialize"),
)

_installed = False


class Symbol(NamedTuple):
    """A symbol an object file defines: its offset in its section, size, kind and name."""
    value: int
    size: int
    kind: str
    name: str


#: ELF symbol types worth naming (``STT_NOTYPE``, ``STT_OBJECT``, ``STT_FUNC``).
KINDS = {0: "NOTYPE", 1: "OBJECT", 2: "FUNC"}
SHT_SYMTAB = 2
SHN_UNDEF = 0


def is_elf64(code: bytes) -> bool:
    """Whether ``code`` is a 64-bit little-endian ELF object (what numba writes on Linux)."""
    return len(code) > 64 and code[:4] == b"\x7fELF" and code[4] == 2 and code[5] == 1


def elf_symbols(code: bytes) -> list[Symbol]:
    """The named symbols the ELF object ``code`` defines (functions, data, untyped; common
    and absolute ones too), from its symbol tables; ValueError if ``code`` is not a
    64-bit little-endian ELF object, or is damaged."""
    if not is_elf64(code):
        raise ValueError("not a 64-bit little-endian ELF object")
    try:
        table_at, = struct.unpack_from("<Q", code, 0x28)
        entry_size, count = struct.unpack_from("<HH", code, 0x3A)
        sections = [struct.unpack_from("<IIQQQQIIQQ", code, table_at + i * entry_size) for i in range(count)]
        found = []
        for _name, kind, _flags, _addr, offset, size, link, _info, _align, width in sections:
            if kind != SHT_SYMTAB or not width:
                continue
            strings = sections[link][4]
            for at in range(offset, offset + size - width + 1, width):
                name_at, info, _other, section, value, length = struct.unpack_from("<IBBHQQ", code, at)
                symbol_kind = KINDS.get(info & 0xF)
                if not name_at or symbol_kind is None or section == SHN_UNDEF:
                    continue
                start = strings + name_at
                name = code[start:code.index(b"\0", start)].decode()
                found.append(Symbol(value, length, symbol_kind, name))
        return found
    except (struct.error, IndexError, UnicodeDecodeError) as error:
        raise ValueError(f"a damaged ELF object ({error})") from error


@contextmanager
def hidden_blas() -> Iterator[None]:
    """Within: an import of SciPy's BLAS fails at once (unless a module imported it
    before, which keeps it)."""
    blas = "scipy.linalg.cython_blas"
    hide = blas not in sys.modules
    if hide:
        sys.modules[blas] = None  # type: ignore[assignment]  # an import of it fails at once
    try:
        yield
    finally:
        if hide and sys.modules.get(blas, 0) is None:
            del sys.modules[blas]


def supported() -> bool:
    """Whether numba has the internals :func:`install` replaces or calls."""
    import importlib
    for module, cls, attribute in NEEDED:
        try:
            if not hasattr(getattr(importlib.import_module(module), cls), attribute):
                return False
        except (ImportError, AttributeError):
            return False
    return True


def install() -> bool:
    """Make numba load cached code without its registries and with its bitcode parsed on
    demand, and start its runtime; whether the quick loader is in place (False: numba's
    own loader runs, as where its internals differ)."""
    global _installed
    if _installed:
        return True
    if not supported():
        return False
    from numba.core import caching, codegen
    from numba.core.registry import cpu_target
    from numba.core.runtime import rtsys
    import llvmlite.binding as llvm  # type: ignore[import-untyped]

    library_class: Any = codegen.CPUCodeLibrary
    numba_unserialize = library_class._unserialize.__func__
    numba_linking_module = library_class._get_module_for_linking

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        """numba's ``Cache.load_overload`` without its ``target_context.refresh()``."""
        with hidden_blas(), self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        return None  # the guard swallowed an I/O error: a miss, as in numba

    def unserialize(cls: Any, codegen_: Any, state: Any) -> Any:
        """numba's ``_unserialize`` of object code, its bitcode kept unparsed."""
        name, kind, data = state
        if kind != "object":
            return numba_unserialize(cls, codegen_, state)
        object_code, shared_bitcode = data
        try:
            names = {symbol.name for symbol in elf_symbols(object_code)}
        except ValueError:
            return numba_unserialize(cls, codegen_, state)
        library = codegen_.create_library(name)
        library.enable_object_caching()
        library._set_compiled_object(object_code)
        library._unparsed_bitcode = shared_bitcode
        library._finalize_final_module()
        codegen_._engine._defined_symbols |= names
        return library

    def linking_module(self: Any) -> Any:
        """numba's ``_get_module_for_linking``, parsing kept bitcode first."""
        bitcode = self.__dict__.pop("_unparsed_bitcode", None)
        if bitcode is not None:
            self._shared_module = llvm.parse_bitcode(bitcode)
        return numba_linking_module(self)

    setattr(caching.Cache, "load_overload", load_overload)
    setattr(library_class, "_unserialize", classmethod(unserialize))
    setattr(library_class, "_get_module_for_linking", linking_module)
    rtsys.initialize(cpu_target.target_context)
    _installed = True
    return True


def is_installed() -> bool:
    """Whether :func:`install` put the quick loader in place in this process."""
    return _installed
