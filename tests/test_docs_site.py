"""The documentation site: the pages of docs/ and the API reference build with MkDocs in strict
mode, where a broken link, a missing anchor or an API name the reference cannot find is an
error."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import thousand
from thousand import bluff

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"


def build(site: Path, *options: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` into ``site``."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [*command, *options],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    """The whole site builds in strict mode, every page of the navigation and the API reference
    included."""
    site = tmp_path / "site"
    result = build(site)
    assert result.returncode == 0, result.stdout + result.stderr
    for page in ("index", "guide", "rules", "bluff", "bots", "tournament"):
        assert (site / f"{page}.html").is_file(), page
    state = (site / "reference" / "state.html").read_text(encoding="utf-8")
    assert 'id="thousand.classic.state.GameState"' in state
    assert "legal_actions" in state
    rules = (site / "reference" / "rules.html").read_text(encoding="utf-8")
    assert 'id="thousand.classic.rules.Rules"' in rules
    run = (site / "reference" / "tournament-run.html").read_text(encoding="utf-8")
    assert 'id="tournament.runner.run.run_tournament"' in run
    assert ":class:`" not in state + rules + run  # roles are shown as plain names


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """A page linking to a page that does not exist stops the build: warnings are errors. (The
    site's own configuration, on a site of two pages: the whole site takes long to build, and
    builds cleanly above.)"""
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "roles.py", tmp_path / "docs" / "roles.py")
    home = "# Home\n\nSee [the broken page](broken.md).\n"
    (tmp_path / "docs" / "index.md").write_text(home, encoding="utf-8")
    broken = "# Broken\n\nSee [the missing page](missing.md).\n"
    (tmp_path / "docs" / "broken.md").write_text(broken, encoding="utf-8")
    text, _, nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").partition("\nnav:\n")
    assert nav.startswith("  - Home: index.md\n")  # the navigation is the last section
    text += "\nnav:\n  - Home: index.md\n  - Broken: broken.md\n"
    text = text.replace("paths: [.]", f'paths: ["{ROOT}"]')  # the code stays where it is
    config = tmp_path / "mkdocs.yml"
    config.write_text(text, encoding="utf-8")
    result = build(tmp_path / "site", "--config-file", str(config), cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "'broken.md' contains a link 'missing.md'" in output
    assert "Aborted with 1 warnings in strict mode" in output


@pytest.mark.parametrize("package", [thousand, bluff], ids=lambda package: package.__name__)
def test_the_reference_lists_every_exported_name(package: ModuleType) -> None:
    """The reference page of a package links every name the package exports."""
    page = REFERENCE / f"{package.__name__.rsplit('.', 1)[-1]}.md"
    linked = set(re.findall(r"\[`(\w+)`\]\[", page.read_text(encoding="utf-8")))
    assert set(package.__all__) <= linked
