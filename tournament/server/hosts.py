"""Where the reference bots that think for a while (the search bots) play: in worker processes
apart from the server's, on this machine or on a Ray cluster, so that their thinking never
holds up the server's own games and grows with the workers given to it.

A seat of a game is kept by one worker from the game's start to its end (a bot may keep what
it learns during a game); a new game goes to the worker with the fewest. A worker that dies,
or that takes longer over a decision than a connected bot may, is a failure of the server's:
the group is void, never rated, and the worker is replaced.
"""

from __future__ import annotations

import abc
import asyncio
import concurrent.futures
import contextlib
import itertools
import multiprocessing
import os
import random
from collections.abc import Callable
from typing import Any, Protocol

from thousand.games import AnyRules
from thousand.table.match import Outcome
from thousand.table.specs import PlayerFactory, load_player
from tournament.runner.backends import kill_pool, start_worker
from tournament.runner.ray_backend import start_ray

__all__ = [
    "IN_SERVER",
    "HostLost",
    "Hosted",
    "Hosts",
    "InServer",
    "LocalHosts",
    "RayHosts",
    "ServerSeat",
    "ended",
    "hosts_for",
    "started",
]


IN_SERVER = ("random", "greedy")
"""The reference bots played in the server's own process: a decision of theirs costs less
than sending it to a worker would."""


class HostLost(Exception):
    """A worker playing a reference bot died, or took longer over a decision than a bot may."""


_PLAYERS: dict[int, Any] = {}
"""In a worker: the players of the seats it keeps, by key."""
_MAKERS: dict[str, PlayerFactory] = {}


def started(player: Any, seat: int, rules: AnyRules, seed: int) -> None:
    """Tell a player its seat as a match would, its randomness drawn from ``seed``."""
    start = getattr(player, "start", None)
    if start is not None:
        start(seat, rules, random.Random(seed))


def ended(player: Any, outcome: Outcome) -> None:
    """Tell a player how its game ended, if it listens."""
    end = getattr(player, "end", None)
    if end is not None:
        end(outcome)


def seat_begun(key: int, spec: str, seat: int, rules: AnyRules, seed: int) -> None:
    """In a worker: a new player of ``spec`` for a game's ``seat``, started as a match would."""
    make = _MAKERS.get(spec)
    if make is None:
        make = _MAKERS[spec] = load_player(spec)
    player = make()
    started(player, seat, rules, seed)
    _PLAYERS[key] = player


def seat_acts(key: int, observation: Any) -> object:
    """In a worker: the action of the seat's player."""
    return _PLAYERS[key].act(observation)


def seat_ended(key: int, outcome: Outcome | None) -> None:
    """In a worker: tell the seat's player how its game ended (``None``: the game was given up),
    and forget it."""
    player = _PLAYERS.pop(key, None)
    if outcome is not None:
        ended(player, outcome)


class BotHost:
    """A worker as a Ray actor: the functions above, in the actor's process."""

    def begin(self, key: int, spec: str, seat: int, rules: AnyRules, seed: int) -> None:
        seat_begun(key, spec, seat, rules, seed)

    def act(self, key: int, observation: Any) -> object:
        return seat_acts(key, observation)

    def end(self, key: int, outcome: Outcome | None) -> None:
        seat_ended(key, outcome)


