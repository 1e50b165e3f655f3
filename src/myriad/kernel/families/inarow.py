"""Kernel family: stones placed on empty cells (or dropped down a column), ``k`` in a row
wins -- tic-tac-toe, gomoku, Connect Four (:class:`myriad.games.inarow.InARow`).

Tables: ``rules[axis] = (direction, opposite)`` the board's lines; ``extra[column]`` the
cells of each column, bottom first, padded with -1 (gravity only); ``params``: ``K``,
``GRAVITY`` and per player ``EXACT`` (renju's Black wins with exactly ``k``).  A move is
one word: the cell.  Renju's forbidden points and opening rule are not covered.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.mechanics.placement import GravityDrops, line_axes
from myriad.core.move import DROP
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.keys import flag_key
from myriad.kernel.layout import (P_FAMILY_PARAMS, P_FLAGS, P_SIZE, P_VALUES, S_CELLS, S_KEY,
                                  S_TO_MOVE, Tables, base_tables)

FAMILY = 1
K = P_FAMILY_PARAMS
GRAVITY = P_FAMILY_PARAMS + 1
EXACT = P_FAMILY_PARAMS + 2   # + player
STONE = P_FAMILY_PARAMS + 4   # + player: the stone's cell value


def tables(game: Game) -> Tables | None:
    """The tables of an :class:`InARow` game without forbidden points or opening rule."""
    from myriad.games.inarow import InARow
    if type(game) is not InARow or game.forbidden is not None or game.opening:
        return None
    topology = game.topology
    axes = np.array(line_axes(topology), np.int64).reshape(-1, 2)
    columns = np.zeros((0, 0), np.int64)
    if isinstance(game.placement, GravityDrops):
        cols = game.placement.columns
        columns = np.full((len(cols), max(len(c) for c in cols)), -1, np.int64)
        for c, cells in enumerate(cols):
            columns[c, :len(cells)] = cells
    params = {K: game.k, GRAVITY: int(game.gravity),
              EXACT: int(not game.goals[0].overlines), EXACT + 1: int(not game.goals[1].overlines),
              STONE: game.stones[0], STONE + 1: game.stones[1]}
    return base_tables(game, FAMILY, move_width=1, max_moves=topology.size, rules=axes, extra=columns,
                       family_params=params)


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
        for c in range(columns.shape[0]):
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


@njit(cache=True)
def evaluate(t, s):
    return 0.0  # TODO(issue 21): the window evaluation of InARow.evaluate


@njit(cache=True)
def order(t, s, m):
    return 0.0  # TODO(issue 21): InARow.move_heuristic


@njit(cache=True)
def noisy(t, s, m):
    return False


@njit(cache=True)
def repetition(t, s):
    return 3  # positions never repeat: every placement adds a stone
