"""Casual tables without a browser: the table's rules of seating and moving, and every input
from outside checked (a forged form, a page of another site, a stale or forged move), each
answered by one error that changes nothing."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import attrs
import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.test_server import Running
from tests.test_server_games import Client
from thousand.classic.rules import Rules
from thousand.games import THOUSAND
from tournament.runner.ladder import ladder_key, load_ladders
from tournament.server.app import Settings
from tournament.server.store import CasualGame, Store
from tournament.server.table_views import seat_view
from tournament.server.tables import DIFFICULTIES, ActionRefused, Tables


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    """A server on a new SQLite file, whose bots at the casual tables play at once."""
    running = Running(Settings(database=f"sqlite:///{tmp_path / 'server.db'}", bot_pause=0.0))
    try:
        yield running
    finally:
        running.stop()


def test_seats_moves_and_refusals_at_a_table() -> None:
    """A table starts once its seats are full; only the person to act may move, with the
    table's current version and one of their legal moves; a refused move changes nothing."""

    async def run() -> None:
        tables = Tables(bot_pause=0.0)
        table = tables.create("russian")
        with pytest.raises(ValueError, match="the game must be one of russian"):
            tables.create("chess")
        tables.sit(table, 0, "p0", "Anna")
        with pytest.raises(ActionRefused, match="that seat is taken"):
            tables.sit(table, 0, "p1", "Boris")
        with pytest.raises(ActionRefused, match="you already have a seat"):
            tables.sit(table, 1, "p0", "Anna again")
        with pytest.raises(ActionRefused, match="a name is 1 to 24 characters"):
            tables.sit(table, 1, "p1", "   ")
        tables.sit(table, 1, "p1", "Boris")
        assert table.status == "waiting"
        tables.seat_bot(table, 2, "beginner")
        assert table.status == "playing"
        await asyncio.sleep(0.05)
        match = table.match
        assert match is not None
        seat = match.to_act
        assert seat in (0, 1)
        other = f"p{1 - seat}"
        legal = str(match.observation().legal_actions[0])
        version = table.version
        with pytest.raises(ActionRefused, match="it is not your turn"):
            tables.act(table, other, version, legal)
        with pytest.raises(ActionRefused, match="the table has changed since"):
            tables.act(table, f"p{seat}", version - 1, legal)
        with pytest.raises(ActionRefused, match="is not one of your moves now"):
            tables.act(table, f"p{seat}", version, "bid 300")
        assert (table.version, match.to_act) == (version, seat)
        tables.act(table, f"p{seat}", version, legal)
        await asyncio.sleep(0.05)
        assert table.version > version
        await tables.stop()

    asyncio.run(run())


def test_a_form_without_its_token_makes_no_table(server: Running) -> None:
    """The form that makes a table must carry the token of the person's own lobby page: one
    posted from another site (which cannot read it) is refused, and no table is made."""
    base = f"http://127.0.0.1:{server.port}"
    with httpx.Client(base_url=base) as browser:
        lobby = browser.get("/play")
        token = re.search(r"name=token value=([0-9a-f]+)", lobby.text)
        assert token is not None
        forged = browser.post("/play", data={"token": "0" * 64, "game": "russian"})
        assert forged.status_code == 403
        assert "/tables/" not in browser.get("/play").text
        made = browser.post("/play", data={"token": token.group(1), "game": "russian"})
        assert made.status_code == 303
        assert made.headers["location"].startswith("/tables/")


