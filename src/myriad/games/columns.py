"""Column draughts: Lasca and Bashni, where captured pieces go under the capturer.

Equipment: the dark squares of a board (Lasca: 7 x 7, 25 squares, corners dark; Bashni:
8 x 8, 32 squares), named a1.. as in chess; men ("soldiers") and kings ("officers") of
White (player 0) and Black.  A cell holds a column (see
:mod:`myriad.core.mechanics.stacks`): one piece or a stack, owned and moved by its top
piece, the commander.

Play: as in draughts, by the commander's rank: a man steps diagonally forward, a king
diagonally any way.  Capturing is compulsory (any capture, not the largest); a capture
jumps an enemy column and takes only its top piece, which goes under the capturing
column as a prisoner, freeing what was under it; a capture goes on while it can, and the
same column is never jumped twice in one move.  A man reaching the far row becomes a king
(only the commander is promoted; a captured king keeps its rank).

* **Lasca** (Emanuel Lasker, 1911; lasca.org): 11 pieces each on the first three rows of
  their side; men move and capture forward only; kings step one square; a man promoted
  at the end of a capture stops there.
* **Bashni** (Russian column draughts): the Russian draughts rules with columns: 12
  pieces each, men capture backwards too, kings fly, and a man reaching the far row in a
  capture becomes a king at once and goes on capturing as a king.

End: the side to move with no legal move (all its pieces prisoners, or blocked) loses.
Threefold repetition draws, and so do ``draw_moves`` moves each without a capture or a
man move (an engine bound; the published rules of Lasca state none).

Position text (our own, no standard exists): ``W:a1=w,c3=Wbb,e5=b:H4`` — the side to move,
then each occupied square with its column written top first (``w``/``b`` a man, ``W``/``B``
a king), then the half-move clock when it is not zero.  Moves: ``a3-b4``, ``c3xe5xg3``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from myriad.core.errors import InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.mechanics.jumps import CapturePromotion, JumpCaptures
from myriad.core.mechanics.stacks import Columns, StackJumps, apply
from myriad.core.move import CAPTURE, Move
from myriad.core.numbers import read_int, shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import square_board
from myriad.core.zobrist import HashedZobrist
from myriad.games.draughts import JumpAliases

WHITE, BLACK = 0, 1
COLOUR = ("W", "B")
PIECES = (
    PieceKind("man", "m", value=1, glyphs=("⛀", "⛂"), letters=("w", "b")),
    PieceKind("king", "k", value=3, glyphs=("⛁", "⛃"), letters=("W", "B")),
)
_ENTRY = re.compile(r"([a-z][0-9]+)=([wbWB]+)")
_MOVE = re.compile(r"[a-z][0-9]+(?:-[a-z][0-9]+|(?:x[a-z][0-9]+)+)")
#: Column values stay below this bound (the hashed Zobrist keys need it).
MAX_COLUMN = 1 << 56


class ColumnDraughts(Game):
    """A column draughts game: board size, rows of men and capture rules are parameters."""

    family = "draughts"
    player_names = ("white", "black")
    forced_captures = True

    def __init__(self, *, game_id: str, name: str, size: int, rows: int, rules: str,
                 men_capture_backwards: bool, flying_kings: bool,
                 capture_promotion: CapturePromotion, draw_moves: int) -> None:
        board = square_board(size, size, orthogonals=False, keep=lambda c, r: (c + r) % 2 == 0)
        board = board.with_zones(promotion=board.rows_zone(size))
        pieces = PieceSet(PIECES)
        self.id, self.name, self.rules, self.size = game_id, name, rules, size
        self.man = (pieces.code("man", WHITE), pieces.code("man", BLACK))
        self.king = (pieces.code("king", WHITE), pieces.code("king", BLACK))
        self.promotion = board.zones["promotion"]
        self.draw_plies = 2 * draw_moves
        self.columns = Columns(pieces.count)
        names = board.names
        white = [names[p] for p, (_x, y) in enumerate(board.coords) if y < rows]
        black = [names[p] for p, (_x, y) in enumerate(board.coords) if y >= size - rows]
        self.start_pieces = len(white)
        start = "W:" + ",".join(f"{n}=w" for n in white + []) + "," + ",".join(f"{n}=b" for n in black)
        super().__init__(board, pieces, {"start": start})
        self.hashed = HashedZobrist(board.size, self.players)
        self.zobrist = self.hashed
        jumps = JumpCaptures(
            board, men=self.man, kings=self.king, promotion=self.promotion, piece_codes=pieces.count,
            men_capture_backwards=men_capture_backwards, flying_kings=flying_kings, compulsory=True,
            maximum_capture=False, capture_promotion=capture_promotion, merge_duplicate_routes=False)
        self.stack_jumps = StackJumps(jumps, self.columns)
        self._jump_aliases = JumpAliases(self)

    # -- play ----------------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        if state.counters[0] >= self.draw_plies or state.repetitions() >= 2:
            return []
        return self.stack_jumps.moves(state.cells, state.to_move)

    def play(self, state: State, move: Move) -> State:
        cells = list(state.cells)
        apply(cells, move)
        cell_key = self.hashed.cell_key
        key = state.key
        for pos in {a[1] for a in move} | {a[2] for a in move}:
            key ^= cell_key(pos, state.cells[pos]) ^ cell_key(pos, cells[pos])
        nxt = self.after_move(state, move, cells)
        side = self.zobrist.side
        key ^= side[state.to_move] ^ side[nxt.to_move]
        history = () if nxt.irreversible else state.history + (state.key,)
        return State(tuple(cells), nxt.to_move, state.flags, nxt.counters, state.hands, key, history, self)

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        top = self.columns.top(state.cells[move[0][1]])
        irreversible = len(move) != 1 or top in self.man
        clock = 0 if irreversible else state.counters[0] + 1
        return Next(1 - state.to_move, state.flags, (clock,), state.hands, irreversible)

    def outcome(self, state: State) -> Outcome | None:
        return self.result(state, self.legal_moves(state))

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        if state.repetitions() >= 2:
            return Outcome.draw("threefold repetition")
        if state.counters[0] >= self.draw_plies:
            return Outcome.draw(f"{self.draw_plies // 2} moves each without a capture or a man move")
        if not moves:
            return Outcome.win(1 - state.to_move, "no legal move")
        return None

    # -- knowledge for bots --------------------------------------------------------------------

    def evaluate(self, state: State) -> float:
        """Material by columns: a commander is worth its rank (kings more where they fly),
        men gain as they advance; each of the owner's own pieces under it adds (they come
        back when the commander falls) and each prisoner adds a little (it is held)."""
        cols = self.columns
        base = cols.base
        me = state.to_move
        owner_of = self.pieces.owner_of
        coords = self.topology.coords
        top_row = self.size - 1
        king_value = 350 if self.stack_jumps.jumps.flying_kings else 250
        score = 0
        for pos, column in enumerate(state.cells):
            if not column:
                continue
            top = column % base
            owner = owner_of[top]
            if top == self.king[owner]:
                v = king_value
            else:
                row = int(coords[pos][1])
                v = 100 + 4 * (row if owner == WHITE else top_row - row)
            column //= base
            while column:
                column, piece = divmod(column, base)
                v += 70 if owner_of[piece] == owner else 35
            score += v if owner == me else -v
        return score

    def move_heuristic(self, state: State, move: Move) -> float:
        return float(sum(1 for a in move if a[0] == CAPTURE)) + (
            1.0 if self.columns.top(move[0][3]) != self.columns.top(state.cells[move[0][1]]) else 0.0)

    def is_noisy(self, state: State, move: Move) -> bool:
        return len(move) > 1 or self.columns.top(move[0][3]) != self.columns.top(state.cells[move[0][1]])

    # -- positions -----------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        shown = shortened(text)
        fields = [f.strip() for f in text.strip().strip('"').strip().split(":")]
        turn = fields[0].upper()
        if turn not in COLOUR or len(fields) < 2:
            raise PositionError(f"{self.id}: {shown}: expected side:a1=w,c3=Wbb,... with side W or B")
        cells = [0] * self.topology.size
        clock = 0
        code_of = self.pieces.code_of_letter
        for field in fields[1:]:
            if field[:1] == "H" and field[1:].isdigit():
                clock = read_int(field[1:], f"{self.id}: {shown}: half-move clock", error=PositionError)
                continue
            for item in filter(None, (i.strip() for i in field.split(","))):
                m = _ENTRY.fullmatch(item)
                if m is None or m.group(1) not in self.topology.index:
                    raise PositionError(f"{self.id}: {shown}: {shortened(item)} is not square=column "
                                        "(a dark square, then the column top first in w, b, W, B)")
                pos = self.topology.index[m.group(1)]
                if cells[pos]:
                    raise PositionError(f"{self.id}: {shown}: square {m.group(1)} is given twice")
                pieces = [code_of[ch] for ch in m.group(2)]
                top = pieces[0]
                owner = self.pieces.owner_of[top]
                if top == self.man[owner] and pos in self.promotion[owner]:
                    raise PositionError(f"{self.id}: {shown}: a {self.player_names[owner]} man commands "
                                        f"{m.group(1)} on its promotion row (it would be a king)")
                colours = [self.pieces.owner_of[p] for p in pieces]
                if sum(1 for a, b in zip(colours, colours[1:]) if a != b) > 1:
                    raise PositionError(f"{self.id}: {shown}: column {m.group(2)} on {m.group(1)} alternates "
                                        "colours more than once (prisoners only ever go under the bottom)")
                cells[pos] = self.columns.build(pieces)
        for player in (WHITE, BLACK):
            count = sum(1 for c in cells for p in self.columns.pieces(c) if self.pieces.owner_of[p] == player)
            if count > self.start_pieces:
                raise PositionError(f"{self.id}: {shown}: {count} {self.player_names[player]} pieces, "
                                    f"a side has {self.start_pieces}")
        if clock > self.draw_plies:
            raise PositionError(f"{self.id}: {shown}: half-move clock {clock}: the game is drawn after "
                                f"{self.draw_plies} plies without a capture or a man move")
        return self.make_state(cells, COLOUR.index(turn), (), (clock,))

    def format_position(self, state: State) -> str:
        letters = self.pieces.letter_of
        items = [f"{self.topology.names[pos]}=" + "".join(letters[p] for p in self.columns.pieces(c))
                 for pos, c in enumerate(state.cells) if c]
        clock = f":H{state.counters[0]}" if state.counters[0] else ""
        return f"{COLOUR[state.to_move]}:{','.join(items)}{clock}"

    def column_text(self, column: int) -> str:
        """A column written top first (``Wbb``)."""
        return "".join(self.pieces.letter_of[p] for p in self.columns.pieces(column))

    def column_pieces(self, column: int) -> list[int]:
        """The piece codes of a column, top first (for drawing)."""
        return self.columns.pieces(column)

    # -- moves ---------------------------------------------------------------------------------

    def format_move(self, state: State, move: Move) -> str:
        names = self.topology.names
        return ("x" if len(move) > 1 else "-").join(names[p] for p in move.path)

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """A multi-jump may also be written start x end when no other move shares both."""
        return self._jump_aliases(state, move)

    def check_move_syntax(self, text: str) -> None:
        if not _MOVE.fullmatch(text):
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move (write c3-d4 for a step, "
                                   "c3xe5 or c3xe5xg3 for a capture)")

    # -- drawing -------------------------------------------------------------------------------

    def cell_text(self, value: int) -> str:
        return self.column_text(value) if value else "."

    def render(self, state: State) -> str:
        """The board from White's side, each column written top first."""
        return super().render(state) + f"\n{self.player_names[state.to_move]} to move"


