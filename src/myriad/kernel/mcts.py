"""Monte Carlo tree search inside one compiled call: the UCT of :mod:`myriad.ai.mcts` over
state vectors, with the tree in preallocated arrays.

The same variant as the reference bot: each iteration walks the tree by UCB1 (``wins /
visits + c * sqrt(ln parent visits / visits)``) over the game's candidate moves
(``rules.candidates``), trying each node's moves once in random
order before choosing among them, adds one node, plays a playout from it and backs the
result up; a node is credited with the share of the player who moved into it (the mover
of its parent's position, whoever moves next: extra turns and passes are played right).
The move chosen is the root's most visited child.

Playouts play the family's playout policy (``rules.playout_move``: knowledge as data in
the tables, uniformly random by default; Go's on its own incremental board,
``rules.whole_playout``) until the game ends, or for ``cutoff`` plies,
after which the evaluation scores the position as the reference does: each player's
evaluation squashed by the logistic curve at ``scale`` (by default the running mean of
the evaluations met, :func:`myriad.ai.utility.shares_of`).

The tree: ``first[node]`` its first child (children are allocated together, one row per
candidate move, when the node is first walked through; -1 before), ``children`` their number,
``tried`` how many have been visited, ``visits``, ``wins``, ``mover`` and ``result`` (the
outcome's winners' bits, -1 while the game goes on, -2 not yet known).  When the arrays
are full, iterations play out from the leaf they reach.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.kernel.borrow import lent
from myriad.kernel.clock import now
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.keys import history_key
from myriad.kernel.layout import P_MAX_MOVES, P_MOVE_WIDTH, P_PLAYERS, P_SIZE, P_WIDTH, S_TO_MOVE
from myriad.kernel.rules import candidates, evaluate, gen, outcome, play, playout_move, whole_playout

#: The longest playout (plies) and the deepest tree walk.
MAX_PLAYOUT = 4096
MAX_DEPTH = 1024
#: How far evaluated shares stay from a finished game's (:data:`myriad.ai.utility.MARGIN`).
MARGIN = 1e-3
#: The most |evaluation / scale| fed to the logistic curve (:data:`myriad.ai.utility.STEEPEST`).
STEEPEST = 50.0
#: The most iterations between two looks at the clock (fewer while iterations are slow:
#: looked at about every millisecond).
CLOCK_EVERY = 256
#: ``stats`` fields: iterations done, the chosen child's visits and wins, the depth of the
#: most visited line, nodes used, the running mean of |evaluation| (read and written).
ST_ITERATIONS, ST_VISITS, ST_WINS, ST_DEPTH, ST_NODES, ST_TYPICAL = range(6)
STATS = 6


@njit(cache=True)
def outcome_shares(result, players, shares):
    """A finished game's shares: 1/k to each of its k winners (all players: a draw)."""
    winners = 0
    for q in range(players):
        if result >> q & 1:
            winners += 1
    for q in range(players):
        shares[q] = 1.0 / winners if result >> q & 1 else 0.0


@njit(cache=True)
def _logistic(x):
    return 1.0 / (1.0 + math.exp(-max(-STEEPEST, min(STEEPEST, x))))


@njit(cache=True)
def evaluation_shares(t, s, scale, stats, shares):
    """The players' shares of ``s`` by the evaluation (two players: the mover's
    ``evaluate`` and its negation), as :func:`myriad.ai.utility.shares_of`; with more
    players, equal shares."""
    players = t.params[P_PLAYERS]
    if players != 2:
        for q in range(players):
            shares[q] = 1.0 / players
        return
    e = evaluate(t, s)
    me = s[S_TO_MOVE]
    size = abs(e)
    stats[ST_TYPICAL] += (size - stats[ST_TYPICAL]) * 0.01
    sc = scale if scale > 0 else max(1e-9, stats[ST_TYPICAL], size / 10)
    mine = _logistic(e / sc)
    theirs = _logistic(-e / sc)
    total = mine + theirs
    floor = MARGIN / 2
    shares[me] = floor + (1.0 - MARGIN) * mine / total
    shares[1 - me] = floor + (1.0 - MARGIN) * theirs / total


