"""``@frozen`` and ``@record``: the standard library's dataclasses, under the names the rules use.

``@frozen`` is ``@dataclass(frozen=True, slots=True)``: a value (a combatant, a roll, a rule's
result) that never changes once made, with no per-instance ``__dict__``. ``@record`` is a
plain mutable ``@dataclass`` for the few things filled in step by step.

Slots change three things against a plain dataclass, and the rules keep to them: a subclass
of a value is itself decorated (else it gains a ``__dict__``), ``functools.cached_property``
has nowhere to keep its value (compute in ``__post_init__`` into a field with ``init=False``,
or cache outside), and a method calls ``super()`` with its arguments spelt out, as Python
rebuilds the class.

Both share one ``__repr__`` (:func:`fields_repr`, which reads as the dataclass's own) instead
of having the dataclass generate one per class: the generated methods are compiled from source
as each class is made, and the rules' 140 classes made on the way to the first frame spent about
a quarter of their time compiling reprs that a GM never sees (docs/performance.md).
"""

from __future__ import annotations

import dataclasses
import reprlib
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")


@reprlib.recursive_repr()
def fields_repr(self: Any) -> str:
    """``Name(field=value, ...)``, as a dataclass's generated ``__repr__`` reads (the fields
    made with ``repr=False`` left out)."""
    shown = ", ".join(
        f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if f.repr
    )
    return f"{type(self).__qualname__}({shown})"


def _shared_repr(cls: type[_T]) -> type[_T]:
    # Where the dataclass would have generated one: not over the class's own.
    if "__repr__" not in cls.__dict__:
        cls.__repr__ = fields_repr  # type: ignore[method-assign]
    return cls


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[_T]) -> type[_T]:
    """``@dataclass(frozen=True, slots=True)``, with :func:`fields_repr`."""
    made: Any = dataclasses.dataclass(frozen=True, slots=True, repr=False)(_shared_repr(cls))
    return made  # type: ignore[no-any-return]


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[_T]) -> type[_T]:
    """``@dataclass`` (mutable, compared by its fields, unhashable), with :func:`fields_repr`."""
    return dataclasses.dataclass(repr=False)(_shared_repr(cls))


__all__ = ["fields_repr", "frozen", "record"]
