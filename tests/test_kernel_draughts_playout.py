"""The draughts family's random games on the cells alone
(``myriad.kernel.families.draughts_playout``) against the rules, against the uniform draw
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
from myriad.kernel.families import draughts, draughts_playout
from myriad.kernel.layout import S_KEY
from myriad.kernel.registry import kernel_for

KERNELS = family_kernels(draughts.FAMILY)
LIGHT = [(game, k) for game, k in KERNELS if draughts_playout.plays(k.tables)]


def test_light_playouts_serve_the_games_of_one_piece_a_square() -> None:
    """Checkers and international draughts play on the light board; Frisian (its kings'
    rules) and the column games (Lasca, Bashni) keep the general loop."""
    served = {game.id: bool(draughts_playout.plays(k.tables)) for game, k in KERNELS}
    assert served["checkers"] and served["international"]
    assert not served["frisian"] and not served["lasca"] and not served["bashni"]
    for game, k in KERNELS:
        if not served[game.id]:
            a = k.pack(game.initial_state())
            assert rules.random_playout(k.tables, a, NO_KEYS, 0, 100, np.empty(101, np.int64)) == (-2, 0), game.id


@pytest.mark.parametrize("game,k", LIGHT, ids=lambda x: getattr(x, "id", ""))
def test_light_playouts_play_legal_games_scored_as_the_rules(game: Game, k: Kernel) -> None:
    """Every move of a light playout is a legal move of the reference game (found by its
    word 0 among the kernel's moves) and its result is the reference outcome of the game
    it played (a win, or a draw by repetition or by the clock); a playout stopped early
    says so."""
    played = np.empty(3001, np.int64)
    np.random.seed(5)
    for _ in range(12 if game.topology.size <= 32 else 4):
        result, length = rules.random_playout(k.tables, k.pack(game.initial_state()), NO_KEYS, 0, 3000, played)
        assert 0 < length < 3000
        state = replay_words(game, k, played[:length])
        assert game.outcome(state) is not None, (game.id, game.format_position(state))
        assert result == winner_bits(game.outcome(state))
    result, length = rules.random_playout(k.tables, k.pack(game.initial_state()), NO_KEYS, 0, 3, played)
    assert (result, length) == (-1, 3)


def test_light_playouts_read_the_history() -> None:
    """A position met twice before in the history given is drawn before any move; met
    once, the game goes on."""
    game = get_game("checkers")
    k = kernel_for(game)
    assert k is not None
    a = k.pack(game.initial_state())
    played = np.empty(11, np.int64)
    twice = np.array([a[S_KEY], 7, a[S_KEY]], np.int64)
    assert rules.random_playout(k.tables, a.copy(), twice, 3, 10, played) == (3, 0)
    assert rules.random_playout(k.tables, a.copy(), twice, 2, 10, played) == (-1, 10)


def test_light_playouts_draw_every_legal_move_alike() -> None:
    """Checkers' first move is drawn uniformly among the 7 legal ones."""
    assert_first_moves_alike("checkers", 7)


@pytest.mark.parametrize("game_id", ["checkers", "international"])
def test_light_playouts_score_as_the_general_loop(game_id: str) -> None:
    """Random games score the same on the light board and in the general loop (``gen``
    and ``play`` on whole state vectors, the light board switched off): the first
    player's share of the points and the mean length agree within a few standard errors."""
    game = get_game(game_id)
    k = kernel_for(game)
    assert k is not None
    games = 20000 if game_id == "checkers" else 3000
    (light, light_length), (general, general_length) = light_and_general(game, k, draughts.LIGHT, games, 3000)
    assert abs(light.sum() - games) < 1e-6 and abs(general.sum() - games) < 1e-6
    tolerance = 4 * 0.5 * (2 / games) ** 0.5  # four standard errors of the difference of two shares
    assert abs(light[0] - general[0]) / games < tolerance, (light, general)
    assert abs(light_length - general_length) < 0.03 * general_length, (light_length, general_length)
