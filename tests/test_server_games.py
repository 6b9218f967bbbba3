"""Rated games on the ladder server: bots connected over real websockets are seated in groups
with the reference bots, every group is kept whole or not at all, the leaderboard rates them,
and a dropped connection is held for its grace."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import httpx
import pytest
import sqlalchemy
from typer.testing import CliRunner
from websockets.sync.client import connect

from tests.postgres import postgres_server  # noqa: F401  (pytest fixture)
from tests.test_cli import installed_command
from tests.test_server import Running, database, started_server  # noqa: F401  (pytest fixture)
from thousand.games import THOUSAND
from thousand.table.specs import load_player
from tournament.cli import app
from tournament.server.app import Settings
from tournament.server.client import play_for
from tournament.server.groups import Timing
from tournament.server.store import Store, database_url

runner = CliRunner()
FAST = Timing(decision=5.0, start=5.0, grace=5.0)
"""Limits that a test's bots meet with room to spare, even on a busy machine."""


class Client:
    """``thousand connect``'s loop for one bot, run in a thread of its own."""

    def __init__(
        self,
        spec: str,
        url: str,
        token: str,
        games: int = 1,
        isolate: str = "none",
        casual: bool = False,
    ) -> None:
        self.lines: list[str] = []
        self.error: BaseException | None = None
        self.loop = asyncio.new_event_loop()
        self.stop = asyncio.Event()
        make = load_player(spec, isolate=isolate)

        def run() -> None:
            try:
                self.loop.run_until_complete(
                    play_for(
                        make,
                        url,
                        token,
                        games,
                        say=self.lines.append,
                        stop=self.stop,
                        casual=casual,
                    )
                )
            except BaseException as error:
                self.error = error

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)


def played(running: Running, spec: str, token: str, until: Any, isolate: str = "none") -> Client:
    """The bot ``spec`` played on ``running`` with ``token`` until ``until()`` holds."""
    client = Client(spec, f"ws://127.0.0.1:{running.port}/bot", token, isolate=isolate)
    try:
        waited(until)
    finally:
        client.close()
    return client


def waited(condition: Any, seconds: float = 120) -> None:
    """Wait until ``condition()`` holds, failing after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


@pytest.fixture
def grace() -> float:
    """The grace of the ladder's bots, unless a test gives its own."""
    return FAST.grace


@pytest.fixture
def ladder(
    database: str,  # noqa: F811
    grace: float,
) -> Iterator[tuple[Running, str, dict[str, str]]]:
    """A server playing Russian groups with random and greedy, on SQLite and on PostgreSQL: the
    server, its database, and the tokens of the bots alpha and beta, which have passed their
    check games, and gamma, which has not."""
    store = Store(database, make=True)
    tokens = {name: store.add_bot(name) for name in ("alpha", "beta", "gamma")}
    store.mark_checked("alpha")
    store.mark_checked("beta")
    store.close()
    timing = attrs.evolve(FAST, grace=grace)
    running = Running(Settings(database=database, timing=timing, pairing=0.05))
    try:
        yield running, database, tokens
    finally:
        running.stop()


def finished(url: str) -> list[list[Any]]:
    """The games of every finished group of the Russian pool in the database at ``url``."""
    store = Store(url)
    try:
        return store.finished_groups("thousand", "russian")
    finally:
        store.close()


