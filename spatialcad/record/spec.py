"""Typed scene specs and option data that read and write the records' JSON.

A task's ``spec.py`` declares its scene spec and per-option data as frozen dataclasses
inheriting :class:`JsonSpec`.  ``to_json()`` gives the dict stored in the record, its keys
in field order (so records keep their bytes); ``from_json()`` reads such a dict back,
checking every value against the field's type and naming the first mismatch.  Field types
may be ``bool``, ``int``, ``float``, ``str``, ``Any``, nested ``JsonSpec`` classes,
``list``/``tuple``/``dict[str, ...]`` of those, and unions with ``None``.  A field made with
:func:`optional` is left out of the JSON while it is ``None`` (keys only some items have).

Also here: :class:`Texts`, what a task's question texts are, derived from its spec alone,
so that a verifier can re-derive them (spatialcad/run/verification.py), and :func:`spoken_list`.
"""

from __future__ import annotations

import dataclasses
import json
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any, ClassVar, TypeVar, Union, get_args, get_origin, get_type_hints

S = TypeVar("S", bound="JsonSpec")
OMIT_NONE = "omit_none"


class SpecError(ValueError):
    """A record's spec or option data does not have the declared shape."""


def optional(default: Any = None) -> Any:
    """A field left out of the JSON while it is ``None``."""
    return dataclasses.field(default=default, metadata={OMIT_NONE: True})


def _dump(value: Any) -> Any:
    if isinstance(value, JsonSpec):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


def _fail(where: str, expected: Any, value: Any) -> SpecError:
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return SpecError(f"{where}: expected {expected}, got {shown}")


