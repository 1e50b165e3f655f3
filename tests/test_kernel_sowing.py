"""The sowing family of the kernel engine (myriad.kernel.families.sowing) against the
reference engine, which is its specification: Kalah (extra turns, captures across, leftovers),
Oware (capture chains, the grand slam, feeding, the end at a repeated position) and Toguz
Kumalak (tuzdyk claims), as registered and in variants built from other parameters.

The oracle files hold no perft counts for any mancala game (solved.json gives game values
only), so the counts here are the reference's own ``perft``.  Numba compiles the family on
first use (cached afterwards): one module, a few tests, many checks each.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from myriad.core.game import Game, perft
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.games.capture_mancala import CaptureMancala
from myriad.games.kalah import Kalah, kalah
from myriad.games.oware import oware
from myriad.games.toguz import toguz
from myriad.kernel import rules
from myriad.kernel.engine import Kernel
from myriad.kernel.families import sowing
from myriad.kernel.registry import kernel_for

from kernel_checks import winner_bits as outcome_bits

#: Variants built from parameters no registered game uses, so the family is checked
#: against the mechanics' options, not against four games.
VARIANTS = {
    "kalah(6,4) empty capture": lambda: kalah(capture_facing_empty=True),
    "kalah(4,3) leftovers to the empty side": lambda: kalah(4, 3, leftovers="empty_side"),
    "kalah(3,6) skip origin": lambda: kalah(3, 6, skip_origin=True),
    "kalah(1,3)": lambda: kalah(1, 3),
    "oware grand slam forbidden": lambda: oware(grand_slam="forbidden"),
    "oware(3,2)": lambda: oware(3, 2),
    "oware(2,1) grand slam allowed": lambda: oware(2, 1, grand_slam="allowed"),
    "toguz(5,5)": lambda: toguz(5, 5),
    "toguz(3,2)": lambda: toguz(3, 2),
}


def winner_bits(game: Game, state: State) -> int:
    """The reference outcome of ``state`` as the kernel says it."""
    return outcome_bits(game.outcome(state))


def repetition_bits(game: Game, state: State) -> int:
    scores = game.repetition_outcome(state).scores
    return sum(1 << p for p, score in enumerate(scores) if score == max(scores))


def sowing_games() -> list[tuple[str, Game]]:
    """Every registered game of the sowing mechanics, then the variants."""
    found = [(gid, get_game(gid)) for gid in game_ids()
             if isinstance(get_game(gid), (Kalah, CaptureMancala))]
    return found + [(name, make()) for name, make in VARIANTS.items()]


def new_stats() -> dict[str, int]:
    """Counts of the rules met on the way (a test asserts the rules it exists for were met)."""
    return dict.fromkeys(("extra turns", "kept history", "claims", "captures", "ended", "repeated",
                          "repetition ends", "grand slams", "must feed", "wipe outs"), 0)


def check_position(game: Game, kernel: Kernel, state: State, stats: dict[str, int]) -> list:
    """Every fact of one position on both engines; returns the reference's legal moves."""
    t = kernel.tables
    moves = game.legal_moves(state)
    mine = kernel.legal_moves(state)
    assert len(mine) == len(set(mine)) and set(mine) == set(moves), game.format_position(state)
    assert kernel.winners(state) == winner_bits(game, state), game.format_position(state)
    assert kernel.evaluate(state) == pytest.approx(game.evaluate(state), abs=1e-9)
    if state.key in state.history:
        stats["repeated"] += 1
        assert int(rules.repetition(t, kernel.pack(state))) == repetition_bits(game, state)
    s, rows, count = kernel.move_rows(state)
    assert count == len(moves)
    if isinstance(game, CaptureMancala) and moves:
        sow, me = game.sowing, state.to_move
        stats["grand slams"] += sum(sow.sow(state.cells, me, h, game.claims(state)).grand_slam
                                    for h in game.houses[me] if state.cells[h])
        stats["must feed"] += sow.must_feed and not sow.side_seeds(state.cells, 1 - me)
    for i in range(count):
        move = kernel.to_move(s, rows[i])
        assert float(rules.order(t, s, rows[i])) == pytest.approx(game.move_heuristic(state, move), abs=1e-9)
        assert bool(rules.noisy(t, s, rows[i])) == game.is_noisy(state, move)
        dst = np.empty_like(s)
        bits = int(rules.play(t, s, rows[i], dst))
        want = game.play(state, move)
        got = kernel.unpack(dst, () if bits & 1 else state.history + (state.key,))
        assert got == want and got.key == want.key and got.history == want.history, \
            f"{game.format_position(state)} {game.format_move(state, move)}"
        stats["extra turns"] += want.to_move == state.to_move
        stats["kept history"] += bool(want.history)
        stats["claims"] += any(a[4] == 1 for a in move)
        stats["captures"] += game.is_noisy(state, move)
        if isinstance(game, CaptureMancala) and game.is_noisy(state, move):
            stats["wipe outs"] += not game.sowing.side_seeds(want.cells, 1 - state.to_move)
    return moves


