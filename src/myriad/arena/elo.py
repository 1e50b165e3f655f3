"""Scores, Elo differences and their uncertainty; maximum-likelihood ratings."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def elo_from_score(score: float) -> float:
    """The Elo difference that predicts ``score``: minus or plus infinity for 0% and 100%
    (no finite difference predicts a clean sweep)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0   # (+ 0.0: no "-0" for an even score)


def score_interval(wins: int, draws: int, losses: int, z: float = 1.96) -> tuple[float, float]:
    """The mean score and the half-width of its ``z`` interval (normal approximation over
    per-game scores; zero for a clean sweep, so only a summary for many games: for the
    bounds use :func:`wilson_interval`)."""
    n = wins + draws + losses
    if n == 0:
        return 0.5, 0.5
    mean = (wins + 0.5 * draws) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    return mean, z * math.sqrt(var / n)


def wilson_interval(wins: int, draws: int, losses: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of the mean score (a draw half a point): never empty,
    inside [0, 1], and wide for few games (10 wins of 10: 0.72 to 1). With draws it is
    conservative, as it takes the variance of a win-or-loss sample with the same mean."""
    return wilson_bounds(wins + 0.5 * draws, wins + draws + losses, z)


def wilson_bounds(points: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """:func:`wilson_interval` from the points scored in ``games`` games."""
    if games <= 0:
        return 0.0, 1.0
    n = games
    p = points / n
    k = z * z / n
    centre = (p + k / 2) / (1 + k)
    half = z / (1 + k) * math.sqrt(p * (1 - p) / n + k / (4 * n))
    # a sweep makes a bound exactly 0 or 1 in exact arithmetic: keep it so, not 0.9999999
    lo = 0.0 if points <= 0 else max(0.0, centre - half)
    hi = 1.0 if points >= n else min(1.0, centre + half)
    return lo, hi


def elo_interval(wins: int, draws: int, losses: int, z: float = 1.96) -> tuple[float, float]:
    """The Elo bounds of :func:`wilson_interval` (an infinite bound is unbounded: 10 wins
    of 10 give about (+166, inf), "Elo > +166" at 95%)."""
    lo, hi = wilson_interval(wins, draws, losses, z)
    return elo_from_score(lo), elo_from_score(hi)


def elo_with_error(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """Elo difference and the half-width of its 95% interval (infinite when the interval
    is unbounded, as after a sweep or with no games)."""
    n = wins + draws + losses
    mean = (wins + 0.5 * draws) / n if n else 0.5
    lo, hi = elo_interval(wins, draws, losses)
    return elo_from_score(mean), (hi - lo) / 2


def points_elo_interval(points: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Elo bounds of :func:`wilson_bounds` (``points`` scored in ``games`` games)."""
    lo, hi = wilson_bounds(points, games, z)
    return elo_from_score(lo), elo_from_score(hi)


def interval_text(lo: float, hi: float) -> str:
    """Elo bounds in words: ``-74 to +750``, ``> +166`` (unbounded above), ``< -166``, or
    ``unbounded``."""
    if math.isinf(lo) and math.isinf(hi):
        return "unbounded"
    if math.isinf(hi):
        return f"> {lo:+.0f}"
    if math.isinf(lo):
        return f"< {hi:+.0f}"
    return f"{lo:+.0f} to {hi:+.0f}"


def conclusive(wins: int, draws: int, losses: int) -> bool:
    """Whether the 95% interval excludes an even match (Elo 0): if not, the sample is too
    small to tell which side is stronger."""
    lo, hi = wilson_interval(wins, draws, losses)
    return lo > 0.5 or hi < 0.5


def describe_elo(wins: int, draws: int, losses: int) -> str:
    """The Elo difference in words with its 95% interval, e.g. ``Elo +191 (95%: +20 to
    +420)``, ``Elo > +166 (95%)`` after 10 wins of 10, and a warning when the sample
    cannot tell the two sides apart."""
    n = wins + draws + losses
    if n == 0:
        return "Elo unknown (no games)"
    elo, _ = elo_with_error(wins, draws, losses)
    lo, hi = elo_interval(wins, draws, losses)
    if math.isinf(lo) and math.isinf(hi):
        text = "Elo unbounded (95%)"
    elif math.isinf(hi):
        text = f"Elo > {lo:+.0f} (95%)"
    elif math.isinf(lo):
        text = f"Elo < {hi:+.0f} (95%)"
    else:
        text = f"Elo {elo:+.0f} (95%: {lo:+.0f} to {hi:+.0f})"
    if not conclusive(wins, draws, losses):
        text += (f"; not significant after {n} game{'' if n == 1 else 's'} (the interval includes an even match): "
                 "too few to conclude")
    return text


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
