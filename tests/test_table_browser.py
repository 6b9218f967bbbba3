"""Casual tables in a real browser: people in separate browser contexts (separate cookies) make
a table, take its seats and play by clicking, while every frame and page each context receives
is checked for cards its seat may not see at that moment of the game."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from tests.browser import chromium_browser, watch_errors  # noqa: F401  (pytest fixture)
from tests.test_server import Running
from thousand.classic.cards import Card
from thousand.classic.record import replay
from thousand.classic.spectator import spectate
from thousand.frontends.faces import face
from thousand.games import THOUSAND
from tournament.server.app import Settings

FACE = re.compile(r"(?:9|10|J|Q|K|A)[♠♣♦♥]")
"""A Thousand card as the table shows it."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    running = Running(Settings(database=f"sqlite:///{tmp_path / 'server.db'}", bot_pause=0.05))
    try:
        yield running
    finally:
        running.stop()


CODE = re.compile(r"\b([9TJQKA])([SCDH])\b")
"""A Thousand card as an observation's dictionary writes it."""


def cards_in(value: Any) -> set[str]:
    """Every card held anywhere in ``value`` (an observation or a spectator's view), as shown."""
    found: set[str] = set()
    if hasattr(value, "to_dict"):
        text = json.dumps(value.to_dict())
        ranks = {"T": "10"}
        suits = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
        return {ranks.get(rank, rank) + suits[suit] for rank, suit in CODE.findall(text)}
    if isinstance(value, Card):
        found.add(face(value))
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            if field.name != "rules":
                found |= cards_in(getattr(value, field.name))
    elif isinstance(value, (tuple, list)):
        for item in value:
            found |= cards_in(item)
    return found


@attrs.define
class Person:
    """A browser context at the table: its page, and every view it was sent or shown."""

    page: Any
    seat: int | None
    views: list[str] = attrs.Factory(list)
    errors: list[str] = attrs.Factory(list)

    def watch(self) -> None:
        self.errors = watch_errors(self.page)

        def framed(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "view":
                self.views.append(message["html"])

        self.page.on("websocket", lambda socket: socket.on("framereceived", framed))

    def shown(self) -> None:
        self.views.append(self.page.inner_html("body"))


def check_views(record: Any, person: Person) -> None:
    """No view ``person`` received shows a card its seat could not see at the step it shows."""
    states = states_by_step(record)
    for view in person.views:
        step_match = re.search(r"data-step=(\d+)", view)
        if step_match is None:
            continue
        state = states[int(step_match.group(1))]
        if re.search(r"data-status=over", view):
            continue  # the game is over: its cards are everyone's
        if person.seat is None:
            allowed = cards_in(spectate(state))
        else:
            allowed = cards_in(THOUSAND.seen_from(state, person.seat))
        shown = set(FACE.findall(view))
        assert shown <= allowed, f"seat {person.seat} was shown {shown - allowed}"


def states_by_step(record: Any) -> dict[int, Any]:
    """The game's state after each number of actions played, from the record's replay."""
    states: dict[int, Any] = {}
    replay(record, watch=lambda state: states.setdefault(THOUSAND.actions_played(state), state))
    return states


def test_three_people_play_a_russian_deal_by_clicking(
    server: Running,
    chromium_browser: Any,  # noqa: F811
) -> None:
    """Three browser contexts make a table, take its seats by name and play a whole Russian deal
    to its score by clicking; one reloads its page in the middle of a trick and plays on; a
    fourth context watches. Every frame and page each received shows only what its seat (or a
    spectator) may see, and the scores shown are those of the game's record replayed."""
    base = f"http://127.0.0.1:{server.port}"
    people = [Person(chromium_browser.new_context().new_page(), seat) for seat in range(3)]
    watcher = Person(chromium_browser.new_context().new_page(), None)
    for person in (*people, watcher):
        person.page.set_default_timeout(15_000)
        person.watch()
    first = people[0].page
    first.goto(f"{base}/play")
    first.select_option("select[name=game]", "russian")
    first.click("text=Make the table")
    first.wait_for_url(re.compile(r"/tables/"))
    address = first.url
    for number, person in enumerate(people):
        if person is not people[0]:
            person.page.goto(address)
        person.page.fill("#name", f"Player {number + 1}")
        person.page.click(f"button[data-sit='{number}']")
        person.page.wait_for_selector(f"li[data-seat='{number}']:has-text('you')")
    watcher.page.goto(address)
    reloaded = False
    for _ in range(400):
        if all(p.page.get_attribute("#view", "data-status") == "over" for p in people):
            break
        for person in people:
            buttons = person.page.locator("#view .actions button")
            if buttons.count() == 0:
                continue
            person.shown()
            if not reloaded and "On the table:" in person.page.inner_html("#view"):
                person.page.reload()
                person.page.wait_for_selector("#view .actions button")
                reloaded = True
                person.shown()
            before = person.page.get_attribute("#view", "data-version")
            person.page.locator("#view .actions button").first.click()
            person.page.wait_for_function(
                "v => document.querySelector('#view').dataset.version !== v", arg=before
            )
        watcher.shown()
    else:
        pytest.fail("the deal did not end")
    assert reloaded
    table = address.rsplit("/", 1)[-1]
    data = json.loads(people[0].page.goto(f"{base}/api/tables/{table}").text())
    record = THOUSAND.record_from_dict(data["record"])
    assert data["scores"] == list(THOUSAND.replay(record).result.deal_scores)
    for person in (*people, watcher):
        assert person.errors == []
        check_views(record, person)
        assert person.views
    hidden = face(THOUSAND.seen_from(states_by_step(record)[0], 1).hand[0])
    planted = Person(None, 0, [f"<section data-step=0 data-status=playing>{hidden}</section>"])
    with pytest.raises(AssertionError, match="seat 0 was shown"):
        check_views(record, planted)