def _load(tp: Any, value: Any, where: str) -> Any:
    """``value`` (parsed JSON) as type ``tp``; ``SpecError`` if it does not fit."""
    if tp is Any:
        return value
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        for option in get_args(tp):
            try:
                return _load(option, value, where)
            except SpecError:
                continue
        raise _fail(where, tp, value)
    if tp is type(None):
        if value is not None:
            raise _fail(where, "null", value)
        return None
    if origin is list or origin is tuple:
        if not isinstance(value, list | tuple):
            raise _fail(where, "a list", value)
        args = get_args(tp)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(value):
                raise _fail(where, f"{len(args)} values", value)
            if len(set(args)) == 1 and _all_scalars(args[0], value):
                return tuple(value)
            return tuple(_load(a, v, f"{where}[{i}]")
                         for i, (a, v) in enumerate(zip(args, value, strict=True)))
        item = args[0] if args else Any
        if _all_scalars(item, value):
            loaded = list(value)
        else:
            loaded = [_load(item, v, f"{where}[{i}]") for i, v in enumerate(value)]
        return tuple(loaded) if origin is tuple else loaded
    if origin is dict:
        if not isinstance(value, dict):
            raise _fail(where, "an object", value)
        key_type, item = get_args(tp) or (str, Any)
        return {k: _load(item, v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(tp, type) and issubclass(tp, JsonSpec):
        return tp._read_checked(value, where)
    if tp in _SCALAR_TYPES:
        if not _fits(tp, value):
            raise _fail(where, "a number" if tp is float else tp.__name__, value)
        return value  # an int read as a float stays an int: its JSON text must not change
    raise TypeError(f"{where}: unsupported spec field type {tp!r}")


def _all_scalars(tp: Any, values: list[Any] | tuple[Any, ...]) -> bool:
    """Whether every one of ``values`` is a valid ``tp`` (int, float, str or bool), as
    :func:`_load` would accept it: the quick path for long lists of numbers."""
    allowed = _SCALAR_TYPES.get(tp)
    return allowed is not None and set(map(type, values)) <= allowed


_SCALAR_TYPES: dict[Any, set[type]] = {int: {int}, float: {int, float}, str: {str}, bool: {bool}}


Reader = Callable[[Any], Any]


@cache
def _reader(tp: Any) -> Reader:
    """What :func:`_load` does for ``tp``, worked out once per type and without the path
    ``where``: valid values read the same, an invalid one raises a bare ``SpecError`` (the
    caller reads it again with :func:`_load` for the message).  Records are read many
    times per item; this is several times faster."""
    if tp is Any:
        return _same
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = [_reader(a) for a in get_args(tp)]

        def first_fit(value: Any) -> Any:
            for read in options:
                try:
                    return read(value)
                except SpecError:
                    continue
            raise SpecError
        return first_fit
    if tp is type(None):
        return _none
    if origin is list or origin is tuple:
        args = get_args(tp)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return _fixed_tuple(args)
        item = args[0] if args else Any
        return _sequence(item, _reader(item), origin is tuple)
    if origin is dict:
        read_item = _reader((get_args(tp) or (str, Any))[1])

        def mapping(value: Any) -> Any:
            if not isinstance(value, dict):
                raise SpecError
            return {k: read_item(v) for k, v in value.items()}
        return mapping
    if isinstance(tp, type) and issubclass(tp, JsonSpec):
        return lambda value: tp._read(value)
    if tp in _SCALAR_TYPES:
        return partial(_scalar, tp)
    raise TypeError(f"unsupported spec field type {tp!r}")


def _same(value: Any) -> Any:
    return value


def _none(value: Any) -> None:
    if value is not None:
        raise SpecError
    return None


def _fits(tp: type, value: Any) -> bool:
    """Whether ``value`` is a valid ``tp`` (int, float, str or bool; a bool is no number)."""
    return isinstance(value, int | float if tp is float else tp) and (
        tp is bool or not isinstance(value, bool))


def _scalar(tp: type, value: Any) -> Any:
    if not _fits(tp, value):
        raise SpecError
    return value


def _fixed_tuple(args: tuple[Any, ...]) -> Reader:
    reads = [_reader(a) for a in args]
    scalar = args[0] if len(set(args)) == 1 else None

    def read(value: Any) -> Any:
        if not isinstance(value, list | tuple) or len(value) != len(reads):
            raise SpecError
        if scalar is not None and _all_scalars(scalar, value):
            return tuple(value)
        return tuple(r(v) for r, v in zip(reads, value, strict=True))
    return read


def _sequence(item: Any, read_item: Reader, as_tuple: bool) -> Reader:
    scalar = item in _SCALAR_TYPES

    def read(value: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise SpecError
        if scalar and _all_scalars(item, value):
            loaded = list(value)
        else:
            loaded = [read_item(v) for v in value]
        return tuple(loaded) if as_tuple else loaded
    return read


@dataclass(frozen=True)
class JsonSpec:
    """Base of typed specs: ``to_json`` / ``from_json`` in field order (see module doc)."""

    _hints: ClassVar[dict[type, dict[str, Any]]] = {}
    _readers: ClassVar[dict[type, tuple[frozenset[str], list[tuple[str, Reader, bool]]]]] = {}

    @classmethod
    def _types(cls) -> dict[str, Any]:
        if cls not in JsonSpec._hints:
            JsonSpec._hints[cls] = get_type_hints(cls)
        return JsonSpec._hints[cls]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.metadata.get(OMIT_NONE):
                continue
            out[f.name] = _dump(value)
        return out

    @classmethod
    def from_json(cls: type[S], data: Any, where: str = "spec") -> S:
        """Read ``data``; ``SpecError`` on a missing, unknown or mistyped key."""
        try:
            return cls._read(data)
        except SpecError:
            return cls._read_checked(data, where)  # raises the error naming the value

    @classmethod
    def _fields(cls) -> tuple[frozenset[str], list[tuple[str, Reader, bool]]]:
        """The field names, and (name, reader, required) of every field, worked out once."""
        if cls not in JsonSpec._readers:
            types_ = cls._types()
            fields = [(f.name, _reader(types_[f.name]),
                       not (f.metadata.get(OMIT_NONE) or f.default is not dataclasses.MISSING))
                      for f in dataclasses.fields(cls)]
            JsonSpec._readers[cls] = frozenset(name for name, _, _ in fields), fields
        return JsonSpec._readers[cls]

    @classmethod
    def _read(cls: type[S], data: Any) -> S:
        """:meth:`from_json` of valid data; a bare ``SpecError`` otherwise."""
        names, fields = cls._fields()
        if not isinstance(data, dict) or not data.keys() <= names:
            raise SpecError
        values = {}
        for name, read, required in fields:
            if name in data:
                values[name] = read(data[name])
            elif required:
                raise SpecError
        return cls(**values)

    @classmethod
    def _read_checked(cls: type[S], data: Any, where: str) -> S:
        """:meth:`from_json`, naming the first missing, unknown or mistyped key."""
        if not isinstance(data, dict):
            raise _fail(where, "an object", data)
        names, fields = cls._fields()
        unknown = sorted(set(data) - names)
        if unknown:
            raise SpecError(f"{where}: unknown key {unknown[0]!r}")
        types_ = cls._types()
        values = {}
        for name, _, required in fields:
            if name in data:
                values[name] = _load(types_[name], data[name], f"{where}.{name}")
            elif required:
                raise SpecError(f"{where}: missing key {name!r}")
        return cls(**values)


def one_of(value: str, allowed: Sequence[str], where: str) -> None:
    """``SpecError`` unless ``value`` is one of ``allowed`` (a spec's question kind, ...)."""
    if value not in allowed:
        raise SpecError(f"{where}: expected one of {tuple(allowed)}, got {value!r}")


def spoken_list(words: Sequence[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"`` (one word alone as it is)."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True)
class Texts:
    """The texts of a record that its spec decides.

    ``question`` (the multiple-choice form); the open form, ``question_direct`` and its
    ``answer_direct`` (both None where the task has none); the text ``choices`` of a
    text-option item (None when the options are pictures); and the yes/no (judge) form:
    ``judge[i]``, the question about option i shown or named alone as the candidate (None
    for an option that means nothing alone, such as "none of the others"), whose answer is
    "yes" exactly when option i is the answer and ``judge_polarity`` is True, or when it is
    not the answer and ``judge_polarity`` is False ("which cannot ..." questions).
    """

    question: str
    question_direct: str | None = None
    answer_direct: str | None = None
    choices: list[str] | None = None
    judge: list[str | None] = field(default_factory=list)
    judge_polarity: bool = True

    def judge_answer(self, is_answer: bool) -> str:
        """The yes/no answer of an option's judge question."""
        return "yes" if is_answer == self.judge_polarity else "no"


YES_NO = " Answer yes or no."
CANDIDATE = "the candidate (the last image)"  # how judge questions name a pictured option
# How render/stacks.py orients a stack's orthographic views (geometry/voxels.py VIEW_AXES),
# in words a question states for each view it shows.
VIEW_ORIENTATION = {
    "front": "The front view is seen from the front, the top up.",
    "top": "The top view is seen from above, the stack's front at the bottom of the picture.",
    "left": ("The left view is seen from the stack's left side, its front on the right of "
             "the picture."),
}


def view_orientation(views: Sequence[str]) -> str:
    """The orientation sentences of ``views`` (each one ends with a space)."""
    return "".join(VIEW_ORIENTATION[v] + " " for v in views)


def scene_text(value: Any) -> str:
    """A canonical text of a JSON-able scene description (for a task's ``scene_key``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def judged_alike(question: str, count: int = 4) -> list[str | None]:
    """The same judge question for each of ``count`` pictured options."""
    return [question + YES_NO] * count
