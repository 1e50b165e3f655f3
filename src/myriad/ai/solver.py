"""An exact solver for small games: alpha-beta over the game values win/draw/loss with a
transposition table of bounds, searched to the end of the game.  A node budget or a
deadline ends a search that would take too long (``SearchTimeout``).

``Solver.solve(state)`` is the game-theoretic value for the side to move: 1 win, 0 draw,
-1 loss, or, given ``final_score`` (a finished game's score for a player, such as
Kalah's final store difference), the best such score the side to move can force, found
by null-window searches converging on it (MTD(f)) and pruned by ``score_bounds`` (the
least and most a player can still finish with) when given.  As a
bot it plays a move that keeps the best value.  A child is valued from the side that
moves there: negated only when the side to move changes (an extra turn keeps it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from myriad.ai.alphabeta import terminal_score
from myriad.ai.bot import LIMIT_OPTIONS, Allowed, Bot, Decision, Limits, SearchTimeout
from myriad.ai.budget import HASH, hash_bytes
from myriad.core.caches import ByteBudget
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

EXACT, LOWER, UPPER = 0, 1, 2
#: Beyond any final score (a window without bounds).
INFINITE = 1 << 60
#: Bytes of a table entry until some are measured (key, flag and value: about 170).
ENTRY_GUESS = 200


class Solver(Bot):
    """Proves the value of positions by exhaustive alpha-beta (options: ``nodes``, ``time``,
    ``hash``: megabytes of table, default 64; the oldest entries go first).  From Python,
    ``final_score(state, player)`` scores finished games (default: 1, 0, -1 by the
    outcome) and ``score_bounds(state, player)`` bounds them in unfinished games."""

    name = "solver"
    OPTIONS: ClassVar[dict[str, Allowed]] = {**LIMIT_OPTIONS, "hash": HASH}
    max_players = 2
    chance = False

    def __init__(self, game: Game, final_score: Callable[[State, int], int] | None = None,
                 score_bounds: Callable[[State, int], tuple[int, int]] | None = None, **options: Any) -> None:
        super().__init__(game, **options)
        for name, function in (("final_score", final_score), ("score_bounds", score_bounds)):
            if function is not None and not callable(function):
                raise TypeError(f"solver: {name} must be a function of (state, player), not {function!r}")
        if score_bounds is not None and final_score is None:
            raise TypeError("solver: score_bounds bound final scores: give final_score too")
        self.final_score = final_score
        self.score_bounds = score_bounds
        #: The bounds of every value: a win and a loss, or no bounds for other scores.
        self.top = 1 if final_score is None else INFINITE
        self.table: dict[int, tuple[int, int]] = {}
        self.hash_bytes = hash_bytes(options, self.name)
        self.budget = ByteBudget(self.hash_bytes, ENTRY_GUESS)
        self.nodes = 0
        self.node_limit: int | None = None
        self.deadline: float | None = None

    def solve(self, state: State, limits: Limits = Limits()) -> int:
        """The value of ``state`` for the side to move: 1, 0 or -1 (or its final score)."""
        self._start(limits)
        if self.final_score is None:
            return self._value(state, -self.top, self.top)
        lower, upper, value = -self.top, self.top, 0
        while lower < upper:  # MTD(f): each null window halves what the value may be
            beta = value + 1 if value == lower else value
            value = self._value(state, beta - 1, beta)
            if value < beta:
                upper = value
            else:
                lower = value
        return value

    def _start(self, limits: Limits) -> None:
        limits = self.limits(limits)
        self.node_limit, self.deadline = limits.nodes, limits.deadline

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        self._start(limits)
        moves = self.game.legal_moves(state)
        if not moves:
            raise ValueError(f"{self.game.id}: no legal move to choose from")
        self.nodes = 0
        best: tuple[int, Move] | None = None
        for move in sorted(moves, key=lambda m: self.game.move_heuristic(state, m), reverse=True):
            child = self.game.play(state, move)
            value = self._signed(child, state.to_move, -self.top if best is None else best[0], self.top)
            if best is None or value > best[0]:
                best = (value, move)
                if value >= self.top:
                    break
        assert best is not None
        return Decision(best[1], True, {"bot": self.name, "score": best[0], "nodes": self.nodes,
                                        "depth": None, "pv": [best[1]]})

    def _signed(self, state: State, player: int, alpha: int, beta: int) -> int:
        """The value of ``state`` for ``player`` (who may or may not be to move)."""
        if state.to_move == player:
            return self._value(state, alpha, beta)
        return -self._value(state, -beta, -alpha)

    def _value(self, state: State, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchTimeout
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise SearchTimeout
        game = self.game
        moves = game.legal_moves(state)
        outcome = game.result(state, moves)
        if outcome is not None:
            if self.final_score is not None:
                return self.final_score(state, state.to_move)
            score = terminal_score(outcome, state.to_move, 0)
            return (score > 0) - (score < 0)
        if self.score_bounds is not None:
            least, most = self.score_bounds(state, state.to_move)
            if most <= alpha:
                return most
            if least >= beta:
                return least
        entry = self.table.get(state.key)
        if entry is not None:
            flag, value = entry
            if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                return value
        alpha_start = alpha
        best = -self.top - 1
        me = state.to_move
        for move in sorted(moves, key=lambda m: game.move_heuristic(state, m), reverse=True):
            value = self._signed(game.play(state, move), me, alpha, beta)
            if value > best:
                best = value
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        flag = UPPER if best <= alpha_start else LOWER if best >= beta else EXACT
        if state.key not in self.table:
            self.budget.make_room(self.table)
        self.table[state.key] = (flag, best)
        return best
