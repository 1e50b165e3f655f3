"""Kernel family: sowing games (mancala) -- the Kalah family, whose stores lie on the sowing
path (:class:`myriad.core.mechanics.sowing.Sowing`: extra turns, captures across, leftovers
at the end), and the games that capture in the opponent's row, Oware and Toguz Kumalak
(:class:`myriad.core.mechanics.capture_sowing.CaptureSowing` under
:class:`myriad.games.capture_mancala.CaptureMancala`: capture counts and chains, the grand
slam, feeding, claimed houses, the end at a repeated position).

Everything is read from the mechanic's parameters, never from a game's id.  The moves are
the reference's: a row of ``SET`` actions, one per changed cell, in the reference's order
(:func:`sow_actions` lists them; ``play`` sows straight into the next state vector, which
comes to the same, since every cell a sowing changes is one of its actions).

Tables: ``params``: ``MODE`` (:data:`STORES_ON_PATH` or :data:`CAPTURE_ROW`), the houses a
side, the seeds in all, the stores and each rule option below; ``kinds[pos]`` = (owner or -1,
place in the owner's row, the facing house, the house sown before it, the length of its lap,
the length of its cycle); ``rules[h]`` the lap of house ``h`` (where its seeds go, one after
another) and ``rules[size + h]`` its cycle (``h`` first: Toguz Kumalak's first seed goes back
into the emptied house), padded with -1; ``zones[p]`` player ``p``'s houses in sowing order;
``extra[0, n]`` 1 when a house holding ``n`` seeds after the last one is captured;
``weights[0]`` the games' evaluation and ordering weights (:data:`W_STORE` ...: the
``store_weight``, ``side_weight``, ``again_bonus`` and ``claim_value`` their ``evaluate`` and
``move_heuristic`` read).  A move is one word: the house sown.  Flags (capture games with
claims): ``claims[p] + 1``.
"""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.move import SET
from myriad.core.zobrist import Zobrist
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.keys import flag_key
from myriad.kernel.layout import (P_FAMILY_PARAMS, P_FLAGS, P_SIZE, P_VALUES, S_CELLS, S_KEY,
                                  S_TO_MOVE, Tables, base_tables)

FAMILY = 4

#: ``MODE``: the Kalah family (stores on the path) or captures in the opponent's row.
STORES_ON_PATH = 0
CAPTURE_ROW = 1

MODE = P_FAMILY_PARAMS
PITS = P_FAMILY_PARAMS + 1            # houses a side
TOTAL = P_FAMILY_PARAMS + 2           # seeds in all
STORE = P_FAMILY_PARAMS + 3           # + player: the store's position
FACING_EMPTY = P_FAMILY_PARAMS + 5    # Sowing.capture_facing_empty
LEFT_TO_EMPTY = P_FAMILY_PARAMS + 6   # Sowing.leftovers == "empty_side"
ORIGIN_FIRST = P_FAMILY_PARAMS + 7    # CaptureSowing.origin_first
CHAIN = P_FAMILY_PARAMS + 8           # CaptureSowing.capture_chain
GRAND_SLAM = P_FAMILY_PARAMS + 9      # 0 "allowed", 1 "no_capture", 2 "forbidden"
MUST_FEED = P_FAMILY_PARAMS + 10
CLAIM_COUNT = P_FAMILY_PARAMS + 11    # 0: no claims
CLAIM_LAST = P_FAMILY_PARAMS + 12     # CaptureSowing.claim_last_house
CLAIM_MIRROR = P_FAMILY_PARAMS + 13   # CaptureSowing.claim_mirror
CLAIMS_ON = P_FAMILY_PARAMS + 14      # the claims are flags 0 and 1
REPETITION_ENDS = P_FAMILY_PARAMS + 15

GRAND_SLAMS = ("allowed", "no_capture", "forbidden")

# kinds columns
K_OWNER, K_INDEX, K_ACROSS, K_PREV, K_LAP, K_CYCLE = range(6)

# weights[0] columns: the weights the games' evaluate and move_heuristic read
W_STORE = 0      # per seed of store difference
W_SIDE = 1       # per seed of difference on the sides
W_CLAIM = 2      # per claimed house (CaptureMancala.claim_value)
W_AGAIN = 3      # ordering: a sowing that earns another turn (Kalah)
W_CLAIM_ORDER = 4  # ordering: a sowing that claims a house (claim_value / 100)