def test_a_table_refuses_pages_of_other_sites_and_bad_messages(server: Running) -> None:
    """The table's websocket refuses a page from another origin (HTTP 403); on its own origin,
    every bad message gets one error and the connection goes on."""
    base = f"http://127.0.0.1:{server.port}"
    with httpx.Client(base_url=base) as browser:
        token = re.search(r"name=token value=([0-9a-f]+)", browser.get("/play").text)
        assert token is not None
        made = browser.post("/play", data={"token": token.group(1), "game": "russian"})
        path = made.headers["location"]
        cookie = browser.cookies["thousand_person"]
    address = f"ws://127.0.0.1:{server.port}{path}/ws"
    headers = {"Cookie": f"thousand_person={cookie}"}
    with (
        pytest.raises(InvalidStatus, match="HTTP 403"),
        connect(address, additional_headers={**headers, "Origin": "http://evil.example"}) as socket,
    ):
        socket.recv(timeout=5)
    own = {**headers, "Origin": f"http://127.0.0.1:{server.port}"}
    with connect(address, additional_headers=own) as socket:
        assert json.loads(socket.recv(timeout=5))["type"] == "view"
        for sent, said in [
            ("nonsense", "a message must be JSON"),
            ("[1]", "a message must be a JSON object"),
            ('{"type": "dance"}', "unknown message"),
            ('{"type": "sit", "seat": "one"}', "name the seat by its number"),
            ('{"type": "sit", "seat": 7, "name": "Anna"}', "this table has seats 1 to 3"),
            ('{"type": "act", "version": 0, "action": "pass"}', "it is not your turn"),
            ('{"type": "bot", "seat": 0, "level": "godlike"}', "a bot is beginner, easy"),
            ("x" * 3000, "that message is too long"),
        ]:
            socket.send(sent)
            reply = json.loads(socket.recv(timeout=5))
            assert reply == {"type": "error", "message": reply["message"]}
            assert reply["message"].startswith(said)
        socket.send('{"type": "sit", "seat": 0, "name": "<b>Anna</b>"}')
        view = json.loads(socket.recv(timeout=5))["html"]
        assert "&lt;b&gt;Anna&lt;/b&gt; (you)" in view


def test_a_seat_is_away_only_once_every_page_of_its_person_closed() -> None:
    """A person with two pages open at a table who closes one is still there; closing the other
    marks the seat away; opening a page again brings it back."""

    async def run() -> None:
        tables = Tables(bot_pause=0.0)
        table = tables.create("russian")
        tables.sit(table, 0, "p0", "Anna")
        tables.back(table, "p0")
        tables.back(table, "p0")
        tables.left(table, "p0")
        assert 0 not in table.away
        tables.left(table, "p0")
        assert 0 in table.away
        tables.back(table, "p0")
        assert 0 not in table.away

    asyncio.run(run())


def test_spectators_see_the_game_a_round_of_moves_late() -> None:
    """A spectator's view shows the game as it was one round of moves ago (three moves at a
    table of three), never the move just played; with no delay, as it is."""

    async def run(delay: int) -> list[tuple[int, int]]:
        tables = Tables(bot_pause=0.0, spectator_delay=delay)
        table = tables.create("russian")
        for seat in range(3):
            tables.sit(table, seat, f"p{seat}", f"P{seat}")
        steps = []
        for _ in range(8):
            await asyncio.sleep(0.02)
            match = table.match
            assert match is not None
            seat = match.to_act
            assert seat is not None
            played = THOUSAND.actions_played(match.state)
            shown = re.search(r"data-step=(\d+)", seat_view(table, None))
            assert shown is not None
            steps.append((played, int(shown.group(1))))
            legal = str(match.observation().legal_actions[0])
            tables.act(table, f"p{seat}", table.version, legal)
        await tables.stop()
        return steps

    late = asyncio.run(run(1))
    assert all(shown == max(0, played - 3) for played, shown in late)
    assert late[-1][0] >= 6
    assert all(shown == played for played, shown in asyncio.run(run(0)))


