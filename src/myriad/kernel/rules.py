"""The rules of every kernel family behind one set of functions: each dispatches on
``t.params[P_FAMILY]`` to its family's module (see :mod:`myriad.kernel.families`), so a
search compiled once runs every family.  A new family adds a branch to each function."""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.kernel.families import (chess, chess_playout, draughts, draughts_playout, flips, go, go_playout, hunt,
                                    inarow, inarow_playout, sowing, tafl)
from myriad.kernel.keys import mix64
from myriad.kernel.layout import P_FAMILY, P_FORCED_CAPTURES, P_PLAYERS

#: The family modules, by family number.
FAMILIES = {inarow.FAMILY: inarow, tafl.FAMILY: tafl, hunt.FAMILY: hunt, flips.FAMILY: flips,
            sowing.FAMILY: sowing, chess.FAMILY: chess, draughts.FAMILY: draughts, go.FAMILY: go}


@njit(cache=True)
def gen(t, s, hist, nhist, moves):
    """The legal moves of ``s`` as rows of ``moves``; their count."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.gen(t, s, hist, nhist, moves)
    elif f == tafl.FAMILY:
        return tafl.gen(t, s, hist, nhist, moves)
    elif f == hunt.FAMILY:
        return hunt.gen(t, s, hist, nhist, moves)
    elif f == flips.FAMILY:
        return flips.gen(t, s, hist, nhist, moves)
    elif f == sowing.FAMILY:
        return sowing.gen(t, s, hist, nhist, moves)
    elif f == chess.FAMILY:
        return chess.gen(t, s, hist, nhist, moves)
    elif f == draughts.FAMILY:
        return draughts.gen(t, s, hist, nhist, moves)
    elif f == go.FAMILY:
        return go.gen(t, s, hist, nhist, moves)
    return -1


@njit(cache=True)
def play(t, s, m, dst):
    """The state after move row ``m`` into ``dst``; IRREVERSIBLE / GAVE_CHECK bits."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.play(t, s, m, dst)
    elif f == tafl.FAMILY:
        return tafl.play(t, s, m, dst)
    elif f == hunt.FAMILY:
        return hunt.play(t, s, m, dst)
    elif f == flips.FAMILY:
        return flips.play(t, s, m, dst)
    elif f == sowing.FAMILY:
        return sowing.play(t, s, m, dst)
    elif f == chess.FAMILY:
        return chess.play(t, s, m, dst)
    elif f == draughts.FAMILY:
        return draughts.play(t, s, m, dst)
    elif f == go.FAMILY:
        return go.play(t, s, m, dst)
    return -1


@njit(cache=True)
def actions(t, s, m, out):
    """The reference actions of move row ``m`` as rows of ``out``; their count."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.actions(t, s, m, out)
    elif f == tafl.FAMILY:
        return tafl.actions(t, s, m, out)
    elif f == hunt.FAMILY:
        return hunt.actions(t, s, m, out)
    elif f == flips.FAMILY:
        return flips.actions(t, s, m, out)
    elif f == sowing.FAMILY:
        return sowing.actions(t, s, m, out)
    elif f == chess.FAMILY:
        return chess.actions(t, s, m, out)
    elif f == draughts.FAMILY:
        return draughts.actions(t, s, m, out)
    elif f == go.FAMILY:
        return go.actions(t, s, m, out)
    return -1


@njit(cache=True)
def outcome(t, s, hist, nhist, nlegal):
    """-1 while the game goes on, else the bit set of the winners (all players: a draw)."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.outcome(t, s, hist, nhist, nlegal)
    elif f == tafl.FAMILY:
        return tafl.outcome(t, s, hist, nhist, nlegal)
    elif f == hunt.FAMILY:
        return hunt.outcome(t, s, hist, nhist, nlegal)
    elif f == flips.FAMILY:
        return flips.outcome(t, s, hist, nhist, nlegal)
    elif f == sowing.FAMILY:
        return sowing.outcome(t, s, hist, nhist, nlegal)
    elif f == chess.FAMILY:
        return chess.outcome(t, s, hist, nhist, nlegal)
    elif f == draughts.FAMILY:
        return draughts.outcome(t, s, hist, nhist, nlegal)
    elif f == go.FAMILY:
        return go.outcome(t, s, hist, nhist, nlegal)
    return -1


