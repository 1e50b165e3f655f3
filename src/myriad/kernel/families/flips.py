"""Kernel family: line flips -- a disc placed on an empty cell turns every unbroken line of
other colours it closes against a disc of its own (Othello at every size, Rolit for two to
four players: :class:`myriad.games.othello.Othello`, :class:`myriad.games.rolit.Rolit`,
with :class:`~myriad.core.mechanics.placement.LineFlips` and
:class:`~myriad.core.mechanics.flanking.ColourFlips`).

When the mover cannot flank anything, ``FALLBACK`` says what it does: ``PASS_TURN``
(Othello: a forced pass, one ply, while fewer than one pass was made in a row and the
opponent can place; :func:`~myriad.core.mechanics.placement.forced_pass`, ``counters[0]``
counts the passes in a row) or ``NEXT_TO`` (Rolit: a disc on any empty cell next to a
disc).  Othello ends when neither side can place, Rolit when the board is full; the most
discs of one's colour wins (ties share).

Tables:

* ``links`` the board's directions, walked in order (the order the reference lists a
  move's flips in);
* ``rules[pos] = (guard, guard value, cell value, corner)`` Othello's move ordering: the
  corner whose X- or C-cell ``pos`` is (-1: none), the cell's value while that corner is
  empty and otherwise; 1 on a corner;
* ``zones``: row 0 the corners, 1 the edge, then per corner its X-cells and its C-cells;
* ``extra``: the edge runs from each corner, one per row: the corner's index, then the
  run's cells (-1 after); then, on boards of at most 64 cells whose directions all shift
  the cell numbers by a constant (``BITBOARD``), per direction from row ``DIRECTIONS``
  that shift, the bit set of the cells with a neighbour that way (as a signed word) and
  the longest run of discs a disc can turn that way: the flanking cells of a whole board
  are then found on bit sets, as :meth:`LineFlips.flanking_bits` finds them; after those,
  from row ``MASKS``, the bit sets of the corners and of the edge, then per corner those
  of its X- and C-cells; from row ``RAYS``, per cell and direction the bit set of the
  cells beyond it that way;
* ``weights[0]`` :class:`~myriad.games.othello.OthelloWeights` in field order;
* ``params``: ``FALLBACK``, ``KNOWLEDGE`` (Othello's evaluation or Rolit's ball count),
  per player ``COLOUR`` (its disc's cell value), ``NCORNERS`` and the corners.

A move is one word: the cell of the new disc, or the board size for a pass.  The flips are
found again when the move is played or listed (walking a few rays costs less than storing
them).  On ``BITBOARD`` boards a state vector keeps, after the reference state, each
player's discs as a bit set (from ``BITS_AT``), then that of all discs (Rolit's board may
hold a colour no player plays), then the cells where the side to move can place (``play``
works them out once for the position it makes: the moves and the mover's mobility read
them), so that moves, flips, mobility and the evaluation's terms are found with a few
word operations each.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.core.game import Game
from myriad.core.mechanics.placement import translation
from myriad.core.move import DROP, SET
from myriad.core.topology import NO_LINK
from myriad.kernel.families import IRREVERSIBLE
from myriad.kernel.instructions import highest, lowest, popcount
from myriad.kernel.keys import mix64
from myriad.kernel.layout import (P_COUNTERS, P_FAMILY_PARAMS, P_NCOUNTERS, P_PLAYERS, P_SIZE, P_VALUES,
                                  P_WIDTH, S_CELLS, S_KEY, S_TO_MOVE, Tables, base_tables, signed)

FAMILY = 5
FALLBACK = P_FAMILY_PARAMS        #: what a player who cannot flank does
KNOWLEDGE = P_FAMILY_PARAMS + 1   #: which evaluation
NCORNERS = P_FAMILY_PARAMS + 2
COLOUR = P_FAMILY_PARAMS + 3      # + player: the cell value of its discs (4 players at most)
CORNERS = P_FAMILY_PARAMS + 7     # + corner: its cell (8 corners at most)
BITBOARD = P_FAMILY_PARAMS + 15   #: 1: placements found on 64-bit boards (see ``DIRECTIONS``)
DIRECTIONS = P_FAMILY_PARAMS + 16  #: first row in ``extra`` of each direction's shift and mask
BITS_AT = P_FAMILY_PARAMS + 17    #: ``BITBOARD``: where the players' bit sets (then all discs') start
MASKS = P_FAMILY_PARAMS + 18      #: ``BITBOARD``: first row in ``extra`` of the corner, edge, X- and C-cell masks
RAYS = P_FAMILY_PARAMS + 19       #: ``BITBOARD``: first row in ``extra`` of the rays from each cell

PASS_TURN = 0   #: FALLBACK: a forced pass (Othello)
NEXT_TO = 1     #: FALLBACK: a disc next to any disc (Rolit)
OTHELLO = 0     #: KNOWLEDGE: :meth:`Othello.evaluate`
BALLS = 1       #: KNOWLEDGE: :meth:`Rolit.evaluate_for` the mover

# -- weights[0]: OthelloWeights' fields
(W_MOBILITY, W_CORNER, W_X_SQUARE, W_C_SQUARE, W_FRONTIER, W_STABLE, W_DISCS, W_DISCS_FROM,
 W_ORDER_CORNER, W_ORDER_X, W_ORDER_C, W_ORDER_EDGE) = range(12)


def tables(game: Game) -> Tables | None:
    """The tables of Othello (any size) and Rolit (any number of players)."""
    from myriad.games.othello import Corners, Othello, OthelloWeights
    from myriad.games.rolit import Rolit
    topology = game.topology
    size = topology.size
    if type(game) is Othello:
        colours: tuple[int, ...] = game.discs
        fallback, knowledge, weights = PASS_TURN, OTHELLO, game.weights
        corners = game.corners
    elif type(game) is Rolit:
        colours = tuple(game.balls[c] for c in game.colours)
        fallback, knowledge, weights = NEXT_TO, BALLS, OthelloWeights()
        corners = game.corners
    else:
        return None
    if not isinstance(corners, Corners) or len(corners.corners) > 8 or game.players > 4:
        return None
    ncorners = len(corners.corners)
    rules = np.zeros((size, 4), np.int64)
    for pos in range(size):
        is_corner = corners.mask >> pos & 1
        guard, guard_value = -1, 0
        for corner, x_cells, c_cells in zip(corners.corners, corners.x_cells, corners.c_cells):
            if x_cells >> pos & 1:
                guard, guard_value = corner, weights.order_x
            elif c_cells >> pos & 1:
                guard, guard_value = corner, weights.order_c
        value = weights.order_corner if is_corner else weights.order_edge if corners.edge_mask >> pos & 1 else 0
        rules[pos] = (guard, guard_value, value, is_corner)
    zones = np.zeros((2 + 2 * ncorners, size), np.int64)
    for pos in range(size):
        zones[0, pos] = corners.mask >> pos & 1
        zones[1, pos] = corners.edge_mask >> pos & 1
        for i in range(ncorners):
            zones[2 + 2 * i, pos] = corners.x_cells[i] >> pos & 1
            zones[3 + 2 * i, pos] = corners.c_cells[i] >> pos & 1
    runs = [(i, run) for i, corner_runs in enumerate(corners.runs) for run in corner_runs]
    shifts = [translation(row) for row in topology.links]
    bitboard = size <= 64 and all(shift is not None for shift in shifts)
    directions = len(topology.links) if bitboard else 0
    masks = [(corners.mask, corners.edge_mask)] + list(zip(corners.x_cells, corners.c_cells)) if bitboard else []
    rays = [[ray_bits(topology.links[d], pos) for d in range(directions)] for pos in range(size)] if bitboard else []
    width = max([3, directions] + [1 + len(run) for _, run in runs])
    extra = np.full((len(runs) + directions + len(masks) + len(rays), width), -1, np.int64)
    for row, (i, run) in enumerate(runs):
        extra[row, 0] = i
        extra[row, 1:1 + len(run)] = run
    for d in range(directions):
        linked = sum(1 << p for p, q in enumerate(topology.links[d]) if q != NO_LINK)
        longest = max(bin(row_rays[d]).count("1") for row_rays in rays)
        extra[len(runs) + d, :3] = (shifts[d] or 0, signed(linked), max(longest - 1, 0))
    for row, pair in enumerate(masks):
        extra[len(runs) + directions + row, :2] = [signed(mask) for mask in pair]
    for pos, row_rays in enumerate(rays):
        extra[len(runs) + directions + len(masks) + pos, :directions] = [signed(ray) for ray in row_rays]
    table = np.array([[weights.mobility, weights.corner, weights.x_square, weights.c_square, weights.frontier,
                       weights.stable, weights.discs, weights.discs_from, weights.order_corner, weights.order_x,
                       weights.order_c, weights.order_edge]], np.float64)
    params = {FALLBACK: fallback, KNOWLEDGE: knowledge, NCORNERS: ncorners, BITBOARD: int(bitboard),
              DIRECTIONS: len(runs), MASKS: len(runs) + directions, RAYS: len(runs) + directions + len(masks)}
    for player, code in enumerate(colours):
        params[COLOUR + player] = code
    for i, corner in enumerate(corners.corners):
        params[CORNERS + i] = corner
    words = game.players + 2 if bitboard else 0
    t = base_tables(game, FAMILY, move_width=1, max_moves=size + 1, rules=rules, extra=extra, zones=zones,
                    weights=table, family_params=params, extra_words=words)
    t.params[BITS_AT] = t.params[P_WIDTH] - words
    return t


def ray_bits(links: Sequence[int], pos: int) -> int:
    """The bit set of the cells beyond ``pos`` along one direction's ``links``."""
    bits = 0
    q = links[pos]
    while q != NO_LINK:
        bits |= 1 << q
        q = links[q]
    return bits


