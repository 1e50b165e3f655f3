"""Scores, Elo differences and their uncertainty; maximum-likelihood ratings."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def elo_from_score(score: float) -> float:
    """The Elo difference that predicts ``score`` (clamped to +-1000 for 0% and 100%)."""
    if score <= 0.0:
        return -1000.0
    if score >= 1.0:
        return 1000.0
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_interval(wins: int, draws: int, losses: int, z: float = 1.96) -> tuple[float, float]:
    """The mean score and the half-width of its ``z`` interval (normal approximation over
    per-game scores)."""
    n = wins + draws + losses
    if n == 0:
        return 0.5, 0.5
    mean = (wins + 0.5 * draws) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    return mean, z * math.sqrt(var / n)


def elo_with_error(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """Elo difference and the half-width of its 95% interval."""
    mean, half = score_interval(wins, draws, losses)
    lo, hi = elo_from_score(max(0.0, mean - half)), elo_from_score(min(1.0, mean + half))
    return elo_from_score(mean), (hi - lo) / 2


def fit_ratings(players: Sequence[str], results: Mapping[tuple[str, str], tuple[float, int]],
                anchor: str | None = None, iterations: int = 2000) -> dict[str, float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry, draws as half points) from
    ``results[(a, b)] = (points of a against b, games)``; ``anchor`` gets 0.

    Uses the minorisation-maximisation updates of Hunter (2004); a prior of one draw
    against a virtual 0-rated player keeps all-win or all-loss records finite.
    """
    strength = {p: 1.0 for p in players}
    for _ in range(iterations):
        new = {}
        for p in players:
            points, denom = 0.5, 1.0 / (strength[p] + 1.0)  # the prior: one draw vs strength 1
            for (a, b), (pts, games) in results.items():
                if a == p:
                    points += pts
                    denom += games / (strength[a] + strength[b])
                elif b == p:
                    points += games - pts
                    denom += games / (strength[a] + strength[b])
            new[p] = points / denom
        shift = new[anchor] if anchor in new else math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {p: v / shift for p, v in new.items()}
    return {p: 400.0 * math.log10(v) for p, v in strength.items()}
