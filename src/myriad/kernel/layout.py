"""The kernel's data: a game's tables as flat arrays (:class:`Tables`), and a state as one
``int64`` vector.

A state vector holds, in order: the side to move, the Zobrist key (its 64 bits read as a
signed integer), the cells, the flags, the counters and the hands (player by player, a
count per kind) -- the fields of :class:`~myriad.core.state.State`, which
:func:`pack` and :func:`unpack` convert to and from.  ``params`` says where each part
starts (the ``P_*`` indices below); a family may keep more words after the hands (its own
incremental data, never part of the reference state).

A move is a row of ``params[P_MOVE_WIDTH]`` words in a move buffer, packed as its family
likes, except that word 0 identifies the move among those of its position (searches keep
it in their tables).  A family also lists the reference actions of a move, so any kernel
move converts to a :class:`~myriad.core.move.Move`.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from myriad.core.game import Game
from myriad.core.move import Action, Move
from myriad.core.state import State

MASK64 = (1 << 64) - 1

# -- indices into Tables.params --------------------------------------------------------------
P_FAMILY = 0        #: the family's number (see ``myriad.kernel.rules``)
P_SIZE = 1          #: cells on the board
P_PLAYERS = 2       #: players (chance games are not on the kernel)
P_VALUES = 3        #: distinct cell values (the Zobrist table's stride)
P_FLAGS = 4         #: where the flags start in a state vector
P_NFLAGS = 5        #: how many flags
P_COUNTERS = 6      #: where the counters start
P_NCOUNTERS = 7     #: how many counters
P_HANDS = 8         #: where the hands start
P_HAND_KINDS = 9    #: kinds per hand (0: no hands)
P_WIDTH = 10        #: length of a state vector
P_MOVE_WIDTH = 11   #: words per move
P_MAX_MOVES = 12    #: the most moves a position can have (the move buffer's rows)
P_SEED = 13         #: the Zobrist seed
P_QUIESCENCE = 14   #: the game's ``quiescence_depth`` when its ``quiescence`` is on, else 0
P_FORCED_CAPTURES = 15  #: the game's ``forced_captures`` (quiescence may not stand pat)
P_FAMILY_PARAMS = 16  #: first index a family may use for its own parameters
PARAMS = 64         #: length of ``params``

# -- state vector --------------------------------------------------------------------------
S_TO_MOVE = 0
S_KEY = 1
S_CELLS = 2

#: The most actions a move lists (a long draughts capture: a step and a capture per jump;
#: a Go stone taking every other stone of a 19x19 board: 361).
MAX_ACTIONS = 512


class MoveBufferFull(IndexError):
    """A position has more moves than the kernel's move buffer holds (raised by compiled
    code, never passed silently): the bot searches that move on the reference."""


class Tables(NamedTuple):
    """A game compiled for the kernel: every family reads the same fields and documents
    what it keeps in each (unused ones are empty).

    * ``params``   ints: the ``P_*`` layout above, then the family's parameters;
    * ``zobrist``  the Zobrist key of each (cell, value), ``pos * values + value``;
    * ``side``     the Zobrist key of each side to move;
    * ``links``    ``links[direction, pos]``: the neighbour of ``pos`` that way, or -1;
    * ``dirmap``   ``dirmap[player, direction]``: what a direction means for a player;
    * ``zones``    ``zones[zone, pos]``: 1 inside the zone;
    * ``kinds``    per cell value, its properties (owner, kind, ...);
    * ``rules``    the family's rule table (movement, lines, sowing order, ...);
    * ``extra``    a second rule table;
    * ``weights``  the bots' knowledge as numbers (piece values, square tables, pattern
      weights): the data the reference engine's evaluation reads.
    """

    params: np.ndarray
    zobrist: np.ndarray
    side: np.ndarray
    links: np.ndarray
    dirmap: np.ndarray
    zones: np.ndarray
    kinds: np.ndarray
    rules: np.ndarray
    extra: np.ndarray
    weights: np.ndarray


def empty2() -> np.ndarray:
    """An empty 2-D int table (an unused field)."""
    return np.zeros((0, 0), np.int64)


def signed(word: int) -> int:
    """A 64-bit word as a signed int64."""
    word &= MASK64
    return word - (1 << 64) if word >> 63 else word


def unsigned(word: int) -> int:
    """A signed int64 back to the unsigned word."""
    return int(word) & MASK64


def base_tables(game: Game, family: int, *, move_width: int, max_moves: int, extra_words: int = 0,
                links: np.ndarray | None = None, dirmap: np.ndarray | None = None,
                zones: np.ndarray | None = None, kinds: np.ndarray | None = None,
                rules: np.ndarray | None = None, extra: np.ndarray | None = None,
                weights: np.ndarray | None = None, family_params: dict[int, int] | None = None,
                state: State | None = None) -> Tables:
    """The tables every family shares, from ``game`` and a sample ``state`` (its initial
    one by default), which fixes how many flags, counters and hand kinds states have;
    ``extra_words``: the family's own words after the hands."""
    state = state or game.initial_state()
    size = game.topology.size
    nflags, ncounters = len(state.flags), len(state.counters)
    kinds_per_hand = len(state.hands[0]) if state.hands else 0
    params = np.zeros(PARAMS, np.int64)
    params[P_FAMILY] = family
    params[P_SIZE] = size
    params[P_PLAYERS] = game.players
    params[P_VALUES] = game.zobrist.values
    params[P_FLAGS] = S_CELLS + size
    params[P_NFLAGS] = nflags
    params[P_COUNTERS] = S_CELLS + size + nflags
    params[P_NCOUNTERS] = ncounters
    params[P_HANDS] = S_CELLS + size + nflags + ncounters
    params[P_HAND_KINDS] = kinds_per_hand
    params[P_WIDTH] = S_CELLS + size + nflags + ncounters + kinds_per_hand * len(state.hands) + extra_words
    params[P_MOVE_WIDTH] = move_width
    params[P_MAX_MOVES] = max_moves
    params[P_SEED] = signed(game.zobrist.seed)
    params[P_QUIESCENCE] = game.quiescence_depth if game.quiescence else 0
    params[P_FORCED_CAPTURES] = int(game.forced_captures)
    for index, value in (family_params or {}).items():
        params[index] = value
    zob = np.array([signed(w) for w in game.zobrist.cell], np.int64)
    side = np.array([signed(w) for w in game.zobrist.side], np.int64)
    if links is None:
        links = np.array(game.topology.links, np.int64).reshape(len(game.topology.links), size)
    return Tables(params, zob, side, links,
                  dirmap if dirmap is not None else empty2(), zones if zones is not None else empty2(),
                  kinds if kinds is not None else empty2(), rules if rules is not None else empty2(),
                  extra if extra is not None else empty2(),
                  weights if weights is not None else np.zeros((0, 0), np.float64))


