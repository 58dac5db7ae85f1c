"""Plain-JSON encoding of the dataclasses that cross a boundary (states, actions,
reads, events), so a session recording written today can be read back and replayed.

Each record type is written under a short, stable tag from one table
(table.records.TAGS, plus the few the application registers), never under a module
path: classes can move without breaking a recording, and a corrupt or hostile file
can name nothing but those types. Each field
is checked against its type hint and a field the class does not have is refused, so
a damaged record, or one written by a newer version, fails here in words instead of
as a stray TypeError deep in a replay, or by silently dropping what it said.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
import types
import typing
from fractions import Fraction
from typing import Any

from table.errors import TableError

TYPE_KEY = "@type"
_TYPES: dict[str, type] = {}  # tag -> record type
_TAGS: dict[type, str] = {}  # record type -> tag
_OLD_NAMES: dict[str, str] = {}  # what earlier versions wrote -> tag


class CorruptRecord(TableError):
    """Data that does not decode to the object it claims to be."""


def register(tag: str, cls: type) -> None:
    """Add a record type under its tag (the application's own records: a recording's
    events, a calibration). A tag names one type for good."""
    _load_table()
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"{cls!r} is not a record type")
    if _TYPES.get(tag, cls) is not cls or _TAGS.get(cls, tag) != tag:
        raise ValueError(f"tag {tag!r} or type {cls.__name__} is registered already")
    _TYPES[tag], _TAGS[cls] = cls, tag


def _load_table() -> None:
    if not _TYPES:
        from table import records  # imported late: it imports every engine, which import this codec's errors

        _TYPES.update(records.TAGS)
        _TAGS.update({cls: tag for tag, cls in records.TAGS.items()})
        _OLD_NAMES.update(records.OLD_NAMES)


def tag_of(cls: type) -> str:
    _load_table()
    try:
        return _TAGS[cls]
    except KeyError:
        raise TypeError(f"{cls.__name__} has no record tag (table.records.TAGS)") from None


def to_data(obj: Any) -> Any:
    """Encode to JSON-compatible data; records carry their tag."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        data = {TYPE_KEY: tag_of(type(obj))}
        for field in dataclasses.fields(obj):
            data[field.name] = to_data(getattr(obj, field.name))
        return data
    if isinstance(obj, enum.Enum):
        return to_data(obj.value)
    if isinstance(obj, Fraction):
        return {TYPE_KEY: "fraction", "value": str(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_data(item) for item in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((to_data(item) for item in obj), key=repr)
    if isinstance(obj, dict):
        if all(isinstance(key, str) for key in obj):
            return {key: to_data(value) for key, value in obj.items()}
        return {TYPE_KEY: "pairs", "items": [[to_data(k), to_data(v)] for k, v in obj.items()]}
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if hasattr(obj, "tolist"):  # numpy scalars and arrays
        return obj.tolist()
    raise TypeError(f"cannot encode {type(obj).__name__} for a recording")


def from_data(data: Any, hint: Any = Any) -> Any:
    """Decode what to_data wrote, using type hints to restore tuples and enums."""
    try:
        value = _decode(data, hint)
    except CorruptRecord:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as err:
        raise CorruptRecord(f"record does not decode: {err}") from err
    if not _fits(value, hint):
        raise CorruptRecord(f"record is not {_named(hint)}: {_short(data)}")
    return value


def dumps(obj: Any) -> str:
    return json.dumps(to_data(obj), separators=(",", ":"), sort_keys=False)


def loads(text: str, hint: Any = Any) -> Any:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:  # bad JSON, a number past int's digit limit, absurd nesting
        raise CorruptRecord(f"not JSON: {err}") from err
    return from_data(data, hint)


def _resolve(name: object) -> type:
    """The record type a tag (or an earlier version's name for it) stands for."""
    _load_table()
    if not isinstance(name, str):
        raise CorruptRecord(f"a record type is a word, not {_short(name)}")
    cls = _TYPES.get(_OLD_NAMES.get(name, name))
    if cls is None:
        raise CorruptRecord(f"unknown record type {_short(name)}")
    return cls


def _decode(data: Any, hint: Any) -> Any:
    if isinstance(data, dict) and TYPE_KEY in data:
        tag = data[TYPE_KEY]
        if tag == "fraction":
            return _fraction(data["value"])
        if tag == "pairs":
            key_hint, value_hint = _mapping_hints(hint)
            return {_decode(k, key_hint): _decode(v, value_hint) for k, v in data["items"]}
        cls = _resolve(tag)
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)
        unknown = sorted(set(data) - {TYPE_KEY} - {field.name for field in fields})
        if unknown:
            raise CorruptRecord(f"{tag} has no field {', '.join(map(repr, unknown))} (written by a newer tabletop21?)")
        kwargs = {}
        for field in fields:
            if field.name in data:
                field_hint = hints.get(field.name, Any)
                value = kwargs[field.name] = _decode(data[field.name], field_hint)
                if not _fits(value, field_hint):
                    raise CorruptRecord(f"{tag}: {field.name} must be {_named(field_hint)}, "
                                        f"not {_short(data[field.name])}")
        try:
            return cls(**kwargs)
        except TypeError as err:
            raise CorruptRecord(f"{tag}: {err}") from err
    origin = typing.get_origin(hint) or (hint if hint in (tuple, list, set, frozenset) else None)
    args = typing.get_args(hint)
    if origin in _UNIONS:
        for arg in args:
            if arg is type(None) and data is None:
                return None
        non_none = [a for a in args if a is not type(None)]
        return _decode(data, non_none[0] if len(non_none) == 1 else Any)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(data)
    if isinstance(data, list):
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(_decode(item, args[0]) for item in data)
            if args and len(args) == len(data):
                return tuple(_decode(item, arg) for item, arg in zip(data, args))
            return tuple(_decode(item, Any) for item in data)
        if origin in (frozenset, set):
            inner = args[0] if args else Any
            return origin(_decode(item, inner) for item in data)
        inner = args[0] if origin is list and args else Any
        return [_decode(item, inner) for item in data]
    if isinstance(data, dict):
        key_hint, value_hint = _mapping_hints(hint)
        return {key: _decode(value, value_hint) for key, value in data.items()}
    if hint is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    return data


# What str(Fraction) writes, "-3" or "7/52", each part at most 100 digits: Fraction()
# also takes "1e2000000000", and working out that number hung a replay for minutes.
_FRACTION = re.compile(r"-?[0-9]{1,100}(/[0-9]{1,100})?")


def _fraction(text: Any) -> Fraction:
    if not isinstance(text, str) or not _FRACTION.fullmatch(text):
        raise CorruptRecord(f"a fraction is written as N or N/D (at most 100 digits each), not {_short(text)}")
    return Fraction(text)


def _mapping_hints(hint: Any) -> tuple[Any, Any]:
    args = typing.get_args(hint)
    return (args[0], args[1]) if len(args) == 2 else (Any, Any)


_UNIONS = (typing.Union, types.UnionType)


def _fits(value: Any, hint: Any) -> bool:
    """Whether a decoded value is what its hint says. bool is not taken for an int; a
    hint of a kind recordings never hold (an array, a callable) is not checked."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if origin in _UNIONS:
        return any(_fits(value, arg) for arg in args)
    if origin is typing.Literal:
        return value in args
    if hint is type(None):
        return value is None
    if hint in (int, float):
        return isinstance(value, hint) and not isinstance(value, bool)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(item, args[0]) for item in value)
        return not args or (len(args) == len(value) and all(map(_fits, value, args)))
    if origin in (list, set, frozenset):
        return isinstance(value, origin) and all(_fits(item, args[0]) for item in value)
    if origin is dict:
        return isinstance(value, dict) and all(_fits(k, args[0]) and _fits(v, args[1]) for k, v in value.items())
    if hint in (str, bool, tuple, list, dict, Fraction) or (
            isinstance(hint, type) and (dataclasses.is_dataclass(hint) or issubclass(hint, enum.Enum))):
        return isinstance(value, hint)
    return True


def _named(hint: Any) -> str:
    if typing.get_origin(hint) is typing.Literal:
        return "one of " + ", ".join(map(repr, typing.get_args(hint)))
    return hint.__name__ if isinstance(hint, type) else str(hint)


def _short(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 80 else text[:77] + "..."
