"""Kernel family: draughts -- men and kings that step and capture by jumping, captures
chained into one move: :class:`myriad.games.draughts.Draughts` (English checkers, Russian,
Brazilian, international, and the Turkish and Frisian games built on it) and the column
games of :class:`myriad.games.columns.ColumnDraughts` (Lasca, Bashni).

Every option of :class:`~myriad.core.mechanics.jumps.JumpCaptures` under the draughts
rule that a capture goes on while it can (``continue_capture="must"``) is a parameter
here, read from the game's own compiled jump tables: men capturing backwards or not (any
capture directions), flying kings, compulsory and maximum capture (by count or by value,
kings first among equals), promotion in the middle of a capture (``end``, ``stop``,
``continue``), duplicate routes merged or kept, pieces removed as they are jumped, no
turning back.  The draw rules of :meth:`Draughts.drawn` (threefold repetition, the
move-count rule) are parameters too, and Frisian's limit of three king moves in a row and
its king endgame draws.  Columns (:mod:`myriad.core.mechanics.stacks`) are cells holding
base-``params[CODES]`` words: the capture search runs on their top pieces, and a move
builds the columns as :class:`~myriad.core.mechanics.stacks.StackJumps` does.

Tables:

* ``rules`` -- rays, one row ``[board direction, length, square, ...]`` per entry of a
  reference ray list: row ``((ray_set * 2 + player) * size + pos) * params[NDIRS] + k`` is
  entry ``k`` of ray set ``ray_set`` (:data:`MAN_JUMPS`, :data:`KING_JUMPS`,
  :data:`MAN_STEPS`, :data:`KING_SLIDES`) of ``pos``; a length of 0 ends the list;
* ``kinds[value]`` -- ``(owner or -1, is_king, value, capture value)`` of each piece code,
  and of the value ``params[DEAD]`` marking a captured piece during a capture search;
* ``zones[player, pos]`` -- 1 on the player's promotion squares;
* ``extra[player, pos]`` -- a man's cone (the squares ahead from which it could be
  stopped) as a bit set; ``extra[2, direction]`` -- the opposite direction (-1: none);
* ``weights[code, pos]`` -- the evaluation's value of a piece (a column's commander) there;
  ``weights[codes + player, pos]`` -- the runaway bonus of a man there.

A move is a row of ``PATH + 2 * params[MAX_HOPS] + 1`` words: ``[id, hops, captures, first
king hop, captured set, path (hops + 1 squares) ...]``, then the captured squares from word
``params[CAPS_AT]`` on, in the order taken.  The id mixes start, end, result and captured
set (and the path, when routes are not merged): it names the move among those of its
position.  A man is a king from hop ``first king hop`` on (``hops``: it stays a man).
Boards of more than 64 squares are not covered (a captured set is one word), nor jump
games whose captures may stop (fox and geese, bagh-chal).
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.move import CAPTURE, MOVE
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.keys import flag_key, mix64
from myriad.kernel.layout import (P_COUNTERS, P_FAMILY_PARAMS, P_FLAGS, P_SEED, P_SIZE,
                                  P_VALUES, S_CELLS, S_KEY, S_TO_MOVE, Tables, base_tables)

FAMILY = 3

# -- params ----------------------------------------------------------------------------------
MAN = P_FAMILY_PARAMS            #: + player: the man's code
KING = P_FAMILY_PARAMS + 2       #: + player: the king's code
FLYING = P_FAMILY_PARAMS + 4     #: kings slide and capture at a distance
MODE = P_FAMILY_PARAMS + 5       #: promotion during a capture: END, STOP or CONTINUE
MAXIMUM = P_FAMILY_PARAMS + 6    #: only the captures taking the most (count or value)
BY_VALUE = P_FAMILY_PARAMS + 7   #: the most is counted by capture value (kinds[v, 3])
KINGS_FIRST = P_FAMILY_PARAMS + 8  #: of the best captures, a king's must be played
GONE = P_FAMILY_PARAMS + 9       #: the value a jumped piece leaves during the search
NO_TURN_BACK = P_FAMILY_PARAMS + 10  #: no jump back the way the last one came
MERGE = P_FAMILY_PARAMS + 11     #: routes with the same start, end, result and captures are one
COMPULSORY = P_FAMILY_PARAMS + 12  #: a capture, when there is one, must be played
DRAW_PLIES = P_FAMILY_PARAMS + 13  #: plies of king moves without a capture that draw
KING_LIMIT = P_FAMILY_PARAMS + 14  #: non-capturing moves in a row one king may make (0: any)
KING_DRAWS = P_FAMILY_PARAMS + 15  #: Frisian king endgames draw (1 v 1 after 2 moves, 2 v 1 after 7)
NDIRS = P_FAMILY_PARAMS + 16     #: entries per ray list
MAX_HOPS = P_FAMILY_PARAMS + 17  #: the most hops a move makes
DEAD = P_FAMILY_PARAMS + 18      #: the value marking a captured piece (one past every code)
CAPS_AT = P_FAMILY_PARAMS + 19   #: the move word where the captured squares start
CODES = P_FAMILY_PARAMS + 20     #: piece codes (values in a cell; a column's digit base)
STACKS = P_FAMILY_PARAMS + 21    #: cells hold columns of pieces (Lasca, Bashni)
OWN_BELOW = P_FAMILY_PARAMS + 22   #: columns' evaluation: each own piece under the commander
PRISONER = P_FAMILY_PARAMS + 23    #: columns' evaluation: each prisoner
LIGHT = P_FAMILY_PARAMS + 24       #: random games may play on the cells alone (``draughts_playout``)

# promotion modes (JumpCaptures' _END, _STOP, _CONTINUE)
END, STOP, CONTINUE = 0, 1, 2
# ray sets
MAN_JUMPS, KING_JUMPS, MAN_STEPS, KING_SLIDES = 0, 1, 2, 3
# move words
M_ID, M_HOPS, M_CAPS, M_KING_HOP, M_MASK, PATH = 0, 1, 2, 3, 4, 5
#: the most moves a position may have (a capture search that finds more raises)
MAX_MOVES = 512
_ID_MASK = (1 << 62) - 1


def tables(game: Game) -> Tables | None:
    """The tables of a :class:`Draughts` game (or Turkish, or Frisian), or of a column
    draughts game (Lasca, Bashni), whose captures go on while they can, on a board of at
    most 64 squares; None for any other game."""
    from myriad.games.columns import ColumnDraughts
    from myriad.games.draughts import Draughts
    from myriad.games.frisian import KING_MOVES, Frisian
    from myriad.games.turkish import Turkish
    if type(game) in (Draughts, Frisian, Turkish):
        assert isinstance(game, Draughts)
        jumps, stacks, most = game.jumps, False, game.start_men
    elif type(game) is ColumnDraughts:
        assert isinstance(game, ColumnDraughts)
        jumps, stacks, most = game.stack_jumps.jumps, True, game.start_pieces
        if game.stack_jumps.columns.base != game.pieces.count or game.pieces.count ** (2 * most) >= 1 << 62:
            return None  # (a column of every piece on the board must fit a word)
    else:
        return None
    topology = game.topology
    size = topology.size
    if size > 64 or jumps.continue_capture != "must" or game.players != 2:
        return None
    if tuple(jumps.men) != tuple(game.man) or tuple(jumps.kings) != tuple(game.king):
        return None
    codes = game.pieces.count
    # per ray set, player and square: the (board direction, squares) of each reference ray
    ray_sets: tuple[list[list[list[tuple[int, tuple[int, ...]]]]], ...] = (
        [[[(d, ray) for d, ray in per_pos] for per_pos in jumps._man_jumps[p]] for p in range(2)],
        [[[(d, ray) for d, ray in per_pos] for per_pos in jumps._king_hops[p]] for p in range(2)],
        [[[(-1, (to,)) for to, _move in per_pos] for per_pos in jumps._man_steps[p]] for p in range(2)],
        [[[(-1, tuple(to for to, _move in ray)) for ray in per_pos] for per_pos in jumps._king_slides[p]]
         for p in range(2)],
    )
    ndirs = max(1, max(len(per_pos) for rs in ray_sets for per_player in rs for per_pos in per_player))
    longest = max(1, max(len(ray) for rs in ray_sets for per_player in rs for per_pos in per_player
                         for _d, ray in per_pos))
    rules = np.zeros((4 * 2 * size * ndirs, 2 + longest), np.int64)
    for r, rs in enumerate(ray_sets):
        for p in range(2):
            for pos in range(size):
                for k, (d, ray) in enumerate(rs[p][pos]):
                    row = ((r * 2 + p) * size + pos) * ndirs + k
                    rules[row, 0] = d
                    rules[row, 1] = len(ray)
                    rules[row, 2:2 + len(ray)] = ray
    kinds = np.zeros((codes + 1, 4), np.int64)
    kinds[0, 0] = kinds[codes, 0] = -1
    man_value, king_value = jumps.capture_values or (1, 1)
    for v in range(1, codes):
        kinds[v, 0] = game.pieces.owner_of[v]
        kinds[v, 1] = int(v in game.king)
        kinds[v, 2] = game.pieces.value_of[v]
        kinds[v, 3] = king_value if v in game.king else man_value
    zones = np.zeros((2, size), np.int64)
    for p in range(2):
        for pos in game.promotion[p]:
            zones[p, pos] = 1
    extra = np.full((3, max(size, len(jumps._back))), -1, np.int64)
    extra[2, :len(jumps._back)] = jumps._back
    weights = np.zeros((codes + 2, size), np.float64)
    if stacks:
        # ColumnDraughts.evaluate: a commander's value by rank (men by row), then what lies under it
        top_row = game.size - 1
        for pos, (_x, y) in enumerate(topology.coords):
            for p in range(2):
                weights[game.king[p], pos] = 350 if jumps.flying_kings else 250
                weights[game.man[p], pos] = 100 + 4 * (int(y) if p == 0 else top_row - int(y))
    else:
        assert isinstance(game, Draughts)
        values, cones = game._eval_tables
        for code in range(codes):
            weights[code, :] = values[code]
        for p in range(2):
            for pos in range(size):
                mask = 0
                for q in cones[p][pos]:
                    mask |= 1 << q
                extra[p, pos] = mask - (1 << 64) if mask >> 63 else mask
                weights[codes + p, pos] = 60 + 10 * len(cones[p][pos]) // max(1, game.size)
    frisian = isinstance(game, Frisian)
    max_hops = max(1, most)
    params = {MAN: game.man[0], MAN + 1: game.man[1], KING: game.king[0], KING + 1: game.king[1],
              FLYING: int(jumps.flying_kings), MODE: jumps._mode, MAXIMUM: int(jumps.maximum_capture),
              BY_VALUE: int(jumps.capture_values is not None), KINGS_FIRST: int(jumps.prefer_king_captures),
              GONE: 0 if jumps.remove_at_once else jumps._dead, NO_TURN_BACK: int(not jumps.turn_back),
              MERGE: int(jumps.merge_duplicate_routes), COMPULSORY: int(jumps.compulsory),
              DRAW_PLIES: game.draw_plies, KING_LIMIT: KING_MOVES if frisian else 0,
              KING_DRAWS: int(frisian), NDIRS: ndirs, MAX_HOPS: max_hops, DEAD: jumps._dead,
              CAPS_AT: PATH + max_hops + 1, CODES: codes, STACKS: int(stacks),
              OWN_BELOW: 70, PRISONER: 35,
              # captures compulsory, one piece a square, no rule of Frisian's kings
              LIGHT: int(jumps.compulsory and not stacks and not frisian)}
    return base_tables(game, FAMILY, move_width=PATH + 2 * max_hops + 1, max_moves=MAX_MOVES,
                       zones=zones, kinds=kinds, rules=rules, extra=extra, weights=weights,
                       family_params=params)


def prepare(t: Tables, s: np.ndarray) -> None:
    """No words of its own."""


# -- draws -----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def drawn(t, s, hist, nhist):
    """Whether ``s`` is drawn by the rules (:meth:`Draughts.drawn`, and Frisian's)."""
    p = t.params
    key = s[S_KEY]
    seen = 0
    for i in range(nhist):
        if hist[i] == key:
            seen += 1
    if seen >= 2:
        return True
    clock = s[p[P_COUNTERS]]
    if clock >= p[DRAW_PLIES]:
        return True
    if p[KING_DRAWS] and clock >= 4:
        k0 = 0
        k1 = 0
        for pos in range(p[P_SIZE]):
            v = s[S_CELLS + pos]
            if v == 0:
                continue
            if v == p[MAN] or v == p[MAN + 1]:
                return False
            if v == p[KING]:
                k0 += 1
            elif v == p[KING + 1]:
                k1 += 1
        lo, hi = min(k0, k1), max(k0, k1)
        if lo == 1 and hi == 1:
            return True
        if lo == 1 and hi == 2 and clock >= 14:
            return True
    return False


# -- move generation -------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _may_jump(rules, kinds, cells, me, base, nd, far):
    """Whether the piece whose capture rays start at row ``base`` of ``rules`` has a first
    jump on ``cells``."""
    for row in range(base, base + nd):
        n = rules[row, 1]
        if n == 0:
            break
        i = 0
        if far:
            while i < n and cells[rules[row, 2 + i]] == 0:
                i += 1
        if i + 1 < n:
            o = kinds[cells[rules[row, 2 + i]], 0]
            if o >= 0 and o != me and cells[rules[row, 3 + i]] == 0:
                return True
    return False


@njit(cache=True, inline="always")
def _record(t, cells, me, moves, n, best, path, plen, caps, ncaps):
    """Add the capture route ``path[:plen]`` taking ``caps[:ncaps]`` to ``moves[:n]`` under the
    maximum-capture, kings-first and merging rules; the new count and best rank."""
    p = t.params
    kinds = t.kinds
    start = path[0]
    end = path[plen - 1]
    hops = plen - 1
    mover = cells[start]
    king_hop = hops
    final = mover
    if mover == p[MAN + me]:
        promo = t.zones[me]
        if p[MODE] == END:
            if promo[end]:
                king_hop = hops - 1
        else:
            for h in range(hops):
                if promo[path[h + 1]]:
                    king_hop = h
                    break
        if king_hop < hops:
            final = p[KING + me]
    rank = 0
    if p[MAXIMUM]:
        if p[BY_VALUE]:
            for c in range(ncaps):
                rank += kinds[cells[caps[c]], 3]
        else:
            rank = ncaps
    if p[KINGS_FIRST]:
        rank = 2 * rank + kinds[mover, 1]
    if rank < best:
        return n, best
    if rank > best:
        n = 0
        best = rank
    mask = np.int64(0)
    for c in range(ncaps):
        mask |= np.int64(1) << np.int64(caps[c])
    if p[MERGE] and hops > 1:
        for i in range(n):
            m = moves[i]
            if m[M_HOPS] > 1 and m[M_MASK] == mask and m[PATH] == start and m[PATH + m[M_HOPS]] == end:
                other = cells[start] if m[M_KING_HOP] >= m[M_HOPS] else p[KING + me]
                if other == final:
                    return n, best
    if p[STACKS] and hops > 1:
        # StackJumps: routes taking the same columns in the same order from the same start
        # to the same end, with the same result, are one move (the first)
        at = p[CAPS_AT]
        for i in range(n):
            m = moves[i]
            if m[M_HOPS] != hops or m[PATH] != start or m[PATH + hops] != end:
                continue
            if (m[M_KING_HOP] < hops) != (king_hop < hops):
                continue
            same = True
            for c in range(ncaps):
                if m[at + c] != caps[c]:
                    same = False
                    break
            if same:
                return n, best
    if n >= moves.shape[0]:
        raise ValueError("draughts kernel: more capture moves than the move buffer holds")
    m = moves[n]
    h = mix64(np.uint64(start * 4096 + end * 64 + final)) ^ mix64(np.uint64(mask) ^ np.uint64(0x5DEECE66D))
    if not p[MERGE]:
        for i in range(1, plen - 1):
            h = mix64(h ^ np.uint64(path[i] + 1))
    m[M_ID] = np.int64(h & np.uint64(_ID_MASK))
    m[M_HOPS] = hops
    m[M_CAPS] = ncaps
    m[M_KING_HOP] = king_hop
    m[M_MASK] = mask
    for i in range(plen):
        m[PATH + i] = path[i]
    at = p[CAPS_AT]
    for c in range(ncaps):
        m[at + c] = caps[c]
    return n + 1, best


@njit(cache=True, inline="always")
def _captures(t, cells, me, moves):
    """Every capture of ``me`` on ``cells`` (piece codes) after the capture rules, as move
    rows; their count."""
    p = t.params
    man = p[MAN + me]
    king = p[KING + me]
    flying = p[FLYING] != 0
    size = p[P_SIZE]
    nd = p[NDIRS]
    rules = t.rules
    kinds = t.kinds
    man_rows = (MAN_JUMPS * 2 + me) * size * nd
    king_rows = (KING_JUMPS * 2 + me) * size * nd
    jump = False
    for pos in range(size):
        v = cells[pos]
        if v == man:
            if _may_jump(rules, kinds, cells, me, man_rows + pos * nd, nd, False):
                jump = True
                break
        elif v == king:
            if _may_jump(rules, kinds, cells, me, king_rows + pos * nd, nd, flying):
                jump = True
                break
    if not jump:
        return 0
    return _search(t, cells, me, moves)


@njit(cache=True, inline="always")
def _search(t, cells, me, moves):
    """The capture routes of every piece of ``me`` that can jump, as move rows; their count."""
    p = t.params
    size = p[P_SIZE]
    rules = t.rules
    kinds = t.kinds
    flying = p[FLYING] != 0
    nd = p[NDIRS]
    man = p[MAN + me]
    king = p[KING + me]
    man_rows = (MAN_JUMPS * 2 + me) * size * nd
    king_rows = (KING_JUMPS * 2 + me) * size * nd
    board = cells.copy()
    frames = np.empty((12, p[MAX_HOPS] + 2), np.int64)
    n = 0
    best = -1
    for phase in range(2):
        piece = man if phase == 0 else king
        rows = man_rows if phase == 0 else king_rows
        far = flying and phase == 1
        for start in range(size):
            if cells[start] == piece and _may_jump(rules, kinds, cells, me, rows + start * nd, nd, far):
                n, best = _routes(t, cells, board, frames, me, start, phase == 0, moves, n, best)
    return n


@njit(cache=True, inline="always")
def _routes(t, cells, board, frames, me, start, as_man, moves, n, best):
    """Add the capture routes of the piece on ``start`` (along a man's rays if ``as_man``,
    else a king's) to ``moves[:n]`` (``_record``'s rules; ``best``: the best rank so far);
    the new count and best rank.  ``board`` is a copy of ``cells``, used and restored;
    ``frames`` a (12, MAX_HOPS + 2) scratch array."""
    p = t.params
    size = p[P_SIZE]
    rules = t.rules
    kinds = t.kinds
    flying = p[FLYING] != 0
    mode = p[MODE]
    gone = p[GONE]
    no_turn_back = p[NO_TURN_BACK] != 0
    nd = p[NDIRS]
    back = t.extra[2]
    promo = t.zones[me]
    man_rows = (MAN_JUMPS * 2 + me) * size * nd
    king_rows = (KING_JUMPS * 2 + me) * size * nd
    path = frames[0]
    caps = frames[1]
    # per level of the search: square, using man rays (1) or king rays (0), direction it came
    # in, ray entry tried, ray row, index of the jumped piece, landing index, whether a
    # landing went on, whether any jump was found, the jumped piece
    f_sq = frames[2]
    f_man = frames[3]
    f_came = frames[4]
    f_k = frames[5]
    f_row = frames[6]
    f_i = frames[7]
    f_j = frames[8]
    f_went = frames[9]
    f_found = frames[10]
    f_victim = frames[11]
    piece = board[start]
    board[start] = 0
    level = 0
    f_sq[0] = start
    f_man[0] = 1 if as_man else 0
    f_came[0] = -1
    f_k[0] = -1
    f_found[0] = 0
    path[0] = start
    plen = 1
    ncaps = 0
    landing = False
    while True:
        if not landing:
            # the next ray from the square of this level
            k = f_k[level] + 1
            f_k[level] = k
            sq = f_sq[level]
            is_man = f_man[level]
            row = (man_rows if is_man else king_rows) + sq * nd + k
            if k >= nd or rules[row, 1] == 0:
                if level == 0:
                    break
                found = f_found[level]
                level -= 1
                if found:
                    f_went[level] = 1
                plen -= 1
                f_j[level] += 1
                landing = True
                continue
            d = rules[row, 0]
            came = f_came[level]
            if no_turn_back and came >= 0 and d == back[came]:
                continue
            nr = rules[row, 1]
            i = 0
            if flying and not is_man:
                while i < nr and board[rules[row, 2 + i]] == 0:
                    i += 1
            if i + 1 >= nr:
                continue
            over = rules[row, 2 + i]
            victim = board[over]
            o = kinds[victim, 0]
            if o < 0 or o == me or board[rules[row, 3 + i]] != 0:
                continue
            f_found[level] = 1
            board[over] = gone
            caps[ncaps] = over
            ncaps += 1
            f_went[level] = 0
            f_row[level] = row
            f_i[level] = i
            f_j[level] = i + 1
            f_victim[level] = victim
            landing = True
        else:
            # the next landing square behind the jumped piece
            row = f_row[level]
            j = f_j[level]
            if j < rules[row, 1] and board[rules[row, 2 + j]] == 0:
                land = rules[row, 2 + j]
                path[plen] = land
                plen += 1
                child_man = f_man[level]
                if child_man and promo[land] and mode != END:
                    if mode == STOP:
                        plen -= 1
                        f_j[level] = j + 1
                        continue
                    child_man = 0
                level += 1
                f_sq[level] = land
                f_man[level] = child_man
                f_came[level] = rules[row, 0]
                f_k[level] = -1
                f_found[level] = 0
                landing = False
            else:
                if not f_went[level]:
                    for q in range(f_i[level] + 1, j):
                        path[plen] = rules[row, 2 + q]
                        n, best = _record(t, cells, me, moves, n, best, path, plen + 1, caps, ncaps)
                ncaps -= 1
                board[caps[ncaps]] = f_victim[level]
                landing = False
    board[start] = piece
    return n, best


@njit(cache=True, inline="always")
def _quiet(t, s, cells, me, moves, n):
    """The non-capturing moves after ``moves[:n]``: men step, kings step or slide; a king
    that made the limit of moves in a row (Frisian) rests while its side has men."""
    p = t.params
    size = p[P_SIZE]
    rules = t.rules
    nd = p[NDIRS]
    man = p[MAN + me]
    king = p[KING + me]
    promo = t.zones[me]
    resting = -1
    if p[KING_LIMIT] and n == 0:
        flags = p[P_FLAGS]
        if s[flags + 2 * me + 1] >= p[KING_LIMIT]:
            for q in range(size):
                if cells[q] == man:
                    resting = s[flags + 2 * me] - 1
                    break
    for phase in range(2):
        piece = man if phase == 0 else king
        for pos in range(size):
            if cells[pos] != piece or pos == resting:
                continue
            base = ((MAN_STEPS if phase == 0 else KING_SLIDES) * 2 + me) * size * nd + pos * nd
            for k in range(nd):
                row = base + k
                nr = rules[row, 1]
                if nr == 0:
                    break
                for i in range(nr):
                    to = rules[row, 2 + i]
                    if cells[to] != 0:
                        break
                    if n >= moves.shape[0]:
                        raise ValueError("draughts kernel: more moves than the move buffer holds")
                    m = moves[n]
                    m[M_ID] = pos * 64 + to
                    m[M_HOPS] = 1
                    m[M_CAPS] = 0
                    m[M_KING_HOP] = 0 if phase == 0 and promo[to] else 1
                    m[M_MASK] = 0
                    m[PATH] = pos
                    m[PATH + 1] = to
                    n += 1
    return n


@njit(cache=True, inline="always")
def _tops(t, s):
    """The piece code on each square: the cells, or (columns) each column's top piece."""
    p = t.params
    size = p[P_SIZE]
    if p[STACKS]:
        base = p[CODES]
        tops = np.empty(size, np.int64)
        for q in range(size):
            tops[q] = s[S_CELLS + q] % base
        return tops
    return s[S_CELLS:S_CELLS + size]


@njit(cache=True, inline="always")
def gen(t, s, hist, nhist, moves):
    if drawn(t, s, hist, nhist):
        return 0
    me = s[S_TO_MOVE]
    cells = _tops(t, s)
    n = _captures(t, cells, me, moves)
    if n and t.params[COMPULSORY]:
        return n
    return _quiet(t, s, cells, me, moves, n)


# -- playing a move --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _piece(t, s, m, h):
    """The piece standing on the landing square of hop ``h`` of move ``m``."""
    if h >= m[M_KING_HOP]:
        return t.params[KING + s[S_TO_MOVE]]
    return s[S_CELLS + m[PATH]]


@njit(cache=True, inline="always")
def play(t, s, m, dst):
    p = t.params
    if p[STACKS]:
        return _stack_play(t, s, m, dst)
    for i in range(s.shape[0]):
        dst[i] = s[i]
    me = s[S_TO_MOVE]
    values = p[P_VALUES]
    z = t.zobrist
    key = s[S_KEY]
    hops = m[M_HOPS]
    ncaps = m[M_CAPS]
    start = m[PATH]
    mover = s[S_CELLS + start]
    king = p[KING + me]
    king_hop = m[M_KING_HOP]
    # the actions one by one, as Game.play applies them
    for h in range(hops):
        frm = m[PATH + h]
        to = m[PATH + h + 1]
        piece = king if h >= king_hop else mover
        key ^= z[frm * values + dst[S_CELLS + frm]]
        dst[S_CELLS + frm] = 0
        key ^= z[to * values + dst[S_CELLS + to]] ^ z[to * values + piece]
        dst[S_CELLS + to] = piece
    at = p[CAPS_AT]
    for c in range(ncaps):
        pos = m[at + c]
        key ^= z[pos * values + dst[S_CELLS + pos]]
        dst[S_CELLS + pos] = 0
    # Draughts.after_move: captures and man moves cannot be undone
    irreversible = ncaps > 0 or mover == p[MAN + me]
    counter = p[P_COUNTERS]
    dst[counter] = 0 if irreversible else s[counter] + 1
    if p[KING_LIMIT]:
        # Frisian.after_move: the king that made the last non-capturing moves, and how many
        flags = p[P_FLAGS]
        f0 = flags + 2 * me
        old_sq, old_count = s[f0], s[f0 + 1]
        if ncaps == 0 and mover == king:
            to = m[PATH + 1]
            count = min(old_count + 1, p[KING_LIMIT]) if old_sq - 1 == start else 1
            dst[f0] = to + 1
            dst[f0 + 1] = count
        else:
            dst[f0] = 0
            dst[f0 + 1] = 0
        f1 = flags + 2 * (1 - me)
        if dst[f1] and dst[S_CELLS + dst[f1] - 1] != p[KING + 1 - me]:
            dst[f1] = 0
            dst[f1 + 1] = 0
        for i in range(4):
            if dst[flags + i] != s[flags + i]:
                key ^= flag_key(p, i, s[flags + i]) ^ flag_key(p, i, dst[flags + i])
    key ^= t.side[me] ^ t.side[1 - me]
    dst[S_TO_MOVE] = 1 - me
    dst[S_KEY] = key
    return IRREVERSIBLE if irreversible else 0


@njit(cache=True, inline="always")
def actions(t, s, m, out):
    if t.params[STACKS]:
        return _stack_actions(t, s, m, out)
    hops = m[M_HOPS]
    for h in range(hops):
        out[h, 0] = MOVE
        out[h, 1] = m[PATH + h]
        out[h, 2] = m[PATH + h + 1]
        out[h, 3] = _piece(t, s, m, h)
        out[h, 4] = h
    at = t.params[CAPS_AT]
    for c in range(m[M_CAPS]):
        pos = m[at + c]
        out[hops + c, 0] = CAPTURE
        out[hops + c, 1] = pos
        out[hops + c, 2] = pos
        out[hops + c, 3] = s[S_CELLS + pos]
        out[hops + c, 4] = c
    return hops + m[M_CAPS]


@njit(cache=True, inline="always")
def outcome(t, s, hist, nhist, nlegal):
    if nlegal > 0:  # ``gen`` lists no move in a drawn position
        return -1
    if drawn(t, s, hist, nhist):
        return 3
    if nlegal == 0:
        return 1 << (1 - s[S_TO_MOVE])
    return -1


# -- knowledge for bots ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def evaluate(t, s):
    """:meth:`Draughts.evaluate`: material by square, and runaway men."""
    p = t.params
    if p[STACKS]:
        return _stack_evaluate(t, s)
    size = p[P_SIZE]
    codes = p[CODES]
    me = s[S_TO_MOVE]
    kinds = t.kinds
    occupied0 = np.int64(0)
    occupied1 = np.int64(0)
    for pos in range(size):
        v = s[S_CELLS + pos]
        if v:
            if kinds[v, 0] == 0:
                occupied0 |= np.int64(1) << np.int64(pos)
            else:
                occupied1 |= np.int64(1) << np.int64(pos)
    weights = t.weights
    cones = t.extra
    score = 0.0
    for pos in range(size):
        v = s[S_CELLS + pos]
        if v == 0:
            continue
        owner = kinds[v, 0]
        value = weights[v, pos]
        if v == p[MAN + owner]:
            enemy = occupied1 if owner == 0 else occupied0
            if cones[owner, pos] & enemy == 0:
                value += weights[codes + owner, pos]
        score += value if owner == me else -value
    return score


@njit(cache=True, inline="always")
def order(t, s, m):
    """:meth:`Game.move_heuristic`: victims by value, then the value a piece gains (read from
    the actions: every hop onto a square whose piece differs counts)."""
    if t.params[STACKS]:
        return _stack_order(t, s, m)
    kinds = t.kinds
    mover = s[S_CELLS + m[PATH]]
    king = t.params[KING + s[S_TO_MOVE]]
    king_hop = m[M_KING_HOP]
    score = 0.0
    for h in range(m[M_HOPS]):
        frm = m[PATH + h]
        piece = king if h >= king_hop else mover
        was = s[S_CELLS + frm]
        if piece != was:
            score += kinds[piece, 2] - kinds[was, 2]
    at = t.params[CAPS_AT]
    # (Game.move_heuristic adds the captures after the hops: the same sum, in integers)
    for c in range(m[M_CAPS]):
        score += 10 * kinds[s[S_CELLS + m[at + c]], 2] + 1
    return score


@njit(cache=True, inline="always")
def noisy(t, s, m):
    """:meth:`Game.is_noisy`: a capture or a promotion."""
    if m[M_CAPS] > 0:
        return True
    if t.params[STACKS]:
        return m[M_KING_HOP] == 0
    return _piece(t, s, m, 0) != s[S_CELLS + m[PATH]]


@njit(cache=True, inline="always")
def repetition(t, s):
    return 3  # Game.repetition_outcome: a draw


# -- columns (Lasca, Bashni) -------------------------------------------------------------------
# A cell holds a column: piece codes as digits in base params[CODES], the top (the
# commander) the lowest digit (:mod:`myriad.core.mechanics.stacks`); keys are hashed per
# (cell, column) as HashedZobrist does.


@njit(cache=True, inline="always")
def _cell_key(p, pos, column):
    """:meth:`HashedZobrist.cell_key`."""
    if column == 0:
        return np.int64(0)
    return np.int64(mix64(np.uint64(p[P_SEED]) ^ ((np.uint64(pos) << np.uint64(56)) | np.uint64(column))))


@njit(cache=True, inline="always")
def _put_under(column, piece, base):
    """``column`` with ``piece`` added at the bottom (:meth:`Columns.put_under`)."""
    weight = 1
    rest = column
    while rest:
        rest //= base
        weight *= base
    return column + piece * weight


@njit(cache=True, inline="always")
def _hop_column(t, s, m, h, column):
    """The moving column after hop ``h`` (``column``: before it): a prisoner put under,
    the commander crowned from the king hop on (:meth:`StackJumps.column_move`)."""
    p = t.params
    base = p[CODES]
    piece = p[KING + s[S_TO_MOVE]] if h >= m[M_KING_HOP] else s[S_CELLS + m[PATH]] % base
    if m[M_CAPS]:
        column = _put_under(column, s[S_CELLS + m[p[CAPS_AT] + h]] % base, base)
    return column - column % base + piece


@njit(cache=True, inline="always")
def _stack_actions(t, s, m, out):
    base = t.params[CODES]
    at = t.params[CAPS_AT]
    hops = m[M_HOPS]
    column = s[S_CELLS + m[PATH]]
    for h in range(hops):
        column = _hop_column(t, s, m, h, column)
        out[h, 0] = MOVE
        out[h, 1] = m[PATH + h]
        out[h, 2] = m[PATH + h + 1]
        out[h, 3] = column
        out[h, 4] = h
    for c in range(m[M_CAPS]):
        pos = m[at + c]
        out[hops + c, 0] = CAPTURE
        out[hops + c, 1] = pos
        out[hops + c, 2] = pos
        out[hops + c, 3] = s[S_CELLS + pos] // base
        out[hops + c, 4] = c
    return hops + m[M_CAPS]


@njit(cache=True, inline="always")
def _stack_play(t, s, m, dst):
    """:meth:`ColumnDraughts.play`: the actions applied (:func:`stacks.apply`), the key
    changed once per square touched."""
    p = t.params
    for i in range(s.shape[0]):
        dst[i] = s[i]
    me = s[S_TO_MOVE]
    base = p[CODES]
    at = p[CAPS_AT]
    hops = m[M_HOPS]
    ncaps = m[M_CAPS]
    start = m[PATH]
    column = s[S_CELLS + start]
    for h in range(hops):
        column = _hop_column(t, s, m, h, column)
        dst[S_CELLS + m[PATH + h]] = 0
        dst[S_CELLS + m[PATH + h + 1]] = column
    for c in range(ncaps):
        pos = m[at + c]
        dst[S_CELLS + pos] = s[S_CELLS + pos] // base
    key = s[S_KEY]
    for i in range(hops + 1 + ncaps):
        pos = m[PATH + i] if i <= hops else m[at + i - hops - 1]
        seen = False
        for j in range(i):
            if (m[PATH + j] if j <= hops else m[at + j - hops - 1]) == pos:
                seen = True
                break
        if not seen:
            key ^= _cell_key(p, pos, s[S_CELLS + pos]) ^ _cell_key(p, pos, dst[S_CELLS + pos])
    irreversible = ncaps > 0 or s[S_CELLS + start] % base == p[MAN + me]
    counter = p[P_COUNTERS]
    dst[counter] = 0 if irreversible else s[counter] + 1
    key ^= t.side[me] ^ t.side[1 - me]
    dst[S_TO_MOVE] = 1 - me
    dst[S_KEY] = key
    return IRREVERSIBLE if irreversible else 0


@njit(cache=True, inline="always")
def _stack_evaluate(t, s):
    """:meth:`ColumnDraughts.evaluate`: the commander by rank, then each own piece under it
    and each prisoner."""
    p = t.params
    base = p[CODES]
    me = s[S_TO_MOVE]
    kinds = t.kinds
    weights = t.weights
    score = 0.0
    for pos in range(p[P_SIZE]):
        column = s[S_CELLS + pos]
        if column == 0:
            continue
        top = column % base
        owner = kinds[top, 0]
        value = weights[top, pos]
        column //= base
        while column:
            piece = column % base
            column //= base
            value += p[OWN_BELOW] if kinds[piece, 0] == owner else p[PRISONER]
        score += value if owner == me else -value
    return score


@njit(cache=True, inline="always")
def _stack_order(t, s, m):
    """:meth:`ColumnDraughts.move_heuristic`: captures, and a crowning first hop."""
    return float(m[M_CAPS]) + (1.0 if m[M_KING_HOP] == 0 else 0.0)
