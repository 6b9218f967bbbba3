"""The tournament's pictures and report.html: written after a tournament kept with --out, redrawn
by ``thousand report`` from a finished or running tournament, opened in a real headless
Chromium, and left out (with one hint) when matplotlib is missing."""

from __future__ import annotations

import html
import importlib.abc
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tournament.runner
from tests.browser import browser_page, chromium, file_url, watch_errors  # noqa: F401
from tests.test_cli import run_installed
from tests.test_progress import without_progress
from tournament.cli import app

runner = CliRunner()

ARGUMENTS = ["greedy", "random", "random", "--deals", "20", "--seed", "1", "--workers", "1"]
PICTURES = ["head-to-head.png", "ratings.png", "scores.png"]
PNG = b"\x89PNG\r\n\x1a\n"
HINT = "python -m pip install matplotlib"


def play(folder: Path, *extra: str) -> Any:
    """The tournament of :data:`ARGUMENTS` kept in ``folder``, through the command line."""
    result = runner.invoke(app, ["tournament", *ARGUMENTS, *extra, "--out", str(folder)])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """One small tournament kept in a folder, and what the command printed."""
    folder = tmp_path_factory.mktemp("report") / "kept"
    return folder, play(folder)


@pytest.fixture(scope="module")
def tested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same tournament with a sequential test, which decides after 16 groups."""
    folder = tmp_path_factory.mktemp("report") / "tested"
    play(folder, "--sprt", "0,20")
    return folder


def pictures(folder: Path) -> list[str]:
    return sorted(path.name for path in (folder / "plots").iterdir())


def test_a_kept_tournament_draws_its_pictures_and_report(kept: tuple[Path, Any]) -> None:
    folder, result = kept
    assert pictures(folder) == PICTURES
    for name in PICTURES:
        data = (folder / "plots" / name).read_bytes()
        assert data.startswith(PNG)
        assert 5_000 < len(data) < 150_000
    assert without_progress(result.stderr) == f"report: {folder / 'report.html'}\n"


def test_the_sequential_test_is_drawn_only_when_one_ran(
    kept: tuple[Path, Any], tested: Path
) -> None:
    assert "sprt.png" not in pictures(kept[0])
    assert pictures(tested) == sorted([*PICTURES, "sprt.png"])
    assert "H1 accepted after 16 groups" in (tested / "report.html").read_text()


@pytest.mark.parametrize("which", ["kept", "tested"])
def test_the_report_opens_in_chromium(
    which: str,
    request: pytest.FixtureRequest,
    browser_page: Any,  # noqa: F811
) -> None:
    folder = request.getfixturevalue(which)
    folder = folder[0] if isinstance(folder, tuple) else folder
    page = browser_page
    errors = watch_errors(page)
    page.goto(file_url(folder / "report.html"))
    images = page.evaluate(
        "() => [...document.images].map(image => [image.complete, image.naturalWidth])"
    )
    assert len(images) == len(pictures(folder))
    assert all(complete and width > 0 for complete, width in images)
    standings = page.locator("#standings")
    assert standings.is_visible()
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#standings tbody tr')]"
        ".map(row => row.cells[1].textContent)"
    )
    assert sorted(rows) == ["greedy", "random", "random#2"]
    text = page.inner_text("body")
    assert "seed\t1" in text
    assert text.count("Finished") == 1
    assert page.evaluate("() => performance.getEntriesByType('resource').length") == 0
    assert errors == []


def test_report_redraws_a_finished_tournament_the_same(
    kept: tuple[Path, Any], tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(kept[0], copy)
    shutil.rmtree(copy / "plots")
    (copy / "report.html").unlink()
    result = runner.invoke(app, ["report", str(copy)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"wrote {copy / 'report.html'} and the pictures in {copy / 'plots'}\n"
    for name in PICTURES:
        assert (copy / "plots" / name).read_bytes() == (kept[0] / "plots" / name).read_bytes()
    assert (copy / "report.html").read_bytes() == (kept[0] / "report.html").read_bytes()
    # Redrawn on the scale the tournament was rated on, and saying so as the standings did.
    (scale,) = [line for line in kept[1].stdout.splitlines() if line.startswith("Ratings are")]
    assert "reference scale of Thousand, russian rules" in scale
    assert html.escape(scale) in (copy / "report.html").read_text()


def test_report_draws_a_tournament_still_running(
    tested: Path,
    tmp_path: Path,
    browser_page: Any,  # noqa: F811
) -> None:
    """A journal cut part way, its last line half written, as a running tournament leaves it:
    the report counts the complete groups and leaves the journal as it is."""
    running = tmp_path / "running"
    running.mkdir()
    shutil.copy(tested / "config.json", running)
    lines = (tested / "journal.jsonl").read_bytes().splitlines(keepends=True)
    journal = b"".join(lines[:40]) + lines[40][:30]
    (running / "journal.jsonl").write_bytes(journal)
    result = runner.invoke(app, ["report", str(running)])
    assert result.exit_code == 0, result.output
    assert (running / "journal.jsonl").read_bytes() == journal
    assert pictures(running) == sorted([*PICTURES, "sprt.png"])
    page = browser_page
    errors = watch_errors(page)
    page.goto(file_url(running / "report.html"))
    text = page.inner_text("body")
    assert "Still running: 40 of 120 units played so far" in text
    assert "the figures count the 36 units" in text
    assert errors == []


def test_without_matplotlib_the_tournament_runs_as_before_and_says_how_once(
    kept: tuple[Path, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    # The pictures' module, loaded by the tests before, is forgotten as if never imported.
    monkeypatch.delitem(sys.modules, "tournament.runner.plots", raising=False)
    monkeypatch.delattr(tournament.runner, "plots", raising=False)
    folder = tmp_path / "bare"
    result = play(folder)
    assert result.stdout == kept[1].stdout
    (said,) = without_progress(result.stderr).splitlines()
    assert HINT in said
    assert not (folder / "report.html").exists()
    assert not (folder / "plots").exists()
    refused = runner.invoke(app, ["report", str(folder)])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error: ")
    assert refused.stderr.count("\n") == 1
    assert HINT in refused.stderr


def test_no_report_ends_without_the_pictures_which_report_draws_later(
    kept: tuple[Path, Any], tmp_path: Path
) -> None:
    """``--no-report`` keeps the tournament, prints the same standings and says nothing of the
    pictures; ``thousand report`` then draws the very files the kept tournament has."""
    folder = tmp_path / "unreported"
    result = play(folder, "--no-report")
    assert result.stdout == kept[1].stdout
    assert without_progress(result.stderr) == ""
    assert not (folder / "report.html").exists()
    assert not (folder / "plots").exists()
    assert (folder / "summary.json").read_bytes() == (kept[0] / "summary.json").read_bytes()
    drawn = runner.invoke(app, ["report", str(folder)])
    assert drawn.exit_code == 0, drawn.output
    assert pictures(folder) == PICTURES
    for name in PICTURES:
        assert (folder / "plots" / name).read_bytes() == (kept[0] / "plots" / name).read_bytes()


class UnloadableMatplotlib(importlib.abc.MetaPathFinder):
    """matplotlib installed but failing to load, as its compiled parts do when no memory is
    left to map them."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> None:
        if name.split(".")[0] == "matplotlib":
            raise ImportError("failed to map segment from shared object")


