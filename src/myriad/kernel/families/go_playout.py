"""Go's playouts on an incremental board: the policy of :func:`go.playout_move` --
a capture first, else saving an own chain in atari, else a uniformly drawn move that
neither fills an own true eye nor leaves its chain in atari, else pass -- played without
labelling the whole board at each ply.

The board is the state vector's cells, beside which each chain is a circular list of
its stones (``nxt``) under a head (``head[pos]``, -1 on an empty point) holding its
size and its *pseudo-liberties*: each (stone, empty neighbour) pair counted once, in
``nlib``, with the sum ``lsum`` and the sum of squares ``lsq`` of those points.  A chain
is in atari when all its pseudo-liberties are one point: ``lsum ** 2 == nlib * lsq``,
and that point is ``lsum // nlib``.  Only a chain next to a new stone loses liberties,
so the chains that may be in atari are kept in a short list, checked when read.  The
empty points are kept in a list too, for drawing the random move.

A playout keeps simple ko only (the tree's moves keep positional superko; a playout
ends by two passes or the ply cap whatever it repeats), and leaves the state vector's
key stale: the cells, counters and side to move are what the rules' outcome and the
evaluation read.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.kernel.families.go import CAPTURES, PASSES, PLIES, STONE, _own_eye, finished, outcome
from myriad.kernel.layout import P_COUNTERS, P_SIZE, S_CELLS, S_TO_MOVE

#: ``board`` rows: the chains' words (per head), the empty list and the scratch marks.
HEAD, NXT, SIZE, NLIB, LSUM, LSQ, EMPTY, WHERE, MARK, ATARI = range(10)
ROWS = 10


@njit(cache=True, inline="always")
def _add_liberty(board, h, pos):
    board[NLIB, h] += 1
    board[LSUM, h] += pos
    board[LSQ, h] += pos * pos


@njit(cache=True, inline="always")
def _remove_liberty(board, h, pos):
    board[NLIB, h] -= 1
    board[LSUM, h] -= pos
    board[LSQ, h] -= pos * pos


@njit(cache=True, inline="always")
def _in_atari(board, h):
    n = board[NLIB, h]
    return n > 0 and board[LSUM, h] * board[LSUM, h] == n * board[LSQ, h]


@njit(cache=True, inline="always")
def _empty_point(board, pos, nempty):
    """Put ``pos`` on the empty list; returns its new length."""
    board[WHERE, pos] = nempty
    board[EMPTY, nempty] = pos
    return nempty + 1


@njit(cache=True, inline="always")
def _fill_point(board, pos, nempty):
    """Take ``pos`` off the empty list; returns its new length."""
    i = board[WHERE, pos]
    last = board[EMPTY, nempty - 1]
    board[EMPTY, i] = last
    board[WHERE, last] = i
    return nempty - 1


@njit(cache=True)
def load(t, s, board):
    """Build ``board`` (``ROWS`` rows of ``2 * size + 8`` words) from the cells of ``s``;
    returns (the number of empty points, the length of the atari list)."""
    size = t.params[P_SIZE]
    board[HEAD, :size] = -1
    nempty = 0
    for pos in range(size):
        if s[S_CELLS + pos] == 0:
            nempty = _empty_point(board, pos, nempty)
    natari = 0
    for pos in range(size):
        v = s[S_CELLS + pos]
        if v == 0 or board[HEAD, pos] >= 0:
            continue
        # walk the chain through MARK as a stack, linking its stones in turn
        board[HEAD, pos] = pos
        board[NLIB, pos] = 0
        board[LSUM, pos] = 0
        board[LSQ, pos] = 0
        board[MARK, 0] = pos
        end = 1
        i = 0
        while i < end:
            q = board[MARK, i]
            i += 1
            for k in range(4):
                r = t.rules[q, k]
                if r < 0:
                    break
                w = s[S_CELLS + r]
                if w == 0:
                    _add_liberty(board, pos, r)
                elif w == v and board[HEAD, r] < 0:
                    board[HEAD, r] = pos
                    board[MARK, end] = r
                    end += 1
        for j in range(end):
            board[NXT, board[MARK, j]] = board[MARK, (j + 1) % end]
        board[SIZE, pos] = end
        if _in_atari(board, pos):
            board[ATARI, natari] = pos
            natari += 1
    return nempty, natari


@njit(cache=True, inline="always")
def _add_once(points, n, pos):
    """Append ``pos`` to ``points[:n]`` unless it is there; returns the new length."""
    for i in range(n):
        if points[i] == pos:
            return n
    points[n] = pos
    return n + 1


@njit(cache=True)
def _liberties_after(t, s, board, pos, stone, most):
    """The liberties (other than ``pos``) of the chain a ``stone`` on the empty ``pos``
    would form, not counting captures, stopping at ``most``.  MARK's last word counts the
    calls: a point is counted once in a call by setting its MARK to the call's number."""
    n = 0
    tick = board[MARK, -1] + 1
    board[MARK, -1] = tick
    heads = np.empty(4, np.int64)
    nheads = 0
    for k in range(4):
        r = t.rules[pos, k]
        if r < 0:
            break
        if s[S_CELLS + r] == 0:
            if board[MARK, r] != tick:
                board[MARK, r] = tick
                n += 1
        elif s[S_CELLS + r] == stone:
            nheads = _add_once(heads, nheads, board[HEAD, r])
    if n >= most:
        return n
    for j in range(nheads):
        q = heads[j]
        while True:
            for k in range(4):
                r = t.rules[q, k]
                if r < 0:
                    break
                if r != pos and s[S_CELLS + r] == 0 and board[MARK, r] != tick:
                    board[MARK, r] = tick
                    n += 1
                    if n >= most:
                        return n
            q = board[NXT, q]
            if q == heads[j]:
                break
    return n


