"""The chess family: FIDE chess, and as parameters of the same declaration, shatranj and makruk.

Each game is its equipment (board, pieces and how they move), its start position and its
end rules.  Moves are written in SAN (``Nf3``) and accepted in UCI (``g1f3``) too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NoReturn

from myriad.core.errors import IllegalMoveError
from myriad.core.mechanics.movement import (
    ALFIL_PATHS,
    ALL_DIRECTIONS,
    DIAGONAL_STEPS,
    KNIGHT_PATHS,
    ORTHOGONAL_STEPS,
    Castling,
    Promotion,
    Rule,
    leap,
    pawn,
    slide,
    step,
)
from myriad.core.move import Move
from myriad.core.piece_game import PieceGame, PieceRules
from myriad.core.pieces import PieceKind
from myriad.core.state import State
from myriad.core.topology import square_board
from myriad.notation.san import san

KING = step(*ALL_DIRECTIONS)
ROOK = slide(*ORTHOGONAL_STEPS)
BISHOP = slide(*DIAGONAL_STEPS)
KNIGHT = leap(*KNIGHT_PATHS)
FERZ = step(*DIAGONAL_STEPS)

# Square bonuses in centipawns, written as the board is seen by White (rank 8 first).
CENTRE = (
    -30, -20, -10, -10, -10, -10, -20, -30,
    -20,  -5,   0,   5,   5,   0,  -5, -20,
    -10,   0,  10,  15,  15,  10,   0, -10,
    -10,   5,  15,  20,  20,  15,   5, -10,
    -10,   0,  15,  20,  20,  15,   0, -10,
    -10,   5,  10,  15,  15,  10,   5, -10,
    -20,  -5,   0,   5,   5,   0,  -5, -20,
    -30, -20, -10, -10, -10, -10, -20, -30)
PAWN_ADVANCE = (
      0,   0,   0,   0,   0,   0,   0,   0,
     60,  60,  60,  60,  60,  60,  60,  60,
     20,  20,  25,  35,  35,  25,  20,  20,
      8,   8,  12,  25,  25,  12,   8,   8,
      2,   2,   5,  20,  20,   5,   2,   2,
      5,   0,  -5,   5,   5,  -5,   0,   5,
      5,  10,  10, -20, -20,  10,  10,   5,
      0,   0,   0,   0,   0,   0,   0,   0)
ROOK_FILES = (
      0,   0,   0,   5,   5,   0,   0,   0,
     10,  15,  15,  15,  15,  15,  15,  10,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
      0,   0,   0,   5,   5,   0,   0,   0)
KING_SHELTER = (
    -40, -40, -40, -50, -50, -40, -40, -40,
    -40, -40, -40, -50, -50, -40, -40, -40,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -10, -20, -20, -20, -20, -20, -20, -10,
     10,  10,   0,   0,   0,   0,  10,  10,
     15,  25,  10,   0,   0,  10,  25,  15)
SQUARE_BONUS = {"pawn": PAWN_ADVANCE, "knight": CENTRE, "bishop": tuple(v // 2 for v in CENTRE),
                "queen": tuple(v // 4 for v in CENTRE), "rook": ROOK_FILES, "king": KING_SHELTER}

CHESS_RULES = """Each side has a king, a queen, two rooks, bishops and knights and eight pawns.
Checkmate the opponent's king to win. Pawns move one square forward (two from their first
rank), capture diagonally, take en passant and promote on the last rank to a queen, rook,
bishop or knight. Castling moves king and rook together when neither has moved, the squares
between are empty and the king does not pass through check. Stalemate, insufficient
material, the 50-move rule and threefold repetition are draws."""


class ChessGame(PieceGame):
    """A chess-like game whose moves are written in SAN and UCI."""

    def format_move(self, state: State, move: Move) -> str:
        return san(self, state, move)

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        uci = self.uci(state, move)
        bare = san(self, state, move, suffix=False)
        return (uci, bare)

    def parse_move(self, state: State, text: str) -> Move:
        text = text.strip()
        self.check_move_syntax(text)
        legal = self.legal_moves(state)
        for move in legal:  # UCI first: cheap
            if self.uci(state, move) == text:
                return move
        wanted = text.rstrip("+#!?").replace("0-0-0", "O-O-O").replace("0-0", "O-O")
        for move in legal:
            if san(self, state, move, legal, suffix=False) == wanted:
                return move
        self._illegal(state, text, legal)

    def _illegal(self, state: State, text: str, legal: list[Move]) -> NoReturn:
        shown = ", ".join(san(self, state, m, legal) for m in legal[:16]) or "none"
        raise IllegalMoveError(f"{self.id}: {text!r} is not legal here; legal moves: {shown}"
                               + (f" ... ({len(legal)} in all)" if len(legal) > 16 else ""))


def _chess_like(name: str, family_rules: str, kinds: Sequence[PieceKind],
                movement: Mapping[str, Sequence[Rule]], setup: str, *,
                pawn_start_rank: int = 2, promotion_rank: int = 8, promotes_to: Sequence[str] = (),
                castling: bool = False, **end_rules: object) -> ChessGame:
    board = square_board(8, 8)
    board = board.with_zones(**{"pawn-start": board.rows_zone(pawn_start_rank),
                                "promotion": board.rows_zone(*range(promotion_rank, 9))})
    rules = PieceRules(
        movement=movement,
        promotions=(Promotion("pawn", "promotion", tuple(promotes_to)),),
        castlings=(Castling(0, "e1", "g1", "h1", "f1", 1), Castling(0, "e1", "c1", "a1", "d1", 2),
                   Castling(1, "e8", "g8", "h8", "f8", 4), Castling(1, "e8", "c8", "a8", "d8", 8))
        if castling else (),
        pawn_kinds=frozenset({"pawn"}),
        **end_rules)  # type: ignore[arg-type]
    game = ChessGame(board, kinds, rules, {"start": setup})
    game.name = name
    game.family = "chess"
    game.rules = family_rules
    return game


def chess() -> ChessGame:
    """FIDE chess."""
    kinds = [PieceKind("king", "K", 0, royal=True, glyphs=("♔", "♚")),
             PieceKind("queen", "Q", 900, glyphs=("♕", "♛")),
             PieceKind("rook", "R", 500, glyphs=("♖", "♜")),
             PieceKind("bishop", "B", 330, glyphs=("♗", "♝")),
             PieceKind("knight", "N", 320, glyphs=("♘", "♞")),
             PieceKind("pawn", "P", 100, glyphs=("♙", "♟"))]
    movement = {"king": (KING,), "queen": (ROOK, BISHOP), "rook": (ROOK,), "bishop": (BISHOP,),
                "knight": (KNIGHT,),
                "pawn": pawn(double_step_zone="pawn-start", en_passant=True)}
    return _chess_like("Chess", CHESS_RULES, kinds, movement,
                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                       promotes_to=("queen", "rook", "bishop", "knight"), castling=True,
                       move_limit=100, repetitions=3,
                       minor_kinds=frozenset({"bishop", "knight"}), square_bonus=SQUARE_BONUS,
                       colour_bound_kinds=frozenset({"bishop"}))


def shatranj() -> ChessGame:
    """Shatranj, the medieval game: ferz and alfil instead of queen and bishop, pawns promote
    to ferz, no castling or double step; stalemate and a bare king lose."""
    kinds = [PieceKind("king", "K", 0, royal=True),
             PieceKind("ferz", "Q", 150),
             PieceKind("rook", "R", 500),
             PieceKind("alfil", "B", 130),
             PieceKind("knight", "N", 320),
             PieceKind("pawn", "P", 100)]
    movement = {"king": (KING,), "ferz": (FERZ,), "rook": (ROOK,), "alfil": (leap(*ALFIL_PATHS),),
                "knight": (KNIGHT,), "pawn": pawn()}
    return _chess_like(
        "Shatranj", "Medieval chess. The ferz steps one square diagonally, the alfil jumps "
        "exactly two squares diagonally; pawns step one square and promote to ferz on the last "
        "rank. Checkmate, stalemate or baring the enemy king wins.",
        kinds, movement, "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",
        promotes_to=("ferz",), square_bonus={"pawn": PAWN_ADVANCE, "knight": CENTRE}, stalemated=0.0, bare_king_loses=True, move_limit=140, repetitions=3)


def makruk() -> ChessGame:
    """Makruk, Thai chess: met (one step diagonally), khon (one step diagonally or straight
    forward), pawns on the third rank promote to met on the sixth."""
    kinds = [PieceKind("king", "K", 0, royal=True),
             PieceKind("met", "M", 200),
             PieceKind("rook", "R", 500),
             PieceKind("khon", "S", 250),
             PieceKind("knight", "N", 320),
             PieceKind("pawn", "P", 100)]
    movement = {"king": (KING,), "met": (FERZ,), "rook": (ROOK,),
                "khon": (step(*DIAGONAL_STEPS, "n"),), "knight": (KNIGHT,), "pawn": pawn()}
    return _chess_like(
        "Makruk", "Thai chess. The met steps one square diagonally, the khon one square "
        "diagonally or straight forward; pawns start on the third rank, step forward, capture "
        "diagonally and promote to met on the sixth rank. Checkmate wins; stalemate draws.",
        kinds, movement, "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        promotion_rank=6, promotes_to=("met",), square_bonus={"knight": CENTRE}, move_limit=128, repetitions=3)
