"""In-a-row games: the m,n,k family, with or without gravity.

Two players take turns putting a stone of their own on the board; the first to make an
unbroken row of ``k`` stones (across, up or diagonally) wins.  The board filling up
without a row is a draw.

* **tic-tac-toe**  3x3, three in a row;
* **Connect Four** 7 columns x 6 rows with gravity (a stone falls to the lowest empty
  cell of its column), four in a row;
* **gomoku**       15x15, five in a row; free-style: a longer row (an overline) wins too.

Notation.  Positions are the rank string (top row first, ``X`` for the first player's
stones, ``O`` for the second's, digits for empty runs) and the side to move as a lower-case
letter: ``3/3/3 x``, ``7/7/7/7/7/7 x``.  A move is the name of the cell the stone goes on:
``b2``, ``h8``.  With gravity the move is written as the cell where the stone lands
(``d1`` for the first stone in the fourth column); the column letter (``d``) and the
column number counted from 1 (``4``, as in the digit strings such as ``4453`` that
Connect Four solvers read) are accepted too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.mechanics.placement import FreePlacement, GravityDrops, LineGoal, Vicinity
from myriad.core.move import Move
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import file_letter, square_board
from myriad.notation.ranks import format_ranks, parse_ranks

NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}
CELL_NAME = re.compile(r"[a-z]+[0-9]+")


class InARow(Game):
    """An m,n,k-game: ``width`` x ``height`` board, ``k`` in a row wins.

    ``gravity`` makes stones fall to the bottom of their column; ``overlines`` says whether
    a row longer than ``k`` wins too; with ``candidate_radius`` bots consider only the cells
    near a stone (see :meth:`candidate_moves`).  ``flags[0]`` is 0 while nobody has a row,
    else 1 + the winner (set by :meth:`after_move` from the lines through the last stone).
    """

    family = "in-a-row"
    player_names = ("X", "O")

    def __init__(self, game_id: str, name: str, width: int, height: int, k: int, *,
                 gravity: bool = False, overlines: bool = True, candidate_radius: int | None = None,
                 player_names: tuple[str, str] = ("X", "O"), rules: str = "") -> None:
        if k > max(width, height):
            raise GameDefinitionError(f"{game_id}: {k} in a row cannot fit on {width}x{height}")
        self.id = game_id
        self.name = name
        self.player_names = player_names
        self.rules = rules
        self.k = k
        topology = square_board(width, height)
        pieces = PieceSet([PieceKind("stone", "x", letters=("X", "O"))])
        self.stones = (pieces.code("stone", 0), pieces.code("stone", 1))
        self.side_letters = tuple(pieces.letter_of[c].lower() for c in self.stones)
        empty = "/".join([str(width)] * height)
        super().__init__(topology, pieces, {"start": f"{empty} {self.side_letters[0]}"})
        # -- rules: where a stone may go, and what wins
        self.placement: FreePlacement | GravityDrops = (
            GravityDrops(topology, self.stones, down="s") if gravity else FreePlacement(topology, self.stones))
        self.goal = LineGoal(topology, k, overlines=overlines)
        self.reason = f"{NUMBER_WORDS.get(k, str(k))} in a row"
        self.gravity = gravity
        self.vicinity = Vicinity(topology, candidate_radius) if candidate_radius else None
        #: With gravity: column letters and numbers, and per cell the aliases of a move there.
        self.column_names: tuple[str, ...] = ()
        self.column_numbers: tuple[str, ...] = ()
        self.aliases: tuple[tuple[str, ...], ...] = ((),) * topology.size
        if isinstance(self.placement, GravityDrops):
            count = len(self.placement.columns)
            self.column_names = tuple(file_letter(c) for c in range(count))
            self.column_numbers = tuple(str(c + 1) for c in range(count))
            self.aliases = tuple((self.column_names[c], self.column_numbers[c]) for c in self.placement.column_of)

    # -- play ----------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """A stone on any empty cell (the landing cell of any open column with gravity);
        nothing once a row is made."""
        if state.flags[0]:
            return []
        return self.placement.moves(state.cells, self.stones[state.to_move])

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        """The other player moves; a row through the new stone ends the game."""
        flags = state.flags
        if self.goal.completed_at(cells, move[0][2]):
            flags = (state.to_move + 1,)
        return Next(1 - state.to_move, flags, state.counters, state.hands, True)

    def outcome(self, state: State) -> Outcome | None:
        """The player who made a row wins; a full board without one is a draw."""
        if state.flags[0]:
            return Outcome.win(state.flags[0] - 1, self.reason)
        if 0 not in state.cells:
            return Outcome.draw("board full")
        return None

    def candidate_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """For bots: with ``candidate_radius``, only the cells within that many steps of a
        stone (a stone far from every other one rarely matters); else every move."""
        if self.vicinity is None:
            return moves
        return self.vicinity.near_stones(state.cells, moves)

    # -- notation --------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        """Read ``<rank string> <side to move>``, e.g. ``3/3/3 x``."""
        fields = text.split()
        if len(fields) != 2:
            raise PositionError(
                f"{self.id}: expected '<rows> <side to move>' like {self.setups['start']!r}, got {text!r}")
        cells = parse_ranks(self.topology, fields[0], self.pieces.code_of_letter)
        if fields[1] not in self.side_letters:
            raise PositionError(f"{self.id}: side to move must be one of {'/'.join(self.side_letters)}, "
                                f"got {fields[1]!r}")
        to_move = self.side_letters.index(fields[1])
        if isinstance(self.placement, GravityDrops):
            floating = self.placement.unsupported(cells)
            if floating:
                names = ", ".join(self.square_name(p) for p in floating)
                raise PositionError(f"{self.id}: stones on {names} have an empty cell below them")
        rows = self.goal.completed(cells)
        if len(rows) > 1:
            raise PositionError(f"{self.id}: both players have {self.reason}")
        winner = self.stones.index(rows.pop()) + 1 if rows else 0
        return self.make_state(cells, to_move, (winner,))

    def format_position(self, state: State) -> str:
        """``<rank string> <side to move>``."""
        return f"{format_ranks(self.topology, state.cells, self.pieces.letter_of)} {self.side_letters[state.to_move]}"

    def format_move(self, state: State, move: Move) -> str:
        """The cell the stone goes on, e.g. ``b2``."""
        return self.topology.names[move[0][2]]

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """With gravity: the column letter and the column number counted from 1."""
        return self.aliases[move[0][2]]

    def check_move_syntax(self, text: str) -> None:
        """A cell of the board, or (with gravity) a column letter or number."""
        if text in self.topology.index or text in self.column_names or text in self.column_numbers:
            return
        what = "a cell name like 'b2'"
        if self.gravity:
            what += f", a column letter a-{self.column_names[-1]} or a column number 1-{len(self.column_names)}"
        if CELL_NAME.fullmatch(text):
            raise InvalidMoveError(f"{self.id}: there is no cell {text!r} on this board; expected {what}")
        raise InvalidMoveError(f"{self.id}: {text!r} is not a move; expected {what}")


def mnk_game(width: int, height: int, k: int, *, gravity: bool = False, overlines: bool = True,
             candidate_radius: int | None = None, game_id: str = "", name: str = "",
             player_names: tuple[str, str] = ("X", "O")) -> InARow:
    """The m,n,k-game on ``width`` x ``height`` with ``k`` in a row (gravity optional)."""
    rules = (f"Players alternate placing a stone {'in a column; it falls to the lowest empty cell' if gravity else 'on an empty cell'}. "
             f"{'At least' if overlines else 'Exactly'} {k} own stones in a row (orthogonal or diagonal) win; "
             "a full board without one is a draw.")
    return InARow(game_id or f"mnk-{width}-{height}-{k}{'-gravity' if gravity else ''}",
                  name or f"{width},{height},{k}-game", width, height, k, gravity=gravity,
                  overlines=overlines, candidate_radius=candidate_radius, player_names=player_names,
                  rules=rules)


def tictactoe() -> InARow:
    """Tic-tac-toe: 3x3, three in a row, X first."""
    return mnk_game(3, 3, 3, game_id="tictactoe", name="Tic-tac-toe")


def connect_four(columns: int = 7, rows: int = 6) -> InARow:
    """Connect Four: 7 columns x 6 rows, stones fall, four in a row."""
    return mnk_game(columns, rows, 4, gravity=True, game_id="connect4", name="Connect Four",
                    player_names=("first", "second"))


def gomoku(size: int = 15, overlines: bool = True) -> InARow:
    """Gomoku on 15x15: five in a row; free-style (``overlines``): six or more win too,
    standard gomoku (``overlines=False``): exactly five.  Bots look at the cells within two
    steps of a stone."""
    return mnk_game(size, size, 5, overlines=overlines, candidate_radius=2,
                    game_id="gomoku" if overlines and size == 15 else f"gomoku-{size}{'' if overlines else '-exact'}",
                    name="Gomoku" if overlines else "Gomoku (exactly five)", player_names=("black", "white"))
