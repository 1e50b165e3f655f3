"""USI move notation, as shogi programs write moves (the Universal Shogi Interface).

Squares are a file number counted from the first player's right (``9`` to ``1`` on a
9x9 board, left to right) and a rank letter from the top (``a`` to ``i``): ``7g``.  A move
is its two squares and ``+`` when the piece promotes (``7g7f``, ``8h2b+``); a drop is the
piece's letter, ``*`` and the square (``P*5e``).  Any board of at most 26 ranks is written
so: minishogi's squares run ``5a`` to ``1e``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from myriad.core.move import MOVE, Move
from myriad.core.state import State

if TYPE_CHECKING:
    from myriad.core.piece_game import PieceGame


def usi_square_names(game: PieceGame) -> tuple[str, ...]:
    """Every position's USI name: file number from the right, rank letter from the top."""
    topology = game.topology
    return tuple(f"{topology.width - int(x)}{chr(ord('a') + topology.height - 1 - int(y))}"
                 for x, y in topology.coords)


def usi(game: PieceGame, state: State, move: Move, names: tuple[str, ...]) -> str:
    """``move`` (legal in ``state``) in USI, squares named by ``names``
    (:func:`usi_square_names`)."""
    steps = [a for a in move if a[0] == MOVE]
    if not steps:
        drop = move[0]
        return f"{game.pieces.kind(drop[3]).letter.upper()}*{names[drop[2]]}"
    first = steps[0]
    return names[first[1]] + names[first[2]] + ("+" if first[3] != state.cells[first[1]] else "")