def random_game(game: Game, kernel: Kernel, rng: random.Random, stats: dict[str, int],
                max_plies: int = 2000) -> list[State]:
    """A random game to its end, every position checked on both engines; its positions."""
    state = game.initial_state()
    seen = [state]
    for _ in range(max_plies):
        moves = check_position(game, kernel, state, stats)
        if not moves:
            stats["ended"] += 1
            reason = game.outcome(state).reason
            stats["repetition ends"] += reason.startswith("position repeated")
            break
        state = game.play(state, rng.choice(moves))
        seen.append(state)
    return seen


def test_the_sowing_games_run_on_the_sowing_family():
    """Every registered Kalah or capture mancala game compiles to this family, and so does
    every variant; a game overriding a rule does not."""
    games = sowing_games()
    assert {gid for gid, _ in games} >= {"kalah", "oware", "oware_grandslam", "toguz"}
    for name, game in games:
        kernel = kernel_for(game)
        assert kernel is not None and kernel.family is sowing, name

    class Tweaked(Kalah):
        def evaluate(self, state: State) -> float:
            return 0.0

    assert sowing.tables(Tweaked()) is None
    assert sowing.tables(get_game("tictactoe")) is None


def test_the_kernel_reads_the_games_weights():
    """Evaluation and ordering weights are the games' data: changed on a game, the kernel
    built for it scores with them."""
    rng = random.Random(5)
    for game in (kalah(), toguz(5, 5)):
        game.store_weight, game.side_weight = 7, 2
        if isinstance(game, Kalah):
            game.again_bonus = 31
        else:
            game.claim_value = 250
        kernel = kernel_for(game)
        state = game.initial_state()
        for _ in range(40):
            moves = game.legal_moves(state)
            if not moves:
                break
            assert kernel.evaluate(state) == game.evaluate(state)
            s, rows, count = kernel.move_rows(state)
            for i in range(count):
                move = kernel.to_move(s, rows[i])
                assert float(rules.order(kernel.tables, s, rows[i])) == game.move_heuristic(state, move)
            state = game.play(state, rng.choice(moves))


@pytest.mark.parametrize("name, game", sowing_games(), ids=[name for name, _ in sowing_games()])
def test_random_games_agree_at_every_ply(name, game):
    """Random games to the end: legal sets, successor states (cells, side to move after an
    extra turn, flags, keys, history), winners, evaluation, ordering, noisiness and, at
    repeated positions, the repetition score."""
    kernel = kernel_for(game)
    rng = random.Random(f"ksow {name}")
    stats = new_stats()
    registered = name in game_ids()
    games = 30 if registered else 8
    for _ in range(games):
        random_game(game, kernel, rng, stats)
    assert stats["ended"] == games
    if not registered:
        return
    # the rules this family exists for were met in the registered games, not just quiet moves
    if isinstance(game, Kalah):
        assert stats["extra turns"] > 0 and stats["captures"] == 0
    else:
        assert stats["captures"] > 0
        if game.repetition_ends:
            assert stats["kept history"] > 0 and stats["repeated"] > 0
        if game.sowing.must_feed:
            assert stats["must feed"] > 0
        if game.sowing.grand_slam == "allowed" and game.sowing.capture_chain:
            assert stats["wipe outs"] > 0  # a grand slam taken in full
        elif game.sowing.grand_slam != "allowed":
            assert stats["grand slams"] > 0 and stats["wipe outs"] == 0
        if game.claims_on:
            assert stats["claims"] > 0


def test_repeated_positions_end_oware_and_are_scored_by_counting():
    """Oware(2,1) random games often come back to a position: the reference ends them
    there, counting the seeds; the kernel agrees on the end and on repetition()."""
    game = oware(2, 1)
    kernel = kernel_for(game)
    rng = random.Random(2)
    stats = new_stats()
    for _ in range(40):
        random_game(game, kernel, rng, stats)
    assert stats["repetition ends"] > 0 and stats["repeated"] > 0


def test_perft_from_the_start_and_from_random_middle_games():
    rng = random.Random(21)
    for name, game in sowing_games():
        kernel = kernel_for(game)
        start = game.initial_state()
        depth = 4 if game.topology.size <= 14 else 3
        assert kernel.perft(start, depth) == perft(game, start, depth), name
        for _ in range(3):
            state = start
            for _ply in range(rng.randrange(4, 40)):
                moves = game.legal_moves(state)
                if not moves:
                    break
                state = game.play(state, rng.choice(moves))
            assert kernel.perft(state, 3) == perft(game, state, 3), f"{name} {game.format_position(state)}"


def test_playouts_finish_every_game():
    """Random playouts inside one compiled call: every game ends (scores sum to the games)."""
    for gid in ("kalah", "oware", "toguz"):
        game = get_game(gid)
        scores, plies = kernel_for(game).playouts(game.initial_state(), 50, max_plies=5000, seed=1)
        assert sum(scores) == pytest.approx(50) and plies > 50 * 10, gid


def test_deep_perft_on_small_boards_where_positions_repeat():
    """Deep trees of tiny boards, where an Oware line meets a position again (and ends) after
    captures elsewhere in the tree: the kernel's perft keeps each line's own history."""
    for game, depth in ((oware(3, 1), 12), (oware(2, 1), 14), (oware(3, 2, grand_slam="forbidden"), 9),
                        (toguz(2, 2), 12), (kalah(2, 3), 10)):
        start = game.initial_state()
        expected = perft(game, start, depth)
        assert expected > 0 and kernel_for(game).perft(start, depth) == expected, game.name

