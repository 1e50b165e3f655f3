"""Kernel family: stones placed on empty points, chains without a liberty taken, suicide
forbidden, positional superko, passes, area scoring -- Go and Atari Go
(:class:`myriad.games.go.Go`, over :class:`myriad.core.mechanics.surround.Surround`).

Tables: ``rules[pos]`` the points linked to ``pos`` in :attr:`Surround.neighbours` order,
padded with -1; ``extra[pos]`` its diagonal points, padded with -1 (true eyes);
``weights[0]`` the evaluation, move-ordering and candidate weights of :class:`GoWeights`
(the same numbers the reference reads), ``weights[1]`` the playout policy (see
:func:`playout_move`), ``weights[2]`` each point's worth by its line (``Go.prior``); ``params``: ``FIRST_CAPTURE``, ``KOMI2`` (twice the komi),
``MAX_PLIES`` and each player's ``STONE``.  A move is one word: the point, or the board's
size for a pass.

History: as :meth:`Go.play` keeps it, the history holds the *board* keys of earlier
positions (the key without the side to move): ``play`` returns :data:`BOARD_KEY`, telling
the caller to push ``key ^ side[to_move]``.  ``gen`` also recognises full state keys in
the history (a caller that pushes those still gets superko right).
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.move import CAPTURE, DROP
from myriad.kernel.families import BOARD_KEY
from myriad.kernel.layout import (MAX_ACTIONS, P_COUNTERS, P_FAMILY_PARAMS, P_FORCED_CAPTURES, P_SIZE, P_VALUES,
                                  S_CELLS, S_KEY, S_TO_MOVE, Tables, base_tables)

FAMILY = 6
FIRST_CAPTURE = P_FAMILY_PARAMS
KOMI2 = P_FAMILY_PARAMS + 1
MAX_PLIES = P_FAMILY_PARAMS + 2
STONE = P_FAMILY_PARAMS + 3   # + player: the stone's cell value
FAST_PLAYOUT = P_FAMILY_PARAMS + 5  # 1: playouts run on go_playout's incremental board (see tables)

# -- counters (myriad.games.go) --
PASSES, PLIES, CAPTURES = 0, 1, 2   # CAPTURES + player: stones taken by that player

# -- weights[0]: GoWeights; weights[2]: each point's worth by its line (Go.prior) --
(W_ATARI_MINE, W_ATARI_THEIRS, W_CAPTURE, W_CAPTURE_BONUS, W_SAVE, W_GIVE_ATARI, W_SELF_ATARI, W_CONTACT,
 W_CANDIDATES, W_ATARI_CANDIDATES, W_ATARI_LIBERTY, W_ATARI_PRESSURE, W_LADDER_BUDGET,
 W_ATARI_WIN, W_ATARI_SAVED, W_ATARI_SHARE) = range(16)
GO_WEIGHTS = 16     # the width of weights[0]
# -- weights[1]: the playout policy: a move's priority is the sum of the terms that apply;
# a playout plays one of the moves of the highest priority, drawn uniformly --
# (the numbers are ``GoWeights.playout``, Atari Go's ``GoWeights.atari_playout``, in this order)
PO_CAPTURE, PO_SAVE, PO_SELF_ATARI, PO_OWN_EYE, PO_PASS, PO_ATARI = range(6)

#: The game's search hooks this family reproduces (``myriad.kernel.rules``): its
#: candidates are :meth:`Go.candidate_moves`, Atari Go's ladder reading included; its
#: :func:`noisy_moves` and :func:`stand_pat` are :meth:`Go.noisy_moves` and
#: :meth:`Go.may_stand_pat` (Atari Go's tactical quiescence: ataris and saves).
SEARCH_HOOKS = frozenset({"candidate_moves", "noisy_moves", "may_stand_pat"})

def mcts_defaults(game: Game) -> dict[str, float]:
    """The kernel MCTS's defaults for ``game`` (the ``mcts`` bot reads them), from its
    :class:`GoWeights`: ``cutoff``, the plies a playout plays before the evaluation scores
    it (Go's playouts run to the end of the game: two passes, the ply cap, or Atari Go's
    capture); ``rave``, RAVE's equivalence parameter (a move is named by its point, so
    all-moves-as-first statistics apply); ``c``, the exploration constant."""
    from myriad.games.go import Go
    assert isinstance(game, Go)
    w = game.weights
    if game.first_capture:
        return {"cutoff": w.atari_mcts_cutoff, "rave": w.atari_mcts_rave, "c": w.atari_mcts_c}
    return {"cutoff": w.mcts_cutoff, "rave": w.mcts_rave, "c": w.mcts_c}

def tables(game: Game) -> Tables | None:
    """The tables of a :class:`Go` game (any size, komi, Atari Go, handicap setups)."""
    from myriad.games.go import Go
    if type(game) is not Go or game.surround.suicide:
        return None
    size = game.topology.size
    if size > MAX_ACTIONS:  # (a placement taking every other stone lists ``size`` actions)
        return None
    neighbours = np.full((size, 4), -1, np.int64)
    for pos, near in enumerate(game.surround.neighbours):
        if len(near) > 4:
            return None
        neighbours[pos, :len(near)] = near
    diagonals = np.full((size, 4), -1, np.int64)
    for pos, near in enumerate(game.diagonals):
        diagonals[pos, :len(near)] = near
    w = game.weights
    weights = np.zeros((3, max(GO_WEIGHTS, size)), np.float64)
    weights[0, :GO_WEIGHTS] = (w.atari_mine, w.atari_theirs, w.capture, w.capture_bonus, w.save, w.give_atari,
                               w.self_atari, w.contact, w.candidates, w.atari_candidates, w.atari_liberty,
                               w.atari_pressure, w.ladder_budget, w.atari_win, w.atari_saved, w.atari_share)
    weights[2, :size] = game.prior
    policy = w.atari_playout if game.first_capture else w.playout
    weights[1, :PO_ATARI + 1] = policy
    params = {FIRST_CAPTURE: int(game.first_capture), KOMI2: int(game.komi * 2), MAX_PLIES: game.max_plies,
              STONE: game.stones[0], STONE + 1: game.stones[1], FAST_PLAYOUT: int(_plays_incrementally(policy))}
    return base_tables(game, FAMILY, move_width=1, max_moves=size + 1, rules=neighbours, extra=diagonals,
                       weights=weights, family_params=params)


def _plays_incrementally(policy: tuple[float, ...]) -> bool:
    """Whether the playout policy ranks its classes as :mod:`go_playout` plays them:
    captures, then saves, then the plain moves (ataris among them), then pass, then
    self-ataris and own eyes."""
    worst = max(policy[PO_SELF_ATARI], policy[PO_OWN_EYE])
    return (policy[PO_CAPTURE] > policy[PO_SAVE] > 0.0 and policy[PO_ATARI] == 0.0
            and 0.0 > policy[PO_PASS] > worst)


def prepare(t: Tables, s: np.ndarray) -> None:
    """No words of its own."""


# -- chains ---------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _walk_chain(t, cells, pos, stones, seen, liberty, stamp, most):
    """Walk the chain on ``pos`` of ``cells`` (one cell per point): its stones written to
    ``stones`` and set to ``stamp`` in ``seen``, its liberties set to it in ``liberty``
    (points already holding it are passed over; the two may be one array), stopping once
    ``most`` liberties are found; returns (stones, liberties)."""
    v = cells[pos]
    stones[0] = pos
    seen[pos] = stamp
    end = 1
    i = 0
    n = 0
    while i < end:
        q = stones[i]
        i += 1
        for k in range(4):
            r = t.rules[q, k]
            if r < 0:
                break
            w = cells[r]
            if w == 0:
                if liberty[r] != stamp:
                    liberty[r] = stamp
                    n += 1
                    if n >= most:
                        return end, n
            elif w == v and seen[r] != stamp:
                seen[r] = stamp
                stones[end] = r
                end += 1
    return end, n


@njit(cache=True)
def chains(t, s, label, colour, libs, start, length, order, stamp):
    """Label the chains of ``s`` as :meth:`Surround.groups` does (scanning points in order):
    ``label[pos]`` the chain (-1 empty), ``colour``, ``libs`` (distinct liberties),
    ``order[start[g]:start[g] + length[g]]`` its stones; ``stamp`` is scratch.  Returns
    the number of chains."""
    size = t.params[P_SIZE]
    cells = s[S_CELLS:S_CELLS + size]
    label[:] = -1
    stamp[:] = -1
    g = 0
    top = 0
    for pos in range(size):
        if cells[pos] == 0 or label[pos] >= 0:
            continue
        length[g], libs[g] = _walk_chain(t, cells, pos, order[top:], label, stamp, g, size)
        colour[g] = cells[pos]
        start[g] = top
        top += length[g]
        g += 1
    return g


@njit(cache=True)
def _labelled_chains(t, s):
    """:func:`chains` of ``s`` in fresh arrays: (the number of chains, ``label``,
    ``colour``, ``libs``, ``start``, ``length``, ``order``, ``stamp``)."""
    size = t.params[P_SIZE]
    work = np.empty((7, size), np.int64)
    label, colour, libs, start, length, order, stamp = work[0], work[1], work[2], work[3], work[4], work[5], work[6]
    n = chains(t, s, label, colour, libs, start, length, order, stamp)
    return n, label, colour, libs, start, length, order, stamp


@njit(cache=True)
def finished(t, s):
    """Two passes, the ply cap, or (Atari Go) a capture."""
    p = t.params
    c = p[P_COUNTERS]
    if s[c + PASSES] >= 2 or s[c + PLIES] >= p[MAX_PLIES]:
        return True
    return p[FIRST_CAPTURE] != 0 and (s[c + CAPTURES] > 0 or s[c + CAPTURES + 1] > 0)


#: Words of the bit filter of history keys (a board key is looked for in the history only
#: when its bit is set).
FILTER_WORDS = 64


@njit(cache=True, inline="always")
def _remember(seen, key):
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    bit = h >> np.uint64(52)  # 4096 bits
    seen[bit >> np.uint64(6)] |= np.uint64(1) << (bit & np.uint64(63))


@njit(cache=True, inline="always")
def _maybe(seen, key):
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    bit = h >> np.uint64(52)
    return (seen[bit >> np.uint64(6)] >> (bit & np.uint64(63))) & np.uint64(1) != np.uint64(0)


@njit(cache=True)
def _repeats(hist, nhist, key, side0, side1):
    """Whether board key ``key`` is in the history (as a board key, or as a state key
    with either side to move)."""
    for i in range(nhist):
        h = hist[i]
        if h == key or h == key ^ side0 or h == key ^ side1:
            return True
    return False


@njit(cache=True)
def gen(t, s, hist, nhist, moves):
    p = t.params
    if finished(t, s):
        return 0
    size, values = p[P_SIZE], p[P_VALUES]
    me = s[S_TO_MOVE]
    stone = p[STONE + me]
    _, label, colour, libs, start, length, order, stamp = _labelled_chains(t, s)
    board = s[S_KEY] ^ t.side[me]
    side0, side1 = t.side[0], t.side[1]
    seen = np.zeros(FILTER_WORDS, np.uint64)  # a filter of the history's keys (and of them without a side)
    for i in range(nhist):
        _remember(seen, hist[i])
        _remember(seen, hist[i] ^ side0)
        _remember(seen, hist[i] ^ side1)
    nb, zob = t.rules, t.zobrist
    hits = np.empty(4, np.int64)
    moves[0, 0] = size
    n = 1
    for pos in range(size):
        if s[S_CELLS + pos] != 0:
            continue
        alive = False
        nhits = 0
        key = board ^ zob[pos * values + stone]
        for k in range(4):
            r = nb[pos, k]
            if r < 0:
                break
            g = label[r]
            if g < 0:
                alive = True
            elif colour[g] == stone:
                if libs[g] > 1:
                    alive = True
            elif libs[g] == 1:
                new = True
                for h in range(nhits):
                    if hits[h] == g:
                        new = False
                if new:
                    hits[nhits] = g
                    nhits += 1
                    for i in range(start[g], start[g] + length[g]):
                        q = order[i]
                        key ^= zob[q * values + colour[g]]
        if nhits == 0 and not alive:
            continue  # suicide
        if key == board or (_maybe(seen, key) and _repeats(hist, nhist, key, side0, side1)):
            continue  # superko
        moves[n, 0] = pos
        n += 1
    return n


@njit(cache=True)
def _take_if_dead(t, s, pos, key, stack, mark, stamp_value):
    """Remove the chain on ``pos`` from ``s`` when it has no liberty; returns (stones
    taken, new key).  ``mark`` holds ``stamp_value`` on visited points."""
    p = t.params
    values = p[P_VALUES]
    v = s[S_CELLS + pos]
    end, liberties = _walk_chain(t, s[S_CELLS:S_CELLS + p[P_SIZE]], pos, stack, mark, mark, stamp_value, 1)
    if liberties:
        return 0, key
    for i in range(end):
        q = stack[i]
        key ^= t.zobrist[q * values + v]
        s[S_CELLS + q] = 0
    return end, key


@njit(cache=True)
def play(t, s, m, dst):
    p = t.params
    size, values = p[P_SIZE], p[P_VALUES]
    dst[:] = s
    me = s[S_TO_MOVE]
    c = p[P_COUNTERS]
    key = s[S_KEY] ^ t.side[me] ^ t.side[1 - me]
    pos = m[0]
    if pos == size:
        dst[c + PASSES] = s[c + PASSES] + 1
    else:
        stone = p[STONE + me]
        dst[S_CELLS + pos] = stone
        key ^= t.zobrist[pos * values + stone]
        stack = np.empty(size, np.int64)
        mark = np.zeros(size, np.int64)
        taken = 0
        for k in range(4):
            r = t.rules[pos, k]
            if r < 0:
                break
            w = dst[S_CELLS + r]
            if w != 0 and w != stone:
                got, key = _take_if_dead(t, dst, r, key, stack, mark, k + 1)
                taken += got
        dst[c + PASSES] = 0
        dst[c + CAPTURES + me] = s[c + CAPTURES + me] + taken
    dst[c + PLIES] = s[c + PLIES] + 1
    dst[S_TO_MOVE] = 1 - me
    dst[S_KEY] = key
    return BOARD_KEY


@njit(cache=True)
def actions(t, s, m, out):
    p = t.params
    size = p[P_SIZE]
    pos = m[0]
    if pos == size:
        return 0
    me = s[S_TO_MOVE]
    stone = p[STONE + me]
    after = s.copy()
    after[S_CELLS + pos] = stone
    stack = np.empty(size, np.int64)
    mark = np.zeros(size, np.int64)
    for k in range(4):
        r = t.rules[pos, k]
        if r < 0:
            break
        w = after[S_CELLS + r]
        if w != 0 and w != stone:
            _take_if_dead(t, after, r, np.int64(0), stack, mark, k + 1)
    out[0, 0] = DROP
    out[0, 1] = pos
    out[0, 2] = pos
    out[0, 3] = stone
    out[0, 4] = 0
    n = 1
    for q in range(size):
        if s[S_CELLS + q] != 0 and after[S_CELLS + q] == 0:
            out[n, 0] = CAPTURE
            out[n, 1] = q
            out[n, 2] = q
            out[n, 3] = s[S_CELLS + q]
            out[n, 4] = 0
            n += 1
    return n


@njit(cache=True)
def area(t, s):
    """Black's and White's area: stones plus empty regions reaching one colour only."""
    p = t.params
    size = p[P_SIZE]
    b, w = p[STONE], p[STONE + 1]
    seen = np.zeros(size, np.bool_)
    stack = np.empty(size, np.int64)
    black = 0
    white = 0
    for pos in range(size):
        v = s[S_CELLS + pos]
        if v == b:
            black += 1
            continue
        if v == w:
            white += 1
            continue
        if seen[pos]:
            continue
        seen[pos] = True
        stack[0] = pos
        end = 1
        i = 0
        reach_b = False
        reach_w = False
        while i < end:
            q = stack[i]
            i += 1
            for k in range(4):
                r = t.rules[q, k]
                if r < 0:
                    break
                x = s[S_CELLS + r]
                if x == b:
                    reach_b = True
                elif x == w:
                    reach_w = True
                elif x == 0 and not seen[r]:
                    seen[r] = True
                    stack[end] = r
                    end += 1
        if reach_b and not reach_w:
            black += end
        elif reach_w and not reach_b:
            white += end
    return black, white


@njit(cache=True)
def outcome(t, s, hist, nhist, nlegal):
    if not finished(t, s):
        return -1
    p = t.params
    c = p[P_COUNTERS]
    if p[FIRST_CAPTURE] != 0 and (s[c + CAPTURES] > 0 or s[c + CAPTURES + 1] > 0):
        return 1 if s[c + CAPTURES] > 0 else 2
    black, white = area(t, s)
    margin2 = 2 * (black - white) - p[KOMI2]
    if margin2 == 0:
        return 3
    return 1 if margin2 > 0 else 2


# -- knowledge for bots ---------------------------------------------------------------------------

@njit(cache=True)
def nearest_area(t, s):
    """Per player: stones plus empty points nearer (in steps through empty points) to
    that player's stones (:meth:`Go._nearest_area`)."""
    p = t.params
    size = p[P_SIZE]
    dist = np.full((2, size), size, np.int64)
    frontier = np.empty(size, np.int64)
    nxt = np.empty(size, np.int64)
    for player in range(2):
        stone = p[STONE + player]
        nf = 0
        for pos in range(size):
            if s[S_CELLS + pos] == stone:
                dist[player, pos] = 0
                frontier[nf] = pos
                nf += 1
        step = 0
        while nf > 0:
            step += 1
            nn = 0
            for i in range(nf):
                q = frontier[i]
                for k in range(4):
                    r = t.rules[q, k]
                    if r < 0:
                        break
                    if dist[player, r] > step and s[S_CELLS + r] == 0:
                        dist[player, r] = step
                        nxt[nn] = r
                        nn += 1
            for i in range(nn):
                frontier[i] = nxt[i]
            nf = nn
    black = 0
    white = 0
    for pos in range(size):
        if dist[0, pos] < dist[1, pos]:
            black += 1
        elif dist[1, pos] < dist[0, pos]:
            white += 1
    return black, white


