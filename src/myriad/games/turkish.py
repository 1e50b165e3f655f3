"""Turkish draughts (dama): men that move straight, kings that fly along files and ranks.

Equipment: all 64 squares of an 8 x 8 board of one colour, named a1..h8 as in chess;
16 men each, White's on the second and third rows, Black's on the sixth and seventh.

Play: a man steps one square forward or sideways, and captures forward or sideways by
jumping an enemy piece next to it to the empty square behind.  A king slides any distance
along its file or rank and captures at a distance: it jumps an enemy piece on its line,
with only empty squares between, and lands on any empty square beyond.  Captured pieces
are removed one by one as they are jumped, so their squares free at once; a capture never
turns back (180 degrees) between two jumps.  Capturing is compulsory and the sequence
taking the most pieces must be played (men and kings count alike).  A man reaching the
far row becomes a king at the end of its move.

End: no legal move loses; threefold repetition, or 25 moves each without a capture or a
man move, draws.

Position text: the PDN FEN with algebraic squares, as pydraughts writes it for this game:
``W:Wa2,b2,Kd5:Bb7,c6`` (``K`` before a king).  Moves: ``a3-a4``, ``b3xb5xd5``.
"""

from __future__ import annotations

import re
from myriad.core.errors import InvalidMoveError, PositionError
from myriad.core.move import Move
from myriad.core.numbers import read_int, shortened
from myriad.core.state import State
from myriad.core.topology import square_board
from myriad.games.draughts import COLOUR_OF_PLAYER, WHITE, Draughts

_SQUARE = re.compile(r"(K?)([a-h][1-8])")
_MOVE = re.compile(r"[a-h][1-8](?:-[a-h][1-8]|(?:x[a-h][1-8])+)")


class Turkish(Draughts):
    """Turkish draughts: PDN-like text with algebraic squares."""

    def parse_position(self, text: str) -> State:
        shown = shortened(text)
        body = text.strip().strip('"').strip().rstrip(".")
        fields = [f.strip() for f in body.split(":")]
        turn = fields[0].upper()
        if turn not in COLOUR_OF_PLAYER or len(fields) < 2:
            raise PositionError(f"{self.id}: {shown}: expected side:W...:B... with side W or B")
        cells = [0] * self.squares
        clock = 0
        seen: set[str] = set()
        for field in fields[1:]:
            tag = field[:1].upper()
            if tag in seen:
                raise PositionError(f"{self.id}: {shown}: field {tag} is given twice")
            seen.add(tag)
            if tag == "H":
                clock = read_int(field[1:], f"{self.id}: {shown}: half-move clock", error=PositionError)
                continue
            if tag not in COLOUR_OF_PLAYER:
                raise PositionError(f"{self.id}: {shown}: field {shortened(field)} must start with W, B or H")
            player = COLOUR_OF_PLAYER.index(tag)
            for item in filter(None, (i.strip() for i in field[1:].split(","))):
                m = _SQUARE.fullmatch("K" + item[1:].lower() if item[:1] in "kK" else item.lower())
                if m is None:
                    raise PositionError(f"{self.id}: {shown}: {shortened(item)} is not a square (a1..h8, K for a king)")
                pos = self.topology.index[m.group(2)]
                if cells[pos]:
                    raise PositionError(f"{self.id}: {shown}: square {m.group(2)} is given twice")
                is_king = bool(m.group(1))
                if not is_king and pos in self.promotion[player]:
                    raise PositionError(f"{self.id}: {shown}: a {self.player_names[player]} man on {m.group(2)} "
                                        f"stands on its promotion row (write K{m.group(2)} for a king)")
                cells[pos] = (self.king if is_king else self.man)[player]
        to_move = COLOUR_OF_PLAYER.index(turn)
        self.check_reachable(cells, to_move, clock)
        return self.make_state(cells, to_move, (), (clock,))

    def format_position(self, state: State) -> str:
        names = self.topology.names
        lists = []
        for player in (0, 1):
            items = [("K" if v == self.king[player] else "") + names[pos]
                     for pos, v in sorted(enumerate(state.cells), key=lambda pv: (names[pv[0]][1], names[pv[0]][0]))
                     if v in (self.man[player], self.king[player])]
            lists.append(COLOUR_OF_PLAYER[player] + ",".join(items))
        clock = f":H{state.counters[0]}" if state.counters[0] else ""
        return f"{COLOUR_OF_PLAYER[state.to_move]}:{lists[0]}:{lists[1]}{clock}"

    def format_move(self, state: State, move: Move) -> str:
        names = self.topology.names
        return ("x" if len(move) > 1 else "-").join(names[p] for p in move.path)

    def check_move_syntax(self, text: str) -> None:
        if not _MOVE.fullmatch(text):
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move (write a3-a4 for a step, "
                                   "b3xb5 or b3xb5xd5 for a capture)")

    def render(self, state: State) -> str:
        return "\n".join(super(Draughts, self).render(state).splitlines()
                         + [f"{self.player_names[state.to_move]} to move"])


def turkish(*, merge_duplicate_routes: bool = True) -> Turkish:
    """Turkish draughts (dama), 8x8."""
    board = square_board(8, 8, diagonals=False)
    board = board.with_zones(promotion=board.rows_zone(8))
    start = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
    game = Turkish(
        name="Turkish draughts", size=8, first=WHITE, topology=board, start=start, start_men=16,
        draw_moves=25, merge_duplicate_routes=merge_duplicate_routes, men_capture_backwards=False,
        flying_kings=True, maximum_capture=True, capture_promotion="end",
        forward=("n", "e", "w"), directions=("n", "s", "e", "w"),
        remove_at_once=True, turn_back=False,
        rules="8x8, every square used, White moves first. Men step one square forward or sideways "
              "and capture forward or sideways by jumping an adjacent piece; kings fly along files "
              "and ranks and capture at a distance, landing on any empty square beyond. Captured "
              "pieces are removed one by one as they are jumped, and a capture never turns back "
              "180 degrees. Capturing is compulsory and the sequence taking the most pieces must be "
              "played. A man reaching the far row becomes a king at the end of its move. No legal "
              "move loses; threefold repetition or 25 moves each without a capture or a man move "
              "draws.")
    game.id = "turkish"
    return game
