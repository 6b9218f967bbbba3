"""A group played on the server: the same cards dealt to the same bots under every seating of
the table, each seating one game, kept together once all are played, then rated as one.

A seat is played by a connected bot, asked over its connection (see :mod:`~tournament.server.
lobby`), or by a reference bot that runs in the server. A bot's fault (a wrong answer, an error,
its time run out, its connection lost past the grace) counts against that bot only, as in a
tournament; a failure of the server's own voids the group, which is then never rated.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from thousand.classic.rules import Rules
from thousand.errors import BotCrash, BotTimeout
from thousand.games import GAMES, AnyRules, game_named, game_of
from thousand.table.external import PROTOCOL, SEED_BITS, told_outcome
from thousand.table.match import Outcome, start_match
from tournament.runner.balanced_seatings import seatings
from tournament.runner.ladder import STANDARD
from tournament.runner.schedule import derive_seed
from tournament.server.hosts import ServerSeat
from tournament.server.lobby import Lobby, Lost
from tournament.server.metrics import Metrics
from tournament.server.store import PlayedGame, Store

__all__ = [
    "POOLS",
    "Pool",
    "Timing",
    "act_message",
    "check_game",
    "end_message",
    "hello_message",
    "play_group",
    "pool_named",
    "reply_action",
]


@attrs.frozen
class Timing:
    """How long a connected bot may take."""

    decision: float = 10.0
    """Seconds for one decision."""
    bank: float | None = None
    """Seconds for all of a game's decisions together (``None``: no bank)."""
    start: float = 10.0
    """Seconds to answer a game's hello."""
    grace: float = 30.0
    """Seconds a bot that lost its connection has to come back, its game waiting meanwhile."""


@attrs.frozen
class Pool:
    """The games rated together: one game and preset, at a table of ``rules.players``."""

    name: str
    """The preset's name, as the leaderboard is asked for it (``russian``)."""
    rules: AnyRules
    timing: Timing | None = None
    """How long a connected bot may take in this pool; ``None``: as the server says."""

    @property
    def game(self) -> str:
        """The game's key, as the API and the ladder name it: ``thousand`` or ``bluff``."""
        return game_of(self.rules).key


POOLS = (*Rules.preset_names(), *(game.key for game in GAMES if not game.has_deals))
"""The names of the pools a server can play: each Thousand preset, and each game without
presets by its key."""


def pool_named(name: str, timing: Timing | None = None) -> Pool:
    """The pool of a Thousand preset (``russian``...), or of a game without presets by its
    name (``bluff``, also ``1000?``): its standard rules, under the name ``standard``; with
    ``timing``, its own limits.

    Raises:
        ValueError: ``name`` is neither.
    """
    try:
        return Pool(name, Rules.preset(name), timing)
    except ValueError:
        pass
    try:
        game = game_named(name)
    except ValueError:
        game = None
    if game is None or game.has_deals:
        presets = ", ".join(Rules.preset_names())
        raise ValueError(f"--pool must be a Thousand preset ({presets}) or bluff, not {name!r}")
    return Pool(STANDARD, game.default_rules(), timing)


async def play_group(
    store: Store,
    lobby: Lobby,
    pool: Pool,
    bots: Sequence[str],
    seed: int,
    timing: Timing,
    local: Callable[[str], ServerSeat | None],
    metrics: Metrics,
) -> int:
    """Play one group of ``bots`` and keep it: its number. ``local`` gives a new seat for a bot
    that the server plays (a reference bot), ``None`` for a connected one."""
    group = await asyncio.to_thread(store.begin_group, pool.game, pool.name, seed, bots)
    games = []
    try:
        for number, seating in enumerate(seatings(len(bots))):
            names = [bots[index] for index in seating]
            game_id = f"{group}-{number}"
            played, _ = await _play_game(lobby, pool, names, seed, game_id, timing, local, metrics)
            games.append(played)
        await asyncio.to_thread(store.finish_group, group, games)
        metrics.groups += 1
    except BaseException:
        await asyncio.shield(asyncio.to_thread(store.void_unfinished_group, group))
        raise
    return group


async def check_game(
    lobby: Lobby,
    pool: Pool,
    bot: str,
    opponent: str,
    number: int,
    timing: Timing,
    local: Callable[[str], ServerSeat | None],
    metrics: Metrics,
) -> Outcome:
    """A connected bot's check game, in seat 0 against ``opponent`` (a reference bot) in every
    other seat, kept nowhere: its outcome, whose faults say whether the bot may be rated."""
    names = [bot] + [opponent] * (pool.rules.players - 1)
    seed = secrets.randbits(63)
    game_id = f"check-{number}"
    _, outcome = await _play_game(lobby, pool, names, seed, game_id, timing, local, metrics)
    return outcome


