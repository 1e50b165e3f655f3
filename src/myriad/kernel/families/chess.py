"""Kernel family: games of moving pieces (:class:`myriad.core.piece_game.PieceGame`) --
chess, shatranj, crazyhouse, shogi, xiangqi, breakthrough and any variant file whose rules
it covers.

The tables are the reference's own compiled movement (:class:`MoveTables`) flattened into
one int heap: ``rules[0]`` holds every section, ``extra[0]`` says where each starts
(the ``X_*`` indices).  Generation reads per (piece code, square) the rays of slides,
steps, leaps and rides, the lame leaps, the hops, double steps and en-passant targets,
and the promotion choices per (code, target); attacks are found backwards from the
attacked square through the reference's attack tables (lines with the codes reaching
along them per distance, leap origins, ride, lame-leap and hop attacks).  ``kinds[code]``
holds each code's properties (``K_*``); ``weights`` the evaluation: ``value_at`` per code
and square, then the hand values per kind, then the counting points per code and the komi,
then (:class:`myriad.core.piece_eval.EvalTables`) the endgame values per code and square,
the passed-pawn bonuses per rank (middle game, endgame) and the pawn shield and mop-up
weights; the heap holds each square's rank, centre distance and the squares by (file, rank).

A move is a row of :data:`WIDTH` words: its id (from, to, new code and type packed), its
type (``T_*``), from, to, the code it leaves on ``to``, the code it captures, the square
of the capture (the castling's index for a castling) and the code that moved.

Not covered (``tables`` returns None, the game stays on the reference engine): fog of
war, drops that may not mate by a kind whose check could be blocked, more than 63 piece
codes or 60 files, and any game class that changes the reference's rules or knowledge
(its own ``evaluate``, ``after_move``...).
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.move import CAPTURE, DROP, MOVE
from myriad.kernel.families import GAVE_CHECK, IRREVERSIBLE
from myriad.kernel.keys import flag_key, hand_key
from myriad.kernel.layout import (P_COUNTERS, P_FAMILY_PARAMS, P_FLAGS, P_HAND_KINDS, P_HANDS,
                                  P_MAX_MOVES, P_MOVE_WIDTH, P_NFLAGS, P_SIZE, P_VALUES, P_WIDTH,
                                  S_CELLS, S_KEY, S_TO_MOVE, Tables, base_tables)

FAMILY = 2
#: The game's search hooks this family reproduces (see :mod:`myriad.kernel.rules`).
SEARCH_HOOKS = frozenset({"in_check"})

#: Words per move.
WIDTH = 8
M_ID, M_TYPE, M_FROM, M_TO, M_NEW, M_CAP, M_CAPSQ, M_OLD = range(WIDTH)
#: Move types.
T_MOVE, T_CAPTURE, T_EP, T_CASTLE, T_DROP, T_PASS = range(6)

#: Ray modes (as :mod:`myriad.core.mechanics.movement`).
BOTH, MOVE_ONLY, CAPTURE_ONLY = 0, 1, 2

# -- family parameters ---------------------------------------------------------------------
ROYAL_AT = P_FAMILY_PARAMS       #: where the royal squares (one word per player) start
ROYAL_CHECK = P_FAMILY_PARAMS + 1
CHECKMATED = P_FAMILY_PARAMS + 2  #: the mated side's score, in half points
STALEMATED = P_FAMILY_PARAMS + 3
GOAL = P_FAMILY_PARAMS + 4        #: zones rows 0 and 1 are the goals
NO_PIECES = P_FAMILY_PARAMS + 5
BARE = P_FAMILY_PARAMS + 6
MOVE_LIMIT = P_FAMILY_PARAMS + 7
REPS = P_FAMILY_PARAMS + 8
MINOR = P_FAMILY_PARAMS + 9
SFEN = P_FAMILY_PARAMS + 10
DROPS = P_FAMILY_PARAMS + 11
PERPETUAL = P_FAMILY_PARAMS + 12
MAX_MOVES = P_FAMILY_PARAMS + 13
COUNTING = P_FAMILY_PARAMS + 14
FACE = P_FAMILY_PARAMS + 15       #: royals may not face on a file
FILE_N = P_FAMILY_PARAMS + 16
FILE_S = P_FAMILY_PARAMS + 17
SIMPLE = P_FAMILY_PARAMS + 18     #: + player
HOP_BARRED = P_FAMILY_PARAMS + 20
LIMITED = P_FAMILY_PARAMS + 21
NCASTLE = P_FAMILY_PARAMS + 22
NKINDS = P_FAMILY_PARAMS + 23
NCODES = P_FAMILY_PARAMS + 24
NO_MATE = P_FAMILY_PARAMS + 25  #: some kinds' drops may not mate
MAY_PASS = P_FAMILY_PARAMS + 26
FACING_END = P_FAMILY_PARAMS + 27  #: facing royal pieces must part (or pass, which ends the game)
HONOUR = P_FAMILY_PARAMS + 28     #: makruk's counting: its board's honour, in moves (0: none)
MUST_DROP = P_FAMILY_PARAMS + 29
IN_PLACE = P_FAMILY_PARAMS + 30   #: some codes promote in place
TERMS = P_FAMILY_PARAMS + 31      #: evaluation terms beyond material and squares (EvalTables)
NFILES = P_FAMILY_PARAMS + 32
NRANKS = P_FAMILY_PARAMS + 33
FULL_PHASE = P_FAMILY_PARAMS + 34  #: the start position's phase (0: no blend)
PASSED = P_FAMILY_PARAMS + 35
SHIELD = P_FAMILY_PARAMS + 36
MOP = P_FAMILY_PARAMS + 37
LIGHT = P_FAMILY_PARAMS + 38     #: random games may play on the cells alone (``chess_playout``)

# -- kinds columns, per piece code ---------------------------------------------------------
K_OWNER, K_KIND, K_ROYAL, K_PAWN, K_VALUE, K_HAND, K_LIMIT, K_NOT_OVER, K_NOT_TAKING, K_MINOR, \
    K_BOUND, K_ONE_FILE, K_NO_MATE, K_HONOUR_PAWN, K_IN_PLACE, K_PHASE = range(16)
KCOLS = 16

# -- sections of the heap (indices into extra[0]) ------------------------------------------
(X_RAY_PTR, X_RAYS, X_SQ, X_LAME_PTR, X_LAMES, X_HOP_PTR, X_HOPS, X_DBL_PTR, X_DBLS, X_EPM_PTR, X_EPMS,
 X_PROMO, X_PANY, X_PFROM, X_CHOICES, X_CASTLES, X_RLOST, X_DSQ_PTR, X_DSQS, X_EPR_PTR, X_EPRS, X_FILE,
 X_COLOUR, X_LINE_PTR, X_LINES, X_REACH, X_LEAPA_PTR, X_LEAPAS, X_RIDEA_PTR, X_RIDEAS, X_LAMEA_PTR,
 X_LAMEAS, X_HOPA_PTR, X_HOPAS, X_HOPAT_PTR, X_HOPATS, X_ROYALS, X_HONOUR, X_IN_PLACE, X_RANK, X_GRID,
 X_CENTRE) = range(42)
NSECTIONS = 42
#: Words per castling: player, right, king from/to, rook from/to, empty squares (offset,
#: count), the king's path (offset, count).
CASTLE_WORDS = 10


# ------------------------------------------------------------------------------------------
# Python: the tables
# ------------------------------------------------------------------------------------------

class _Heap:
    """The int heap and its directory, built section by section."""

    def __init__(self) -> None:
        self.words: list[int] = []
        self.where = [0] * NSECTIONS

    def section(self, index: int, values: list[int]) -> None:
        self.where[index] = len(self.words)
        self.words.extend(values)

    def squares(self, sq: list[int], run: tuple[int, ...] | list[int]) -> tuple[int, int]:
        """``run`` appended to the square list ``sq``: its (offset, length)."""
        start = len(sq)
        sq.extend(run)
        return start, len(run)


def _mask(codes: object) -> int:
    out = 0
    for c in codes:  # type: ignore[attr-defined]
        out |= 1 << int(c)
    return out


def _csr(rows: list[list[int]]) -> tuple[list[int], list[int]]:
    """Pointers (one per row, then the end) and the rows' words laid end to end."""
    ptr: list[int] = []
    flat: list[int] = []
    for row in rows:
        ptr.append(len(flat))
        flat.extend(row)
    ptr.append(len(flat))
    return ptr, flat


#: The reference's rules and knowledge: a game class that changes one is not this family's.
_RULE_METHODS = ("legal_moves", "moves_by_rules", "outcome", "result", "after_move", "evaluate",
                 "move_heuristic", "move_heuristics", "is_noisy", "repetition_outcome", "play",
                 "_generate", "_judge", "_drop_moves", "_drop_mates", "_castling_moves", "_in_place_promotions",
                 "undecided", "count_points", "in_check", "royal_square", "royals_face", "_ended_by_passing",
                 "_can_bare", "_insufficient", "_perpetual_checker", "_ep_possible", "_goal_reached",
                 "_has_no_pieces")


