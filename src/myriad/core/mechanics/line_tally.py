"""Line tallies: the window statistics of a position kept line by line, so that a new
stone updates the few lines through it instead of rescanning the board.

A :class:`LineWindows` scan looks at every window of the board; in a search, a child
position differs from its parent by one stone, which lies on one line per axis (four on a
square board).  :class:`LineIndex` cuts the board into its maximal lines; the statistics
of one line (pure windows per stone count, and the empty cells in one or two of them, see
:class:`~myriad.core.mechanics.placement.WindowReach`) are
worked out once per pattern of stones on it and cached; a :class:`LineTally` keeps, per
axis and player, the union of its lines' cell sets, and the window counts summed over all
lines.  :meth:`LineTally.scan` and :meth:`LineTally.reach` answer exactly what the
whole-board scans answer (the tests check them against the windows walked one by one).

Stones are only ever added (placement games): a tally is immutable, :meth:`LineTally.add`
returns a new one.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from myriad.core.caches import MB, ByteBudget
from myriad.core.mechanics.placement import (
    LineWindows,
    WindowReach,
    WindowScan,
    line_axes,
)
from myriad.core.topology import NO_LINK, Topology

#: Bytes of the line patterns whose statistics are kept per index, unless given (the oldest
#: go first), and of one until some are measured (0.3-0.4 KB in gomoku and Connect Four).
STATS_BYTES = 16 * MB
STATS_GUESS = 512


class LineStats(NamedTuple):
    """The statistics of one line holding given stones, packed for :class:`LineTally`:
    ``counts`` holds in field ``p * (length + 1) + c`` (16 or 32 bits each) the pure windows of
    player ``p`` with ``c`` stones (0 < c < length), and in field ``2 * (length + 1) + 2 *
    axis + p`` 1 when a cell of the line lies in two of ``p``'s windows with two gaps (the
    line's axis is a fork line, see :class:`WindowScan`); ``cells`` holds in field ``f`` (one
    board bit set each) the empty cells of the line in one (``f = p * tracked + c - lowest``)
    or in two or more (``f = (2 + p) * tracked + c - lowest``) pure windows of ``p`` with
    ``c`` stones, for the tracked counts ``c`` from the index's ``lowest`` up."""

    first: int
    second: int
    counts: int
    cells: int


