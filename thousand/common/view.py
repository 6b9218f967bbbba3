"""Frozen values whose fields are computed on first read.

An observation is made at every decision, but most bots read only a few of its fields. A
:class:`View` costs little to make: it copies the few plain values its fields are computed from
(never the state they come from), and each :class:`field` is computed from them the first time
it is read, then kept. Equality, hashing, pickling and the text form use the fields alone, so a
view behaves like any other frozen value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar, cast, overload

import attrs

from thousand.common.knowledge import Part, written
from thousand.errors import SeatError

__all__ = ["View", "check_seat", "field"]

V = TypeVar("V", bound="View")
T = TypeVar("T")


class field(Generic[T]):
    """A view's field: computed by the decorated method on first read, then kept."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, view: None, owner: type) -> field[T]: ...

    @overload
    def __get__(self, view: object, owner: type) -> T: ...

    def __get__(self, view: object, owner: type) -> field[T] | T:
        if view is None:
            return self
        known = view.__dict__
        unread = known.get("_unread")
        value: T
        if unread is not None and self.name in unread:
            value = known[self.name] = cast(View, view).READERS[self.name](unread[self.name])
        else:
            value = known[self.name] = self.compute(view)
        return value


def check_seat(players: int, seat: int) -> None:
    """Raise ``SeatError`` unless ``seat`` is one of a table of ``players``."""
    if not 0 <= seat < players:
        raise SeatError(f"seats at this table are 0 to {players - 1}, not {seat}")


class View:
    """A frozen value whose public fields are the subclass's :class:`field` attributes."""

    FIELDS: ClassVar[tuple[str, ...]] = ()
    """The field names, in the order the class defines them."""
    READERS: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}
    """Per field but the rules, how its value is read back from the JSON data the subclass's
    ``to_dict`` writes (raising ``KeyError``, ``TypeError`` or ``ValueError`` on a bad one)."""
    PARTS: ClassVar[tuple[Part, ...]] = ()
    """The parts the subclass's views hold (``_known``), in order, and how each is sent in the
    compact form (see :mod:`thousand.common.knowledge`)."""
    SENT_WITH: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}
    """The fields a view may be given when it is made rather than compute, and how each is
    written as JSON: sent with the parts, and read back by :attr:`READERS`."""

    @staticmethod
    def read_action(text: str) -> Any:
        """An action of the subclass's game from its text."""
        raise NotImplementedError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.FIELDS = tuple(
            name
            for name, value in vars(cls).items()
            if isinstance(value, field) and not name.startswith("_")
        )

    @classmethod
    def from_fields(cls: type[V], **fields: Any) -> V:
        """A view holding the given field values (every field must be given)."""
        missing = set(cls.FIELDS) - fields.keys()
        unknown = fields.keys() - set(cls.FIELDS)
        if missing or unknown:
            raise TypeError(
                f"{cls.__name__} needs exactly the fields {', '.join(cls.FIELDS)}; "
                f"missing {sorted(missing)}, unknown {sorted(unknown)}"
            )
        view = cls.__new__(cls)
        view.__dict__.update(fields)
        return view

    def to_dict(self, *, with_rules: bool = True) -> dict[str, Any]:
        """The view as plain JSON data (the rules left out when ``with_rules`` is false)."""
        raise NotImplementedError

    def data_since(self, previous: View, data: dict[str, Any]) -> dict[str, Any]:
        """``to_dict(with_rules=False)``, given ``data``, that of ``previous``, an earlier view
        of the same seat in the same game: a subclass takes from it what did not change."""
        return self.to_dict(with_rules=False)

    def holds_parts(self) -> bool:
        """Whether the view holds its parts, as a view the engine made does, and so can be sent
        in the compact form; a view rebuilt from its fields (:meth:`from_fields`, or a game's
        ``observation_from_dict``) cannot."""
        return "_known" in self.__dict__

    def knowledge_since(self, previous: View | None) -> dict[str, Any]:
        """What a bot that was last sent ``previous`` (``None``: nothing yet), a view of the
        same seat in the same game, needs to rebuild this view: its parts that changed and the
        fields it was given (see :mod:`thousand.common.knowledge`)."""
        known = self.__dict__
        sent = self.SENT_WITH.items()
        fields = {name: write(known[name]) for name, write in sent if name in known}
        before = None if previous is None else previous.__dict__["_known"]
        return written(self.PARTS, known["_known"], before, fields)

    @classmethod
    def from_knowledge(cls: type[V], parts: tuple[Any, ...], fields: Mapping[str, Any]) -> V:
        """The view holding ``parts`` and given ``fields``, as :meth:`knowledge_since` sent
        them."""
        view = cls.__new__(cls)
        view.__dict__["_known"] = parts
        view.__dict__.update(fields)
        return view

    def updated(self: V, changes: Mapping[str, Any]) -> V:
        """This view with the fields named in ``changes`` given by their JSON data (see
        :attr:`READERS`) and the others as they are: an observation rebuilt from what changed
        since the last one, as a bot reads the updates of the bot protocol. A field is read
        from its data when first used (most bots use a few).

        Raises:
            KeyError: a name that is no such field.
        """
        readers = self.READERS
        for name in changes:
            if name not in readers:
                raise KeyError(f"{name!r} is not a field of {type(self).__name__}")
        known = self.__dict__
        unread: dict[str, Any] = known.get("_unread", {})
        for name in self.FIELDS:
            if name not in known and name not in unread:
                getattr(self, name)  # computed from what the view holds, which is not kept
        view = type(self).__new__(type(self))
        kept = view.__dict__
        for name in self.FIELDS:
            if name in known and name not in changes:
                kept[name] = known[name]
        still = {name: data for name, data in unread.items() if name not in kept}
        still.update(changes)
        kept["_unread"] = still
        return view

    def fields(self) -> dict[str, Any]:
        """Every field by name."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in self.FIELDS))

    def __reduce__(self) -> tuple[Callable[..., View], tuple[type[View], dict[str, Any]]]:
        return _rebuilt, (type(self), self.fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({shown})"


def _rebuilt(kind: type[V], fields: dict[str, Any]) -> V:
    """A pickled view, from its fields."""
    return kind.from_fields(**fields)
