"""Casual tables in a real browser: people in separate browser contexts (separate cookies) make
a table, take its seats and play by clicking, while every frame and page each context receives
is checked for cards its seat may not see at that moment of the game."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from tests.browser import chromium_browser, watch_errors  # noqa: F401  (pytest fixture)
from tests.test_server import Running
from tests.test_tables import server  # noqa: F401  (pytest fixture)
from thousand import bluff
from thousand.bluff import spectator as bluff_spectator
from thousand.classic.cards import Card
from thousand.classic.record import replay
from thousand.classic.spectator import spectate
from thousand.frontends.faces import bluff_face, face
from thousand.games import BLUFF, THOUSAND

FACE = re.compile(r"(?:9|10|J|Q|K|A)[♠♣♦♥]")
"""A Thousand card as the table shows it."""


CODE = re.compile(r"\b([9TJQKA])([SCDH])\b")
"""A Thousand card as an observation's dictionary writes it."""
LABEL = re.compile(r'"(\d{2,4})"')
"""A 1000? card as an observation's dictionary writes it (its label, alone in a string)."""
BLUFF_FACE = re.compile(r"\[(\d{2,4})\]")
"""A 1000? card as the table shows it: ``[06]``."""


def cards_in(value: Any) -> set[str]:
    """Every card held anywhere in ``value`` (an observation or a spectator's view), as the
    table shows it."""
    found: set[str] = set()
    if hasattr(value, "to_dict"):
        text = json.dumps(value.to_dict())
        ranks = {"T": "10"}
        suits = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
        found = {ranks.get(rank, rank) + suits[suit] for rank, suit in CODE.findall(text)}
        return found | {f"[{label}]" for label in LABEL.findall(text)}
    if isinstance(value, Card):
        found.add(face(value))
    elif isinstance(value, bluff.Card):
        found.add(bluff_face(value))
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            if field.name != "rules":
                found |= cards_in(getattr(value, field.name))
    elif isinstance(value, (tuple, list)):
        for item in value:
            found |= cards_in(item)
    return found


def shown_cards(view: str) -> set[str]:
    """Every card a view shows, in either game: drawn (``9♠``, ``[06]``) or written as an
    action names it (``play 9S``)."""
    ranks = {"T": "10"}
    suits = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
    written = {ranks.get(rank, rank) + suits[suit] for rank, suit in CODE.findall(view)}
    drawn = set(FACE.findall(view)) | {f"[{label}]" for label in BLUFF_FACE.findall(view)}
    return drawn | written


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

    def opened(self, response: Any) -> None:
        """Keep the page the server sent, as it was sent."""
        assert response is not None
        self.views.append(response.text())


def check_views(game: Any, record: Any, person: Person) -> None:
    """No view ``person`` received shows a card its seat could not see at the step it shows."""
    states = states_by_step(game, record)
    checked = 0
    for view in person.views:
        # A page as the browser holds it quotes its attributes; as the server sent it, not.
        step = re.search(r'data-step="?(\d+)', view)
        if step is None or re.search(r'data-status="?over', view):
            continue  # a game over shows its cards to everyone
        checked += 1
        state = states[int(step.group(1))]
        if person.seat is None:
            allowed = cards_in(game_spectate(state))
        else:
            allowed = cards_in(game.seen_from(state, person.seat))
        shown = shown_cards(view)
        assert shown <= allowed, f"seat {person.seat} was shown {shown - allowed}"
    assert checked > 0


def game_spectate(state: Any) -> Any:
    """The public table of either game."""
    if isinstance(state, bluff.State):
        return bluff_spectator.spectate(state)
    return spectate(state)


def states_by_step(game: Any, record: Any) -> dict[int, Any]:
    """The game's state after each number of actions played, from the record's replay."""
    states: dict[int, Any] = {}
    replaying = replay if game is THOUSAND else bluff.replay
    replaying(record, watch=lambda state: states.setdefault(game.actions_played(state), state))
    return states


def give_to_a_bot(page: Any, seat: int) -> None:
    """Give an empty seat to the medium bot, and wait for the table to show it taken. The
    choice and the click are made at once, so that a new view of the table coming in between
    cannot reset the choice."""
    page.evaluate(
        """seat => {
            document.querySelector(`select[data-bot-for="${seat}"]`).value = "medium";
            document.querySelector(`button[data-bot="${seat}"]`).click();
        }""",
        seat,
    )
    page.wait_for_selector(f"li[data-seat='{seat}']:has-text('medium bot')")


