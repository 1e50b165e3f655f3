"""Kernel family: pieces that step or slide along fixed rays, with no check, promotion,
castling, drops or special pawn moves; reaching a goal zone, or taking the last enemy piece,
wins -- Breakthrough (:func:`myriad.games.breakthrough.breakthrough`), and any
:class:`~myriad.core.piece_game.PieceGame` declared with only those features.

Tables: ``rules[code * size + pos]`` the rays of piece ``code`` on ``pos`` (the reference's
``MoveTables.rays``) as records ``mode, length, target...`` ended by -1; ``kinds[code]`` =
(owner or -1, value, 1 for a pawn kind); ``zones[player, pos]`` 1 in the player's goal zone;
``weights[code, pos]`` the evaluation's value of the piece there (``PieceGame.value_at``).
``params``: whether a goal zone and the "no pieces left loses" rule are on, and the score of a
player with no move (``stalemated``, in halves).  A move is two words: ``from * size + to``
and the captured piece's code (0: none).  Counters: the half-move clock and the move number.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.move import CAPTURE, MOVE
from myriad.core.zobrist import Zobrist
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.layout import (P_COUNTERS, P_FAMILY_PARAMS, P_SIZE, P_VALUES, S_CELLS, S_KEY, S_TO_MOVE,
                                  Tables, base_tables, empty2)

FAMILY = 7

GOAL = P_FAMILY_PARAMS            # a goal zone wins
NO_PIECES_LOSES = P_FAMILY_PARAMS + 1
STUCK_HALVES = P_FAMILY_PARAMS + 2  # the mover's score with no move, in halves (0 loss, 1 draw, 2 win)
CODES = P_FAMILY_PARAMS + 3       # piece codes (0: empty)

BOTH, MOVE_ONLY, CAPTURE_ONLY = 0, 1, 2  # movement modes (myriad.core.mechanics.movement)
K_OWNER, K_VALUE, K_PAWN = 0, 1, 2

#: PieceGame methods a game must keep for the kernel to play it.
_RULES = ("legal_moves", "moves_by_rules", "_generate", "after_move", "outcome", "result", "_judge", "evaluate",
          "move_heuristic", "is_noisy", "repetition_outcome")


def _plain(game: Game) -> bool:
    """Whether ``game`` is a PieceGame using nothing beyond plain rays, a goal zone and the
    no-pieces rule."""
    from myriad.core.piece_game import PieceGame
    if not isinstance(game, PieceGame) or any(getattr(type(game), n) is not getattr(PieceGame, n) for n in _RULES):
        return False
    r, mt = game.piece_rules, game.tables
    return (not r.royal_check and not r.castlings and not r.promotions and not r.drops and not r.may_pass
            and not r.fog and r.honour is None and not r.move_limit and not r.repetitions and not r.minor_kinds
            and not r.bare_king_loses and not r.max_moves and not r.facing_royals_end
            and not r.royals_may_not_face and not r.perpetual_check_loses and not r.rights_fields and not r.sfen
            and not mt.extra_codes and not game.in_place_codes and type(game.zobrist) is Zobrist
            and game.players == 2 and all(p is None for p in mt.promote_at)
            and all(p is None for p in mt.promote_anywhere)
            and all(not any(row) for row in mt.double_steps) and all(not any(row) for row in mt.en_passant))


def tables(game: Game) -> Tables | None:
    """The tables of a PieceGame of plain rays with no check (see the module docstring)."""
    from myriad.core.piece_game import PieceGame
    if not _plain(game):
        return None
    assert isinstance(game, PieceGame)
    state = game.initial_state()
    if state.flags or state.hands or len(state.counters) != 2:
        return None
    size, codes = game.topology.size, game.pieces.count
    rows: list[list[int]] = []
    most = 0  # the most targets of one piece on one square
    for code in range(codes):
        for pos in range(size):
            row: list[int] = []
            rays = game.tables.rays[code][pos] if code else ()
            for ray, mode in rays:
                row += [mode, len(ray), *ray]
            rows.append(row + [-1])
            most = max(most, sum(len(ray) for ray, _ in rays))
    rules = np.full((len(rows), max(len(r) for r in rows)), -1, np.int64)
    for i, row in enumerate(rows):
        rules[i, :len(row)] = row
    pieces = game.pieces
    kinds = np.array([[pieces.owner_of[c] if c else -1, pieces.value_of[c] if c else 0,
                       int(c in game.pawn_codes)] for c in range(codes)], np.int64)
    zones = np.zeros((2, size), np.int64)
    if game.goal is not None:
        for player in range(2):
            zones[player, list(game.goal[player])] = 1
    weights = np.array(game.value_at, np.float64)
    if game.piece_rules.stalemated not in (0.0, 0.5, 1.0):
        return None
    params = {GOAL: int(game.goal is not None), NO_PIECES_LOSES: int(game.piece_rules.lose_when_no_pieces),
              STUCK_HALVES: round(2 * game.piece_rules.stalemated), CODES: codes}
    return base_tables(game, FAMILY, move_width=2, max_moves=max(1, size * most), kinds=kinds, rules=rules,
                       zones=zones, dirmap=empty2(), weights=weights, family_params=params, state=state)


def prepare(t: Tables, s: np.ndarray) -> None:
    """No words of its own."""


@njit(cache=True)
def _over(t, s):
    """PieceGame._judge before the moves: the winner's bit by a goal or no pieces, else 0."""
    p = t.params
    size = p[P_SIZE]
    owners = 0
    for pos in range(size):
        c = s[S_CELLS + pos]
        if c:
            owner = t.kinds[c, 0]
            owners |= 1 << owner
    if p[GOAL]:
        for player in range(2):
            for pos in range(size):
                c = s[S_CELLS + pos]
                if c and t.zones[player, pos] and t.kinds[c, 0] == player:
                    return 1 << player
    if p[NO_PIECES_LOSES]:
        for player in range(2):
            if not owners >> player & 1:
                return 1 << (1 - player)
    return 0


