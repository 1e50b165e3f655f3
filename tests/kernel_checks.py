"""What the kernel tests share: an outcome as the kernel's winners' bits, the games of a
family, and the checks of its light playouts against the rules and the general loop."""
from __future__ import annotations

from collections import Counter

import numpy as np

from myriad.core.game import Game, Outcome
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.kernel import perft, rules
from myriad.kernel.engine import Kernel
from myriad.kernel.layout import P_FAMILY
from myriad.kernel.registry import kernel_for

#: An empty history (the games start from their initial position).
NO_KEYS = np.zeros(1, np.int64)


def winner_bits(outcome: Outcome | None) -> int:
    """-1 while the game goes on, else the bit set of the players with the best score
    (every player's bit: a draw), as ``Kernel.winners`` says it."""
    if outcome is None:
        return -1
    best = max(outcome.scores)
    return sum(1 << p for p, score in enumerate(outcome.scores) if score == best)


def family_kernels(family: int) -> list[tuple[Game, Kernel]]:
    """Every registered game the kernel family ``family`` runs, with its kernel."""
    found = []
    for game_id in game_ids():
        game = get_game(game_id)
        k = kernel_for(game)
        if k is not None and k.tables.params[P_FAMILY] == family:
            found.append((game, k))
    return found


def replay_words(game: Game, k: Kernel, words: np.ndarray) -> State:
    """The reference game played from its start along the kernel moves whose word 0 is
    each of ``words`` in turn: each must be one legal move, found among the kernel's."""
    state = game.initial_state()
    for word in words:
        s, rows, count = k.move_rows(state)
        found = [i for i in range(count) if rows[i, 0] == word]
        assert len(found) == 1, (game.id, game.format_position(state), word)
        move = k.to_move(s, rows[found[0]])
        assert move in game.legal_moves(state)
        state = game.play(state, move)
    return state


def assert_first_moves_alike(game_id: str, legal_count: int) -> None:
    """A light playout's first move from the start of ``game_id`` is drawn uniformly
    among its ``legal_count`` legal moves (a thousand draws each, give or take 15%)."""
    game = get_game(game_id)
    k = kernel_for(game)
    assert k is not None
    s, rows, count = k.move_rows(game.initial_state())
    legal = {int(rows[i, 0]) for i in range(count)}
    assert len(legal) == legal_count
    first = first_light_moves(game, k, 1000 * legal_count, seed=9)
    assert set(first) == legal
    assert all(850 <= n <= 1150 for n in first.values()), first


def first_light_moves(game: Game, k: Kernel, draws: int, seed: int) -> Counter[int]:
    """How often each move (its word 0) is the first of ``draws`` light playouts from the
    start (``rules.random_playout``, one ply each)."""
    played = np.empty(2, np.int64)
    np.random.seed(seed)
    first: Counter[int] = Counter()
    for _ in range(draws):
        rules.random_playout(k.tables, k.pack(game.initial_state()), NO_KEYS, 0, 1, played)
        first[int(played[0])] += 1
    return first


def light_and_general(game: Game, k: Kernel, light: int, games: int, max_plies: int = 1000,
                      seed: int = 11) -> list[tuple[np.ndarray, float]]:
    """``games`` random games from the start through ``perft.playouts``, on the family's
    light board and then in the general loop (the tables' parameter ``light`` set to 0):
    per run, the players' summed scores and the mean length."""
    general = k.tables._replace(params=k.tables.params.copy())
    general.params[light] = 0
    s = k.pack(game.initial_state())
    runs = []
    for tables in (k.tables, general):
        scores = np.zeros(k.players, np.float64)
        plies = perft.playouts(tables, s, NO_KEYS, 0, games, max_plies, seed, scores)
        runs.append((scores, plies / games))
    return runs