@njit(cache=True, inline="always")
def _playable(t, s, board, pos, me, stone, ko):
    """Whether a quiet move (one that takes nothing) on ``pos`` is in the policy's plain
    class: not the ko point, not an own true eye, not leaving its chain in atari."""
    if pos == ko:
        return False
    own = True
    for k in range(4):
        r = t.rules[pos, k]
        if r < 0:
            break
        if s[S_CELLS + r] != stone:
            own = False
    if own and _own_eye(t, s, pos, me):
        return False
    return _liberties_after(t, s, board, pos, stone, 2) >= 2


@njit(cache=True)
def choose(t, s, board, nempty, natari, ko, points):
    """The policy's move for the side to move of ``s``: a point, or ``size`` for pass;
    ``points`` is scratch.  Returns (the move, the atari list's new length)."""
    p = t.params
    size = p[P_SIZE]
    me = s[S_TO_MOVE]
    stone = p[STONE + me]
    kept = 0  # the atari list, without the chains no longer in atari
    for i in range(natari):
        h = board[ATARI, i]
        if s[S_CELLS + h] != 0 and board[HEAD, h] == h and _in_atari(board, h):
            kept = _add_once(board[ATARI], kept, h)
    n = 0
    for i in range(kept):  # captures
        h = board[ATARI, i]
        if s[S_CELLS + h] != stone:
            lib = board[LSUM, h] // board[NLIB, h]
            if lib != ko:
                n = _add_once(points, n, lib)
    if n == 0:  # saves
        for i in range(kept):
            h = board[ATARI, i]
            if s[S_CELLS + h] == stone:
                lib = board[LSUM, h] // board[NLIB, h]
                if _playable(t, s, board, lib, me, stone, ko):
                    n = _add_once(points, n, lib)
    if n > 0:
        return points[np.random.randint(n)], kept
    m = nempty  # a uniform draw among the plain moves: the empty points, drawn without replacement
    while m > 0:
        i = np.random.randint(m)
        pos = board[EMPTY, i]
        if _playable(t, s, board, pos, me, stone, ko):
            return pos, kept
        m -= 1
        last = board[EMPTY, m]
        board[EMPTY, m] = pos
        board[WHERE, pos] = m
        board[EMPTY, i] = last
        board[WHERE, last] = i
    return size, kept


