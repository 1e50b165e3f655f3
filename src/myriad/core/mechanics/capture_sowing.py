"""Sowing that captures in the opponent's row: the move of Oware, Toguz Kumalak and their kin.

The board is :func:`myriad.core.mechanics.sowing.two_row_ring`: two rows of houses and a store
per player, but here the stores sit off the sowing path.  A player lifts every seed of one of
their houses and sows them one by one counter-clockwise into the following houses of both
rows.  The rules that follow are parameters of :class:`CaptureSowing`:

* **where sowing starts**: in the next house (``origin_first=False``), or in the emptied house
  itself when it held more than one seed (``origin_first=True``; Toguz Kumalak: a lone seed
  moves to the next house);
* **laps**: with more seeds than houses the sowing goes round again; ``skip_origin`` passes
  over the emptied house (Oware's rule for 12 seeds and more);
* **capture**: when the last seed lands in an opponent's house whose count is then one of
  ``capture_counts`` (Oware: 2 or 3) or even (``capture_even``, Toguz Kumalak), the seeds of
  that house go to the sower's store; with ``capture_chain`` the preceding opponent houses
  are taken too, backwards, as long as their counts qualify (Oware);
* **grand slam**: a capture that would take every seed of the opponent's row is
  ``"allowed"``, captures nothing (``"no_capture"``, Oware abapa), or makes the move illegal
  (``"forbidden"``; should every move be one, the player has no legal move);
* **feeding**: with ``must_feed`` a player whose opponent has no seeds must leave them some
  when a move can (Oware);
* **claimed houses** (Toguz Kumalak's tuzdyk): with ``claim_count`` = k, the last seed making
  exactly k in an opponent's house claims it for the sower, once per game, unless it is the
  opponent's last house (``claim_last_house=False``) or faces the same number as the
  opponent's own claim (``claim_mirror=False``).  The k seeds go to the sower's store and so
  does every seed sown into a claimed house afterwards.  Claims are given as a pair
  ``claims[p]`` = the opponent's house player ``p`` holds, or :data:`NO_CLAIM`.

A move is a list of ``SET`` actions, one per changed cell, the emptied house first; the
action emptying a newly claimed house has part number 1 (that is how a game sees the claim).
Cells hold seed counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from myriad.core.errors import GameDefinitionError
from myriad.core.move import SET, Action, Move
from myriad.core.topology import Topology

GrandSlam = Literal["allowed", "no_capture", "forbidden"]
GRAND_SLAM_RULES: tuple[str, ...] = ("allowed", "no_capture", "forbidden")
#: ``claims[p]`` when player ``p`` holds no house of the opponent.
NO_CLAIM = -1
#: The part number of the action that empties a newly claimed house.
CLAIM_PART = 1


class Sown(NamedTuple):
    """What one sowing did: the cells after it, the house it claimed (or ``NO_CLAIM``),
    the seeds it captured (claims included), whether it was a grand slam, and the houses
    seeds were sown into (in order; the emptied house may be among them)."""

    cells: list[int]
    claimed: int
    captured: int
    grand_slam: bool
    touched: tuple[int, ...] = ()


class CaptureSowing:
    """Sowing with captures on the opponent's side, compiled into flat tables.

    ``houses[p]`` are player ``p``'s houses in sowing order (from the player's left) and
    ``stores[p]`` their store (two players); ``max_seeds`` bounds a cell's content.
    """

    def __init__(self, topology: Topology, houses: Sequence[Sequence[int]], stores: Sequence[int], *,
                 max_seeds: int, origin_first: bool = False, skip_origin: bool = False,
                 capture_counts: Iterable[int] = (), capture_even: bool = False,
                 capture_chain: bool = False, grand_slam: GrandSlam = "allowed", must_feed: bool = False,
                 claim_count: int = 0, claim_last_house: bool = True, claim_mirror: bool = True) -> None:
        if len(houses) != 2 or len(stores) != 2:
            raise GameDefinitionError("capture sowing: exactly two players, each with houses and a store")
        if grand_slam not in GRAND_SLAM_RULES:
            raise GameDefinitionError(
                f"capture sowing: grand_slam must be one of {', '.join(GRAND_SLAM_RULES)}, not {grand_slam!r}")
        if max_seeds < 1:
            raise GameDefinitionError(f"capture sowing: max_seeds must be positive, not {max_seeds}")
        counts = frozenset(capture_counts)
        if any(c < 1 or c > max_seeds for c in counts):
            raise GameDefinitionError(f"capture sowing: capture counts must be 1..{max_seeds}, not {sorted(counts)}")
        if not 0 <= claim_count <= max_seeds:
            raise GameDefinitionError(f"capture sowing: claim_count must be 0..{max_seeds}, not {claim_count}")
        size = topology.size
        nxt = topology.links[topology.direction("next")]
        owner = [-1] * size
        index = [-1] * size
        for p, row in enumerate(houses):
            if not row or len(row) != len(houses[0]):
                raise GameDefinitionError("capture sowing: both players need the same, positive number of houses")
            for i, h in enumerate(row):
                if not 0 <= h < size or owner[h] != -1 or h in stores:
                    raise GameDefinitionError(f"capture sowing: house {h} is off the board, repeated or a store")
                owner[h], index[h] = p, i
        # The ring of houses: follow "next", passing over everything that is not a house.
        ring: list[int] = []
        pos = houses[0][0]
        for _ in range(size):
            if owner[pos] != -1:
                ring.append(pos)
            pos = nxt[pos]
        if pos != houses[0][0] or sorted(ring) != sorted(h for row in houses for h in row):
            raise GameDefinitionError("capture sowing: the houses do not form one ring along 'next'")
        for p, row in enumerate(houses):
            start = ring.index(row[0])
            if tuple(ring[start:start + len(row)]) != tuple(row):
                raise GameDefinitionError(f"capture sowing: player {p}'s houses are not in sowing order")

        self.topology = topology
        self.size = size
        self.max_seeds = max_seeds
        self.origin_first = origin_first
        self.skip_origin = skip_origin
        self.capture_chain = capture_chain
        self.grand_slam = grand_slam
        self.must_feed = must_feed
        self.claim_count = claim_count
        self.claim_last_house = claim_last_house
        self.claim_mirror = claim_mirror
        self.houses: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in houses)
        self.stores: tuple[int, ...] = tuple(stores)
        self.owner: tuple[int, ...] = tuple(owner)
        #: index[h]: the place of house h in its owner's row (0: the owner's leftmost).
        self.index: tuple[int, ...] = tuple(index)
        #: capturable[n]: whether a house holding n seeds after the last seed is captured.
        self.capturable: tuple[bool, ...] = tuple(
            n in counts or (capture_even and n > 0 and n % 2 == 0) for n in range(max_seeds + 1))
        n_ring = len(ring)
        at = {h: i for i, h in enumerate(ring)}
        #: prev[h]: the house sown just before h (the way a capture chain goes back).
        self.prev: tuple[int, ...] = tuple(ring[(at[h] - 1) % n_ring] if h in at else -1 for h in range(size))
        # cycle[h]: every house from h on, h first; lap[h]: the houses seeds go to, one after
        # another, when sowing from h starts in the next house.
        cycles = [tuple(ring[(at[h] + k) % n_ring] for k in range(n_ring)) if h in at else () for h in range(size)]
        self.cycle: tuple[tuple[int, ...], ...] = tuple(cycles)
        self.lap: tuple[tuple[int, ...], ...] = tuple(
            (c[1:] if skip_origin else c[1:] + c[:1]) if c else () for c in cycles)
        self.set_action: tuple[tuple[Action, ...], ...] = tuple(
            tuple(Action(SET, pos, pos, v, 0) for v in range(max_seeds + 1)) for pos in range(size))

    # -- the rule ---------------------------------------------------------------------------

    def sow(self, cells: Sequence[int], player: int, house: int,
            claims: Sequence[int] = (NO_CLAIM, NO_CLAIM)) -> Sown:
        """Sow ``house`` of ``player``: the cells after it, captures and claims included (a
        grand slam not ``"allowed"`` captures nothing here; :meth:`moves` drops forbidden ones)."""
        new = list(cells)
        seeds = new[house]
        new[house] = 0
        path = self.cycle[house] if self.origin_first and seeds > 1 else self.lap[house]
        length = len(path)
        if seeds <= length:
            touched = path[:seeds]
            for pos in touched:
                new[pos] += 1
        else:
            touched = path
            rounds, rest = divmod(seeds, length)
            for pos in path:
                new[pos] += rounds
            for pos in path[:rest]:
                new[pos] += 1
        last = path[(seeds - 1) % length]
        for p, held in enumerate(claims):  # a claimed house passes its seeds to its holder
            if held != NO_CLAIM and new[held]:
                new[self.stores[p]] += new[held]
                new[held] = 0
        opponent = 1 - player
        if self.owner[last] != opponent or last == claims[player]:
            return Sown(new, NO_CLAIM, 0, False, touched)
        count = new[last]
        if count == self.claim_count and self._may_claim(last, player, claims):
            new[self.stores[player]] += count
            new[last] = 0
            return Sown(new, last, count, False, touched)
        capturable = self.capturable
        if not capturable[count]:
            return Sown(new, NO_CLAIM, 0, False, touched)
        taken = [last]
        if self.capture_chain:
            owner, prev, pos = self.owner, self.prev, self.prev[last]
            while owner[pos] == opponent and pos != last and pos != claims[player] and capturable[new[pos]]:
                taken.append(pos)
                pos = prev[pos]
        seized = sum(new[p] for p in taken)
        if self.grand_slam != "allowed" and seized == sum(new[h] for h in self.houses[opponent]):
            return Sown(new, NO_CLAIM, 0, True, touched)
        for p in taken:
            new[p] = 0
        new[self.stores[player]] += seized
        return Sown(new, NO_CLAIM, seized, False, touched)

    def _may_claim(self, house: int, player: int, claims: Sequence[int]) -> bool:
        """Whether ``player`` may claim the opponent's ``house`` now."""
        if not self.claim_count or claims[player] != NO_CLAIM:
            return False
        if not self.claim_last_house and self.index[house] == len(self.houses[0]) - 1:
            return False
        theirs = claims[1 - player]
        return self.claim_mirror or theirs == NO_CLAIM or self.index[theirs] != self.index[house]

    def moves(self, cells: Sequence[int], player: int, claims: Sequence[int] = (NO_CLAIM, NO_CLAIM), *,
              captures_only: bool = False) -> list[Move]:
        """Every legal sowing of ``player`` (feeding and grand-slam rules applied); with
        ``captures_only``, only those that put seeds into ``player``'s store."""
        opponent_row = self.houses[1 - player]
        starving = self.must_feed and not any(cells[h] for h in opponent_row)
        store = self.stores[player]
        forbidden = self.grand_slam == "forbidden"
        out: list[Move] = []
        for house in self.houses[player]:
            if not cells[house]:
                continue
            sown = self.sow(cells, player, house, claims)
            if (starving and not any(sown.cells[h] for h in opponent_row)) or (forbidden and sown.grand_slam):
                continue
            if captures_only and sown.cells[store] == cells[store]:
                continue
            out.append(self._move(cells, house, sown))
        return out

    def _move(self, cells: Sequence[int], house: int, sown: Sown) -> Move:
        """The move of a sowing: one ``SET`` per changed cell, ``house`` first."""
        new, set_action = sown.cells, self.set_action
        actions = [set_action[house][new[house]]]
        for pos in (*sown.touched, *self.stores):
            if pos != house and new[pos] != cells[pos]:
                actions.append(Action(SET, pos, pos, 0, CLAIM_PART) if pos == sown.claimed
                               else set_action[pos][new[pos]])
        return Move(actions)

    # -- counting ---------------------------------------------------------------------------

    def side_seeds(self, cells: Sequence[int], player: int) -> int:
        """Seeds in ``player``'s houses."""
        return sum(cells[h] for h in self.houses[player])

    def final_scores(self, cells: Sequence[int]) -> tuple[int, int]:
        """Each player's store plus the seeds left in their own houses."""
        return (cells[self.stores[0]] + self.side_seeds(cells, 0),
                cells[self.stores[1]] + self.side_seeds(cells, 1))


def claimed_in(move: Move) -> int:
    """The house ``move`` claims, or :data:`NO_CLAIM`."""
    for action in move:
        if action[4] == CLAIM_PART:
            return action[2]
    return NO_CLAIM
