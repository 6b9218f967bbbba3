"""A bot's traceback, as its faults keep it: from the bot's own first frame to its raise.

For a bot in the driver's process it is formatted from the exception the bot raised. A bot in a
process of its own sends it with its error answer (the ``traceback`` field of the protocol); that
text comes from another program, so it is cut to its last :data:`LONGEST` characters and its
control characters other than line breaks are shown as ``?``.
"""

from __future__ import annotations

import os
import re
import traceback

from thousand.errors import BotFailure

__all__ = ["LONGEST", "RemoteTraceback", "bot_traceback", "formatted", "raised_at", "received"]

LONGEST = 20_000
"""Characters of a traceback sent by a bot's process that are kept: the last ones, which hold
the raise."""

_TABLE = os.path.dirname(os.path.abspath(__file__))
"""The folder of the driver's and the bot processes' modules, whose frames lead to a bot's."""
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
_FRAME = re.compile(r'^ *File "(.*)", line (\d+), in (.*)$', re.MULTILINE)


class RemoteTraceback(Exception):
    """The traceback a bot's process sent with its error: set as the cause of the
    :class:`~thousand.BotCrash` that the fault records, so that Python shows it where it shows
    any cause."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return "\n" + self.text.rstrip("\n")


def formatted(error: BaseException) -> str:
    """The traceback of an exception a bot raised in this process, with its chain, from the
    bot's first frame: the frames of the driver or the bot's server above it are left out."""
    frames = error.__traceback__
    while frames is not None and os.path.dirname(frames.tb_frame.f_code.co_filename) == _TABLE:
        frames = frames.tb_next
    return "".join(traceback.format_exception(type(error), error, frames))


def received(value: object) -> str:
    """The ``traceback`` field of a bot's error answer as it is kept: empty unless it is text,
    its end when it is long, control characters but line breaks shown as ``?``."""
    if not isinstance(value, str):
        return ""
    if len(value) > LONGEST:
        cut = len(value) - LONGEST
        value = f"... ({cut} characters cut)\n" + value[cut:]
    return _CONTROL.sub("?", value)


def bot_traceback(error: BaseException) -> str:
    """The traceback a fault keeps for a bot's failure: the one the bot's process sent, the one
    of its exception in this process, or none for a failure the driver found itself (a timeout,
    a process that crashed or broke the protocol)."""
    if isinstance(error, BotFailure):
        cause = error.__cause__
        return cause.text if isinstance(cause, RemoteTraceback) else ""
    return formatted(error)


def raised_at(text: str) -> str:
    """Where the last exception of a traceback was raised, ``mybot.py, line 12, in act``; empty
    when the text names no place."""
    places = _FRAME.findall(text)
    if not places:
        return ""
    file, line, function = places[-1]
    return f"{file}, line {line}, in {function}"