#: "no claim" in the claims (capture_sowing.NO_CLAIM)
NO_CLAIM = -1
#: the part number of the action emptying a newly claimed house (capture_sowing.CLAIM_PART)
CLAIM_PART = 1

# rule methods a game must take unchanged from its base class to be compiled here
_KALAH_RULES = ("legal_moves", "play", "after_move", "outcome", "result", "evaluate", "move_heuristic",
                "is_noisy", "repetition_outcome")
_CAPTURE_RULES = _KALAH_RULES + ("claims", "_flags", "_decided")


def _unchanged(game: Game, base: type, names: tuple[str, ...]) -> bool:
    return isinstance(game, base) and all(getattr(type(game), n) is getattr(base, n) for n in names)


def _padded(rows: list[tuple[int, ...]], width: int) -> np.ndarray:
    table = np.full((len(rows), max(width, 1)), -1, np.int64)
    for i, row in enumerate(rows):
        table[i, :len(row)] = row
    return table


def tables(game: Game) -> Tables | None:
    """The tables of a Kalah-family game (:class:`Sowing`) or a capture mancala
    (:class:`CaptureSowing`) whose rules are the mechanic's, unchanged."""
    from myriad.core.mechanics.capture_sowing import CaptureSowing
    from myriad.core.mechanics.sowing import Sowing
    from myriad.games.capture_mancala import CaptureMancala
    from myriad.games.kalah import Kalah
    if type(game.zobrist) is not Zobrist or game.players != 2:
        return None
    size = game.topology.size
    kinds = np.full((size, 6), -1, np.int64)
    weights = np.zeros((1, 5), np.float64)
    laps: list[tuple[int, ...]]
    cycles: list[tuple[int, ...]]
    if isinstance(game, Kalah) and _unchanged(game, Kalah, _KALAH_RULES) and type(game.sowing) is Sowing:
        sow = game.sowing
        params = {MODE: STORES_ON_PATH, FACING_EMPTY: int(sow.capture_facing_empty),
                  LEFT_TO_EMPTY: int(sow.leftovers == "empty_side")}
        laps, cycles = list(sow.lap), [() for _ in range(size)]
        capturable = np.zeros((1, game.total + 1), np.int64)
        weights[0, W_STORE], weights[0, W_SIDE], weights[0, W_AGAIN] = game.store_weight, game.side_weight, \
            game.again_bonus
        kinds[:, K_OWNER] = sow.owner
        kinds[:, K_ACROSS] = sow.across
        houses, stores, total = sow.houses, sow.stores, game.total
    elif (isinstance(game, CaptureMancala) and _unchanged(game, CaptureMancala, _CAPTURE_RULES)
          and type(game.sowing) is CaptureSowing):
        grab = game.sowing
        params = {MODE: CAPTURE_ROW, ORIGIN_FIRST: int(grab.origin_first), CHAIN: int(grab.capture_chain),
                  GRAND_SLAM: GRAND_SLAMS.index(grab.grand_slam), MUST_FEED: int(grab.must_feed),
                  CLAIM_COUNT: grab.claim_count, CLAIM_LAST: int(grab.claim_last_house),
                  CLAIM_MIRROR: int(grab.claim_mirror), CLAIMS_ON: int(game.claims_on),
                  REPETITION_ENDS: int(game.repetition_ends)}
        laps, cycles = list(grab.lap), list(grab.cycle)
        capturable = np.array([[int(c) for c in grab.capturable]], np.int64)
        weights[0, W_STORE], weights[0, W_SIDE] = game.store_weight, game.side_weight
        weights[0, W_CLAIM], weights[0, W_CLAIM_ORDER] = game.claim_value, game.claim_value / 100
        kinds[:, K_OWNER] = grab.owner
        kinds[:, K_INDEX] = grab.index
        kinds[:, K_PREV] = grab.prev
        houses, stores, total = grab.houses, grab.stores, game.total
    else:
        return None
    params.update({PITS: len(houses[0]), TOTAL: total, STORE: stores[0], STORE + 1: stores[1]})
    kinds[:, K_LAP] = [len(lap) for lap in laps]
    kinds[:, K_CYCLE] = [len(cycle) for cycle in cycles]
    return base_tables(game, FAMILY, move_width=1, max_moves=len(houses[0]), kinds=kinds,
                       rules=_padded(laps + cycles, size), zones=np.array(houses, np.int64), extra=capturable,
                       weights=weights, family_params=params)


