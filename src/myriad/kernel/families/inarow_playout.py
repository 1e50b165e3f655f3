"""Uniformly random games of the in-a-row family on the cells alone: the empty cells (with
gravity, the columns with room) kept in a list to draw from, and only the new stone's
rows walked for a win.  These are the games :func:`myriad.kernel.perft.playouts` plays,
without the tally a search's move updates (:func:`inarow.play`), which costs more than
the rest of a random move.  Renju's forbidden points and opening rule restrict the moves:
its games keep the general loop.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.kernel.families.inarow import COLUMNS, EXACT, FORBID, GRAVITY, NCOLUMNS, NOPENING, STONE, completes
from myriad.kernel.layout import P_FLAGS, P_SIZE, S_CELLS, S_TO_MOVE


@njit(cache=True)
def plays(t):
    """Whether the game's moves are every empty cell (or column with room): no forbidden
    points, no opening rule."""
    p = t.params
    return p[FORBID] == 0 and p[NOPENING] == 0


@njit(cache=True)
def playout(t, a, limit, played):
    """Play uniformly random moves from state vector ``a`` until a row is made, the board
    is full or ``limit`` plies are played, writing each move's cell into ``played``.
    ``a``'s cells and side to move are played on; its key and tally are left stale.
    Returns (the winners' bits, -1 at the limit; the plies played)."""
    p = t.params
    flag = a[p[P_FLAGS]]
    if flag:
        return 1 << (flag - 1), 0
    gravity = p[GRAVITY] != 0
    columns = t.extra
    first, depth = p[COLUMNS], columns.shape[1]
    room = np.empty(p[P_SIZE], np.int64)  # the empty cells, or the columns with room
    top = np.zeros(max(p[NCOLUMNS], 1), np.int64)  # per column: the index of its lowest empty cell
    n = 0
    if gravity:
        for c in range(p[NCOLUMNS]):
            i = 0
            while i < depth and columns[first + c, i] >= 0 and a[S_CELLS + columns[first + c, i]] != 0:
                i += 1
            top[c] = i
            if i < depth and columns[first + c, i] >= 0:
                room[n] = c
                n += 1
    else:
        for pos in range(p[P_SIZE]):
            if a[S_CELLS + pos] == 0:
                room[n] = pos
                n += 1
    me = a[S_TO_MOVE]
    for ply in range(limit):
        if n == 0:
            return 3, ply  # a full board: a draw
        i = np.random.randint(n)
        if gravity:
            c = room[i]
            pos = columns[first + c, top[c]]
            top[c] += 1
            if top[c] == depth or columns[first + c, top[c]] < 0:
                n -= 1
                room[i] = room[n]
        else:
            pos = room[i]
            n -= 1
            room[i] = room[n]
        stone = p[STONE + me]
        a[S_CELLS + pos] = stone
        played[ply] = pos
        if completes(t, a, pos, stone, p[EXACT + me]):
            return 1 << me, ply + 1
        me = 1 - me
        a[S_TO_MOVE] = me
    return (3 if n == 0 else -1), limit
