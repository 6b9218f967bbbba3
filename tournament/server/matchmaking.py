"""Who plays whom: groups formed, again and again, from the bots connected and free and the
reference bots that run in the server."""

from __future__ import annotations

import asyncio
import collections
import logging
import random
import secrets
from collections.abc import Callable

from tournament.server.groups import Pool, Timing, play_group
from tournament.server.lobby import Lobby
from tournament.server.store import Store

__all__ = ["Matchmaker"]

LOG = logging.getLogger("thousand.server")


class Matchmaker:
    """Forms groups for each pool: every connected bot with room for another group is seated
    with others drawn at random from the free connected bots and the reference bots."""

    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        pools: tuple[Pool, ...],
        reference: tuple[str, ...],
        timing: Timing,
        local: Callable[[str], object | None],
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.pools = pools
        self.reference = reference
        self.timing = timing
        self.local = local
        self.groups: collections.Counter[str] = collections.Counter()
        """Groups in progress per connected bot."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.rng = random.Random(secrets.randbits(64))

    def free(self) -> list[str]:
        """The connected bots with room for another group."""
        return [
            name
            for name in self.lobby.connected()
            if name not in self.reference and self.groups[name] < self.lobby.games_at_once(name)
        ]

    def pair(self) -> int:
        """Start every group that can start now: how many."""
        started = 0
        for pool in self.pools:
            free = self.free()
            self.rng.shuffle(free)
            while free:
                first = free.pop()
                others = [*free, *self.reference]
                if len(others) < pool.rules.players - 1:
                    break
                chosen = self.rng.sample(others, pool.rules.players - 1)
                free = [name for name in free if name not in chosen]
                bots = [first, *chosen]
                self.rng.shuffle(bots)
                self._start(pool, bots)
                started += 1
        return started

    def _start(self, pool: Pool, bots: list[str]) -> None:
        for name in bots:
            self.groups[name] += 1
        task = asyncio.get_running_loop().create_task(self._play(pool, bots))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _play(self, pool: Pool, bots: list[str]) -> None:
        try:
            seed = secrets.randbits(63)
            await play_group(self.store, self.lobby, pool, bots, seed, self.timing, self.local)
        except Exception:
            LOG.exception("a group of %s could not finish; it is void", ", ".join(bots))
        finally:
            for name in bots:
                self.groups[name] -= 1

    async def run(self, every: float) -> None:
        """Pair bots every ``every`` seconds until cancelled."""
        while True:
            self.pair()
            await asyncio.sleep(every)

    async def stop(self) -> None:
        """Stop the groups in progress (they are void)."""
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