@njit(cache=True)
def evaluate(t, s):
    p = t.params
    me = s[S_TO_MOVE]
    mine = p[STONE + me]
    w = t.weights
    n, label, colour, libs, start, length, order, stamp = _labelled_chains(t, s)
    if p[FIRST_CAPTURE] != 0:
        return _atari_go_value(t, s, n, label, colour, libs, start, length, order, stamp)
    black, white = nearest_area(t, s)
    komi = p[KOMI2] / 2.0
    if me == 0:
        score = float(black - white) - komi
    else:
        score = float(white - black) + komi
    for g in range(n):
        if libs[g] == 1:
            if colour[g] != mine:
                score += w[0, W_ATARI_THEIRS] * length[g]
            else:
                score += -w[0, W_ATARI_MINE] * length[g]
    return score


@njit(cache=True)
def _atari_go_value(t, s, n, label, colour, libs, start, length, order, stamp):
    """Atari Go's evaluation for the side to move (:meth:`Go._atari_go_value`), over the
    ``n`` chains labelled."""
    w = t.weights
    me = s[S_TO_MOVE]
    mine = t.params[STONE + me]
    score = 0.0
    for g in range(n):
        k = libs[g]
        if colour[g] != mine:
            if k == 1:
                return w[0, W_ATARI_WIN]
            score += w[0, W_ATARI_SHARE] / k
        else:
            score -= w[0, W_ATARI_SHARE] / k
    point, several = _atari_liberty(t, s, n, colour, libs, start, length, order, mine)
    if point >= 0:
        if several:
            return -w[0, W_ATARI_WIN]
        stamp[:] = -1
        if _liberties_after(t, s, label, colour, order, start, length, point, mine, stamp) < 2:
            return -w[0, W_ATARI_WIN]
        score -= w[0, W_ATARI_SAVED]
    return score


