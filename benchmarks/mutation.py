"""How many changed lines of the engines and the runner the tests catch: mutation testing with
mutmut, on a seeded sample of the mutants (minutes) or on all of them (hours).

Mutmut, configured in ``pyproject.toml`` (``[tool.mutmut]``: the modules changed and the tests
run against them), copies the code into ``mutants/`` and makes each change on its own: a
comparison, an operator, a constant, a string, a returned value. A mutant is killed when a test
reaching the changed function fails (or hangs past mutmut's time-out, for a change that loops
for ever); it survives when they all pass. Each mutant's tests run in a process forked from one
that has loaded the code and the tests (``tests/conftest.py`` empties the code's caches first);
a change to code that runs only as the package loads would hide there, so the mutants that
survive (but those listed as equivalent: they run every test they reach, minutes each) are
tested again, each in a process that imports everything afresh. This script then
prints each status with its count, the share caught of all checked and of those not listed as
equivalent in ``docs/contributing.md``, the mutants neither caught nor listed, by name
(``mutmut show NAME`` prints the change), and the listed ones that are now caught or gone.

    python benchmarks/mutation.py [--sample 150] [--seed 1] [--children 2]
    python benchmarks/mutation.py --all [--children 2]
    python benchmarks/mutation.py --recheck     # the uncaught again afresh, then the figures
    python benchmarks/mutation.py --report      # the figures of the results kept, nothing run

Run it from the repository's root, with the ``test`` extra installed. Mutmut keeps its copy of
the code and its results in ``mutants/``; ``--all`` tests again only the mutants of functions
changed since (a sample tests its mutants every time); delete the folder to start anew. The
whole run's verdicts are also kept in the repository (``benchmarks/mutation-results.json``,
written by ``--all`` and ``--recheck``, even when stopped), so that a whole run goes on from a
fresh checkout: they are given back to mutmut when ``mutants/`` holds none, and mutmut then
tests only the functions changed since and the mutants not yet checked. Delete that file too
to start anew. ``--report`` only reads: it refuses to run where ``mutants/`` holds verdicts
other than the file's (an older run's, or one still going), which it would otherwise report.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from importlib import metadata
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
CRASHES = frozenset({-9, -11})
"""Mutmut's exit codes of a test process killed by a signal: a mutant's own (one that fills the
memory is killed by the system), or, in a run stopped by hand, the mutants in progress. The file
of kept verdicts holds them from a run that ended by itself, and leaves them out of one stopped,
to be tested again."""
KEPT = Path("benchmarks/mutation-results.json")
"""The verdicts of the whole run, kept in the repository so that a whole run goes on from a
fresh checkout (mutmut keeps its own in ``mutants/``, which git ignores)."""
WORK = Path("mutants")
"""Where mutmut keeps its copy of the code and its results."""


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


def verdicts(work: Path = WORK, crashes: bool = False) -> tuple[dict[str, dict[str, object]], int]:
    """The verdicts mutmut holds in ``work``, as the kept file writes them: per mutated file, its
    module and, per function, mutmut's hash of the function's code and its mutants' exit codes in
    order (empty where not checked, or, unless ``crashes``, where the test process was killed).
    Returns them with the number of verdicts."""
    files: dict[str, dict[str, object]] = {}
    written = 0
    for meta in sorted(work.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes: defaultdict[str, dict[int, int]] = defaultdict(dict)
        for name, code in data["exit_code_by_key"].items():
            function, _, number = name.rpartition("__mutmut_")
            function = function.rpartition(".")[2]
            if code is not None and (crashes or code not in CRASHES):
                codes[function][int(number)] = code
                written += 1
        functions = {}
        for function, digest in data["hash_by_function_name"].items():
            found = codes.get(function, {})
            numbers = range(1, max(found, default=0) + 1)
            functions[function] = f"{digest} " + ",".join(str(found.get(n, "")) for n in numbers)
        source = meta.relative_to(work).as_posix().removesuffix(".meta")
        module = source.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        files[source] = {"module": module, "functions": functions}
    return files, written


def keep_results(kept: Path = KEPT, work: Path = WORK, crashes: bool = False) -> int:
    """Write the verdicts mutmut holds in ``work`` to ``kept``, one function a line (with those of
    killed test processes when ``crashes``). Returns the number of verdicts written."""
    files, written = verdicts(work, crashes)
    document = {"format": 1, "mutmut": metadata.version("mutmut"), "files": files}
    text = json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True)
    kept.write_text(text + "\n", encoding="utf-8")
    return written


def disagrees(kept: Path = KEPT, work: Path = WORK) -> bool:
    """Whether ``work`` holds verdicts other than those kept in ``kept``: an older run's, or
    those of a run still going (the file is written when a run stops)."""
    if not kept.is_file() or not any(work.rglob("*.py.meta")):
        return False
    files = json.loads(kept.read_text(encoding="utf-8")).get("files")
    return all(files != verdicts(work, crashes)[0] for crashes in (False, True))


def restore_results(kept: Path = KEPT, work: Path = WORK) -> int:
    """Give mutmut the verdicts kept in ``kept``, for each mutated file it holds none of yet (as
    in a fresh checkout): it then tests only the mutants of functions changed since and those
    not checked. Verdicts written by another mutmut are not used (it may number mutants
    otherwise). Returns the number of verdicts given."""
    if not kept.is_file():
        return 0
    document = json.loads(kept.read_text(encoding="utf-8"))
    if document.get("format") != 1 or document.get("mutmut") != metadata.version("mutmut"):
        print(f"{kept} was written by another mutmut: starting anew")
        return 0
    given = 0
    for source, kept_file in document["files"].items():
        meta = work / f"{source}.meta"
        if meta.exists():
            continue
        codes: dict[str, int | None] = {}
        digests = {}
        for function, line in kept_file["functions"].items():
            digest, _, written = line.partition(" ")
            digests[function] = digest
            for number, code in enumerate(written.split(",") if written else [], start=1):
                codes[f"{kept_file['module']}.{function}__mutmut_{number}"] = (
                    int(code) if code else None
                )
        given += sum(code is not None for code in codes.values())
        meta.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "exit_code_by_key": codes,
            "hash_by_function_name": digests,
            "type_check_error_by_key": {},
            "durations_by_key": {},
            "estimated_durations_by_key": {},
        }
        meta.write_text(json.dumps(data, indent=4), encoding="utf-8")
    return given


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
    restored = restore_results()
    if restored:
        print(f"{restored} verdicts taken from {KEPT}")
    runs = args.all or args.recheck
    whole = runs or args.report
    if args.report and disagrees():
        raise SystemExit(
            f"{WORK}/ holds verdicts other than those in {KEPT} (an older run's, or one still "
            f"going): delete {WORK}/ to report the kept ones, or run --all to go on with its own"
        )
    stopped = ended = False
    try:
        found = run(args)
        ended = True
    except KeyboardInterrupt:
        stopped = True
        print("\nstopped: the figures of the mutants checked so far")
        found = statuses()
    finally:
        if runs and any(WORK.rglob("*.py.meta")):
            print(f"{keep_results(crashes=ended)} verdicts kept in {KEPT}")
    print(f"\n{len(found)} mutants" + ("" if whole else f" (seed {args.seed})"))
    report(found, whole=whole)
    print(f"\ntotal time: {time.perf_counter() - began:.0f} s")
    if stopped:
        raise SystemExit(130)


def run(args: argparse.Namespace) -> dict[str, str]:
    """Run the mutants ``args`` ask for (a sample's, all, or the uncaught afresh) and return the
    statuses to report: every mutant's, or the sample's."""
    chosen = None
    if not (args.all or args.recheck or args.report):
        names = generate(args.children)
        chosen = sorted(random.Random(args.seed).sample(names, min(args.sample, len(names))))
    if not (args.recheck or args.report):
        run_mutants(args.children, chosen or [])
    found = statuses()
    equivalent = known_equivalent()
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
    return found


if __name__ == "__main__":
    main()
