"""Makruk's counting rules (options.honour_counting in myriad/games/variants/makruk.toml):
board's and pieces' honour, worked by hand, then against Fairy-Stockfish (pyffish: GPL, a
test oracle only), whose FEN carries the count as ours does."""

from __future__ import annotations

import random

import pytest

from myriad import PositionError, get_game
from myriad.core.errors import GameDefinitionError
from myriad.core.piece_game import PieceGame
from myriad.games.variant_file import load_variants

try:
    import pyffish as sf
except ImportError:  # the oracle is part of the test extra: a missing one must not pass silently
    pytest.fail("pyffish (Fairy-Stockfish) is not installed: pip install -e '.[test]'", pytrace=False)


def makruk() -> PieceGame:
    game = get_game("makruk")
    assert isinstance(game, PieceGame)
    return game


def test_pieces_honour_against_a_bare_king() -> None:
    """Two rooks against a bare king: 8 moves (16 half moves), counted from the 4 pieces on
    the board (8 half moves); drawn when the count passes 16 unless mated."""
    game = makruk()
    state = game.play_text(game.parse_position("4k3/8/8/8/8/8/8/R3K2R w - - 0 1"), "a1a2")
    assert game.format_position(state) == "4k3/8/8/8/8/8/R7/4K2R b - 16 8 1"
    for text in ("e8d8", "h1h2", "d8e8", "h2h3", "e8d8", "h3h4", "d8e8", "h4h5"):
        state = game.play_text(state, text)
        assert game.outcome(state) is None
    state = game.play_text(state, "e8d8")
    assert state.counters[0] == 17 and state.counters[2] == 16
    outcome = game.outcome(state)
    assert outcome is not None and outcome.scores == (0.5, 0.5)
    assert outcome.reason == "counting: 8 moves of pieces' honour"
    assert game.parse_position(game.format_position(state)) == state


def test_a_mate_on_the_last_counted_move_still_wins() -> None:
    game = makruk()
    # the count stands at its limit; the rook mates: the count passes it, but mate comes first
    state = game.parse_position("k7/8/1K6/8/8/8/8/7R w - 32 32 40")
    mated = game.play_text(state, "h1h8")
    assert mated.counters[0] == 33
    outcome = game.outcome(mated)
    assert outcome is not None and outcome.reason == "checkmate" and outcome.winner == 0


def test_boards_honour_once_the_pawns_are_gone() -> None:
    game = makruk()
    state = game.play_text(game.parse_position("4k3/8/8/3m4/8/8/8/2N1KN2 b - - 0 1"), "d5e4")
    assert game.format_position(state) == "4k3/8/8/8/4m3/8/8/2N1KN2 w - 128 0 2"   # 64 moves from 0
    with_pawn = game.play_text(game.parse_position("4k3/8/8/3m4/8/2P5/8/2N1KN2 b - - 0 1"), "d5e4")
    assert with_pawn.counters == (1, 2, 0)                                           # no count with a pawn


def test_a_bare_king_taking_the_last_pawn_counts_for_itself() -> None:
    game = makruk()
    state = game.play_text(game.parse_position("4k3/8/8/8/3p4/4K3/8/r7 w - - 0 1"), "e3d4")
    assert game.format_position(state) == "4k3/8/8/8/3K4/8/8/r7 b - 32 5 1"  # a rook: 16 moves, from 3 pieces


def test_positions_with_a_count_are_checked() -> None:
    game = makruk()
    with pytest.raises(PositionError, match="pawns on the board"):
        game.parse_position("4k3/8/8/8/2p5/8/8/R3K2R w - 16 8 1")
    with pytest.raises(PositionError, match="counting limit"):
        game.parse_position("4k3/8/8/8/8/8/8/R3K2R w - 129 8 1")
    with pytest.raises(PositionError, match="en-passant"):
        game.parse_position("4k3/8/8/8/8/8/8/R3K2R w - x9 8 1")


@pytest.mark.parametrize("change,field,expected", [
    ("board = 64", "board", "expected 1 or more"),
    ('pawns = ["pawn"]', "pawns", "no piece kind 'peasant'"),
    ('{ piece = "rook", count = 2, moves = 8 }', "pieces", "no piece kind 'tower'"),
])
def test_broken_counting_rules(change: str, field: str, expected: str) -> None:
    text = ('[bad]\ninherits = "makruk"\nname = "Bad"\n\n[bad.options]\nmove_rule = 0\n\n'
            '[bad.options.honour_counting]\npawns = ["pawn"]\nboard = 64\n'
            'pieces = [{ piece = "rook", count = 2, moves = 8 }]\n')
    broken = text.replace(change, {"board": "board = 0", "pawns": 'pawns = ["peasant"]',
                                   "pieces": '{ piece = "tower", count = 2, moves = 8 }'}[field])
    with pytest.raises(GameDefinitionError) as err:
        load_variants(broken, name="bad.toml")
    assert f"bad.options.honour_counting.{field}" in str(err.value) and expected in str(err.value), str(err.value)
    with pytest.raises(GameDefinitionError, match="move_rule = 0"):
        load_variants(text.replace("move_rule = 0", "move_rule = 50"), name="bad.toml")


ENDGAMES = ["4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "4k3/8/8/8/8/8/3r4/R3K2R w - - 0 1",
            "4k3/8/2s5/8/8/8/8/RS2K1N1 w - - 0 1", "4k3/8/8/8/2p5/8/8/R3K3 w - - 0 1",
            "4k3/8/8/3m4/8/8/8/2N1KN2 b - - 0 1", "2n1k3/8/8/8/8/2P5/8/R3K3 w - - 0 1",
            "r3k3/8/8/8/8/8/8/RN2K1N1 b - - 0 1", "4k3/8/2p5/8/8/8/8/R3K3 w - - 0 1"]


@pytest.mark.parametrize("seed,games", [(1, 8), pytest.param(2, 150, marks=pytest.mark.slow)])
def test_counts_agree_with_fairy_stockfish(seed: int, games: int) -> None:
    """Random games from pawnless and nearly pawnless endings: the same position text (the
    limit and the count included) after every move, and the same ends by counting."""
    game = makruk()
    rng = random.Random(seed)
    counted = 0
    for _ in range(games):
        start = rng.choice(ENDGAMES)
        state, played = game.parse_position(start), []
        for _ply in range(300):
            assert game.format_position(state) == sf.get_fen("makruk", start, played), (start, played)
            ours = {game.uci(state, m): m for m in game.legal_moves(state)}
            outcome = game.outcome(state)
            # a finished game has no legal move; Fairy-Stockfish lists the pieces' moves
            by_rules = ours if outcome is None else {game.uci(state, m) for m in game.moves_by_rules(state)}
            assert outcome is None or not ours, (start, played)
            assert set(by_rules) == set(sf.legal_moves("makruk", start, played)), (start, played)
            if outcome is not None and outcome.reason.startswith("counting"):
                assert sf.is_optional_game_end("makruk", start, played)[0], (start, played)
                counted += 1
            if outcome is not None or not ours:
                break
            uci = rng.choice(sorted(ours))
            state = game.play(state, ours[uci])
            played.append(uci)
    assert counted >= games // 3   # most random endings run out of count
