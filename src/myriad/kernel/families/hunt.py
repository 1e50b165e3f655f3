"""Kernel family: hunt games (fox and geese, bagh-chal: :class:`myriad.games.hunt.HuntGame`).

The hunters step along the lines or jump the prey (one jump a move, or a chain they may
stop at any landing), read from the reference game's
:class:`~myriad.core.mechanics.jumps.JumpCaptures` tables; the prey step, or are placed
from hand first.

Tables: ``rules[pos]`` holds, in blocks of :data:`LINES` words (-1 padded), the hunters'
steps from ``pos``, their jumps as the squares jumped over and the squares landed on, the
prey's steps, then the prey's forward step (the clock's progress, or -1);
``extra[p, q]`` the line steps between two points; ``weights[0]`` the evaluation's
weights (:class:`~myriad.games.hunt.HuntKnowledge`, then the start position's score).

A move is ``(id, kind, hops, path..., captured...)``: kind 0 a step, 1 a placement, 2 a
capture along ``hops + 1`` points; the id is ``frm | to << 8``, with bit 60 for a
placement and the captured points' bits from bit 16 for a capture.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.move import CAPTURE, DROP, MOVE
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.keys import hand_key
from myriad.kernel.layout import (P_COUNTERS, P_FAMILY_PARAMS, P_HAND_KINDS, P_HANDS, P_SIZE, P_VALUES,
                                  S_CELLS, S_KEY, S_TO_MOVE, MoveBufferFull, Tables, base_tables)

FAMILY = 10
HUNTER, PREY = 0, 1
#: Words per block of ``rules`` (the most lines through a point).
LINES = 8
STEPS, OVERS, LANDS, PREY_STEPS, FORWARD = 0, LINES, 2 * LINES, 3 * LINES, 4 * LINES
STEP, PLACE, JUMP = 0, 1, 2

# -- params
HUNTER_CODE = P_FAMILY_PARAMS
PREY_CODE = P_FAMILY_PARAMS + 1
PREY_TOTAL = P_FAMILY_PARAMS + 2
CAPTURE_GOAL = P_FAMILY_PARAMS + 3
MOVE_LIMIT = P_FAMILY_PARAMS + 4
REPETITION_DRAWS = P_FAMILY_PARAMS + 5
FORWARD_ONLY = P_FAMILY_PARAMS + 6
CHAIN = P_FAMILY_PARAMS + 7        # 1: a hunter may go on jumping and stop at any landing
MAX_HOPS = P_FAMILY_PARAMS + 8
# -- weights
(W_TAKEN, W_MOBILITY, W_THREAT, W_TRAPPED, W_IN_HAND, W_REGION, W_THREAT_TO_MOVE, W_FORK, W_EXPOSED,
 W_SPREAD, W_CHASE, W_CHASE_AFTER, W_BASELINE) = range(13)
KNOWLEDGE = ("taken", "mobility", "threat", "trapped", "in_hand", "region", "threat_to_move", "fork",
             "exposed", "spread", "chase", "chase_after")


def tables(game: Game) -> Tables | None:
    """The tables of a :class:`HuntGame` whose hunters step and jump as the reference's
    jump captures allow here (one jump, or a chain that may stop anywhere; no flying)."""
    from myriad.games.hunt import HuntGame
    if type(game) is not HuntGame:
        return None
    jumps = game.jumps
    if (jumps.flying_kings or jumps.continue_capture not in ("may", "no") or jumps.compulsory
            or jumps.maximum_capture or not jumps.turn_back or jumps.remove_at_once
            or not jumps.merge_duplicate_routes or game.pieces.count > 8):
        return None
    size = game.topology.size
    rules = np.full((size, 4 * LINES + 1), -1, np.int64)
    for pos in range(size):
        steps = [ray[0][0] for ray in jumps._king_slides[HUNTER][pos]]
        hops = jumps._king_hops[HUNTER][pos]
        prey_steps = game.prey_steps[pos]
        if max(len(steps), len(hops), len(prey_steps)) > LINES:
            return None
        rules[pos, STEPS:STEPS + len(steps)] = steps
        for j, (_d, (over, land)) in enumerate(hops):
            rules[pos, OVERS + j], rules[pos, LANDS + j] = over, land
        rules[pos, PREY_STEPS:PREY_STEPS + len(prey_steps)] = prey_steps
        forward = [t for p, t in game.forward if p == pos]
        rules[pos, FORWARD] = forward[0] if forward else -1
    distance = np.array(game.distance, np.int64)
    weights = np.array([[float(getattr(game.knowledge, name)) for name in KNOWLEDGE] + [float(game._baseline)]],
                       np.float64)
    chain = int(jumps.continue_capture == "may")
    most_hops = game.prey_total if chain else 1
    params = {HUNTER_CODE: game.hunter, PREY_CODE: game.prey, PREY_TOTAL: game.prey_total,
              CAPTURE_GOAL: game.capture_goal, MOVE_LIMIT: game.move_limit,
              REPETITION_DRAWS: int(game.repetition_draws), FORWARD_ONLY: int(game.forward_only),
              CHAIN: chain, MAX_HOPS: most_hops}
    # steps and placements, and room for the capture routes (a chain that may stop
    # anywhere lists every prefix; more routes than this raise, never pass silently)
    most = max(size, game.prey_total * LINES) + game.hunter_count * LINES * (64 if chain else 1)
    return base_tables(game, FAMILY, move_width=3 + 2 * most_hops + 1, max_moves=most, rules=rules, extra=distance,
                       weights=weights, family_params=params)


def prepare(t: Tables, s: np.ndarray) -> None:
    """No words of its own."""


@njit(cache=True)
def in_hand(t, s):
    """The prey still in hand."""
    return s[t.params[P_HANDS] + PREY * t.params[P_HAND_KINDS] + 1]


@njit(cache=True)
def taken(t, s):
    """The prey taken so far."""
    prey = t.params[PREY_CODE]
    on_board = 0
    for p in range(t.params[P_SIZE]):
        if s[S_CELLS + p] == prey:
            on_board += 1
    return t.params[PREY_TOTAL] - on_board - in_hand(t, s)


@njit(cache=True)
def drawn(t, s, hist, nhist):
    """Whether a draw rule ends the game (if the side to move can move)."""
    if t.params[REPETITION_DRAWS]:
        seen = 0
        for i in range(nhist):
            if hist[i] == s[S_KEY]:
                seen += 1
        if seen >= 2:
            return True
    return s[t.params[P_COUNTERS]] >= t.params[MOVE_LIMIT]


@njit(cache=True)
def add_capture(t, cells, moves, n, path, caps, hops):
    """Write the capture along ``path`` taking ``caps`` as move ``n`` unless a route with
    the same ends and captures is already listed (the reference merges those); return
    the new count."""
    start = path[0]
    end = path[hops]
    mask = np.int64(0)
    for h in range(hops):
        mask |= np.int64(1) << caps[h]
    ident = start | end << 8 | mask << 16
    if hops > 1:
        for i in range(n):
            if moves[i, 0] == ident:
                return n
    if n >= moves.shape[0]:
        raise MoveBufferFull("hunt: more capture routes than the move buffer holds")
    moves[n, 0] = ident
    moves[n, 1] = JUMP
    moves[n, 2] = hops
    for h in range(hops + 1):
        moves[n, 3 + h] = path[h]
    base = 3 + t.params[MAX_HOPS] + 1
    for h in range(hops):
        moves[n, base + h] = caps[h]
    return n + 1


@njit(cache=True)
def hunter_captures(t, cells, moves, n):
    """Append every capture route of the hunters, in the reference's order."""
    size = t.params[P_SIZE]
    hunter = t.params[HUNTER_CODE]
    prey = t.params[PREY_CODE]
    chain = t.params[CHAIN] == 1
    dead = 255
    board = cells.copy()
    top = t.params[MAX_HOPS] + 1
    path = np.empty(top + 1, np.int64)
    caps = np.empty(top, np.int64)
    index = np.zeros(top + 1, np.int64)
    for pos in range(size):
        if cells[pos] != hunter:
            continue
        board[pos] = 0
        path[0] = pos
        index[0] = 0
        depth = 0
        while depth >= 0:
            sq = path[depth]
            j = index[depth]
            if j >= LINES or t.rules[sq, OVERS + j] < 0:
                if depth > 0:  # back from this landing: the jumped piece returns
                    board[caps[depth - 1]] = prey
                depth -= 1
                continue
            index[depth] = j + 1
            over = t.rules[sq, OVERS + j]
            land = t.rules[sq, LANDS + j]
            if board[over] != prey or board[land] != 0:
                continue
            caps[depth] = over
            path[depth + 1] = land
            n = add_capture(t, cells, moves, n, path, caps, depth + 1)
            if chain and depth + 1 < t.params[MAX_HOPS]:
                board[over] = dead
                depth += 1
                index[depth] = 0
        board[pos] = hunter
    return n


