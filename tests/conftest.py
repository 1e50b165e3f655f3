"""Shared test settings.

Hypothesis: no per-example deadline (perft and playouts vary with machine load); the
profile ``thorough`` (``HYPOTHESIS_PROFILE=thorough``) multiplies the examples of tests that
do not pin their own count.  Tests marked ``slow`` are deselected unless ``-m slow``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, print_blob=True, max_examples=1000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
