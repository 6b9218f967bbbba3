"""The logs of bots in processes of their own: what each writes on its standard error, kept in
the folder of a run, with a cap on what each bot keeps there in all.

A bot's output in seat ``N`` is appended to ``<bot>-seat<N>.log`` in the folder, each match
after a header line. The cap counts every byte of a bot's files in the folder (headers included),
over all its matches and seats, and over every process that plays them: the worker processes of
a tournament write into the same files, and a lock on the folder makes reading the bot's total
and writing one step, so that the cap holds across them all. Past the cap the rest is dropped,
after a line saying so. On a Ray cluster each machine has its own folder, and its own cap.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from pathlib import Path

from thousand.common.files import append_to, make_folder

__all__ = ["LOGS", "BotLog", "fresh_log_folder", "log_folder"]

LOGS = "logs"
"""The folder of bot logs in the folder a run is kept in (a tournament's ``--out``)."""
SEATS = 6
"""The most seats a table of either game has (1000? at six): a bot has at most this many files."""
PREFIX = "thousand-bots-"
"""How the name of a fresh folder of bot logs begins (in the temporary directory)."""


def fresh_log_folder() -> Path:
    """A new empty folder for a run's bot logs in the temporary directory, its own and readable
    by this user only."""
    return Path(tempfile.mkdtemp(prefix=PREFIX))


def log_folder(chosen: str | None, kept: Path | None = None) -> Path:
    """Where a run's bot logs go: the folder ``chosen`` (a link there is followed: the person
    who chose it named it), else ``logs`` in the folder the run is kept in, else a fresh folder
    in the temporary directory."""
    if chosen:
        return Path(chosen).resolve()
    if kept is not None:
        return kept / LOGS
    return fresh_log_folder()


class BotLog:
    """One bot's log file for one match, appending under the bot's cap for the folder.

    Args:
        folder: the run's folder of bot logs (made if missing).
        slug: the bot's name as file names give it.
        seat: the bot's seat in the match.
        cap: bytes the bot's files in ``folder`` may hold in all.
        name: how the line that says the log was cut names the bot.
    """

    def __init__(self, folder: Path, slug: str, seat: int, cap: int, name: str) -> None:
        make_folder(folder)
        self.path = folder / _file_name(slug, seat)
        self.cap = cap
        self.name = name
        self._names = [_file_name(slug, number) for number in range(SEATS)]
        self._file = append_to(self.path)
        try:
            self._folder = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            self._file.close()
            raise
        self._full = False

    def write(self, data: bytes) -> None:
        """Append ``data``, or as much of it as the cap leaves room for, then the line that says
        the rest is cut; once the cap is reached nothing more is written."""
        if self._full or self._file.closed:
            return
        fcntl.flock(self._folder, fcntl.LOCK_EX)
        try:
            room = self.cap - self._used()
            if room >= 0:
                self._file.write(data[:room])
                if len(data) > room:
                    self._file.write(self._cut_line().encode())
            self._full = len(data) > room
            self._file.flush()
        finally:
            fcntl.flock(self._folder, fcntl.LOCK_UN)

    def names(self, folder: Path, slug: str, seat: int) -> bool:
        """Whether this open log is the one of ``slug`` in ``seat`` in ``folder``."""
        return not self._file.closed and self.path == folder / _file_name(slug, seat)

    def close(self) -> None:
        """Close the file; safe to call more than once."""
        if not self._file.closed:
            self._file.close()
            os.close(self._folder)

    def _used(self) -> int:
        """Bytes the bot's files in the folder hold now, whichever process wrote them."""
        used = 0
        for name in self._names:
            with contextlib.suppress(FileNotFoundError):
                used += os.stat(name, dir_fd=self._folder, follow_symlinks=False).st_size
        return used

    def _cut_line(self) -> str:
        return (
            f"\n--- cut: over {self.cap} bytes in this folder's logs of {self.name}; "
            "the rest of its output is dropped\n"
        )


def _file_name(slug: str, seat: int) -> str:
    """The name of the log of the bot ``slug`` in ``seat``."""
    return f"{slug}-seat{seat}.log"
