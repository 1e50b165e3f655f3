"""Zobrist keys: one random 64-bit word per (cell, content), side, flag and hand entry.

Keys come from a fixed-seed generator, so a position has the same key in every process
(books and transposition tables can be saved).
"""

from __future__ import annotations

from collections.abc import Sequence

MASK64 = (1 << 64) - 1


def mix64(x: int) -> int:
    """SplitMix64 finaliser: a well-spread 64-bit word for any integer."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


class Zobrist:
    """Key tables for a board of ``size`` cells holding values ``0..values-1``."""

    def __init__(self, size: int, values: int, players: int, seed: int = 0x6D797269616421) -> None:
        self.size = size
        self.values = values
        self.cell = tuple(
            0 if v == 0 else mix64(seed ^ (pos * values + v) * 0x100000001B3)
            for pos in range(size) for v in range(values))
        self.side = tuple(0 if p == 0 else mix64(seed ^ 0xA5A5 ^ p << 40) for p in range(players))
        self.seed = seed

    def cells_key(self, cells: Sequence[int]) -> int:
        """The key of a whole board."""
        values, table, key = self.values, self.cell, 0
        for pos, v in enumerate(cells):
            if v:
                key ^= table[pos * values + v]
        return key

    def flag(self, index: int, value: int) -> int:
        """The key of flag ``index`` holding ``value`` (0 for value 0)."""
        return mix64(self.seed ^ 0xF1A6 ^ (index << 48) ^ (value & 0xFFFFFFFFFFFF)) if value else 0

    def flags_key(self, flags: Sequence[int]) -> int:
        """The key of a flag tuple."""
        key = 0
        for i, v in enumerate(flags):
            if v:
                key ^= self.flag(i, v)
        return key

    def hands_key(self, hands: Sequence[Sequence[int]]) -> int:
        """The key of the pieces in hand: a word per (player, kind, count)."""
        key = 0
        for p, hand in enumerate(hands):
            for k, n in enumerate(hand):
                if n:
                    key ^= mix64(self.seed ^ 0x4A4D ^ (p << 56) ^ (k << 40) ^ n)
        return key

    def key(self, cells: Sequence[int], to_move: int, flags: Sequence[int] = (),
            hands: Sequence[Sequence[int]] = ()) -> int:
        """The key of a position, computed from scratch."""
        return self.cells_key(cells) ^ self.side[to_move] ^ self.flags_key(flags) ^ self.hands_key(hands)


class HashedZobrist(Zobrist):
    """Zobrist keys for cells whose values have no small bound (columns of pieces): the key
    of (cell, value) is computed by hashing, not read from a table.  Values must be below
    2**56; each (cell, value) pair maps to its own key (``mix64`` is a bijection on words)."""

    def __init__(self, size: int, players: int, seed: int = 0x6D797269616421) -> None:
        super().__init__(size, 1, players, seed)
        self.values = 0

    def cell_key(self, pos: int, value: int) -> int:
        """The key of ``value`` standing on cell ``pos`` (0 for an empty cell)."""
        return mix64(self.seed ^ ((pos << 56) | value)) if value else 0

    def cells_key(self, cells: Sequence[int]) -> int:
        key = 0
        for pos, v in enumerate(cells):
            if v:
                key ^= self.cell_key(pos, v)
        return key