@njit(cache=True)
def noisy_moves(t, s, hist, nhist, moves):
    """:meth:`Go.noisy_moves` as rows of ``moves`` (in ``gen``'s order), their count: Go's
    captures; Atari Go's ataris and saves."""
    p = t.params
    size = p[P_SIZE]
    count = gen(t, s, hist, nhist, moves)
    k = 0
    if p[FIRST_CAPTURE] == 0:
        for i in range(count):
            if noisy(t, s, moves[i]):
                if k != i:
                    moves[k] = moves[i]
                k += 1
        return k
    if count == 0:
        return 0
    stone = p[STONE + s[S_TO_MOVE]]
    n, label, colour, libs, start, length, order, stamp = _labelled_chains(t, s)
    stamp[:] = -1
    for g in range(n):
        if libs[g] == 1 and colour[g] != stone:
            return 0
    point, several = _atari_liberty(t, s, n, colour, libs, start, length, order, stone)
    if point >= 0:
        if several or _liberties_after(t, s, label, colour, order, start, length, point, stone, stamp) < 2:
            return 0
        for i in range(count):
            if moves[i, 0] == point:
                moves[0, 0] = point
                return 1
        return 0
    for i in range(count):
        pos = moves[i, 0]
        if pos == size:
            continue
        for j in range(4):
            r = t.rules[pos, j]
            if r < 0:
                break
            g = label[r]
            if g >= 0 and colour[g] != stone and libs[g] == 2:
                if _liberties_after(t, s, label, colour, order, start, length, pos, stone, stamp) >= 2:
                    moves[k, 0] = pos
                    k += 1
                break
    return k


