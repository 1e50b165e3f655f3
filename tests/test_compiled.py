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


def test_a_compiled_state_cannot_be_changed() -> None:
    """Compiled, a state's fields are read-only (in plain Python, only mypy says so)."""
    from myriad.core import state as state_module
    from myriad.games.inarow import tictactoe
    if not str(state_module.__file__).endswith(tuple(EXTENSION_SUFFIXES)):
        pytest.skip("myriad.core.state runs as plain Python here")
    game = tictactoe()
    start = game.initial_state()
    for name in ("cells", "to_move", "flags", "key", "history"):
        with pytest.raises(AttributeError):
            setattr(start, name, getattr(start, name))
    assert game.play_text(start, "b2").key != start.key == game.recomputed_key(start)
