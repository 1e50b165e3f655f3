"""Rolit, Reversi for two to four players (Goliath Games).

Rules from the publisher's rule sheet (as given at ultraboardgames.com/rolit/game-rules.php)
and the worked example of the Grey Labyrinth's 2011 game thread:

Equipment: an 8x8 board; balls with a red, a yellow, a green and a blue side.  Each player
has a colour: red, yellow, green, blue clockwise round the board; with two players red and
green (facing each other), with three red, yellow and green.
Start: whatever the number of players, four balls in the centre, one of each colour,
clockwise in the same order: red on d5, yellow on e5, green on e4, blue on d4.  Red moves
first (the rule sheet rolls a ball to choose; a position text can start anyone), then play
goes clockwise through the players' colours.
Play: a player places a ball of their colour on an empty cell next to a ball (in one of the
eight directions).  If they can, they must trap: place so that, in some direction, an
unbroken line of balls of other colours runs from the new ball to the nearest ball of their
own; every trapped line rolls over to their colour.  Only when no trapping placement exists
(for instance when their colour has gone from the board) may they place on any empty cell
next to a ball without trapping.  Colours no player has are trapped like any other.
End: when the board is full.  The player with the most balls of their colour wins; players
tied for the most share the win.

With two players and Othello's start (setup ``othello``: red on d5 and e4, green on d4 and
e5) the moves are Othello's as long as a trapping move exists; Othello would pass where
Rolit places a ball next to another.

Notation: positions are the rank string (``R``, ``Y``, ``G``, ``B``) and the colour to move
(``r``, ``y``, ``g``, ``b``): ``8/8/8/3RY3/3BG3/8/8/8 r``.  Moves are cell names (``d3``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.mechanics.flanking import ColourFlips
from myriad.core.mechanics.placement import FreePlacement, Vicinity
from myriad.core.move import Move
from myriad.core.numbers import shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.ranks import format_ranks, parse_ranks
from myriad.core.state import State
from myriad.core.topology import Topology, square_board
from myriad.games.othello import Corners

COLOURS = ("red", "yellow", "green", "blue")
LETTERS = ("R", "Y", "G", "B")
#: The colours played, by number of players (seats round the board).
SEATED = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
CELL_NAME = re.compile(r"[a-zA-Z]+[0-9]+")


class Rolit(Game):
    """Rolit for ``players`` players (2 to 4) on a ``size`` x ``size`` board."""

    family = "reversi"
    quiescence = False  # every placement turns balls over: nothing quiet to stop at

    def __init__(self, players: int = 4, size: int = 8) -> None:
        if players not in SEATED:
            raise GameDefinitionError(f"rolit: 2 to 4 players, not {players!r}")
        if not isinstance(size, int) or size % 2 or not 4 <= size <= 10:
            raise GameDefinitionError(f"rolit: board size must be even and 4 to 10, not {size!r}")
        #: The colour (0 red, 1 yellow, 2 green, 3 blue) of each player, in turn order.
        self.colours: tuple[int, ...] = SEATED[players]
        self.player_names = tuple(COLOURS[c] for c in self.colours)
        #: Per piece owner (the ball's colour), the colour's name: the page paints balls by it.
        self.piece_colours = COLOURS
        self.id = "rolit" if (players, size) == (4, 8) else f"rolit{players}" + ("" if size == 8 else f"x{size}")
        self.name = f"Rolit ({players} players)" + ("" if size == 8 else f" {size}x{size}")
        self.rules = ("Place a ball of your colour next to a ball. If you can, you must trap: close a "
                      "straight line of other colours between the new ball and your nearest own ball; "
                      "the trapped balls roll over to your colour. If you cannot trap, place anywhere "
                      "next to a ball. When the board is full, most balls of your colour wins.")
        self.size = size
        # -- equipment: the board and balls of four colours, whoever plays
        topology = square_board(size, size)
        pieces = PieceSet([PieceKind("ball", "o", letters=LETTERS)], players=len(COLOURS))
        self.balls = tuple(pieces.code("ball", c) for c in range(len(COLOURS)))
        self.side_letters = tuple(LETTERS[c].lower() for c in self.colours)
        # -- start: one ball of each colour in the centre, clockwise from red on the upper left
        half = size // 2
        centre = {(half - 1, half): 0, (half, half): 1, (half, half - 1): 2, (half - 1, half - 1): 3}
        othello = {(half - 1, half): 0, (half, half - 1): 0, (half - 1, half - 1): 2, (half, half): 2}
        setups = {"start": self._setup_text(topology, pieces, centre)}
        if players == 2:
            setups["othello"] = self._setup_text(topology, pieces, othello)
        super().__init__(topology, pieces, setups)
        # -- rules
        self.flips = ColourFlips(topology, self.balls)
        self.free = FreePlacement(topology, self.balls)
        self.next_to = Vicinity(topology, 1)
        # -- knowledge for bots
        self.corners = Corners(topology)

    def _setup_text(self, topology: Topology, pieces: PieceSet, balls: dict[tuple[int, int], int]) -> str:
        """A setup's position text: ``balls`` maps (column, row) to a colour; the first player moves."""
        cells = [0] * topology.size
        for (col, row), colour in balls.items():
            cells[row * self.size + col] = self.balls[colour]
        return f"{format_ranks(topology, cells, pieces.letter_of)} {self.side_letters[0]}"

    # -- play -----------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """The trapping placements; when there is none, a ball on any empty cell next to a
        ball; nothing once the board is full."""
        cells, colour = state.cells, self.colours[state.to_move]
        moves = self.flips.moves(cells, colour)
        if moves:
            return moves
        return self.next_to.near_stones(cells, self.free.moves(cells, self.balls[colour]))

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        """The next player clockwise moves."""
        return Next((state.to_move + 1) % self.players, state.flags, state.counters, state.hands, True)

    def counts(self, cells: Sequence[int]) -> list[int]:
        """Balls of each player's colour."""
        return [cells.count(self.balls[c]) for c in self.colours]

    def outcome(self, state: State) -> Outcome | None:
        """Over when the board is full: most balls wins; a tie for the most shares the win."""
        if 0 in state.cells:
            return None
        counts = self.counts(state.cells)
        best = max(counts)
        leaders = [p for p, n in enumerate(counts) if n == best]
        tally = "-".join(map(str, counts))
        scores = tuple(1.0 / len(leaders) if p in leaders else 0.0 for p in range(self.players))
        if len(leaders) == self.players:
            return Outcome(scores, f"equal balls: {tally}")
        if len(leaders) > 1:
            return Outcome(scores, f"{' and '.join(self.player_names[p] for p in leaders)} share the most "
                                   f"balls: {tally}")
        return Outcome(scores, f"most balls: {tally}")

    # -- knowledge for bots ------------------------------------------------------------------

    def evaluate_for(self, state: State, player: int) -> float:
        """Balls of ``player``'s colour, a corner worth five, less the average of the others'."""
        cells = state.cells
        values = []
        for c in self.colours:
            ball = self.balls[c]
            values.append(cells.count(ball) + 4 * sum(cells[k] == ball for k in self.corners.corners))
        others = (sum(values) - values[player]) / (self.players - 1)
        return values[player] - others

    def evaluate(self, state: State) -> float:
        """:meth:`evaluate_for` the side to move."""
        return self.evaluate_for(state, state.to_move)

    def move_heuristic(self, state: State, move: Move) -> float:
        """Corners first, then the most balls turned."""
        return 10 * (move[0][2] in self.corners.corners) + len(move)

    # -- notation -------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        """Read ``<rank string> <colour to move>``; the board must hold a ball (a first ball
        has nothing to be placed next to)."""
        fields = text.split()
        if len(fields) != 2:
            raise PositionError(f"{self.id}: expected '<rows> <colour to move>' like "
                                f"{self.setups['start']!r}, got {shortened(text)}")
        cells = parse_ranks(self.topology, fields[0], self.pieces.code_of_letter)
        if fields[1] not in self.side_letters:
            raise PositionError(f"{self.id}: the colour to move must be one of {'/'.join(self.side_letters)}, "
                                f"got {shortened(fields[1])}")
        if not any(cells):
            raise PositionError(f"{self.id}: the board is empty; a ball must be next to another")
        return self.make_state(cells, self.side_letters.index(fields[1]))

    def format_position(self, state: State) -> str:
        return f"{format_ranks(self.topology, state.cells, self.pieces.letter_of)} {self.side_letters[state.to_move]}"

    def format_move(self, state: State, move: Move) -> str:
        """The cell of the new ball (``d3``)."""
        return self.topology.names[move[0][2]]

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """Upper-case cell names (``D3``)."""
        return (self.topology.names[move[0][2]].upper(),)

    def check_move_syntax(self, text: str) -> None:
        if not CELL_NAME.fullmatch(text):
            raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a cell name like d3")


def rolit(players: int = 4, size: int = 8) -> Rolit:
    """Rolit for 2 to 4 players on the 8x8 board (6x6 and 4x4 are the rule sheet's small boards)."""
    return Rolit(players, size)
