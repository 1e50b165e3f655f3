"""Bot specs are short data: bounded, never nested, numbers in ASCII digits only."""

from __future__ import annotations

import pytest

from myriad.ai import BotSpecError, make_bot, parse_spec
from myriad.ai import BOTS
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


def _a_game_it_plays(kind: type) -> str:
    return next(gid for gid in ("tictactoe", "pig20", "rolit") if kind.plays(get_game(gid)))


def _allowed_value(rule: object) -> object:
    if isinstance(rule, frozenset):
        return sorted(rule)[0]
    assert isinstance(rule, tuple)
    kind, low, high = rule
    return kind(high)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_refuses_an_option_it_does_not_have(name: str) -> None:
    game = get_game(_a_game_it_plays(BOTS[name]))
    with pytest.raises(BotSpecError, match=f"{name} has no option 'frobnicate'; its options: "):
        make_bot(f"{name}:frobnicate=1", game)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_declared_option_is_taken_at_its_bounds_and_refused_beyond(name: str) -> None:
    """Each option a bot declares is accepted at its edge values and refused just past them."""
    game = get_game(_a_game_it_plays(BOTS[name]))
    for key, rule in BOTS[name].OPTIONS.items():
        if rule is str:
            continue  # a book's file: read when the bot is made (tests/test_ai.py)
        make_bot(f"{name}:{key}={_allowed_value(rule)}", game)
        if isinstance(rule, tuple):
            kind, low, high = rule
            beyond = high + 1 if kind is int else high * 2
            with pytest.raises(BotSpecError, match=f"{name}: {key} must be"):
                make_bot(f"{name}:{key}={beyond}", game)
        else:
            with pytest.raises(BotSpecError, match=f"{name}: {key} must be one of"):
                make_bot(f"{name}:{key}=nonsense", game)
