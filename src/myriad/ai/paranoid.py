"""Paranoid search: any number of players, reduced to two sides.

The root's mover (``me``) assumes that every other player plays to hurt it: a node where
``me`` moves maximises ``me``'s value, a node where anybody else moves minimises it, and a
chance node averages.  That is the expectimax search of :mod:`myriad.ai.expectimax`
unchanged (it never asks who the other players are, only whether ``me`` moves), so full
alpha-beta pruning (and Star1 at chance nodes) applies, where max-n can only prune
shallowly.  With two players it is minimax (expectimax with chance).  The price is the
assumption: real opponents also chase their own wins, which :mod:`myriad.ai.maxn` models.
"""

from __future__ import annotations

from myriad.ai.expectimax import Expectimax


class Paranoid(Expectimax):
    """Options as :class:`~myriad.ai.expectimax.Expectimax`: ``time``, ``depth``,
    ``nodes``, ``hash``, ``scale``."""

    name = "paranoid"
    max_players: int | None = None
    chance = True
