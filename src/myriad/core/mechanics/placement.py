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
  on large boards);
* :class:`LineWindows`    every run of ``length`` cells along the lines of the board, scanned
  for the windows one player can still fill (knowledge for bots in n-in-a-row games), with
  :class:`WindowWeights` turning a scan into an evaluation and a move-ordering score.

Bit sets (``int``, bit ``p`` = position ``p``) stand for sets of cells where a mechanic
works on whole boards at once: :func:`cell_bits` makes one from the cells of a state.

Moves are built from actions precomputed at construction (one DROP per cell and piece, one
SET per cell and piece), so generation allocates only the move tuples it returns.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import compress, pairwise
from typing import NamedTuple

from myriad.core.errors import GameDefinitionError
from myriad.core.move import DROP, PASS, SET, Action, Move
from myriad.core.topology import NO_LINK, Topology, opposite_directions

#: ``bytes.translate`` table: 1 for an empty cell (0), 0 for any other.
EMPTY_CELLS = bytes([1] + [0] * 255)


def drop_table(size: int, codes: Sequence[int]) -> dict[int, tuple[Move, ...]]:
    """For each piece code, the one-action move placing it on each cell: ``table[code][pos]``."""
    return {code: tuple(Move((Action(DROP, pos, pos, code),)) for pos in range(size)) for code in codes}


def bit_table(code: int) -> bytes:
    """A ``bytes.translate`` table turning a cell byte equal to ``code`` into '1', any other into '0'."""
    return bytes(49 if v == code else 48 for v in range(256))


#: The positions of the set bits of each byte value, lowest first.
BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(b for b in range(8) if value >> b & 1) for value in range(256))


