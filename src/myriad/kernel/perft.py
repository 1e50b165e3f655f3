"""Perft and random playouts inside one compiled call each."""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.kernel.borrow import lent
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.keys import history_key
from myriad.kernel.layout import P_MAX_MOVES, P_MOVE_WIDTH, P_PLAYERS, P_WIDTH
from myriad.kernel.rules import gen, outcome, play, random_playout

#: The longest line perft or a playout follows.
MAX_PLY = 4096


@njit(cache=True)
def perft(t, s, hist, nhist, depth):
    """The number of move sequences of ``depth`` plies from ``s`` (stopping at game ends,
    as the reference's perft does: a finished position has no moves)."""
    return _perft(lent(t), s, hist, nhist, depth)  # t: held by the caller for the whole call


@njit(cache=True)
def _perft(t, s, hist, nhist, depth):
    """:func:`perft` over the tables passed by reference."""
    p = t.params
    if depth == 0:
        return 1
    width, mw, mm = p[P_WIDTH], p[P_MOVE_WIDTH], p[P_MAX_MOVES]
    states = np.empty((depth + 1, width), np.int64)
    moves = np.empty((depth, mm, mw), np.int64)
    count = np.zeros(depth, np.int64)
    index = np.zeros(depth, np.int64)
    # The history of ply p is keys[low[p]:high[p]], a stack: an irreversible move starts an
    # empty window above its parent's, so the keys a sibling still reads are never overwritten.
    keys = np.empty(nhist + depth + 1, np.int64)
    keys[:nhist] = hist[:nhist]
    low = np.zeros(depth + 1, np.int64)
    high = np.zeros(depth + 1, np.int64)
    high[0] = nhist
    states[0] = s
    total = 0
    ply = 0
    count[0] = gen(t, states[0], keys, high[0], moves[0])
    index[0] = 0
    while ply >= 0:
        if ply == depth - 1:
            total += count[ply]
            ply -= 1
            continue
        i = index[ply]
        if i >= count[ply]:
            ply -= 1
            continue
        index[ply] = i + 1
        bits = play(t, states[ply], moves[ply, i], states[ply + 1])
        top = high[ply]
        if bits & IRREVERSIBLE:
            low[ply + 1] = top
            high[ply + 1] = top
        else:
            keys[top] = history_key(t, states[ply], bits)
            low[ply + 1] = low[ply]
            high[ply + 1] = top + 1
        ply += 1
        count[ply] = gen(t, states[ply], keys[low[ply]:high[ply]], high[ply] - low[ply], moves[ply])
        index[ply] = 0
    return total


@njit(cache=True)
def _add_scores(result, players, scores):
    """Add a game's scores to ``scores``: 1/k to each of its k winners (the winners'
    bits of ``result``), 1/players each for an unfinished game (``result`` < 0)."""
    winners = 0
    for q in range(players):
        if result >= 0 and result >> q & 1:
            winners += 1
    for q in range(players):
        if winners == 0:
            scores[q] += 1.0 / players
        elif result >> q & 1:
            scores[q] += 1.0 / winners


@njit(cache=True)
def playouts(t, s, hist, nhist, games, max_plies, seed, scores):
    """Play ``games`` uniformly random games from ``s`` (at most ``max_plies`` plies each),
    adding each game's scores (1 a win, 1/k shared by k winners, 0 a loss; an unfinished
    game 1/k to each of the k players) to ``scores`` per player, and return the total
    plies played.  A family with a light board of its own (``rules.random_playout``)
    plays its games there."""
    return _playouts(lent(t), s, hist, nhist, games, max_plies, seed, scores)  # t: held by the caller


@njit(cache=True)
def _playouts(t, s, hist, nhist, games, max_plies, seed, scores):
    """:func:`playouts` over the tables passed by reference."""
    np.random.seed(seed)
    p = t.params
    width, mw, mm, players = p[P_WIDTH], p[P_MOVE_WIDTH], p[P_MAX_MOVES], p[P_PLAYERS]
    a = np.empty(width, np.int64)
    b = np.empty(width, np.int64)
    moves = np.empty((mm, mw), np.int64)
    keys = np.empty(nhist + max_plies + 1, np.int64)
    played = np.empty(max_plies + 1, np.int64)
    plies = 0
    for _ in range(games):
        a[:] = s
        result, length = random_playout(t, a, hist, nhist, max_plies, played)
        if result != -2:
            _add_scores(result, players, scores)
            plies += length
            continue
        keys[:nhist] = hist[:nhist]
        n = nhist
        for _ply in range(max_plies + 1):
            count = gen(t, a, keys, n, moves)
            result = outcome(t, a, keys, n, count)
            if result >= 0 or _ply == max_plies or count <= 0:
                _add_scores(result, players, scores)
                break
            bits = play(t, a, moves[np.random.randint(count)], b)
            if bits & IRREVERSIBLE:
                n = 0
            else:
                keys[n] = history_key(t, a, bits)
                n += 1
            a, b = b, a
            plies += 1
    return plies