@njit(cache=True, inline="always")
def add_step(moves, n, kind, frm, to):
    """Write a step (or, for ``PLACE``, a placement on ``to``) as move ``n``; the new count."""
    moves[n, 0] = frm | to << 8 | (np.int64(1) << 60 if kind == PLACE else 0)
    moves[n, 1] = kind
    moves[n, 2] = 0
    moves[n, 3] = frm
    moves[n, 4] = to
    return n + 1


@njit(cache=True)
def steps_of(t, cells, code, block, moves, n):
    """Append the steps of every ``code`` piece to an empty point of its ``block`` of
    ``rules``; the new count."""
    for p in range(t.params[P_SIZE]):
        if cells[p] != code:
            continue
        for j in range(LINES):
            q = t.rules[p, block + j]
            if q < 0:
                break
            if cells[q] == 0:
                n = add_step(moves, n, STEP, p, q)
    return n


@njit(cache=True)
def raw_moves(t, s, moves):
    """The moves by the rules, whether or not the game is over; their count."""
    size = t.params[P_SIZE]
    cells = s[S_CELLS:S_CELLS + size]
    if s[S_TO_MOVE] == HUNTER:
        n = hunter_captures(t, cells, moves, 0)
        return steps_of(t, cells, t.params[HUNTER_CODE], STEPS, moves, n)
    if in_hand(t, s) > 0:
        n = 0
        for p in range(size):
            if cells[p] == 0:
                n = add_step(moves, n, PLACE, p, p)
        return n
    return steps_of(t, cells, t.params[PREY_CODE], PREY_STEPS, moves, 0)


