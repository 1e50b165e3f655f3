"""Placement: stones put on empty cells, gravity drops, n-in-a-row goals, line flips, passing.

Each mechanic is compiled once against a topology and the piece codes it places:

* :class:`FreePlacement`  a stone may go on any empty cell (tic-tac-toe, gomoku);
* :class:`GravityDrops`   a stone falls to the lowest empty cell of a column (Connect Four);
* :class:`LineGoal`       a player who completes ``length`` stones in a line wins, checked
  around the last stone only (``overlines`` says whether longer lines count too);
* :class:`LineFlips`      a disc must flank enemy lines, which turn to its colour (Reversi);
* :func:`forced_pass` and :func:`passes_after`  a player without a move passes, and the game
  stops after a number of passes in a row.

Moves are built from actions precomputed at construction (one DROP per cell and piece, one
SET per cell and piece), so generation allocates only the move tuples it returns.
"""

from __future__ import annotations

from collections.abc import Sequence

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.movement import opposite_directions
from myriad.core.move import DROP, PASS, SET, Action, Move
from myriad.core.topology import NO_LINK, Topology


def drop_table(size: int, codes: Sequence[int]) -> dict[int, tuple[Move, ...]]:
    """For each piece code, the one-action move placing it on each cell: ``table[code][pos]``."""
    return {code: tuple(Move((Action(DROP, pos, pos, code),)) for pos in range(size)) for code in codes}


class FreePlacement:
    """Place a stone of your own on any empty cell."""

    def __init__(self, topology: Topology, codes: Sequence[int]) -> None:
        self.drops = drop_table(topology.size, codes)

    def moves(self, cells: Sequence[int], code: int) -> list[Move]:
        """A drop of ``code`` on every empty cell, in position order."""
        row = self.drops[code]
        return [row[pos] for pos, value in enumerate(cells) if not value]


class GravityDrops:
    """Stones fall: a stone played in a column lands on its lowest empty cell.

    Columns are the chains of cells linked by direction ``down``; a column's bottom is the
    cell with no link downwards.  There is one move per column that is not full.
    """

    def __init__(self, topology: Topology, codes: Sequence[int], down: str = "s") -> None:
        below = topology.links[topology.direction(down)]
        up_dir = opposite_directions(topology)[topology.direction(down)]
        if up_dir == NO_LINK:
            raise GameDefinitionError(f"gravity: direction {down!r} has no opposite")
        above = topology.links[up_dir]
        columns = []
        for bottom in range(topology.size):
            if below[bottom] != NO_LINK:
                continue
            column, pos = [], bottom
            while pos != NO_LINK:
                column.append(pos)
                pos = above[pos]
            columns.append(tuple(column))
        #: Each column's cells, bottom first; columns ordered by their bottom cell.
        self.columns: tuple[tuple[int, ...], ...] = tuple(columns)
        #: The index of the column each cell belongs to.
        self.column_of: tuple[int, ...] = tuple(
            c for _, c in sorted((pos, c) for c, column in enumerate(columns) for pos in column))
        self.below = below
        self.drops = drop_table(topology.size, codes)

    def landing(self, cells: Sequence[int], column: int) -> int:
        """The cell a stone played in ``column`` lands on, or -1 when the column is full."""
        for pos in self.columns[column]:
            if not cells[pos]:
                return pos
        return NO_LINK

    def moves(self, cells: Sequence[int], code: int) -> list[Move]:
        """One drop of ``code`` per column that is not full, in column order."""
        row = self.drops[code]
        out = []
        for column in self.columns:
            for pos in column:
                if not cells[pos]:
                    out.append(row[pos])
                    break
        return out

    def unsupported(self, cells: Sequence[int]) -> list[int]:
        """Stones standing above an empty cell (impossible under gravity)."""
        below = self.below
        return [pos for pos, value in enumerate(cells)
                if value and below[pos] != NO_LINK and not cells[below[pos]]]


def line_axes(topology: Topology, directions: Sequence[str] | None = None) -> tuple[tuple[int, int], ...]:
    """The lines of a board as pairs (direction, opposite direction), each line once.

    ``directions`` limits the lines (default: every direction of the topology).  A
    direction without an opposite forms a line walked one way only (opposite -1).
    """
    wanted = [topology.direction(d) for d in directions] if directions else range(len(topology.directions))
    opposite = opposite_directions(topology)
    axes: list[tuple[int, int]] = []
    seen: set[int] = set()
    for d in wanted:
        if d in seen:
            continue
        back = opposite[d]
        seen.update((d, back))
        axes.append((d, back))
    return tuple(axes)


