"""Zobrist keys inside the kernel: the same words as :mod:`myriad.core.zobrist`, computed
with unsigned 64-bit arithmetic and kept as signed ``int64`` in state vectors."""
from __future__ import annotations

import numpy as np

from myriad.kernel import cache as _cache  # noqa: F401 - numba's cache folder, set before numba loads
from numba import njit

from myriad.kernel.families import BOARD_KEY
from myriad.kernel.layout import P_FLAGS, P_HAND_KINDS, P_HANDS, P_NFLAGS, P_PLAYERS, P_SEED, S_CELLS, S_KEY, S_TO_MOVE

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
_LOW48 = np.uint64(0xFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def mix64(x: np.uint64) -> np.uint64:
    """SplitMix64's finaliser (:func:`myriad.core.zobrist.mix64`)."""
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * _MUL1
    x = (x ^ (x >> np.uint64(27))) * _MUL2
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def flag_key(params: np.ndarray, index: int, value: int) -> np.int64:
    """The key of flag ``index`` holding ``value`` (:meth:`Zobrist.flag`)."""
    if value == 0:
        return np.int64(0)
    seed = np.uint64(params[P_SEED])
    word = mix64(seed ^ np.uint64(0xF1A6) ^ (np.uint64(index) << np.uint64(48)) ^ (np.uint64(value) & _LOW48))
    return np.int64(word)


@njit(cache=True)
def hand_key(params: np.ndarray, player: int, kind: int, count: int) -> np.int64:
    """The key of ``count`` pieces of ``kind`` in ``player``'s hand (:meth:`Zobrist.hands_key`)."""
    if count == 0:
        return np.int64(0)
    seed = np.uint64(params[P_SEED])
    word = mix64(seed ^ np.uint64(0x4A4D) ^ (np.uint64(player) << np.uint64(56))
                 ^ (np.uint64(kind) << np.uint64(40)) ^ np.uint64(count))
    return np.int64(word)


@njit(cache=True)
def full_key(params: np.ndarray, zobrist: np.ndarray, side: np.ndarray, s: np.ndarray, values: int,
             size: int) -> np.int64:
    """The key of state vector ``s`` computed from scratch (:meth:`Zobrist.key`)."""
    key = np.int64(0)
    for pos in range(size):
        v = s[S_CELLS + pos]
        if v != 0:
            key ^= zobrist[pos * values + v]
    key ^= side[s[0]]
    start = params[P_FLAGS]
    for i in range(params[P_NFLAGS]):
        key ^= flag_key(params, i, s[start + i])
    kinds = params[P_HAND_KINDS]
    for player in range(params[P_PLAYERS]):
        for k in range(kinds):
            key ^= hand_key(params, player, k, s[params[P_HANDS] + player * kinds + k])
    return key


@njit(cache=True)
def history_key(t, s, bits):
    """The word the history keeps for state vector ``s`` left by a move whose ``play``
    returned ``bits``: its key, or its board's key (:data:`BOARD_KEY`)."""
    if bits & BOARD_KEY:
        return s[S_KEY] ^ t.side[s[S_TO_MOVE]]
    return s[S_KEY]
