"""Kernel family: tafl (brandubh, tablut, Copenhagen hnefatafl: :class:`myriad.games.tafl.Tafl`).

Rook moves over empty squares with restricted squares, custodial captures (the king's own
rules, the shieldwall), escapes, exit forts and encirclement, read from the reference
game's compiled mechanics (:class:`~myriad.core.mechanics.restricted.RestrictedSlides`,
:class:`~myriad.core.mechanics.custodial.CustodialCapture`).

Tables: ``rules[4 * pos + r]`` the ``r``-th ray from ``pos`` (-1 padded), its last word 1
when the ray ends on an escape square; ``extra[pos]`` the capture lines through ``pos`` as
(neighbour, beyond) pairs (-1 padded); ``dirmap[0]`` the directions of the capture lines
(to walk along an edge); ``zones`` the square sets named by the ``Z_*`` rows; ``kinds``
per cell value its owner, armed and royal bits; ``weights[0]`` the evaluation's weights
(:class:`~myriad.games.tafl.TaflKnowledge`, then the start position's score).  A move
is ``(id, captures, captured squares...)``, the id ``frm | to << 8``.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.move import CAPTURE, MOVE
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.layout import (P_COUNTERS, P_FAMILY_PARAMS, P_MOVE_WIDTH, P_SIZE, P_VALUES, S_CELLS, S_KEY,
                                  S_TO_MOVE, Tables, base_tables)

FAMILY = 9
ATTACKERS, DEFENDERS = 0, 1

# -- params
KING = P_FAMILY_PARAMS
SOLDIER = P_FAMILY_PARAMS + 1      # + player
ROYAL_SIDES = P_FAMILY_PARAMS + 3
SHIELDWALL = P_FAMILY_PARAMS + 4
EDGE_FORT = P_FAMILY_PARAMS + 5
ENCIRCLEMENT = P_FAMILY_PARAMS + 6
REPETITION_LOSES_WHITE = P_FAMILY_PARAMS + 7
MOVE_LIMIT = P_FAMILY_PARAMS + 8
CORNER_ESCAPE = P_FAMILY_PARAMS + 9
RAY_LENGTH = P_FAMILY_PARAMS + 10
LINES = P_FAMILY_PARAMS + 11       # capture line pairs per square (at most)

# -- zones rows
Z_RESTRICTED, Z_PASSABLE, Z_HOSTILE, Z_HOSTILE_EMPTY, Z_ROYAL_STRONG, Z_ROYAL_HOSTILE = range(6)
Z_CAPTURE_EDGE, Z_INNER, Z_ESCAPE, Z_CORNER, Z_EDGE, Z_SEAL = range(6, 12)
# -- kinds columns
K_OWNER, K_ARMED, K_ROYAL = range(3)
# -- weights
(W_ATTACKER, W_DEFENDER, W_OPEN_ROAD, W_ESCAPE_IN_TWO, W_FORK, W_DECIDED, W_ROAD_TO_MOVE,
 W_TWO_ROADS, W_FORK_TO_MOVE, W_KING_FREE_SIDE, W_ATTACKER_BESIDE_KING, W_KING_MOBILITY,
 W_CORNER_GUARD, W_CORNER_SEAL, W_KING_ROOM, W_ESCAPE_ROOM, W_KING_ENCLOSED, W_KING_SIDE_REACH, W_KING_TRAP,
 W_BASELINE) = range(20)
KNOWLEDGE = ("attacker", "defender", "open_road", "escape_in_two", "fork", "decided", "road_to_move",
             "two_roads", "fork_to_move", "king_free_side", "attacker_beside_king", "king_mobility",
             "corner_guard", "corner_seal", "king_room", "escape_room", "king_enclosed", "king_side_reach",
             "king_trap")


def tables(game: Game) -> Tables | None:
    """The tables of a :class:`Tafl` game."""
    from myriad.games.tafl import Tafl
    if type(game) is not Tafl:
        return None
    size = game.topology.size
    slides, capture, rules = game.slides, game.capture, game.tafl_rules
    if slides.privileged != frozenset({game.king}) or capture.royal_sides not in (2, 4):
        return None
    length = max(len(r) for rays in slides.rays for r in rays)
    rays = np.full((4 * size, length + 1), -1, np.int64)
    for pos, pos_rays in enumerate(slides.rays):
        if len(pos_rays) > 4:
            return None
        for r, ray in enumerate(pos_rays):
            rays[4 * pos + r, :len(ray)] = ray
            rays[4 * pos + r, length] = int(ray[-1] in game.escape_squares)
    lines = max(len(x) for x in capture.lines)
    pairs = np.full((size, 2 * lines), -1, np.int64)
    for pos, pos_lines in enumerate(capture.lines):
        for j, (n, beyond) in enumerate(pos_lines):
            pairs[pos, 2 * j], pairs[pos, 2 * j + 1] = n, beyond
    line_dirs = [next(d for d in range(len(game.topology.links)) if game.topology.links[d] == row)
                 for row in capture.line_dirs]
    zones = np.zeros((12, size), np.int64)
    zones[Z_RESTRICTED] = slides.restricted
    zones[Z_PASSABLE] = slides.passable
    zones[Z_HOSTILE] = capture.hostile
    zones[Z_HOSTILE_EMPTY] = capture.hostile_when_empty
    zones[Z_ROYAL_STRONG] = capture.royal_strong
    zones[Z_ROYAL_HOSTILE] = capture.royal_hostile
    zones[Z_CAPTURE_EDGE] = capture.edge
    zones[Z_INNER] = capture.inner
    zones[Z_ESCAPE] = [p in game.escape_squares for p in range(size)]
    zones[Z_CORNER] = [p in game.corners for p in range(size)]
    zones[Z_EDGE] = [p in game.edge for p in range(size)]
    zones[Z_SEAL] = [p in game.corner_seals for p in range(size)]
    codes = len(game.pieces.owner_of)
    kinds = np.zeros((codes, 3), np.int64)
    kinds[:, K_OWNER] = game.pieces.owner_of
    kinds[:, K_ARMED] = capture.armed
    kinds[:, K_ROYAL] = capture.royal
    weights = np.array([[float(getattr(game.knowledge, name)) for name in KNOWLEDGE] + [float(game._baseline)]],
                       np.float64)
    params = {KING: game.king, SOLDIER: game.soldier[0], SOLDIER + 1: game.soldier[1],
              ROYAL_SIDES: capture.royal_sides, SHIELDWALL: int(capture.shieldwall),
              EDGE_FORT: int(rules.edge_fort), ENCIRCLEMENT: int(rules.encirclement),
              REPETITION_LOSES_WHITE: int(rules.repetition_loses_white), MOVE_LIMIT: rules.move_limit,
              CORNER_ESCAPE: int(rules.escape == "corner"), RAY_LENGTH: length, LINES: lines}
    side = game.size
    most_pieces = max(game.start_counts[0], game.start_counts[1] + 1)
    # a move takes at most four sandwiched pieces and two shieldwalls along its edge; a
    # piece reaches at most its row and column
    return base_tables(game, FAMILY, move_width=2 + 4 + 2 * (side - 2), max_moves=most_pieces * 2 * (side - 1),
                       rules=rays, extra=pairs, dirmap=np.array([line_dirs], np.int64), zones=zones,
                       kinds=kinds, weights=weights, family_params=params)


def prepare(t: Tables, s: np.ndarray) -> None:
    """No words of its own."""


# -- the board ----------------------------------------------------------------------------------


@njit(cache=True)
def targets(t, cells, frm, out):
    """The squares the piece on ``frm`` may move to, into ``out``; their count."""
    n = 0
    length = t.params[RAY_LENGTH]
    king = cells[frm] == t.params[KING]
    for r in range(4):
        row = 4 * frm + r
        for i in range(length):
            q = t.rules[row, i]
            if q < 0 or cells[q] != 0:
                break
            if not king and t.zones[Z_RESTRICTED, q]:
                if t.zones[Z_PASSABLE, q]:
                    continue
                break
            out[n] = q
            n += 1
    return n


@njit(cache=True)
def hostile_to(t, cells, pos, victim_owner):
    """Whether ``pos`` closes a sandwich against a piece of ``victim_owner``."""
    code = cells[pos]
    if code != 0:
        owner = t.kinds[code, K_OWNER]
        return (t.kinds[code, K_ARMED] == 1 and owner != victim_owner) or (
            t.zones[Z_HOSTILE, pos] == 1 and owner != victim_owner)
    return t.zones[Z_HOSTILE, pos] == 1 or t.zones[Z_HOSTILE_EMPTY, pos] == 1


@njit(cache=True)
def line_step(t, pos, j):
    """The neighbour of ``pos`` along the ``j``-th capture direction, or -1."""
    return t.links[t.dirmap[0, j], pos]


@njit(cache=True)
def royal_taken(t, cells, pos, frm):
    """Whether the royal piece on ``pos`` is taken now that an enemy stands on ``frm``."""
    me = t.kinds[cells[pos], K_OWNER]
    if t.params[ROYAL_SIDES] == 2 and t.zones[Z_ROYAL_STRONG, pos] == 0:
        opposite = -1
        for j in range(t.dirmap.shape[1]):
            if line_step(t, frm, j) == pos:
                opposite = line_step(t, pos, j)
                break
        return opposite >= 0 and hostile_to(t, cells, opposite, me)
    count = 0
    for j in range(t.params[LINES]):
        n = t.extra[pos, 2 * j]
        if n < 0:
            continue
        count += 1
        code = cells[n]
        if code != 0:
            if t.kinds[code, K_OWNER] == me:
                return False
        elif t.zones[Z_ROYAL_HOSTILE, n] == 0:
            return False
    return count >= 4


@njit(cache=True)
def faced(t, cells, pos, me):
    """Whether the edge piece on ``pos`` has a piece of ``me`` on its inner side."""
    inner = t.zones[Z_INNER, pos]
    return inner >= 0 and cells[inner] != 0 and t.kinds[cells[inner], K_OWNER] == me


@njit(cache=True)
def captures(t, cells, to, out):
    """The squares of the pieces taken by the piece just landed on ``to`` (``cells``
    show it there), into ``out`` in the reference's order; their count."""
    mover = cells[to]
    me = t.kinds[mover, K_OWNER]
    n = 0
    if t.kinds[mover, K_ARMED] == 0:
        return 0
    for j in range(t.params[LINES]):
        nb = t.extra[to, 2 * j]
        if nb < 0:
            continue
        beyond = t.extra[to, 2 * j + 1]
        victim = cells[nb]
        if victim == 0 or t.kinds[victim, K_OWNER] == me:
            continue
        if t.kinds[victim, K_ROYAL]:
            if royal_taken(t, cells, nb, to):
                out[n] = nb
                n += 1
        elif beyond >= 0 and hostile_to(t, cells, beyond, t.kinds[victim, K_OWNER]):
            out[n] = nb
            n += 1
    if t.params[SHIELDWALL] and t.zones[Z_CAPTURE_EDGE, to]:
        row = np.empty(t.params[P_SIZE], np.int64)
        for j in range(t.dirmap.shape[1]):
            count = 0
            pos = line_step(t, to, j)
            while pos >= 0 and t.zones[Z_CAPTURE_EDGE, pos] and cells[pos] != 0 and t.kinds[cells[pos], K_OWNER] != me:
                row[count] = pos
                count += 1
                pos = line_step(t, pos, j)
            if count < 2 or pos < 0 or not t.zones[Z_CAPTURE_EDGE, pos]:
                continue
            end = cells[pos]
            if not ((end != 0 and t.kinds[end, K_OWNER] == me) or (end == 0 and t.zones[Z_HOSTILE, pos])):
                continue
            walled = True
            for i in range(count):
                if not faced(t, cells, row[i], me):
                    walled = False
                    break
            if walled:
                for i in range(count):
                    p = row[i]
                    if t.kinds[cells[p], K_ROYAL]:
                        continue
                    seen = False
                    for k in range(n):
                        if out[k] == p:
                            seen = True
                    if not seen:
                        out[n] = p
                        n += 1
    return n