@njit(cache=True)
def playout(t, a, b, keys, n, moves, cutoff, scale, stats, shares, played, who, nplayed):
    """Play the playout policy from state vector ``a`` (``keys[:n]`` its history; ``a``,
    ``b`` and ``keys`` are scratch) until the game ends or ``cutoff`` plies, and write the
    players' shares into ``shares``; each move's word 0 and its player are appended to
    ``played`` and ``who`` from ``nplayed`` on.  Returns the new length."""
    players = t.params[P_PLAYERS]
    limit = min(cutoff, MAX_PLAYOUT)
    nplayed, result = whole_playout(t, a, limit, played, who, nplayed)
    if result >= 0:
        outcome_shares(result, players, shares)
        return nplayed
    if result == -1:
        evaluation_shares(t, a, scale, stats, shares)
        return nplayed
    for _ply in range(limit + 1):
        count = gen(t, a, keys, n, moves)
        result = outcome(t, a, keys, n, count)
        if result >= 0:
            outcome_shares(result, players, shares)
            return nplayed
        if count <= 0:
            break
        if _ply == limit:
            evaluation_shares(t, a, scale, stats, shares)
            return nplayed
        i = playout_move(t, a, moves, count)
        played[nplayed] = moves[i, 0]
        who[nplayed] = a[S_TO_MOVE]
        nplayed += 1
        bits = play(t, a, moves[i], b)
        if bits & IRREVERSIBLE:
            n = 0
        else:
            keys[n] = history_key(t, a, bits)
            n += 1
        a[:] = b
    for q in range(players):
        shares[q] = 1.0 / players
    return nplayed


class Tree(NamedTuple):
    """The arrays of a search tree (see the module's docstring), one row per node; a
    search overwrites what it uses, so one tree serves every search of a bot."""

    move: np.ndarray
    first: np.ndarray
    children: np.ndarray
    tried: np.ndarray
    visits: np.ndarray
    wins: np.ndarray
    mover: np.ndarray
    result: np.ndarray
    amaf_visits: np.ndarray
    amaf_wins: np.ndarray


#: Bytes a tree node takes, beside its move's words.
NODE_BYTES = 9 * 8


def new_tree(capacity: int, move_width: int) -> Tree:
    """A tree of ``capacity`` nodes for moves of ``move_width`` words (pages are touched
    only as nodes are used)."""
    return Tree(np.empty((capacity, move_width), np.int64), np.empty(capacity, np.int64),
                np.empty(capacity, np.int64), np.empty(capacity, np.int64), np.empty(capacity, np.float64),
                np.empty(capacity, np.float64), np.empty(capacity, np.int64), np.empty(capacity, np.int64),
                np.empty(capacity, np.float64), np.empty(capacity, np.float64))


@njit(cache=True)
def _fresh(tree, node, who):
    """Node ``node`` as a new leaf moved into by ``who``."""
    tree.first[node] = -1
    tree.children[node] = 0
    tree.tried[node] = 0
    tree.visits[node] = 0.0
    tree.wins[node] = 0.0
    tree.mover[node] = who
    tree.result[node] = -2
    tree.amaf_visits[node] = 0.0
    tree.amaf_wins[node] = 0.0


@njit(cache=True)
def search(t, s, hist, nhist, iterations, seconds, c, cutoff, scale, seed, tree, pv, stats, rave):
    """UCT from state vector ``s`` (``hist[:nhist]`` its history) for ``iterations``
    iterations (0: no limit) or ``seconds`` (0: no limit; at least one iteration), in
    ``tree`` (a :class:`Tree`).  Writes the most visited line's moves into the rows of
    ``pv`` and returns its length (0: ``s`` has no move); ``stats`` receives the ``ST_*``
    figures.  ``rave`` > 0: the family's moves are named by their word 0 across positions
    (a cell), and UCB1's mean mixes in the all-moves-as-first mean with the weight
    ``sqrt(rave / (3 visits + rave))`` (RAVE, Gelly and Silver 2007)."""
    return _search(lent(t), s, hist, nhist, iterations, seconds, c, cutoff, scale, seed, tree, pv,
                   stats, rave)  # t: held by the caller for the whole call


