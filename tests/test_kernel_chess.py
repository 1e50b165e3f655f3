"""The chess family on the kernel (:mod:`myriad.kernel.families.chess`) against the
reference engine: perft on the oracle positions, and random games in which every position's
legal moves, every move's successor state (cells, side, flags, counters, hands, key,
history marks), the outcome, the evaluation, the move heuristic and noisiness agree.

Numba compiles the kernel once per source version (a minute or two, cold); every check
here runs in the same process.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from myriad.core.game import Game, Outcome, perft
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.games import game_ids, get_game
from myriad.games.variant_file import load_variants
from myriad.kernel import rules
from myriad.kernel.engine import Kernel
from myriad.kernel.families import chess as family
from myriad.kernel.registry import kernel_for

from oracles import load_oracle, require

#: Games the chess family must cover, and the oracle file of each that has one.
COVERED = {"chess": "chess_perft.json", "shatranj": "shatranj_perft.json", "crazyhouse": "crazyhouse_perft.json",
           "shogi": "shogi_perft.json", "minishogi": "minishogi_perft.json", "xiangqi": "xiangqi_perft.json",
           "breakthrough": "breakthrough_perft.json", "makruk": "makruk_perft.json", "janggi": "janggi_perft.json"}
#: ... and those it covers that have no oracle file.
COVERED_WITHOUT_ORACLE = ("sittuyin",)
#: Piece games that stay on the reference engine (hidden information).
REFERENCE_ONLY = ("darkchess", "darkxiangqi", "darkshatranj")
FAST_NODES = 60_000        # kernel perft on the oracle positions, default run
REFERENCE_NODES = 3_000    # ... and the reference's perft beside it
SLOW_NODES = 5_000_000


def chess_kernels() -> list[str]:
    """Every registered game the chess family runs."""
    out = []
    for gid in game_ids():
        kernel = kernel_for(get_game(gid))
        if kernel is not None and kernel.family is family:
            out.append(gid)
    return out


def oracle_cases(limit: int, floor: int = 0) -> list[object]:
    cases = []
    for gid, name in COVERED.items():
        for p in load_oracle(name)["positions"]:
            text = p.get("sfen") or p["fen"]
            for depth, nodes in p["perft"].items():
                if floor < int(nodes) <= limit:
                    cases.append(pytest.param(gid, text, int(depth), int(nodes), id=f"{gid}-{p['name'][:20]}-d{depth}"))
    return require(cases, "chess-family perft counts")


def winners(outcome: Outcome | None) -> int:
    """The kernel's way of saying an outcome: the bits of the best-scoring players."""
    if outcome is None:
        return -1
    best = max(outcome.scores)
    return sum(1 << p for p, s in enumerate(outcome.scores) if s == best)


def test_the_family_covers_its_games_and_leaves_the_others() -> None:
    covered = chess_kernels()
    assert set(COVERED) | set(COVERED_WITHOUT_ORACLE) <= set(covered)
    for gid in REFERENCE_ONLY:
        assert kernel_for(get_game(gid)) is None, gid
    for gid in covered:  # every game it takes is a piece game
        assert isinstance(get_game(gid), PieceGame)