def test_a_matplotlib_that_does_not_load_is_one_line_and_loses_nothing(
    kept: tuple[Path, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] == "matplotlib"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delitem(sys.modules, "tournament.runner.plots", raising=False)
    monkeypatch.delattr(tournament.runner, "plots", raising=False)
    monkeypatch.setattr(sys, "meta_path", [UnloadableMatplotlib(), *sys.meta_path])
    folder = tmp_path / "unloadable"
    result = play(folder)
    assert result.stdout == kept[1].stdout
    (said,) = without_progress(result.stderr).splitlines()
    assert said == (
        "the pictures and report.html cannot be drawn: matplotlib did not load "
        "(failed to map segment from shared object)"
    )
    assert (folder / "summary.json").is_file()
    refused = runner.invoke(app, ["report", str(folder)])
    assert refused.exit_code == 2
    assert refused.stderr.count("\n") == 1
    assert "matplotlib did not load" in refused.stderr


def test_report_refuses_what_is_no_tournament_in_one_line(
    kept: tuple[Path, Any], tmp_path: Path
) -> None:
    damaged = tmp_path / "damaged"
    shutil.copytree(kept[0], damaged)
    lines = (damaged / "journal.jsonl").read_text().splitlines(keepends=True)
    lines[4] = lines[4].replace('"scores":[', '"scores":[1')
    (damaged / "journal.jsonl").write_text("".join(lines))
    empty = tmp_path / "empty"
    empty.mkdir()
    cases = {
        tmp_path / "missing": "missing: no such folder",
        empty: "holds no tournament (no config.json)",
        damaged: "journal.jsonl, line 5, is damaged or was changed",
    }
    for folder, message in cases.items():
        result = runner.invoke(app, ["report", str(folder)])
        assert result.exit_code == 2, folder
        assert result.stderr.startswith("error: ")
        assert result.stderr.count("\n") == 1
        assert message in result.stderr


def test_the_installed_program_draws_the_report(kept: tuple[Path, Any], tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(kept[0], copy)
    result = run_installed("report", str(copy))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"wrote {copy / 'report.html'}")
    assert run_installed("report", str(tmp_path / "nowhere")).stderr == (
        f"error: {tmp_path / 'nowhere'}: no such folder\n"
    )


def test_bot_names_show_as_text(
    tmp_path: Path,
    browser_page: Any,  # noqa: F811
) -> None:
    """A bot's name is its spec, which may hold markup or dollar signs: the page shows it as
    text and the pictures draw it as it is."""
    bot = tmp_path / "<img src=x onerror=alert(1)>$x$ & co.py"
    bot.write_text(
        "import thousand\n\n\nclass Bot(thousand.SeatedPlayer):\n"
        "    def act(self, observation):\n"
        "        return self.rng.choice(observation.legal_actions)\n"
    )
    spec = f"{bot}:Bot"
    folder = tmp_path / "hostile"
    options = ["--deals", "3", "--seed", "1", "--workers", "1", "--no-isolate"]
    result = runner.invoke(
        app, ["tournament", spec, "random", "random", *options, "--out", str(folder)]
    )
    assert result.exit_code == 0, result.output
    page = browser_page
    errors = watch_errors(page)
    page.goto(file_url(folder / "report.html"))
    assert page.evaluate("() => document.images.length") == len(PICTURES)
    assert spec in page.inner_text("#standings")
    assert errors == []