@njit(cache=True)
def capture_squares(t, cells, player, near):
    """Per square, whether a move of ``player`` there may capture (the reference's filter)."""
    size = t.params[P_SIZE]
    near[:size] = False
    shieldwall = t.params[SHIELDWALL]
    king = t.params[KING]
    for p in range(size):
        c = cells[p]
        if c == 0 or t.kinds[c, K_OWNER] == player:
            continue
        if c == king or (shieldwall and t.zones[Z_EDGE, p]):
            for j in range(t.params[LINES]):
                nb = t.extra[p, 2 * j]
                if nb >= 0:
                    near[nb] = True
            continue
        # flanks: a neighbour ``to`` of p whose line through p continues beyond it
        for j in range(t.params[LINES]):
            to = t.extra[p, 2 * j]
            if to < 0 or near[to]:
                continue
            for i in range(t.params[LINES]):
                if t.extra[to, 2 * i] == p:
                    beyond = t.extra[to, 2 * i + 1]
                    if beyond >= 0 and not near[to] and hostile_to(t, cells, beyond, 1 - player):
                        near[to] = True


# -- ends -----------------------------------------------------------------------------------------


@njit(cache=True)
def king_square(t, cells):
    """Where the king stands, or -1."""
    king = t.params[KING]
    for p in range(t.params[P_SIZE]):
        if cells[p] == king:
            return p
    return -1