class LineIndex:
    """The maximal lines of a board along each axis, and the statistics of a line by the
    stones on it.  ``lowest`` is the fewest stones of a window whose cells are tracked
    (move ordering asks about windows a few stones short; at most ``length - 2``, the
    counts a scan needs).  The statistics worked out are kept, at most ``cache_bytes`` of
    them (see :class:`~myriad.core.caches.ByteBudget`)."""

    def __init__(self, windows: LineWindows, topology: Topology, lowest: int,
                 directions: Sequence[str] | None = None, cache_bytes: int = STATS_BYTES) -> None:
        length = windows.length
        self.length = length
        self.lowest = max(0, min(lowest, length - 2))
        self.tracked = length - self.lowest
        self.full = windows.full
        #: Bits per packed cell-set field (one board bit set), and where the fields of cells
        #: in two windows of one line start.
        self.stride = topology.size
        self.within_shift = 2 * self.tracked * self.stride
        lines: list[tuple[int, ...]] = []
        axis_of: list[int] = []
        #: Per axis, per cell: (line, index along it) or None where no window passes.
        self.place: list[list[tuple[int, int] | None]] = []
        for d, _back in line_axes(topology, directions):
            fed = {q for q in topology.links[d] if q != NO_LINK}
            place: list[tuple[int, int] | None] = [None] * topology.size
            for start in range(topology.size):
                if start in fed:
                    continue  # not the first cell of its line
                line = (start, *topology.ray(start, d))
                if len(line) < length:
                    continue
                for i, pos in enumerate(line):
                    place[pos] = (len(lines), i)
                lines.append(line)
                axis_of.append(len(self.place))
            self.place.append(place)
        self.axes = len(self.place)
        fields = 2 * (length + 1) + 2 * self.axes
        #: Bits per packed count (room for every window), bytes of packed counts, and the
        #: reader of their fields.
        self.count_bits = 16 if len(windows.windows) < 1 << 16 else 32
        self.count_bytes = fields * self.count_bits // 8
        self.unpack = struct.Struct(f"<{fields}{'H' if self.count_bits == 16 else 'I'}").unpack
        self.lines: tuple[tuple[int, ...], ...] = tuple(lines)
        #: Per line, its axis.
        self.axis_of: tuple[int, ...] = tuple(axis_of)
        found = {tuple(line[s:s + length]) for line in lines for s in range(len(line) - length + 1)}
        #: Whether the lines hold exactly the windows of ``windows`` (not so on boards whose
        #: lines close on themselves, for instance; a tally would then miss windows).
        self.exact = found == set(windows.windows)
        self._stats: dict[tuple[int, int, int], LineStats] = {}
        self.stats_budget = ByteBudget(cache_bytes, STATS_GUESS)

    def stats(self, line: int, first: int, second: int) -> LineStats:
        """The statistics of ``line`` when ``first`` and ``second`` (bit ``i`` = the line's
        ``i``-th cell) are the two players' stones on it (cached)."""
        key = (line, first, second)
        found = self._stats.get(key)
        if found is None:
            self.stats_budget.make_room(self._stats)
            found = self._stats[key] = self._work_out(line, first, second)
        return found

    def _work_out(self, line: int, first: int, second: int) -> LineStats:
        length, lowest, tracked, stride = self.length, self.lowest, self.tracked, self.stride
        cells = self.lines[line]
        stones = (first, second)
        window = (1 << length) - 1
        empty = ((1 << len(cells)) - 1) & ~(first | second)
        counts = 0
        once = [0] * (2 * tracked)
        twice = [0] * (2 * tracked)
        mates: tuple[dict[int, int], dict[int, int]] = ({}, {})  # gap -> other gaps, two-gap windows
        for start in range(len(cells) - length + 1):
            mask = window << start
            for p in (0, 1):
                if stones[1 - p] & mask:
                    continue
                c = (stones[p] & mask).bit_count()
                if 0 < c < length:
                    counts += 1 << self.count_bits * (p * (length + 1) + c)
                if lowest <= c < length:
                    gaps = mask & empty
                    f = p * tracked + c - lowest
                    if c == length - 2:
                        low = gaps & -gaps
                        mates[p][low] = mates[p].get(low, 0) | gaps ^ low
                        mates[p][gaps ^ low] = mates[p].get(gaps ^ low, 0) | low
                    else:
                        twice[f] |= once[f] & gaps
                    once[f] |= gaps
        for p in (0, 1):
            # Fork cells: in two windows with two gaps whose other gaps differ.
            f = p * tracked + tracked - 2
            twice[f] = sum(gap for gap, others in mates[p].items() if others & (others - 1))
            if twice[f]:  # a fork cell made by this line alone
                counts += 1 << self.count_bits * (2 * (length + 1) + 2 * self.axis_of[line] + p)
        packed = 0
        for f, bits in enumerate(once + twice):
            while bits:
                low = bits & -bits
                bits ^= low
                packed |= 1 << (stride * f + cells[low.bit_length() - 1])
        return LineStats(first, second, counts, packed)

    def tally(self, stones: Sequence[int]) -> LineTally:
        """The tally of a whole position; ``stones[p]`` is the bit set of player ``p``'s stones."""
        lines = []
        counts = 0
        axes = [0] * self.axes
        for line, cells in enumerate(self.lines):
            first = second = 0
            for i, pos in enumerate(cells):
                first |= (stones[0] >> pos & 1) << i
                second |= (stones[1] >> pos & 1) << i
            stats = self.stats(line, first, second)
            lines.append(stats)
            counts += stats.counts
            axes[self.axis_of[line]] |= stats.cells
        return LineTally(self, (stones[0], stones[1]), lines, counts, axes)


