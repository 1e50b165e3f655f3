"""The in-a-row family's random games on the cells alone
(``myriad.kernel.families.inarow_playout``) against the rules and against the uniform
draw among the legal moves they replace."""
from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from kernel_checks import NO_KEYS, family_kernels, first_light_moves
from myriad.core.game import Game
from myriad.games import get_game
from myriad.kernel import rules
from myriad.kernel.engine import Kernel
from myriad.kernel.families import inarow, inarow_playout
from myriad.kernel.layout import P_SIZE
from myriad.kernel.registry import kernel_for

KERNELS = family_kernels(inarow.FAMILY)


def test_light_playouts_serve_the_games_without_restrictions() -> None:
    """Tic-tac-toe, Connect Four and gomoku play on the light board; renju (forbidden
    points, opening rule) keeps the general loop."""
    served = {game.id: bool(inarow_playout.plays(k.tables)) for game, k in KERNELS}
    assert {"tictactoe", "connect4", "gomoku", "renju"} <= set(served)
    assert served["tictactoe"] and served["connect4"] and served["gomoku"] and not served["renju"]
    renju = kernel_for(get_game("renju"))
    assert renju is not None
    a = renju.pack(get_game("renju").initial_state())
    assert rules.random_playout(renju.tables, a, NO_KEYS, 0, 100, np.empty(101, np.int64)) == (-2, 0)


@pytest.mark.parametrize("game,k", [pair for pair in KERNELS if inarow_playout.plays(pair[1].tables)],
                         ids=lambda x: getattr(x, "id", ""))
def test_light_playouts_play_legal_games_scored_as_the_rules(game: Game, k: Kernel) -> None:
    """Every move of a light playout is legal in the reference game and its result is
    the reference outcome of the game it played; a playout stopped early says so."""
    size = int(k.tables.params[P_SIZE])
    played = np.empty(size + 1, np.int64)
    np.random.seed(5)
    for _ in range(40 if size <= 64 else 4):
        state = game.initial_state()
        result, length = rules.random_playout(k.tables, k.pack(state), NO_KEYS, 0, 10**6, played)
        for pos in played[:length]:
            moves = {m[0][1]: m for m in game.legal_moves(state)}
            assert int(pos) in moves, (game.id, game.format_position(state), pos)
            state = game.play(state, moves[int(pos)])
        outcome = game.outcome(state)
        assert outcome is not None
        best = max(outcome.scores)
        assert result == sum(1 << p for p, score in enumerate(outcome.scores) if score == best)
    result, length = rules.random_playout(k.tables, k.pack(game.initial_state()), NO_KEYS, 0, 3, played)
    assert (result, length) == (-1, 3)


@pytest.mark.parametrize("game_id", ["tictactoe", "connect4"])
def test_light_playouts_draw_every_legal_move_alike(game_id: str) -> None:
    """The first move is drawn uniformly among the legal ones."""
    game = get_game(game_id)
    k = kernel_for(game)
    assert k is not None
    legal = {m[0][1] for m in game.legal_moves(game.initial_state())}
    first = first_light_moves(game, k, 1000 * len(legal), seed=9)
    assert set(first) == legal
    assert all(850 <= count <= 1150 for count in first.values()), first


LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@cache
def random_tictactoe(board: str) -> tuple[Fraction, Fraction]:
    """The exact chances that X and O win a uniformly random game of tic-tac-toe from
    ``board`` (nine of ``.XO``, X to move when the counts are equal), worked out here on
    its own."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return (Fraction(1), Fraction(0)) if board[a] == "X" else (Fraction(0), Fraction(1))
    empty = [i for i, v in enumerate(board) if v == "."]
    if not empty:
        return Fraction(0), Fraction(0)
    mover = "X" if board.count("X") == board.count("O") else "O"
    x = o = Fraction(0)
    for i in empty:
        cx, co = random_tictactoe(board[:i] + mover + board[i + 1:])
        x += cx / len(empty)
        o += co / len(empty)
    return x, o


def test_kernel_playouts_score_tictactoe_as_chance_does() -> None:
    """``Kernel.playouts`` scores random tic-tac-toe as its exact odds do: X wins 737 in
    1260, O 363 in 1260, a draw shares the point."""
    x, o = random_tictactoe("." * 9)
    assert (x, o) == (Fraction(737, 1260), Fraction(363, 1260))
    game = get_game("tictactoe")
    k = kernel_for(game)
    assert k is not None
    games = 40000
    scores, plies = k.playouts(game.initial_state(), games, seed=3)
    expected_x = float(x + (1 - x - o) / 2)
    assert abs(scores[0] / games - expected_x) < 0.01
    assert abs(sum(scores) - games) < 1e-6 and 5 * games < plies < 9 * games