def tables(game: Game) -> Tables | None:
    """The tables of a :class:`PieceGame` whose rules this family covers, else None."""
    from myriad.core.game import Game as BaseGame
    from myriad.core.piece_game import PieceGame
    if not isinstance(game, PieceGame) or game.players != 2 or game.chance or game.hidden_information:
        return None
    for name in _RULE_METHODS:
        mine = getattr(type(game), name)
        ref = getattr(PieceGame, name, None) or getattr(BaseGame, name)
        if mine is not ref:
            return None
    rules, pieces, topo, mt = game.piece_rules, game.pieces, game.topology, game.tables
    count, size = pieces.count, topo.size
    if rules.fog or count > 63:
        return None
    if topo.width > 60:
        return None
    for name in rules.no_drop_mate:  # its check must be one no drop can block
        for owner in range(2):
            code = pieces.code(name, owner)
            if any(mt.lame[code][p] or mt.hops[code][p] for p in range(size)) or any(
                    len(ray) > 1 for p in range(size) for ray, mode in mt.rays[code][p] if mode != MOVE_ONLY):
                return None
    state = game.initial_state()
    nkinds = len(pieces.kinds)
    heap = _Heap()
    sq: list[int] = []

    # -- generation ----------------------------------------------------------------------
    ray_rows, lame_rows, hop_rows, dbl_rows, epm_rows = [], [], [], [], []
    most_targets = 1
    for code in range(count):
        for pos in range(size):
            rays: list[int] = []
            lames: list[int] = []
            hops: list[int] = []
            dbls: list[int] = []
            epms: list[int] = []
            targets = 0
            if code:
                for ray, mode in mt.rays[code][pos]:
                    rays.extend((*heap.squares(sq, ray), mode))
                    targets += len(ray)
                for passed, target, mode in mt.lame[code][pos]:
                    lames.extend((*heap.squares(sq, passed), target, mode))
                    targets += 1
                for ray, mode in mt.hops[code][pos]:
                    hops.extend((*heap.squares(sq, ray), mode))
                    targets += len(ray)
                for over, landing in mt.double_steps[code][pos]:
                    dbls.extend((over, landing))
                    targets += 1
                for target in mt.en_passant[code][pos]:
                    epms.extend((target, mt._ep_victim(pos, target)))
                    targets += 1
                promo = mt.promotion[code]
                if promo is not None:
                    targets *= max(1, len(promo[1]) + 1)
            most_targets = max(most_targets, targets)
            ray_rows.append(rays)
            lame_rows.append(lames)
            hop_rows.append(hops)
            dbl_rows.append(dbls)
            epm_rows.append(epms)
    for index, rows in ((X_RAY_PTR, ray_rows), (X_LAME_PTR, lame_rows), (X_HOP_PTR, hop_rows),
                        (X_DBL_PTR, dbl_rows), (X_EPM_PTR, epm_rows)):
        ptr, flat = _csr(rows)
        heap.section(index, ptr)
        heap.section(index + 1, flat)
    choices: list[int] = []
    promo_at = [-1] * (count * size)
    promo_any = [-1] * (count * size)
    promo_from = [0] * (count * size)
    for code in range(1, count):
        for table, out in ((mt.promote_at[code], promo_at), (mt.promote_anywhere[code], promo_any)):
            for target, new_codes in (table or {}).items():
                out[code * size + target] = len(choices)
                choices.extend((len(new_codes), *new_codes))
        for pos in mt.promote_from[code]:
            promo_from[code * size + pos] = 1
    heap.section(X_PROMO, promo_at)
    heap.section(X_PANY, promo_any)
    heap.section(X_PFROM, promo_from)
    heap.section(X_CHOICES, choices)
    castles: list[int] = []
    for c, kf, kt, rf, rt, empty, path in game.castlings:
        castles.extend((c.player, c.right, kf, kt, rf, rt, *heap.squares(sq, empty), *heap.squares(sq, path)))
    heap.section(X_CASTLES, castles)
    heap.section(X_RLOST, [game.rights_lost.get(pos, 0) for pos in range(size)])
    drop_rows = [list(game.drop_squares[code]) if rules.drops else [] for code in range(count)]
    ptr, flat = _csr(drop_rows)
    heap.section(X_DSQ_PTR, ptr)
    heap.section(X_DSQS, flat)
    ep_rows: list[list[int]] = [[] for _ in range(size)]
    for code in range(1, count):
        for pos in range(size):
            for target in mt.en_passant[code][pos]:
                ep_rows[target].extend((pos, code))
    ptr, flat = _csr(ep_rows)
    heap.section(X_EPR_PTR, ptr)
    heap.section(X_EPRS, flat)
    heap.section(X_FILE, list(game.file_of))
    heap.section(X_COLOUR, [int(x + y) % 2 for x, y in topo.coords])

    # -- attacks -------------------------------------------------------------------------
    line_rows: list[list[int]] = []
    reach: list[int] = []
    for by in range(2):
        row: list[int] = []
        for d in mt.line_dirs[by]:
            longest = max(k + 1 for k in range(size) if mt.reach[by][d][k])
            row.extend((d, longest, len(reach)))
            reach.extend(_mask(mt.reach[by][d][k]) for k in range(longest))
        line_rows.append(row)
    ptr, flat = _csr(line_rows)
    heap.section(X_LINE_PTR, ptr)
    heap.section(X_LINES, flat)
    heap.section(X_REACH, reach)
    leap_rows, ride_rows, lamea_rows, hopa_rows, hopat_rows = [], [], [], [], []
    for by in range(2):
        for pos in range(size):
            leaps: dict[int, int] = {}
            for origins, codes in mt.leap_origins[by]:
                for origin in origins[pos]:
                    leaps[origin] = leaps.get(origin, 0) | _mask(codes)
            leap_rows.append([w for origin, m in leaps.items() for w in (origin, m)])
            rides: list[int] = []
            for back_rays, codes in mt.ride_attacks[by]:
                for ray in back_rays[pos]:
                    if ray:
                        rides.extend((*heap.squares(sq, ray), _mask(codes)))
            ride_rows.append(rides)
            lamea: list[int] = []
            for origin, passed, codes in mt.lame_attacks[by][pos]:
                lamea.extend((origin, *heap.squares(sq, passed), _mask(codes)))
            lamea_rows.append(lamea)
            hopa: list[int] = []
            for lines, codes in mt.hop_attacks[by]:
                if lines[pos]:
                    hopa.extend((*heap.squares(sq, lines[pos]), _mask(codes)))
            hopa_rows.append(hopa)
            hopat: list[int] = []
            for origin, between, codes in mt.hop_at[by][pos]:
                hopat.extend((origin, *heap.squares(sq, between), _mask(codes)))
            hopat_rows.append(hopat)
    for index, rows in ((X_LEAPA_PTR, leap_rows), (X_RIDEA_PTR, ride_rows), (X_LAMEA_PTR, lamea_rows),
                        (X_HOPA_PTR, hopa_rows), (X_HOPAT_PTR, hopat_rows)):
        ptr, flat = _csr(rows)
        heap.section(index, ptr)
        heap.section(index + 1, flat)
    heap.section(X_ROYALS, [len(game.royal_of[0]), *game.royal_of[0], len(game.royal_of[1]), *game.royal_of[1]])
    honour = game.honour
    if honour is not None:
        steps = [w for p in range(2) for w in (len(honour.steps[p]), *(v for codes, least, moves in honour.steps[p]
                                                                      for v in (min(codes), least, moves)))]
        heap.section(X_HONOUR, steps)
    in_place: list[int] = []
    in_place_at = [-1] * count
    for code in game.in_place_codes:
        zone, new_codes, may_attack, last_anywhere = mt.in_place[code]  # type: ignore[misc]
        in_place_at[code] = len(in_place)
        in_place.extend((int(may_attack), int(last_anywhere), len(new_codes), *new_codes,
                         *(int(pos in zone) for pos in range(size))))
    heap.section(X_IN_PLACE, in_place)
    terms = game.eval_tables
    heap.section(X_RANK, list(terms.rank))
    heap.section(X_GRID, list(terms.grid))
    heap.section(X_CENTRE, list(terms.centre))
    heap.section(X_SQ, sq)

    # -- kinds, zones, weights -----------------------------------------------------------
    kinds = np.zeros((count, KCOLS), np.int64)
    for code in range(1, count):
        name = pieces.kind(code).name
        kinds[code] = (pieces.owner_of[code], pieces.kind_of[code], int(code in game.royal),
                       int(code in game.pawn_codes), pieces.value_of[code], game.hand_index[code],
                       mt.limits[code], _mask(mt.not_over[code]), _mask(mt.not_taking[code]),
                       int(name in rules.minor_kinds), int(name in rules.colour_bound_kinds),
                       int(rules.drops and name in rules.drop_one_per_file),
                       int(rules.drops and name in rules.no_drop_mate),
                       int(honour is not None and code in honour.pawn_codes), in_place_at[code],
                       terms.phase_of[code])
    zones = np.zeros((2, size), np.int64)
    if game.goal is not None:
        for player in range(2):
            for pos in game.goal[player]:
                zones[player, pos] = 1
    cols = max(size, nkinds, count + 1, terms.ranks, 4)
    weights = np.zeros((2 * count + 5, cols), np.float64)
    for code in range(1, count):
        weights[code, :size] = game.value_at[code]
    if game.hand_values:
        weights[count, :nkinds] = game.hand_values
    weights[count + 1, :count] = game.points
    weights[count + 1, count] = rules.komi
    for code in range(1, count):
        weights[count + 2 + code, :size] = terms.end[code]
    weights[2 * count + 2, :terms.ranks] = terms.passed_mg
    weights[2 * count + 3, :terms.ranks] = terms.passed_eg
    weights[2 * count + 4, :4] = (*terms.shield, *terms.mop)

    # -- parameters ----------------------------------------------------------------------
    def half(score: float) -> int:
        return int(round(score * 2))

    files = ((topo.direction("n"), topo.direction("s")) if rules.royals_may_not_face or rules.facing_royals_end
             else (-1, -1))
    params = {ROYAL_CHECK: int(rules.royal_check), CHECKMATED: half(rules.checkmated),
              STALEMATED: half(rules.stalemated), GOAL: int(game.goal is not None),
              NO_PIECES: int(rules.lose_when_no_pieces), BARE: int(rules.bare_king_loses),
              MOVE_LIMIT: rules.move_limit, REPS: rules.repetitions, MINOR: int(bool(rules.minor_kinds)),
              SFEN: int(rules.sfen), DROPS: int(rules.drops), PERPETUAL: int(rules.perpetual_check_loses),
              MAX_MOVES: rules.max_moves, COUNTING: int(rules.counting), FACE: int(rules.royals_may_not_face),
              FILE_N: files[0], FILE_S: files[1], SIMPLE: int(mt.simple[0]), SIMPLE + 1: int(mt.simple[1]),
              HOP_BARRED: int(mt.hop_barred), LIMITED: int(mt.limited), NCASTLE: len(game.castlings),
              NKINDS: nkinds, NCODES: count, NO_MATE: int(rules.drops and bool(rules.no_drop_mate)),
              MAY_PASS: int(rules.may_pass), FACING_END: int(rules.facing_royals_end),
              HONOUR: honour.rule.board if honour is not None else 0, MUST_DROP: int(rules.must_drop),
              IN_PLACE: int(bool(game.in_place_codes)), TERMS: int(terms.active), NFILES: terms.files,
              NRANKS: terms.ranks, FULL_PHASE: game.full_phase, PASSED: int(terms.has_passed),
              SHIELD: int(any(terms.shield)), MOP: int(any(terms.mop))}
    # Random games on the cells alone where pieces only move along their rays and no rule
    # reads more than the board: no royal piece, hand, castling, pass, promotion, double
    # step, en passant, lame leap or hop, and no draw or count beyond no moves at all.
    rule_words = (ROYAL_CHECK, BARE, MOVE_LIMIT, REPS, PERPETUAL, MINOR, DROPS, MAX_MOVES, COUNTING, FACE, NCASTLE,
                  MAY_PASS, FACING_END, HONOUR, IN_PLACE)
    params[LIGHT] = int(not any(params[k] for k in rule_words) and not choices
                        and not any(lame_rows) and not any(hop_rows) and not any(dbl_rows) and not any(epm_rows))
    most_pieces = max(sum(1 for c in game.parse_position(text).cells if c)
                      + sum(sum(h) for h in game.parse_position(text).hands) for text in game.setups.values())
    drops = nkinds * size if rules.drops else 0
    # an in-place promotion: per piece, per new kind, where it stands or a step of the new kind
    promoting = sum(min(most_pieces, size) * len(entry[1]) * (1 + max(len(mt.rays[new][pos]) for new in entry[1]
                                                                     for pos in range(size)))
                    for c in game.in_place_codes if (entry := mt.in_place[c]) is not None)
    max_moves = min(most_pieces, size) * most_targets + drops + len(game.castlings) + promoting + 2
    t = base_tables(game, FAMILY, move_width=WIDTH, max_moves=max_moves, extra_words=2,
                    zones=zones, kinds=kinds, rules=np.array([heap.words], np.int64),
                    extra=np.array([heap.where], np.int64), weights=weights, family_params=params, state=state)
    t.params[ROYAL_AT] = t.params[P_WIDTH] - 2
    return t


