"""The README's "Python API" section stays true: every Python block in it runs, and each
line marked ``# -> TEXT`` prints exactly TEXT (the example's promised output)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def api_blocks() -> list[str]:
    text = README.read_text()
    section = text[text.index("## Python API"):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def test_the_python_api_examples_print_what_they_promise(monkeypatch: pytest.MonkeyPatch, own_registry: None) -> None:
    monkeypatch.chdir(README.parent)  # the example loads examples/losalamos.toml
    blocks = api_blocks()
    assert blocks, "no Python example in the README's Python API section"
    promised = [m.group(1) for block in blocks for m in re.finditer(r"# -> (.*)$", block, re.MULTILINE)]
    assert len(promised) >= 4  # repr of a state, named moves, an illegal move's rule, an outcome
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "README.md", "exec"), {"__name__": "readme"})  # noqa: S102 - our own README
        lines = out.getvalue().splitlines()
        for expected in re.findall(r"# -> (.*)$", block, re.MULTILINE):
            assert expected.rstrip() in lines, f"the README promises {expected!r}"
        # the board that print(state) draws, rank 8 first
        assert " 8 r n b q k b n r" in lines
