"""Analysis of a position: what a bot thinks of it, without playing its move.

:func:`analyse` asks a bot for its move in a state and reads what the search reported
(``Decision.info``: score, principal variation, depth, nodes) into one :class:`Analysis`
whatever the bot: the score as the bot gives it, its kind, and the same judgement as the
side to move's expected share of the result in ``[0, 1]`` (1 a sure win), which an
evaluation bar can show for any game.  What each bot's score means:

* ``evaluation`` (``alphabeta``, ``heuristic``): the game's evaluation for the side to move
  (centipawns in chess: piece values); alpha-beta scores forced ends by distance, read here
  as ``win_in`` plies (positive: the side to move wins);
* ``share`` (``mcts``, ``ismcts``, ``maxn``): the side to move's expected share already;
* ``value`` (``expectimax``, ``paranoid``, ``solver``): from -1 (loss) to 1 (win).

Other bots (``random``, ``book``, ``determinize``, ``infogain``) give a move and no score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from myriad.ai.alphabeta import WIN, WON
from myriad.ai.bot import Bot, Limits
from myriad.core.game import Game
from myriad.core.move import Move
from myriad.core.state import State

#: What the ``score`` of each bot means (see the module's notes).
SCORE_KINDS = {"alphabeta": "evaluation", "heuristic": "evaluation", "mcts": "share", "ismcts": "share",
               "maxn": "share", "expectimax": "value", "paranoid": "value", "solver": "value"}
#: An evaluation this many of the game's least valuable pieces ahead reads as a 73% share.
SHARE_SCALE = 4.0


@dataclass
class Analysis:
    """What a bot thinks of a position: its ``move``, the ``line`` it expects (the move
    first), the ``score`` it reported for the side to move and its ``kind`` (None and ""
    when it reports none), ``win_in`` (plies to a forced end it found: positive when the
    side to move wins, negative when it loses), ``share`` (the side to move's expected
    share of the result, or None), and the search's ``depth``, ``nodes`` and ``bot`` (the
    link of a chain that answered)."""

    move: Move
    line: list[Move] = field(default_factory=list)
    bot: str = ""
    score: float | None = None
    kind: str = ""
    win_in: int | None = None
    share: float | None = None
    depth: int | None = None
    nodes: int | None = None


def piece_unit(game: Game) -> float:
    """The value of the game's least valuable piece (a pawn: 100 in chess), at least 1."""
    return float(min((v for v in game.pieces.value_of if v > 0), default=1))


def analyse(bot: Bot, state: State, limits: Limits) -> Analysis:
    """``bot``'s judgement of ``state`` (the side to move's view) within ``limits``: a
    search that reports its score when the bot has one (``analyse`` of alpha-beta searches
    even a lone legal move).  Raises ``ValueError`` when there is no move to consider."""
    search = getattr(bot, "analyse", None)
    decision = search(state, limits) if search is not None else bot.choose(state, limits)
    info = decision.info
    name = str(info.get("bot", bot.name)).partition(":")[0]
    line = [m for m in info.get("pv") or [] if isinstance(m, Move)] or [decision.move]
    if line[0] != decision.move:
        line = [decision.move]
    result = Analysis(decision.move, line, name, depth=_int(info.get("depth")), nodes=_int(info.get("nodes")))
    score = info.get("score")
    kind = SCORE_KINDS.get(name, "")
    if kind and isinstance(score, (int, float)) and not isinstance(score, bool) and math.isfinite(score):
        result.score, result.kind = float(score), kind
        result.share = score_share(bot.game, kind, float(score))
        if kind == "evaluation" and name == "alphabeta" and abs(score) >= WON:
            plies = int(WIN - abs(score))
            result.win_in = plies if score > 0 else -plies
    return result


def score_share(game: Game, kind: str, score: float) -> float:
    """The side to move's expected share in ``[0, 1]`` from a score of ``kind``."""
    if kind == "share":
        share = score
    elif kind == "value":
        share = (score + 1.0) / 2.0
    else:
        if abs(score) >= WON:
            return 1.0 if score > 0 else 0.0
        share = 1.0 / (1.0 + math.exp(-score / (SHARE_SCALE * piece_unit(game))))
    return min(1.0, max(0.0, share))


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
