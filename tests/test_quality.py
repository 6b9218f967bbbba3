"""The code checks run by the suite itself: mypy --strict, ruff, the typed marker and the module
layering (the library never imports the command line; phase modules never import each other)."""

from __future__ import annotations

import ast
import fnmatch
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PHASES = {"bidding", "talon", "tricks", "scoring"}


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_mypy_strict() -> None:
    """The library, the command line, the examples and the benchmarks pass mypy --strict."""
    result = run(
        sys.executable, "-m", "mypy", "--strict", "thousand", "tournament", "examples",
        "benchmarks",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_lint() -> None:
    """ruff finds nothing to complain about anywhere in the project."""
    result = run(sys.executable, "-m", "ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    """Every Python file is formatted as ruff formats it."""
    result = run(sys.executable, "-m", "ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_typed_marker_shipped() -> None:
    """Both packages ship py.typed, declared as package data."""
    assert (ROOT / "thousand" / "py.typed").exists()
    assert (ROOT / "tournament" / "py.typed").exists()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text()


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "thousand").rglob("*.py")), ids=lambda p: p.name)
def test_library_never_imports_the_command_line(path: Path) -> None:
    """The library depends on the standard library and attrs only."""
    forbidden = {"tournament", "typer", "click", "rich"}
    used = {name.split(".")[0] for name in imported_modules(path)}
    assert not used & forbidden


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_phase_modules_meet_only_in_the_dispatcher(phase: str) -> None:
    """A phase module imports no other phase module (they meet in thousand.game)."""
    used = {
        name.split(".")[1]
        for name in imported_modules(ROOT / "thousand" / f"{phase}.py")
        if name.startswith("thousand.")
    }
    assert used & PHASES <= {phase}


def test_typer_only_in_the_command_line() -> None:
    """Only tournament/cli.py imports typer."""
    users = [
        path.name
        for path in (ROOT / "tournament").rglob("*.py")
        if any(name.split(".")[0] == "typer" for name in imported_modules(path))
    ]
    assert users == ["cli.py"]


def test_every_package_is_shipped() -> None:
    """A plain (non-editable) install ships every package and subpackage of the project."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = [
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("thousand", "tournament")
        for init in (ROOT / top).rglob("__init__.py")
    ]
    assert "thousand.bluff" in packages
    for package in packages:
        assert any(fnmatch.fnmatch(package, pattern) for pattern in patterns), package