@njit(cache=True)
def neighbours_of(t, p, out):
    """The board neighbours of ``p`` (every direction), into ``out``; their count."""
    n = 0
    for d in range(t.links.shape[0]):
        q = t.links[d, p]
        if q >= 0:
            out[n] = q
            n += 1
    return n


@njit(cache=True)
def encircled(t, cells):
    """Whether no white piece can reach the edge: a flood from the white pieces over
    squares free of attackers meets no edge square (the reference floods from the edge;
    the same answer, found sooner while the game is open)."""
    size = t.params[P_SIZE]
    attacker = t.params[SOLDIER + ATTACKERS]
    seen = np.zeros(size, np.bool_)
    todo = np.empty(size, np.int64)
    top = 0
    for p in range(size):
        c = cells[p]
        if c != 0 and c != attacker:
            if t.zones[Z_EDGE, p]:
                return False
            seen[p] = True
            todo[top] = p
            top += 1
    return _spread_free_of_attackers(t, cells, seen, todo, top, True)[0] >= 0


@njit(cache=True)
def _spread_free_of_attackers(t, cells, seen, todo, top, edge_stops):
    """Flood from the ``top`` squares on ``todo`` (set in ``seen``) over the squares free
    of attackers, setting them in ``seen``: returns how many it adds and how many of those
    are escape squares; (-1, -1) on meeting an edge square when ``edge_stops``."""
    attacker = t.params[SOLDIER + ATTACKERS]
    added = 0
    escapes = 0
    while top > 0:
        top -= 1
        p = todo[top]
        for d in range(t.links.shape[0]):
            q = t.links[d, p]
            if q >= 0 and not seen[q] and cells[q] != attacker:
                if edge_stops and t.zones[Z_EDGE, q]:
                    return -1, -1
                seen[q] = True
                todo[top] = q
                top += 1
                added += 1
                escapes += t.zones[Z_ESCAPE, q]
    return added, escapes


