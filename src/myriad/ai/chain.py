"""A chain of bots: each link answers in turn until one gives a legal move.

``chain:book,alphabeta,random``: the book answers while the game is in it, then the main
searcher; if a link fails (raises, or returns an illegal move) the next one answers, and
the failure is recorded in ``info["failures"]``.
"""

from __future__ import annotations

import logging
from typing import Any

from myriad.ai.bot import Bot, Decision, Limits
from myriad.core.game import Game
from myriad.core.state import State

log = logging.getLogger(__name__)


class Chain(Bot):
    """Asks each link in turn."""

    name = "chain"
    max_players = None  # each link refuses what it cannot play
    chance = True
    hidden = True  # each link refuses what it cannot play
    suggested = False

    def __init__(self, game: Game, links: list[Bot], **options: Any) -> None:
        super().__init__(game, **options)
        self.links = links

    def reset(self) -> None:
        for link in self.links:
            link.reset()

    def choose(self, state: State, limits: Limits = Limits()) -> Decision:
        failures = []
        legal = None
        for link in self.links:
            try:
                decision = link.choose(state, limits)
            except Exception as err:  # noqa: BLE001 - any failure passes to the next link
                if type(err).__name__ != "OutOfBook":
                    log.warning("%s: bot %s failed: %s", self.game.id, link.name, err)
                failures.append(f"{link.name}: {type(err).__name__}" + (f": {err}" if str(err) else ""))
                continue
            legal = legal if legal is not None else self.game.legal_moves(state)
            if decision.move in legal:
                decision.info.setdefault("bot", link.name)
                if failures:
                    decision.info["failures"] = failures
                return decision
            failures.append(f"{link.name}: illegal move {decision.move!r}")
            log.warning("%s: bot %s returned an illegal move", self.game.id, link.name)
        raise ValueError(f"{self.game.id}: every link of the chain failed: {'; '.join(failures)}")
