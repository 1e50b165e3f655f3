"""Custodial capture: a piece taken by being sandwiched between two enemies on a line.

The capture of the tafl family (hnefatafl, tablut, brandubh) and its kin (Hasami shogi,
Ludus latrunculorum).  A :class:`CustodialCapture` is compiled once against a topology;
after a piece lands on ``to``, :meth:`CustodialCapture.captures` lists what the move
takes.  Every rule is a parameter:

* ``directions``        the lines along which sandwiches count, as pairs of opposite
  directions (``("n", "s"), ("e", "w")`` for the orthogonal capture of tafl);
* ``hostile``           squares that act as an enemy of every piece next to them (tafl's
  corners), and ``hostile_when_empty`` those that do only while empty (the throne);
* ``armed``             piece codes that take part in captures (an unarmed king is left out);
* ``royal``             piece codes never taken by a plain sandwich: they fall under the
  royal rules below instead;
* ``royal_sides``       2: a royal piece is taken like any other; 4: it must be enclosed on
  every side (hostile squares in ``royal_hostile`` standing in for an enemy);
  ``royal_strong`` lists squares where four sides are needed whatever ``royal_sides``
  says (the throne and the squares beside it in tablut and brandubh);
* ``shieldwall``        a row of two or more enemies along the board edge, bracketed at
  both ends (by the moving piece at one end, a piece of the mover or a hostile square at
  the other) with every one faced by a piece of the mover on the inner side, is taken at
  once; royal pieces in the row help to form it but are not taken.

A capture happens only when the mover closes the trap: moving between two enemies is
safe.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from myriad.core.errors import GameDefinitionError
from myriad.core.topology import NO_LINK, Topology


class CustodialCapture:
    """Sandwich captures of the pieces next to a square just moved to.

    ``owner_of`` maps each piece code (0 = empty) to its owner (-1 for empty).
    """

    def __init__(self, topology: Topology, owner_of: Sequence[int], *,
                 directions: Sequence[tuple[str, str]] = (("n", "s"), ("e", "w")),
                 hostile: Collection[int] = (), hostile_when_empty: Collection[int] = (),
                 armed: Collection[int] | None = None, royal: Collection[int] = (),
                 royal_sides: int = 2, royal_strong: Collection[int] = (),
                 royal_hostile: Collection[int] | None = None, shieldwall: bool = False) -> None:
        if royal_sides not in (2, 4):
            raise GameDefinitionError(f"custodial capture: royal_sides must be 2 or 4, not {royal_sides}")
        size = topology.size
        self.topology = topology
        self.owner_of = tuple(owner_of)
        codes = range(1, len(owner_of))
        self.armed = tuple(c in (armed if armed is not None else codes) for c in range(len(owner_of)))
        self.royal = tuple(c in royal for c in range(len(owner_of)))
        self.hostile = tuple(p in hostile for p in range(size))
        self.hostile_when_empty = tuple(p in hostile_when_empty for p in range(size))
        self.royal_sides = royal_sides
        self.royal_strong = tuple(p in royal_strong for p in range(size))
        rh = set(royal_hostile) if royal_hostile is not None else set(hostile) | set(hostile_when_empty)
        self.royal_hostile = tuple(p in rh for p in range(size))
        self.shieldwall = shieldwall
        pairs = []
        for a, b in directions:
            da, db = topology.direction(a), topology.direction(b)
            pairs += [(da, db), (db, da)]
        #: per square, (the neighbour, the square beyond it) for every direction.
        self.lines = tuple(tuple((n, topology.links[d][n] if n != NO_LINK else NO_LINK)
                                 for d, _back in pairs for n in (topology.links[d][pos],) if n != NO_LINK)
                           for pos in range(size))
        #: per square, its neighbours along the capture lines.
        self.neighbours = tuple(tuple(n for n, _beyond in self.lines[pos]) for pos in range(size))
        #: the per-direction link rows of the capture lines, to walk along an edge.
        self.line_dirs = tuple(topology.links[d] for d, _back in pairs)
        self.edge = tuple(len(self.neighbours[pos]) < len(pairs) for pos in range(size))
        #: per edge square, its neighbour off the edge (-1 elsewhere and in corners).
        self.inner = tuple(self._inner(pos) if len(self.neighbours[pos]) == len(pairs) - 1 else NO_LINK
                           for pos in range(size))

    def hostile_to(self, cells: Sequence[int], pos: int, victim_owner: int) -> bool:
        """Whether ``pos`` closes a sandwich against a piece of ``victim_owner``: an armed
        enemy piece stands there, or the square itself is hostile."""
        code = cells[pos]
        if code:
            return (self.armed[code] and self.owner_of[code] != victim_owner) or (
                self.hostile[pos] and self.owner_of[code] != victim_owner)
        return self.hostile[pos] or self.hostile_when_empty[pos]

    def royal_taken(self, cells: Sequence[int], pos: int, frm: int) -> bool:
        """Whether the royal piece on ``pos`` is taken now that an enemy stands on ``frm``
        beside it."""
        me = self.owner_of[cells[pos]]
        if self.royal_sides == 2 and not self.royal_strong[pos]:
            opposite = self._opposite(pos, frm)
            return opposite != NO_LINK and self.hostile_to(cells, opposite, me)
        if len(self.neighbours[pos]) < 4:
            return False
        for n in self.neighbours[pos]:
            code = cells[n]
            if code:
                if self.owner_of[code] == me:
                    return False
            elif not self.royal_hostile[n]:
                return False
        return True

    def _opposite(self, pos: int, frm: int) -> int:
        """The square beyond ``pos`` seen from its neighbour ``frm``."""
        for row in self.line_dirs:
            if row[frm] == pos:
                return row[pos]
        return NO_LINK

    def captures(self, cells: Sequence[int], to: int) -> list[int]:
        """The squares of the pieces taken by the piece that has just landed on ``to``
        (``cells`` already show it there)."""
        mover_code = cells[to]
        me = self.owner_of[mover_code]
        out: list[int] = []
        if not self.armed[mover_code]:
            return out
        owner_of, royal = self.owner_of, self.royal
        for n, beyond in self.lines[to]:
            victim = cells[n]
            if not victim or owner_of[victim] == me:
                continue
            if royal[victim]:
                if self.royal_taken(cells, n, to):
                    out.append(n)
            elif beyond != NO_LINK and self.hostile_to(cells, beyond, owner_of[victim]):
                out.append(n)
        if self.shieldwall and self.edge[to]:
            for n in self._shieldwall(cells, to, me):
                if n not in out:
                    out.append(n)
        return out

    def _shieldwall(self, cells: Sequence[int], to: int, me: int) -> list[int]:
        """Pieces taken by a shieldwall closed at ``to``: walk along the edge from ``to``
        over enemies, each faced on the inner side by a piece of ``me``."""
        owner_of, edge = self.owner_of, self.edge
        out: list[int] = []
        for row in self.line_dirs:
            row_pieces: list[int] = []
            pos = row[to]
            while pos != NO_LINK and edge[pos] and cells[pos] and owner_of[cells[pos]] not in (me, -1):
                row_pieces.append(pos)
                pos = row[pos]
            if len(row_pieces) < 2 or pos == NO_LINK or not edge[pos]:
                continue
            end = cells[pos]
            if not ((end and owner_of[end] == me) or (not end and self.hostile[pos])):
                continue
            if all(self._faced(cells, p, me) for p in row_pieces):
                out.extend(p for p in row_pieces if not self.royal[cells[p]])
        return out

    def _faced(self, cells: Sequence[int], pos: int, me: int) -> bool:
        """Whether the edge piece on ``pos`` has a piece of ``me`` on its inner side."""
        inner = self.inner[pos]
        return inner != NO_LINK and bool(cells[inner]) and self.owner_of[cells[inner]] == me

    def _inner(self, pos: int) -> int:
        """The neighbour of an edge square that lies off the edge (toward the centre)."""
        for row in self.line_dirs:
            n = row[pos]
            if n == NO_LINK:
                continue
            # the inner neighbour is the one whose opposite direction has no link from pos
            for back in self.line_dirs:
                if back[n] == pos and back[pos] == NO_LINK:
                    return n
        return NO_LINK
