"""Slides with restricted squares: rook moves that only some pieces may end on.

Tafl's throne and corners are *restricted*: only the king may stop there; other pieces
may or may not pass over an empty restricted square (``passable``).  A
:class:`RestrictedSlides` is compiled once against a topology into rays, then lists the
destinations of one piece from the cells of a state.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from myriad.core.topology import Topology


class RestrictedSlides:
    """Slides over empty squares along ``directions``, up to ``limit`` steps (None: no
    limit).  ``restricted`` squares are closed to every code but those in ``privileged``;
    the others may slide over them (when empty) if the square is in ``passable``, else
    the square ends their ray."""

    def __init__(self, topology: Topology, *, directions: Sequence[str] = ("n", "s", "e", "w"),
                 limit: int | None = None, restricted: Collection[int] = (),
                 passable: Collection[int] = (), privileged: Collection[int] = ()) -> None:
        self.topology = topology
        self.restricted = tuple(p in restricted for p in range(topology.size))
        self.passable = tuple(p in passable for p in range(topology.size))
        self.privileged = frozenset(privileged)
        self.rays = tuple(tuple(r for r in (topology.ray(pos, d, 0, limit) for d in directions) if r)
                          for pos in range(topology.size))

    def targets(self, cells: Sequence[int], frm: int) -> list[int]:
        """The squares the piece on ``frm`` may move to."""
        out: list[int] = []
        if cells[frm] in self.privileged:
            for ray in self.rays[frm]:
                for t in ray:
                    if cells[t]:
                        break
                    out.append(t)
            return out
        restricted, passable = self.restricted, self.passable
        for ray in self.rays[frm]:
            for t in ray:
                if cells[t]:
                    break
                if restricted[t]:
                    if passable[t]:
                        continue
                    break
                out.append(t)
        return out

    def may_stand(self, code: int, pos: int) -> bool:
        """Whether a piece ``code`` may stand on ``pos`` at all."""
        return not self.restricted[pos] or code in self.privileged
