"""Breakthrough (Dan Troyka, 2000).

Each side has two rows of pieces.  A piece moves one square straight or diagonally forward
to an empty square and captures only diagonally forward.  The first to reach the far row,
or to capture every enemy piece, wins.  Moves are written ``a2-a3`` and ``a2xb3``.
"""

from __future__ import annotations

from collections.abc import Sequence

from myriad.core.mechanics.movement import CAPTURE_ONLY, MOVE_ONLY, step
from myriad.core.move import CAPTURE, Move
from myriad.core.piece_game import PieceGame, PieceRules
from myriad.core.pieces import PieceKind
from myriad.core.state import State
from myriad.core.topology import square_board


class BreakthroughGame(PieceGame):
    """Breakthrough on a board of any size with two full rows per side."""

    def format_move(self, state: State, move: Move) -> str:
        names = self.topology.names
        sep = "x" if any(a[0] == CAPTURE for a in move) else "-"
        return f"{names[move[-1][1]]}{sep}{names[move[-1][2]]}"

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        return (self.uci(state, move),)


def advancement_bonus(width: int, height: int) -> tuple[int, ...]:
    """Evaluation: a piece is worth more the further it has come, sharply so near the goal;
    home-row defenders keep a little value.  Top row (the goal) first."""
    rows = []
    for r in range(height - 1, -1, -1):  # r = rows advanced from home
        value = 4 * r * r + (6 if r == 0 else 0)
        rows.extend([value] * width)
    return tuple(rows)


def breakthrough(width: int = 8, height: int = 8) -> BreakthroughGame:
    """Breakthrough on ``width`` x ``height`` (8x8 by default)."""
    board = square_board(width, height)
    board = board.with_zones(goal=board.rows_zone(height))
    rules = PieceRules(
        movement={"pawn": (step("n", "ne", "nw", mode=MOVE_ONLY), step("ne", "nw", mode=CAPTURE_ONLY))},
        royal_check=False, stalemated=0.0, goal_zone="goal", lose_when_no_pieces=True,
        pawn_kinds=frozenset({"pawn"}), rights_fields=False,
        square_bonus={"pawn": advancement_bonus(width, height)})
    row = "p" * width
    empty = "/".join([str(width)] * (height - 4))
    start = f"{row}/{row}/{empty}/{row.upper()}/{row.upper()} w 0 1"
    game = BreakthroughGame(board, [PieceKind("pawn", "P", 100, glyphs=("♙", "♟"))], rules, {"start": start})
    game.name = "Breakthrough"
    game.family = "breakthrough"
    game.rules = __doc__.split("\n\n")[1]
    return game
