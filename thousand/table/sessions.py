"""Bot processes kept between matches: a program that plays sessions (protocol 2) is not
stopped after a match but kept idle here, for a later match of the same bot in this process.

Starting a process for every match costs more than a single deal between quick bots, so a kept
process is given the next match of the same command, working directory and memory cap, with
three rules that keep it fair: it is only given a match of cards it has never played (the same
cards under another seating get another process, so that nothing learnt of them carries over),
it plays one seat at a time, and it is stopped after :data:`MATCHES_PER_PROCESS` matches, which
bounds what it and the driver remember.

The processes belong to the process that started them: a forked copy of the driver (a worker)
forgets its parent's, without touching them. They are stopped by :func:`stop_sessions` and when
the driver exits; like every bot's process they die with the driver if it is killed.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections.abc import Hashable
from typing import Protocol

__all__ = ["MATCHES_PER_PROCESS", "MOST_IDLE", "keep", "stop_sessions", "take"]

MATCHES_PER_PROCESS = 500
"""Matches a process plays before it is stopped, which bounds the cards the driver remembers it
has played, and anything the bot's own memory gathers or leaks."""
MOST_IDLE = 32
"""Idle processes kept per bot: enough for every seating of one set of cards at a table of six
(thirty), each of which needs a process of its own."""
STOP_GRACE = 1.0
"""Seconds the idle processes are given, together, to exit by themselves once told to stop."""


class Kept(Protocol):
    """A bot's idle process as the driver holds it (an :class:`~thousand.ExternalPlayer`)."""

    def usable_for(self, deal: frozenset[Hashable]) -> bool:
        """Whether it may play a match of these cards."""

    def sound(self) -> bool:
        """Whether it still runs and is silent, as an idle process should be."""

    def drain(self) -> None:
        """Move what it wrote on its error output to its log."""

    def hang_up(self) -> None:
        """Close its input, which tells it to exit."""

    def close(self, grace: float = ...) -> None:
        """Stop it, and everything it started."""

    def forget(self) -> None:
        """Let go of it without stopping it (it is another process's)."""


_IDLE: dict[Hashable, list[Kept]] = {}
_OWNER = [os.getpid()]
_LOCK = threading.Lock()
_REGISTERED = [False]


def take(key: Hashable, deal: frozenset[Hashable]) -> Kept | None:
    """An idle process of the bot ``key`` that may play a match of the cards ``deal`` (it is
    no longer idle then), or ``None``: the match needs a new process. The process kept last is
    offered first: its memory is the likeliest to be still in the processor's caches. Idle
    processes found gone are stopped."""
    broken: list[Kept] = []
    found: Kept | None = None
    with _LOCK:
        _own()
        idle = _IDLE.get(key, [])
        for kept in reversed(list(idle)):
            kept.drain()
            if not kept.sound():
                idle.remove(kept)
                broken.append(kept)
            elif kept.usable_for(deal):
                idle.remove(kept)
                found = kept
                break
    for kept in broken:
        kept.close()
    return found


def keep(key: Hashable, kept: Kept, matches: int) -> None:
    """Keep the bot ``key``'s process, which has played ``matches`` matches, for a later match;
    or stop it, when it has played its share or enough of the bot's processes are idle."""
    with _LOCK:
        _own()
        idle = _IDLE.setdefault(key, [])
        if matches < MATCHES_PER_PROCESS and len(idle) < MOST_IDLE:
            idle.append(kept)
            if not _REGISTERED[0]:
                _REGISTERED[0] = True
                atexit.register(stop_sessions)
            return
    kept.close()


def stop_sessions() -> None:
    """Stop every idle bot process this process keeps, giving them together a second to exit by
    themselves (they are told to by the end of their input)."""
    with _LOCK:
        _own()
        idle = [kept for processes in _IDLE.values() for kept in processes]
        _IDLE.clear()
    deadline = time.monotonic() + STOP_GRACE
    for kept in idle:
        kept.hang_up()
    for kept in idle:
        kept.close(grace=max(0.0, deadline - time.monotonic()))


def _own() -> None:
    """In a forked copy of the driver, forget the processes of the parent (called locked)."""
    if _OWNER[0] != os.getpid():
        for processes in _IDLE.values():
            for kept in processes:
                kept.forget()
        _IDLE.clear()
        _OWNER[0] = os.getpid()
