"""The tournament directory: the configuration, and an append-only journal of finished units that
survives the process being killed at any moment.

Each finished unit is one line of JSON, written whole and flushed to disk (``fsync``) before the
unit counts as done. A line cut short by a crash is detected on resume, cut off, and its unit
played again; nothing is silently lost.

Each line also carries a check: a hash of the line, the previous line's check and, through the
first line, the configuration. A line edited, damaged, repeated or moved, or a configuration
changed after lines were written, no longer matches, and the tournament is not resumed. As
anyone can compute the checks again, every field of the configuration and of each line is
also checked (:mod:`tournament.runner.verify`): a unit the schedule does not hold, or one no
play could leave, is refused the same way.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from thousand.common.config import decode_json
from thousand.common.files import PARTIAL, append_to, make_folder, write_file
from thousand.table.sandbox import Isolation
from tournament.runner.schedule import Config
from tournament.runner.unit_results import UnitResult
from tournament.runner.verify import UnitCheck, config_from_dict

__all__ = ["CONFIG", "JOURNAL", "Journal", "TournamentDirError", "read_results"]

CONFIG = "config.json"
JOURNAL = "journal.jsonl"
RECORDS = "records"
CHECK = "check"
"""The field of a journal line holding its check."""
LEGACY_ISOLATION = {Isolation.SANDBOX: True, Isolation.NONE: False}
"""How the configuration's check reads the isolations that were once written as flags."""


class TournamentDirError(ValueError):
    """A tournament directory that cannot be started or resumed, with the reason."""