def prepare(t: Tables, s: np.ndarray) -> None:
    """On ``BITBOARD`` boards, each player's bit set of discs and that of all discs, from the
    cells."""
    p = t.params
    if not p[BITBOARD]:
        return
    cells = s[S_CELLS:S_CELLS + p[P_SIZE]].tolist()
    players = p[P_PLAYERS]
    for player in range(players):
        colour = p[COLOUR + player]
        s[p[BITS_AT] + player] = signed(sum(1 << pos for pos, v in enumerate(cells) if v == colour))
    s[p[BITS_AT] + players] = signed(sum(1 << pos for pos, v in enumerate(cells) if v != 0))
    mover = int(s[S_TO_MOVE])
    s[p[BITS_AT] + players + 1] = signed(int(placement_bits(t, np.uint64(s[p[BITS_AT] + mover]),
                                                            np.uint64(s[p[BITS_AT] + players]))))


@njit(cache=True)
def flanked(t, s, pos, d, own):
    """How many discs a disc ``own`` on ``pos`` turns walking direction ``d``: the length of
    the unbroken run of other colours from ``pos`` that ends on a disc ``own`` (0: none)."""
    links = t.links
    q = links[d, pos]
    run = 0
    while q >= 0:
        v = s[S_CELLS + q]
        if v == 0:
            return 0
        if v == own:
            return run
        run += 1
        q = links[d, q]
    return 0