@njit(cache=True)
def evaluate(t, s):
    """The game's ``evaluate``: a static score for the side to move."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.evaluate(t, s)
    elif f == tafl.FAMILY:
        return tafl.evaluate(t, s)
    elif f == hunt.FAMILY:
        return hunt.evaluate(t, s)
    elif f == flips.FAMILY:
        return flips.evaluate(t, s)
    elif f == sowing.FAMILY:
        return sowing.evaluate(t, s)
    elif f == chess.FAMILY:
        return chess.evaluate(t, s)
    elif f == draughts.FAMILY:
        return draughts.evaluate(t, s)
    elif f == go.FAMILY:
        return go.evaluate(t, s)
    return 0.0


@njit(cache=True)
def order(t, s, m):
    """The game's ``move_heuristic``: how promising move ``m`` looks (higher first)."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.order(t, s, m)
    elif f == tafl.FAMILY:
        return tafl.order(t, s, m)
    elif f == hunt.FAMILY:
        return hunt.order(t, s, m)
    elif f == flips.FAMILY:
        return flips.order(t, s, m)
    elif f == sowing.FAMILY:
        return sowing.order(t, s, m)
    elif f == chess.FAMILY:
        return chess.order(t, s, m)
    elif f == draughts.FAMILY:
        return draughts.order(t, s, m)
    elif f == go.FAMILY:
        return go.order(t, s, m)
    return 0.0


@njit(cache=True)
def noisy(t, s, m):
    """The game's ``is_noisy``: whether quiescence searches move ``m``."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.noisy(t, s, m)
    elif f == tafl.FAMILY:
        return tafl.noisy(t, s, m)
    elif f == hunt.FAMILY:
        return hunt.noisy(t, s, m)
    elif f == flips.FAMILY:
        return flips.noisy(t, s, m)
    elif f == sowing.FAMILY:
        return sowing.noisy(t, s, m)
    elif f == chess.FAMILY:
        return chess.noisy(t, s, m)
    elif f == draughts.FAMILY:
        return draughts.noisy(t, s, m)
    elif f == go.FAMILY:
        return go.noisy(t, s, m)
    return False


# -- a node's moves at once: one dispatch per node instead of one per move (a call that
# passes the tables costs more than a small family function such as ``order``).


@njit(cache=True)
def order_moves(t, s, moves, n, out):
    """``order`` of each of the ``n`` ``moves`` into ``out``."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        inarow.order_moves(t, s, moves, n, out)
    elif f == tafl.FAMILY:
        for i in range(n):
            out[i] = tafl.order(t, s, moves[i])
    elif f == hunt.FAMILY:
        for i in range(n):
            out[i] = hunt.order(t, s, moves[i])
    elif f == flips.FAMILY:
        for i in range(n):
            out[i] = flips.order(t, s, moves[i])
    elif f == sowing.FAMILY:
        for i in range(n):
            out[i] = sowing.order(t, s, moves[i])
    elif f == chess.FAMILY:
        for i in range(n):
            out[i] = chess.order(t, s, moves[i])
    elif f == draughts.FAMILY:
        for i in range(n):
            out[i] = draughts.order(t, s, moves[i])
    elif f == go.FAMILY:
        for i in range(n):
            out[i] = go.order(t, s, moves[i])
    else:
        out[:n] = 0.0


@njit(cache=True)
def keep_noisy(t, s, moves, n):
    """The moves among the ``n`` ``moves`` that ``noisy`` says are, kept in their order at
    the front of ``moves``; their count."""
    f = t.params[P_FAMILY]
    k = 0
    if f == inarow.FAMILY:
        for i in range(n):
            if inarow.noisy(t, s, moves[i]):
                if k != i:
                    moves[k] = moves[i]
                k += 1
    elif f == tafl.FAMILY:
        for i in range(n):
            if tafl.noisy(t, s, moves[i]):
                if k != i:
                    moves[k] = moves[i]
                k += 1
    elif f == hunt.FAMILY:
        for i in range(n):
            if hunt.noisy(t, s, moves[i]):
                if k != i:
                    moves[k] = moves[i]
                k += 1
    elif f == flips.FAMILY:
        for i in range(n):
            if flips.noisy(t, s, moves[i]):
                if k != i:
                    moves[k] = moves[i]
                k += 1
    elif f == sowing.FAMILY:
        for i in range(n):
            if sowing.noisy(t, s, moves[i]):
                if k != i:
                    moves[k] = moves[i]
                k += 1
    elif f == chess.FAMILY:
        for i in range(n):
            if chess.noisy(t, s, moves[i]):
                if k != i:
                    moves[k] = moves[i]
                k += 1
    elif f == draughts.FAMILY:
        for i in range(n):
            if draughts.noisy(t, s, moves[i]):
                if k != i:
                    moves[k] = moves[i]
                k += 1
    elif f == go.FAMILY:
        for i in range(n):
            if go.noisy(t, s, moves[i]):
                if k != i:
                    moves[k] = moves[i]
                k += 1
    return k


