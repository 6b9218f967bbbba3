"""Start-up time: ``import thousand``, a first game, and ``thousand --help``, each in a fresh
interpreter, for this checkout and optionally another one side by side.

    python benchmarks/startup.py [--against OTHER_CHECKOUT] [--runs 15]

Every run starts each command once for each checkout in turn (so both see the same moments of a
busy machine) and times the whole process; the tables give medians, less the time of an
interpreter that imports nothing, and for ``import thousand`` also what ``python -X importtime``
reports for the package itself. ``--against`` takes the root of another checkout of the project
(for example ``git worktree add /tmp/before <commit>``): its packages are put first on the path.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

COMMANDS = {
    "nothing": "pass",
    "import thousand": "import thousand",
    "first game": (
        "import thousand\n"
        "state = thousand.new_match(thousand.Rules.preset('russian'), seed=1)\n"
        "state.apply(state.legal_actions()[0])"
    ),
    "thousand --help": (
        "import sys\nsys.argv = ['thousand', '--help']\nfrom tournament.cli import main\nmain()"
    ),
}


def run(tree: Path, code: str, *options: str) -> tuple[float, str]:
    """Seconds taken by a fresh interpreter running ``code`` with ``tree`` first on the path,
    and what it wrote to stderr."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory() as elsewhere:
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, *options, "-c", code],
            cwd=elsewhere,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=True,
        )
        return time.perf_counter() - began, done.stderr


def package_import_ms(tree: Path) -> float:
    """What ``-X importtime`` reports for ``import thousand`` as a whole, in milliseconds."""
    _, report = run(tree, "import thousand", "-X", "importtime")
    for line in report.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \| thousand$", line)
        if match:
            return int(match.group(1)) / 1000
    raise SystemExit(f"no import time reported for thousand from {tree}")


def check_tree(tree: Path) -> None:
    """Stop unless ``tree``'s package is the one imported with it first on the path."""
    _, where = run(tree, "import sys, thousand; sys.stderr.write(thousand.__file__)")
    if not Path(where).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"with {tree} first on the path, thousand still loads from {where}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="the root of another checkout")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    trees = {"this checkout": HERE}
    if args.against:
        trees["other checkout"] = args.against
    for tree in trees.values():
        check_tree(tree)
    times: dict[tuple[str, str], list[float]] = {}
    imports: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.runs):
        for name, tree in trees.items():
            for command, code in COMMANDS.items():
                times.setdefault((name, command), []).append(run(tree, code)[0])
            imports[name].append(package_import_ms(tree))
    print(f"{'ms, median of ' + str(args.runs):<22}" + "".join(f"{name:>16}" for name in trees))
    for command in COMMANDS:
        cells = []
        for name in trees:
            median = statistics.median(times[(name, command)]) * 1000
            bare = statistics.median(times[(name, "nothing")]) * 1000
            cells.append(median if command == "nothing" else median - bare)
        print(f"{command:<22}" + "".join(f"{cell:>16.1f}" for cell in cells))
    print(
        f"{'-X importtime':<22}"
        + "".join(f"{statistics.median(imports[name]):>16.1f}" for name in trees)
    )
    if args.against:
        print("\nthis checkout's time as a share of the other's (less the bare interpreter):")
        for command in [*COMMANDS][1:]:
            ours, theirs = (
                statistics.median(times[(name, command)])
                - statistics.median(times[(name, "nothing")])
                for name in trees
            )
            print(f"  {command:<20} {ours / theirs:.0%}")
        ours, theirs = (statistics.median(imports[name]) for name in trees)
        print(f"  {'-X importtime':<20} {ours / theirs:.0%}")


if __name__ == "__main__":
    main()
