"""Hunt games on the kernel: along games whose hunters take whenever they can (so that
long capture chains, merged routes and the ends by captures occur), the kernel lists,
plays, scores and ends every position as the reference does."""
from __future__ import annotations

import random

import pytest

from myriad.games import get_game
from myriad.kernel import rules
from myriad.kernel.registry import kernel_for

from kernel_checks import winner_bits


@pytest.mark.parametrize("game_id", ["foxgeese", "foxgeese17", "baghchal"])
def test_capture_hungry_games_agree(game_id: str) -> None:
    game = get_game(game_id)
    kernel = kernel_for(game)
    assert kernel is not None
    rng = random.Random(11)
    chains = ends = 0
    for _ in range(12):
        state = game.initial_state()
        while True:
            moves = game.legal_moves(state)
            s, rows, count = kernel.move_rows(state)
            listed = [kernel.to_move(s, rows[i]) for i in range(count)]
            assert sorted(listed) == sorted(moves), game.format_position(state)
            assert kernel.winners(state) == winner_bits(game.outcome(state))
            assert kernel.evaluate(state) == pytest.approx(game.evaluate(state), abs=1e-9)
            for i, move in enumerate(listed):
                assert rules.order(kernel.tables, s, rows[i]) == game.move_heuristic(state, move)
                assert bool(rules.noisy(kernel.tables, s, rows[i])) == game.is_noisy(state, move)
            if not moves:
                ends += 1
                break
            captures = [m for m in moves if m.captures]
            move = rng.choice(captures if captures and rng.random() < 0.8 else moves)
            chains += len(move.captures) > 1
            after = kernel.play(state, move)
            expected = game.play(state, move)
            assert (after.cells, after.to_move, after.counters, after.hands, after.key, after.history) == (
                expected.cells, expected.to_move, expected.counters, expected.hands, expected.key,
                expected.history)
            state = expected
    assert ends == 12
    if game_id.startswith("foxgeese"):
        assert chains > 0  # the fox's chains were exercised
