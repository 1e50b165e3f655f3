"""Where the tests find their oracle data, and the one way they load it.

The oracle files (perft counts, solved values, position counts from outside sources) live in
``../shared/oracles`` beside the repository, or in the directory named by the environment
variable ``MYRIAD_ORACLES``.  A missing directory, file or entry is a test **failure** with a
message saying what to set, never a skip or an empty parameter list: a check whose data is
gone must not pass by checking nothing.  Called while tests are collected (to build
parameters), the failure stops the collection of that module, which pytest reports as an error.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

#: The environment variable naming the oracle directory.
ENV = "MYRIAD_ORACLES"
#: The default: ``shared/oracles`` beside the repository's directory.
DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "oracles"


def oracle_dir() -> Path:
    """The oracle directory (``MYRIAD_ORACLES`` when set, else ``../shared/oracles`` from the
    repository); fails the test when it is not a directory."""
    setting = os.environ.get(ENV)
    path = Path(setting) if setting else DEFAULT
    if not path.is_dir():
        source = f"{ENV}={setting!r}" if setting else f"the default {DEFAULT} ({ENV} is not set)"
        pytest.fail(f"oracle directory {path} not found: from {source}; set {ENV} to the "
                    f"directory holding the oracle files", pytrace=False)
    return path


def oracle_path(name: str) -> Path:
    """The path of oracle file ``name``; fails the test when the file is missing."""
    path = oracle_dir() / name
    if not path.is_file():
        pytest.fail(f"oracle file {path} not found (the oracle directory comes from {ENV} "
                    f"or ../shared/oracles)", pytrace=False)
    return path


def load_oracle(name: str) -> Any:
    """The JSON content of oracle file ``name``; fails the test when it is missing, not
    JSON, or empty."""
    path = oracle_path(name)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        pytest.fail(f"oracle file {path} cannot be read as JSON: {err}", pytrace=False)
    if not data:
        pytest.fail(f"oracle file {path} is empty", pytrace=False)
    return data


def require(items: list[Any], what: str) -> list[Any]:
    """``items`` (e.g. parameters read from an oracle file), failing when there are none."""
    if not items:
        pytest.fail(f"no {what} found in the oracle files of {oracle_dir()}", pytrace=False)
    return items
