"""Shared test settings.

Hypothesis: no per-example deadline (perft and playouts vary with machine load); the
profile ``thorough`` (``HYPOTHESIS_PROFILE=thorough``) multiplies the examples of tests that
do not pin their own count.  Tests marked ``slow`` are deselected unless ``-m slow``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, print_blob=True, max_examples=1000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def own_registry() -> Iterator[None]:
    """Games a test registers (user variant files) are forgotten after it: the registry,
    the record of loaded files and ``get_game``'s cache are put back as they were."""
    from myriad.games import REGISTERED, get_game
    from myriad.games import user_variants

    registered, loaded = dict(REGISTERED), dict(user_variants._LOADED)
    try:
        yield
    finally:
        REGISTERED.clear()
        REGISTERED.update(registered)
        user_variants._LOADED.clear()
        user_variants._LOADED.update(loaded)
        get_game.cache_clear()
