"""Commands that run a bot, as subprocesses: a spec with options but no limit thinks the
default time (never an endless search); a bad value is one line on stderr and exit code 2,
whichever command reads the spec."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")


def myriad(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "myriad", *args], capture_output=True, text=True, timeout=120,
                          input="quit\n", env={**os.environ, "PYTHONPATH": SRC})


@pytest.mark.parametrize("spec", ["alphabeta:algo=pvs", "mcts:c=1.2", "alphabeta:moves=0,root=5"])
def test_options_without_a_limit_think_the_default_time(spec: str) -> None:
    done = myriad("think", "chess", "--bot", spec, "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["default_time"] == 1.0 and out["seconds"] < 10 and out["move"]
    said = myriad("think", "chess", "--bot", spec)
    assert said.returncode == 0 and "thinking 1 s (the default)" in said.stdout


@pytest.mark.parametrize("command", [
    ["think", "chess", "--bot", "alphabeta:depth=abc"],
    ["think", "chess", "--bot", "alphabeta:time=-1"],
    ["think", "chess", "--bot", "mcts:nosuch=1"],
    ["play", "chess", "--second", "alphabeta:depth=0.5"],
    ["match", "tictactoe", "random", "alphabeta:algo=best", "--games", "2"],
    ["tournament", "tictactoe", "random", "heuristic:noise=x", "--games", "2"],
])
def test_a_bad_value_is_one_line_and_exit_code_2(command: list[str]) -> None:
    done = myriad(*command)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stdout == ""
