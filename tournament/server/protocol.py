"""The server's websocket protocol for bots: how a connection logs in, and the limits on what a
bot may send. Every message is one JSON object in one text message (see docs/server.md)."""

from __future__ import annotations

import json
import time
from typing import Any

import attrs

__all__ = [
    "CLOSE_BAD_LOGIN",
    "CLOSE_LOGIN_TIMEOUT",
    "CLOSE_REPLACED",
    "CLOSE_SLOW",
    "CLOSE_TOO_BIG",
    "CLOSE_TOO_MANY",
    "PROTOCOL",
    "Limits",
    "MessageError",
    "Rate",
    "read_message",
]

PROTOCOL = 1
"""The version of the server's protocol, sent in the welcome."""

CLOSE_TOO_BIG = 1009
"""Close code: a message larger than the limit (the websocket standard's "message too big")."""
CLOSE_BAD_LOGIN = 4401
"""Close code: the first message was not a login with a known, unrevoked token."""
CLOSE_LOGIN_TIMEOUT = 4408
"""Close code: no login came in time."""
CLOSE_REPLACED = 4409
"""Close code: the bot connected again, and the newer connection took over."""
CLOSE_TOO_MANY = 4429
"""Close code: the bot kept sending faster than the limit after it was told."""
CLOSE_SLOW = 4504
"""Close code: the bot took too long to read what it was sent (it stopped reading)."""


@attrs.frozen
class Limits:
    """What a connection may send."""

    largest_message: int = 65536
    """Characters in one message at the most."""
    per_second: float = 20.0
    """Messages a second, sustained."""
    burst: int = 40
    """Messages sent at once beyond the sustained rate."""
    warnings: int = 3
    """Messages refused for the rate before the connection is closed."""
    login_seconds: float = 10.0
    """Seconds a new connection has to log in."""


class MessageError(ValueError):
    """A message that is not one the protocol knows: the error sent back says why."""


def read_message(text: str) -> dict[str, Any]:
    """The JSON object of a message, with a string ``type``."""
    try:
        message = json.loads(text)
    except ValueError:
        raise MessageError("a message must be one JSON object") from None
    if not isinstance(message, dict):
        raise MessageError("a message must be one JSON object")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise MessageError('a message must have a "type" string')
    return message


class Rate:
    """A token bucket: whether each message comes within :class:`Limits`' rate."""

    def __init__(self, limits: Limits, clock: Any = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.tokens = float(limits.burst)
        self.last = clock()
        self.refused = 0

    def allows(self) -> bool:
        """Take one message's token; ``False`` (and one more refusal counted) when none is left."""
        now = self.clock()
        self.tokens = min(
            float(self.limits.burst), self.tokens + (now - self.last) * self.limits.per_second
        )
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False
