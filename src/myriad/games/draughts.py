"""Draughts / checkers: English checkers, Russian, Brazilian and international draughts.

One family, one factory (:func:`draughts`); each variant is a short declaration of its
rules, which are parameters of the generic jump-capture mechanic.

Equipment: the dark squares of an n x n board, numbered as in PDN (1 at the top left from
White's side; Black starts on the low numbers, White on the high ones and moves up); men
and kings for White (player 0) and Black (player 1).

Notation, as each game's players write it: English checkers and international draughts by
PDN square numbers (``32-28``, ``28x19x10``); Russian and Brazilian draughts algebraically,
files a-h from White's left and ranks 1-8 from White's side (``c3-d4``, ``c3:e5:g3``), the
squares of the board named so.  ``notation="numeric"`` gives them the numbers instead; either
way a move is also accepted in the other spelling (and captures with ``x``), and positions
are written as PDN FEN with numbers (as lidraughts and the published perft tables write
them) and read with numbers or names (``W:Wa1,c3:Bf6``).

Play: men step diagonally forward; kings step (or fly) in every diagonal direction; a
capture jumps an enemy piece, chains into one move and is compulsory; a man reaching the
far row becomes a king.

End: the side to move with no legal move (no pieces, or all blocked) loses.  A position
occurring for the third time is a draw, and so is a run of king moves without a capture or
a man move (the length is each variant's ``draw_moves``, in moves per player).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from myriad.core.errors import InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.mechanics.jumps import CapturePromotion, JumpCaptures
from myriad.core.move import CAPTURE, Move
from myriad.core.numbers import shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import Topology, file_letter, square_board
from myriad.notation import pdn

WHITE, BLACK = 0, 1
COLOUR_OF_PLAYER = ("W", "B")

PIECES = (
    PieceKind("man", "m", value=1, glyphs=("⛀", "⛂"), letters=("w", "b")),
    PieceKind("king", "k", value=3, glyphs=("⛁", "⛃"), letters=("W", "B")),
)


NOTATIONS = ("numeric", "algebraic")


def pdn_number(size: int, column: int, row: int) -> int:
    """The PDN number of the dark square at ``column``, ``row`` (0, 0 = a1) of a board of
    ``size``: 1 is the top-left dark square from White's side, counting row by row."""
    return (size - 1 - row) * (size // 2) + column // 2 + 1


def numbered_board(size: int, notation: str = "numeric") -> Topology:
    """The dark squares of a ``size`` x ``size`` board (a1 dark), named by PDN number
    (``notation="numeric"``) or algebraically (``"algebraic"``: ``c3``)."""
    if notation not in NOTATIONS:
        raise ValueError(f"draughts notation {notation!r}: expected one of {', '.join(NOTATIONS)}")

    def name(c: int, r: int) -> str:
        return f"{file_letter(c)}{r + 1}" if notation == "algebraic" else str(pdn_number(size, c, r))

    board = square_board(size, size, orthogonals=False, keep=lambda c, r: (c + r) % 2 == 0, name=name)
    top = [board.names[p] for p, (_x, y) in enumerate(board.coords) if y == size - 1]
    bottom = [board.names[p] for p, (_x, y) in enumerate(board.coords) if y == 0]
    return board.with_zones(promotion=(top, bottom))


class JumpAliases:
    """A multi-jump's short form ``start x end``, offered when no other legal move of the
    position goes from the same start to the same end (the counts kept for the last state)."""

    def __init__(self, game: Game, spellings: Sequence[tuple[Sequence[str], str]] = ()) -> None:
        """``spellings``: the square names and the capture mark of each way to write the
        short form (by default the board's own names and ``x``)."""
        self.game = game
        self.spellings = tuple(spellings) or ((game.topology.names, "x"),)
        self._counts_for: tuple[State | None, dict[tuple[int, int], int]] = (None, {})

    def __call__(self, state: State, move: Move) -> tuple[str, ...]:
        path = move.path
        if len(path) <= 2:
            return ()
        cached, counts = self._counts_for
        if cached is not state:
            counts = {}
            for m in self.game.legal_moves(state):
                ends = (m.frm, m.to)
                counts[ends] = counts.get(ends, 0) + 1
            self._counts_for = (state, counts)
        if counts.get((path[0], path[-1]), 0) != 1:
            return ()
        return tuple(f"{names[path[0]]}{mark}{names[path[-1]]}" for names, mark in self.spellings)


class Draughts(Game):
    """A draughts variant: board size and capture rules are parameters.

    ``merge_duplicate_routes=False`` makes every capture route a move of its own (as some
    published perft tables count them); the rules merge routes with the same start, end
    and captured pieces.
    """

    family = "draughts"
    player_names = ("white", "black")
    #: the flags of a position read from text (variants that keep some, e.g. Frisian king moves)
    start_flags: tuple[int, ...] = ()
    forced_captures = True  # a pending capture must be played: quiescence never stands pat

    def __init__(self, *, name: str, size: int, first: int, rules: str,
                 men_capture_backwards: bool, flying_kings: bool, maximum_capture: bool,
                 capture_promotion: CapturePromotion, draw_moves: int,
                 merge_duplicate_routes: bool = True, topology: Topology | None = None,
                 notation: str = "numeric",
                 start: str | None = None, start_men: int | None = None,
                 forward: Sequence[str] = ("nw", "ne"), directions: Sequence[str] = ("nw", "ne", "sw", "se"),
                 **capture_rules: Any) -> None:
        """``topology``, ``start`` (a position text) and ``start_men`` replace the PDN board
        of ``size`` x ``size`` and its start; ``notation`` names that board's squares by PDN
        number (``"numeric"``) or algebraically (``"algebraic"``); ``capture_rules`` are passed on to
        :class:`~myriad.core.mechanics.jumps.JumpCaptures` (orthogonal captures, removal at
        once, capture values, ...)."""
        self.notation = notation if topology is None else "numeric"
        topology = topology or numbered_board(size, notation)
        pieces = PieceSet(PIECES)
        self.name = name
        self.rules = rules
        self.size = size
        self.squares = topology.size
        self.draw_plies = 2 * draw_moves
        self.man = (pieces.code("man", WHITE), pieces.code("man", BLACK))
        self.king = (pieces.code("king", WHITE), pieces.code("king", BLACK))
        self.promotion = topology.zones["promotion"]
        # Each side starts with men on every dark square of its first size/2 - 1 rows.
        men = (size // 2 - 1) * (size // 2)
        self.start_men = start_men or men
        start = start or f"{COLOUR_OF_PLAYER[first]}:W{self.squares - men + 1}-{self.squares}:B1-{men}"
        super().__init__(topology, pieces, {"start": start})
        self.jumps = JumpCaptures(
            topology, men=self.man, kings=self.king, promotion=self.promotion,
            piece_codes=pieces.count, forward=forward, directions=directions,
            men_capture_backwards=men_capture_backwards, flying_kings=flying_kings,
            compulsory=True, maximum_capture=maximum_capture,
            capture_promotion=capture_promotion, merge_duplicate_routes=merge_duplicate_routes,
            **capture_rules)
        self._eval_tables = self._evaluation_tables(flying_kings)
        if self.notation == "algebraic":
            numbers = {pdn_number(size, int(x), int(y)): p for p, (x, y) in enumerate(topology.coords)}
            self._pos_of_number = tuple([-1] + [numbers.get(n, -1) for n in range(1, self.squares + 1)])
        else:
            self._pos_of_number = tuple([-1] + [topology.index.get(str(n), -1) for n in range(1, self.squares + 1)])
        number_of_pos = [0] * topology.size
        for n, p in enumerate(self._pos_of_number):
            if p >= 0:
                number_of_pos[p] = n
        #: each position's PDN square number
        self.numbers: tuple[int, ...] = tuple(number_of_pos)
        #: algebraic square name -> PDN number, for reading positions written either way
        self._named_numbers = ({name: self.numbers[p] for p, name in enumerate(topology.names)}
                               if self.notation == "algebraic" else None)
        numbered = tuple(str(n) for n in self.numbers)
        self._jump_aliases = (JumpAliases(self, ((topology.names, ":"), (topology.names, "x"), (numbered, "x")))
                              if self.notation == "algebraic" else JumpAliases(self))

    # -- play ----------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        if self.drawn(state):
            return []
        return self.jumps.moves(state.cells, state.to_move)

    def drawn(self, state: State) -> str | None:
        """The reason ``state`` is a draw (repetition, the move-count rule), else None."""
        if state.repetitions() >= 2:
            return "threefold repetition"
        if state.counters[0] >= self.draw_plies:
            return f"{self.draw_plies // 2} moves each without a capture or a man move"
        return None

    def near_moves(self, state: State) -> list[tuple[Move, str]]:
        """Quiet moves while a capture is compulsory, and captures that take fewer than the
        most (under the majority rule), each with the rule it breaks."""
        return [] if self.outcome(state) is not None else self.jumps.breaches(state.cells, state.to_move)

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        # Captures (more than one action) and man moves cannot be undone.
        irreversible = len(move) != 1 or state.cells[move[0][1]] in self.man
        clock = 0 if irreversible else state.counters[0] + 1
        return Next(1 - state.to_move, state.flags, (clock,), state.hands, irreversible)

    def outcome(self, state: State) -> Outcome | None:
        return self.result(state, self.legal_moves(state))

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        reason = self.drawn(state)
        if reason:
            return Outcome.draw(reason)
        if not moves:
            return Outcome.win(1 - state.to_move, "no legal move")
        return None

    # -- knowledge for bots --------------------------------------------------------------------

    def _evaluation_tables(self, flying_kings: bool) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[frozenset[int], ...], ...]]:
        """Per code and square, the value of a piece there (men gain as they advance);
        per player and square, the squares ahead of a man from which it could be stopped."""
        coords = self.topology.coords
        top = self.size - 1
        man_value, king_value = 100, 350 if flying_kings else 300
        value: list[tuple[int, ...]] = [(0,) * self.squares]
        for code in range(1, self.pieces.count):
            owner = self.pieces.owner_of[code]
            if code in self.king:
                value.append((king_value,) * self.squares)
                continue
            rows = [int(y) if owner == WHITE else top - int(y) for _x, y in coords]
            value.append(tuple(man_value + 3 * r for r in rows))
        cones = []
        for player in (WHITE, BLACK):
            per_square = []
            for x, y in coords:
                ahead = [(int(x2), int(y2), q) for q, (x2, y2) in enumerate(coords)
                         if (y2 > y if player == WHITE else y2 < y)]
                per_square.append(frozenset(q for x2, y2, q in ahead if abs(x2 - x) <= abs(y2 - y)))
            cones.append(tuple(per_square))
        return tuple(value), tuple(cones)

    def evaluate(self, state: State) -> float:
        """Material (kings worth three men, more when they fly), advanced men, and runaway
        men: a man with no enemy piece ahead in its cone will crown."""
        values, cones = self._eval_tables
        cells, owner_of, me = state.cells, self.pieces.owner_of, state.to_move
        score = 0
        for pos, c in enumerate(cells):
            if not c:
                continue
            owner = owner_of[c]
            v = values[c][pos]
            if c == self.man[owner] and not any(cells[q] and owner_of[cells[q]] != owner for q in cones[owner][pos]):
                v += 60 + 10 * len(cones[owner][pos]) // max(1, self.size)
            score += v if owner == me else -v
        return score

    # -- positions -----------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        fen = pdn.parse_fen(text, self.squares, self._named_numbers)
        cells = [0] * self.squares
        for number, (colour, is_king) in fen.pieces.items():
            player = COLOUR_OF_PLAYER.index(colour)
            pos = self._pos_of_number[number]
            if not is_king and pos in self.promotion[player]:
                raise PositionError(
                    f"{self.id}: {shortened(text)}: a {self.player_names[player]} man on square {number} "
                    "stands on its promotion row (write K{number} for a king)")
            cells[pos] = (self.king if is_king else self.man)[player]
        to_move = COLOUR_OF_PLAYER.index(fen.turn)
        self.check_reachable(cells, to_move, fen.halfmove_clock)
        return self.make_state(cells, to_move, self.start_flags, (fen.halfmove_clock,))

    def check_reachable(self, cells: Sequence[int], to_move: int, clock: int) -> None:
        """Raise ``PositionError`` for a position no game reaches: more pieces of a colour
        than it starts with, or a half-move clock (plies of king moves without a capture)
        longer than the draw rule lets a game run, or counting king moves by a side with no
        king (the last ply was the other side's, the one before the mover's)."""
        most = self.start_men
        for player in (WHITE, BLACK):
            count = sum(1 for c in cells if c in (self.man[player], self.king[player]))
            if count > most:
                raise PositionError(f"{self.id}: {count} {self.player_names[player]} pieces, "
                                    f"a side starts with {most} and never gains one")
        if clock > self.draw_plies:
            raise PositionError(f"{self.id}: half-move clock {clock}: the game is drawn after "
                                f"{self.draw_plies} plies without a capture or a man move")
        for plies, player in ((1, 1 - to_move), (2, to_move)):
            if clock >= plies and self.king[player] not in cells:
                raise PositionError(f"{self.id}: half-move clock {clock} counts king moves by "
                                    f"{self.player_names[player]}, who has no king")

    def format_position(self, state: State) -> str:
        numbers, owner_of, kind_of = self.numbers, self.pieces.owner_of, self.pieces.kind_of
        king_kind = self.pieces.kind_index["king"]
        pieces = {numbers[pos]: (COLOUR_OF_PLAYER[owner_of[v]], kind_of[v] == king_kind)
                  for pos, v in enumerate(state.cells) if v}
        return pdn.format_fen(COLOUR_OF_PLAYER[state.to_move], pieces, state.counters[0])

    # -- moves ---------------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        """PDN numbers (``32-28``, ``28x19``), or algebraic squares (``c3-d4``, ``c3:e5``)."""
        names = self.topology.names
        return pdn.format_move([names[p] for p in move.path], len(move) > 1,
                               ":" if self.notation == "algebraic" else "x")

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """A multi-jump may also be written start x end when no other move shares both; in
        algebraic notation a move may also be written with ``x`` for captures or by PDN numbers."""
        capture = move[-1][0] == CAPTURE
        if self.notation != "algebraic":
            return self._jump_aliases(state, move) if capture else ()
        path = move.path
        other = [pdn.format_move([self.numbers[p] for p in path], len(move) > 1)]
        if capture:
            other.append(pdn.format_move([self.topology.names[p] for p in path], True))
            other.extend(self._jump_aliases(state, move))
        return tuple(other)

    def check_move_syntax(self, text: str) -> None:
        try:
            if self._named_numbers is not None and not text[:1].isdigit():
                pdn.check_algebraic_move(text, self._named_numbers)
            else:
                pdn.check_move(text, self.squares)
        except InvalidMoveError as e:
            raise InvalidMoveError(f"{self.id}: {e}") from None

    # -- drawing -------------------------------------------------------------------------------

    def render(self, state: State) -> str:
        """The board from White's side: dark squares show a piece letter (w/b men, W/B
        kings) or '.', each row ends with its square numbers (or, in algebraic notation,
        starts with its rank, the files lettered below)."""
        if self.notation == "algebraic":
            return super().render(state) + f"\n{self.player_names[state.to_move]} to move"
        topo, letters = self.topology, self.pieces.letter_of
        at = {(int(x), int(y)): pos for pos, (x, y) in enumerate(topo.coords)}
        lines = []
        for r in range(self.size - 1, -1, -1):
            row = [at.get((c, r)) for c in range(self.size)]
            text = "".join("  " if p is None else " " + (letters[state.cells[p]] or ".") for p in row)
            numbers = [topo.names[p] for p in row if p is not None]
            lines.append(f"{text}   {numbers[0]:>2}-{numbers[-1]}")
        lines.append(f"{self.player_names[state.to_move]} to move")
        return "\n".join(lines)


