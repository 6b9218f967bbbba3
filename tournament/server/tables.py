"""Casual tables where people play each other and the bots, in the browser.

A table is made for a game and preset with a number of seats and a time per move. People take
seats by name (a cookie keeps a person's seat across reloads); empty seats may be given to a
built-in bot, or to a connected bot that accepts casual games. Once every seat is taken the
game starts, and the table's own task drives the match: it asks a bot for its action (a
connected one over its connection), and awaits a person's from the browser. Every view a seat
is sent is made from that seat's observation only (see :mod:`~tournament.server.table_views`);
a spectator's from the public table.

A person (or a connected bot) whose time runs out, or who has left the table for longer than
the grace, has that move played by a stand-in bot (``greedy``); one who comes back plays on.
A finished game is kept (in the database); the games of people are never rated.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import attrs

from thousand.games import AnyRules, game_of
from thousand.table.match import Match, Outcome, start_match
from thousand.table.specs import load_player
from tournament.server.groups import (
    POOLS,
    act_message,
    end_message,
    hello_message,
    pool_named,
    reply_action,
)
from tournament.server.hosts import started
from tournament.server.lobby import Lobby, Lost
from tournament.server.metrics import Timings
from tournament.server.store import CasualGame

__all__ = [
    "BOT_PAUSE",
    "CONNECTED",
    "DIFFICULTIES",
    "LARGEST_NAME",
    "SHOWN_FOR",
    "STAND_IN",
    "ActionRefused",
    "Seat",
    "Table",
    "Tables",
]

DIFFICULTIES = {
    "beginner": "random",
    "easy": "ismcts(steps=250)",
    "medium": "greedy",
    "hard": "pimc",
}
"""The built-in bots that can take a seat, from the easiest to beat to the hardest (in Thousand,
in the order of their ratings on the ladder; see the guide to playing)."""
CONNECTED = "bot:"
"""How a seat is given to a connected bot: ``bot:NAME``."""
STAND_IN = "greedy"
"""The bot that plays a person's decision when the person's time runs out or they are away."""
SHOWN_FOR = 600.0
"""Seconds a finished table stays in memory once its game is kept."""
BOT_PAUSE = 0.6
"""Seconds a bot waits before it plays, so that people can follow the game."""
LARGEST_NAME = 24
"""The most characters of a person's name at a table."""
LOG = logging.getLogger("thousand.server")


class ActionRefused(ValueError):
    """An action a table does not take: the reason, to show the person."""


@attrs.define
class Seat:
    """Who sits in a seat: a person (by the id their cookie holds) or a bot."""

    name: str
    person: str | None = None
    """The person's id, ``None`` for a bot."""
    bot: str | None = None
    """A built-in bot's spec."""
    connected: str | None = None
    """A connected bot's name (one that logged in accepting casual games)."""


Listener = Callable[["Table"], Any]


@attrs.define(eq=False)
class Table:
    """One table: who sits where, and its match once it has started."""

    id: str
    preset: str
    rules: AnyRules
    seconds: float
    """Seconds a person has for a move."""
    seats: list[Seat | None]
    match: Match[Any, Any, Any, Any, Any] | None = None
    outcome: Outcome | None = None
    version: int = 0
    """Counts the table's changes: an action names the version it answers."""
    deadline: float | None = None
    """When the person to act runs out of time (``time.monotonic()``)."""
    answer: asyncio.Future[object] | None = None
    """The move awaited from the person to act, once they give it."""
    listeners: list[Listener] = attrs.Factory(list)
    away: dict[int, float] = attrs.Factory(dict)
    """Seats of people who left, and when."""
    open_pages: dict[str, int] = attrs.Factory(dict)
    """Per person, the pages they have open at the table."""
    casual: Callable[[], list[str]] = list
    """The connected bots that accept casual games now: they may take the empty seats."""
    recent: collections.deque[Any] = attrs.Factory(collections.deque)
    """The game's latest states, the oldest of them what spectators are shown."""

    @property
    def watched(self) -> Any:
        """The state spectators see: the game as it was a round of moves ago (see
        :class:`Tables`), or as it is once it is over."""
        match = self.match
        if match is None or self.outcome is not None or not self.recent:
            return None if match is None else match.state
        return self.recent[0]

    @property
    def game(self) -> str:
        return game_of(self.rules).key

    @property
    def full(self) -> bool:
        return all(seat is not None for seat in self.seats)

    @property
    def status(self) -> str:
        if self.outcome is not None:
            return "over"
        return "playing" if self.match is not None else "waiting"

    def seat_of(self, person: str) -> int | None:
        """The seat the person holds at this table, if any."""
        for number, seat in enumerate(self.seats):
            if seat is not None and seat.person == person:
                return number
        return None

    def names(self) -> list[str]:
        return [seat.name if seat is not None else "(empty)" for seat in self.seats]

    def changed(self) -> None:
        self.version += 1
        for listener in list(self.listeners):
            listener(self)