@njit(cache=True)
def gen(t, s, hist, nhist, moves):
    if taken(t, s) >= t.params[CAPTURE_GOAL] or drawn(t, s, hist, nhist):
        return 0
    return raw_moves(t, s, moves)


@njit(cache=True)
def play(t, s, m, dst):
    p = t.params
    dst[:] = s
    values = p[P_VALUES]
    z = t.zobrist
    me = s[S_TO_MOVE]
    key = s[S_KEY] ^ t.side[me] ^ t.side[1 - me]
    progress = False
    if m[1] == PLACE:
        to = m[3]
        prey = p[PREY_CODE]
        dst[S_CELLS + to] = prey
        key ^= z[to * values + prey]
        hand = p[P_HANDS] + PREY * p[P_HAND_KINDS] + 1
        left = s[hand]
        key ^= hand_key(p, PREY, 1, left) ^ hand_key(p, PREY, 1, left - 1)
        dst[hand] = left - 1
        progress = True
    else:
        hops = m[2] if m[1] == JUMP else 1
        frm = m[3]
        to = m[3 + hops]
        code = s[S_CELLS + frm]
        key ^= z[frm * values + code] ^ z[to * values + code]
        dst[S_CELLS + frm] = 0
        dst[S_CELLS + to] = code
        if m[1] == JUMP:
            base = 3 + p[MAX_HOPS] + 1
            for h in range(hops):
                c = m[base + h]
                key ^= z[c * values + s[S_CELLS + c]]
                dst[S_CELLS + c] = 0
            progress = True
        elif p[FORWARD_ONLY] and me == PREY and t.rules[frm, FORWARD] == to:
            progress = True
    dst[S_TO_MOVE] = 1 - me
    dst[S_KEY] = key
    clock = p[P_COUNTERS]
    dst[clock] = 0 if progress else s[clock] + 1
    if progress or not p[REPETITION_DRAWS]:
        return IRREVERSIBLE
    return 0


@njit(cache=True)
def actions(t, s, m, out):
    if m[1] == PLACE:
        out[0, 0] = DROP
        out[0, 1] = m[3]
        out[0, 2] = m[3]
        out[0, 3] = t.params[PREY_CODE]
        out[0, 4] = 0
        return 1
    frm = m[3]
    code = s[S_CELLS + frm]
    if m[1] == STEP:
        out[0, 0] = MOVE
        out[0, 1] = frm
        out[0, 2] = m[4]
        out[0, 3] = code
        out[0, 4] = 0
        return 1
    hops = m[2]
    for h in range(hops):
        out[h, 0] = MOVE
        out[h, 1] = m[3 + h]
        out[h, 2] = m[4 + h]
        out[h, 3] = code
        out[h, 4] = h
    base = 3 + t.params[MAX_HOPS] + 1
    for h in range(hops):
        c = m[base + h]
        out[hops + h, 0] = CAPTURE
        out[hops + h, 1] = c
        out[hops + h, 2] = c
        out[hops + h, 3] = s[S_CELLS + c]
        out[hops + h, 4] = h
    return 2 * hops


@njit(cache=True)
def outcome(t, s, hist, nhist, nlegal):
    if taken(t, s) >= t.params[CAPTURE_GOAL]:
        return 1 << HUNTER
    if nlegal > 0:
        return -1
    if drawn(t, s, hist, nhist) and can_move(t, s):
        return 3
    return 1 << (1 - s[S_TO_MOVE])


