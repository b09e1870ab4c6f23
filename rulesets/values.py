"""``@frozen``: ``@dataclass(frozen=True)`` that costs a fraction to define.

Python 3.11 compiles each method a dataclass generates from source, one ``exec`` apiece: a
frozen class gets six (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``), 0.3-0.5 ms a class on the machines we measure. The first frame's path defines
some 80 of them, a third to a half of Tableside's own import time (issue 26). ``__repr__``,
``__eq__`` and ``__hash__`` read nothing but the class's fields, and ``__setattr__`` and
``__delattr__`` only refuse, so one function of each serves every class (each class's field
getter made on first use). ``__init__`` is the one method compiled per class, as the dataclass
writes it (an ``object.__setattr__`` per field, so building a value costs the same).

Everything else is the dataclass: ``fields``, ``replace``, ``asdict``, ``FrozenInstanceError``,
field options (``compare``, ``hash``, ``repr``, ``init``, ``kw_only``, factories),
``__post_init__``, and methods a class writes itself win, exactly as ``dataclass(frozen=True)``
decides (tests/rulesets/test_values.py holds them side by side). A class the shared methods do
not cover (a dataclass base, an ``InitVar``, its own ``__setattr__``) is the dataclass itself.
Type checkers see a frozen dataclass (:func:`typing.dataclass_transform`).

``@record`` does the same for a mutable ``@dataclass``: ``__repr__`` and ``__eq__`` shared,
``__init__`` the dataclass's.
"""

from __future__ import annotations

import dataclasses
import inspect
import reprlib
from collections.abc import Callable, Mapping
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


class _Factory:
    """The default of a parameter whose field has a ``default_factory`` (shown as the
    dataclass shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _refuse_assignment(self: Any, name: str, value: Any) -> None:
    cls = self.__class__
    # As the dataclass's own: a class that is not itself a dataclass (a plain subclass) may
    # still set attributes that are not fields.
    if "__dataclass_fields__" in cls.__dict__ or name in cls.__dataclass_fields__:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _refuse_deletion(self: Any, name: str) -> None:
    cls = self.__class__
    if "__dataclass_fields__" in cls.__dict__ or name in cls.__dataclass_fields__:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _shareable(cls: type) -> bool:
    """Whether the shared methods stand for this class's generated ones (else: the dataclass)."""
    own = cls.__dict__
    if "__setattr__" in own or "__delattr__" in own:
        return False  # the dataclass says why it cannot
    for base in cls.__mro__[1:-1]:
        if dataclasses.is_dataclass(base) or "__setattr__" in base.__dict__:
            return False
        if "__delattr__" in base.__dict__:
            return False
    for annotation in own.get("__annotations__", {}).values():
        if isinstance(annotation, dataclasses.InitVar) or annotation is dataclasses.InitVar:
            return False
        if isinstance(annotation, str) and "InitVar" in annotation:
            return False
    return True


def _init(cls: type) -> Callable[..., None]:
    """``__init__`` as ``dataclass(frozen=True)`` writes it, compiled once."""
    fields = dataclasses.fields(cls)
    names = {f.name for f in fields}
    if "self" in names or any(name.startswith("_frozen_") for name in names):
        raise TypeError(f"{cls.__qualname__}: a field may not be called 'self' or '_frozen_...'")
    space: dict[str, Any] = {
        "__name__": cls.__module__,
        "_frozen_setattr": object.__setattr__,
        "_frozen_factory": _FACTORY,
    }
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    seen_default = False
    for f in fields:
        default = f"_frozen_default_{f.name}"
        if f.default_factory is not dataclasses.MISSING:
            space[default] = f.default_factory
            value = (
                f"{default}() if {f.name} is _frozen_factory else {f.name}" if f.init
                else f"{default}()"
            )
            parameter = f"{f.name}=_frozen_factory"
        elif f.default is not dataclasses.MISSING:
            space[default] = f.default
            value = f.name
            parameter = f"{f.name}={default}"
            if not f.init:
                continue  # the class attribute holds the default, as the dataclass leaves it
        elif not f.init:
            continue  # never set, as the dataclass leaves it
        else:
            value = parameter = f.name
        body.append(f"  _frozen_setattr(self, {f.name!r}, {value})")
        if not f.init:
            continue
        if f.kw_only:
            keywords.append(parameter)
            continue
        if parameter != f.name:  # it has a default
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        positional.append(parameter)
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    parameters = ["self", *positional, *(["*", *keywords] if keywords else [])]
    source = f"def __init__({', '.join(parameters)}):\n" + ("\n".join(body) or "  pass")
    exec(source, space)
    init: Callable[..., None] = space["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {f.name: f.type for f in fields if f.init} | {"return": None}
    return init


def _shared_methods(
    made: type[_T], own: Mapping[str, Any], hash_method: Callable[[Any], int] | None
) -> type[_T]:
    """The shared ``__repr__`` and ``__eq__``, and ``hash_method`` as ``__hash__`` (None:
    unhashable), wherever the class did not write its own, as the dataclass decides."""
    if "__repr__" not in own:
        made.__repr__ = _repr  # type: ignore[method-assign]
    if "__eq__" not in own:
        made.__eq__ = _eq  # type: ignore[method-assign]
    # A class that defines __eq__ alone has __hash__ = None from Python: not a hash of its own.
    if "__hash__" not in own or (own["__hash__"] is None and "__eq__" in own):
        made.__hash__ = hash_method  # type: ignore[assignment, method-assign]
    return made


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[_T]) -> type[_T]:
    """A frozen dataclass whose methods but ``__init__`` are shared."""
    own = dict(cls.__dict__)  # as declared: the dataclass adds to it
    if not _shareable(cls):
        made = dataclasses.dataclass(frozen=True, repr=False, eq=False)(cls)
    else:
        documented = bool(cls.__doc__)
        own_init = "__init__" in own
        if not documented:
            # For now: the dataclass would write the signature of object's __init__, which
            # inspect reads by tokenizing its text (5 ms for the first, compiling the regex).
            cls.__doc__ = cls.__name__
        # Not frozen to the dataclass, which would compile the two refusing methods; it is
        # frozen below, where a subclass's dataclass looks (a frozen base, a frozen subclass).
        made = dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
        made.__dataclass_params__.frozen = True  # type: ignore[attr-defined]
        made.__setattr__ = _refuse_assignment  # type: ignore[method-assign]
        made.__delattr__ = _refuse_deletion  # type: ignore[method-assign]
        if not own_init:
            made.__init__ = _init(made)  # type: ignore[method-assign]
        if not documented:
            signature = str(inspect.signature(made)).replace(" -> None", "")
            made.__doc__ = made.__name__ + signature
    return _shared_methods(made, own, _hash)


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[_T]) -> type[_T]:
    """``@dataclass`` (mutable) whose ``__repr__`` and ``__eq__`` are the shared ones: its
    ``__init__`` is the dataclass's own; unhashable, as a mutable dataclass that compares is."""
    own = dict(cls.__dict__)
    return _shared_methods(dataclasses.dataclass(repr=False, eq=False)(cls), own, None)


__all__ = ["frozen", "record"]