@njit(cache=True)
def actions_hash(acts, n):
    """A nonzero hash of ``n`` action rows ``(kind, frm, to, piece, part)`` (equal
    actions, equal hashes, in any position)."""
    h = np.uint64(n)
    for i in range(n):
        # kind, then the squares and the piece in 16 bits each (+1: -1 for none), the part
        word = (np.uint64(acts[i, 0]) | (np.uint64(acts[i, 1] + 1) << np.uint64(8))
                | (np.uint64(acts[i, 2] + 1) << np.uint64(24)) | (np.uint64(acts[i, 3] + 1) << np.uint64(40))
                | (np.uint64(acts[i, 4]) << np.uint64(56)))
        h = mix64(h ^ word)
    v = np.int64(h)
    return v if v != 0 else np.int64(1)


@njit(cache=True)
def child_key(t, s, m):
    """The key of the position after move ``m`` where the family works it out without
    playing the move (most often right: a search prefetches its children's table entries
    by it), else 0."""
    if t.params[P_FAMILY] == inarow.FAMILY:
        return inarow.child_key(t, s, m)
    return np.int64(0)


@njit(cache=True)
def move_hash(t, s, m, acts):
    """A nonzero hash of move ``m``'s reference actions, equal for equal actions in any
    position (killers and history know moves by it): :func:`actions_hash`, or the
    family's own where it finds one without listing the actions (``acts``: scratch rows)."""
    if t.params[P_FAMILY] == flips.FAMILY:
        return flips.move_hash(t, s, m)
    if t.params[P_FAMILY] == inarow.FAMILY:
        return inarow.move_hash(t, s, m)
    return actions_hash(acts, actions(t, s, m, acts))


@njit(cache=True)
def move_hashes(t, s, moves, n, acts, out):
    """:func:`move_hash` of each of the ``n`` ``moves`` into ``out`` (``acts``: scratch
    rows)."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        for i in range(n):
            out[i] = inarow.move_hash(t, s, moves[i])
    elif f == tafl.FAMILY:
        for i in range(n):
            out[i] = actions_hash(acts, tafl.actions(t, s, moves[i], acts))
    elif f == hunt.FAMILY:
        for i in range(n):
            out[i] = actions_hash(acts, hunt.actions(t, s, moves[i], acts))
    elif f == flips.FAMILY:
        for i in range(n):
            out[i] = flips.move_hash(t, s, moves[i])
    elif f == sowing.FAMILY:
        for i in range(n):
            out[i] = actions_hash(acts, sowing.actions(t, s, moves[i], acts))
    elif f == chess.FAMILY:
        for i in range(n):
            out[i] = actions_hash(acts, chess.actions(t, s, moves[i], acts))
    elif f == draughts.FAMILY:
        for i in range(n):
            out[i] = actions_hash(acts, draughts.actions(t, s, moves[i], acts))
    elif f == go.FAMILY:
        for i in range(n):
            out[i] = actions_hash(acts, go.actions(t, s, moves[i], acts))


@njit(cache=True)
def repetition(t, s):
    """The winners' bits of the game's ``repetition_outcome`` for ``s``."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.repetition(t, s)
    elif f == tafl.FAMILY:
        return tafl.repetition(t, s)
    elif f == hunt.FAMILY:
        return hunt.repetition(t, s)
    elif f == flips.FAMILY:
        return flips.repetition(t, s)
    elif f == sowing.FAMILY:
        return sowing.repetition(t, s)
    elif f == chess.FAMILY:
        return chess.repetition(t, s)
    elif f == draughts.FAMILY:
        return draughts.repetition(t, s)
    elif f == go.FAMILY:
        return go.repetition(t, s)
    return (1 << t.params[P_PLAYERS]) - 1


@njit(cache=True)
def repeat(t, s, hist, nhist):
    """The winners' bits of ``Game.repetition_outcome`` for ``s`` met again on a search's
    line (``hist[:nhist]``: the keys before it, its own among them), for a family whose
    value depends on how often the position occurred (tafl: the rules' end only at the
    third occurrence); else :func:`repetition`."""
    if t.params[P_FAMILY] == tafl.FAMILY:
        return tafl.repeat(t, s, hist, nhist)
    return repetition(t, s)


@njit(cache=True)
def playout_move(t, s, moves, n):
    """The index of the move a playout plays among the ``n`` legal ``moves`` (the family's
    playout policy; uniformly random by default)."""
    f = t.params[P_FAMILY]
    if f == go.FAMILY:
        return go.playout_move(t, s, moves, n)
    return np.random.randint(n)


@njit(cache=True)
def whole_playout(t, a, limit, played, who, nplayed):
    """A playout of the family's policy on the family's own incremental board, where it
    has one (Go, :mod:`go_playout`): ``a`` played on in place for at most ``limit``
    plies, each move's word 0 and player appended to ``played`` and ``who``.  Returns
    (their new length, the winners' bits; -1 stopped at ``limit``; -2 no such playout:
    the caller plays :func:`gen` and :func:`playout_move`)."""
    if t.params[P_FAMILY] == go.FAMILY and t.params[go.FAST_PLAYOUT] != 0:
        return go_playout.playout(t, a, limit, played, who, nplayed)
    return nplayed, -2


