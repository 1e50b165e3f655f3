"""Forbidden points: cells where a player may not put a stone because of the rows it
would make (renju's restrictions on Black).

With a row length ``k`` (five in renju), a stone of the restricted player on an empty
cell ``p`` is judged along each line through ``p`` (in the words of the RIF rules):

* a **five** is an unbroken row of exactly ``k``; a move that makes one is never
  forbidden (it wins, whatever else it makes);
* an **overline** is an unbroken row of more than ``k``;
* a **four** is a row to which one more stone makes a five; a **straight four** an
  unbroken row of ``k - 1`` that two different stones make a five;
* a **three** is a row to which one more stone, itself not a forbidden move and making
  no five at the same time, makes a straight four (the recursive "real three" test: a
  three whose four-point is forbidden, or whose four would be blocked by an overline or
  the edge, is no three).

The move is forbidden when it makes an overline, two fours or more (in different lines,
or two in one line, as ``X.XpX.X``), or two threes or more (in different lines); a line
that makes a four counts as a four, not a three (four-three is allowed).  Each rule is a
parameter, so a game may forbid only some of them.

The facts of one line (five, overline, fours, the cells that turn a three into a
straight four) depend only on the ``2k + 1`` cells around ``p``; they are worked out once
per pattern and kept.  :meth:`ForbiddenPoints.points` finds every forbidden cell, judging
only those with enough own stones near them in their lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import NamedTuple

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.placement import bit_positions, line_axes
from myriad.core.topology import NO_LINK, Topology

OVERLINE = "overline"
DOUBLE_FOUR = "double-four"
DOUBLE_THREE = "double-three"
#: Pattern bytes: an empty cell, an own stone, another stone, beyond the board's edge.
EMPTY, OWN, OTHER, EDGE = 0, 1, 2, 3
#: Suspect sets kept at most (the cache is emptied when full).
SUSPECT_CACHE = 1 << 14
#: Up to this many cells, :meth:`ForbiddenPoints.points` judges each of them.
FEW_CELLS = 3
#: Patterns kept at most (each a few dozen bytes); the cache is emptied when full.
PATTERN_CACHE = 1 << 17


class LineFacts(NamedTuple):
    """What a stone on the middle cell of a line pattern makes along that line: a
    ``five``, an ``overline``, the number of ``fours``, and the offsets (from the middle)
    of the empty cells where one more stone makes a straight four through it (empty
    when the line makes a four or a five)."""

    five: bool
    overline: bool
    fours: int
    three_points: tuple[int, ...]


def line_facts(pattern: bytes, length: int) -> LineFacts:
    """The :class:`LineFacts` of ``pattern`` (``2 * length + 1`` pattern bytes, the stone
    going on the middle one, which is empty)."""
    cells = list(pattern)
    mid = length
    cells[mid] = OWN

    def run(at: int) -> tuple[int, int]:
        """The first and last index of the unbroken row of own stones through ``at``."""
        lo = at
        while lo > 0 and cells[lo - 1] == OWN:
            lo -= 1
        hi = at
        while hi < len(cells) - 1 and cells[hi + 1] == OWN:
            hi += 1
        return lo, hi

    lo, hi = run(mid)
    if hi - lo + 1 == length:
        return LineFacts(True, False, 0, ())
    if hi - lo + 1 > length:
        return LineFacts(False, True, 0, ())
    fives: list[int] = []
    for q in range(len(cells)):
        if cells[q] != EMPTY:
            continue
        cells[q] = OWN
        a, b = run(q)
        if b - a + 1 == length and a <= mid <= b:
            fives.append(q)
        cells[q] = EMPTY
    # A straight four (two fives at both ends of one row of length - 1) is one four.
    fours = len(fives) - sum(1 for q in fives if q + length in fives)
    if fours:
        return LineFacts(False, False, fours, ())
    threes: list[int] = []
    for q in range(len(cells)):
        if cells[q] != EMPTY:
            continue
        cells[q] = OWN
        a, b = run(mid)
        if (b - a + 1 == length - 1 and a <= q <= b and a >= 2 and b <= len(cells) - 3
                and cells[a - 1] == EMPTY and cells[b + 1] == EMPTY
                and cells[a - 2] != OWN and cells[b + 2] != OWN):
            threes.append(q - mid)
        cells[q] = EMPTY
    return LineFacts(False, False, 0, tuple(threes))


class ForbiddenPoints:
    """The forbidden points of one player on ``topology`` for rows of ``length``:
    ``overline``, ``double_four`` and ``double_three`` say which patterns are forbidden
    (renju forbids all three to Black).  ``directions`` limits the lines (default: every
    direction of the topology)."""

    def __init__(self, topology: Topology, length: int = 5, *, overline: bool = True, double_four: bool = True,
                 double_three: bool = True, directions: Sequence[str] | None = None) -> None:
        if length < 3:
            raise GameDefinitionError(f"forbidden points need rows of three or more, not {length}")
        self.length = length
        self.overline = overline
        self.double_four = double_four
        self.double_three = double_three
        self.size = topology.size
        axes = line_axes(topology, directions)
        #: Per cell, per axis: the cells from ``length`` steps back to ``length`` steps
        #: forward (NO_LINK beyond the edge), the cell itself in the middle.
        spans: list[tuple[tuple[int, ...], ...]] = []
        for pos in range(topology.size):
            per_axis = []
            for d, back in axes:
                forward = topology.ray(pos, d, limit=length)
                backward = topology.ray(pos, back, limit=length) if back != NO_LINK else ()
                span = ((NO_LINK,) * (length - len(backward)) + tuple(reversed(backward)) + (pos,) + forward
                        + (NO_LINK,) * (length - len(forward)))
                per_axis.append(span)
            spans.append(tuple(per_axis))
        self.spans: tuple[tuple[tuple[int, ...], ...], ...] = tuple(spans)
        #: Per cell, per axis: a getter of its span's cells from the board's bytes with an
        #: edge byte appended (at index ``size``, read for the cells beyond the edge).
        self.getters: tuple[tuple[Callable[[bytes], tuple[int, ...]], ...], ...] = tuple(
            tuple(itemgetter(*(self.size if q == NO_LINK else q for q in span)) for span in per_pos)
            for per_pos in spans)
        self._tables: dict[int, bytes] = {}
        #: Per axis, per step count 1..length-1 either way: (steps, shift, mask) such that
        #: ``(bits >> shift or << -shift) & mask`` marks the cells with a stone of ``bits``
        #: that many steps away along the axis; None when the board is not a translation.
        self.shifts = self._shifts(topology, axes)
        self._facts: dict[bytes, LineFacts] = {}
        #: Suspects by the player's stones (White's moves leave Black's alike).
        self._suspects: dict[int, int] = {}

    def _shifts(self, topology: Topology,
                axes: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int, int], ...], ...] | None:
        found = []
        for d, back in axes:
            per_axis = []
            for way in (d, back):
                if way == NO_LINK:
                    continue
                for steps in range(1, self.length):
                    deltas = set()
                    mask = 0
                    for pos in range(topology.size):
                        ray = topology.ray(pos, way, limit=steps)
                        if len(ray) == steps:
                            deltas.add(ray[-1] - pos)
                            mask |= 1 << pos
                    if len(deltas) > 1:
                        return None
                    per_axis.append((steps, deltas.pop() if deltas else 0, mask))
            found.append(tuple(per_axis))
        return tuple(found)

    def table(self, code: int) -> bytes:
        """The ``bytes.translate`` table from cell values (0-254, and 255 beyond the edge)
        to pattern bytes for stones ``code``."""
        found = self._tables.get(code)
        if found is None:
            found = self._tables[code] = bytes(
                EDGE if v == 255 else EMPTY if v == 0 else OWN if v == code else OTHER for v in range(256))
        return found

    def board(self, cells: Sequence[int], code: int) -> bytes:
        """The cells as pattern bytes for stones ``code``, with an edge byte appended."""
        return (bytes(cells) + b"\xff").translate(self.table(code))

    def facts(self, cells: Sequence[int], pos: int, code: int) -> list[LineFacts]:
        """The :class:`LineFacts` of a stone ``code`` on ``pos``, per line through it."""
        return self._facts_on(self.board(cells, code), pos)

    def _facts_on(self, board: bytes, pos: int) -> list[LineFacts]:
        out = []
        store = self._facts
        for getter in self.getters[pos]:
            pattern = bytes(getter(board))
            found = store.get(pattern)
            if found is None:
                if len(store) >= PATTERN_CACHE:
                    store.clear()
                found = store[pattern] = line_facts(pattern, self.length)
            out.append(found)
        return out

    def verdict(self, cells: Sequence[int], pos: int, code: int) -> str | None:
        """Why a stone ``code`` on the empty cell ``pos`` is forbidden (:data:`OVERLINE`,
        :data:`DOUBLE_FOUR` or :data:`DOUBLE_THREE`), or None when it is allowed."""
        return self._judge(self.board(cells, code), pos)

    def _judge(self, board: bytes, pos: int) -> str | None:
        """:meth:`verdict` on pattern bytes (see :meth:`board`)."""
        lines = self._facts_on(board, pos)
        if any(f.five for f in lines):
            return None
        if self.overline and any(f.overline for f in lines):
            return OVERLINE
        if self.double_four and sum(f.fours for f in lines) >= 2:
            return DOUBLE_FOUR
        if self.double_three and sum(1 for f in lines if f.three_points) >= 2:
            after = board[:pos] + b"\x01" + board[pos + 1:]
            real = 0
            for axis, f in enumerate(lines):
                if not f.three_points:
                    continue
                span = self.spans[pos][axis]
                if any(self._straight_four_point(after, span[self.length + offset]) for offset in f.three_points):
                    real += 1
                    if real == 2:
                        return DOUBLE_THREE
        return None

    def _straight_four_point(self, board: bytes, pos: int) -> bool:
        """Whether a stone on ``pos`` (which makes a straight four) makes a three real: it
        is not forbidden and makes no five at the same time (the RIF definition of a three)."""
        return not any(f.five for f in self._facts_on(board, pos)) and self._judge(board, pos) is None

    def suspects(self, own: int) -> int:
        """A bit set holding every cell that may be forbidden when ``own`` (a bit set) holds
        the player's stones: those with three own stones within ``length - 1`` steps along
        one line (a four or an overline needs them), or two within ``length - 2`` steps
        along each of two lines (two threes need them: a straight four spans ``length - 1``
        cells); every cell when the board is not a translation."""
        if self.shifts is None:
            return (1 << self.size) - 1
        found = self._suspects.get(own)
        if found is None:
            if len(self._suspects) >= SUSPECT_CACHE:
                self._suspects.clear()
            found = self._suspects[own] = self._find_suspects(own, self.shifts)
        return found

    def _find_suspects(self, own: int, shifts: tuple[tuple[tuple[int, int, int], ...], ...]) -> int:
        near_two = any_two = 0
        three = 0
        reach = self.length - 2
        for per_axis in shifts:
            ones = twos = 0  # within length - 1 steps
            close_ones = close_twos = 0  # within length - 2 steps
            for steps, shift, mask in per_axis:
                near = (own >> shift if shift >= 0 else own << -shift) & mask
                three |= twos & near
                twos |= ones & near
                ones |= near
                if steps <= reach:
                    close_twos |= close_ones & near
                    close_ones |= near
            near_two |= any_two & close_twos
            any_two |= close_twos
        return near_two | three

    def points(self, cells: Sequence[int], code: int, own: int, empty: int) -> int:
        """The bit set of the forbidden cells among ``empty`` for stones ``code``; ``own``
        is the bit set of that player's stones."""
        found = 0
        # A few cells are judged at once (cheaper than finding the suspects of the board).
        suspects = empty if empty.bit_count() <= FEW_CELLS else self.suspects(own) & empty
        if suspects:
            board = self.board(cells, code)
            for pos in bit_positions(suspects):
                if self._judge(board, pos) is not None:
                    found |= 1 << pos
        return found
