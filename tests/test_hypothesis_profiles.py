"""The suite's Hypothesis profiles: a failing property test under ``ci`` is reported at once,
without minutes of shrinking, and every profile prints what reproduces a failure."""

from __future__ import annotations

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st


def failing_property(profile: str, calls: list[int]) -> None:
    """Run a property test, under ``profile``, that fails for every list longer than three."""

    @settings(settings.get_profile(profile), database=None, max_examples=200)
    @given(numbers=st.lists(st.integers(0, 1000), min_size=1))
    def long_lists_fail(numbers: list[int]) -> None:
        if len(numbers) > 3:
            calls.append(len(numbers))
            raise AssertionError("a long list")

    long_lists_fail()


def reported(error: BaseException) -> str:
    """What Hypothesis adds to a failure's report (its notes, printed under the traceback)."""
    return "\n".join(getattr(error, "__notes__", []))


def test_ci_profile_reports_a_failure_without_shrinking_it() -> None:
    """Under ``ci`` the failing example is run once more to report it, not shrunk (shrinking
    would try many smaller failing lists, ending at one of four items); the report carries the
    ``@reproduce_failure`` line."""
    calls: list[int] = []
    with pytest.raises(AssertionError, match="a long list") as caught:
        failing_property("ci", calls)
    assert len(calls) == 2
    assert calls[0] == calls[1]
    assert "@reproduce_failure" in reported(caught.value)


def test_dev_profile_shrinks_and_prints_the_reproduction() -> None:
    """``dev`` keeps Hypothesis's shrink phase (how far the shrinker gets is Hypothesis's own
    business, and it may stop early on a loaded machine, so only the setting is pinned), and a
    failure's report carries the ``@reproduce_failure`` line."""
    assert Phase.shrink in settings.get_profile("dev").phases
    assert Phase.shrink not in settings.get_profile("ci").phases
    calls: list[int] = []
    with pytest.raises(AssertionError, match="a long list") as caught:
        failing_property("dev", calls)
    assert calls
    assert "@reproduce_failure" in reported(caught.value)
