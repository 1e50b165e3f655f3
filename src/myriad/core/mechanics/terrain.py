"""Moves over terrain: steps onto squares each piece may enter, and leaps across a zone.

Boards with special cells (Jungle's water and dens) close squares to some pieces: water to
every animal but the rat, a den to its own side.  Some pieces cross a zone in one move
(Jungle's lion and tiger leap the river along a row or column) when every square passed is
empty, landing on the first square beyond it.  A :class:`TerrainMoves` is compiled once
against a topology into tables per piece code and position; :meth:`targets` then lists the
squares a piece may move to or attack, leaving to the game what an occupied target means
(a capture by rank, :mod:`myriad.core.mechanics.rank_capture`, or nothing).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from myriad.core.topology import NO_LINK, Topology


class TerrainMoves:
    """Steps along ``directions`` (as each owner sees them; orthogonal by default) and
    leaps across ``leap_zone``.

    * ``codes``: how many piece codes there are (0, empty, included);
    * ``closed[code]``: the squares that piece may never stand on;
    * ``leapers``: the codes that leap the zone: from a square beside it, in a direction
      that enters it, over squares of the zone (all of which must be empty) to the first
      square beyond, if that square is on the board and open to the piece.
    """

    def __init__(self, topology: Topology, codes: int, *,
                 directions: Sequence[str] = ("n", "s", "e", "w"),
                 closed: Mapping[int, Collection[int]] | None = None,
                 leapers: Collection[int] = (), leap_zone: Collection[int] = ()) -> None:
        closed = closed or {}
        zone = frozenset(leap_zone)
        dirs = [topology.direction(d) for d in directions]
        size = topology.size
        steps: list[tuple[tuple[int, ...], ...]] = [()]
        leaps: list[tuple[tuple[tuple[tuple[int, ...], int], ...], ...]] = [()]
        for code in range(1, codes):
            shut = frozenset(closed.get(code, ()))
            steps.append(tuple(tuple(t for t in (topology.links[d][p] for d in dirs)
                                     if t != NO_LINK and t not in shut) for p in range(size)))
            per_pos: list[tuple[tuple[tuple[int, ...], int], ...]] = []
            for p in range(size):
                found: list[tuple[tuple[int, ...], int]] = []
                if code in leapers and p not in zone:
                    for d in dirs:
                        passed: list[int] = []
                        t = topology.links[d][p]
                        while t != NO_LINK and t in zone:
                            passed.append(t)
                            t = topology.links[d][t]
                        if passed and t != NO_LINK and t not in shut:
                            found.append((tuple(passed), t))
                per_pos.append(tuple(found))
            leaps.append(tuple(per_pos))
        self.steps = tuple(steps)
        #: per code and square, the leaps: (squares passed, landing square)
        self.leaps = tuple(leaps)
        #: per code and square, every destination with the squares that must be empty on
        #: the way (none for a step): the table move generators loop over
        none: tuple[int, ...] = ()
        self.reach: tuple[tuple[tuple[tuple[int, tuple[int, ...]], ...], ...], ...] = tuple(
            tuple(tuple((t, none) for t in steps[c][p]) + tuple((t, q) for q, t in leaps[c][p])
                  for p in range(size)) if c else () for c in range(codes))
        self.zone = zone

    def targets(self, cells: Sequence[int], frm: int) -> list[int]:
        """The squares the piece on ``frm`` reaches (empty or not: the caller decides what
        an occupied one means); a step onto the zone is listed only if the piece may
        stand there (see ``closed``)."""
        code = cells[frm]
        out = list(self.steps[code][frm])
        for passed, landing in self.leaps[code][frm]:
            if not any(cells[q] for q in passed):
                out.append(landing)
        return out

    def leap_blocked(self, cells: Sequence[int], frm: int, to: int) -> bool:
        """Whether the piece on ``frm`` has a leap to ``to`` that a piece in the zone blocks."""
        for passed, landing in self.leaps[cells[frm]][frm]:
            if landing == to and any(cells[q] for q in passed):
                return True
        return False