@njit(cache=True)
def exit_fort(t, cells):
    """Whether the king, on the edge, can move and is walled in by defenders that no
    attacker can reach or capture (see ``Tafl._exit_fort``)."""
    size = t.params[P_SIZE]
    king = king_square(t, cells)
    if king < 0 or not t.zones[Z_EDGE, king]:
        return False
    defender = t.params[SOLDIER + DEFENDERS]
    inside = np.zeros(size, np.bool_)
    wall = np.zeros(size, np.bool_)
    todo = np.empty(size, np.int64)
    nb = np.empty(8, np.int64)
    inside[king] = True
    todo[0] = king
    top = 1
    count = 1
    while top > 0:
        top -= 1
        p = todo[top]
        for i in range(neighbours_of(t, p, nb)):
            q = nb[i]
            if inside[q] or wall[q]:
                continue
            c = cells[q]
            if c == defender:
                wall[q] = True
            elif c != 0:
                return False
            else:
                inside[q] = True
                count += 1
                todo[top] = q
                top += 1
    if count < 2:
        return False
    safe = np.zeros(size, np.bool_)
    for p in range(size):
        safe[p] = cells[p] == defender
    changed = True
    while changed:
        changed = False
        for d in range(size):
            if not safe[d]:
                continue
            for a, b in ((0, 1), (2, 3)):
                e1 = t.links[a, d]
                e2 = t.links[b, d]
                ok1 = e1 < 0 or inside[e1] or safe[e1]
                ok2 = e2 < 0 or inside[e2] or safe[e2]
                if not ok1 and not ok2:
                    safe[d] = False
                    changed = True
                    break
    for p in range(size):
        if wall[p] and not safe[p]:
            return False
    return True


