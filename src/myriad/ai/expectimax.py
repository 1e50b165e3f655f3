"""Expectimax with *-minimax pruning: max, min and chance nodes, generic over games.

A player node maximises the value of the root's mover (``me``) when ``me`` moves there and
minimises it when anybody else does, whatever the parent's mover was (extra turns, passes);
a chance node (:meth:`~myriad.core.game.Game.is_chance`) is the probability-weighted
average of its outcomes.  Player nodes are alpha-beta nodes (fail-soft windows, the
transposition table's move first, then the game's move heuristics); chance nodes prune by
Ballard's Star1: before searching an outcome, the window it must fall outside for the
whole average to leave ``(alpha, beta)`` is worked out from the outcomes already searched
and the bounds of the ones to come (values lie within ``[-1, 1]``, see
:mod:`myriad.ai.utility`), and the outcome is searched with that window only.

Depth counts player moves: chance nodes do not count, so a search to depth ``d`` looks
``d`` player moves ahead and averages every chance event between them and after the last
(a chance node is never a horizon).  Iterative deepening under ``time=``, ``depth=`` and
``nodes=``.  The table (``hash=`` megabytes) maps a position's key to the depth searched,
the bounds found and the best move; an entry answers only a search of the same depth
(deeper ones still order its moves), so a search to depth ``d`` returns exactly the
depth-``d`` expectimax value.

Invariant: ``_value(state, depth, alpha, beta)`` returns ``v`` with ``v <= alpha`` (the
value is at most ``v``), ``v >= beta`` (at least ``v``) or the exact value.
"""

from __future__ import annotations

from typing import Any

from myriad.ai.deepening import DeepeningSearch, ordered
from myriad.ai.utility import HIGHEST, LOWEST, evaluation_value, outcome_value
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

#: Bytes of a table entry until some are measured (key, depth, two bounds, a move).
ENTRY_GUESS = 300
#: A window wider than every value.
BELOW, ABOVE = LOWEST - 1.0, HIGHEST + 1.0


class Expectimax(DeepeningSearch):
    """Options: ``time``, ``depth``, ``nodes``, ``hash`` (megabytes of table, default 64),
    ``scale`` (the evaluation worth a 73% share, see :mod:`myriad.ai.utility`; default:
    the game's typical evaluation)."""

    name = "expectimax"
    max_players: int | None = 2
    chance = True

    entry_guess = ENTRY_GUESS

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        #: position key -> (depth, lower bound, upper bound, best move), for ``me``.
        self.table: dict[int, tuple[int, float, float, Move | None]] = {}
        self.me = -1

    def _prepare(self, state: State) -> None:
        if state.to_move != self.me:  # values are the mover's: another player's are useless
            self.table.clear()
            self.me = state.to_move

    def _start_value(self, state: State) -> float:
        return 0.0

    def _sure(self, value: float, mover: int) -> bool:
        return abs(value) >= HIGHEST  # a sure win or loss: no deeper search changes it

    def _score(self, value: float, mover: int) -> dict[str, Any]:
        return {"score": value}

    def _root(self, state: State, moves: list[Move], depth: int) -> tuple[float, Move]:
        """The value of ``state`` searched ``depth`` player moves deep, and the move to it."""
        game = self.game
        entry = self.table.get(state.key)
        best_value, best_move = BELOW, moves[0]
        for move in ordered(game, state, moves, entry[3] if entry else None):
            value = self._value(game.play(state, move), depth - 1, best_value, ABOVE)
            if value > best_value:
                best_value, best_move = value, move
                self.partial = (value, move)
                if value >= HIGHEST:
                    break
        self._store(state.key, depth, best_value, BELOW, ABOVE, best_move)
        return best_value, best_move

    def _value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """The value of ``state`` for ``me``, searched ``depth`` player moves deep."""
        self._tick()
        game = self.game
        if game.is_chance(state):
            return self._chance(state, depth, alpha, beta)
        moves = game.legal_moves(state)
        outcome = game.result(state, moves)
        if outcome is not None:
            return outcome_value(outcome, self.me)
        if depth <= 0:
            return evaluation_value(game, state, self.me, self.scale)
        key = state.key
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            searched, lower, upper, hint = entry
            if searched == depth:
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
                alpha, beta = max(alpha, lower), min(beta, upper)
        play = game.play
        best_move = None
        low, high = alpha, beta
        if state.to_move == self.me:
            best = BELOW
            for move in ordered(game, state, game.candidate_moves(state, moves), hint):
                value = self._value(play(state, move), depth - 1, low, high)
                if value > best:
                    best, best_move = value, move
                    if value > low:
                        low = value
                        if low >= high:
                            break
        else:
            best = ABOVE
            for move in ordered(game, state, game.candidate_moves(state, moves), hint):
                value = self._value(play(state, move), depth - 1, low, high)
                if value < best:
                    best, best_move = value, move
                    if value < high:
                        high = value
                        if low >= high:
                            break
        self._store(key, depth, best, alpha, beta, best_move)
        return best

    def _chance(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """Star1: the outcomes in turn, each searched with the window outside which the
        average certainly leaves ``(alpha, beta)``, whatever the outcomes still to come."""
        game = self.game
        total = 0.0  # probability-weighted values of the outcomes searched
        seen = 0.0   # their probability
        for move, p in game.chance_outcomes(state):
            rest = 1.0 - seen - p
            low = (alpha - total - HIGHEST * rest) / p
            high = (beta - total - LOWEST * rest) / p
            if low >= HIGHEST:
                return min(alpha, total + HIGHEST * (1.0 - seen))
            if high <= LOWEST:
                return max(beta, total + LOWEST * (1.0 - seen))
            value = self._value(game.play(state, move), depth, max(low, LOWEST), min(high, HIGHEST))
            if value <= low:
                return min(alpha, total + p * value + HIGHEST * rest)
            if value >= high:
                return max(beta, total + p * value + LOWEST * rest)
            total += p * value
            seen += p
        return total

    def _store(self, key: int, depth: int, value: float, alpha: float, beta: float, move: Move | None) -> None:
        """Keep what a search of ``depth`` with window ``(alpha, beta)`` found."""
        lower = value if value > alpha else LOWEST
        upper = value if value < beta else HIGHEST
        old = self.table.get(key)
        if old is None:
            self.budget.make_room(self.table)
        elif old[0] == depth:
            lower, upper = max(lower, old[1]), min(upper, old[2])
        self.table[key] = (depth, lower, upper, move)

