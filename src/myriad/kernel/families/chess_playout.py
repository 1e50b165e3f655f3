"""Uniformly random games of the chess family's simplest games on the cells alone
(Breakthrough): where pieces move only along their rays and no rule reads more than the
board (``chess.LIGHT``), each side's pieces are kept in a list and only the move's own
squares are looked at for the end (a piece in its goal zone, the last enemy piece taken).

A move is drawn without listing the moves: a slot (a piece of the side to move, one of
the most rays a piece has, one of the most squares a ray has) is drawn uniformly and
kept if it is a move, as each move is one slot, so a kept slot is a uniform draw among
the moves; after :data:`TRIES` slots that are not, every move is listed and one drawn
(which also finds a side without moves).  These are the games
:func:`myriad.kernel.perft.playouts` plays for such games; the others keep the general
loop.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.kernel.families.chess import (CAPTURE_ONLY, GOAL, K_OWNER, LIGHT, MOVE_ONLY, NO_PIECES, STALEMATED,
                                          T_CAPTURE, T_MOVE, X_RAY_PTR, X_RAYS, X_SQ, _scored, move_id)
from myriad.kernel.layout import P_MAX_MOVES, P_SIZE, S_CELLS, S_TO_MOVE
from myriad.kernel.piece_lists import drop, piece_lists, shift

#: Slots drawn before the moves are listed.
TRIES = 16


@njit(cache=True)
def plays(t):
    """Whether the game's random games may play on the cells alone (``chess.LIGHT``)."""
    return t.params[LIGHT] != 0


@njit(cache=True, inline="always")
def _move_at(a, kinds, heap, start, j, mode, me):
    """Whether square ``j`` of the ray whose squares start at ``heap[start]`` is a move of
    ``me`` along it: the squares before it empty, and it empty or an enemy's as ``mode``
    allows."""
    for i in range(j):
        if a[S_CELLS + heap[start + i]] != 0:
            return False
    c = a[S_CELLS + heap[start + j]]
    if c == 0:
        return mode != CAPTURE_ONLY
    return mode != MOVE_ONLY and kinds[c, K_OWNER] != me


@njit(cache=True)
def playout(t, a, limit, played):
    """Play uniformly random moves from state vector ``a`` until the game ends or ``limit``
    plies are played, writing each move's word 0 (``chess.move_id``) into ``played``.
    ``a``'s cells and side to move are played on; the rest of it is left stale.  Returns
    (the winners' bits, -1 at the limit; the plies played)."""
    p = t.params
    size = p[P_SIZE]
    kinds = t.kinds
    zones = t.zones
    heap = t.rules[0]
    x = t.extra[0]
    ray_ptr, rays, sqs = x[X_RAY_PTR], x[X_RAYS], x[X_SQ]
    goal, no_pieces = p[GOAL] != 0, p[NO_PIECES] != 0
    squares, count, index = piece_lists(a, kinds[:, K_OWNER].copy(), size)
    # an end before any move, as the rules judge it: a piece in its goal zone, no pieces
    for q in range(2):
        if goal:
            for i in range(count[q]):
                if zones[q, squares[q, i]]:
                    return 1 << q, 0
    for q in range(2):
        if no_pieces and count[q] == 0:
            return 1 << (1 - q), 0
    # the slots: the most rays of a (piece, square), the most squares of a ray
    most_rays, longest = 1, 1
    for base in range(t.kinds.shape[0] * size):
        lo, hi = heap[ray_ptr + base], heap[ray_ptr + base + 1]
        most_rays = max(most_rays, (hi - lo) // 3)
        for e in range(lo, hi, 3):
            longest = max(longest, heap[rays + e + 1])
    slots = most_rays * longest
    origins = np.empty(p[P_MAX_MOVES], np.int64)
    targets = np.empty(p[P_MAX_MOVES], np.int64)
    me = a[S_TO_MOVE]
    for ply in range(limit + 1):  # the last turn only asks whether the side to move has a move
        frm = -1
        to = -1
        for _ in range(TRIES if count[me] else 0):
            slot = np.random.randint(count[me] * slots)
            pos = squares[me, slot // slots]
            e = slot % slots // longest
            j = slot % longest
            base = a[S_CELLS + pos] * size + pos
            e = heap[ray_ptr + base] + 3 * e
            if e >= heap[ray_ptr + base + 1] or j >= heap[rays + e + 1]:
                continue
            start = sqs + heap[rays + e]
            if _move_at(a, kinds, heap, start, j, heap[rays + e + 2], me):
                frm, to = pos, heap[start + j]
                break
        if frm < 0:
            n = 0
            for i in range(count[me]):
                pos = squares[me, i]
                base = a[S_CELLS + pos] * size + pos
                for e in range(heap[ray_ptr + base], heap[ray_ptr + base + 1], 3):
                    start = sqs + heap[rays + e]
                    mode = heap[rays + e + 2]
                    for j in range(heap[rays + e + 1]):
                        q = heap[start + j]
                        c = a[S_CELLS + q]
                        if c == 0:
                            if mode != CAPTURE_ONLY:
                                origins[n] = pos
                                targets[n] = q
                                n += 1
                            continue
                        if mode != MOVE_ONLY and kinds[c, K_OWNER] != me:
                            origins[n] = pos
                            targets[n] = q
                            n += 1
                        break
            if n == 0:
                return _scored(p[STALEMATED], me), ply
            k = np.random.randint(n)
            frm, to = origins[k], targets[k]
        if ply == limit:
            return -1, limit
        code = a[S_CELLS + frm]
        if a[S_CELLS + to] != 0:
            drop(squares, count, index, 1 - me, to)
            played[ply] = move_id(T_CAPTURE, frm, to, code)
        else:
            played[ply] = move_id(T_MOVE, frm, to, code)
        shift(squares, index, me, frm, to)
        a[S_CELLS + frm] = 0
        a[S_CELLS + to] = code
        if (goal and zones[me, to]) or (no_pieces and count[1 - me] == 0):
            return 1 << me, ply + 1
        me = 1 - me
        a[S_TO_MOVE] = me
    return -1, limit  # (not reached)
