"""A warning when a compiled module is older than its source.  The search's inner loop is
compiled into C extensions when the package is installed (mypyc, see ``setup.py``), and
Python imports an extension before the source beside it: an edit to the source would
silently not run until the package is installed again."""
from __future__ import annotations

import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

PACKAGE = Path(__file__).parent


def stale_extensions() -> list[Path]:
    """The extension modules older than the source file beside them, in a source checkout
    (an installed wheel's files carry the times they were unpacked at)."""
    if not (PACKAGE.parent.parent / "pyproject.toml").exists():
        return []
    stale = []
    for suffix in EXTENSION_SUFFIXES:
        for extension in PACKAGE.rglob(f"*{suffix}"):
            source = extension.with_name(extension.name.removesuffix(suffix) + ".py")
            if source.exists() and source.stat().st_mtime > extension.stat().st_mtime:
                stale.append(extension)
    return stale


def warn_if_stale() -> None:
    """Warn once per stale extension module, saying how to rebuild it."""
    for extension in stale_extensions():
        warnings.warn(f"{extension} is older than its source, which does not run: "
                      "run `pip install -e .` again (or delete the file)", stacklevel=2)
