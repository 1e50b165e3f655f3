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

import time
from typing import Any

from myriad.ai.bot import Bot, Decision, Limits, SearchTimeout, collection_reserve, gc_paused
from myriad.ai.budget import hash_bytes
from myriad.ai.utility import HIGHEST, LOWEST, evaluation_value, outcome_value, scale_option
from myriad.core.caches import ByteBudget
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

#: The deepest iteration when no depth is given (a clock or node limit ends it sooner).
MAX_DEPTH = 64
#: Bytes of a table entry until some are measured (key, depth, two bounds, a move).
ENTRY_GUESS = 300
#: A window wider than every value.
BELOW, ABOVE = LOWEST - 1.0, HIGHEST + 1.0
#: The clock is read once every this many nodes (a power of two, less one).
CLOCK_MASK = 63


def ordered(game: Game, state: State, moves: list[Move], first: Move | None) -> list[Move]:
    """``moves`` best first by the game's move heuristics, ``first`` (a table's move) ahead."""
    if len(moves) > 1:
        scores = game.move_heuristics(state, moves)
        moves = [moves[i] for i in sorted(range(len(moves)), key=scores.__getitem__, reverse=True)]
    if first is not None and len(moves) > 1:
        for i, move in enumerate(moves):
            if move == first:
                if i:
                    moves = [move, *moves[:i], *moves[i + 1:]]
                break
    return moves


class Expectimax(Bot):
    """Options: ``time``, ``depth``, ``nodes``, ``hash`` (megabytes of table, default 64),
    ``scale`` (the evaluation worth a 73% share, see :mod:`myriad.ai.utility`; default:
    the game's typical evaluation)."""

    name = "expectimax"
    max_players: int | None = 2
    chance = True

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.hash_bytes = hash_bytes(options, self.name)
        self.budget = ByteBudget(self.hash_bytes, ENTRY_GUESS)
        self.scale = scale_option(options, game, self.name)
        #: position key -> (depth, lower bound, upper bound, best move), for ``me``.
        self.table: dict[int, tuple[int, float, float, Move | None]] = {}
        self.me = -1
        self.nodes = 0
        self.deadline: float | None = None
        self.node_limit: int | None = None
        #: The best root move of the iteration under way and its value, once one is known.
        self.partial: tuple[float, Move] | None = None

    def reset(self) -> None:
        self.table.clear()

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        with gc_paused():
            return self._choose(state, limits)

    def _choose(self, state: State, limits: Limits) -> Decision:
        limits = self.limits(limits)
        remaining = limits.remaining()
        if remaining is not None and limits.deadline is not None:
            limits = Limits(limits.deadline - collection_reserve(remaining), limits.depth, limits.nodes)
        game = self.game
        moves = [] if game.is_chance(state) else game.legal_moves(state)
        if not moves or game.result(state, moves) is not None:
            raise ValueError(f"{game.id}: no legal move to choose from")
        if state.to_move != self.me:  # values are the mover's: another player's are useless
            self.table.clear()
            self.me = state.to_move
        self.budget.refit(self.table)
        start = time.monotonic()
        self.nodes = 0
        self.deadline, self.node_limit = limits.deadline, limits.nodes
        moves = game.candidate_moves(state, moves)
        moves = ordered(game, state, moves, None)  # (the first is the answer if time runs out at once)
        best, score, depth, done = moves[0], 0.0, 0, True
        if len(moves) > 1:
            for target in range(1, (limits.depth or MAX_DEPTH) + 1):
                self.partial = None
                try:
                    score, best = self._root(state, moves, target)
                except SearchTimeout:
                    if self.partial is not None:
                        score, best = self.partial
                    done = False
                    break
                depth = target
                if abs(score) >= HIGHEST:  # a sure win or loss: no deeper search changes it
                    break
        return Decision(best, done, {"bot": self.name, "depth": depth, "nodes": self.nodes,
                                     "score": score, "pv": self._pv(state, best),
                                     "seconds": time.monotonic() - start})

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

    def _tick(self) -> None:
        """Count a node; raise ``SearchTimeout`` when the node budget or the clock is spent."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchTimeout
        if self.deadline is not None and not self.nodes & CLOCK_MASK and time.monotonic() >= self.deadline:
            raise SearchTimeout

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

    def _pv(self, state: State, move: Move) -> list[Move]:
        """The expected line: the move, then the table's moves while players move."""
        game = self.game
        line = [move]
        state = game.play(state, move)
        while len(line) < MAX_DEPTH and not game.is_chance(state):
            entry = self.table.get(state.key)
            if entry is None or entry[3] is None:
                break
            line.append(entry[3])
            state = game.play(state, entry[3])
        return line