class Journal:
    """A tournament directory opened for writing the tournament of ``config``: the
    :class:`~tournament.runner.store.ResultStore` of a tournament kept in a folder."""

    def __init__(self, directory: Path, config: Config) -> None:
        self.directory = directory
        self.path = directory / JOURNAL
        self.config = config
        self._check = _first_check(config)
        self._file = append_to(self.path)
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
            make_folder(directory / RECORDS)
        _write_durably(directory / CONFIG, json.dumps(config.to_dict(), indent=2) + "\n")
        return cls(directory, config)

    @staticmethod
    def keeps_records(directory: Path) -> bool:
        """Whether the tournament in ``directory`` was started keeping match records."""
        return (directory / RECORDS).is_dir()

    @staticmethod
    def saved_config(directory: Path) -> Config:
        """The configuration of the tournament kept in ``directory``; one whose saving a kill
        interrupted is saved now if it was written whole, as no unit was played yet."""
        path = directory / CONFIG
        partial = path.with_name(CONFIG + PARTIAL)
        if path.is_file():
            try:
                return config_from_dict(read_json(path))
            except ValueError as error:
                raise TournamentDirError(f"{path} cannot be read: {error}") from None
        if not directory.is_dir():
            raise TournamentDirError(f"{directory}: no such folder")
        if not partial.is_file():
            raise TournamentDirError(f"{directory} holds no tournament (no {CONFIG})")
        try:
            config = config_from_dict(read_json(partial))
        except ValueError:
            raise TournamentDirError(
                f"{directory} holds a tournament stopped before it began; start it again "
                f"with the options it was started with and --out {directory}"
            ) from None
        os.replace(partial, path)
        return config

    def read_config(self) -> Config:
        """The configuration the tournament was started with."""
        return self.config

    def read_units(self) -> dict[str, UnitResult]:
        """The units the journal holds, by name, each line checked against the configuration and
        the lines before it; a last line cut short is removed from the file so that its unit is
        played again."""
        data = self.path.read_bytes()
        good = data.rfind(b"\n") + 1
        results, self._check = _resumable(self.path, data[:good], self.config)
        if good < len(data):
            os.ftruncate(self._file.fileno(), good)
            os.fsync(self._file.fileno())
        return results

    def append(self, results: Iterable[tuple[UnitResult, str | None]]) -> None:
        """Write finished units (and their records, when kept) durably."""
        lines = []
        for result, record in results:
            if record is not None:
                folder = make_folder(self.directory / RECORDS)
                _write_durably(folder / f"{result.unit}.json", record)
            fields = result.to_dict()
            self._check = _next_check(self._check, fields)
            fields[CHECK] = self._check
            lines.append(json.dumps(fields, separators=(",", ":")) + "\n")
        self._file.write("".join(lines).encode())
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the journal file."""
        self._file.close()


def check_resumable(directory: Path) -> None:
    """Refuse the tournament kept in ``directory`` if its configuration or a whole line of its
    journal cannot be verified, touching nothing: a resume checks this before any bot starts."""
    path = directory / JOURNAL
    data = path.read_bytes() if path.is_file() else b""
    _resumable(path, data[: data.rfind(b"\n") + 1], Journal.saved_config(directory))


def _resumable(path: Path, data: bytes, config: Config) -> tuple[dict[str, UnitResult], str]:
    """:func:`_checked_lines`, its refusal saying that the tournament cannot be resumed."""
    try:
        return _checked_lines(path, data, config)
    except TournamentDirError as error:
        raise TournamentDirError(
            f"{error}; the tournament cannot be resumed: play it again in a new folder"
        ) from None


def read_results(directory: Path, config: Config) -> dict[str, UnitResult]:
    """The units the journal in ``directory`` holds, by name, each line checked as on resume,
    read without touching the file: the tournament may still be running, and a last line cut
    short (being written, or left by a crash) is left out."""
    path = directory / JOURNAL
    data = path.read_bytes() if path.is_file() else b""
    return _checked_lines(path, data[: data.rfind(b"\n") + 1], config)[0]


def _checked_lines(path: Path, data: bytes, config: Config) -> tuple[dict[str, UnitResult], str]:
    """The units of whole journal lines, each checked against the configuration, its schedule
    and the lines before it, and the check of the last line."""
    results: dict[str, UnitResult] = {}
    check = _first_check(config)
    units = UnitCheck(config)
    for number, line in enumerate(data.splitlines(), start=1):
        try:
            fields = decode_json(line)
            line_check = fields.pop(CHECK, None) if isinstance(fields, dict) else None
            if not isinstance(line_check, str):
                raise ValueError(f"field {CHECK!r} is missing")
        except ValueError as error:
            raise _damaged(path, number, str(error)) from None
        if line_check != _next_check(check, fields):
            raise _damaged(
                path, number, f"it does not follow from {CONFIG} and the lines before it"
            )
        try:
            result = units.result(fields)
        except ValueError as error:
            raise _damaged(path, number, str(error)) from None
        check = line_check
        results[result.unit] = result
    return results, check


def _damaged(path: Path, number: int, reason: str) -> TournamentDirError:
    return TournamentDirError(f"{path}, line {number}, is damaged or was changed ({reason})")


def _first_check(config: Config) -> str:
    """The check the first journal line follows from: the configuration's, written as before
    isolation had three kinds and a sandbox (its default kinds as ``true`` and ``false``, the
    sandbox's defaults left out), so that the journals kept then still follow from it."""
    data = config.to_dict()
    data["isolate"] = LEGACY_ISOLATION.get(config.isolate, data["isolate"])
    for key, default in (("bot_network", False), ("bot_readable", [])):
        if data[key] == default:
            del data[key]
    text = json.dumps(data, sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=16, person=b"thousand-config").hexdigest()


def _next_check(previous: str, fields: dict[str, Any]) -> str:
    """The check of a journal line: its fields, chained to the check before it."""
    text = previous + json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16, person=b"thousand-journal").hexdigest()


def write_text(path: Path, text: str) -> None:
    """Write an output file durably."""
    _write_durably(path, text)


def _write_durably(path: Path, text: str) -> None:
    """Write a whole file through a temporary name, so that it is never seen half written (nor
    written through a link put in its place)."""
    write_file(path, text, durable=True)


def read_json(path: Path) -> Any:
    """A JSON file's content; ``ValueError`` saying why it has none (see
    :func:`~thousand.common.config.decode_json`)."""
    return decode_json(path.read_bytes())
