"""Bounded caches drop their oldest entries, a sixteenth at a time; their caps come from
budgets in bytes and the measured size of their entries."""
from myriad.core.caches import make_room


def test_a_full_cache_drops_its_oldest_sixteenth() -> None:
    cache = {key: str(key) for key in range(64)}
    make_room(cache, 65)
    assert len(cache) == 64  # not full yet
    make_room(cache, 64)
    assert list(cache) == list(range(4, 64))
    cache[64] = "64"
    make_room(cache, 64)  # 61 entries: room enough
    assert len(cache) == 61 and 4 in cache


def test_deep_size_counts_every_object_once_and_skips_what_it_is_told() -> None:
    import sys

    from myriad.core.caches import deep_size

    big = 10 ** 30
    shared = (big, "text")
    entry = [shared, shared, (big + 1,)]
    expected = (sys.getsizeof(entry) + sys.getsizeof(shared) + sys.getsizeof(big) + sys.getsizeof("text")
                + sys.getsizeof((big + 1,)) + sys.getsizeof(big + 1))
    assert deep_size(entry) == expected
    assert deep_size(entry, skip=(shared,)) == expected - sys.getsizeof(shared) - sys.getsizeof("text") \
        - sys.getsizeof(big)
    seen: set[int] = set()
    deep_size(shared, seen)
    assert deep_size(entry, seen) == expected - sys.getsizeof(shared) - sys.getsizeof(big) - sys.getsizeof("text")


def test_a_byte_budget_derives_its_cap_from_the_measured_entries() -> None:
    import pytest

    from myriad.core.caches import DICT_ENTRY_BYTES, MIN_ENTRIES, ByteBudget, entry_bytes

    cache = {key: tuple(range(1000, 1010)) for key in range(10 ** 20, 10 ** 20 + 200)}
    per_entry = entry_bytes(cache)
    assert per_entry > DICT_ENTRY_BYTES + 10 * 28  # ten ints beyond the small ones, a tuple, a key
    budget = ByteBudget(100 * per_entry, guess=1)
    assert budget.cap == 100 * per_entry  # the guess, until measured
    budget.make_room(cache)  # past the first sample: measures, then drops the oldest beyond the cap
    assert budget.per_entry == per_entry and budget.cap == 100
    assert len(cache) < 100 and 10 ** 20 + 199 in cache and 10 ** 20 not in cache
    for key in range(1000):
        budget.make_room(cache)
        cache[key] = tuple(range(1000, 1010))
        assert len(cache) <= budget.cap
    assert ByteBudget(10, guess=100).cap == MIN_ENTRIES  # never useless
    assert ByteBudget(10 ** 9, guess=100, limit=7).cap == 7  # an explicit cap wins
    with pytest.raises(ValueError):
        ByteBudget(0, guess=100)


def test_shrink_drops_the_oldest() -> None:
    from myriad.core.caches import shrink

    cache = {key: key for key in range(10)}
    shrink(cache, 4)
    assert list(cache) == [6, 7, 8, 9]
    shrink(cache, 10)
    assert len(cache) == 4
