"""What a seat knows, in few bytes: the compact form in which the driver sends observations to
the library's own served bots.

An observation (:class:`~thousand.common.view.View`) holds a tuple of plain parts that its
seat may know, copied from the state, and computes every field from them. Between two
decisions of a seat most parts are the very same objects, so the driver sends only the parts
that changed (of a history, the actions added to it) and the fields set when the view was
made (the legal actions, say). The served bot rebuilds the same parts, and from them the same
observation, field for field: building its fields costs the driver nothing, and the bot only
what it reads.

The form is the library's own and changes with it: a bot is sent it only when its ``ready``
names the same :func:`form` as the driver's. Other programs are sent the observation's JSON
fields, as the bot protocol describes.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from thousand.common.history import entries_after

if TYPE_CHECKING:
    from thousand.common.view import View

V = TypeVar("V", bound="View")

__all__ = ["ACTIONS", "HISTORY", "RULES", "VALUE", "Part", "Reader", "form", "parts", "written"]

RULES = "rules"
"""A part that is not sent: the rules, which the hello gave."""
VALUE = "value"
"""A part made of whole numbers, ``None`` and tuples of them, sent as JSON."""
ACTIONS = "actions"
"""A part that is a tuple of actions, sent as their texts."""
HISTORY = "history"
"""A part that is a linked history (:mod:`thousand.common.history`), sent as the actions added
since the bot's last view, or as a whole when it does not extend that one's."""


@attrs.frozen
class Part:
    """One part of what a view holds: its name, and how it is sent (one of the kinds above, or
    an enumeration, sent by its value)."""

    name: str
    kind: str | type[enum.Enum]


def parts(*named: tuple[str, str | type[enum.Enum]]) -> tuple[Part, ...]:
    """The parts of a view, from their names and kinds in order."""
    return tuple(Part(name, kind) for name, kind in named)


def form(view_type: type[View]) -> str:
    """A name for the compact form of ``view_type``'s observations, which changes whenever
    their parts or the fields sent with them change."""
    named = _FORMS.get(view_type)
    if named is None:
        named = _FORMS[view_type] = _form(view_type)
    return named


_FORMS: dict[type, str] = {}


def _form(view_type: type[View]) -> str:
    kinds = [(part.name, getattr(part.kind, "__qualname__", part.kind)) for part in view_type.PARTS]
    text = repr((view_type.__module__, view_type.__qualname__, kinds, sorted(view_type.SENT_WITH)))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def written(
    parts: Sequence[Part],
    now: tuple[Any, ...],
    before: tuple[Any, ...] | None,
    fields: Mapping[str, Any],
) -> dict[str, Any]:
    """The message body that takes a bot holding the parts ``before`` (``None``: none yet) to
    the parts ``now`` and the fields ``fields`` (already written as JSON)."""
    changed: list[list[Any]] = []
    for index, part in enumerate(parts):
        value = now[index]
        if before is not None and value is before[index]:
            continue
        kind = part.kind
        if kind is VALUE:
            changed.append([index, value])
        elif kind is HISTORY:
            added = entries_after(value, None if before is None else before[index])
            if added is None:
                changed.append([index, [True, entries_after(value, None)]])
            else:
                changed.append([index, [before is None, added]])
        elif kind is ACTIONS:
            changed.append([index, [str(action) for action in value]])
        elif kind is not RULES:
            changed.append([index, value.value])
    return {"known": changed, "fields": dict(fields)}


class Reader(Generic[V]):
    """The bot's side: rebuilds the views of one seat in one match from the messages written
    by :func:`written`, each on top of the last."""

    def __init__(self, view_type: type[V], rules: object) -> None:
        self.view_type = view_type
        self.parts: list[Any] = [rules if part.kind is RULES else None for part in view_type.PARTS]
        self.read_action: Callable[[str], Any] = view_type.read_action

    def read(self, body: Mapping[str, Any]) -> V:
        """The view a message body describes (raises ``KeyError``, ``TypeError``,
        ``ValueError`` or ``IndexError`` on a malformed one)."""
        parts = self.parts
        known = self.view_type.PARTS
        read_action = self.read_action
        for index, value in body["known"]:
            kind = known[index].kind
            if kind is VALUE:
                parts[index] = _tupled(value)
            elif kind is HISTORY:
                fresh, entries = value
                node = None if fresh else parts[index]
                for seat, text in entries:
                    node = (node, int(seat), read_action(text))
                parts[index] = node
            elif kind is ACTIONS:
                parts[index] = tuple([read_action(text) for text in value])
            elif isinstance(kind, type):
                parts[index] = kind(value)
        readers = self.view_type.READERS
        fields = {name: readers[name](data) for name, data in body["fields"].items()}
        return self.view_type.from_knowledge(tuple(parts), fields)


def _tupled(value: Any) -> Any:
    """JSON data with every list made a tuple, as the parts hold them."""
    if type(value) is list:
        return tuple([_tupled(item) if type(item) is list else item for item in value])
    return value
