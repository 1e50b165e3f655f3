"""Bounded worth of positions, for the searchers of any turn structure.

Searchers with chance nodes or more than two players need leaf values within known
bounds: *-minimax prunes a chance node from the bounds of what its other outcomes can be
worth, and max-n prunes from a bound on the sum of the players' shares.  A game's
evaluation is unbounded (material, stores), so it is squashed by a logistic curve at a
scale typical of the game (:func:`typical_scale`), and kept strictly inside the values of
finished games, so that a win is always worth more than any evaluation:

- :func:`outcome_value`, :func:`evaluation_value`: one player's worth, in ``[-1, 1]``
  (+1 a win, -1 a loss, 0 a tie for the best score; evaluations strictly inside);
- :func:`outcome_shares`, :func:`evaluation_shares`: one share per player, each in
  ``[0, 1]``, summing to at most 1 (a win is the whole share, a two-player draw halves it;
  evaluated shares stay within ``[MARGIN / n, 1 - MARGIN / 2]`` for ``n`` players).

With two players the two agree (value = 2 * share - 1), and both order positions as the
game's :meth:`~myriad.core.game.Game.evaluate` does.
"""

from __future__ import annotations

import math
import random
from typing import Any

from myriad.core.game import Game, Outcome
from myriad.core.state import State

#: How far evaluations stay from the values of finished games: evaluated values lie within
#: ``[-(1 - MARGIN), 1 - MARGIN]``, evaluated shares within ``[MARGIN / n, 1 - MARGIN / 2]``.
MARGIN = 1e-3
#: The bounds of every value (for *-minimax).
LOWEST, HIGHEST = -1.0, 1.0
#: The most |evaluation / scale| fed to the logistic curve (beyond, it is flat in floats).
STEEPEST = 50.0

_scales: dict[Game, float] = {}


def typical_scale(game: Game, playouts: int = 4, plies: int = 40) -> float:
    """The mean size of the game's evaluations (``evaluate_for`` of every player) over the
    positions of a few seeded random games: an evaluation of this size is worth a 73%
    share.  Worked out once per game and process; 1.0 when every evaluation is 0."""
    known = _scales.get(game)
    if known is not None:
        return known
    rng = random.Random(0)
    total, count = 0.0, 0
    for _ in range(playouts):
        state = game.initial_state()
        for _ in range(plies):
            moves = game.legal_moves(state)
            if not moves or game.result(state, moves) is not None:
                break
            for player in range(game.players):
                size = abs(game.evaluate_for(state, player))
                if size > 0:
                    total, count = total + size, count + 1
            state = game.play(state, rng.choice(moves))
    scale = total / count if count else 1.0
    _scales[game] = scale
    return scale


def scale_option(options: dict[str, Any], game: Game, name: str) -> float:
    """The ``scale`` option of a bot (a positive number), else the game's typical scale."""
    value = options.get("scale")
    if value is None:
        return typical_scale(game)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise ValueError(f"{name}: scale must be a positive number, not {value!r}")
    return float(value)


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-STEEPEST, min(STEEPEST, x))))


def outcome_value(outcome: Outcome, player: int) -> float:
    """A finished game for ``player``: 1 when alone with the best score, -1 when another
    player scores more, 0 when tied for the best; a player alone (fox hunt), its score in
    ``[0, 1]`` mapped onto ``[-1, 1]``."""
    mine = outcome.scores[player]
    if len(outcome.scores) == 1:
        return max(-1.0, min(1.0, 2.0 * mine - 1.0))
    best_other = max(s for p, s in enumerate(outcome.scores) if p != player)
    return 1.0 if mine > best_other else -1.0 if mine < best_other else 0.0


def evaluation_value(game: Game, state: State, player: int, scale: float) -> float:
    """``game.evaluate_for(state, player)`` squashed into ``(-1 + MARGIN, 1 - MARGIN)``."""
    share = _logistic(game.evaluate_for(state, player) / scale)
    return (1.0 - MARGIN) * (2.0 * share - 1.0)


def outcome_shares(outcome: Outcome) -> tuple[float, ...]:
    """A finished game's scores as shares: each in ``[0, 1]`` and summing to at most 1.
    Scores within ``[0, 1]`` (1 win, 0 loss, 0.5 draw) are kept, divided by their sum when
    it exceeds 1; other scores (points) are first mapped linearly onto ``[0, 1]``, the
    lowest to 0 and the highest to 1."""
    scores = outcome.scores
    low, high = min(scores), max(scores)
    if low < 0.0 or high > 1.0:
        scores = tuple((s - low) / (high - low) if high > low else 1.0 for s in scores)
    total = sum(scores)
    return tuple(s / total for s in scores) if total > 1.0 else tuple(scores)


def evaluation_shares(game: Game, state: State, scale: float) -> tuple[float, ...]:
    """Each player's ``evaluate_for`` squashed by the logistic curve, the shares summing
    to 1, each within ``[MARGIN / n, 1 - MARGIN / 2]`` for ``n >= 2`` players."""
    return shares_of([game.evaluate_for(state, p) for p in range(game.players)], scale)


def shares_of(evaluations: list[float], scale: float) -> tuple[float, ...]:
    """:func:`evaluation_shares` from the players' evaluations, already worked out."""
    raw = [_logistic(e / scale) for e in evaluations]
    total = sum(raw)
    floor = MARGIN / len(raw)
    return tuple(floor + (1.0 - MARGIN) * r / total for r in raw)
