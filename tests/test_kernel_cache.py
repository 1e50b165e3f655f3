"""The kernel's compiled cache survives damage: an entry that cannot be read is compiled
again and written anew, with a line saying so, instead of failing every process."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numba
import pytest

import myriad.kernel.cache  # noqa: F401 - makes numba's cache tolerant of broken entries

SOURCE = '''
from numba import njit


@njit(cache=True)
def triangle(n):
    total = 0
    for i in range(n + 1):
        total += i
    return total
'''


def load(path: Path, name: str) -> ModuleType:
    """The module of ``path`` imported afresh under ``name`` (a new dispatcher each time,
    reading the same cache entry)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("damaged", ["nbc", "nbi"])
def test_a_damaged_cache_entry_is_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str], damaged: str) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))  # numba reads its configuration again when it compiles
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(cache))
    source = tmp_path / "kernel_sample.py"
    source.write_text(SOURCE)
    assert load(source, "sample_first").triangle(10) == 55  # compiled and saved
    files = sorted(cache.rglob(f"*.{damaged}"))
    assert files, f"no .{damaged} file was written"
    for path in files:
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 3])  # cut short
    capsys.readouterr()
    assert load(source, "sample_second").triangle(10) == 55
    assert "could not be read" in capsys.readouterr().err
    assert load(source, "sample_third").triangle(100) == 5050  # the entry was written anew
    assert capsys.readouterr().err == ""