@njit(cache=True)
def stand_pat(t, s):
    """:meth:`Go.may_stand_pat`: Atari Go's quiescence may not stand pat while an own
    chain is in atari and no enemy chain is."""
    p = t.params
    if p[FIRST_CAPTURE] == 0:
        return p[P_FORCED_CAPTURES] == 0
    stone = p[STONE + s[S_TO_MOVE]]
    n, label, colour, libs, start, length, order, stamp = _labelled_chains(t, s)
    own = False
    for g in range(n):
        if libs[g] == 1:
            if colour[g] != stone:
                return True
            own = True
    return not own


@njit(cache=True)
def _liberty(t, s, order, first, count):
    """The first liberty found of the chain ``order[first:first + count]``."""
    for i in range(first, first + count):
        q = order[i]
        for k in range(4):
            r = t.rules[q, k]
            if r < 0:
                break
            if s[S_CELLS + r] == 0:
                return r
    return -1


@njit(cache=True, inline="always")
def _atari_liberty(t, s, n, colour, libs, start, length, order, stone):
    """The liberty of ``stone``'s chains in atari among the ``n`` labelled, -1 when none
    is in atari; and whether they have more than one (the first is returned)."""
    point = -1
    several = False
    for g in range(n):
        if colour[g] == stone and libs[g] == 1:
            lib = _liberty(t, s, order, start[g], length[g])
            if point < 0:
                point = lib
            elif lib != point:
                several = True
    return point, several


