"""Isolated Python bots: processes of their own, forked from a loader.

Starting Python and importing a bot takes most of a second, too long to pay for every match of
a tournament. So each bot spec gets one *loader* process per driver process: it imports the
bot once, and forks a child whenever a match finds no idle one that may play it. The child
serves the bot over the bot protocol (``thousand.table.served_bot``), a fresh player for each match,
in sessions (:mod:`thousand.table.sessions`): never the same cards twice. It starts from the
loader's state and holds nothing of the driver's: the driver hands it three pipes and talks to
it as to any external program, under the same limits
(:class:`~thousand.table.external.BotLimits`).

A sandboxed bot's loader (given the sandbox's walls, see :func:`thousand.table.sandbox.walls`)
imports the library only, never the bot: each child walls itself in first, with the sandbox's
own code (:mod:`thousand.table.confine`; the loader maps the users of its new user namespace),
and loads the bot there.

The loader and the driver speak over a Unix socket, one line per message:

* loader: ``ready`` once the bot (or, for a sandboxed bot, the library) is imported, or
  ``error <reason>`` (and it exits);
* driver: ``spawn <memory cap or ->`` with the child's stdin, stdout and stderr attached;
  loader: ``pid <pid>`` or ``error <reason>``;
* loader: ``exit <pid> <code>`` when a child ends; the child is left unreaped, so that its pid
  cannot name another process, until the driver says ``release <pid>``.

POSIX only: it needs ``fork`` and passing descriptors over Unix sockets.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import io
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import IO, Any

from thousand.errors import BotCrash, BotSpecError
from thousand.table import confine
from thousand.table.external import (
    BotLimits,
    BotProcess,
    ExternalPlayer,
    prepare_bot_process,
    serve_command,
)
from thousand.table.sessions import stop_sessions

__all__ = ["IsolatedPlayer", "raised_message", "stop_loaders"]


class IsolatedPlayer(ExternalPlayer):
    """A Python bot run in a process of its own, spoken to over the bot protocol, so that it
    cannot reach the driver's state (a :class:`~thousand.Player`).

    Args:
        spec: the bot spec, as for :func:`thousand.load_player`.
        log_dir: where ``<spec>-seat<N>.log`` collects the bot's error output and prints.
        limits: caps on the bot's process, as for :class:`~thousand.ExternalPlayer`.
    """

    def __init__(
        self, spec: str, *, log_dir: str | None = None, limits: BotLimits | None = None
    ) -> None:
        super().__init__(serve_command(spec), name=spec, log_dir=log_dir, limits=limits)
        self.spec = spec

    def _reported(self, reply: dict[str, Any]) -> str:
        """The exception the bot raised, as a fault shows it when the bot runs in-process."""
        return raised_message(reply)

    def _exit_fd(self, process: BotProcess) -> tuple[int | None, bool]:
        """The loader's socket: it tells the bot's exit there."""
        assert isinstance(process, Forked)
        return process.loader.socket.fileno(), False

    def _launch(self) -> Forked:
        """Fork a process for the bot; a loader found gone is started again once."""
        return self._spawn(self.spec)

    def _spawn(self, spec: str, walls: str | None = None) -> Forked:
        """Fork a process for the bot ``spec`` from its loader (whose children wall themselves
        in by ``walls``, if given); a loader found gone is started again once."""
        startup, memory = self.limits.startup, self.limits.memory
        loader = _loader(spec, startup, walls)
        try:
            return loader.spawn(memory, startup)
        except BotCrash:
            if not loader.gone:
                raise
        return _loader(spec, startup, walls).spawn(memory, startup)


def raised_message(reply: dict[str, Any]) -> str:
    """The exception a served Python bot reported in an error reply, as a fault shows it when
    the bot runs in-process."""
    return str(reply.get("message", ""))[:200]


class Forked:
    """A bot's process forked by a loader, handled like a :class:`subprocess.Popen`."""

    def __init__(self, loader: _Loader, pid: int, stdin: int, stdout: int, stderr: int) -> None:
        self.loader = loader
        self.pid = pid
        self.stdin: IO[bytes] = open(stdin, "wb", buffering=0)  # noqa: SIM115
        self.stdout: IO[bytes] = open(stdout, "rb", buffering=0)  # noqa: SIM115
        self.stderr: IO[bytes] = open(stderr, "rb", buffering=0)  # noqa: SIM115
        self.returncode: int | None = None
        self.released = False

    def poll(self) -> int | None:
        """The exit code, or ``None`` while the process runs."""
        if self.returncode is None:
            self.returncode = self.loader.exit_code(self.pid, 0.0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the process to end and return its exit code (negative: killed by that
        signal); then its pid is let go."""
        if self.returncode is None:
            code = self.loader.exit_code(self.pid, timeout)
            if code is None:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0.0)
            self.returncode = code
        if not self.released:
            self.released = True
            self.loader.release(self.pid)
        return self.returncode


class _Loader:
    """The driver's end of one loader process."""

    def __init__(self, spec: str, startup: float, walls: str | None = None) -> None:
        self.spec = spec
        self.lock = threading.RLock()
        self.exits: dict[int, int] = {}
        self.buffer = b""
        self.replies: list[str] = []
        self.gone = False
        ours, theirs = socket.socketpair()
        self.socket = ours
        command = [sys.executable, "-m", "thousand.table.isolation", spec, str(theirs.fileno())]
        with theirs:
            self.process = subprocess.Popen(
                command if walls is None else [*command, walls],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=[theirs.fileno()],
                start_new_session=True,
                preexec_fn=lambda: prepare_bot_process(None),
            )
        reply = self._reply(startup)
        if reply != "ready":
            self.close()
            if reply and reply.startswith("refused "):
                # The seat's fault, its detail naming the spec no more than the fault does;
                # check_player (before a tournament) tells the spec error itself.
                refused = BotSpecError(reply.removeprefix("refused "))
                reason = str(refused).removeprefix(f"bot spec {spec!r}: ")
                raise BotCrash(reason, fatal=True) from refused
            if reply and reply.startswith("error "):
                raise BotCrash(reply.removeprefix("error "), fatal=True)
            raise BotCrash(f"could not load {spec} in time", fatal=True)

    def alive(self) -> bool:
        """Whether the loader is still there to fork bots."""
        return not self.gone and self.process.poll() is None

    def spawn(self, memory: int | None, seconds: float) -> Forked:
        """Fork a fresh process for the bot, its memory capped at ``memory`` bytes, waiting up
        to ``seconds`` for the loader to answer."""
        pipes = [os.pipe() for _ in range(3)]
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
        ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
        try:
            with self.lock:
                request = f"spawn {'-' if memory is None else memory}\n".encode()
                try:
                    socket.send_fds(self.socket, [request], theirs)
                except OSError:
                    self.gone = True
                reply = self._reply(seconds)
        finally:
            for fd in theirs:
                os.close(fd)
        if reply is None or not reply.startswith("pid "):
            for fd in ours:
                os.close(fd)
            reason = reply.removeprefix("error ") if reply else "its loader stopped"
            raise BotCrash(f"could not start {self.spec}: {reason}", fatal=True)
        return Forked(self, int(reply[4:]), *ours)

    def exit_code(self, pid: int, timeout: float | None) -> int | None:
        """The exit code of the loader's child ``pid`` once it has ended, waiting up to
        ``timeout`` seconds (``None``: as long as it takes) for it to end."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self.lock:
            while pid not in self.exits:
                if self.gone:
                    return -signal.SIGKILL  # killed with its loader
                remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                if not self._read(remaining) and remaining == 0.0:
                    return None
            return self.exits[pid]

    def release(self, pid: int) -> None:
        """The driver is done with the child ``pid``: the loader may reap it."""
        with self.lock:
            self.exits.pop(pid, None)
            with contextlib.suppress(OSError):
                self.socket.sendall(f"release {pid}\n".encode())

    def close(self) -> None:
        """Stop the loader and every bot process it forked."""
        self.gone = True
        self.socket.close()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def _reply(self, seconds: float) -> str | None:
        """The loader's next reply, or ``None`` if it is gone or does not answer in time."""
        deadline = time.monotonic() + seconds
        while not self.replies:
            remaining = deadline - time.monotonic()
            if self.gone or remaining <= 0:
                self.gone = True
                return None
            self._read(remaining)
        return self.replies.pop(0)

    def _read(self, seconds: float | None) -> bool:
        """Receive what the loader sends within ``seconds``; whether anything came. Exit notes
        are noted, other lines kept as replies."""
        readable, _, _ = select.select([self.socket], [], [], seconds)
        if not readable:
            return False
        try:
            chunk = self.socket.recv(65536)
        except OSError:
            chunk = b""
        if not chunk:
            self.gone = True
        *lines, self.buffer = (self.buffer + chunk).split(b"\n")
        for line in lines:
            text = line.decode()
            if text.startswith("exit "):
                _, pid, code = text.split()
                self.exits[int(pid)] = int(code)
            else:
                self.replies.append(text)
        return True


_LOADERS: dict[tuple[str, str | None], _Loader] = {}
_OWNER = [os.getpid()]
_LOADERS_LOCK = threading.Lock()


def _loader(spec: str, startup: float, walls: str | None = None) -> _Loader:
    """This process's loader for ``spec`` (its children walled in by the sandbox ``walls``,
    if given), started when there is none or it has stopped; it may take ``startup`` seconds
    to load the bot."""
    with _LOADERS_LOCK:
        if _OWNER[0] != os.getpid():  # a forked copy of the driver: the loaders are not its own
            _LOADERS.clear()
            _OWNER[0] = os.getpid()
        loader = _LOADERS.get((spec, walls))
        if loader is None or not loader.alive():
            if loader is not None:
                loader.close()
            loader = _LOADERS[spec, walls] = _Loader(spec, startup, walls)
            atexit.register(stop_loaders)
        return loader


def stop_loaders() -> None:
    """Stop this process's loaders, and every bot process they forked; they start again when a
    bot needs them. The bots' kept processes, isolated or not, are stopped first (they are
    given a moment to exit by themselves: see :func:`~thousand.table.sessions.stop_sessions`)."""
    stop_sessions()
    with _LOADERS_LOCK:
        if _OWNER[0] == os.getpid():
            for loader in _LOADERS.values():
                loader.close()
        _LOADERS.clear()


# The loader process -------------------------------------------------------------------------


def _serve_loader(spec: str, channel: socket.socket, walls: dict[str, Any] | None) -> None:
    """Load the bot, then fork a process for it on each request until the driver hangs up.
    Given ``walls``, the loader imports only the library, and each process it forks walls
    itself in that sandbox before it loads the bot (whose code then never runs outside)."""
    from thousand.table.specs import describe_error, load_player

    make: Callable[[], object] | None = None
    if walls is None:
        try:
            make = load_player(spec)
        except BotSpecError as error:
            channel.sendall(f"refused {' '.join(str(error).split())}\n".encode())
            return
        except Exception as error:
            channel.sendall(f"error failed to load: {describe_error(error)}\n".encode())
            return
    else:
        import thousand.bots  # the built-in bots, which many bots build on
    import thousand.table.served_bot  # noqa: F401 -- imported once here rather than in every child

    gc.freeze()  # the children then share these objects' pages, untouched by their collector
    children: set[int] = set()
    ended: set[int] = set()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    channel.sendall(b"ready\n")
    buffer = b""
    try:
        while True:
            readable, _, _ = select.select([channel.fileno(), wake_read], [], [])
            if wake_read in readable:
                os.read(wake_read, 4096)
            if channel.fileno() in readable:
                chunk, fds, _, _ = socket.recv_fds(channel, 65536, 3)
                if not chunk:
                    return
                buffer += chunk
                while b"\n" in buffer:
                    line, _, buffer = buffer.partition(b"\n")
                    command, _, argument = line.decode().partition(" ")
                    if command == "spawn":
                        memory = None if argument == "-" else int(argument)
                        inherited = [channel.fileno(), wake_read, wake_write]
                        reply = _fork(make, spec, fds, memory, inherited, walls)
                        for fd in fds:
                            os.close(fd)
                        fds = []
                        if reply.startswith("pid "):
                            children.add(int(reply[4:]))
                        channel.sendall(reply.encode() + b"\n")
                    elif command == "release":
                        pid = int(argument)
                        with contextlib.suppress(ChildProcessError):
                            os.waitpid(pid, 0)
                        children.discard(pid)
                        ended.discard(pid)
                for fd in fds:  # sent without a request to spawn
                    os.close(fd)
            for pid, code in _newly_ended(children - ended):
                ended.add(pid)
                channel.sendall(f"exit {pid} {code}\n".encode())
            _reap_strays(children)
    finally:
        for pid in children:
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)


