"""The chess family's random games on the cells alone
(``myriad.kernel.families.chess_playout``) against the rules, against the uniform draw
among the legal moves they replace, and against the general loop's random games."""
from __future__ import annotations

import numpy as np
import pytest

from kernel_checks import (NO_KEYS, assert_first_moves_alike, family_kernels, light_and_general, replay_words,
                           winner_bits)
from myriad.core.game import Game
from myriad.games import get_game
from myriad.kernel import rules
from myriad.kernel.engine import Kernel
from myriad.kernel.families import chess, chess_playout
from myriad.kernel.registry import kernel_for

KERNELS = family_kernels(chess.FAMILY)
LIGHT = [(game, k) for game, k in KERNELS if chess_playout.plays(k.tables)]


def test_light_playouts_serve_the_games_whose_rules_read_only_the_board() -> None:
    """Breakthrough plays on the light board; chess (a royal piece, castling, promotion,
    repetitions) and every other game with a rule beyond the rays keep the general loop."""
    served = {game.id: bool(chess_playout.plays(k.tables)) for game, k in KERNELS}
    assert served["breakthrough"] and not served["chess"]
    for game, k in KERNELS:
        if not served[game.id]:
            a = k.pack(game.initial_state())
            assert rules.random_playout(k.tables, a, NO_KEYS, 0, 100, np.empty(101, np.int64)) == (-2, 0), game.id


@pytest.mark.parametrize("game,k", LIGHT, ids=lambda x: getattr(x, "id", ""))
def test_light_playouts_play_legal_games_scored_as_the_rules(game: Game, k: Kernel) -> None:
    """Every move of a light playout is a legal move of the reference game (found by its
    word 0 among the kernel's moves) and its result is the reference outcome of the game
    it played; a playout stopped early says so."""
    played = np.empty(1001, np.int64)
    np.random.seed(5)
    for _ in range(40):
        result, length = rules.random_playout(k.tables, k.pack(game.initial_state()), NO_KEYS, 0, 1000, played)
        assert 0 < length < 1000
        state = replay_words(game, k, played[:length])
        assert game.outcome(state) is not None, (game.id, game.format_position(state))
        assert result == winner_bits(game.outcome(state))
    result, length = rules.random_playout(k.tables, k.pack(game.initial_state()), NO_KEYS, 0, 3, played)
    assert (result, length) == (-1, 3)


def test_light_playouts_draw_every_legal_move_alike() -> None:
    """Breakthrough's first move is drawn uniformly among the 22 legal ones."""
    assert_first_moves_alike("breakthrough", 22)


def test_light_playouts_score_as_the_general_loop() -> None:
    """Breakthrough's random games score the same on the light board and in the general
    loop (``gen`` and ``play`` on whole state vectors, the light board switched off): the
    first player's share and the mean length agree within a few standard errors."""
    game = get_game("breakthrough")
    k = kernel_for(game)
    assert k is not None
    games = 20000
    (light, light_length), (general, general_length) = light_and_general(game, k, chess.LIGHT, games)
    assert abs(light.sum() - games) < 1e-6 and abs(general.sum() - games) < 1e-6  # Breakthrough cannot draw
    assert abs(light[0] - general[0]) / games < 0.02, (light, general)  # 0.005: one standard error
    assert abs(light_length - general_length) < 0.02 * general_length, (light_length, general_length)