def played_table(
    running: Running, browser: Any, preset: str, people: int, bots: int, reload: bool = False
) -> tuple[Any, Any, list[Person], dict[str, Any]]:
    """A table of ``preset`` made in a browser on ``running``, ``people`` seats taken by
    browser contexts and ``bots`` given to bots, played to its end by clicking each person's
    first move (one reloading its page in the middle of a trick when ``reload``), with a
    spectator: the game, its record, the people and the spectator (last), and the table's
    data."""
    base = f"http://127.0.0.1:{running.port}"
    persons = [Person(browser.new_context().new_page(), seat) for seat in range(people)]
    watcher = Person(browser.new_context().new_page(), None)
    for person in (*persons, watcher):
        person.page.set_default_timeout(15_000)
        person.watch()
    first = persons[0].page
    first.goto(f"{base}/play")
    first.select_option("select[name=game]", preset)
    first.click("text=Make the table")
    first.wait_for_url(re.compile(r"/tables/"))
    address = first.url
    persons[0].views.append(first.content())
    for number, person in enumerate(persons):
        if person is not persons[0]:
            person.opened(person.page.goto(address))
        person.page.fill("#name", f"Player {number + 1}")
        person.page.click(f"button[data-sit='{number}']")
        person.page.wait_for_selector(f"li[data-seat='{number}']:has-text('you')")
    for seat in range(people, people + bots):
        give_to_a_bot(first, seat)
    watcher.opened(watcher.page.goto(address))
    reloaded = not reload
    for _ in range(2000):
        if all(p.page.get_attribute("#view", "data-status") == "over" for p in persons):
            break
        for person in persons:
            if person.page.locator("#view .actions button").count() == 0:
                continue
            person.shown()
            if not reloaded and "On the table:" in person.page.inner_html("#view"):
                person.opened(person.page.reload())
                person.page.wait_for_selector("#view .actions button")
                reloaded = True
                person.shown()
            before = person.page.get_attribute("#view", "data-version")
            person.page.locator("#view .actions button").first.click()
            person.page.wait_for_function(
                "v => document.querySelector('#view').dataset.version !== v", arg=before
            )
        watcher.shown()
        first.wait_for_timeout(20)
    else:
        pytest.fail("the game did not end")
    assert reloaded
    table = address.rsplit("/", 1)[-1]
    data = first.context.request.get(f"{base}/api/tables/{table}").json()
    measured = first.context.request.get(f"{base}/api/metrics").json()["tables"]
    assert measured["games"] >= 1
    assert measured["moves"] > 0
    assert 0 <= measured["own_ms_per_move"]["p50"] <= measured["own_ms_per_move"]["p99"]
    game = THOUSAND if preset != "bluff" else BLUFF
    record = game.record_from_dict(data["record"])
    for person in (*persons, watcher):
        assert person.errors == []
        assert person.views
        check_views(game, record, person)
    return game, record, [*persons, watcher], data


def test_three_people_play_a_russian_deal_by_clicking(
    server: Running,  # noqa: F811
    chromium_browser: Any,  # noqa: F811
) -> None:
    """Three browser contexts make a table, take its seats by name and play a whole Russian deal
    to its score by clicking; one reloads its page in the middle of a trick and plays on; a
    fourth context watches. Every frame and page each received shows only what its seat (or a
    spectator) may see, and the scores shown are those of the game's record replayed."""
    game, record, _, data = played_table(server, chromium_browser, "russian", 3, 0, reload=True)
    assert data["scores"] == list(game.replay(record).result.deal_scores)
    card = game.seen_from(states_by_step(game, record)[0], 1).hand[0]
    for shown in (face(card), f"data-action='play {card}'"):
        planted = Person(None, 0, [f'<section data-step="0" data-status="playing">{shown}'])
        with pytest.raises(AssertionError, match="seat 0 was shown"):
            check_views(game, record, planted)


def test_two_people_and_two_bots_play_a_deal_for_four(
    server: Running,  # noqa: F811
    chromium_browser: Any,  # noqa: F811
) -> None:
    """A table of four (``russian-4``): two people and two bots play a deal, one seat sitting
    out; no frame shows a card its seat may not see, and the scores are the record's."""
    game, record, _, data = played_table(server, chromium_browser, "russian-4", 2, 2)
    assert data["seats"][2:] == ["medium bot", "medium bot 2"]
    assert data["scores"] == list(game.replay(record).result.deal_scores)


def test_two_people_and_two_bots_play_1000_to_its_end(
    server: Running,  # noqa: F811
    chromium_browser: Any,  # noqa: F811
) -> None:
    """1000? for four: two people and two bots play a whole game; no frame shows a face-down
    card to anyone but its owner, and the result is the record's."""
    game, record, _, data = played_table(server, chromium_browser, "bluff", 2, 2)
    final = game.replay(record)
    assert final.is_over
    assert data["scores"] == list(game.standings(final, None)[0])


