"""Counting rules of makruk (and kin): a side that cannot be stopped by pawns any more must
win within a number of moves, or the game is drawn.

Declared as data (:class:`HonourCounting`), run as Fairy-Stockfish runs makruk's counting:

* no count while a piece of a ``pawns`` kind stands on the board, nor for a side whose
  opponent has its king alone;
* **board's honour**: once the pawns are gone, the side to move after the next move starts
  a count of ``board`` moves, from 0;
* **pieces' honour**: when a capture (or promotion) leaves the side to move with its king
  alone, it counts anew: the limit is the ``moves`` of the first rule ``(kind, at least,
  moves)`` that the opponent's pieces meet (two rooks: 8 moves), else ``board``; the count
  starts at the number of pieces on the board (both kings included).  A king that takes the
  last pawn counts for itself, from that number less a half move;
* counts go in half moves, twice the moves; the game is drawn when the count passes its
  limit and the side to move is not checkmated.

A count, once started, runs to the end of the game (the counting side may not stop it, as
over-the-board rules allow).  In a state it lives in the counters: ``(count or half-move
clock, move number, limit)`` — the half-move field holds the count while one runs, and
positions write the limit in the en-passant field, as Fairy-Stockfish's FEN does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from myriad.core.pieces import PieceSet


@dataclass(frozen=True)
class HonourCounting:
    """Makruk's counting: ``pawns`` (kinds that stop it), ``board`` (board's honour, in
    moves) and ``pieces``: ``(kind, at least, moves)`` rules of pieces' honour, the first
    one the strong side's pieces meet counting."""

    pawns: tuple[str, ...]
    board: int
    pieces: tuple[tuple[str, int, int], ...] = ()


class HonourCount:
    """:class:`HonourCounting` compiled against a piece set."""

    def __init__(self, rule: HonourCounting, pieces: PieceSet) -> None:
        self.rule = rule
        self.owner_of = pieces.owner_of
        #: The longest count, in moves.
        self.most = max([rule.board] + [moves for _kind, _least, moves in rule.pieces])
        self.pawn_codes = frozenset(pieces.code(k, p) for k in rule.pawns for p in range(pieces.players))
        #: Per player (the strong side), ``(codes of the kind, at least, moves)``.
        self.steps = tuple(tuple((frozenset({pieces.code(kind, p)}), least, moves)
                                 for kind, least, moves in rule.pieces)
                           for p in range(pieces.players))

    def limit(self, cells: Sequence[int], side: int) -> int:
        """The moves ``side`` would count now (0: no count for it)."""
        owner_of = self.owner_of
        mine = theirs = 0
        for c in cells:
            if c:
                if c in self.pawn_codes:
                    return 0
                if owner_of[c] == side:
                    mine += 1
                else:
                    theirs += 1
        if theirs <= 1:
            return 0
        if mine > 1:
            return self.rule.board
        for codes, least, moves in self.steps[1 - side]:
            if sum(1 for c in cells if c in codes) >= least:
                return moves
        return self.rule.board

    def after(self, cells: Sequence[int], mover: int, count: int, limit: int, captured: int,
              material_changed: bool) -> tuple[int, int]:
        """The ``(count, limit)`` after a move by ``mover`` (``cells`` after it; ``count``
        already advanced by the move when a limit was set; ``captured``: the code taken, 0
        for none; ``material_changed``: a capture or a promotion)."""
        owner_of = self.owner_of
        total = sum(1 for c in cells if c)
        nxt = 1 - mover
        alone = [sum(1 for c in cells if c and owner_of[c] == p) == 1 for p in (0, 1)]
        if captured in self.pawn_codes and alone[mover] and (moves := self.limit(cells, mover)):
            limit, count = 2 * moves, 2 * total - 1
        if (not limit or (material_changed and alone[nxt])) and (moves := self.limit(cells, nxt)):
            limit, count = 2 * moves, 0 if not alone[nxt] else 2 * total
        return count, limit
