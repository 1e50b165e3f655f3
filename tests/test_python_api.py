"""The Python API as the README shows it: its example runs; every game's ``parse_move``
raises ``InvalidMoveError`` for text that is not a move and ``IllegalMoveError`` for a
well-formed move that is not legal; ``describe`` and ``show``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from myriad import IllegalMoveError, InvalidMoveError, all_games, get_game

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_python_example_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                        own_registry: None) -> None:
    monkeypatch.chdir(README.parent)  # the example loads examples/losalamos.toml
    text = README.read_text()
    section = text[text.index("## Python API"):]
    section = section[:section.index("\n## ", 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 1
    exec(compile(blocks[0], "README.md", "exec"), {"__name__": "readme"})  # noqa: S102 - our own README
    out = capsys.readouterr().out
    assert "illegal: chess: 'e5'" in out and "not a move: chess: 'hello'" in out
    assert get_game("losalamos").name == "Los Alamos chess"


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_parse_move_tells_garbage_from_an_illegal_move(game: object) -> None:
    """Garbage is InvalidMoveError in every game; a move legal in another position of the
    same game (so well formed) but not here is IllegalMoveError."""
    from myriad.core.game import Game
    assert isinstance(game, Game)
    state = game.initial_state()
    for garbage in ("", "hello world!", "#@%", "x" * 300):
        with pytest.raises(InvalidMoveError):
            game.parse_move(state, garbage)
    # a well-formed move that is not legal here: the move just played (a taken cell, a
    # pawn that has moved) ...
    checked = False
    if not game.is_chance(state):
        first = game.legal_moves(state)[0]
        text, after = game.format_move(state, first), game.play(state, first)
        if (not game.is_chance(after) and game.outcome(after) is None
                and text not in {game.format_move(after, m) for m in game.legal_moves(after)}):
            with pytest.raises(IllegalMoveError):
                game.parse_move(after, text)
            checked = True
    # ... and a move of a later position, absent now
    here = {game.format_move(state, m) for m in game.legal_moves(state)}  # (chance's outcomes at a chance node)
    later = state
    for _ in range(6):
        if game.outcome(later) is not None:
            break
        moves = ([m for m, _ in game.chance_outcomes(later)] if game.is_chance(later)
                 else game.legal_moves(later))
        if not moves:
            break
        texts = [game.format_move(later, m) for m in moves if game.format_move(later, m) not in here]
        if texts and later is not state and not game.is_chance(state):
            with pytest.raises(IllegalMoveError):
                game.parse_move(state, texts[0])
            return
        # ... or a move of the start that a later position lacks (Toguz Kumalak: every house
        # is playable at the start, and both players number their houses 1-9; fox hunt: a
        # cell where chance has hidden a fox, at a game that starts with chance)
        gone = sorted(here - set(texts) - {game.format_move(later, m) for m in moves})
        if gone and later is not state and game.is_chance(later) == game.is_chance(state):
            with pytest.raises(IllegalMoveError):
                game.parse_move(later, gone[0])
            return
        later = game.play(later, moves[-1])
    assert checked, f"{game.id}: no illegal move was tried"


def test_describe_and_show() -> None:
    game = get_game("chess")
    state = game.initial_state()
    move = game.parse_move(state, "g1f3")
    assert game.describe(state, move) == "Nf3"
    after = game.play(state, move)
    with pytest.raises(IllegalMoveError):
        game.describe(after, move)     # the knight's move from g1 is not legal for black
    assert game.show(state) == f"<chess {game.format_position(state)!r}: white to move>"
    assert game.show(after).endswith("black to move>")
