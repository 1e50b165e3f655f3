"""Alpha-beta on the kernel: a whole iterative-deepening search inside one compiled call.

The same search as the reference's :class:`~myriad.ai.alphabeta.AlphaBeta` with
``algo=pvs`` (or ``negamax``), over the dispatch functions of :mod:`myriad.kernel.rules`:
a transposition table in preallocated arrays (sized from a byte budget, four entries a
bucket), moves ordered by the table's move, then the game's ``order`` scores, killer moves
and the history heuristic (as the reference weighs them), quiescence over the game's noisy
moves standing pat where the game allows it, a node in check (the game's ``in_check``)
searched one ply deeper and in quiescence every answer to a check searched, late move
reductions (the game's ``late_move_reductions``, the bot's ``lmr``), wins and losses
scored by distance,
repetitions along the searched line and against the game's history scored by the game's
``repeat``, and turns as the game gives them: a child is scored from the side that
moves there, so a side that moves again keeps its score and window.  Limits: depth,
nodes (counted as the reference counts them) and time (the clock read every
:data:`CLOCK_EVERY` nodes).

Moves are told apart across positions, as the reference's killer and history tables do
with :class:`~myriad.core.move.Move` equality, by a hash of their reference actions.
"""
from __future__ import annotations

import time
from typing import Any, NamedTuple

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.move import Move
from myriad.core.state import State
from myriad.kernel.borrow import lent
from myriad.kernel.cache import compiling
from myriad.kernel.clock import now
from myriad.kernel.families import GAVE_CHECK, IRREVERSIBLE
from myriad.kernel.instructions import prefetch
from myriad.kernel.keys import history_key
from myriad.kernel.layout import (MAX_ACTIONS, P_MAX_MOVES, P_MOVE_WIDTH, P_QUIESCENCE, P_WIDTH, S_KEY,
                                  S_TO_MOVE, Tables)
from myriad.kernel.rules import (candidates, child_key, evaluate, gen, in_check, move_hash as rules_move_hash,
                                 move_hashes, moves_at_leaves, noisy, noisy_among, noisy_moves, order_moves,
                                 outcome, play, repeat, stand_pat)

if False:  # pragma: no cover - for the type checker only
    from myriad.kernel.engine import Kernel

WIN = 1_000_000
WON = WIN - 10_000
INF = WIN + 1
#: The deepest line: 64 plies of search and 64 of quiescence, and the root.
MAX_PLY = 130
MAX_DEPTH = 64
#: Nodes between two readings of the clock.
CLOCK_EVERY = 256
#: Words of a table entry: its key, then depth, lower bound, upper bound, move (word 0).
TT_WORDS = 5
TT_WAYS = 4
#: Up to this many moves, a node's moves are ordered by insertion (else by a merge sort).
SORT_BY_INSERTION = 24
#: Entries of the history table (a hash table of move hashes; full, it keeps what it has).
HISTORY_SIZE = 1 << 16

# -- the control words (``Work.ctl``) and the configuration (``Work.cfg``) ------------------
C_NODES = 0
C_STOP = 1
C_NEXT_CLOCK = 2
C_PARTIAL = 3       # 1 when a move beat the previous best in the unfinished iteration
C_LINE = 4          # plies in the principal variation (``Work.line``)
C_ITERATIONS = 5    # iterations finished (``Work.iterations`` rows)
C_HISTORY = 6       # entries in the history table
C_PARTIAL_SCORE = 7  # the score of that move
C_CHECK_PLIES = 8   # nodes in check above this ply are extended (the iteration's share)
CTL = 9

G_DEPTH = 0         # the deepest iteration
G_NODES = 1         # node limit (0: none)
G_ALGO = 2          # 0 negamax, 1 pvs
G_QDEPTH = 3        # quiescence: the most noisy moves in a row (0: off)
G_CAP = 4           # moves searched below the root (0: all)
G_ROOT_CAP = 5      # moves searched at the root (0: all)
G_CHECKS = 6        # 1: the check extension (``AlphaBeta``'s ``checks``)
G_QCHECKS = 7       # 1: quiescence's first ply searches the quiet moves that give check too
G_LMR = 8           # 1: late move reductions (``AlphaBeta``'s ``lmr``)
CFG = 9
#: Nodes in check are extended while fewer than this many times the iteration's depth
#: plies below the root (:data:`myriad.ai.alphabeta.CHECK_PLIES`).
CHECK_PLIES = 2
#: Late move reductions: from this depth, from the move of this rank on
#: (:data:`myriad.ai.alphabeta.LMR_DEPTH`).
LMR_DEPTH, LMR_AFTER = 3, 3

NEGAMAX, PVS = 0, 1

# -- quiescence's frames (rows of ``Work.frames``) and phases -------------------------------
F_ALPHA, F_BETA, F_BEST, F_COUNT, F_NEXT, F_SAME = range(6)
# -- the search's frames (rows of ``Work.nodes``)
N_DEPTH, N_ALPHA, N_BETA, N_ALPHA0, N_BEST, N_BEST_I, N_COUNT, N_NEXT, N_SAME, N_MODE, N_REDUCE, N_SORTED = range(12)
#: ... and, while a node's moves wait to be valued (:func:`sort_moves`'s ``first`` searched
#: first): how (:data:`VALUED` ..), the table move's index, and the indices of the moves
#: that are killers of the ply (-1: none)
N_PENDING, N_FIRST, N_KILLER0, N_KILLER1 = range(12, 16)
NODE_ROWS = 16
#: ``N_PENDING``: the moves are valued; they wait to be, without or with the history and
#: killers read when the node opened (``Work.memory``).
VALUED, PENDING, PENDING_WITH_MEMORY = 0, 1, 2
#: ``N_MODE``: how the child being searched is searched: with the whole window, with the
#: null window (searched again if it fails high), or one ply shallower with the null window
#: (a late move reduced: searched again at its full depth if it beats alpha).
FULL, NULL_WINDOW, REDUCED = 0, 1, 2
OPEN, NEXT, RETURN = 0, 1, 2