@njit(cache=True)
def random_playout(t, a, hist, nhist, limit, played):
    """A uniformly random game on the family's own light board, where it has one (the
    in-a-row family's, :mod:`inarow_playout`; the chess family's simplest games',
    :mod:`chess_playout`; the draughts family's, :mod:`draughts_playout`): ``a`` (after
    the positions ``hist[:nhist]``) played on in place for at most ``limit`` plies, each
    move's word 0 written into ``played``.  Returns (the winners' bits; -1 stopped at
    ``limit``; -2 no such playout: the caller plays :func:`gen` and :func:`play`; the
    plies played)."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY and inarow_playout.plays(t):
        return inarow_playout.playout(t, a, limit, played)
    if f == chess.FAMILY and chess_playout.plays(t):
        return chess_playout.playout(t, a, limit, played)
    if f == draughts.FAMILY and draughts_playout.plays(t):
        return draughts_playout.playout(t, a, hist, nhist, limit, played)
    return -2, 0


@njit(cache=True)
def candidates(t, s, moves, n):
    """The game's ``candidate_moves``: the moves among the ``n`` legal ``moves`` worth
    searching, written to the front of ``moves``; their number (all of them by default)."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.candidates(t, s, moves, n)
    elif f == go.FAMILY:
        return go.candidates(t, s, moves, n)
    return n


# -- the search's hooks beyond ``candidates``: a family that reproduces a game's own
# ``may_stand_pat`` or ``in_check`` (or lists its ``noisy_moves`` faster than ``noisy``
# filters them) adds a branch here and names the reproduced methods in its ``SEARCH_HOOKS``; without one, the
# default is the reference's base ``Game``'s.  ``noisy`` says whether a move is among the
# game's ``noisy_moves`` (for the base ``Game``: ``is_noisy``).


#: The families whose ``noisy_moves`` are a list of their own (threats), not the moves
#: ``noisy`` says are (which are none: placements capture nothing).
OWN_NOISY_MOVES = frozenset({inarow.FAMILY, go.FAMILY})


@njit(cache=True)
def noisy_moves(t, s, hist, nhist, moves):
    """The game's ``noisy_moves`` as rows of ``moves``, their count (default: the legal
    moves that ``noisy`` says are, in the order ``gen`` lists them)."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.noisy_moves(t, s, hist, nhist, moves)
    elif f == chess.FAMILY:
        return chess.noisy_moves(t, s, hist, nhist, moves)
    elif f == tafl.FAMILY:
        return tafl.noisy_moves(t, s, hist, nhist, moves)
    elif f == go.FAMILY:
        return go.noisy_moves(t, s, hist, nhist, moves)
    return keep_noisy(t, s, moves, gen(t, s, hist, nhist, moves))


@njit(cache=True)
def in_check(t, s):
    """The game's ``in_check``: whether the side to move is in check (the search extends
    such a node; default: never)."""
    f = t.params[P_FAMILY]
    if f == chess.FAMILY:
        return chess.in_check(t, s)
    return False


@njit(cache=True)
def moves_at_leaves(t, quiescence):
    """Whether a leaf of the search lists the legal moves, for ``outcome``'s count and
    (with ``quiescence``) the noisy moves: not where ``outcome`` does not need the count
    (the in-a-row and line-flip games) and there is no quiescence or its moves are found
    without the list (the in-a-row games without gravity or restrictions)."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return quiescence and not inarow.moves_by_cell(t)
    if f == flips.FAMILY:
        return quiescence
    return True


@njit(cache=True)
def noisy_among(t, s, moves, n):
    """The game's ``noisy_moves`` taken from the ``n`` legal ``moves`` of ``s`` as ``gen``
    listed them (kept at the front of ``moves``, in ``gen``'s order; their count): the
    moves that ``noisy`` keeps (the default, and chess's and tafl's, which only find them
    sooner), or the in-a-row threats among them; -1 where the family cannot (Go, renju's
    forbidden points: call :func:`noisy_moves`)."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.noisy_among(t, s, moves, n)
    if f == go.FAMILY:
        return -1
    return keep_noisy(t, s, moves, n)


@njit(cache=True)
def stand_pat(t, s):
    """The game's ``may_stand_pat``: whether quiescence may stop at the static evaluation
    (default: unless captures are forced)."""
    f = t.params[P_FAMILY]
    if f == inarow.FAMILY:
        return inarow.stand_pat(t, s)
    elif f == go.FAMILY:
        return go.stand_pat(t, s)
    return t.params[P_FORCED_CAPTURES] == 0