@njit(cache=True)
def flanks(t, s, pos, own):
    """Whether a disc ``own`` on the empty ``pos`` turns anything."""
    for d in range(t.links.shape[0]):
        if flanked(t, s, pos, d, own):
            return True
    return False


@njit(cache=True)
def board_bits(t, s, player):
    """The bit sets of ``player``'s discs and of all discs (``BITBOARD`` boards)."""
    at = t.params[BITS_AT]
    return np.uint64(s[at + player]), np.uint64(s[at + t.params[P_PLAYERS]])


@njit(cache=True, inline="always")
def shifted(bits, by, up):
    """``bits`` moved ``by`` cells toward higher cell numbers (``up``) or lower ones."""
    return (bits << by) if up else (bits >> by)


@njit(cache=True, inline="always")
def flanking(mine, other, empty, by, up, linked, steps):
    """The empty cells one step in a direction (a shift ``by``, ``up`` or down, whose
    target cells are ``linked``) beyond a run of ``other`` discs that starts one step
    from a disc of ``mine``, the run at most ``steps`` long."""
    line = shifted(mine, by, up) & linked & other
    for _ in range(steps - 1):  # as many steps as the longest run turned, no test
        line |= shifted(line, by, up) & linked & other
    return shifted(line, by, up) & linked & empty