@njit(cache=True)
def _liberties_after(t, s, label, colour, order, start, length, pos, stone, stamp):
    """Liberties of the chain a stone on ``pos`` forms, not counting captures
    (:meth:`Go._liberties_after`); ``stamp`` is scratch, all -1 on entry and exit."""
    n = _stamp_liberties_after(t, s, label, colour, order, start, length, pos, stone, stamp, 1)
    _stamp_liberties_after(t, s, label, colour, order, start, length, pos, stone, stamp, -1)
    return n


@njit(cache=True, inline="always")
def _stamp_liberties_after(t, s, label, colour, order, start, length, pos, stone, stamp, value):
    """Set ``stamp`` to ``value`` on the liberties of the chain a stone on ``pos`` forms
    (not counting captures); returns how many did not hold it."""
    n = 0
    for k in range(4):
        r = t.rules[pos, k]
        if r < 0:
            break
        g = label[r]
        if g < 0:
            if stamp[r] != value:
                stamp[r] = value
                n += 1
        elif colour[g] == stone:
            for i in range(start[g], start[g] + length[g]):
                q = order[i]
                for j in range(4):
                    x = t.rules[q, j]
                    if x < 0:
                        break
                    if s[S_CELLS + x] == 0 and x != pos and stamp[x] != value:
                        stamp[x] = value
                        n += 1
    return n


@njit(cache=True, inline="always")
def _first_of(near, i):
    """Whether the chain ``near[i]`` is not among ``near[:i]``."""
    for j in range(i):
        if near[j] == near[i]:
            return False
    return True


@njit(cache=True, inline="always")
def _stones_in_atari(near, nnear, colour, libs, length, stone):
    """The stones of the enemy chains in atari among ``near[:nnear]`` (each chain once)."""
    taken = 0
    for i in range(nnear):
        g = near[i]
        if _first_of(near, i) and colour[g] != stone and libs[g] == 1:
            taken += length[g]
    return taken


