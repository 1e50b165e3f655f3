"""Kernel family: stones placed on empty cells (or dropped down a column), ``k`` in a row
wins -- tic-tac-toe, gomoku, Connect Four (:class:`myriad.games.inarow.InARow`).

Tables:

* ``rules[axis] = (direction, opposite)`` the board's lines (on bit sets, then the shift
  from a window's bit to its next and the bits of the windows' lowest cells);
* ``extra`` five tables stacked by rows, where ``params`` says (``COLUMNS``, ``WINDOWS``,
  ``THROUGH``, ``SPANS``, ``LINES`` and their counts): the cells of each column, bottom first, padded
  with -1 (gravity only); each window of ``k`` cells (:class:`LineWindows`, in its order),
  then its axis; per cell, the number of windows through it, then their indices; per cell
  and axis of the forbidden points, the ``2 * length + 1`` cells around it (-1 beyond the
  edge; renju only); the maximal lines holding a window: axis, length, cells;
* (more rows of ``extra``) per cell, the cells within the bots' ``candidate_radius`` of
  it, a bit set in 64-bit words (gomoku, renju);
* ``zones[player]`` the cells where that player's threats count as strong (Connect
  Four's odd and even rows); ``zones[OPENING + n]`` where the ``n``-th stone may go
  (renju's opening); on bit sets, a last row (``BIT_ROW``) gives each cell's bit;
* ``weights`` the :class:`WindowWeights`: rows ``MOVER`` .. ``BLOCK_TWICE`` by stone count,
  then a row of the single weights (``W_WIN_NOW`` ..);
* ``params``: ``K``, ``GRAVITY``, per player ``EXACT`` (renju's Black wins with exactly
  ``k``) and ``STONE``, the directions up and down (gravity), which forbidden points
  (``FORBID``) and how many stones the opening rule places (``NOPENING``).

A move is one word: the cell.  A state vector keeps, after the reference state, the
family's tally (:func:`rebuild` works it out from the cells, ``play`` updates it from the
windows through the new stone, as the reference's
:class:`~myriad.core.mechanics.line_tally.LineTally` does line by line): each window's
stones, the window counts per player and stone count, and per cell and player its threat,
build and fork facts, with per-player totals; the cells near a stone (``candidate_radius``);
the stones on the board.  The bots' knowledge -- :meth:`InARow.evaluate`,
:meth:`InARow.move_heuristic`, :meth:`InARow.candidate_moves`, :meth:`InARow.noisy_moves`,
:meth:`InARow.may_stand_pat` -- reads it: ``evaluate`` sums the counts (without gravity and
forbidden points it needs no walk over the board at all), ``order`` reads the windows
through the move's cell (and the cell above it), ``candidates`` and ``noisy_moves`` test
the cells of the moves.  Renju's opening rule (zones) and the first player's forbidden
points (:mod:`~myriad.core.mechanics.forbidden`: the spans of each cell judged as the
reference judges them, three points recursively) restrict the moves, and the bots' scan as
:meth:`InARow._restricted` does (the ``*_restricted`` functions, on :func:`scanned`
arrays).  The packed words hold windows of up to 15 stones: a longer row runs on the
reference.

On bit sets (gravity boards whose columns fit one 64-bit word with a spare bit each:
Connect Four, see :func:`bit_layout`) a state vector keeps instead each player's stones as
bits, and the tally's facts are worked out for the whole board at once the first time a
position is asked (:func:`work_out_facts`, into words ``play`` leaves zero): threat, build
and fork cells, fork lines, window counts, the cells of the windows move ordering reads.
Its functions take numbers rather than the tables where they can, and the move-ordering
loop calls nothing: numba counts a reference to each array a compiled function takes, on
every call, even an inlined one.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.mechanics.placement import GravityDrops, LineWindows, line_axes
from myriad.core.move import DROP
from myriad.core.topology import NO_LINK, Topology, opposite_directions
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.instructions import lowest, popcount
from myriad.kernel.keys import flag_key, mix64
from myriad.kernel.layout import (P_FAMILY_PARAMS, P_FLAGS, P_SIZE, P_VALUES, P_WIDTH, S_CELLS, S_KEY,
                                  S_TO_MOVE, Tables, base_tables, signed)

FAMILY = 1
K = P_FAMILY_PARAMS
GRAVITY = P_FAMILY_PARAMS + 1
EXACT = P_FAMILY_PARAMS + 2   # + player
STONE = P_FAMILY_PARAMS + 4   # + player: the stone's cell value
COLUMNS = P_FAMILY_PARAMS + 6     #: first row of the columns in ``extra``
NCOLUMNS = P_FAMILY_PARAMS + 7
WINDOWS = P_FAMILY_PARAMS + 8     #: first row of the windows in ``extra``
NWINDOWS = P_FAMILY_PARAMS + 9
THROUGH = P_FAMILY_PARAMS + 10    #: first row of the windows through each cell
UP = P_FAMILY_PARAMS + 11         #: the direction up a column (gravity), else -1
DOWN = P_FAMILY_PARAMS + 12       #: the direction down a column (gravity), else -1
NAXES = P_FAMILY_PARAMS + 13
FORBID = P_FAMILY_PARAMS + 14     #: the first player's forbidden points: OVERLINE | DOUBLE_FOUR | DOUBLE_THREE
FLENGTH = P_FAMILY_PARAMS + 15    #: the row length the forbidden points are judged for
FAXES = P_FAMILY_PARAMS + 16      #: the lines they are judged along
SPANS = P_FAMILY_PARAMS + 17      #: first row of the spans in ``extra`` (cell by cell, axis by axis)
NOPENING = P_FAMILY_PARAMS + 18   #: stones placed under the opening rule (zones ``OPENING`` + n)
LINES = P_FAMILY_PARAMS + 19      #: first row of the board's maximal lines in ``extra``
NLINES = P_FAMILY_PARAMS + 20
AROUND = P_FAMILY_PARAMS + 21     #: first row of the cells near each cell (bots' ``candidate_radius``), or -1
# -- the family's own words in a state vector (the tally, see :func:`rebuild`): where each part starts
STONES_AT = P_FAMILY_PARAMS + 22  #: the stones on the board
COUNTS_AT = P_FAMILY_PARAMS + 23  #: ``counts[p, c]``: pure windows of ``p`` with ``c`` stones (``p * (k + 1) + c``)
NTHREAT_AT = P_FAMILY_PARAMS + 24  #: per player, the cells that are threat cells of theirs
NFORK_AT = P_FAMILY_PARAMS + 25   #: per player, their fork cells
NMULTI_AT = P_FAMILY_PARAMS + 26  #: per player and axis, the cells that make the axis a fork line
WORDS_AT = P_FAMILY_PARAMS + 27   #: the windows' stones, :data:`PER_WORD` windows a word
CELL_AT = P_FAMILY_PARAMS + 28    #: a word per cell: per player its gap counts and flags
NEAR_AT = P_FAMILY_PARAMS + 29    #: the cells near a stone (``candidate_radius``), a bit set in 64-bit words
PW = P_FAMILY_PARAMS + 30         #: bits per player in a cell word
TB = P_FAMILY_PARAMS + 31         #: bits of a cell's threat count
BB = P_FAMILY_PARAMS + 32         #: bits of a cell's build count along one axis
LOW = P_FAMILY_PARAMS + 33        #: the fewest stones of a window move ordering weighs
NREACH = P_FAMILY_PARAMS + 34     #: per cell word and player, counts of windows of ``LOW`` .. ``k - 3`` stones
FAST_ORDER = P_FAMILY_PARAMS + 35  #: 1: ``order`` reads the cell words (else it walks the windows)
GAPS_AT = P_FAMILY_PARAMS + 36    #: per kind (``THREAT_CELLS`` ..) and player, a set of cells in 64-bit words
# -- bit-set boards (see :func:`bit_layout`): gravity boards whose columns fit one 64-bit word
BITS = P_FAMILY_PARAMS + 37       #: 1: the board is kept as bit sets, its facts worked out from them
STRIDE = P_FAMILY_PARAMS + 38     #: bits per column (the tallest column and a spare bit above it)
BOARD = P_FAMILY_PARAMS + 39      #: the board's bits
BOTTOM = P_FAMILY_PARAMS + 40     #: the bits of the columns' bottom cells
STRONG_BITS = P_FAMILY_PARAMS + 41  #: + player: the strong cells (``zones[player]``) as bits
BIT_ROW = P_FAMILY_PARAMS + 43    #: the row of ``zones`` that gives each cell's bit
BITS_AT = P_FAMILY_PARAMS + 44    #: (state) per player the bits of their stones
FACTS_AT = P_FAMILY_PARAMS + 45   #: (state) the facts of :func:`work_out_facts`, 0 first while not worked out

#: Windows per word of a state vector, and bits per window (its first player's stones in
#: the low half, its second player's in the high half: at most 15 each).
PER_WORD, WINDOW_BITS, HALF = 8, 8, 4

#: The game's search hooks this family reproduces (see ``myriad.kernel.rules``).
SEARCH_HOOKS = frozenset({"candidate_moves", "may_stand_pat"})

#: The kinds of gap cell kept as bit sets (at ``GAPS_AT``): threat, build and fork cells.
THREAT_CELLS, BUILD_CELLS, FORK_CELLS = range(3)
#: On bit sets, a player's facts (:func:`work_out_facts`): threat cells (of one window, of
#: two or more), build cells, fork cells, fork lines, window counts by stones (``k + 1``),
#: then per stone count ``LOW`` .. ``k - 3`` the cells in one such window and in two.
F_THREAT, F_THREAT2, F_BUILD, F_FORK, F_LINES, F_COUNTS = range(6)
#: The longest row bit sets take (a window's stones are summed in three bits).
MAX_BITS_K = 7

#: ``FORBID`` bits, and the verdicts of :func:`judge` (0: allowed).
OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = 1, 2, 4
#: The first zone of the opening rule (after the two of strong threats).
OPENING = 2
#: Pattern values of a span: an empty cell, a stone of the restricted player, another
#: stone, beyond the edge (:mod:`myriad.core.mechanics.forbidden`).
EMPTY, OWN, OTHER, EDGE = 0, 1, 2, 3

# -- rows of ``weights``: per stone count ...
MOVER, WAITER, BUILD_ONCE, BUILD_TWICE, BLOCK_ONCE, BLOCK_TWICE, SINGLE = range(7)
# ... and the columns of the row of single weights
W_WIN_NOW, W_FORK, W_THREAT, W_STRONG, W_CENTRAL, W_STACKED, W_DOUBLE_FORK = range(7)


def tables(game: Game, bit_sets: bool = True) -> Tables | None:
    """The tables of an :class:`InARow` game (renju's forbidden points and opening rule
    included); with ``bit_sets``, where :func:`bit_layout` fits the board, on bit sets
    (else on the tally)."""
    from myriad.games.inarow import InARow
    if type(game) is not InARow:
        return None
    topology = game.topology
    size, k = topology.size, game.k
    axes = line_axes(topology)
    axis_rows = np.array(axes, np.int64).reshape(-1, 2)
    columns: tuple[tuple[int, ...], ...] = ()
    up = down = -1
    if isinstance(game.placement, GravityDrops):
        columns = game.placement.columns
        down = topology.direction("s")
        up = opposite_directions(topology)[down]
        if not _linked_columns(columns, topology.links[down], size):
            return None  # :func:`gravity_walk` walks the columns for the links down
    windows = game.windows
    cells_of = windows.windows if windows is not None else ()
    through = windows.windows_at if windows is not None else ((),) * size
    axis_of = {d: a for a, (d, _back) in enumerate(axes)}
    forbidden = game.forbidden
    spans = [span for per_pos in forbidden.spans for span in per_pos] if forbidden is not None else []
    lines = maximal_lines(topology, k) if windows is not None else []
    around = game.vicinity.around if game.vicinity is not None else ()
    width = max([k + 1, 1 + max(len(w) for w in through)] + [len(c) for c in columns] + [len(s) for s in spans]
                + [2 + len(cells) for _, cells in lines] + [-(-size // 64)])
    extra = np.full((len(columns) + len(cells_of) + size + len(spans) + len(lines) + len(around), width), -1,
                    np.int64)
    for c, cells in enumerate(columns):
        extra[c, :len(cells)] = cells
    first_window = len(columns)
    for w, cells in enumerate(cells_of):
        extra[first_window + w, :k] = cells
        extra[first_window + w, k] = axis_of[windows.direction_of[cells]] if windows is not None else -1
    first_through = first_window + len(cells_of)
    for pos, ws in enumerate(through):
        extra[first_through + pos, 0] = len(ws)
        extra[first_through + pos, 1:1 + len(ws)] = ws
    first_span = first_through + size
    for i, span in enumerate(spans):
        extra[first_span + i, :len(span)] = [q if q != NO_LINK else -1 for q in span]
    first_line = first_span + len(spans)
    for i, (axis, cells) in enumerate(lines):
        extra[first_line + i, :2 + len(cells)] = [axis, len(cells), *cells]
    first_around = first_line + len(lines)
    for pos, cells in enumerate(around):  # as bit sets: a stone marks its cells near in a few words
        near = sum(1 << q for q in cells)
        extra[first_around + pos, :-(-size // 64)] = [signed(near >> (64 * i)) for i in range(-(-size // 64))]
    zones = np.zeros((OPENING + len(game.opening), size), np.int64)
    for pos in range(size):
        for player in range(2):
            zones[player, pos] = game.strong[player] >> pos & 1
        for n, zone in enumerate(game.opening):
            zones[OPENING + n, pos] = zone >> pos & 1
    ww = game.weights
    weights = np.zeros((SINGLE + 1, max(k + 1, W_DOUBLE_FORK + 1)), np.float64)
    for row, values in ((MOVER, ww.mover), (WAITER, ww.waiter), (BUILD_ONCE, ww.build_once),
                        (BUILD_TWICE, ww.build_twice), (BLOCK_ONCE, ww.block_once), (BLOCK_TWICE, ww.block_twice)):
        weights[row, :len(values)] = values
    weights[SINGLE, :W_DOUBLE_FORK + 1] = (ww.win_now, ww.fork, ww.threat, ww.strong_threat, ww.central,
                                           ww.stacked, ww.double_fork)
    params = {K: k, GRAVITY: int(game.gravity),
              EXACT: int(not game.goals[0].overlines), EXACT + 1: int(not game.goals[1].overlines),
              STONE: game.stones[0], STONE + 1: game.stones[1],
              COLUMNS: 0, NCOLUMNS: len(columns), WINDOWS: first_window, NWINDOWS: len(cells_of),
              THROUGH: first_through, UP: up, DOWN: down, NAXES: len(axes), NOPENING: len(game.opening),
              LINES: first_line, NLINES: len(lines), AROUND: first_around if around else -1}
    if forbidden is not None:
        params.update({FORBID: (OVERLINE * forbidden.overline | DOUBLE_FOUR * forbidden.double_four
                                | DOUBLE_THREE * forbidden.double_three),
                       FLENGTH: forbidden.length, FAXES: len(forbidden.spans[0]) if size else 0, SPANS: first_span})
    # the tally's words (see :func:`rebuild`): a cell word holds per player its threat count,
    # its build count per axis, a bit per axis for a fork line through it, and its fork bit
    # and, when move ordering weighs no empty window, per stone count from the lowest it
    # weighs to ``k - 3`` the windows it is a gap of
    naxes = len(axes)
    tb = max([1] + [len(ws) for ws in through]).bit_length()
    bb = max(1, k).bit_length()
    low = ww.lowest_ordering_count
    fast = k >= 3 and low >= 1
    nreach = max(0, k - 2 - low) if fast else 0
    pw = tb + naxes * (bb + 1) + 1 + nreach * tb
    if 2 * pw > 63 and fast:  # no room: ``order`` walks the windows
        fast, nreach = False, 0
        pw = tb + naxes * (bb + 1) + 1
    bits = None
    if (bit_sets and columns and windows is not None and forbidden is None and not game.opening and not around
            and 3 <= k <= MAX_BITS_K and low >= 1):
        bits = bit_layout(columns, windows, axis_of, naxes)
    if bits is not None:  # facts from bit sets instead of the tally
        nreach = k - 2 - low if k - 2 > low else 0
        stride, bit_of, axis_bits = bits
        axis_rows = np.array([[d, back, shift, starts] for (d, back), (shift, starts) in zip(axes, axis_bits)],
                             np.int64).reshape(-1, 4)
        zones = np.vstack([zones, np.array([bit_of], np.int64)])
        params.update({BITS: 1, STRIDE: stride, BIT_ROW: zones.shape[0] - 1,
                       BOARD: signed(sum(1 << b for b in bit_of)),
                       BOTTOM: signed(sum(1 << bit_of[column[0]] for column in columns)),
                       STRONG_BITS: signed(sum(1 << bit_of[q] for q in range(size) if game.strong[0] >> q & 1)),
                       STRONG_BITS + 1: signed(sum(1 << bit_of[q] for q in range(size) if game.strong[1] >> q & 1))})
        layout = [(STONES_AT, 1), (BITS_AT, 2), (FACTS_AT, 2 + 2 * fact_words(k, nreach))]
    elif cells_of and (k >= 1 << HALF or 2 * pw > 63):
        return None  # counts too wide for the packed words: the reference runs it
    else:
        layout = [(STONES_AT, 1)]
    if cells_of and bits is None:
        layout += [(COUNTS_AT, 2 * (k + 1)), (NTHREAT_AT, 2), (NFORK_AT, 2), (NMULTI_AT, 2 * naxes),
                   (WORDS_AT, -(-len(cells_of) // PER_WORD)), (GAPS_AT, 6 * -(-size // 64)), (CELL_AT, size)]
    if around:
        layout.append((NEAR_AT, -(-size // 64)))
    own = sum(n for _, n in layout)
    params.update({PW: pw, TB: tb, BB: bb, LOW: low, NREACH: nreach, FAST_ORDER: int(fast)})
    t = base_tables(game, FAMILY, move_width=1, max_moves=size, rules=axis_rows, extra=extra,
                    zones=zones, weights=weights, family_params=params, extra_words=own)
    at = int(t.params[P_WIDTH]) - own
    for index, n in layout:
        t.params[index] = at
        at += n
    return t


def bit_layout(columns: tuple[tuple[int, ...], ...], windows: LineWindows, axis_of: dict[int, int],
               naxes: int) -> tuple[int, list[int], list[tuple[int, int]]] | None:
    """Each cell's bit in a 64-bit word: column by column in ``columns`` order, bottom first,
    ``stride`` bits a column (the tallest column's cells and a spare bit above, so that a
    step up never reaches the next column); per axis, the step from a window's bit to its
    next (a shift) and the bits of the windows' lowest cells (as signed words).  None when
    the board does not fit or a window's bits are not evenly spaced."""
    stride = max(len(column) for column in columns) + 1
    if stride * len(columns) > 64:
        return None
    bit_of = [0] * sum(len(column) for column in columns)
    for c, column in enumerate(columns):
        for row, pos in enumerate(column):
            bit_of[pos] = c * stride + row
    shifts, starts = [0] * naxes, [0] * naxes
    for cells in windows.windows:
        a = axis_of[windows.direction_of[cells]]
        found = sorted(bit_of[q] for q in cells)
        step = found[1] - found[0]
        if any(b - found[0] != i * step for i, b in enumerate(found)) or shifts[a] not in (0, step):
            return None
        shifts[a] = step
        starts[a] |= 1 << found[0]
    return stride, bit_of, [(shift, signed(bits)) for shift, bits in zip(shifts, starts)]


