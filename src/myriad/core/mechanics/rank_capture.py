"""Rank capture: who may take whom, from a rank table with exceptions and terrain.

Games of ranked pieces (Jungle, BanQi) let a piece take an enemy of equal or lower rank
(or only strictly lower: ``equal_takes``), with exceptions that override the ranks: pairs
``(attacker, victim)`` that may take although the rank says no (Jungle's rat takes the
elephant, BanQi's soldier the general), and pairs that may not although it says yes (the
elephant never takes the rat).  Terrain changes it:

* ``weak``: per owner, squares on which that owner's pieces count as rank 0, so any enemy
  takes them (Jungle's traps, weak only to the side whose den they do not guard); whether
  the forbidden pairs still hold there is ``forbidden_on_weak``;
* ``surface``: squares of a second surface (Jungle's water).  A capture between a square of
  the surface and one off it is refused unless ``across`` is true; then the pairs in
  ``not_from_surface`` still may not take from the surface (the rat may not take the
  elephant out of the water).

A :class:`RankCapture` is compiled once against piece codes (kinds by name, through a
``PieceSet``) and answers :meth:`may_take` from the attacker's and victim's codes and
squares; where no terrain is declared, its table ``takes[attacker kind][victim kind]`` is
the whole rule (BanQi reads it directly, and so does the chain heuristic of
:mod:`myriad.games.chains`).  Ranks are numbers, or an order written highest first
(:func:`ranks_in_order`: a rule book's "general > advisor > ... > soldier").
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from myriad.core.errors import GameDefinitionError
from myriad.core.pieces import PieceSet


def ranks_in_order(order: Sequence[str], kinds: Collection[str] | None = None) -> dict[str, int]:
    """The ranks of an order written highest first: ``("general", "advisor", "soldier")``
    -> general 3, advisor 2, soldier 1.  With ``kinds``, the order must list each of them
    exactly once; a kind listed twice is always an error (:class:`GameDefinitionError`)."""
    if len(set(order)) != len(order) or (kinds is not None and sorted(order) != sorted(kinds)):
        wanted = f"each of {', '.join(kinds)} once" if kinds is not None else "each kind once"
        raise GameDefinitionError(f"rank capture: the rank order must list {wanted}, not {', '.join(order)}")
    return {name: len(order) - i for i, name in enumerate(order)}


class RankCapture:
    """Who may take whom.  ``ranks`` maps piece-kind names to ranks (higher is stronger);
    ``allowed`` and ``forbidden`` are ``(attacker kind, victim kind)`` pairs overriding the
    ranks; ``weak[owner]`` the squares where ``owner``'s pieces have rank 0; ``surface``,
    ``across`` and ``not_from_surface`` as the module says."""

    def __init__(self, pieces: PieceSet, ranks: Mapping[str, int], *, equal_takes: bool = True,
                 allowed: Collection[tuple[str, str]] = (), forbidden: Collection[tuple[str, str]] = (),
                 weak: Sequence[Collection[int]] = (), forbidden_on_weak: bool = False,
                 surface: Collection[int] = (), across: bool = False,
                 not_from_surface: Collection[tuple[str, str]] = ()) -> None:
        names = {k.name for k in pieces.kinds}
        for name in ranks:
            if name not in names:
                raise GameDefinitionError(f"rank capture: no piece kind named {name!r}")
        for pair in (*allowed, *forbidden, *not_from_surface):
            for name in pair:
                if name not in ranks:
                    raise GameDefinitionError(f"rank capture: {name!r} in {pair} has no rank")
        clash = set(allowed) & set(forbidden)
        if clash:
            raise GameDefinitionError(f"rank capture: {sorted(clash)} both allowed and forbidden")
        count = pieces.count
        rank = [-1] * count
        for code in range(1, count):
            rank[code] = ranks.get(pieces.kind(code).name, -1)
        self.owner_of = pieces.owner_of
        self.kind_of = pieces.kind_of
        kinds = pieces.kind_index
        kind_count = len(pieces.kinds)
        # by_rank[a][v]: attacker kind a takes victim kind v on open ground
        by_rank = [[False] * kind_count for _ in range(kind_count)]
        for a in pieces.kinds:
            for v in pieces.kinds:
                if a.name in ranks and v.name in ranks:
                    ra, rv = ranks[a.name], ranks[v.name]
                    by_rank[kinds[a.name]][kinds[v.name]] = ra > rv or (equal_takes and ra == rv)
        on_weak = [[a.name in ranks and v.name in ranks for v in pieces.kinds] for a in pieces.kinds]
        for a_name, v_name in allowed:
            by_rank[kinds[a_name]][kinds[v_name]] = True
        for a_name, v_name in forbidden:
            by_rank[kinds[a_name]][kinds[v_name]] = False
            if forbidden_on_weak:
                on_weak[kinds[a_name]][kinds[v_name]] = False
        self.takes = tuple(tuple(row) for row in by_rank)
        self.takes_weak = tuple(tuple(row) for row in on_weak)
        self.weak = tuple(frozenset(w) for w in weak)
        self.surface = frozenset(surface)
        self.across = across
        self.not_from_surface = frozenset((kinds[a], kinds[v]) for a, v in not_from_surface)

    def is_weak(self, code: int, pos: int) -> bool:
        """Whether the piece ``code`` on ``pos`` stands on a square that strips its rank."""
        owner = self.owner_of[code]
        return owner < len(self.weak) and pos in self.weak[owner]

    def may_take(self, attacker: int, frm: int, victim: int, to: int) -> bool:
        """Whether the piece ``attacker`` moving from ``frm`` may take the enemy ``victim``
        on ``to`` (both codes; the owners are assumed to differ)."""
        a, v = self.kind_of[attacker], self.kind_of[victim]
        surface = self.surface
        if surface:
            from_surface, to_surface = frm in surface, to in surface
            if from_surface != to_surface:
                if not self.across:
                    return False
                if from_surface and (a, v) in self.not_from_surface:
                    return False
        if self.is_weak(victim, to):
            return self.takes_weak[a][v]
        return self.takes[a][v]
