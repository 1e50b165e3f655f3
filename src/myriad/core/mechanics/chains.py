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

Each piece counts its best bonus (or won race) and its worst danger (or lost race), not
every pair, so a crowd of targets does not swamp material.  Everything is generic: the
game gives the neighbour table, which cells are empty, its pieces as
``(cell, side, kind)``, a capture table ``may_capture[attacker_kind][victim_kind]`` and a
value per kind.  Used by games as their evaluation term and for move ordering
(:func:`piece_outlook` scores one piece, e.g. at the square a move brings it to).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

#: How much a chain of length ``d`` is worth, as a share of the value at stake:
#: ``FADE ** d`` (a capture one step away is worth half the piece).
FADE = 0.5


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
                  values: Sequence[float], first: bool, limit: int = 12) -> tuple[float, float]:
    """``(best gain, worst loss)`` of one piece against ``enemies``: the largest
    ``value * FADE ** d`` of a bonus chain or won race, and of a penalty chain or lost race.
    ``first``: whether the piece's side moves first (the parity of equal chains)."""
    reach = distances(neighbours, empty, piece.cell, limit)
    gain = loss = 0.0
    mine = piece.kind
    for enemy in enemies:
        d = reach.get(enemy.cell)
        if d is None:
            continue
        fade = FADE ** d
        takes, taken = may_capture[mine][enemy.kind], may_capture[enemy.kind][mine]
        if takes and taken:  # equal chain: the side to move wins odd races
            takes = (d % 2 == 1) == first
            taken = not takes
        if takes:
            gain = max(gain, values[enemy.kind] * fade)
        elif taken:
            loss = max(loss, values[mine] * fade)
    return gain, loss


def chain_score(neighbours: Sequence[Sequence[int]], empty: Sequence[bool], pieces: Sequence[ChainPiece],
                may_capture: Sequence[Sequence[bool]], values: Sequence[float], side: int, to_move: int,
                limit: int = 12) -> float:
    """The chains of ``side`` less those of its opponents (two sides): the sum over its
    pieces of best gain minus worst loss, less the same for the other side's pieces, with
    ``to_move`` deciding the parity of equal chains."""
    score = 0.0
    for piece in pieces:
        enemies = [p for p in pieces if p.side != piece.side]
        if not enemies:
            continue
        gain, loss = piece_outlook(neighbours, empty, piece, enemies, may_capture, values,
                                   piece.side == to_move, limit)
        score += (gain - loss) if piece.side == side else (loss - gain)
    return score
