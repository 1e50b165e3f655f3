"""Uniformly random games of the draughts family on the cells alone (checkers, the
international and Russian games, Turkish...: ``draughts.LIGHT``, captures compulsory and
one piece a square): each side's pieces are kept in a list, the key and the draw clock
are kept as moves are made, and the captures (and where there is none, the quiet moves)
are looked for from the pieces of the side to move.  These are the games
:func:`myriad.kernel.perft.playouts` plays for such games; Frisian, Lasca and Bashni keep
the general loop.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.kernel.families.draughts import (CAPS_AT, DRAW_PLIES, FLYING, KING, KING_JUMPS, KING_SLIDES, LIGHT,
                                             M_CAPS, M_HOPS, M_ID, M_KING_HOP, MAN, MAN_JUMPS, MAN_STEPS, NDIRS,
                                             MAX_HOPS, PATH, _routes)
from myriad.kernel.layout import (P_COUNTERS, P_MAX_MOVES, P_MOVE_WIDTH, P_SIZE, P_VALUES, S_CELLS, S_KEY,
                                  S_TO_MOVE)
from myriad.kernel.piece_lists import drop, piece_lists, shift


@njit(cache=True)
def plays(t):
    """Whether the game's random games may play on the cells alone (``draughts.LIGHT``)."""
    return t.params[LIGHT] != 0


@njit(cache=True)
def _jumpers(t, cells, me, squares, count, owner, starts):
    """The squares of the pieces of ``me`` that have a first jump (``draughts._may_jump``'s
    test, over the list of its pieces; ``owner``: the owner of each cell value, -1 for
    none), written to ``starts``; their count."""
    p = t.params
    size, nd = p[P_SIZE], p[NDIRS]
    rules = t.rules
    man = p[MAN + me]
    man_rows = (MAN_JUMPS * 2 + me) * size * nd
    king_rows = (KING_JUMPS * 2 + me) * size * nd
    flying = p[FLYING] != 0
    found = 0
    for i in range(count[me]):
        pos = squares[me, i]
        is_man = cells[pos] == man
        first = (man_rows if is_man else king_rows) + pos * nd
        far = flying and not is_man
        for row in range(first, first + nd):
            n = rules[row, 1]
            if n == 0:
                break
            j = 0
            if far:  # a flying king jumps the first piece along the ray
                while j < n and cells[rules[row, 2 + j]] == 0:
                    j += 1
            if j + 1 < n:
                o = owner[cells[rules[row, 2 + j]]]
                if o >= 0 and o != me and cells[rules[row, 3 + j]] == 0:
                    starts[found] = pos
                    found += 1
                    break
    return found


@njit(cache=True)
def _quiet_moves(t, cells, me, squares, count, origins, targets):
    """The quiet moves of ``me`` (``draughts._quiet``'s, found from the list of its
    pieces) as (origin, target) pairs; their count."""
    p = t.params
    size, nd = p[P_SIZE], p[NDIRS]
    rules = t.rules
    man = p[MAN + me]
    man_rows = (MAN_STEPS * 2 + me) * size * nd
    king_rows = (KING_SLIDES * 2 + me) * size * nd
    n = 0
    for i in range(count[me]):
        pos = squares[me, i]
        first = (man_rows if cells[pos] == man else king_rows) + pos * nd
        for row in range(first, first + nd):
            if rules[row, 1] == 0:  # (a piece's rays come first)
                break
            for j in range(rules[row, 1]):
                to = rules[row, 2 + j]
                if cells[to] != 0:
                    break
                origins[n] = pos
                targets[n] = to
                n += 1
    return n


