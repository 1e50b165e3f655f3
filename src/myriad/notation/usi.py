"""USI move notation: moves as shogi engines read and write them (``7g7f``, ``8h2b+``, ``P*5e``).

The Universal Shogi Interface (Tord Romstad's protocol of 2007, after UCI; "The Universal
Shogi Interface", http://hgm.nubati.net/usi.html; the Chess Programming Wiki's "USI") writes a square as its file, counted 1 to 9 from
the right as the first player (sente, at the bottom) sees the board, then its rank, ``a`` at
the top to ``i`` at the bottom: sente's king starts on ``5i``.  A move is the from-square and
the to-square, with ``+`` when the piece promotes (``8h2b+``); a drop is the piece's letter
in upper case for either side, ``*``, and the square (``P*5e``).

Pure functions over any game of moving pieces on a grid: the first player at the bottom
(rank 1 of Myriad's square names is USI's last rank), a move as Myriad's actions (a MOVE
from a square to a square, whose piece differs from the one that left when it promotes, or
a DROP), a drop's letter the dropped kind's position letter.  Boards wider than 9 files
number files on (``10a``); ranks run as far as ``z``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from myriad.core.errors import IllegalMoveError, InvalidMoveError
from myriad.core.illegal import illegal_reason
from myriad.core.game import Game
from myriad.core.move import DROP, MOVE, Move
from myriad.core.numbers import shortened
from myriad.core.state import State
from myriad.core.topology import Topology

#: A USI move: a board move (``7g7f``, ``8h2b+``) or a drop (``P*5e``).
_USI = re.compile(r"(?P<frm>\d{1,2}[a-z])(?P<to>\d{1,2}[a-z])(?P<promote>\+?)|(?P<piece>[A-Za-z])\*(?P<drop>\d{1,2}[a-z])")


def square_name(topology: Topology, pos: int) -> str:
    """The USI name of ``pos``: file from the right, rank letter from the top (``7g``)."""
    x, y = (int(c) for c in topology.coords[pos])
    return f"{topology.width - x}{chr(ord('a') + topology.height - 1 - y)}"


def square_pos(topology: Topology, name: str) -> int:
    """The position named ``name`` in USI (``7g``); ``InvalidMoveError`` off the board."""
    found = re.fullmatch(r"(\d{1,2})([a-z])", name)
    if found is not None:
        x, y = topology.width - int(found[1]), topology.height - 1 - (ord(found[2]) - ord("a"))
        for pos, (cx, cy) in enumerate(topology.coords):
            if int(cx) == x and int(cy) == y:
                return pos
    last = f"{topology.width}{chr(ord('a') + topology.height - 1)}"
    raise InvalidMoveError(f"no square {name!r} on this board (USI squares run from 1a to {last})")


def format_usi(game: Game, state: State, move: Move) -> str:
    """``move`` (played from ``state``) in USI: ``7g7f``, ``8h2b+`` or ``P*5e``.  Raises
    ``InvalidMoveError`` for a move USI cannot write (a pass, a placement of several pieces)."""
    steps = [a for a in move if a[0] == MOVE]
    topology = game.topology
    if steps:
        frm, to, piece = steps[0][1], steps[-1][2], steps[-1][3]
        promoted = "+" if piece != state.cells[frm] else ""
        return square_name(topology, frm) + square_name(topology, to) + promoted
    drops = [a for a in move if a[0] == DROP]
    if len(drops) == 1:
        letter = game.pieces.kind(drops[0][3]).letter.upper()
        return f"{letter}*{square_name(topology, drops[0][2])}"
    raise InvalidMoveError(f"{game.id}: USI has no notation for the move {move!r}")


def parse_usi(game: Game, state: State, text: str, legal: Sequence[Move] | None = None) -> Move:
    """The legal move written ``text`` in USI (the legal moves ``legal``, if known).
    ``InvalidMoveError`` for text that is no USI move, a square off the board or a letter
    no piece has; ``IllegalMoveError`` for a move not legal here, saying when the same move
    is legal with (or without) promotion."""
    written = text.strip()
    found = _USI.fullmatch(written)
    if found is None:
        raise InvalidMoveError(f"{game.id}: {shortened(text)} is not a USI move (expected e.g. 7g7f, 8h2b+, P*5e)")
    for square in (found["frm"], found["to"], found["drop"]):
        if square is not None:
            try:
                square_pos(game.topology, square)
            except InvalidMoveError as err:
                raise InvalidMoveError(f"{game.id}: {shortened(text)} is not a move: {err}") from None
    if found["piece"] is not None:
        letters = {k.letter.upper() for k in game.pieces.kinds}
        if found["piece"].upper() not in letters:
            raise InvalidMoveError(f"{game.id}: {shortened(text)} is not a move: no piece is lettered "
                                   f"{found['piece']!r} (the pieces: {', '.join(sorted(letters))})")
        written = found["piece"].upper() + written[1:]
    legal = game.legal_moves(state) if legal is None else legal
    texts = {}
    for move in legal:
        try:
            texts[format_usi(game, state, move)] = move
        except InvalidMoveError:
            continue
    if written in texts:
        return texts[written]
    why = ""
    if found["frm"] is not None:
        other = written[:-1] if found["promote"] else written + "+"
        if other in texts:
            why = (f"the piece may not promote there: {other} is legal" if found["promote"]
                   else f"the piece must promote there: {other} is legal")
    why = why or illegal_reason(game, state, text, legal)
    shown = ", ".join(sorted(texts)[:16]) or "none"
    raise IllegalMoveError(f"{game.id}: {shortened(text)} is not legal here: {why}; legal moves: {shown}"
                           + (f" ... ({len(texts)} in all)" if len(texts) > 16 else ""), why)
