"""``@frozen`` and ``@record``: the standard library's dataclasses, under the names the rules use.

``@frozen`` is ``@dataclass(frozen=True, slots=True)``: a value (a combatant, a roll, a rule's
result) that never changes once made, with no per-instance ``__dict__``. ``@record`` is a
plain mutable ``@dataclass`` for the few things filled in step by step.

Slots change three things against a plain dataclass, and the rules keep to them: a subclass
of a value is itself decorated (else it gains a ``__dict__``), ``functools.cached_property``
has nowhere to keep its value (compute in ``__post_init__`` into a field with ``init=False``,
or cache outside), and a method calls ``super()`` with its arguments spelt out, as Python
rebuilds the class.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[_T]) -> type[_T]:
    """``@dataclass(frozen=True, slots=True)``."""
    made: Any = dataclasses.dataclass(frozen=True, slots=True)(cls)
    return made  # type: ignore[no-any-return]


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[_T]) -> type[_T]:
    """``@dataclass`` (mutable, compared by its fields, unhashable)."""
    return dataclasses.dataclass(cls)


__all__ = ["frozen", "record"]
