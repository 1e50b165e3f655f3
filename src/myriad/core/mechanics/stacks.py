"""Stacks: columns of pieces in one cell (Lasca, Bashni), and jump captures that take prisoners.

A column is encoded in one int: its pieces' codes (1 .. ``base`` - 1) as digits in base
``base``, the top piece the lowest digit, so ``column % base`` is the top piece (which owns
and moves the column), ``column // base`` what is left when the top is taken, and
``column + piece * base ** height`` the column with ``piece`` put underneath.  0 is the empty
cell, and a lone piece is its own code, so a board without columns reads as usual.

Columns are unbounded ints: Zobrist keys for them come from
:class:`~myriad.core.zobrist.HashedZobrist` (a key per (cell, value) computed by hashing,
not looked up in a table).

:class:`StackJumps` plays draughts on columns: a :class:`~myriad.core.mechanics.jumps.JumpCaptures`
compiled for the piece codes runs on the top pieces, and each capture it finds becomes a
column move: a jump takes only the top piece of the jumped column and puts it under the
capturing column (prisoners in the order taken); what was under the taken piece stays on
its square, freed.  A promotion turns only the top piece.  A jumped column may not be
jumped again in the same move (the jump-capture rule that captured pieces stay until the
move ends).

A move is a ``MOVE`` action per hop (``piece`` = the moving column after that hop) and a
``CAPTURE`` action per jumped square whose ``piece`` is the column left there (0 when the
jumped piece was alone): play it with :func:`apply`.
"""

from __future__ import annotations

from collections.abc import Sequence

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.jumps import JumpCaptures
from myriad.core.move import CAPTURE, MOVE, Action, Move


class Columns:
    """Column arithmetic for piece codes ``1 .. base - 1``."""

    def __init__(self, base: int) -> None:
        if base < 2:
            raise GameDefinitionError(f"stacks: base must be at least 2, not {base}")
        self.base = base

    def top(self, column: int) -> int:
        """The top piece of ``column`` (0 for an empty cell)."""
        return column % self.base

    def below(self, column: int) -> int:
        """What is left when the top piece is taken."""
        return column // self.base

    def height(self, column: int) -> int:
        """How many pieces ``column`` holds."""
        n = 0
        while column:
            column //= self.base
            n += 1
        return n

    def put_under(self, column: int, piece: int) -> int:
        """``column`` with ``piece`` added at the bottom."""
        return column + piece * self.base ** self.height(column)

    def with_top(self, column: int, piece: int) -> int:
        """``column`` with its top piece replaced by ``piece`` (a promotion)."""
        return column - column % self.base + piece

    def pieces(self, column: int) -> list[int]:
        """The pieces of ``column``, top first."""
        out = []
        while column:
            column, piece = divmod(column, self.base)
            out.append(piece)
        return out

    def build(self, pieces: Sequence[int]) -> int:
        """The column of ``pieces`` listed top first (each a code in 1 .. base - 1)."""
        column = 0
        for piece in reversed(pieces):
            if not 0 < piece < self.base:
                raise GameDefinitionError(f"stacks: piece code {piece} is outside 1..{self.base - 1}")
            column = column * self.base + piece
        return column


def apply(cells: list[int], move: Move) -> None:
    """Play a column move (as :class:`StackJumps` builds them) on ``cells`` in place."""
    for kind, frm, to, piece, _part in move:
        if kind == MOVE:
            cells[frm] = 0
            cells[to] = piece
        else:
            cells[frm] = piece


class StackJumps:
    """Draughts moves of columns: ``jumps`` (compiled with ``merge_duplicate_routes=False``:
    routes taking the same prisoners in another order build other columns) finds the moves
    of the top pieces, and they are turned into column moves."""

    def __init__(self, jumps: JumpCaptures, columns: Columns) -> None:
        if jumps.merge_duplicate_routes:
            raise GameDefinitionError("stacks: the jump captures must keep every route "
                                      "(merge_duplicate_routes=False): the order of prisoners matters")
        self.jumps = jumps
        self.columns = columns

    def tops(self, cells: Sequence[int]) -> list[int]:
        """The top piece of every cell."""
        base = self.columns.base
        return [c % base for c in cells]

    def moves(self, cells: Sequence[int], player: int) -> list[Move]:
        """Every legal move of ``player`` (the owner of a column is its top piece's).  Capture
        routes that take the same pieces in the same order from the same start to the same
        end (a flying king landing elsewhere between two jumps) are one move: the first."""
        out: list[Move] = []
        seen: set[tuple[int, int, int, tuple[tuple[int, int], ...]]] = set()
        for m in self.jumps.moves(self.tops(cells), player):
            move = self.column_move(cells, m)
            if len(move) > 3:  # two jumps or more
                hops = [a for a in move if a[0] == MOVE]
                key = (hops[0][1], hops[-1][2], hops[-1][3], tuple((a[1], a[3]) for a in move if a[0] == CAPTURE))
                if key in seen:
                    continue
                seen.add(key)
            out.append(move)
        return out

    def column_move(self, cells: Sequence[int], move: Move) -> Move:
        """The column move of a move found on the top pieces."""
        if len(move) == 1:
            kind, frm, to, piece, part = move[0]
            return Move((Action(MOVE, frm, to, self.columns.with_top(cells[frm], piece), part),))
        cols = self.columns
        hops = [a for a in move if a[0] == MOVE]
        taken = {a[4]: a[1] for a in move if a[0] == CAPTURE}
        column = cells[hops[0][1]]
        out: list[Action] = []
        left: list[Action] = []
        for kind, frm, to, piece, part in hops:
            victim = taken[part]
            column = cols.with_top(cols.put_under(column, cols.top(cells[victim])), piece)
            out.append(Action(MOVE, frm, to, column, part))
            left.append(Action(CAPTURE, victim, victim, cols.below(cells[victim]), part))
        return Move(out + left)
