"""Build: compile the search's inner loop with mypyc (the modules below, unchanged Python
with type hints) into C extensions, about 1.5x faster searches in gomoku.  Everything else
is in ``pyproject.toml``.  Without a C compiler, or with ``MYRIAD_PURE=1``, the same modules
run as plain Python."""
import os
import sys

from setuptools import Extension, setup

#: The modules a search spends its time in: alpha-beta itself, the states it makes, the in-a-row games'
#: window scans and line tallies, and the caches they keep.
COMPILED = [
    "src/myriad/ai/alphabeta.py",
    "src/myriad/core/caches.py",
    "src/myriad/core/mechanics/line_tally.py",
    "src/myriad/core/mechanics/placement.py",
    "src/myriad/core/state.py",
    "src/myriad/games/inarow.py",
]


def extensions() -> list[Extension]:
    """The compiled modules, or none when mypyc cannot build them (or is told not to)."""
    if os.environ.get("MYRIAD_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as error:
        print(f"myriad: mypyc is missing ({error}): the modules stay plain Python", file=sys.stderr)
        return []
    try:
        modules = mypycify(COMPILED, opt_level="3")
    except (Exception, SystemExit) as error:  # mypyc exits when its type check fails
        print(f"myriad: mypyc failed ({error}): the modules stay plain Python", file=sys.stderr)
        return []
    for module in modules:
        module.optional = True  # a failed compile leaves plain Python, not a failed install
    return modules


setup(ext_modules=extensions())
