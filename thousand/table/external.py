"""External bots: a program in any language, spoken to over JSON lines on its stdin and stdout.

The protocol is described in ``docs/bot-protocol.md``. A process is started for a match and
told its end; then a program that plays sessions (it says so in its ``ready``) is kept for a later
match of other cards (:mod:`thousand.table.sessions`), and any other is stopped: killed if it
does not exit by itself, and whatever it started killed with it. Whatever it writes on stderr is
appended to its log in the run's folder, up to a cap for the run (:mod:`thousand.table.botlogs`);
its memory and the length of its lines are capped too (:class:`BotLimits`).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, Protocol, cast

import attrs

from thousand.common import knowledge
from thousand.common.config import decode_json
from thousand.errors import BotCrash, BotTimeout
from thousand.games import AnyGame, AnyObservation, game_of
from thousand.table import sessions
from thousand.table.botlogs import BotLog, fresh_log_folder
from thousand.table.tracebacks import RemoteTraceback, received

if sys.platform.startswith("linux"):
    import resource

if TYPE_CHECKING:
    from thousand import bluff
    from thousand.classic.rules import Rules
    from thousand.table.match import Outcome

__all__ = [
    "PROTOCOL",
    "BotLimits",
    "ExternalPlayer",
    "die_with_parent",
    "serve_command",
    "share_log_folder",
    "update_message",
]

PROTOCOL = 2
"""The version of the bot protocol spoken here: 2 added sessions, several matches in one
process, for a program whose ``ready`` says ``"protocol": 2``."""

SEED_BITS = 53
"""The bits of the seed in the hello: every integer the protocol sends is below 2**53, so that a
bot reading JSON as double-precision numbers (JavaScript's ``JSON.parse``) reads it exactly."""

REPLY_TIMEOUT = 60.0
"""Seconds a program may take for a decision when the match sets no time limit."""
EXIT_GRACE = 1.0
"""Seconds a program is given to exit by itself after the end of a match."""
SPIN = 0.0002 if len(getattr(os, "sched_getaffinity", lambda _: ())(0)) > 1 else 0.0
"""Seconds the driver keeps polling for an answer before it sleeps until one comes: a quick bot's
answer then arrives without the cost of waking the driver up. Only with more than one core."""
SPIN_REST = 16
"""Answers the driver waits for without polling after polling missed one: where the bot is slower
than the poll, or has no core of its own to answer at once, polling only burns a core."""


MIB = 1 << 20
"""Bytes in a mebibyte."""


@attrs.frozen
class BotLimits:
    """Caps on what an external bot's process may use, so that one bot cannot exhaust the machine.

    Attributes:
        memory: bytes of address space the process may map (``RLIMIT_AS``, Linux only); past
            it an allocation fails. ``None`` sets no cap. Runtimes that reserve address space up
            front (the JVM) need a larger cap or their own heap limit.
        line: bytes in one message from the bot; a longer answer to a decision is illegal, a
            longer answer to the hello stops the bot.
        log: bytes a bot's logs may hold in all in a run's folder, over all its matches and
            seats (and every process of the run); the rest is dropped, after a line saying so.
        startup: seconds the bot may take to answer the hello message: to start, load and
            run its ``start``. Past it the bot is stopped and the match played without it.
    """

    memory: int | None = 2048 * MIB
    line: int = MIB
    log: int = 16 * MIB
    startup: float = 10.0


_ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
"""Messages to bots as compact JSON (they hold no cycles)."""


def serve_command(spec: str) -> list[str]:
    """The command that runs the Python bot ``spec`` in its own process (``--isolate``)."""
    return [sys.executable, "-m", "thousand.serve", spec]


class BotProcess(Protocol):
    """A running bot's process, as :class:`subprocess.Popen` shows it."""

    pid: int
    returncode: int | None

    @property
    def stdin(self) -> IO[bytes] | None: ...

    @property
    def stdout(self) -> IO[bytes] | None: ...

    @property
    def stderr(self) -> IO[bytes] | None: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...


class ExternalPlayer:
    """A player in another process, started for a match, or taken from the processes kept for
    later matches when the program plays sessions (a :class:`~thousand.Player`).

    Args:
        command: the program and its arguments.
        name: how logs name the bot; by default the program's name.
        log_dir: the folder where ``<name>-seat<N>.log`` collects the program's stderr; by
            default a fresh folder ``thousand-bots-*`` in the temporary directory, made at the
            first start (or the folder of the first match it plays, given to
            :func:`thousand.play` without one).
        cwd: the program's working directory; by default the current one.
        limits: caps on the program's memory, lines and log (see :class:`BotLimits`).
    """

    watched = True
    """Whether the program's process group is killed by a helper process should the driver die
    without stopping it (a sandboxed program dies with its sandbox anyway)."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str | None = None,
        log_dir: str | None = None,
        cwd: str | None = None,
        limits: BotLimits | None = None,
    ) -> None:
        self.command = list(command)
        self.name = name or Path(self.command[0]).name
        self.log_dir = Path(log_dir) if log_dir else None
        """The folder of its logs; ``None`` until it is chosen, at the latest at the start."""
        self.slug = re.sub(r"[^A-Za-z0-9._-]+", "_", self.name).strip("_")[:60] or "bot"
        self.log_path: Path | None = None
        """Where the program's error output goes: ``<name>-seat<N>.log`` once seated."""
        self.cwd = cwd
        self.limits = limits or BotLimits()
        self.process: BotProcess | None = None
        self.game: AnyGame | None = None
        self._buffer = bytearray()
        self._scanned = 0
        self._skipping = False
        self._unpolled = 0
        """Answers still to be waited for without polling (see :data:`SPIN_REST`)."""
        self._broken: str | None = None
        self._log: BotLog | None = None
        self._heading = b""
        """The line that opens this match's part of the log, written before its first output."""
        self._stderr: int | None = None
        self._seen: dict[int, int] = {}
        self.deal: frozenset[Hashable] | None = None
        """What identifies the cards of the next match (set by :func:`thousand.play` before
        :meth:`start`): a kept process is only given a match of cards it has never played.
        ``None``: unknown, so the match gets a process of its own, stopped after it."""
        self.random_seed: int | None = None
        """The seed the generator given to the next :meth:`start` was made from, with
        ``random.Random(random_seed)`` (set by :func:`thousand.play`): the hello then gives the
        program the seed rather than the generator's state, which is longer to send and read.
        ``None``: the state is sent."""
        self._deal: frozenset[Hashable] | None = None
        self._cards: set[Hashable] = set()
        self._matches = 0
        self._session = False
        self._updates = False
        self._knowledge = False
        """Whether the program reads observations in the library's compact form (its ready
        names the form this driver writes: see :mod:`thousand.common.knowledge`)."""
        self._wants_outcome = True
        self.skip_forced = False
        """Whether the program asked not to be sent forced decisions, in the first ready of its
        process (a kept process's ready is read once the match is under way)."""
        self.late_start = 0.0
        """Seconds of the last decision spent waiting for the ready of a kept process."""
        self._ready_due: float | None = None
        self._told: dict[str, Any] | None = None
        """The data of the last observation the program was sent in this match..."""
        self._told_view: Any = None
        """...and that observation."""

    def start(self, seat: int, rules: Rules | bluff.Rules, rng: random.Random) -> None:
        """Start the program (or take a kept one that has not played these cards) and greet
        it with the game, the rules, the seat and a seed."""
        self.close()
        self._buffer = bytearray()
        self._scanned = 0
        self._skipping = False
        self._broken = None
        self._session = self.skip_forced = False
        self._told = self._told_view = None
        self.game = game_of(rules)
        self._deal, self.deal = self.deal, None
        kept = cast(
            "ExternalPlayer | None",
            None if self._deal is None else sessions.take(self._key(), self._deal),
        )
        held = None if kept is None else self._adopt(kept)
        if self.log_dir is None:
            self.log_dir = fresh_log_folder()
        log = held if held is not None and held.names(self.log_dir, self.slug, seat) else None
        if log is None:
            if held is not None:
                held.close()
            log = BotLog(self.log_dir, self.slug, seat, self.limits.log, self.name)
        self.log_path = log.path
        self._heading = f"--- {self.name}: seat {seat} of a {self.game.name} match\n".encode()
        if kept is None:
            try:
                self.process = self._launch()
            except BotCrash as error:
                log.close()
                self._broken = str(error)
                raise
            self._seen = {}
            self._cards = set()
            self._matches = 0
            if self.watched:
                _WATCHDOG.guard(self.process.pid)
            assert self.process.stdout is not None
            assert self.process.stdin is not None
            assert self.process.stderr is not None
            self._stderr = self.process.stderr.fileno()
            for stream in (self.process.stdout, self.process.stdin, self.process.stderr):
                os.set_blocking(stream.fileno(), False)
        self._log = log
        self._cards |= self._deal or set()
        random_seed, self.random_seed = self.random_seed, None
        generator: dict[str, Any] = (
            {"random_state": _state_to_json(rng.getstate())}
            if random_seed is None
            else {"random_seed": str(random_seed)}
        )
        hello = {
            "type": "hello",
            "protocol": PROTOCOL,
            "game": self.game.name,
            "rules": _rules_data(rules),
            "seat": seat,
            "players": rules.players,
            "seed": rng.getrandbits(SEED_BITS),
            **generator,
        }
        if kept is not None:
            # A kept process plays sessions and has answered a hello before: its ready is read
            # at its first decision (or the end), while the match goes on meanwhile.
            self._send(hello, self.limits.startup)
            self._ready_due = time.monotonic() + self.limits.startup
            return
        ready = self._take_ready(self._exchange(hello, self.limits.startup, "the hello"))
        self.skip_forced = self._session and ready.get("forced") is False

    def _take_ready(self, reply: dict[str, Any] | None) -> dict[str, Any]:
        """Read the answer to the hello: a ready, whose options hold for the match."""
        if reply is None:
            self._fail(f"answered the hello with a line of more than {self.limits.line} bytes")
        if reply.get("type") == "error":
            self._fail(self._reported(reply), _sent_traceback(reply))
        if reply.get("type") != "ready":
            self._fail(f"answered the hello with {_clip(reply)}, not a ready message")
        self._session = reply.get("protocol") == PROTOCOL
        self._updates = self._session and reply.get("updates") is True
        assert self.game is not None
        form = knowledge.form(self.game.observation_type)
        self._knowledge = self._session and reply.get("knowledge") == form
        self._wants_outcome = reply.get("outcome") is not False
        return reply

    def _await_ready(self) -> None:
        """Read the ready of a kept process, if it is still to be read, noting the seconds its
        wait took in :attr:`late_start` (they are not the decision's)."""
        due, self._ready_due = self._ready_due, None
        if due is None:
            self.late_start = 0.0
            return
        began = time.perf_counter()
        self._take_ready(self._reply(due, "the hello"))
        self.late_start = time.perf_counter() - began

    def _key(self) -> Hashable:
        """What makes two processes of this bot interchangeable between matches."""
        return (type(self), tuple(self.command), self.cwd, self.limits.memory)

    def _adopt(self, kept: ExternalPlayer) -> BotLog | None:
        """Take over the kept process of ``kept``; what it wrote since its last match goes to
        that match's log, which is handed over (still open: the next match may use the same
        file) or ``None``."""
        kept.drain()
        for name in _PROCESS_STATE:
            setattr(self, name, getattr(kept, name))
        kept.process = None
        log, kept._log = kept._log, None
        return log

    def _detach(self) -> ExternalPlayer:
        """A copy of this player holding its process (and the log of the match just played),
        to be kept for a later match; this player is left without a process."""
        kept = copy.copy(self)
        self.process = None
        self._log = None
        self._stderr = None
        self._buffer = bytearray()
        self._seen = {}
        self._cards = set()
        return kept

    def usable_for(self, deal: frozenset[Hashable]) -> bool:
        """Whether this kept process may play a match of the cards ``deal``: it has played
        none of them."""
        return not self._cards & deal

    def sound(self) -> bool:
        """Whether this kept process still runs and has written nothing on its output since
        its last match (a line nobody asked for would be read as the answer to the next
        hello)."""
        process = self.process
        if process is None or process.poll() is not None:
            return False
        assert process.stdout is not None
        return not select.select([process.stdout.fileno()], [], [], 0)[0]

    def drain(self) -> None:
        """Move what the kept process wrote on its error output to its last match's log."""
        self._pump_log()

    def hang_up(self) -> None:
        """Close the program's input, which tells a kept process to exit."""
        if self.process is not None and self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()

    def forget(self) -> None:
        """Let go of the process without stopping it: in a forked copy of the driver, where it
        is the parent's."""
        self.process = None
        self._log = None

    def _launch(self) -> BotProcess:
        """Start the program in a session of its own, under the limits.

        Raises:
            BotCrash: it cannot be started.
        """
        memory = self.limits.memory
        try:
            return subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                start_new_session=True,
                preexec_fn=lambda: prepare_bot_process(memory),
            )
        except OSError as error:
            reason = f"could not start {self.command[0]}: {error.strerror or error}"
            raise BotCrash(reason, fatal=True) from None

    def act(self, observation: AnyObservation) -> object:
        """Ask the program for a decision (see :meth:`act_within`)."""
        return self.act_within(observation, REPLY_TIMEOUT)

    def act_within(self, observation: AnyObservation, seconds: float) -> object:
        """Send the observation and read the action; the text of an action that does not parse
        is returned as it is, for the driver to refuse."""
        assert self.game is not None
        self._await_ready()
        told, told_view = self._told, self._told_view
        if self._knowledge and observation.holds_parts():
            message = {"type": "act", **observation.knowledge_since(told_view)}
            data = message["fields"]
        elif told is None:
            data = observation.to_dict(with_rules=False)
            message = {"type": "act", "observation": data}
        else:
            data = observation.data_since(told_view, told)
            message = (
                update_message(told, data)
                if self._updates
                else {"type": "act", "observation": data}
            )
        self._told, self._told_view = data, observation
        reply = self._exchange(message, min(seconds, REPLY_TIMEOUT), "a decision")
        if reply is None:
            return f"a line of more than {self.limits.line} bytes"
        kind = reply.get("type", "action")
        if kind == "error":
            raise BotCrash(self._reported(reply)) from _sent_traceback(reply)
        text = reply.get("action")
        if kind != "action" or not isinstance(text, str):
            self._fail(f"answered {_clip(reply)}, not an action message")
        for legal, action in zip(data["legal_actions"], observation.legal_actions, strict=True):
            if legal == text:
                return action  # the very action offered, which the driver checks at once
        try:
            return self.game.parse_action(text)
        except ValueError:
            return text

    def _reported(self, reply: dict[str, Any]) -> str:
        """How a fault shows the error message the program sent."""
        return f"reported an error: {_clip(str(reply.get('message', '')))}"

    def end(self, outcome: Outcome | None) -> None:
        """Tell the program the outcome (when there is one, without the match's seed), then
        keep its process for a later match if it plays sessions and played this one without a
        fault that stopped it, or else stop it."""
        try:
            if outcome is not None and self._broken is None and self.process is not None:
                self._await_ready()
                self._note_descendants(self.process)
                end: dict[str, Any] = {"type": "end"}
                if self._wants_outcome:
                    end["outcome"] = told_outcome(outcome)
                self._send(end, EXIT_GRACE)
                unread = self._buffer or self._skipping
                if self._session and self._deal is not None and not unread:
                    self._pump_log()  # what it wrote during the match is in its log at once
                    self._matches += 1
                    sessions.keep(self._key(), self._detach(), self._matches)
        except (BotCrash, BotTimeout):
            pass
        finally:
            self.close()

    def close(self, grace: float = EXIT_GRACE) -> None:
        """Stop the program and everything it started, after ``grace`` seconds for it to exit by
        itself; safe to call more than once."""
        process = self.process
        self._ready_due = None
        if process is None:
            return
        self.process = None
        assert process.stdin is not None
        assert process.stdout is not None
        assert process.stderr is not None
        self._note_descendants(process)
        with contextlib.suppress(OSError):
            process.stdin.close()
        deadline = time.monotonic() + grace
        delay = 0.0005
        exit_fd, owned = self._exit_fd(process)
        try:
            while process.poll() is None and time.monotonic() < deadline:
                self._note_descendants(process)
                self._wait_ready(exit_fd, False, min(deadline, time.monotonic() + delay))
                delay = min(2 * delay, 0.05)
        finally:
            if owned and exit_fd is not None:
                os.close(exit_fd)
        roots = {pid for pid, start in self._seen.items() if _start_time(pid) == start}
        if process.returncode is None:
            roots.add(process.pid)
        _kill_tree(roots)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        self._pump_log()
        self._stderr = None
        process.stdout.close()
        process.stderr.close()
        if self._log is not None:
            self._log.close()
            self._log = None
        if self.watched:
            _WATCHDOG.release(process.pid)

    def _exit_fd(self, process: BotProcess) -> tuple[int | None, bool]:
        """A descriptor that becomes readable when the process may have exited (a pidfd, on
        Linux), so that waiting for it ends then; and whether it is to be closed after."""
        if _PIDFD_OPEN is None:
            return None, False
        try:
            return _PIDFD_OPEN(process.pid), True
        except OSError:
            return None, False

    def _note_descendants(self, process: BotProcess) -> None:
        """Remember which processes are below the program now (Linux), so that those it leaves
        behind when it exits by itself, no longer below it then, are still known and stopped."""
        for pid in _tree({process.pid}) - {process.pid}:
            if (start := _start_time(pid)) is not None:
                self._seen[pid] = start

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    def _exchange(
        self, message: dict[str, Any], seconds: float, what: str
    ) -> dict[str, Any] | None:
        """Send one message and read the one-line reply; ``None`` when the line is over the cap."""
        deadline = time.monotonic() + seconds
        self._send(message, seconds)
        return self._reply(deadline, what)

    def _reply(self, deadline: float, what: str) -> dict[str, Any] | None:
        """The program's next line, a JSON object; ``None`` when the line is over the cap."""
        line = self._read_line(deadline, what)
        if line is None:
            return None
        try:
            reply = decode_json(line)
        except ValueError as problem:
            self._fail(f"answered {_clip(line.decode(errors='replace'))}, which is {problem}")
        if not isinstance(reply, dict):
            self._fail(f"answered {_clip(reply)}, not a JSON object")
        return cast(dict[str, Any], reply)

    def _send(self, message: dict[str, Any], seconds: float) -> None:
        if self._broken is not None:
            raise BotCrash(self._broken, fatal=True)
        assert self.process is not None
        assert self.process.stdin is not None
        data = memoryview(_ENCODE(message).encode() + b"\n")
        stdin = self.process.stdin.fileno()
        deadline = time.monotonic() + seconds
        while data:
            try:
                written = os.write(stdin, data)
            except BlockingIOError:
                written = 0
            except BrokenPipeError:
                self._fail(f"exited ({self._exit_status()})")
            data = data[written:]
            if data and not self._wait_ready(stdin, True, deadline):
                self._time_out("does not read its input")

    def _read_line(self, deadline: float, what: str) -> bytes | None:
        """The next line from the program, or ``None`` for a line over the cap, whose rest is
        then skipped. Each byte is looked at once, so a long line costs linear time."""
        assert self.process is not None
        assert self.process.stdout is not None
        stdout = self.process.stdout.fileno()
        if self._unpolled:
            self._unpolled -= 1
            spin_until = 0.0
        else:
            spin_until = time.monotonic() + SPIN
        while True:
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                line = bytes(self._buffer[:end]) if end <= self.limits.line else None
                del self._buffer[: end + 1]
                self._scanned = 0
                if not self._skipping:
                    return line
                self._skipping = False
                continue
            if self._skipping or len(self._buffer) > self.limits.line:
                overlong = not self._skipping
                self._skipping = True
                self._buffer.clear()
                if overlong:
                    return None
            self._scanned = len(self._buffer)
            if time.monotonic() >= spin_until:
                if spin_until:
                    self._unpolled, spin_until = SPIN_REST, 0.0
                if not self._wait_ready(stdout, False, deadline):
                    partial = f" (it wrote {_clip(self._buffer[:100].decode(errors='replace'))})"
                    self._time_out(f"did not answer {what} in time" + partial * bool(self._buffer))
            try:
                chunk = os.read(stdout, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                partial = f" after writing {_clip(self._buffer[:100].decode(errors='replace'))}"
                self._fail(f"exited ({self._exit_status()})" + partial * bool(self._buffer))
            self._buffer += chunk

    def _wait_ready(self, fd: int | None, writing: bool, deadline: float) -> bool:
        """Wait until ``fd`` can be read (or written) or the deadline passes, moving the
        program's error output into its log meanwhile, so that it never blocks writing it."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            reads = [each for each in (None if writing else fd, self._stderr) if each is not None]
            writes = [fd] if writing and fd is not None else []
            readable, writable, _ = select.select(reads, writes, [], remaining)
            if self._stderr is not None and self._stderr in readable:
                self._pump_log()
            if writable or (fd is not None and fd in readable):
                return True

    def _pump_log(self) -> None:
        """Append what the program wrote on stderr to its log, in one write, up to the cap
        (past it, what is read is dropped)."""
        if self._log is None:
            return
        read = bytearray()
        for _ in range(16):
            if self._stderr is None:
                break
            try:
                chunk = os.read(self._stderr, 65536)
            except BlockingIOError:
                break
            if not chunk:
                self._stderr = None
            read += chunk
        if read:
            self._log.write(self._heading + read)
            self._heading = b""

    def _exit_status(self) -> str:
        assert self.process is not None
        try:
            code = self.process.wait(EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return "closed its output"
        text = f"exit code {code}" if code >= 0 else f"killed by signal {-code}"
        return f"{text}; its error output is in {self.log_path}"

    def _fail(self, reason: str, cause: RemoteTraceback | None = None) -> NoReturn:
        self._broken = reason
        self.close(grace=0)
        raise BotCrash(reason, fatal=True) from cause

    def _time_out(self, reason: str) -> NoReturn:
        self._broken = reason
        self.close(grace=0)
        raise BotTimeout(reason, fatal=True)


_PROCESS_STATE = (
    "process", "_buffer", "_scanned", "_skipping", "_stderr", "_seen", "_cards", "_matches",
    "skip_forced",
)  # fmt: skip
"""What a player holds of its process: taken over with a kept process."""


def update_message(told: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """The ``act`` message that updates the observation data ``told`` (a bot's last) to
    ``data``: the fields that changed, and of the history the entries after the first
    ``history_kept``, which are unchanged (see the protocol's updates)."""
    update = {
        key: value
        for key, value in data.items()
        if (before := told[key]) is not value and before != value
    }
    message: dict[str, Any] = {"type": "act", "update": update}
    history = update.get("history")
    if history is not None:
        before = told["history"]
        kept = len(before)
        if history[:kept] != before:
            pairs = enumerate(zip(before, history, strict=False))
            kept = next((index for index, (old, new) in pairs if old != new), len(history))
        update["history"] = history[kept:]
        message["history_kept"] = kept
    return message


def told_outcome(outcome: Outcome) -> dict[str, Any]:
    """The outcome as a program is told it: its record without the match's seed, which could
    tell the cards of a later match dealt from the same seed."""
    told = outcome.to_dict()
    del told["record"]["seed"]
    return told


def share_log_folder(players: Sequence[object]) -> None:
    """Give the programs among ``players`` that have no folder for their logs one fresh folder,
    the same for all: a match's own."""
    folder: Path | None = None
    for player in players:
        if isinstance(player, ExternalPlayer) and player.log_dir is None:
            folder = folder or fresh_log_folder()
            player.log_dir = folder


class _Watchdog:
    """One helper process per driver process that kills the process groups of running bots
    if the driver dies without stopping them (killed, or crashed in C code)."""

    CODE = (
        "import os, signal, sys\n"
        "groups = set()\n"
        "for line in sys.stdin:\n"
        "    sign, group = line[0], int(line[1:])\n"
        "    (groups.add if sign == '+' else groups.discard)(group)\n"
        "for group in groups:\n"
        "    try:\n"
        "        os.killpg(group, signal.SIGKILL)\n"
        "    except OSError:\n"
        "        pass\n"
    )

    def __init__(self) -> None:
        self.process: BotProcess | None = None
        self.owner = 0

    def guard(self, group: int) -> None:
        """Kill this process group should the driver die."""
        if self.process is None or self.owner != os.getpid() or self.process.poll() is not None:
            self.owner = os.getpid()
            self.process = subprocess.Popen(
                [sys.executable, "-c", self.CODE],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        self._tell(f"+{group}")

    def pid(self) -> int | None:
        """The helper's process, when this process started it."""
        if self.process is None or self.owner != os.getpid():
            return None
        return self.process.pid

    def release(self, group: int) -> None:
        """The group is gone; forget it."""
        if self.process is not None and self.owner == os.getpid():
            self._tell(f"-{group}")

    def _tell(self, line: str) -> None:
        assert self.process is not None
        assert self.process.stdin is not None
        with contextlib.suppress(OSError):
            self.process.stdin.write(line.encode() + b"\n")
            self.process.stdin.flush()


_WATCHDOG = _Watchdog()


@functools.lru_cache(maxsize=64)
def _rules_data(rules: Rules | bluff.Rules) -> dict[str, Any]:
    """The rules as the hello gives them (the same few rules, match after match)."""
    return rules.to_dict()


def _state_to_json(generator: tuple[Any, ...]) -> list[Any]:
    version, internal, gauss = generator
    return [version, list(internal), gauss]


def _sent_traceback(reply: dict[str, Any]) -> RemoteTraceback | None:
    """The traceback an error answer carries, if it carries one."""
    text = received(reply.get("traceback"))
    return RemoteTraceback(text) if text else None


def _clip(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:57] + "...")


def die_with_parent(parent: int | None = None) -> None:
    """Make this process be killed when its parent dies (Linux; elsewhere nothing happens).
    Given the parent's pid, exit at once if the parent is already gone."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def prepare_bot_process(memory: int | None, parent: int | None = None) -> None:
    """In a bot's process, before the bot starts: be killed when the parent ``parent`` dies,
    keep every process the bot orphans below it (Linux: it is made a child subreaper, which
    lasts across ``exec``), and cap its memory at ``memory`` bytes."""
    die_with_parent(parent)
    if _PRCTL is not None:
        _PRCTL(PR_SET_CHILD_SUBREAPER, 1)
    if memory is not None and sys.platform.startswith("linux"):
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        cap = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


PR_SET_CHILD_SUBREAPER = 36
"""Linux ``prctl`` option: orphaned descendants are re-parented to this process, not to init."""
STOP_TIMEOUT = 1.0
"""Seconds to wait for the processes of a bot's tree to stop, or to die once killed."""


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state, ppid, pgrp, session,
    ...), or ``None`` when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            return file.read().rpartition(b")")[2].decode().split()
    except OSError:
        return None


def _start_time(pid: int) -> int | None:
    """When the process started, in clock ticks since boot: with the pid, it tells a process
    from a later one given the same pid. ``None`` when the process is gone."""
    fields = _stat(pid)
    return int(fields[19]) if fields else None


def _children(pid: int) -> set[int]:
    """The processes whose parent is one of the threads of ``pid``."""
    found: set[int] = set()
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as file:
                found.update(int(child) for child in file.read().split())
    return found


def _tree(roots: set[int]) -> set[int]:
    """``roots`` and all their descendants (Linux; elsewhere nothing)."""
    if _PRCTL is None:
        return set()
    tree = set(roots)
    todo = list(tree)
    while todo:
        for child in _children(todo.pop()) - tree:
            tree.add(child)
            todo.append(child)
    return tree


def _kill_tree(roots: set[int]) -> None:
    """Kill ``roots`` and all their descendants (Linux) and wait until they are dead. Each is
    stopped first and the tree collected again until no new member appears, so that it cannot
    grow meanwhile: a process that exits in between has its children re-parented to the bot, a
    subreaper, where the next collection finds them. None is reaped here: but for the bot, the
    killed processes are not this process's children."""
    tree: set[int] = set()
    while fresh := _tree(roots | tree) - tree:
        for pid in fresh:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
        _await_state(fresh, ("T", "t", "Z", "X"))
        tree |= fresh
    for pid in tree:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    _await_state(tree, ("Z", "X"))


def _await_state(pids: set[int], states: tuple[str, ...]) -> None:
    """Wait until each process is in one of ``states`` or gone, for at most ``STOP_TIMEOUT``:
    a signal takes effect once a system call in progress returns."""
    deadline = time.monotonic() + STOP_TIMEOUT
    for pid in pids:
        while (fields := _stat(pid)) is not None and fields[0] not in states:
            if time.monotonic() >= deadline:
                return
            time.sleep(0.0005)


def _find_prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _find_prctl()
_PIDFD_OPEN = getattr(os, "pidfd_open", None)
