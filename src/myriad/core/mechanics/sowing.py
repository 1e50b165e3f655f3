"""Sowing with stores: the move of the Kalah family of mancala games.

The board is a ring of houses and stores (see :func:`two_row_ring`).  A player lifts every
seed of one of their houses and sows them one by one into the following positions in the
"next" direction (counter-clockwise), passing over the opponent's store.  The rules that
follow are parameters of :class:`Sowing`:

* **extra turn**: the last seed lands in the sower's own store;
* **capture**: the last seed lands in an own house that was empty; that seed and the seeds of
  the facing house ("across") go to the sower's store.  ``capture_facing_empty`` says whether
  this happens when the facing house is empty too (then the lone last seed is stored);
* **end**: as soon as one side's houses are all empty the game is over; the seeds left on
  the board go to the store of their owner (``leftovers="owner"``) or of the player whose
  side is empty (``leftovers="empty_side"``);
* **laps**: with more seeds than positions in one lap the sowing goes round again; the
  emptied house gets seeds on later laps unless ``skip_origin`` is set.

A move is a list of ``SET`` actions, one per changed cell, the emptied house first; cells
hold seed counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Literal

from myriad.core.errors import GameDefinitionError
from myriad.core.move import SET, Action, Move
from myriad.core.topology import NO_LINK, Topology, ring

Leftovers = Literal["owner", "empty_side"]
LEFTOVER_RULES: tuple[str, ...] = ("owner", "empty_side")


def two_row_ring(house_names: Sequence[Sequence[str]], store_names: Sequence[str]) -> Topology:
    """Two facing rows of houses with a store at each end, as one sowing ring.

    Ring order: the first player's houses (left to right as that player sees them), the
    first player's store (on their right), the second player's houses (left to right as
    *they* see them, so right to left on the drawing), the second player's store.
    Direction "next" follows that order (counter-clockwise seen from above, first player at
    the bottom); "across" links each house to the house facing it (stores have no link).
    """
    if len(house_names) != 2 or len(store_names) != 2:
        raise GameDefinitionError("two_row_ring: give the house names and the store of each of two players")
    n = len(house_names[0])
    if n < 1 or len(house_names[1]) != n:
        raise GameDefinitionError("two_row_ring: both rows need the same, positive number of houses")
    names = [*house_names[0], store_names[0], *house_names[1], store_names[1]]
    coords = ([(float(i + 1), 0.0) for i in range(n)] + [(float(n + 1), 0.5)]
              + [(float(n - i), 1.0) for i in range(n)] + [(0.0, 0.5)])
    # Position i (first row) faces position 2n - i (second row); stores n and 2n+1 face nothing.
    across = [2 * n - p if p != n and p != 2 * n + 1 else NO_LINK for p in range(2 * n + 2)]
    return ring(names, coords, extra_links={"across": across})


def _getter(positions: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """An itemgetter that always returns a tuple (itemgetter of one index returns a scalar)."""
    if len(positions) == 1:
        only = positions[0]
        return lambda cells: (cells[only],)
    return itemgetter(*positions)


class Sowing:
    """Sowing into a ring with one store per player, compiled into flat tables.

    ``houses[p]`` are player ``p``'s houses and ``stores[p]`` their store (two players);
    ``max_seeds`` bounds a cell's content (the total number of seeds).
    """

    def __init__(self, topology: Topology, houses: Sequence[Sequence[int]], stores: Sequence[int], *,
                 max_seeds: int, capture_facing_empty: bool = False, leftovers: Leftovers = "owner",
                 skip_origin: bool = False) -> None:
        if len(houses) != 2 or len(stores) != 2:
            raise GameDefinitionError("sowing: exactly two players, each with houses and a store")
        if leftovers not in LEFTOVER_RULES:
            raise GameDefinitionError(
                f"sowing: leftovers must be one of {', '.join(LEFTOVER_RULES)}, not {leftovers!r}")
        if max_seeds < 1:
            raise GameDefinitionError(f"sowing: max_seeds must be positive, not {max_seeds}")
        size = topology.size
        nxt = topology.links[topology.direction("next")]
        across_row = topology.links[topology.direction("across")]
        owner = [-1] * size
        for p, row in enumerate(houses):
            if not row:
                raise GameDefinitionError(f"sowing: player {p} has no houses")
            for h in row:
                if not 0 <= h < size or owner[h] != -1 or h in stores:
                    raise GameDefinitionError(f"sowing: house {h} is off the ring, repeated or a store")
                owner[h] = p
        for h in range(size):
            if owner[h] != -1 and (across_row[h] == NO_LINK or owner[across_row[h]] != 1 - owner[h]):
                raise GameDefinitionError(
                    f"sowing: house {topology.names[h]} does not face a house of the opponent")

        self.topology = topology
        self.size = size
        self.max_seeds = max_seeds
        self.capture_facing_empty = capture_facing_empty
        self.leftovers = leftovers
        self.skip_origin = skip_origin
        self.houses: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in houses)
        self.stores: tuple[int, ...] = tuple(stores)
        self.owner: tuple[int, ...] = tuple(owner)
        self.across: tuple[int, ...] = tuple(across_row)
        # lap[h]: the positions one seed after another goes to when sowing from house h.
        laps: list[tuple[int, ...]] = [()] * size
        for h in range(size):
            if owner[h] == -1:
                continue
            skip = self.stores[1 - owner[h]]
            lap, pos = [], nxt[h]
            while pos != h:
                if pos != skip:
                    lap.append(pos)
                pos = nxt[pos]
            if not skip_origin:
                lap.append(h)
            laps[h] = tuple(lap)
        self.lap: tuple[tuple[int, ...], ...] = tuple(laps)
        # sown[h][k]: the first k positions of the lap (k < len(lap)); reach[h][k]: the cells a
        # sowing of k < len(lap) seeds from h changes, h first; reach[h][-1]: a full lap or more.
        self.sown: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(lap[:k] for k in range(len(lap))) for lap in laps)
        # own_gain[h][k]: how many of those k seeds stay in the sower's houses; [-1]: a full lap.
        self.own_gain: tuple[tuple[int, ...], ...] = tuple(
            tuple(sum(owner[p] == owner[h] for p in lap[:k]) for k in range(len(lap) + 1))
            for h, lap in enumerate(laps))
        self.reach: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple((h,) + lap[:k] for k in range(len(lap))) + ((h,) + tuple(p for p in lap if p != h),)
            if lap else () for h, lap in enumerate(laps))
        #: set_action[pos][v]: the action "cell pos now holds v seeds", built once.
        self.set_action: tuple[tuple[Action, ...], ...] = tuple(
            tuple(Action(SET, pos, pos, v, 0) for v in range(max_seeds + 1)) for pos in range(size))
        self._side = (_getter(self.houses[0]), _getter(self.houses[1]))

    # -- the rule ---------------------------------------------------------------------------

    def sow(self, cells: Sequence[int], player: int, house: int) -> list[int]:
        """The cells after ``player`` sows the seeds of ``house`` (captures and end included)."""
        return self._sow(cells, player, house)[0]

    def _sow(self, cells: Sequence[int], player: int, house: int,
             own: int = -1) -> tuple[list[int], tuple[int, ...]]:
        """The cells after the sowing, and the changed positions (``house`` first).

        ``own``, when known, is the number of seeds in ``player``'s houses before the move.
        """
        new = list(cells)
        seeds = new[house]
        new[house] = 0
        lap = self.lap[house]
        if seeds < len(lap):
            for pos in self.sown[house][seeds]:
                new[pos] += 1
            changed = self.reach[house][seeds]
            last = lap[seeds - 1]
            kept = self.own_gain[house][seeds]
        else:
            rounds, rest = divmod(seeds, len(lap))
            for pos in lap:
                new[pos] += rounds
            for pos in self.sown[house][rest]:
                new[pos] += 1
            changed = self.reach[house][-1]
            last = lap[(seeds - 1) % len(lap)]
            kept = rounds * self.own_gain[house][-1] + self.own_gain[house][rest]
        over = False
        if new[last] == 1 and self.owner[last] == player:
            facing = self.across[last]
            taken = new[facing]
            if taken or self.capture_facing_empty:
                store = self.stores[player]
                new[store] += taken + 1
                new[last] = new[facing] = 0
                changed = tuple(p for p in dict.fromkeys((*changed, facing, store)) if new[p] != cells[p])
                # Sowing only adds to the opponent's houses: only a capture can empty them.
                over = not any(self._side[1 - player](new)) or not any(self._side[player](new))
        elif own >= 0:
            over = own - seeds + kept == 0
        else:
            over = not any(self._side[player](new))
        if over:
            self._collect(new)
            changed = (house,) + tuple(p for p in range(self.size) if p != house and new[p] != cells[p])
        return new, changed

    def _collect(self, cells: list[int]) -> None:
        """Move the seeds left in the houses to a store, per the ``leftovers`` rule (in place)."""
        houses, stores = self.houses, self.stores
        remaining = [sum(cells[h] for h in houses[p]) for p in (0, 1)]
        for p in (0, 1):
            for h in houses[p]:
                cells[h] = 0
            if self.leftovers == "owner":
                cells[stores[p]] += remaining[p]
            else:
                cells[stores[1 - p]] += remaining[p]  # the other side, whose houses are empty

    def moves(self, cells: Sequence[int], player: int) -> list[Move]:
        """Every sowing of ``player`` ([] once a side is empty: the game is over)."""
        left0, left1 = self._side
        if not any(left0(cells)) or not any(left1(cells)):
            return []
        set_action = self.set_action
        sow = self._sow
        own = sum(self._side[player](cells))
        out = []
        for house in self.houses[player]:
            if cells[house]:
                new, changed = sow(cells, player, house, own)
                out.append(Move([set_action[p][new[p]] for p in changed]))
        return out

    def ends_in_store(self, cells: Sequence[int], player: int, house: int) -> bool:
        """Whether the last seed sown from ``house`` (as it stands in ``cells``) reaches the
        sower's own store: the extra-turn rule."""
        lap = self.lap[house]
        return lap[(cells[house] - 1) % len(lap)] == self.stores[player]

    # -- the end ----------------------------------------------------------------------------

    def is_over(self, cells: Sequence[int]) -> bool:
        """True when one side's houses are all empty."""
        left0, left1 = self._side
        return not any(left0(cells)) or not any(left1(cells))

    def final_scores(self, cells: Sequence[int]) -> tuple[int, int]:
        """Each player's store once the leftovers are collected (call when ``is_over``)."""
        new = list(cells)
        self._collect(new)
        return new[self.stores[0]], new[self.stores[1]]

    def side_seeds(self, cells: Sequence[int], player: int) -> int:
        """Seeds in ``player``'s houses."""
        return sum(self._side[player](cells))
