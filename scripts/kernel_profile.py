#!/usr/bin/env python3
"""Run the kernel's alpha-beta on a game's bench position under ``perf``, with names.

numba's compiled code has no symbols ``perf`` can see; this script tells it where each
compiled function of the search lies (a ``/tmp/perf-PID.map``, read by ``perf report``)
from the object code in the kernel's cache.  Compile first (any search does), then:

    perf record -F 1999 -o chess.data python scripts/kernel_profile.py chess --seconds 6
    perf report -i chess.data --no-children --sort symbol

Functions LLVM inlined are counted in their caller.  A build with numba's own profiling
switch (``NUMBA_ENABLE_PROFILING``) compiles with debug information and much less
inlining, so its profile does not show where the optimised search spends its time.
Reads numba internals: a developer's tool, not API.
"""
from __future__ import annotations

import argparse
import os
import pickle
import re
import sys
import time
from pathlib import Path
from typing import Any

from myriad.bench_kernel import search_position
from myriad.cli import load_game
from myriad.core.errors import MyriadError
from myriad.kernel import search
from myriad.kernel.cache import cache_dir
from myriad.kernel.cache_load import elf_symbols
from myriad.kernel.registry import kernel_for

ENTRY = "_ZN6myriad6kernel6search6search"


def object_codes(found: Any) -> list[bytes]:
    """The ELF objects among a cache entry's unpickled parts."""
    if isinstance(found, (bytes, bytearray)):
        return [bytes(found)] if bytes(found[:4]) == b"\x7fELF" else []
    if isinstance(found, (tuple, list)):
        return [code for part in found for code in object_codes(part)]
    if isinstance(found, dict):
        return [code for part in found.values() for code in object_codes(part)]
    return []


def functions(code: bytes) -> list[tuple[int, int, str]]:
    """(offset, size, name) of each function of an object file."""
    return [(symbol.value, symbol.size, symbol.name) for symbol in elf_symbols(code) if symbol.kind == "FUNC"]


def dotted(name: str) -> str:
    """``_ZN6myriad6kernel6search4nodeB4v392...`` as ``myriad.kernel.search.node`` (the
    length-prefixed parts of an Itanium-mangled name; other names as they are)."""
    if not name.startswith("_ZN"):
        return name
    parts, rest = [], name[3:]
    while (found := re.match(r"(\d+)", rest)):
        size = int(found.group(1))
        start = len(found.group(1))
        parts.append(rest[start:start + size])
        rest = rest[start + size:]
    return ".".join(parts) or name


def write_map(engine: Any) -> int:
    """Write ``/tmp/perf-PID.map`` for the loaded search (its own object: the functions it
    calls are linked in); the number of functions named."""
    lines = []
    for path in sorted(Path(cache_dir()).glob("*/search.search-*.nbc")):
        for code in object_codes(pickle.loads(path.read_bytes())):
            rows = functions(code)
            entry = next((name for offset, _size, name in rows if offset == 0 and name.startswith(ENTRY)), None)
            base = engine.get_function_address(entry) if entry else 0
            if not base:
                continue  # another overload than the one loaded
            for offset, size, name in rows:
                lines.append(f"{base + offset:x} {size:x} {dotted(name)}")
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    return len(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game the kernel runs, e.g. chess")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long the search runs")
    args = parser.parse_args(argv)
    try:
        game = load_game(args.game)
    except MyriadError as error:
        print(f"kernel_profile: {error}", file=sys.stderr)
        return 2
    kernel = kernel_for(game)
    if kernel is None:
        print(f"{args.game} does not run on the kernel", file=sys.stderr)
        return 2
    state = search_position(game)
    search.best_move(kernel, state, depth=1)  # compile or load
    library = getattr(next(iter(search.search.overloads.values())), "library")
    named = write_map(library.codegen._engine)
    begin = time.perf_counter()
    found = search.best_move(kernel, state, seconds=args.seconds)
    took = time.perf_counter() - begin
    print(f"{args.game}: depth {found.depth}, {found.nodes / took:,.0f} nodes/s; {named} functions named")
    return 0


if __name__ == "__main__":
    sys.exit(main())