def prepare(t: Tables, s: np.ndarray) -> None:
    """The royal squares of both players, after the hands."""
    _find_royals(t, s)


# ------------------------------------------------------------------------------------------
# compiled: attacks
# ------------------------------------------------------------------------------------------

@njit(cache=True)
def royal_square(t, b, off, player):
    """The square of ``player``'s royal piece in cells ``b[off:]`` (the first royal code
    found, at its lowest square), or -1 (:meth:`PieceGame.royal_square`)."""
    h = t.rules[0]
    x = t.extra[0]
    size = t.params[P_SIZE]
    at = x[X_ROYALS]
    if player == 1:
        at += 1 + h[at]
    for i in range(h[at]):
        code = h[at + 1 + i]
        for pos in range(size):
            if b[off + pos] == code:
                return pos
    return -1


@njit(cache=True)
def _find_royals(t, s):
    r = t.params[ROYAL_AT]
    s[r] = royal_square(t, s, S_CELLS, 0)
    s[r + 1] = royal_square(t, s, S_CELLS, 1)


@njit(cache=True)
def in_check(t, s):
    """Whether the side to move has its royal piece attacked (``PieceGame.in_check``)."""
    p = t.params
    if not p[ROYAL_CHECK]:
        return False
    me = s[S_TO_MOVE]
    king = s[p[ROYAL_AT] + me]
    return king >= 0 and attacked(t, s, S_CELLS, king, 1 - me)


@njit(cache=True)
def attacked(t, b, off, pos, by):
    """Whether a piece of ``by`` attacks ``pos`` in cells ``b[off:]`` (:meth:`MoveTables.attacked`)."""
    h = t.rules[0]
    x = t.extra[0]
    p = t.params
    size = p[P_SIZE]
    links = t.links
    lp = x[X_LINE_PTR]
    lines = x[X_LINES]
    reach = x[X_REACH]
    for e in range(h[lp + by], h[lp + by + 1], 3):
        d = h[lines + e]
        longest = h[lines + e + 1]
        ro = reach + h[lines + e + 2]
        q = pos
        for k in range(longest):
            q = links[d, q]
            if q < 0:
                break
            c = b[off + q]
            if c != 0:
                if (h[ro + k] >> c) & 1:
                    return True
                break
    base = by * size + pos
    lp = x[X_LEAPA_PTR]
    leaps = x[X_LEAPAS]
    for e in range(h[lp + base], h[lp + base + 1], 2):
        if (h[leaps + e + 1] >> b[off + h[leaps + e]]) & 1:
            return True
    if p[SIMPLE + by]:
        return False
    sqs = x[X_SQ]
    lp = x[X_RIDEA_PTR]
    rides = x[X_RIDEAS]
    for e in range(h[lp + base], h[lp + base + 1], 3):
        start = sqs + h[rides + e]
        for i in range(h[rides + e + 1]):
            c = b[off + h[start + i]]
            if c != 0:
                if (h[rides + e + 2] >> c) & 1:
                    return True
                break
    lp = x[X_LAMEA_PTR]
    lames = x[X_LAMEAS]
    for e in range(h[lp + base], h[lp + base + 1], 4):
        if (h[lames + e + 3] >> b[off + h[lames + e]]) & 1:
            start = sqs + h[lames + e + 1]
            clear = True
            for i in range(h[lames + e + 2]):
                if b[off + h[start + i]] != 0:
                    clear = False
                    break
            if clear:
                return True
    kinds = t.kinds
    barred = p[HOP_BARRED]
    target = b[off + pos]
    lp = x[X_HOPA_PTR]
    hops = x[X_HOPAS]
    for e in range(h[lp + base], h[lp + base + 1], 3):
        start = sqs + h[hops + e]
        screen = 0
        for i in range(h[hops + e + 1]):
            c = b[off + h[start + i]]
            if c != 0:
                if screen != 0:
                    if (h[hops + e + 2] >> c) & 1:
                        if not barred or (not (kinds[c, K_NOT_OVER] >> screen) & 1
                                          and not (kinds[c, K_NOT_TAKING] >> target) & 1):
                            return True
                    break
                screen = c
    lp = x[X_HOPAT_PTR]
    hopat = x[X_HOPATS]
    for e in range(h[lp + base], h[lp + base + 1], 4):
        c = b[off + h[hopat + e]]
        if (h[hopat + e + 3] >> c) & 1:
            if barred and (kinds[c, K_NOT_TAKING] >> target) & 1:
                continue
            start = sqs + h[hopat + e + 1]
            screens = 0
            screen = 0
            for i in range(h[hopat + e + 2]):
                v = b[off + h[start + i]]
                if v != 0:
                    screens += 1
                    screen = v
            if screens == 1 and not (barred and (kinds[c, K_NOT_OVER] >> screen) & 1):
                return True
    return False