@njit(cache=True)
def placement_bits(t, mine, occupied):
    """The bit set of the empty cells where the owner of ``mine`` flanks other discs: per
    direction, its discs walked across other discs onto an empty cell."""
    p = t.params
    size = p[P_SIZE]
    full = ~np.uint64(0) if size == 64 else (np.uint64(1) << np.uint64(size)) - np.uint64(1)
    other = occupied & ~mine
    empty = full & ~occupied
    found = np.uint64(0)
    for row in range(p[DIRECTIONS], p[DIRECTIONS] + t.links.shape[0]):
        shift = t.extra[row, 0]
        if shift != 0:
            by = np.uint64(abs(shift))
            found |= flanking(mine, other, empty, by, shift < 0, np.uint64(t.extra[row, 1]), t.extra[row, 2])
    return found


@njit(cache=True)
def movers_placements(t, s):
    """The bit set of the cells where the side to move can place (``BITBOARD`` boards: kept
    in the state vector)."""
    p = t.params
    return np.uint64(s[p[BITS_AT] + p[P_PLAYERS] + 1])


@njit(cache=True)
def flip_bits(t, mine, other, pos):
    """The bit set of the discs ``other`` a disc of ``mine``'s owner on ``pos`` turns
    (``BITBOARD`` boards): per direction, the cells of the ray from ``pos`` before its first
    cell that is not ``other``'s, when that cell is ``mine``'s (the first is the ray's
    lowest bit where the cell numbers grow that way, else its highest)."""
    p = t.params
    one = np.uint64(1)
    turned = np.uint64(0)
    rays = t.extra[p[RAYS] + pos]
    for d in range(t.links.shape[0]):
        shift = t.extra[p[DIRECTIONS] + d, 0]
        ray = np.uint64(rays[d])
        stops = ray & ~other
        if shift == 0 or stops == 0:
            continue
        if shift > 0:
            first = stops & (~stops + one)
            between = ray & (first - one)
        else:
            first = one << np.uint64(highest(stops))
            between = ray & ~((first << one) - one)
        if first & mine:
            turned |= between
    return turned


@njit(cache=True)
def placements(t, s, player):
    """The number of empty cells where ``player`` turns something with a disc (mobility)."""
    p = t.params
    if p[BITBOARD]:
        if player == s[S_TO_MOVE]:
            return popcount(movers_placements(t, s))
        mine, occupied = board_bits(t, s, player)
        return popcount(placement_bits(t, mine, occupied))
    own = p[COLOUR + player]
    n = 0
    for pos in range(p[P_SIZE]):
        if s[S_CELLS + pos] == 0 and flanks(t, s, pos, own):
            n += 1
    return n


@njit(cache=True)
def can_place(t, s, player):
    """Whether ``player`` can place a disc flanking something."""
    p = t.params
    if p[BITBOARD]:
        if player == s[S_TO_MOVE]:
            return movers_placements(t, s) != 0
        mine, occupied = board_bits(t, s, player)
        return placement_bits(t, mine, occupied) != 0
    own = p[COLOUR + player]
    for pos in range(p[P_SIZE]):
        if s[S_CELLS + pos] == 0 and flanks(t, s, pos, own):
            return True
    return False


