"""Standard algebraic notation (SAN) for games of moving pieces on named squares.

``Nf3``, ``exd5``, ``e8=Q+``, ``O-O-O#``: the piece letter (none for pawns), the
disambiguating file or rank when two like pieces could reach the square, ``x`` for a
capture, the promotion, then ``+`` for check and ``#`` for mate.  A drop from the hand
(crazyhouse) is the piece letter, ``@`` and the square: ``N@f3``, ``P@e6+``.  A promoted
piece's marks (``Q~``) are not written.
A pass (where a game allows one) is ``pass``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from myriad.core.move import CAPTURE, MOVE, Move
from myriad.core.state import State

if TYPE_CHECKING:
    from myriad.core.piece_game import PieceGame

_SQUARE = re.compile(r"([a-z]+)(\d+)")
#: How a pass is written.
PASS_TEXT = "pass"


def split_square(name: str) -> tuple[str, str]:
    """``"e4"`` -> ``("e", "4")``."""
    m = _SQUARE.fullmatch(name)
    return (m.group(1), m.group(2)) if m else (name, "")


def san(game: PieceGame, state: State, move: Move, legal: list[Move] | None = None,
        suffix: bool = True) -> str:
    """``move`` (legal in ``state``) in SAN; ``legal`` saves regenerating the legal moves."""
    if not move:
        return PASS_TEXT
    names = game.topology.names
    steps = [a for a in move if a[0] == MOVE]
    if not steps:  # a drop
        text = symbol(game.pieces.kind(move[0][3]).letter) + "@" + names[move[0][2]]
        return text + (check_mark(game, state, move) if suffix else "")
    first = steps[0]
    frm, to = first[1], first[2]
    piece = state.cells[frm]
    if len(steps) == 2 and piece in game.royal:
        text = "O-O" if game.topology.coords[to][0] > game.topology.coords[frm][0] else "O-O-O"
    else:
        capture = any(a[0] == CAPTURE for a in move)
        kind = game.pieces.kind(piece)
        if kind.name in game.piece_rules.pawn_kinds:
            text = (split_square(names[frm])[0] + "x" if capture else "") + names[to]
            if not capture and split_square(names[frm])[0] != split_square(names[to])[0]:
                text = names[frm] + "-" + names[to]  # a sideways promotion (sittuyin): d5-c6=F
        else:
            legal = legal if legal is not None else game.legal_moves(state)
            text = symbol(kind.letter)
            cells, letter_of = state.cells, game.pieces.letter_of
            rivals = [m[-1][1] for m in legal  # pieces written alike: a rook and a promoted one (R~)
                      if m and m[-1][2] == to and m[-1][1] != frm and cells[m[-1][1]]
                      and symbol(letter_of[cells[m[-1][1]]]) == text]
            if rivals:
                file, rank = split_square(names[frm])
                if all(split_square(names[r])[0] != file for r in rivals):
                    text += file
                elif all(split_square(names[r])[1] != rank for r in rivals):
                    text += rank
                else:
                    text += file + rank
            text += ("x" if capture else "") + names[to]
        if first[3] != piece:
            text += "=" + symbol(game.pieces.kind(first[3]).letter)
    return text + (check_mark(game, state, move) if suffix else "")


def symbol(letter: str) -> str:
    """A piece's letter as moves write it: upper case, without a promoted piece's marks
    (``Q~`` -> ``Q``)."""
    return letter.strip("+~").upper()


def check_mark(game: PieceGame, state: State, move: Move) -> str:
    """``#`` when ``move`` mates, ``+`` when it checks, else nothing."""
    after = game.play(state, move)
    if game.in_check(after):
        return "#" if not game.moves_by_rules(after) else "+"
    return ""
