"""The server as a web application (Starlette): the bots' websocket and the JSON API.

A bot connects to ``/bot`` and logs in with its token; one connection per bot is live, a new one
taking over from the old (a bot that reconnects after a dropped connection need not wait for the
server to notice the drop). While it is connected, the matchmaker seats it in groups, whose
questions and answers go over that connection (see :mod:`~tournament.server.lobby`).
``GET /api/bots`` lists the bots and whether each is connected; ``GET /api/leaderboard`` rates
them per pool."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import json
import multiprocessing
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import anyio.to_thread
import attrs
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from thousand.table.specs import load_player
from tournament.runner.ladder import FIXED, ladder_key, load_ladders
from tournament.server.groups import Pool, Timing, pool_named
from tournament.server.hosts import IN_SERVER, Hosted, InServer, ServerSeat, hosts_for
from tournament.server.leaderboard import Anchor, Standing, settled_ratings, standings
from tournament.server.lobby import Lobby
from tournament.server.matchmaking import Matchmaker
from tournament.server.metrics import Metrics
from tournament.server.pages import bot_page, leaderboard_page, replay_page
from tournament.server.play import (
    lobby_page,
    make_table,
    page_script,
    table_connection,
    table_data,
    table_page,
    table_replay,
)
from tournament.server.protocol import (
    CLOSE_BAD_LOGIN,
    CLOSE_LOGIN_TIMEOUT,
    CLOSE_TOO_BIG,
    CLOSE_TOO_MANY,
    PROTOCOL,
    Limits,
    MessageError,
    Rate,
    read_message,
)
from tournament.server.store import CasualGame, PlayedGame, Store
from tournament.server.tables import BOT_PAUSE, Tables

__all__ = ["HOSTED_GROUPS", "MOST_GAMES", "Settings", "create_app", "serve", "web_server"]

MOST_GAMES = 16
"""The most groups a bot may play at once."""
HOSTED_GROUPS = 2
"""The most groups at once of a reference bot played by workers, per worker: enough that a
worker always has a decision to make, few enough that none waits long for it."""
ANSWERS = ("ready", "action", "error")
"""The messages that answer the server's questions in a game."""


@attrs.frozen
class Settings:
    """How a server runs."""

    database: str | None = None
    """The database's URL (``None``: the default SQLite file)."""
    limits: Limits = Limits()
    """What a bot's connection may send."""
    pools: tuple[str, ...] = ("russian",)
    """The pools played: Thousand presets, or ``bluff`` (see :func:`~tournament.server.groups.
    pool_named`)."""
    reference: tuple[str, ...] = IN_SERVER
    """The built-in bots that play in the server, for every pool, so that the ratings have a
    fixed reference."""
    timing: Timing = Timing()
    """How long a connected bot may take."""
    pool_timing: tuple[tuple[str, Timing], ...] = ()
    """Pools (by the names in :attr:`pools`) with limits of their own."""
    pairing: float = 1.0
    """Seconds between two rounds of matchmaking."""
    refit: float = 30.0
    """Seconds at least between two fits of a pool's ratings for the matchmaker (the
    leaderboard, when asked for, is always up to date)."""
    hosted: tuple[str, ...] = ()
    """Reference bots played by worker processes, apart from the server's games (the search
    bots, whose thinking would hold those games up)."""
    workers: int = 1
    """How many workers play the :attr:`hosted` bots."""
    ray: bool = False
    """Whether the workers are Ray actors rather than processes of this machine."""
    ray_address: str | None = None
    """With :attr:`ray`: the Ray cluster (``None``: a new local Ray instance)."""
    bot_pause: float = BOT_PAUSE
    """Seconds a bot at a casual table waits before it plays, so that people can follow."""
    spectator_delay: int = 1
    """Rounds of moves by which spectators of a casual table see its game late."""