def test_a_finished_table_is_kept_then_forgotten() -> None:
    """Once a table's game ends it is kept (scores and a record that replays to them), and the
    table is dropped from memory after its players have had time to see the result."""
    kept: list[CasualGame] = []

    async def keep(game: CasualGame) -> None:
        kept.append(game)

    async def run() -> str:
        tables = Tables(bot_pause=0.0, keep=keep, shown_for=0.05)
        table = tables.create("russian")
        tables.sit(table, 0, "p0", "Anna")
        tables.seat_bot(table, 1, "medium")
        tables.seat_bot(table, 2, "medium")
        for _ in range(2000):
            await asyncio.sleep(0.005)
            match = table.match
            assert match is not None
            if table.outcome is not None:
                break
            if match.to_act == 0 and table.answer is not None and not table.answer.done():
                legal = str(match.observation().legal_actions[0])
                tables.act(table, "p0", table.version, legal)
        assert table.outcome is not None
        for _ in range(100):
            if table.id not in tables.tables:
                break
            await asyncio.sleep(0.01)
        assert table.id not in tables.tables
        await tables.stop()
        return table.id

    table_id = asyncio.run(run())
    [game] = kept
    assert (game.table_id, game.game, game.rules) == (table_id, "thousand", "russian")
    assert game.seats == ("Anna", "medium bot", "medium bot 2")
    record = THOUSAND.record_from_dict(game.record)
    assert game.scores == THOUSAND.replay(record).result.deal_scores


def test_a_forgotten_table_is_served_from_the_database(server: Running, tmp_path: Path) -> None:
    """The page, the data and the replay of a finished table no longer in memory come from
    what the database kept."""
    state = THOUSAND.start(
        Rules.preset("russian"), seed=5, layout=None, dealer=None, single_deal=True
    )
    record = THOUSAND.record(state)
    game = CasualGame("abc123", "thousand", "russian", ("Anna", "Boris", "Chris"), (0, 0, 0), {})
    store = Store(f"sqlite:///{tmp_path / 'server.db'}")
    try:
        store.keep_casual(attrs.evolve(game, record=record.to_dict()))
    finally:
        store.close()
    base = f"http://127.0.0.1:{server.port}"
    data = httpx.get(f"{base}/api/tables/abc123").json()
    assert data["status"] == "over"
    assert data["seats"] == ["Anna", "Boris", "Chris"]
    assert THOUSAND.record_from_dict(data["record"]) == record
    page = httpx.get(f"{base}/tables/abc123").text
    assert "The game is over." in page
    assert "/tables/abc123/replay" in page
    assert httpx.get(f"{base}/tables/abc123/replay").status_code == 200
    assert httpx.get(f"{base}/api/tables/nothing").status_code == 404


@pytest.mark.parametrize(
    ("preset", "given", "seats", "message"),
    [
        ("russian", '{"bolts": 3}', 3, None),
        ("polish", '{"preset": "polish-4"}', 4, None),
        ("bluff", '{"players": 3}', 3, None),
        ("russian", "[1]", 0, "the rules must be a JSON object of rules fields"),
        ("russian", '{"bolts": "x"}', 0, "the rules: rules field 'bolts' must be a whole number"),
        ("bluff", '{"players": 9}', 0, "the rules: rules field 'players' must be 2 to 6"),
    ],
)
def test_a_table_may_have_its_own_rules(
    preset: str, given: str, seats: int, message: str | None
) -> None:
    """A table's form may give its own rules as JSON (a preset's fields with house rules, or
    1000? for another number of players): the table has their seats; rules that are not
    rules are refused, saying why."""
    tables = Tables()
    if message is not None:
        with pytest.raises(ValueError, match=re.escape(message)):
            tables.create(preset, 60, given)
        assert tables.tables == {}
        return
    table = tables.create(preset, 60, given)
    assert len(table.seats) == seats
    assert table.preset.endswith(", own rules")
    if preset == "russian":
        assert table.rules.bolts == 3


