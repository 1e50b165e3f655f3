"""Each player's pieces as a list of squares, for the light boards random games play on:
``squares[player, :count[player]]`` the squares, ``index[square]`` where a square stands
in its owner's list (-1: empty)."""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.kernel.layout import S_CELLS


@njit(cache=True)
def piece_lists(a, owner, size):
    """The lists of the pieces on state vector ``a``'s ``size`` cells (``owner``: the
    owner of each cell value, -1 for none): (squares, count, index)."""
    squares = np.empty((2, size), np.int64)
    count = np.zeros(2, np.int64)
    index = np.full(size, -1, np.int64)
    for pos in range(size):
        c = a[S_CELLS + pos]
        if c != 0:
            add(squares, count, index, owner[c], pos)
    return squares, count, index


@njit(cache=True, inline="always")
def add(squares, count, index, player, pos):
    """Put square ``pos`` in ``player``'s list."""
    index[pos] = count[player]
    squares[player, count[player]] = pos
    count[player] += 1


@njit(cache=True, inline="always")
def drop(squares, count, index, player, pos):
    """Take square ``pos`` out of ``player``'s list (the last square takes its place)."""
    last = squares[player, count[player] - 1]
    squares[player, index[pos]] = last
    index[last] = index[pos]
    index[pos] = -1
    count[player] -= 1


@njit(cache=True, inline="always")
def shift(squares, index, player, frm, to):
    """Move ``player``'s piece from square ``frm`` to the empty square ``to`` in its list
    (it keeps its place in the list)."""
    i = index[frm]
    index[frm] = -1
    index[to] = i
    squares[player, i] = to