@njit(cache=True)
def gen(t, s, hist, nhist, moves):
    p = t.params
    size = p[P_SIZE]
    if _over(t, s):
        return 0
    me = s[S_TO_MOVE]
    n = 0
    for pos in range(size):
        code = s[S_CELLS + pos]
        if code == 0 or t.kinds[code, K_OWNER] != me:
            continue
        row = t.rules[code * size + pos]
        i = 0
        while row[i] >= 0:
            mode = row[i]
            length = row[i + 1]
            for k in range(length):
                target = row[i + 2 + k]
                c = s[S_CELLS + target]
                if c == 0:
                    if mode != CAPTURE_ONLY:
                        moves[n, 0] = pos * size + target
                        moves[n, 1] = 0
                        n += 1
                    continue
                if mode != MOVE_ONLY and t.kinds[c, K_OWNER] != me:
                    moves[n, 0] = pos * size + target
                    moves[n, 1] = c
                    n += 1
                break
            i += 2 + length
    return n


@njit(cache=True)
def play(t, s, m, dst):
    p = t.params
    size = p[P_SIZE]
    values = p[P_VALUES]
    zob = t.zobrist
    dst[:] = s
    me = s[S_TO_MOVE]
    frm = m[0] // size
    to = m[0] % size
    code = s[S_CELLS + frm]
    taken = m[1]
    key = s[S_KEY] ^ zob[frm * values + code] ^ zob[to * values + taken] ^ zob[to * values + code]
    dst[S_CELLS + frm] = 0
    dst[S_CELLS + to] = code
    reset = taken != 0 or t.kinds[code, K_PAWN] != 0
    half = p[P_COUNTERS]
    dst[half] = 0 if reset else s[half] + 1
    dst[half + 1] = s[half + 1] + me
    key ^= t.side[me] ^ t.side[1 - me]
    dst[S_TO_MOVE] = 1 - me
    dst[S_KEY] = key
    return IRREVERSIBLE if reset else 0


@njit(cache=True)
def actions(t, s, m, out):
    size = t.params[P_SIZE]
    frm = m[0] // size
    to = m[0] % size
    n = 0
    if m[1]:
        out[0, 0] = CAPTURE
        out[0, 1] = to
        out[0, 2] = to
        out[0, 3] = m[1]
        out[0, 4] = 0
        n = 1
    out[n, 0] = MOVE
    out[n, 1] = frm
    out[n, 2] = to
    out[n, 3] = s[S_CELLS + frm]
    out[n, 4] = 0
    return n + 1


@njit(cache=True)
def outcome(t, s, hist, nhist, nlegal):
    won = _over(t, s)
    if won:
        return won
    if nlegal == 0:
        halves = t.params[STUCK_HALVES]
        me = s[S_TO_MOVE]
        if halves == 1:
            return 3
        return 1 << me if halves == 2 else 1 << (1 - me)
    return -1


@njit(cache=True)
def evaluate(t, s):
    """PieceGame.evaluate: each piece's value on its square, for the side to move."""
    size = t.params[P_SIZE]
    me = s[S_TO_MOVE]
    score = 0.0
    for pos in range(size):
        c = s[S_CELLS + pos]
        if c:
            v = t.weights[c, pos]
            score += v if t.kinds[c, K_OWNER] == me else -v
    return score


@njit(cache=True)
def order(t, s, m):
    """Game.move_heuristic: the most valuable victim first (no promotions here)."""
    if m[1]:
        return 10.0 * t.kinds[m[1], K_VALUE] + 1.0
    return 0.0


@njit(cache=True)
def noisy(t, s, m):
    return m[1] != 0


@njit(cache=True)
def repetition(t, s):
    return 3  # Game.repetition_outcome: a draw
