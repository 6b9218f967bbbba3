"""The package as users get it: a wheel built from the checkout, installed with its dependencies
in a fresh virtual environment and run from there, away from the checkout. It holds the files
the packages read as they run, builds without a warning, and its program and the README's
example work.

The wheel is built once and installed once for the whole run, shared by the pytest-xdist
workers (the first to need it builds it while the others wait). Installing takes the
dependencies from the package index."""

from __future__ import annotations

import doctest
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

import attrs
import pytest

import thousand

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "thousand", "tournament")
"""What the build reads: the configuration, the files it names and the packages."""
RUNTIME_FILES = (
    "thousand/py.typed",
    "thousand/bots/auction_value.json",
    "thousand/bots/bluff_odds.json",
    "thousand/bots/card_places.json",
    "thousand/table/confine.py",
    "tournament/py.typed",
    "tournament/ladder.json",
    "tournament/server/migrations/env.py",
    "tournament/server/migrations/script.py.mako",
    "tournament/server/migrations/versions/v1_bots.py",
    "tournament/server/static/lobby.js",
    "tournament/server/static/table.js",
)
"""Files the packages read as they run, by path rather than by import: the typed markers, the
shipped models, the sandbox's script, the ladder's reference ratings, the server's migrations
and the scripts of its web pages."""


@attrs.frozen
class Installed:
    """The wheel, what building it printed, and the environment it is installed in."""

    wheel: Path
    build_output: str
    environment: Path

    def program(self, name: str) -> str:
        return str(self.environment / "bin" / name)


