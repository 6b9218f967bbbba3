"""The sandbox of bots that are not built in: what a command run in it can and cannot reach.

Each test runs a small program in a sandbox, as a hostile bot would, and checks from outside
what it managed. They need Linux with user, PID, mount, IPC and network namespaces that an
unprivileged user may create, and a ``/proc`` that may be mounted again in them."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from thousand.errors import BotSpecError
from thousand.table import sandbox
from thousand.table.confine import NOBODY, SETUP_FAILED
from thousand.table.sandbox import (
    Isolation,
    SandboxOptions,
    SandboxUnavailable,
    python_paths,
    require_sandbox,
    sandbox_problem,
    sandboxed,
)
from thousand.table.specs import load_player

needs_namespaces = pytest.mark.skipif(
    sandbox_problem() is not None and os.environ.get("THOUSAND_SANDBOX") != "required",
    reason="needs Linux user, PID, mount, IPC and network namespaces that an unprivileged user"
    f" may create, and /proc mountable in them: {sandbox_problem()}",
)
"""Skips a test where the kernel cannot make sandboxes, unless ``THOUSAND_SANDBOX=required``
(as CI sets it): then the test runs, and fails."""


def run_python(
    code: str, options: SandboxOptions | None = None, cwd: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with this interpreter in a sandbox."""
    command = sandboxed(
        [sys.executable, "-c", textwrap.dedent(code)], options or SandboxOptions(), cwd=cwd
    )
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    """A process outside the sandbox, of the same user, for a hostile command to aim at."""
    process = subprocess.Popen(["sleep", "600"])
    yield process
    process.kill()
    process.wait()


@needs_namespaces
def test_a_command_sees_and_signals_only_its_own_processes(
    sleeper: subprocess.Popen[bytes],
) -> None:
    """In a PID namespace of its own, the command is process 1; the caller, the process that
    started it and every other process are not there to read or to kill."""
    ran = run_python(
        f"""
        import os, signal
        print(os.getpid(), sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))
        for pid in ({sleeper.pid}, {os.getpid()}):
            try:
                os.kill(pid, signal.SIGKILL)
                print('killed', pid)
            except ProcessLookupError:
                print('no process', pid)
            try:
                open(f'/proc/{{pid}}/mem', 'rb').read(1)
                print('read', pid)
            except OSError:
                print('unreadable', pid)
        """
    )
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0] == "1 [1]"
    assert lines[1:] == [
        f"no process {sleeper.pid}",
        f"unreadable {sleeper.pid}",
        f"no process {os.getpid()}",
        f"unreadable {os.getpid()}",
    ]
    assert sleeper.poll() is None


@needs_namespaces
def test_a_command_runs_unprivileged_for_good() -> None:
    """It runs as an unprivileged user (``nobody`` when the caller is root, else the caller),
    with no capability, unable to gain any or to undo the sandbox's mounts."""
    ran = run_python(
        """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        status = dict(line.split(':', 1) for line in open('/proc/self/status'))
        print(os.getuid(), status['CapEff'].strip(), libc.prctl(39, 0, 0, 0, 0))
        print(libc.umount2(b'/usr', 2), libc.mount(b'none', b'/tmp', b'tmpfs', 0, None))
        """
    )
    assert ran.returncode == 0, ran.stderr
    expected_user = NOBODY if os.geteuid() == 0 else os.geteuid()
    assert ran.stdout.split() == [str(expected_user), "0000000000000000", "1", "-1", "-1"]


def shown_under_tmp(paths: list[str]) -> set[str]:
    """The names in ``/tmp`` of the sandbox, besides what the command writes: the first folder
    of each readable path that lies in ``/tmp`` (this project's, in a clone there)."""
    parts = [Path(os.path.realpath(path)).parts for path in paths]
    return {each[2] for each in parts if each[1:2] == ("tmp",) and len(each) > 2}