@njit(cache=True)
def decided(t, s):
    """The winners' bits of an end on the board, or -1."""
    cells = s[S_CELLS:S_CELLS + t.params[P_SIZE]]
    king = king_square(t, cells)
    if king < 0:
        return 1 << ATTACKERS
    if t.zones[Z_ESCAPE, king]:
        return 1 << DEFENDERS
    if t.params[EDGE_FORT] and s[S_TO_MOVE] == ATTACKERS and exit_fort(t, cells):
        return 1 << DEFENDERS
    if t.params[ENCIRCLEMENT] and s[S_TO_MOVE] == DEFENDERS and encircled(t, cells):
        return 1 << ATTACKERS
    return -1


@njit(cache=True)
def drawn(t, s, hist, nhist):
    """1 for a third repetition, 2 for the move limit, else 0."""
    key = s[S_KEY]
    seen = 0
    for i in range(nhist):
        if hist[i] == key:
            seen += 1
    if seen >= 2:
        return 1
    if s[t.params[P_COUNTERS]] >= t.params[MOVE_LIMIT]:
        return 2
    return 0


@njit(cache=True)
def mine(t, code, player):
    """Whether ``code`` is a piece ``player`` moves."""
    return code != 0 and (code == t.params[SOLDIER + player] or (player == DEFENDERS and code == t.params[KING]))


@njit(cache=True)
def can_move(t, s):
    cells = s[S_CELLS:S_CELLS + t.params[P_SIZE]]
    player = s[S_TO_MOVE]
    out = np.empty(4 * t.params[RAY_LENGTH], np.int64)
    for p in range(t.params[P_SIZE]):
        if mine(t, cells[p], player) and targets(t, cells, p, out) > 0:
            return True
    return False


# -- the family interface -----------------------------------------------------------------------


@njit(cache=True)
def gen(t, s, hist, nhist, moves):
    if decided(t, s) >= 0 or drawn(t, s, hist, nhist):
        return 0
    size = t.params[P_SIZE]
    cells = s[S_CELLS:S_CELLS + size]
    board = cells.copy()
    player = s[S_TO_MOVE]
    near = np.zeros(size, np.bool_)
    capture_squares(t, cells, player, near)
    out = np.empty(4 * t.params[RAY_LENGTH], np.int64)
    taken = np.empty(t.params[P_MOVE_WIDTH] - 2, np.int64)
    n = 0
    for frm in range(size):
        code = cells[frm]
        if not mine(t, code, player):
            continue
        board[frm] = 0
        for i in range(targets(t, cells, frm, out)):
            to = out[i]
            count = 0
            if near[to]:
                board[to] = code
                count = captures(t, board, to, taken)
                board[to] = 0
            moves[n, 0] = frm | to << 8
            moves[n, 1] = count
            for k in range(count):
                moves[n, 2 + k] = taken[k]
            n += 1
        board[frm] = code
    return n