def create_app(settings: Settings) -> Starlette:
    """The server's application. As it starts it opens its database (making an empty one),
    voids the groups a stopped server left unfinished, and starts the matchmaker; as it stops,
    it voids the groups in progress and closes the database."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        store = await anyio.to_thread.run_sync(lambda: Store(settings.database, make=True))
        await anyio.to_thread.run_sync(store.void_unfinished)
        lobby = Lobby()
        own = dict(settings.pool_timing)
        pools = tuple(pool_named(name, own.get(name)) for name in settings.pools)
        makers = {name: load_player(name) for name in settings.reference}
        hosts = (
            hosts_for(settings.workers, settings.ray_address, settings.ray)
            if settings.hosted
            else None
        )

        def local(name: str) -> ServerSeat | None:
            make = makers.get(name)
            if make is not None:
                return InServer(make())
            return None if hosts is None or name not in settings.hosted else Hosted(hosts, name)

        # Spawned, not forked: the server's process runs threads, which a fork could leave
        # holding locks in the child.
        fitting = concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn")
        )
        every_reference = (*settings.reference, *settings.hosted)
        boards = Boards(store, pools, every_reference, settings.refit, fitting)
        matchmaker = Matchmaker(
            store,
            lobby,
            pools,
            every_reference,
            settings.timing,
            local,
            ratings=boards.settled,
            rerate=boards.rerate,
            most_groups=dict.fromkeys(settings.hosted, HOSTED_GROUPS * settings.workers),
        )
        pairing = asyncio.get_running_loop().create_task(matchmaker.run(settings.pairing))

        async def keep(game: CasualGame) -> None:
            await anyio.to_thread.run_sync(store.keep_casual, game)

        tables = Tables(
            settings.timing.grace,
            settings.bot_pause,
            settings.spectator_delay,
            keep=keep,
            lobby=lobby,
        )
        try:
            yield {
                "store": store,
                "lobby": lobby,
                "limits": settings.limits,
                "boards": boards,
                "metrics": matchmaker.metrics,
                "tables": tables,
                "form_key": secrets.token_bytes(32),
            }
        finally:
            pairing.cancel()
            await tables.stop()
            await matchmaker.stop()
            if hosts is not None:
                hosts.close()
            fitting.shutdown(cancel_futures=True)
            store.close()

    return Starlette(
        routes=[
            Route("/api/bots", list_bots),
            Route("/api/leaderboard", leaderboard),
            Route("/api/metrics", metrics),
            Route("/api/games/{game_id}", game_record),
            Route("/games/{game_id}", game_page),
            Route("/", leaderboard_html),
            Route("/bots/{name}", bot_html),
            WebSocketRoute("/bot", bot_connection),
            Route("/play", lobby_page),
            Route("/play", make_table, methods=["POST"]),
            Route("/tables/{table_id}", table_page),
            Route("/tables/{table_id}/replay", table_replay),
            WebSocketRoute("/tables/{table_id}/ws", table_connection),
            Route("/api/tables/{table_id}", table_data),
            Route("/static/{name}", page_script),
        ],
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
                    "connected": lobby.is_connected(bot.name),
                }
                for bot in bots
            ]
        }
    )


async def metrics(request: Request) -> JSONResponse:
    """``GET /api/metrics``: what the server measures of itself (see :class:`Metrics`), and
    of its casual tables under ``tables``."""
    measured: Metrics = request.state.metrics
    tables: Tables = request.state.tables
    return JSONResponse({**measured.to_dict(), "tables": tables.to_dict()})


class Boards:
    """The leaderboards. Fitting takes longer the more groups there are, so it is done in a
    process of its own (``fitting``), apart from the games, and only when needed: a pool's
    standings are worked out again when they are asked for and its pool has a new finished
    group, and its ratings for the matchmaker (without intervals, far quicker) at most once
    every ``refit`` seconds."""

    def __init__(
        self,
        store: Store,
        pools: tuple[Pool, ...],
        reference: tuple[str, ...],
        refit: float,
        fitting: concurrent.futures.Executor,
    ) -> None:
        self.store = store
        self.pools = pools
        self.reference = reference
        self.refit = refit
        self.fitting = fitting
        self.anchors = {pool: _anchor(pool, reference) for pool in pools}
        self.kept: dict[Pool, tuple[int, list[Standing]]] = {}
        self.ratings: dict[Pool, dict[str, float]] = {}
        self.rated: dict[Pool, float] = {}
        self.lock = asyncio.Lock()

    def pool(self, game: str, rules: str) -> Pool | None:
        return next((p for p in self.pools if p.game == game and p.name == rules), None)

    def settled(self, pool: Pool) -> dict[str, float]:
        """The ratings of the pool's bots that are no longer provisional, as last worked out."""
        return self.ratings.get(pool, {})

    async def rerate(self, pool: Pool) -> None:
        """Work the pool's ratings out again for the matchmaker, unless that was done less than
        ``refit`` seconds ago."""
        if time.monotonic() - self.rated.get(pool, -self.refit) < self.refit:
            return
        self.rated[pool] = time.monotonic()
        groups = await anyio.to_thread.run_sync(self._groups, pool)
        loop = asyncio.get_running_loop()
        self.ratings[pool] = await loop.run_in_executor(
            self.fitting, settled_ratings, groups, self.anchors[pool], self.reference
        )

    async def standings(self, pool: Pool) -> list[Standing]:
        """The pool's standings now."""
        async with self.lock:
            groups = await anyio.to_thread.run_sync(self._groups, pool)
            kept = self.kept.get(pool)
            if kept is not None and kept[0] == len(groups):
                return kept[1]
            loop = asyncio.get_running_loop()
            lines = await loop.run_in_executor(
                self.fitting, standings, groups, self.anchors[pool], self.reference
            )
            self.kept[pool] = (len(groups), lines)
            return lines

    def _groups(self, pool: Pool) -> list[list[PlayedGame]]:
        return self.store.finished_groups(pool.game, pool.name, records=False)


