"""Line flips among any number of colours (Rolit and other many-player Reversi games).

:class:`ColourFlips` is Reversi's rule with every colour but the mover's as the enemy: a
disc placed on an empty cell flanks, in each direction, an unbroken run of discs of other
colours ending at the nearest disc of its own colour; every such run turns to its colour.
With two colours it is exactly :class:`~myriad.core.mechanics.placement.LineFlips` (which
is faster there, on bit sets); with more, a run may mix colours, and colours no player owns
(Rolit's spare balls with fewer than four players) are flanked like any other.

A move is the DROP of the new disc followed by one SET per flipped disc, direction by
direction, nearest first: the same shape as :class:`LineFlips` moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from myriad.core.errors import GameDefinitionError
from myriad.core.move import DROP, SET, Action, Move
from myriad.core.topology import Topology


class ColourFlips:
    """Flanking placements for discs ``codes[c]`` of each colour ``c``."""

    def __init__(self, topology: Topology, codes: Sequence[int], directions: Sequence[str] | None = None) -> None:
        if len(codes) < 2 or len(set(codes)) != len(codes) or 0 in codes:
            raise GameDefinitionError(f"colour flips need two or more distinct disc codes, got {tuple(codes)}")
        self.codes = tuple(codes)
        dirs = [topology.direction(d) for d in directions] if directions else list(range(len(topology.directions)))
        size = topology.size
        #: ``rays[pos]``: the rays leaving ``pos``, one per direction that has a first step.
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(ray for d in dirs if (ray := topology.ray(pos, d))) for pos in range(size))
        #: Per colour: the DROP of its disc on each cell, and the SET turning each cell to it.
        self.drops = tuple(tuple(Action(DROP, p, p, code) for p in range(size)) for code in codes)
        self.sets = tuple(tuple(Action(SET, p, p, code) for p in range(size)) for code in codes)

    def flipped(self, cells: Sequence[int], pos: int, colour: int) -> list[int]:
        """The cells a disc of ``colour`` on the empty cell ``pos`` turns over, direction by
        direction, nearest first (empty: the placement flanks nothing)."""
        own = self.codes[colour]
        out: list[int] = []
        for ray in self.rays[pos]:
            run = 0
            for p in ray:
                value = cells[p]
                if value == own:
                    if run:
                        out.extend(ray[:run])
                    break
                if not value:
                    break
                run += 1
        return out

    def moves(self, cells: Sequence[int], colour: int) -> list[Move]:
        """Every flanking placement of ``colour`` with the discs it turns, in cell order."""
        drops, sets = self.drops[colour], self.sets[colour]
        out = []
        for pos, value in enumerate(cells):
            if value:
                continue
            flips = self.flipped(cells, pos, colour)
            if flips:
                out.append(Move((drops[pos], *(sets[p] for p in flips))))
        return out

    def can_place(self, cells: Sequence[int], colour: int) -> bool:
        """Whether ``colour`` has a flanking placement."""
        return any(not value and self.flipped(cells, pos, colour) for pos, value in enumerate(cells))