@njit(cache=True)
def royals_face(t, b, off, king):
    """Whether the royal piece on ``king`` sees an enemy royal piece along its file."""
    kinds = t.kinds
    links = t.links
    me = kinds[b[off + king], K_OWNER]
    for i in range(2):
        d = t.params[FILE_N + i]
        q = links[d, king]
        while q >= 0:
            c = b[off + q]
            if c != 0:
                if kinds[c, K_ROYAL] and kinds[c, K_OWNER] != me:
                    return True
                break
            q = links[d, q]
    return False


# ------------------------------------------------------------------------------------------
# compiled: moves
# ------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def move_id(typ, frm, to, new):
    """Word 0 of a move row: its type, the code it leaves, its squares, packed."""
    return (((typ * 64 + new) * 1024 + to) * 1024) + frm


@njit(cache=True, inline="always")
def _row(moves, n, typ, frm, to, new, cap, capsq, old):
    row = moves[n]
    row[M_ID] = move_id(typ, frm, to, new)
    row[M_TYPE] = typ
    row[M_FROM] = frm
    row[M_TO] = to
    row[M_NEW] = new
    row[M_CAP] = cap
    row[M_CAPSQ] = capsq
    row[M_OLD] = old
    return n + 1


@njit(cache=True)
def _count_code(b, off, size, code):
    n = 0
    for pos in range(size):
        if b[off + pos] == code:
            n += 1
    return n


@njit(cache=True, inline="always")
def _emit(t, b, off, moves, n, typ, frm, to, code, cap, ptab, quiet):
    """The move (or each promotion choice) of ``code`` from ``frm`` to ``to`` (``quiet``
    False: not a move that neither captures nor promotes)."""
    h = t.rules[0]
    size = t.params[P_SIZE]
    at = h[ptab + code * size + to]
    if at < 0:
        if typ == T_MOVE and not quiet:
            return n
        return _row(moves, n, typ, frm, to, code, cap, to, code)
    ch = t.extra[0][X_CHOICES] + at
    limited = t.params[LIMITED]
    kinds = t.kinds
    for j in range(h[ch]):
        new = h[ch + 1 + j]
        if limited and kinds[new, K_LIMIT] and _count_code(b, off, size, new) >= kinds[new, K_LIMIT]:
            continue
        n = _row(moves, n, typ, frm, to, new, cap, to, code)
    return n


@njit(cache=True)
def pseudo(t, b, off, player, ep, moves, quiet):
    """Every move of ``player``'s pieces by the rules, royal safety aside
    (:meth:`MoveTables.pseudo_moves` and the lame leaps and hops); their count.
    ``quiet`` False: only those that capture or may promote, in the same order."""
    h = t.rules[0]
    x = t.extra[0]
    size = t.params[P_SIZE]
    kinds = t.kinds
    sqs = x[X_SQ]
    n = 0
    for pos in range(size):
        code = b[off + pos]
        if code == 0 or kinds[code, K_OWNER] != player:
            continue
        base = code * size + pos
        ptab = x[X_PANY] if h[x[X_PFROM] + base] else x[X_PROMO]
        rp = x[X_RAY_PTR]
        rays = x[X_RAYS]
        for e in range(h[rp + base], h[rp + base + 1], 3):
            start = sqs + h[rays + e]
            mode = h[rays + e + 2]
            for i in range(h[rays + e + 1]):
                q = h[start + i]
                c = b[off + q]
                if c == 0:
                    if mode != CAPTURE_ONLY:
                        n = _emit(t, b, off, moves, n, T_MOVE, pos, q, code, 0, ptab, quiet)
                    continue
                if mode != MOVE_ONLY and kinds[c, K_OWNER] != player:
                    n = _emit(t, b, off, moves, n, T_CAPTURE, pos, q, code, c, ptab, quiet)
                break
        rp = x[X_LAME_PTR]
        lames = x[X_LAMES]
        for e in range(h[rp + base], h[rp + base + 1], 4):
            start = sqs + h[lames + e]
            clear = True
            for i in range(h[lames + e + 1]):
                if b[off + h[start + i]] != 0:
                    clear = False
                    break
            if clear:
                n = _target(t, b, off, moves, n, player, pos, h[lames + e + 2], code, h[lames + e + 3], ptab, quiet)
        rp = x[X_HOP_PTR]
        hops = x[X_HOPS]
        not_over = kinds[code, K_NOT_OVER]
        not_taking = kinds[code, K_NOT_TAKING]
        for e in range(h[rp + base], h[rp + base + 1], 3):
            start = sqs + h[hops + e]
            mode = h[hops + e + 2]
            screened = False
            for i in range(h[hops + e + 1]):
                q = h[start + i]
                c = b[off + q]
                if not screened:
                    if (not_over >> c) & 1:
                        break
                    screened = c != 0
                    continue
                if (not_taking >> c) & 1:
                    break
                n = _target(t, b, off, moves, n, player, pos, q, code, mode, ptab, quiet)
                if c != 0:
                    break
        rp = x[X_DBL_PTR]
        dbls = x[X_DBLS]
        for e in range(h[rp + base], h[rp + base + 1] if quiet else h[rp + base], 2):
            if b[off + h[dbls + e]] == 0 and b[off + h[dbls + e + 1]] == 0:
                n = _row(moves, n, T_MOVE, pos, h[dbls + e + 1], code, 0, h[dbls + e + 1], code)
        if ep >= 0:
            rp = x[X_EPM_PTR]
            epms = x[X_EPMS]
            for e in range(h[rp + base], h[rp + base + 1], 2):
                if h[epms + e] == ep and b[off + ep] == 0:
                    victim = h[epms + e + 1]
                    c = b[off + victim] if victim >= 0 else 0
                    if c != 0 and kinds[c, K_OWNER] != player:
                        n = _row(moves, n, T_EP, pos, ep, code, c, victim, code)
    return n


@njit(cache=True, inline="always")
def _target(t, b, off, moves, n, player, pos, q, code, mode, ptab, quiet):
    """A lame leap's or hop's target ``q``: a move or a capture as ``mode`` allows."""
    c = b[off + q]
    if c == 0:
        if mode != CAPTURE_ONLY:
            n = _emit(t, b, off, moves, n, T_MOVE, pos, q, code, 0, ptab, quiet)
    elif mode != MOVE_ONLY and t.kinds[c, K_OWNER] != player:
        n = _emit(t, b, off, moves, n, T_CAPTURE, pos, q, code, c, ptab, quiet)
    return n


@njit(cache=True, inline="always")
def _safe_after(t, b, row, king, enemy, face):
    """Whether the own royal piece is safe after move ``row`` (a board move) on board ``b``."""
    frm = row[M_FROM]
    to = row[M_TO]
    capsq = row[M_CAPSQ]
    new = row[M_NEW]
    old_cap = b[capsq]
    old_frm = b[frm]
    old_to = b[to]
    if row[M_TYPE] != T_MOVE:
        b[capsq] = 0
    b[frm] = 0
    b[to] = new
    mine = to if t.kinds[new, K_ROYAL] else king
    ok = not attacked(t, b, 0, mine, enemy) and not (face and royals_face(t, b, 0, mine))
    b[to] = old_to
    b[frm] = old_frm
    b[capsq] = old_cap
    return ok


@njit(cache=True)
def gen_rules(t, s, moves):
    """The moves by the rules (:meth:`PieceGame.moves_by_rules`), whether or not another
    rule has ended the game."""
    n = _gen_core(t, s, moves, True)
    if not t.params[NO_MATE]:
        return n
    kept = 0
    b = s[S_CELLS:S_CELLS + t.params[P_SIZE]].copy()
    for i in range(n):
        row = moves[i]
        if not (row[M_TYPE] == T_DROP and t.kinds[row[M_NEW], K_NO_MATE] and _drop_mates(t, s, b, row)):
            if kept != i:
                moves[kept] = row
            kept += 1
    return kept


