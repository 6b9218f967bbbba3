"""A bot program speaking the JSON-lines bot protocol that misbehaves on purpose.

    python hostile_bot.py MODE [--after N] [--pids FILE] [--record FILE] [--marker TEXT]

It answers the hello and the first ``N`` decisions with a random legal action, then does what
MODE says (``ok`` plays on to the end). Standard library only, like any program a driver might
be given.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

MODES = (
    "ok",
    "crash",
    "half-hang",
    "half-exit",
    "silent",
    "silent-hello",
    "garbage",
    "illegal",
    "nonsense",
    "error",
    "traceback",
    "wrong-message",
    "spawn-hang",
    "daemon",
    "long-line",
    "memory",
    "chatty",
)

ILLEGAL_CANDIDATES = {
    "thousand": ("pass", "play AS", "bid 120", "take 1"),
    "1000?": ("challenge", "believe", "pass", "play 1000"),
}
"""Action texts that parse in each game; at least one of them is illegal at any decision."""

STACK = "Error: out of ideas\n    at decide (/bots/mybot.js:12:9)\n"
"""The end of the traceback that the ``traceback`` mode sends: where it raised."""


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def note(path: str | None, line: str) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as file:
            file.write(line + "\n")


def hang() -> None:
    while True:
        time.sleep(3600)


def misbehave(mode: str, game: str, observation: dict[str, Any], pids: str | None) -> bool:
    """Do what the mode says at the decision where it misbehaves; True when it answered."""
    note(pids, "misbehaving")
    if mode == "crash":
        sys.exit(3)
    if mode in ("half-hang", "half-exit"):
        sys.stdout.write('{"type": "action", "act')
        sys.stdout.flush()
        if mode == "half-exit":
            sys.exit(0)
        hang()
    if mode in ("silent", "spawn-hang"):
        hang()
    if mode == "garbage":
        sys.stdout.write("this is not JSON\n")
        sys.stdout.flush()
        return True
    if mode == "wrong-message":
        send({"type": "ready"})
        return True
    if mode == "illegal":
        legal = observation["legal_actions"]
        text = next(text for text in ILLEGAL_CANDIDATES[game] if text not in legal)
        send({"type": "action", "action": text})
        return True
    if mode == "nonsense":
        send({"type": "action", "action": "dance a jig"})
        return True
    if mode == "error":
        send({"type": "error", "message": "something went wrong in here"})
        return True
    if mode == "traceback":
        # A traceback that would retitle the terminal, and far longer than any driver keeps.
        text = "\x1b]0;PWNED\x07" + "x" * 30_000 + "\n" + STACK
        send({"type": "error", "message": "out of ideas", "traceback": text})
        return True
    if mode == "long-line":
        # A legal answer padded with two megabytes of spaces: valid JSON, but an overlong line.
        action = json.dumps(observation["legal_actions"][0])
        sys.stdout.write('{"type": "action", "action": ' + action + " " * (2 << 20) + "}\n")
        sys.stdout.flush()
        return True
    if mode == "memory":
        block = bytearray(600 << 20)
        block[-1] = 1
    return False


def daemonise(marker: str, pids: str | None) -> None:
    """Leave a sleeping process behind in a session of its own (double fork and setsid), once
    it has noted its pid (so that the bot goes on only then, and the note is never lost to the
    match ending first)."""
    noted, told = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            note(pids, f"child {os.getpid()}")
            os.write(told, b"x")
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", marker])
        os.read(noted, 1)
        os._exit(0)
    os.wait()
    os.close(noted)
    os.close(told)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--after", type=int, default=0)
    parser.add_argument("--pids")
    parser.add_argument("--record")
    parser.add_argument("--marker", default="hostile-bot")
    args = parser.parse_args()
    note(args.pids, f"bot {os.getpid()}")
    if args.mode == "spawn-hang":
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(60)", args.marker],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        note(args.pids, f"child {child.pid}")
    if args.mode == "daemon":
        daemonise(args.marker, args.pids)
    if args.mode == "chatty":
        for _ in range(3 << 10):
            sys.stderr.write("x" * 1023 + "\n")
    sys.stderr.write(f"{args.marker}: started in mode {args.mode}\n")
    sys.stderr.flush()
    rng = random.Random()
    game = "thousand"
    decisions = 0
    for line in sys.stdin:
        note(args.record, line.rstrip("\n"))
        message = json.loads(line)
        if message["type"] == "hello":
            if args.mode == "silent-hello":
                note(args.pids, "misbehaving")
                hang()
            game = message["game"]
            rng.seed(message["seed"])
            send({"type": "ready"})
        elif message["type"] == "act":
            observation = message["observation"]
            if decisions == args.after and args.mode != "ok":
                answered = misbehave(args.mode, game, observation, args.pids)
                decisions += 1
                if answered:
                    continue
            decisions += 1
            send({"type": "action", "action": rng.choice(observation["legal_actions"])})
        else:
            break
    sys.stderr.write(f"{args.marker}: done after {decisions} decisions\n")


if __name__ == "__main__":
    main()
