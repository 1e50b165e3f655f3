"""Chess, shatranj and makruk: perft against the oracles, FIDE rules, SAN, FEN, errors.

python-chess (GPL) is used here only as an independent test oracle.
"""

from __future__ import annotations

import random

import pytest

from myriad import (
    IllegalMoveError,
    InvalidMoveError,
    MyriadError,
    PositionError,
    get_game,
)
from myriad.core.game import perft

from oracles import load_oracle, require

FAST_NODES = 120_000      # default suite: every depth whose count is below this
SLOW_NODES = 5_000_000    # -m slow: deeper


def perft_cases(file: str, game: str, limit: int, floor: int = 0) -> list[object]:
    data = load_oracle(file)
    return require([pytest.param(game, p["fen"], int(d), n, id=f"{game}-{p['name']}-d{d}")
                    for p in data["positions"] for d, n in p["perft"].items() if floor < n <= limit],
                   f"{game} perft counts from {floor + 1} to {limit} nodes in {file}")


ALL_PERFT = [("chess_perft.json", "chess"), ("shatranj_perft.json", "shatranj"),
             ("makruk_perft.json", "makruk"), ("breakthrough_perft.json", "breakthrough")]


@pytest.mark.parametrize("game_id,fen,depth,expected",
                         [c for f, g in ALL_PERFT for c in perft_cases(f, g, FAST_NODES)])
