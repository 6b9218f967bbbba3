"""A real headless Chromium for the tests, driven through the ``playwright`` package.

The browser is the system's Chromium (``/usr/bin/chromium``, else ``chromium``,
``chromium-browser`` or ``google-chrome`` on the PATH, or the path in ``THOUSAND_CHROMIUM``);
Playwright's own browser downloads are never used. Without a browser the tests that need one
are skipped, unless ``THOUSAND_BROWSER=required`` (as in ``.ci/run``), which makes them fail.

Use the fixtures by importing them into a test module::

    from tests.browser import browser_page, chromium  # noqa: F401  (pytest fixtures)
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

__all__ = [
    "CHROMIUM_ARGS",
    "browser_page",
    "chromium",
    "chromium_browser",
    "file_url",
    "find_chromium",
    "watch_errors",
]

CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Flags for a quiet, offline-friendly headless Chromium."""


def find_chromium() -> str | None:
    """The Chromium executable to use, or ``None`` when there is none."""
    chosen = os.environ.get("THOUSAND_CHROMIUM")
    if chosen:
        found = shutil.which(chosen)
        return found if found is not None else None
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found is not None:
            return found
    return None


def _unavailable(reason: str) -> NoReturn:
    """Skip, or fail when the browser is required."""
    if os.environ.get("THOUSAND_BROWSER") == "required":
        pytest.fail(f"{reason} (THOUSAND_BROWSER=required)", pytrace=False)
    pytest.skip(reason)


def _usable_chromium() -> str:
    """The Chromium executable, once both it and Playwright are found (else skip or fail)."""
    executable = find_chromium()
    if executable is None:
        _unavailable(
            "no Chromium found: install Debian's chromium (apt-get install chromium) or set "
            "THOUSAND_CHROMIUM to a Chromium executable"
        )
    if importlib.util.find_spec("playwright") is None:
        _unavailable("the playwright package is not installed (pip install -e '.[test]')")
    return executable


@pytest.fixture(scope="module")
def chromium() -> Iterator[BrowserContext]:
    """A headless Chromium with a fresh profile, shared by the tests of one module."""
    executable = _usable_chromium()
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory(prefix="thousand-chromium-") as profile,
        sync_playwright() as driver,
    ):
        context = driver.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            headless=True,
            args=list(CHROMIUM_ARGS),
            viewport={"width": 1200, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()


@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[Browser]:
    """A headless Chromium in which each test makes contexts of its own (separate cookies:
    separate people), shared by the tests of one module."""
    executable = _usable_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=executable, headless=True, args=list(CHROMIUM_ARGS)
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def browser_page(chromium: BrowserContext) -> Iterator[Page]:
    """A new browser tab, closed after the test."""
    page = chromium.new_page()
    page.set_default_timeout(10_000)
    try:
        yield page
    finally:
        page.close()


def watch_errors(page: Page) -> list[str]:
    """A list that collects the page's console errors and uncaught exceptions from now on."""
    errors: list[str] = []
    page.on(
        "console",
        lambda message: (
            errors.append(f"console: {message.text}") if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    return errors


def file_url(path: Path) -> str:
    """The ``file://`` address of a local file."""
    return path.resolve().as_uri()