def test_connected_bots_play_groups_that_the_leaderboard_rates(
    ladder: tuple[Running, str, dict[str, str]],
) -> None:
    """A bot connected with ``thousand connect``'s loop is seated in groups of six games (the
    same cards under every seating); each finished group is kept with its records, which
    replay to the scores kept, and the leaderboard rates every bot that played, on the
    reference scale (greedy held at its rating on the Russian ladder)."""
    running, url, tokens = ladder
    client = played(running, "greedy", tokens["alpha"], lambda: len(finished(url)) >= 4)
    assert client.error is None
    assert client.lines[0] == f"connected to ws://127.0.0.1:{running.port}/bot as alpha"
    groups = finished(url)
    for group in groups:
        assert len(group) == 6
        assert sorted(group[0].seats) == ["alpha", "greedy", "random"]
        assert len({game.seats for game in group}) == 6
        deals = {json.dumps(game.record["deals"][0]["layout"], sort_keys=True) for game in group}
        assert len(deals) == 1
        for game in group:
            assert game.statuses == ("ok", "ok", "ok")
            record = THOUSAND.record_from_dict(game.record)
            assert THOUSAND.replay(record).result.deal_scores == game.scores
    board = running.get("/api/leaderboard?game=thousand&rules=russian")
    assert board["game"] == "thousand"
    assert board["rules"] == "russian"
    lines = {line["bot"]: line for line in board["standings"]}
    assert set(lines) == {"alpha", "greedy", "random"}
    assert lines["alpha"]["groups"] >= 2
    assert lines["alpha"]["games"] == 6 * lines["alpha"]["groups"]
    assert lines["alpha"]["faults"] == 0
    interval = lines["alpha"]["interval"]
    assert interval[0] <= lines["alpha"]["rating"] <= interval[1]
    assert board["anchor"] == {"bot": "greedy", "rating": 1500.0}
    assert lines["greedy"]["rating"] == 1500.0
    assert lines["greedy"]["interval"] == [1500.0, 1500.0]
    assert [lines[bot]["reference"] for bot in ("alpha", "greedy", "random")] == [
        False,
        True,
        True,
    ]
    assert lines["alpha"]["provisional"] is (lines["alpha"]["groups"] < 10)
    assert lines["alpha"]["fault_rate"] == 0.0
    memory = lines["alpha"]["memory_check"]
    assert memory["groups"] == lines["alpha"]["groups"]
    assert memory["flagged"] is False
    measured = running.get("/api/metrics")
    assert measured["groups"] >= 4
    assert measured["games"] >= 6 * measured["groups"]
    assert measured["decisions"] > measured["games"]
    own = measured["own_ms_per_decision"]
    assert 0 < own["p50"] <= own["p99"]
    assert measured["processor_ms_per_game"] > 0


def test_finished_games_are_served_and_exported_as_records_that_replay(
    ladder: tuple[Running, str, dict[str, str]], tmp_path: Path
) -> None:
    """A finished game's record is served as JSON and as a replay page, the leaderboard and
    each bot have their pages, and ``thousand server export`` writes every finished game's
    record, which ``thousand replay`` reads; a name that is no kept game is a 404. (A group's
    games are kept only once it is finished, so no game of a group in progress can be shown.)"""
    running, url, tokens = ladder
    played(running, "random", tokens["alpha"], lambda: len(finished(url)) >= 1)
    group = min(groups_by_status(url)["finished"])
    kept = finished(url)[0]
    assert running.get(f"/api/games/{group}-0") == kept[0].record
    page = httpx.get(f"http://127.0.0.1:{running.port}/games/{group}-5", timeout=10)
    assert page.status_code == 200
    assert page.text.lower().startswith("<!doctype html>")
    for name in ("999-0", f"{group}-6", "nonsense"):
        missing = httpx.get(f"http://127.0.0.1:{running.port}/api/games/{name}", timeout=10)
        assert missing.status_code == 404
        assert missing.json()["error"].startswith("no finished game has this name")
    folder = tmp_path / "records"
    exported = runner.invoke(app, ["server", "export", str(folder), "--db", url])
    assert exported.exit_code == 0, exported.output
    games = sum(len(group) for group in finished(url))
    assert exported.stdout == f"{games} new records in {folder} ({games} games in all)\n"
    replayed = runner.invoke(app, ["replay", str(folder / f"{group}-3.json")])
    assert replayed.exit_code == 0, replayed.output
    assert "alpha" in replayed.stdout
    again = runner.invoke(app, ["server", "export", str(folder), "--db", url])
    assert again.stdout.startswith("0 new records")
    front = httpx.get(f"http://127.0.0.1:{running.port}/", timeout=10)
    assert front.status_code == 200
    assert "<h1>Leaderboard</h1>" in front.text
    assert "<a href='/bots/alpha'>alpha</a>" in front.text
    page = httpx.get(f"http://127.0.0.1:{running.port}/bots/alpha", timeout=10)
    assert page.status_code == 200
    assert f"<a href='/games/{group}-0'>{group}-0</a>" in page.text
    assert "<h3>Faults</h3><p class=note>None.</p>" in page.text
    nobody = httpx.get(f"http://127.0.0.1:{running.port}/bots/nobody", timeout=10)
    assert nobody.status_code == 404


