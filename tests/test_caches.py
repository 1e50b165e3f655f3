"""Bounded caches drop their oldest entries, a sixteenth at a time."""
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
