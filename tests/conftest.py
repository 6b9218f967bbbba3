"""Hypothesis profiles: ``ci`` (default, bounded for the 10-minute CI budget), ``dev`` (more
examples, for local runs: ``HYPOTHESIS_PROFILE=dev pytest``) and ``mutation`` (a few fixed
examples, under mutation testing); and the ``slow`` mark, given by
name to documentation pages' doctests.

Under ``ci`` a failing property test is reported as found, without shrinking it (shrinking a
whole game can take Hypothesis minutes); ``dev`` shrinks. Both print the ``@reproduce_failure``
line that replays the failure."""

import functools
import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from thousand.table.sessions import stop_sessions

settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[phase for phase in Phase if phase is not Phase.shrink],
    print_blob=True,
)
settings.register_profile(
    "dev",
    max_examples=400,
    deadline=None,
    # Named, not inherited: where Hypothesis sees a CI machine, registering "ci" above
    # reloads it as the default, and an unnamed setting here would come from it.
    phases=tuple(Phase),
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "mutation",
    max_examples=10,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[phase for phase in Phase if phase is not Phase.shrink],
    suppress_health_check=list(HealthCheck),
)
MUTATION_RUN = "MUTANT_UNDER_TEST" in os.environ
"""Whether mutmut runs these tests (it sets MUTANT_UNDER_TEST): then a property test tries a few
fixed examples, so that a mutant gets the same verdict on every run, the caches of the code are
emptied before the tests and the quickest tests run first (docs/contributing.md)."""
settings.load_profile("mutation" if MUTATION_RUN else os.environ.get("HYPOTHESIS_PROFILE", "ci"))

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    # Started with Ctrl-C ignored, as a background job is: the tests that press Ctrl-C need
    # Python's own handler, and so do the programs they start, which inherit it.
    signal.signal(signal.SIGINT, signal.default_int_handler)


collect_ignore_glob = ["attacks/*"]
"""The hostile bots of the sandbox's tests: programs copied beside each other before they run,
not modules to import here."""

SLOW_BY_FILE = {"docs/distributed.md": {"distributed.md"}}
"""Slow tests marked by name: documentation pages' doctests, which cannot carry a mark."""


DICT_CACHES = [("thousand.classic.tricks", "_FOLLOWING")]
"""The code's caches kept in plain dictionaries (module, name), emptied like its ``lru_cache``s."""


def forget_cached_answers() -> None:
    """Empty every cache of the code under test (its ``lru_cache``s and :data:`DICT_CACHES`)."""
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] in {"thousand", "tournament"}:
            for value in list(vars(module).values()):
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()
    for name, cache in DICT_CACHES:
        if name in sys.modules:
            getattr(sys.modules[name], cache).clear()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under mutmut, forget every answer the code under test cached: the mutant's tests run in
    a process forked from one that loaded (and so ran) the plain code."""
    if MUTATION_RUN:
        forget_cached_answers()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """While mutmut maps the tests to the functions they call, forget the cached answers before
    each test: a function whose answer was cached by an earlier test would not be called, and
    its mutants would not be tested against this one."""
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        forget_cached_answers()


@functools.cache
def recorded_durations() -> dict[str, float]:
    """How long each test took when mutmut mapped the tests to the code (its statistics file
    in the folder it runs from), by test id; none outside a mutation run."""
    statistics = Path("mutmut-stats.json")
    if not MUTATION_RUN or not statistics.is_file():
        return {}
    durations: dict[str, float] = json.loads(statistics.read_text())["duration_by_test"]
    return durations


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`SLOW_BY_FILE` slow (``-m "not slow"`` leaves them out); under
    mutmut, run the quickest tests first, so that a caught mutant is caught soon."""
    durations = recorded_durations()
    if durations:
        items.sort(key=lambda item: durations.get(item.nodeid, 0.0))
    root = config.rootpath
    for item in items:
        try:
            path = item.path.relative_to(root).as_posix()
        except ValueError:
            continue
        if item.name.split("[")[0] in SLOW_BY_FILE.get(path, ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def no_bot_process_outlives_its_test() -> Iterator[None]:
    """Stop the bot processes a test's matches kept for later matches, so that tests that look
    for leftover processes never find another test's."""
    yield
    stop_sessions()
