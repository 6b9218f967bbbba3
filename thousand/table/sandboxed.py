"""Bots in the sandbox (:mod:`thousand.table.sandbox`): a program, or a Python bot served over
the bot protocol, each match in a process of its own that can reach neither the driver, nor
other bots, nor the user's files, nor the folder of the bots' logs."""

from __future__ import annotations

import errno
import os
import random
import shutil
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from thousand.errors import BotCrash
from thousand.table.botlogs import fresh_log_folder
from thousand.table.external import BotLimits, ExternalPlayer, serve_command
from thousand.table.isolation import raised_message
from thousand.table.sandbox import SandboxOptions, sandboxed

if TYPE_CHECKING:
    from thousand import bluff
    from thousand.rules import Rules

__all__ = ["SandboxedBot", "SandboxedPlayer"]


class SandboxedPlayer(ExternalPlayer):
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

    def start(self, seat: int, rules: Rules | bluff.Rules, rng: random.Random) -> None:
        """Start the program in a sandbox that hides the folder of its logs, and greet it.

        Raises:
            BotCrash: there is no such program (told as when it runs unsandboxed).
        """
        program = self.confined[0]
        if shutil.which(program, path=os.environ.get("PATH", os.defpath)) is None:
            reason = os.strerror(errno.ENOENT if not os.path.lexists(program) else errno.EACCES)
            raise BotCrash(f"could not start {program}: {reason}", fatal=True)
        if self.log_dir is None:
            self.log_dir = fresh_log_folder()
        hiding = self.options.hiding(self.log_dir)
        self.command = sandboxed(self.confined, hiding, cwd=self.start_in)
        super().start(seat, rules, rng)


class SandboxedBot(SandboxedPlayer):
    """A Python bot run in a sandbox for each match, served over the bot protocol
    (``python -m thousand.table.serve``); named by its spec, its errors told as its own.

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
        super().__init__(serve_command(served), options, name=spec, log_dir=log_dir, limits=limits)
        self.spec = spec

    def _reported(self, reply: dict[str, Any]) -> str:
        """The exception the bot raised, as a fault shows it when the bot runs in-process."""
        return raised_message(reply)