@njit(cache=True)
def _heuristic(t, s, pos, label, colour, libs, start, length, order, stamp):
    """:meth:`Go.move_heuristics` of the placement on ``pos`` (chains already labelled;
    ``stamp`` all -1)."""
    p = t.params
    w = t.weights
    me = s[S_TO_MOVE]
    stone = p[STONE + me]
    near = np.empty(4, np.int64)
    nnear = 0
    nnb = 0
    for k in range(4):
        r = t.rules[pos, k]
        if r < 0:
            break
        nnb += 1
        if label[r] >= 0:
            near[nnear] = label[r]
            nnear += 1
    if nnear == 0:
        return 0.0
    taken = _stones_in_atari(near, nnear, colour, libs, length, stone)
    score = w[0, W_CONTACT]
    if taken:
        score += w[0, W_CAPTURE_BONUS] + w[0, W_CAPTURE] * taken
    empties = nnb - nnear
    after = -1
    for i in range(nnear):
        g = near[i]
        if not _first_of(near, i):
            continue
        n = libs[g]
        if n > 2:
            continue
        if after < 0:
            after = _liberties_after(t, s, label, colour, order, start, length, pos, stone, stamp) \
                + (1 if taken else 0)
        if colour[g] == stone:
            if n == 1 and after >= 2:
                score += w[0, W_SAVE] * length[g]
        elif n == 2 and after >= 2:
            score += w[0, W_GIVE_ATARI]
    if empties <= 1 and not taken:
        if after < 0:
            after = _liberties_after(t, s, label, colour, order, start, length, pos, stone, stamp)
        if after <= 1:
            score += w[0, W_SELF_ATARI]
    return score


@njit(cache=True)
def order(t, s, m):
    p = t.params
    size = p[P_SIZE]
    if m[0] == size:
        return 0.0
    _, label, colour, libs, start, length, stones, stamp = _labelled_chains(t, s)
    stamp[:] = -1
    return _heuristic(t, s, m[0], label, colour, libs, start, length, stones, stamp)


@njit(cache=True)
def noisy(t, s, m):
    """Whether the move takes stones (:meth:`Game.is_noisy`: it lists a capture)."""
    p = t.params
    size = p[P_SIZE]
    pos = m[0]
    if pos == size:
        return False
    cells = s[S_CELLS:S_CELLS + size]
    stone = p[STONE + s[S_TO_MOVE]]
    for k in range(4):
        r = t.rules[pos, k]
        if r < 0:
            break
        w = cells[r]
        if w != 0 and w != stone:
            mark = np.zeros(size, np.int64)
            if _walk_chain(t, cells, r, np.empty(size, np.int64), mark, mark, 1, 2)[1] == 1:
                return True
    return False


@njit(cache=True)
def repetition(t, s):
    return -1  # Go.repetition_outcome: None (superko forbids repeats; a pass repeats no board)


# -- playouts -------------------------------------------------------------------------------------

@njit(cache=True)
def _own_eye(t, s, pos, me):
    """Whether the empty ``pos`` is a true eye of ``me`` (:meth:`Go.is_own_eye`)."""
    p = t.params
    stone = p[STONE + me]
    enemy = p[STONE + 1 - me]
    for k in range(4):
        r = t.rules[pos, k]
        if r < 0:
            break
        if s[S_CELLS + r] != stone:
            return False
    bad = 0
    nd = 0
    for k in range(4):
        d = t.extra[pos, k]
        if d < 0:
            break
        nd += 1
        if s[S_CELLS + d] == enemy:
            bad += 1
    return bad == 0 if nd < 4 else bad <= 1


@njit(cache=True)
def playout_move(t, s, moves, n):
    """The playout policy of ``weights[1]``: each legal move's priority is the sum of its
    terms (a capture, saving an own chain in atari, a self-atari that takes nothing,
    filling an own true eye, putting an enemy chain in atari; pass has its own); one of
    the moves of the highest priority is drawn uniformly.  Returns its index in ``moves``."""
    p = t.params
    size = p[P_SIZE]
    w = t.weights
    me = s[S_TO_MOVE]
    stone = p[STONE + me]
    _, label, colour, libs, start, length, stones, stamp = _labelled_chains(t, s)
    stamp[:] = -1
    best = -1e300
    top = np.empty(n, np.int64)  # the moves of the best priority so far
    ties = 0
    for i in range(n):
        pos = moves[i, 0]
        if pos == size:
            value = w[1, PO_PASS]
        else:
            value = 0.0
            captures = False
            saves = False
            empties = 0
            own = 0
            nnb = 0
            roomy = False  # an own chain next to it keeps two liberties besides this point
            ataris = False  # an enemy chain next to it has two liberties
            for k in range(4):
                r = t.rules[pos, k]
                if r < 0:
                    break
                nnb += 1
                g = label[r]
                if g < 0:
                    empties += 1
                elif colour[g] == stone:
                    own += 1
                    if libs[g] == 1:
                        saves = True
                    elif libs[g] >= 3:
                        roomy = True
                elif libs[g] == 1:
                    captures = True
                elif libs[g] == 2:
                    ataris = True
            if captures:
                value += w[1, PO_CAPTURE]
            elif own == nnb and _own_eye(t, s, pos, me):
                value += w[1, PO_OWN_EYE]
            elif empties <= 1 or saves:
                after = 2 if empties >= 2 or roomy else \
                    _liberties_after(t, s, label, colour, stones, start, length, pos, stone, stamp)
                if after <= 1:
                    value += w[1, PO_SELF_ATARI]
                elif saves:
                    value += w[1, PO_SAVE]
                elif ataris:
                    value += w[1, PO_ATARI]
            elif ataris:
                value += w[1, PO_ATARI]
        if value > best:
            best = value
            ties = 0
        if value == best:
            top[ties] = i
            ties += 1
    return top[np.random.randint(ties)]


# -- ladders (Atari Go's candidates: Surround.ladder) ----------------------------------------------

