"""Bots: the protocol, the searchers, and :func:`make_bot` from a spec string.

Specs: ``random``, ``heuristic:noise=10``, ``alphabeta:algo=mtdf,time=1``,
``mcts:playouts=2000``, ``maxn:depth=3``, ``paranoid:time=1``, ``expectimax:time=1``,
``book``, ``solver``, ``chain:book,alphabeta,random``; for games with hidden information
``determinize:bot=alphabeta,samples=4`` and ``ismcts:time=1``.
"""

from __future__ import annotations

from myriad.ai.alphabeta import AlphaBeta
from myriad.ai.book import BookBot
from myriad.ai.bot import Bot, BotSpecError, Decision, Limits, parse_spec
from myriad.ai.chain import Chain
from myriad.ai.determinization import Determinization
from myriad.ai.expectimax import Expectimax
from myriad.ai.heuristic import HeuristicBot
from myriad.ai.infogain import InfoGain
from myriad.ai.ismcts import ISMCTS
from myriad.ai.maxn import MaxN
from myriad.ai.mcts import MCTS
from myriad.ai.paranoid import Paranoid
from myriad.ai.random_bot import RandomBot
from myriad.ai.solver import Solver
from myriad.core.game import Game

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot, "heuristic": HeuristicBot, "alphabeta": AlphaBeta,
    "mcts": MCTS, "book": BookBot, "solver": Solver,
    "maxn": MaxN, "paranoid": Paranoid, "expectimax": Expectimax,
    "determinize": Determinization, "ismcts": ISMCTS, "infogain": InfoGain,
}


def make_bot(spec: str, game: Game) -> Bot:
    """A bot for ``game`` from a spec string; raises ``BotSpecError`` naming what is wrong."""
    name, options = parse_spec(spec)
    if name == "chain":
        return Chain(game, [make_bot(link, game) for link in options["links"]])
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {name!r} in {spec!r}; known: {', '.join([*BOTS, 'chain'])}")
    try:
        return BOTS[name](game, **options)
    except (TypeError, ValueError) as err:
        raise BotSpecError(f"bad bot spec {spec!r}: {err}") from None


__all__ = ["Bot", "BotSpecError", "Decision", "Limits", "make_bot", "parse_spec"]
