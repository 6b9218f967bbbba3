"""The tournament directory: the configuration, and an append-only journal of finished units that
survives the process being killed at any moment.

Each finished unit is one line of JSON, written whole and flushed to disk (``fsync``) before the
unit counts as done. A line cut short by a crash is detected on resume, cut off, and its unit
played again; nothing is silently lost.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tournament.results import UnitResult
from tournament.schedule import Config

__all__ = ["CONFIG", "JOURNAL", "Journal", "TournamentDirError"]

CONFIG = "config.json"
JOURNAL = "journal.jsonl"
RECORDS = "records"


class TournamentDirError(ValueError):
    """A tournament directory that cannot be started or resumed, with the reason."""


class Journal:
    """A tournament directory opened for writing."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / JOURNAL
        self._file = self.path.open("ab")
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._file.close()
            raise TournamentDirError(
                f"another run is playing the tournament in {directory} right now"
            ) from None

    @classmethod
    def create(cls, directory: Path, config: Config, keep_records: bool = False) -> Journal:
        """Start a new tournament in ``directory`` (which must not hold one already); with
        ``keep_records`` the ``records`` folder is made, and a resume keeps records too."""
        if directory.exists() and not directory.is_dir():
            raise TournamentDirError(f"{directory} is a file, not a folder for the tournament")
        if (directory / CONFIG).exists():
            raise TournamentDirError(
                f"{directory} already holds a tournament; continue it with --resume {directory} "
                "or choose another --out"
            )
        directory.mkdir(parents=True, exist_ok=True)
        if keep_records:
            (directory / RECORDS).mkdir(exist_ok=True)
        _write_durably(directory / CONFIG, json.dumps(config.to_dict(), indent=2) + "\n")
        return cls(directory)

    @staticmethod
    def keeps_records(directory: Path) -> bool:
        """Whether the tournament in ``directory`` was started keeping match records."""
        return (directory / RECORDS).is_dir()

    @staticmethod
    def saved_config(directory: Path) -> Config:
        """The configuration of the tournament kept in ``directory``."""
        path = directory / CONFIG
        if not path.is_file():
            raise TournamentDirError(f"{directory} holds no tournament (no {CONFIG})")
        try:
            return Config.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, KeyError, TypeError) as error:
            raise TournamentDirError(f"{path} cannot be read: {error}") from None

    @staticmethod
    def finished(directory: Path) -> dict[str, UnitResult]:
        """The units the journal holds, by name; a last line cut short is removed from the file
        so that its unit is played again."""
        path = directory / JOURNAL
        if not path.exists():
            return {}
        data = path.read_bytes()
        good = data.rfind(b"\n") + 1
        results: dict[str, UnitResult] = {}
        for number, line in enumerate(data[:good].splitlines(), start=1):
            try:
                result = UnitResult.from_dict(json.loads(line))
            except (ValueError, KeyError, TypeError) as error:
                raise TournamentDirError(f"{path}, line {number}, is damaged: {error}") from None
            results[result.unit] = result
        if good < len(data):
            with path.open("r+b") as file:
                file.truncate(good)
                file.flush()
                os.fsync(file.fileno())
        return results

    def append(self, results: Iterable[tuple[UnitResult, str | None]]) -> None:
        """Write finished units (and their records, when kept) durably."""
        lines = []
        for result, record in results:
            if record is not None:
                folder = self.directory / RECORDS
                folder.mkdir(exist_ok=True)
                _write_durably(folder / f"{result.unit}.json", record)
            lines.append(json.dumps(result.to_dict(), separators=(",", ":")) + "\n")
        self._file.write("".join(lines).encode())
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the journal file."""
        self._file.close()


def write_text(path: Path, text: str) -> None:
    """Write an output file durably."""
    _write_durably(path, text)


def _write_durably(path: Path, text: str) -> None:
    """Write a whole file through a temporary name, so that it is never seen half written."""
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(partial, path)


def read_json(path: Path) -> Any:
    """A JSON file's content."""
    return json.loads(path.read_text(encoding="utf-8"))