@njit(cache=True)
def _gen_core(t, s, moves, quiet):
    """The moves by the rules, drops that may not mate included (``quiet`` False: only
    those that capture or may promote, in the same order: no castling, drop or pass)."""
    p = t.params
    h = t.rules[0]
    x = t.extra[0]
    size = p[P_SIZE]
    kinds = t.kinds
    player = s[S_TO_MOVE]
    enemy = 1 - player
    if p[GOAL]:
        for q in range(2):
            for pos in range(size):
                c = s[S_CELLS + pos]
                if t.zones[q, pos] and c != 0 and kinds[c, K_OWNER] == q:
                    return 0
    if p[NO_PIECES]:
        seen0 = False
        seen1 = False
        for pos in range(size):
            c = s[S_CELLS + pos]
            if c != 0:
                if kinds[c, K_OWNER] == 0:
                    seen0 = True
                else:
                    seen1 = True
        if not (seen0 and seen1):
            return 0
    nflags = p[P_NFLAGS]
    flags = p[P_FLAGS]
    if p[MAY_PASS] and s[flags + 2] != 0 and _ended_by_passing(t, s):
        return 0
    ep = s[flags + 1] - 1 if nflags > 1 else -1
    rights = s[flags] if nflags > 0 else 0
    b = s[S_CELLS:S_CELLS + size].copy()
    nk = p[NKINDS]
    hands = p[P_HANDS] + player * p[P_HAND_KINDS]
    drops = False
    if p[DROPS] and p[P_HAND_KINDS] > 0:
        for k in range(nk):
            if s[hands + k] != 0:
                drops = True
                break
    n = 0
    if not (drops and p[MUST_DROP]):
        n = pseudo(t, b, 0, player, ep, moves, quiet)
        if p[IN_PLACE]:
            n = _in_place(t, b, player, moves, n)
    ncastle = p[NCASTLE]
    king = -1
    in_check = False
    face = False
    parting = False
    if p[ROYAL_CHECK]:
        king = s[p[ROYAL_AT] + player]
    if king >= 0:
        in_check = attacked(t, b, 0, king, enemy)
        parting = p[FACING_END] != 0 and royals_face(t, b, 0, king)
        face = p[FACE] != 0 or parting
        safe = not in_check and p[SIMPLE + enemy] != 0 and not face
        npin = 0
        pins = np.empty(t.links.shape[0], np.int64)
        if safe:
            npin = _pins(t, b, king, enemy, pins)
        kept = 0
        for i in range(n):
            row = moves[i]
            frm = row[M_FROM]
            ok = False
            if safe and not kinds[row[M_NEW], K_ROYAL] and row[M_TYPE] != T_EP:
                ok = True
                for j in range(npin):
                    if pins[j] == frm:
                        ok = False
                        break
            if not ok:
                ok = _safe_after(t, b, row, king, enemy, face)
            if ok:
                if kept != i:
                    moves[kept] = row
                kept += 1
        n = kept
    if not quiet:
        return n
    if ncastle and rights and not in_check:
        n = _castlings(t, b, player, rights, moves, n)
    if drops:
        n = _drops(t, s, b, player, king, in_check, face, moves, n)
    if p[MAY_PASS] and (not in_check or parting):
        n = _row(moves, n, T_PASS, 0, 0, 0, 0, 0, 0)
    return n


@njit(cache=True)
def _ended_by_passing(t, s):
    """Whether the last moves end the game (two passes, or a pass leaving the royal
    pieces facing under the facing rule) (:meth:`PieceGame._ended_by_passing`)."""
    p = t.params
    if s[p[P_FLAGS] + 2] >= 2:
        return True
    if not p[FACING_END]:
        return False
    king = s[p[ROYAL_AT] + s[S_TO_MOVE]]
    return king >= 0 and royals_face(t, s, S_CELLS, king)


@njit(cache=True)
def _attacks_enemy(t, b, frm, player):
    """Whether the piece on ``frm`` attacks a piece of the other player (as
    :meth:`MoveTables.attacked_by` tried on every enemy square)."""
    h = t.rules[0]
    x = t.extra[0]
    size = t.params[P_SIZE]
    kinds = t.kinds
    sqs = x[X_SQ]
    base = b[frm] * size + frm
    rp = x[X_RAY_PTR]
    rays = x[X_RAYS]
    for e in range(h[rp + base], h[rp + base + 1], 3):
        if h[rays + e + 2] == MOVE_ONLY:
            continue
        start = sqs + h[rays + e]
        for i in range(h[rays + e + 1]):
            c = b[h[start + i]]
            if c != 0:
                if kinds[c, K_OWNER] != player:
                    return True
                break
    rp = x[X_LAME_PTR]
    lames = x[X_LAMES]
    for e in range(h[rp + base], h[rp + base + 1], 4):
        c = b[h[lames + e + 2]]
        if h[lames + e + 3] == MOVE_ONLY or c == 0 or kinds[c, K_OWNER] == player:
            continue
        start = sqs + h[lames + e]
        clear = True
        for i in range(h[lames + e + 1]):
            if b[h[start + i]] != 0:
                clear = False
                break
        if clear:
            return True
    rp = x[X_HOP_PTR]
    hops = x[X_HOPS]
    for e in range(h[rp + base], h[rp + base + 1], 3):
        if h[hops + e + 2] == MOVE_ONLY:
            continue
        start = sqs + h[hops + e]
        screened = False
        for i in range(h[hops + e + 1]):
            c = b[h[start + i]]
            if c != 0:
                if screened:
                    if kinds[c, K_OWNER] != player:
                        return True
                    break
                screened = True
    return False


@njit(cache=True)
def _in_place(t, b, player, moves, n):
    """Promotions that are moves of their own (:meth:`PieceGame._in_place_promotions`)."""
    h = t.rules[0]
    x = t.extra[0]
    size = t.params[P_SIZE]
    kinds = t.kinds
    sqs = x[X_SQ]
    for code in range(1, t.params[NCODES]):
        at = kinds[code, K_IN_PLACE]
        if at < 0 or kinds[code, K_OWNER] != player:
            continue
        at += x[X_IN_PLACE]
        may_attack = h[at]
        last_anywhere = h[at + 1]
        nnew = h[at + 2]
        zone = at + 3 + nnew
        alone = _count_code(b, 0, size, code) == 1
        for pos in range(size):
            if b[pos] != code:
                continue
            if not h[zone + pos] and not (last_anywhere and alone):
                continue
            for j in range(nnew):
                new = h[at + 3 + j]
                if kinds[new, K_LIMIT] and _count_code(b, 0, size, new) >= kinds[new, K_LIMIT]:
                    continue
                base = new * size + pos
                rp = x[X_RAY_PTR]
                rays = x[X_RAYS]
                lo = h[rp + base]
                hi = h[rp + base + 1]
                for e in range(lo - 3, hi, 3):  # where it stands, then a step of the new kind
                    q = pos
                    if e >= lo:
                        q = h[sqs + h[rays + e]]
                        if h[rays + e + 2] == CAPTURE_ONLY or b[q] != 0:
                            continue
                    if not may_attack:
                        b[pos] = 0
                        b[q] = new
                        hits = _attacks_enemy(t, b, q, player)
                        b[q] = 0
                        b[pos] = code
                        if hits:
                            continue
                    n = _row(moves, n, T_MOVE, pos, q, new, 0, q, code)
    return n


@njit(cache=True, inline="always")
def _pins(t, b, king, by, pins):
    """The squares of pieces shielding ``king`` from a line attack of ``by``
    (:meth:`MoveTables.pinned`); their count."""
    h = t.rules[0]
    x = t.extra[0]
    links = t.links
    kinds = t.kinds
    lp = x[X_LINE_PTR]
    lines = x[X_LINES]
    reach = x[X_REACH]
    n = 0
    for e in range(h[lp + by], h[lp + by + 1], 3):
        d = h[lines + e]
        longest = h[lines + e + 1]
        ro = reach + h[lines + e + 2]
        shield = -1
        q = king
        for k in range(longest):
            q = links[d, q]
            if q < 0:
                break
            c = b[q]
            if c != 0:
                if shield < 0:
                    if kinds[c, K_OWNER] == by:
                        break
                    shield = q
                else:
                    if (h[ro + k] >> c) & 1 and n < pins.shape[0]:
                        pins[n] = shield
                        n += 1
                    break
    return n


