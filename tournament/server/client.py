"""``thousand connect``: a bot played on the author's machine for a ladder server.

The client logs in with the bot's token, then answers the server's questions in every game it
is seated in, running a fresh player of the bot's spec for each game (sandboxed, like a
tournament's, unless told otherwise). A dropped connection is made again, after a wait that
grows (with jitter) up to half a minute; the server resends what the bot needs to go on. A
refused login (a wrong or revoked token) ends the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Callable
from typing import Any

import attrs
import websockets
from websockets.asyncio.client import ClientConnection

from thousand.games import game_named
from thousand.table.match import Outcome, describe_failure
from thousand.table.specs import PlayerFactory

__all__ = ["LONGEST_WAIT", "Refused", "Replaced", "play_for"]

LONGEST_WAIT = 30.0
"""Seconds at the most between two attempts to connect."""


class Refused(Exception):
    """The server refused the login: the reason it gave."""


class Replaced(Exception):
    """Another client logged in with the same token and took over."""


@attrs.define
class _Game:
    game: Any
    rules: Any
    player: Any


async def play_for(
    make: PlayerFactory,
    url: str,
    token: str,
    games: int = 1,
    *,
    say: Callable[[str], None] = print,
    stop: asyncio.Event | None = None,
    casual: bool = False,
) -> None:
    """Play for the bot ``make`` makes, on the server at ``url`` (``ws://HOST:PORT/bot``), until
    ``stop`` is set (or for ever); with ``casual``, it also takes seats at the tables where
    people play. Raises :class:`Refused` when the server refuses the token, :class:`Replaced`
    when another client takes over."""
    stop = stop or asyncio.Event()
    wait = 1.0
    playing: dict[str, _Game] = {}
    while not stop.is_set():
        try:
            async with websockets.connect(url, max_size=2**24, open_timeout=10) as connection:
                login = {"type": "login", "token": token, "games": games, "casual": casual}
                await connection.send(json.dumps(login))
                welcome = json.loads(await connection.recv())
                if welcome.get("type") != "welcome":
                    raise Refused(str(welcome.get("message", welcome)))
                say(f"connected to {url} as {welcome['bot']}")
                wait = 1.0
                await _answer(connection, make, playing, stop, say)
        except (OSError, websockets.ConnectionClosed, asyncio.TimeoutError) as error:
            say(f"connection to {url} lost ({describe_failure(error)}); again in {wait:.0f} s")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), wait * random.uniform(0.5, 1.0))
            wait = min(wait * 2, LONGEST_WAIT)


async def _answer(
    connection: ClientConnection,
    make: PlayerFactory,
    playing: dict[str, _Game],
    stop: asyncio.Event,
    say: Callable[[str], None],
) -> None:
    """Answer the server's messages until the connection ends or ``stop`` is set."""
    sending = asyncio.Lock()
    tasks: set[asyncio.Task[None]] = set()

    async def send(message: dict[str, Any]) -> None:
        async with sending:
            await connection.send(json.dumps(message))

    stopping = asyncio.ensure_future(stop.wait())
    try:
        while True:
            receiving = asyncio.ensure_future(connection.recv())
            done, _ = await asyncio.wait({receiving, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if receiving not in done:
                receiving.cancel()
                return
            message = json.loads(receiving.result())
            kind = message.get("type")
            if kind == "replaced":
                raise Replaced(str(message.get("message")))
            if kind == "error":
                say(f"the server says: {message.get('message')}")
                continue
            task = asyncio.ensure_future(_reply(message, make, playing, send))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    finally:
        stopping.cancel()
        for task in tasks:
            task.cancel()


async def _reply(
    message: dict[str, Any],
    make: PlayerFactory,
    playing: dict[str, _Game],
    send: Callable[[dict[str, Any]], Any],
) -> None:
    """Answer one of the server's messages in a game."""
    kind, game_id = message.get("type"), message.get("game_id")
    if not isinstance(game_id, str):
        return
    answered: dict[str, Any] = {"game_id": game_id}
    try:
        if kind == "hello":
            if game_id not in playing:  # a hello sent again after a reconnection starts nothing
                game = game_named(message["game"])
                rules = game.rules_from_dict(message["rules"])
                player = make()
                start = getattr(player, "start", None)
                if start is not None:
                    rng = random.Random(message["seed"])
                    await asyncio.to_thread(start, message["seat"], rules, rng)
                playing[game_id] = _Game(game, rules, player)
            await send({"type": "ready", **answered})
        elif kind == "act":
            known = playing[game_id]
            observation = known.game.observation_from_dict(message["observation"], known.rules)
            action = await asyncio.to_thread(known.player.act, observation)
            await send({"type": "action", "action": str(action), **answered})
        elif kind == "end":
            known = playing.pop(game_id)
            end = getattr(known.player, "end", None)
            if end is not None:
                await asyncio.to_thread(end, Outcome.from_dict(message["outcome"]))
    except Exception as error:
        if kind in ("hello", "act"):
            await send({"type": "error", "message": describe_failure(error), **answered})