def _fork(
    make: Callable[[], object] | None,
    spec: str,
    fds: list[int],
    memory: int | None,
    inherited: list[int],
    walls: dict[str, Any] | None,
) -> str:
    """Fork the bot's process on ``fds`` (its stdin, stdout, stderr), walled in by ``walls``
    when given; the reply to send."""
    if len(fds) != 3:
        return "error the request came without the bot's pipes"
    loader = os.getpid()

    def prepare() -> None:
        """In the child, before the bot: its own session, limits and standard streams."""
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        prepare_bot_process(memory, loader)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in [*fds, *inherited]:
            os.close(fd)

    try:
        pid = os.fork() if walls is None else confine.fork_walled(walls, prepare)
    except OSError as error:
        return f"error cannot fork: {error.strerror or error}"
    except confine.SetupError as error:
        return f"error {error}"
    if pid:
        return f"pid {pid}"
    code = 1
    try:
        if walls is None:
            prepare()
        else:
            from thousand.table.served_bot import spec_maker

            make = spec_maker(spec)  # loaded here, walled in
        code = _serve_child(make, spec)
    finally:
        os._exit(code)


def _serve_child(make: object, spec: str) -> int:
    """Serve the bot on this process's standard streams; the exit code."""
    from thousand.table.served_bot import serve_player

    incoming = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    protocol = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
    errors = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="replace", line_buffering=True
    )
    sys.stdin, sys.stdout, sys.stderr = incoming, errors, errors
    code = 0
    try:
        serve_player(make, spec, incoming, protocol)  # type: ignore[arg-type]
    except SystemExit as error:
        if isinstance(error.code, int) or error.code is None:
            code = error.code or 0
        else:
            print(error.code, file=errors)
            code = 1
    except BaseException:
        traceback.print_exc(file=errors)
        code = 1
    with contextlib.suppress(Exception):
        errors.flush()
    return code


def _newly_ended(pids: set[int]) -> list[tuple[int, int]]:
    """Which of the children ``pids`` have ended, with their exit codes, leaving them unreaped."""
    ended = []
    for pid in pids:
        try:
            status = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            ended.append((pid, -signal.SIGKILL))
            continue
        if status is not None and status.si_pid:
            exited = status.si_code == os.CLD_EXITED
            ended.append((pid, status.si_status if exited else -status.si_status))
    return ended


def _reap_strays(children: set[int]) -> None:
    """Reap the processes that bots left behind and that were handed to the loader (Linux)."""
    pid = os.getpid()
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as file:
                for child in map(int, file.read().split()):
                    if child not in children:
                        with contextlib.suppress(ChildProcessError):
                            os.waitpid(child, os.WNOHANG)


def main() -> None:
    """``python -m thousand.table.isolation SPEC FD [WALLS]``: serve as the loader of ``SPEC`` on
    the socket ``FD``, its children in the sandbox ``WALLS`` if given (see
    :func:`thousand.table.sandbox.walls`)."""
    spec, fd = sys.argv[1], int(sys.argv[2])
    walls = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
    with socket.socket(fileno=fd) as channel:
        _serve_loader(spec, channel, walls)


if __name__ == "__main__":
    main()
