"""``@frozen``: ``@dataclass(frozen=True)`` that costs a third less to define.

Python 3.11 compiles each method a dataclass generates from source, one ``exec`` apiece: a
frozen class gets six (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``), about half a millisecond a class. The first frame's path defines some 80 of
them, and that was a third of Tableside's own import time (issue 26). ``__repr__``, ``__eq__``
and ``__hash__`` read nothing but the class's fields, so here one function of each serves every
class (each class's field getter made on first use); the dataclass still generates the rest.

Everything else is the dataclass: ``fields``, ``replace``, ``asdict``, ``FrozenInstanceError``,
field options (``compare``, ``hash``, ``repr``), and methods a class writes itself win, exactly
as ``dataclass(frozen=True)`` decides (tests/rulesets/test_values.py holds them side by side).
Type checkers see a frozen dataclass (:func:`typing.dataclass_transform`).
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")
Getter = Callable[[Any], tuple[Any, ...]]

_COMPARED: dict[type, Getter] = {}
_HASHED: dict[type, Getter] = {}
_SHOWN: dict[type, tuple[str, ...]] = {}


def _getter(names: tuple[str, ...]) -> Getter:
    """The values of ``names`` as a tuple (``attrgetter`` gives a bare value for one name)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _compared(cls: type) -> Getter:
    found = _COMPARED.get(cls)
    if found is None:
        fields = dataclasses.fields(cls)
        found = _COMPARED[cls] = _getter(tuple(f.name for f in fields if f.compare))
    return found


def _hashed(cls: type) -> Getter:
    found = _HASHED.get(cls)
    if found is None:
        fields = dataclasses.fields(cls)
        names = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
        found = _HASHED[cls] = _getter(names)
    return found


def _eq(self: Any, other: object) -> Any:  # bool, or NotImplemented for another class
    if other.__class__ is self.__class__:
        key = _compared(self.__class__)
        return key(self) == key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(_hashed(self.__class__)(self))


@reprlib.recursive_repr("...")
def _repr(self: Any) -> str:
    cls = self.__class__
    names = _SHOWN.get(cls)
    if names is None:
        names = _SHOWN[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.repr)
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
    return f"{cls.__qualname__}({shown})"


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[_T]) -> type[_T]:
    """A frozen dataclass whose ``__repr__``, ``__eq__`` and ``__hash__`` are shared."""
    own = cls.__dict__
    # As dataclass decides: a class that defines __eq__ alone has __hash__ = None from Python,
    # which is not a hash of its own.
    own_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    made = dataclasses.dataclass(frozen=True, repr=False, eq=False)(cls)
    if "__repr__" not in own:
        made.__repr__ = _repr  # type: ignore[method-assign]
    if "__eq__" not in own:
        made.__eq__ = _eq  # type: ignore[method-assign]
    if not own_hash:
        made.__hash__ = _hash  # type: ignore[method-assign]
    return made


__all__ = ["frozen"]
