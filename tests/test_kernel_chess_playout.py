"""The chess family's random games on the cells alone
(``myriad.kernel.families.chess_playout``) against the rules, against the uniform draw
among the legal moves they replace, and against the general loop's random games."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from myriad.core.game import Game
from myriad.games import game_ids, get_game
from myriad.kernel import perft, rules
from myriad.kernel.engine import Kernel
from myriad.kernel.families import chess, chess_playout
from myriad.kernel.layout import P_FAMILY
from myriad.kernel.registry import kernel_for

#: An empty history (the games start from their initial position).
NO_KEYS = np.zeros(1, np.int64)


def chess_kernels() -> list[tuple[Game, Kernel]]:
    """Every registered game the chess family runs."""
    found = []
    for game_id in game_ids():
        game = get_game(game_id)
        k = kernel_for(game)
        if k is not None and k.tables.params[P_FAMILY] == chess.FAMILY:
            found.append((game, k))
    return found


def light(pairs: list[tuple[Game, Kernel]]) -> list[tuple[Game, Kernel]]:
    return [(game, k) for game, k in pairs if chess_playout.plays(k.tables)]


def test_light_playouts_serve_the_games_whose_rules_read_only_the_board() -> None:
    """Breakthrough plays on the light board; chess (a royal piece, castling, promotion,
    repetitions) and every other game with a rule beyond the rays keep the general loop."""
    pairs = chess_kernels()
    served = {game.id: bool(chess_playout.plays(k.tables)) for game, k in pairs}
    assert served["breakthrough"] and not served["chess"]
    for game, k in pairs:
        if not served[game.id]:
            a = k.pack(game.initial_state())
            assert rules.random_playout(k.tables, a, NO_KEYS, 0, 100, np.empty(101, np.int64)) == (-2, 0), game.id


@pytest.mark.parametrize("game,k", light(chess_kernels()), ids=lambda x: getattr(x, "id", ""))
def test_light_playouts_play_legal_games_scored_as_the_rules(game: Game, k: Kernel) -> None:
    """Every move of a light playout is a legal move of the reference game (found by its
    word 0 among the kernel's moves) and its result is the reference outcome of the game
    it played; a playout stopped early says so."""
    played = np.empty(1001, np.int64)
    np.random.seed(5)
    for _ in range(40):
        state = game.initial_state()
        result, length = rules.random_playout(k.tables, k.pack(state), NO_KEYS, 0, 1000, played)
        assert 0 < length < 1000
        for word in played[:length]:
            s, rows, count = k.move_rows(state)
            found = [i for i in range(count) if rows[i, chess.M_ID] == word]
            assert len(found) == 1, (game.id, game.format_position(state), word)
            move = k.to_move(s, rows[found[0]])
            assert move in game.legal_moves(state)
            state = game.play(state, move)
        outcome = game.outcome(state)
        assert outcome is not None, (game.id, game.format_position(state))
        best = max(outcome.scores)
        assert result == sum(1 << p for p, score in enumerate(outcome.scores) if score == best)
    result, length = rules.random_playout(k.tables, k.pack(game.initial_state()), NO_KEYS, 0, 3, played)
    assert (result, length) == (-1, 3)


def test_light_playouts_draw_every_legal_move_alike() -> None:
    """Breakthrough's first move is drawn uniformly among the 22 legal ones."""
    game = get_game("breakthrough")
    k = kernel_for(game)
    assert k is not None
    played = np.empty(2, np.int64)
    np.random.seed(9)
    s, rows, count = k.move_rows(game.initial_state())
    legal = {int(rows[i, chess.M_ID]) for i in range(count)}
    assert len(legal) == 22
    first: Counter[int] = Counter()
    for _ in range(1000 * len(legal)):
        rules.random_playout(k.tables, k.pack(game.initial_state()), NO_KEYS, 0, 1, played)
        first[int(played[0])] += 1
    assert set(first) == legal
    assert all(850 <= n <= 1150 for n in first.values()), first


def test_light_playouts_score_as_the_general_loop() -> None:
    """Breakthrough's random games score the same on the light board and in the general
    loop (``gen`` and ``play`` on whole state vectors, the light board switched off): the
    first player's share and the mean length agree within a few standard errors."""
    game = get_game("breakthrough")
    k = kernel_for(game)
    assert k is not None
    general = k.tables._replace(params=k.tables.params.copy())
    general.params[chess.LIGHT] = 0
    s = k.pack(game.initial_state())
    hist = np.zeros(1, np.int64)
    games = 20000
    shares, lengths = [], []
    for tables in (k.tables, general):
        scores = np.zeros(2, np.float64)
        plies = perft.playouts(tables, s, hist, 0, games, 1000, 11, scores)
        assert abs(scores.sum() - games) < 1e-6  # every game ends: Breakthrough cannot draw
        shares.append(scores[0] / games)
        lengths.append(plies / games)
    assert abs(shares[0] - shares[1]) < 0.02, shares  # 0.005: one standard error of the difference
    assert abs(lengths[0] - lengths[1]) < 0.02 * lengths[1], lengths