class Hosts(abc.ABC):
    """Workers that keep the seats of reference bots, each game's seat pinned to one of them.
    Where the workers run is left to the kinds below (:class:`LocalHosts`, :class:`RayHosts`)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._keys = itertools.count()
        self._seats = [0] * workers
        """Seats in progress per worker."""
        self._pinned: dict[int, tuple[int, int]] = {}
        """Each seat's worker and the generation of that worker when the seat began."""
        self._generation = [0] * workers

    async def begin(self, spec: str, seat: int, rules: AnyRules, seed: int, seconds: float) -> int:
        """Start a player of ``spec`` in a game's ``seat`` on the least busy worker: the key of
        the seat, for :meth:`act` and :meth:`end`."""
        key = next(self._keys)
        worker = min(range(self.workers), key=self._seats.__getitem__)
        self._seats[worker] += 1
        self._pinned[key] = (worker, self._generation[worker])
        try:
            await self._call(key, "begin", seconds, spec, seat, rules, seed)
        except BaseException:
            self._unpin(key)
            raise
        return key

    async def act(self, key: int, observation: Any, seconds: float) -> object:
        """The seat's action, within ``seconds``."""
        return await self._call(key, "act", seconds, observation)

    async def end(self, key: int, outcome: Outcome, seconds: float) -> None:
        """Tell the seat's player how the game ended, and free its worker of it."""
        try:
            await self._call(key, "end", seconds, outcome)
        finally:
            self._unpin(key)

    def drop(self, key: int) -> None:
        """Free the worker of a seat whose game was given up (without waiting for it)."""
        pinned = self._pinned.get(key)
        if pinned is not None and pinned[1] == self._generation[pinned[0]]:
            with contextlib.suppress(Exception):
                self._post(pinned[0], "end", key, None)
        self._unpin(key)

    def _unpin(self, key: int) -> None:
        pinned = self._pinned.pop(key, None)
        if pinned is not None and pinned[1] == self._generation[pinned[0]]:
            self._seats[pinned[0]] -= 1

    async def _call(self, key: int, method: str, seconds: float, *args: Any) -> Any:
        worker, generation = self._pinned[key]
        if generation != self._generation[worker]:
            raise HostLost("the worker that kept this seat was replaced")
        try:
            return await asyncio.wait_for(self._submit(worker, method, key, *args), seconds)
        except asyncio.TimeoutError:
            self._lose(worker, generation)
            raise HostLost(f"a reference bot took more than {seconds:g} s") from None
        except HostLost:
            self._lose(worker, generation)
            raise

    def _lose(self, worker: int, generation: int) -> None:
        """Replace a worker, unless that was done already: the seats it kept are lost."""
        if generation == self._generation[worker]:
            self._generation[worker] += 1
            self._seats[worker] = 0
            self._replace(worker)

    @abc.abstractmethod
    def _post(self, worker: int, method: str, *args: Any) -> Any:
        """Start ``method`` of :class:`BotHost` on ``worker``: what will hold its result."""

    @abc.abstractmethod
    async def _submit(self, worker: int, method: str, *args: Any) -> Any:
        """Run ``method`` of :class:`BotHost` on ``worker``; a lost worker raises
        :class:`HostLost`."""

    @abc.abstractmethod
    def _replace(self, worker: int) -> None:
        """Stop ``worker`` and start a new one in its place."""

    @abc.abstractmethod
    def close(self) -> None:
        """Stop every worker."""


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "begin": seat_begun,
    "act": seat_acts,
    "end": seat_ended,
}


