"""Bounded caches: a dict that, once full, drops its oldest entries a sixteenth at a time.
Emptying a big cache at once frees its entries in one go, which can stall a search step
for tens of milliseconds, past a move's deadline."""
from __future__ import annotations

from itertools import islice
from typing import TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")


def make_room(cache: dict[Key, Value], size: int) -> None:
    """When ``cache`` holds ``size`` entries or more, drop its oldest sixteenth (dicts keep
    their insertion order), so that one more fits."""
    if len(cache) >= size:
        for key in list(islice(cache, max(1, size // 16))):
            del cache[key]
