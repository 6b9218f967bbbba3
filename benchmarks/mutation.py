"""How many changed lines of the engines and the runner the tests catch: mutation testing with
mutmut, on a seeded sample of the mutants (minutes) or on all of them (hours).

Mutmut, configured in ``pyproject.toml`` (``[tool.mutmut]``: the modules changed and the tests
run against them), copies the code into ``mutants/`` and makes each change on its own: a
comparison, an operator, a constant, a string, a returned value. A mutant is killed when a test
reaching the changed function fails (or hangs past mutmut's time-out, for a change that loops
for ever); it survives when they all pass. Each mutant's tests run in a process forked from one
that has loaded the code and the tests (``tests/conftest.py`` empties the code's caches first);
a change to code that runs only as the package loads would hide there, so the mutants that
survive are tested again, each in a process that imports everything afresh. This script then
prints each status with its count, the share caught of all checked and of those not listed as
equivalent in ``docs/contributing.md``, the mutants neither caught nor listed, by name
(``mutmut show NAME`` prints the change), and the listed ones that are now caught or gone.

    python benchmarks/mutation.py [--sample 150] [--seed 1] [--children 2]
    python benchmarks/mutation.py --all [--children 2]
    python benchmarks/mutation.py --recheck     # the uncaught again afresh, then the figures
    python benchmarks/mutation.py --report      # the figures of the results kept, nothing run

Run it from the repository's root, with the ``test`` extra installed. Mutmut keeps its copy of
the code and its results in ``mutants/``; ``--all`` tests again only the mutants of functions
changed since (a sample tests its mutants every time); delete the folder to start anew.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

NOTHING = "no-such-mutant"
"""A mutant name that matches nothing: running it makes mutmut generate the mutants and map the
tests to them, then stop."""
CAUGHT = frozenset({"killed", "timeout", "segfault", "check was interrupted by user"})
"""The statuses of a mutant the tests caught: a test failed, hung, or its process died; or, in
the pass that loads everything afresh, the tests could not even be gathered (pytest's exit code
2, which mutmut reads as an interruption: a test module that builds its cases from the engine
as it loads fails to load)."""
MISSED = frozenset({"survived", "suspicious", "no tests"})
"""The statuses of a mutant the tests did not catch."""
GUIDE = Path("docs/contributing.md")
EQUIVALENT_HEADING = "### Mutants known to be equivalent"


AFRESH = """
import dataclasses
from mutmut import configuration
from mutmut.__main__ import cli
configuration._config = dataclasses.replace(
    configuration.config(), forkserver_warmup=configuration.ForkServerWarmup.NONE
)
if configuration.config().forkserver_warmup is not configuration.ForkServerWarmup.NONE:
    raise SystemExit("this mutmut keeps its settings elsewhere: cannot test afresh")
cli()
"""
"""Mutmut as configured, but with nothing loaded before a mutant's process is forked (mutmut
reads its settings from ``pyproject.toml`` alone, so this one is replaced where it is kept)."""


def mutmut(
    *arguments: str, shown: bool = False, afresh: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run mutmut with ``arguments``, its output captured (or ``shown`` as it comes); ``afresh``,
    each mutant in a process that imports the code and the tests itself."""
    start = ["-c", AFRESH] if afresh else ["-m", "mutmut"]
    command = [sys.executable, *start, *arguments]
    return subprocess.run(command, capture_output=not shown, text=True, check=False)


def statuses() -> dict[str, str]:
    """Every mutant's status as mutmut reports it (``killed``, ``survived``, ``not checked``…)."""
    listing = mutmut("results", "--all", "true")
    if listing.returncode != 0:
        raise SystemExit(f"mutmut results failed: {listing.stderr.strip()}")
    found = {}
    for line in listing.stdout.splitlines():
        name, colon, status = line.strip().rpartition(": ")
        if colon and "__mutmut_" in name:
            found[name] = status
    return found


