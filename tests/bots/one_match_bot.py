"""A bot written for version 1 of the bot protocol: it plays one match at random, ends at the
end message, and notes its pid on its error output at the hello."""

import json
import os
import random
import sys


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
            legal = message["observation"]["legal_actions"]
            reply = {"type": "action", "action": rng.choice(legal)}
        else:
            break
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
