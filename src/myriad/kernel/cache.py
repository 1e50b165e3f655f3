"""Where numba keeps the compiled kernel, and the notice printed while it compiles.

The cache lives in the user's cache directory, in a folder named after a hash of the
kernel's sources: numba checks only the timestamp of a function's own file, so an edit to
a function it calls in another module would otherwise run stale code.  Set before numba
is first imported (``NUMBA_CACHE_DIR``), or after it, through ``numba.config``.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import platformdirs

KERNEL = Path(__file__).parent


def source_hash() -> str:
    """A short hash of every kernel source file, in a stable order."""
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


def configure() -> None:
    """Point numba's cache at :func:`cache_dir` (called before any kernel function is
    defined)."""
    folder = str(cache_dir())
    os.environ["NUMBA_CACHE_DIR"] = folder
    if "numba" in sys.modules:
        import numba
        setattr(numba.config, "CACHE_DIR", folder)  # read when a cached function is defined


def is_warm() -> bool:
    """Whether compiled code for these sources is already cached."""
    folder = cache_dir()
    return folder.is_dir() and any(folder.rglob("*.nbc"))


_noticed = False


def compile_notice() -> None:
    """Say once on the terminal (stderr) that the kernel is being compiled, when the cache
    is cold: the first search after an install takes a while."""
    global _noticed
    if _noticed:
        return
    _noticed = True  # checked once per process: is_warm hashes every kernel source
    if not is_warm():
        print("myriad: compiling the kernel engine (first use only, about a minute)...",
              file=sys.stderr, flush=True)


configure()
