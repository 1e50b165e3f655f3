"""Kernel family: stones placed on empty cells (or dropped down a column), ``k`` in a row
wins -- tic-tac-toe, gomoku, Connect Four (:class:`myriad.games.inarow.InARow`).

Tables:

* ``rules[axis] = (direction, opposite)`` the board's lines;
* ``extra`` five tables stacked by rows, where ``params`` says (``COLUMNS``, ``WINDOWS``,
  ``THROUGH``, ``SPANS``, ``LINES`` and their counts): the cells of each column, bottom first, padded
  with -1 (gravity only); each window of ``k`` cells (:class:`LineWindows`, in its order),
  then its axis; per cell, the number of windows through it, then their indices; per cell
  and axis of the forbidden points, the ``2 * length + 1`` cells around it (-1 beyond the
  edge; renju only); the maximal lines holding a window: axis, length, cells;
* (more rows of ``extra``) per cell, how many cells lie within the bots'
  ``candidate_radius`` of it, then those cells (gomoku, renju);
* ``zones[player]`` the cells where that player's threats count as strong (Connect
  Four's odd and even rows); ``zones[OPENING + n]`` where the ``n``-th stone may go
  (renju's opening);
* ``weights`` the :class:`WindowWeights`: rows ``MOVER`` .. ``BLOCK_TWICE`` by stone count,
  then a row of the single weights (``W_WIN_NOW`` ..);
* ``params``: ``K``, ``GRAVITY``, per player ``EXACT`` (renju's Black wins with exactly
  ``k``) and ``STONE``, the directions up and down (gravity), which forbidden points
  (``FORBID``) and how many stones the opening rule places (``NOPENING``).

A move is one word: the cell.  The bots' knowledge is :meth:`InARow.evaluate`,
:meth:`InARow.move_heuristic` and :meth:`InARow.noisy_moves` worked out by walking the
windows (the reference's bit-set scans and line tallies answer the same): ``evaluate`` scans
the whole board, ``order`` reads only the windows through the move's cell (and the cell
above it), ``noisy_moves`` lists the quiescence moves (a cell in no
window that matters is answered without a scan).  Renju's opening rule (zones) and the
first player's forbidden points (:mod:`~myriad.core.mechanics.forbidden`: the spans of
each cell judged as the reference judges them, three points recursively) restrict the
moves, and the bots' scan as :meth:`InARow._restricted` does.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.mechanics.placement import GravityDrops, line_axes
from myriad.core.move import DROP
from myriad.core.topology import NO_LINK, Topology, opposite_directions
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.keys import flag_key
from myriad.kernel.layout import (P_FAMILY_PARAMS, P_FLAGS, P_SIZE, P_VALUES, S_CELLS, S_KEY,
                                  S_TO_MOVE, Tables, base_tables)

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

#: The game's search hooks this family reproduces (see ``myriad.kernel.rules``).
SEARCH_HOOKS = frozenset({"candidate_moves", "may_stand_pat"})

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


def tables(game: Game) -> Tables | None:
    """The tables of an :class:`InARow` game (renju's forbidden points and opening rule
    included)."""
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
    windows = game.windows
    cells_of = windows.windows if windows is not None else ()
    through = windows.windows_at if windows is not None else ((),) * size
    axis_of = {d: a for a, (d, _back) in enumerate(axes)}
    forbidden = game.forbidden
    spans = [span for per_pos in forbidden.spans for span in per_pos] if forbidden is not None else []
    lines = maximal_lines(topology, k) if windows is not None else []
    around = game.vicinity.around if game.vicinity is not None else ()
    width = max([k + 1, 1 + max(len(w) for w in through)] + [len(c) for c in columns] + [len(s) for s in spans]
                + [2 + len(cells) for _, cells in lines] + [1 + len(cells) for cells in around])
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
    for pos, cells in enumerate(around):
        extra[first_around + pos, :1 + len(cells)] = [len(cells), *cells]
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
    return base_tables(game, FAMILY, move_width=1, max_moves=size, rules=axis_rows, extra=extra,
                       zones=zones, weights=weights, family_params=params)


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


def prepare(t: Tables, s: np.ndarray) -> None:
    """No words of its own."""


@njit(cache=True)
def gen(t, s, hist, nhist, moves):
    p = t.params
    if s[p[P_FLAGS]] != 0:
        return 0
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
    dst[:] = s
    me = s[S_TO_MOVE]
    pos = m[0]
    stone = p[STONE + me]
    dst[S_CELLS + pos] = stone
    key = s[S_KEY] ^ t.zobrist[pos * p[P_VALUES] + stone] ^ t.side[me] ^ t.side[1 - me]
    if completes(t, dst, pos, stone, p[EXACT + me]):
        flag = p[P_FLAGS]
        key ^= flag_key(p, 0, s[flag]) ^ flag_key(p, 0, me + 1)
        dst[flag] = me + 1
    dst[S_TO_MOVE] = 1 - me
    dst[S_KEY] = key
    return IRREVERSIBLE


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
    for pos in range(p[P_SIZE]):
        if s[S_CELLS + pos] == 0:
            return -1
    return 3


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
    p = t.params
    row = p[WINDOWS] + w
    first, second = p[STONE], p[STONE + 1]
    n0 = 0
    n1 = 0
    for i in range(p[K]):
        v = s[S_CELLS + t.extra[row, i]]
        if v == first:
            n0 += 1
        elif v == second:
            n1 += 1
    return n0, n1


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
def scan(t, s, counts, threats, mates, multi):
    """:meth:`LineWindows.scan` by sliding a window along each maximal line: ``counts[p, c]`` the pure windows of
    player ``p`` with ``c`` stones (0 < c < k); ``threats[p, pos]`` 1 on the gap of a pure
    window with one gap; per axis ``a``, ``mates[p, a, pos]`` the other gap of a pure window
    with two gaps through ``pos`` (-1: none) and ``multi[p, a, pos]`` 1 when two such
    windows have different other gaps.  The arrays come zeroed (``mates``: -1)."""
    p = t.params
    k = p[K]
    x = t.extra
    first, second = p[STONE], p[STONE + 1]
    for line in range(p[LINES], p[LINES] + p[NLINES]):
        axis, length = x[line, 0], x[line, 1]
        n0 = 0
        n1 = 0
        for i in range(length):  # the window ending on the i-th cell, slid along the line
            v = s[S_CELLS + x[line, 2 + i]]
            if v == first:
                n0 += 1
            elif v == second:
                n1 += 1
            if i >= k:
                v = s[S_CELLS + x[line, 2 + i - k]]
                if v == first:
                    n0 -= 1
                elif v == second:
                    n1 -= 1
            if i < k - 1 or (n0 and n1) or n0 + n1 == 0 or n0 + n1 >= k:
                continue
            player = 0 if n0 else 1
            c = n0 + n1
            counts[player, c] += 1
            if c == k - 1:
                for j in range(i - k + 1, i + 1):
                    q = x[line, 2 + j]
                    if s[S_CELLS + q] == 0:
                        threats[player, q] = 1
                        break
            elif c == k - 2:
                g1 = -1
                g2 = -1
                for j in range(i - k + 1, i + 1):
                    q = x[line, 2 + j]
                    if s[S_CELLS + q] == 0:
                        if g1 < 0:
                            g1 = q
                        else:
                            g2 = q
                for a, b in ((g1, g2), (g2, g1)):
                    known = mates[player, axis, a]
                    if known < 0:
                        mates[player, axis, a] = b
                    elif known != b:
                        multi[player, axis, a] = 1


@njit(cache=True)
def scanned(t, s):
    """The arrays of :func:`scan`, filled for ``s``, and per player the build cells
    (``builds[p, pos]``), the fork cells (``forks``) and the fork lines."""
    p = t.params
    size, k, naxes = p[P_SIZE], p[K], p[NAXES]
    counts = np.zeros((2, k + 1), np.int64)
    threats = np.zeros((2, size), np.int64)
    mates = np.full((2, naxes, size), -1, np.int64)
    multi = np.zeros((2, naxes, size), np.int64)
    scan(t, s, counts, threats, mates, multi)
    builds = np.zeros((2, size), np.int64)
    forks = np.zeros((2, size), np.int64)
    lines = np.zeros(2, np.int64)
    for player in range(2):
        for a in range(naxes):
            fork_line = False
            for pos in range(size):
                if mates[player, a, pos] >= 0:
                    if builds[player, pos]:
                        forks[player, pos] = 1  # gaps along two axes: two different mates
                    builds[player, pos] = 1
                    if multi[player, a, pos]:
                        forks[player, pos] = 1
                        fork_line = True
            if fork_line:
                lines[player] += 1
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
    """:meth:`InARow.evaluate` (:meth:`WindowWeights.evaluate` of the window scan)."""
    p = t.params
    if p[NWINDOWS] == 0:
        return 0.0
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
def is_threat(t, s, pos, player):
    """Whether the empty ``pos`` fills a pure window of ``player`` with one gap."""
    if s[S_CELLS + pos] != 0:
        return False
    p = t.params
    row = p[THROUGH] + pos
    for i in range(t.extra[row, 0]):
        n0, n1 = window_stones(t, s, t.extra[row, 1 + i])
        mine, theirs = (n0, n1) if player == 0 else (n1, n0)
        if theirs == 0 and mine == p[K] - 1:
            return True
    return False


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
            if is_threat(t, s, up, 1 - me):
                value -= np.int64(wt[BLOCK_ONCE, k - 1])
            elif k >= 3 and is_threat(t, s, up, me):
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
    row = t.params[AROUND] + pos
    for i in range(t.extra[row, 0]):
        if s[S_CELLS + t.extra[row, 1 + i]] != 0:
            return True
    return False


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
def candidates(t, s, moves, n):
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
def stand_pat(t, s):
    """:meth:`InARow.may_stand_pat`: not against one playable threat of the opponent's,
    nor, without a threat or fork of the mover's, against an opponent's fork cell."""
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
    if mine or theirs >= 2:
        return True
    if theirs:
        return False
    return my_fork or not their_fork


@njit(cache=True)
def noisy_moves(t, s, hist, nhist, moves):
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