@pytest.mark.parametrize("gid,text,depth,nodes", oracle_cases(FAST_NODES))
def test_kernel_perft_matches_the_oracles(gid: str, text: str, depth: int, nodes: int) -> None:
    game = get_game(gid)
    kernel = kernel_for(game)
    assert kernel is not None
    state = game.parse_position(text)
    assert kernel.perft(state, depth) == nodes
    if nodes <= REFERENCE_NODES:
        assert perft(game, state, depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("gid,text,depth,nodes", oracle_cases(SLOW_NODES, FAST_NODES))
def test_kernel_perft_matches_the_oracles_deep(gid: str, text: str, depth: int, nodes: int) -> None:
    game = get_game(gid)
    kernel = kernel_for(game)
    assert kernel is not None
    assert kernel.perft(game.parse_position(text), depth) == nodes


def compare_position(kernel: Kernel, game: Game, state: State) -> list:
    """Check every rule and knowledge function of ``kernel`` at ``state``; the legal moves."""
    t = kernel.tables
    s = kernel.pack(state)
    hist = kernel.history(state)
    moves = kernel.move_buffer()
    count = int(rules.gen(t, s, hist, len(hist), moves))
    legal = game.legal_moves(state)
    mine = [kernel.to_move(s, moves[i]) for i in range(count)]
    assert count == len(legal) and set(mine) == set(legal), game.format_position(state)
    assert len({int(moves[i, 0]) for i in range(count)}) == count  # word 0 names the move
    assert int(rules.outcome(t, s, hist, len(hist), count)) == winners(game.outcome(state))
    assert float(rules.evaluate(t, s)) == pytest.approx(float(game.evaluate(state)), abs=1e-9)
    dst = np.empty_like(s)
    for i, move in enumerate(mine):
        row = moves[i]
        assert float(rules.order(t, s, row)) == pytest.approx(game.move_heuristic(state, move), abs=1e-9)
        assert bool(rules.noisy(t, s, row)) == game.is_noisy(state, move)
        bits = int(rules.play(t, s, row, dst))
        history = () if bits & 1 else state.history + ((state.key, -1) if bits & 2 else (state.key,))
        got = kernel.unpack(dst, history)
        want = game.play(state, move)
        assert (got.cells, got.to_move, got.flags, got.counters, got.hands, got.key, got.history) == (
            want.cells, want.to_move, want.flags, want.counters, want.hands, want.key, want.history), \
            f"{game.format_position(state)}: {game.format_move(state, move)}"
    return legal


def random_game(kernel: Kernel, game: Game, rng: random.Random, plies: int, state: State | None = None) -> State:
    state = state or game.initial_state()
    for _ in range(plies):
        legal = compare_position(kernel, game, state)
        if not legal:
            break
        state = game.play(state, rng.choice(legal))
    return state


@pytest.mark.parametrize("gid", sorted(COVERED) + list(COVERED_WITHOUT_ORACLE))
def test_random_games_agree_move_by_move(gid: str) -> None:
    game = get_game(gid)
    kernel = kernel_for(game)
    assert kernel is not None
    rng = random.Random(f"kernel-{gid}")
    plies = 24 if game.topology.size <= 64 and not game.piece_rules.drops else 10
    for _ in range(20):
        random_game(kernel, game, rng, plies)


def games_to_the_end(gid: str, games: int, plies: int) -> set[str]:
    """Random games of at most ``plies`` plies in which the legal moves and the outcome
    agree at each ply; the reasons of the ends reached."""
    game = get_game(gid)
    kernel = kernel_for(game)
    assert kernel is not None
    rng = random.Random(f"kernel-end-{gid}")
    ends = set()
    for _ in range(games):
        state = game.initial_state()
        for _ply in range(plies):
            s, moves, count = kernel.move_rows(state)
            legal = game.legal_moves(state)
            assert set(kernel.to_move(s, moves[i]) for i in range(count)) == set(legal)
            assert kernel.winners(state) == winners(game.outcome(state))
            if not legal:
                ends.add(game.outcome(state).reason)
                break
            state = game.play(state, rng.choice(legal))
    return ends


@pytest.mark.parametrize("gid", sorted(COVERED) + list(COVERED_WITHOUT_ORACLE))
def test_a_random_game_agrees_ply_by_ply(gid: str) -> None:
    games_to_the_end(gid, 1, 300)


@pytest.mark.slow
@pytest.mark.parametrize("gid", sorted(COVERED) + list(COVERED_WITHOUT_ORACLE))
def test_random_games_to_the_end_agree(gid: str) -> None:
    """Whole random games: every rule that ends one is met sooner or later."""
    assert games_to_the_end(gid, 4, 1000), f"{gid}: no random game ended within 1000 plies"


def test_threefold_repetition_and_the_move_rule_end_a_chess_game() -> None:
    game = get_game("chess")
    kernel = kernel_for(game)
    assert kernel is not None
    state = game.initial_state()
    for text in ["Nf3", "Nf6", "Ng1", "Ng8"] * 2:
        assert kernel.winners(state) == -1
        state = kernel.play(state, game.parse_move(state, text))
    assert state.repetitions() == 2
    assert kernel.winners(state) == 3 and kernel.legal_moves(state) == []
    late = game.parse_position("8/8/4k3/8/8/3K4/8/R7 w - - 99 80")
    assert kernel.winners(late) == -1
    after = kernel.play(late, game.parse_move(late, "Ra2"))
    assert after.counters[0] == 100 and kernel.winners(after) == 3 == winners(game.outcome(after))


@pytest.mark.parametrize("gid,text,expected", [
    ("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 1),           # checkmate: white wins
    ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3),           # stalemate: a draw
    ("chess", "8/8/4k3/8/8/3KB3/8/8 w - - 0 1", 3),           # insufficient material
    ("shatranj", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1),        # stalemate loses in shatranj
    ("shatranj", "7k/8/6K1/8/8/8/8/7R b - - 0 1", 1),         # bare king, cannot bare back
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", -1),  # Kd1 would face the general
])
def test_ends_of_games_agree(gid: str, text: str, expected: int) -> None:
    game = get_game(gid)
    kernel = kernel_for(game)
    assert kernel is not None
    state = game.parse_position(text)
    assert winners(game.outcome(state)) == expected
    assert kernel.winners(state) == expected
    compare_position(kernel, game, state)


VARIANT_FILES = sorted((Path(__file__).parent / "variants").glob("*.toml"))


def test_user_variant_files_are_on_the_kernel() -> None:
    """Every test variant file (riders, hoppers, large boards, drops, zones) is read by the
    family: none falls back to the reference."""
    games = [g for path in require(VARIANT_FILES, "variant files in tests/variants") for g in load_variants(path)]
    assert games and all(kernel_for(g) is not None and kernel_for(g).family is family for g in games)


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda p: p.stem)
def test_user_variants_agree_with_the_reference(path: Path) -> None:
    for game in load_variants(path):
        kernel = kernel_for(game)
        assert kernel is not None
        start = game.initial_state()
        assert kernel.perft(start, 2) == perft(game, start, 2)
        rng = random.Random(f"kernel-{game.id}")
        for _ in range(6):
            random_game(kernel, game, rng, 20)


