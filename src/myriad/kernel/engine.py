"""A game on the kernel, seen from Python: states and moves converted both ways, and the
compiled perft and playouts called once per request."""
from __future__ import annotations

from types import ModuleType

import numpy as np

from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State
from myriad.kernel import perft as kperft
from myriad.kernel import rules
from myriad.kernel.cache import compiling
from myriad.kernel.layout import (MAX_ACTIONS, P_MAX_MOVES, P_MOVE_WIDTH, P_PLAYERS, Tables, pack,
                                  to_move_actions, unpack)


class Kernel:
    """``game`` compiled into ``tables`` by the kernel family ``family``."""

    def __init__(self, game: Game, family: ModuleType, tables: Tables) -> None:
        self.game = game
        self.family = family
        self.tables = tables
        self.players = int(tables.params[P_PLAYERS])
        self._actions = np.empty((MAX_ACTIONS, 5), np.int64)

    def __repr__(self) -> str:
        return f"<Kernel {self.game.id} ({self.family.__name__.rsplit('.', 1)[-1]})>"

    # -- conversions ---------------------------------------------------------------------------

    def pack(self, state: State) -> np.ndarray:
        """``state`` as a state vector, the family's own words filled in."""
        s = pack(self.tables, state)
        self.family.prepare(self.tables, s)
        return s

    def unpack(self, s: np.ndarray, history: tuple[int, ...] = ()) -> State:
        """The state a state vector holds."""
        return unpack(self.tables, s, self.game, history)

    @staticmethod
    def history(state: State) -> np.ndarray:
        """``state.history`` as an array (keys as signed words; check marks stay -1)."""
        return np.array([k - (1 << 64) if k >= 1 << 63 else k for k in state.history], np.int64)

    def move_buffer(self) -> np.ndarray:
        """An empty buffer for one position's moves."""
        p = self.tables.params
        return np.empty((int(p[P_MAX_MOVES]), int(p[P_MOVE_WIDTH])), np.int64)

    def to_move(self, s: np.ndarray, row: np.ndarray) -> Move:
        """The reference :class:`Move` of kernel move ``row`` in state vector ``s``."""
        count = rules.actions(self.tables, s, row, self._actions)
        return to_move_actions(self._actions, count)

    # -- the loop --------------------------------------------------------------------------------

    def move_rows(self, state: State) -> tuple[np.ndarray, np.ndarray, int]:
        """The state vector of ``state``, its move buffer and the number of legal moves."""
        s = self.pack(state)
        hist = self.history(state)
        moves = self.move_buffer()
        with compiling(rules.gen, "move generator"):
            count = rules.gen(self.tables, s, hist, len(hist), moves)
        return s, moves, int(count)

    def legal_moves(self, state: State) -> list[Move]:
        """The legal moves, as the reference lists them (maybe in another order)."""
        s, moves, count = self.move_rows(state)
        return [self.to_move(s, moves[i]) for i in range(count)]

    def play(self, state: State, move: Move) -> State:
        """The state after ``move`` (a legal move), played by the kernel."""
        s, moves, count = self.move_rows(state)
        for i in range(count):
            if self.to_move(s, moves[i]) == move:
                dst = np.empty_like(s)
                bits = rules.play(self.tables, s, moves[i], dst)
                history = () if bits & 1 else state.history + (
                    (state.key, -1) if bits & 2 else (state.key,))
                return self.unpack(dst, history)
        raise ValueError(f"{move!r} is not a legal move here")

    def winners(self, state: State) -> int:
        """-1 while ``state``'s game goes on, else the bit set of its winners."""
        s, moves, count = self.move_rows(state)
        hist = self.history(state)
        return int(rules.outcome(self.tables, s, hist, len(hist), count))

    def evaluate(self, state: State) -> float:
        """The kernel's evaluation of ``state`` (for the side to move)."""
        return float(rules.evaluate(self.tables, self.pack(state)))

    # -- in bulk -----------------------------------------------------------------------------------

    def perft(self, state: State, depth: int) -> int:
        """Move sequences of ``depth`` plies from ``state``, counted in one compiled call."""
        hist = self.history(state)
        with compiling(kperft.perft, "perft"):
            return int(kperft.perft(self.tables, self.pack(state), hist, len(hist), depth))

    def playouts(self, state: State, games: int, max_plies: int = 1000, seed: int = 0) -> tuple[list[float], int]:
        """Uniformly random games from ``state``: the players' summed scores and the plies
        played, in one compiled call."""
        hist = self.history(state)
        scores = np.zeros(self.players, np.float64)
        with compiling(kperft.playouts, "random playouts"):
            plies = kperft.playouts(self.tables, self.pack(state), hist, len(hist), games, max_plies, seed, scores)
        return scores.tolist(), int(plies)
