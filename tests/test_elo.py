"""Elo from few games: the interval is wide or unbounded, never "+1000 ± 0", and a sample
that cannot tell the bots apart says so; edge cases (no game, one game, all wins, all
draws, all losses) and the ``match`` command's own lines."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from myriad.arena.elo import (conclusive, describe_elo, elo_from_score, elo_interval, elo_with_error,
                              wilson_interval)

SRC = str(Path(__file__).resolve().parents[1] / "src")
TOO_FEW = "too few to conclude"


def test_all_wins_is_unbounded_above() -> None:
    for n in (1, 2, 5, 10, 1000):
        lo, hi = elo_interval(n, 0, 0)
        assert hi == math.inf and lo < math.inf
        elo, error = elo_with_error(n, 0, 0)
        assert elo == math.inf and error == math.inf  # never a finite "± 0"
        text = describe_elo(n, 0, 0)
        assert text.startswith(f"Elo > {lo:+.0f} (95%)")
        assert "±" not in text and "+1000" not in text
    assert elo_interval(1, 0, 0)[0] < 0 < elo_interval(10, 0, 0)[0]  # one win proves nothing, ten do
    assert TOO_FEW in describe_elo(1, 0, 0) and "after 1 game " in describe_elo(1, 0, 0)
    assert TOO_FEW in describe_elo(2, 0, 0) and TOO_FEW not in describe_elo(10, 0, 0)


def test_all_losses_is_unbounded_below() -> None:
    lo, hi = elo_interval(0, 0, 10)
    assert lo == -math.inf and hi < -100
    assert describe_elo(0, 0, 10) == f"Elo < {hi:+.0f} (95%)"
    assert describe_elo(0, 0, 1).startswith("Elo < +") and TOO_FEW in describe_elo(0, 0, 1)


def test_draws_only_are_even_and_inconclusive() -> None:
    for n in (1, 10, 100):
        lo, hi = elo_interval(0, n, 0)
        assert lo < 0 < hi and math.isclose(lo, -hi)
        assert not conclusive(0, n, 0) and TOO_FEW in describe_elo(0, n, 0)
    assert elo_interval(0, 1, 0)[1] > elo_interval(0, 100, 0)[1] > 0  # narrower with more games


def test_no_game_and_one_game() -> None:
    assert describe_elo(0, 0, 0) == "Elo unknown (no games)"
    assert elo_interval(0, 0, 0) == (-math.inf, math.inf)
    lo, hi = wilson_interval(0, 1, 0)
    assert 0 < lo < 0.5 < hi < 1


def test_a_clear_result_is_bounded_and_conclusive() -> None:
    lo, hi = elo_interval(60, 10, 30)
    elo, error = elo_with_error(60, 10, 30)
    assert 0 < lo < elo < hi < math.inf and math.isclose(error, (hi - lo) / 2)
    assert describe_elo(60, 10, 30) == f"Elo {elo:+.0f} (95%: {lo:+.0f} to {hi:+.0f})"
    assert elo_from_score(0.5) == 0 and str(elo_from_score(0.5)) == "0.0"


@pytest.mark.parametrize("args", [["--games", "2"], ["--games", "2", "--json"]])
def test_the_match_command_after_two_games(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "myriad", "match", "tictactoe", "heuristic", "random",
                           "--movetime", "0.05", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": SRC})
    assert done.returncode == 0, done.stderr
    if "--json" in args:
        report = json.loads(done.stdout)
        assert report["games"] == 2
        if report["wins"] == 2:  # a sweep: unbounded above, no finite value or error
            assert report["elo"] is None and report["elo_error"] is None and report["elo_high"] is None
        assert report["elo_low"] is None or report["elo_low"] < 0  # two games cannot prove a gain
        return
    assert "±" not in done.stdout and "Elo " in done.stdout and TOO_FEW in done.stdout


def test_interval_text() -> None:
    from myriad.arena.elo import interval_text, points_elo_interval
    assert interval_text(-math.inf, math.inf) == "unbounded"
    assert interval_text(166.2, math.inf) == "> +166" and interval_text(-math.inf, -166.2) == "< -166"
    assert interval_text(-73.5, 749.6) == "-74 to +750"
    assert points_elo_interval(10, 10) == elo_interval(10, 0, 0)
    assert points_elo_interval(3.5, 4) == elo_interval(3, 1, 0)


def test_the_tournament_gives_each_bot_an_interval() -> None:
    args = ["tournament", "tictactoe", "random", "heuristic", "--games", "2", "--movetime", "0.05"]
    env = {**os.environ, "PYTHONPATH": SRC}
    done = subprocess.run([sys.executable, "-m", "myriad", *args, "--json"], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    for lo, hi in report["vs_field"].values():  # two games bound nothing on the side of the result
        assert lo is None or hi is None or (lo < 0 < hi)
    assert all(not r["conclusive"] for r in report["results"])
    table = subprocess.run([sys.executable, "-m", "myriad", *args], capture_output=True, text=True,
                           timeout=120, env=env).stdout
    assert "vs field, 95%" in table and "too few games to conclude" in table and "±" not in table
