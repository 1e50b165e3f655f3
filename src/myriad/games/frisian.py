"""Frisian draughts: international draughts with orthogonal captures and kings of value.

Equipment: the 50 dark squares of a 10 x 10 board, numbered as in PDN, 20 men each (the
international start).

Play: men step diagonally forward; kings fly diagonally.  Men and kings also capture
orthogonally: along a file or a rank the nearest square of the same colour is two squares
away, so a man jumps a piece two squares ahead, behind or to either side, landing two
squares further; a king flies along those lines too.  Capturing is compulsory and the
capture of the highest value must be played, a king worth more than one man and less
than two (1.501 here, as pydraughts and lidraughts count: three men or two kings, take the
kings); of captures of equal value, one made by a king must be played.  A man becomes a
king when its move ends on the far row.  While a side has men, the same king may make at
most three non-capturing moves in a row.

End: no legal move loses; threefold repetition, or 25 moves each without a capture or a
man move, draws; so do one king against one king after 2 moves each and two kings
against one after 7 (the FMJD Frisian endgame rules, as pydraughts applies them).

Position text: the PDN FEN, plus ``:KW46+2`` (``:KB...``) when a king has made non-capturing
moves in a row: the square of the king and how many (1 to 3).
"""

from __future__ import annotations

from myriad.core.errors import PositionError
from myriad.core.game import Next
from myriad.core.move import Move
from myriad.core.numbers import read_int, shortened
from myriad.core.state import State
from myriad.core.topology import NO_LINK, Topology
from myriad.games.draughts import BLACK, COLOUR_OF_PLAYER, WHITE, Draughts, numbered_board

#: The most non-capturing moves in a row the same king may make while its side has men.
KING_MOVES = 3


def with_far_orthogonals(board: Topology) -> Topology:
    """``board`` (the dark squares of a grid) with directions n, s, e, w linking each square
    to the nearest square of its colour along its file or rank, two squares away."""
    at = {(int(x), int(y)): pos for pos, (x, y) in enumerate(board.coords)}
    steps = (("n", 0, 2), ("s", 0, -2), ("e", 2, 0), ("w", -2, 0))
    links = board.links + tuple(tuple(at.get((int(x) + dx, int(y) + dy), NO_LINK) for x, y in board.coords)
                                for _n, dx, dy in steps)
    directions = board.directions + tuple(n for n, _dx, _dy in steps)
    index = {n: i for i, n in enumerate(directions)}
    mirror = {"n": "s", "s": "n", "e": "e", "w": "w", "ne": "se", "se": "ne", "nw": "sw", "sw": "nw"}
    player_dirs = (tuple(range(len(directions))), tuple(index[mirror[n]] for n in directions))
    return Topology(board.names, board.coords, directions, links, player_dirs, board.zones,
                    board.width, board.height)