def _anchor(pool: Pool, reference: tuple[str, ...]) -> Anchor | None:
    """The reference bot held at its rating on the pool's ladder: greedy, when it plays."""
    ladder = load_ladders().get(ladder_key(pool.game, pool.name, pool.rules.players))
    if ladder is None:
        return None
    for bot in (FIXED[0], *reference):
        rung = ladder.rung(bot)
        if rung is not None and bot in reference:
            return bot, rung.rating
    return None


async def leaderboard(request: Request) -> JSONResponse:
    """``GET /api/leaderboard?game=thousand&rules=russian``: the pool's standings."""
    boards: Boards = request.state.boards
    game = request.query_params.get("game", "thousand")
    rules = request.query_params.get("rules", boards.pools[0].name if boards.pools else "")
    pool = boards.pool(game, rules)
    if pool is None:
        played = ", ".join(f"game={pool.game}&rules={pool.name}" for pool in boards.pools)
        return JSONResponse(
            {"error": f"this server plays no pool game={game}&rules={rules}; it plays {played}"},
            status_code=404,
        )
    lines = await boards.standings(pool)
    anchor = boards.anchors[pool]
    return JSONResponse(
        {
            "game": game,
            "rules": rules,
            "anchor": None if anchor is None else {"bot": anchor[0], "rating": anchor[1]},
            "standings": [line.to_dict() for line in lines],
        }
    )


async def leaderboard_html(request: Request) -> HTMLResponse:
    """``GET /``: the leaderboard of every pool, as a page."""
    boards: Boards = request.state.boards
    shown = []
    for pool in boards.pools:
        lines = await boards.standings(pool)
        shown.append((pool.game, pool.name, lines))
    return HTMLResponse(leaderboard_page(shown))


async def bot_html(request: Request) -> HTMLResponse:
    """``GET /bots/NAME``: a bot's page."""
    boards: Boards = request.state.boards
    store: Store = request.state.store
    name = str(request.path_params["name"])
    bots = await anyio.to_thread.run_sync(store.bots)
    if name not in {bot.name for bot in bots}:
        return HTMLResponse(f"<!doctype html><title>no such bot</title><p>{_NO_BOT}", 404)
    pools = []
    for pool in boards.pools:
        numbered = await anyio.to_thread.run_sync(
            functools.partial(store.numbered_groups, pool.game, pool.name, records=False)
        )
        pools.append((pool.game, pool.name, numbered, boards.anchors[pool]))
    page = await asyncio.get_running_loop().run_in_executor(boards.fitting, bot_page, name, pools)
    return HTMLResponse(page)


_NO_BOT = "no bot has this name on this server"


async def _kept_game(request: Request) -> Any:
    """The finished game that the path names, or a 404 response."""
    store: Store = request.state.store
    group, _, number = str(request.path_params["game_id"]).partition("-")
    if not (group.isdigit() and number.isdigit()):
        return None
    return await anyio.to_thread.run_sync(store.played_game, int(group), int(number))


_NO_GAME = (
    "no finished game has this name: a game is shown once its whole group is over, "
    "as GROUP-NUMBER, such as 17-0"
)


async def game_record(request: Request) -> Response:
    """``GET /api/games/GROUP-NUMBER``: a finished game's record, as ``thousand replay`` reads
    it."""
    game = await _kept_game(request)
    if game is None:
        return JSONResponse({"error": _NO_GAME}, status_code=404)
    return JSONResponse(game.record)