def fact_words(k: int, nreach: int) -> int:
    """The words of one player's facts (:func:`work_out_facts`)."""
    return F_COUNTS + k + 1 + 2 * nreach


def maximal_lines(topology: Topology, k: int) -> list[tuple[int, tuple[int, ...]]]:
    """Per axis (:func:`line_axes` order), the board's maximal lines along its direction
    that hold a window of ``k`` cells: (axis, cells in walking order)."""
    found = []
    for axis, (d, _back) in enumerate(line_axes(topology)):
        row = topology.links[d]
        entered = {q for q in row if q != NO_LINK}
        for start in range(topology.size):
            if start in entered:
                continue
            cells, pos = [start], row[start]
            while pos != NO_LINK:
                cells.append(pos)
                pos = row[pos]
            if len(cells) >= k:
                found.append((axis, tuple(cells)))
    return found


def _linked_columns(columns: tuple[tuple[int, ...], ...], below: Sequence[int], size: int) -> bool:
    """Whether the columns hold every cell once, each cell above the one its link down
    reaches."""
    cells = [pos for column in columns for pos in column]
    return (sorted(cells) == list(range(size))
            and all(below[column[i]] == column[i - 1] for column in columns for i in range(1, len(column))))


def prepare(t: Tables, s: np.ndarray) -> None:
    """The tally's words worked out from the cells (see :func:`rebuild`)."""
    rebuild(t, s)


# -- the tally: the window statistics kept in the state vector, updated by ``play`` ---------