@njit(cache=True)
def _chain_on(t, b, pos, stones, liberty):
    """The chain on ``pos`` of the board ``b`` (one cell per point): its stones written to
    ``stones``, its liberties flagged in ``liberty``; returns (stones, liberties)."""
    size = b.shape[0]
    liberty[:] = False
    return _walk_chain(t, b, pos, stones, np.zeros(size, np.bool_), liberty, True, size)


@njit(cache=True)
def _place_on(t, b, pos, stone):
    """Put ``stone`` on the empty ``pos`` of the board ``b``, taking what it takes
    (:meth:`Surround.play_out`); False, and ``b`` unchanged, when it is suicide."""
    size = b.shape[0]
    stones = np.empty(size, np.int64)
    liberty = np.empty(size, np.bool_)
    taken = np.empty(4, np.int64)
    ntaken = 0
    alive = False
    for k in range(4):
        r = t.rules[pos, k]
        if r < 0:
            break
        w = b[r]
        if w == 0:
            alive = True
        elif w == stone:
            if not alive and _chain_on(t, b, r, stones, liberty)[1] > 1:
                alive = True
        elif _chain_on(t, b, r, stones, liberty)[1] == 1:
            taken[ntaken] = r
            ntaken += 1
    if ntaken == 0 and not alive:
        return False
    b[pos] = stone
    for i in range(ntaken):
        r = taken[i]
        if b[r] != 0:
            count = _chain_on(t, b, r, stones, liberty)[0]
            for j in range(count):
                b[stones[j]] = 0
    return True


@njit(cache=True)
def _ladder_answers(t, b, pos, liberty, out, other, flags):
    """The defender's answers to an atari on the chain on ``pos`` (its one liberty
    flagged in ``liberty``): extending there, or taking an attacking chain in atari next
    to it; written to ``out`` in ascending order, their number returned."""
    size = b.shape[0]
    mine = b[pos]
    answers = liberty.copy()
    count = _chain_on(t, b, pos, out, flags)[0]
    for i in range(count):
        for k in range(4):
            r = t.rules[out[i], k]
            if r < 0:
                break
            if b[r] != 0 and b[r] != mine and _chain_on(t, b, r, other, flags)[1] == 1:
                answers |= flags
    n = 0
    for q in range(size):
        if answers[q]:
            out[n] = q
            n += 1
    return n


@njit(cache=True)
def ladder(t, b, pos, budget):
    """Whether the chain on ``pos`` of the board ``b`` (one cell per point), with at most
    two liberties and its opponent to move, is taken by a run of ataris: the atari that
    starts the capture, else -1 (also when the reading passes ``budget`` positions) --
    :meth:`Surround.ladder`, read alike (the same tries in the same order, the positions
    counted alike) without recursion: frame ``d`` of the stack chases (``d`` even: the
    attacker tries each liberty) or defends (``d`` odd: extend, or take an attacker in
    atari); ``b`` is left unchanged."""
    p = t.params
    size = b.shape[0]
    stones = np.empty(size, np.int64)
    liberty = np.empty(size, np.bool_)
    other = np.empty(size, np.int64)
    flags = np.empty(size, np.bool_)
    mine = b[pos]
    attacker = p[STONE] if mine != p[STONE] else p[STONE + 1]
    n = _chain_on(t, b, pos, stones, liberty)[1]
    if n == 1:
        for q in range(size):
            if liberty[q]:
                return q
    if n != 2 or budget <= 0:
        return -1
    frames = budget + 2  # each frame is pushed after one position is counted
    boards = np.empty((frames, size), np.int64)
    options = np.empty((frames, size), np.int64)
    nopts = np.zeros(frames, np.int64)
    tried = np.zeros(frames, np.int64)
    boards[0, :] = b
    k = 0
    for q in range(size):
        if liberty[q]:
            options[0, k] = q
            k += 1
    nopts[0] = 2
    left = budget
    d = 0
    result = 0
    returning = False  # frame d receives ``result`` from the frame above it
    while True:
        if returning:
            returning = False
            if d % 2 == 0:
                if result == 1:  # the defence fails: this atari takes the chain
                    point = options[d, tried[d] - 1]
                    if d == 0:
                        return point
                    d -= 1
                    result = point
                    returning = True
                    continue
            elif result < 0:  # the chase fails: the defence holds
                d -= 1
                result = 0
                returning = True
                continue
        if tried[d] >= nopts[d]:  # every try done: the chase fails, the defence fails
            if d == 0:
                return -1
            result = -1 if d % 2 == 0 else 1
            d -= 1
            returning = True
            continue
        point = options[d, tried[d]]
        tried[d] += 1
        left -= 1
        if left < 0:
            return -1  # (Surround.ladder: out of budget, every level gives up)
        after = boards[d + 1]
        after[:] = boards[d]
        if d % 2 == 0:  # the attacker's atari
            if not _place_on(t, after, point, attacker) or after[pos] == 0:
                continue
            n = _chain_on(t, after, pos, stones, liberty)[1]
            if n != 1:
                result = 1 if n == 0 else 0
                returning = True
                continue
            nopts[d + 1] = _ladder_answers(t, after, pos, liberty, options[d + 1], other, flags)
            tried[d + 1] = 0
            d += 1
        else:  # the defender's answer
            if not _place_on(t, after, point, mine):
                continue
            n = _chain_on(t, after, pos, stones, liberty)[1]
            if n >= 3:
                d -= 1
                result = 0
                returning = True
                continue
            if n == 2:
                k = 0
                for q in range(size):
                    if liberty[q]:
                        options[d + 1, k] = q
                        k += 1
                nopts[d + 1] = 2
                tried[d + 1] = 0
                d += 1