@needs_namespaces
def test_only_readable_paths_are_shown_and_read_only(tmp_path: Path) -> None:
    """The command reads the folders it is given (and the system's), never what else the
    caller has, nor a hidden folder inside a readable one; it writes nowhere but ``/tmp``."""
    bot = tmp_path / "bot"
    (bot / "out").mkdir(parents=True)
    (bot / "model.txt").write_text("weights")
    (bot / "out" / "config.json").write_text("secret seed")
    (tmp_path / "elsewhere.txt").write_text("secret")
    options = SandboxOptions(readable=[str(bot)], hidden=[str(bot / "out")])
    ran = run_python(
        f"""
        import os
        def attempt(what, act):
            try:
                act()
                print(what, 'yes')
            except OSError as error:
                print(what, 'no', type(error).__name__)
        attempt('model', lambda: open({str(bot / "model.txt")!r}).read())
        attempt('out', lambda: open({str(bot / "out" / "config.json")!r}).read())
        attempt('elsewhere', lambda: open({str(tmp_path / "elsewhere.txt")!r}).read())
        attempt('write bot', lambda: open({str(bot / "new.txt")!r}, 'w'))
        attempt('write usr', lambda: open('/usr/new.txt', 'w'))
        attempt('write tmp', lambda: open('/tmp/scratch.txt', 'w').write('x'))
        print(sorted(os.listdir('/tmp')))
        print(os.listdir({str(bot / "out")!r}))
        """,
        options,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        "model yes",
        "out no FileNotFoundError",
        "elsewhere no FileNotFoundError",
        "write bot no OSError",
        "write usr no OSError",
        "write tmp yes",
        str(sorted({*shown_under_tmp([str(bot), *python_paths()]), "scratch.txt"})),
        "[]",
    ]
    assert not (bot / "new.txt").exists()


@needs_namespaces
def test_every_sandbox_has_its_own_tmp(tmp_path: Path) -> None:
    """What one sandbox leaves in ``/tmp`` is gone for the next: a file cannot carry a deal."""
    first = run_python("open('/tmp/deal.txt', 'w').write('AH KH QH')")
    second = run_python("import os; print(os.path.exists('/tmp/deal.txt'))")
    assert first.returncode == 0, first.stderr
    assert second.stdout.strip() == "False"
    assert not Path("/tmp/deal.txt").exists()


@needs_namespaces
def test_the_network_is_off_unless_allowed() -> None:
    """A connection to a server the caller runs fails in the sandbox, and succeeds when the
    network is allowed."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    code = f"""
        import socket
        try:
            socket.create_connection(('127.0.0.1', {port}), timeout=5).close()
            print('connected')
        except OSError as error:
            print('refused', type(error).__name__)
        """
    try:
        closed = run_python(code)
        allowed = run_python(code, SandboxOptions(network=True))
    finally:
        server.close()
    assert closed.stdout.split()[0] == "refused", closed.stderr
    assert allowed.stdout.strip() == "connected", allowed.stderr


def command_line(pid: int) -> bytes:
    """The command line of process ``pid``, its words ended by NULs; empty once it has gone."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def processes_running(marker: str, among: list[int] | None = None) -> list[int]:
    """The processes (of ``among``, or of all) whose command line holds ``marker``."""
    pids = (
        among
        if among is not None
        else [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]
    )
    return [pid for pid in pids if marker.encode() in command_line(pid)]


@needs_namespaces
def test_nothing_a_command_starts_outlives_it() -> None:
    """Processes left behind by a double fork with ``setsid``, or by ``CLONE_PARENT``, are
    killed when the command ends."""
    marker = f"sleep {600 + os.getpid() % 100}.{time.time_ns() % 1000}"
    ran = run_python(
        f"""
        import ctypes, os, subprocess
        subprocess.Popen(['sh', '-c', '({marker} &) &'], start_new_session=True).wait()
        libc = ctypes.CDLL(None, use_errno=True)
        pid = libc.syscall(56, 0x8000 | 17, 0, 0, 0, 0)  # clone(CLONE_PARENT | SIGCHLD)
        if pid == 0:
            os.execvp('sh', ['sh', '-c', '{marker}'])
        print('started')
        """
    )
    assert ran.stdout.strip() == "started", ran.stderr
    deadline = time.monotonic() + 10
    while processes_running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_running(marker) == []


