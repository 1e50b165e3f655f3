"""WXF move notation, as xiangqi players write their moves: ``C2.5``, ``H8+7``, ``R+-2``.

The notation of the World Xiangqi Federation (the Asian Xiangqi Federation's system of
1980/82, piece names revised 1995, adopted by the WXF in 1997; "Official xiangqi piece names
and notation", http://www.wxf.org/xq/computer/wxf_notation.html).  A move is four characters:

1. the piece: ``K`` king (general), ``A`` advisor, ``E`` elephant, ``H`` horse, ``R`` chariot,
   ``C`` cannon, ``P`` pawn (soldier).  Positions (FEN) write the elephant ``B`` and the horse
   ``N``; the reader takes those and a game's other letters for a kind too, in either case
   (PlayOK's records write Black's moves in lower case: ``c8.7``);
2. the file the piece stands on, 1 to 9 counted from the mover's own right: Red's file 1 is
   the i-file, Black's file 1 the a-file;
3. the direction: ``+`` forward, ``-`` backward, ``.`` sideways along the rank (``=`` is read
   too, as Fairy-Stockfish and many books write it);
4. for a move along the file, the number of ranks moved; else the file it arrives on.

Tandem pieces (two or more of one kind and side on one file).  The WXF page's rules:

* two on a file: the file digit is replaced by ``+`` for the front piece, ``-`` for the rear
  one: ``R+.3`` (front chariot to file 3), ``C--1`` (rear cannon back one);
* three on a file: front ``P+``, rear ``P-``, the middle one by the ordinary notation
  (``P3.4``);
* four: ``++`` (foremost, the letter dropped too), ``P+``, ``P-``, ``--`` (rearmost); five:
  ``++``, ``P+``, ``P3``, ``P-``, ``--``;
* tandems on two files: the letter is replaced by the file digit: ``3+.4``, ``33.4`` (the
  middle of three), ``3-.4``, ``7+.6``, ``7-.6``.

These apply to every kind (in xiangqi only pawns can be three on a file).  When two pieces
stand on one file the WXF form is written even where the direction alone would tell them
apart (advisors, elephants); the reader takes the file digit there as well (``A4+5`` for the
rear advisor of file 4), as Chinese notation does, whenever one legal move fits.

What the notation cannot say (a move that is not one piece going from a point to a point,
a promotion, six pieces on a file, a file or rank count above 9, or any two legal moves that
would read alike on a user's board) is written in ICCS coordinates instead (``h2e2``), which
:func:`parse_wxf` reads too, upper case and with a dash as ICCS records write them
(``H2-E2``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from myriad.core.errors import IllegalMoveError, InvalidMoveError
from myriad.core.illegal import NOT_AMONG_LEGAL, illegal_reason
from myriad.core.move import MOVE, Move
from myriad.core.numbers import shortened
from myriad.core.state import State

if TYPE_CHECKING:
    from myriad.core.piece_game import PieceGame

#: WXF letters where positions (FEN) write another one.
WXF_LETTERS = {"B": "E", "N": "H"}
#: Dashes typed for the minus sign (the WXF page writes ``C–-1``).
_DASHES = str.maketrans({"\u2013": "-", "\u2212": "-", "\u2014": "-"})
#: A WXF move: piece (or file digit, or sign), file (or sign, or digit), direction, number;
#: then an optional check mark and annotations, which are ignored.
_WXF = re.compile(r"(?P<who>[A-Za-z1-9+\-][1-9+\-]|[+\-][A-Za-z])(?P<dir>[+\-.=])(?P<num>[1-9])[+#]?[!?]*")
#: A sideways move written without its sign, as some books do: ``C25``.
_BARE_TRAVERSE = re.compile(r"(?P<who>[A-Za-z][1-9])(?P<num>[1-9])[+#]?[!?]*")
#: A move in coordinates: ``h2e2``, ``H2-E2``.
_COORDINATES = re.compile(r"(?P<frm>[A-Za-z]\d{1,2})-?(?P<to>[A-Za-z]\d{1,2})[+#]?[!?]*")


def wxf_letter(game: PieceGame, code: int) -> str:
    """The WXF letter of the piece ``code``: its kind's position letter, ``E`` for ``B`` and
    ``H`` for ``N``."""
    letter = game.pieces.kind(code).letter.upper()
    return WXF_LETTERS.get(letter, letter)


def file_number(game: PieceGame, pos: int, player: int) -> int:
    """The WXF file of ``pos`` for ``player``: 1 to the board's width, from that player's
    right (the first player sits at rank 1, the second across the board)."""
    x = int(game.topology.coords[pos][0])
    return game.topology.width - x if player == 0 else x + 1


def _forward(game: PieceGame, pos: int, player: int) -> int:
    """How far forward ``pos`` is for ``player`` (its rank counted from the player's side)."""
    y = int(game.topology.coords[pos][1])
    return y if player == 0 else game.topology.height - 1 - y


def designators(game: PieceGame, state: State) -> dict[int, str]:
    """The first two characters of the moves of each piece of the side to move, by square:
    ``R2``, or for tandem pieces ``R+``, ``R-``, ``P3`` (the middle one of three), ``++``,
    ``--``, ``3+``, ``33``.  Squares whose piece the notation cannot name are left out."""
    player = state.to_move
    owner_of = game.pieces.owner_of
    files: dict[int, dict[int, list[int]]] = {}  # code -> file -> squares, front first
    for pos, code in enumerate(state.cells):
        if code and owner_of[code] == player:
            files.setdefault(code, {}).setdefault(file_number(game, pos, player), []).append(pos)
    out: dict[int, str] = {}
    for code, by_file in files.items():
        letter = wxf_letter(game, code)
        tandems = sum(1 for squares in by_file.values() if len(squares) > 1)
        for file, squares in by_file.items():
            if file > 9:
                continue
            squares.sort(key=lambda p: -_forward(game, p, player))
            digit = str(file)
            if len(squares) == 1:
                marks = [letter + digit]
            elif tandems > 1:  # tandems on two files: the file digit replaces the letter
                marks = {2: [digit + "+", digit + "-"], 3: [digit + "+", digit + digit, digit + "-"]}.get(
                    len(squares), [])
            else:
                marks = {2: [letter + "+", letter + "-"],
                         3: [letter + "+", letter + digit, letter + "-"],
                         4: ["++", letter + "+", letter + "-", "--"],
                         5: ["++", letter + "+", letter + digit, letter + "-", "--"]}.get(len(squares), [])
            out.update(zip(squares, marks))
    return out


def _step(game: PieceGame, frm: int, to: int, player: int) -> str | None:
    """The last two characters of a move from ``frm`` to ``to``: direction and number, or
    None when the number would not be one digit."""
    ahead = _forward(game, to, player) - _forward(game, frm, player)
    sign = "+" if ahead > 0 else "-" if ahead < 0 else "."
    same_file = file_number(game, frm, player) == file_number(game, to, player)
    number = abs(ahead) if same_file else file_number(game, to, player)
    return sign + str(number) if 1 <= number <= 9 else None


def _simple(game: PieceGame, state: State, move: Move) -> tuple[int, int] | None:
    """``(from, to)`` of a move of one piece from a point to a point, not promoting."""
    if len(move) == 0 or len(move) > 2:
        return None
    steps = [a for a in move if a[0] == MOVE]
    if len(steps) != 1 or len(move) != 1 + (move[0][0] != MOVE):
        return None
    _kind, frm, to, piece, _part = steps[0]
    return (frm, to) if piece == state.cells[frm] else None


def wxf_texts(game: PieceGame, state: State, legal: Sequence[Move] | None = None) -> dict[Move, str]:
    """Every legal move of ``state`` (or of ``legal``) with its WXF text; ICCS coordinates
    for a move the notation cannot say, or could not tell from another legal move."""
    legal = game.legal_moves(state) if legal is None else legal
    marks = designators(game, state)
    texts: dict[Move, str | None] = {}
    for move in legal:
        squares = _simple(game, state, move)
        text = None
        if squares is not None and squares[0] in marks:
            step = _step(game, squares[0], squares[1], state.to_move)
            text = None if step is None else marks[squares[0]] + step
        texts[move] = text
    seen: dict[str, int] = {}
    for text in texts.values():
        if text is not None:
            seen[text] = seen.get(text, 0) + 1
    return {move: text if text is not None and seen[text] == 1 else game.uci(state, move)
            for move, text in texts.items()}


def format_wxf(game: PieceGame, state: State, move: Move, legal: Sequence[Move] | None = None) -> str:
    """``move`` (legal in ``state``) in WXF notation (``C2.5``; ICCS coordinates when WXF
    cannot say it)."""
    texts = wxf_texts(game, state, legal)
    try:
        return texts[move]
    except KeyError:
        raise IllegalMoveError(f"{game.id}: {move!r} is not a legal move here") from None


def iccs_upper(game: PieceGame, state: State, move: Move) -> str:
    """``move`` in coordinates as ICCS records write them: ``H2-E2``."""
    text = game.uci(state, move)
    found = _COORDINATES.fullmatch(text)
    return f"{found['frm'].upper()}-{found['to'].upper()}" if found else text


def parse_wxf(game: PieceGame, state: State, text: str, legal: Sequence[Move] | None = None) -> Move | None:
    """The legal move written ``text`` in WXF (``C2.5``, ``c2=5``, ``R+-2``, ``C25``) or in ICCS
    coordinates (``h2e2``, ``H2-E2``); None when ``text`` has neither shape (another notation
    may read it).  ``InvalidMoveError`` for a piece letter or square the game does not have,
    ``IllegalMoveError`` for a well-formed move that is not legal here, naming why."""
    written = text.strip().translate(_DASHES)
    legal = game.legal_moves(state) if legal is None else legal
    coordinates = _COORDINATES.fullmatch(written)
    if coordinates is not None:
        return _parse_coordinates(game, state, text, coordinates["frm"].lower(), coordinates["to"].lower(), legal)
    found = _WXF.fullmatch(written)
    if found is not None:
        who, sign, number = found["who"], found["dir"].replace("=", "."), found["num"]
    else:
        found = _BARE_TRAVERSE.fullmatch(written)
        if found is None:
            return None
        who, sign, number = found["who"], ".", found["num"]
    if who[0] in "+-" and who[1].isalpha():
        who = who[1] + who[0]  # +R.4 -> R+.4
    who = _letter(game, text, who[0]) + who[1:] if who[0].isalpha() else who
    texts = wxf_texts(game, state, legal)
    wanted = who + sign + number
    for move, written_move in texts.items():
        if written_move == wanted:
            return move
    return _near_miss(game, state, text, who, sign + number, texts)


def _letter(game: PieceGame, text: str, letter: str) -> str:
    """The WXF letter of the kind written ``letter`` (WXF's, the position letter or an alias,
    either case); ``InvalidMoveError`` when no kind has it."""
    upper = letter.upper()
    for kind in game.pieces.kinds:
        own = kind.letter.upper()
        if upper in (own, WXF_LETTERS.get(own, own)):
            return WXF_LETTERS.get(own, own)
    alias = game.piece_rules.letter_aliases.get(upper)
    if alias is not None:
        own = game.pieces.kinds[game.pieces.kind_index[alias]].letter.upper()
        return WXF_LETTERS.get(own, own)
    letters = ", ".join(sorted({WXF_LETTERS.get(k.letter.upper(), k.letter.upper()) for k in game.pieces.kinds}))
    raise InvalidMoveError(f"{game.id}: {shortened(text)} is not a move: no piece is lettered {letter!r} "
                           f"(the pieces: {letters})")


def _parse_coordinates(game: PieceGame, state: State, text: str, frm: str, to: str,
                       legal: Sequence[Move]) -> Move:
    for square in (frm, to):
        if square not in game.coordinate_names:
            raise InvalidMoveError(f"{game.id}: {shortened(text)} is not a move: there is no point {square} "
                                   "on this board")
    for move in legal:
        if game.uci(state, move) == frm + to:
            return move
    why = _reason(game, state, text, legal)
    raise IllegalMoveError(f"{game.id}: {shortened(text)} is not legal here: {why}; "
                           f"legal moves: {_listed(game, state, legal)}", why)


def _near_miss(game: PieceGame, state: State, text: str, who: str, step: str,
               texts: dict[Move, str]) -> Move:
    """A well-formed WXF move that no legal move is written as: the one legal move it can
    only mean (a tandem piece named by its file, as Chinese notation names advisors and
    elephants), else ``IllegalMoveError`` saying which piece it names and what it may do."""
    player = state.to_move
    marks = designators(game, state)
    if who[0].isalpha() and who[1].isdigit():  # a letter and a file: every such piece there
        squares = [pos for pos, code in enumerate(state.cells)
                   if code and game.pieces.owner_of[code] == player and wxf_letter(game, code) == who[0]
                   and file_number(game, pos, player) == int(who[1])]
    else:
        squares = [pos for pos, mark in marks.items() if mark == who]
    fits = [m for m in texts if (s := _simple(game, state, m)) is not None and s[0] in squares
            and _step(game, s[0], s[1], player) == step]
    if len(fits) == 1:
        return fits[0]
    names = game.coordinate_names
    if len(fits) > 1:
        raise IllegalMoveError(f"{game.id}: {shortened(text)} is ambiguous: it may be "
                               f"{' or '.join(sorted(texts[m] for m in fits))}")
    if not squares:
        what = (f"no piece {who[0]} on your file {who[1]}" if who[0].isalpha() and who[1].isdigit()
                else f"no piece of yours written {who} (two like pieces on one file are written + front, "
                     f"- rear)")
        raise IllegalMoveError(f"{game.id}: {shortened(text)} is not legal here: there is {what}; "
                               f"legal moves: {_listed(game, state, list(texts))}", f"there is {what}")
    own = sorted(t for m, t in texts.items() if (s := _simple(game, state, m)) is not None and s[0] in squares)
    kind = game.pieces.kind(state.cells[squares[0]]).name
    where = " or ".join(names[p] for p in squares)
    why = NOT_AMONG_LEGAL  # (the squares of a WXF text are not named: the near moves' steps are compared)
    for move, rule in game.near_moves(state):
        simple = _simple(game, state, move)
        if simple is not None and simple[0] in squares and _step(game, simple[0], simple[1], player) == step:
            why = rule
            break
    if why == NOT_AMONG_LEGAL and game.in_check(state):
        why = f"your {game.royal_name(state)} is in check: the move must get it out of check"
    if why == NOT_AMONG_LEGAL:
        why = f"your {kind} on {where} cannot make it"
    raise IllegalMoveError(f"{game.id}: {shortened(text)} is not legal here: {why}; its legal moves: "
                           f"{', '.join(own) or 'none'}", why)


def _reason(game: PieceGame, state: State, text: str, legal: Sequence[Move]) -> str:
    """Why ``text`` is not legal (:func:`illegal_reason`), or that the royal piece is in check."""
    why = illegal_reason(game, state, text, legal)
    if why == NOT_AMONG_LEGAL and game.in_check(state):
        return f"your {game.royal_name(state)} is in check: the move must get it out of check"
    return why


def _listed(game: PieceGame, state: State, legal: Sequence[Move]) -> str:
    texts = list(wxf_texts(game, state, legal).values())
    shown = ", ".join(texts[:16]) or "none"
    return shown + (f" ... ({len(texts)} in all)" if len(texts) > 16 else "")