def bit_positions(bits: int) -> list[int]:
    """The positions of the set bits of ``bits`` (not negative), lowest first.  Read a byte
    at a time: a step per set bit on a big integer would allocate a new one each time."""
    positions: list[int] = []
    for index, byte in enumerate(bits.to_bytes((bits.bit_length() + 7) // 8, "little")):
        if byte:
            base = 8 * index
            for b in BYTE_BITS[byte]:
                positions.append(base + b)
    return positions


def cell_bits(cells: Sequence[int], table: bytes) -> int:
    """The bit set of the cells that ``table`` (from :func:`bit_table`) marks; cells must be 0-255."""
    return int(bytes(cells)[::-1].translate(table), 2)


def translation(links: Sequence[int]) -> int | None:
    """The constant ``q - p`` of every link ``p -> q`` in one direction, or None when the
    links are not all the same shift (0 when there is no link at all)."""
    deltas = {q - p for p, q in enumerate(links) if q != NO_LINK}
    if len(deltas) > 1:
        return None
    return deltas.pop() if deltas else 0


class FreePlacement:
    """Place a stone of your own on any empty cell."""

    def __init__(self, topology: Topology, codes: Sequence[int]) -> None:
        self.drops = drop_table(topology.size, codes)
        self.full = (1 << topology.size) - 1

    def moves(self, cells: Sequence[int], code: int) -> list[Move]:
        """A drop of ``code`` on every empty cell, in position order."""
        try:
            empty = bytes(cells).translate(EMPTY_CELLS)
        except ValueError:  # cell values beyond a byte
            empty = bytes(not value for value in cells)
        return list(compress(self.drops[code], empty))

    def playable(self, occupied: int) -> int:
        """The bit set of the cells a stone may go on: every cell not in ``occupied``."""
        return self.full & ~occupied


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
        self.full = (1 << topology.size) - 1
        #: The bit set of the column bottoms; with ``up`` (the shift from a cell to the one
        #: above, when it is the same everywhere) and ``has_above`` landing cells are found
        #: on bit sets.
        self.bottoms = sum(1 << column[0] for column in columns)
        self.up = translation(above)
        self.has_above = sum(1 << pos for pos in range(topology.size) if above[pos] != NO_LINK)

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

    def playable(self, occupied: int) -> int:
        """The bit set of the landing cells: the lowest cell not in ``occupied`` of each column."""
        up = self.up
        if up is not None and up > 0:
            return (self.bottoms | ((occupied & self.has_above) << up)) & ~occupied
        if up is not None and up < 0:
            return (self.bottoms | ((occupied & self.has_above) >> -up)) & ~occupied
        found = 0
        for column in self.columns:
            for pos in column:
                if not occupied >> pos & 1:
                    found |= 1 << pos
                    break
        return found

    def lift(self, cells: int) -> int:
        """The bit set of the cells directly above the cells of ``cells``."""
        up = self.up
        if up is not None and up > 0:
            return (cells & self.has_above) << up
        if up is not None and up < 0:
            return (cells & self.has_above) >> -up
        found = 0
        for column in self.columns:
            for lower, upper in pairwise(column):
                if cells >> lower & 1:
                    found |= 1 << upper
        return found

    def above(self, cells: int) -> int:
        """The bit set of the cells anywhere above a cell of ``cells`` in its column."""
        found = 0
        cells = self.lift(cells)
        while cells:
            found |= cells
            cells = self.lift(cells)
        return found

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
        return self.completes(cells, pos, cells[pos])

    def completes(self, cells: Sequence[int], pos: int, code: int) -> bool:
        """True when a stone ``code`` on ``pos`` (whatever ``pos`` holds now) lies in a
        winning row: on an empty ``pos``, whether placing it there wins."""
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
        self.bit_tables = tuple(bit_table(code) for code in codes)

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
        board = bytes(cells)[::-1]
        own = int(board.translate(self.bit_tables[player]), 2)
        enemy = int(board.translate(self.bit_tables[1 - player]), 2)
        return self.flanking_bits(own, enemy)

    def flanking_bits(self, own: int, enemy: int) -> list[int]:
        """:meth:`flanking` from the bit sets of the mover's discs and the enemy's."""
        assert self.shifts is not None
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

    def placement_bits(self, own: int, enemy: int) -> int:
        """The bit set of the cells where the owner of the discs ``own`` may place against
        the discs ``enemy`` (bit sets; needs ``shifts``)."""
        found = 0
        for hits in self.flanking_bits(own, enemy):
            found |= hits
        return found

    def can_place(self, cells: Sequence[int], player: int) -> bool:
        """True when ``player`` has at least one placement."""
        return self.placement_cells(cells, player) != 0


class Vicinity:
    """The cells within ``radius`` steps of each cell, a step going along any link (on a
    square board with diagonals: the (2r+1) x (2r+1) square around it).

    When every direction is a translation of the position numbers, the cells near a set of
    stones are found on bit sets: the set grows by one step per round, shifted along each
    direction from the cells that have a link that way."""

    def __init__(self, topology: Topology, radius: int) -> None:
        if radius < 1:
            raise GameDefinitionError(f"vicinity radius must be at least 1, not {radius}")
        self.radius = radius
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
        #: Per direction (shift, bit set of the cells with a link that way), or None when
        #: some direction is not a translation.
        steps: list[tuple[int, int]] = []
        for row in topology.links:
            delta = translation(row)
            if delta is None:
                break
            steps.append((delta, sum(1 << p for p, q in enumerate(row) if q != NO_LINK)))
        self.steps: tuple[tuple[int, int], ...] | None = (
            tuple(steps) if len(steps) == len(topology.links) else None)

    def near(self, stones: int) -> int:
        """The bit set of the cells within ``radius`` steps of a cell of ``stones`` (a bit
        set); whether a stone itself is included is left open (callers ask about empty cells)."""
        if self.steps is None:
            found = 0
            for pos in range(stones.bit_length()):
                if stones >> pos & 1:
                    for q in self.around[pos]:
                        found |= 1 << q
            return found
        reached, found = stones, 0
        for _ in range(self.radius):
            grown = 0
            for delta, linked in self.steps:
                m = reached & linked
                grown |= m << delta if delta > 0 else m >> -delta
            found |= grown
            reached |= grown
        return found

    def near_stones(self, cells: Sequence[int], moves: list[Move], occupied: int | None = None) -> list[Move]:
        """The placements (target ``move[0][2]``) near a stone; all moves on an empty board.
        ``occupied``, the bit set of the stones, saves reading it from ``cells``."""
        if occupied is None:
            occupied = sum(1 << pos for pos, value in enumerate(cells) if value)
        if not occupied:
            return moves
        near = self.near(occupied)
        return [m for m in moves if m and near >> m[0][2] & 1]


class WindowScan(NamedTuple):
    """What :meth:`LineWindows.scan` finds, per player ``p`` (a window is *pure* for ``p``
    when it holds stones of ``p`` only, so ``p`` can still fill it):

    * ``counts[p][c]`` the pure windows of ``p`` holding exactly ``c`` stones, for ``c``
      from 1 to the window length - 1 (entries 0 and ``length`` are left 0);
    * ``threats[p]``   the bit set of the empty cells that fill a pure window of ``p`` with
      one gap (a stone there makes ``length`` in a row);
    * ``builds[p]``    the bit set of the empty cells in a pure window of ``p`` with two
      gaps (a stone there makes a threat);
    * ``forks[p]``     the fork cells among them: a stone there makes two threats at once
      (the cell lies in two such windows whose other gaps differ; in ``XX..XX`` the two
      windows share both gaps, and a stone on either makes one threat);
    * ``fork_lines[p]`` the number of line directions holding a fork cell of ``p`` made by
      windows of that direction alone (an open three in gomoku): two such lines cannot both
      be stopped with one stone;
    * ``empty``        the bit set of the empty cells.
    """

    counts: tuple[tuple[int, ...], ...]
    threats: tuple[int, ...]
    builds: tuple[int, ...]
    forks: tuple[int, ...]
    fork_lines: tuple[int, ...]
    empty: int


class WindowReach(NamedTuple):
    """Per player ``p`` and stone count ``c`` below the window length: ``once[p][c]``, the
    empty cells in at least one pure window of ``p`` holding ``c`` stones, and
    ``twice[p][c]``, those in two or more; for windows two stones short, two whose other
    gaps differ (the fork cells of :class:`WindowScan`; :meth:`LineWindows.reach`)."""

    once: tuple[tuple[int, ...], ...]
    twice: tuple[tuple[int, ...], ...]


class LineWindows:
    """Every run ("window") of ``length`` consecutive cells along each line of the board,
    each window once; for two players, who can still fill which windows.

    ``windows`` lists each window's cells; ``windows_at[pos]`` the windows through ``pos``.

    When every line direction is a translation of the position numbers (square boards), a
    scan counts all windows at once on bit sets.  Both players' stones share one integer
    (the second player's ``half`` bits higher, with a gap so that no shift carries one
    player's bits into the other's cells); per direction the stones are shifted along the
    line, the shifted copies summed in binary bit planes (bit ``p`` of the planes is the
    count of the window starting on ``p``) and masked by the cells where windows start.  On
    other boards the windows are walked one by one (:meth:`scan_walked`, also the test
    oracle of the bit-set scan).
    """

    def __init__(self, topology: Topology, length: int, directions: Sequence[str] | None = None) -> None:
        if length < 2:
            raise GameDefinitionError(f"line windows need a length of at least 2, not {length}")
        self.length = length
        size = topology.size
        self.full = (1 << size) - 1
        windows: list[tuple[int, ...]] = []
        direction_of: dict[tuple[int, ...], int] = {}
        axes: list[tuple[int, int]] | None = []
        for d, _back in line_axes(topology, directions):
            delta = translation(topology.links[d])
            starts = 0
            for pos in range(size):
                ray = topology.ray(pos, d, limit=length - 1)
                if len(ray) == length - 1:
                    window = (pos, *ray)
                    windows.append(window)
                    direction_of[window] = d
                    starts |= 1 << min(window)
            if delta is None:
                axes = None
            elif axes is not None and starts:
                axes.append((abs(delta), starts))
        self.windows: tuple[tuple[int, ...], ...] = tuple(windows)
        #: The line direction of each window.
        self.direction_of: dict[tuple[int, ...], int] = direction_of
        self.windows_at: tuple[tuple[int, ...], ...] = tuple(
            tuple(w for w, cells in enumerate(windows) if pos in cells) for pos in range(size))
        #: Per cell, the number of windows through it (central cells lie in more).
        self.centrality: tuple[int, ...] = tuple(len(ws) for ws in self.windows_at)
        #: Per window, the bit set of its cells.
        self.masks: tuple[int, ...] = tuple(sum(1 << pos for pos in window) for window in windows)
        #: Where the second player's bits start in the shared integer, and its low mask.
        self.half = size + (length - 1) * max((delta for delta, _ in axes or ()), default=0)
        self.low = (1 << self.half) - 1
        #: Per line direction, when all are translations (else None): the cell offsets of a
        #: window from its first cell, and the bit set of first cells for both players.
        self.axes: tuple[tuple[tuple[int, ...], int], ...] | None = None if axes is None else tuple(
            (tuple(range(0, length * delta, delta)), starts | starts << self.half) for delta, starts in axes)

    def gaps_at(self, pos: int, own: int, other: int, stones: int) -> Iterator[int]:
        """The empty cells (a bit set) of each pure window through ``pos`` of the owner of
        ``own`` holding ``stones`` of its stones, given the opponent's stones ``other``."""
        empty = self.full & ~(own | other)
        masks = self.masks
        for w in self.windows_at[pos]:
            mask = masks[w]
            if not mask & other and (own & mask).bit_count() == stones:
                yield mask & empty

    def threats_made(self, own: int, other: int, pos: int) -> int:
        """The threat cells (gaps of pure windows with one gap) that a stone of the owner of
        ``own`` on the empty ``pos`` creates, given the opponent's stones ``other``."""
        found = 0
        for gaps in self.gaps_at(pos, own | 1 << pos, other, self.length - 1):
            found |= gaps
        return found

    def forks_made(self, own: int, other: int, pos: int, builds: int) -> int:
        """The fork cells (where a stone makes two threats) that a stone of the owner of
        ``own`` on the empty ``pos`` creates, given the opponent's stones ``other`` and the
        owner's ``builds`` (cells of its pure windows with two gaps) before the stone;
        ``pos`` must lie in no such window (the stone makes no threat)."""
        placed = own | 1 << pos
        mates: dict[int, int] = {}  # per gap of a new window with two gaps: the other gaps
        for gaps in self.gaps_at(pos, placed, other, self.length - 2):
            low = gaps & -gaps
            mates[low] = mates.get(low, 0) | gaps ^ low
            mates[gaps ^ low] = mates.get(gaps ^ low, 0) | low
        found = 0
        for cell, others in mates.items():
            if others & (others - 1) or builds & cell and self.threats_made(
                    placed, other, cell.bit_length() - 1).bit_count() >= 2:
                found |= cell
        return found

    def fork_defences(self, own: int, other: int, forks: int) -> int:
        """The cells where the opponent (stones ``other``) may stop every fork cell in
        ``forks`` of the owner of ``own``: the cells on which a stone leaves each of them
        in fewer than two pure windows with two gaps (a superset: a fork cell itself and
        the gaps of its windows, common to all fork cells)."""
        common = self.full & ~(own | other)
        for pos in bit_positions(forks):
            cells = 1 << pos
            for gaps in self.gaps_at(pos, own, other, self.length - 2):
                cells |= gaps
            common &= cells
        return common

    # -- whole-board scans ------------------------------------------------------------------

    def scan(self, stones: Sequence[int]) -> WindowScan:
        """Count the pure windows of each of the two players; ``stones[p]`` is the bit set
        of player ``p``'s stones."""
        if self.axes is None:
            return self.scan_walked(stones)
        length, half, low = self.length, self.half, self.low
        first, second = stones
        empty = self.full & ~(first | second)
        both = first | second << half
        empty_both = empty | empty << half
        counts0 = [0] * (length + 1)
        counts1 = [0] * (length + 1)
        threats = 0
        fork_once = fork_twice = 0
        lines0 = lines1 = 0
        threat_count, fork_count = length - 1, length - 2
        for offsets, starts in self.axes:
            shifted = [both >> o for o in offsets]
            blocked = 0
            for m in shifted:
                blocked |= m
            pure = starts & ~((blocked >> half) | (blocked & low) << half)  # no enemy stone
            if not pure:
                continue
            planes = _bit_planes(shifted, pure)
            inverted = [~plane for plane in planes]
            for c in range(1, min(length, 1 << len(planes))):
                windows = pure
                for j, plane in enumerate(planes):
                    windows &= plane if c >> j & 1 else inverted[j]
                if not windows:
                    continue
                low_count = (windows & low).bit_count()
                counts0[c] += low_count
                counts1[c] += windows.bit_count() - low_count
                if c == threat_count:
                    for o in offsets:
                        threats |= windows << o
                elif c == fork_count:
                    once, twice = _two_gap_cells(windows, offsets, empty_both)
                    fork_twice |= twice | (fork_once & once)
                    fork_once |= once
                    if twice & low:
                        lines0 += 1
                    if twice >> half:
                        lines1 += 1
        threats &= empty_both
        fork_once &= empty_both
        fork_twice &= empty_both
        return WindowScan((tuple(counts0), tuple(counts1)), (threats & low, threats >> half),
                          (fork_once & low, fork_once >> half), (fork_twice & low, fork_twice >> half),
                          (lines0, lines1), empty)

    def scan_walked(self, stones: Sequence[int]) -> WindowScan:
        """:meth:`scan` by walking every window (any topology)."""
        length = self.length
        first, second = stones
        empty = self.full & ~(first | second)
        counts = [[0] * (length + 1), [0] * (length + 1)]
        threats = [0, 0]
        # Per player: cell -> the other gaps of its pure windows with two gaps (the threats a
        # stone there makes), and the same per (cell, direction).
        mates: list[dict[int, int]] = [{}, {}]
        line_mates: list[dict[tuple[int, int], int]] = [{}, {}]
        for window in self.windows:
            mine = [sum(stones[p] >> pos & 1 for pos in window) for p in (0, 1)]
            for p in (0, 1):
                c = mine[p]
                if mine[1 - p] or not 0 < c < length:
                    continue
                counts[p][c] += 1
                gaps = [pos for pos in window if empty >> pos & 1]
                if c == length - 1:
                    threats[p] |= 1 << gaps[0]
                elif c == length - 2:
                    direction = self.direction_of[window]
                    for pos, mate in (gaps, gaps[::-1]):
                        mates[p][pos] = mates[p].get(pos, 0) | 1 << mate
                        line_mates[p][pos, direction] = line_mates[p].get((pos, direction), 0) | 1 << mate
        builds = tuple(sum(1 << pos for pos in mates[p]) for p in (0, 1))
        forks = tuple(sum(1 << pos for pos, m in mates[p].items() if m.bit_count() >= 2) for p in (0, 1))
        lines = tuple(len({d for (_, d), m in line_mates[p].items() if m.bit_count() >= 2}) for p in (0, 1))
        return WindowScan((tuple(counts[0]), tuple(counts[1])), (threats[0], threats[1]), builds, forks,
                          lines, empty)

    def reach(self, stones: Sequence[int], lowest: int = 0) -> WindowReach:
        """For each player and stone count below ``length``, the empty cells in one or more
        and in two or more pure windows (move ordering: what a stone there builds or blocks);
        counts below ``lowest`` are left empty (0), saving the densest sets."""
        if self.axes is None:
            return self.reach_walked(stones, lowest)
        length, half, low = self.length, self.half, self.low
        first, second = stones
        both = first | second << half
        empty = self.full & ~(first | second)
        empty_both = empty | empty << half
        once = [0] * length
        twice = [0] * length
        for offsets, starts in self.axes:
            shifted = [both >> o for o in offsets]
            blocked = 0
            for m in shifted:
                blocked |= m
            pure = starts & ~((blocked >> half) | (blocked & low) << half)
            if not pure:
                continue
            planes = _bit_planes(shifted, pure)
            for c in range(lowest, length):
                windows = _equal_to(planes, c, pure)
                if not windows:
                    continue
                a, b = once[c], twice[c]
                if c == length - 2:
                    line_once, line_twice = _two_gap_cells(windows, offsets, empty_both)
                    b |= line_twice | a & line_once
                    a |= line_once
                else:
                    for o in offsets:
                        m = windows << o
                        b |= a & m
                        a |= m
                once[c], twice[c] = a, b
        once = [m & empty_both for m in once]
        twice = [m & empty_both for m in twice]
        return WindowReach((tuple(m & low for m in once), tuple(m >> half for m in once)),
                           (tuple(m & low for m in twice), tuple(m >> half for m in twice)))

    def reach_walked(self, stones: Sequence[int], lowest: int = 0) -> WindowReach:
        """:meth:`reach` by walking every window (any topology)."""
        length = self.length
        empty = self.full & ~(stones[0] | stones[1])
        # Per player and count: cell -> the other gaps of each window through it (for two
        # windows, different sets; windows two short count twice only with different gaps).
        hits: list[list[dict[int, set[tuple[int, ...]]]]] = [[{} for _ in range(length)] for _ in (0, 1)]
        for window in self.windows:
            mine = [sum(stones[p] >> pos & 1 for pos in window) for p in (0, 1)]
            for p in (0, 1):
                if not mine[1 - p] and lowest <= mine[p] < length:
                    found = hits[p][mine[p]]
                    gaps = [pos for pos in window if empty >> pos & 1]
                    for pos in gaps:
                        found.setdefault(pos, set()).add(tuple(gaps) if mine[p] == length - 2 else window)
        return WindowReach(
            tuple(tuple(sum(1 << pos for pos in hits[p][c]) for c in range(length)) for p in (0, 1)),
            tuple(tuple(sum(1 << pos for pos, n in hits[p][c].items() if len(n) >= 2) for c in range(length))
                  for p in (0, 1)))


def _two_gap_cells(windows: int, offsets: Sequence[int], empty: int) -> tuple[int, int]:
    """The gaps of windows with exactly two empty cells (``windows``: their first cells;
    ``offsets``: their cells from the first; ``empty``: the empty cells), and the fork
    cells among them: those lying in two such windows whose other gaps differ (a stone
    there fills two windows but one gap short, each missing a different cell)."""
    gapped = [windows & (empty >> o) for o in offsets]
    by_step: dict[int, int] = {}  # other gap's step along the line -> cells with such a window
    for i, first in enumerate(gapped):
        for j in range(i + 1, len(offsets)):
            pair = first & gapped[j]
            if pair:
                by_step[j - i] = by_step.get(j - i, 0) | pair << offsets[i]
                by_step[i - j] = by_step.get(i - j, 0) | pair << offsets[j]
    once = twice = 0
    for cells in by_step.values():
        twice |= once & cells
        once |= cells
    return once, twice


def _bit_planes(masks: Sequence[int], keep: int) -> list[int]:
    """The binary sum of ``masks`` (restricted to ``keep``), bit by bit: plane ``j`` holds
    bit ``j`` of each position's count."""
    planes: list[int] = []
    for m in masks:
        carry = m & keep
        j = 0
        while carry:
            if j == len(planes):
                planes.append(carry)
                break
            plane = planes[j]
            planes[j] = plane ^ carry
            carry &= plane
            j += 1
    return planes


def _equal_to(planes: Sequence[int], count: int, keep: int) -> int:
    """The positions of ``keep`` whose count in ``planes`` (see :func:`_bit_planes`) is ``count``."""
    if count >> len(planes):
        return 0
    found = keep
    for j, plane in enumerate(planes):
        found &= plane if count >> j & 1 else ~plane
        if not found:
            break
    return found


@dataclass(frozen=True)
class WindowWeights:
    """Knowledge of an n-in-a-row game as numbers, read with a :class:`LineWindows` scan.

    Evaluation, for the side to move ("mover") against the other ("waiter"):

    * ``mover[c]`` / ``waiter[c]`` per pure window holding ``c`` stones;
    * ``win_now``  when the mover can fill a window at once (a playable threat), added; when
      the waiter has two playable threats (one stone cannot block both), subtracted;
    * ``fork``     when the waiter has no playable threat and the mover can make two at
      once (0 where a fork cell may not be playable, as under gravity);
    * ``double_fork`` subtracted when the mover has neither threat nor fork and the waiter
      has fork cells in two line directions (two open threes: one stone stops one);
    * ``threat``   per threat cell not playable yet (own minus the waiter's); under gravity
      a threat above one of the opponent's in its column does not count (it comes too late);
    * ``strong_threat`` per such cell in the player's ``strong`` set (Connect Four's
      odd/even rows: a threat on the right row wins the end game);
    * ``stacked``  under gravity, per threat cell right above another of the same player
      (the opponent can never block the lower one).

    Move ordering, for a stone on a cell: ``build_once[c]`` / ``build_twice[c]`` when the
    cell lies in one / two or more pure windows of the mover holding ``c`` stones,
    ``block_once[c]`` / ``block_twice[c]`` the same for the waiter's windows, plus
    ``central`` per window through the cell.
    """

    mover: tuple[int, ...]
    waiter: tuple[int, ...]
    win_now: int
    fork: int
    threat: int
    strong_threat: int
    build_once: tuple[int, ...]
    build_twice: tuple[int, ...]
    block_once: tuple[int, ...]
    block_twice: tuple[int, ...]
    central: int = 1
    stacked: int = 0
    double_fork: int = 0

    def evaluate(self, scan: WindowScan, me: int, playable: int, strong: Sequence[int] = (0, 0),
                 gravity: GravityDrops | None = None) -> int:
        """The score of a scanned position for the mover ``me``; ``playable`` is the bit set
        of the cells a stone may go on now; ``gravity`` the drops when stones fall."""
        other = 1 - me
        mine, theirs = scan.counts[me], scan.counts[other]
        score = 0
        for c, w in enumerate(self.mover):
            if w and mine[c]:
                score += w * mine[c]
        for c, w in enumerate(self.waiter):
            if w and theirs[c]:
                score -= w * theirs[c]
        my_threats, their_threats = scan.threats[me], scan.threats[other]
        if my_threats & playable:
            return score + self.win_now
        their_now = their_threats & playable
        if their_now & (their_now - 1):
            return score - self.win_now
        if not their_now and self.fork and scan.forks[me] & playable:
            score += self.fork
        elif self.double_fork and not their_now and scan.fork_lines[other] >= 2:
            score -= self.double_fork
        mine_later, theirs_later = my_threats & ~playable, their_threats & ~playable
        if gravity is not None:
            mine_later &= ~gravity.above(their_threats)
            theirs_later &= ~gravity.above(my_threats)
            if self.stacked:
                score += self.stacked * ((gravity.lift(mine_later) & mine_later).bit_count()
                                         - (gravity.lift(theirs_later) & theirs_later).bit_count())
        if self.threat:
            score += self.threat * (mine_later.bit_count() - theirs_later.bit_count())
        if self.strong_threat:
            score += self.strong_threat * ((mine_later & strong[me]).bit_count()
                                           - (theirs_later & strong[other]).bit_count())
        return score

    @property
    def lowest_ordering_count(self) -> int:
        """The fewest stones in a window that move ordering looks at (see ``LineWindows.reach``)."""
        tables = (self.build_once, self.build_twice, self.block_once, self.block_twice)
        return min((c for table in tables for c, w in enumerate(table) if w), default=len(self.mover))

    def move_values(self, reach: WindowReach, me: int, cells: int = -1) -> dict[int, int]:
        """Per empty cell in some pure window (and in the bit set ``cells``, if given), how
        much a stone of the mover ``me`` there builds and blocks (``central`` not included;
        cells not listed are worth 0)."""
        values: dict[int, int] = {}
        get = values.get
        for tables, player in (((self.build_once, self.build_twice), me),
                               ((self.block_once, self.block_twice), 1 - me)):
            for weights, found in zip(tables, (reach.once[player], reach.twice[player])):
                for c, w in enumerate(weights):
                    if not w:
                        continue
                    bits = found[c] & cells
                    while bits:
                        bit = bits & -bits
                        bits ^= bit
                        pos = bit.bit_length() - 1
                        values[pos] = get(pos, 0) + w
        return values


def window_weights(length: int, *, forks_playable: bool = True, mover: int = 2) -> WindowWeights:
    """Default weights for ``length`` in a row: window values grow eightfold per stone, the
    mover's count ``mover`` times (it moves first); in move ordering completing a row comes first,
    then blocking the opponent's, then two threats at once, then stopping the opponent's
    double threat, then single threats, then windows three stones short (sparser windows
    did not improve the ordering of gomoku searches, and cost the most to find)."""
    k = length
    grow = [0] + [8 ** (c - 1) for c in range(1, k)] + [0]
    threat_window = grow[k - 1]

    def ladder(last: int, second: int, rest: int) -> tuple[int, ...]:
        return tuple(0 if c == 0 or c < k - 3 else last if c == k - 1 else second if c == k - 2
                     else rest * grow[c] for c in range(k))

    return WindowWeights(
        mover=tuple(mover * g for g in grow), waiter=tuple(grow), win_now=20_000,
        fork=6_000 if forks_playable else 0, double_fork=3_000 if forks_playable else 0,
        threat=threat_window // 2, strong_threat=0,
        build_once=ladder(60_000, 1_000, 8), build_twice=ladder(0, 8_000, 64),
        block_once=ladder(30_000, 400, 4), block_twice=ladder(0, 3_000, 32))


def forced_pass(moves: list[Move], passes_in_row: int, limit: int = 1) -> list[Move]:
    """Passing when stuck: ``moves`` if there are any; else a pass, unless ``limit``
    passes in a row were already made, in which case nothing (the game is over)."""
    if moves:
        return moves
    return [PASS] if passes_in_row < limit else []


def passes_after(move: Move, passes_in_row: int) -> int:
    """The number of passes in a row once ``move`` is made (0 after any other move)."""
    return 0 if move else passes_in_row + 1