class Work(NamedTuple):
    """A search's preallocated arrays, kept between searches by a :class:`Searcher`."""

    states: np.ndarray     # (MAX_PLY + 1, width) the state vector at each ply
    moves: np.ndarray      # (MAX_PLY, max_moves, move_width) each ply's moves
    ranks: np.ndarray      # (MAX_PLY, max_moves) each ply's moves in search order
    values: np.ndarray     # (MAX_PLY, max_moves) each ply's ordering keys (its moves' sort keys)
    memory: np.ndarray     # (MAX_PLY, max_moves) each ply's history counts, read when its node
    #                        opened, while its moves wait to be valued
    hashes: np.ndarray     # (max_moves,) scratch: move hashes, then the sort's spare ranks
    keys: np.ndarray       # the keys of the positions before each ply (repetitions)
    kbase: np.ndarray      # (MAX_PLY + 1,) where each ply's keys start in ``keys``
    nkeys: np.ndarray      # (MAX_PLY + 1,) and how many there are
    killers: np.ndarray    # (MAX_PLY, 2) killer move hashes per ply (0: none)
    history: np.ndarray    # (HISTORY_SIZE, 2) history heuristic: a move hash (0: free) and its
    #                        count side by side, so that a lookup reads one cache line
    tt: np.ndarray         # (entries, TT_WORDS) the transposition table
    acts: np.ndarray       # (MAX_ACTIONS, 5) scratch: a move's actions
    best: np.ndarray       # (move_width,) the best root move
    line: np.ndarray       # (MAX_DEPTH, move_width) the principal variation's moves
    line_states: np.ndarray  # (MAX_DEPTH, width) the positions they are played in
    iterations: np.ndarray  # (MAX_DEPTH, 3) finished iterations: depth, nodes, score
    frames: np.ndarray     # (6, MAX_PLY + 1) quiescence's stack: window, best, moves, next, same side
    nodes: np.ndarray      # (NODE_ROWS, MAX_PLY + 1) the search's stack: depth, window, best, moves, ...
    ctl: np.ndarray        # (CTL,) the control words
    cfg: np.ndarray        # (CFG,) the configuration
    clock: np.ndarray      # (2 + MAX_DEPTH,) float: the deadline (perf_counter; inf: none), the
    #                        start, then when each finished iteration ended