@njit(cache=True)
def gen(t, s, hist, nhist, moves):
    p = t.params
    size = p[P_SIZE]
    me = s[S_TO_MOVE]
    own = p[COLOUR + me]
    n = 0
    if p[BITBOARD]:
        bits = movers_placements(t, s)
        while bits:
            moves[n, 0] = lowest(bits)
            n += 1
            bits &= bits - np.uint64(1)
    else:
        for pos in range(size):
            if s[S_CELLS + pos] == 0 and flanks(t, s, pos, own):
                moves[n, 0] = pos
                n += 1
    if n:
        return n
    if p[FALLBACK] == PASS_TURN:
        if not can_place(t, s, 1 - me):
            return 0
        if s[p[P_COUNTERS]] < 1:
            moves[0, 0] = size
            return 1
        return 0
    occupied = False
    for pos in range(size):
        if s[S_CELLS + pos] != 0:
            occupied = True
            break
    links = t.links
    for pos in range(size):
        if s[S_CELLS + pos] != 0:
            continue
        near = not occupied
        for d in range(links.shape[0]):
            q = links[d, pos]
            if q >= 0 and s[S_CELLS + q] != 0:
                near = True
                break
        if near:
            moves[n, 0] = pos
            n += 1
    return n


@njit(cache=True)
def play(t, s, m, dst):
    p = t.params
    for i in range(s.shape[0]):  # a loop: numba's slice assignment costs several times more
        dst[i] = s[i]
    me = s[S_TO_MOVE]
    pos = m[0]
    size = p[P_SIZE]
    nxt = (me + 1) % p[P_PLAYERS]
    key = s[S_KEY] ^ t.side[me] ^ t.side[nxt]
    has_passes = p[FALLBACK] == PASS_TURN and p[P_NCOUNTERS] > 0
    if pos == size:  # a pass
        if has_passes:
            dst[p[P_COUNTERS]] = s[p[P_COUNTERS]] + 1
    else:
        own = p[COLOUR + me]
        values = p[P_VALUES]
        zob = t.zobrist
        key ^= zob[pos * values + s[S_CELLS + pos]] ^ zob[pos * values + own]
        dst[S_CELLS + pos] = own
        if p[BITBOARD]:
            mine, occupied = board_bits(t, s, me)
            turned = flip_bits(t, mine, occupied & ~mine, pos)
            at = p[BITS_AT]
            placed = np.uint64(1) << np.uint64(pos)
            for q in range(p[P_PLAYERS]):
                dst[at + q] = np.int64(np.uint64(s[at + q]) & ~turned)
            dst[at + me] = np.int64(mine | turned | placed)
            dst[at + p[P_PLAYERS]] = np.int64(occupied | placed)
            while turned:
                q = lowest(turned)
                key ^= zob[q * values + s[S_CELLS + q]] ^ zob[q * values + own]
                dst[S_CELLS + q] = own
                turned &= turned - np.uint64(1)
        else:
            links = t.links
            for d in range(links.shape[0]):
                run = flanked(t, s, pos, d, own)
                q = links[d, pos]
                for _ in range(run):
                    key ^= zob[q * values + s[S_CELLS + q]] ^ zob[q * values + own]
                    dst[S_CELLS + q] = own
                    q = links[d, q]
        if has_passes:
            dst[p[P_COUNTERS]] = 0
    dst[S_TO_MOVE] = nxt
    dst[S_KEY] = key
    if p[BITBOARD]:
        at = p[BITS_AT]
        dst[at + p[P_PLAYERS] + 1] = np.int64(placement_bits(t, np.uint64(dst[at + nxt]),
                                                             np.uint64(dst[at + p[P_PLAYERS]])))
    return IRREVERSIBLE


