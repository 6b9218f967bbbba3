"""Hypothesis profiles: ``ci`` (default, bounded for the 10-minute CI budget) and ``dev`` (more
examples, for local runs: ``HYPOTHESIS_PROFILE=dev pytest``)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