async def _play_game(
    lobby: Lobby,
    pool: Pool,
    names: list[str],
    seed: int,
    game_id: str,
    timing: Timing,
    local: Callable[[str], ServerSeat | None],
    metrics: Metrics,
) -> tuple[PlayedGame, Outcome]:
    """One game of a group: the group's cards, the bots seated as ``names``."""
    rules = pool.rules
    game = game_of(rules)
    match = start_match(
        rules,
        seed=seed,
        names=names,
        single_deal=game.has_deals,
        time_limit=timing.decision,
        time_quota=timing.bank,
    )
    players = [local(name) for name in names]
    outcome = None
    try:
        for seat, name in enumerate(names):
            own_seed = derive_seed(seed, "player", seat)
            player = players[seat]
            if player is None:
                hello = hello_message(game_id, rules, seat, own_seed)
                lobby.join(name, game_id, hello)
                failure = await _started(lobby, name, game_id, hello, timing)
                if failure is not None:
                    match.fail_to_start(seat, failure)
            else:
                await player.begin(seat, rules, own_seed, timing.start)
        while (to_act := match.to_act) is not None:
            seat = to_act
            began = time.perf_counter()
            observation = match.observation()
            player = players[seat]
            if player is not None:
                asked = time.perf_counter()
                action = await player.act(observation, timing.decision)
                if player.away:
                    began += time.perf_counter() - asked
                match.submit(seat, action, 0.0)
                metrics.decided(time.perf_counter() - began)
                continue
            question = act_message(game_id, observation)
            asked = time.perf_counter()
            try:
                reply, spent = await lobby.ask(
                    names[seat], game_id, question, match.allowed(), timing.grace
                )
            except Lost as lost:
                match.fail(seat, BotCrash(str(lost)), 0.0)
                continue
            began += time.perf_counter() - asked
            if reply is None:
                match.fail(seat, BotTimeout(f"took more than {match.allowed():.3f} s"), spent)
            elif reply.get("type") == "error":
                message = str(reply.get("message", ""))[:200]
                match.fail(seat, BotCrash(f"reported an error: {message}"), spent)
            else:
                match.submit(seat, reply_action(game, reply, observation), spent)
            metrics.decided(time.perf_counter() - began)
        outcome = match.outcome()
        metrics.games += 1
    finally:
        for name, player in zip(names, players, strict=True):
            if player is None:
                lobby.part(name, game_id)
            elif outcome is None:
                player.drop()
    ended = end_message(game_id, outcome)
    for name, player in zip(names, players, strict=True):
        if player is None:
            await lobby.tell(name, ended)
        else:
            await player.end(outcome, timing.start)
    played = PlayedGame(
        tuple(names),
        outcome.places,
        outcome.scores,
        tuple(status.value for status in outcome.statuses),
        outcome.record.to_dict(),
    )
    return played, outcome


async def _started(
    lobby: Lobby, name: str, game_id: str, hello: dict[str, Any], timing: Timing
) -> BaseException | None:
    """Send the hello and await the bot's ready: what went wrong, or ``None``."""
    try:
        reply, _ = await lobby.ask(name, game_id, hello, timing.start, timing.grace)
    except Lost as lost:
        return BotCrash(str(lost))
    if reply is None:
        return BotTimeout(f"did not answer the hello within {timing.start:g} s")
    if reply.get("type") != "ready":
        message = str(reply.get("message", reply.get("type")))[:200]
        return BotCrash(f"did not start: {message}")
    return None


def hello_message(game_id: str, rules: AnyRules, seat: int, seed: int) -> dict[str, Any]:
    """The message that seats a connected bot in a game (the bot protocol's hello), its own
    randomness drawn from ``seed``."""
    return {
        "type": "hello",
        "game_id": game_id,
        "protocol": PROTOCOL,
        "game": game_of(rules).name,
        "rules": rules.to_dict(),
        "seat": seat,
        "players": rules.players,
        "seed": random.Random(seed).getrandbits(SEED_BITS),
    }


def act_message(game_id: str, observation: Any) -> dict[str, Any]:
    """The message that asks a connected bot for its action."""
    return {
        "type": "act",
        "game_id": game_id,
        "observation": observation.to_dict(with_rules=False),
    }


def end_message(game_id: str, outcome: Outcome) -> dict[str, Any]:
    """The message that tells a connected bot how a game ended."""
    return {"type": "end", "game_id": game_id, "outcome": told_outcome(outcome)}


def reply_action(game: Any, reply: dict[str, Any], observation: Any) -> object:
    """The action a bot's reply names: one of the legal actions when it spells one, else the
    reply's text, for the match to refuse as an illegal answer."""
    text = reply.get("action")
    if not isinstance(text, str):
        return repr(text)[:60]
    for action in observation.legal_actions:
        if str(action) == text:
            return action
    try:
        return game.parse_action(text)
    except ValueError:
        return text
