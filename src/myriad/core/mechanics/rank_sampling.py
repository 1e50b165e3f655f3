"""Drawing hidden ranks consistent with what is known (Stratego-like games' determinization).

Each hidden item (a piece on the board, in a hand, or removed) carries a *knowledge mask*:
bit ``k`` set when it may have rank ``k``.  The items together must be exactly a known
multiset of ranks (``counts``).  :func:`sample_ranks` draws one such assignment: items in
a random order, each given a random rank of its mask (weighted by how many of that rank
are left), kept only when the items still to come can be matched to the ranks left
(:func:`matchable`, a bipartite matching by augmenting paths), so it never paints itself
into a corner.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from myriad.core.errors import PositionError


def matchable(items: Sequence[int], left: Sequence[int]) -> bool:
    """Whether each mask of ``items`` can get a rank of its own from the counts ``left``
    (rank ``k`` available ``left[k]`` times)."""
    if sum(left) < len(items) or min(left, default=0) < 0:
        return False
    slots = [k for k, n in enumerate(left) for _ in range(n)]
    holder = [-1] * len(slots)
    return all(_place(i, items, slots, holder, [False] * len(slots)) for i in range(len(items)))


def _place(i: int, items: Sequence[int], slots: list[int], holder: list[int], seen: list[bool]) -> bool:
    """Kuhn's augmenting path: give item ``i`` a slot, moving earlier holders if need be.
    (A module function, not a closure: a recursive closure is a reference cycle, garbage
    for the collector after every sample.)"""
    for s, k in enumerate(slots):
        if items[i] >> k & 1 and not seen[s]:
            seen[s] = True
            if holder[s] < 0 or _place(holder[s], items, slots, holder, seen):
                holder[s] = i
                return True
    return False


def sample_ranks(masks: Sequence[int], counts: Sequence[int], rng: random.Random) -> list[int]:
    """A rank for each of ``masks``, within its mask, using rank ``k`` at most ``counts[k]``
    times; raises ``PositionError`` when no assignment exists."""
    left = list(counts)
    if not matchable(masks, left):
        raise PositionError("no assignment of ranks fits what is known")
    order = list(range(len(masks)))
    rng.shuffle(order)
    chosen: dict[int, int] = {}
    for n, i in enumerate(order):
        options = [k for k in range(len(left)) if masks[i] >> k & 1 for _ in range(left[k])]
        rng.shuffle(options)
        rest = [masks[j] for j in order[n + 1:]]
        for k in dict.fromkeys(options):
            left[k] -= 1
            if matchable(rest, left):
                chosen[i] = k
                break
            left[k] += 1
    return [chosen[i] for i in range(len(masks))]
