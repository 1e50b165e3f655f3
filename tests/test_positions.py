"""Positions no game reaches are refused with a ``PositionError`` saying why.

One fact per test.  The chess-family checks loop over every registered game of moving
pieces, using each game's own promotion zones and start position.
"""

from __future__ import annotations

import pytest

from myriad.core.errors import PositionError
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.games import game_ids, get_game

PIECE_GAMES = [g for g in game_ids() if isinstance(get_game(g), PieceGame)]
PROMOTING = [g for g in PIECE_GAMES if any(p is not None for p in get_game(g).tables.promotion)]


def test_the_chess_family_is_covered() -> None:
    assert {"chess", "shatranj", "makruk", "shogi", "minishogi", "crazyhouse"} <= set(PROMOTING)
    assert "breakthrough" in PIECE_GAMES


def rewritten(game: PieceGame, state: State, cells: list[int]) -> str:
    """The position text of ``state`` with other cells (for a reader to refuse)."""
    return game.format_position(game.make_state(cells, state.to_move, state.flags, state.counters))


def pawn_code(game: PieceGame, player: int) -> int:
    """The code of ``player``'s promoting piece."""
    return next(c for c, p in enumerate(game.tables.promotion) if p is not None and game.pieces.owner_of[c] == player)


def moved_pawn(game: PieceGame, player: int, square: int) -> str:
    """The start position with one of ``player``'s pawns moved to ``square``."""
    start = game.initial_state()
    cells = list(start.cells)
    pawn = pawn_code(game, player)
    cells[cells.index(pawn)] = 0
    assert cells[square] not in game.royal
    cells[square] = pawn
    return rewritten(game, start, cells)


@pytest.mark.parametrize("game_id", PROMOTING)
@pytest.mark.parametrize("player", [0, 1])
def test_pawn_in_its_promotion_zone_is_refused(game_id: str, player: int) -> None:
    game = get_game(game_id)
    assert isinstance(game, PieceGame)
    zone, _choices = game.tables.promotion[pawn_code(game, player)]  # type: ignore[misc]
    start = game.initial_state().cells
    for square in sorted(zone):
        if start[square] not in game.royal:
            with pytest.raises(PositionError, match=f"pawn on {game.square_name(square)} is impossible: it is promoted"):
                game.parse_position(moved_pawn(game, player, square))


@pytest.mark.parametrize("game_id", PROMOTING)
@pytest.mark.parametrize("player", [0, 1])
def test_pawn_behind_its_start_rows_is_refused(game_id: str, player: int) -> None:
    game = get_game(game_id)
    assert isinstance(game, PieceGame)
    pawn = pawn_code(game, player)
    start = game.initial_state().cells
    zone = game.tables.promotion[pawn][0]  # type: ignore[index]
    behind = [q for q in range(game.topology.size) if q not in game.reachable[pawn] and q not in zone]
    if not behind:  # a drop puts a pawn on any square where it may still move
        assert game.piece_rules.drops, f"{game_id}: pawns start on their first row?"
        assert game.reachable[pawn] == frozenset(range(game.topology.size)) - zone
        return
    for square in behind:
        if start[square] not in game.royal:
            with pytest.raises(PositionError, match="no move from the start position"):
                game.parse_position(moved_pawn(game, player, square))


def test_first_and_last_ranks_in_chess() -> None:
    chess = get_game("chess")
    with pytest.raises(PositionError, match="white pawn on g8"):
        chess.parse_position("rnbqkbPr/pppppppp/8/8/8/8/PPPPPP1P/RNBQKBNR w KQkq - 0 1")
    with pytest.raises(PositionError, match="white pawn on a1"):
        chess.parse_position("rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/PNBQKBNR w Kkq - 0 1")
    with pytest.raises(PositionError, match="black pawn on h1"):
        chess.parse_position("rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNp w Qkq - 0 1")


def test_makruk_pawns_never_stand_below_their_third_rank() -> None:
    with pytest.raises(PositionError, match="white pawn on a2"):
        get_game("makruk").parse_position("rnsmksnr/8/pppppppp/8/8/1PPPPPPP/P7/RNSKMSNR w - - 0 1")


