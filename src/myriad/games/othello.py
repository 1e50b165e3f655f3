"""Othello (Reversi) on any even board from 4x4 to 10x10.

Equipment: a square board; discs black on one side, white on the other.
Start: the four centre cells, two discs each, like colours on a diagonal: on 8x8 Black on
d5 and e4, White on d4 and e5.  Black moves first.
Play: a disc goes on an empty cell so that, in at least one of the eight directions, an
unbroken line of the opponent's discs runs from it up to a disc of the mover's; every such
line is flipped.  A player who cannot place passes.
End: when neither player can place, the one with more discs wins; equal counts draw.

Passing follows Aart Bik's perft convention: a forced pass is a move (one ply).  A player
with no placement has the single move ``pass``, unless the previous move was a pass too:
then there is no move.  So even in a finished game the side to move "passes" once; the
result is reported by :meth:`Othello.outcome` as soon as neither side can place.
``counters[0]`` counts the passes in a row.

Notation.  Positions are the rank string (top row first, ``X`` Black, ``O`` White, as in
Edax and NBoard board strings), the side to move (``x`` or ``o``) and, only after a pass,
the number of passes in a row: ``8/8/8/3XO3/3OX3/8/8/8 x``.  Moves are cell names (``d3``;
``D3`` is accepted) and ``pass``.

Knowledge for bots (weights in :class:`OthelloWeights`): mobility (legal moves, the
mover's minus the opponent's), corners, the cells next to an empty corner (X-squares
diagonally, C-squares along the edge: they hand the corner over), frontier discs (next to
an empty cell: they give the opponent moves), edge discs that can never flip (an unbroken
run from an own corner) and, as the board fills, the disc count.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import Game, Next, Outcome
from myriad.core.mechanics.placement import (
    LineFlips,
    Vicinity,
    cell_bits,
    forced_pass,
    passes_after,
)
from myriad.core.move import DROP, PASS, Move
from myriad.core.numbers import read_int, shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.state import State
from myriad.core.topology import NO_LINK, Topology, square_board
from myriad.core.ranks import format_ranks, parse_ranks

CELL_NAME = re.compile(r"[a-zA-Z]+[0-9]+")


@dataclass(frozen=True)
class OthelloWeights:
    """The evaluation terms of Othello, per disc or move of difference (mover minus
    opponent), and the move-ordering values of the cells."""

    mobility: int = 10       # per legal move
    corner: int = 120        # per corner disc
    x_square: int = 60       # penalty per disc diagonally next to an empty corner
    c_square: int = 25       # penalty per disc next to an empty corner along the edge
    frontier: int = 5        # penalty per disc next to an empty cell
    stable: int = 20         # per edge disc in an unbroken run from an own corner
    discs: int = 30          # per disc, on a full board; the weight grows linearly ...
    discs_from: float = 0.6  # ... from this fraction of the board filled (0 before)
    order_corner: int = 300  # move ordering: taking a corner
    order_x: int = -200      # move ordering: an X-square of an empty corner
    order_c: int = -60       # move ordering: a C-square of an empty corner
    order_edge: int = 20     # move ordering: another edge cell


class Corners:
    """The corners of a board (the cells with the fewest links), the cells next to each
    (``x_cells``: off the edge, ``c_cells``: on it) and the edge runs from each corner."""

    def __init__(self, topology: Topology) -> None:
        links = [sum(row[p] != NO_LINK for row in topology.links) for p in range(topology.size)]
        fewest, most = min(links), max(links)
        edge = {p for p in range(topology.size) if links[p] < most}
        self.corners: tuple[int, ...] = tuple(p for p in range(topology.size) if links[p] == fewest)
        self.mask = sum(1 << c for c in self.corners)
        self.edge_mask = sum(1 << p for p in edge)
        x_cells, c_cells, runs = [], [], []
        for corner in self.corners:
            near = [row[corner] for row in topology.links if row[corner] != NO_LINK]
            x_cells.append(sum(1 << q for q in near if q not in edge))
            c_cells.append(sum(1 << q for q in near if q in edge))
            runs.append(tuple(ray for d in range(len(topology.directions))
                              if (ray := topology.ray(corner, d)) and all(q in edge for q in ray)))
        #: Per corner (in ``corners`` order): bit sets of its X- and C-cells; its edge runs.
        self.x_cells: tuple[int, ...] = tuple(x_cells)
        self.c_cells: tuple[int, ...] = tuple(c_cells)
        self.runs: tuple[tuple[tuple[int, ...], ...], ...] = tuple(runs)

    def stable_edge_discs(self, cells: Sequence[int], code: int) -> int:
        """Discs ``code`` on the edge that can never flip: corners and unbroken runs of the
        same colour from them along the edge (a disc counted once)."""
        found = 0
        for corner, runs in zip(self.corners, self.runs):
            if cells[corner] != code:
                continue
            found |= 1 << corner
            for run in runs:
                for pos in run:
                    if cells[pos] != code:
                        break
                    found |= 1 << pos
        return found.bit_count()


class Othello(Game):
    """Othello on a ``size`` x ``size`` board (even, 4 to 10)."""

    family = "reversi"
    player_names = ("black", "white")

    def __init__(self, size: int = 8) -> None:
        if not isinstance(size, int) or size % 2 or not 4 <= size <= 10:
            raise GameDefinitionError(f"othello: board size must be even and 4 to 10, not {size!r}")
        self.id = "othello" if size == 8 else f"othello{size}"
        self.name = "Othello" if size == 8 else f"Othello {size}x{size}"
        self.rules = ("Place a disc so that it flanks at least one straight line of enemy discs "
                      "ending on one of yours; the flanked discs turn over. A player who cannot "
                      "place passes. When neither can place, more discs wins.")
        self.size = size
        topology = square_board(size, size)
        pieces = PieceSet([PieceKind("disc", "x", letters=("X", "O"))])
        self.discs = (pieces.code("disc", 0), pieces.code("disc", 1))
        self.side_letters = tuple(pieces.letter_of[c].lower() for c in self.discs)
        # -- start: the centre four; Black on the upper-left and lower-right cells (d5, e4 on 8x8)
        half = size // 2
        cells = [0] * topology.size
        for col, row, player in ((half - 1, half, 0), (half, half - 1, 0),
                                 (half - 1, half - 1, 1), (half, half, 1)):
            cells[row * size + col] = self.discs[player]
        start = f"{format_ranks(topology, cells, pieces.letter_of)} {self.side_letters[0]}"
        super().__init__(topology, pieces, {"start": start})
        # -- rules
        self.flips = LineFlips(topology, self.discs)
        self.upper_names = {name.upper(): name for name in topology.names}
        # -- knowledge for bots
        self.weights = OthelloWeights()
        self.corners = Corners(topology)
        self.neighbours = Vicinity(topology, 1)
        self.full = (1 << topology.size) - 1
        #: Per cell: the corner whose X- or C-cell it is (-1 if none) and its ordering value
        #: while that corner is empty / once it is taken.
        guard = [-1] * topology.size
        empty_corner_value = [0] * topology.size
        for corner, x_cells, c_cells in zip(self.corners.corners, self.corners.x_cells, self.corners.c_cells):
            for pos in range(topology.size):
                if x_cells >> pos & 1:
                    guard[pos], empty_corner_value[pos] = corner, self.weights.order_x
                elif c_cells >> pos & 1:
                    guard[pos], empty_corner_value[pos] = corner, self.weights.order_c
        self.guard: tuple[int, ...] = tuple(guard)
        self.guard_value: tuple[int, ...] = tuple(empty_corner_value)
        self.cell_value: tuple[int, ...] = tuple(
            self.weights.order_corner if self.corners.mask >> pos & 1
            else self.weights.order_edge if self.corners.edge_mask >> pos & 1 else 0
            for pos in range(topology.size))

    # -- play ----------------------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        """Every flanking placement; ``[pass]`` when there is none but the opponent can
        place; ``[]`` when neither can (the game is over)."""
        moves = self.flips.moves(state.cells, state.to_move)
        if not moves and not self.flips.can_place(state.cells, 1 - state.to_move):
            return []
        return forced_pass(moves, state.counters[0])

    def near_moves(self, state: State) -> list[tuple[Move, str]]:
        """Each empty cell that flanks nothing, and the pass while a disc can be placed."""
        legal = self.legal_moves(state)
        if not legal:
            return []
        placeable = {m.to for m in legal if m}
        disc = self.discs[state.to_move]
        near = [(Move(((DROP, pos, pos, disc, 0),)),
                 "a disc must outflank at least one of the opponent's discs (a line of them ending at one of yours)")
                for pos, cell in enumerate(state.cells) if not cell and pos not in placeable]
        if placeable:
            near.append((PASS, "you may pass only when you cannot place a disc"))
        return near

    def after_move(self, state: State, move: Move, cells: list[int]) -> Next:
        """The other player moves; passes in a row are counted."""
        return Next(1 - state.to_move, state.flags, (passes_after(move, state.counters[0]),),
                    state.hands, True)

    def outcome(self, state: State) -> Outcome | None:
        """Over when neither side can place: more discs wins."""
        cells = state.cells
        if 0 in cells and (self.flips.can_place(cells, state.to_move)
                           or self.flips.can_place(cells, 1 - state.to_move)):
            return None
        black, white = cells.count(self.discs[0]), cells.count(self.discs[1])
        if black == white:
            return Outcome.draw(f"equal discs: {black}-{white}")
        return Outcome.win(0 if black > white else 1, f"more discs: {black}-{white}")

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        """:meth:`outcome`, skipped when ``moves`` (the legal moves) include a placement."""
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        if moves and moves[0]:
            return None
        return self.outcome(state)

    # -- knowledge for bots ------------------------------------------------------------------

    quiescence = False  # flips swing the material every move: nothing quiet to stop at

    def evaluate(self, state: State) -> float:
        """Mobility, corners, X- and C-squares of empty corners, frontier, stable edge discs
        and (as the board fills) discs; the mover's minus the opponent's (see ``weights``)."""
        w = self.weights
        cells, me = state.cells, state.to_move
        tables = self.flips.bit_tables
        mine, theirs = cell_bits(cells, tables[me]), cell_bits(cells, tables[1 - me])
        occupied = mine | theirs
        empty = self.full & ~occupied
        if self.flips.shifts is not None:
            mobility = (self.flips.placement_bits(mine, theirs).bit_count()
                        - self.flips.placement_bits(theirs, mine).bit_count())
        else:
            mobility = (self.flips.placement_cells(cells, me).bit_count()
                        - self.flips.placement_cells(cells, 1 - me).bit_count())
        score = w.mobility * mobility
        corners = self.corners
        score += w.corner * ((mine & corners.mask).bit_count() - (theirs & corners.mask).bit_count())
        for corner, x_cells, c_cells in zip(corners.corners, corners.x_cells, corners.c_cells):
            if not cells[corner]:
                score -= w.x_square * ((mine & x_cells).bit_count() - (theirs & x_cells).bit_count())
                score -= w.c_square * ((mine & c_cells).bit_count() - (theirs & c_cells).bit_count())
        border = self.neighbours.near(empty)
        score -= w.frontier * ((mine & border).bit_count() - (theirs & border).bit_count())
        score += w.stable * (corners.stable_edge_discs(cells, self.discs[me])
                             - corners.stable_edge_discs(cells, self.discs[1 - me]))
        filled = occupied.bit_count() / len(cells)
        if filled > w.discs_from:
            weight = w.discs * (filled - w.discs_from) / (1 - w.discs_from)
            score += round(weight * (mine.bit_count() - theirs.bit_count()))
        return score

    def move_heuristic(self, state: State, move: Move) -> float:
        """Corners first, then other edge cells; cells next to an empty corner last (its
        X-square after its C-squares).  (Ordering by the replies left to the opponent saved
        5-13% of the nodes at depths 4-5 but cost 50-110% more time.)"""
        if not move:
            return 0
        pos = move[0][2]
        guard = self.guard[pos]
        if guard >= 0 and not state.cells[guard]:
            return self.guard_value[pos]
        return self.cell_value[pos]

    # -- notation --------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        """Read ``<rank string> <side to move> [<passes in a row>]``; refuses boards no game
        reaches (see :meth:`check_reachable`)."""
        fields = text.split()
        if len(fields) not in (2, 3):
            raise PositionError(f"{self.id}: expected '<rows> <side to move> [passes]' like "
                                f"{self.setups['start']!r}, got {shortened(text)}")
        cells = parse_ranks(self.topology, fields[0], self.pieces.code_of_letter)
        if fields[1] not in self.side_letters:
            raise PositionError(f"{self.id}: side to move must be one of {'/'.join(self.side_letters)}, "
                                f"got {shortened(fields[1])}")
        to_move = self.side_letters.index(fields[1])
        passes = 0
        if len(fields) == 3:
            passes = read_int(fields[2], f"{self.id}: passes in a row", high=1, error=PositionError)
        self.check_reachable(cells, to_move, passes)
        return self.make_state(cells, to_move, (), (passes,))

    def check_reachable(self, cells: Sequence[int], to_move: int, passes: int) -> None:
        """Raise ``PositionError`` when the position says the player not to move has just
        passed but that player could place a disc.  (Boards themselves are not checked:
        study positions with empty centre cells or lone discs are accepted.)"""
        if passes and self.flips.can_place(cells, 1 - to_move):
            raise PositionError(f"{self.id}: {self.player_names[1 - to_move]} passed but has a move here")

    def format_position(self, state: State) -> str:
        """``<rank string> <side to move>``, plus the passes in a row when there are any."""
        text = f"{format_ranks(self.topology, state.cells, self.pieces.letter_of)} {self.side_letters[state.to_move]}"
        return f"{text} {state.counters[0]}" if state.counters[0] else text

    def format_move(self, state: State, move: Move) -> str:
        """The cell of the new disc (``d3``), or ``pass``."""
        return self.topology.names[move[0][2]] if move else "pass"

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """Upper-case cell names (``D3``) as in many game records."""
        return (self.topology.names[move[0][2]].upper(),) if move else ()

    def check_move_syntax(self, text: str) -> None:
        """A cell of the board or ``pass``."""
        if text == "pass" or text in self.topology.index or text in self.upper_names:
            return
        if CELL_NAME.fullmatch(text):
            raise InvalidMoveError(f"{self.id}: there is no cell {text!r} on the {self.size}x{self.size} board")
        raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move; expected a cell like 'd3' or 'pass'")


def othello(size: int = 8) -> Othello:
    """Othello on a ``size`` x ``size`` board (even, 4 to 10; 8 is the standard game)."""
    return Othello(size)