@njit(cache=True)
def place(t, s, board, pos, me, nempty, natari):
    """Put ``me``'s stone on the empty ``pos`` of ``s`` and ``board``, taking the enemy
    chains left without a liberty.  Returns (stones taken, the ko point or -1, the empty
    list's and the atari list's new lengths)."""
    p = t.params
    stone = p[STONE + me]
    s[S_CELLS + pos] = stone
    nempty = _fill_point(board, pos, nempty)
    for k in range(4):  # the neighbours' chains lose pos
        r = t.rules[pos, k]
        if r < 0:
            break
        if s[S_CELLS + r] != 0:
            _remove_liberty(board, board[HEAD, r], pos)
    board[HEAD, pos] = pos
    board[NXT, pos] = pos
    board[SIZE, pos] = 1
    board[NLIB, pos] = 0
    board[LSUM, pos] = 0
    board[LSQ, pos] = 0
    for k in range(4):
        r = t.rules[pos, k]
        if r < 0:
            break
        if s[S_CELLS + r] == 0:
            _add_liberty(board, pos, r)
    h = pos
    for k in range(4):  # merge the own chains, the smaller into the larger
        r = t.rules[pos, k]
        if r < 0:
            break
        if s[S_CELLS + r] != stone or board[HEAD, r] == h:
            continue
        g = board[HEAD, r]
        big, small = (g, h) if board[SIZE, g] >= board[SIZE, h] else (h, g)
        q = small
        while True:
            board[HEAD, q] = big
            q = board[NXT, q]
            if q == small:
                break
        board[NXT, big], board[NXT, small] = board[NXT, small], board[NXT, big]
        board[SIZE, big] += board[SIZE, small]
        board[NLIB, big] += board[NLIB, small]
        board[LSUM, big] += board[LSUM, small]
        board[LSQ, big] += board[LSQ, small]
        h = big
    taken = 0
    last_taken = -1
    for k in range(4):  # take the enemy chains without a liberty
        r = t.rules[pos, k]
        if r < 0:
            break
        v = s[S_CELLS + r]
        if v == 0 or v == stone:
            continue
        g = board[HEAD, r]
        if board[NLIB, g] > 0:
            if _in_atari(board, g):
                board[ATARI, natari] = g
                natari += 1
            continue
        q = g
        while True:  # empty the chain's points first, then give their neighbours the liberties
            s[S_CELLS + q] = 0
            board[HEAD, q] = -1
            nempty = _empty_point(board, q, nempty)
            taken += 1
            last_taken = q
            q = board[NXT, q]
            if q == g:
                break
        q = g
        while True:
            for j in range(4):
                x = t.rules[q, j]
                if x < 0:
                    break
                if s[S_CELLS + x] != 0:
                    _add_liberty(board, board[HEAD, x], q)
            q = board[NXT, q]
            if q == g:
                break
    if _in_atari(board, h):
        board[ATARI, natari] = h
        natari += 1
    ko = last_taken if taken == 1 and board[SIZE, h] == 1 and board[NLIB, h] == 1 else -1
    return taken, ko, nempty, natari


@njit(cache=True)
def playout(t, a, limit, played, who, nplayed):
    """Play the policy from state vector ``a`` (changed in place) until the game ends or
    ``limit`` plies, appending each move's point (``size``: pass) and its player to
    ``played`` and ``who`` from ``nplayed`` on.  Returns (their new length, the winners'
    bits; -1 when stopped at ``limit``: ``a`` holds the position reached)."""
    p = t.params
    size = p[P_SIZE]
    c = p[P_COUNTERS]
    board = np.empty((ROWS, 2 * size + 8), np.int64)  # (the atari list: a chain at most once, and 5 a ply)
    points = np.empty(size + 1, np.int64)
    nempty, natari = load(t, a, board)
    board[MARK, :] = 0
    ko = -1
    plies = 0
    while not finished(t, a):
        if plies == limit:
            return nplayed, -1
        me = a[S_TO_MOVE]
        pos, natari = choose(t, a, board, nempty, natari, ko, points)
        played[nplayed] = pos
        who[nplayed] = me
        nplayed += 1
        if pos == size:
            a[c + PASSES] += 1
            ko = -1
        else:
            taken, ko, nempty, natari = place(t, a, board, pos, me, nempty, natari)
            a[c + PASSES] = 0
            a[c + CAPTURES + me] += taken
        a[c + PLIES] += 1
        a[S_TO_MOVE] = 1 - me
        plies += 1
    return nplayed, outcome(t, a, a[:0], 0, 0)