@pytest.mark.parametrize("text", [
    "4k3/8/3r4/8/8/8/8/R3K3 w - - 0 40",      # no pawns: board's honour counts
    "4k3/8/8/8/8/8/8/R3K2R w - - 0 40",       # a bare king: pieces' honour
    "4k3/8/8/3p4/8/8/3R4/4K3 w - - 0 40",     # the last pawn falls
])
def test_makruk_counting_agrees(text: str) -> None:
    game = get_game("makruk")
    kernel = kernel_for(game)
    assert kernel is not None
    rng = random.Random(text)
    counted = False
    for _ in range(4):
        state = random_game(kernel, game, rng, 40, game.parse_position(text))
        counted = counted or state.counters[2] > 0
    assert counted


@pytest.mark.parametrize("sfen,mates", [
    ("8k/6G2/7S1/9/9/9/9/9/K8 b P 1", True),   # P*1b would mate (the silver guards it): not legal
    ("8k/6G2/9/9/9/9/9/9/K8 b P 1", False),    # the king may take the pawn: legal
])
def test_a_pawn_drop_may_not_mate(sfen: str, mates: bool) -> None:
    game = get_game("shogi")
    kernel = kernel_for(game)
    assert kernel is not None
    state = game.parse_position(sfen)
    legal = compare_position(kernel, game, state)
    assert ("P*1b" in {game.format_move(state, m) for m in legal}) is not mates


def test_perpetual_check_loses_on_the_kernel() -> None:
    """Shogi's sennichite: the fourth occurrence, every move of one side a check."""
    game = get_game("shogi")
    kernel = kernel_for(game)
    assert kernel is not None
    state = game.parse_position("8k/9/9/9/9/9/9/9/K6R1 b - 1")
    for text in ["2i1i", "1a2a", "1i2i", "2a1a"] * 3:
        assert kernel.winners(state) == -1
        move = game.parse_move(state, text)
        mine, want = kernel.play(state, move), game.play(state, move)
        assert (mine.key, mine.history, mine.counters) == (want.key, want.history, want.counters)
        state = want
    assert -1 in state.history and state.repetitions() == 3
    assert kernel.winners(state) == 2 == winners(game.outcome(state))  # the checked side wins
