"""A bot in another process, using nothing but the Python standard library.

It speaks the JSON-lines bot protocol (docs/bot-protocol.md) on stdin and stdout and plays
either game: in a Thousand auction it passes, otherwise it picks a random legal action. It plays
sessions: after the end of a match it waits for the next hello, until its input closes. It asks
for updates (only what changed since its last decision) and for no outcome at the end, which
makes it quicker. Run it in a match with

    thousand match "cmd:python examples/external_bot.py" random random
"""

import json
import random
import sys
from typing import Any


def choose(observation: dict[str, Any], rng: random.Random) -> str:
    """Pick one of the legal actions (given as text) from the observation."""
    legal: list[str] = observation["legal_actions"]
    if observation["phase"] == "auction" and "pass" in legal:
        return "pass"
    return rng.choice(legal)


def merged(observation: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """The observation an act message gives: whole, or the last one with the update merged."""
    if "observation" in message:
        return message["observation"]  # type: ignore[no-any-return]
    update = message["update"]
    history = observation["history"]
    observation = {**observation, **update}
    if "history" in update:
        observation["history"] = history[: message["history_kept"]] + update["history"]
    return observation


def main() -> None:
    rng = random.Random()
    observation: dict[str, Any] = {}
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":  # a new match: start afresh
            rng.seed(message["seed"])
            reply = {
                "type": "ready",
                "name": "external-example",
                "protocol": 2,
                "updates": True,
                "outcome": False,
            }
        elif kind == "act":
            observation = merged(observation, message)
            reply = {"type": "action", "action": choose(observation, rng)}
        else:  # the end of a match: wait for the next one
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
