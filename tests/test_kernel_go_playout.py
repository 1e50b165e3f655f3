"""Go's playouts on the kernel's incremental board (``myriad.kernel.families.go_playout``)
against the rules (the reference ``Go`` game) and against the per-move playout policy
(``rules.playout_move``) they replace."""
from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from myriad.core.state import State
from myriad.games import get_game
from myriad.games.go import Go
from myriad.kernel import rules
from myriad.kernel.engine import Kernel
from myriad.kernel.families import go as kgo
from myriad.kernel.families import go_playout
from myriad.kernel.layout import P_SIZE, S_CELLS, S_TO_MOVE
from myriad.kernel.registry import kernel_for


def kernel(game: Go) -> Kernel:
    found = kernel_for(game)
    assert found is not None, f"{game.id} has no kernel"
    return found


def random_position(game: Go, plies: int, rng: random.Random) -> State:
    """The position after ``plies`` uniformly random moves other than pass."""
    state = game.initial_state()
    for _ in range(plies):
        moves = [m for m in game.legal_moves(state) if game.format_move(state, m) != "pass"]
        if not moves or game.outcome(state) is not None:
            break
        state = game.play(state, rng.choice(moves))
    return state


def replay(game: Go, k: Kernel, state: State, points: np.ndarray) -> State:
    """``state`` after the moves at ``points`` (the board's size: pass), each checked
    to be legal."""
    size = int(k.tables.params[P_SIZE])
    for point in points:
        s, rows, count = k.move_rows(state)
        index = [i for i in range(count) if rows[i, 0] == point]
        assert index, f"{'pass' if point == size else point} is not legal after {game.format_position(state)}"
        state = game.play(state, k.to_move(s, rows[index[0]]))
    return state


def winners_bits(game: Go, state: State) -> int:
    outcome = game.outcome(state)
    assert outcome is not None
    best = max(outcome.scores)
    return sum(1 << p for p, score in enumerate(outcome.scores) if score == best)


def test_only_go_policies_play_incrementally() -> None:
    """Go's policy plays on the incremental board; Atari Go's (which prefers ataris)
    and a Go whose weights rank the classes otherwise keep the per-move policy."""
    assert kernel(get_game("go9")).tables.params[kgo.FAST_PLAYOUT] == 1
    assert kernel(get_game("go19")).tables.params[kgo.FAST_PLAYOUT] == 1
    assert kernel(get_game("atarigo")).tables.params[kgo.FAST_PLAYOUT] == 0
    changed = Go(9, 7.5)
    policy = list(changed.weights.playout)
    policy[kgo.PO_ATARI] = 0.5
    changed.weights = replace(changed.weights, playout=tuple(policy))
    assert kernel(changed).tables.params[kgo.FAST_PLAYOUT] == 0


@pytest.mark.parametrize("game_id,plies,seeds", [("go9", 0, 8), ("go9", 30, 8), ("go13", 40, 3), ("go19", 60, 1)])
def test_playouts_play_legal_moves_and_score_as_the_rules(game_id: str, plies: int, seeds: int) -> None:
    """Each move of a playout is legal in the reference game, and the playout's result
    is the reference outcome of the game it played; a playout stopped at its limit
    leaves the position the rules reach."""
    game = get_game(game_id)
    assert isinstance(game, Go)
    k = kernel(game)
    rng = random.Random(plies)
    played = np.empty(4 * game.max_plies, np.int64)
    who = np.empty(4 * game.max_plies, np.int64)
    for seed in range(seeds):
        start = random_position(game, plies, rng)
        np.random.seed(seed)
        a = k.pack(start)
        count, result = rules.whole_playout(k.tables, a, 10**6, played, who, 0)
        assert result > 0 and count > 0
        end = replay(game, k, start, played[:count])
        assert result == winners_bits(game, end)
        assert list(who[:count]) == [(start.to_move + i) % 2 for i in range(count)]
        a = k.pack(start)
        count, result = rules.whole_playout(k.tables, a, 7, played, who, 0)
        assert (count, result) == (7, -1)
        reached = replay(game, k, start, played[:7])
        expected = k.pack(reached)
        assert a[S_TO_MOVE] == expected[S_TO_MOVE] and np.array_equal(a[S_CELLS:], expected[S_CELLS:])  # (the key is stale)


def policy_moves(k: Kernel, state: State, draws: int) -> tuple[set[int], set[int]]:
    """The points the per-move policy and the incremental one play in ``state`` over
    ``draws`` draws each (pass: the board's size)."""
    s, rows, count = k.move_rows(state)
    t = k.tables
    per_move = {int(rows[rules.playout_move(t, s, rows, count), 0]) for _ in range(draws)}
    size = int(t.params[P_SIZE])
    board = np.empty((go_playout.ROWS, 2 * size + 8), np.int64)
    nempty, natari = go_playout.load(t, s, board)
    board[go_playout.MARK, :] = 0
    points = np.empty(size + 1, np.int64)
    incremental = set()
    for _ in range(draws):
        point, natari = go_playout.choose(t, s, board, nempty, natari, -1, points)
        incremental.add(int(point))
    return per_move, incremental


def test_the_incremental_policy_is_the_per_move_policy() -> None:
    """On positions from random games (chains in atari among them), the incremental
    board's choice ranges over exactly the moves the per-move policy draws from."""
    game = get_game("go9")
    assert isinstance(game, Go)
    k = kernel(game)
    rng = random.Random(3)
    np.random.seed(3)
    urgent = 0
    for plies in range(20, 140, 6):
        state = random_position(game, plies, rng)
        if game.outcome(state) is not None:
            continue
        per_move, incremental = policy_moves(k, state, 1500)
        assert per_move == incremental, (plies, game.format_position(state))
        urgent += len(per_move) <= 3
    assert urgent >= 3  # captures and saves were met, not only the plain moves
