"""The user's Ctrl-C told apart from a ``KeyboardInterrupt`` that a bot raises itself.

A bot that raises ``KeyboardInterrupt`` (or calls ``sys.exit()``) is at fault like a bot that
raises anything else, but Ctrl-C stops the match, and both come as a ``KeyboardInterrupt``. So
while a bot's own code is called in the main thread, the handler of SIGINT is wrapped to note that
one arrived: a ``KeyboardInterrupt`` from a bot is then the user's when a SIGINT arrived
meanwhile, or when it is a :class:`~thousand.players.StopMatch`. Where no SIGINT can raise
one (in another thread, or with SIGINT ignored or left to the system) any other is the bot's;
where the handler is not Python's to wrap, every one is the user's, as before there was any
telling.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from thousand.players import StopMatch

__all__ = ["Interrupts", "noting_interrupts"]


class Interrupts:
    """Whether the user interrupted while bots were called."""

    def __init__(self, noted: bool = False) -> None:
        self.noted = noted
        """Whether a SIGINT arrived (or could have arrived unseen)."""

    def users(self, error: BaseException) -> bool:
        """Whether ``error``, raised while a bot's code ran, is the user's interrupt rather than
        the bot's fault."""
        return isinstance(error, StopMatch) or (isinstance(error, KeyboardInterrupt) and self.noted)

    def call_end(self, player: object, outcome: object) -> None:
        """Call the player's ``end`` hook, if it has one, ignoring whatever it raises (its
        ``sys.exit()`` too) but the user's interrupt."""
        end = getattr(player, "end", None)
        if end is None:
            return
        try:
            end(outcome)
        except BaseException as error:
            if self.users(error):
                raise


@contextlib.contextmanager
def noting_interrupts(needed: bool = True) -> Iterator[Interrupts]:
    """Note, until the block ends, whether SIGINT arrives; the handler is put back after. Not
    ``needed`` when no bot's own code runs in this process: then nothing is wrapped (wrapping
    costs some 25 µs, a few per cent of a single deal between quick bots) and every
    ``KeyboardInterrupt`` is the user's."""
    interrupts = Interrupts(noted=not needed)
    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGINT) if main and needed else signal.SIG_IGN
    if previous is None:  # a handler set outside Python: a SIGINT could pass unseen
        interrupts.noted = True
    if not callable(previous):
        yield interrupts
        return
    handler = previous

    def note(signum: int, frame: FrameType | None) -> None:
        interrupts.noted = True
        handler(signum, frame)

    signal.signal(signal.SIGINT, note)
    try:
        yield interrupts
    finally:
        signal.signal(signal.SIGINT, previous)