class LineTally:
    """The window statistics of one position, line by line (see the module docstring):
    ``lines`` the statistics of each line, ``counts`` their packed window counts summed,
    ``axes`` per axis the packed cell sets of its lines (which share no cell, so the
    union of their sets is their sum)."""

    __slots__ = ("_once", "_twice", "axes", "counts", "index", "lines", "stones")

    def __init__(self, index: LineIndex, stones: tuple[int, int], lines: list[LineStats], counts: int,
                 axes: list[int]) -> None:
        self.index = index
        self.stones = stones
        self.lines = lines
        self.counts = counts
        self.axes = axes
        self._once: int | None = None
        self._twice = 0

    def add(self, pos: int, player: int) -> LineTally:
        """The tally once ``player`` puts a stone on the empty cell ``pos``."""
        index = self.index
        stones = (self.stones[0] | 1 << pos, self.stones[1]) if player == 0 else (
            self.stones[0], self.stones[1] | 1 << pos)
        lines = self.lines[:]
        axes = self.axes[:]
        counts = self.counts
        stats = index.stats
        for axis, place in enumerate(index.place):
            spot = place[pos]
            if spot is None:
                continue
            line, i = spot
            old = lines[line]
            if player == 0:
                new = stats(line, old.first | 1 << i, old.second)
            else:
                new = stats(line, old.first, old.second | 1 << i)
            lines[line] = new
            counts += new.counts - old.counts
            axes[axis] ^= old.cells ^ new.cells
        return LineTally(index, stones, lines, counts, axes)

    def _combined(self) -> tuple[int, int]:
        """Packed, the once-fields over all axes: the cells in one pure window or more, and
        in two or more (of one axis, or of two axes); kept once worked out."""
        if self._once is None:
            once = twice = 0
            for packed in self.axes:
                twice |= once & packed
                once |= packed
            shift = self.index.within_shift
            self._once, self._twice = once, (twice | once >> shift) & ((1 << shift) - 1)
        return self._once, self._twice  # type: ignore[return-value]

    def scan(self) -> WindowScan:
        """The same as :meth:`LineWindows.scan` of the tallied stones."""
        index = self.index
        length, tracked, stride, full = index.length, index.tracked, index.stride, index.full
        once, twice = self._combined()
        counts = index.unpack(self.counts.to_bytes(index.count_bytes, "little"))
        per_axis = counts[2 * length + 2:]
        threat0, threat1 = (tracked - 1) * stride, (2 * tracked - 1) * stride
        build0, build1 = (tracked - 2) * stride, (2 * tracked - 2) * stride
        return WindowScan((counts[:length + 1], counts[length + 1:2 * length + 2]),
                          (once >> threat0 & full, once >> threat1 & full),
                          (once >> build0 & full, once >> build1 & full),
                          (twice >> build0 & full, twice >> build1 & full),
                          (sum(1 for n in per_axis[0::2] if n), sum(1 for n in per_axis[1::2] if n)),
                          full & ~(self.stones[0] | self.stones[1]))

    def reach(self, lowest: int = 0) -> WindowReach:
        """The same as :meth:`LineWindows.reach` of the tallied stones (``lowest`` no lower
        than the index's)."""
        index = self.index
        if lowest < index.lowest:
            raise ValueError(f"this tally tracks windows of {index.lowest} stones or more, not {lowest}")
        length, tracked, stride, full = index.length, index.tracked, index.stride, index.full
        packed_once, packed_twice = self._combined()
        once: list[list[int]] = [[0] * length, [0] * length]
        twice: list[list[int]] = [[0] * length, [0] * length]
        for p in (0, 1):
            for c in range(lowest, length):
                shift = (p * tracked + c - index.lowest) * stride
                once[p][c] = packed_once >> shift & full
                twice[p][c] = packed_twice >> shift & full
        return WindowReach((tuple(once[0]), tuple(once[1])), (tuple(twice[0]), tuple(twice[1])))
