"""Bot specs are short data: bounded, never nested, numbers in ASCII digits only."""

from __future__ import annotations

import pytest

from myriad.ai import BotSpecError, make_bot, parse_spec
from myriad.games import get_game


@pytest.mark.parametrize("spec", [
    "chain:chain:book:file=/etc/passwd",          # a chain inside a chain
    "chain:" + "chain:" * 3000 + "random",       # was a RecursionError
    "chain:" + ",".join(["random"] * 9),          # too many links
    "alphabeta:" + "x" * 500,                     # too long
    "alphabeta:time=1,time=2",                    # an option twice
    "alpha beta", "", ":time=1", "alphabeta:ti-me=1",
])
def test_bad_specs_are_refused_by_the_parser(spec: str) -> None:
    with pytest.raises(BotSpecError):
        parse_spec(spec)


@pytest.mark.parametrize("spec", [
    "alphabeta:time=1_0", "alphabeta:time=²", "alphabeta:depth=٣", "alphabeta:depth=0",
    "alphabeta:nodes=-5", "random:seed=x", "alphabeta:time=" + "9" * 5000, "heuristic:noise=1_0x",
])
def test_bad_numbers_are_refused_when_the_bot_is_made(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec, get_game("tictactoe"))


def test_numbers_are_read_as_int_or_float() -> None:
    assert parse_spec("alphabeta:depth=3,time=0.5,algo=mtdf") == (
        "alphabeta", {"depth": 3, "time": 0.5, "algo": "mtdf"})
    assert parse_spec("chain:book,alphabeta:time=1,depth=2,random") == (
        "chain", {"links": ["book", "alphabeta:time=1,depth=2", "random"]})
