"""Kernel family: stones placed on empty cells (or dropped down a column), ``k`` in a row
wins -- tic-tac-toe, gomoku, Connect Four (:class:`myriad.games.inarow.InARow`).

Tables:

* ``rules[axis] = (direction, opposite)`` the board's lines;
* ``extra`` three tables stacked by rows, where ``params`` says (``COLUMNS``, ``WINDOWS``,
  ``THROUGH`` and their counts): the cells of each column, bottom first, padded with -1
  (gravity only); each window of ``k`` cells (:class:`LineWindows`, in its order), then
  its axis; per cell, the number of windows through it, then their indices;
* ``zones[player]`` the cells where that player's threats count as strong (Connect
  Four's odd and even rows);
* ``weights`` the :class:`WindowWeights`: rows ``MOVER`` .. ``BLOCK_TWICE`` by stone count,
  then a row of the single weights (``W_WIN_NOW`` ..);
* ``params``: ``K``, ``GRAVITY``, per player ``EXACT`` (renju's Black wins with exactly
  ``k``) and ``STONE``, the directions up and down (gravity).

A move is one word: the cell.  The bots' knowledge is :meth:`InARow.evaluate`,
:meth:`InARow.move_heuristic` and :meth:`InARow.noisy_moves` worked out by walking the
windows (the reference's bit-set scans and line tallies answer the same): ``evaluate`` scans
the whole board, ``order`` reads only the windows through the move's cell (and the cell
above it), ``noisy`` says whether the move is among the quiescence moves (a cell in no
window that matters is answered without a scan).  Renju's forbidden points and opening
rule are not covered.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.mechanics.placement import GravityDrops, line_axes
from myriad.core.move import DROP
from myriad.core.topology import opposite_directions
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

# -- rows of ``weights``: per stone count ...
MOVER, WAITER, BUILD_ONCE, BUILD_TWICE, BLOCK_ONCE, BLOCK_TWICE, SINGLE = range(7)
# ... and the columns of the row of single weights
W_WIN_NOW, W_FORK, W_THREAT, W_STRONG, W_CENTRAL, W_STACKED, W_DOUBLE_FORK = range(7)


def tables(game: Game) -> Tables | None:
    """The tables of an :class:`InARow` game without forbidden points or opening rule."""
    from myriad.games.inarow import InARow
    if type(game) is not InARow or game.forbidden is not None or game.opening:
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
    width = max([k + 1, 1 + max(len(w) for w in through)] + [len(c) for c in columns])
    extra = np.full((len(columns) + len(cells_of) + size, width), -1, np.int64)
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
    zones = np.zeros((2, size), np.int64)
    for player in range(2):
        for pos in range(size):
            zones[player, pos] = game.strong[player] >> pos & 1
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
              THROUGH: first_through, UP: up, DOWN: down, NAXES: len(axes)}
    return base_tables(game, FAMILY, move_width=1, max_moves=size, rules=axis_rows, extra=extra,
                       zones=zones, weights=weights, family_params=params)


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
    return n


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
    """:meth:`LineWindows.scan` by walking the windows: ``counts[p, c]`` the pure windows of
    player ``p`` with ``c`` stones (0 < c < k); ``threats[p, pos]`` 1 on the gap of a pure
    window with one gap; per axis ``a``, ``mates[p, a, pos]`` the other gap of a pure window
    with two gaps through ``pos`` (-1: none) and ``multi[p, a, pos]`` 1 when two such
    windows have different other gaps.  The arrays come zeroed (``mates``: -1)."""
    p = t.params
    k = p[K]
    x = t.extra
    for w in range(p[NWINDOWS]):
        n0, n1 = window_stones(t, s, w)
        if (n0 and n1) or n0 + n1 == 0 or n0 + n1 >= k:
            continue
        player = 0 if n0 else 1
        c = n0 + n1
        counts[player, c] += 1
        row = p[WINDOWS] + w
        if c == k - 1:
            for i in range(k):
                q = x[row, i]
                if s[S_CELLS + q] == 0:
                    threats[player, q] = 1
                    break
        elif c == k - 2:
            axis = x[row, k]
            g1 = -1
            g2 = -1
            for i in range(k):
                q = x[row, i]
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
    wt = t.weights
    me = s[S_TO_MOVE]
    other = 1 - me
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
    """Whether ``m`` is among :meth:`InARow.noisy_moves` (the threats quiescence searches:
    the block of the opponent's single threat; else, against an open three, the cells of
    both players' windows with two gaps; else the mover's; none when the mover can win or
    fork, or the opponent has two threats)."""
    p = t.params
    if p[NWINDOWS] == 0:
        return False
    pos = m[0]
    me = s[S_TO_MOVE]
    other = 1 - me
    k = p[K]
    if not playable(t, s, pos):
        return False
    found = reach_at(t, s, pos)
    if not (found[other, k - 1] or found[me, k - 2] or found[other, k - 2]):
        return False  # no threat of the opponent's, nor a build cell of either player
    counts, threats, builds, forks, lines = scanned(t, s)
    theirs = 0
    their_forks = False
    for q in range(p[P_SIZE]):
        if forks[other, q]:
            their_forks = True
        if playable(t, s, q):
            if threats[me, q] or forks[me, q]:
                return False
            if threats[other, q]:
                theirs += 1
    if theirs >= 2:
        return False
    if theirs:
        return threats[other, pos] != 0
    if their_forks:
        return builds[me, pos] != 0 or builds[other, pos] != 0
    return builds[me, pos] != 0


@njit(cache=True)
def repetition(t, s):
    return 3  # positions never repeat: every placement adds a stone