@njit(cache=True)
def noisy_moves(t, s, hist, nhist, moves):
    """The moves of ``Tafl.noisy_moves`` (captures and escapes), found as the reference
    finds them: from the squares where a capture may close, each square's rays walked back
    to the piece that can reach it, then the king's escapes; listed in ``gen``'s order
    (the default's, the legal moves filtered by ``noisy``); their count."""
    if decided(t, s) >= 0 or drawn(t, s, hist, nhist):
        return 0
    size = t.params[P_SIZE]
    length = t.params[RAY_LENGTH]
    king = t.params[KING]
    cells = s[S_CELLS:S_CELLS + size]
    board = cells.copy()
    player = s[S_TO_MOVE]
    near = np.zeros(size, np.bool_)
    capture_squares(t, cells, player, near)
    taken = np.empty(t.params[P_MOVE_WIDTH] - 2, np.int64)
    keys = np.empty(moves.shape[0], np.int64)
    n = 0
    for to in range(size):
        if not near[to] or cells[to] != 0:
            continue
        for r in range(4):
            row = 4 * to + r
            soldier_may = t.zones[Z_RESTRICTED, to] == 0
            for i in range(length):
                frm = t.rules[row, i]
                if frm < 0:
                    break
                code = cells[frm]
                if code != 0:
                    if mine(t, code, player) and (soldier_may or code == king):
                        board[frm] = 0
                        board[to] = code
                        count = captures(t, board, to, taken)
                        board[frm] = code
                        board[to] = 0
                        if count > 0:
                            moves[n, 0] = frm | to << 8
                            moves[n, 1] = count
                            for k in range(count):
                                moves[n, 2 + k] = taken[k]
                            keys[n] = gen_rank(t, frm, to)
                            n += 1
                    break
                if t.zones[Z_RESTRICTED, frm] and not t.zones[Z_PASSABLE, frm]:
                    soldier_may = False
    if player == DEFENDERS:
        frm = king_square(t, cells)
        out = np.empty(4 * length, np.int64)
        for i in range(targets(t, cells, frm, out)):
            to = out[i]
            if not t.zones[Z_ESCAPE, to]:
                continue
            count = 0
            if near[to]:
                board[frm] = 0
                board[to] = king
                count = captures(t, board, to, taken)
                board[frm] = king
                board[to] = 0
            if count == 0:  # (an escape that captures is listed above)
                moves[n, 0] = frm | to << 8
                moves[n, 1] = 0
                keys[n] = gen_rank(t, frm, to)
                n += 1
    for a in range(1, n):  # insertion sort by the rank in gen's order (few moves)
        b = a
        while b > 0 and keys[b - 1] > keys[b]:
            keys[b - 1], keys[b] = keys[b], keys[b - 1]
            for c in range(moves.shape[1]):
                moves[b - 1, c], moves[b, c] = moves[b, c], moves[b - 1, c]
            b -= 1
    return n


@njit(cache=True)
def gen_rank(t, frm, to):
    """Where ``gen`` lists the move from ``frm`` to ``to`` among the moves: by origin,
    then ray, then distance."""
    length = t.params[RAY_LENGTH]
    for r in range(4):
        for i in range(length):
            q = t.rules[4 * frm + r, i]
            if q < 0:
                break
            if q == to:
                return (frm * 4 + r) * length + i
    return (frm * 4 + 4) * length


@njit(cache=True)
def play(t, s, m, dst):
    p = t.params
    dst[:] = s
    values = p[P_VALUES]
    frm = m[0] & 255
    to = m[0] >> 8
    code = s[S_CELLS + frm]
    z = t.zobrist
    key = s[S_KEY] ^ z[frm * values + code] ^ z[to * values + code]
    dst[S_CELLS + frm] = 0
    dst[S_CELLS + to] = code
    for k in range(m[1]):
        q = m[2 + k]
        key ^= z[q * values + s[S_CELLS + q]]
        dst[S_CELLS + q] = 0
    me = s[S_TO_MOVE]
    dst[S_TO_MOVE] = 1 - me
    dst[S_KEY] = key ^ t.side[me] ^ t.side[1 - me]
    clock = p[P_COUNTERS]
    if m[1] > 0:
        dst[clock] = 0
        return IRREVERSIBLE
    dst[clock] = s[clock] + 1
    return 0


@njit(cache=True)
def actions(t, s, m, out):
    frm = m[0] & 255
    to = m[0] >> 8
    out[0, 0] = MOVE
    out[0, 1] = frm
    out[0, 2] = to
    out[0, 3] = s[S_CELLS + frm]
    out[0, 4] = 0
    for k in range(m[1]):
        q = m[2 + k]
        out[1 + k, 0] = CAPTURE
        out[1 + k, 1] = q
        out[1 + k, 2] = q
        out[1 + k, 3] = s[S_CELLS + q]
        out[1 + k, 4] = 0
    return 1 + m[1]