@njit(cache=True)
def _capture(t, cells, m, me, key, squares, count, index):
    """Capture row ``m`` of ``me`` played on ``cells`` as ``draughts.play`` plays it, the
    piece lists kept; the new key (the side to move aside)."""
    p = t.params
    values = p[P_VALUES]
    z = t.zobrist
    hops = m[M_HOPS]
    start = m[PATH]
    mover = cells[start]
    king = p[KING + me]
    for h in range(hops):
        frm = m[PATH + h]
        to = m[PATH + h + 1]
        piece = king if h >= m[M_KING_HOP] else mover
        key ^= z[frm * values + cells[frm]]
        cells[frm] = 0
        key ^= z[to * values + cells[to]] ^ z[to * values + piece]
        cells[to] = piece
    at = p[CAPS_AT]
    for c in range(m[M_CAPS]):
        pos = m[at + c]
        key ^= z[pos * values + cells[pos]]
        cells[pos] = 0
        if index[pos] >= 0:
            drop(squares, count, index, 1 - me, pos)
    shift(squares, index, me, start, m[PATH + hops])
    return key


@njit(cache=True)
def playout(t, a, hist, nhist, limit, played):
    """Play uniformly random moves from state vector ``a`` (``hist[:nhist]``: the keys of
    the positions before it since the last irreversible move) until the game ends or
    ``limit`` plies are played, writing each move's word 0 into ``played``.  ``a``'s
    cells, side to move and draw clock are played on; the rest of it is left stale.
    Returns (the winners' bits, -1 at the limit; the plies played)."""
    p = t.params
    size = p[P_SIZE]
    cells = a[S_CELLS:S_CELLS + size]  # a view: the moves are played on ``a``
    zones = t.zones
    z = t.zobrist
    values = p[P_VALUES]
    clock_at = p[P_COUNTERS]
    owner = t.kinds[:, 0].copy()
    squares, count, index = piece_lists(a, owner, size)
    keys = np.empty(nhist + limit + 1, np.int64)  # the positions since the last irreversible move
    keys[:nhist] = hist[:nhist]
    nkeys = nhist
    moves = np.empty((p[P_MAX_MOVES], p[P_MOVE_WIDTH]), np.int64)
    origins = np.empty(p[P_MAX_MOVES], np.int64)
    targets = np.empty(p[P_MAX_MOVES], np.int64)
    starts = np.empty(size, np.int64)
    board = np.empty(size, np.int64)
    frames = np.empty((12, p[MAX_HOPS] + 2), np.int64)
    me = a[S_TO_MOVE]
    key = a[S_KEY]
    for ply in range(limit + 1):
        # drawn (``draughts.drawn``): the third occurrence of the position, or the clock
        seen = 0
        for i in range(nkeys):
            if keys[i] == key:
                seen += 1
        if seen >= 2 or a[clock_at] >= p[DRAW_PLIES]:
            return 3, ply
        frm, to = -1, -1
        n = 0
        jumpers = _jumpers(t, cells, me, squares, count, owner, starts)
        if jumpers:
            board[:] = cells
            best = -1
            for i in range(jumpers):
                start = starts[i]
                n, best = _routes(t, cells, board, frames, me, start, cells[start] == p[MAN + me], moves, n, best)
        else:
            quiet = _quiet_moves(t, cells, me, squares, count, origins, targets)
            if quiet == 0:
                return 1 << (1 - me), ply
            k = np.random.randint(quiet)
            frm, to = origins[k], targets[k]
        if ply == limit:
            return -1, limit
        keys[nkeys] = key
        if frm >= 0:  # a quiet step, a man crowned on the far row
            mover = cells[frm]
            piece = p[KING + me] if mover == p[MAN + me] and zones[me, to] else mover
            key ^= z[frm * values + mover]
            cells[frm] = 0
            key ^= z[to * values + cells[to]] ^ z[to * values + piece]
            cells[to] = piece
            shift(squares, index, me, frm, to)
            played[ply] = frm * 64 + to
            irreversible = mover == p[MAN + me]
        else:  # a capture
            m = moves[np.random.randint(n)]
            key = _capture(t, cells, m, me, key, squares, count, index)
            played[ply] = m[M_ID]
            irreversible = True
        if irreversible:  # the clock and the keys start again
            a[clock_at] = 0
            nkeys = 0
        else:
            a[clock_at] += 1
            nkeys += 1
        key ^= t.side[me] ^ t.side[1 - me]
        me = 1 - me
        a[S_TO_MOVE] = me
    return -1, limit