@njit(cache=True)
def candidates(t, s, moves, n):
    """:meth:`Go.candidate_moves`: the legal ``moves[:n]`` except those filling an own
    true eye or putting the new chain in atari without a capture, the best
    ``candidates`` of them by a quick look, then pass when nothing else is left or the
    opponent just passed; Atari Go ranks by liberties, forces a capture, the one saving
    move or an atari starting a ladder that takes an enemy chain, and leaves out the
    moves walking into a ladder (:func:`ladder`).  Written to the front of ``moves``;
    returns their number."""
    if n == 0:
        return 0  # (a finished game: no candidates, as the reference says)
    p = t.params
    size = p[P_SIZE]
    w = t.weights
    me = s[S_TO_MOVE]
    stone = p[STONE + me]
    atari = p[FIRST_CAPTURE] != 0
    nchains, label, colour, libs, start, length, stones, stamp = _labelled_chains(t, s)
    stamp[:] = -1
    kept = np.empty(n, np.int64)       # moves kept, as points
    values = np.empty(n, np.float64)
    captures = np.zeros(n, np.bool_)
    m = 0
    near = np.empty(4, np.int64)
    for i in range(n):
        pos = moves[i, 0]
        if pos == size:
            continue
        value = w[2, pos]
        empties = 0
        own = 0
        nnb = 0
        nnear = 0
        taken = False
        for k in range(4):
            r = t.rules[pos, k]
            if r < 0:
                break
            nnb += 1
            g = label[r]
            if g < 0:
                empties += 1
                continue
            near[nnear] = g
            nnear += 1
            value += w[0, W_CONTACT]
            if colour[g] == stone:
                own += 1
                if libs[g] == 1:
                    value += w[0, W_SAVE]
            else:
                if libs[g] == 2:
                    value += w[0, W_GIVE_ATARI]
                elif libs[g] == 1:
                    taken = True
        if taken:
            count = _stones_in_atari(near, nnear, colour, libs, length, stone)
            value += w[0, W_CAPTURE_BONUS] + w[0, W_CAPTURE] * count
        elif empties <= 1:
            if own == nnb and _own_eye(t, s, pos, me):
                continue
            if _liberties_after(t, s, label, colour, stones, start, length, pos, stone, stamp) <= 1:
                continue
        if atari:
            value = w[2, pos] + w[0, W_ATARI_LIBERTY] * _liberties_after(
                t, s, label, colour, stones, start, length, pos, stone, stamp)
            for a in range(nnear):
                g = near[a]
                if _first_of(near, a) and colour[g] != stone:
                    value += w[0, W_ATARI_PRESSURE] / libs[g]
        kept[m] = pos
        values[m] = value
        captures[m] = taken
        m += 1
    if atari and m > 0:
        forced = -1
        for i in range(m):  # a capture wins
            if captures[i]:
                forced = kept[i]
                break
        point = -1
        if forced < 0:  # the one point saving own chains in atari
            point, several = _atari_liberty(t, s, nchains, colour, libs, start, length, stones, stone)
            if point >= 0 and not several:
                for i in range(m):
                    if kept[i] == point:
                        forced = point
        if forced < 0 and point < 0:  # nothing in atari: ladders
            budget = int(w[0, W_LADDER_BUDGET])
            board = s[S_CELLS:S_CELLS + size].copy()
            for g in range(nchains):  # an atari starting a ladder that takes an enemy chain
                if colour[g] != stone and libs[g] == 2:
                    begin = ladder(t, board, stones[start[g]], budget)
                    if begin >= 0:
                        for i in range(m):
                            if kept[i] == begin:
                                forced = begin
                        if forced >= 0:
                            break
            if forced < 0:  # leave out the moves walking into a ladder (unless all do)
                safe = np.ones(m, np.bool_)
                nsafe = m
                for i in range(m):
                    pos = kept[i]
                    if _liberties_after(t, s, label, colour, stones, start, length, pos, stone, stamp) == 2:
                        board[pos] = stone
                        if ladder(t, board, pos, budget) >= 0:
                            safe[i] = False
                            nsafe -= 1
                        board[pos] = 0
                if 0 < nsafe < m:
                    j = 0
                    for i in range(m):
                        if safe[i]:
                            kept[j] = kept[i]
                            values[j] = values[i]
                            j += 1
                    m = nsafe
                    if m == 1:
                        forced = kept[0]
        if forced >= 0:
            moves[0, 0] = forced
            return 1
    cap = int(w[0, W_ATARI_CANDIDATES] if atari else w[0, W_CANDIDATES])
    ranked = np.argsort(-values[:m], kind="mergesort")  # stable: ties keep the order of the moves
    out = min(m, cap)
    for i in range(out):
        moves[i, 0] = kept[ranked[i]]
    if out == 0 or s[p[P_COUNTERS] + PASSES] > 0:
        moves[out, 0] = size
        out += 1
    return out