@njit(cache=True)
def _castlings(t, b, player, rights, moves, n):
    h = t.rules[0]
    x = t.extra[0]
    kinds = t.kinds
    sqs = x[X_SQ]
    check = t.params[ROYAL_CHECK]
    for i in range(t.params[NCASTLE]):
        c = x[X_CASTLES] + i * CASTLE_WORDS
        if h[c] != player or not rights & h[c + 1]:
            continue
        kf, kt, rf, rt = h[c + 2], h[c + 3], h[c + 4], h[c + 5]
        king = b[kf]
        rook = b[rf]
        if king == 0 or not kinds[king, K_ROYAL] or rook == 0 or kinds[rook, K_OWNER] != player:
            continue
        blocked = False
        for j in range(h[c + 7]):
            if b[h[sqs + h[c + 6] + j]] != 0:
                blocked = True
                break
        if blocked:
            continue
        if check:
            b[kf] = 0
            for j in range(h[c + 9]):
                if attacked(t, b, 0, h[sqs + h[c + 8] + j], 1 - player):
                    blocked = True
                    break
            b[kf] = king
            if blocked:
                continue
        row = moves[n]
        n = _row(moves, n, T_CASTLE, kf, kt, i, rook, i, king)
        row[M_NEW] = king
        row[M_ID] = (((T_CASTLE * 64 + i) * 1024 + kt) * 1024) + kf
    return n


@njit(cache=True)
def _drops(t, s, b, player, king, in_check, face, moves, n):
    """The legal drops (:meth:`PieceGame._drop_moves`), added after the ``n`` moves."""
    p = t.params
    h = t.rules[0]
    x = t.extra[0]
    kinds = t.kinds
    size = p[P_SIZE]
    enemy = 1 - player
    hands = p[P_HANDS] + player * p[P_HAND_KINDS]
    first = n
    for k in range(p[NKINDS]):
        if s[hands + k] == 0:
            continue
        code = 1 + k * 2 + player
        blocked = np.int64(0)
        if kinds[code, K_ONE_FILE]:
            for pos in range(size):
                if b[pos] == code:
                    blocked |= np.int64(1) << h[x[X_FILE] + pos]
        dp = x[X_DSQ_PTR]
        for e in range(h[dp + code], h[dp + code + 1]):
            q = h[x[X_DSQS] + e]
            if b[q] == 0 and not (blocked >> h[x[X_FILE] + q]) & 1:
                n = _row(moves, n, T_DROP, q, q, code, 0, q, code)
    files = p[FILE_N] >= 0
    test = king >= 0 and (in_check or not p[SIMPLE + enemy] or files)
    kept = first
    for i in range(first, n):
        row = moves[i]
        q = row[M_TO]
        code = row[M_NEW]
        ok = True
        if test:
            b[q] = code
            ok = not attacked(t, b, 0, king, enemy) and not (files and royals_face(t, b, 0, king))
            b[q] = 0
        if ok:
            if kept != i:
                moves[kept] = row
            kept += 1
    return kept


@njit(cache=True)
def _drop_mates(t, s, b, row):
    """Whether drop ``row`` checkmates (:meth:`PieceGame._drop_mates`)."""
    q = row[M_TO]
    b[q] = row[M_NEW]
    enemy = 1 - s[S_TO_MOVE]
    king = royal_square(t, b, 0, enemy)
    checks = king >= 0 and attacked(t, b, 0, king, s[S_TO_MOVE])
    b[q] = 0
    if not checks:
        return False
    after = np.empty_like(s)
    play(t, s, row, after)
    buffer = np.empty((t.params[P_MAX_MOVES], t.params[P_MOVE_WIDTH]), np.int64)
    return _gen_core(t, after, buffer, True) == 0


@njit(cache=True)
def gen(t, s, hist, nhist, moves):
    """The legal moves: the moves by the rules, none once another rule ends the game."""
    n = gen_rules(t, s, moves)
    if n > 0 and judge(t, s, hist, nhist, moves, n) >= 0:
        return 0
    return n


# ------------------------------------------------------------------------------------------
# compiled: playing a move
# ------------------------------------------------------------------------------------------

@njit(cache=True)
def _ep_possible(t, b, off, passed, mover):
    h = t.rules[0]
    x = t.extra[0]
    rp = x[X_EPR_PTR]
    eps = x[X_EPRS]
    for e in range(h[rp + passed], h[rp + passed + 1], 2):
        code = h[eps + e + 1]
        if b[off + h[eps + e]] == code and t.kinds[code, K_OWNER] != mover:
            return True
    return False


@njit(cache=True)
def play(t, s, m, dst):
    p = t.params
    h = t.rules[0]
    x = t.extra[0]
    kinds = t.kinds
    zob = t.zobrist
    values = p[P_VALUES]
    dst[:] = s
    me = s[S_TO_MOVE]
    typ = m[M_TYPE]
    frm = m[M_FROM]
    to = m[M_TO]
    new = m[M_NEW]
    old = m[M_OLD]
    key = s[S_KEY]
    rl = x[X_RLOST]
    lost = np.int64(0)
    capture = False
    pawn_move = False
    dropped = False
    royals = False
    hands = p[P_HANDS] + me * p[P_HAND_KINDS]
    if typ == T_DROP:
        key ^= zob[to * values + dst[S_CELLS + to]] ^ zob[to * values + new]
        dst[S_CELLS + to] = new
        k = kinds[new, K_KIND]
        n = dst[hands + k]
        key ^= hand_key(p, me, k, n) ^ hand_key(p, me, k, n - 1)
        dst[hands + k] = n - 1
        dropped = True
        lost |= h[rl + to]
        royals = kinds[new, K_ROYAL] != 0
    elif typ == T_CASTLE:
        c = x[X_CASTLES] + m[M_CAPSQ] * CASTLE_WORDS
        for j in range(2):
            a = h[c + 2 + 2 * j]
            z = h[c + 3 + 2 * j]
            piece = old if j == 0 else m[M_CAP]
            if kinds[s[S_CELLS + a], K_PAWN]:
                pawn_move = True
            key ^= zob[a * values + dst[S_CELLS + a]]
            dst[S_CELLS + a] = 0
            key ^= zob[z * values + dst[S_CELLS + z]] ^ zob[z * values + piece]
            dst[S_CELLS + z] = piece
            lost |= h[rl + a] | h[rl + z]
        royals = True
    elif typ != T_PASS:
        if typ != T_MOVE:
            capsq = m[M_CAPSQ]
            cap = m[M_CAP]
            key ^= zob[capsq * values + cap]
            dst[S_CELLS + capsq] = 0
            capture = True
            lost |= h[rl + capsq]
            k = kinds[cap, K_HAND]
            if k >= 0 and p[P_HAND_KINDS] > 0:
                n = dst[hands + k]
                key ^= hand_key(p, me, k, n) ^ hand_key(p, me, k, n + 1)
                dst[hands + k] = n + 1
            if kinds[cap, K_ROYAL]:
                royals = True
        key ^= zob[frm * values + old]
        dst[S_CELLS + frm] = 0
        key ^= zob[to * values + dst[S_CELLS + to]] ^ zob[to * values + new]
        dst[S_CELLS + to] = new
        lost |= h[rl + frm] | h[rl + to]
        if kinds[old, K_PAWN]:
            pawn_move = True
        if kinds[old, K_ROYAL] or kinds[new, K_ROYAL]:
            if old == new and not royals and p[ROYAL_CHECK]:
                dst[p[ROYAL_AT] + kinds[old, K_OWNER]] = to
            else:
                royals = True
    if royals:
        _find_royals(t, dst)
    flags = p[P_FLAGS]
    nflags = p[P_NFLAGS]
    changed_rights = False
    if nflags >= 2:
        rights = s[flags]
        new_rights = rights & ~lost if rights else rights
        new_ep = 0
        if pawn_move and typ == T_MOVE:
            base = old * p[P_SIZE] + frm
            dp = x[X_DBL_PTR]
            dbls = x[X_DBLS]
            for e in range(h[dp + base], h[dp + base + 1], 2):
                if h[dbls + e + 1] == to:
                    passed = h[dbls + e]
                    if _ep_possible(t, dst, S_CELLS, passed, me):
                        new_ep = passed + 1
                    break
        if new_rights != rights:
            key ^= flag_key(p, 0, rights) ^ flag_key(p, 0, new_rights)
            dst[flags] = new_rights
            changed_rights = True
        if new_ep != s[flags + 1]:
            key ^= flag_key(p, 1, s[flags + 1]) ^ flag_key(p, 1, new_ep)
            dst[flags + 1] = new_ep
        if p[MAY_PASS]:
            passes = s[flags + 2] + 1 if typ == T_PASS else 0
            if passes != s[flags + 2]:
                key ^= flag_key(p, 2, s[flags + 2]) ^ flag_key(p, 2, passes)
                dst[flags + 2] = passes
    counters = p[P_COUNTERS]
    if p[SFEN]:
        dst[counters] = 0
        dst[counters + 1] = s[counters + 1] + 1
    else:
        dst[counters] = 0 if capture or pawn_move else s[counters] + 1
        dst[counters + 1] = s[counters + 1] + me
    if p[HONOUR]:
        limit = s[counters + 2]
        taken = m[M_CAP] if capture else 0
        promoted = (typ == T_MOVE or typ == T_CAPTURE or typ == T_EP) and new != old
        count, limit = _honour_after(t, dst, me, s[counters] + 1 if limit else 0, limit, taken,
                                     capture or promoted)
        if limit:
            dst[counters] = count
        dst[counters + 2] = limit
    key ^= t.side[me] ^ t.side[1 - me]
    dst[S_TO_MOVE] = 1 - me
    dst[S_KEY] = key
    bits = 0
    if capture or pawn_move or changed_rights or dropped:
        bits = IRREVERSIBLE
    elif p[PERPETUAL]:
        king = dst[p[ROYAL_AT] + 1 - me]
        if king >= 0 and attacked(t, dst, S_CELLS, king, me):
            bits = GAVE_CHECK
    return bits