@njit(cache=True)
def rebuild(t, s):
    """The family's own words of ``s`` worked out from its cells: the stones; per window
    its stones of each player (``WORDS_AT``); per player ``p`` and count ``c`` the pure
    windows (``COUNTS_AT``, as :func:`scan` counts them); per cell and player how many pure
    windows of ``k - 1`` stones have it as their gap (a threat cell), per axis how many of
    ``k - 2`` stones (a build cell), a bit per axis where two of those have different other
    gaps (the axis is a fork line) and a fork bit (build counts along two axes, or a fork
    line); per player the threat cells, fork cells and per axis the fork-line cells; per
    player the sets of threat, build and fork cells (``GAPS_AT``); the cells near a stone
    (``NEAR_AT``).  ``play`` keeps them equal to this."""
    p = t.params
    size = p[P_SIZE]
    stones = 0
    for pos in range(size):
        if s[S_CELLS + pos] != 0:
            stones += 1
    s[p[STONES_AT]] = stones
    if p[BITS]:
        rebuild_bits(t, s)
        return
    if p[AROUND] >= 0:
        for i in range(-(-size // 64)):
            s[p[NEAR_AT] + i] = 0
        for pos in range(size):
            if s[S_CELLS + pos] != 0:
                mark_near(t, s, pos)
    if p[NWINDOWS] == 0:
        return
    k, naxes = p[K], p[NAXES]
    for i in range(p[COUNTS_AT], p[CELL_AT] + size):
        s[i] = 0
    x = t.extra
    first, second = p[STONE], p[STONE + 1]
    for w in range(p[NWINDOWS]):
        row = p[WINDOWS] + w
        n0 = 0
        n1 = 0
        for i in range(k):
            v = s[S_CELLS + x[row, i]]
            if v == first:
                n0 += 1
            elif v == second:
                n1 += 1
        s[p[WORDS_AT] + (w >> 3)] += (n0 | n1 << HALF) << ((w & 7) * WINDOW_BITS)
        player, c = window_class(k, n0, n1)
        if player < 0:
            continue
        s[p[COUNTS_AT] + player * (k + 1) + c] += 1
        for i in range(k):
            q = x[row, i]
            if s[S_CELLS + q] != 0:
                continue
            if c == k - 1:
                s[p[CELL_AT] + q] += np.int64(1) << (player * p[PW])
            elif c == k - 2:
                s[p[CELL_AT] + q] += np.int64(1) << (player * p[PW] + p[TB] + x[row, k] * p[BB])
            elif p[LOW] <= c < p[LOW] + p[NREACH]:
                s[p[CELL_AT] + q] += np.int64(1) << (player * p[PW] + reach_shift(t, c))
    for pos in range(size):
        for player in range(2):
            if cell_field(t, s, player, pos, 0, p[TB]):
                s[p[NTHREAT_AT] + player] += 1
                mark_gap(t, s, THREAT_CELLS, player, pos, True)
            for a in range(naxes):
                refresh(t, s, player, pos, a)


@njit(cache=True)
def window_class(k, n0, n1):
    """The player a window with ``n0`` and ``n1`` stones is pure for and its stones
    (``0 < c < k``), or (-1, 0)."""
    if n1 == 0 and 0 < n0 < k:
        return 0, n0
    if n0 == 0 and 0 < n1 < k:
        return 1, n1
    return -1, 0


@njit(cache=True)
def reach_shift(t, c):
    """Where a player's count of windows with ``c`` stones starts in its half of a cell
    word (``LOW <= c < LOW + NREACH``)."""
    p = t.params
    return p[TB] + p[NAXES] * (p[BB] + 1) + 1 + (c - p[LOW]) * p[TB]


@njit(cache=True)
def cell_field(t, s, player, pos, at, bits):
    """``bits`` bits from bit ``at`` of ``player``'s half of the word of ``pos``."""
    return (s[t.params[CELL_AT] + pos] >> (player * t.params[PW] + at)) & ((np.int64(1) << bits) - 1)


@njit(cache=True)
def gap_words(t, kind, player):
    """Where ``player``'s set of gap cells of ``kind`` starts in a state vector, and its words."""
    n = (t.params[P_SIZE] + 63) >> 6
    return t.params[GAPS_AT] + (kind * 2 + player) * n, n


@njit(cache=True)
def mark_gap(t, s, kind, player, pos, on):
    """Put ``pos`` in ``player``'s set of gap cells of ``kind`` (``on``) or take it out."""
    at, _n = gap_words(t, kind, player)
    bit = np.int64(1) << (pos & 63)
    if on:
        s[at + (pos >> 6)] |= bit
    else:
        s[at + (pos >> 6)] &= ~bit


@njit(cache=True)
def list_gaps(t, s, moves, kind, player, kind2, player2):
    """The cells of ``player``'s gap cells of ``kind`` (and, with ``kind2 >= 0``, of
    ``player2``'s of ``kind2``) as moves, lowest cell first (the order :func:`gen` lists
    them in without gravity); their count."""
    at, words = gap_words(t, kind, player)
    at2, _n = gap_words(t, max(kind2, 0), player2)
    n = 0
    for i in range(words):
        bits = np.uint64(s[at + i])
        if kind2 >= 0:
            bits |= np.uint64(s[at2 + i])
        while bits:
            moves[n, 0] = (i << 6) + lowest(bits)
            n += 1
            bits &= bits - np.uint64(1)
    return n


@njit(cache=True)
def threat_count(t, s, player, pos):
    """The pure windows of ``player`` with ``k - 1`` stones whose gap is ``pos``."""
    return cell_field(t, s, player, pos, 0, t.params[TB])


@njit(cache=True)
def is_build(t, s, player, pos):
    """Whether ``pos`` is a gap of a pure window of ``player`` with ``k - 2`` stones."""
    p = t.params
    return cell_field(t, s, player, pos, p[TB], p[NAXES] * p[BB]) != 0


@njit(cache=True)
def is_fork(t, s, player, pos):
    """Whether ``pos`` is a fork cell of ``player`` (:func:`scanned`'s ``forks``)."""
    p = t.params
    return cell_field(t, s, player, pos, p[TB] + p[NAXES] * (p[BB] + 1), 1) != 0


@njit(cache=True)
def fork_lines(t, s, player):
    """The axes along which ``player`` has a cell in two windows of ``k - 2`` stones with
    different other gaps (:func:`scanned`'s ``lines``)."""
    p = t.params
    n = 0
    for a in range(p[NAXES]):
        if s[p[NMULTI_AT] + player * p[NAXES] + a] > 0:
            n += 1
    return n


@njit(cache=True)
def two_mates(t, s, player, pos, a):
    """Whether the pure windows of ``player`` with ``k - 2`` stones through the empty
    ``pos`` along axis ``a`` have two different other gaps."""
    p = t.params
    k = p[K]
    row = p[THROUGH] + pos
    known = -1
    for i in range(t.extra[row, 0]):
        w = t.extra[row, 1 + i]
        if t.extra[p[WINDOWS] + w, k] != a:
            continue
        n0, n1 = window_stones(t, s, w)
        mine, theirs = (n0, n1) if player == 0 else (n1, n0)
        if theirs or mine != k - 2:
            continue
        gap = other_gap(t, s, w, pos)
        if known < 0:
            known = gap
        elif gap != known:
            return True
    return False


@njit(cache=True)
def refresh(t, s, player, pos, a):
    """The fork-line bit of ``pos`` along axis ``a`` and its fork bit worked out again
    for ``player`` (after its build count along ``a`` changed), and the per-player counts
    of such cells kept."""
    p = t.params
    naxes, bb = p[NAXES], p[BB]
    base = player * p[PW] + p[TB]
    at = p[CELL_AT] + pos
    word = s[at]
    multi = ((word >> (base + a * bb)) & ((np.int64(1) << bb) - 1)) >= 2 and two_mates(t, s, player, pos, a)
    bit = np.int64(1) << (base + naxes * bb + a)
    if multi != ((word & bit) != 0):
        word ^= bit
        s[p[NMULTI_AT] + player * naxes + a] += 1 if multi else -1
    lines = 0
    multis = False
    for b in range(naxes):
        if (word >> (base + b * bb)) & ((np.int64(1) << bb) - 1):
            lines += 1
        if (word >> (base + naxes * bb + b)) & 1:
            multis = True
    fork = lines >= 2 or multis
    bit = np.int64(1) << (base + naxes * (bb + 1))
    if fork != ((word & bit) != 0):
        word ^= bit
        s[p[NFORK_AT] + player] += 1 if fork else -1
        mark_gap(t, s, FORK_CELLS, player, pos, fork)
    mark_gap(t, s, BUILD_CELLS, player, pos, lines > 0)
    s[at] = word


@njit(cache=True)
def mark_near(t, s, pos):
    """The cells within the bots' ``candidate_radius`` of a stone on ``pos`` marked near."""
    p = t.params
    row = p[AROUND] + pos
    for i in range((p[P_SIZE] + 63) >> 6):
        s[p[NEAR_AT] + i] |= t.extra[row, i]


@njit(cache=True)
def tally_add(t, s, pos, me):
    """The tally of ``s`` (its cells already holding the stone ``me`` put on ``pos``) brought
    up to date: the windows through ``pos`` move from one class to another, and the gaps
    they leave or make change their counts (``pos``'s own word is cleared)."""
    p = t.params
    k, naxes, pw, tb, bb = p[K], p[NAXES], p[PW], p[TB], p[BB]
    x = t.extra
    row = p[THROUGH] + pos
    add = np.int64(1) << (HALF * me)
    for i in range(x[row, 0]):
        w = x[row, 1 + i]
        s[p[WORDS_AT] + (w >> 3)] += add << ((w & 7) * WINDOW_BITS)
    at = p[CELL_AT] + pos
    word = s[at]
    for player in range(2):  # the cell is no gap any more
        base = player * pw
        if (word >> base) & ((np.int64(1) << tb) - 1):
            s[p[NTHREAT_AT] + player] -= 1
        for a in range(naxes):
            if (word >> (base + tb + naxes * bb + a)) & 1:
                s[p[NMULTI_AT] + player * naxes + a] -= 1
        if (word >> (base + tb + naxes * (bb + 1))) & 1:
            s[p[NFORK_AT] + player] -= 1
        for kind in range(3):
            mark_gap(t, s, kind, player, pos, False)
    s[at] = 0
    for i in range(x[row, 0]):
        w = x[row, 1 + i]
        wrow = p[WINDOWS] + w
        a = x[wrow, k]
        n0, n1 = window_stones(t, s, w)
        po, co = window_class(k, n0 - 1, n1) if me == 0 else window_class(k, n0, n1 - 1)
        pn, cn = window_class(k, n0, n1)
        if po >= 0:
            s[p[COUNTS_AT] + po * (k + 1) + co] -= 1
        if pn >= 0:
            s[p[COUNTS_AT] + pn * (k + 1) + cn] += 1
        low, high = p[LOW], p[LOW] + p[NREACH]
        old_reach = po >= 0 and low <= co < high
        new_reach = pn >= 0 and low <= cn < high
        if old_reach or new_reach:  # the gaps left are in one window less or more of these
            change = np.int64(0)
            if old_reach:
                change -= np.int64(1) << (po * pw + reach_shift(t, co))
            if new_reach:
                change += np.int64(1) << (pn * pw + reach_shift(t, cn))
            for j in range(k):
                q = x[wrow, j]
                if s[S_CELLS + q] == 0:
                    s[p[CELL_AT] + q] += change
        if po >= 0 and co == k - 2:  # its other gap is a build cell less
            q = other_gap(t, s, w, pos)
            s[p[CELL_AT] + q] -= np.int64(1) << (po * pw + tb + a * bb)
            refresh(t, s, po, q, a)
        if pn >= 0 and (cn == k - 1 or cn == k - 2):
            for j in range(k):
                q = x[wrow, j]
                if s[S_CELLS + q] != 0:
                    continue
                if cn == k - 1:  # its gap becomes a threat cell
                    if threat_count(t, s, pn, q) == 0:
                        s[p[NTHREAT_AT] + pn] += 1
                        mark_gap(t, s, THREAT_CELLS, pn, q, True)
                    s[p[CELL_AT] + q] += np.int64(1) << (pn * pw)
                else:  # its gaps become build cells
                    s[p[CELL_AT] + q] += np.int64(1) << (pn * pw + tb + a * bb)
                    refresh(t, s, pn, q, a)


@njit(cache=True)
def gen(t, s, hist, nhist, moves):
    p = t.params
    if s[p[P_FLAGS]] != 0:
        return 0
    if p[BITS]:
        return gen_bits(t, s, moves)
    n = 0
    if p[GRAVITY]:
        columns = t.extra
        for c in range(p[COLUMNS], p[COLUMNS] + p[NCOLUMNS]):
            for i in range(columns.shape[1]):
                pos = columns[c, i]
                if pos < 0:
                    break
                if s[S_CELLS + pos] == 0:
                    moves[n, 0] = pos
                    n += 1
                    break
    else:
        for pos in range(p[P_SIZE]):
            if s[S_CELLS + pos] == 0:
                moves[n, 0] = pos
                n += 1
    if p[NOPENING] or p[FORBID]:
        n = restrict_moves(t, s, moves, n)
    return n


@njit(cache=True)
def restrict_moves(t, s, moves, n):
    """``moves[:n]`` less those the opening rule or the first player's forbidden points
    exclude; their count."""
    p = t.params
    placed = 0
    for pos in range(p[P_SIZE]):
        if s[S_CELLS + pos] != 0:
            placed += 1
    zone = OPENING + placed if placed < p[NOPENING] else -1
    board = pattern_board(t, s) if p[FORBID] and s[S_TO_MOVE] == 0 else np.zeros(0, np.int64)
    suspects = all_suspects(t, board) if board.shape[0] else board
    kept = 0
    for i in range(n):
        pos = moves[i, 0]
        if zone >= 0 and not t.zones[zone, pos]:
            continue
        if board.shape[0] and suspects[pos] and judge(t, board, pos) != 0:
            continue
        moves[kept, 0] = pos
        kept += 1
    return kept


@njit(cache=True)
def completes(t, s, pos, stone, exact):
    """Whether the stone on ``pos`` lies in a winning row."""
    k = t.params[K]
    links = t.links
    for a in range(t.rules.shape[0]):
        run = 1
        for side in range(2):
            d = t.rules[a, side]
            if d < 0:
                continue
            q = links[d, pos]
            while q >= 0 and s[S_CELLS + q] == stone:
                run += 1
                q = links[d, q]
        if run == k or (run > k and not exact):
            return True
    return False


@njit(cache=True)
def play(t, s, m, dst):
    p = t.params
    if p[BITS]:  # the facts are left to work out
        facts = p[FACTS_AT]
        for i in range(facts):
            dst[i] = s[i]
        for i in range(facts, s.shape[0]):
            dst[i] = 0
    else:
        for i in range(s.shape[0]):  # a loop: numba's slice assignment costs several times more
            dst[i] = s[i]
    me = s[S_TO_MOVE]
    pos = m[0]
    stone = p[STONE + me]
    dst[S_CELLS + pos] = stone
    key = child_key(t, s, m)
    if p[BITS] and not p[EXACT + me]:
        won = makes_row_bits(t, np.uint64(s[p[BITS_AT] + me]) | np.uint64(1) << np.uint64(bit_of(t, pos)),
                             bit_of(t, pos))
    else:
        won = completes(t, dst, pos, stone, p[EXACT + me])
    if won:
        flag = p[P_FLAGS]
        key ^= flag_key(p, 0, s[flag]) ^ flag_key(p, 0, me + 1)
        dst[flag] = me + 1
    dst[S_TO_MOVE] = 1 - me
    dst[S_KEY] = key
    dst[p[STONES_AT]] += 1
    if p[BITS]:
        dst[p[BITS_AT] + me] |= np.int64(1) << bit_of(t, pos)
    elif p[NWINDOWS]:
        tally_add(t, dst, pos, me)
    if p[AROUND] >= 0:
        mark_near(t, dst, pos)
    return IRREVERSIBLE


@njit(cache=True)
def child_key(t, s, m):
    """The key after move ``m`` (where it completes no row: a win sets a flag too)."""
    me = s[S_TO_MOVE]
    return (s[S_KEY] ^ t.zobrist[m[0] * t.params[P_VALUES] + t.params[STONE + me]]
            ^ t.side[me] ^ t.side[1 - me])


@njit(cache=True)
def move_hash(t, s, m):
    """``rules.actions_hash`` of the move's one action (:func:`actions`), without listing it."""
    pos = np.uint64(m[0] + 1)
    word = (np.uint64(DROP) | (pos << np.uint64(8)) | (pos << np.uint64(24))
            | (np.uint64(t.params[STONE + s[S_TO_MOVE]] + 1) << np.uint64(40)))
    h = np.int64(mix64(np.uint64(1) ^ word))
    return h if h != 0 else np.int64(1)


@njit(cache=True)
def actions(t, s, m, out):
    out[0, 0] = DROP
    out[0, 1] = m[0]
    out[0, 2] = m[0]
    out[0, 3] = t.params[STONE + s[S_TO_MOVE]]
    out[0, 4] = 0
    return 1


@njit(cache=True)
def outcome(t, s, hist, nhist, nlegal):
    p = t.params
    flag = s[p[P_FLAGS]]
    if flag:
        return 1 << (flag - 1)
    if s[p[STONES_AT]] < p[P_SIZE]:
        return -1
    return 3


# -- bit-set boards: the facts worked out from the stones' bits, for the whole board at once ---

@njit(cache=True)
def bit_of(t, pos):
    """The bit of cell ``pos`` (:func:`bit_layout`)."""
    return t.zones[t.params[BIT_ROW], pos]


@njit(cache=True)
def rebuild_bits(t, s):
    """The bits of each player's stones worked out from the cells, the facts left to work out."""
    p = t.params
    at = p[BITS_AT]
    s[at] = 0
    s[at + 1] = 0
    for pos in range(p[P_SIZE]):
        v = s[S_CELLS + pos]
        if v == p[STONE]:
            s[at] |= np.int64(1) << bit_of(t, pos)
        elif v == p[STONE + 1]:
            s[at + 1] |= np.int64(1) << bit_of(t, pos)
    for i in range(p[FACTS_AT], p[P_WIDTH]):
        s[i] = 0


@njit(cache=True)
def player_facts(k, nreach, player):
    """Where ``player``'s facts start, counted from the facts' first word (rows of ``k``,
    ``nreach`` counts of windows that move ordering reads)."""
    return 2 + player * (F_COUNTS + k + 1 + 2 * nreach)


@njit(cache=True, inline="always")  # (a call LLVM leaves uninlined costs more than reading the word)
def facts_at(t, s):
    """Where the facts of ``s`` start, worked out first where ``play`` left them to work out."""
    at = t.params[FACTS_AT]
    if s[at] == 0:
        work_out_facts(t, s)
    return at


@njit(cache=True, inline="always")  # (inlined: a function calling another pays for its arrays' references)
def work_out_facts(t, s):
    """From the stones' bits, what the tally keeps (:func:`rebuild`) for the whole board at
    once: the cells where a stone lands now (word 1), and per player (:data:`F_THREAT` ..)
    the gaps of their pure windows of ``k - 1`` stones (threat cells, in one window and in
    two or more), of ``k - 2`` stones (build cells; fork cells: build cells along two axes,
    or along one with two different other gaps; and the fork lines, the axes with such a
    cell of the second kind), their pure windows by stones, and per stone count ``LOW`` ..
    ``k - 3`` the cells in one such window and in two or more.  A window is summed in three
    bits per window (its lowest cell's bit), all windows of an axis at once."""
    if t.params[K] == 4:  # (a constant row length: its loops unrolled)
        facts_of_rows(t, s, 4)
    else:
        facts_of_rows(t, s, t.params[K])


@njit(cache=True, inline="always")
def facts_of_rows(t, s, k):
    """:func:`work_out_facts` for rows of ``k``."""
    p = t.params
    low, nreach = p[LOW], p[NREACH]
    at = p[FACTS_AT]
    board = np.uint64(p[BOARD])
    stones0 = np.uint64(s[p[BITS_AT]])
    stones1 = np.uint64(s[p[BITS_AT] + 1])
    empty = board & ~(stones0 | stones1)
    s[at + 1] = np.int64(((stones0 | stones1) + np.uint64(p[BOTTOM])) & board)  # a carry up each column
    zero = np.uint64(0)
    for player in range(2):
        own = stones0 if player == 0 else stones1
        opp = stones1 if player == 0 else stones0
        base = at + player_facts(t.params[K], t.params[NREACH], player)
        reach = base + F_COUNTS + k + 1
        for i in range(base + F_COUNTS, reach + 2 * nreach):
            s[i] = 0
        threat, threat2, build, build2, multi, lines = zero, zero, zero, zero, zero, 0
        for a in range(p[NAXES]):
            step = np.uint64(t.rules[a, 2])
            free = np.uint64(t.rules[a, 3])
            s0, s1, s2 = zero, zero, zero
            for j in range(k):  # per window: none of the opponent's stones, and its own summed
                shift = step * np.uint64(j)
                free &= ~(opp >> shift)
                b = own >> shift
                c0 = s0 & b
                s0 ^= b
                c1 = s1 & c0
                s1 ^= c0
                s2 ^= c1
            for c in range(1, k):
                m = free & (s0 if c & 1 else ~s0) & (s1 if c & 2 else ~s1) & (s2 if c & 4 else ~s2)
                if m == zero:
                    continue
                s[base + F_COUNTS + c] += popcount(m)
                if c == k - 1:  # the gap of each: a threat cell
                    for j in range(k):
                        shift = step * np.uint64(j)
                        g = (m & (empty >> shift)) << shift
                        threat2 |= threat & g
                        threat |= g
                elif c == k - 2:  # the two gaps of each: build cells, told apart by the other gap's offset
                    once, twice = zero, zero
                    for d in range(1, k):
                        further, back = zero, zero
                        for j in range(k - d):
                            lo, hi = step * np.uint64(j), step * np.uint64(j + d)
                            pair = m & (empty >> lo) & (empty >> hi)
                            further |= pair << lo  # cells whose other gap is ``d`` steps on
                            back |= pair << hi     # ... ``d`` steps back
                        twice |= once & further
                        once |= further
                        twice |= once & back
                        once |= back
                    build2 |= build & once
                    build |= once
                    multi |= twice
                    if twice != zero:
                        lines += 1
                elif low <= c < low + nreach:  # every cell of each
                    r = reach + 2 * (c - low)
                    once, twice = np.uint64(s[r]), np.uint64(s[r + 1])
                    for j in range(k):
                        g = m << (step * np.uint64(j))
                        twice |= once & g
                        once |= g
                    s[r] = np.int64(once)
                    s[r + 1] = np.int64(twice)
        s[base + F_THREAT] = np.int64(threat)
        s[base + F_THREAT2] = np.int64(threat2)
        s[base + F_BUILD] = np.int64(build)
        s[base + F_FORK] = np.int64(build2 | multi)
        s[base + F_LINES] = lines
    s[at] = 1


@njit(cache=True)
def makes_row_bits(t, own, b):
    """Whether the stones ``own`` hold a window through bit ``b`` whole (at least ``k`` in a row)."""
    if t.params[K] == 4:  # (a constant row length: its loops unrolled)
        return rows_through(t, own, b, 4)
    return rows_through(t, own, b, t.params[K])


@njit(cache=True, inline="always")
def rows_through(t, own, b, k):
    """:func:`makes_row_bits` for rows of ``k``."""
    bit = np.uint64(1) << np.uint64(b)
    for a in range(t.params[NAXES]):
        step = np.uint64(t.rules[a, 2])
        whole = np.uint64(t.rules[a, 3])
        through = np.uint64(0)
        for j in range(k):
            shift = step * np.uint64(j)
            whole &= own >> shift
            through |= bit >> shift
        if whole & through:
            return True
    return False


@njit(cache=True)
def gen_bits(t, s, moves):
    """:func:`gen` on bit sets: per column, in order, its landing cell."""
    p = t.params
    board = np.uint64(p[BOARD])
    landing = ((np.uint64(s[p[BITS_AT]]) | np.uint64(s[p[BITS_AT] + 1])) + np.uint64(p[BOTTOM])) & board
    stride = np.uint64(p[STRIDE])
    column = (np.uint64(1) << stride) - np.uint64(1)
    n = 0
    for c in range(p[NCOLUMNS]):
        bits = (landing >> (stride * np.uint64(c))) & column
        if bits:
            moves[n, 0] = t.extra[p[COLUMNS] + c, lowest(bits)]
            n += 1
    return n


@njit(cache=True)
def above(board, stride, cells):
    """The bits of the cells anywhere above one of ``cells`` in its column
    (:meth:`GravityDrops.above`) on a board of ``stride`` bits a column: a fill up the
    columns in doubling steps, each kept to the steps whose cells are all on the board (so
    never into the next column)."""
    found = (cells << np.uint64(1)) & board
    through = board
    shift = np.uint64(1)
    reach = 1
    while reach < stride - 2:  # the highest cell lies ``stride - 2`` steps above the lowest
        found |= through & (found << shift)
        through &= through << shift
        reach += int(shift)
        shift <<= np.uint64(1)
    return found


@njit(cache=True)
def evaluate_bits(t, s):
    """:func:`evaluate` on bit sets."""
    p = t.params
    k = p[K]
    wt = t.weights
    at = facts_at(t, s)
    me = s[S_TO_MOVE]
    other = 1 - me
    mine, theirs = player_facts(t.params[K], t.params[NREACH], me), player_facts(t.params[K], t.params[NREACH], other)
    score = np.int64(0)
    for c in range(k + 1):
        score += (np.int64(wt[MOVER, c]) * s[at + mine + F_COUNTS + c]
                  - np.int64(wt[WAITER, c]) * s[at + theirs + F_COUNTS + c])
    single = wt[SINGLE]
    landing = np.uint64(s[at + 1])
    my_threats, their_threats = np.uint64(s[at + mine + F_THREAT]), np.uint64(s[at + theirs + F_THREAT])
    if my_threats & landing:
        return float(score + np.int64(single[W_WIN_NOW]))
    theirs_now = popcount(their_threats & landing)
    if theirs_now >= 2:
        return float(score - np.int64(single[W_WIN_NOW]))
    fork, double_fork = np.int64(single[W_FORK]), np.int64(single[W_DOUBLE_FORK])
    if theirs_now == 0 and fork != 0 and np.uint64(s[at + mine + F_FORK]) & landing:
        score += fork
    elif double_fork != 0 and theirs_now == 0 and s[at + theirs + F_LINES] >= 2:
        score -= double_fork
    # the threat cells that wait, but not above one of the other player's
    board, stride = np.uint64(p[BOARD]), p[STRIDE]
    mine_later = my_threats & ~landing & ~above(board, stride, their_threats)
    theirs_later = their_threats & ~landing & ~above(board, stride, my_threats)
    one = np.uint64(1)
    score += np.int64(single[W_STACKED]) * (popcount((mine_later << one) & mine_later)
                                            - popcount((theirs_later << one) & theirs_later))
    score += np.int64(single[W_THREAT]) * (popcount(mine_later) - popcount(theirs_later))
    score += np.int64(single[W_STRONG]) * (popcount(mine_later & np.uint64(p[STRONG_BITS + me]))
                                           - popcount(theirs_later & np.uint64(p[STRONG_BITS + other])))
    return float(score)


@njit(cache=True)
def order_moves(t, s, moves, n, out):
    """:func:`order` of each of the ``n`` ``moves`` into ``out`` (on bit sets, without a
    call per move)."""
    if t.params[BITS]:
        order_moves_bits(t, s, moves, n, out)
    else:
        for i in range(n):
            out[i] = order(t, s, moves[i])


@njit(cache=True)
def order_moves_bits(t, s, moves, n, out):
    """:func:`order_moves` on bit sets."""
    if t.params[K] == 4:  # (a constant row length: its loops unrolled)
        order_loop(t, s, moves, n, out, 4)
    else:
        order_loop(t, s, moves, n, out, t.params[K])


@njit(cache=True, inline="always")
def order_loop(t, s, moves, n, out, k):
    """:func:`order_moves_bits` for rows of ``k``: :func:`order` of each move, in a loop
    that calls nothing (numba counts references to the arrays a function takes on each
    call, even inlined)."""
    p = t.params
    low = p[LOW]
    wt = t.weights
    at = facts_at(t, s)
    me = s[S_TO_MOVE]
    words = F_COUNTS + k + 1 + 2 * p[NREACH]
    mine, theirs = at + 2 + me * words, at + 2 + (1 - me) * words
    central = np.int64(wt[SINGLE, W_CENTRAL])
    bits, through = t.zones[p[BIT_ROW]], t.extra[p[THROUGH]:, 0]
    above_theirs, above_mine = np.int64(wt[BLOCK_ONCE, k - 1]), np.int64(wt[BLOCK_ONCE, k - 2])
    for i in range(n):
        pos = moves[i, 0]
        b = bits[pos]
        value = central * through[pos]
        for side in range(2):
            base = mine if side == 0 else theirs
            once_row = BUILD_ONCE if side == 0 else BLOCK_ONCE
            twice_row = BUILD_TWICE if side == 0 else BLOCK_TWICE
            for c in range(low, k):
                if c == k - 1:
                    r = F_THREAT
                elif c == k - 2:
                    r = F_BUILD
                else:
                    r = F_COUNTS + k + 1 + 2 * (c - low)
                if (s[base + r] >> b) & 1:
                    value += np.int64(wt[once_row, c])
                    if (s[base + r + 1] >> b) & 1:
                        value += np.int64(wt[twice_row, c])
        if (s[at + 1] >> b) & 1 and (p[BOARD] >> (b + 1)) & 1:
            if (s[theirs + F_THREAT] >> (b + 1)) & 1:
                value -= above_theirs
            elif (s[mine + F_THREAT] >> (b + 1)) & 1:
                value -= above_mine
        out[i] = float(value)


@njit(cache=True)
def order_bits(t, s, m):
    """:func:`order` on bit sets (of one move: :func:`order_moves_bits`)."""
    out = np.empty(1, np.float64)
    order_moves_bits(t, s, m.reshape(1, m.shape[0]), 1, out)
    return out[0]


@njit(cache=True)
def keep_bits(t, s, moves, n, cells):
    """``moves[:n]`` less those whose cell's bit is not in ``cells`` (order kept); their count."""
    kept = 0
    one = np.uint64(1)
    bits = t.zones[t.params[BIT_ROW]]
    for i in range(n):
        pos = moves[i, 0]
        if cells >> np.uint64(bits[pos]) & one:
            moves[kept, 0] = pos
            kept += 1
    return kept


@njit(cache=True)
def candidates_bits(t, s, moves, n):
    """:func:`candidates` on bit sets (gravity: no forks, no ``candidate_radius``)."""
    p = t.params
    at = facts_at(t, s)
    me = s[S_TO_MOVE]
    landing = np.uint64(s[at + 1])
    for player in (me, 1 - me):
        cells = np.uint64(s[at + player_facts(t.params[K], t.params[NREACH], player) + F_THREAT]) & landing
        if cells == 0:
            continue
        exact = p[EXACT + player]
        bits = t.zones[p[BIT_ROW]]
        kept = 0
        for i in range(n):  # (a threat cell makes a row: at least ``k``, or exactly with ``exact``)
            pos = moves[i, 0]
            if cells >> np.uint64(bits[pos]) & np.uint64(1) and (
                    not exact or completes(t, s, pos, p[STONE + player], exact)):
                moves[kept, 0] = pos
                kept += 1
        if kept:
            return kept
    return n


@njit(cache=True)
def playable_facts_bits(t, s):
    """:func:`playable_facts` on bit sets."""
    at = facts_at(t, s)
    me = s[S_TO_MOVE]
    mine, theirs = player_facts(t.params[K], t.params[NREACH], me), player_facts(t.params[K], t.params[NREACH], 1 - me)
    landing = np.uint64(s[at + 1])
    return ((np.uint64(s[at + mine + F_THREAT]) & landing) != 0, popcount(np.uint64(s[at + theirs + F_THREAT]) & landing),
            (np.uint64(s[at + mine + F_FORK]) & landing) != 0, (np.uint64(s[at + theirs + F_FORK]) & landing) != 0)


@njit(cache=True)
def keep_threats_bits(t, s, moves, n, theirs):
    """:func:`keep_threats` on bit sets."""
    at = facts_at(t, s)
    me = s[S_TO_MOVE]
    mine, other = player_facts(t.params[K], t.params[NREACH], me), player_facts(t.params[K], t.params[NREACH], 1 - me)
    if theirs:
        cells = np.uint64(s[at + other + F_THREAT])
    elif np.uint64(s[at + other + F_FORK]):
        cells = np.uint64(s[at + mine + F_BUILD]) | np.uint64(s[at + other + F_BUILD])
    else:
        cells = np.uint64(s[at + mine + F_BUILD])
    return keep_bits(t, s, moves, n, cells & np.uint64(s[at + 1]))


# -- forbidden points (renju) -------------------------------------------------------------------

@njit(cache=True)
def pattern_board(t, s):
    """The cells as pattern values for the first player's stones (``OWN``)."""
    size = t.params[P_SIZE]
    own = t.params[STONE]
    board = np.empty(size, np.int64)
    for pos in range(size):
        v = s[S_CELLS + pos]
        board[pos] = EMPTY if v == 0 else OWN if v == own else OTHER
    return board


@njit(cache=True)
def run_of(cells, at):
    """The first and last index of the unbroken run of ``OWN`` through ``at``."""
    lo = at
    while lo > 0 and cells[lo - 1] == OWN:
        lo -= 1
    hi = at
    while hi < cells.shape[0] - 1 and cells[hi + 1] == OWN:
        hi += 1
    return lo, hi


@njit(cache=True)
def line_facts(pattern, length, threes):
    """:func:`~myriad.core.mechanics.forbidden.line_facts`: what a stone on the middle cell
    of ``pattern`` (``2 * length + 1`` values) makes along its line -- a five, an overline,
    how many fours -- and the number of its three points, written into ``threes`` as
    offsets from the middle."""
    cells = pattern.copy()
    n = cells.shape[0]
    mid = length
    cells[mid] = OWN
    lo, hi = run_of(cells, mid)
    if hi - lo + 1 == length:
        return True, False, 0, 0
    if hi - lo + 1 > length:
        return False, True, 0, 0
    fives = np.zeros(n, np.bool_)
    count = 0
    for q in range(n):
        if cells[q] != EMPTY:
            continue
        cells[q] = OWN
        a, b = run_of(cells, q)
        if b - a + 1 == length and a <= mid <= b:
            fives[q] = True
            count += 1
        cells[q] = EMPTY
    fours = count
    for q in range(n - length):
        if fives[q] and fives[q + length]:
            fours -= 1  # a straight four: one four
    if fours:
        return False, False, fours, 0
    nthrees = 0
    for q in range(n):
        if cells[q] != EMPTY:
            continue
        cells[q] = OWN
        a, b = run_of(cells, mid)
        if (b - a + 1 == length - 1 and a <= q <= b and a >= 2 and b <= n - 3
                and cells[a - 1] == EMPTY and cells[b + 1] == EMPTY
                and cells[a - 2] != OWN and cells[b + 2] != OWN):
            threes[nthrees] = q - mid
            nthrees += 1
        cells[q] = EMPTY
    return False, False, 0, nthrees


@njit(cache=True)
def span_pattern(t, board, pos, axis, pattern):
    """The pattern of the span of ``pos`` along ``axis`` into ``pattern``."""
    p = t.params
    row = p[SPANS] + pos * p[FAXES] + axis
    for i in range(pattern.shape[0]):
        q = t.extra[row, i]
        pattern[i] = EDGE if q < 0 else board[q]


@njit(cache=True)
def makes_five(t, board, pos):
    """Whether a stone on ``pos`` makes a five (exactly the row length) along some line."""
    p = t.params
    length = p[FLENGTH]
    pattern = np.empty(2 * length + 1, np.int64)
    for axis in range(p[FAXES]):
        span_pattern(t, board, pos, axis, pattern)
        pattern[length] = OWN
        lo, hi = run_of(pattern, length)
        if hi - lo + 1 == length:
            return True
    return False


@njit(cache=True)
def judge(t, board, pos):
    """Why a stone on the empty ``pos`` is forbidden (``OVERLINE``, ``DOUBLE_FOUR``,
    ``DOUBLE_THREE``), 0 when it is allowed (:meth:`ForbiddenPoints.verdict`); a three
    counts when one of its points makes a straight four with a stone that is itself
    allowed and makes no five."""
    p = t.params
    length = p[FLENGTH]
    naxes = p[FAXES]
    rules = p[FORBID]
    width = 2 * length + 1
    pattern = np.empty(width, np.int64)
    threes = np.zeros((naxes, width), np.int64)
    nthrees = np.zeros(naxes, np.int64)
    overline = False
    fours = 0
    lines = 0
    for axis in range(naxes):
        span_pattern(t, board, pos, axis, pattern)
        five, over, nfours, n = line_facts(pattern, length, threes[axis])
        if five:
            return 0
        overline = overline or over
        fours += nfours
        nthrees[axis] = n
        if n:
            lines += 1
    if rules & OVERLINE and overline:
        return OVERLINE
    if rules & DOUBLE_FOUR and fours >= 2:
        return DOUBLE_FOUR
    if rules & DOUBLE_THREE and lines >= 2:
        after = board.copy()
        after[pos] = OWN
        real = 0
        for axis in range(naxes):
            row = p[SPANS] + pos * naxes + axis
            for i in range(nthrees[axis]):
                q = t.extra[row, length + threes[axis, i]]
                if not makes_five(t, after, q) and judge(t, after, q) == 0:
                    real += 1
                    break
            if real == 2:
                return DOUBLE_THREE
    return 0


@njit(cache=True)
def suspect(t, board, pos):
    """:meth:`ForbiddenPoints.suspects` at one cell: three own stones within ``length - 1``
    steps along one line, or two within ``length - 2`` steps along each of two lines."""
    p = t.params
    length = p[FLENGTH]
    naxes = p[FAXES]
    close = 0
    for axis in range(naxes):
        row = p[SPANS] + pos * naxes + axis
        near = 0
        closer = 0
        for step in range(1, length):
            for q in (t.extra[row, length - step], t.extra[row, length + step]):
                if q >= 0 and board[q] == OWN:
                    near += 1
                    if step <= length - 2:
                        closer += 1
        if near >= 3:
            return True
        if closer >= 2:
            close += 1
    return close >= 2


@njit(cache=True)
def all_suspects(t, board):
    """:func:`suspect` of every cell (1 or 0), counted from the own stones outwards."""
    p = t.params
    size = p[P_SIZE]
    length = p[FLENGTH]
    naxes = p[FAXES]
    near = np.zeros((naxes, size), np.int64)
    close = np.zeros((naxes, size), np.int64)
    for stone in range(size):
        if board[stone] != OWN:
            continue
        for axis in range(naxes):
            row = p[SPANS] + stone * naxes + axis
            for step in range(1, length):
                for q in (t.extra[row, length - step], t.extra[row, length + step]):
                    if q >= 0:
                        near[axis, q] += 1
                        if step <= length - 2:
                            close[axis, q] += 1
    found = np.zeros(size, np.int64)
    for pos in range(size):
        lines = 0
        for axis in range(naxes):
            if near[axis, pos] >= 3:
                found[pos] = 1
                break
            if close[axis, pos] >= 2:
                lines += 1
        if lines >= 2:
            found[pos] = 1
    return found


@njit(cache=True)
def forbidden_at(t, board, pos):
    """Whether the empty ``pos`` is a forbidden point of the first player."""
    return suspect(t, board, pos) and judge(t, board, pos) != 0


# -- the bots' knowledge: windows ------------------------------------------------------------

@njit(cache=True)
def playable(t, s, pos):
    """Whether a stone may go on ``pos`` (:meth:`GravityDrops.playable`: an empty cell on
    the bottom or above an occupied one; any empty cell without gravity)."""
    if s[S_CELLS + pos] != 0:
        return False
    down = t.params[DOWN]
    if not t.params[GRAVITY] or down < 0:
        return True
    below = t.links[down, pos]
    return below < 0 or s[S_CELLS + below] != 0


@njit(cache=True)
def window_stones(t, s, w):
    """The stones of each player in window ``w``."""
    v = (s[t.params[WORDS_AT] + (w >> 3)] >> ((w & 7) * WINDOW_BITS)) & ((1 << WINDOW_BITS) - 1)
    return v & ((1 << HALF) - 1), v >> HALF


@njit(cache=True)
def other_gap(t, s, w, pos):
    """The empty cell of window ``w`` other than ``pos`` (a window with two gaps)."""
    row = t.params[WINDOWS] + w
    for i in range(t.params[K]):
        q = t.extra[row, i]
        if q != pos and s[S_CELLS + q] == 0:
            return q
    return -1


@njit(cache=True)
def scanned(t, s):
    """:meth:`LineWindows.scan` of ``s`` read from its tally: ``counts[p, c]`` the pure
    windows of player ``p`` with ``c`` stones (0 < c < k); per player the threat cells
    (``threats[p, pos]``: the gap of a pure window with one gap), the build cells
    (``builds``: a gap of one with two gaps), the fork cells (``forks``: gaps of two such
    windows along two axes, or along one axis with different other gaps) and the fork
    lines (axes with such a cell of the second kind)."""
    p = t.params
    size, k = p[P_SIZE], p[K]
    counts = np.zeros((2, k + 1), np.int64)
    threats = np.zeros((2, size), np.int64)
    builds = np.zeros((2, size), np.int64)
    forks = np.zeros((2, size), np.int64)
    lines = np.zeros(2, np.int64)
    for player in range(2):
        for c in range(k + 1):
            counts[player, c] = s[p[COUNTS_AT] + player * (k + 1) + c]
        for pos in range(size):
            threats[player, pos] = threat_count(t, s, player, pos) != 0
            builds[player, pos] = is_build(t, s, player, pos)
            forks[player, pos] = is_fork(t, s, player, pos)
        lines[player] = fork_lines(t, s, player)
    return counts, threats, builds, forks, lines


@njit(cache=True)
def restrict(t, s, threats, builds, forks):
    """The scan as the first player's forbidden points leave it (:meth:`InARow._restricted`):
    its threats only where a stone makes a winning row, its build and fork cells without
    its forbidden points."""
    p = t.params
    if not p[FORBID]:
        return
    board = pattern_board(t, s)
    stone, exact = p[STONE], p[EXACT]
    for pos in range(p[P_SIZE]):
        if threats[0, pos] and not completes(t, s, pos, stone, exact):
            threats[0, pos] = 0
        if builds[0, pos] and forbidden_at(t, board, pos):
            builds[0, pos] = 0
            forks[0, pos] = 0


@njit(cache=True)
def below_threat(t, s, pos, threats, player):
    """Whether a cell below ``pos`` in its column is a threat cell of ``player``
    (:meth:`GravityDrops.above`)."""
    down = t.params[DOWN]
    q = t.links[down, pos]
    while q >= 0:
        if threats[player, q]:
            return True
        q = t.links[down, q]
    return False


@njit(cache=True)
def evaluate(t, s):
    """:meth:`InARow.evaluate` (:meth:`WindowWeights.evaluate` of the window scan), read
    from the tally; with forbidden points, from :func:`scanned` arrays as
    :func:`restrict` leaves them."""
    p = t.params
    if p[NWINDOWS] == 0:
        return 0.0
    if p[BITS]:
        return evaluate_bits(t, s)
    if p[FORBID]:
        return evaluate_restricted(t, s)
    k = p[K]
    wt = t.weights
    me = s[S_TO_MOVE]
    other = 1 - me
    score = np.int64(0)
    at = p[COUNTS_AT]
    for c in range(k + 1):
        score += (np.int64(wt[MOVER, c]) * s[at + me * (k + 1) + c]
                  - np.int64(wt[WAITER, c]) * s[at + other * (k + 1) + c])
    single = wt[SINGLE]
    stacked, threat, strong = np.int64(single[W_STACKED]), np.int64(single[W_THREAT]), np.int64(single[W_STRONG])
    waiting = np.int64(0)  # no threat cell waits for the cell below it without gravity
    if p[GRAVITY] != 0 and p[DOWN] >= 0:
        mine_now, theirs_now, fork_now, _their_fork, waiting = gravity_walk(t, s, me, stacked, threat, strong)
    else:  # every threat and fork cell is empty, so playable
        mine_now = s[p[NTHREAT_AT] + me] > 0
        theirs_now = s[p[NTHREAT_AT] + other]
        fork_now = s[p[NFORK_AT] + me] > 0
    if mine_now:
        return float(score + np.int64(single[W_WIN_NOW]))
    if theirs_now >= 2:
        return float(score - np.int64(single[W_WIN_NOW]))
    fork, double_fork = np.int64(single[W_FORK]), np.int64(single[W_DOUBLE_FORK])
    if theirs_now == 0 and fork != 0 and fork_now:
        score += fork
    elif double_fork != 0 and theirs_now == 0 and fork_lines(t, s, other) >= 2:
        score -= double_fork
    return float(score + waiting)


@njit(cache=True)
def gravity_walk(t, s, me, stacked, threat, strong):
    """On gravity boards (:func:`tables` checks that the columns are linked both ways):
    whether the mover ``me`` has a playable threat cell, how many the opponent has, whether
    each has a playable fork cell, and the terms of the threat cells that wait (not
    playable yet, no threat cell of the other player's below them in their column):
    ``threat`` each, ``strong`` more on a strong cell, ``stacked`` more on one right above
    another of the same player's.  Only the cells of the threat and fork sets are visited."""
    mine, my_fork = False, False
    theirs, their_fork = 0, False
    score = np.int64(0)
    for side in range(2):
        player = me if side == 0 else 1 - me
        at, words = gap_words(t, FORK_CELLS, player)
        found = False
        for i in range(words):
            bits = np.uint64(s[at + i])
            while bits and not found:
                found = playable(t, s, (i << 6) + lowest(bits))
                bits &= bits - np.uint64(1)
        at, words = gap_words(t, THREAT_CELLS, player)
        count, waiting = 0, np.int64(0)
        for i in range(words):
            bits = np.uint64(s[at + i])
            while bits:
                pos = (i << 6) + lowest(bits)
                bits &= bits - np.uint64(1)
                if playable(t, s, pos):
                    count += 1
                else:
                    waiting += waiting_terms(t, s, player, pos, stacked, threat, strong)
        if side == 0:
            mine, my_fork, score = count > 0, found, score + waiting
        else:
            theirs, their_fork, score = count, found, score - waiting
    return mine, theirs, my_fork, their_fork, score


@njit(cache=True)
def waiting_terms(t, s, player, pos, stacked, threat, strong):
    """:func:`gravity_walk`'s terms of ``player``'s threat cell ``pos``, not playable:
    none when a threat cell of the other player's lies below it in its column, else
    ``threat``, ``strong`` on a strong cell, ``stacked`` when the cell right below is a
    threat cell of ``player``'s that waits too."""
    down = t.links[t.params[DOWN]]
    below = down[pos]
    q = below
    while q >= 0:
        if threat_count(t, s, 1 - player, q):
            return np.int64(0)
        q = down[q]
    terms = threat + strong * np.int64(t.zones[player, pos])
    if below >= 0 and threat_count(t, s, player, below) and not playable(t, s, below):
        terms += stacked
    return terms


@njit(cache=True)
def evaluate_restricted(t, s):
    """:func:`evaluate` where the first player has forbidden points."""
    p = t.params
    size, k = p[P_SIZE], p[K]
    counts, threats, builds, forks, lines = scanned(t, s)
    restrict(t, s, threats, builds, forks)
    wt = t.weights
    me = s[S_TO_MOVE]
    other = 1 - me
    if p[FORBID] and me == 0:
        # the opponent's threat on a forbidden point of the mover's cannot be blocked
        mine_now = False
        for pos in range(size):
            if threats[0, pos] and playable(t, s, pos):
                mine_now = True
        if not mine_now:
            board = pattern_board(t, s)
            for pos in range(size):
                if threats[1, pos] and playable(t, s, pos) and forbidden_at(t, board, pos):
                    return -float(wt[SINGLE, W_WIN_NOW])
    score = np.int64(0)
    for c in range(k + 1):
        score += np.int64(wt[MOVER, c]) * counts[me, c] - np.int64(wt[WAITER, c]) * counts[other, c]
    single = wt[SINGLE]
    mine_now = False
    theirs_now = 0
    fork_now = False
    for pos in range(size):
        if playable(t, s, pos):
            if threats[me, pos]:
                mine_now = True
            if threats[other, pos]:
                theirs_now += 1
            if forks[me, pos]:
                fork_now = True
    if mine_now:
        return float(score + np.int64(single[W_WIN_NOW]))
    if theirs_now >= 2:
        return float(score - np.int64(single[W_WIN_NOW]))
    fork, double_fork = np.int64(single[W_FORK]), np.int64(single[W_DOUBLE_FORK])
    if theirs_now == 0 and fork != 0 and fork_now:
        score += fork
    elif double_fork != 0 and theirs_now == 0 and lines[other] >= 2:
        score -= double_fork
    gravity = p[GRAVITY] != 0 and p[DOWN] >= 0
    later = np.zeros((2, size), np.int64)
    for player in range(2):
        for pos in range(size):
            if threats[player, pos] and not playable(t, s, pos):
                if gravity and below_threat(t, s, pos, threats, 1 - player):
                    continue
                later[player, pos] = 1
    stacked, threat, strong = np.int64(single[W_STACKED]), np.int64(single[W_THREAT]), np.int64(single[W_STRONG])
    if gravity and stacked != 0:
        down = p[DOWN]
        for pos in range(size):
            below = t.links[down, pos]
            if below >= 0:
                score += stacked * (later[me, pos] * later[me, below] - later[other, pos] * later[other, below])
    if threat != 0:
        for pos in range(size):
            score += threat * (later[me, pos] - later[other, pos])
    if strong != 0:
        for pos in range(size):
            score += strong * (later[me, pos] * t.zones[me, pos] - later[other, pos] * t.zones[other, pos])
    return float(score)


@njit(cache=True)
def reach_at(t, s, pos):
    """Per player ``p`` and stone count ``c`` (:meth:`LineWindows.reach` at one cell): how
    many pure windows of ``p`` with ``c`` stones pass through ``pos``, except that windows
    with two gaps count once per different other gap (2 standing for two or more)."""
    p = t.params
    row = p[THROUGH] + pos
    k = p[K]
    found = np.zeros((2, k + 1), np.int64)
    mates = np.full(2, -1, np.int64)
    for i in range(t.extra[row, 0]):
        w = t.extra[row, 1 + i]
        n0, n1 = window_stones(t, s, w)
        for player in range(2):
            mine, theirs = (n0, n1) if player == 0 else (n1, n0)
            if theirs:
                continue
            if mine == k - 2:
                gap = other_gap(t, s, w, pos)
                if mates[player] < 0:
                    mates[player] = gap
                    found[player, mine] = 1
                elif gap != mates[player]:
                    found[player, mine] = 2
            else:
                found[player, mine] += 1
    return found


@njit(cache=True)
def order(t, s, m):
    """:meth:`InARow.move_heuristic`: per stone count, what a stone on the cell builds of
    the mover's pure windows and blocks of the opponent's (``BUILD_*``, ``BLOCK_*``), plus
    ``central`` per window through it; with gravity, less a penalty when the cell above is
    a threat cell (the opponent's first)."""
    p = t.params
    pos = m[0]
    k = p[K]
    wt = t.weights
    me = s[S_TO_MOVE]
    value = np.int64(wt[SINGLE, W_CENTRAL]) * t.extra[p[THROUGH] + pos, 0]
    if p[NWINDOWS] == 0:
        return float(value)
    if p[BITS]:
        return order_bits(t, s, m)
    if p[FAST_ORDER]:  # the windows of fewer than ``LOW`` stones weigh nothing
        for player in range(2):
            once_row = BUILD_ONCE if player == me else BLOCK_ONCE
            twice_row = BUILD_TWICE if player == me else BLOCK_TWICE
            for c in range(p[LOW], k):
                if c == k - 1:
                    n = threat_count(t, s, player, pos)
                elif c == k - 2:  # two windows count only with different other gaps: a fork cell
                    n = 0 if not is_build(t, s, player, pos) else 2 if is_fork(t, s, player, pos) else 1
                else:
                    n = cell_field(t, s, player, pos, reach_shift(t, c), p[TB])
                if n >= 1:
                    value += np.int64(wt[once_row, c])
                if n >= 2:
                    value += np.int64(wt[twice_row, c])
    else:
        found = reach_at(t, s, pos)
        for player in range(2):
            once_row = BUILD_ONCE if player == me else BLOCK_ONCE
            twice_row = BUILD_TWICE if player == me else BLOCK_TWICE
            for c in range(k):
                once, twice = np.int64(wt[once_row, c]), np.int64(wt[twice_row, c])
                n = found[player, c]
                if n >= 1:
                    value += once
                if n >= 2:
                    value += twice
    if p[GRAVITY] and p[UP] >= 0 and playable(t, s, pos):
        up = t.links[p[UP], pos]
        if up >= 0:
            if s[S_CELLS + up] == 0:  # an empty cell above: the threats of its word (read here,
                # not in a helper: a compiled call that LLVM leaves uninlined costs far more)
                if threat_count(t, s, 1 - me, up):
                    value -= np.int64(wt[BLOCK_ONCE, k - 1])
                elif k >= 3 and threat_count(t, s, me, up):
                    value -= np.int64(wt[BLOCK_ONCE, k - 2])
    return float(value)


@njit(cache=True)
def noisy(t, s, m):
    """``InARow.is_noisy`` (the base Game's): a placement captures and promotes nothing.
    Quiescence searches the threats of :func:`noisy_moves` instead."""
    return False


@njit(cache=True)
def repetition(t, s):
    return 3  # positions never repeat: every placement adds a stone


@njit(cache=True)
def near_stone(t, s, pos):
    """Whether a stone lies within the bots' ``candidate_radius`` of ``pos``."""
    return (s[t.params[NEAR_AT] + (pos >> 6)] >> (pos & 63)) & 1 != 0


@njit(cache=True)
def keep(moves, n, cells):
    """``moves[:n]`` less those whose cell is not marked in ``cells`` (order kept); their count."""
    kept = 0
    for i in range(n):
        if cells[moves[i, 0]]:
            moves[kept, 0] = moves[i, 0]
            kept += 1
    return kept


@njit(cache=True)
def keep_near(t, s, moves, n):
    """``moves[:n]`` less those not near a stone (order kept); their count."""
    kept = 0
    for i in range(n):
        if near_stone(t, s, moves[i, 0]):
            moves[kept, 0] = moves[i, 0]
            kept += 1
    return kept


@njit(cache=True)
def candidates(t, s, moves, n):
    """:meth:`InARow.candidate_moves` (see :func:`candidates_restricted`), read from the
    tally."""
    p = t.params
    occupied = s[p[STONES_AT]] > 0
    radius = p[AROUND] >= 0
    if p[NWINDOWS] == 0 or n <= 1:
        if not radius or not occupied:
            return n
        return keep_near(t, s, moves, n)
    if p[BITS]:
        return candidates_bits(t, s, moves, n)
    if p[FORBID]:
        return candidates_restricted(t, s, moves, n)
    me = s[S_TO_MOVE]
    other = 1 - me
    gravity = p[GRAVITY] != 0
    for player in (me, other):
        if s[p[NTHREAT_AT] + player] == 0:
            continue
        stone, exact = p[STONE + player], p[EXACT + player]
        kept = 0
        for i in range(n):
            pos = moves[i, 0]
            if threat_count(t, s, player, pos) and playable(t, s, pos) and completes(t, s, pos, stone, exact):
                moves[kept, 0] = pos
                kept += 1
        if kept:
            return kept
    if not gravity:
        if s[p[NFORK_AT] + me]:
            kept = 0
            for i in range(n):
                pos = moves[i, 0]
                if is_fork(t, s, me, pos):
                    moves[kept, 0] = pos
                    kept += 1
            return kept
        if s[p[NFORK_AT] + other]:
            kept = 0
            for i in range(n):
                pos = moves[i, 0]
                if is_build(t, s, other, pos) or is_build(t, s, me, pos):
                    moves[kept, 0] = pos
                    kept += 1
            return kept
    if not radius or not occupied:
        return n
    return keep_near(t, s, moves, n)


@njit(cache=True)
def candidates_restricted(t, s, moves, n):
    """:meth:`InARow.candidate_moves`: among the legal ``moves[:n]`` (kept in order, first;
    their count returned), the moves that complete a row if any, else those that block the
    opponent's; else, without gravity, the mover's fork cells, or against the opponent's
    fork cells both players' build cells; else, with ``candidate_radius``, the cells near a
    stone; else all."""
    p = t.params
    size = p[P_SIZE]
    occupied = False
    for pos in range(size):
        if s[S_CELLS + pos] != 0:
            occupied = True
            break
    radius = p[AROUND] >= 0
    if p[NWINDOWS] == 0 or n <= 1:
        if not radius or not occupied:
            return n
        near = np.zeros(size, np.int64)
        for pos in range(size):
            near[pos] = near_stone(t, s, pos)
        return keep(moves, n, near)
    counts, threats, builds, forks, lines = scanned(t, s)
    restrict(t, s, threats, builds, forks)
    me = s[S_TO_MOVE]
    other = 1 - me
    cells = np.zeros(size, np.int64)
    for player in (me, other):
        found = False
        cells[:] = 0
        for pos in range(size):
            if threats[player, pos] and playable(t, s, pos) and completes(t, s, pos, p[STONE + player],
                                                                          p[EXACT + player]):
                cells[pos] = 1
                found = True
        if found:
            kept = keep(moves, n, cells)
            if kept:
                return kept
    if not p[GRAVITY]:
        for pos in range(size):
            cells[pos] = forks[me, pos]
        if cells.any():
            return keep(moves, n, cells)
        for pos in range(size):
            cells[pos] = forks[other, pos]
        if cells.any():
            for pos in range(size):
                cells[pos] = builds[other, pos] | builds[me, pos]
            return keep(moves, n, cells)
    if not radius or not occupied:
        return n
    for pos in range(size):
        cells[pos] = near_stone(t, s, pos)
    return keep(moves, n, cells)


@njit(cache=True)
def playable_facts(t, s):
    """Whether the mover has a playable threat cell, how many the opponent has, and
    whether each has a playable fork cell (read from the tally)."""
    p = t.params
    if p[BITS]:
        return playable_facts_bits(t, s)
    me = s[S_TO_MOVE]
    other = 1 - me
    if not p[GRAVITY] or p[DOWN] < 0:
        return (s[p[NTHREAT_AT] + me] > 0, s[p[NTHREAT_AT] + other], s[p[NFORK_AT] + me] > 0,
                s[p[NFORK_AT] + other] > 0)
    mine, theirs, my_fork, their_fork, _waiting = gravity_walk(t, s, me, 0, 0, 0)
    return mine, theirs, my_fork, their_fork


@njit(cache=True)
def stand_pat(t, s):
    """:meth:`InARow.may_stand_pat`: not against one playable threat of the opponent's,
    nor, without a threat or fork of the mover's, against an opponent's fork cell."""
    if t.params[NWINDOWS] == 0:
        return True
    if t.params[FORBID]:
        mine, theirs, my_fork, their_fork = playable_facts_restricted(t, s)
    else:
        mine, theirs, my_fork, their_fork = playable_facts(t, s)
    if mine or theirs >= 2:
        return True
    if theirs:
        return False
    return my_fork or not their_fork


@njit(cache=True)
def playable_facts_restricted(t, s):
    """:func:`playable_facts` where the first player has forbidden points (from a scan)."""
    counts, threats, builds, forks, lines = scanned(t, s)
    restrict(t, s, threats, builds, forks)
    me = s[S_TO_MOVE]
    other = 1 - me
    mine = False
    theirs = 0
    my_fork = False
    their_fork = False
    for pos in range(t.params[P_SIZE]):
        if playable(t, s, pos):
            if threats[me, pos]:
                mine = True
            if threats[other, pos]:
                theirs += 1
            if forks[me, pos]:
                my_fork = True
            if forks[other, pos]:
                their_fork = True
    return mine, theirs, my_fork, their_fork


@njit(cache=True)
def noisy_moves(t, s, hist, nhist, moves):
    """:meth:`InARow.noisy_moves` (see :func:`noisy_moves_restricted`) read from the tally:
    the early answers first, the legal moves generated only when some are kept."""
    p = t.params
    if p[NWINDOWS] == 0:
        return 0
    if p[FORBID]:
        return noisy_moves_restricted(t, s, hist, nhist, moves)
    mine, theirs, my_fork, their_fork = playable_facts(t, s)
    if mine or my_fork or theirs >= 2:
        return 0
    if moves_by_cell(t):
        return 0 if s[p[P_FLAGS]] != 0 else threat_moves(t, s, moves, theirs)
    return keep_threats(t, s, moves, gen(t, s, hist, nhist, moves), theirs)


@njit(cache=True)
def noisy_among(t, s, moves, n):
    """:func:`noisy_moves` taken from the ``n`` legal ``moves`` of ``s`` as :func:`gen`
    listed them (the quiescence of a node whose moves are known); -1 with forbidden
    points (their scan lists them)."""
    p = t.params
    if p[NWINDOWS] == 0:
        return 0
    if p[FORBID]:
        return -1
    mine, theirs, my_fork, their_fork = playable_facts(t, s)
    if mine or my_fork or theirs >= 2:
        return 0
    if moves_by_cell(t):
        return threat_moves(t, s, moves, theirs) if n > 0 else 0
    return keep_threats(t, s, moves, n, theirs)


@njit(cache=True)
def moves_by_cell(t):
    """Whether the legal moves are the empty cells, lowest first (no gravity, opening rule
    or forbidden points): then :func:`noisy_moves` lists the threat moves from the sets of
    gap cells, and a leaf of the search need not list the legal moves (``outcome`` does
    not count them)."""
    p = t.params
    return p[GRAVITY] == 0 and p[NOPENING] == 0 and p[FORBID] == 0 and p[NWINDOWS] > 0


@njit(cache=True)
def threat_moves(t, s, moves, theirs):
    """:func:`keep_threats` of every legal move where :func:`moves_by_cell`, read from the
    sets of gap cells (which hold empty cells only)."""
    me = s[S_TO_MOVE]
    other = 1 - me
    if theirs:
        return list_gaps(t, s, moves, THREAT_CELLS, other, -1, 0)
    if s[t.params[NFORK_AT] + other] > 0:
        return list_gaps(t, s, moves, BUILD_CELLS, me, BUILD_CELLS, other)
    return list_gaps(t, s, moves, BUILD_CELLS, me, -1, 0)


@njit(cache=True)
def keep_threats(t, s, moves, n, theirs):
    """``moves[:n]`` (in order, first; their count) less those :meth:`InARow.noisy_moves`
    leaves out when the mover cannot win at once: the block of the opponent's single
    playable threat (``theirs``), else against an opponent's fork cell both players'
    playable build cells, else the mover's."""
    if t.params[BITS]:
        return keep_threats_bits(t, s, moves, n, theirs)
    me = s[S_TO_MOVE]
    other = 1 - me
    their_forks = s[t.params[NFORK_AT] + other] > 0
    kept = 0
    for i in range(n):
        q = moves[i, 0]
        if theirs:
            c = threat_count(t, s, other, q) != 0
        elif their_forks:
            c = is_build(t, s, me, q) or is_build(t, s, other, q)
        else:
            c = is_build(t, s, me, q)
        if c and playable(t, s, q):
            moves[kept, 0] = q
            kept += 1
    return kept


@njit(cache=True)
def noisy_moves_restricted(t, s, hist, nhist, moves):
    """:meth:`InARow.noisy_moves` from one scan (``noisy`` asks it of one move): none when
    the mover can complete a row or fork, or the opponent has two threats; the block of
    the opponent's single threat; else, against an opponent's fork cell, both players'
    build cells; else the mover's; in position order."""
    n = gen(t, s, hist, nhist, moves)
    p = t.params
    if p[NWINDOWS] == 0 or n == 0:
        return 0
    counts, threats, builds, forks, lines = scanned(t, s)
    restrict(t, s, threats, builds, forks)
    me = s[S_TO_MOVE]
    other = 1 - me
    size = p[P_SIZE]
    theirs = 0
    their_forks = False
    for q in range(size):
        if forks[other, q]:
            their_forks = True
        if playable(t, s, q):
            if threats[me, q] or forks[me, q]:
                return 0
            if threats[other, q]:
                theirs += 1
    if theirs >= 2:
        return 0
    chosen = np.zeros(size, np.int64)
    board = pattern_board(t, s) if p[FORBID] and me == 0 else np.zeros(0, np.int64)
    for q in range(size):
        if theirs:
            c = threats[other, q]
        elif their_forks:
            c = builds[me, q] | builds[other, q]
        else:
            c = builds[me, q]
        if c and playable(t, s, q) and not (p[FORBID] and me == 0 and forbidden_at(t, board, q)):
            chosen[q] = 1
    return keep(moves, n, chosen)
