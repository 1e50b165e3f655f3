"""USI move notation (myriad/notation/usi.py) on a small fake shogi-like game: squares
counted as USI counts them (file 1 on the right, rank a at the top, sente at the bottom),
board moves, promotions and drops written and read back, and bad input refused."""

from __future__ import annotations

import pytest

from myriad.core.errors import IllegalMoveError, InvalidMoveError
from myriad.core.game import Game
from myriad.core.move import CAPTURE, DROP, MOVE, Move
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import square_board
from myriad.notation.usi import format_usi, parse_usi, square_name, square_pos

BOARD = square_board(9, 9)
PIECES = PieceSet([PieceKind("pawn", "P"), PieceKind("tokin", "T"), PieceKind("bishop", "B"),
                   PieceKind("horse", "H"), PieceKind("king", "K", royal=True)])
PAWN, TOKIN, BISHOP, HORSE = (PIECES.code(k, 0) for k in ("pawn", "tokin", "bishop", "horse"))
GOTE_PAWN = PIECES.code("pawn", 1)


class FakeShogi(Game):
    """Just enough of a game for notation: a board, pieces and a fixed list of legal moves."""

    id = "fakeshogi"

    def __init__(self, moves: list[Move]) -> None:
        super().__init__(BOARD, PIECES, {})
        self.moves = moves

    def legal_moves(self, state: State) -> list[Move]:
        return list(self.moves)


def at(name: str) -> int:
    """A square by its Myriad name (``c3``)."""
    return BOARD.pos(name)


def position(**pieces: int) -> State:
    cells = [0] * BOARD.size
    for name, code in pieces.items():
        cells[at(name)] = code
    return State(tuple(cells), 0)


STATE = position(c3=PAWN, b2=BISHOP, c7=TOKIN, c8=PAWN, b8=GOTE_PAWN)
PAWN_PUSH = Move(((MOVE, at("c3"), at("c4"), PAWN, 0),))
BISHOP_PROMOTES = Move(((CAPTURE, at("h8"), at("h8"), GOTE_PAWN, 0), (MOVE, at("b2"), at("h8"), HORSE, 0)))
BISHOP_STAYS = Move(((MOVE, at("b2"), at("g7"), BISHOP, 0),))
PAWN_DROP = Move(((DROP, at("e5"), at("e5"), PAWN, 0),))
FORCED = Move(((MOVE, at("c8"), at("c9"), TOKIN, 0),))  # a pawn on the last rank must promote
GAME = FakeShogi([PAWN_PUSH, BISHOP_PROMOTES, BISHOP_STAYS, PAWN_DROP, FORCED])


def test_squares_as_usi_counts_them() -> None:
    assert square_name(BOARD, at("e1")) == "5i"        # sente's king
    assert square_name(BOARD, at("c3")) == "7g" and square_name(BOARD, at("c4")) == "7f"
    assert square_name(BOARD, at("i9")) == "1a" and square_name(BOARD, at("a9")) == "9a"
    assert all(square_pos(BOARD, square_name(BOARD, p)) == p for p in range(BOARD.size))
    with pytest.raises(InvalidMoveError, match="1a to 9i"):
        square_pos(BOARD, "0a")


def test_moves_promotions_and_drops_are_written() -> None:
    assert format_usi(GAME, STATE, PAWN_PUSH) == "7g7f"
    assert format_usi(GAME, STATE, BISHOP_PROMOTES) == "8h2b+"
    assert format_usi(GAME, STATE, BISHOP_STAYS) == "8h3c"
    assert format_usi(GAME, STATE, PAWN_DROP) == "P*5e"
    gote_drop = Move(((DROP, at("e5"), at("e5"), GOTE_PAWN, 0),))
    assert format_usi(GAME, STATE, gote_drop) == "P*5e"  # upper case for either side
    with pytest.raises(InvalidMoveError, match="no notation"):
        format_usi(GAME, STATE, Move())


def test_every_move_reads_back() -> None:
    for move in GAME.moves:
        assert parse_usi(GAME, STATE, format_usi(GAME, STATE, move)) == move
    assert parse_usi(GAME, STATE, " p*5e ") == PAWN_DROP


@pytest.mark.parametrize("text", ["hello", "7g7", "7g-7f", "0a1a", "7j7f", "X*5e", "P*5j", "7g7f=", ""])
def test_garbage_is_not_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        parse_usi(GAME, STATE, text)


@pytest.mark.parametrize("text,why", [("7g7e", "not legal here: [^;]+; legal moves: 7b7a\\+, 7g7f, 8h2b\\+, 8h3c, P\\*5e"),
                                      ("7b7a", "must promote there: 7b7a\\+ is legal"),
                                      ("8h3c+", "may not promote there: 8h3c is legal"),
                                      ("B*5e", "not legal here")])
def test_a_well_formed_move_not_legal_here_says_why(text: str, why: str) -> None:
    with pytest.raises(IllegalMoveError, match=why):
        parse_usi(GAME, STATE, text)
