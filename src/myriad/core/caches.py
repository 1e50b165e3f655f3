"""Bounded caches: a dict that, once full, drops its oldest entries a sixteenth at a time,
and whose size in entries is derived from a budget in bytes.

Emptying a big cache at once frees its entries in one go, which can stall a search step
for tens of milliseconds, past a move's deadline: :func:`make_room` drops a sixteenth.

A budget in bytes becomes a cap in entries through the measured size of the entries the
cache holds (:class:`ByteBudget`): the newest :data:`SAMPLE` entries are walked object by
object (:func:`deep_size`, ``sys.getsizeof`` of each object reached, each counted once per
sample, plus :data:`DICT_ENTRY_BYTES` for the dict's own slot), which is the memory freed
if they were dropped.  Objects shared with the rest of the program and reached from an
entry (a game's move tables, a line index) are counted too unless named in ``skip``:
the estimate errs on the side of fewer entries.  The size is measured when the cache
first holds :data:`SAMPLE` entries, again each time it doubles, and each time it has
turned over once when full, so a cap follows entries that grow during a game (long capture
moves, crowded boards) and a wrong first guess is corrected before the cache outgrows it.
"""
from __future__ import annotations

import sys
from itertools import islice
from typing import TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")

#: Bytes a dict spends per entry on its own tables (hash, key and value pointers, index),
#: at worst, just after it doubled: measured on CPython 3.11 as ``sys.getsizeof`` of dicts
#: of 1,000 to 3,000,000 int keys divided by their length (between 27 and 60).
DICT_ENTRY_BYTES = 60
#: Entries measured to estimate the size of one.
SAMPLE = 64
#: The fewest entries a budget allows (a cap of zero would make every cache useless).
MIN_ENTRIES = 16
MB = 1 << 20


def make_room(cache: dict[Key, Value], size: int) -> None:
    """When ``cache`` holds ``size`` entries or more, drop its oldest sixteenth (dicts keep
    their insertion order), so that one more fits."""
    if len(cache) >= size:
        for key in list(islice(cache, max(1, size // 16))):
            del cache[key]


def shrink(cache: dict[Key, Value], size: int) -> None:
    """Drop the oldest entries of ``cache`` until it holds at most ``size``."""
    excess = len(cache) - max(0, size)
    if excess > 0:
        for key in list(islice(cache, excess)):
            del cache[key]


def _attributes(obj: object) -> tuple[str, ...]:
    """The attribute names of an object without ``__dict__``: its classes' ``__slots__``
    (or, compiled with mypyc, ``__mypyc_attrs__``)."""
    names: list[str] = []
    for cls in type(obj).__mro__:
        found = cls.__dict__.get("__slots__", cls.__dict__.get("__mypyc_attrs__", ()))
        names.extend([found] if isinstance(found, str) else found)
    return tuple(names)


def deep_size(obj: object, seen: set[int] | None = None, skip: tuple[object, ...] = ()) -> int:
    """Bytes of ``obj`` and what it holds: ``sys.getsizeof`` of every object reached
    through tuples, lists, dicts, sets and attributes of slotted (or mypyc-compiled)
    objects, each counted once (``seen``: the ids already counted, shared between calls to
    count shared objects once); objects with a ``__dict__`` (games, indexes) are counted
    alone, and those in ``skip`` not at all."""
    seen = set() if seen is None else seen
    for shared in skip:
        seen.add(id(shared))
    total = 0
    stack: list[object] = [obj]
    while stack:
        item = stack.pop()
        ident = id(item)
        if ident in seen:
            continue
        seen.add(ident)
        total += sys.getsizeof(item)
        if isinstance(item, (tuple, list, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif not isinstance(item, (int, float, str, bytes, type)) and not hasattr(item, "__dict__"):
            for name in _attributes(item):
                if name != "__weakref__" and hasattr(item, name):
                    stack.append(getattr(item, name))
    return total


def entry_bytes(cache: dict[Key, Value], skip: tuple[object, ...] = (), sample: int = SAMPLE) -> int:
    """The mean size of one of the newest ``sample`` entries of ``cache`` (key, value and
    the dict's slot), or 0 when it is empty."""
    count = min(sample, len(cache))
    if not count:
        return 0
    seen: set[int] = set()
    total = 0
    for key, value in islice(reversed(cache.items()), count):
        total += deep_size(key, seen, skip) + deep_size(value, seen, skip)
    return DICT_ENTRY_BYTES + total // count


class ByteBudget:
    """The cap in entries of one dict cache given its budget in bytes: ``budget`` over the
    measured size of an entry (``guess`` until the cache holds :data:`SAMPLE`).  Use
    :meth:`make_room` before adding an entry; it measures entries again when the cache
    has doubled or turned over since the last measure, and :meth:`refit` measures at once."""

    def __init__(self, budget: int, guess: int, skip: tuple[object, ...] = (),
                 limit: int | None = None) -> None:
        if budget <= 0 or guess <= 0:
            raise ValueError(f"a cache budget and its entry size are positive, not {budget} and {guess}")
        self.budget = budget
        self.skip = skip
        #: An explicit cap on entries (e.g. the ``tt=`` option), or None.
        self.limit = limit
        self.per_entry = guess
        self.cap = self._cap()
        self.dropped = 0
        #: The size at which the cache is measured next.
        self.next_check = SAMPLE

    def _cap(self) -> int:
        cap = max(MIN_ENTRIES, self.budget // self.per_entry)
        return cap if self.limit is None else max(1, min(cap, self.limit))

    def refit(self, cache: dict[Key, Value]) -> int:
        """Measure the newest entries of ``cache``, derive the cap again and drop the
        oldest entries beyond it; returns the cap."""
        measured = entry_bytes(cache, self.skip)
        if measured:
            self.per_entry = measured
            self.cap = self._cap()
        self.dropped = 0
        shrink(cache, self.cap)
        self.next_check = max(SAMPLE, 2 * len(cache))
        return self.cap

    def make_room(self, cache: dict[Key, Value]) -> None:
        """Make room for one more entry in ``cache`` (see :func:`make_room`), measuring its
        entries again when it has doubled since, or once as many have been dropped as it may
        hold."""
        if len(cache) >= self.next_check:
            self.refit(cache)
        if len(cache) >= self.cap:
            if self.dropped >= self.cap:
                self.refit(cache)
            before = len(cache)
            make_room(cache, self.cap)
            self.dropped += before - len(cache)

    def __repr__(self) -> str:
        return f"ByteBudget({self.budget} bytes, {self.per_entry} per entry, cap {self.cap})"
