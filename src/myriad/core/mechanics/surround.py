"""Surround capture: stones in connected groups, taken when their last liberty is filled.

The capture of Go and its kin (Atari Go, Gonnect, ...).  A :class:`Surround` is compiled
once against a topology (its links are the lines stones connect along: the orthogonal
links of a Go board); then over the cells of a state:

* :meth:`Surround.groups` labels every chain of like stones and lists its stones and its
  liberties (the empty points next to it);
* :meth:`Surround.placements` lists where a player may put a stone and what each
  placement takes: enemy groups whose last liberty it fills are removed; a placement that
  takes nothing and leaves its own group without a liberty is suicide, refused unless
  ``suicide`` allows it (then the suicidal group is removed);
* :meth:`Surround.area` counts, per player, the stones and the empty regions reaching only
  that player's stones (Tromp-Taylor area scoring).

Repetition rules (simple ko, superko) are left to the game: each placement reports what it
takes, from which the position it makes follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from myriad.core.errors import GameDefinitionError
from myriad.core.topology import NO_LINK, Topology


class Groups(NamedTuple):
    """The chains of stones of a position: ``label[pos]`` is the chain on ``pos`` (-1 for
    an empty point); ``stones[g]``, ``liberties[g]`` and ``owner[g]`` describe chain ``g``."""

    label: list[int]
    stones: list[list[int]]
    liberties: list[set[int]]
    owner: list[int]


class Placement(NamedTuple):
    """A legal placement: the point and the stones it takes, in ascending order (with
    ``suicide`` allowed, a suicidal placement takes the mover's own group, the new stone
    included)."""

    pos: int
    taken: tuple[int, ...]


class Surround:
    """Groups, liberties, captures and suicide for ``stones`` (one stone code per player)
    on ``topology``; ``suicide``: whether a placement may take its own group."""

    def __init__(self, topology: Topology, stones: Sequence[int], suicide: bool = False) -> None:
        if len(set(stones)) != len(stones) or any(s <= 0 for s in stones):
            raise GameDefinitionError(f"surround: stone codes must be distinct and positive, not {list(stones)}")
        self.size = topology.size
        self.stones: tuple[int, ...] = tuple(stones)
        self.suicide = suicide
        #: The points linked to each point (each once, in direction order).
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(dict.fromkeys(row[p] for row in topology.links if row[p] != NO_LINK))
            for p in range(topology.size))
        self.owner_of: dict[int, int] = {code: player for player, code in enumerate(self.stones)}

    def group(self, cells: Sequence[int], pos: int) -> tuple[list[int], set[int]]:
        """The stones of the chain on ``pos`` (which must hold a stone) and its liberties."""
        colour = cells[pos]
        if not colour:
            raise ValueError(f"surround: no stone on point {pos}")
        seen, stack, libs = {pos}, [pos], set()
        neighbours = self.neighbours
        while stack:
            q = stack.pop()
            for r in neighbours[q]:
                v = cells[r]
                if v == 0:
                    libs.add(r)
                elif v == colour and r not in seen:
                    seen.add(r)
                    stack.append(r)
        return sorted(seen), libs

    def groups(self, cells: Sequence[int]) -> Groups:
        """Every chain of the position, labelled (see :class:`Groups`)."""
        label = [-1] * self.size
        stones: list[list[int]] = []
        liberties: list[set[int]] = []
        owner: list[int] = []
        neighbours, owner_of = self.neighbours, self.owner_of
        for p, colour in enumerate(cells):
            if not colour or label[p] >= 0:
                continue
            g = len(stones)
            label[p] = g
            members, libs, stack = [], set(), [p]
            while stack:
                q = stack.pop()
                members.append(q)
                for r in neighbours[q]:
                    v = cells[r]
                    if v == 0:
                        libs.add(r)
                    elif v == colour and label[r] < 0:
                        label[r] = g
                        stack.append(r)
            stones.append(members)
            liberties.append(libs)
            owner.append(owner_of.get(colour, -1))
        return Groups(label, stones, liberties, owner)

    def placement(self, cells: Sequence[int], pos: int, player: int,
                  groups: Groups | None = None) -> Placement | None:
        """Placing ``player``'s stone on the empty point ``pos``: what it takes, or None when
        it is suicide and suicide is not allowed."""
        g = groups or self.groups(cells)
        label, libs, owner = g.label, g.liberties, g.owner
        taken: list[int] = []
        alive = False
        hit: list[int] = []
        for r in self.neighbours[pos]:
            gr = label[r]
            if gr < 0:
                alive = True
            elif owner[gr] == player:
                if len(libs[gr]) > 1:
                    alive = True
            elif len(libs[gr]) == 1 and gr not in hit:
                hit.append(gr)
                taken.extend(g.stones[gr])
        if taken:
            return Placement(pos, tuple(sorted(taken)))
        if alive:
            return Placement(pos, ())
        if not self.suicide:
            return None
        own = {pos}
        for r in self.neighbours[pos]:
            gr = label[r]
            if gr >= 0 and owner[gr] == player:
                own.update(g.stones[gr])
        return Placement(pos, tuple(sorted(own)))

    def placements(self, cells: Sequence[int], player: int, groups: Groups | None = None) -> list[Placement]:
        """Every empty point where ``player`` may place, with what each placement takes."""
        g = groups or self.groups(cells)
        out: list[Placement] = []
        place, neighbours = self.placement, self.neighbours
        label, libs, owner = g.label, g.liberties, g.owner
        quiet: tuple[int, ...] = ()
        for p, v in enumerate(cells):
            if v:
                continue
            free = False
            for r in neighbours[p]:  # the common case: a liberty, nothing to take
                gr = label[r]
                if gr < 0:
                    free = True
                elif owner[gr] != player and len(libs[gr]) == 1:
                    break
            else:
                if free:
                    out.append(Placement(p, quiet))
                    continue
            found = place(cells, p, player, g)
            if found is not None:
                out.append(found)
        return out

    def area(self, cells: Sequence[int]) -> list[int]:
        """Per player: stones on the board plus the empty points of regions that reach
        that player's stones only (Tromp-Taylor area)."""
        counts = [0] * len(self.stones)
        owner_of, neighbours = self.owner_of, self.neighbours
        seen = [False] * self.size
        for p, v in enumerate(cells):
            if v:
                if v in owner_of:
                    counts[owner_of[v]] += 1
                continue
            if seen[p]:
                continue
            seen[p] = True
            region, reached, stack = 0, set(), [p]
            while stack:
                q = stack.pop()
                region += 1
                for r in neighbours[q]:
                    w = cells[r]
                    if w:
                        reached.add(w)
                    elif not seen[r]:
                        seen[r] = True
                        stack.append(r)
            if len(reached) == 1:
                colour = next(iter(reached))
                if colour in owner_of:
                    counts[owner_of[colour]] += region
        return counts

    def play_out(self, cells: list[int], pos: int, player: int) -> bool:
        """Place ``player``'s stone on ``pos`` in ``cells`` (changed in place), taking what
        it takes; False, and ``cells`` unchanged, when it is suicide (and not allowed)."""
        found = self.placement(cells, pos, player)
        if found is None:
            return False
        cells[pos] = self.stones[player]
        for q in found.taken:
            cells[q] = 0
        return True

    def ladder(self, cells: Sequence[int], pos: int, budget: int = 300) -> int | None:
        """Whether the chain on ``pos``, with at most two liberties and its opponent to
        move, is taken by a run of ataris (a ladder, or a net of ataris): the atari that
        starts the capture (its point), else None.  The defender answers each atari by
        extending at its last liberty or by taking an attacking chain in atari; the reading
        gives up (None) after ``budget`` positions."""
        left = [budget]
        return self._chase(list(cells), pos, left)

    def _chase(self, cells: list[int], pos: int, left: list[int]) -> int | None:
        defender = self.owner_of[cells[pos]]
        attacker = 1 - defender
        _stones, libs = self.group(cells, pos)
        if len(libs) == 1:
            return next(iter(libs))
        if len(libs) != 2:
            return None
        for point in sorted(libs):
            left[0] -= 1
            if left[0] < 0:
                return None
            after = list(cells)
            if not self.play_out(after, point, attacker) or not after[pos]:
                continue
            if self._defence_fails(after, pos, left):
                return point
        return None

    def _defence_fails(self, cells: list[int], pos: int, left: list[int]) -> bool:
        """The chain on ``pos`` is in atari with its owner to move: whether every answer
        (extend, or take an attacker next to it) still loses it."""
        defender = self.owner_of[cells[pos]]
        stones, libs = self.group(cells, pos)
        if len(libs) != 1:
            return len(libs) == 0
        answers = set(libs)
        groups = self.groups(cells)
        for s in stones:
            for r in self.neighbours[s]:
                g = groups.label[r]
                if g >= 0 and groups.owner[g] != defender and len(groups.liberties[g]) == 1:
                    answers |= groups.liberties[g]
        for answer in sorted(answers):
            left[0] -= 1
            if left[0] < 0:
                return False
            after = list(cells)
            if not self.play_out(after, answer, defender):
                continue
            _s, now = self.group(after, pos)
            if len(now) >= 3:
                return False
            if len(now) == 2 and self._chase(after, pos, left) is None:
                return False
        return True
