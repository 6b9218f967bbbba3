"""Building blocks of the games' rules configurations: strictly checked fields and JSON reading,
each problem reported as a ``RulesError`` that names the field."""

from __future__ import annotations

import enum
import json
import sys
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from thousand.errors import RulesError, ThousandError


def _as_written(value: Any) -> str:
    """A value as a rules file writes it (JSON), or as Python shows it when JSON cannot."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _strict_int(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(
            f"rules field '{attribute.name}' must be a whole number, not {_as_written(value)}"
        )


def _strict_bool(instance: object, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise RulesError(
            f"rules field '{attribute.name}' must be true or false, not {_as_written(value)}"
        )


def int_field(default: int, low: int, high: int) -> Any:
    """A whole-number field from ``low`` to ``high``: every field is bounded, so that no
    configuration makes a game that cannot be played in reasonable time and memory."""

    def within(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        if not low <= value <= high:
            raise RulesError(
                f"rules field '{attribute.name}' must be {low:,} to {high:,}, not {value:,}"
            )

    return attrs.field(default=default, validator=[_strict_int, within])


def bool_field(default: bool) -> Any:
    """A true/false field."""
    return attrs.field(default=default, validator=_strict_bool)


def enum_field(
    enum_type: type[enum.Enum], default: enum.Enum, also: Callable[[Any], Any] | None = None
) -> Any:
    """A field holding one member of ``enum_type``, also accepted as its string value (and as
    whatever ``also`` turns into a member; it returns any other value unchanged)."""

    def convert(value: Any) -> Any:
        if also is not None:
            value = also(value)
        if isinstance(value, enum_type):
            return value
        try:
            return enum_type(value)
        except ValueError:
            choices = ", ".join(repr(member.value) for member in enum_type)
            raise RulesError(
                f"{value!r} is not a {enum_type.__name__} setting; choose one of {choices}"
            ) from None

    return attrs.field(default=default, converter=convert)


def json_object(data: Any) -> Mapping[str, Any]:
    """``data`` if it is a JSON object, else ``RulesError``."""
    if not isinstance(data, Mapping):
        raise RulesError(f"rules must be a JSON object, not {type(data).__name__}")
    return data


def only_known_fields(cls: type[Any], values: Mapping[str, Any]) -> None:
    """Raise ``RulesError`` naming any key that is not a field of the attrs class ``cls``."""
    known = {field.name for field in attrs.fields(cls) if field.init}
    unknown = sorted(set(values) - known)
    if unknown:
        raise RulesError(
            f"unknown rules field(s): {', '.join(unknown)}; known fields are "
            + ", ".join(sorted(known))
        )


MAX_DEPTH = 64
"""How deeply lists and objects may nest in the JSON the library reads; its own documents nest
a few levels, and deeper ones would overflow Python's stack when read or shown."""
MAX_DIGITS = sys.get_int_max_str_digits()
"""The most digits of a whole number in JSON text: Python converts none longer."""


def decode_json(text: str | bytes) -> Any:
    """JSON text as Python values, or ``ValueError`` saying in a few words why it is not what
    the project reads: not JSON (``NaN`` and ``Infinity`` included), a whole number too long
    for Python to convert, or lists and objects nested more than :data:`MAX_DEPTH` levels."""
    try:
        if not isinstance(text, str):
            text = text.decode(json.detect_encoding(text), "surrogatepass")
        data = _DECODER.decode(text)
    except (json.JSONDecodeError, _Constant) as problem:
        raise ValueError(f"not valid JSON: {problem}") from None
    except UnicodeDecodeError as problem:
        raise ValueError(f"not UTF-8 text (byte {problem.start} cannot be read)") from None
    except RecursionError:
        data, depth = None, MAX_DEPTH + 1
    except ValueError:
        # Python refuses to convert a whole number of more than sys.get_int_max_str_digits().
        raise ValueError(
            f"not valid JSON: it holds a whole number of more than {MAX_DIGITS:,} digits"
        ) from None
    else:
        depth = _depth(data) if _openings(text) > MAX_DEPTH else 0
    if depth > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
    return data


def load_json(text: str, error: type[ThousandError], subject: str) -> Any:
    """JSON text, or ``error`` saying why ``subject`` (such as ``"the record is"``) cannot be
    read (see :func:`decode_json`)."""
    try:
        return decode_json(text)
    except ValueError as problem:
        raise error(f"{subject} {problem}") from None


class _Constant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity``, which Python writes but JSON has not."""


def _no_constant(name: str) -> Any:
    raise _Constant(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
"""One decoder for every read (``json.loads`` with an option makes a new one each time)."""


def _openings(text: str | bytes) -> int:
    """How many ``[`` and ``{`` the text holds: no more levels than that can nest, so a message
    with few (a bot's reply, an observation) needs no walk through its values."""
    if isinstance(text, bytes):
        return text.count(b"[") + text.count(b"{")
    return text.count("[") + text.count("{")


def _depth(data: Any) -> int:
    """How many lists and objects nest in ``data``, counted without recursion."""
    deepest = 0
    pending = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, depth + 1)
            if depth < MAX_DEPTH:
                pending.extend((item, depth + 1) for item in value)
    return deepest


def parse_json(text: str) -> Any:
    """JSON text, or ``RulesError`` saying why it is not valid."""
    return load_json(text, RulesError, "rules are")
