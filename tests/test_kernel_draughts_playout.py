"""The draughts family's random games on the cells alone
(``myriad.kernel.families.draughts_playout``) against the rules, against the uniform draw
among the legal moves they replace, and against the general loop's random games."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from myriad.core.game import Game
from myriad.games import game_ids, get_game
from myriad.kernel import perft, rules
from myriad.kernel.engine import Kernel
from myriad.kernel.families import draughts, draughts_playout
from myriad.kernel.layout import P_FAMILY, S_KEY
from myriad.kernel.registry import kernel_for

#: An empty history (the games start from their initial position).
NO_KEYS = np.zeros(1, np.int64)


def draughts_kernels() -> list[tuple[Game, Kernel]]:
    """Every registered game the draughts family runs."""
    found = []
    for game_id in game_ids():
        game = get_game(game_id)
        k = kernel_for(game)
        if k is not None and k.tables.params[P_FAMILY] == draughts.FAMILY:
            found.append((game, k))
    return found


def light(pairs: list[tuple[Game, Kernel]]) -> list[tuple[Game, Kernel]]:
    return [(game, k) for game, k in pairs if draughts_playout.plays(k.tables)]


def test_light_playouts_serve_the_games_of_one_piece_a_square() -> None:
    """Checkers and international draughts play on the light board; Frisian (its kings'
    rules) and the column games (Lasca, Bashni) keep the general loop."""
    pairs = draughts_kernels()
    served = {game.id: bool(draughts_playout.plays(k.tables)) for game, k in pairs}
    assert served["checkers"] and served["international"]
    assert not served["frisian"] and not served["lasca"] and not served["bashni"]
    for game, k in pairs:
        if not served[game.id]:
            a = k.pack(game.initial_state())
            assert rules.random_playout(k.tables, a, NO_KEYS, 0, 100, np.empty(101, np.int64)) == (-2, 0), game.id


@pytest.mark.parametrize("game,k", light(draughts_kernels()), ids=lambda x: getattr(x, "id", ""))
def test_light_playouts_play_legal_games_scored_as_the_rules(game: Game, k: Kernel) -> None:
    """Every move of a light playout is a legal move of the reference game (found by its
    word 0 among the kernel's moves) and its result is the reference outcome of the game
    it played (a win, or a draw by repetition or by the clock); a playout stopped early
    says so."""
    played = np.empty(3001, np.int64)
    np.random.seed(5)
    games = 12 if game.topology.size <= 32 else 4
    for _ in range(games):
        state = game.initial_state()
        result, length = rules.random_playout(k.tables, k.pack(state), NO_KEYS, 0, 3000, played)
        assert 0 < length < 3000
        for word in played[:length]:
            s, rows, count = k.move_rows(state)
            found = [i for i in range(count) if rows[i, draughts.M_ID] == word]
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
    game = get_game("checkers")
    k = kernel_for(game)
    assert k is not None
    played = np.empty(2, np.int64)
    np.random.seed(9)
    s, rows, count = k.move_rows(game.initial_state())
    legal = {int(rows[i, draughts.M_ID]) for i in range(count)}
    assert len(legal) == 7
    first: Counter[int] = Counter()
    for _ in range(1000 * len(legal)):
        rules.random_playout(k.tables, k.pack(game.initial_state()), NO_KEYS, 0, 1, played)
        first[int(played[0])] += 1
    assert set(first) == legal
    assert all(850 <= n <= 1150 for n in first.values()), first


@pytest.mark.parametrize("game_id", ["checkers", "international"])
def test_light_playouts_score_as_the_general_loop(game_id: str) -> None:
    """Random games score the same on the light board and in the general loop (``gen``
    and ``play`` on whole state vectors, the light board switched off): each player's
    share of the points and the mean length agree within a few standard errors."""
    game = get_game(game_id)
    k = kernel_for(game)
    assert k is not None
    general = k.tables._replace(params=k.tables.params.copy())
    general.params[draughts.LIGHT] = 0
    s = k.pack(game.initial_state())
    games = 20000 if game_id == "checkers" else 3000
    shares, lengths = [], []
    for tables in (k.tables, general):
        scores = np.zeros(2, np.float64)
        plies = perft.playouts(tables, s, NO_KEYS, 0, games, 3000, 11, scores)
        assert abs(scores.sum() - games) < 1e-6
        shares.append(scores[0] / games)
        lengths.append(plies / games)
    tolerance = 4 * 0.5 * (2 / games) ** 0.5  # four standard errors of the difference of two shares
    assert abs(shares[0] - shares[1]) < tolerance, shares
    assert abs(lengths[0] - lengths[1]) < 0.03 * lengths[1], lengths
