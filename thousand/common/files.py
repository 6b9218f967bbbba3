"""Writing files without following a link planted in their place.

Every file the project writes goes through here. A file written whole goes to a temporary name
beside it, ``<name>.partial``, created afresh (any file or link already there is removed first,
never opened), and is then renamed over its name: a symbolic or hard link found at the name is
replaced, never written through, and a reader never sees half a file. A file appended to (a
tournament's journal, a bot's log) is opened only if it is a regular file with no other name;
anything else there is refused with an :class:`UnsafeFileError`.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from pathlib import Path
from typing import BinaryIO

__all__ = ["PARTIAL", "UnsafeFileError", "append_to", "make_folder", "write_file"]

PARTIAL = ".partial"
"""The suffix of the temporary a file is written to before it takes its name."""

_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK


class UnsafeFileError(OSError):
    """A file or folder that is not what it should be (a symbolic link, a hard link, a device),
    so that writing there would write somewhere else."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        super().__init__(errno.EPERM, f"{what}; thousand does not write through it", str(path))

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def write_file(path: str | os.PathLike[str], data: str | bytes, *, durable: bool = False) -> None:
    """Write ``data`` (text as UTF-8) as the whole file ``path``, through ``<path>.partial``;
    ``durable`` flushes it to the disk before it takes its name."""
    target = Path(path)
    partial = target.with_name(target.name + PARTIAL)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(partial)
    try:
        descriptor = os.open(partial, _NEW, 0o666)
    except FileExistsError:
        raise UnsafeFileError(partial, "something was put there while it was written") from None
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data.encode() if isinstance(data, str) else data)
            if durable:
                file.flush()
                os.fsync(file.fileno())
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def append_to(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for appending (created when missing): only a regular file
    with no other name (no symbolic or hard link, no device or pipe) is opened.

    Raises:
        UnsafeFileError: anything else is there.
    """
    try:
        descriptor = os.open(path, _APPEND, 0o666)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENXIO):
            raise UnsafeFileError(path, _kind(path)) from None
        raise
    found = os.fstat(descriptor)
    if not stat.S_ISREG(found.st_mode) or found.st_nlink != 1:
        os.close(descriptor)
        raise UnsafeFileError(path, _kind(path))
    fcntl.fcntl(descriptor, fcntl.F_SETFL, os.O_WRONLY | os.O_APPEND)
    return os.fdopen(descriptor, "ab")


def make_folder(path: str | os.PathLike[str]) -> Path:
    """The folder ``path``, made if missing (its parents too); a link or a file there is
    refused with :class:`UnsafeFileError`."""
    folder = Path(path)
    with contextlib.suppress(FileExistsError):
        folder.mkdir(parents=True, exist_ok=True)
    if not stat.S_ISDIR(folder.lstat().st_mode):
        raise UnsafeFileError(folder, _kind(folder))
    return folder


def _kind(path: str | os.PathLike[str]) -> str:
    """What is at ``path``, in the words of an error."""
    try:
        found = os.lstat(path)
    except OSError:
        return "it changed while it was opened"
    if stat.S_ISLNK(found.st_mode):
        return "it is a symbolic link"
    if stat.S_ISREG(found.st_mode) and found.st_nlink != 1:
        return "it is a hard link to a file with another name"
    if stat.S_ISDIR(found.st_mode):
        return "it is a folder"
    return "it is not a regular file"
