"""``myriad solo``: one-player games measured from the command line (arena/solo.py)."""

from __future__ import annotations

import json

import pytest

from myriad.cli import main


def test_solo_measures_the_solver_against_random_shooting_on_seeded_boards(capsys: pytest.CaptureFixture[str]) -> None:
    """30 seeded fox hunt 6x6 boards: the information solver needs fewer shots than random
    shooting, its 95% interval wholly below random's (a fact that could be false)."""
    assert main(["solo", "foxhunt6", "infogain:samples=24,seed=1", "random:seed=1", "--games", "30",
                 "--seed", "7", "--movetime", "60", "--json"]) == 0
    solver, chance = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert solver["bot"] == "infogain:samples=24,seed=1" and chance["bot"] == "random:seed=1"
    assert solver["games"] == chance["games"] == 30 and solver["seed"] == 7
    assert 6 <= solver["mean_moves"] <= 36 and 6 <= chance["mean_moves"] <= 36  # (6 foxes, 36 cells)
    assert solver["mean_moves"] + solver["moves_interval"] < chance["mean_moves"] - chance["moves_interval"]
    assert solver["mean_score"] > chance["mean_score"]
    assert 0 < solver["moves_interval"] < solver["mean_moves"]


def test_solo_prints_a_line_a_bot_and_the_same_boards_give_the_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solo", "foxhunt6", "heuristic:seed=2", "--games", "3", "--seed", "11", "--movetime", "60"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert first.startswith("foxhunt6 heuristic:seed=2: ") and "moves (95%)" in first
    assert "over 3 games (seeds 11..13" in first
    assert main(args) == 0
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(("args", "message"), [
    (["solo", "chess", "random"], "2 players"),
    (["solo", "foxhunt6", "nobot"], "unknown bot"),
    (["solo", "foxhunt6", "random", "--games", "0"], "out of range"),
    (["solo", "foxhunt6", "random", "--movetime", "x"], "not a time"),
    (["solo", "nogame", "random"], "nogame"),
])
def test_solo_refuses_bad_input_with_a_message(args: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err
