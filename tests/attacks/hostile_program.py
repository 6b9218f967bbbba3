"""A hostile bot program: speaks the bot protocol, plays a random legal action, and at each
hello tries every way out of its sandbox. Its options: OUT HOME PORT MARKER."""

import json
import os
import random
import sys

import looking  # beside this file


def main() -> None:
    out, home, port, marker = sys.argv[1:5]
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            rng.seed(message["seed"])
            looking.read_memory()
            looking.read_command_lines()
            looking.read_file("config", f"{out}/config.json")
            looking.read_file("home", f"{home}/secret.txt")
            looking.write_file("own folder", f"{__file__}.written")
            looking.connect(int(port))
            looking.sabotage(os.path.dirname(out))
            reply = {"type": "ready"}
        elif message["type"] == "act":
            reply = {
                "type": "action",
                "action": rng.choice(message["observation"]["legal_actions"]),
            }
        else:
            looking.leave_behind(marker)
            break
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
