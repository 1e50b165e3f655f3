"""What the table searches for any turn structure share (:mod:`myriad.ai.maxn`,
:mod:`myriad.ai.expectimax` and :mod:`myriad.ai.paranoid`): a table bounded by ``hash=``,
node and clock limits, move ordering, the iterative-deepening driver and the expected line.

A subclass gives ``_root(state, moves, depth) -> (value, move)`` (setting ``partial`` as
better root moves are found), ``_sure(value, mover)`` (no deeper search can change it),
``_start_value(state)`` (the value reported when there is one move) and ``_score(value,
mover)``; its table entries end with their best move.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from myriad.ai.bot import LIMIT_OPTIONS, Allowed, Bot, Decision, Limits, SearchTimeout, collection_reserve, gc_paused
from myriad.ai.budget import HASH, hash_bytes
from myriad.ai.utility import scale_option
from myriad.core.caches import ByteBudget
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

#: The deepest iteration when no depth is given (a clock or node limit ends it sooner).
MAX_DEPTH = 64
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


class DeepeningSearch(Bot):
    """Options: ``time``, ``depth``, ``nodes``, ``hash`` (megabytes of table, default 64),
    ``scale`` (the evaluation worth a 73% share, see :mod:`myriad.ai.utility`; default: the
    game's typical evaluation)."""

    OPTIONS: ClassVar[dict[str, Allowed]] = {**LIMIT_OPTIONS, "hash": HASH, "scale": (float, 0.001, 10**9)}
    #: Bytes of a table entry until some are measured.
    entry_guess = 300

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.hash_bytes = hash_bytes(options, self.name)
        self.budget = ByteBudget(self.hash_bytes, self.entry_guess)
        self.scale = scale_option(options, game, self.name)
        #: position key -> (depth, ..., best move): what each search keeps.
        self.table: dict[int, Any] = {}
        self.nodes = 0
        self.deadline: float | None = None
        self.node_limit: int | None = None
        #: The best root move of the iteration under way and its value, once one is known.
        self.partial: tuple[Any, Move] | None = None

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
        self._prepare(state)
        self.budget.refit(self.table)
        start = time.monotonic()
        self.nodes = 0
        self.deadline, self.node_limit = limits.deadline, limits.nodes
        mover = state.to_move
        moves = ordered(game, state, game.candidate_moves(state, moves), None)  # (the first answers if time runs out)
        best, value, depth, done = moves[0], self._start_value(state), 0, True
        if len(moves) > 1:
            for target in range(1, (limits.depth or MAX_DEPTH) + 1):
                self.partial = None
                try:
                    value, best = self._root(state, moves, target)
                except SearchTimeout:
                    if self.partial is not None:
                        value, best = self.partial
                    done = False
                    break
                depth = target
                if self._sure(value, mover):
                    break
        return Decision(best, done, {"bot": self.name, "depth": depth, "nodes": self.nodes,
                                     **self._score(value, mover), "pv": self._pv(state, best),
                                     "seconds": time.monotonic() - start})

    def _prepare(self, state: State) -> None:
        """Before a search from ``state`` (e.g. forget values kept for another player)."""

    def _start_value(self, state: State) -> Any:
        raise NotImplementedError

    def _root(self, state: State, moves: list[Move], depth: int) -> tuple[Any, Move]:
        raise NotImplementedError

    def _sure(self, value: Any, mover: int) -> bool:
        raise NotImplementedError

    def _score(self, value: Any, mover: int) -> dict[str, Any]:
        raise NotImplementedError

    def _tick(self) -> None:
        """Count a node; raise ``SearchTimeout`` when the node budget or the clock is spent."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchTimeout
        if self.deadline is not None and not self.nodes & CLOCK_MASK and time.monotonic() >= self.deadline:
            raise SearchTimeout

    def _pv(self, state: State, move: Move) -> list[Move]:
        """The expected line: the move, then the table's moves while players move."""
        game = self.game
        line = [move]
        state = game.play(state, move)
        while len(line) < MAX_DEPTH and not game.is_chance(state):
            entry = self.table.get(state.key)
            if entry is None or entry[-1] is None:
                break
            line.append(entry[-1])
            state = game.play(state, entry[-1])
        return line
