"""The ready of a kept process: the driver sends a later match's hello and reads the ready at
the bot's first decision, and the time it waits for it is not the decision's."""

from __future__ import annotations

import sys
from pathlib import Path

import thousand
from thousand import Rules
from thousand.table.sessions import stop_sessions

SLOW_START = """
import json, os, sys, time
hellos = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        hellos += 1
        print(f"hello {hellos} in {os.getpid()}", file=sys.stderr, flush=True)
        if hellos > 1 and sys.argv[1] == "fail":
            reply = {"type": "error", "message": "no model for this seat"}
        else:
            time.sleep(float(sys.argv[1]) if hellos > 1 else 0)
            reply = {"type": "ready", "protocol": 2, "updates": True}
    elif message["type"] == "act":
        legal = (message.get("observation") or message["update"]).get("legal_actions")
        reply = {"type": "action", "action": (legal or ["pass"])[0]}
    else:
        continue
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
"""


def _program(tmp_path: Path, how: str) -> str:
    (tmp_path / "slow_start.py").write_text(SLOW_START)
    return f"cmd:{sys.executable} {tmp_path / 'slow_start.py'} {how}"


def test_waiting_for_a_kept_process_to_start_is_not_thinking(tmp_path: Path) -> None:
    """A kept program that takes 0.3 s to answer its second hello, under a limit of 0.2 s a
    decision, plays its second match without a fault: the wait is not counted."""
    command = _program(tmp_path, "0.3")
    rules = Rules.preset("russian")
    logs = str(tmp_path / "logs")
    first = thousand.play(
        [command, "random", "random"], rules, seed=1, single_deal=True, log_dir=logs
    )
    second = thousand.play(
        [command, "random", "random"],
        rules,
        seed=2,
        single_deal=True,
        time_limit=0.2,
        log_dir=logs,
    )
    stop_sessions()
    assert first.faults == second.faults == ()
    assert second.think_time[0] < 0.2
    (log,) = (tmp_path / "logs").iterdir()
    text = log.read_text()
    pids = {line.split()[-1] for line in text.splitlines() if line.startswith("hello ")}
    assert "hello 2 in" in text  # the second match was the kept process's
    assert len(pids) == 1


def test_a_kept_process_refusing_a_later_hello_is_stopped_at_its_first_decision(
    tmp_path: Path,
) -> None:
    """A kept program answering its second hello with an error is stopped at its first decision
    of that match, with an error fault that shows its message."""
    command = _program(tmp_path, "fail")
    rules = Rules.preset("russian")
    logs = str(tmp_path / "logs")
    first = thousand.play(
        [command, "random", "random"], rules, seed=1, single_deal=True, log_dir=logs
    )
    second = thousand.play(
        [command, "random", "random"], rules, seed=2, single_deal=True, log_dir=logs
    )
    stop_sessions()
    assert first.faults == ()
    (fault,) = second.faults
    assert fault.seat == 0
    assert fault.status.value == "error"
    assert "no model for this seat" in fault.detail