def test_shatranj_alfil_stays_on_its_squares() -> None:
    with pytest.raises(PositionError, match="white alfil on d4"):
        get_game("shatranj").parse_position("rnbkqbnr/pppppppp/8/8/3B4/8/PPPPPPPP/RN1KQBNR w - - 0 1")
    get_game("shatranj").parse_position("rnbkqbnr/pppppppp/8/8/8/B7/PPPPPPPP/RN1KQBNR w - - 0 1")  # c1-a3


def test_en_passant_square_on_a_wrong_rank_is_refused() -> None:
    with pytest.raises(PositionError, match="en-passant square e4 is not one a white double step passes"):
        get_game("chess").parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1")
    with pytest.raises(PositionError, match="en-passant square e6 is not one a white double step passes"):
        get_game("chess").parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1")


def test_en_passant_square_without_the_pawn_that_passed_it_is_refused() -> None:
    with pytest.raises(PositionError, match="en-passant square d3: no white pawn has just passed it"):
        get_game("chess").parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1")
    with pytest.raises(PositionError, match="en-passant square e3"):  # the pawn's start square is taken
        get_game("chess").parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1")


def test_en_passant_square_nobody_can_take_on_reads_as_none() -> None:
    chess = get_game("chess")
    state = chess.parse_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert state == chess.play_text(chess.initial_state(), "e4")
    assert chess.format_position(state).split()[3] == "-"


def test_en_passant_square_with_a_capturer_is_kept() -> None:
    chess = get_game("chess")
    text = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    state = chess.parse_position(text)
    assert chess.format_position(state) == text
    assert "dxe3" in [chess.format_move(state, m) for m in chess.legal_moves(state)]


def test_exactly_one_king_each() -> None:
    chess = get_game("chess")
    with pytest.raises(PositionError, match="white must have exactly one king, has 2"):
        chess.parse_position("4k3/8/8/8/8/8/8/K3K3 w - - 0 1")
    with pytest.raises(PositionError, match="black must have exactly one king, has 0"):
        chess.parse_position("8/8/8/8/8/8/8/4K3 w - - 0 1")


def test_side_not_to_move_in_check_is_refused() -> None:
    with pytest.raises(PositionError, match="not to move is in check"):
        get_game("chess").parse_position("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1")


def test_three_checkers_are_refused() -> None:
    with pytest.raises(PositionError, match="checked by 3 pieces"):
        get_game("chess").parse_position("4k3/8/8/8/1b6/3n4/4r3/4K3 w - - 0 1")
    get_game("chess").parse_position("4k3/8/8/8/1b6/3n4/8/4K3 w - - 0 1")  # two: a double check


def test_castling_rights_need_king_and_rook_at_home() -> None:
    chess = get_game("chess")
    with pytest.raises(PositionError, match="castling right K needs the white king on e1 and its rook on h1"):
        chess.parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1")
    with pytest.raises(PositionError, match="castling right q"):
        chess.parse_position("rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1")