def pack(tables: Tables, state: State) -> np.ndarray:
    """``state`` as a state vector (the family's own words, if any, left zero: see the
    family's ``pack``)."""
    p = tables.params
    s = np.zeros(p[P_WIDTH], np.int64)
    s[S_TO_MOVE] = state.to_move
    s[S_KEY] = signed(state.key)
    size = p[P_SIZE]
    s[S_CELLS:S_CELLS + size] = state.cells
    if p[P_NFLAGS]:
        s[p[P_FLAGS]:p[P_FLAGS] + p[P_NFLAGS]] = state.flags
    if p[P_NCOUNTERS]:
        s[p[P_COUNTERS]:p[P_COUNTERS] + p[P_NCOUNTERS]] = state.counters
    kinds = p[P_HAND_KINDS]
    for player, hand in enumerate(state.hands):
        start = p[P_HANDS] + player * kinds
        s[start:start + kinds] = hand
    return s


def unpack(tables: Tables, s: np.ndarray, game: Game | None = None, history: tuple[int, ...] = ()) -> State:
    """The :class:`State` a state vector holds (``history`` is the caller's: the kernel
    keeps it apart)."""
    p = tables.params
    size = int(p[P_SIZE])
    words = s.tolist()
    flags = tuple(words[p[P_FLAGS]:p[P_FLAGS] + p[P_NFLAGS]])
    counters = tuple(words[p[P_COUNTERS]:p[P_COUNTERS] + p[P_NCOUNTERS]])
    kinds = int(p[P_HAND_KINDS])
    players = int(p[P_PLAYERS])
    hands = tuple(tuple(words[p[P_HANDS] + q * kinds:p[P_HANDS] + (q + 1) * kinds]) for q in range(players)) \
        if kinds else ()
    return State(tuple(words[S_CELLS:S_CELLS + size]), words[S_TO_MOVE], flags, counters, hands,
                 unsigned(words[S_KEY]), history, game)


def to_move_actions(rows: np.ndarray, count: int) -> Move:
    """The :class:`Move` of ``count`` action rows ``(kind, frm, to, piece, part)``."""
    return Move(Action(*row) for row in rows[:count].tolist())