def test_a_connected_bot_that_accepts_casual_games_takes_a_seat(
    server: Running, tmp_path: Path
) -> None:
    """A bot connected with ``thousand connect --casual`` is offered for the empty seats; given
    one, it plays its moves over its own connection, and the game is kept with its name."""
    store = Store(f"sqlite:///{tmp_path / 'server.db'}")
    try:
        token = store.add_bot("alpha")
    finally:
        store.close()
    client = Client("greedy", f"ws://127.0.0.1:{server.port}/bot", token, casual=True)
    base = f"http://127.0.0.1:{server.port}"
    try:
        with httpx.Client(base_url=base) as browser:
            token_found = re.search(r"name=token value=([0-9a-f]+)", browser.get("/play").text)
            assert token_found is not None
            form = {"token": token_found.group(1), "game": "russian"}
            path = browser.post("/play", data=form).headers["location"]
            cookie = browser.cookies["thousand_person"]
            for _ in range(200):
                if "bot:alpha" in browser.get(path).text:
                    break
                time.sleep(0.05)
            else:
                pytest.fail("the connected bot was never offered")
        headers = {"Cookie": f"thousand_person={cookie}", "Origin": base}
        with connect(f"ws://127.0.0.1:{server.port}{path}/ws", additional_headers=headers) as ws:
            ws.send('{"type": "bot", "seat": 1, "level": "bot:nobody"}')
            refusals = []
            ws.send('{"type": "sit", "seat": 0, "name": "Anna"}')
            ws.send('{"type": "bot", "seat": 1, "level": "bot:alpha"}')
            ws.send('{"type": "bot", "seat": 2, "level": "medium"}')
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "error":
                    refusals.append(message["message"])
                    continue
                view = message["html"]
                if "data-status=over" in view:
                    break
                move = re.search(r"data-action='([^']*)'", view)
                version = re.search(r"data-version=(\d+)", view)
                if move is not None and version is not None:
                    act = {"type": "act", "version": int(version.group(1)), "action": move.group(1)}
                    ws.send(json.dumps(act))
        assert refusals == ["no connected bot named 'nobody' accepts casual games now"]
        assert httpx.get(f"{base}/api/metrics").json()["tables"]["stand_in_moves"] == 0
        data = httpx.get(f"{base}/api/tables/{path.rsplit('/', 1)[-1]}").json()
        assert data["seats"] == ["Anna", "alpha", "medium bot"]
        record = THOUSAND.record_from_dict(data["record"])
        assert data["scores"] == list(THOUSAND.replay(record).result.deal_scores)
    finally:
        client.close()
    assert client.error is None


def test_a_person_who_left_is_played_for_after_the_grace_and_may_come_back() -> None:
    """Once a person's last page closed, their moves wait for the grace, then the stand-in
    plays them; when they come back they play their own moves again."""

    async def run() -> None:
        # Once the grace is over every move of the person's is played at once; the bots'
        # pause leaves the person time to come back before the deal ends.
        tables = Tables(grace=0.05, bot_pause=0.02)
        table = tables.create("russian")
        tables.sit(table, 0, "p0", "Anna")
        tables.back(table, "p0")
        tables.seat_bot(table, 1, "medium")
        tables.seat_bot(table, 2, "medium")
        match = table.match
        assert match is not None
        tables.left(table, "p0")
        for _ in range(200):
            await asyncio.sleep(0.01)
            if tables.stood_in >= 1:
                break
        assert tables.stood_in >= 1
        assert table.outcome is None
        tables.back(table, "p0")
        stood_in = tables.stood_in
        own_moves = 0
        for _ in range(500):
            await asyncio.sleep(0.01)
            if table.outcome is not None:
                break
            if match.to_act == 0 and table.answer is not None and not table.answer.done():
                tables.act(table, "p0", table.version, str(match.observation().legal_actions[0]))
                own_moves += 1
        assert table.outcome is not None
        assert own_moves > 0
        assert tables.stood_in == stood_in
        await tables.stop()

    asyncio.run(run())


def test_the_bot_levels_rise_with_their_ratings_on_the_russian_ladder() -> None:
    """Each level's bot that is on the ladder rates above the level before it; the hardest,
    ``pimc`` at its default budget, thinks longer than any search bot on the ladder."""
    ladder = load_ladders()[ladder_key("thousand", "russian", 3)]
    rated = [ladder.rung(spec) for spec in DIFFICULTIES.values()]
    ratings = [rung.rating for rung in rated if rung is not None]
    assert len(ratings) == len(DIFFICULTIES) - 1
    assert ratings == sorted(ratings)
    assert list(DIFFICULTIES)[-1] == "hard"
    assert DIFFICULTIES["hard"] == "pimc"