def test_a_deal_is_played_with_the_keyboard_alone(
    server: Running,  # noqa: F811
    chromium_browser: Any,  # noqa: F811
) -> None:
    """Three people make a table, take their seats and play a whole Russian deal without the
    mouse: Tab and Enter to the form's button and to a seat, a move's number to play it."""
    base = f"http://127.0.0.1:{server.port}"
    people = [Person(chromium_browser.new_context().new_page(), seat) for seat in range(3)]
    for person in people:
        person.page.set_default_timeout(15_000)
        person.watch()
    first = people[0].page
    first.goto(f"{base}/play")
    for _ in range(10):  # through the form (Russian is its first game) to its button
        first.keyboard.press("Tab")
        if first.evaluate("document.activeElement.textContent") == "Make the table":
            break
    else:
        pytest.fail("Tab never reached the form's button")
    first.keyboard.press("Enter")
    first.wait_for_url(re.compile(r"/tables/"))
    for number, person in enumerate(people):
        if person is not people[0]:
            person.page.goto(first.url)
        person.page.keyboard.press("Tab")  # the links before the name
        person.page.keyboard.press("Tab")
        person.page.keyboard.type(f"Player {number + 1}")
        person.page.keyboard.press("Tab")  # the first empty seat's button
        person.page.keyboard.press("Enter")
        person.page.wait_for_selector(f"li[data-seat='{number}']:has-text('you')")
    for _ in range(400):
        if all(p.page.get_attribute("#view", "data-status") == "over" for p in people):
            break
        for person in people:
            if person.page.locator("#view .actions button").count() == 0:
                continue
            before = person.page.get_attribute("#view", "data-version")
            person.page.keyboard.press("1")
            person.page.wait_for_function(
                "v => document.querySelector('#view').dataset.version !== v", arg=before
            )
    else:
        pytest.fail("the deal did not end")
    assert all(person.errors == [] for person in people)


def test_a_seat_on_a_phone_never_scrolls_sideways(
    server: Running,  # noqa: F811
    chromium_browser: Any,  # noqa: F811
) -> None:
    """At a phone's width (390 pixels), at every move of a deal, the page is no wider than the
    screen and every move's button lies within it."""
    base = f"http://127.0.0.1:{server.port}"
    context = chromium_browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/play")
    page.click("text=Make the table")
    page.wait_for_url(re.compile(r"/tables/"))
    page.fill("#name", "A rather long name here")
    page.click("button[data-sit='0']")
    page.wait_for_selector("li[data-seat='0']:has-text('you')")
    for seat in (1, 2):
        give_to_a_bot(page, seat)
    moves = 0
    while page.get_attribute("#view", "data-status") != "over":
        buttons = page.locator("#view .actions button")
        if buttons.count() == 0:
            page.wait_for_timeout(20)
            continue
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        for index in range(buttons.count()):
            box = buttons.nth(index).bounding_box()
            assert box is not None
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= 390
        before = page.get_attribute("#view", "data-version")
        buttons.first.click()
        page.wait_for_function(
            "v => document.querySelector('#view').dataset.version !== v", arg=before
        )
        moves += 1
    assert moves > 0
    context.close()


def test_a_table_made_from_a_rules_file(
    server: Running,  # noqa: F811
    chromium_browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A rules file chosen in the lobby's form gives the table its rules: a preset of four seats
    with a house rule makes a table of four; a file that holds no rules is refused, saying why."""
    base = f"http://127.0.0.1:{server.port}"
    page = chromium_browser.new_context().new_page()
    page.set_default_timeout(15_000)
    errors = watch_errors(page)

    def made_from(text: str) -> None:
        """Make a table in the lobby with a rules file holding ``text``."""
        chosen = tmp_path / "rules.json"
        chosen.write_text(text, encoding="utf-8")
        page.goto(f"{base}/play")
        page.click("summary")
        page.set_input_files("#rules-file", str(chosen))
        page.wait_for_function("document.querySelector('textarea[name=rules]').value !== ''")
        page.click("text=Make the table")

    made_from('{"preset": "russian-4", "bolts": 3}')
    page.wait_for_url(re.compile(r"/tables/"))
    assert page.locator("li[data-seat]").count() == 4
    assert "russian, own rules" in page.inner_text("h2")
    made_from('{"bolts": "many"}')
    assert "rules field 'bolts' must be a whole number" in page.inner_text("body")
    assert [error for error in errors if "400" not in error] == []
    page.context.close()