@njit(cache=True)
def actions(t, s, m, out):
    p = t.params
    pos = m[0]
    if pos == p[P_SIZE]:
        return 0
    own = p[COLOUR + s[S_TO_MOVE]]
    out[0, 0] = DROP
    out[0, 1] = pos
    out[0, 2] = pos
    out[0, 3] = own
    out[0, 4] = 0
    n = 1
    links = t.links
    for d in range(links.shape[0]):
        run = flanked(t, s, pos, d, own)
        q = links[d, pos]
        for _ in range(run):
            out[n, 0] = SET
            out[n, 1] = q
            out[n, 2] = q
            out[n, 3] = own
            out[n, 4] = 0
            n += 1
            q = links[d, q]
    return n


@njit(cache=True, inline="always")  # (into the search's loop over a node's moves)
def move_hash(t, s, m):
    """A nonzero hash of move ``m``'s actions, equal for equal actions in any position,
    found without listing them: on ``BITBOARD`` boards a mix of the new disc's cell and
    colour and the bit set of the discs turned, else the Zobrist words of the new disc and
    of its empty cell, and of each disc turned (the cells turned decide their order)."""
    p = t.params
    pos = m[0]
    if pos == p[P_SIZE]:
        return np.int64(1)  # a pass: no actions
    me = s[S_TO_MOVE]
    own = p[COLOUR + me]
    values = p[P_VALUES]
    if p[BITBOARD]:
        mine, occupied = board_bits(t, s, me)
        turned = flip_bits(t, mine, occupied & ~mine, pos)
        h = np.int64(mix64(mix64(np.uint64(pos * values + own)) ^ turned))
        return h if h != 0 else np.int64(1)
    zob = t.zobrist
    h = zob[pos * values] ^ zob[pos * values + own]
    links = t.links
    for d in range(links.shape[0]):
        run = flanked(t, s, pos, d, own)
        q = links[d, pos]
        for _ in range(run):
            h ^= zob[q * values + own]
            q = links[d, q]
    return h if h != 0 else np.int64(1)


@njit(cache=True)
def outcome(t, s, hist, nhist, nlegal):
    """The winners once the board is full or, with forced passes, neither side can place;
    ``nlegal`` only answers sooner when positive (a placement or a pass: ``gen`` lists none
    once the game is over), so a search's leaf need not list the moves."""
    if nlegal > 0:
        return -1
    p = t.params
    size = p[P_SIZE]
    players = p[P_PLAYERS]
    empty = False
    if p[BITBOARD]:
        empty = popcount(board_bits(t, s, 0)[1]) < size
    else:
        for pos in range(size):
            if s[S_CELLS + pos] == 0:
                empty = True
                break
    if empty:
        if p[FALLBACK] != PASS_TURN:
            return -1
        me = s[S_TO_MOVE]
        if can_place(t, s, me) or can_place(t, s, 1 - me):
            return -1
    counts = np.zeros(players, np.int64)
    for pos in range(size):
        v = s[S_CELLS + pos]
        for q in range(players):
            if v == p[COLOUR + q]:
                counts[q] += 1
    best = counts.max()
    bits = 0
    for q in range(players):
        if counts[q] == best:
            bits |= 1 << q
    return bits


@njit(cache=True)
def stable_edge_discs(t, s, own):
    """Othello's stable edge discs of colour ``own``: corners and unbroken runs of it
    along the edge from them, each disc once (:meth:`Corners.stable_edge_discs`)."""
    p = t.params
    seen = np.zeros(p[P_SIZE], np.int64)
    n = 0
    for row in range(p[DIRECTIONS]):  # the edge runs
        corner = p[CORNERS + t.extra[row, 0]]
        if s[S_CELLS + corner] != own:
            continue
        if not seen[corner]:
            seen[corner] = 1
            n += 1
        for i in range(1, t.extra.shape[1]):
            q = t.extra[row, i]
            if q < 0 or s[S_CELLS + q] != own:
                break
            if not seen[q]:
                seen[q] = 1
                n += 1
    return n