@njit(cache=True)
def outcome(t, s, hist, nhist, nlegal):
    if nlegal > 0:  # ``gen`` lists no move once the game is decided or drawn
        return -1
    ended = decided(t, s)
    if ended >= 0:
        return ended
    if not can_move(t, s):
        return 1 << (1 - s[S_TO_MOVE])
    why = drawn(t, s, hist, nhist)
    if why == 1:
        return repetition(t, s)
    if why == 2:
        return 3
    return -1


@njit(cache=True)
def repetition(t, s):
    """The rules' end by repetition (the third occurrence): white loses under
    Copenhagen rules, else a draw."""
    if t.params[REPETITION_LOSES_WHITE]:
        return 1 << ATTACKERS
    return 3


@njit(cache=True)
def repeat(t, s, hist, nhist):
    """``Tafl.repetition_outcome`` of a position met again (``hist[:nhist]``: the keys
    before it): the rules' end at the third occurrence, a draw before."""
    if drawn(t, s, hist, nhist) == 1:
        return repetition(t, s)
    return 3


@njit(cache=True)
def open_paths(t, cells, p, first):
    """How many rays from ``p`` to an escape square are empty; ``first[0]``: the row of the
    first one."""
    length = t.params[RAY_LENGTH]
    count = 0
    for r in range(4):
        row = 4 * p + r
        if t.rules[row, length] == 0 or t.rules[row, 0] < 0:
            continue
        empty = True
        for i in range(length):
            q = t.rules[row, i]
            if q < 0:
                break
            if cells[q] != 0:
                empty = False
                break
        if empty:
            if count == 0:
                first[0] = row
            count += 1
    return count


@njit(cache=True)
def path_blocked(t, row, reach):
    """Whether some square of ray ``row`` is in ``reach``."""
    for i in range(t.params[RAY_LENGTH]):
        q = t.rules[row, i]
        if q < 0:
            return False
        if reach[q]:
            return True
    return False


@njit(cache=True)
def attacker_reach(t, cells, reach):
    """Mark the squares some attacker can move to."""
    size = t.params[P_SIZE]
    out = np.empty(4 * t.params[RAY_LENGTH], np.int64)
    attacker = t.params[SOLDIER + ATTACKERS]
    for p in range(size):
        if cells[p] == attacker:
            for i in range(targets(t, cells, p, out)):
                reach[out[i]] = True


@njit(cache=True)
def white_score(t, s):
    """``Tafl._white_score``: the position's score for white."""
    w = t.weights[0]
    size = t.params[P_SIZE]
    cells = s[S_CELLS:S_CELLS + size]
    king = king_square(t, cells)
    if king < 0:
        return -w[W_DECIDED]
    if t.zones[Z_ESCAPE, king]:
        return w[W_DECIDED]
    white_to_move = s[S_TO_MOVE] == DEFENDERS
    attacker = t.params[SOLDIER + ATTACKERS]
    defender = t.params[SOLDIER + DEFENDERS]
    attackers = 0
    defenders = 0
    for p in range(size):
        if cells[p] == attacker:
            attackers += 1
        elif cells[p] == defender:
            defenders += 1
    score = w[W_DEFENDER] * defenders - w[W_ATTACKER] * attackers
    reach = np.empty(4 * t.params[RAY_LENGTH], np.int64)
    nreach = targets(t, cells, king, reach)
    first = np.zeros(1, np.int64)
    roads = open_paths(t, cells, king, first)
    score += w[W_OPEN_ROAD] * min(roads, 2)
    blockers = np.zeros(size, np.bool_)
    have_blockers = False
    if roads and white_to_move:
        score += w[W_ROAD_TO_MOVE]
    elif roads > 1:
        score += w[W_TWO_ROADS]
    elif roads:
        attacker_reach(t, cells, blockers)
        have_blockers = True
        if not path_blocked(t, first[0], blockers):
            score += w[W_TWO_ROADS]
    if not roads:
        two = 0
        forks = 0
        for i in range(nreach):
            q = reach[i]
            paths = open_paths(t, cells, q, first)
            if paths == 0:
                continue
            two += 1
            if paths == 1:
                if not have_blockers:
                    attacker_reach(t, cells, blockers)
                    have_blockers = True
                if path_blocked(t, first[0], blockers):
                    continue
            forks += 1
        score += w[W_ESCAPE_IN_TWO] * min(two, 3) + w[W_FORK] * min(forks, 2)
        if forks and white_to_move:
            score += w[W_FORK_TO_MOVE]
    score += w[W_KING_MOBILITY] * nreach
    nb = np.empty(8, np.int64)
    for i in range(neighbours_of(t, king, nb)):
        c = cells[nb[i]]
        if c == attacker:
            score += w[W_ATTACKER_BESIDE_KING]
        elif c == 0:
            score += w[W_KING_FREE_SIDE]
    if t.params[CORNER_ESCAPE]:
        for c in range(size):
            if t.zones[Z_CORNER, c]:
                guards = 0
                for i in range(neighbours_of(t, c, nb)):
                    if cells[nb[i]] == attacker:
                        guards += 1
                score -= w[W_CORNER_GUARD] * guards
        seals = 0
        for p in range(size):
            if t.zones[Z_SEAL, p] and cells[p] == attacker:
                seals += 1
        score -= w[W_CORNER_SEAL] * seals
    if w[W_KING_ROOM] != 0 or w[W_ESCAPE_ROOM] != 0:
        room, escapes = king_room(t, cells, king)
        score += w[W_KING_ROOM] * room + w[W_ESCAPE_ROOM] * escapes
    if (w[W_KING_ENCLOSED] != 0 or w[W_KING_SIDE_REACH] != 0 or w[W_KING_TRAP] != 0) and \
            neighbours_of(t, king, nb) == 4:
        score += enclosure(t, cells, king)
    return score


