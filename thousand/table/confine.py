"""The sandbox's launcher: ``python confine.py CONFIG -- COMMAND...`` runs COMMAND walled in.

Run by :mod:`thousand.table.sandbox`; imported only by the loaders of sandboxed Python bots
(:mod:`thousand.table.isolation`), which wall in each process they fork with
:func:`fork_walled`. It uses the standard library only, so that it starts in
a few milliseconds with ``python -I -S``. CONFIG is a JSON
object (see :class:`thousand.table.sandbox.SandboxOptions`). Three processes take part:

* the launcher, in the caller's namespaces, which writes the user map of...
* ...the *keeper*, which enters new user, mount, PID, IPC, UTS and (unless the network is
  allowed) network namespaces, then forks...
* ...the command's process, the first of the new PID namespace: it builds a root of its own
  (a read-only view of the system's programs and libraries and of the paths CONFIG makes
  readable, an empty private ``/tmp``, a fresh ``/proc``, a few devices), gives up every
  privilege and runs COMMAND. When it ends, everything in its PID namespace is killed with it.

Each process is killed when its parent dies, so killing the launcher ends the sandbox. A
failure to build the sandbox is told on stderr in one line starting with ``sandbox:`` and
ends the launcher with :data:`SETUP_FAILED`.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import platform
import signal
import stat
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

SETUP_FAILED = 125
"""The exit code of a launcher whose sandbox could not be built."""

NOBODY = 65534
"""The unprivileged user (and group) a sandboxed command runs as when the caller is root."""

TMP_BYTES = 64 << 20
"""What the sandbox's private ``/tmp`` (and ``/dev/shm``) may hold."""

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix")
"""Where the system's programs and libraries are: readable in every sandbox."""

DEVICES = ("null", "zero", "full", "random", "urandom")
"""The devices a sandbox has in its ``/dev``."""

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
MNT_DETACH = 2

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38

_STATVFS_FLAGS = {
    os.ST_NOSUID: MS_NOSUID,
    os.ST_NODEV: MS_NODEV,
    os.ST_NOEXEC: MS_NOEXEC,
    os.ST_NOATIME: MS_NOATIME,
    os.ST_NODIRATIME: MS_NODIRATIME,
    os.ST_RELATIME: MS_RELATIME,
}
"""The flags of a mount that a remount inside a user namespace must keep."""

PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "arm64": 41, "riscv64": 41, "ppc64le": 203}
"""The ``pivot_root`` system call's number, by machine."""

_LIBC = ctypes.CDLL(None, use_errno=True)


class SetupError(Exception):
    """A step of building the sandbox failed."""


