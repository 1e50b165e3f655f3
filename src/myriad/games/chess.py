"""The chess family: the game class that writes and reads its moves.

The games themselves (chess, shatranj, makruk and any user's variant) are data: variant
files in ``myriad/games/variants/*.toml`` read by :mod:`myriad.games.variant_file`, which
declare the board, zones, pieces with their Betza movement, values and square tables,
setups, promotions, castling and rule options.  What stays here is what a data file cannot
say: SAN, the notation chess players write (``Nf3``, ``exd5``, ``e8=Q+``, ``O-O``), with
its disambiguation and check marks, and reading moves in SAN or UCI (``g1f3``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from myriad.core.errors import IllegalMoveError
from myriad.core.move import Move
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.notation.san import san


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
