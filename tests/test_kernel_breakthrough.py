"""Breakthrough on the kernel (the chess family's pieces on plain rays, without check)
against the oracle perft counts of Breakthrough (Fairy-Stockfish) and against the reference
engine over random games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from myriad.core.game import Game
from myriad.core.state import State
from myriad.games import get_game
from myriad.games.breakthrough import breakthrough
from myriad.kernel import rules
from myriad.kernel.families import chess as family
from myriad.kernel.registry import kernel_for

from kernel_checks import winner_bits as outcome_bits
from oracles import load_oracle, require

#: Kernel perft runs every oracle count up to this many nodes by default (more under -m slow).
FAST_NODES = 7_000_000


def oracle_cases(fast: bool) -> list[tuple[str, int, int]]:
    data = load_oracle("breakthrough_perft.json")
    cases = [(p["fen"], int(d), int(n)) for p in data["positions"] for d, n in p["perft"].items()
             if (int(n) <= FAST_NODES) == fast]
    return require(cases, "breakthrough perft counts") if fast else cases


def winner_bits(game: Game, state: State) -> int:
    """The reference outcome of ``state`` as the kernel says it."""
    return outcome_bits(game.outcome(state))


def test_the_chess_family_takes_breakthrough_of_any_size():
    for game in (get_game("breakthrough"), breakthrough(5, 6)):
        kernel = kernel_for(game)
        assert kernel is not None and kernel.family is family


def test_kernel_perft_matches_the_oracle():
    game = get_game("breakthrough")
    kernel = kernel_for(game)
    for fen, depth, expected in oracle_cases(fast=True):
        assert kernel.perft(game.parse_position(fen), depth) == expected, (fen, depth)


@pytest.mark.slow
def test_kernel_perft_matches_the_oracle_deep():
    game = get_game("breakthrough")
    kernel = kernel_for(game)
    for fen, depth, expected in oracle_cases(fast=False):
        assert kernel.perft(game.parse_position(fen), depth) == expected, (fen, depth)


@pytest.mark.parametrize("make", [lambda: get_game("breakthrough"), lambda: breakthrough(5, 6)],
                         ids=["breakthrough", "breakthrough(5,6)"])
def test_random_games_agree_at_every_ply(make):
    """Legal sets, successor states (cells, side to move, counters, key, history), winners,
    evaluation, ordering and noisiness, at every ply of random games to the end."""
    game = make()
    kernel = kernel_for(game)
    assert kernel is not None and kernel.family is family
    t = kernel.tables
    rng = random.Random(7)
    ends = set()
    for _ in range(12):
        state = game.initial_state()
        while True:
            moves = game.legal_moves(state)
            s, rows, count = kernel.move_rows(state)
            mine = [kernel.to_move(s, rows[i]) for i in range(count)]
            assert len(mine) == len(set(mine)) and set(mine) == set(moves), game.format_position(state)
            assert kernel.winners(state) == winner_bits(game, state)
            assert kernel.evaluate(state) == pytest.approx(game.evaluate(state), abs=1e-9)
            for i in range(count):
                move = mine[i]
                assert float(rules.order(t, s, rows[i])) == game.move_heuristic(state, move)
                assert bool(rules.noisy(t, s, rows[i])) == game.is_noisy(state, move)
                dst = np.empty_like(s)
                bits = int(rules.play(t, s, rows[i], dst))
                want = game.play(state, move)
                got = kernel.unpack(dst, () if bits & 1 else state.history + (state.key,))
                assert got == want and got.key == want.key and got.history == want.history
            if not moves:
                ends.add(game.outcome(state).reason)
                break
            state = game.play(state, rng.choice(moves))
    assert "reached the last rank" in ends


def test_taking_the_last_piece_wins_on_the_kernel():
    game = get_game("breakthrough")
    kernel = kernel_for(game)
    state = game.parse_position("8/8/8/3p4/4P3/8/8/8 w 0 1")
    (capture,) = [m for m in game.legal_moves(state) if game.is_noisy(state, m)]
    after = kernel.play(state, capture)
    assert after == game.play(state, capture)
    assert kernel.winners(after) == winner_bits(game, after) == 1  # white took the last black piece
