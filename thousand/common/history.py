"""Action histories kept as linked lists, so that each new state adds one small cell."""

from __future__ import annotations

from typing import TypeAlias, TypeVar

A = TypeVar("A")

Linked: TypeAlias = "tuple[Linked[A], int, A] | None"
"""``None`` (nothing yet) or ``(previous, seat, action)``."""


def history_tuple(history: Linked[A]) -> tuple[tuple[int, A], ...]:
    """A linked history as a tuple of ``(seat, action)``, oldest first."""
    items = []
    while history is not None:
        history, seat, action = history
        items.append((seat, action))
    items.reverse()
    return tuple(items)


def entries_after(now: Linked[A], before: Linked[A]) -> list[list[object]] | None:
    """The entries of the linked history ``now`` after ``before``, as ``[seat, action text]``
    oldest first, or ``None`` when ``now`` does not extend ``before``."""
    added: list[list[object]] = []
    while now is not before:
        if now is None:
            return None
        now, seat, action = now
        added.append([seat, str(action)])
    added.reverse()
    return added
