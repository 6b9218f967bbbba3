"""Bots in the sandbox (:mod:`thousand.table.sandbox`): a program, or a Python bot served over
the bot protocol, in processes of their own (kept between matches of other cards) that can reach
neither the driver, nor other bots, nor the user's files, nor the folder of the bots' logs."""

from __future__ import annotations

import errno
import functools
import os
import random
import shutil
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from thousand.errors import BotCrash
from thousand.table.botlogs import fresh_log_folder
from thousand.table.external import BotLimits, BotProcess, ExternalPlayer, serve_command
from thousand.table.isolation import Forked, IsolatedPlayer
from thousand.table.sandbox import SandboxOptions, sandboxed, walls

if TYPE_CHECKING:
    from thousand import bluff
    from thousand.classic.rules import Rules

__all__ = ["SandboxedBot", "SandboxedPlayer"]


class _Walled(ExternalPlayer):
    """What sandboxed players share: a folder for their logs from the start, which the
    sandbox hides; and nothing of their processes to note, since whatever a bot starts lives
    in its sandbox's process namespace, and dies with it; so it needs no helper to kill it should
    the driver die (its sandbox dies with the driver)."""

    watched = False

    def start(self, seat: int, rules: Rules | bluff.Rules, rng: random.Random) -> None:
        """Greet the bot, in a process started for it when no kept process may play the match."""
        if self.log_dir is None:
            self.log_dir = fresh_log_folder()
        super().start(seat, rules, rng)

    def _note_descendants(self, process: BotProcess) -> None:
        """Nothing to note (see the class)."""


class SandboxedPlayer(_Walled):
    """A program run in a sandbox for each match, spoken to over the bot protocol (a
    :class:`~thousand.Player`).

    Args:
        command: the program and its arguments, started in the current folder when the
            sandbox shows it (else at ``/``).
        options: what the sandbox lets it reach; the folder of its logs is hidden from it.
        name, log_dir, limits: as for :class:`~thousand.ExternalPlayer`.
    """

    def __init__(
        self,
        command: Sequence[str],
        options: SandboxOptions,
        *,
        name: str | None = None,
        log_dir: str | None = None,
        limits: BotLimits | None = None,
    ) -> None:
        super().__init__(command, name=name, log_dir=log_dir, limits=limits)
        self.confined = list(command)
        self.options = options
        self.start_in = os.getcwd()

    def _launch(self) -> BotProcess:
        """Start the program in a sandbox that hides the folder of its logs."""
        program = self.confined[0]
        if shutil.which(program, path=os.environ.get("PATH", os.defpath)) is None:
            reason = os.strerror(errno.ENOENT if not os.path.lexists(program) else errno.EACCES)
            raise BotCrash(f"could not start {program}: {reason}", fatal=True)
        self.command = self._sandboxed()
        return super()._launch()

    def _sandboxed(self) -> list[str]:
        """The command line that runs the program in a sandbox hiding the folder of its logs."""
        assert self.log_dir is not None
        return sandboxed(self.confined, self.options.hiding(self.log_dir), cwd=self.start_in)

    def _key(self) -> Hashable:
        """What makes two processes of this program interchangeable: their sandboxes too (a
        folder of logs that the sandbox would not show anyway makes no difference)."""
        return (type(self), tuple(self._sandboxed()), self.cwd, self.limits.memory)


class SandboxedBot(_Walled, IsolatedPlayer):
    """A Python bot run in a sandbox, a process of its own for each match that no kept process
    may play, served over the bot protocol; named by its spec, its errors told as its own.

    Its processes are forked by a loader that has imported the library once (never the bot):
    each walls itself in before it loads the bot, so the bot's code runs in the sandbox only.

    Args:
        spec: the bot spec, as for :func:`thousand.load_player`.
        served: the same spec loadable from any folder (a bot file's path made absolute).
        options: what the sandbox lets it reach (its file's folder included).
        log_dir, limits: as for :class:`~thousand.ExternalPlayer`.
    """

    def __init__(
        self,
        spec: str,
        served: str,
        options: SandboxOptions,
        *,
        log_dir: str | None = None,
        limits: BotLimits | None = None,
    ) -> None:
        super().__init__(spec, log_dir=log_dir, limits=limits)
        self.served = served
        self.options = options
        self.start_in = os.getcwd()

    def _walls(self) -> str:
        """The sandbox of the bot's processes, which hides the folder of its logs."""
        assert self.log_dir is not None
        return _walls_of(self.served, self.options, str(self.log_dir), self.start_in)

    def _key(self) -> Hashable:
        """What makes two processes of this bot interchangeable: their sandboxes too."""
        return (type(self), self.served, self._walls(), self.limits.memory)

    def _launch(self) -> Forked:
        """Fork a walled-in process for the bot; a loader found gone is started again once."""
        return self._spawn(self.served, self._walls())


@functools.lru_cache(maxsize=64)
def _walls_of(served: str, options: SandboxOptions, log_dir: str, start_in: str) -> str:
    """The sandbox of a bot's processes (found once for a run's matches, which share it)."""
    return walls(serve_command(served), options.hiding(log_dir), cwd=start_in)