def test_a_pool_the_server_does_not_play_is_a_404_naming_those_it_plays(
    ladder: tuple[Running, str, dict[str, str]],
) -> None:
    running, _, _ = ladder
    answer = running.get("/api/leaderboard?game=thousand&rules=polish")
    assert answer == {
        "error": "this server plays no pool game=thousand&rules=polish; "
        "it plays game=thousand&rules=russian"
    }


def raw_bot(running: Running, token: str) -> Any:
    """A connection logged in by hand, that answers nothing until told to."""
    connection = running.connections.enter_context(
        connect(f"ws://127.0.0.1:{running.port}/bot", open_timeout=10)
    )
    connection.send(json.dumps({"type": "login", "token": token}))
    assert json.loads(connection.recv(timeout=10))["type"] == "welcome"
    return connection


def next_of(connection: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` the connection receives."""
    while True:
        message: dict[str, Any] = json.loads(connection.recv(timeout=30))
        if message["type"] == kind:
            return message


def test_a_bot_that_reconnects_within_the_grace_goes_on_with_its_game(
    ladder: tuple[Running, str, dict[str, str]],
) -> None:
    """A bot that loses its connection and logs in again within the grace is sent its game's
    hello and the question it had not answered, and its answer is played: the group finishes
    with no fault."""
    running, url, tokens = ladder
    first = raw_bot(running, tokens["alpha"])
    hello = next_of(first, "hello")
    first.send(json.dumps({"type": "ready", "game_id": hello["game_id"]}))
    question = next_of(first, "act")
    first.close()
    second = raw_bot(running, tokens["alpha"])
    assert next_of(second, "hello") == hello
    assert next_of(second, "act") == question
    rules = THOUSAND.rules_from_dict(hello["rules"])
    message = question
    while True:
        if message["type"] == "hello":
            second.send(json.dumps({"type": "ready", "game_id": message["game_id"]}))
        elif message["type"] == "act":
            observation = THOUSAND.observation_from_dict(message["observation"], rules)
            answer = {"action": str(observation.legal_actions[0]), "game_id": message["game_id"]}
            second.send(json.dumps({"type": "action", **answer}))
        elif message["type"] == "end" and message["game_id"].endswith("-5"):
            break
        message = json.loads(second.recv(timeout=30))
    second.close()
    waited(lambda: len(finished(url)) >= 1)
    group = finished(url)[0]
    assert [game.statuses for game in group] == [("ok", "ok", "ok")] * 6


@pytest.mark.parametrize("grace", [0.5])
def test_a_bot_away_past_the_grace_is_at_fault_and_the_group_goes_on(
    ladder: tuple[Running, str, dict[str, str]],
) -> None:
    """A bot that stays away longer than the grace is at fault in its game (it forfeits, and
    only it is charged), and the group finishes without it answering."""
    running, url, tokens = ladder
    bot = raw_bot(running, tokens["alpha"])
    next_of(bot, "hello")
    bot.close()
    waited(lambda: len(finished(url)) >= 1)
    group = finished(url)[0]
    for game in group:
        alpha = game.seats.index("alpha")
        assert game.statuses[alpha] != "ok"
        assert [status for seat, status in enumerate(game.statuses) if seat != alpha] == [
            "ok",
            "ok",
        ]
    board = running.get("/api/leaderboard?game=thousand&rules=russian")
    alpha_line = next(line for line in board["standings"] if line["bot"] == "alpha")
    assert alpha_line["faults"] == 6


def groups_by_status(url: str) -> dict[str, set[int]]:
    """The numbers of the groups kept in the database at ``url``, by status."""
    engine = sqlalchemy.create_engine(database_url(url))
    try:
        with engine.connect() as connection:
            rows = connection.execute(sqlalchemy.text("SELECT id, status FROM groups")).all()
    finally:
        engine.dispose()
    kept: dict[str, set[int]] = {"playing": set(), "finished": set(), "void": set()}
    for number, status in rows:
        kept[status].add(number)
    return kept


def test_a_server_killed_mid_group_loses_no_finished_group_and_voids_the_others(
    tmp_path: Path,
) -> None:
    """``kill -9`` of the real server while groups are being played, then a restart: every group
    finished before is still there, whole; every group in progress is void (never rated); and
    the server goes on. The bots are played by the real ``thousand connect`` and by a bot that
    answers no decision, which keeps its group in progress."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    tokens = {
        name: runner.invoke(app, ["server", "add-bot", name, "--db", url]).stdout.strip()
        for name in ("alpha", "beta")
    }
    store = Store(url)
    for name in tokens:
        store.mark_checked(name)
    store.close()
    server, port = started_server(url)
    connected = subprocess.Popen(
        [*installed_command(), "connect", "greedy", "--server", f"ws://127.0.0.1:{port}"],
        env={**os.environ, "THOUSAND_TOKEN": tokens["alpha"]},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        waited(lambda: len(groups_by_status(url)["finished"]) >= 1)
        with connect(f"ws://127.0.0.1:{port}/bot", open_timeout=10) as silent:
            silent.send(json.dumps({"type": "login", "token": tokens["beta"]}))
            hello = next_of(silent, "hello")
            silent.send(json.dumps({"type": "ready", "game_id": hello["game_id"]}))
            next_of(silent, "act")
            server.kill()
            server.wait()
        before = groups_by_status(url)
        assert before["playing"]
        store = Store(url)
        kept = store.finished_groups("thousand", "russian")
        store.close()
        restarted, port = started_server(url)
        try:
            after = groups_by_status(url)
            assert after["void"] >= before["playing"] | before["void"]
            assert not after["playing"] & before["playing"]
            assert after["finished"] >= before["finished"]
            store = Store(url)
            again = store.finished_groups("thousand", "russian")[: len(kept)]
            store.close()
            assert again == kept
            board = httpx.get(f"http://127.0.0.1:{port}/api/leaderboard", timeout=10).json()
            assert {line["bot"] for line in board["standings"]} >= {"alpha"}
        finally:
            restarted.send_signal(signal.SIGINT)
            restarted.communicate(timeout=30)
    finally:
        for process in (server, connected):
            if process.poll() is None:
                process.kill()
                process.wait()


def test_connect_says_in_one_line_why_it_cannot_play(
    ladder: tuple[Running, str, dict[str, str]],
) -> None:
    """``thousand connect`` ends with one error line when the server refuses the token, and when
    the bot's spec names no bot; it never shows a traceback."""
    running, _, _ = ladder
    server = ["--server", f"ws://127.0.0.1:{running.port}"]
    refused = runner.invoke(app, ["connect", "greedy", *server, "--token", "thb_wrong"])
    assert refused.exit_code == 2
    assert refused.stderr.splitlines()[-1] == (
        "error: the server refused the bot: no bot has this token (it may have been revoked)"
    )
    unknown = runner.invoke(app, ["connect", "nosuchbot", *server, "--token", "thb_wrong"])
    assert unknown.exit_code == 2
    assert unknown.stderr.startswith("error: ")
    assert len(unknown.stderr.splitlines()) == 1


def test_a_new_bot_plays_a_check_game_before_it_is_rated(
    ladder: tuple[Running, str, dict[str, str]],
) -> None:
    """A bot that never played is first checked, in a game kept nowhere; once it passes, it is
    seated in rated groups and stays checked."""
    running, url, tokens = ladder

    def seated() -> bool:
        return any("gamma" in group[0].seats for group in finished(url))

    played(running, "greedy", tokens["gamma"], seated)
    store = Store(url)
    try:
        assert store.is_checked("gamma")
    finally:
        store.close()
    assert all(len(group) == 6 for group in finished(url))


def test_a_bot_that_fails_its_check_is_told_and_never_seated(
    ladder: tuple[Running, str, dict[str, str]],
) -> None:
    """A bot whose check game finds faults is told them, with when it is checked again, and is
    not seated in a rated group meanwhile."""
    running, url, tokens = ladder
    bot = raw_bot(running, tokens["gamma"])
    while True:
        message = json.loads(bot.recv(timeout=30))
        if message["type"] == "hello":
            bot.send(json.dumps({"type": "ready", "game_id": message["game_id"]}))
        elif message["type"] == "act":
            bot.send(
                json.dumps({"type": "action", "action": "fold", "game_id": message["game_id"]})
            )
        elif message["type"] == "error":
            break
    assert message["message"].startswith("the check game found 1 fault(s): ")
    assert message["message"].endswith(
        "; the bot is not rated until it passes (checked again in 60 s)"
    )
    time.sleep(0.5)
    assert groups_by_status(url) == {"playing": set(), "finished": set(), "void": set()}
    store = Store(url)
    try:
        assert not store.is_checked("gamma")
    finally:
        store.close()


def test_a_bot_in_a_process_of_its_own_plays_through_connect(
    ladder: tuple[Running, str, dict[str, str]],
) -> None:
    """A bot from a file, played in a process of its own as ``thousand connect`` plays a bot
    that is not built in, is checked and rated like any other: the observations the client
    rebuilds from the server's messages reach it whole."""
    running, url, tokens = ladder
    spec = f"{Path(__file__).parent / 'bots' / 'python_bots.py'}:Cautious"

    def seated() -> bool:
        return any("gamma" in group[0].seats for group in finished(url))

    client = played(running, spec, tokens["gamma"], seated, isolate="process")
    assert not [line for line in client.lines if line.startswith("the server says")]
    gamma = [game for group in finished(url) for game in group if "gamma" in game.seats]
    assert all(game.statuses[game.seats.index("gamma")] == "ok" for game in gamma)


def test_a_pool_of_two_seats_plays_groups_of_two_games(tmp_path: Path) -> None:
    """Polish for two: a group is the same cards under both seatings, and the leaderboard of
    the pool rates the bot against the reference bots on that pool's ladder."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    store = Store(url, make=True)
    token = store.add_bot("alpha")
    store.mark_checked("alpha")
    store.close()
    running = Running(Settings(database=url, pools=("polish-2p",), timing=FAST, pairing=0.05))
    try:
        store = Store(url)

        def kept() -> list[list[Any]]:
            return store.finished_groups("thousand", "polish-2p")

        played(running, "greedy", token, lambda: len(kept()) >= 4)
        for group in kept():
            assert [len(game.seats) for game in group] == [2, 2]
            assert {game.seats for game in group} == {
                (group[0].seats[1], group[0].seats[0]),
                group[0].seats,
            }
        store.close()
        board = running.get("/api/leaderboard?game=thousand&rules=polish-2p")
        assert board["anchor"] == {"bot": "greedy", "rating": 1500.0}
        assert "alpha" in {line["bot"] for line in board["standings"]}
    finally:
        running.stop()


CAUTIOUS = "tests/bots/python_bots.py:Cautious"


@pytest.mark.parametrize(
    ("connected", "hosted"), [(("alpha", "beta"), ()), (("alpha",), (CAUTIOUS,))]
)
def test_a_pool_of_1000_plays_groups_of_every_seating_of_four(
    tmp_path: Path, connected: tuple[str, ...], hosted: tuple[str, ...]
) -> None:
    """1000? for four: two connected bots with the two reference bots, or one with a third
    reference bot on the workers, play groups of 24 games (every seating of four), rated on
    1000?'s ladder; the pool is named ``standard``."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    store = Store(url, make=True)
    tokens = {name: store.add_bot(name) for name in connected}
    for name in tokens:
        store.mark_checked(name)
    store.close()
    settings = Settings(database=url, pools=("bluff",), hosted=hosted, timing=FAST, pairing=0.05)
    running = Running(settings)
    try:
        address = f"ws://127.0.0.1:{running.port}/bot"
        clients = [Client("greedy", address, token) for token in tokens.values()]
        store = Store(url)
        try:
            waited(lambda: len(store.finished_groups("bluff", "standard")) >= 1)
            group = store.finished_groups("bluff", "standard")[0]
        finally:
            store.close()
            for client in clients:
                client.close()
        bots = sorted([*connected, "greedy", "random", *hosted])
        assert len(group) == 24
        assert sorted(group[0].seats) == bots
        assert len({game.seats for game in group}) == 24
        board = running.get("/api/leaderboard?game=bluff&rules=standard")
        assert board["anchor"] == {"bot": "greedy", "rating": 1500.0}
        assert sorted(line["bot"] for line in board["standings"]) == bots
    finally:
        running.stop()


def test_a_pool_with_its_own_time_limit_holds_its_bots_to_it(tmp_path: Path) -> None:
    """A pool's own limit, not the server's, is what its bots are held to: a bot that does not
    answer its check game's first question is told it took more than the pool's 0.3 s."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    store = Store(url, make=True)
    token = store.add_bot("gamma")
    store.close()
    own = (("polish-2p", attrs.evolve(FAST, decision=0.3)),)
    settings = Settings(database=url, pools=("polish-2p",), timing=FAST, pool_timing=own)
    running = Running(attrs.evolve(settings, pairing=0.05))
    try:
        bot = raw_bot(running, token)
        hello = next_of(bot, "hello")
        bot.send(json.dumps({"type": "ready", "game_id": hello["game_id"]}))
        told = next_of(bot, "error")
        assert told["message"].startswith("the check game found ")
        assert "took more than 0.300 s" in told["message"]
    finally:
        running.stop()


def test_a_reference_bot_played_by_workers_plays_like_one_in_the_server(tmp_path: Path) -> None:
    """A reference bot played by the workers (as the search bots are, so as not to hold up the
    server's games) is seated in groups without a check game, its decisions made in the
    workers, and is marked as a reference bot on the leaderboard."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    store = Store(url, make=True)
    token = store.add_bot("alpha")
    store.mark_checked("alpha")
    store.close()
    settings = Settings(
        database=url,
        reference=("random",),
        hosted=("greedy",),
        workers=2,
        timing=FAST,
        pairing=0.05,
    )
    running = Running(settings)
    try:
        played(running, "greedy", token, lambda: len(finished(url)) >= 2)
        for group in finished(url):
            assert sorted(group[0].seats) == ["alpha", "greedy", "random"]
            assert all(game.statuses == ("ok", "ok", "ok") for game in group)
        lines = {line["bot"]: line for line in running.get("/api/leaderboard")["standings"]}
        assert lines["greedy"]["reference"] is True
        assert lines["greedy"]["rating"] == 1500.0
    finally:
        running.stop()


def test_a_group_whose_worker_dies_is_void_and_the_ladder_goes_on(tmp_path: Path) -> None:
    """A worker that dies in the middle of a group is the server's failure, not a bot's: the
    group is void, never rated, the worker is replaced, and the bots are seated again."""
    url = f"sqlite:///{tmp_path / 'server.db'}"
    store = Store(url, make=True)
    token = store.add_bot("alpha")
    store.mark_checked("alpha")
    store.close()
    dies = "tests/bots/python_bots.py:ExitsAtOnce"
    settings = Settings(
        database=url, reference=("random",), hosted=(dies,), timing=FAST, pairing=0.05
    )
    running = Running(settings)

    def statuses() -> list[str]:
        engine = sqlalchemy.create_engine(url)
        try:
            with engine.connect() as connection:
                rows = connection.execute(sqlalchemy.text("SELECT status FROM groups"))
                return [row[0] for row in rows]
        finally:
            engine.dispose()

    try:
        played(running, "greedy", token, lambda: statuses().count("void") >= 3)
        assert finished(url) == []
        assert running.get("/api/leaderboard")["standings"] == []
    finally:
        running.stop()


def test_a_bot_playing_several_games_at_once_gets_one_check_game(
    ladder: tuple[Running, str, dict[str, str]],
) -> None:
    """A new bot that says it plays several games at once is still checked by one game: while
    that game waits for its answer, the matchmaker starts no other."""
    running, _, tokens = ladder
    connection = running.connections.enter_context(
        connect(f"ws://127.0.0.1:{running.port}/bot", open_timeout=10)
    )
    connection.send(json.dumps({"type": "login", "token": tokens["gamma"], "games": 4}))
    assert json.loads(connection.recv(timeout=10))["type"] == "welcome"
    hellos = []
    deadline = time.monotonic() + 2.0  # forty rounds of matchmaking, each 0.05 s apart
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(connection.recv(timeout=left))
        except TimeoutError:
            break
        if message["type"] == "hello":
            hellos.append(message["game_id"])
    assert len(hellos) == 1
    assert hellos[0].startswith("check-")
