"""Where numba keeps the compiled kernel, how it is loaded, and the notice printed while
it compiles.

The cache lives in the user's cache directory, in a folder named after a hash of the
kernel's sources: numba checks only the timestamp of a function's own file, so an edit to
a function it calls in another module would otherwise run stale code.  Set before numba
is first imported (``NUMBA_CACHE_DIR``), or after it, through ``numba.config``.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import platformdirs

KERNEL = Path(__file__).parent


@cache
def source_hash() -> str:
    """A short hash of every kernel source file, in a stable order (worked out once per
    process)."""
    digest = hashlib.sha256()
    for path in sorted(KERNEL.rglob("*.py")):
        digest.update(path.relative_to(KERNEL).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path:
    """The folder of compiled kernel code for these sources (``MYRIAD_KERNEL_CACHE``
    overrides the parent folder)."""
    parent = os.environ.get("MYRIAD_KERNEL_CACHE") or platformdirs.user_cache_dir("myriad")
    return Path(parent) / f"kernel-{source_hash()}"


#: Seconds after which the compiled cache of other sources (an older install, another
#: checkout) is deleted when nothing wrote to it: a week.
STALE_AFTER = 7 * 24 * 3600


def prune(current: Path) -> None:
    """Delete the caches of other kernel sources untouched for :data:`STALE_AFTER`
    seconds, so that edits and upgrades do not pile up compiled code (a cache still in use
    by another process is recent, and kept)."""
    try:
        now = time.time()
        for old in current.parent.glob("kernel-*"):
            if old != current and old.is_dir() and now - old.stat().st_mtime > STALE_AFTER:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:  # a cache that cannot be tidied is no reason to fail
        pass


def configure() -> None:
    """Point numba's cache at :func:`cache_dir` (called before any kernel function is
    defined), and tidy the caches of other sources."""
    current = cache_dir()
    prune(current)
    folder = str(current)
    os.environ["NUMBA_CACHE_DIR"] = folder
    if "numba" in sys.modules:
        import numba
        setattr(numba.config, "CACHE_DIR", folder)  # read when a cached function is defined


def is_cached(function: Any) -> bool:
    """Whether compiled code of the numba function ``function`` is in the cache (numba
    names its index ``<file>.<function>-<line>.py<version>.nbi``)."""
    py_func = function.py_func
    stem = Path(py_func.__code__.co_filename).stem
    folder = cache_dir()
    return folder.is_dir() and any(folder.rglob(f"{stem}.{py_func.__qualname__}-*.nbi"))


@contextmanager
def compiling(function: Any, what: str) -> Iterator[None]:
    """Around the first call of the numba function ``function`` in a process: when the
    cache holds none of its code, a line on the terminal (stderr) says that ``what`` is
    being compiled, and how long it took."""
    if function.signatures or is_cached(function):
        yield
        return
    print(f"myriad: compiling the kernel engine's {what} (once after an install)...",
          end="", file=sys.stderr, flush=True)
    start = time.perf_counter()
    try:
        yield
    finally:
        print(f" done in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)


def load_numba() -> None:
    """Import numba and make it ready to run cached kernel code: through the quick loader
    (:mod:`myriad.kernel.cache_load`: numba's registries are loaded by the first
    compilation, if any), or, where numba's internals do not allow it, by loading the
    registries now, SciPy's BLAS out of sight (:func:`cache_load.hidden_blas`)."""
    from myriad.kernel import cache_load
    if cache_load.install():
        return
    with cache_load.hidden_blas():
        from numba.core.registry import cpu_target
        cpu_target.target_context.refresh()


def tolerate_broken_entries() -> None:
    """Make an entry of numba's cache that cannot be read (a file cut short by a full disk
    or damaged) count as missing: a line on the terminal says so, its index is deleted,
    and numba compiles the function again and writes the entry anew, where it would
    otherwise raise in every process until the folder is deleted by hand."""
    from numba.core import caching
    load = caching.Cache.load_overload
    if getattr(load, "tolerant", False):
        return

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            return load(self, sig, target_context)
        except Exception as error:  # whatever unpickling or rebuilding the code raised
            index = Path(self._cache_file._index_path)
            print(f"myriad: {index.stem} in the kernel's cache could not be read "
                  f"({type(error).__name__}: {error}); compiling it again", file=sys.stderr, flush=True)
            try:
                index.unlink(missing_ok=True)  # the entry is written again from scratch
            except OSError:
                pass
            return None

    setattr(load_overload, "tolerant", True)
    setattr(caching.Cache, "load_overload", load_overload)


configure()
load_numba()
tolerate_broken_entries()
