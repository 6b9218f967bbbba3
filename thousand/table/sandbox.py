"""The sandbox of bots that are not built in: Linux namespaces that wall a bot's process in.

A sandboxed bot runs as an unprivileged user in namespaces of its own (:mod:`thousand.table.confine`
builds them): it sees only its own processes, an empty private ``/tmp``, and, read-only, the
system's programs and libraries, the Python interpreter and the packages the driver imports, and
its own folder; no network (unless allowed), nothing of the user's home or of the tournament's
folders. Everything it starts dies with it. The process that runs the matches is made
undumpable, so that even a bot that got out could not read its memory.

    >>> options = SandboxOptions(readable=("/srv/bots",))
    >>> command = sandboxed(["/srv/bots/mybot", "--level", "3"], options)
    >>> command[-4:]
    ['--', '/srv/bots/mybot', '--level', '3']
"""

from __future__ import annotations

import enum
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import attrs

from thousand.errors import ThousandError

__all__ = [
    "Isolation",
    "SandboxOptions",
    "SandboxUnavailable",
    "python_paths",
    "require_sandbox",
    "sandbox_problem",
    "sandboxed",
    "walls",
]

CONFINE = str(Path(__file__).with_name("confine.py"))
"""The launcher that builds a sandbox and runs a command in it."""

PROBE_SECONDS = 10.0
"""How long the check that sandboxes work here may take."""


class Isolation(enum.Enum):
    """How a bot that is not built in is kept from the driver's state and from other bots."""

    SANDBOX = "sandbox"
    """A process of its own in Linux namespaces: it can reach neither the driver nor other bots
    nor the user's files (the default wherever bots are isolated)."""
    PROCESS = "process"
    """A process of its own per match, with the user's rights: it cannot reach the driver's
    objects, but a hostile bot can read what the user can read, and signal the user's
    processes."""
    NONE = "none"
    """In the driver's process: a Python bot can reach everything, hidden cards included."""

    @classmethod
    def of(cls, value: Isolation | bool | str) -> Isolation:
        """The isolation a value names: ``True`` is the sandbox, ``False`` none.

        Raises:
            ValueError: a text that names none.
        """
        if isinstance(value, Isolation):
            return value
        if isinstance(value, bool):
            return cls.SANDBOX if value else cls.NONE
        try:
            return cls(value)
        except ValueError:
            names = ", ".join(each.value for each in cls)
            raise ValueError(f"isolation {value!r} is not one of {names}") from None


class SandboxUnavailable(ThousandError):
    """Sandboxes cannot be made on this system; the message says why and what to choose."""


def _paths(paths: Sequence[str | os.PathLike[str]]) -> tuple[str, ...]:
    """Paths as absolute texts."""
    return tuple(os.path.abspath(path) for path in paths)


@attrs.frozen
class SandboxOptions:
    """What a sandboxed bot may reach beyond the system, the interpreter and its own folder.

    Attributes:
        readable: more files and folders it may read (a model's folder, say).
        hidden: files and folders it must not see even where a readable folder holds them: a
            tournament's folder, the folder of the bots' logs.
        network: whether it may use the network (a bot that asks a service); off by default.
    """

    readable: tuple[str, ...] = attrs.field(default=(), converter=_paths)
    hidden: tuple[str, ...] = attrs.field(default=(), converter=_paths)
    network: bool = False

    def hiding(self, *paths: str | os.PathLike[str] | None) -> SandboxOptions:
        """These options, with ``paths`` hidden too."""
        more = [path for path in paths if path is not None]
        return attrs.evolve(self, hidden=[*self.hidden, *more])


def sandboxed(
    command: Sequence[str], options: SandboxOptions, *, cwd: str | None = None
) -> list[str]:
    """The command line that runs ``command`` in a sandbox made by ``options``; ``cwd`` is
    where it starts, when the sandbox shows it (else at ``/``). The files the command names
    (the program, a script) and the folders that hold them are readable. This process, which
    is to run the command, is made undumpable first."""
    _protect_driver()
    return list(_sandboxed(tuple(command), options, os.path.abspath(cwd or os.getcwd())))


@functools.lru_cache(maxsize=256)
def _sandboxed(command: tuple[str, ...], options: SandboxOptions, start: str) -> tuple[str, ...]:
    """:func:`sandboxed`, once for each command, sandbox and folder (a bot is started again and
    again in a tournament)."""
    return (sys.executable, "-I", "-S", CONFINE, _walls(command, options, start), "--", *command)


def walls(command: Sequence[str], options: SandboxOptions, *, cwd: str | None = None) -> str:
    """The sandbox that runs ``command`` as :func:`sandboxed` makes it, for :mod:`confine`
    (its CONFIG): what it shows and hides, its network, where the command starts. This process
    is made undumpable first."""
    _protect_driver()
    return _walls(tuple(command), options, os.path.abspath(cwd or os.getcwd()))


