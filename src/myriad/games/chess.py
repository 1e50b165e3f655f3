"""The chess family: the game class that writes and reads its moves.

The games themselves (chess, shatranj, makruk and any user's variant) are data: variant
files in ``myriad/games/variants/*.toml`` read by :mod:`myriad.games.variant_file`, which
declare the board, zones, pieces with their Betza movement, values and square tables,
setups, promotions, castling and rule options.  What stays here is what a data file cannot
say: SAN, the notation chess players write (``Nf3``, ``exd5``, ``e8=Q+``, ``O-O``, ``N@f3``),
with its disambiguation and check marks, and reading moves in SAN or UCI (``g1f3``).  A
variant file's ``notation`` option may choose another: ``wxf``, xiangqi's WXF moves
(``C2.5``, :mod:`myriad.notation.wxf`) with ICCS coordinates (``h2e2``, ``H2-E2``) as
aliases and positions as xiangqi programs write them (:mod:`myriad.notation.xiangqi_fen`);
``usi``, shogi's moves (``7g7f``, ``P*5e``, ``8h2b+``, :mod:`myriad.notation.usi`), with the
board's files numbered from the right and its ranks lettered from the top.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NoReturn

from myriad.core.errors import IllegalMoveError, InvalidMoveError
from myriad.core.illegal import NOT_AMONG_LEGAL, illegal_reason
from myriad.core.move import Move
from myriad.core.numbers import shortened
from myriad.core.piece_game import PieceGame
from myriad.core.state import State
from myriad.notation.san import PASS_TEXT, san
from myriad.notation.usi import format_usi, parse_usi
from myriad.notation.wxf import format_wxf, iccs_upper, parse_wxf, wxf_texts
from myriad.notation.xiangqi_fen import standard_fen


#: Move annotations (``!``, ``?``, ``!?``, ``??``...) and NAG numbers after a move.
_ANNOTATION = re.compile(r"(?:[!?]{1,2}|\s*\$\d+)+$")
#: A move written from square to square: ``g1-f3``, ``Ng1-f3``, ``e4xd5``, ``e7-e8=Q``.
_LONG_ALGEBRAIC = re.compile(r"[KQRBN]?(?P<from>[a-z]\d{1,2})[-x:](?P<to>[a-z]\d{1,2})(?:=?(?P<promo>[QRBNqrbn]))?")
#: A move in SAN or UCI (any piece letter: variants have their own), or castling.
_WRITTEN_MOVE = re.compile(r"[A-Za-z]?[a-z]?\d{0,2}[x:]?[a-z]\d{1,2}(?:=?[A-Za-z])?|[a-z]\d{1,2}[a-z]\d{1,2}[a-z]?"
                           r"|[A-Z]?@[a-z]\d{1,2}|O-O(?:-O)?")
#: A square's name in a written move.
_SQUARE = re.compile(r"[a-z]\d{1,2}")
#: A pass, where the game allows one: as SAN writes it, and UCI's null move.
PASS_WORDS = (PASS_TEXT, "0000")
#: Lower-case piece letters read as pieces when the move is not a pawn's: not ``b``,
#: which names a file as well as the bishop.
_LENIENT_PIECES = frozenset("nrqk")


#: The notations a variant file may choose (option ``notation``).
NOTATIONS = ("san", "usi", "wxf")


class ChessGame(PieceGame):
    """A chess-like game whose moves are written in SAN and UCI, in WXF and ICCS, or in USI."""

    #: ``san`` (SAN moves, UCI aliases), ``wxf`` (xiangqi: WXF moves, ICCS aliases) or ``usi``.
    notation = "san"
    #: How its board is drawn, as its variant file says: "squares", "intersections" or "" (unsaid).
    board_style: str = ""

    def row_label(self, y: int) -> str:
        if self.notation == "usi":  # ranks a, b, c... from the top
            return chr(ord("a") + self.topology.height - 1 - y)
        return super().row_label(y)

    def column_label(self, x: int) -> str:
        if self.notation == "usi":  # files numbered from the right
            return str(self.topology.width - x)
        return super().column_label(x)

    def format_move(self, state: State, move: Move) -> str:
        if self.notation == "usi":
            return format_usi(self, state, move)
        if self.notation == "wxf":
            return format_wxf(self, state, move)
        return san(self, state, move)

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        if self.notation == "usi":
            return ()
        uci = self.uci(state, move)
        if self.notation == "wxf":
            upper = iccs_upper(self, state, move)
            return (uci,) if upper == uci else (uci, upper)
        bare = san(self, state, move, suffix=False)
        return (uci, bare)

    def parse_move(self, state: State, text: str) -> Move:
        """The legal move written ``text``: SAN (``Nf3``, ``O-O`` or ``0-0``, check marks and
        annotations ``!?`` ignored), UCI (``g1f3``), long algebraic (``g1-f3``, ``Ng1-f3``,
        ``e4xd5``) or SAN with a lower-case piece letter (``nc3``; not ``b``, which is a
        pawn's file); a pass as ``pass``, ``0000`` or the UCI of the royal piece's square
        twice (``e2e2``). ``InvalidMoveError`` for text that is not a move, ``IllegalMoveError``
        for a move not legal here.  Under the ``wxf`` notation: WXF (``C2.5``) and ICCS
        coordinates (``h2e2``, ``H2-E2``) first, see :func:`myriad.notation.wxf.parse_wxf`."""
        text = text.strip()
        if self.notation == "usi":
            return parse_usi(self, state, text)
        if self.notation != "wxf":
            return self._parse_san(state, text, None)
        legal = self.legal_moves(state)
        found = parse_wxf(self, state, text, legal)
        if found is not None:
            return found
        try:  # SAN and UCI are still read
            return self._parse_san(state, text, legal)
        except InvalidMoveError:
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move (expected WXF such as C2.5, "
                                   "H8+7, R+-2, or ICCS coordinates such as h2e2)") from None

    def _parse_san(self, state: State, text: str, legal: list[Move] | None) -> Move:
        """``parse_move`` in SAN, UCI and long algebraic (``legal``: the legal moves, if known)."""
        annotated = _ANNOTATION.sub("", text)  # e4!? -> e4, Nf3+ stays for the checks below
        self.check_move_syntax(annotated or text)
        legal = self.legal_moves(state) if legal is None else legal
        for move in legal:  # UCI first: cheap
            if self.uci(state, move) == annotated or (not move and annotated in PASS_WORDS):
                return move
        if annotated in PASS_WORDS and self.piece_rules.may_pass:
            self._illegal(state, text, legal)
        long = _LONG_ALGEBRAIC.fullmatch(annotated.rstrip("+#"))
        if long is not None:  # g1-f3, Ng1-f3, e7xe8=Q: the squares, then the promotion
            uci = long["from"] + long["to"] + (long["promo"] or "").lower()
            for move in legal:
                if self.uci(state, move) == uci:
                    return move
        wanted = annotated.rstrip("+#").replace("0-0-0", "O-O-O").replace("0-0", "O-O")
        candidates = [wanted]
        if wanted[:1] in _LENIENT_PIECES and wanted not in ("o-o", "o-o-o"):
            candidates.append(wanted[0].upper() + wanted[1:])   # nc3 -> Nc3
        elif wanted in ("o-o", "o-o-o"):
            candidates.append(wanted.upper())
        for candidate in candidates:
            for move in legal:
                if san(self, state, move, legal, suffix=False) == candidate:
                    return move
        self._check_written_move(text, wanted)
        self._illegal(state, text, legal)

    def _check_written_move(self, text: str, wanted: str) -> None:
        """Raise ``InvalidMoveError`` when ``wanted`` (``text`` without annotations) has no
        shape of a written move or names a square not on the board: ``xyz``, ``e9``."""
        if not (_WRITTEN_MOVE.fullmatch(wanted) or _LONG_ALGEBRAIC.fullmatch(wanted)):
            raise InvalidMoveError(f"{self.id}: {text!r} is not a move (expected e.g. e4, Nf3, O-O, e2e4)")
        names = self.topology.index
        for square in _SQUARE.findall(wanted):
            if square not in names:
                raise InvalidMoveError(f"{self.id}: {text!r} is not a move: there is no square {square} "
                                       f"on this board")

    def parse_position(self, text: str) -> State:
        """A FEN-like position; under the ``wxf`` notation also as xiangqi programs write it
        (``r`` for Red to move, or only the board and the side)."""
        return super().parse_position(standard_fen(text) if self.notation == "wxf" else text)

    def _illegal(self, state: State, text: str, legal: list[Move]) -> NoReturn:
        if self.notation == "wxf":
            shown = ", ".join(list(wxf_texts(self, state, legal).values())[:16]) or "none"
        else:
            shown = ", ".join(san(self, state, m, legal) for m in legal[:16]) or "none"
        why = illegal_reason(self, state, text, legal)
        if why == NOT_AMONG_LEGAL and self.in_check(state):
            why = f"your {self.royal_name(state)} is in check: the move must get it out of check"
        raise IllegalMoveError(f"{self.id}: {text!r} is not legal here: {why}; legal moves: {shown}"
                               + (f" ... ({len(legal)} in all)" if len(legal) > 16 else ""), why)