def known_equivalent(guide: Path = GUIDE) -> set[str]:
    """The mutants the contributing guide lists as equivalent. A row's first cell names them in
    backticks: a whole name, a name without its module (``xǁCǁm__mutmut_3``, same module as
    the name before) or just a number (``_4``, same function as the name before)."""
    text = guide.read_text(encoding="utf-8")
    section = text.partition(EQUIVALENT_HEADING)[2].partition("\n#")[0]
    names: set[str] = set()
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        module = function = ""
        for token in re.findall(r"`([^`]+)`", line.split(" | ")[0]):
            if re.fullmatch(r"_\d+", token):
                name = f"{function}__mutmut{token}"
            elif token.startswith(("thousand.", "tournament.")):
                name = token
            else:
                name = f"{module}.{token}"
            module, _, mangled = name.rpartition(".")
            function = f"{module}.{mangled.rpartition('__mutmut_')[0]}"
            names.add(name)
    return names


def generate(children: int) -> list[str]:
    """All the mutants' names, generated first (mutmut then stops, finding no mutant of the
    name it was given)."""
    run = mutmut("run", "--max-children", str(children), NOTHING)
    names = sorted(statuses())
    if not names:
        raise SystemExit(f"mutmut made no mutants:\n{run.stdout}\n{run.stderr}")
    return names


def run_mutants(children: int, names: list[str], afresh: bool = False) -> None:
    """Test the mutants named (all of them when none are), stopping on mutmut's own failure."""
    run = mutmut("run", "--max-children", str(children), *names, shown=True, afresh=afresh)
    if run.returncode != 0:
        raise SystemExit("mutmut failed (see above): no figures")


def report(found: dict[str, str], whole: bool) -> None:
    """Print each status with its count, the shares caught, the mutants neither caught nor listed
    as equivalent, and (of the ``whole`` run's) the listed ones now caught or no longer made."""
    counts = Counter(found.values())
    for status, count in counts.most_common():
        print(f"  {status:<22} {count}")
    caught = sum(counts[status] for status in CAUGHT)
    checked = caught + sum(counts[status] for status in MISSED)
    equivalent = known_equivalent()
    missed = sorted((status, name) for name, status in found.items() if status in MISSED)
    listed = [name for _, name in missed if name in equivalent]
    if checked:
        print(f"caught {caught} of {checked} checked: {caught / checked:.1%}")
    if checked > len(listed):
        real = checked - len(listed)
        print(
            f"caught {caught} of the {real} not listed as equivalent in {GUIDE}: "
            f"{caught / real:.1%}"
        )
    unlisted = [(status, name) for status, name in missed if name not in equivalent]
    if unlisted:
        print("\nnot caught and not listed as equivalent (mutmut show NAME prints the change):")
        for status, name in unlisted:
            print(f"  {status:<11} {name}")
    stale = sorted(
        f"{name} ({found.get(name, 'no such mutant')})"
        for name in equivalent
        if found.get(name, "gone" if whole else "not checked") not in MISSED | {"not checked"}
    )
    if stale:
        print(f"\nlisted as equivalent in {GUIDE} but caught or no longer made:")
        for line in stale:
            print(f"  {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Mutation testing of the engines and runner.")
    parser.add_argument("--sample", type=int, default=150, help="mutants drawn at random")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--all", action="store_true", help="every mutant, not a sample")
    mode.add_argument(
        "--recheck",
        action="store_true",
        help="test afresh the mutants not caught nor listed as equivalent, then report",
    )
    mode.add_argument("--report", action="store_true", help="only report the results kept")
    parser.add_argument("--children", type=int, default=2, help="mutants tested at once")
    args = parser.parse_args()
    if not Path("pyproject.toml").is_file():
        parser.error("run it from the repository's root")
    began = time.perf_counter()
    chosen = None
    if not (args.all or args.recheck or args.report):
        names = generate(args.children)
        chosen = sorted(random.Random(args.seed).sample(names, min(args.sample, len(names))))
    if not (args.recheck or args.report):
        run_mutants(args.children, chosen or [])
    found = statuses()
    equivalent = known_equivalent() if args.recheck else set()
    survivors = sorted(
        name
        for name, status in found.items()
        if status in {"survived", "suspicious"}
        and (chosen is None or name in chosen)
        and name not in equivalent
    )
    if survivors and not args.report:
        print(f"\nTesting the {len(survivors)} mutants not caught again, each loading afresh")
        run_mutants(args.children, survivors, afresh=True)
        found = statuses()
    if chosen is not None:
        found = {name: found[name] for name in chosen}
    print(f"\n{len(found)} mutants" + ("" if chosen is None else f" (seed {args.seed})"))
    report(found, whole=chosen is None)
    print(f"\ntotal time: {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