def lasca() -> ColumnDraughts:
    """Lasca (Emanuel Lasker, 1911), rules of lasca.org."""
    return ColumnDraughts(
        game_id="lasca", name="Lasca", size=7, rows=3, draw_moves=40,
        men_capture_backwards=False, flying_kings=False, capture_promotion="end",
        rules="7x7, 25 squares, 11 pieces each, White moves first. Soldiers step diagonally forward, "
              "officers one square any diagonal way. Capturing is compulsory (any capture) and goes on "
              "while it can: a jump takes only the top piece of the jumped column and puts it under "
              "the capturing column as a prisoner, freeing the pieces beneath it; a column is never "
              "jumped twice in one move. A column belongs to the owner of its top piece. A soldier "
              "reaching the far row becomes an officer at the end of its move (only the commander; "
              "prisoners keep their rank). No legal move loses; threefold repetition or 40 moves "
              "each without a capture or a soldier move draws.")


def bashni() -> ColumnDraughts:
    """Bashni (column draughts on Russian draughts rules)."""
    return ColumnDraughts(
        game_id="bashni", name="Bashni", size=8, rows=3, draw_moves=15,
        men_capture_backwards=True, flying_kings=True, capture_promotion="continue",
        rules="8x8, 12 pieces each, White moves first: Russian draughts with towers. Men step "
              "diagonally forward and capture in all four diagonal directions; kings fly. Capturing "
              "is compulsory (any capture) and goes on while it can: a jump takes only the top piece "
              "of the jumped tower and puts it under the capturing tower, freeing the pieces beneath; "
              "a tower is never jumped twice in one move. A tower belongs to the owner of its top "
              "piece. A man reaching the far row becomes a king at once and a capture goes on as a "
              "king. No legal move loses; threefold repetition or 15 king moves each without a "
              "capture or a man move draws.")