class Frisian(Draughts):
    """Frisian draughts; ``flags`` hold, per side, the square of the king that made the
    last non-capturing moves (+1, 0 for none) and how many it made in a row."""

    start_flags = (0, 0, 0, 0)

    def legal_moves(self, state: State) -> list[Move]:
        me = state.to_move
        moves = super().legal_moves(state)
        square, count = state.flags[2 * me] - 1, state.flags[2 * me + 1]
        if count >= KING_MOVES and self.man[me] in state.cells and moves and len(moves[0]) == 1:
            moves = [m for m in moves if m[0][1] != square]
        return moves

    def drawn(self, state: State) -> str | None:
        """The family's draws, and the Frisian endgame rules: one king against one king is a
        draw after 2 moves each, two kings against one after 7 (without a capture)."""
        reason = super().drawn(state)
        if reason:
            return reason
        cells, clock = state.cells, state.counters[0]
        if clock < 4 or any(c in self.man for c in cells):
            return None
        kings = sorted(sum(1 for c in cells if c == self.king[p]) for p in (WHITE, BLACK))
        if kings == [1, 1]:
            return "one king against one king: 2 moves each"
        if kings == [1, 2] and clock >= 14:
            return "two kings against one: 7 moves each"
        return None

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        nxt = super().after_move(state, move, cells)
        me = state.to_move
        flags = list(state.flags)
        if len(move) == 1 and state.cells[move[0][1]] == self.king[me]:
            frm, to = move[0][1], move[0][2]
            # (counted up to the limit: a king without men beside it may go on moving)
            count = min(flags[2 * me + 1] + 1, KING_MOVES) if flags[2 * me] - 1 == frm else 1
            flags[2 * me], flags[2 * me + 1] = to + 1, count
        else:
            flags[2 * me] = flags[2 * me + 1] = 0
        # A king of the other side captured (or a man's move) ends nothing of theirs, but a
        # counted king that was captured is gone: forget it.
        them = 1 - me
        if flags[2 * them] and cells[flags[2 * them] - 1] != self.king[them]:
            flags[2 * them] = flags[2 * them + 1] = 0
        return nxt._replace(flags=tuple(flags))

    def parse_position(self, text: str) -> State:
        fields = text.strip().strip('"').split(":")
        counted = [0, 0, 0, 0]
        rest = []
        for field in fields:
            f = field.strip()
            if f[:2].upper() in ("KW", "KB") and len(f) > 2 and "+" in f:
                player = COLOUR_OF_PLAYER.index(f[1].upper())
                number_text, _plus, count_text = f[2:].partition("+")
                where = f"{self.id}: {shortened(text)}: field {shortened(f)}"
                number = read_int(number_text, f"{where}: square", low=1, high=self.squares, error=PositionError)
                count = read_int(count_text, f"{where}: king moves", low=1, high=KING_MOVES, error=PositionError)
                if counted[2 * player]:
                    raise PositionError(f"{where}: {self.player_names[player]}'s king moves are given twice")
                counted[2 * player], counted[2 * player + 1] = self._pos_of_number[number] + 1, count
            else:
                rest.append(field)
        state = super().parse_position(":".join(rest))
        for player in (WHITE, BLACK):
            pos = counted[2 * player] - 1
            if pos >= 0 and state.cells[pos] != self.king[player]:
                raise PositionError(f"{self.id}: {shortened(text)}: no {self.player_names[player]} king "
                                    f"on square {self.topology.names[pos]} to have made king moves")
        return self.make_state(state.cells, state.to_move, tuple(counted), state.counters)

    def format_position(self, state: State) -> str:
        text = super().format_position(state)
        for player in (WHITE, BLACK):
            if state.flags[2 * player]:
                text += (f":K{COLOUR_OF_PLAYER[player]}{self.topology.names[state.flags[2 * player] - 1]}"
                         f"+{state.flags[2 * player + 1]}")
        return text


def frisian(*, merge_duplicate_routes: bool = True) -> Frisian:
    """Frisian draughts (10x10)."""
    board = with_far_orthogonals(numbered_board(10))
    game = Frisian(
        name="Frisian draughts", size=10, first=WHITE, topology=board, draw_moves=25,
        merge_duplicate_routes=merge_duplicate_routes, men_capture_backwards=True, flying_kings=True,
        maximum_capture=True, capture_promotion="end",
        man_capture_directions=("nw", "ne", "sw", "se", "n", "s", "e", "w"),
        king_directions=("nw", "ne", "sw", "se"),
        king_capture_directions=("nw", "ne", "sw", "se", "n", "s", "e", "w"),
        capture_values=(1000, 1501), prefer_king_captures=True,
        rules="10x10, White moves first. Men step diagonally forward; kings fly diagonally. Men and "
              "kings capture diagonally and orthogonally, forwards and backwards: along a file or a "
              "rank a man jumps the piece two squares away to the square two further; kings capture "
              "at a distance. Capturing is compulsory and the capture of the highest value must be "
              "played, a king worth more than one man and less than two; of equal captures, a king's "
              "comes first. Captured pieces are removed after the move. A man becomes a king only if "
              "its move ends on the far row. While a side has men, the same king may make at most "
              "three non-capturing moves in a row. No legal move loses; threefold repetition or 25 "
              "moves each without a capture or a man move draws, and so do one king against one "
              "after 2 moves each and two kings against one after 7.")
    game.id = "frisian"
    return game