@needs_namespaces
@pytest.mark.parametrize("call", ["sandboxed(['true'], SandboxOptions())", "require_sandbox()"])
def test_a_process_that_runs_sandboxed_bots_is_undumpable(call: str) -> None:
    """The process that checks for the sandbox or makes a sandboxed command becomes
    undumpable: others of its user cannot read its memory even if a bot got out."""
    code = (
        "import ctypes; from thousand.table.sandbox import *; "
        "prctl = ctypes.CDLL(None).prctl; before = prctl(3, 0, 0, 0, 0); "
        f"{call}; print(before, prctl(3, 0, 0, 0, 0))"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert ran.stdout.split() == ["1", "0"], ran.stderr


@needs_namespaces
def test_a_missing_program_is_told_in_one_line() -> None:
    ran = subprocess.run(
        sandboxed(["no-such-program-here"], SandboxOptions()), capture_output=True, text=True
    )
    assert ran.returncode == 127
    assert ran.stderr == "sandbox: cannot run no-such-program-here: No such file or directory\n"


def descendants(pid: int) -> list[int]:
    """The processes below ``pid``, nearest first."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop(0)
        for task in os.listdir(f"/proc/{parent}/task"):
            children = Path(f"/proc/{parent}/task/{task}/children")
            with contextlib.suppress(OSError):
                for child in map(int, children.read_text().split()):
                    found.append(child)
                    todo.append(child)
    return found


@needs_namespaces
def test_a_killed_command_ends_the_launcher_with_the_same_signal() -> None:
    """The launcher ends as the command does, killed by the same signal, so that the driver
    tells the bot's crash as it would tell an unsandboxed one's."""
    launcher = subprocess.Popen(sandboxed(["sleep", "600"], SandboxOptions()))
    deadline = time.monotonic() + 10
    # The command itself, not the sandbox's own processes, whose command lines end with it.
    while not (
        sleeping := [
            pid for pid in descendants(launcher.pid) if command_line(pid) == b"sleep\x00600\x00"
        ]
    ):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(sleeping[0], signal.SIGKILL)
    assert launcher.wait(10) == -signal.SIGKILL


def test_a_refusing_kernel_is_told_with_both_choices(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Where the kernel refuses the namespaces, one line says why and names the two weaker
    choices; nothing falls back silently."""
    refusing = tmp_path / "refusing.py"
    refusing.write_text(
        "import sys\n"
        "sys.stderr.write('sandbox: new user namespace: Operation not permitted\\n')\n"
        f"sys.exit({SETUP_FAILED})\n"
    )
    monkeypatch.setattr(sandbox, "CONFINE", str(refusing))
    sandbox_problem.cache_clear()
    sandbox._sandboxed.cache_clear()
    try:
        with pytest.raises(SandboxUnavailable) as refused:
            require_sandbox()
    finally:
        sandbox_problem.cache_clear()
        sandbox._sandboxed.cache_clear()
    message = str(refused.value)
    assert "\n" not in message
    assert "new user namespace: Operation not permitted" in message
    assert "--isolate=process" in message
    assert "--no-isolate" in message


@pytest.mark.parametrize(
    ("value", "isolation"),
    [
        (True, Isolation.SANDBOX),
        (False, Isolation.NONE),
        ("process", Isolation.PROCESS),
        (Isolation.SANDBOX, Isolation.SANDBOX),
    ],
)
def test_isolation_is_named_by_a_flag_or_a_word(
    value: Isolation | bool | str, isolation: Isolation
) -> None:
    assert Isolation.of(value) is isolation


def test_an_unknown_isolation_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="'jail' is not one of sandbox, process, none"):
        Isolation.of("jail")


def test_only_hidden_paths_the_sandbox_would_show_are_named(tmp_path: Path) -> None:
    """A hidden folder outside every readable one (a fresh folder of logs, say) changes nothing,
    so that a kept bot process can serve matches whose logs go elsewhere; one inside a readable
    folder is covered."""
    bot = tmp_path / "bot"
    options = SandboxOptions(readable=[str(bot)])
    command = ["true"]
    assert sandboxed(command, options.hiding(tmp_path / "logs")) == sandboxed(command, options)
    assert sandboxed(command, options.hiding(bot / "out")) != sandboxed(command, options)


@needs_namespaces
@pytest.mark.skipif(os.geteuid() != 0, reason="only a root driver runs bots as nobody")
def test_as_root_a_bot_file_nobody_may_read_is_told_before_it_runs(tmp_path: Path) -> None:
    """A root driver runs sandboxed bots as ``nobody``: a bot file in a folder closed to others
    is refused with what to do, instead of failing to load inside the sandbox."""
    folder = tmp_path / "closed"
    folder.mkdir(mode=0o700)
    (folder / "mybot.py").write_text("class Bot:\n    pass\n")
    with pytest.raises(BotSpecError, match="as root, the sandbox runs bots as the user nobody"):
        load_player(f"{folder / 'mybot.py'}:Bot", isolate="sandbox")
    folder.chmod(0o755)
    load_player(f"{folder / 'mybot.py'}:Bot", isolate="sandbox")


@needs_namespaces
def test_the_temporary_folder_itself_is_never_shown(tmp_path: Path) -> None:
    """A readable path that is the temporary folder itself (the folder of a script or a bot
    file kept there) does not show it: the sandbox's ``/tmp`` stays its own and writable, and
    what else the caller keeps there stays out of reach."""
    (tmp_path / "elsewhere.txt").write_text("secret")
    ran = run_python(
        f"""
        try:
            open({str(tmp_path / "elsewhere.txt")!r}).read()
            print('elsewhere yes')
        except OSError as error:
            print('elsewhere no', type(error).__name__)
        open('/tmp/scratch.txt', 'w').write('x')
        print('tmp written')
        """,
        SandboxOptions(readable=["/tmp", tempfile.gettempdir()]),
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == ["elsewhere no FileNotFoundError", "tmp written"]