@njit(cache=True)
def evaluate_othello(t, s):
    """:meth:`Othello.evaluate`: mobility, corners, X- and C-cells of empty corners,
    frontier, stable edge discs and, as the board fills, discs (mover minus opponent)."""
    p = t.params
    if p[BITBOARD]:
        return evaluate_othello_bits(t, s)
    w = t.weights[0]
    size = p[P_SIZE]
    me = s[S_TO_MOVE]
    mine, theirs = p[COLOUR + me], p[COLOUR + 1 - me]
    score = np.int64(w[W_MOBILITY]) * (placements(t, s, me) - placements(t, s, 1 - me))
    corners = 0
    for i in range(p[NCORNERS]):
        v = s[S_CELLS + p[CORNERS + i]]
        corners += (v == mine) - (v == theirs)
    score += np.int64(w[W_CORNER]) * corners
    for i in range(p[NCORNERS]):
        if s[S_CELLS + p[CORNERS + i]] != 0:
            continue
        xs = 0
        cs = 0
        for pos in range(size):
            v = s[S_CELLS + pos]
            sign = (v == mine) - (v == theirs)
            xs += sign * t.zones[2 + 2 * i, pos]
            cs += sign * t.zones[3 + 2 * i, pos]
        score -= np.int64(w[W_X_SQUARE]) * xs
        score -= np.int64(w[W_C_SQUARE]) * cs
    frontier = 0
    occupied = 0
    ndiscs = 0
    links = t.links
    for pos in range(size):
        v = s[S_CELLS + pos]
        if v == 0:
            continue
        occupied += 1
        sign = (v == mine) - (v == theirs)
        ndiscs += sign
        for d in range(links.shape[0]):
            q = links[d, pos]
            if q >= 0 and s[S_CELLS + q] == 0:
                frontier += sign
                break
    score -= np.int64(w[W_FRONTIER]) * frontier
    score += np.int64(w[W_STABLE]) * (stable_edge_discs(t, s, mine) - stable_edge_discs(t, s, theirs))
    filled = occupied / size
    start = w[W_DISCS_FROM]
    if filled > start:
        weight = w[W_DISCS] * (filled - start) / (1 - start)
        score += np.int64(np.rint(weight * ndiscs))
    return float(score)


@njit(cache=True)
def stable_edge_bits(t, own):
    """:func:`stable_edge_discs` of the discs ``own`` (a bit set)."""
    p = t.params
    one = np.uint64(1)
    seen = np.uint64(0)
    for row in range(p[DIRECTIONS]):  # the edge runs
        corner = p[CORNERS + t.extra[row, 0]]
        if not (own >> np.uint64(corner)) & one:
            continue
        seen |= one << np.uint64(corner)
        for i in range(1, t.extra.shape[1]):
            q = t.extra[row, i]
            if q < 0 or not (own >> np.uint64(q)) & one:
                break
            seen |= one << np.uint64(q)
    return popcount(seen)


