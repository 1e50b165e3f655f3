"""Immutable game states."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from myriad.core.game import Game


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
      first, for repetition rules;
    * ``game``     the game whose rules made it (``initial_state``, ``play``,
      ``parse_position``), or None: only for ``repr`` and ``str``, which then write the
      position in the game's notation (``<State chess 'rnbqkbnr/... w KQkq - 0 1'>``) and
      draw the board.

    States compare equal when everything but the history (and the game) is equal; the hash
    is the key.  A pickled state leaves its game behind.
    """

    __slots__ = ("cells", "to_move", "flags", "counters", "hands", "key", "history", "game")

    # Final: set once, in __init__.  Compiled (see setup.py), writing one raises
    # AttributeError; in plain Python mypy rejects it.
    cells: Final[tuple[int, ...]]
    to_move: Final[int]
    flags: Final[tuple[int, ...]]
    counters: Final[tuple[int, ...]]
    hands: Final[tuple[tuple[int, ...], ...]]
    key: Final[int]
    history: Final[tuple[int, ...]]
    game: Final[Game | None]

    def __init__(self, cells: tuple[int, ...], to_move: int, flags: tuple[int, ...] = (),
                 counters: tuple[int, ...] = (), hands: tuple[tuple[int, ...], ...] = (),
                 key: int = 0, history: tuple[int, ...] = (), game: Game | None = None) -> None:
        self.cells = cells
        self.to_move = to_move
        self.flags = flags
        self.counters = counters
        self.hands = hands
        self.key = key
        self.history = history
        self.game = game

    def __hash__(self) -> int:
        return hash(self.key)  # (the key is 64 bits: a hash must fit a signed machine word)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.key == other.key and self.cells == other.cells and self.to_move == other.to_move
                and self.flags == other.flags and self.hands == other.hands
                and self.counters == other.counters)

    def __repr__(self) -> str:
        """``<State chess 'rnbqkbnr/... w KQkq - 0 1'>`` when the state knows its game (the
        fields otherwise, or when the game cannot write the position)."""
        game = self.game
        if game is not None:
            try:
                return f"<State {game.id} {game.format_position(self)!r}>"
            except Exception:  # noqa: BLE001 - a repr never raises: the fields below instead
                pass
        return (f"State(to_move={self.to_move}, flags={self.flags}, counters={self.counters}, "
                f"hands={self.hands}, key={self.key:#018x})")

    def __str__(self) -> str:
        """The board drawn by the game (``game.render``), else the repr."""
        game = self.game
        if game is not None:
            try:
                return game.render(self)
            except Exception:  # noqa: BLE001 - str never raises: the repr instead
                pass
        return repr(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled without its game (a game is not data): the copy's repr shows the fields."""
        return (State, (self.cells, self.to_move, self.flags, self.counters, self.hands, self.key,
                        self.history))

    def repetitions(self) -> int:
        """How many times this position occurred before (same key in the history)."""
        return self.history.count(self.key)