def _call(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise SetupError(f"{what}: {os.strerror(error)}")


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _prctl(option: int, value: int) -> None:
    _call(_LIBC.prctl(option, value, 0, 0, 0), f"prctl {option}")


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else text.encode()


def _mount(source: str | None, target: str, kind: str | None, flags: int, data: str = "") -> None:
    result = _LIBC.mount(_bytes(source), target.encode(), _bytes(kind), flags, _bytes(data or None))
    _call(result, f"mounting {kind or source} on {target}")


def main(argv: Sequence[str]) -> NoReturn:
    """Run the command after ``--`` in the sandbox the JSON object before it describes."""
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: confine.py CONFIG -- COMMAND...\n")
        sys.exit(2)
    config: dict[str, Any] = json.loads(argv[0])
    command = list(argv[2:])
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    try:
        keeper = fork_walled(config)
    except (OSError, SetupError) as error:
        _fail(str(error))
    if keeper == 0:
        try:
            os.execvp(command[0], command)
        except OSError as error:
            sys.stderr.write(f"sandbox: cannot run {command[0]}: {error.strerror}\n")
            os._exit(127)
    os._exit(_wait(keeper))


def fork_walled(config: dict[str, Any], prepare: Callable[[], None] | None = None) -> int:
    """Fork the keeper of a new sandbox built as ``config`` says (see :func:`_confine`).

    In this process: the keeper's pid, once the users of its user namespace are mapped (the
    keeper ends as the sandbox's first process ends). In the sandbox's first process: 0,
    returned walled in and without privileges. ``prepare`` runs in the keeper first, outside
    the walls (to set up its standard streams, say); a failure there ends it.

    Raises:
        OSError: the keeper cannot be forked.
        SetupError: the users cannot be mapped (the keeper is then killed).
    """
    ready_read, ready_write = os.pipe()
    go_read, go_write = os.pipe()
    try:
        keeper = os.fork()
    except OSError:
        for fd in (ready_read, ready_write, go_read, go_write):
            os.close(fd)
        raise
    if keeper == 0:
        os.close(ready_read)
        os.close(go_write)
        if prepare is not None:
            try:
                prepare()
            except Exception as error:
                _fail(f"cannot prepare the sandbox: {error}")
        _confine(config, ready_write, go_read)
        return 0
    os.close(ready_write)
    os.close(go_read)
    try:
        if os.read(ready_read, 1) == b"1":
            _map_users(keeper)
            os.write(go_write, b"1")
    except (OSError, SetupError) as error:
        with contextlib.suppress(OSError):
            os.kill(keeper, signal.SIGKILL)
        raise SetupError(f"cannot map the sandbox's users: {error}") from None
    finally:
        os.close(ready_read)
        os.close(go_write)
    return keeper


def _map_users(pid: int) -> None:
    """Give the keeper's user namespace its users: the caller (as the namespace's root, to build
    the sandbox) and, when the caller is root, the unprivileged user the command runs as."""
    uid, gid = os.geteuid(), os.getegid()
    if uid == 0:
        users = f"0 0 1\n{NOBODY} {NOBODY} 1\n"
        _write(f"/proc/{pid}/uid_map", users)
        _write(f"/proc/{pid}/gid_map", users)
    else:
        _write(f"/proc/{pid}/setgroups", "deny")
        _write(f"/proc/{pid}/uid_map", f"0 {uid} 1\n")
        _write(f"/proc/{pid}/gid_map", f"0 {gid} 1\n")


def _confine(config: dict[str, Any], ready: int, go: int) -> None:
    """In the keeper, a process just forked by the one that maps its users
    (:func:`fork_walled`): enter new
    namespaces and fork the first process of the new PID namespace, which returns from here
    walled in and without privileges. The keeper ends as that process ends.

    ``ready`` is written once the new user namespace is entered; its users are to be mapped
    from outside (:func:`_map_users`) before a byte is written on ``go``.
    """
    try:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        _call(_LIBC.unshare(CLONE_NEWUSER), "new user namespace")
        os.write(ready, b"1")
        if os.read(go, 1) != b"1":
            os._exit(SETUP_FAILED)
        os.close(ready)
        os.close(go)
        flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
        if not config.get("network"):
            flags |= CLONE_NEWNET
        _call(_LIBC.unshare(flags), "new namespaces")
        child = os.fork()
    except (OSError, SetupError) as error:
        _fail(str(error))
    if child == 0:
        try:
            _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            _build_root(config)
            _drop_privileges()
        except (OSError, SetupError) as error:
            _fail(str(error))
        return
    os._exit(_wait(child))


def _build_root(config: dict[str, Any]) -> None:
    """Make this process's root the sandbox's: only the readable paths, read-only; private
    ``/tmp`` and ``/dev/shm``; this PID namespace's ``/proc``; the hidden paths covered."""
    os.umask(0o022)
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    readable = _outermost([*SYSTEM, *config.get("readable", ())])
    handles: dict[str, tuple[int, int]] = {}
    for path in readable:
        try:
            handle = os.open(path, os.O_PATH | os.O_NOFOLLOW)
        except OSError:
            continue  # missing: nothing to show
        handles[path] = handle, os.fstat(handle).st_mode
    new = "/tmp"  # the new root is built on a tmpfs mounted here (the old /tmp is not shown)
    _mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m")
    for private in ("/tmp", "/dev/shm"):
        os.makedirs(new + private, 0o755)
        _mount("tmpfs", new + private, "tmpfs", MS_NOSUID | MS_NODEV, f"mode=1777,size={TMP_BYTES}")
    for device in DEVICES:
        _bind(f"/dev/{device}", new + f"/dev/{device}", is_dir=False)
    for name, target in (
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ):
        os.symlink(target, f"{new}/dev/{name}")
    os.makedirs(new + "/proc", 0o755)
    _mount("proc", new + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for path, (handle, mode) in handles.items():
        if stat.S_ISLNK(mode):
            os.symlink(os.readlink("", dir_fd=handle), new + path)
        else:
            _bind(f"/proc/self/fd/{handle}", new + path, is_dir=stat.S_ISDIR(mode))
        os.close(handle)
    for path in config.get("hidden", ()):
        _cover(new + path)
    _mount(None, new, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chdir(new)
    _call(_LIBC.syscall(PIVOT_ROOT[platform.machine()], b".", b"."), "pivot_root")
    _call(_LIBC.umount2(b".", MNT_DETACH), "detaching the old root")
    os.chdir("/")
    with contextlib.suppress(OSError):  # not shown: the command starts at the root
        os.chdir(config.get("cwd") or "/")
    os.environ["HOME"] = os.environ["TMPDIR"] = "/tmp"


def _outermost(paths: Sequence[str]) -> list[str]:
    """``paths`` without those inside another of them, shortest first, none of them ``/``."""
    kept: list[str] = []
    for path in sorted({os.path.normpath(path) for path in paths if path}, key=len):
        if path != "/" and not any(path.startswith(other + "/") for other in kept):
            kept.append(path)
    return kept


def _bind(source: str, target: str, *, is_dir: bool) -> None:
    """Show ``source`` at ``target`` (in the tmpfs of the new root, where the mount point is
    made), read-only."""
    parent = os.path.dirname(target)
    if not os.path.isdir(parent):
        os.makedirs(parent, 0o755)
    if is_dir:
        os.makedirs(target, 0o755, exist_ok=True)
    elif not os.path.exists(target):
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
    _mount(source, target, None, MS_BIND)
    kept = os.statvfs(target).f_flag
    locked = sum(flag for known, flag in _STATVFS_FLAGS.items() if kept & known)
    _mount(None, target, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | locked)


def _cover(target: str) -> None:
    """Hide what ``target`` holds, when the new root shows it: an empty read-only folder, or
    an empty file, in its place."""
    if not os.path.lexists(target):
        return
    if os.path.isdir(target) and not os.path.islink(target):
        _mount("tmpfs", target, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k,mode=0555")
    else:
        _bind("/dev/null", target, is_dir=False)


def _drop_privileges() -> None:
    """Become an unprivileged user for good: no capability, none to be gained by running a
    program, no way to change the sandbox's mounts."""
    if _caller_was_root():
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    else:
        # The caller's own user, seen from a user namespace of its own that owns no mount:
        # the sandbox's mounts stay as they are whatever the command does.
        uid, gid = _outside_ids()
        _call(_LIBC.unshare(CLONE_NEWUSER), "inner user namespace")
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} 0 1\n")
        _write("/proc/self/gid_map", f"{gid} 0 1\n")
    _drop_capabilities()
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    _prctl(PR_SET_DUMPABLE, 1)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _drop_capabilities() -> None:
    """Give up every capability this process holds (in the user namespace it made last, when
    the caller was not root): running a program would drop them too, but a Python bot forked
    by its loader runs no program."""
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    nothing = (_CapData * 2)()
    _call(_LIBC.capset(ctypes.byref(header), nothing), "dropping capabilities")


def _caller_was_root() -> bool:
    """Whether this user namespace maps the unprivileged user, as it does for a root caller."""
    with open("/proc/self/uid_map") as users:
        return len(users.read().split("\n")) > 2


def _outside_ids() -> tuple[int, int]:
    """The caller's user and group, as this user namespace maps its root."""
    with open("/proc/self/uid_map") as users, open("/proc/self/gid_map") as groups:
        return int(users.read().split()[1]), int(groups.read().split()[1])


def _wait(pid: int) -> int:
    """Wait for ``pid`` (and reap whatever else ends meanwhile) and end as it ended: with its
    exit code, or killed by the same signal."""
    while True:
        try:
            ended, status = os.waitpid(-1, 0)
        except ChildProcessError:
            return SETUP_FAILED
        if ended == pid:
            break
    if os.WIFEXITED(status):
        return os.WEXITSTATUS(status)
    killer = os.WTERMSIG(status)
    if killer not in (signal.SIGKILL, signal.SIGSTOP):
        signal.signal(killer, signal.SIG_DFL)
    os.kill(os.getpid(), killer)
    return 128 + killer


def _fail(reason: str, child: int | None = None) -> NoReturn:
    sys.stderr.write(f"sandbox: {reason}\n")
    sys.stderr.flush()
    if child is not None:
        with contextlib.suppress(OSError):
            os.kill(child, signal.SIGKILL)
    os._exit(SETUP_FAILED)


if __name__ == "__main__":
    main(sys.argv[1:])