class LineGoal:
    """``length`` stones of one owner in a row along a line of the board.

    With ``overlines`` a longer row counts too (free-style gomoku); without it only a row of
    exactly ``length`` does.  :meth:`completed_at` looks only at the lines through the last
    placed stone, walking precomputed rays that stop after ``length`` cells.
    """

    def __init__(self, topology: Topology, length: int, overlines: bool = True,
                 directions: Sequence[str] | None = None) -> None:
        if length < 1:
            raise GameDefinitionError(f"a row needs at least one stone, not {length}")
        self.length = length
        self.overlines = overlines
        reach = length - 1 if overlines else length
        axes = line_axes(topology, directions)
        links = topology.links
        #: ``rays[pos]``: per line through ``pos``, the cells walked each way from it.
        self.rays: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
            tuple((self._ray(links, pos, d, reach), self._ray(links, pos, back, reach)) for d, back in axes)
            for pos in range(topology.size))

    @staticmethod
    def _ray(links: Sequence[Sequence[int]], pos: int, direction: int, reach: int) -> tuple[int, ...]:
        out: list[int] = []
        if direction == NO_LINK:
            return ()
        row = links[direction]
        while len(out) < reach:
            pos = row[pos]
            if pos == NO_LINK:
                break
            out.append(pos)
        return tuple(out)

    def completed_at(self, cells: Sequence[int], pos: int) -> bool:
        """True when the stone on ``pos`` lies in a winning row of stones equal to it."""
        code = cells[pos]
        length = self.length
        for forward, backward in self.rays[pos]:
            run = 1
            for p in forward:
                if cells[p] != code:
                    break
                run += 1
            for p in backward:
                if cells[p] != code:
                    break
                run += 1
            if run == length or (run > length and self.overlines):
                return True
        return False

    def completed(self, cells: Sequence[int]) -> set[int]:
        """The codes that have a winning row anywhere on the board (a full scan)."""
        return {cells[pos] for pos in range(len(cells)) if cells[pos] and self.completed_at(cells, pos)}


class LineFlips:
    """Reversi placement: a disc goes on an empty cell from which, in at least one
    direction, a line of enemy discs runs up to a disc of the mover's; every such line
    turns to the mover's colour.

    ``codes[player]`` is the disc code of each player.  A move is the DROP of the new disc
    followed by one SET per flipped disc, nearest first, direction by direction.
    """

    def __init__(self, topology: Topology, codes: Sequence[int], directions: Sequence[str] | None = None) -> None:
        if len(codes) != 2:
            raise GameDefinitionError("line flips need exactly two players")
        self.codes = tuple(codes)
        dirs = [topology.direction(d) for d in directions] if directions else range(len(topology.directions))
        size = topology.size
        rays = []
        for pos in range(size):
            mine = []
            for d in dirs:
                ray = topology.ray(pos, d)
                if len(ray) >= 2:  # room for an enemy line and the flanking disc
                    mine.append(ray)
            rays.append(tuple(mine))
        #: ``rays[pos]``: the rays leaving ``pos`` that are long enough to flank something.
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        drops = drop_table(size, codes)
        #: Per player: the drop action on each cell, and ``flips[pos]`` = per ray the SET
        #: actions turning each of its cells to that player's colour.
        self.drop_actions = tuple(tuple(m[0] for m in drops[code]) for code in codes)
        self.flip_actions = tuple(
            tuple(tuple(tuple(Action(SET, p, p, code) for p in ray) for ray in rays[pos]) for pos in range(size))
            for code in codes)

    def moves(self, cells: Sequence[int], player: int) -> list[Move]:
        """Every placement of ``player`` with the discs it flips, in position order."""
        own = self.codes[player]
        enemy = self.codes[1 - player]
        all_rays = self.rays
        flip_actions = self.flip_actions[player]
        drops = self.drop_actions[player]
        out = []
        for pos, value in enumerate(cells):
            if value:
                continue
            actions = None
            rays = all_rays[pos]
            for r in range(len(rays)):
                ray = rays[r]
                if cells[ray[0]] != enemy:
                    continue
                for i in range(1, len(ray)):
                    v = cells[ray[i]]
                    if v == own:
                        if actions is None:
                            actions = [drops[pos]]
                        actions += flip_actions[pos][r][:i]
                        break
                    if v != enemy:
                        break
            if actions is not None:
                out.append(Move(actions))
        return out

    def can_place(self, cells: Sequence[int], player: int) -> bool:
        """True when ``player`` has at least one placement."""
        own = self.codes[player]
        enemy = self.codes[1 - player]
        all_rays = self.rays
        for pos, value in enumerate(cells):
            if value:
                continue
            for ray in all_rays[pos]:
                if cells[ray[0]] != enemy:
                    continue
                for i in range(1, len(ray)):
                    v = cells[ray[i]]
                    if v == own:
                        return True
                    if v != enemy:
                        break
        return False


def forced_pass(moves: list[Move], passes_in_row: int, limit: int = 1) -> list[Move]:
    """Passing when stuck: ``moves`` if there are any; else a pass, unless ``limit``
    passes in a row were already made, in which case nothing (the game is over)."""
    if moves:
        return moves
    return [PASS] if passes_in_row < limit else []


def passes_after(move: Move, passes_in_row: int) -> int:
    """The number of passes in a row once ``move`` is made (0 after any other move)."""
    return 0 if move else passes_in_row + 1
