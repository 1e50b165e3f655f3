"""What a Python user sees: a state's repr names its game and position text and its str
draws the board; ``named_moves`` repr as ``<Move e4>``; ``result(state)`` works without the
legal moves; every game of the registry alike."""

from __future__ import annotations

import pickle
import random

import pytest

from myriad import Move, NamedMove, State, get_game
from myriad.games import game_ids


def some_states(game_id: str, plies: int = 8) -> list[State]:
    """The start and a seeded random game's positions after it."""
    game = get_game(game_id)
    rng = random.Random(5)
    states = [game.initial_state()]
    for _ in range(plies):
        s = states[-1]
        if game.outcome(s) is not None:
            break
        moves = [m for m, _ in game.chance_outcomes(s)] if game.is_chance(s) else game.legal_moves(s)
        states.append(game.play(s, rng.choice(moves)))
    return states


@pytest.mark.parametrize("game_id", game_ids())
def test_state_repr_and_str(game_id: str) -> None:
    game = get_game(game_id)
    for state in some_states(game_id):
        assert state.game is game
        assert repr(state) == f"<State {game.id} {game.format_position(state)!r}>"
        assert str(state) == game.render(state)
    parsed = game.parse_position(game.format_position(state))
    assert repr(parsed) == repr(state)


@pytest.mark.parametrize("game_id", game_ids())
def test_named_moves(game_id: str) -> None:
    game = get_game(game_id)
    for state in some_states(game_id, 4):
        if game.is_chance(state) or game.outcome(state) is not None:
            continue
        named, plain = game.named_moves(state), game.legal_moves(state)
        assert named == plain and [hash(m) for m in named] == [hash(m) for m in plain]
        for move in named[:5]:
            assert isinstance(move, NamedMove) and move.text == game.format_move(state, move)
            assert repr(move) == f"<Move {move.text}>" and str(move) == move.text
            assert game.play(state, move) == game.play(state, Move(move))
            again = pickle.loads(pickle.dumps(move))
            assert again == move and repr(again) == repr(move)


@pytest.mark.parametrize("game_id", game_ids())
def test_result_needs_no_moves(game_id: str) -> None:
    game = get_game(game_id)
    states = some_states(game_id, 300)
    for state in states[:3] + states[-2:]:
        assert game.result(state) == game.outcome(state)
        if not game.is_chance(state):
            assert game.result(state, game.legal_moves(state)) == game.outcome(state)


def test_a_state_without_game_and_a_pickled_state() -> None:
    chess = get_game("chess")
    state = chess.play_text(chess.initial_state(), "e4")
    assert repr(state) == "<State chess 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'>"
    assert str(state).splitlines()[-1].split() == list("abcdefgh")
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.game is None  # the game stays behind
    assert repr(copy).startswith("State(to_move=1, ") and str(copy) == repr(copy)
    moves = chess.named_moves(chess.initial_state())
    assert "<Move Nf3>" in repr(moves) and "<Move e4>" in repr(moves)
