"""How many changed lines of the engines and the runner the tests catch: mutation testing with
mutmut, on a seeded sample of the mutants (minutes) or on all of them (hours).

Mutmut, configured in ``pyproject.toml`` (``[tool.mutmut]``: the modules changed and the tests
run against them), copies the code into ``mutants/`` and makes each change on its own: a
comparison, an operator, a constant, a string, a returned value. A mutant is killed when a test
reaching the changed function fails (or hangs past mutmut's time-out, for a change that loops
for ever); it survives when they all pass. This script runs mutmut, then prints each status
with its count, the share killed, and the surviving mutants by name (``mutmut show NAME``
prints the change).

    python benchmarks/mutation.py [--sample 150] [--seed 1] [--children 2]
    python benchmarks/mutation.py --all [--children 2]

Run it from the repository's root, with the ``test`` extra installed. Mutmut keeps its results
in ``mutants/``: a second run only tests what changed since; delete the folder to start anew.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

NOTHING = "no-such-mutant"
"""A mutant name that matches nothing: running it makes mutmut generate the mutants and map the
tests to them, then stop."""


def mutmut(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Run mutmut with ``arguments``, its output captured."""
    command = [sys.executable, "-m", "mutmut", *arguments]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def statuses() -> dict[str, str]:
    """Every mutant's status as mutmut reports it (``killed``, ``survived``, ``not checked``…)."""
    listing = mutmut("results", "--all", "true")
    if listing.returncode != 0:
        raise SystemExit(f"mutmut results failed: {listing.stderr.strip()}")
    found = {}
    for line in listing.stdout.splitlines():
        name, colon, status = line.strip().rpartition(": ")
        if colon and ".x_" in name:
            found[name] = status
    return found


def generate(children: int) -> list[str]:
    """All the mutants' names, generating them first where needed."""
    run = mutmut("run", "--max-children", str(children), NOTHING)
    if "nothing matches" not in run.stdout + run.stderr:
        raise SystemExit(f"mutmut did not generate the mutants:\n{run.stdout}\n{run.stderr}")
    return sorted(statuses())


def main() -> None:
    parser = argparse.ArgumentParser(description="Mutation testing of the engines and runner.")
    parser.add_argument("--sample", type=int, default=150, help="mutants drawn at random")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample")
    parser.add_argument("--all", action="store_true", help="every mutant, not a sample")
    parser.add_argument("--children", type=int, default=2, help="mutants tested at once")
    args = parser.parse_args()
    if not Path("pyproject.toml").is_file():
        parser.error("run it from the repository's root")
    began = time.perf_counter()
    if args.all:
        chosen = None
        subprocess.run(
            [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.children)],
            check=False,
        )
    else:
        names = generate(args.children)
        chosen = sorted(random.Random(args.seed).sample(names, min(args.sample, len(names))))
        command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(args.children)]
        subprocess.run([*command, *chosen], check=False)
    found = statuses()
    if chosen is not None:
        found = {name: found[name] for name in chosen}
    counts = Counter(found.values())
    checked = sum(count for status, count in counts.items() if status != "not checked")
    caught = counts["killed"] + counts["timeout"]
    print(f"\n{len(found)} mutants" + ("" if chosen is None else f" (seed {args.seed})"))
    for status, count in counts.most_common():
        print(f"  {status:<22} {count}")
    if checked:
        print(f"caught {caught} of {checked} checked: {caught / checked:.1%}")
    survivors = sorted(name for name, status in found.items() if status == "survived")
    if survivors:
        print("\nsurvived (mutmut show NAME prints the change):")
        for name in survivors:
            print(f"  {name}")
    print(f"\ntotal time: {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