@njit(cache=True)
def evaluate_othello_bits(t, s):
    """:func:`evaluate_othello` on ``BITBOARD`` boards, each term counted on bit sets."""
    p = t.params
    w = t.weights[0]
    x = t.extra
    size = p[P_SIZE]
    me = s[S_TO_MOVE]
    mine, occupied = board_bits(t, s, me)
    theirs = np.uint64(s[p[BITS_AT] + 1 - me])
    full = ~np.uint64(0) if size == 64 else (np.uint64(1) << np.uint64(size)) - np.uint64(1)
    empty = full & ~occupied
    mobility = popcount(movers_placements(t, s)) - popcount(placement_bits(t, theirs, occupied))
    score = np.int64(w[W_MOBILITY]) * mobility
    masks = p[MASKS]
    corners = np.uint64(x[masks, 0])
    score += np.int64(w[W_CORNER]) * (popcount(mine & corners) - popcount(theirs & corners))
    for i in range(p[NCORNERS]):
        if (occupied >> np.uint64(p[CORNERS + i])) & np.uint64(1):
            continue
        xs, cs = np.uint64(x[masks + 1 + i, 0]), np.uint64(x[masks + 1 + i, 1])
        score -= np.int64(w[W_X_SQUARE]) * (popcount(mine & xs) - popcount(theirs & xs))
        score -= np.int64(w[W_C_SQUARE]) * (popcount(mine & cs) - popcount(theirs & cs))
    beside_empty = np.uint64(0)  # the cells with an empty neighbour
    for row in range(p[DIRECTIONS], p[DIRECTIONS] + t.links.shape[0]):
        shift = x[row, 0]
        if shift == 0:
            continue
        by = np.uint64(shift) if shift > 0 else np.uint64(-shift)
        beside_empty |= ((empty >> by) if shift > 0 else (empty << by)) & np.uint64(x[row, 1])
    score -= np.int64(w[W_FRONTIER]) * (popcount(mine & beside_empty) - popcount(theirs & beside_empty))
    score += np.int64(w[W_STABLE]) * (stable_edge_bits(t, mine) - stable_edge_bits(t, theirs))
    filled = popcount(occupied) / size
    start = w[W_DISCS_FROM]
    if filled > start:
        weight = w[W_DISCS] * (filled - start) / (1 - start)
        score += np.int64(np.rint(weight * (popcount(mine) - popcount(theirs))))
    return float(score)


@njit(cache=True)
def evaluate_balls(t, s):
    """:meth:`Rolit.evaluate_for` the mover: balls of its colour, a corner worth five,
    less the average of the other players'."""
    p = t.params
    players = p[P_PLAYERS]
    values = np.zeros(players, np.int64)
    for pos in range(p[P_SIZE]):
        v = s[S_CELLS + pos]
        for q in range(players):
            if v == p[COLOUR + q]:
                values[q] += 1
    for i in range(p[NCORNERS]):
        v = s[S_CELLS + p[CORNERS + i]]
        for q in range(players):
            if v == p[COLOUR + q]:
                values[q] += 4
    me = s[S_TO_MOVE]
    others = (values.sum() - values[me]) / (players - 1)
    return values[me] - others


@njit(cache=True)
def evaluate(t, s):
    if t.params[KNOWLEDGE] == OTHELLO:
        return evaluate_othello(t, s)
    return evaluate_balls(t, s)


@njit(cache=True, inline="always")  # (into the search's loop over a node's moves)
def order(t, s, m):
    """Othello: corners first, then edge cells, cells next to an empty corner last
    (:meth:`Othello.move_heuristic`); Rolit: corners first, then the most balls turned."""
    p = t.params
    pos = m[0]
    if pos == p[P_SIZE]:
        return 0.0
    if p[KNOWLEDGE] == OTHELLO:
        guard = t.rules[pos, 0]
        if guard >= 0 and s[S_CELLS + guard] == 0:
            return float(t.rules[pos, 1])
        return float(t.rules[pos, 2])
    me = s[S_TO_MOVE]
    if p[BITBOARD]:
        mine, occupied = board_bits(t, s, me)
        turned = popcount(flip_bits(t, mine, occupied & ~mine, pos))
    else:
        own = p[COLOUR + me]
        turned = 0
        for d in range(t.links.shape[0]):
            turned += flanked(t, s, pos, d, own)
    return float(10 * t.rules[pos, 3] + 1 + turned)


@njit(cache=True)
def noisy(t, s, m):
    return False  # flips are no captures: the reference's quiescence has nothing to search


@njit(cache=True)
def repetition(t, s):
    return (1 << t.params[P_PLAYERS]) - 1  # never met: every move is irreversible