def draughts(name: str, size: int, *, first: int = WHITE, rules: str = "",
             men_capture_backwards: bool = True, flying_kings: bool = True,
             maximum_capture: bool = True, capture_promotion: CapturePromotion = "end",
             draw_moves: int = 25, merge_duplicate_routes: bool = True, notation: str = "numeric") -> Draughts:
    """The family factory; the defaults are the FMJD (international) rules."""
    return Draughts(name=name, size=size, first=first, rules=rules,
                    men_capture_backwards=men_capture_backwards, flying_kings=flying_kings,
                    maximum_capture=maximum_capture, capture_promotion=capture_promotion,
                    draw_moves=draw_moves, merge_duplicate_routes=merge_duplicate_routes,
                    notation=notation)


def english(*, merge_duplicate_routes: bool = True) -> Draughts:
    """English checkers (American checkers, WCDF rules)."""
    game = draughts(
        "English checkers", 8, first=BLACK, merge_duplicate_routes=merge_duplicate_routes,
        men_capture_backwards=False, flying_kings=False, maximum_capture=False,
        capture_promotion="stop", draw_moves=40,
        rules="8x8, Black moves first. Men step and capture diagonally forward only; kings step "
              "one square in any diagonal direction. Capturing is compulsory, any capture may be "
              "chosen, and a capture goes on while it can. A man reaching the far row is crowned "
              "and its move ends. No legal move loses; threefold repetition or 40 moves each "
              "without a capture or a man move draws.")
    game.id = "checkers"
    return game


