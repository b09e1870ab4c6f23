"""``@frozen`` against ``@dataclass(frozen=True)``: the same class declared both ways behaves the
same (equality, hash, repr, field options, methods of its own, inheritance, recursion)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from rulesets.values import frozen

Decorator = Callable[[type], type]
LOCAL = "_kinds.<locals>."
"""How the classes' qualified names begin (declared inside a function)."""


def _kinds(decorate: Decorator) -> dict[str, type]:
    @decorate
    class Plain:
        a: int
        b: str = "x"
        c: tuple[int, ...] = ()

    @decorate
    class Options:
        shown: int
        secret: str = dataclasses.field(default="s", repr=False)
        loose: int = dataclasses.field(default=0, compare=False)
        unhashed: int = dataclasses.field(default=0, hash=False)
        listed: list[int] = dataclasses.field(default_factory=list, hash=False)

    @decorate
    class One:
        only: int

    @decorate
    class Empty:
        pass

    @decorate
    class Child(Plain):
        d: float = 1.5

    @decorate
    class OwnEq:
        a: int
        b: int = 0

        def __eq__(self, other: object) -> bool:
            return isinstance(other, OwnEq) and self.a == other.a

    @decorate
    class OwnHash:
        a: int

        def __hash__(self) -> int:
            return 7

    @decorate
    class OwnRepr:
        a: int

        def __repr__(self) -> str:
            return "mine"

    @decorate
    class Holder:
        items: list[Any]

    return {k.__name__: k for k in (Plain, Options, One, Empty, Child, OwnEq, OwnHash, OwnRepr, Holder)}


def _behaviour(decorate: Decorator) -> list[Any]:
    k = _kinds(decorate)
    plain, child = k["Plain"](1, "y", (2,)), k["Child"](1, "y", (2,), 2.5)
    options = [k["Options"](1, "a", 2, 3, [4]), k["Options"](1, "b", 9, 8, [7])]
    holder = k["Holder"]([])
    holder.items.append(holder)
    own_eq = [k["OwnEq"](1, 2), k["OwnEq"](1, 3)]
    facts: list[Any] = [
        repr(plain).replace(LOCAL, ""),
        plain == k["Plain"](1, "y", (2,)),
        plain != k["Plain"](2),
        hash(plain) == hash(k["Plain"](1, "y", (2,))),
        hash(plain) == hash((1, "y", (2,))),
        plain == child,
        child == k["Child"](1, "y", (2,), 2.5),
        repr(child).replace(LOCAL, ""),
        [repr(o).replace(LOCAL, "") for o in options],
        options[0] == options[1],
        hash(options[0]) == hash((1, "a", 2)),
        hash(k["One"](5)) == hash((5,)),
        repr(k["One"](5)).replace(LOCAL, ""),
        k["Empty"]() == k["Empty"](),
        hash(k["Empty"]()) == hash(()),
        repr(k["Empty"]()).replace(LOCAL, ""),
        own_eq[0] == own_eq[1],
        hash(own_eq[0]) == hash((1, 2)),
        hash(k["OwnHash"](1)),
        repr(k["OwnRepr"](1)),
        repr(holder).replace(LOCAL, ""),
        plain.__eq__(object()),
        [f.name for f in dataclasses.fields(child)],
        dataclasses.replace(plain, a=3) == k["Plain"](3, "y", (2,)),
        dataclasses.asdict(child),
    ]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'a'"):
        plain.a = 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'b'"):
        del plain.b
    return facts


def test_a_value_class_behaves_as_the_frozen_dataclass_it_stands_for() -> None:
    ours, theirs = _behaviour(frozen), _behaviour(dataclasses.dataclass(frozen=True))
    assert ours == theirs
    # and the facts say what they should (a comparison of two broken sides would also agree)
    assert theirs[0] == "Plain(a=1, b='y', c=(2,))"
    assert theirs[1:5] == [True, True, True, True] and theirs[5] is False
    assert theirs[8] == [
        "Options(shown=1, loose=2, unhashed=3, listed=[4])",
        "Options(shown=1, loose=9, unhashed=8, listed=[7])",
    ]
    assert theirs[9] is False  # secret differs; loose does not count
    assert theirs[16] is True and theirs[18] == 7 and theirs[19] == "mine"
    assert theirs[20] == "Holder(items=[...])"
    assert theirs[21] is NotImplemented


def test_a_value_class_shares_its_compared_methods_instead_of_compiling_its_own() -> None:
    @frozen
    class First:
        a: int

    @frozen
    class Second:
        b: str

    assert First.__eq__ is Second.__eq__ and First.__repr__ is Second.__repr__
    assert First.__hash__ is Second.__hash__
    assert dataclasses.is_dataclass(First) and First.__dataclass_params__.frozen  # type: ignore[attr-defined]
