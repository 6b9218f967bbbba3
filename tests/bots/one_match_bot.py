"""A bot written for version 1 of the bot protocol (the example bot as it was then): it plays
one match, ends at the end message, and notes its pid on its error output at the hello."""

import json
import os
import random
import sys
from typing import Any


def choose(observation: dict[str, Any], rng: random.Random) -> str:
    """Pick one of the legal actions (given as text) from the observation."""
    legal: list[str] = observation["legal_actions"]
    if observation["phase"] == "auction" and "pass" in legal:
        return "pass"
    return rng.choice(legal)


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            print(f"one-match pid {os.getpid()}", file=sys.stderr, flush=True)
            rng.seed(message["seed"])
            reply = {"type": "ready", "name": "external-example"}
        elif kind == "act":
            reply = {"type": "action", "action": choose(message["observation"], rng)}
        else:
            break
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
