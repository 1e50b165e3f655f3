"""Information-set MCTS (single observer, Cowling, Powley and Whitehouse 2012).

One tree over the searching player's information set: each iteration draws a whole state
behind the observation (``game.determinize``), descends the tree choosing only among moves
legal in that state (UCB with availability counts: a child is scored against the number of
times it could have been chosen, not its parent's visits), adds one move, plays random
moves for ``cutoff`` plies (``playout=random``, the default; ``playout=heuristic``: the
move the game's move heuristic likes best, captures of the most valuable pieces first,
random ties: weaker in dark chess, 0 of 20 games against ``heuristic``) and scores the end by each player's evaluation squashed to a
share.  The root's moves are the observer's, the same in every sample; the most visited is
played.  Seeded by the bot's seed and the observation: with ``playouts=`` (not time) one
observation always gives the same move.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, ClassVar

from myriad.ai.bot import SEED, TIME, Allowed, Bot, Decision, Limits
from myriad.ai.utility import outcome_shares, shares_of
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

#: Random plies played after the tree before the evaluation scores a playout.
DEFAULT_CUTOFF = 8


class _Node:
    """A move in the information set tree: who made it, its wins and visits, and how often
    it was available (legal in the sampled state) when its parent was passed."""

    __slots__ = ("move", "mover", "children", "visits", "wins", "available")

    def __init__(self, move: Move | None, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.wins = 0.0
        self.available = 0


class ISMCTS(Bot):
    """SO-ISMCTS (``ismcts:time=1``, ``playouts=``, ``c=0.7``, ``cutoff=8``, ``playout=``, ``seed=``)."""

    name = "ismcts"
    OPTIONS: ClassVar[dict[str, Allowed]] = {
        "time": TIME, "playouts": (int, 1, 10**9), "c": (float, 0, 100), "cutoff": (int, 0, 10**6),
        "playout": frozenset({"random", "heuristic"}), "seed": SEED}
    chance = False
    hidden = True

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.playouts = int(options.get("playouts", 0)) or None
        self.c = float(options.get("c", 0.7))
        self.cutoff = int(options.get("cutoff", DEFAULT_CUTOFF))
        self.seed = int(options.get("seed", 0))
        self.heuristic_playouts = options.get("playout", "random") == "heuristic"
        self.full = game.full_view()
        self.rng = random.Random()
        self.typical = 0.0

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        game = self.game
        limits = self.limits(limits)
        if limits.deadline is None and self.playouts is None and limits.nodes is None:
            limits = limits.tighter(Limits.of(1.0))
        moves = game.legal_moves(state)
        if not moves:
            raise ValueError(f"{game.id}: no legal move to choose from")
        start = time.monotonic()
        if len(moves) == 1:
            return Decision(moves[0], True, {"bot": self.name, "nodes": 0, "depth": 0})
        self.rng = random.Random(self.seed * 1_000_003 + state.key)
        self.typical = 0.0
        player = state.to_move
        root = _Node(None, 1 - player)
        budget = self.playouts or limits.nodes
        done = 0
        while True:
            self._iterate(root, game.determinize(state, player, self.rng))
            done += 1
            if budget is not None and done >= budget:
                break
            if limits.deadline is not None and time.monotonic() >= limits.deadline:
                break
        legal = set(moves)
        best = max((ch for ch in root.children.values() if ch.move in legal),
                   key=lambda ch: (ch.visits, ch.wins))
        return Decision(best.move, True, {  # type: ignore[arg-type]
            "bot": self.name, "nodes": done, "depth": 1,
            "score": round(best.wins / max(1, best.visits), 3), "seconds": time.monotonic() - start})

    def _iterate(self, root: _Node, state: State) -> None:
        game, rng, c = self.full, self.rng, self.c
        node, path = root, [root]
        while True:
            moves = game.legal_moves(state)
            if game.result(state, moves) is not None:
                break
            children = node.children
            untried = [m for m in moves if m not in children]
            available = [children[m] for m in moves if m in children]
            for child in available:
                child.available += 1
            if untried:
                move = rng.choice(untried)
                child = children[move] = _Node(move, state.to_move)
                child.available = 1
                path.append(child)
                state = game.play(state, move)
                break
            best, best_value = available[0], -1.0
            for child in available:
                value = child.wins / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                if value > best_value:
                    best, best_value = child, value
            node = best
            path.append(node)
            state = game.play(state, node.move)  # type: ignore[arg-type]
        shares = self._playout(state)
        for n in path[1:]:
            n.visits += 1
            n.wins += shares[n.mover]

    def _playout(self, state: State) -> tuple[float, ...]:
        game, rng = self.full, self.rng
        for _ in range(self.cutoff):
            moves = game.legal_moves(state)
            outcome = game.result(state, moves)
            if outcome is not None:
                return outcome_shares(outcome)
            if self.heuristic_playouts:
                scores = game.move_heuristics(state, moves)
                move = moves[max(range(len(moves)), key=lambda i: scores[i] + rng.random())]
            else:
                move = rng.choice(moves)
            state = game.play(state, move)
        moves = game.legal_moves(state)
        outcome = game.result(state, moves)
        if outcome is not None:
            return outcome_shares(outcome)
        values = [game.evaluate_for(state, p) for p in range(game.players)]
        size = max(abs(v) for v in values)
        self.typical += (size - self.typical) * 0.01
        return shares_of(values, max(1e-9, self.typical, size / 10))