def check(command: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run ``command``, fail showing what it printed unless it exits 0, and return its
    output (standard output and standard error, as they came)."""
    done = subprocess.run(
        list(command),
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
        timeout=900,
    )
    if done.returncode != 0:
        pytest.fail(
            f"{' '.join(command)} (in {cwd}) exited with {done.returncode}:\n{done.stdout}",
            pytrace=False,
        )
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel built from the checkout and installed in a fresh virtual environment, in a
    folder all the workers of this run share: the first to get there builds and installs, the
    others wait for it."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = tmp_path_factory.getbasetemp().parent / "wheel"  # the run's, not the worker's
        shared.mkdir(exist_ok=True)
    else:
        shared = tmp_path_factory.mktemp("wheel")
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "ready").exists():
            build_and_install(shared)
            (shared / "ready").touch()
    [wheel] = (shared / "dist").glob("*.whl")
    output = (shared / "build-output.txt").read_text(encoding="utf-8")
    return Installed(wheel, output, (shared / "venv").resolve())


def build_and_install(shared: Path) -> None:
    """Build the wheel into ``shared/dist`` (what it printed in ``build-output.txt``) and
    install it in a fresh virtual environment, ``shared/venv``."""
    for leftover in ("source", "dist", "venv"):
        shutil.rmtree(shared / leftover, ignore_errors=True)
    # Built from a copy, so that the build leaves nothing in the checkout (build/,
    # thousand.egg-info) and nothing left there (an old build/) gets into the wheel.
    source = shared / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            ignored = shutil.ignore_patterns("__pycache__", "*.pyc")
            shutil.copytree(ROOT / name, source / name, ignore=ignored)
        else:
            shutil.copy2(ROOT / name, source / name)
    # Without PYTHONDONTWRITEBYTECODE, which makes setuptools warn that it compiles nothing (it
    # compiles nothing for a wheel anyway).
    quiet = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, "-m", "build", "--wheel", "--outdir", str(shared / "dist")]
    output = check([*command, str(source)], cwd=shared, env=quiet)
    (shared / "build-output.txt").write_text(output, encoding="utf-8")
    environment = shared / "venv"
    check([sys.executable, "-m", "venv", str(environment)], cwd=shared)
    [wheel] = (shared / "dist").glob("*.whl")
    pip = [str(environment / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)]
    check(pip, cwd=shared, env=away_from_the_checkout())


def away_from_the_checkout() -> dict[str, str]:
    """The environment of the programs run from the wheel's environment: nothing of the
    checkout's or the user's own Python on the path."""
    kept = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV"}
    }
    return {**kept, "PYTHONNOUSERSITE": "1", "COLUMNS": "200", "NO_COLOR": "1"}


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """An empty folder, outside the checkout, to run the installed program in."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def test_the_wheel_builds_without_a_warning(installed: Installed) -> None:
    """Building the wheel warns of nothing: no deprecated metadata, no package data that
    setuptools would stop shipping."""
    for word in ("warning", "deprecat"):
        lines = [line for line in installed.build_output.splitlines() if word in line.lower()]
        assert not lines, "the build warns:\n" + "\n".join(lines)


def test_the_wheel_holds_the_files_read_at_run_time(installed: Installed) -> None:
    """The wheel holds every file of the two packages, the data read as they run above all,
    its licence and its version, and nothing outside the packages."""
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        metadata = next(name for name in names if name.endswith(".dist-info/METADATA"))
        headers = wheel.read(metadata).decode("utf-8").partition("\n\n")[0].splitlines()
    missing = [name for name in RUNTIME_FILES if name not in names]
    assert not missing, f"the wheel lacks {missing}: see package-data in pyproject.toml"
    in_the_checkout = {
        path.relative_to(ROOT).as_posix()
        for top in ("thousand", "tournament")
        for path in (ROOT / top).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    missing = sorted(in_the_checkout - names)
    assert not missing, f"the wheel lacks {missing}: see package-data in pyproject.toml"
    tops = {name.split("/")[0] for name in names}
    assert tops == {"thousand", "tournament", f"thousand-{thousand.__version__}.dist-info"}
    assert f"thousand-{thousand.__version__}.dist-info/licenses/LICENSE" in names
    assert f"Version: {thousand.__version__}" in headers
    assert "License-Expression: MIT" in headers


def test_the_wheel_passes_twine_check(installed: Installed) -> None:
    """PyPI would take the wheel's metadata and show its description."""
    output = check([sys.executable, "-m", "twine", "check", str(installed.wheel)], cwd=ROOT)
    assert "PASSED" in output


def test_the_package_is_imported_from_the_environment(
    installed: Installed, elsewhere: Path
) -> None:
    """The environment's Python finds both packages where the wheel put them, not in the
    checkout."""
    probe = "import thousand, tournament; print(thousand.__file__); print(tournament.__file__)"
    python = installed.program("python")
    output = check([python, "-c", probe], cwd=elsewhere, env=away_from_the_checkout())
    paths = [Path(line) for line in output.splitlines()]
    assert len(paths) == 2, output
    for path in paths:
        assert path.resolve().is_relative_to(installed.environment / "lib"), path
        assert not path.resolve().is_relative_to(ROOT), path


def test_the_version(installed: Installed, elsewhere: Path) -> None:
    """``thousand --version`` prints the checkout's version."""
    output = check(
        [installed.program("thousand"), "--version"], elsewhere, away_from_the_checkout()
    )
    assert output == f"thousand {thousand.__version__}\n"


def test_a_short_tournament(installed: Installed, elsewhere: Path) -> None:
    """A tournament of the built-in bots, four deals under each seating, ranks them, shows
    their ladder ratings and keeps its results."""
    command = [installed.program("thousand"), "tournament", "greedy", "random", "random"]
    command += ["--deals", "4", "--seed", "1", "--workers", "1", "--out", "out"]
    output = check(command, elsewhere, away_from_the_checkout())
    header = next((line for line in output.splitlines() if line.startswith("rank ")), "")
    assert header.split()[:4] == ["rank", "bot", "rating", "±"], output
    assert "ladder" in header.split(), output
    assert "Head to head" in output
    summary = json.loads((elsewhere / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["units"] == 4 * 6  # every deal under the six seatings
    assert {row["name"] for row in summary["standings"]} == {"greedy", "random", "random#2"}


def test_the_ladder(installed: Installed, elsewhere: Path) -> None:
    """``thousand ladder`` lists the shipped reference ratings, and rates a bot on them."""
    thousand_program = installed.program("thousand")
    output = check([thousand_program, "ladder"], elsewhere, away_from_the_checkout())
    assert "russian rules" in output
    assert re.search(r"^greedy +1500 +fixed$", output, re.MULTILINE), output
    assert re.search(r"^random +\d+ ", output, re.MULTILINE), output
    command = [thousand_program, "ladder", "greedy", "--rungs", "random,greedy"]
    command += ["--deals", "2", "--seed", "1", "--workers", "1"]
    output = check(command, elsewhere, away_from_the_checkout())
    assert re.search(r"^greedy rates \d+ .*on the reference scale", output, re.MULTILINE), output


def test_the_shipped_models_load(installed: Installed, elsewhere: Path) -> None:
    """The learned models shipped beside the bots load from the installed package."""
    probe = (
        "from thousand.bots import auction_value, bluff_odds, card_places\n"
        "for kind in (auction_value, bluff_odds, card_places):\n"
        "    print(len(kind.shipped().models))\n"
    )
    python = installed.program("python")
    output = check([python, "-c", probe], elsewhere, away_from_the_checkout())
    counts = [int(line) for line in output.split()]
    assert len(counts) == 3, output
    assert min(counts) > 0, output


def test_the_readme_example(installed: Installed, elsewhere: Path) -> None:
    """The Python of README.md ("In Python"), run by the environment's Python as doctests, with
    the options the suite gives them: every example prints what the README shows."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = "".join(re.findall(r"^```python\n(.*?)^```$", readme, re.MULTILINE | re.DOTALL))
    examples = doctest.DocTestParser().get_examples(code)
    assert len(examples) >= 5, "README.md has no Python example"
    (elsewhere / "readme.txt").write_text(code, encoding="utf-8")
    command = [installed.program("python"), "-m", "doctest", "-v"]
    command += ["-o", "NORMALIZE_WHITESPACE", "-o", "ELLIPSIS", "readme.txt"]
    output = check(command, elsewhere, away_from_the_checkout())
    assert output.rstrip().endswith("Test passed."), output
    assert re.search(rf"^{len(examples)} passed\b", output, re.MULTILINE), output
