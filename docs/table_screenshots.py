"""Take the screenshots of a casual table in docs/play.md: a desktop and a phone seat at one
Russian table with a bot, in the middle of a trick, each when it is that seat's move.

    python docs/table_screenshots.py        (needs the server extra, Playwright and Chromium)
"""

from __future__ import annotations

import re
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from tests.browser import CHROMIUM_ARGS, find_chromium  # noqa: E402
from tournament.server.app import Settings, web_server  # noqa: E402

IMAGES = ROOT / "docs" / "images"


def ready_to_play_in_a_trick(page: Page) -> bool:
    """Whether the page's seat is to move while a trick is on the table."""
    view = page.inner_html("#view")
    return "On the table:" in view and page.locator("#view .actions button").count() > 0


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        listening = socket.socket()
        listening.bind(("127.0.0.1", 0))
        port = listening.getsockname()[1]
        server = web_server(
            Settings(database=f"sqlite:///{folder}/server.db", bot_pause=0.0), log_level="warning"
        )
        threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True).start()
        while not server.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path=find_chromium(), headless=True, args=list(CHROMIUM_ARGS)
            )
            desktop = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            phone = browser.new_context(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
            ).new_page()
            desktop.goto(f"{base}/play")
            desktop.click("text=Make the table")
            desktop.wait_for_url(re.compile(r"/tables/"))
            phone.goto(desktop.url)
            for seat, (page, name) in enumerate(((desktop, "Anna"), (phone, "Boris"))):
                page.fill("#name", name)
                page.click(f"button[data-sit='{seat}']")
                page.wait_for_selector(f"li[data-seat='{seat}']:has-text('you')")
            desktop.select_option("select[data-bot-for='2']", "medium")
            desktop.click("button[data-bot='2']")
            shot: dict[str, bool] = {}
            for _ in range(200):
                for page, label in ((desktop, "desktop"), (phone, "phone")):
                    if page.locator("#view .actions button").count() == 0:
                        continue
                    if label not in shot and ready_to_play_in_a_trick(page):
                        page.screenshot(path=str(IMAGES / f"table-{label}.png"), full_page=True)
                        shot[label] = True
                    before = page.get_attribute("#view", "data-version")
                    page.locator("#view .actions button").first.click()
                    page.wait_for_function(
                        "v => document.querySelector('#view').dataset.version !== v", arg=before
                    )
                if len(shot) == 2:
                    break
            browser.close()
        server.should_exit = True
    print(", ".join(f"docs/images/table-{label}.png" for label in shot))


if __name__ == "__main__":
    main()