@njit(cache=True)
def _honour_limit(t, s, side):
    """The moves ``side`` would count now, 0 for none (:meth:`HonourCount.limit`)."""
    kinds = t.kinds
    size = t.params[P_SIZE]
    mine = 0
    theirs = 0
    for pos in range(size):
        c = s[S_CELLS + pos]
        if c != 0:
            if kinds[c, K_HONOUR_PAWN]:
                return 0
            if kinds[c, K_OWNER] == side:
                mine += 1
            else:
                theirs += 1
    if theirs <= 1:
        return 0
    board = t.params[HONOUR]
    if mine > 1:
        return board
    h = t.rules[0]
    at = t.extra[0][X_HONOUR]
    if side == 0:  # the strong side's rules: player 1's
        at += 1 + 3 * h[at]
    for i in range(h[at]):
        code = h[at + 1 + 3 * i]
        if _count_code(s, S_CELLS, size, code) >= h[at + 2 + 3 * i]:
            return h[at + 3 + 3 * i]
    return board


@njit(cache=True)
def _honour_after(t, s, mover, count, limit, captured, material_changed):
    """The (count, limit) after a move by ``mover`` (:meth:`HonourCount.after`)."""
    kinds = t.kinds
    total = 0
    own = np.zeros(2, np.int64)
    for pos in range(t.params[P_SIZE]):
        c = s[S_CELLS + pos]
        if c != 0:
            total += 1
            own[kinds[c, K_OWNER]] += 1
    nxt = 1 - mover
    if captured != 0 and kinds[captured, K_HONOUR_PAWN] and own[mover] == 1:
        moves = _honour_limit(t, s, mover)
        if moves:
            limit = 2 * moves
            count = 2 * total - 1
    if not limit or (material_changed and own[nxt] == 1):
        moves = _honour_limit(t, s, nxt)
        if moves:
            limit = 2 * moves
            count = 0 if own[nxt] != 1 else 2 * total
    return count, limit


@njit(cache=True)
def actions(t, s, m, out):
    typ = m[M_TYPE]
    frm = m[M_FROM]
    to = m[M_TO]
    if typ == T_PASS:
        return 0
    if typ == T_DROP:
        _action(out, 0, DROP, to, to, m[M_NEW], 0)
        return 1
    if typ == T_CASTLE:
        h = t.rules[0]
        c = t.extra[0][X_CASTLES] + m[M_CAPSQ] * CASTLE_WORDS
        _action(out, 0, MOVE, h[c + 2], h[c + 3], m[M_OLD], 0)
        _action(out, 1, MOVE, h[c + 4], h[c + 5], m[M_CAP], 1)
        return 2
    if typ == T_MOVE:
        _action(out, 0, MOVE, frm, to, m[M_NEW], 0)
        return 1
    _action(out, 0, CAPTURE, m[M_CAPSQ], m[M_CAPSQ], m[M_CAP], 0)
    _action(out, 1, MOVE, frm, to, m[M_NEW], 0)
    return 2


@njit(cache=True)
def _action(out, i, kind, frm, to, piece, part):
    out[i, 0] = kind
    out[i, 1] = frm
    out[i, 2] = to
    out[i, 3] = piece
    out[i, 4] = part


# ------------------------------------------------------------------------------------------
# compiled: the end of the game
# ------------------------------------------------------------------------------------------

@njit(cache=True)
def _scored(half, me):
    """The winners' bits when the side to move scores ``half`` half points."""
    if half == 1:
        return 3
    return (1 << me) if half == 2 else (1 << (1 - me))


@njit(cache=True)
def _undecided(t, s):
    """A draw, or under counting the side with more points."""
    p = t.params
    if not p[COUNTING]:
        return 3
    count = p[NCODES]
    w = t.weights
    first = 0.0
    second = w[count + 1, count]
    for pos in range(p[P_SIZE]):
        c = s[S_CELLS + pos]
        if c != 0:
            if t.kinds[c, K_OWNER] == 0:
                first += w[count + 1, c]
            else:
                second += w[count + 1, c]
    if first == second:
        return 3
    return 1 if first > second else 2


@njit(cache=True)
def _bare(t, b, off, player):
    """Whether ``player`` has only royal pieces (or none)."""
    kinds = t.kinds
    for pos in range(t.params[P_SIZE]):
        c = b[off + pos]
        if c != 0 and kinds[c, K_OWNER] == player and not kinds[c, K_ROYAL]:
            return False
    return True


@njit(cache=True)
def _can_bare(t, s, moves, n):
    """Whether a move bares the opponent's king at once."""
    size = t.params[P_SIZE]
    enemy = 1 - s[S_TO_MOVE]
    b = s[S_CELLS:S_CELLS + size].copy()
    for i in range(n):
        row = moves[i]
        typ = row[M_TYPE]
        saved = b.copy()
        if typ == T_DROP:
            b[row[M_TO]] = row[M_NEW]
        elif typ == T_CASTLE:
            h = t.rules[0]
            c = t.extra[0][X_CASTLES] + row[M_CAPSQ] * CASTLE_WORDS
            b[h[c + 2]] = 0
            b[h[c + 3]] = row[M_OLD]
            b[h[c + 4]] = 0
            b[h[c + 5]] = row[M_CAP]
        elif typ != T_PASS:
            if typ != T_MOVE:
                b[row[M_CAPSQ]] = 0
            b[row[M_FROM]] = 0
            b[row[M_TO]] = row[M_NEW]
        if _bare(t, b, 0, enemy):
            return True
        b[:] = saved
    return False


@njit(cache=True)
def _insufficient(t, s):
    kinds = t.kinds
    h = t.rules[0]
    colour = t.extra[0][X_COLOUR]
    minors = 0
    bound = True
    colours = 0
    for pos in range(t.params[P_SIZE]):
        c = s[S_CELLS + pos]
        if c != 0 and not kinds[c, K_ROYAL]:
            if not kinds[c, K_MINOR]:
                return False
            minors += 1
            if not kinds[c, K_BOUND]:
                bound = False
            colours |= 1 << h[colour + pos]
    if minors <= 1:
        return True
    return bound and (colours == 1 or colours == 2)


@njit(cache=True)
def _perpetual_checker(s, hist, nhist):
    """The player who gave check with every move since the position first occurred, or -1."""
    key = s[S_KEY]
    first = -1
    for i in range(nhist):
        if hist[i] == key:
            first = i
            break
    if first < 0:
        return -1
    mover = s[S_TO_MOVE]
    seen0 = 0
    seen1 = 0
    all0 = True
    all1 = True
    for i in range(first, nhist):
        if hist[i] != -1:
            gave = i + 1 < nhist and hist[i + 1] == -1
            if mover == 0:
                seen0 += 1
                all0 = all0 and gave
            else:
                seen1 += 1
                all1 = all1 and gave
            mover = 1 - mover
    if seen0 and all0:
        return 0
    if seen1 and all1:
        return 1
    return -1


