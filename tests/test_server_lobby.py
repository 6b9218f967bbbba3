"""The lobby on its own, with connections made by hand: answers reach the game that awaits them
across a reconnection, the time of a bot that is away does not run, and a bot that stops
reading is dropped rather than stalling its games."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tournament.server.lobby import Lobby, Lost
from tournament.server.protocol import CLOSE_REPLACED, CLOSE_SLOW


class Recorded:
    """A connection that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: int | None = None

    async def send_json(self, data: Any) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code


class Stalled(Recorded):
    """A connection whose bot stopped reading: a send never completes."""

    async def send_json(self, data: Any) -> None:
        await asyncio.Event().wait()


HELLO = {"type": "hello", "game_id": "1-0"}
QUESTION = {"type": "act", "game_id": "1-0"}


def test_a_reconnected_bot_is_sent_its_game_and_its_question_and_its_answer_counts() -> None:
    """While a question waits, the bot reconnects: the new connection is sent the game's hello
    and the question, the old one is closed as replaced, and the answer on the new connection
    is the one the game gets."""

    async def scenario() -> None:
        lobby = Lobby()
        first, second = Recorded(), Recorded()
        await lobby.enter("alpha", first)
        lobby.join("alpha", "1-0", HELLO)
        asked = asyncio.ensure_future(lobby.ask("alpha", "1-0", QUESTION, 5.0, 5.0))
        await asyncio.sleep(0.01)
        assert first.sent == [QUESTION]
        await lobby.enter("alpha", second)
        assert first.closed == CLOSE_REPLACED
        assert second.sent == [HELLO, QUESTION]
        answer = {"type": "action", "game_id": "1-0", "action": "pass"}
        assert lobby.deliver("alpha", answer) is None
        reply, spent = await asked
        assert reply == answer
        assert 0 <= spent < 5
        assert lobby.deliver("alpha", answer) == 'no answer is awaited in game "1-0"'

    asyncio.run(scenario())


def test_time_away_is_not_counted_and_the_grace_ends_in_lost() -> None:
    """A bot that left is waited for through the grace, its decision's time stopped; past the
    grace the game is told it is lost."""

    async def scenario() -> None:
        lobby = Lobby()
        connection = Recorded()
        await lobby.enter("alpha", connection)
        lobby.join("alpha", "1-0", HELLO)
        lobby.leave("alpha", connection)
        with pytest.raises(Lost, match=r"lost its connection for more than 0\.2 s"):
            await lobby.ask("alpha", "1-0", QUESTION, 0.05, 0.2)

    asyncio.run(scenario())


def test_a_bot_that_stops_reading_is_dropped_not_waited_for() -> None:
    """A send that does not complete in time drops the connection (close code 4504): the game
    goes on to wait through the grace, instead of waiting on the send for ever."""

    async def scenario() -> None:
        lobby = Lobby(send_seconds=0.05)
        connection = Stalled()
        await lobby.enter("alpha", connection)
        lobby.join("alpha", "1-0", HELLO)
        with pytest.raises(Lost):
            await asyncio.wait_for(lobby.ask("alpha", "1-0", QUESTION, 5.0, 0.2), 5)
        assert not lobby.is_connected("alpha")
        assert connection.closed == CLOSE_SLOW

    asyncio.run(scenario())
