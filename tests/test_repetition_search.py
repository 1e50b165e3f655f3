"""Alpha-beta scores a position met again on its line as the game's repetition rule says
(``Game.repetition_outcome``), not always as a draw.

Each test builds a position whose every legal move repeats an earlier position (the
children's keys are put in its history), so a search of any depth must score the root by
the rule alone: under Copenhagen rules the third occurrence of a position loses for
white (a first repeat on the searched line is a draw: the rules need three), in brandubh
and tablut it draws, in jungle with ``mover_loses`` the side to move in the repeated position
loses, and in oware a repetition ends the game with the seeds counted.
"""

from __future__ import annotations

import pytest

from myriad.ai.alphabeta import WIN, AlphaBeta, terminal_score
from myriad.ai.bot import Limits
from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.jungle import Jungle, JungleRules


def only_repeats(game: Game, state: State, times: int = 1) -> State:
    """``state`` with a history holding every child's key ``times`` times: each legal move
    repeats."""
    moves = game.legal_moves(state)
    keys = tuple(game.play(state, m).key for m in moves) * times
    root = game.make_state(state.cells, state.to_move, state.flags, state.counters, state.hands, keys)
    assert root.key == state.key and game.legal_moves(root), "the root itself must not be over"
    for move in moves:
        child = game.play(root, move)
        assert child.key in child.history, f"{game.format_move(root, move)} is irreversible: no repetition"
    return root


def searched(game: Game, state: State, depth: int) -> int:
    return AlphaBeta(game, depth=depth).analyse(state, Limits(depth=depth)).info["score"]


def after(game: Game, *moves: str) -> State:
    state = game.initial_state()
    for text in moves:
        state = game.play_text(state, text)
    return state


@pytest.mark.parametrize("depth", [1, 3])
def test_copenhagen_repetition_loses_for_white(depth):
    game = get_game("hnefatafl")
    root = only_repeats(game, after(game, "d1-d2"), times=2)
    assert game.player_names[root.to_move] == "white"
    assert searched(game, root, depth) == -(WIN - 1)  # lost at the next ply, whatever white plays
    # and black, to move in a position whose every move repeats, wins by repeating
    black_root = only_repeats(game, after(game, "d1-d2", "f4-c4"), times=2)
    assert searched(game, black_root, depth) == WIN - 1


@pytest.mark.parametrize("depth", [1, 3])
def test_a_first_copenhagen_repeat_is_a_draw_in_search(depth):
    """The rules end a Copenhagen game at a position's third occurrence: a position met
    only once before is a draw for the search, for white and for black to move."""
    game = get_game("hnefatafl")
    for moves in (("d1-d2",), ("d1-d2", "f4-c4")):
        assert searched(game, only_repeats(game, after(game, *moves)), depth) == 0


@pytest.mark.parametrize("game_id", ["brandubh", "tablut"])
def test_repetition_draws_in_brandubh_and_tablut(game_id):
    game = get_game(game_id)
    root = only_repeats(game, after(game, game.format_move(game.initial_state(),
                                                           game.legal_moves(game.initial_state())[0])))
    assert searched(game, root, 2) == 0


def test_jungle_repetition_can_lose_for_the_side_to_move():
    losing = Jungle(JungleRules(repetition="mover_loses"))
    drawing = Jungle(JungleRules(repetition="draw"))
    for game, expected in ((losing, WIN - 1), (drawing, 0)):
        root = only_repeats(game, game.initial_state())
        # every move repeats, and the repeated position's side to move (the opponent) loses
        assert searched(game, root, 2) == expected


def test_oware_repetition_counts_the_seeds():
    game = get_game("oware")
    state = game.initial_state()
    for text in ("a", "A", "b", "B", "c", "C", "d", "D"):
        state = game.play_text(state, text)
    root = only_repeats(game, state)
    mover = root.to_move
    expected = max(terminal_score(game.outcome(game.play(root, m)), mover, 1) for m in game.legal_moves(root))
    assert expected != 0, "the seeds on each side differ, so some repetition is no draw"
    assert searched(game, root, 2) == expected