def test_perft(game_id: str, fen: str, depth: int, expected: int) -> None:
    game = get_game(game_id)
    assert perft(game, game.parse_position(fen), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize("game_id,fen,depth,expected",
                         [c for f, g in ALL_PERFT for c in perft_cases(f, g, SLOW_NODES, FAST_NODES)])
def test_perft_deep(game_id: str, fen: str, depth: int, expected: int) -> None:
    game = get_game(game_id)
    assert perft(game, game.parse_position(fen), depth) == expected


def play(game_id: str, *moves: str, fen: str | None = None):
    game = get_game(game_id)
    state = game.parse_position(fen) if fen else game.initial_state()
    for text in moves:
        state = game.play_text(state, text)
    return game, state


def sans(game_id: str, fen: str) -> set[str]:
    game = get_game(game_id)
    state = game.parse_position(fen)
    return {game.format_move(state, m) for m in game.legal_moves(state)}


def test_castling_not_through_or_out_of_check() -> None:
    assert {"O-O", "O-O-O"} <= sans("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    through = sans("chess", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1")   # f1 attacked
    assert "O-O-O" in through and "O-O" not in through
    assert not {"O-O", "O-O-O"} & sans("chess", "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1")  # in check
    # b1 attacked does not stop queen-side castling: the king does not cross b1
    assert "O-O-O" in sans("chess", "4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1")
    assert "O-O" not in sans("chess", "4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1")  # blocked


def test_castling_rights_lost_when_rook_moves_or_is_taken() -> None:
    game, state = play("chess", "Rh2", fen="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert game.format_position(state).split()[2] == "Qkq"
    game, state = play("chess", "Rxa8+", fen="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert game.format_position(state).split()[2] == "Kk"


def test_en_passant() -> None:
    game, state = play("chess", "e4", "a6", "e5", "d5")
    assert game.format_position(state).split()[3] == "d6"
    game, after = play("chess", "exd6", fen=game.format_position(state))
    assert game.format_position(after).startswith("rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b")
    # no en-passant square when no pawn can take
    game, state = play("chess", "e4")
    assert game.format_position(state).split()[3] == "-"


def test_en_passant_that_exposes_the_king_is_illegal() -> None:
    assert "exd6" not in sans("chess", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1")


def test_every_promotion() -> None:
    assert {"a8=Q", "a8=R", "a8=B", "a8=N"} <= sans("chess", "8/P7/7k/8/8/8/8/4K3 w - - 0 1")


def test_checkmate_stalemate_and_draw_rules() -> None:
    game, state = play("chess", "f3", "e5", "g4", "Qh4#")
    out = game.outcome(state)
    assert out is not None and out.winner == 1 and out.reason == "checkmate"
    stalemate = get_game("chess").parse_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    out = game.outcome(stalemate)
    assert out is not None and out.winner is None and out.reason == "stalemate"
    for fen, dead in [("8/8/8/4k3/8/8/8/4K3 w - - 0 1", True),
                      ("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1", True),
                      ("8/8/8/4k3/8/8/8/1N2K3 w - - 0 1", True),
                      ("8/8/3b4/4k3/8/8/8/2B1K3 w - - 0 1", True),    # bishops on one colour
                      ("8/8/2b5/4k3/8/8/8/2B1K3 w - - 0 1", False),   # opposite colours
                      ("8/8/2n5/4k3/8/8/8/1N2K3 w - - 0 1", False),
                      ("8/8/8/4k3/8/8/P7/4K3 w - - 0 1", False)]:
        out = game.outcome(game.parse_position(fen))
        assert (out is not None and out.reason == "insufficient material") == dead, fen
    out = game.outcome(game.parse_position("8/8/8/4k3/8/8/P7/4K3 w - - 100 80"))
    assert out is not None and out.reason == "50-move rule"
    game, state = play("chess", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    assert game.outcome(state) is None
    state = game.play_text(state, "Ng8")
    out = game.outcome(state)
    assert out is not None and out.reason == "repetition"


def test_san_disambiguation_and_parsing() -> None:
    assert {"Nbd2", "Nfd2"} <= sans("chess", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    assert {"R1a2", "R3a2"} <= sans("chess", "4k3/8/8/8/8/R7/8/R3K3 w - - 0 1")
    game = get_game("chess")
    state = game.initial_state()
    assert game.parse_move(state, "g1f3") == game.parse_move(state, "Nf3")
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "e2e5")
    with pytest.raises(IllegalMoveError):
        game.parse_move(state, "Ke2")
    with pytest.raises(InvalidMoveError):
        game.parse_move(state, "e2 e4 !!")


@pytest.mark.parametrize("fen", [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",            # 7 rows
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",   # bad letter
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",   # row too long
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",   # side
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1",   # no white king
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1",   # castling letter
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",  # en passant square
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",   # counters
    "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1 extra",                      # too many fields
    "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",                            # side not to move in check
    "",
])
def test_bad_fen_is_rejected_with_a_reason(fen: str) -> None:
    with pytest.raises(PositionError) as err:
        get_game("chess").parse_position(fen)
    assert str(err.value)


def test_shatranj_stalemate_and_bare_king_lose() -> None:
    game = get_game("shatranj")
    out = game.outcome(game.parse_position("7k/5K2/6P1/8/8/8/p7/R7 b - - 0 1"))
    assert out is not None and out.winner == 0 and out.reason == "stalemate"
    out = game.outcome(game.parse_position("7k/8/8/8/8/8/R7/K7 b - - 0 1"))
    assert out is not None and out.winner == 0 and out.reason == "bare king"


def test_makruk_promotes_on_sixth_rank() -> None:
    assert "a6=M" in sans("makruk", "4k3/8/8/P7/8/8/8/4K3 w - - 0 1")


def test_breakthrough_goal_ends_the_game() -> None:
    game = get_game("breakthrough")
    state = game.parse_position("7p/1P6/8/8/8/8/8/8 w 0 1")
    move = game.parse_move(state, "b7-b8")
    after = game.play(state, move)
    out = game.outcome(after)
    assert out is not None and out.winner == 0 and game.legal_moves(after) == []
    assert game.format_move(state, game.parse_move(state, "b7b8")) == "b7-b8"


def test_random_games_agree_with_python_chess() -> None:
    """Legal moves (UCI), SAN, FEN fields and game ends agree with python-chess move by move."""
    chess = pytest.importorskip("chess")
    game = get_game("chess")
    rng = random.Random(20261122)
    for _ in range(12):
        state, board = game.initial_state(), chess.Board()
        for _ply in range(160):
            moves = game.legal_moves(state)
            ours = {game.uci(state, m): m for m in moves}
            assert set(ours) == {m.uci() for m in board.legal_moves}, board.fen()
            assert game.format_position(state).split()[:3] == board.fen().split()[:3]
            if not moves:
                break
            uci = rng.choice(sorted(ours))
            theirs = chess.Move.from_uci(uci)
            assert game.format_move(state, ours[uci]) == board.san(theirs)
            state = game.play(state, ours[uci])
            board.push(theirs)
            out = game.outcome(state)
            if board.is_checkmate():
                assert out is not None and out.reason == "checkmate"
            elif board.is_stalemate():
                assert out is not None and out.reason == "stalemate"
            elif board.is_insufficient_material():
                assert out is not None and out.reason == "insufficient material"
            if out is not None:
                break


def test_bad_input_changes_nothing() -> None:
    game = get_game("chess")
    state = game.initial_state()
    before = (state.cells, state.flags, state.counters, state.key)
    for text in ["e2e5", "", "Qxx9", "O-O"]:
        with pytest.raises(MyriadError):
            game.play_text(state, text)
    assert (state.cells, state.flags, state.counters, state.key) == before


def test_san_and_uci_read_back_in_variant_files() -> None:
    """SAN and UCI round trips on the test variants (ten files, ten ranks, new letters)."""
    from pathlib import Path

    from myriad.games.variant_file import load_variants

    rng = random.Random(3)
    files = sorted((Path(__file__).parent / "variants").glob("*.toml"))
    games = [g for f in files for g in load_variants(f)]
    assert {"capablanca", "grand"} <= {g.id for g in games}
    for game in games:
        state = game.initial_state()
        for _ply in range(30):
            moves = game.legal_moves(state)
            if not moves or game.outcome(state) is not None:
                break
            for move in rng.sample(moves, min(4, len(moves))):
                assert game.parse_move(state, game.format_move(state, move)) == move
                assert game.parse_move(state, game.uci(state, move)) == move
            state = game.play(state, rng.choice(moves))
    grand = next(g for g in games if g.id == "grand")
    # on a9 the pawn must promote, and only to what White has lost: here a knight
    state = grand.parse_position("1r7r/P1bqkcab2/10/10/10/10/10/1PPPPPPPPP/1NBQKCAB2/R8R w - - 0 1")
    assert {grand.format_move(state, m) for m in grand.legal_moves(state)
            if m[-1][1] == grand.topology.pos("a9")} == {"a10=N", "axb10=N"}
    full = grand.parse_position("1r7r/P1bqkcab2/10/10/10/10/10/1PPPPPPPPP/1NBQKCABN1/R8R w - - 0 1")
    assert not [m for m in grand.legal_moves(full) if m[-1][1] == grand.topology.pos("a9")]
