"""PDN (Portable Draughts Notation): FEN positions and move texts with numbered squares.

A PDN FEN is ``side:Wlist:Blist``: the side to move (``W`` or ``B``), then each colour's
pieces as comma-separated square numbers, a ``K`` before the number for a king, e.g.
``W:WK5,31,32:B1,2``.  On input, ranges (``B1-12``, ``WK46-50``), either list order,
empty lists, blanks, an optional trailing ``.`` and surrounding quotes are accepted.

Two optional fields extend it as lidraughts does: ``H<n>``, the half-move clock (plies
since the last capture or man move), written only when it is not zero, and ``F<n>``, the
move number, accepted and ignored.

Moves are square numbers joined by ``-`` for a step (``32-28``) and by ``x`` for a
capture, one number per landing square (``28x19x10``).

Russian and Brazilian players write squares algebraically (``c3-d4``, captures ``c3:e5:g3``,
PDN's GameType 25 and 26): :func:`parse_fen` reads such squares when given the board's
names, and :func:`check_algebraic_move` checks such a move text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from myriad.core.errors import InvalidMoveError, PositionError
from myriad.core.numbers import read_int, shortened

COLOURS = ("W", "B")
_SQUARE = re.compile(r"(K?)([0-9]+)(?:-([0-9]+))?")
_MOVE = re.compile(r"[0-9]+(?:-[0-9]+|(?:x[0-9]+)+)")
_NAMED_SQUARE = re.compile(r"(K?)([a-z][0-9]{1,2})")
_ALGEBRAIC_MOVE = re.compile(r"[a-z][0-9]{1,2}(?:-[a-z][0-9]{1,2}|(?::[a-z][0-9]{1,2})+|(?:x[a-z][0-9]{1,2})+)")


class FenPosition(NamedTuple):
    """A PDN FEN read into colours: ``turn`` is ``"W"`` or ``"B"``; ``pieces`` maps each
    occupied square number to ``(colour, is_king)``."""

    turn: str
    pieces: dict[int, tuple[str, bool]]
    halfmove_clock: int = 0


def parse_fen(text: str, squares: int, named: Mapping[str, int] | None = None) -> FenPosition:
    """Read a PDN FEN for a board numbered ``1..squares``; with ``named`` (algebraic square
    name -> number, e.g. ``"c3" -> 22``), squares may also be written by name
    (``W:Wa1,c3,Kd4:Bf6``).

    Raises ``PositionError`` naming the bad field or square.
    """
    body = text.strip().strip('"').strip()
    if body.endswith("."):
        body = body[:-1]
    if not body:
        raise PositionError("empty PDN FEN")
    shown = shortened(text)
    fields = [f.strip() for f in body.split(":")]
    turn = fields[0].upper()
    if turn not in COLOURS:
        raise PositionError(f"PDN FEN {shown}: side to move {shortened(fields[0])} must be W or B")
    if len(fields) < 2:
        raise PositionError(f"PDN FEN {shown}: no piece lists, expected side:W...:B...")
    pieces: dict[int, tuple[str, bool]] = {}
    clock = 0
    seen: set[str] = set()
    for field in fields[1:]:
        colour = field[:1].upper()
        if colour in seen:
            raise PositionError(f"PDN FEN {shown}: field {colour} is given twice")
        seen.add(colour)
        if colour == "H":
            clock = read_int(field[1:], f"PDN FEN {shown}: field {shortened(field)}: half-move clock", error=PositionError)
            continue
        if colour == "F":
            read_int(field[1:], f"PDN FEN {shown}: field {shortened(field)}: move number", low=1, error=PositionError)
            continue
        if colour not in COLOURS:
            raise PositionError(
                f"PDN FEN {shown}: field {shortened(field)} must start with W or B (or H, F for the counters)")
        for item in field[1:].split(","):
            item = item.strip()
            if not item:
                if field[1:].strip():
                    raise PositionError(f"PDN FEN {shown}: empty square in field {shortened(field)}")
                continue
            by_name = _NAMED_SQUARE.fullmatch(item) if named is not None else None
            if by_name is not None and named is not None:
                number = named.get(by_name.group(2))
                if number is None:
                    raise PositionError(
                        f"PDN FEN {shown}: {shortened(item)} in field {colour} is not a playing square")
                if number in pieces:
                    raise PositionError(f"PDN FEN {shown}: square {by_name.group(2)} is given twice")
                pieces[number] = (colour, bool(by_name.group(1)))
                continue
            m = _SQUARE.fullmatch(item.upper())
            if m is None:
                raise PositionError(
                    f"PDN FEN {shown}: {shortened(item)} in field {colour} is not a square number")
            king = bool(m.group(1))
            where = f"PDN FEN {shown}: field {colour}: square"
            first = read_int(m.group(2), where, low=1, high=squares, error=PositionError)
            last = read_int(m.group(3), where, low=1, high=squares, error=PositionError) if m.group(3) else first
            if last < first:
                raise PositionError(f"PDN FEN {shown}: range {shortened(item)} in field {colour} goes backwards")
            for sq in range(first, last + 1):
                if sq in pieces:
                    raise PositionError(f"PDN FEN {shown}: square {sq} is given twice")
                pieces[sq] = (colour, king)
    return FenPosition(turn, pieces, clock)


def format_fen(turn: str, pieces: Mapping[int, tuple[str, bool]], halfmove_clock: int = 0) -> str:
    """Write a PDN FEN: White's list first, squares in increasing order, no ranges; the
    half-move clock as a last ``H`` field when it is not zero."""
    lists = []
    for colour in COLOURS:
        squares = sorted(sq for sq, (c, _) in pieces.items() if c == colour)
        lists.append(colour + ",".join(("K" if pieces[sq][1] else "") + str(sq) for sq in squares))
    clock = f":H{halfmove_clock}" if halfmove_clock else ""
    return f"{turn}:{lists[0]}:{lists[1]}{clock}"


def format_move(squares: Sequence[int | str], capture: bool, capture_mark: str = "x") -> str:
    """A move text: the visited squares (numbers or names) joined by ``capture_mark`` (a
    capture; ``:`` in Russian notation) or ``-``."""
    return (capture_mark if capture else "-").join(str(s) for s in squares)


def check_move(text: str, squares: int) -> None:
    """Raise ``InvalidMoveError`` unless ``text`` is a PDN move on a board of ``1..squares``."""
    if not _MOVE.fullmatch(text):
        raise InvalidMoveError(
            f"{shortened(text)} is not a PDN move (write 32-28 for a step, 28x19 or 28x19x10 for a capture)")
    for part in re.split(r"[-x]", text):
        read_int(part, f"{shortened(text)}: square", low=1, high=squares, error=InvalidMoveError)


def check_algebraic_move(text: str, names: Mapping[str, int]) -> None:
    """Raise ``InvalidMoveError`` unless ``text`` is a move written with algebraic squares
    (``c3-d4``, ``c3:e5:g3`` or ``c3xe5``) naming playing squares of ``names``."""
    if not _ALGEBRAIC_MOVE.fullmatch(text):
        raise InvalidMoveError(
            f"{shortened(text)} is not a draughts move (write c3-d4 for a step, c3:e5 or c3:e5:g3 "
            "for a capture, or the PDN square numbers: 22-18, 22x15)")
    for part in re.split(r"[-:x]", text):
        if part.lower() not in names:
            raise InvalidMoveError(f"{shortened(text)}: {shortened(part)} is not a playing square (the dark squares)")
