"""Who plays whom: groups formed, again and again, from the bots connected and free and the
reference bots that run in the server."""

from __future__ import annotations

import asyncio
import collections
import logging
import math
import random
import secrets
import time
from collections.abc import Awaitable, Callable

from tournament.server.groups import Pool, Timing, check_game, play_group
from tournament.server.hosts import HostLost, ServerSeat
from tournament.server.lobby import Lobby
from tournament.server.metrics import Metrics
from tournament.server.store import Store

__all__ = ["CHECK_AGAIN", "WINDOW", "Matchmaker", "opponents"]

CHECK_AGAIN = 60.0
"""Seconds before a bot that failed its check game is checked again."""
WINDOW = 200.0
"""Rating points over which the chance of meeting an opponent falls by a factor of e."""
EXPLORE = 0.05
"""The least weight of any opponent, however far its rating: every pairing stays possible."""


def opponents(
    first: str,
    candidates: list[str],
    ratings: dict[str, float],
    count: int,
    rng: random.Random,
) -> list[str]:
    """``count`` opponents for ``first`` drawn from ``candidates``, each weighted by how near its
    rating is to ``first``'s (``exp(-distance / WINDOW)``, at least ``EXPLORE``). A bot without
    a rating yet (new, or still provisional) is weighted 1 and weights every candidate 1: it
    meets all kinds, so that its rating is found fast."""
    pool = list(candidates)
    chosen: list[str] = []
    own = ratings.get(first)
    while pool and len(chosen) < count:
        weights = [
            1.0
            if own is None or ratings.get(name) is None
            else max(EXPLORE, math.exp(-abs(ratings[name] - own) / WINDOW))
            for name in pool
        ]
        pick = rng.choices(range(len(pool)), weights)[0]
        chosen.append(pool.pop(pick))
    return chosen


LOG = logging.getLogger("thousand.server")


class Matchmaker:
    """Forms groups for each pool: every connected bot with room for another group is seated
    with others drawn at random from the free connected bots and the reference bots. A bot is
    seated only once it has passed its check game (one game against the first reference bot,
    rated nowhere), as ``thousand check-bot`` would check it; one that fails is told its faults
    and checked again a minute later."""

    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        pools: tuple[Pool, ...],
        reference: tuple[str, ...],
        timing: Timing,
        local: Callable[[str], ServerSeat | None],
        ratings: Callable[[Pool], dict[str, float]] = lambda pool: {},
        rerate: Callable[[Pool], Awaitable[object]] | None = None,
        most_groups: dict[str, int] | None = None,
    ) -> None:
        self.store = store
        self.ratings = ratings
        """The latest settled ratings of a pool's bots (provisional ones left out)."""
        self.rerate = rerate
        """Rates a pool's bots again, after each group it finished."""
        self.lobby = lobby
        self.pools = pools
        self.reference = reference
        self.most_groups = most_groups or {}
        """The most groups at once of the reference bots that have a limit (those played by
        workers: more would wait for a worker longer than a bot may think)."""
        self.timing = timing
        self.local = local
        self.groups: collections.Counter[str] = collections.Counter()
        """Groups in progress per connected bot."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.rng = random.Random(secrets.randbits(64))
        self.checked: set[str] = set()
        self.failed: dict[str, float] = {}
        """When each bot last failed its check game."""
        self.checks = 0
        self.metrics = Metrics()

    def timed(self, pool: Pool) -> Timing:
        """How long a connected bot may take in ``pool``: its own limits, else the server's."""
        return self.timing if pool.timing is None else pool.timing

    def free(self) -> list[str]:
        """The connected bots with room for another group, the reference bots left out."""
        return [
            name
            for name in self.lobby.connected()
            if name not in self.reference and self.groups[name] < self.lobby.games_at_once(name)
        ]

    def references(self) -> list[str]:
        """The reference bots that can play another group now."""
        return [
            name
            for name in self.reference
            if name not in self.most_groups or self.groups[name] < self.most_groups[name]
        ]

    async def pair(self) -> int:
        """Start every group and check that can start now: how many."""
        started = 0
        ready = []
        for name in self.free():
            if name in self.checked:
                ready.append(name)
            elif self._due_for_check(name):
                # Checked on another run of the server, or to be checked now (once at a time).
                if await asyncio.to_thread(self.store.is_checked, name):
                    self.checked.add(name)
                    ready.append(name)
                else:
                    self._check(name)
                    started += 1
        for pool in self.pools:
            now_free = set(self.free())
            free = [name for name in ready if name in now_free]
            self.rng.shuffle(free)
            rated = self.ratings(pool)
            while free:
                first = free.pop()
                others = [*free, *self.references()]
                if len(others) < pool.rules.players - 1:
                    break
                chosen = opponents(first, others, rated, pool.rules.players - 1, self.rng)
                free = [name for name in free if name not in chosen]
                bots = [first, *chosen]
                self.rng.shuffle(bots)
                self._start(pool, bots)
                started += 1
        return started

    def _due_for_check(self, name: str) -> bool:
        """Whether a bot not known to be checked may be checked now: it is in no game (its
        check game is not under way) and did not fail a check in the last minute."""
        recently = time.monotonic() - self.failed.get(name, -CHECK_AGAIN) < CHECK_AGAIN
        return self.groups[name] == 0 and not recently

    def _check(self, name: str) -> None:
        self.groups[name] += 1
        self.checks += 1
        task = asyncio.get_running_loop().create_task(self._checking(name, self.checks))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _checking(self, name: str, number: int) -> None:
        try:
            pool, opponent = self.pools[0], self.reference[0]
            outcome = await check_game(
                self.lobby, pool, name, opponent, number, self.timed(pool), self.local, self.metrics
            )
            faults = [str(fault.detail) for fault in outcome.faults if fault.seat == 0]
            if faults:
                self.failed[name] = time.monotonic()
                shown = "; ".join(faults[:3])
                message = (
                    f"the check game found {len(faults)} fault(s): {shown}; the bot is not "
                    f"rated until it passes (checked again in {CHECK_AGAIN:g} s)"
                )
                await self.lobby.tell(name, {"type": "error", "message": message})
            else:
                await asyncio.to_thread(self.store.mark_checked, name)
                self.checked.add(name)
        except Exception:
            self.failed[name] = time.monotonic()
            LOG.exception("the check game of %s could not finish", name)
        finally:
            self.groups[name] -= 1

    def _start(self, pool: Pool, bots: list[str]) -> None:
        for name in bots:
            self.groups[name] += 1
        task = asyncio.get_running_loop().create_task(self._play(pool, bots))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _play(self, pool: Pool, bots: list[str]) -> None:
        try:
            seed = secrets.randbits(63)
            await play_group(
                self.store, self.lobby, pool, bots, seed, self.timed(pool), self.local, self.metrics
            )
            if self.rerate is not None:
                await self.rerate(pool)
        except HostLost as lost:
            LOG.warning("a group of %s is void: %s", ", ".join(bots), lost)
        except Exception:
            LOG.exception("a group of %s could not finish; it is void", ", ".join(bots))
        finally:
            for name in bots:
                self.groups[name] -= 1

    async def run(self, every: float) -> None:
        """Pair bots every ``every`` seconds until cancelled."""
        while True:
            await self.pair()
            await asyncio.sleep(every)

    async def stop(self) -> None:
        """Stop the groups in progress (they are void)."""
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