def _house_rules(base: AnyRules, preset: str, text: str) -> AnyRules:
    """The rules a table's form gives as JSON, for the game of ``base``.

    Raises:
        ValueError: the text is not a JSON object of that game's rules fields.
    """
    game = game_of(base)
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("the rules must be a JSON object of rules fields") from None
    if not isinstance(data, dict):
        raise ValueError("the rules must be a JSON object of rules fields")
    if game.has_deals and "preset" not in data:
        data = {"preset": preset, **data}
    try:
        return game.rules_from_dict(data)
    except (ValueError, TypeError) as error:
        raise ValueError(f"the rules: {error}") from None


def _told(table: Table, task: asyncio.Task[None]) -> None:
    """Log a table's game that stopped on an error of the server's."""
    if not task.cancelled() and task.exception() is not None:
        LOG.error("the game at table %s stopped", table.id, exc_info=task.exception())


class Tables:
    """Every table of the server, and the tasks that play them."""

    def __init__(
        self,
        grace: float = 60.0,
        bot_pause: float = BOT_PAUSE,
        spectator_delay: int = 1,
        keep: Callable[[CasualGame], Awaitable[object]] | None = None,
        shown_for: float = SHOWN_FOR,
        lobby: Lobby | None = None,
    ) -> None:
        self.tables: dict[str, Table] = {}
        self.lobby = lobby
        """The connected bots, some of which may take seats."""
        self.keep = keep
        """Keeps a finished game (in the database)."""
        self.shown_for = shown_for
        self.grace = grace
        self.bot_pause = bot_pause
        self.spectator_delay = spectator_delay
        """Rounds of moves (as many moves as seats: a trick, in Thousand's play) by which
        spectators see a game late, so that no one at the table learns from a watcher what
        was just played."""
        self.actions = Timings()
        """The server's own time per move: playing it, and making every view of the table."""
        self.games = 0
        self.stood_in = 0
        """Moves the stand-in played for a person or a connected bot."""
        self.tasks: set[asyncio.Task[None]] = set()

    def create(self, preset: str, seconds: float = 60.0, house_rules: str = "") -> Table:
        """A new, empty table of ``preset``, or of its game with the rules ``house_rules``
        gives (a JSON object of rules fields, as a rules file holds them: a Thousand preset
        with house rules, or 1000? for another number of players).

        Raises:
            ValueError: no such preset, rules that are not rules, or a time per move out of
                range.
        """
        if preset not in POOLS:
            raise ValueError(f"the game must be one of {', '.join(POOLS)}, not {preset[:20]!r}")
        if not 5 <= seconds <= 600:
            raise ValueError("the time per move must be from 5 to 600 seconds")
        pool = pool_named(preset)
        rules, name = pool.rules, pool.name
        if house_rules.strip():
            rules, name = _house_rules(pool.rules, preset, house_rules), f"{pool.name}, own rules"
        table = Table(secrets.token_urlsafe(6), name, rules, seconds, [None] * rules.players)
        table.casual = self.casual
        self.tables[table.id] = table
        return table

    def sit(self, table: Table, seat: int, person: str, name: str) -> None:
        """Seat a person, by name.

        Raises:
            ActionRefused: the seat is taken, or the name is not one.
        """
        name = " ".join(name.split())
        if not 1 <= len(name) <= LARGEST_NAME:
            raise ActionRefused(f"a name is 1 to {LARGEST_NAME} characters")
        self._free(table, seat)
        if table.seat_of(person) is not None:
            raise ActionRefused("you already have a seat at this table")
        table.seats[seat] = Seat(name, person=person)
        self._seated(table)

    def seat_bot(self, table: Table, seat: int, difficulty: str) -> None:
        """Give an empty seat to a built-in bot, by difficulty, or to a connected bot that
        accepts casual games, as ``bot:NAME``.

        Raises:
            ActionRefused: the seat is taken, or no bot has that difficulty or name.
        """
        if difficulty.startswith(CONNECTED):
            self._seat_connected(table, seat, difficulty.removeprefix(CONNECTED))
            return
        spec = DIFFICULTIES.get(difficulty)
        if spec is None:
            raise ActionRefused(f"a bot is {', '.join(DIFFICULTIES)}, not {difficulty!r}")
        self._free(table, seat)
        taken = [s.name for s in table.seats if s is not None]
        name = f"{difficulty} bot"
        number = 2
        while name in taken:
            name, number = f"{difficulty} bot {number}", number + 1
        table.seats[seat] = Seat(name, bot=spec)
        self._seated(table)

    def _seat_connected(self, table: Table, seat: int, name: str) -> None:
        if name not in self.casual():
            raise ActionRefused(f"no connected bot named {name[:40]!r} accepts casual games now")
        self._free(table, seat)
        if any(taken is not None and taken.connected == name for taken in table.seats):
            raise ActionRefused(f"{name} already has a seat at this table")
        table.seats[seat] = Seat(name, connected=name)
        self._seated(table)

    def casual(self) -> list[str]:
        """The connected bots that accept casual games now."""
        return [] if self.lobby is None else self.lobby.casual()

    def _free(self, table: Table, seat: int) -> None:
        if table.match is not None:
            raise ActionRefused("the game has started")
        if not 0 <= seat < len(table.seats):
            raise ActionRefused(f"this table has seats 1 to {len(table.seats)}")
        if table.seats[seat] is not None:
            raise ActionRefused("that seat is taken")

    def _seated(self, table: Table) -> None:
        if table.full:
            table.recent = collections.deque(maxlen=self.spectator_delay * len(table.seats) + 1)
            table.match = start_match(
                table.rules,
                seed=secrets.randbits(63),
                names=table.names(),
                single_deal=game_of(table.rules).has_deals,
                watch=table.recent.append,
            )
            task = asyncio.get_running_loop().create_task(self._play(table))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            task.add_done_callback(functools.partial(_told, table))
        table.changed()

    def act(self, table: Table, person: str, version: int, action: str) -> None:
        """A person's action, as its text, answering the table at ``version``.

        Raises:
            ActionRefused: it is not the person's turn, the table has moved on since, or the
                action is not one of theirs to take; nothing changes.
        """
        match, seat = table.match, table.seat_of(person)
        if match is None or seat is None or match.to_act != seat:
            raise ActionRefused("it is not your turn")
        if version != table.version:
            raise ActionRefused("the table has changed since: look again")
        for legal in match.observation().legal_actions:
            if str(legal) == action:
                if table.answer is not None and not table.answer.done():
                    table.answer.set_result(legal)
                return
        raise ActionRefused(f"{action[:40]!r} is not one of your moves now")

    def left(self, table: Table, person: str) -> None:
        """Note that one of a person's pages at the table closed: once none is open, their seat
        is away."""
        table.open_pages[person] = table.open_pages.get(person, 1) - 1
        seat = table.seat_of(person)
        if seat is not None and table.open_pages[person] <= 0:
            table.away[seat] = time.monotonic()

    def back(self, table: Table, person: str) -> None:
        """Note that a person opened a page at the table."""
        table.open_pages[person] = table.open_pages.get(person, 0) + 1
        seat = table.seat_of(person)
        if seat is not None:
            table.away.pop(seat, None)

    async def _play(self, table: Table) -> None:
        """Play the table's match to its end."""
        match = table.match
        assert match is not None
        bots = {
            number: load_player(seat.bot)()
            for number, seat in enumerate(table.seats)
            if seat is not None and seat.bot is not None
        }
        stand_in = load_player(STAND_IN)()
        for number, player in bots.items():
            started(player, number, table.rules, secrets.randbits(63))
        connected = {
            number: seat.connected
            for number, seat in enumerate(table.seats)
            if seat is not None and seat.connected is not None
        }
        game_id = f"table-{table.id}"
        greeted = {
            number: name
            for number, name in connected.items()
            if await self._greeted(table, game_id, number, name)
        }
        try:
            await self._moves(table, game_id, bots, connected, greeted, stand_in)
        finally:
            for name in greeted.values():
                assert self.lobby is not None
                self.lobby.part(name, game_id)
        for name in greeted.values():
            assert self.lobby is not None
            assert table.outcome is not None
            await self.lobby.tell(name, end_message(game_id, table.outcome))
        await self._kept(table)

    async def _greeted(self, table: Table, game_id: str, seat: int, name: str) -> bool:
        """Seat a connected bot in the table's game: whether it answered its hello."""
        assert self.lobby is not None
        hello = hello_message(game_id, table.rules, seat, secrets.randbits(63))
        self.lobby.join(name, game_id, hello)
        try:
            reply, _ = await self.lobby.ask(name, game_id, hello, table.seconds, self.grace)
        except Lost:
            reply = None
        if reply is not None and reply.get("type") == "ready":
            return True
        self.lobby.part(name, game_id)
        return False

    async def _moves(
        self,
        table: Table,
        game_id: str,
        bots: dict[int, Any],
        connected: dict[int, str],
        greeted: dict[int, str],
        stand_in: Any,
    ) -> None:
        """Play the table's moves to the end of its game. A connected bot that did not answer
        its hello (``greeted`` holds those that did) has each of its moves played by the
        stand-in."""
        match = table.match
        assert match is not None
        self._await_next(table)
        table.changed()
        while (seat := match.to_act) is not None:
            if seat in bots:
                await asyncio.sleep(self.bot_pause)
                # In a thread: a search bot thinks for milliseconds, which the other tables need.
                action = await asyncio.to_thread(bots[seat].act, match.observation())
            else:
                if seat in greeted:
                    answered = await self._asked(table, game_id, greeted[seat])
                elif seat in connected:
                    answered = None  # it did not answer its hello
                else:
                    answered = await self._awaited(table, seat)
                if answered is None:
                    self.stood_in += 1
                    answered = stand_in.act(match.observation())
                action = answered
            began = time.perf_counter()
            match.submit(seat, action, 0.0)
            if match.to_act is None:
                table.outcome = match.outcome()
                self.games += 1
            self._await_next(table)
            table.changed()
            self.actions.add(time.perf_counter() - began)

    async def _asked(self, table: Table, game_id: str, name: str) -> object | None:
        """A connected bot's move, or ``None`` when it did not give a legal one in time (or
        stayed away past the grace): the stand-in then plays it, as for a person."""
        assert self.lobby is not None
        assert table.match is not None
        observation = table.match.observation()
        question = act_message(game_id, observation)
        try:
            reply, _ = await self.lobby.ask(name, game_id, question, table.seconds, self.grace)
        except Lost:
            return None
        if reply is None or reply.get("type") != "action":
            return None
        action = reply_action(game_of(table.rules), reply, observation)
        return action if action in observation.legal_actions else None

    async def _kept(self, table: Table) -> None:
        """Keep a finished table's game, then, once its players have had time to see the
        result, forget the table (its page is then made from what was kept)."""
        outcome = table.outcome
        if outcome is None or self.keep is None:
            return
        scores = tuple(int(score) for score in outcome.scores)
        record = outcome.record.to_dict()
        await self.keep(
            CasualGame(table.id, table.game, table.preset, tuple(table.names()), scores, record)
        )
        await asyncio.sleep(self.shown_for)
        self.tables.pop(table.id, None)

    def _await_next(self, table: Table) -> None:
        """Get ready for the next move: a person's is awaited until their time runs out."""
        match = table.match
        seat = None if match is None else match.to_act
        person = seat is not None and (taken := table.seats[seat]) is not None and taken.person
        if person:
            table.answer = asyncio.get_running_loop().create_future()
            table.deadline = time.monotonic() + table.seconds
        else:
            table.deadline = None

    async def _awaited(self, table: Table, seat: int) -> object | None:
        """The person's action, or ``None`` when their time ran out or they stayed away past
        the grace."""
        answer = table.answer
        assert answer is not None
        while True:
            wait = max(0.0, min(self._deadline(table, seat) - time.monotonic(), 1.0))
            # asyncio.wait, not wait_for: on Python 3.11 wait_for can swallow the task's
            # cancellation when the answer comes at the same moment.
            done, _ = await asyncio.wait({answer}, timeout=wait)
            if done:
                return answer.result()
            if time.monotonic() >= self._deadline(table, seat):  # as it is now: they may be back
                answer.cancel()
                return None

    def _deadline(self, table: Table, seat: int) -> float:
        """When the person in ``seat`` runs out of time for their move: at the move's deadline,
        or at the end of the grace once they have left."""
        deadline = table.deadline or time.monotonic()
        gone = table.away.get(seat)
        return deadline if gone is None else min(deadline, gone + self.grace)

    def to_dict(self) -> dict[str, object]:
        """What the tables measure of themselves, for ``GET /api/metrics``."""
        return {
            "open": sum(table.outcome is None for table in self.tables.values()),
            "games": self.games,
            "moves": self.actions.count,
            "stand_in_moves": self.stood_in,
            "own_ms_per_move": self.actions.percentiles(),
        }

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
