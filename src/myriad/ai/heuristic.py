"""The heuristic bot: one ply of look-ahead, the game's knowledge, some noise.

It takes a move that wins at once, never plays a move after which another player wins at
once (when another move exists), and otherwise picks the move whose resulting position
the game's evaluation likes best for the mover, plus the move heuristic and uniform noise
(``noise=10`` adds up to 10 points).  Any number of players, extra turns and chance: each
move is scored for the player who makes it (``evaluate_for``), whoever moves next; a move
that hands the turn to chance is scored by the expectation over chance's outcomes.  It
keeps nothing between moves (``hash=`` is accepted, checked and has nothing to bound).
"""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

from myriad.ai.alphabeta import WIN, terminal_score
from myriad.ai.bot import SEED, Allowed, Bot, Decision, Limits
from myriad.ai.budget import HASH, hash_bytes
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State


class HeuristicBot(Bot):
    """Greedy one-ply bot with a safety check against immediate losses."""

    name = "heuristic"
    OPTIONS: ClassVar[dict[str, Allowed]] = {"noise": (float, 0, 10**6), "seed": SEED, "hash": HASH}
    max_players = None
    chance = True
    hidden = True  # (plays from the observation: its legal moves are the whole state's)

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.noise = float(options.get("noise", 1))
        self.rng = random.Random(options.get("seed"))
        self.hash_bytes = hash_bytes(options, self.name)

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        game = self.game
        me = state.to_move
        deadline = self.limits(limits).deadline
        moves = game.legal_moves(state)
        if not moves:
            raise ValueError(f"{game.id}: no legal move to choose from")
        moves = game.candidate_moves(state, moves)
        scored: list[tuple[float, Move]] = []
        safe: list[tuple[float, Move]] = []
        for move in moves:
            child = game.play(state, move)
            child_moves = game.legal_moves(child)
            outcome = game.result(child, child_moves)
            if outcome is not None:
                value = terminal_score(outcome, me, 1)
                if value > 0:
                    return Decision(move, True, {"bot": self.name, "score": value, "depth": 1})
                score = float(value)
            else:
                score = self.value(child, me) + game.move_heuristic(state, move)
            score += self.rng.uniform(0, self.noise)
            scored.append((score, move))
            if deadline is not None and time.monotonic() > deadline - 0.02:
                continue  # no time left to check safety: judge the rest on their score
            if outcome is None and not self._another_wins_at_once(child, child_moves, me):
                safe.append((score, move))
        pool = safe or scored
        score, move = max(pool, key=lambda sm: sm[0])
        return Decision(move, True, {"bot": self.name, "score": score, "depth": 1,
                                     "nodes": len(moves)})

    def value(self, state: State, player: int) -> float:
        """The worth of the unfinished ``state`` for ``player``: its evaluation for
        ``player``, or at a chance node the expectation over chance's outcomes (a finished
        game scored as a search scores it, one ply on)."""
        game = self.game
        if not game.is_chance(state):
            return game.evaluate_for(state, player)
        total = 0.0
        for move, probability in game.chance_outcomes(state):
            after = game.play(state, move)
            outcome = game.outcome(after)
            worth = terminal_score(outcome, player, 2) if outcome is not None else game.evaluate_for(after, player)
            total += probability * worth
        return total

    def _another_wins_at_once(self, state: State, moves: list[Move], me: int) -> bool:
        """Whether the player to move in ``state``, another player than ``me`` (not
        chance), has a move that ends the game with ``me`` beaten."""
        game = self.game
        if state.to_move == me or game.is_chance(state):
            return False
        for reply in moves:
            outcome = game.outcome(game.play(state, reply))
            if outcome is not None and terminal_score(outcome, me, 0) == -WIN:
                return True
        return False
