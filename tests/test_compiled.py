"""The warning about compiled modules older than their source."""
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from myriad import compiled


def test_an_extension_older_than_its_source_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    package = tmp_path / "src" / "myriad"
    (package / "ai").mkdir(parents=True)
    source = package / "ai" / "alphabeta.py"
    source.write_text("# the source\n")
    extension = package / "ai" / f"alphabeta{EXTENSION_SUFFIXES[0]}"
    extension.write_bytes(b"")
    os.utime(extension, (1_000_000, 1_000_000))
    monkeypatch.setattr(compiled, "PACKAGE", package)
    assert compiled.stale_extensions() == [extension]
    with pytest.warns(UserWarning, match="pip install -e"):
        compiled.warn_if_stale()
    os.utime(extension, None)  # rebuilt: newer than the source
    os.utime(source, (1_000_000, 1_000_000))
    assert compiled.stale_extensions() == []
    os.utime(source, (2_000_000, 2_000_000))  # stale again, but
    (tmp_path / "pyproject.toml").unlink()  # not a source checkout: an installed wheel
    assert compiled.stale_extensions() == []