async def game_page(request: Request) -> Response:
    """``GET /games/GROUP-NUMBER``: a finished game's replay, a page that steps through it."""
    game = await _kept_game(request)
    if game is None:
        return HTMLResponse(f"<!doctype html><title>no such game</title><p>{_NO_GAME}", 404)
    title = f"game {request.path_params['game_id']}: {', '.join(game.seats)}"
    return HTMLResponse(replay_page(game.record, game.seats, title))


async def bot_connection(websocket: WebSocket) -> None:
    """``/bot``: a bot's connection, from its login to its end."""
    store: Store = websocket.state.store
    lobby: Lobby = websocket.state.lobby
    limits: Limits = websocket.state.limits
    await websocket.accept()
    try:
        login = await _logged_in(websocket, store, limits)
    except WebSocketDisconnect:
        return
    if login is None:
        return
    name, games, casual = login
    await websocket.send_json({"type": "welcome", "bot": name, "protocol": PROTOCOL})
    await lobby.enter(name, websocket, games, casual)
    try:
        await _serve(websocket, name, lobby, limits)
    except WebSocketDisconnect:
        pass
    finally:
        lobby.leave(name, websocket)


async def _logged_in(
    websocket: WebSocket, store: Store, limits: Limits
) -> tuple[str, int, bool] | None:
    """The bot whose token the first message gives, how many groups it plays at once, and
    whether it accepts casual games; ``None`` once the connection is refused and closed."""
    try:
        text = await asyncio.wait_for(websocket.receive_text(), limits.login_seconds)
    except asyncio.TimeoutError:
        reason = f"no login within {limits.login_seconds:g} seconds"
        await _refuse(websocket, reason, CLOSE_LOGIN_TIMEOUT)
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
        reason = 'the first message must be {"type": "login", "token": ...}'
        await _refuse(websocket, reason, CLOSE_BAD_LOGIN)
        return None
    games = message.get("games", 1)
    if type(games) is not int or not 1 <= games <= MOST_GAMES:
        reason = (
            f'"games" must be a whole number from 1 to {MOST_GAMES}, not {json.dumps(games)[:20]}'
        )
        await _refuse(websocket, reason, CLOSE_BAD_LOGIN)
        return None
    casual = message.get("casual", False)
    if not isinstance(casual, bool):
        await _refuse(websocket, '"casual" must be true or false', CLOSE_BAD_LOGIN)
        return None
    name = await anyio.to_thread.run_sync(store.bot_with_token, token)
    if name is None:
        reason = "no bot has this token (it may have been revoked)"
        await _refuse(websocket, reason, CLOSE_BAD_LOGIN)
        return None
    return name, games, casual


async def _serve(websocket: WebSocket, name: str, lobby: Lobby, limits: Limits) -> None:
    """Take the bot's messages until it goes: its answers go to the games awaiting them, a ping
    is answered with a pong, anything else with an error saying why. Too large a message closes
    the connection; so do too many messages after a warning, counting all but the answers the
    server awaited (a bot answers as fast as it is asked)."""
    rate = Rate(limits)
    while True:
        text = await websocket.receive_text()
        if len(text) > limits.largest_message:
            await _refuse(websocket, _too_big(limits), CLOSE_TOO_BIG)
            return
        refusal: str | None = None
        try:
            message = read_message(text)
        except MessageError as error:
            message, refusal = {"type": None}, str(error)
        if message["type"] in ANSWERS:
            refusal = lobby.deliver(name, message)
            if refusal is None:
                continue
        if not rate.allows():
            if rate.refused > limits.warnings:
                await _refuse(websocket, _too_many(limits), CLOSE_TOO_MANY)
                return
            await _say(lobby, name, _too_many(limits))
            continue
        if refusal is not None:
            await _say(lobby, name, refusal)
        elif message["type"] == "ping":
            await lobby.tell(name, {"type": "pong"})
        else:
            shown = json.dumps(message["type"])[:60]
            await _say(lobby, name, f"no message has the type {shown}")


async def _say(lobby: Lobby, name: str, message: str) -> None:
    await lobby.tell(name, {"type": "error", "message": message})


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


def web_server(
    settings: Settings, host: str = "127.0.0.1", port: int = 0, log_level: str = "info"
) -> uvicorn.Server:
    """The server, ready to run: ``run()`` it, or ``run(sockets=[...])`` on sockets already
    bound; it logs each connection and request at ``log_level`` ``info`` (``warning``: only
    what goes wrong). A message four times the limit is refused by the websocket layer itself
    (still with close code 1009); one above the limit, by the server with its error message."""
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=4 * settings.limits.largest_message,
        log_level=log_level,
        lifespan="on",
    )
    return uvicorn.Server(config)