def prepare(t: Tables, s: np.ndarray) -> None:
    """No words of its own."""


# -- helpers ---------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def side_seeds(t, cells, player):
    """Seeds in ``player``'s houses (``cells`` indexed by position)."""
    total = 0
    row = t.zones[player]
    for i in range(row.shape[0]):
        total += cells[row[i]]
    return total


@njit(cache=True, inline="always")
def claim_of(t, s, player):
    """The opponent's house ``player`` holds, or NO_CLAIM."""
    p = t.params
    if p[CLAIMS_ON]:
        return s[p[P_FLAGS] + player] - 1
    return NO_CLAIM


@njit(cache=True, inline="always")
def _store_path_sow(t, s, player, house, new):
    """Sowing.sow: the cells after ``player`` sows ``house`` written into ``new`` (a view of
    the cells); returns (the seeds sown, the last position, whether it captured, whether
    the game ended and the leftovers were collected)."""
    p = t.params
    size = p[P_SIZE]
    for i in range(size):
        new[i] = s[S_CELLS + i]
    seeds = new[house]
    new[house] = 0
    length = t.kinds[house, K_LAP]
    lap = t.rules[house]
    if seeds < length:
        for k in range(seeds):
            new[lap[k]] += 1
    else:
        rounds = seeds // length
        for k in range(length):
            new[lap[k]] += rounds
        for k in range(seeds % length):
            new[lap[k]] += 1
    last = lap[(seeds - 1) % length]
    captured = False
    if new[last] == 1 and t.kinds[last, K_OWNER] == player:
        facing = t.kinds[last, K_ACROSS]
        taken = new[facing]
        if taken or p[FACING_EMPTY]:
            new[p[STORE + player]] += taken + 1
            new[last] = 0
            new[facing] = 0
            captured = True
    left0 = side_seeds(t, new, 0)
    left1 = side_seeds(t, new, 1)
    over = left0 == 0 or left1 == 0
    if over:
        for q in range(2):
            row = t.zones[q]
            for i in range(row.shape[0]):
                new[row[i]] = 0
        if p[LEFT_TO_EMPTY]:
            new[p[STORE + 1]] += left0
            new[p[STORE]] += left1
        else:
            new[p[STORE]] += left0
            new[p[STORE + 1]] += left1
    return seeds, last, captured, over


@njit(cache=True)
def _store_path_list(t, s, player, house, new, acts):
    """Sowing._sow's changed positions, in its order, into ``acts`` (``new``: the cells
    :func:`_store_path_sow` left); their count."""
    p = t.params
    size = p[P_SIZE]
    seeds, last, captured, over = _store_path_sow(t, s, player, house, new)
    acts[0] = house
    n = 1
    if over:  # the house, then every changed cell in board order
        for q in range(size):
            if q != house and new[q] != s[S_CELLS + q]:
                acts[n] = q
                n += 1
        return n
    length = t.kinds[house, K_LAP]
    lap = t.rules[house]
    if seeds < length:
        for k in range(seeds):
            acts[n] = lap[k]
            n += 1
    else:
        for k in range(length):
            if lap[k] != house:
                acts[n] = lap[k]
                n += 1
    if captured:  # then the facing house and the store; first occurrences that changed
        acts[n] = t.kinds[last, K_ACROSS]
        acts[n + 1] = p[STORE + player]
        n += 2
        m = 0
        for i in range(n):
            q = acts[i]
            if new[q] == s[S_CELLS + q]:
                continue
            seen = False
            for j in range(m):
                if acts[j] == q:
                    seen = True
                    break
            if not seen:
                acts[m] = q
                m += 1
        n = m
    return n


