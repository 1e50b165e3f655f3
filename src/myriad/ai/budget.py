"""A bot's memory budget: the ``hash=MB`` option, as chess engines have, for all of one
bot's tables together, and its split between them.

Each searcher turns its share of the budget into caps in entries with
:class:`myriad.core.caches.ByteBudget`, from the measured size of its entries; a game's
own caches (the in-a-row games' scans and tallies) are per process and bounded by the game
(see :data:`myriad.games.inarow.GAME_CACHE_BYTES`), not by this budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from myriad.ai.bot import Allowed
from myriad.core.caches import MB

#: Megabytes of one bot's tables when ``hash=`` is not given.
DEFAULT_HASH_MB = 64
#: The most ``hash=`` may ask for (16 GiB): more than a process of this machine can hold.
MAX_HASH_MB = 16384
#: The least (64 KiB): tables of a few hundred entries.
MIN_HASH_MB = 1 / 16
#: The ``hash`` option's values.
HASH: Allowed = (float, MIN_HASH_MB, MAX_HASH_MB)


def hash_bytes(options: Mapping[str, Any], name: str) -> int:
    """The byte budget from a bot's ``hash`` option (megabytes, int or float), by default
    :data:`DEFAULT_HASH_MB`; raises ``ValueError`` naming the bot for anything but a number
    from :data:`MIN_HASH_MB` to :data:`MAX_HASH_MB`."""
    value = options.get("hash", DEFAULT_HASH_MB)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ValueError(f"{name}: hash must be a number of megabytes, not {value!r}")
    if not MIN_HASH_MB <= value <= MAX_HASH_MB:
        raise ValueError(f"{name}: hash must be from {MIN_HASH_MB:g} to {MAX_HASH_MB} megabytes, not {value!r}")
    return int(value * MB)


def entry_limit(options: Mapping[str, Any], key: str, name: str, most: int = 1 << 30) -> int | None:
    """An explicit cap in entries (such as ``tt=``): None when not given, else a positive
    int up to ``most``; raises ``ValueError`` otherwise."""
    value = options.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise ValueError(f"{name}: {key} must be a whole number of entries from 1 to {most}, not {value!r}")
    return value


def split(total: int, shares: Mapping[str, float]) -> dict[str, int]:
    """``total`` bytes shared out in proportion to ``shares``."""
    whole = sum(shares.values())
    return {table: int(total * share / whole) for table, share in shares.items()}
