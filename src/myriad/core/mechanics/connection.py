"""Connection goals: a player wins with one connected group of its stones that touches
every zone of its goal (Hex: two opposite sides; Y: all three sides; a "connect two
sides" game on any board).

Groups are grown on bit sets (``int``, bit ``p`` = position ``p``): a group is the set of
a player's stones reached from a seed by steps along the links of the board.  When every
direction of the topology is the same shift of the position numbers (square and hex grids
numbered row by row), a round of growth is a few shifts and masks over the whole board;
otherwise the links are walked cell by cell.  Either way the result is the same set.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

from myriad.core.errors import GameDefinitionError
from myriad.core.mechanics.placement import translation
from myriad.core.topology import NO_LINK, Topology


def bits_of(cells: Iterable[int]) -> int:
    """The bit set of a collection of positions."""
    bits = 0
    for pos in cells:
        bits |= 1 << pos
    return bits


class Groups:
    """Connected groups of stones on a topology, found by growing bit sets."""

    def __init__(self, topology: Topology, directions: Sequence[str] | None = None) -> None:
        wanted = ([topology.direction(d) for d in directions] if directions
                  else list(range(len(topology.directions))))
        rows = [topology.links[d] for d in wanted]
        #: ``neighbours[pos]``: the bit set of the cells one step from ``pos``.
        self.neighbours: tuple[int, ...] = tuple(
            bits_of(q for row in rows if (q := row[p]) != NO_LINK) for p in range(topology.size))
        steps: list[tuple[int, int]] = []
        for row in rows:
            delta = translation(row)
            if delta is None:
                break
            steps.append((delta, bits_of(p for p, q in enumerate(row) if q != NO_LINK)))
        #: Per direction (shift, bit set of the cells that have a link that way), or None
        #: when some direction is not one shift.
        self.steps: tuple[tuple[int, int], ...] | None = tuple(steps) if len(steps) == len(rows) else None

    def grow(self, cells: int) -> int:
        """``cells`` and every cell one step from one of them."""
        grown = cells
        if self.steps is not None:
            for delta, linked in self.steps:
                m = cells & linked
                grown |= m << delta if delta > 0 else m >> -delta
            return grown
        neighbours = self.neighbours
        pos = 0
        while cells:
            if cells & 1:
                grown |= neighbours[pos]
            cells >>= 1
            pos += 1
        return grown

    def reach(self, seeds: int, stones: int) -> int:
        """The stones of ``stones`` connected to a stone of ``seeds`` (the groups of the
        seeds that are stones; seeds that are not stones are ignored)."""
        reached = seeds & stones
        while True:
            grown = self.grow(reached) & stones
            if grown == reached:
                return reached
            reached = grown

    def group(self, pos: int, stones: int) -> int:
        """The group of the stone on ``pos`` (0 when ``pos`` is not in ``stones``)."""
        return self.reach(1 << pos, stones)

    def split(self, stones: int) -> list[int]:
        """Every group of ``stones``, each as a bit set, by their lowest cell."""
        groups = []
        while stones:
            group = self.group((stones & -stones).bit_length() - 1, stones)
            groups.append(group)
            stones &= ~group
        return groups


class ConnectionGoal:
    """Each player's goal: a group of its stones touching every one of its zones.

    ``zones[player]`` is a sequence of zones (collections of positions), at least one; with
    two zones (Hex) one grows every group touching the first at once and asks whether it
    meets the second; with more (Y's three sides) each group touching the first zone is
    checked on its own, as one group must touch them all.
    """

    def __init__(self, topology: Topology, zones: Sequence[Sequence[Iterable[int]]],
                 directions: Sequence[str] | None = None) -> None:
        if not zones:
            raise GameDefinitionError("connection goal: no player has zones")
        masks: list[tuple[int, ...]] = []
        for player, per_player in enumerate(zones):
            player_masks = tuple(bits_of(zone) for zone in per_player)
            if not player_masks or not all(player_masks):
                raise GameDefinitionError(f"connection goal: player {player} needs one or more non-empty zones")
            if any(not 0 <= pos < topology.size for zone in per_player for pos in zone):
                raise GameDefinitionError(f"connection goal: player {player} has a zone off the board")
            masks.append(player_masks)
        #: Per player, the bit set of each of its zones.
        self.zones: tuple[tuple[int, ...], ...] = tuple(masks)
        self.groups = Groups(topology, directions)

    def winning_group(self, player: int, stones: int) -> int:
        """A group of ``stones`` (the player's, as a bit set) touching every zone of
        ``player`` (with two zones: every such group), or 0 when there is none."""
        zones = self.zones[player]
        if len(zones) == 1:
            for group in self.groups.split(stones & zones[0]):
                return self.groups.reach(group, stones)
            return 0
        if len(zones) == 2:
            first, second = zones
            if not stones & first or not stones & second:
                return 0
            touching = self.groups.reach(first, stones)
            return self.groups.reach(touching & second, touching) if touching & second else 0
        seeds = stones & zones[0]
        while seeds:
            group = self.groups.group((seeds & -seeds).bit_length() - 1, stones)
            if all(group & zone for zone in zones[1:]):
                return group
            seeds &= ~group
        return 0

    def connected(self, player: int, stones: int) -> bool:
        """Whether ``stones`` (the player's) hold a group touching all of its zones."""
        return self.winning_group(player, stones) != 0

    def winner(self, stones: Sequence[int]) -> int | None:
        """The first player whose stones (``stones[player]``, bit sets) reach its goal, or None."""
        for player, own in enumerate(stones):
            if self.connected(player, own):
                return player
        return None


class Distances:
    """Knowledge for bots in connection games: how many empty cells a player still needs.

    :meth:`layers` grows, from a zone, the cells a player reaches by filling ``k`` empty
    cells, for ``k = 0, 1, ...``: its own stones cost nothing, the opponent's block.  With
    ``two=True`` an empty cell is reached only from two cells already reached (the
    "two-distance" of Hex programs: the opponent would block a single way in), falling back
    to one when no cell has two; it measures connections that survive a reply.
    """

    def __init__(self, topology: Topology, directions: Sequence[str] | None = None) -> None:
        self.groups = Groups(topology, directions)
        self.size = topology.size

    def _adjacent(self, cells: int) -> tuple[int, int]:
        """The cells next to at least one and at least two cells of ``cells`` (not
        telling a cell of ``cells`` apart)."""
        one = two = 0
        steps = self.groups.steps
        if steps is not None:
            for delta, linked in steps:
                m = cells & linked
                s = m << delta if delta > 0 else m >> -delta
                two |= one & s
                one |= s
            return one, two
        neighbours = self.groups.neighbours
        pos = 0
        while cells:
            if cells & 1:
                s = neighbours[pos]
                two |= one & s
                one |= s
            cells >>= 1
            pos += 1
        return one, two

    def layers(self, zone: int, own: int, empty: int, two: bool = True, until: int = 0,
               most: int = 0, bridges: bool = False) -> list[int]:
        """Cumulative reached sets ``D[0] ⊆ D[1] ⊆ ...`` from ``zone`` (a bit set of
        cells): ``D[0]`` the player's groups (``own``) touching the zone; ``D[k + 1]``
        adds the zone's empty cells (when ``k`` is 0) and the empty cells next to two (or
        one) cells of ``D[k]`` (next to one when no cell has two), then the own groups
        touching them.  With ``bridges``, an own stone with two empty neighbours that
        both touch a reached set joins it at no cost (Hex's bridge, and its edge template
        through two empty zone cells: the opponent cannot cut both).  Stops when a round
        adds nothing, once a reached set meets ``until`` (a bit set; 0: never) or after
        ``most`` sets (0: no limit)."""
        start = zone & empty
        reached = self._join(zone & own, own, empty, start if bridges else -1)
        out = [reached]
        while not reached & until and len(out) != most:
            one, twice = self._adjacent(reached)
            new = ((twice if two else one) | start) & empty & ~reached
            if not new:
                new = one & empty & ~reached
                if not new:
                    return out
            start = 0
            reached = self._join(reached | new, own, empty, 0 if bridges else -1)
            out.append(reached)
        return out

    def _join(self, reached: int, own: int, empty: int, carriers: int) -> int:
        """``reached`` and the own groups touching it; unless ``carriers`` is -1, also the
        own stones bridged to it (two empty neighbours next to it, or among ``carriers``),
        and theirs, until nothing joins."""
        groups = self.groups
        reached = groups.reach(reached, reached | own)
        if carriers < 0:
            return reached
        while True:
            near = (self._adjacent(reached)[0] | carriers) & empty & ~reached
            bridged = self._adjacent(near)[1] & own & ~reached
            if not bridged:
                return reached
            reached = groups.reach(reached | bridged, reached | own)

    @staticmethod
    def distance(layers: Sequence[int], target: int) -> int | None:
        """The first ``k`` whose reached set meets ``target``, or None when none does."""
        for k, reached in enumerate(layers):
            if reached & target:
                return k
        return None

    @staticmethod
    def best_cells(forward: Sequence[int], backward: Sequence[int], empty: int,
                   slack: int = 0) -> tuple[int, int, int]:
        """The least total ``k + j`` over the empty cells first reached at ``k`` from one
        zone and at ``j`` from the other (their layers ``forward`` and ``backward``), the
        bit set of the empty cells with that total (the cells of the shortest ways) and
        that of the cells whose total exceeds it by ``slack`` at most; (0, 0, 0) when no
        empty cell is reached from both."""
        fresh_f = [forward[0] & empty] + [b & ~a & empty for a, b in pairwise(forward)]
        fresh_b = [backward[0] & empty] + [b & ~a & empty for a, b in pairwise(backward)]
        best, found, near = -1, 0, 0
        for total in range(len(fresh_f) + len(fresh_b) - 1):
            cells = 0
            for k in range(max(0, total - len(fresh_b) + 1), min(total, len(fresh_f) - 1) + 1):
                cells |= fresh_f[k] & fresh_b[total - k]
            if cells and best < 0:
                best, found = total, cells
            near |= cells
            if best >= 0 and total >= best + slack:
                return best, found, near
        return (best, found, near) if best >= 0 else (0, 0, 0)