@functools.lru_cache(maxsize=256)
def _walls(command: tuple[str, ...], options: SandboxOptions, start: str) -> str:
    shown = _shown(command, options.readable, start)
    config = {
        "readable": shown,
        "hidden": sorted(path for path in _with_real_paths(options.hidden) if _inside(path, shown)),
        "network": options.network,
        "cwd": start,
    }
    return json.dumps(config)


@functools.lru_cache(maxsize=256)
def _shown(command: tuple[str, ...], readable: tuple[str, ...], start: str) -> list[str]:
    """What a sandbox running ``command`` shows: the interpreter and the paths it imports
    from, ``readable``, and the files the command names, each as given and as its links lead
    (found once: a run's matches hide a new folder of logs each, but show the same). Never the
    root, nor the temporary folder itself, which each sandbox has of its own: a file directly
    in it is shown alone."""
    paths = [*python_paths(), *readable, *_named_files(command, start)]
    temporary = {"/tmp", tempfile.gettempdir()}
    return sorted(_with_real_paths(paths) - {"/", *_with_real_paths(sorted(temporary))})


@functools.cache
def python_paths() -> tuple[str, ...]:
    """What a Python bot needs to read: the interpreter, its standard library and every folder
    this process imports from (the user's home left out: only its folders that are on the
    path)."""
    import thousand

    home = os.path.expanduser("~")
    paths = {
        sys.prefix,
        sys.exec_prefix,
        sys.base_prefix,
        sys.base_exec_prefix,
        os.path.dirname(os.path.realpath(sys.executable)),
        os.path.dirname(os.path.abspath(thousand.__file__)),
    }
    paths.update(entry for entry in sys.path if entry and os.path.exists(entry))
    return tuple(sorted(path for path in paths if os.path.abspath(path) not in ("/", home)))


def _named_files(command: Sequence[str], cwd: str) -> list[str]:
    """The files a command line names that exist (its program found on the ``PATH``, the file
    of a bot spec ``file.py:Class``), with the folder of each: a script and the modules beside
    it."""
    found: list[str] = []
    program = shutil.which(command[0]) if command else None
    for index, word in enumerate(command):
        path = program if index == 0 and program else os.path.join(cwd, word)
        if ":" in word and not os.path.exists(path):  # a bot spec, file.py:Class
            path = os.path.join(cwd, word.partition(":")[0])
        if "\0" in path or not os.path.exists(path):
            continue
        path = os.path.abspath(path)
        found.append(path if os.path.isdir(path) else os.path.dirname(path))
        found.append(path)
    home = os.path.expanduser("~")
    return [path for path in found if path not in ("/", home)]


def _inside(path: str, folders: Sequence[str]) -> bool:
    """Whether ``path`` is one of ``folders`` or lies inside one: only there must the sandbox
    cover it (elsewhere it is not shown at all, and leaving it out of the command line lets a
    kept bot process serve matches whose logs go to another folder)."""
    return any(path == folder or path.startswith(folder.rstrip("/") + "/") for folder in folders)


def _with_real_paths(paths: Sequence[str]) -> set[str]:
    """Each path made absolute, with the path its links lead to."""
    every: set[str] = set()
    for path in paths:
        absolute = os.path.abspath(path)
        every.update((absolute, os.path.realpath(absolute)))
    return every


@functools.cache
def _protect_driver() -> None:
    """Make this process's memory unreadable by others of its user (Linux: not dumpable); once,
    since the setting lasts (a forked worker keeps it too)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE


@functools.cache
def sandbox_problem() -> str | None:
    """Why bots cannot be sandboxed on this system, or ``None`` when they can (found once per
    process by starting a sandbox)."""
    if not sys.platform.startswith("linux"):
        return f"sandboxes need Linux namespaces, and this is {sys.platform}"
    probe = sandboxed([sys.executable, "-I", "-S", "-c", "pass"], SandboxOptions(), cwd="/")
    try:
        run = subprocess.run(
            probe, capture_output=True, timeout=PROBE_SECONDS, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"the sandbox did not start: {error}"
    if run.returncode == 0:
        return None
    said = run.stderr.decode(errors="replace").strip().splitlines()
    reason = said[-1].removeprefix("sandbox: ") if said else f"exit code {run.returncode}"
    return f"the kernel refuses the sandbox's namespaces ({reason})"


def require_sandbox() -> None:
    """Check that bots can be sandboxed here, and make this process, which is to run their
    matches, undumpable.

    Raises:
        SandboxUnavailable: they cannot; the message gives the reason and the two choices.
    """
    problem = sandbox_problem()
    if problem is not None:
        raise SandboxUnavailable(
            f"bots cannot be sandboxed here: {problem}. Choose --isolate=process (a process of"
            " its own for each bot, which can still read your files) or --no-isolate (trust"
            " the bots' code)"
        )
    _protect_driver()