def test_more_pieces_than_pawns_could_promote_to_are_refused() -> None:
    chess = get_game("chess")
    with pytest.raises(PositionError, match="only 0 of its promoting pieces"):
        chess.parse_position("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    nine_queens = chess.parse_position("QQQQQQQQ/Q7/8/8/8/8/8/K1k5 b - - 0 1")
    assert sum(c == chess.pieces.code("queen", 0) for c in nine_queens.cells) == 9


def test_breakthrough_pieces_are_never_added() -> None:
    with pytest.raises(PositionError, match="17 of white pawn"):
        get_game("breakthrough").parse_position("pppppppp/pppppppp/8/8/8/P7/PPPPPPPP/PPPPPPPP b 0 1")


def test_breakthrough_goal_reached_by_both_or_by_the_side_to_move() -> None:
    game = get_game("breakthrough")
    with pytest.raises(PositionError, match="both sides have reached their goal"):
        game.parse_position("P7/8/8/8/8/8/8/p7 w 0 1")
    with pytest.raises(PositionError, match="white cannot be to move"):
        game.parse_position("P7/8/8/8/8/8/7p/8 w 0 1")
    game.parse_position("P7/8/8/8/8/8/7p/8 b 0 1")


def test_breakthrough_side_without_pieces_must_be_to_move() -> None:
    game = get_game("breakthrough")
    with pytest.raises(PositionError, match="black has no pieces left"):
        game.parse_position("8/8/8/8/8/8/8/P7 w 0 1")
    game.parse_position("8/8/8/8/8/8/3P4/8 b 0 1")


def test_tictactoe_counts_alternate_from_x() -> None:
    game = get_game("tictactoe")
    with pytest.raises(PositionError, match="2 X and 0 O stones: players alternate"):
        game.parse_position("XX1/3/3 o")
    with pytest.raises(PositionError, match="0 X and 1 O"):
        game.parse_position("O2/3/3 x")
    with pytest.raises(PositionError, match="4 X and 2 O"):
        game.parse_position("XXO/XXO/3 o")
    game.parse_position("XO1/3/3 x")
    game.parse_position("XO1/X2/3 o")


def test_tictactoe_row_maker_is_not_to_move() -> None:
    with pytest.raises(PositionError, match="X has three in a row"):
        get_game("tictactoe").parse_position("XXX/OOX/OO1 x")
    with pytest.raises(PositionError, match="both players"):
        get_game("tictactoe").parse_position("XXX/OOO/X2 o")


def test_gomoku_two_rows_not_made_by_one_stone_are_refused() -> None:
    game = get_game("gomoku")
    rows = ["XXXXX10", "15", "OOOO11", "15", "XXXXX10", "15", "OOOO11", "O14"] + ["15"] * 7
    with pytest.raises(PositionError, match="one last stone"):
        game.parse_position("/".join(rows) + " o")
    rows[4], rows[8] = "XXXX11", "X14"
    game.parse_position("/".join(rows) + " o")


def test_connect_four_stones_do_not_float() -> None:
    with pytest.raises(PositionError, match="empty cell below"):
        get_game("connect4").parse_position("7/7/7/7/X6/1O5 x")


def test_connect_four_row_under_the_opponent_stones_is_refused() -> None:
    game = get_game("connect4")
    with pytest.raises(PositionError, match="one last stone"):
        game.parse_position("7/7/7/7/OOXO3/XXXXOOX o")
    game.parse_position("7/7/7/7/OOO4/XXXX3 o")


def test_kalah_seeds_beyond_the_game_are_refused() -> None:
    with pytest.raises(PositionError, match="49 seeds"):
        get_game("kalah").parse_position("4,4,4,4,4,4,1/4,4,4,4,4,4,0 s")
    with pytest.raises(PositionError, match="south house a 49 is out of range"):
        get_game("kalah").parse_position("49,0,0,0,0,0,0/0,0,0,0,0,0,0 s")


def test_othello_pass_by_a_player_who_could_place_is_refused() -> None:
    with pytest.raises(PositionError, match="white passed but has a move"):
        get_game("othello").parse_position("8/8/8/3XO3/3OX3/8/8/8 x 1")


def test_draughts_side_never_gains_pieces() -> None:
    with pytest.raises(PositionError, match="21 white pieces"):
        get_game("international").parse_position("W:W30-50:B1-5")


def test_draughts_clock_within_the_draw_rule() -> None:
    game = get_game("international")
    with pytest.raises(PositionError, match="half-move clock 51"):
        game.parse_position("W:WK31:BK1:H51")
    game.parse_position("W:WK31:BK1:H50")


def test_draughts_clock_counts_king_moves_only_of_sides_with_kings() -> None:
    game = get_game("international")
    with pytest.raises(PositionError, match="counts king moves by black, who has no king"):
        game.parse_position("W:WK31:B1:H1")
    with pytest.raises(PositionError, match="counts king moves by white, who has no king"):
        game.parse_position("W:W31:BK1:H2")
    game.parse_position("W:W31:BK1:H1")


def test_draughts_man_on_its_promotion_row_is_refused() -> None:
    with pytest.raises(PositionError, match="man on square 3"):
        get_game("international").parse_position("W:W3:B50")