@njit(cache=True, inline="always")
def may_claim(t, s, house, player):
    """CaptureSowing._may_claim."""
    p = t.params
    if not p[CLAIM_COUNT] or claim_of(t, s, player) != NO_CLAIM:
        return False
    if not p[CLAIM_LAST] and t.kinds[house, K_INDEX] == p[PITS] - 1:
        return False
    theirs = claim_of(t, s, 1 - player)
    return p[CLAIM_MIRROR] != 0 or theirs == NO_CLAIM or t.kinds[theirs, K_INDEX] != t.kinds[house, K_INDEX]


@njit(cache=True, inline="always")
def _capture_row_sow(t, s, player, house, new):
    """CaptureSowing.sow: the cells after ``player`` sows ``house`` written into ``new`` (a
    view of the cells); returns (the path's row in ``rules``, the houses sown into along
    it, the claimed house or NO_CLAIM, whether it was a grand slam)."""
    p = t.params
    size = p[P_SIZE]
    for i in range(size):
        new[i] = s[S_CELLS + i]
    seeds = new[house]
    new[house] = 0
    if p[ORIGIN_FIRST] and seeds > 1:
        row = size + house
        length = t.kinds[house, K_CYCLE]
    else:
        row = house
        length = t.kinds[house, K_LAP]
    path = t.rules[row]
    if seeds <= length:
        touched = seeds
        for k in range(seeds):
            new[path[k]] += 1
    else:
        touched = length
        rounds = seeds // length
        for k in range(length):
            new[path[k]] += rounds
        for k in range(seeds % length):
            new[path[k]] += 1
    last = path[(seeds - 1) % length]
    mine = claim_of(t, s, player)
    for q in range(2):
        held = claim_of(t, s, q)
        if held != NO_CLAIM and new[held]:
            new[p[STORE + q]] += new[held]
            new[held] = 0
    opponent = 1 - player
    claimed = NO_CLAIM
    slam = False
    if t.kinds[last, K_OWNER] == opponent and last != mine:
        count = new[last]
        capturable = t.extra[0]
        if count == p[CLAIM_COUNT] and may_claim(t, s, last, player):
            new[p[STORE + player]] += count
            new[last] = 0
            claimed = last
        elif capturable[count]:
            seized = count
            if p[CHAIN]:
                q = t.kinds[last, K_PREV]
                while t.kinds[q, K_OWNER] == opponent and q != last and q != mine and capturable[new[q]]:
                    seized += new[q]
                    q = t.kinds[q, K_PREV]
            if p[GRAND_SLAM] != 0 and seized == side_seeds(t, new, opponent):
                slam = True
            else:
                if p[CHAIN]:
                    q = t.kinds[last, K_PREV]
                    while t.kinds[q, K_OWNER] == opponent and q != last and q != mine and capturable[new[q]]:
                        new[q] = 0
                        q = t.kinds[q, K_PREV]
                new[last] = 0
                new[p[STORE + player]] += seized
    return row, touched, claimed, slam


@njit(cache=True)
def _capture_row_list(t, s, player, house, new, acts):
    """CaptureSowing._move's changed positions, in its order, into ``acts`` (the house, then
    those sown into and the stores, where they changed); returns (their count, the claimed
    house)."""
    p = t.params
    row, touched, claimed, _slam = _capture_row_sow(t, s, player, house, new)
    path = t.rules[row]
    acts[0] = house
    n = 1
    for k in range(touched + 2):
        q = path[k] if k < touched else p[STORE + k - touched]
        if q != house and new[q] != s[S_CELLS + q]:
            acts[n] = q
            n += 1
    return n, claimed


@njit(cache=True, inline="always")
def sow_cells(t, s, house, new):
    """The cells after the side to move sows ``house``, into ``new``; the claimed house."""
    if t.params[MODE] == STORES_ON_PATH:
        _store_path_sow(t, s, s[S_TO_MOVE], house, new)
        return NO_CLAIM
    _row, _touched, claimed, _slam = _capture_row_sow(t, s, s[S_TO_MOVE], house, new)
    return claimed


@njit(cache=True)
def sow_actions(t, s, house, new, acts):
    """The sowing of ``house`` by the side to move: ``new`` the cells after it, ``acts`` the
    positions its SET actions change, in the reference's order; returns (their count, the
    claimed house)."""
    if t.params[MODE] == STORES_ON_PATH:
        return _store_path_list(t, s, s[S_TO_MOVE], house, new, acts), NO_CLAIM
    return _capture_row_list(t, s, s[S_TO_MOVE], house, new, acts)


