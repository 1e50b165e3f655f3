"""Hex (Piet Hein 1942, John Nash 1948) on a rhombus of hexagons, 11x11 or any size.

Equipment: a ``size`` x ``size`` rhombus of hexagons (:func:`hex_board`); black and white
stones.  Black owns the top and bottom sides, White the left and right ones (the
convention of HexGUI and of the Hex programs' HTP: Black joins rows 1 and ``size``, White
columns a and the last; the four corner cells belong to two sides each).
Play: Black first; a stone goes on any empty cell.  Swap (pie) rule, on by default: as its
first move White may instead take over Black's first stone, ``swap``; that stone is then
mirrored across the diagonal from a1 into White's colour (column and row exchanged: Black's
``e2`` becomes White's ``b5``; ``c3`` stays where it is), as HexGUI, Little Golem and the
Hex programs do, and Black moves again: the sides keep their edges.
End: a player whose stones form a chain joining its two sides wins (:class:`ConnectionGoal`).
A full board always holds exactly one such chain, so a game never ends in a draw.

Notation.  Cells are ``<column letter><row number>``, ``a1`` in the top-left corner
(``A1`` is read too); the swap is ``swap`` (``swap-pieces``, HTP's word, is read too).
Positions are the rows from the top, as a rank string (``B`` Black, ``W`` White, digits
for empty runs), then the side to move, ``b`` or ``w``: ``11/11/11/11/11/5B5/11/11/11/11/11 w``.

Knowledge for bots: every player's potential (:class:`Distances`: the least number of
empty cells its connection still needs, counted as two-distance, where an empty cell
costs one only when the opponent cannot block its one way in, and where bridges and edge
templates join at no cost) and the cells on its shortest ways; candidate moves are the
cells of either player's shortest ways; move ordering puts first the saving of
a bridge or edge template the opponent has broken into, then the cells of both players'
shortest ways, the centre breaking ties.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from myriad.core.errors import GameDefinitionError, InvalidMoveError, PositionError
from myriad.core.game import Game, Outcome
from myriad.core.mechanics.connection import ConnectionGoal, Distances, bits_of
from myriad.core.mechanics.placement import FreePlacement, bit_table, cell_bits
from myriad.core.move import CAPTURE, DROP, Action, Move
from myriad.core.numbers import shortened
from myriad.core.pieces import PieceKind, PieceSet
from myriad.core.ranks import format_ranks, parse_ranks
from myriad.core.state import State
from myriad.core.topology import edge_cells, file_letter, hex_board

CELL_NAME = re.compile(r"[a-zA-Z]+[0-9]+")
SWAP = "swap"
#: The largest board (26 columns have one letter each).
MAX_SIZE = 26

#: The six bridges of a cell: (column step, row step) of the far stone, and the two cells
#: between them, each as a (column step, row step).
BRIDGES: tuple[tuple[tuple[int, int], tuple[int, int], tuple[int, int]], ...] = (
    ((1, 1), (1, 0), (0, 1)),      # right and down
    ((-1, -1), (-1, 0), (0, -1)),  # left and up
    ((2, -1), (1, 0), (1, -1)),    # right and up
    ((-2, 1), (-1, 0), (-1, 1)),   # left and down
    ((1, -2), (0, -1), (1, -1)),   # straight up
    ((-1, 2), (0, 1), (-1, 1)),    # straight down
)


class Hex(Game):
    """Hex on a ``size`` x ``size`` rhombus, with the swap rule unless ``swap=False``."""

    family = "connection"
    player_names = ("black", "white")
    #: Who owns the top, right, bottom and left sides (for drawing the board).
    side_owners = (0, 1, 0, 1)

    def __init__(self, size: int = 11, swap: bool = True) -> None:
        if not isinstance(size, int) or not 2 <= size <= MAX_SIZE:
            raise GameDefinitionError(f"hex: board size must be 2 to {MAX_SIZE}, not {size!r}")
        self.size = size
        self.swap = swap
        self.id = "hex" if size == 11 else f"hex{size}"
        self.name = "Hex" if size == 11 else f"Hex {size}x{size}"
        if not swap:
            self.id += "_noswap"
            self.name += " (no swap)"
        self.rules = (
            f"A {size}x{size} rhombus of hexagons. Black joins the top and bottom sides, White the "
            "left and right ones. Players take turns putting a stone of their colour on any empty "
            "cell, Black first. "
            + ("Swap rule: as White's first move White may swap instead, taking over Black's stone "
               "(mirrored across the diagonal into White's colour); then Black moves. " if swap else "")
            + "The first to join their two sides with a chain of touching stones wins; "
              "there are no draws.")
        topology = hex_board(size)
        pieces = PieceSet([PieceKind("stone", "s", letters=("B", "W"))])
        self.stones = (pieces.code("stone", 0), pieces.code("stone", 1))
        self.side_letters = ("b", "w")
        super().__init__(topology, pieces, {"start": f"{'/'.join([str(size)] * size)} b"})
        # -- rules
        self.placement = FreePlacement(topology, self.stones)
        #: Per player, its two sides: Black's top and bottom, White's left and right.
        self.sides: tuple[tuple[frozenset[int], frozenset[int]], ...] = (
            (edge_cells(topology, "nw"), edge_cells(topology, "se")),
            (edge_cells(topology, "w"), edge_cells(topology, "e")))
        self.goal = ConnectionGoal(topology, self.sides)
        self.bit_tables = tuple(bit_table(code) for code in self.stones)
        self.full = (1 << topology.size) - 1
        self.upper_names = {name.upper(): name for name in topology.names}
        #: ``mirror[pos]``: the cell across the long diagonal from a1 (column and row exchanged).
        self.mirror: tuple[int, ...] = tuple((p % size) * size + p // size for p in range(topology.size))
        # -- knowledge for bots
        self.distances = Distances(topology)
        self.side_bits = tuple(tuple(bits_of(side) for side in sides) for sides in self.sides)
        self.saves = self._saving_cells()
        #: Per player and cell one row from one of its sides, the two cells of that side
        #: next to it (the edge template that joins a stone there to the side).
        self.edge_saves: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
            tuple(self._edge_carriers(pos, sides) for pos in range(topology.size)) for sides in self.sides)
        #: Per cell, up to 2 points for being near the centre (ties in move ordering).
        middle = (size - 1) / 2
        self.centrality: tuple[float, ...] = tuple(
            2.0 * (1 - hex_distance(p % size - middle, p // size - middle) / size) for p in range(size * size))
        self._last: tuple[int, tuple[int, ...], tuple[list[int], list[int], list[int]]] | None = None

    # -- play ----------------------------------------------------------------------------

    def own_stones(self, state: State) -> tuple[int, int]:
        """The bit sets of Black's and White's stones."""
        cells = state.cells
        return cell_bits(cells, self.bit_tables[0]), cell_bits(cells, self.bit_tables[1])

    def swap_move(self, state: State) -> Move | None:
        """The swap, when it is legal: White's first move, with the swap rule on."""
        if not self.swap or state.to_move != 1:
            return None
        black, white = self.own_stones(state)
        if white or black.bit_count() != 1:
            return None
        pos = black.bit_length() - 1
        return Move((Action(CAPTURE, pos, pos, self.stones[0]), Action(DROP, self.mirror[pos], self.mirror[pos], self.stones[1])))

    def legal_moves(self, state: State) -> list[Move]:
        """A stone on any empty cell (and ``swap`` as White's first move); none once the
        game is won."""
        if self.outcome(state) is not None:
            return []
        moves = self.placement.moves(state.cells, self.stones[state.to_move])
        swap = self.swap_move(state)
        if swap is not None:
            moves.append(swap)
        return moves

    def outcome(self, state: State) -> Outcome | None:
        """A win for the player whose chain joins its two sides (only the player who just
        moved can have one)."""
        mover = 1 - state.to_move
        stones = cell_bits(state.cells, self.bit_tables[mover])
        if self.goal.connected(mover, stones):
            return Outcome.win(mover, f"{self.player_names[mover]} joins its sides")
        return None

    def result(self, state: State, moves: list[Move] | None = None) -> Outcome | None:
        """:meth:`outcome`: the game goes on exactly when there are moves."""
        if moves is None:  # (not given: the outcome works them out)
            return self.outcome(state)
        return None if moves else self.outcome(state)

    def entered_by_button(self, move: Move) -> bool:
        """Whether ``move`` is made with a button, not on the board: the swap."""
        return len(move) == 2

    # -- knowledge for bots ------------------------------------------------------------------

    quiescence = False  # no captures: nothing noisy to search on
    #: the most moves searched at a node, the best by the move heuristics (a full board of
    #: 121 cells leaves a pure-Python search two plies at most).
    move_cap = 8
    #: candidate moves: the cells of the shortest ways (0) or within one of them (1).
    candidate_slack = 0

    def evaluate_for(self, state: State, player: int) -> float:
        """:meth:`evaluate` from ``player``'s side; the last position's knowledge is kept,
        as MCTS asks for both players' scores of one position."""
        score = self.evaluate(state)
        return score if player == state.to_move else -score

    def _saving_cells(self) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        """Per cell, its bridges as (partner, carrier, other carrier): the partner the cell
        two steps away, the carriers the two cells next to both that keep them joined."""
        size = self.size
        out: list[tuple[tuple[int, int, int], ...]] = []
        for pos in range(size * size):
            c, r = pos % size, pos // size
            found: list[tuple[int, int, int]] = []
            for (dc, dr), (ac, ar), (bc, br) in BRIDGES:
                (x1, y1), (x2, y2), (x3, y3) = (c + dc, r + dr), (c + ac, r + ar), (c + bc, r + br)
                if all(0 <= v < size for v in (x1, y1, x2, y2, x3, y3)):
                    found.append((y1 * size + x1, y2 * size + x2, y3 * size + x3))
            out.append(tuple(found))
        return tuple(out)

    def _edge_carriers(self, pos: int, sides: Sequence[frozenset[int]]) -> tuple[tuple[int, int], ...]:
        """For a cell one row from a side: the two cells of that side next to it."""
        out = []
        for side in sides:
            near = sorted(q for row in self.topology.links if (q := row[pos]) != -1 and q in side)
            if pos not in side and len(near) == 2:
                out.append((near[0], near[1]))
        return tuple(out)

    def knowledge(self, state: State) -> tuple[list[int], list[int], list[int]]:
        """:meth:`compute_knowledge`, kept for the last position asked about."""
        last = self._last
        if last is not None and last[0] == state.key and last[1] == state.cells:
            return last[2]
        found = self.compute_knowledge(state)
        self._last = (state.key, state.cells, found)
        return found

    def compute_knowledge(self, state: State) -> tuple[list[int], list[int], list[int]]:
        """Per player, its potential (the least two-distance from one side plus that from
        the other over the empty cells, ``size * size`` when it cannot join them), the bit
        set of the empty cells with that potential (its shortest ways) and of those within
        one of it."""
        black, white = self.own_stones(state)
        empty = self.full & ~(black | white)
        distance: list[int] = []
        cells: list[int] = []
        around: list[int] = []
        for player, own in enumerate((black, white)):
            first, second = self.side_bits[player]
            # the shortest ways need no layer beyond the first that reaches the far side
            forward = self.distances.layers(first, own, empty, until=second, bridges=True)
            backward = self.distances.layers(second, own, empty, most=len(forward) + 1, bridges=True)
            total, best, near = Distances.best_cells(forward, backward, empty, slack=1)
            distance.append(total if best else self.size * self.size)
            cells.append(best)
            around.append(near)
        return distance, cells, around

    def evaluate(self, state: State) -> float:
        """The opponent's two-distance less the mover's (100 a cell), plus the number of
        cells on the mover's shortest ways less the opponent's (2 a cell)."""
        distance, cells, _ = self.knowledge(state)
        me, other = state.to_move, 1 - state.to_move
        return (100 * (distance[other] - distance[me])
                + 2 * (cells[me].bit_count() - cells[other].bit_count()))

    def move_heuristics(self, state: State, moves: Sequence[Move]) -> list[float]:
        """Saving a bridge or edge template the opponent has just broken into first, then the cells on
        both players' shortest ways (the mover's own ways first), then those within one
        of them, the centre breaking ties."""
        _, cells, around = self.knowledge(state)
        me = state.to_move
        cell_list = state.cells
        mine, theirs = self.stones[me], self.stones[1 - me]
        saving = 0
        for pos, value in enumerate(cell_list):
            if value != mine:
                continue
            for partner, a, b in self.saves[pos]:
                if cell_list[partner] == mine:
                    if cell_list[a] == theirs and not cell_list[b]:
                        saving |= 1 << b
                    elif cell_list[b] == theirs and not cell_list[a]:
                        saving |= 1 << a
            for a, b in self.edge_saves[me][pos]:
                if cell_list[a] == theirs and not cell_list[b]:
                    saving |= 1 << b
                elif cell_list[b] == theirs and not cell_list[a]:
                    saving |= 1 << a
        own, other = cells[me], cells[1 - me]
        own_near, other_near = around[me], around[1 - me]
        central = self.centrality
        out = []
        for move in moves:
            if len(move) != 1:
                out.append(0.0)
                continue
            pos = move[0][2]
            out.append(40.0 * (saving >> pos & 1) + 20.0 * (own >> pos & 1) + 15.0 * (other >> pos & 1)
                       + 6.0 * (own_near >> pos & 1) + 5.0 * (other_near >> pos & 1) + central[pos])
        return out

    def candidate_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """The cells of either player's shortest ways (within one of them when
        ``candidate_slack`` is 1) and the swap; all the moves when that leaves fewer than
        four.  (Fewer candidates let alpha-beta see three plies on 11x11 in 0.5 s.)"""
        _, cells, around = self.knowledge(state)
        near = (around[0] | around[1]) if self.candidate_slack else (cells[0] | cells[1])
        kept = [m for m in moves if len(m) != 1 or near >> m[0][2] & 1]
        return kept if len(kept) >= 4 else moves

    def move_heuristic(self, state: State, move: Move) -> float:
        """:meth:`move_heuristics` of one move."""
        return self.move_heuristics(state, [move])[0]

    # -- notation --------------------------------------------------------------------------

    def parse_position(self, text: str) -> State:
        """Read ``<rows from the top> <b|w>``; refuses stone counts no game reaches and a
        player to move who has already won."""
        fields = text.split()
        if len(fields) != 2:
            raise PositionError(f"{self.id}: expected '<rows> <side to move>' like "
                                f"{self.setups['start']!r}, got {shortened(text)}")
        cells = parse_ranks(self.topology, fields[0], self.pieces.code_of_letter)
        if fields[1] not in self.side_letters:
            raise PositionError(f"{self.id}: side to move must be b or w, got {shortened(fields[1])}")
        to_move = self.side_letters.index(fields[1])
        black, white = cells.count(self.stones[0]), cells.count(self.stones[1])
        lead = black - white
        allowed = {0: (0, -1), 1: (1, 0)}[to_move] if self.swap else {0: (0,), 1: (1,)}[to_move]
        if lead not in allowed:
            raise PositionError(
                f"{self.id}: {black} black and {white} white stones with {self.player_names[to_move]} to move: "
                "no game reaches that (Black moves first" + (", a swap gives White the first stone)" if self.swap else ")"))
        state = self.make_state(cells, to_move)
        stones = self.own_stones(state)
        if self.goal.connected(to_move, stones[to_move]):
            raise PositionError(f"{self.id}: {self.player_names[to_move]} to move has already joined its sides")
        return state

    def format_position(self, state: State) -> str:
        """``<rows from the top> <b|w>``."""
        return f"{format_ranks(self.topology, state.cells, self.pieces.letter_of)} {self.side_letters[state.to_move]}"

    def format_move(self, state: State, move: Move) -> str:
        """The cell of the new stone (``f6``), or ``swap``."""
        return SWAP if len(move) != 1 else self.topology.names[move[0][2]]

    def move_aliases(self, state: State, move: Move) -> Sequence[str]:
        """Upper-case cell names (``F6``); ``swap-pieces`` for the swap."""
        return ("swap-pieces",) if len(move) != 1 else (self.topology.names[move[0][2]].upper(),)

    def check_move_syntax(self, text: str) -> None:
        """A cell of the board or ``swap``."""
        if text in (SWAP, "swap-pieces") or text in self.topology.index or text in self.upper_names:
            return
        if CELL_NAME.fullmatch(text):
            raise InvalidMoveError(f"{self.id}: there is no cell {text!r} on the {self.size}x{self.size} board")
        raise InvalidMoveError(f"{self.id}: {shortened(text)} is not a move; expected a cell like 'f6' or 'swap'")

    def render(self, state: State) -> str:
        """The rhombus as text: each row one place further right, row 1 on top, column
        letters above, with Black's sides marked by ``-`` rows and White's by ``|``."""
        size = self.size
        letters = " ".join(file_letter(c) for c in range(size))
        lines = ["    " + letters, "    " + "-" * (2 * size - 1)]
        for r in range(size):
            row = " ".join(self.cell_text(state.cells[r * size + c]) for c in range(size))
            lines.append(f"{' ' * r}{r + 1:>2} |{row}| {r + 1}")
        lines.append(" " * (size + 3) + "-" * (2 * size - 1))
        lines.append(" " * (size + 3) + letters)
        return "\n".join(lines)


def hex_distance(dc: float, dr: float) -> float:
    """Steps between two cells of a hex board ``dc`` columns and ``dr`` rows apart."""
    return max(abs(dc), abs(dr), abs(dc + dr))


def hex_game(size: int = 11, swap: bool = True) -> Hex:
    """Hex on a ``size`` x ``size`` board (11 the standard, 2 to 26), with the swap rule
    unless ``swap=False``."""
    return Hex(size, swap)

