"""The server as a web application (Starlette): the bots' websocket and the JSON API.

A bot connects to ``/bot`` and logs in with its token; one connection per bot is live, a new one
taking over from the old (a bot that reconnects after a dropped connection need not wait for the
server to notice the drop). ``GET /api/bots`` lists the bots and whether each is connected."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import anyio.to_thread
import attrs
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tournament.server.protocol import (
    CLOSE_BAD_LOGIN,
    CLOSE_LOGIN_TIMEOUT,
    CLOSE_REPLACED,
    CLOSE_TOO_BIG,
    CLOSE_TOO_MANY,
    PROTOCOL,
    Limits,
    MessageError,
    Rate,
    read_message,
)
from tournament.server.store import Store

__all__ = ["Lobby", "Settings", "create_app", "serve", "web_server"]


@attrs.frozen
class Settings:
    """How a server runs."""

    database: str | None = None
    """The database's URL (``None``: the default SQLite file)."""
    limits: Limits = Limits()
    """What a bot's connection may send."""


class Lobby:
    """The bots connected now, one live connection each."""

    def __init__(self) -> None:
        self.connections: dict[str, WebSocket] = {}

    async def enter(self, name: str, websocket: WebSocket) -> None:
        """Make ``websocket`` the live connection of the bot ``name``, closing its older one."""
        older = self.connections.get(name)
        self.connections[name] = websocket
        if older is not None:
            with contextlib.suppress(Exception):
                await older.send_json({"type": "replaced", "message": "the bot connected again"})
                await older.close(CLOSE_REPLACED)

    def leave(self, name: str, websocket: WebSocket) -> None:
        """Forget ``websocket`` as the bot's connection, unless a newer one replaced it."""
        if self.connections.get(name) is websocket:
            del self.connections[name]


def create_app(settings: Settings) -> Starlette:
    """The server's application, which opens its database when it starts (making an empty one)
    and closes it when it stops."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        store = await anyio.to_thread.run_sync(lambda: Store(settings.database, make=True))
        try:
            yield {"store": store, "lobby": Lobby(), "limits": settings.limits}
        finally:
            store.close()

    return Starlette(
        routes=[Route("/api/bots", list_bots), WebSocketRoute("/bot", bot_connection)],
        lifespan=lifespan,
    )


async def list_bots(request: Request) -> JSONResponse:
    """``GET /api/bots``: every bot, whether its token is revoked, and whether it is connected."""
    store: Store = request.state.store
    lobby: Lobby = request.state.lobby
    bots = await anyio.to_thread.run_sync(store.bots)
    return JSONResponse(
        {
            "bots": [
                {
                    "name": bot.name,
                    "revoked": bot.revoked,
                    "connected": bot.name in lobby.connections,
                }
                for bot in bots
            ]
        }
    )


async def bot_connection(websocket: WebSocket) -> None:
    """``/bot``: a bot's connection, from its login to its end."""
    store: Store = websocket.state.store
    lobby: Lobby = websocket.state.lobby
    limits: Limits = websocket.state.limits
    await websocket.accept()
    try:
        name = await _logged_in(websocket, store, limits)
    except WebSocketDisconnect:
        return
    if name is None:
        return
    await lobby.enter(name, websocket)
    await websocket.send_json({"type": "welcome", "bot": name, "protocol": PROTOCOL})
    try:
        await _serve(websocket, limits)
    except WebSocketDisconnect:
        pass
    finally:
        lobby.leave(name, websocket)


async def _logged_in(websocket: WebSocket, store: Store, limits: Limits) -> str | None:
    """The name of the bot whose token the first message gives; ``None`` once the connection
    is refused and closed."""
    try:
        text = await asyncio.wait_for(websocket.receive_text(), limits.login_seconds)
    except asyncio.TimeoutError:
        await _refuse(
            websocket, f"no login within {limits.login_seconds:g} seconds", CLOSE_LOGIN_TIMEOUT
        )
        return None
    if len(text) > limits.largest_message:
        await _refuse(websocket, _too_big(limits), CLOSE_TOO_BIG)
        return None
    try:
        message = read_message(text)
    except MessageError as error:
        await _refuse(websocket, str(error), CLOSE_BAD_LOGIN)
        return None
    token = message.get("token")
    if message["type"] != "login" or not isinstance(token, str):
        await _refuse(
            websocket, 'the first message must be {"type": "login", "token": ...}', CLOSE_BAD_LOGIN
        )
        return None
    name = await anyio.to_thread.run_sync(store.bot_with_token, token)
    if name is None:
        await _refuse(
            websocket, "no bot has this token (it may have been revoked)", CLOSE_BAD_LOGIN
        )
    return name


async def _serve(websocket: WebSocket, limits: Limits) -> None:
    """Answer the bot's messages until it goes: a ping with a pong, anything else with an error
    saying why; too large a message, or too many after a warning, close the connection."""
    rate = Rate(limits)
    while True:
        text = await websocket.receive_text()
        if len(text) > limits.largest_message:
            await _refuse(websocket, _too_big(limits), CLOSE_TOO_BIG)
            return
        if not rate.allows():
            if rate.refused > limits.warnings:
                await _refuse(websocket, _too_many(limits), CLOSE_TOO_MANY)
                return
            await websocket.send_json({"type": "error", "message": _too_many(limits)})
            continue
        try:
            message = read_message(text)
        except MessageError as error:
            await websocket.send_json({"type": "error", "message": str(error)})
            continue
        if message["type"] == "ping":
            await websocket.send_json({"type": "pong"})
        else:
            shown = json.dumps(message["type"])[:60]
            await websocket.send_json(
                {"type": "error", "message": f"no message has the type {shown}"}
            )


async def _refuse(websocket: WebSocket, reason: str, code: int) -> None:
    """Tell the bot why, then close with ``code``."""
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "message": reason})
        await websocket.close(code, reason[:120])


def _too_big(limits: Limits) -> str:
    return f"a message may hold {limits.largest_message} characters at the most"


def _too_many(limits: Limits) -> str:
    return f"too many messages: at most {limits.per_second:g} a second"


def serve(settings: Settings, host: str, port: int) -> None:
    """Run the server on ``host`` and ``port`` until it is stopped (Ctrl-C)."""
    web_server(settings, host, port).run()


def web_server(settings: Settings, host: str = "127.0.0.1", port: int = 0) -> uvicorn.Server:
    """The server, ready to run: ``run()`` it, or ``run(sockets=[...])`` on sockets already
    bound. A message four times the limit is refused by the websocket layer itself (still with
    close code 1009); one above the limit, by the server with its error message."""
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=4 * settings.limits.largest_message,
        log_level="info",
        lifespan="on",
    )
    return uvicorn.Server(config)