@njit(cache=True, inline="always")
def decided(t, s, hist, nhist):
    """CaptureMancala._decided: 1 "captured" (a majority, or half each), 2 "position
    repeated", 0 neither."""
    p = t.params
    total = p[TOTAL]
    s0 = s[S_CELLS + p[STORE]]
    s1 = s[S_CELLS + p[STORE + 1]]
    if 2 * s0 > total or 2 * s1 > total or (2 * s0 == total and 2 * s1 == total):
        return 1
    if p[REPETITION_ENDS] and nhist > 0:
        key = s[S_KEY]
        for i in range(nhist):
            if hist[i] == key:
                return 2
    return 0


@njit(cache=True, inline="always")
def _bits(a, b):
    if a > b:
        return 1
    if b > a:
        return 2
    return 3


@njit(cache=True, inline="always")
def _counted(t, s):
    """The winners' bits once each player adds the seeds on their side to their store
    (CaptureSowing.final_scores)."""
    p = t.params
    cells = s[S_CELLS:]
    return _bits(cells[p[STORE]] + side_seeds(t, cells, 0), cells[p[STORE + 1]] + side_seeds(t, cells, 1))


# -- the family interface ----------------------------------------------------------------------
# gen, play and outcome (the perft and playout loop) are inlined into the dispatch of
# myriad.kernel.rules: about 1.6x the nodes per second, at no measurable compile time; the
# others are plain calls (inlining them cost a third more compile time).

@njit(cache=True, inline="always")
def gen(t, s, hist, nhist, moves):
    p = t.params
    me = s[S_TO_MOVE]
    cells = s[S_CELLS:]
    if p[MODE] == STORES_ON_PATH:
        if side_seeds(t, cells, 0) == 0 or side_seeds(t, cells, 1) == 0:
            return 0
    elif decided(t, s, hist, nhist):
        return 0
    opponent = 1 - me
    starving = p[MODE] == CAPTURE_ROW and p[MUST_FEED] != 0 and side_seeds(t, cells, opponent) == 0
    forbidden = p[MODE] == CAPTURE_ROW and p[GRAND_SLAM] == 2
    n = 0
    row = t.zones[me]
    if not (starving or forbidden):  # every non-empty house
        for i in range(row.shape[0]):
            if cells[row[i]]:
                moves[n, 0] = row[i]
                n += 1
        return n
    new = np.empty(p[P_SIZE], np.int64)
    for i in range(row.shape[0]):
        house = row[i]
        if not cells[house]:
            continue
        _row, _touched, _claimed, slam = _capture_row_sow(t, s, me, house, new)
        if (starving and side_seeds(t, new, opponent) == 0) or (forbidden and slam):
            continue  # the sowing leaves the opponent without seeds, or is a forbidden grand slam
        moves[n, 0] = house
        n += 1
    return n


@njit(cache=True, inline="always")
def play(t, s, m, dst):
    """Sows into ``dst``'s cells directly: every cell the sowing changes is one of the
    reference move's actions, so the key follows the changed cells."""
    p = t.params
    size = p[P_SIZE]
    values = p[P_VALUES]
    zob = t.zobrist
    dst[:] = s
    me = s[S_TO_MOVE]
    house = m[0]
    claimed = sow_cells(t, s, house, dst[S_CELLS:S_CELLS + size])
    key = s[S_KEY]
    for q in range(size):
        old = s[S_CELLS + q]
        now = dst[S_CELLS + q]
        if now != old:
            key ^= zob[q * values + old] ^ zob[q * values + now]
    if p[MODE] == STORES_ON_PATH:
        length = t.kinds[house, K_LAP]
        again = t.rules[house, (s[S_CELLS + house] - 1) % length] == p[STORE + me]
        nxt = me if again else 1 - me
        bits = IRREVERSIBLE
    else:
        nxt = 1 - me
        if claimed != NO_CLAIM and p[CLAIMS_ON]:
            flag = p[P_FLAGS] + me
            key ^= flag_key(p, me, s[flag]) ^ flag_key(p, me, claimed + 1)
            dst[flag] = claimed + 1
        s0, s1 = S_CELLS + p[STORE], S_CELLS + p[STORE + 1]
        captured = dst[s0] != s[s0] or dst[s1] != s[s1]
        bits = IRREVERSIBLE if captured or not p[REPETITION_ENDS] else 0
    key ^= t.side[me] ^ t.side[nxt]
    dst[S_TO_MOVE] = nxt
    dst[S_KEY] = key
    return bits


