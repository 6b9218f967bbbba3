"""The bots connected now, and the games they are asked in.

A bot has one live connection at a time. What the server awaits from a bot (its ready, its
action) is kept by game, apart from the connection, so that an answer that comes on a newer
connection, after the bot reconnected, still reaches the game that awaits it. On every
(re)connection the bot is sent, for each of its games in progress, the game's hello and the
question it has not answered yet: everything it needs to go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any, Protocol

from tournament.server.protocol import CLOSE_REPLACED, CLOSE_SLOW

__all__ = ["SEND_SECONDS", "Connection", "Lobby", "Lost"]

SEND_SECONDS = 10.0
"""Seconds a connection may take to take a message before it is dropped."""


class Connection(Protocol):
    """A bot's websocket, as the lobby uses it."""

    async def send_json(self, data: Any) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Lost(Exception):
    """A bot stayed away longer than the grace it is given to reconnect."""


class _Seat:
    """What a game keeps of one bot it plays with: its hello, and the question awaiting an
    answer with the future that the answer fulfils."""

    def __init__(self, hello: dict[str, Any]) -> None:
        self.hello = hello
        self.question: dict[str, Any] | None = None
        self.answer: asyncio.Future[dict[str, Any]] | None = None


class _Bot:
    def __init__(self) -> None:
        self.connection: Connection | None = None
        self.connected = asyncio.Event()
        self.seats: dict[str, _Seat] = {}
        self.lock = asyncio.Lock()
        self.games_at_once = 1
        self.casual = False
        """Whether the bot accepts casual games: seats at the tables where people play."""
        self.change = asyncio.Event()
        """Set, and replaced by a new one, whenever the live connection changes."""

    def changed(self) -> None:
        self.change.set()
        self.change = asyncio.Event()

    def drop(self, connection: Connection) -> None:
        """Forget ``connection`` as the live one, unless a newer one replaced it."""
        if self.connection is connection:
            self.connection = None
            self.connected.clear()
            self.changed()


class Lobby:
    """The bots connected now, one live connection each, and their games in progress."""

    def __init__(self, send_seconds: float = SEND_SECONDS) -> None:
        self._bots: dict[str, _Bot] = {}
        self.send_seconds = send_seconds

    def _bot(self, name: str) -> _Bot:
        bot = self._bots.get(name)
        if bot is None:
            bot = self._bots[name] = _Bot()
        return bot

    def connected(self) -> list[str]:
        """The names of the bots connected now."""
        return [name for name, bot in self._bots.items() if bot.connection is not None]

    def is_connected(self, name: str) -> bool:
        bot = self._bots.get(name)
        return bot is not None and bot.connection is not None

    def games_at_once(self, name: str) -> int:
        """How many games the bot said it plays at once (1 unless it said more)."""
        return self._bot(name).games_at_once

    def casual(self) -> list[str]:
        """The connected bots that accept casual games, by name."""
        return sorted(
            name for name, bot in self._bots.items() if bot.connection is not None and bot.casual
        )

    async def enter(
        self, name: str, connection: Connection, games_at_once: int = 1, casual: bool = False
    ) -> None:
        """Make ``connection`` the bot's live one (closing an older one), and send it what it
        needs to go on with its games in progress."""

        bot = self._bot(name)
        older, bot.connection = bot.connection, connection
        bot.changed()
        bot.games_at_once = games_at_once
        bot.casual = casual
        if older is not None:
            with contextlib.suppress(Exception):
                await older.send_json({"type": "replaced", "message": "the bot connected again"})
                await older.close(CLOSE_REPLACED)
        for seat in list(bot.seats.values()):
            await self._send(bot, seat.hello)
            if seat.question is not None:
                await self._send(bot, seat.question)
        bot.connected.set()

    def leave(self, name: str, connection: Connection) -> None:
        """Forget ``connection`` as the bot's live one, unless a newer one replaced it."""
        bot = self._bots.get(name)
        if bot is not None:
            bot.drop(connection)

    def deliver(self, name: str, message: dict[str, Any]) -> str | None:
        """Hand a bot's answer to the game awaiting it; an error to send back when none is."""
        game = message.get("game_id")
        if not isinstance(game, str):
            return f'an answer ({message["type"]}) must name its game in "game_id"'
        seat = self._bots[name].seats.get(game)
        if seat is None or seat.answer is None or seat.answer.done():
            return f"no answer is awaited in game {json.dumps(game)[:40]}"
        seat.answer.set_result(message)
        return None

    def join(self, name: str, game: str, hello: dict[str, Any]) -> None:
        """Note that the bot plays in ``game``, which begins with ``hello``."""
        self._bot(name).seats[game] = _Seat(hello)

    def part(self, name: str, game: str) -> None:
        """Note that the bot's ``game`` is over."""
        self._bot(name).seats.pop(game, None)

    async def tell(self, name: str, message: dict[str, Any]) -> None:
        """Send a message that needs no answer, if the bot is connected."""
        await self._send(self._bot(name), message)

    async def ask(
        self, name: str, game: str, question: dict[str, Any], seconds: float, grace: float
    ) -> tuple[dict[str, Any] | None, float]:
        """Ask the bot ``question`` in ``game`` and await its answer for ``seconds`` of its
        connected time: the answer (``None`` when the time ran out) and the seconds it took while
        connected. While it is away, the time waits, for ``grace`` seconds at the most; past
        them, :class:`Lost` is raised. Each (re)connection is sent the question again."""
        bot = self._bot(name)
        seat = bot.seats[game]
        seat.question = question
        answer = seat.answer = asyncio.get_running_loop().create_future()
        spent = 0.0
        try:
            if bot.connection is not None:
                await self._send(bot, question)
            while True:
                if bot.connection is None:
                    try:
                        await asyncio.wait_for(bot.connected.wait(), grace)
                    except asyncio.TimeoutError:
                        raise Lost(f"lost its connection for more than {grace:g} s") from None
                    continue  # the question was sent again as it reconnected
                began = time.monotonic()
                gone = asyncio.ensure_future(bot.change.wait())
                try:
                    done, _ = await asyncio.wait(
                        {answer, gone},
                        timeout=max(seconds - spent, 0.0),
                        return_when=asyncio.FIRST_COMPLETED,
                    )
                finally:
                    gone.cancel()
                spent += time.monotonic() - began
                if answer in done:
                    return answer.result(), spent
                if not done:
                    return None, spent
        finally:
            seat.question = None
            seat.answer = None

    async def _send(self, bot: _Bot, message: dict[str, Any]) -> None:
        """Send ``message`` on the bot's live connection. A connection that takes more than
        ``send_seconds`` to take it (a bot that stopped reading, its buffers full) is dropped,
        as if the bot had gone: its games wait for it through the grace, then charge it."""
        connection = bot.connection
        if connection is None:
            return
        async with bot.lock:
            try:
                await asyncio.wait_for(connection.send_json(message), self.send_seconds)
            except asyncio.TimeoutError:
                bot.drop(connection)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(connection.close(CLOSE_SLOW), self.send_seconds)
            except Exception:
                pass