@njit(cache=True)
def can_move(t, s):
    """Whether the side to move has a move by the rules (without listing them)."""
    size = t.params[P_SIZE]
    cells = s[S_CELLS:S_CELLS + size]
    prey = t.params[PREY_CODE]
    if s[S_TO_MOVE] == HUNTER:
        hunter = t.params[HUNTER_CODE]
        for p in range(size):
            if cells[p] != hunter:
                continue
            for j in range(LINES):
                q = t.rules[p, STEPS + j]
                if q >= 0 and cells[q] == 0:
                    return True
                over = t.rules[p, OVERS + j]
                if over >= 0 and cells[over] == prey and cells[t.rules[p, LANDS + j]] == 0:
                    return True
        return False
    for p in range(size):
        if cells[p] == 0 and in_hand(t, s) > 0:
            return True
        if cells[p] == prey and in_hand(t, s) == 0:
            for j in range(LINES):
                q = t.rules[p, PREY_STEPS + j]
                if q >= 0 and cells[q] == 0:
                    return True
    return False


@njit(cache=True)
def repetition(t, s):
    return 3


@njit(cache=True)
def hunter_score(t, s):
    """``HuntGame._hunter_score``: the position's score for the hunters."""
    w = t.weights[0]
    size = t.params[P_SIZE]
    cells = s[S_CELLS:S_CELLS + size]
    hunter = t.params[HUNTER_CODE]
    prey = t.params[PREY_CODE]
    score = w[W_TAKEN] * taken(t, s) + w[W_IN_HAND] * in_hand(t, s)
    hunters = 0
    seen = np.zeros(size, np.bool_)
    todo = np.empty(size, np.int64)
    top = 0
    for p in range(size):
        if cells[p] == hunter:
            hunters += 1
            seen[p] = True
            todo[top] = p
            top += 1
    if w[W_REGION] != 0:
        region = top
        while top > 0:
            top -= 1
            p = todo[top]
            for d in range(t.links.shape[0]):
                q = t.links[d, p]
                if q >= 0 and not seen[q] and cells[q] == 0:
                    seen[q] = True
                    todo[top] = q
                    top += 1
                    region += 1
        score += w[W_REGION] * (region - hunters)
        if w[W_EXPOSED] != 0:
            exposed = np.zeros(size, np.bool_)
            count = 0
            for p in range(size):
                if not seen[p]:
                    continue
                for j in range(LINES):
                    over = t.rules[p, OVERS + j]
                    if over < 0:
                        break
                    if cells[over] == prey and cells[t.rules[p, LANDS + j]] == 0 and not exposed[over]:
                        exposed[over] = True
                        count += 1
            score += w[W_EXPOSED] * count
    chasing = w[W_CHASE] != 0 and taken(t, s) >= w[W_CHASE_AFTER]
    if w[W_SPREAD] != 0 or chasing:
        spread = 0
        for p in range(size):
            if cells[p] != prey:
                continue
            nearest = 1 << 30
            for h in range(size):
                if cells[h] == hunter and t.extra[p, h] < nearest:
                    nearest = t.extra[p, h]
            spread += nearest
        score += (w[W_CHASE] if chasing else w[W_SPREAD]) * spread
    threatened = np.zeros(size, np.bool_)
    nthreatened = 0
    for p in range(size):
        if cells[p] != hunter:
            continue
        free = 0
        jumpable = 0
        for j in range(LINES):
            q = t.rules[p, STEPS + j]
            if q >= 0 and cells[q] == 0:
                free += 1
            over = t.rules[p, OVERS + j]
            if over >= 0 and cells[over] == prey and cells[t.rules[p, LANDS + j]] == 0:
                jumpable += 1
                if not threatened[over]:
                    threatened[over] = True
                    nthreatened += 1
        score += w[W_MOBILITY] * free + w[W_THREAT] * jumpable
        if free == 0 and jumpable == 0:
            score += w[W_TRAPPED]
    if nthreatened > 0 and s[S_TO_MOVE] == HUNTER:
        score += w[W_THREAT_TO_MOVE]
    elif nthreatened > 1 and s[S_TO_MOVE] == PREY:
        score += w[W_FORK]
    return score


@njit(cache=True)
def evaluate(t, s):
    score = hunter_score(t, s) - t.weights[0, W_BASELINE]
    return score if s[S_TO_MOVE] == HUNTER else -score


@njit(cache=True)
def order(t, s, m):
    return float(m[2]) if m[1] == JUMP else 0.0


@njit(cache=True)
def noisy(t, s, m):
    return m[1] == JUMP