@njit(cache=True)
def judge(t, s, hist, nhist, moves, n):
    """:meth:`PieceGame._judge` given the ``n`` moves by the rules: -1 or the winners' bits."""
    p = t.params
    kinds = t.kinds
    size = p[P_SIZE]
    me = s[S_TO_MOVE]
    if p[GOAL]:
        for q in range(2):
            for pos in range(size):
                c = s[S_CELLS + pos]
                if t.zones[q, pos] and c != 0 and kinds[c, K_OWNER] == q:
                    return 1 << q
    if p[NO_PIECES]:
        seen = 0
        for pos in range(size):
            c = s[S_CELLS + pos]
            if c != 0:
                seen |= 1 << kinds[c, K_OWNER]
        for q in range(2):
            if not (seen >> q) & 1:
                return 1 << (1 - q)
    if p[MAY_PASS] and s[p[P_FLAGS] + 2] != 0 and _ended_by_passing(t, s):
        return _undecided(t, s)
    if n == 0:
        checked = False
        if p[ROYAL_CHECK]:
            king = s[p[ROYAL_AT] + me]
            checked = king >= 0 and attacked(t, s, S_CELLS, king, 1 - me)
        return _scored(p[CHECKMATED] if checked else p[STALEMATED], me)
    if p[BARE]:
        bare0 = _bare(t, s, S_CELLS, 0)
        bare1 = _bare(t, s, S_CELLS, 1)
        if bare0 and bare1:
            return 3
        mine = bare0 if me == 0 else bare1
        theirs = bare1 if me == 0 else bare0
        if theirs:
            return 1 << me
        if mine and not _can_bare(t, s, moves, n):
            return 1 << (1 - me)
    if p[MINOR]:
        empty = True
        hands = p[P_HANDS]
        for i in range(2 * p[P_HAND_KINDS]):
            if s[hands + i] != 0:
                empty = False
                break
        if empty and _insufficient(t, s):
            return 3
    counters = p[P_COUNTERS]
    if p[MOVE_LIMIT] and s[counters] >= p[MOVE_LIMIT]:
        return _undecided(t, s)
    if p[REPS]:
        key = s[S_KEY]
        seen = 0
        for i in range(nhist):
            if hist[i] == key:
                seen += 1
        if seen + 1 >= p[REPS]:
            if p[PERPETUAL]:
                checker = _perpetual_checker(s, hist, nhist)
                if checker >= 0:
                    return 1 << (1 - checker)
            return _undecided(t, s)
    if p[MAX_MOVES] and s[counters + 1] > p[MAX_MOVES]:
        return _undecided(t, s)
    if p[HONOUR] and s[counters + 2] and s[counters] > s[counters + 2]:
        return 3
    return -1


@njit(cache=True)
def outcome(t, s, hist, nhist, nlegal):
    if nlegal > 0:
        return -1
    moves = np.empty((t.params[P_MAX_MOVES], t.params[P_MOVE_WIDTH]), np.int64)
    n = gen_rules(t, s, moves)
    return judge(t, s, hist, nhist, moves, n)


# ------------------------------------------------------------------------------------------
# compiled: knowledge for bots
# ------------------------------------------------------------------------------------------

@njit(cache=True)
def _terms(t, s):
    """``EvalTables.score``: the tapered board value for the side to move, with passed
    pawns, pawn shield and mop-up, in whole centipawns."""
    p = t.params
    w = t.weights
    kinds = t.kinds
    h = t.rules[0]
    x = t.extra[0]
    me = s[S_TO_MOVE]
    n = p[NCODES]
    end = n + 2
    mg = 0.0
    eg = 0.0
    phase = 0
    king0 = -1
    king1 = -1
    others0 = 0
    others1 = 0
    for pos in range(p[P_SIZE]):
        c = s[S_CELLS + pos]
        if c != 0:
            o = kinds[c, K_OWNER]
            if o == me:
                mg += w[c, pos]
                eg += w[end + c, pos]
            else:
                mg -= w[c, pos]
                eg -= w[end + c, pos]
            phase += kinds[c, K_PHASE]
            if kinds[c, K_ROYAL]:
                if o == 0:
                    if king0 < 0:
                        king0 = pos
                elif king1 < 0:
                    king1 = pos
            elif o == 0:
                others0 += 1
            else:
                others1 += 1
    files = p[NFILES]
    ranks = p[NRANKS]
    xf = x[X_FILE]
    xr = x[X_RANK]
    if p[PASSED]:
        grid = x[X_GRID]
        for pos in range(p[P_SIZE]):
            c = s[S_CELLS + pos]
            if c != 0 and kinds[c, K_PAWN]:
                # passed: no enemy pawn ahead of it on its file or the next ones (the
                # ranks ahead looked at square by square: nothing allocated)
                o = kinds[c, K_OWNER]
                y = h[xr + pos]
                fx = h[xf + pos]
                passed = True
                for yy in range(y + 1 if o == 0 else 0, ranks if o == 0 else y):
                    for xx in range(max(fx - 1, 0), min(fx + 2, files)):
                        q = h[grid + yy * files + xx]
                        if q >= 0:
                            e = s[S_CELLS + q]
                            if e != 0 and kinds[e, K_PAWN] and kinds[e, K_OWNER] != o:
                                passed = False
                                break
                    if not passed:
                        break
                if passed:
                    r = y if o == 0 else ranks - 1 - y
                    if o == me:
                        mg += w[2 * n + 2, r]
                        eg += w[2 * n + 3, r]
                    else:
                        mg -= w[2 * n + 2, r]
                        eg -= w[2 * n + 3, r]
    if p[SHIELD]:
        for o in range(2):
            king = king0 if o == 0 else king1
            if king < 0:
                continue
            kx = h[xf + king]
            ky = h[xr + king]
            for d in range(2):
                yy = ky + d + 1 if o == 0 else ky - d - 1
                if yy < 0 or yy >= ranks:
                    continue
                count = 0
                for xx in range(kx - 1, kx + 2):
                    if 0 <= xx < files:
                        q = h[x[X_GRID] + yy * files + xx]
                        if q >= 0:
                            c = s[S_CELLS + q]
                            if c != 0 and kinds[c, K_PAWN] and kinds[c, K_OWNER] == o:
                                count += 1
                if o == me:
                    mg += w[2 * n + 4, d] * count
                else:
                    mg -= w[2 * n + 4, d] * count
    mgi = np.int64(mg)
    egi = np.int64(eg)
    full = p[FULL_PHASE]
    if full > 0:
        ph = min(phase, full)
        score = (mgi * ph + egi * (full - ph)) // full
    else:
        score = mgi
    if p[MOP] and king0 >= 0 and king1 >= 0:
        nk = p[P_HAND_KINDS]
        for strong in range(2):
            weak = 1 - strong
            bare = others0 == 0 if weak == 0 else others1 == 0
            rich = others0 > 0 if strong == 0 else others1 > 0
            if bare and rich:
                for k in range(nk):
                    if s[p[P_HANDS] + weak * nk + k] != 0:
                        bare = False
                if bare:
                    a = king0 if strong == 0 else king1
                    b = king1 if strong == 0 else king0
                    apart = abs(h[xf + a] - h[xf + b]) + abs(h[xr + a] - h[xr + b])
                    bonus = (np.int64(w[2 * n + 4, 2]) * h[x[X_CENTRE] + b]
                             + np.int64(w[2 * n + 4, 3]) * (files + ranks - 2 - apart))
                    score += bonus if strong == me else -bonus
    return score


@njit(cache=True)
def evaluate(t, s):
    p = t.params
    w = t.weights
    kinds = t.kinds
    me = s[S_TO_MOVE]
    score = 0.0
    if p[TERMS]:
        score = float(_terms(t, s))
    else:
        for pos in range(p[P_SIZE]):
            c = s[S_CELLS + pos]
            if c != 0:
                if kinds[c, K_OWNER] == me:
                    score += w[c, pos]
                else:
                    score -= w[c, pos]
    nk = p[P_HAND_KINDS]
    if nk > 0:
        row = p[NCODES]
        for q in range(2):
            held = 0.0
            for k in range(nk):
                held += s[p[P_HANDS] + q * nk + k] * w[row, k]
            score += held if q == me else -held
    return score


@njit(cache=True)
def order(t, s, m):
    typ = m[M_TYPE]
    if typ == T_DROP or typ == T_CASTLE or typ == T_PASS:
        return 0.0
    kinds = t.kinds
    score = 0.0
    if typ != T_MOVE:
        score += 10.0 * kinds[m[M_CAP], K_VALUE] + 1.0
    if m[M_NEW] != m[M_OLD]:
        score += kinds[m[M_NEW], K_VALUE] - kinds[m[M_OLD], K_VALUE]
    return score


@njit(cache=True)
def noisy(t, s, m):
    typ = m[M_TYPE]
    if typ == T_CAPTURE or typ == T_EP:
        return True
    return (typ == T_MOVE) and m[M_NEW] != m[M_OLD]


@njit(cache=True)
def noisy_moves(t, s, hist, nhist, moves):
    """The legal moves ``noisy`` says are, in the order ``gen`` lists them (the search's
    ``noisy_moves``), without generating the quiet ones: the moves that capture or may
    promote, kept where ``judge`` does not end the game.  (``judge`` reads the other moves
    only for bare royal pieces: there, all of them.)"""
    if t.params[BARE]:
        n = gen(t, s, hist, nhist, moves)
    else:
        n = _gen_core(t, s, moves, False)
    k = 0
    for i in range(n):
        if noisy(t, s, moves[i]):
            if k != i:
                moves[k] = moves[i]
            k += 1
    if k > 0 and not t.params[BARE] and judge(t, s, hist, nhist, moves, k) >= 0:
        return 0
    return k


@njit(cache=True)
def repetition(t, s):
    return 3  # Game.repetition_outcome: a draw
