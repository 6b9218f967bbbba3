"""The exceptions the library raises. Errors in input (notation, actions, rules, layouts,
records, seats, bot specs) are also ``ValueError`` subclasses; a bot's own failure is not.
:class:`~thousand.players.PlayerError`, which carries one of the driver's faults, lives
with the players."""

from __future__ import annotations


class ThousandError(Exception):
    """Base class of every error raised by this library."""


class NotationError(ThousandError, ValueError):
    """Text that does not spell a card or an action."""


class InvalidActionError(NotationError):
    """Text that does not spell an action, such as ``"bid twelve"``."""


class IllegalActionError(ThousandError, ValueError):
    """A well-formed action that the rules do not allow in this state.

    The state it was applied to is unchanged (states are immutable).
    """

    def __init__(self, action: object, seat: int | None, phase: str, reason: str) -> None:
        self.action = action
        self.seat = seat
        self.phase = phase
        self.reason = reason
        shown = _shown(action)
        if seat is None:
            message = f"nobody may act after the {phase} ('{shown}'): {reason}"
        else:
            message = f"seat {seat} may not '{shown}' in the {phase} phase: {reason}"
        super().__init__(message)


def _shown(action: object) -> str:
    """The action's text; any object may be offered as an action, even one that cannot be
    shown."""
    try:
        return str(action)
    except Exception:
        return f"a {type(action).__name__} that cannot be shown"


class RulesError(ThousandError, ValueError):
    """A rules configuration that is malformed or contradicts itself."""


class LayoutError(ThousandError, ValueError):
    """A deal layout that does not fit the rules (wrong sizes, repeated or missing cards)."""


class SeatError(ThousandError, ValueError):
    """A seat number that does not exist at this table."""


class TurnError(ThousandError, ValueError):
    """An answer for a seat that is not to act in a stepped match (or for a match that is
    over)."""


class RecordError(ThousandError, ValueError):
    """A match record that cannot be read or does not replay."""


class NoWorldError(ThousandError, ValueError):
    """No full state agrees with an observation given to a determiniser: the game is over, or
    the observation cannot have come from a real game."""


class ModelError(ThousandError, ValueError):
    """A file of a bot's learned models that cannot be read or is not such a file."""


class BotSpecError(ThousandError, ValueError):
    """A bot spec that names no bot that can be loaded (see :func:`thousand.load_player`)."""


class BotFailure(ThousandError):
    """Raised by a player that could not answer a decision; ``fatal`` when it cannot be asked
    again (its process is gone or out of step), so the driver plays for it from then on."""

    def __init__(self, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.fatal = fatal


class BotTimeout(BotFailure):
    """A player that did not answer within its time."""


class BotCrash(BotFailure):
    """A player that failed: an external program that exited or broke the protocol, or a bot
    that reported an error."""
