"""Immutable game states."""

from __future__ import annotations

from typing import Final


class State:
    """A position: board cells, side to move, flags, counters, hands, key and history.

    * ``cells``    tuple of ints, one per position (0 = empty, else a piece code or a count);
    * ``to_move``  the player whose turn it is;
    * ``flags``    ints that change which moves are legal (castling rights, en-passant
      square, ...): part of the Zobrist key;
    * ``counters`` ints that do not (half-move clock, move number, passes in a row);
    * ``hands``    pieces in hand per player, a count per piece kind (drop games);
    * ``key``      the Zobrist key of cells, side, flags and hands;
    * ``history``  keys of the earlier positions since the last irreversible move, oldest
      first, for repetition rules.

    States compare equal when everything but the history is equal; the hash is the key.
    """

    __slots__ = ("cells", "to_move", "flags", "counters", "hands", "key", "history")

    # Final: set once, in __init__.  Compiled (see setup.py), writing one raises
    # AttributeError; in plain Python mypy rejects it.
    cells: Final[tuple[int, ...]]
    to_move: Final[int]
    flags: Final[tuple[int, ...]]
    counters: Final[tuple[int, ...]]
    hands: Final[tuple[tuple[int, ...], ...]]
    key: Final[int]
    history: Final[tuple[int, ...]]

    def __init__(self, cells: tuple[int, ...], to_move: int, flags: tuple[int, ...] = (),
                 counters: tuple[int, ...] = (), hands: tuple[tuple[int, ...], ...] = (),
                 key: int = 0, history: tuple[int, ...] = ()) -> None:
        self.cells = cells
        self.to_move = to_move
        self.flags = flags
        self.counters = counters
        self.hands = hands
        self.key = key
        self.history = history

    def __hash__(self) -> int:
        return hash(self.key)  # (the key is 64 bits: a hash must fit a signed machine word)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.key == other.key and self.cells == other.cells and self.to_move == other.to_move
                and self.flags == other.flags and self.hands == other.hands
                and self.counters == other.counters)

    def __repr__(self) -> str:
        return (f"State(to_move={self.to_move}, flags={self.flags}, counters={self.counters}, "
                f"hands={self.hands}, key={self.key:#018x})")

    def repetitions(self) -> int:
        """How many times this position occurred before (same key in the history)."""
        return self.history.count(self.key)