@njit(cache=True)
def _search(t, s, hist, nhist, iterations, seconds, c, cutoff, scale, seed, tree, pv, stats, rave):
    """:func:`search` over the tables passed by reference."""
    start_time = now()
    np.random.seed(seed)
    if iterations <= 0 and seconds <= 0:
        iterations = 1  # (no budget at all: one iteration)
    p = t.params
    width, mw, mm, players = p[P_WIDTH], p[P_MOVE_WIDTH], p[P_MAX_MOVES], p[P_PLAYERS]
    move, first, count, tried, visits, wins, mover, result = (tree.move, tree.first, tree.children, tree.tried,
                                                              tree.visits, tree.wins, tree.mover, tree.result)
    amaf_visits, amaf_wins = tree.amaf_visits, tree.amaf_wins
    names = p[P_SIZE] + 1  # moves named by word 0 (RAVE): 0 .. size
    seen = np.zeros((players, names), np.bool_)
    played = np.empty(MAX_DEPTH + MAX_PLAYOUT + 2, np.int64)
    who = np.empty(MAX_DEPTH + MAX_PLAYOUT + 2, np.int64)
    capacity = first.shape[0]
    used = 1
    _fresh(tree, 0, (s[S_TO_MOVE] - 1) % players)
    a = np.empty(width, np.int64)
    b = np.empty(width, np.int64)
    moves = np.empty((mm, mw), np.int64)
    keys = np.empty(nhist + MAX_DEPTH + MAX_PLAYOUT + 2, np.int64)
    keys[:nhist] = hist[:nhist]
    path = np.empty(MAX_DEPTH + 1, np.int64)
    shares = np.zeros(players, np.float64)
    deadline = start_time + seconds
    every = 1
    next_look = 1
    last_look = start_time
    done = 0
    while True:
        a[:] = s
        n = nhist
        node = 0
        path[0] = 0
        depth = 0
        scored = False
        while True:
            if result[node] == -2:  # first walk through: its outcome, and its children
                legal = gen(t, a, keys, n, moves)
                result[node] = outcome(t, a, keys, n, legal)
                if result[node] < 0 and legal > 0:
                    legal = candidates(t, a, moves, legal)
                if result[node] < 0 and legal > 0 and used + legal <= capacity:
                    first[node] = used
                    count[node] = legal
                    for i in range(legal):  # in random order: tried in turn, as the reference pops at random
                        j = np.random.randint(i + 1)
                        move[used + i] = move[used + j]
                        move[used + j] = moves[i]
                    for i in range(legal):
                        _fresh(tree, used + i, a[S_TO_MOVE])
                    used += legal
            if result[node] >= 0:
                outcome_shares(result[node], players, shares)
                scored = True
                break
            if first[node] < 0 or depth >= MAX_DEPTH:
                break
            if tried[node] < count[node]:
                child = first[node] + tried[node]
                tried[node] += 1
                stop = True
            else:
                parent_log = math.log(visits[node])
                child = -1
                best = -1e300
                for i in range(first[node], first[node] + count[node]):
                    mean = wins[i] / visits[i]
                    if rave > 0 and amaf_visits[i] > 0:
                        beta = math.sqrt(rave / (3 * visits[i] + rave))
                        mean = (1 - beta) * mean + beta * amaf_wins[i] / amaf_visits[i]
                    value = mean + c * math.sqrt(parent_log / visits[i])
                    if value > best:
                        best = value
                        child = i
                stop = False
            played[depth] = move[child, 0]
            who[depth] = a[S_TO_MOVE]
            bits = play(t, a, move[child], b)
            if bits & IRREVERSIBLE:
                n = 0
            else:
                keys[n] = history_key(t, a, bits)
                n += 1
            a[:] = b
            depth += 1
            path[depth] = child
            node = child
            if stop:
                break
        nplayed = depth
        if not scored:
            if result[node] == -2 or result[node] == -1:
                nplayed = playout(t, a, b, keys, n, moves, cutoff, scale, stats, shares, played, who, depth)
        for i in range(depth + 1):
            v = path[i]
            visits[v] += 1.0
            if mover[v] < players:
                wins[v] += shares[mover[v]]
        if rave > 0:  # each child of the path's nodes whose move its player played later on
            seen[:, :] = False
            for i in range(nplayed - 1, -1, -1):
                if 0 <= played[i] < names:
                    seen[who[i], played[i]] = True
                if i < depth:
                    v = path[i]
                    for ch in range(first[v], first[v] + count[v]):
                        word = move[ch, 0]
                        if 0 <= word < names and mover[ch] < players and seen[mover[ch], word]:
                            amaf_visits[ch] += 1.0
                            amaf_wins[ch] += shares[mover[ch]]
        done += 1
        if iterations > 0 and done >= iterations:
            break
        if seconds > 0 and done >= next_look:
            clock = now()
            if clock >= deadline:
                break
            if clock - last_look < 1e-3 and every < CLOCK_EVERY:
                every *= 2  # cheap iterations: look less often
            last_look = clock
            next_look = done + every
    stats[ST_ITERATIONS] = done
    stats[ST_NODES] = used
    # the most visited line
    node = 0
    length = 0
    while first[node] >= 0 and length < pv.shape[0]:
        best_child = -1
        most = -1.0
        for i in range(first[node], first[node] + count[node]):
            if visits[i] > most:
                most = visits[i]
                best_child = i
        if most <= 0:
            break
        if length == 0:
            stats[ST_VISITS] = visits[best_child]
            stats[ST_WINS] = wins[best_child]
        pv[length] = move[best_child]
        length += 1
        node = best_child
    stats[ST_DEPTH] = length
    return length
