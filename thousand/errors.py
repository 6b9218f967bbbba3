"""The exceptions the library raises; each one is also a ``ValueError``."""

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
        if seat is None:
            message = f"nobody may act after the {phase} ('{action}'): {reason}"
        else:
            message = f"seat {seat} may not '{action}' in the {phase} phase: {reason}"
        super().__init__(message)


class RulesError(ThousandError, ValueError):
    """A rules configuration that is malformed or contradicts itself."""


class LayoutError(ThousandError, ValueError):
    """A deal layout that does not fit the rules (wrong sizes, repeated or missing cards)."""


class SeatError(ThousandError, ValueError):
    """A seat number that does not exist at this table."""


class RecordError(ThousandError, ValueError):
    """A match record that cannot be read or does not replay."""