def russian(*, merge_duplicate_routes: bool = True, notation: str = "algebraic") -> Draughts:
    """Russian draughts (shashki), written algebraically (``c3-d4``, ``c3:e5:g3``) unless
    ``notation="numeric"`` (PDN square numbers)."""
    game = draughts(
        "Russian draughts", 8, merge_duplicate_routes=merge_duplicate_routes, notation=notation,
        men_capture_backwards=True, flying_kings=True, maximum_capture=False,
        capture_promotion="continue", draw_moves=15,
        rules="8x8, White moves first. Men step diagonally forward and capture in all four "
              "diagonal directions; kings fly. Capturing is compulsory, any capture may be "
              "chosen, and a capture goes on while it can; captured pieces are removed after "
              "the move and cannot be jumped twice. A man reaching the far row during a "
              "capture becomes a king at once and goes on capturing as a king. No legal move "
              "loses; threefold repetition or 15 king moves each without a capture or a man "
              "move draws.")
    game.id = "russian"
    return game


def brazilian(*, merge_duplicate_routes: bool = True, notation: str = "algebraic") -> Draughts:
    """Brazilian draughts: the international rules on 8x8, written algebraically unless
    ``notation="numeric"``."""
    game = draughts(
        "Brazilian draughts", 8, draw_moves=20, merge_duplicate_routes=merge_duplicate_routes,
        notation=notation,
        rules="8x8, White moves first. Men step diagonally forward and capture in all four "
              "diagonal directions; kings fly. Capturing is compulsory and the sequence taking "
              "the most pieces must be played; captured pieces are removed after the move and "
              "cannot be jumped twice. A man becomes a king only if its move ends on the far "
              "row. No legal move loses; threefold repetition or 20 king moves each without a "
              "capture or a man move draws.")
    game.id = "brazilian"
    return game


def international(*, merge_duplicate_routes: bool = True) -> Draughts:
    """International draughts (FMJD rules, 10x10)."""
    game = draughts(
        "International draughts", 10, draw_moves=25, merge_duplicate_routes=merge_duplicate_routes,
        rules="10x10, White moves first. Men step diagonally forward and capture in all four "
              "diagonal directions; kings fly. Capturing is compulsory and the sequence taking "
              "the most pieces must be played; captured pieces are removed after the move and "
              "cannot be jumped twice. A man becomes a king only if its move ends on the far "
              "row. No legal move loses; threefold repetition or 25 king moves each without a "
              "capture or a man move draws.")
    game.id = "international"
    return game
