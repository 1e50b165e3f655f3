"""The quick loader of cached kernel code (``myriad.kernel.cache_load``): the names it reads
from object code are the names numba reads from the bitcode, cached code runs without
numba's registries, and a function compiled later still links the loaded code in."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import llvmlite.binding as llvm
import numba
import pytest
from myriad.kernel import cache_load

#: The numba version whose internals the quick loader was written against and checked on.
CHECKED = (0, 68)


def numba_version() -> tuple[int, int]:
    major, minor = numba.__version__.split(".")[:2]
    return int(major), int(minor)


SAMPLE = '''
from numba import njit


@njit(cache=True)
def tribonacci(n):
    a, b, c = 0, 0, 1
    for _ in range(n):
        a, b, c = b, c, a + b + c
    return a
'''

@pytest.fixture
def serialized(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes]:
    """The object code and linking bitcode numba caches for a sample function, compiled
    into a cache folder of the test's own."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))  # numba reads its configuration again when it compiles
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(cache))
    source = tmp_path / "quick_load_sample.py"
    source.write_text(SAMPLE)
    spec = importlib.util.spec_from_file_location("quick_load_sample", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.tribonacci(30) == 15902591
    library = next(iter(module.tribonacci.overloads.values())).library
    _name, kind, (object_code, bitcode) = library.serialize_using_object_code()
    assert kind == "object"
    return object_code, bitcode


@pytest.mark.skipif(sys.platform != "linux", reason="numba writes ELF object code on Linux")
def test_elf_symbols_are_the_names_numba_reads_from_bitcode(serialized: tuple[bytes, bytes]) -> None:
    object_code, bitcode = serialized
    module = llvm.parse_bitcode(bitcode)
    from_bitcode = {value.name for values in (module.functions, module.global_variables)
                    for value in values if not value.is_declaration}
    symbols = cache_load.elf_symbols(object_code)
    assert {symbol.name for symbol in symbols} == from_bitcode
    functions = [s for s in symbols if s.kind == "FUNC" and "tribonacci" in s.name]
    assert functions and all(s.size > 0 for s in functions)


@pytest.mark.parametrize("garbage", [b"", b"\x7fELF", b"not an object file at all" * 10])
def test_elf_symbols_refuse_what_is_not_an_elf_object(garbage: bytes) -> None:
    with pytest.raises(ValueError, match="ELF"):
        cache_load.elf_symbols(garbage)


@pytest.mark.skipif(sys.platform != "linux", reason="numba writes ELF object code on Linux")
def test_elf_symbols_refuse_an_object_cut_short(serialized: tuple[bytes, bytes]) -> None:
    object_code, _bitcode = serialized
    with pytest.raises(ValueError, match="damaged ELF"):
        cache_load.elf_symbols(object_code[: len(object_code) // 2])


#: A process that loads ``tribonacci`` from the cache, then compiles a function calling it
#: (numba links the loaded library into the new one); it prints what it saw.
LOADER = '''
import json, sys
from myriad.kernel import cache  # the quick loader, as every kernel process installs it
from myriad.kernel import cache_load
import numba
numba.config.CACHE_DIR = sys.argv[2]  # the sample's cache, not the kernel's
sys.path.insert(0, sys.argv[1])
import sample
from numba import njit
loaded = sample.tribonacci(30)
library = next(iter(sample.tribonacci.overloads.values())).library
facts = {"quick": cache_load.is_installed(), "loaded": loaded,
         "hits": sum(sample.tribonacci.stats.cache_hits.values()),
         "bitcode_unparsed": "_unparsed_bitcode" in vars(library),
         "registries_loaded": "numba.np.npyimpl" in sys.modules}


@njit
def twice(n):
    return 2 * sample.tribonacci(n)


facts["linked"] = twice(30)
facts["bitcode_parsed_for_linking"] = "_unparsed_bitcode" not in vars(library)
print(json.dumps(facts))
'''


def run(code: str, folder: Path, cache: Path) -> dict:
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", code, str(folder), str(cache)], capture_output=True, text=True,
                          env=environment, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_cached_code_runs_and_links_after_a_quick_load(tmp_path: Path) -> None:
    (tmp_path / "sample.py").write_text(SAMPLE)
    cache = tmp_path / "cache"
    compile_first = "import sys; sys.path.insert(0, sys.argv[1]); import sample; print(sample.tribonacci(30))"
    done = subprocess.run([sys.executable, "-c", compile_first, str(tmp_path)], capture_output=True, text=True,
                          env=dict(os.environ, NUMBA_CACHE_DIR=str(cache)), timeout=600, check=False)
    assert done.stdout.split() == ["15902591"], done.stderr
    facts = run(LOADER, tmp_path, cache)
    assert facts["loaded"] == 15902591 and facts["hits"] == 1
    assert facts["linked"] == 2 * 15902591
    if not facts["quick"]:
        assert numba_version() != CHECKED, f"the quick loader did not install on numba {numba.__version__}"
        pytest.skip(f"numba {numba.__version__}: its own loader runs (internals not the expected ones)")
    assert facts["bitcode_unparsed"] and facts["bitcode_parsed_for_linking"]
    assert not facts["registries_loaded"]  # the compilation of twice loaded them, after the check


def test_the_quick_loader_installs_where_numba_has_its_internals() -> None:
    import myriad.kernel.cache  # noqa: F401 - installs it
    assert cache_load.is_installed() == cache_load.supported()
    if numba_version() == CHECKED:
        assert cache_load.is_installed(), f"the quick loader did not install on numba {numba.__version__}"
