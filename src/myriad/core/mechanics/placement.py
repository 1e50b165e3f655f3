"""Placement: stones put on empty cells, gravity drops, n-in-a-row goals, line flips, passing.

Each mechanic is compiled once against a topology and the piece codes it places:

* :class:`FreePlacement`  a stone may go on any empty cell (tic-tac-toe, gomoku);
* :class:`GravityDrops`   a stone falls to the lowest empty cell of a column (Connect Four);
* :class:`LineGoal`       a player who completes ``length`` stones in a line wins, checked
  around the last stone only (``overlines`` says whether longer lines count too);
* :class:`LineFlips`      a disc must flank enemy lines, which turn to its colour (Reversi);
* :func:`forced_pass` and :func:`passes_after`  a player without a move passes, and the game
  stops after a number of passes in a row;
* :class:`Vicinity`       the cells near the stones already placed (move pruning for bots
  on large boards).

Moves are built from actions precomputed at construction (one DROP per cell and piece, one
SET per cell and piece), so generation allocates only the move tuples it returns.
"""

from __future__ import annotations

from collections.abc import Sequence

from myriad.core.errors import GameDefinitionError
from myriad.core.move import DROP, PASS, SET, Action, Move
from myriad.core.topology import NO_LINK, Topology, opposite_directions


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
        reach = length - 1 if overlines else length  # one more cell to see an overline
        axes = line_axes(topology, directions)
        #: ``rays[pos]``: per line through ``pos``, the cells walked each way from it.
        self.rays: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
            tuple((topology.ray(pos, d, limit=reach), topology.ray(pos, back, limit=reach) if back != NO_LINK else ())
                  for d, back in axes)
            for pos in range(topology.size))

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
    followed by one SET per flipped disc, direction by direction, nearest first.

    When every direction is a translation of the position numbers (``links[d][p] == p +
    delta`` wherever a link exists, as on square boards), the flanking cells are found per
    direction on bit sets (bit ``p`` = position ``p``): the mover's discs are shifted across
    enemy discs until an empty cell.  Only the (cell, direction) pairs found that way are
    walked to collect the flips.  On other boards every empty cell's rays are walked.
    """

    def __init__(self, topology: Topology, codes: Sequence[int], directions: Sequence[str] | None = None) -> None:
        if len(codes) != 2:
            raise GameDefinitionError("line flips need exactly two players")
        if not all(0 < c < 256 for c in codes):
            raise GameDefinitionError(f"line flips need disc codes 1-255, got {tuple(codes)}")
        self.codes = tuple(codes)
        dirs = [topology.direction(d) for d in directions] if directions else list(range(len(topology.directions)))
        size = topology.size
        #: Per player: the DROP action of a disc on each cell.
        self.drop_actions = tuple(tuple(m[0] for m in drop_table(size, codes)[code]) for code in codes)
        #: ``lines[player][k][pos]``: the ray leaving ``pos`` in the k-th direction and the
        #: SET actions turning each of its cells to that player's colour.
        self.lines = tuple(
            tuple(tuple((ray, tuple(Action(SET, p, p, code) for p in ray))
                        for ray in (topology.ray(pos, d) for pos in range(size)))
                  for d in dirs)
            for code in codes)
        #: Per direction ``(shift, sources)`` when all directions are translations, else
        #: None: a disc on ``p`` flanks, walking that way, from ``p + shift``; ``sources``
        #: is the bit set of cells that have a neighbour the opposite way.
        self.shifts: tuple[tuple[int, int], ...] | None = self._translations(topology, dirs)
        self.full = (1 << size) - 1
        #: Per player: byte tables turning ``bytes(cells)`` into '1' for that player's discs.
        self.bit_tables = tuple(bytes(49 if v == code else 48 for v in range(256)) for code in codes)

    @staticmethod
    def _translations(topology: Topology, dirs: Sequence[int]) -> tuple[tuple[int, int], ...] | None:
        shifts = []
        for d in dirs:
            row = topology.links[d]
            deltas = {q - p for p, q in enumerate(row) if q != NO_LINK}
            if len(deltas) > 1:
                return None
            shift = -deltas.pop() if deltas else 0
            shifts.append((shift, sum(1 << q for q in row if q != NO_LINK)))
        return tuple(shifts)

    def flanking(self, cells: Sequence[int], player: int) -> list[int]:
        """Per direction, the bit set of the empty cells from which ``player`` flanks a
        line of enemy discs walking that way (needs ``shifts``)."""
        assert self.shifts is not None
        board = bytes(cells)[::-1]
        own = int(board.translate(self.bit_tables[player]), 2)
        enemy = int(board.translate(self.bit_tables[1 - player]), 2)
        empty = self.full & ~(own | enemy)
        found = []
        for shift, sources in self.shifts:
            inner = enemy & sources  # enemy discs a line may run on from
            hits = 0
            if shift > 0:
                line = ((own & sources) << shift) & inner
                while line:
                    longer = line | ((line << shift) & inner)
                    if longer == line:
                        hits = (line << shift) & empty
                        break
                    line = longer
            elif shift < 0:
                back = -shift
                line = ((own & sources) >> back) & inner
                while line:
                    longer = line | ((line >> back) & inner)
                    if longer == line:
                        hits = (line >> back) & empty
                        break
                    line = longer
            found.append(hits)
        return found

    def moves(self, cells: Sequence[int], player: int) -> list[Move]:
        """Every placement of ``player`` with the discs it flips, in position order."""
        if self.shifts is None:
            return self._walked_moves(cells, player)
        enemy = self.codes[1 - player]
        drops = self.drop_actions[player]
        lines = self.lines[player]
        actions: dict[int, list[Action]] = {}
        for k, hits in enumerate(self.flanking(cells, player)):
            while hits:
                low = hits & -hits
                hits ^= low
                pos = low.bit_length() - 1
                ray, sets = lines[k][pos]
                flanked = 1
                while cells[ray[flanked]] == enemy:
                    flanked += 1
                if pos in actions:
                    actions[pos] += sets[:flanked]
                else:
                    actions[pos] = [drops[pos], *sets[:flanked]]
        return [Move(actions[pos]) for pos in sorted(actions)]

    def _walked_moves(self, cells: Sequence[int], player: int) -> list[Move]:
        """:meth:`moves` by walking every ray of every empty cell (any topology)."""
        own = self.codes[player]
        enemy = self.codes[1 - player]
        drops = self.drop_actions[player]
        lines = self.lines[player]
        out = []
        for pos, value in enumerate(cells):
            if value:
                continue
            actions = None
            for by_pos in lines:
                ray, sets = by_pos[pos]
                flanked = 0
                for p in ray:
                    v = cells[p]
                    if v != enemy:
                        if v == own and flanked:
                            if actions is None:
                                actions = [drops[pos]]
                            actions += sets[:flanked]
                        break
                    flanked += 1
            if actions is not None:
                out.append(Move(actions))
        return out

    def placement_cells(self, cells: Sequence[int], player: int) -> int:
        """The bit set of the cells where ``player`` may place (bit ``p`` = position ``p``)."""
        if self.shifts is None:
            return sum(1 << m[0][2] for m in self._walked_moves(cells, player))
        found = 0
        for hits in self.flanking(cells, player):
            found |= hits
        return found

    def can_place(self, cells: Sequence[int], player: int) -> bool:
        """True when ``player`` has at least one placement."""
        return self.placement_cells(cells, player) != 0


class Vicinity:
    """The cells within ``radius`` steps of each cell, a step going along any link (on a
    square board with diagonals: the (2r+1) x (2r+1) square around it)."""

    def __init__(self, topology: Topology, radius: int) -> None:
        if radius < 1:
            raise GameDefinitionError(f"vicinity radius must be at least 1, not {radius}")
        around = []
        for pos in range(topology.size):
            seen, frontier = {pos}, [pos]
            for _ in range(radius):
                frontier = [q for p in frontier for row in topology.links
                            if (q := row[p]) != NO_LINK and q not in seen]
                seen.update(frontier)
            seen.discard(pos)
            around.append(tuple(sorted(seen)))
        #: ``around[pos]``: the cells within ``radius`` steps of ``pos``, itself excluded.
        self.around: tuple[tuple[int, ...], ...] = tuple(around)

    def near_stones(self, cells: Sequence[int], moves: list[Move]) -> list[Move]:
        """The placements (target ``move[0][2]``) near a stone; all moves on an empty board."""
        near: set[int] = set()
        around = self.around
        for pos, value in enumerate(cells):
            if value:
                near.update(around[pos])
        if not near:
            return moves
        return [m for m in moves if m and m[0][2] in near]


def forced_pass(moves: list[Move], passes_in_row: int, limit: int = 1) -> list[Move]:
    """Passing when stuck: ``moves`` if there are any; else a pass, unless ``limit``
    passes in a row were already made, in which case nothing (the game is over)."""
    if moves:
        return moves
    return [PASS] if passes_in_row < limit else []


def passes_after(move: Move, passes_in_row: int) -> int:
    """The number of passes in a row once ``move`` is made (0 after any other move)."""
    return 0 if move else passes_in_row + 1
