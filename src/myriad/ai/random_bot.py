"""The random bot: a uniformly random legal move (seedable with ``seed=N``)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from myriad.ai.bot import SEED, Allowed, Bot, Decision, Limits
from myriad.core.game import Game
from myriad.core.state import State


class RandomBot(Bot):
    """Plays a uniformly random legal move."""

    name = "random"
    OPTIONS: ClassVar[dict[str, Allowed]] = {"seed": SEED}
    max_players = None
    chance = True
    hidden = True  # (plays from the observation: its legal moves are the whole state's)

    def __init__(self, game: Game, **options: Any) -> None:
        super().__init__(game, **options)
        self.rng = random.Random(options.get("seed"))

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        moves = self.game.legal_moves(state)
        if not moves:
            raise ValueError(f"{self.game.id}: no legal move to choose from")
        return Decision(self.rng.choice(moves), True, {"bot": self.name, "depth": 0, "nodes": 1})