def tt_entries(budget: int, limit: int | None = None) -> int:
    """Table entries for ``budget`` bytes (at most ``limit``): a power of two, a bucket at
    least."""
    entries = max(TT_WAYS, budget // (TT_WORDS * 8))
    if limit is not None:
        entries = max(TT_WAYS, min(entries, limit))
    return 1 << (entries.bit_length() - 1)


def make_work(tables: Tables, tt_bytes: int, tt_limit: int | None = None, history: int = 0) -> Work:
    """The arrays of a search of ``tables``'s game, the table in ``tt_bytes``; ``history``:
    the longest game history a root may bring."""
    p = tables.params
    width, mw, mm = int(p[P_WIDTH]), int(p[P_MOVE_WIDTH]), int(p[P_MAX_MOVES])
    return Work(np.zeros((MAX_PLY + 1, width), np.int64), np.zeros((MAX_PLY, mm, mw), np.int64),
                np.zeros((MAX_PLY, mm), np.int64), np.zeros((MAX_PLY, mm), np.float64),
                np.zeros((MAX_PLY, mm), np.float64), np.zeros(mm, np.int64),
                np.zeros(history + 2 * MAX_PLY + 2, np.int64), np.zeros(MAX_PLY + 1, np.int64),
                np.zeros(MAX_PLY + 1, np.int64),
                np.zeros((MAX_PLY, 2), np.int64), np.zeros((HISTORY_SIZE, 2), np.int64),
                np.zeros((tt_entries(tt_bytes, tt_limit), TT_WORDS), np.int64),
                np.zeros((MAX_ACTIONS, 5), np.int64), np.zeros(mw, np.int64), np.zeros((MAX_DEPTH, mw), np.int64),
                np.zeros((MAX_DEPTH, width), np.int64), np.zeros((MAX_DEPTH, 3), np.int64),
                np.zeros((6, MAX_PLY + 1), np.int64), np.zeros((NODE_ROWS, MAX_PLY + 1), np.int64),
                np.zeros(CTL, np.int64), np.zeros(CFG, np.int64), np.zeros(2 + MAX_DEPTH, np.float64))


# -- compiled ---------------------------------------------------------------------------------

@njit(cache=True)
def move_hash(t, w, s, m):
    """A nonzero hash of the reference actions of move ``m`` in ``s`` (equal moves, equal
    hashes, in any position): :func:`myriad.kernel.rules.move_hash`."""
    return rules_move_hash(t, s, m, w.acts)


@njit(cache=True)
def terminal(bits, me, ply):
    """The score of a finished game with winners ``bits`` for player ``me``, ``ply``
    half-moves from the root (:func:`myriad.ai.alphabeta.terminal_score`)."""
    mine = (bits >> me) & 1
    others = bits & ~(np.int64(1) << me)
    if mine and not others:
        return WIN - ply
    if not mine:
        return -(WIN - ply)
    return 0


@njit(cache=True)
def to_table(score, ply):
    if WON <= score < INF:
        return score + ply
    if -INF < score <= -WON:
        return score - ply
    return score


@njit(cache=True)
def from_table(score, ply):
    if WON <= score < INF:
        return score - ply
    if -INF < score <= -WON:
        return score + ply
    return score


@njit(cache=True)
def tt_bucket(tt, key):
    """The first row of ``key``'s bucket in table ``tt``."""
    return (key & (tt.shape[0] - 1)) & ~np.int64(TT_WAYS - 1)


@njit(cache=True)
def prefetch_children(t, w, s, moves, n):
    """Start loading the table buckets of the positions after the ``n`` ``moves`` of ``s``,
    where the rules work out their keys without playing them: a child reads its bucket
    first thing, most often from no cache."""
    for i in range(n):
        key = child_key(t, s, moves[i])
        if key == 0:
            return  # (the family does not know them)
        bucket = tt_bucket(w.tt, key)
        prefetch(w.tt, bucket)
        prefetch(w.tt, bucket + TT_WAYS - 1)


@njit(cache=True)
def tt_find(tt, key):
    """The row of ``key``'s entry in table ``tt``, or -1."""
    base = tt_bucket(tt, key)
    for i in range(base, base + TT_WAYS):
        if tt[i, 1] > 0 and tt[i, 0] == key:
            return i
    return -1


@njit(cache=True)
def tt_store(w, key, depth, lower, upper, move, ply):
    """Keep bounds on a position searched ``depth`` plies deep, merged with the kept ones
    of the same depth (``AlphaBeta._store``); a full bucket gives up its shallowest entry."""
    lower, upper = to_table(lower, ply), to_table(upper, ply)
    tt = w.tt
    row = tt_find(tt, key)
    if row >= 0:
        if tt[row, 1] == depth and max(lower, tt[row, 2]) <= min(upper, tt[row, 3]):
            lower, upper = max(lower, tt[row, 2]), min(upper, tt[row, 3])
    else:
        base = tt_bucket(tt, key)
        row = base
        for i in range(base, base + TT_WAYS):
            if tt[i, 1] == 0:
                row = i
                break
            if tt[i, 1] < tt[row, 1]:
                row = i
    tt[row, 0] = key
    tt[row, 1] = depth
    tt[row, 2] = lower
    tt[row, 3] = upper
    tt[row, 4] = move


@njit(cache=True)
def history_get(history, h):
    size = history.shape[0]
    i = h & (size - 1)
    for _ in range(size):
        k = history[i, 0]
        if k == h:
            return history[i, 1]
        if k == 0:
            return 0
        i = (i + 1) & (size - 1)
    return 0


@njit(cache=True)
def history_add(w, h, amount):
    history = w.history
    size = history.shape[0]
    i = h & (size - 1)
    for _ in range(size):
        k = history[i, 0]
        if k == h:
            history[i, 1] += amount
            return
        if k == 0:
            if w.ctl[C_HISTORY] * 4 >= size * 3:
                return  # full enough: keep what it has
            history[i, 0] = h
            history[i, 1] = amount
            w.ctl[C_HISTORY] += 1
            return
        i = (i + 1) & (size - 1)


@njit(cache=True)
def age_history(w):
    """Between moves, as the reference does: every count quartered, those under 4 forgotten."""
    old = w.history.copy()
    w.history[:] = 0
    w.ctl[C_HISTORY] = 0
    for i in range(old.shape[0]):
        if old[i, 0] != 0 and old[i, 1] >= 4:
            history_add(w, old[i, 0], old[i, 1] // 4)


@njit(cache=True)
def tick(ctl, cfg, clock):
    """Count a node (``Work.ctl``, ``.cfg``, ``.clock``); stop at the node limit or the
    deadline.  True: stop."""
    ctl[C_NODES] += 1
    limit = cfg[G_NODES]
    if limit > 0 and ctl[C_NODES] >= limit:
        ctl[C_STOP] = 1
    elif ctl[C_NODES] >= ctl[C_NEXT_CLOCK]:
        ctl[C_NEXT_CLOCK] = ctl[C_NODES] + CLOCK_EVERY
        if now() >= clock[0]:
            ctl[C_STOP] = 1
    return ctl[C_STOP] != 0


@njit(cache=True)
def sort_moves(t, w, ply, n, first, with_memory, lazy=False):
    """Order ``w.moves[ply, :n]`` into ``w.ranks[ply]``: the move whose word 0 is
    ``first`` (-1: none), then by the game's ``order`` times 1e6 plus the history count,
    a killer of the ply adding 5e5 (``AlphaBeta._order``); ties keep the generated order.
    Returns how many of the ranks are final.  With ``lazy``, where ``first`` is among the
    moves, only it: the others are valued when a second move is searched (a node cut off by
    the table's move values none; the history and killers are read now, as the search
    left them); else, with more than :data:`SORT_BY_INSERTION` moves, only the best (a
    node cut off by its first move sorts no more).  :func:`sort_rest` does the rest when
    it is needed."""
    ranks = w.ranks[ply]
    f = w.nodes
    f[N_PENDING, ply] = VALUED
    if n <= 1:  # nothing to order
        ranks[0] = 0
        return n
    moves = w.moves[ply]
    f[N_FIRST, ply] = -1
    if first >= 0:
        for i in range(n):
            if moves[i, 0] == first:  # (only the first such move)
                f[N_FIRST, ply] = i
                break
    k0 = w.killers[ply, 0]
    k1 = w.killers[ply, 1]
    use = with_memory and (w.ctl[C_HISTORY] > 0 or k0 != 0 or k1 != 0)
    if use:
        move_hashes(t, w.states[ply], moves, n, w.acts, w.hashes)
        for i in range(n):  # the moves' history rows, loading while the moves are valued
            prefetch(w.history, w.hashes[i] & (w.history.shape[0] - 1))
    if lazy and f[N_FIRST, ply] >= 0:
        if use:
            remember(w, ply, n)
        f[N_PENDING, ply] = PENDING_WITH_MEMORY if use else PENDING
        ranks[0] = f[N_FIRST, ply]
        return 1
    order_moves(t, w.states[ply], moves, n, w.values[ply])
    if use:
        remember(w, ply, n)
    return rank_moves(w, ply, n, with_memory, use, lazy)


@njit(cache=True)
def remember(w, ply, n):
    """The history counts of the moves of ``ply`` (their hashes in ``w.hashes``) into
    ``w.memory``, and which of them are the ply's killers (the first move matching each)."""
    f = w.nodes
    k0 = w.killers[ply, 0]
    k1 = w.killers[ply, 1]
    memory = w.memory[ply]
    f[N_KILLER0, ply] = -1
    f[N_KILLER1, ply] = -1
    for i in range(n):
        h = w.hashes[i]
        memory[i] = history_get(w.history, h)
        if k0 != 0 and f[N_KILLER0, ply] < 0 and h == k0:
            f[N_KILLER0, ply] = i
        elif k1 != 0 and f[N_KILLER1, ply] < 0 and h == k1:
            f[N_KILLER1, ply] = i


@njit(cache=True)
def rank_moves(w, ply, n, with_memory, use, lazy):
    """:func:`sort_moves` once the moves of ``ply`` are valued (``w.values``): their keys,
    with the memory :func:`remember` read (``use``), then their ranks; how many are final."""
    f = w.nodes
    ranks = w.ranks[ply]
    vals = w.values[ply]
    memory = w.memory[ply]
    for i in range(n):
        v = vals[i]
        if with_memory:
            v = v * 1e6
        if use:
            v += memory[i]
            if i == f[N_KILLER0, ply] or i == f[N_KILLER1, ply]:
                v += 5e5
        if i == f[N_FIRST, ply]:
            v = np.inf
        vals[i] = -v
    if n > SORT_BY_INSERTION:
        for i in range(n):
            ranks[i] = i
        if lazy:  # the best first: the lowest key, the first of equal ones
            best = 0
            for i in range(1, n):
                if vals[i] < vals[best]:
                    best = i
            for i in range(best, 0, -1):  # the others stay in their order
                ranks[i] = ranks[i - 1]
            ranks[0] = best
            return 1
        merge_ranks(vals, ranks, w.hashes, n)  # (the hashes are read: their array is free)
        return n
    for i in range(n):  # a stable insertion sort: no allocation for the usual few moves
        v = vals[i]
        j = i
        while j > 0 and vals[ranks[j - 1]] > v:
            ranks[j] = ranks[j - 1]
            j -= 1
        ranks[j] = i
    return n


@njit(cache=True)
def sort_rest(t, w, ply, done, n):
    """The ranks of ``ply`` from ``done`` to ``n`` put in order: the moves valued first if
    they wait to be (all ranked again: the first stays first), else by :func:`merge_ranks`
    (:func:`sort_moves` left them in the order the moves were generated)."""
    f = w.nodes
    if f[N_PENDING, ply] != VALUED:
        use = f[N_PENDING, ply] == PENDING_WITH_MEMORY
        f[N_PENDING, ply] = VALUED
        order_moves(t, w.states[ply], w.moves[ply], n, w.values[ply])
        rank_moves(w, ply, n, True, use, False)
        return
    merge_ranks(w.values[ply], w.ranks[ply, done:], w.hashes, n - done)


@njit(cache=True)
def merge_ranks(vals, ranks, spare, n):
    """``ranks[:n]``, indices into ``vals``, put in ascending order of their values, equal
    values in the order they had (a stable sort: from ``0 .. n - 1``, as
    ``np.argsort(kind="mergesort")``), without allocating: a bottom-up merge sort between
    ``ranks`` and ``spare``."""
    src, dst = ranks, spare
    in_spare = False  # whether the sorted runs are in ``spare``
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):
                if i < mid and (j >= hi or vals[src[j]] >= vals[src[i]]):
                    dst[k] = src[i]
                    i += 1
                else:
                    dst[k] = src[j]
                    j += 1
        src, dst = dst, src
        in_spare = not in_spare
        width *= 2
    if in_spare:
        ranks[:n] = spare[:n]


@njit(cache=True)
def push_keys(t, w, ply, bits):
    """The repetition keys the child of ``ply`` sees after a move with ``bits``: its
    parent's and the word the game's history keeps for the parent (its key, or its
    board's key where ``play`` says :data:`BOARD_KEY`, as Go's superko compares boards;
    and a check mark), or none after an irreversible move.  Each ply's keys end where its
    ancestors' end or after, so a line never writes over the keys of a ply it returns to."""
    base, n = w.kbase[ply], w.nkeys[ply]
    if bits & IRREVERSIBLE:
        w.kbase[ply + 1] = base + n
        w.nkeys[ply + 1] = 0
        return
    w.keys[base + n] = history_key(t, w.states[ply], bits)
    n += 1
    if bits & GAVE_CHECK:
        w.keys[base + n] = -1
        n += 1
    w.kbase[ply + 1] = base
    w.nkeys[ply + 1] = n


@njit(cache=True)
def quiesce(t, w, ply0, alpha, beta, given):
    """``AlphaBeta._quiesce`` of the position at ``ply0``: the noisy moves only, standing
    pat where the game allows; ``given``: the number of legal moves of ``ply0`` already in
    ``w.moves[ply0]`` as ``gen`` listed them (-1: none), whose noisy ones are taken without
    generating them again.  A loop over a stack of frames (``w.frames``), not a
    recursion: numba's cache cannot load a recursive function that calls another one."""
    f = w.frames
    ply = ply0
    f[F_ALPHA, ply] = alpha
    f[F_BETA, ply] = beta
    phase = OPEN
    result = np.int64(0)
    while True:
        if phase == OPEN:
            s = w.states[ply]
            phase = RETURN
            if ply - ply0 >= w.cfg[G_QDEPTH] or ply >= MAX_PLY - 1:
                result = np.int64(evaluate(t, s))
            elif w.cfg[G_CHECKS] and in_check(t, s):
                # In check: every answer searched, none standing pat; a mate is found.
                n = given if ply == ply0 and given >= 0 else -1
                if n < 0:
                    n = gen(t, s, w.keys[w.kbase[ply]:], w.nkeys[ply], w.moves[ply])
                bits = outcome(t, s, w.keys[w.kbase[ply]:], w.nkeys[ply], n)
                if bits >= 0:
                    result = terminal(bits, s[S_TO_MOVE], ply)
                else:
                    phase = NEXT
                    f[F_BEST, ply] = -INF
                    open_moves(t, w, ply, n)
            else:
                stand = np.int64(evaluate(t, s))
                result = stand
                n = -1
                checking = 0
                if ply == ply0 and w.cfg[G_QCHECKS]:
                    if given < 0:
                        given = gen(t, s, w.keys[w.kbase[ply]:], w.nkeys[ply], w.moves[ply])
                    checking = quiet_checks(t, w, ply, given)
                if ply == ply0 and given >= 0:
                    n = noisy_among(t, s, w.moves[ply], given)
                if n < 0:
                    n = noisy_moves(t, s, w.keys[w.kbase[ply]:], w.nkeys[ply], w.moves[ply])
                for i in range(checking):  # after the noisy moves, in their order
                    w.moves[ply, n + i] = w.moves[ply + 1, i]
                n += checking
                if n > 0:
                    phase = NEXT
                    f[F_BEST, ply] = -INF
                    if stand_pat(t, s):
                        if stand >= f[F_BETA, ply]:
                            phase = RETURN
                        else:
                            f[F_ALPHA, ply] = max(f[F_ALPHA, ply], stand)
                            f[F_BEST, ply] = stand
                    if phase == NEXT:
                        open_moves(t, w, ply, n)
        elif phase == NEXT:
            j = f[F_NEXT, ply]
            if j >= f[F_COUNT, ply]:
                result = f[F_BEST, ply]
                phase = RETURN
            else:
                if tick(w.ctl, w.cfg, w.clock):
                    return 0
                f[F_NEXT, ply] = j + 1
                s = w.states[ply]
                child = w.states[ply + 1]
                bits = play(t, s, w.moves[ply, w.ranks[ply, j]], child)
                push_keys(t, w, ply, bits)
                if child[S_TO_MOVE] == s[S_TO_MOVE]:
                    f[F_SAME, ply] = 1
                    f[F_ALPHA, ply + 1] = f[F_ALPHA, ply]
                    f[F_BETA, ply + 1] = f[F_BETA, ply]
                else:
                    f[F_SAME, ply] = 0
                    f[F_ALPHA, ply + 1] = -f[F_BETA, ply]
                    f[F_BETA, ply + 1] = -f[F_ALPHA, ply]
                ply += 1
                phase = OPEN
        else:  # RETURN: ``result`` is the value of the frame at ``ply``
            if ply == ply0:
                return result
            ply -= 1
            score = result if f[F_SAME, ply] else -result
            phase = NEXT
            if score > f[F_BEST, ply]:
                f[F_BEST, ply] = score
                if score > f[F_ALPHA, ply]:
                    f[F_ALPHA, ply] = score
                    if score >= f[F_BETA, ply]:
                        result = score
                        phase = RETURN


@njit(cache=True)
def open_moves(t, w, ply, n):
    """Quiescence's frame at ``ply`` is to search its ``n`` moves, best first."""
    w.frames[F_COUNT, ply] = n
    w.frames[F_NEXT, ply] = 0
    if n > 1:
        sort_moves(t, w, ply, n, -1, False)
    else:
        w.ranks[ply, 0] = 0


@njit(cache=True)
def quiet_checks(t, w, ply, n):
    """The moves among the ``n`` legal ``w.moves[ply]`` that ``noisy`` leaves out and after
    which the side to move is in check, copied in their order to ``w.moves[ply + 1]``
    (free until a child is opened); their count (``AlphaBeta._quiet_checks``)."""
    s = w.states[ply]
    child = w.states[ply + 1]
    moves = w.moves[ply]
    out = w.moves[ply + 1]
    k = 0
    for i in range(n):
        if not noisy(t, s, moves[i]):
            play(t, s, moves[i], child)
            if in_check(t, child):
                out[k] = moves[i]
                k += 1
    return k


@njit(cache=True)
def repeated(w, ply):
    """Whether the position at ``ply`` was met before on the line or in the game."""
    key = w.states[ply, S_KEY]
    base = w.kbase[ply]
    for i in range(base, base + w.nkeys[ply]):
        if w.keys[i] == key:
            return True
    return False


@njit(cache=True)
def node(t, w, ply0, depth, alpha, beta):
    """``AlphaBeta._search`` of the position at ``ply0``: its value for the side to move,
    an upper bound when ``<= alpha``, a lower bound when ``>= beta``.  A loop over a stack
    of frames (``w.nodes``), as :func:`quiesce`."""
    f = w.nodes
    pvs = w.cfg[G_ALGO] == PVS
    ply = ply0
    f[N_DEPTH, ply] = depth
    f[N_ALPHA, ply] = alpha
    f[N_BETA, ply] = beta
    phase = OPEN
    result = np.int64(0)
    while True:
        if phase == OPEN:
            if tick(w.ctl, w.cfg, w.clock):
                return 0
            s = w.states[ply]
            me = s[S_TO_MOVE]
            phase = RETURN
            depth = f[N_DEPTH, ply]
            alpha = f[N_ALPHA, ply]
            beta = f[N_BETA, ply]
            if ply and w.nkeys[ply] and repeated(w, ply):
                bits = repeat(t, s, w.keys[w.kbase[ply]:], w.nkeys[ply])
                if bits >= 0:  # else the rules make nothing of a repeat: searched on
                    result = terminal(bits, me, ply)
                    continue
            asked = w.cfg[G_CHECKS] != 0 and ply < w.ctl[C_CHECK_PLIES]  # (whether in_check is known below)
            checked = False
            if asked and in_check(t, s):
                checked = True
                depth += 1  # a check: its answers searched one ply deeper
                f[N_DEPTH, ply] = depth
            row = tt_find(w.tt, s[S_KEY])
            tt_move = -1
            if row >= 0:
                tt_move = w.tt[row, 4]
                if w.tt[row, 1] >= depth:
                    lower, upper = from_table(w.tt[row, 2], ply), from_table(w.tt[row, 3], ply)
                    if lower >= beta or lower == upper:
                        result = lower
                        continue
                    if upper <= alpha:
                        result = upper
                        continue
            moves = w.moves[ply]
            hist = w.keys[w.kbase[ply]:]
            n = -1  # (not listed)
            if depth > 0 or moves_at_leaves(t, w.cfg[G_QDEPTH] > 0):
                n = gen(t, s, hist, w.nkeys[ply], moves)
            bits = outcome(t, s, hist, w.nkeys[ply], n)
            if bits >= 0:
                result = terminal(bits, me, ply)
                continue
            if depth <= 0 or ply >= MAX_PLY - 1:
                result = quiesce(t, w, ply, alpha, beta, n)
                if w.ctl[C_STOP]:
                    return 0
                continue
            n = candidates(t, s, moves, n)
            prefetch_children(t, w, s, moves, n)
            cap = w.cfg[G_CAP]
            f[N_SORTED, ply] = sort_moves(t, w, ply, n, tt_move, True, cap == 0)
            if cap > 0 and n > cap:
                n = cap
            f[N_REDUCE, ply] = 0
            if w.cfg[G_LMR] and depth >= LMR_DEPTH and not checked and (asked or not in_check(t, s)):
                f[N_REDUCE, ply] = 1
            f[N_ALPHA0, ply] = alpha
            f[N_BEST, ply] = -INF
            f[N_BEST_I, ply] = w.ranks[ply, 0]
            f[N_COUNT, ply] = n
            f[N_NEXT, ply] = 0
            phase = NEXT
        elif phase == NEXT:
            j = f[N_NEXT, ply]
            if j >= f[N_COUNT, ply]:
                result = finish(w, ply)
                phase = RETURN
                continue
            f[N_NEXT, ply] = j + 1
            if j >= f[N_SORTED, ply]:  # (only without a cap: then every move is counted)
                sort_rest(t, w, ply, j, f[N_COUNT, ply])
                f[N_SORTED, ply] = f[N_COUNT, ply]
            s = w.states[ply]
            child = w.states[ply + 1]
            m = w.moves[ply, w.ranks[ply, j]]
            bits = play(t, s, m, child)
            # the child's bucket, read first thing when it opens, is most often in no cache
            bucket = tt_bucket(w.tt, child[S_KEY])
            prefetch(w.tt, bucket)
            prefetch(w.tt, bucket + TT_WAYS - 1)
            push_keys(t, w, ply, bits)
            same = child[S_TO_MOVE] == s[S_TO_MOVE]
            f[N_SAME, ply] = 1 if same else 0
            low, high = f[N_ALPHA, ply], f[N_BETA, ply]
            if pvs and j > 0:
                high = low + 1
                if (f[N_REDUCE, ply] and j >= LMR_AFTER and not noisy(t, s, m)
                        and not in_check(t, child)):
                    f[N_MODE, ply] = REDUCED
                else:
                    f[N_MODE, ply] = NULL_WINDOW
            else:
                f[N_MODE, ply] = FULL
            open_child(f, ply, same, low, high)
            if f[N_MODE, ply] == REDUCED:
                f[N_DEPTH, ply + 1] -= 1
            ply += 1
            phase = OPEN
        else:  # RETURN: ``result`` is the value of the frame at ``ply``
            if ply == ply0:
                return result
            ply -= 1
            score = result if f[N_SAME, ply] else -result
            phase = NEXT
            if f[N_MODE, ply] == REDUCED and score > f[N_ALPHA, ply]:
                f[N_MODE, ply] = NULL_WINDOW  # a late move that may be best after all: at full depth
                open_child(f, ply, f[N_SAME, ply] == 1, f[N_ALPHA, ply], f[N_ALPHA, ply] + 1)
                ply += 1
                phase = OPEN
                continue
            if f[N_MODE, ply] == NULL_WINDOW and f[N_ALPHA, ply] < score < f[N_BETA, ply]:
                f[N_MODE, ply] = FULL
                open_child(f, ply, f[N_SAME, ply] == 1, score, f[N_BETA, ply])
                ply += 1
                phase = OPEN
                continue
            if score > f[N_BEST, ply]:
                f[N_BEST, ply] = score
                j = f[N_NEXT, ply] - 1
                i = w.ranks[ply, j]
                f[N_BEST_I, ply] = i
                if score > f[N_ALPHA, ply]:
                    f[N_ALPHA, ply] = score
                    if score >= f[N_BETA, ply]:
                        s = w.states[ply]
                        m = w.moves[ply, i]
                        if not noisy(t, s, m):
                            h = move_hash(t, w, s, m)
                            if w.killers[ply, 0] != h and w.killers[ply, 1] != h:
                                w.killers[ply, 1] = w.killers[ply, 0]
                                w.killers[ply, 0] = h
                            d = f[N_DEPTH, ply]
                            history_add(w, h, d * d)
                        result = finish(w, ply)
                        phase = RETURN


@njit(cache=True)
def open_child(f, ply, same, low, high):
    """The frame of the child of ``ply``: one ply less deep, the window (``low``,
    ``high``) of the parent's mover, negated and swapped when the other side moves there."""
    f[N_DEPTH, ply + 1] = f[N_DEPTH, ply] - 1
    if same:
        f[N_ALPHA, ply + 1] = low
        f[N_BETA, ply + 1] = high
    else:
        f[N_ALPHA, ply + 1] = -high
        f[N_BETA, ply + 1] = -low


@njit(cache=True)
def finish(w, ply):
    """Keep the searched frame at ``ply`` in the table; its value."""
    f = w.nodes
    best = f[N_BEST, ply]
    lower = best if best > f[N_ALPHA0, ply] else -INF
    upper = best if best < f[N_BETA, ply] else INF
    tt_store(w, w.states[ply, S_KEY], f[N_DEPTH, ply], lower, upper, w.moves[ply, f[N_BEST_I, ply], 0], ply)
    return best


@njit(cache=True)
def root(t, w, depth, previous, n):
    """One iteration at the root (``AlphaBeta._root``): every candidate searched, the
    previous best (word 0, -1: none) first; returns the value and the best move's row."""
    s = w.states[0]
    moves = w.moves[0]
    sort_moves(t, w, 0, n, previous, True)
    count = n
    cap = w.cfg[G_ROOT_CAP]
    if cap > 0 and count > cap:
        count = cap
    alpha = -INF
    best_i = w.ranks[0, 0]
    me = s[S_TO_MOVE]
    pvs = w.cfg[G_ALGO] == PVS
    child = w.states[1]
    w.ctl[C_PARTIAL] = 0
    w.ctl[C_CHECK_PLIES] = CHECK_PLIES * depth
    for j in range(count):
        i = w.ranks[0, j]
        bits = play(t, s, moves[i], child)
        push_keys(t, w, 0, bits)
        same = child[S_TO_MOVE] == me
        if pvs and j > 0:
            if same:
                score = node(t, w, 1, depth - 1, alpha, alpha + 1)
            else:
                score = -node(t, w, 1, depth - 1, -alpha - 1, -alpha)
            if w.ctl[C_STOP]:
                break
            if score > alpha:
                if same:
                    score = node(t, w, 1, depth - 1, alpha, INF)
                else:
                    score = -node(t, w, 1, depth - 1, -INF, -alpha)
        else:
            if same:
                score = node(t, w, 1, depth - 1, alpha, INF)
            else:
                score = -node(t, w, 1, depth - 1, -INF, -alpha)
        if w.ctl[C_STOP]:
            break
        if score > alpha:
            alpha = score
            best_i = i
            if j > 0:
                w.ctl[C_PARTIAL] = 1
                w.best[:] = moves[i]
                w.ctl[C_PARTIAL_SCORE] = alpha
    if w.ctl[C_STOP]:
        return alpha, best_i
    tt_store(w, s[S_KEY], depth, alpha, alpha, moves[best_i, 0], 0)
    return alpha, best_i


@njit(cache=True)
def principal(t, w, depth):
    """The principal variation from the root: the best move, then the table's moves
    while they are legal and the line does not come back to a position
    (``AlphaBeta._pv``); its length, the moves in ``w.line``."""
    width = w.states.shape[1]
    a = np.empty(width, np.int64)
    b = np.empty(width, np.int64)
    a[:] = w.states[0]
    seen = np.empty(MAX_DEPTH + 1, np.int64)
    seen[0] = a[S_KEY]
    nseen = 1
    w.line[0] = w.best
    w.line_states[0] = a
    count = 1
    play(t, a, w.best, b)
    moves = w.moves[MAX_PLY - 1]
    while count < depth and count < MAX_DEPTH:
        key = b[S_KEY]
        again = False
        for i in range(nseen):
            if seen[i] == key:
                again = True
        if again:
            break
        seen[nseen] = key
        nseen += 1
        row = tt_find(w.tt, key)
        if row < 0:
            break
        n = gen(t, b, w.keys, 0, moves)
        found = -1
        for i in range(n):
            if moves[i, 0] == w.tt[row, 4]:
                found = i
                break
        if found < 0:
            break
        w.line[count] = moves[found]
        w.line_states[count] = b
        count += 1
        play(t, b, moves[found], a)
        a, b = b, a
    return count


@njit(cache=True)
def search(t, w, hist, nhist):
    """Iterative deepening from ``w.states[0]`` to ``cfg[G_DEPTH]`` within the limits
    (``AlphaBeta._deepen``); the best move in ``w.best``, the principal variation in
    ``w.line``.  Returns (score, depth finished, done), ``done`` False when a limit cut
    the search short."""
    return deepen(lent(t), lent(w), hist, nhist)


@njit(cache=True)
def deepen(t, w, hist, nhist):
    """:func:`search` over the tables and work arrays passed by reference."""
    cfg, ctl = w.cfg, w.ctl
    ctl[C_NODES] = 0
    ctl[C_STOP] = 0
    ctl[C_NEXT_CLOCK] = CLOCK_EVERY
    ctl[C_ITERATIONS] = 0
    ctl[C_PARTIAL] = 0
    w.killers[:] = 0
    w.keys[:nhist] = hist[:nhist]
    w.kbase[0] = 0
    w.nkeys[0] = nhist
    s = w.states[0]
    moves = w.moves[0]
    n = gen(t, s, w.keys, nhist, moves)
    n = candidates(t, s, moves, n)
    score = 0
    depth = 0
    done = True
    previous = moves[0, 0]
    w.best[:] = moves[0]
    ctl[C_LINE] = 1
    w.line[0] = moves[0]
    w.line_states[0] = s
    for d in range(1, cfg[G_DEPTH] + 1):
        value, best_i = root(t, w, d, previous, n)
        if ctl[C_STOP]:
            done = False
            if ctl[C_PARTIAL]:
                score = w.ctl[C_PARTIAL_SCORE]
                ctl[C_LINE] = 1
                w.line[0] = w.best
            break
        score, depth = value, d
        w.best[:] = moves[best_i]
        previous = moves[best_i, 0]
        ctl[C_LINE] = principal(t, w, d)
        ended = now()
        w.iterations[ctl[C_ITERATIONS], 0] = d
        w.iterations[ctl[C_ITERATIONS], 1] = ctl[C_NODES]
        w.iterations[ctl[C_ITERATIONS], 2] = score
        w.clock[2 + ctl[C_ITERATIONS]] = ended
        ctl[C_ITERATIONS] += 1
        if abs(score) >= WON:
            break
        if ended >= w.clock[0]:
            done = d == cfg[G_DEPTH]
            break
    return score, depth, done or abs(score) >= WON


# -- Python ---------------------------------------------------------------------------------

class KernelSearch(NamedTuple):
    """A kernel search's answer: the move, its score for the side to move (the
    reference alpha-beta's units), the depth finished, the nodes searched, the seconds
    taken and the principal variation."""

    move: Move
    score: float
    depth: int
    nodes: int
    seconds: float
    line: list[Move]


class Searcher:
    """A kernel search kept between moves (its table, history heuristic and arrays), with
    the reference bot's options: ``algo`` ("pvs" or "negamax"), ``quiescence`` (the most
    noisy moves in a row, 0: none), ``moves`` / ``root`` (the most moves searched below /
    at the root, 0: all), ``tt_bytes`` and ``tt_limit`` (the table's size), ``checks``
    (the check extension), ``quiet_checks`` (quiescence's first ply with the quiet
    checks) and ``reductions`` (late move reductions with ``pvs``; None: the game's
    ``late_move_reductions``)."""

    def __init__(self, kernel: Kernel, *, algo: str = "pvs", quiescence: int | None = None,
                 moves: int = 0, root: int = 0, tt_bytes: int = 32 << 20, tt_limit: int | None = None,
                 checks: bool = True, quiet_checks: bool = False, reductions: bool | None = None) -> None:
        if algo not in ("pvs", "negamax"):
            raise ValueError(f"kernel search: algo must be pvs or negamax, not {algo!r}")
        if kernel.players != 2:
            raise ValueError(f"kernel search: alpha-beta searches two-player games, not {kernel.game.id} "
                             f"({kernel.players} players)")
        self.kernel = kernel
        self.algo = algo
        self.qdepth = (int(kernel.tables.params[P_QUIESCENCE]) if quiescence is None else int(quiescence))
        self.moves = moves
        self.root = root
        self.checks = checks
        self.quiet_checks = quiet_checks
        if reductions is None:
            reductions = kernel.game.late_move_reductions
        self.reductions = reductions and algo == "pvs"
        self.work = make_work(kernel.tables, tt_bytes, tt_limit)
        self.iterations: list[tuple[int, float, int]] = []
        self.nodes = 0

    def reset(self) -> None:
        """Forget the table and the history heuristic (a new game)."""
        self.work.tt[:] = 0
        self.work.history[:] = 0
        self.work.ctl[C_HISTORY] = 0

    def search(self, state: State, *, depth: int | None = None, seconds: float | None = None,
               nodes: int | None = None, deadline: float | None = None) -> tuple[KernelSearch, bool]:
        """Search ``state`` within the limits (``deadline``: a ``time.perf_counter()``
        time); the answer and whether the search finished."""
        kernel = self.kernel
        start = time.perf_counter()
        hist = kernel.history(state)
        w = self.work
        if len(hist) + 2 * MAX_PLY + 2 > len(w.keys):
            w = self.work = w._replace(keys=np.zeros(len(hist) + 2 * MAX_PLY + 2, np.int64))
        w.states[0] = kernel.pack(state)
        w.cfg[:] = 0
        w.cfg[G_DEPTH] = min(depth or MAX_DEPTH, MAX_DEPTH)
        w.cfg[G_NODES] = nodes or 0
        w.cfg[G_ALGO] = PVS if self.algo == "pvs" else NEGAMAX
        w.cfg[G_QDEPTH] = min(self.qdepth, MAX_PLY - MAX_DEPTH - 2)
        w.cfg[G_CAP] = self.moves
        w.cfg[G_ROOT_CAP] = self.root
        w.cfg[G_CHECKS] = int(self.checks)
        w.cfg[G_QCHECKS] = int(self.quiet_checks)
        w.cfg[G_LMR] = int(self.reductions)
        end = np.inf
        if seconds is not None:
            end = start + seconds
        if deadline is not None:
            end = min(end, deadline)
        w.clock[0] = end
        w.clock[1] = start
        age_history(w)
        with compiling(search, "alpha-beta search"):
            score, finished, done = search(kernel.tables, w, hist, len(hist))
        seconds_taken = time.perf_counter() - start
        count = int(w.ctl[C_LINE])
        line = [kernel.to_move(w.line_states[i], w.line[i]) for i in range(count)]
        move = kernel.to_move(w.states[0], w.best)
        self.nodes = int(w.ctl[C_NODES])
        self.iterations = [(int(w.iterations[i, 0]), float(w.clock[2 + i] - start), int(w.iterations[i, 1]))
                           for i in range(int(w.ctl[C_ITERATIONS]))]
        return KernelSearch(move, float(score), int(finished), self.nodes, seconds_taken, line), bool(done)


def best_move(kernel: Kernel, state: State, *, depth: int | None = None, seconds: float | None = None,
              nodes: int | None = None, **options: Any) -> KernelSearch:
    """The best move in ``state`` by a kernel alpha-beta search (PVS, the game's
    quiescence) within ``depth`` plies, ``seconds`` and ``nodes`` (none given: one
    second); ``options``: those of :class:`Searcher`."""
    if depth is None and seconds is None and nodes is None:
        seconds = 1.0
    found, _done = Searcher(kernel, **options).search(state, depth=depth, seconds=seconds, nodes=nodes)
    return found
