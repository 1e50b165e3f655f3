"""The rank-sampling mechanic: matchings of knowledge masks to a multiset of ranks, and
draws that keep every mask and count."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from myriad.core.errors import PositionError
from myriad.core.mechanics.rank_sampling import matchable, sample_ranks


def test_matchable_is_halls_condition() -> None:
    # two items that may only be rank 0, one rank 0 left: impossible (though 3 ranks are left)
    assert not matchable([0b001, 0b001], [1, 1, 1])
    assert matchable([0b001, 0b011], [1, 1, 0])
    assert not matchable([0b011, 0b011, 0b011], [1, 1, 5])  # three items into two ranks
    assert matchable([0b111, 0b011, 0b001], [1, 1, 1])  # only one way: 2, 1, 0
    assert not matchable([0b1], [0])
    assert matchable([], [0, 0])


def test_samples_keep_masks_and_counts_and_reach_every_assignment() -> None:
    rng = random.Random(1)
    masks = [0b111, 0b011, 0b110, 0b111]
    counts = [1, 2, 1]
    seen = Counter()
    for _ in range(400):
        ranks = sample_ranks(masks, counts, rng)
        assert all(masks[i] >> r & 1 for i, r in enumerate(ranks))
        assert Counter(ranks) == Counter({0: 1, 1: 2, 2: 1})
        seen[tuple(ranks)] += 1
    # every assignment consistent with the masks and counts comes up
    every = {(a, b, c, d) for a in range(3) for b in range(3) for c in range(3) for d in range(3)
             if all([0b111, 0b011, 0b110, 0b111][i] >> r & 1 for i, r in enumerate((a, b, c, d)))
             and Counter((a, b, c, d)) == Counter({0: 1, 1: 2, 2: 1})}
    assert set(seen) == every and len(every) == 7


def test_a_forced_assignment_and_an_impossible_one() -> None:
    assert sample_ranks([0b100, 0b110, 0b111], [1, 1, 1], random.Random(3)) == [2, 1, 0]
    with pytest.raises(PositionError, match="no assignment"):
        sample_ranks([0b001, 0b001], [1, 5], random.Random(0))