@njit(cache=True)
def enclosure(t, cells, king):
    """``Tafl._enclosure``: the terms of the king's capture on four sides."""
    w = t.weights[0]
    attacker = t.params[SOLDIER + ATTACKERS]
    hostile = 0
    reached = 0
    for d in range(t.links.shape[0]):
        n = t.links[d, king]
        if n < 0:
            continue
        c = cells[n]
        if c == attacker or (c == 0 and t.zones[Z_ROYAL_HOSTILE, n] == 1):
            hostile += 1
        elif c == 0 and t.zones[Z_RESTRICTED, n] == 0 and attacker_reaches(t, cells, n):
            reached += 1
    score = w[W_KING_ENCLOSED] * hostile * hostile + w[W_KING_SIDE_REACH] * reached
    if hostile == 3 and reached > 0:
        score += w[W_KING_TRAP]
    return score


@njit(cache=True)
def attacker_reaches(t, cells, to):
    """``Tafl._attacker_reaches``: whether an attacker can move to the empty square ``to``."""
    length = t.params[RAY_LENGTH]
    attacker = t.params[SOLDIER + ATTACKERS]
    for r in range(4):
        row = 4 * to + r
        for i in range(length):
            q = t.rules[row, i]
            if q < 0:
                break
            if cells[q] != 0:
                if cells[q] == attacker:
                    return True
                break
            if t.zones[Z_RESTRICTED, q] == 1 and t.zones[Z_PASSABLE, q] == 0:
                break
    return False


@njit(cache=True)
def king_room(t, cells, king):
    """``Tafl._king_room``: how many squares are joined to the king's by squares free of
    attackers (his own counted), and how many of them are escape squares."""
    size = t.params[P_SIZE]
    seen = np.zeros(size, np.bool_)
    todo = np.empty(size, np.int64)
    seen[king] = True
    todo[0] = king
    room, escapes = _spread_free_of_attackers(t, cells, seen, todo, 1, False)
    return room + 1, escapes + t.zones[Z_ESCAPE, king]


@njit(cache=True)
def evaluate(t, s):
    score = white_score(t, s) - t.weights[0, W_BASELINE]
    return score if s[S_TO_MOVE] == DEFENDERS else -score


@njit(cache=True)
def order(t, s, m):
    score = 10.0 * m[1]
    frm = m[0] & 255
    to = m[0] >> 8
    if s[S_CELLS + frm] == t.params[KING]:
        if t.zones[Z_ESCAPE, to]:
            score += 1000.0
        score += 1.0
    return score


@njit(cache=True)
def noisy(t, s, m):
    return m[1] > 0 or (s[S_CELLS + (m[0] & 255)] == t.params[KING] and t.zones[Z_ESCAPE, m[0] >> 8] == 1)
