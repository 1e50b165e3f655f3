"""Xiangqi positions as xiangqi programs write them, brought to the one form Myriad writes.

Myriad writes the FEN of Fairy-Stockfish and of the UCCI protocol (Huang Chen's "FEN file
format", xqbase.com: six fields, ``w`` for Red and ``b`` for Black to move, castling and
en-passant fields ``-``)::

    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1

and reads besides: ``r`` for Red to move, which some xiangqi programs write, and the board
with the side to move alone, as WXF files write their ``FEN`` line (``... b``).  The horse and
elephant letters ``H``/``E`` of some programs (xboard's, the Chess Programming Wiki's) are
the variant's letter aliases, read by the position reader itself.
"""

from __future__ import annotations

#: Side-to-move letters of xiangqi programs, as the standard form writes them.
SIDES = {"w": "w", "r": "w", "b": "b"}


def standard_fen(text: str) -> str:
    """``text`` with Red to move written ``w`` and the fields a two-field position leaves
    out (``- - 0 1``) added; anything else is left for the position reader to judge."""
    fields = text.split()
    if len(fields) >= 2 and fields[1] in SIDES:
        fields[1] = SIDES[fields[1]]
        if len(fields) == 2:
            fields += ["-", "-", "0", "1"]
        return " ".join(fields)
    return text