class LocalHosts(Hosts):
    """Workers in processes of this machine: each a pool of one spawned process, which dies with
    the server's."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self._pools = [self._started() for _ in range(workers)]

    @staticmethod
    def _started() -> concurrent.futures.ProcessPoolExecutor:
        # Spawned, not forked: the server's process runs threads, which a fork could leave
        # holding locks in the child.
        return concurrent.futures.ProcessPoolExecutor(
            1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=start_worker,
            initargs=(os.getpid(),),
        )

    def _post(self, worker: int, method: str, *args: Any) -> concurrent.futures.Future[Any]:
        return self._pools[worker].submit(_FUNCTIONS[method], *args)

    async def _submit(self, worker: int, method: str, *args: Any) -> Any:
        try:
            return await asyncio.wrap_future(self._post(worker, method, *args))
        except concurrent.futures.BrokenExecutor:
            raise HostLost("the worker playing a reference bot died") from None

    def _replace(self, worker: int) -> None:
        kill_pool(self._pools[worker])
        self._pools[worker] = self._started()

    def close(self) -> None:
        for pool in self._pools:
            kill_pool(pool)


class RayHosts(Hosts):
    """Workers as Ray actors, on a new local Ray instance or on the cluster at ``address``
    (``auto`` for the one this machine belongs to)."""

    def __init__(self, workers: int, address: str | None = None) -> None:
        super().__init__(workers)
        self._ray, self._started = start_ray(address, workers)
        self._actor = self._ray.remote(num_cpus=1)(BotHost)
        self._actors = [self._actor.remote() for _ in range(workers)]

    def _post(self, worker: int, method: str, *args: Any) -> Any:
        return getattr(self._actors[worker], method).remote(*args)

    async def _submit(self, worker: int, method: str, *args: Any) -> Any:
        try:
            return await self._post(worker, method, *args)
        except self._ray.exceptions.RayActorError:
            raise HostLost("the Ray actor playing a reference bot was lost") from None
        except self._ray.exceptions.RayTaskError as error:
            cause = getattr(error, "cause", None)
            raise (cause if isinstance(cause, Exception) else error) from None

    def _replace(self, worker: int) -> None:
        self._ray.kill(self._actors[worker])
        self._actors[worker] = self._actor.remote()

    def close(self) -> None:
        for actor in self._actors:
            self._ray.kill(actor)
        if self._started:
            self._ray.shutdown()


def hosts_for(workers: int, ray_address: str | None = None, ray: bool = False) -> Hosts:
    """The workers of the reference bots: local processes, or Ray actors with ``ray``."""
    return RayHosts(workers, ray_address) if ray else LocalHosts(workers)


class ServerSeat(Protocol):
    """A reference bot's seat in one game, played by the server: in its own process
    (:class:`InServer`) or by a worker (:class:`Hosted`)."""

    away: bool
    """Whether the bot thinks in another process (its thinking is not the server's time)."""

    async def begin(self, seat: int, rules: AnyRules, seed: int, seconds: float) -> None:
        """Start the bot in ``seat``, its randomness seeded with ``seed``."""

    async def act(self, observation: Any, seconds: float) -> object:
        """The bot's action."""

    async def end(self, outcome: Outcome, seconds: float) -> None:
        """Tell the bot how the game ended."""

    def drop(self) -> None:
        """Forget a game given up before its end."""


class InServer:
    """A seat played in the server's own process, by a bot quicker to run than a message to a
    worker is to send (random, greedy)."""

    away = False

    def __init__(self, player: Any) -> None:
        self.player = player

    async def begin(self, seat: int, rules: AnyRules, seed: int, seconds: float) -> None:
        started(self.player, seat, rules, seed)

    async def act(self, observation: Any, seconds: float) -> object:
        return self.player.act(observation)

    async def end(self, outcome: Outcome, seconds: float) -> None:
        ended(self.player, outcome)

    def drop(self) -> None:
        pass


class Hosted:
    """A seat played by one of the workers of :class:`Hosts`."""

    away = True

    def __init__(self, hosts: Hosts, spec: str) -> None:
        self.hosts = hosts
        self.spec = spec
        self.key: int | None = None

    async def begin(self, seat: int, rules: AnyRules, seed: int, seconds: float) -> None:
        self.key = await self.hosts.begin(self.spec, seat, rules, seed, seconds)

    async def act(self, observation: Any, seconds: float) -> object:
        if self.key is None:
            raise HostLost("a reference bot was asked to act in a game it had not begun")
        return await self.hosts.act(self.key, observation, seconds)

    async def end(self, outcome: Outcome, seconds: float) -> None:
        key, self.key = self.key, None
        if key is not None:
            await self.hosts.end(key, outcome, seconds)

    def drop(self) -> None:
        key, self.key = self.key, None
        if key is not None:
            self.hosts.drop(key)
