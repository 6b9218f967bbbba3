"""Strict readers of the JSON values in what both games read back (records, observations): a
whole number is neither a boolean nor a number with a fraction, and true or false is nothing
else, so that a malformed value is refused instead of being read as something near it."""

from __future__ import annotations

from typing import Any


def is_whole(value: Any) -> bool:
    """Whether a JSON value is a whole number (and not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole(value: Any) -> int:
    """A whole number, or ``ValueError``."""
    if not is_whole(value):
        raise ValueError(f"expected a whole number, not {value!r}")
    return int(value)


def optional_whole(value: Any) -> int | None:
    """A whole number or ``None`` (JSON's null), or ``ValueError``."""
    return None if value is None else whole(value)


def wholes(values: Any) -> tuple[int, ...]:
    """A list of whole numbers, or ``ValueError`` (``TypeError`` when it is not a list)."""
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"expected a list, not {values!r}")
    return tuple([whole(value) for value in values])


def truth(value: Any) -> bool:
    """True or false, or ``ValueError``."""
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, not {value!r}")
    return value
