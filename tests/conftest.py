"""Hypothesis profiles: ``ci`` (default, bounded for the 10-minute CI budget) and ``dev`` (more
examples, for local runs: ``HYPOTHESIS_PROFILE=dev pytest``); and the ``slow`` mark, given by
name to documentation pages' doctests."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


SLOW_BY_FILE = {"docs/distributed.md": {"distributed.md"}}
"""Slow tests marked by name: documentation pages' doctests, which cannot carry a mark."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`SLOW_BY_FILE` slow (``-m "not slow"`` leaves them out)."""
    root = config.rootpath
    for item in items:
        try:
            path = item.path.relative_to(root).as_posix()
        except ValueError:
            continue
        if item.name.split("[")[0] in SLOW_BY_FILE.get(path, ()):
            item.add_marker(pytest.mark.slow)
