"""The ready of a kept process: the driver sends a later match's hello and reads the ready at
the bot's first decision, and the time it waits for it is not the decision's."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import thousand
from thousand import Outcome, Rules
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


def two_matches(tmp_path: Path, how: str, **second: Any) -> tuple[Outcome, Outcome]:
    """Two single deals of the slow starter (``how``: its seconds, or ``fail``) against two
    ``random`` bots, the second with ``second``'s options; its process is kept between them."""
    (tmp_path / "slow_start.py").write_text(SLOW_START)
    command = f"cmd:{sys.executable} {tmp_path / 'slow_start.py'} {how}"
    rules = Rules.preset("russian")
    logs = str(tmp_path / "logs")
    played = tuple(
        thousand.play(
            [command, "random", "random"],
            rules,
            seed=seed,
            single_deal=True,
            log_dir=logs,
            **(second if seed == 2 else {}),
        )
        for seed in (1, 2)
    )
    stop_sessions()
    return played[0], played[1]


def test_waiting_for_a_kept_process_to_start_is_not_thinking(tmp_path: Path) -> None:
    """A kept program that takes 0.3 s to answer its second hello, under a limit of 0.2 s a
    decision, plays its second match without a fault: the wait is not counted."""
    first, second = two_matches(tmp_path, "0.3", time_limit=0.2)
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
    first, second = two_matches(tmp_path, "fail")
    assert first.faults == ()
    (fault,) = second.faults
    assert fault.seat == 0
    assert fault.status.value == "error"
    assert "no model for this seat" in fault.detail