@njit(cache=True)
def actions(t, s, m, out):
    size = t.params[P_SIZE]
    new = np.empty(size, np.int64)
    acts = np.empty(size + 2, np.int64)
    n, claimed = sow_actions(t, s, m[0], new, acts)
    for i in range(n):
        q = acts[i]
        out[i, 0] = SET
        out[i, 1] = q
        out[i, 2] = q
        out[i, 3] = new[q]
        out[i, 4] = CLAIM_PART if q == claimed else 0
    return n


@njit(cache=True, inline="always")
def outcome(t, s, hist, nhist, nlegal):
    p = t.params
    cells = s[S_CELLS:]
    if p[MODE] == STORES_ON_PATH:
        left0 = side_seeds(t, cells, 0)
        left1 = side_seeds(t, cells, 1)
        if left0 != 0 and left1 != 0:
            return -1
        s0 = cells[p[STORE]]
        s1 = cells[p[STORE + 1]]
        if p[LEFT_TO_EMPTY]:
            return _bits(s0 + left1, s1 + left0)
        return _bits(s0 + left0, s1 + left1)
    d = decided(t, s, hist, nhist)
    if d == 1:
        return _bits(cells[p[STORE]], cells[p[STORE + 1]])
    if d == 2 or nlegal == 0:
        return _counted(t, s)
    return -1


@njit(cache=True)
def evaluate(t, s):
    p = t.params
    w = t.weights[0]
    me = s[S_TO_MOVE]
    cells = s[S_CELLS:]
    score = w[W_STORE] * (cells[p[STORE + me]] - cells[p[STORE + 1 - me]])
    score += w[W_SIDE] * (side_seeds(t, cells, me) - side_seeds(t, cells, 1 - me))
    if p[CLAIMS_ON]:
        score += w[W_CLAIM] * (int(claim_of(t, s, me) != NO_CLAIM) - int(claim_of(t, s, 1 - me) != NO_CLAIM))
    return score


@njit(cache=True)
def order(t, s, m):
    """The store's gain (every changed cell is an action of the move), plus a bonus for an
    extra turn (Kalah) or a claim."""
    p = t.params
    me = s[S_TO_MOVE]
    house = m[0]
    store = p[STORE + me]
    new = np.empty(p[P_SIZE], np.int64)
    claimed = sow_cells(t, s, house, new)
    gain = float(new[store] - s[S_CELLS + store])
    if p[MODE] == STORES_ON_PATH:
        length = t.kinds[house, K_LAP]
        if t.rules[house, (s[S_CELLS + house] - 1) % length] == store:
            return t.weights[0, W_AGAIN] + gain
    elif p[CLAIMS_ON] and claimed != NO_CLAIM:
        return gain + t.weights[0, W_CLAIM_ORDER]
    return gain


@njit(cache=True)
def noisy(t, s, m):
    """CaptureMancala.is_noisy: the mover's store fills; Kalah keeps Game.is_noisy, for
    which SET actions never change material."""
    p = t.params
    if p[MODE] == STORES_ON_PATH:
        return False
    store = p[STORE + s[S_TO_MOVE]]
    new = np.empty(p[P_SIZE], np.int64)
    sow_cells(t, s, m[0], new)
    return new[store] != s[S_CELLS + store]


@njit(cache=True)
def repetition(t, s):
    """CaptureMancala.repetition_outcome of a position met again (its key in its history):
    with ``repetition_ends`` the game ends there and the board is counted (unless a majority
    already decided it); else, and in the Kalah family, a draw."""
    p = t.params
    if p[MODE] == STORES_ON_PATH or not p[REPETITION_ENDS]:
        return 3
    cells = s[S_CELLS:]
    s0 = cells[p[STORE]]
    s1 = cells[p[STORE + 1]]
    total = p[TOTAL]
    if 2 * s0 > total or 2 * s1 > total or (2 * s0 == total and 2 * s1 == total):
        return _bits(s0, s1)
    return _counted(t, s)
