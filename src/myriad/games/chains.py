"""Chains and parity: bot knowledge for games of slow pieces that capture by rank.

In BanQi (and Jungle) every piece steps one square at a time and takes what it outranks,
so what matters beyond material is *who reaches whom first*.  For each piece this module
finds, by a breadth-first search over the empty cells, the number of steps it needs to
land on each enemy piece (its *chain* to that target), and scores:

* a **bonus chain**: I can take it and it cannot take me: worth the target's value,
  fading with the distance;
* a **penalty chain**: it can take me and I cannot take it: my piece's value, fading the
  same way, counted against me;
* an **equal chain** (each can take the other, as two pieces of one rank): decided by
  *parity*.  Two pieces ``d`` steps apart take turns stepping; the side to move lands on
  the other first when ``d`` is odd (at ``d = 1`` it captures at once; at ``d = 2``
  whoever steps in between is taken), so with ``d`` odd the chain is a bonus for the side
  to move and a penalty for the other, with ``d`` even the reverse.

Each piece counts its best bonus chain (or won race), not every pair, so a crowd of
targets does not swamp material; a side's penalty chains are the other side's bonus
chains, counted once.  A chain's worth fades with the plies it needs (:func:`weight`).  Everything is generic: the
game gives the neighbour table, which cells are empty, its pieces as
``(cell, side, kind)``, a capture table ``may_capture[attacker_kind][victim_kind]`` and a
value per kind.  Used by games as their evaluation term and for move ordering
(:func:`piece_outlook` scores one piece, e.g. at the square a move brings it to).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

#: What a chain is worth, as a share of the value at stake, by the plies its side needs to
#: land (``2d - 1`` for the side to move, ``2d`` for the other, ``d`` steps away):
#: ``NEAR * FADE ** (plies - 1)``, so a capture the mover can make now is worth 0.8 of the
#: piece (less than taking it: the search prefers the capture to the threat) and a piece
#: hanging where its owner moves first (it may run) 0.56.
NEAR = 0.8
FADE = 0.7
#: How far chains are followed (six steps: under 3% of the stake).
LIMIT = 6


def weight(steps: int, first: bool) -> float:
    """The share of the stake a chain of ``steps`` steps is worth to a side that moves
    ``first`` (or second)."""
    return NEAR * FADE ** (2 * steps - (2 if first else 1))


class ChainPiece(NamedTuple):
    """A piece that takes part in chains: its cell, its side (player) and its kind."""

    cell: int
    side: int
    kind: int


def distances(neighbours: Sequence[Sequence[int]], empty: Sequence[bool], start: int,
              limit: int) -> dict[int, int]:
    """Steps from ``start`` to every cell it can reach within ``limit`` steps, moving over
    empty cells; an occupied cell is reached (as a capture would) but not passed."""
    seen = {start: 0}
    frontier = [start]
    depth = 0
    while frontier and depth < limit:
        depth += 1
        nxt = []
        for cell in frontier:
            for t in neighbours[cell]:
                if t not in seen:
                    seen[t] = depth
                    if empty[t]:
                        nxt.append(t)
        frontier = nxt
    return seen


def piece_outlook(neighbours: Sequence[Sequence[int]], empty: Sequence[bool], piece: ChainPiece,
                  enemies: Sequence[ChainPiece], may_capture: Sequence[Sequence[bool]],
                  values: Sequence[float], first: bool, limit: int = LIMIT) -> tuple[float, float]:
    """``(best gain, worst loss)`` of one piece against ``enemies``: the largest
    ``value * weight(d, ...)`` of a bonus chain or won race (the target's value), and of a
    penalty chain or lost race (the piece's own value).  ``first``: whether the piece's
    side moves first (the parity of equal chains, and the plies each chain needs)."""
    reach = distances(neighbours, empty, piece.cell, limit)
    gain = loss = 0.0
    mine = piece.kind
    for enemy in enemies:
        d = reach.get(enemy.cell)
        if d is None:
            continue
        takes, taken = may_capture[mine][enemy.kind], may_capture[enemy.kind][mine]
        if takes and taken:  # equal chain: the side to move wins odd races
            takes = (d % 2 == 1) == first
            taken = not takes
        if takes:
            gain = max(gain, values[enemy.kind] * weight(d, first))
        elif taken:
            loss = max(loss, values[mine] * weight(d, not first))
    return gain, loss


def chain_score(neighbours: Sequence[Sequence[int]], empty: Sequence[bool], pieces: Sequence[ChainPiece],
                may_capture: Sequence[Sequence[bool]], values: Sequence[float], side: int, to_move: int,
                limit: int = LIMIT) -> float:
    """The chains of ``side`` less those of its opponents (two sides): the sum over its
    pieces of their best gain, less the same for the other side's pieces (whose bonus
    chains are ``side``'s penalty chains: each pair is counted once), with ``to_move``
    deciding the parity of equal chains."""
    score = 0.0
    by_side: dict[int, list[ChainPiece]] = {}
    for piece in pieces:
        by_side.setdefault(piece.side, []).append(piece)
    if len(by_side) < 2:
        return 0.0
    for own, group in by_side.items():
        enemies = [p for s, g in by_side.items() if s != own for p in g]
        first = own == to_move
        for piece in group:
            gain, _loss = piece_outlook(neighbours, empty, piece, enemies, may_capture, values, first, limit)
            score += gain if own == side else -gain
    return score
