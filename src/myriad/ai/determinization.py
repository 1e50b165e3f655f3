"""Determinization ("the shadow board"): search whole states sampled behind an observation.

For a game with hidden information the bot is given an observation only.  It draws
``samples`` whole states consistent with it (``game.determinize``, seeded by the bot's seed
and the observation, so one observation always gives the same samples), searches each with
an ordinary searcher (``bot=alphabeta`` by default, ``expectimax`` in a game with chance
such as fox hunt; run on ``game.full_view()``, the same rules in the open) under an equal share of the limits, and plays the move most samples
chose (ties: the higher total score, then the first in move order).  In a game of perfect
information (BanQi, whose face-down pieces have no identity) the one sample is the state
itself.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any, ClassVar

from myriad.ai.bot import LIMIT_OPTIONS, SEED, Allowed, Bot, Decision, Limits
from myriad.ai.budget import HASH
from myriad.core.game import Game
from myriad.core.state import State

#: Samples searched by default (at 0.5 s a move in dark chess, 4 deeper searches beat 8 shallower
#: ones against heuristic: 81% of 40 games against 75% of 20, see the README).
DEFAULT_SAMPLES = 4
#: The most samples a spec may ask for.
MAX_SAMPLES = 256
#: Bots that may search the samples (whole states; ``expectimax`` and ``mcts`` where chance
#: is left in them, as fox hunt's hiding before its first shot).
INNER = ("alphabeta", "expectimax", "mcts", "heuristic", "random")


class Determinization(Bot):
    """Votes over searches of sampled whole states (``determinize:bot=alphabeta,samples=8``)."""

    name = "determinize"
    OPTIONS: ClassVar[dict[str, Allowed]] = {
        "bot": frozenset(INNER), "samples": (int, 1, MAX_SAMPLES), **LIMIT_OPTIONS, "seed": SEED, "hash": HASH}
    chance = True  # (chance left in a sample is the inner searcher's: see __init__)
    hidden = True

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        from myriad.ai import BOTS, make_bot  # (the registry, above this module)
        full = game.full_view()
        inner = options.get("bot") or next((b for b in ("alphabeta", "expectimax", "mcts") if BOTS[b].plays(full)), "random")
        if not BOTS[inner].plays(full):
            raise ValueError(f"determinize: {BOTS[inner].refusal(full)}")
        # (a game that hides nothing has one sample: the observation itself)
        self.samples = int(options.get("samples", DEFAULT_SAMPLES)) if game.hidden_information else 1
        self.seed = int(options.get("seed", 0))
        extra = f":hash={options['hash']}" if "hash" in options and inner in ("alphabeta", "expectimax", "mcts") else ""
        seed = f"{':' if not extra else ','}seed={self.seed}" if inner in ("mcts", "random", "heuristic") else ""
        self.inner = make_bot(inner + extra + seed, full)

    def reset(self) -> None:
        self.inner.reset()

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        game = self.game
        start = time.monotonic()
        moves, limits, forced = self.opening(state, limits)
        if forced is not None:
            return forced
        rng = random.Random(self.seed * 1_000_003 + state.key)
        player = state.to_move
        votes: Counter[int] = Counter()
        totals: dict[int, float] = {}
        index = {move: i for i, move in enumerate(moves)}
        nodes, done = 0, True
        for i in range(self.samples):
            whole = game.determinize(state, player, rng)
            share = limits
            if limits.deadline is not None:
                left = limits.deadline - time.monotonic()
                share = Limits(time.monotonic() + max(0.0, left) / (self.samples - i), limits.depth, limits.nodes)
            self.inner.reset()  # each sample is searched afresh: the answer depends on the observation only
            decision = self.inner.choose(whole, share)
            move = index.get(decision.move)
            if move is None:
                raise ValueError(f"{game.id}: the inner search chose a move not legal in the observation")
            votes[move] += 1
            score = decision.info.get("score")
            totals[move] = totals.get(move, 0.0) + (score if isinstance(score, (int, float)) else 0.0)
            nodes += int(decision.info.get("nodes", 0) or 0)
            done = done and decision.done
            if limits.deadline is not None and time.monotonic() >= limits.deadline:
                done = False
                break
        best = max(votes, key=lambda m: (votes[m], totals.get(m, 0.0), -m))
        return Decision(moves[best], done, {
            "bot": self.name, "nodes": nodes, "depth": 1, "samples": sum(votes.values()),
            "votes": votes[best], "seconds": time.monotonic() - start})
