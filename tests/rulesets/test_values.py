"""``@frozen`` against ``@dataclass(frozen=True)``: the same class declared both ways behaves the
same (equality, hash, repr, field options, methods of its own, inheritance, recursion)."""

from __future__ import annotations

import copy
import dataclasses
import inspect
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

    @decorate
    class Built:
        a: int
        made: list[int] = dataclasses.field(default_factory=list)
        later: int = dataclasses.field(default=4, init=False)
        counted: list[int] = dataclasses.field(default_factory=lambda: [1], init=False)
        never: int = dataclasses.field(init=False)
        named: str = dataclasses.field(default="n", kw_only=True)
        required: int = dataclasses.field(kw_only=True)

        def __post_init__(self) -> None:
            object.__setattr__(self, "never", self.a * 2)

    @decorate
    class OwnInit:
        a: int

        def __init__(self, text: str) -> None:
            object.__setattr__(self, "a", int(text))

    kinds = (Plain, Options, One, Empty, Child, OwnEq, OwnHash, OwnRepr, Holder, Built, OwnInit)
    return {k.__name__: k for k in kinds}


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
    built = k["Built"](1, required=3)
    facts += [
        repr(built).replace(LOCAL, ""),
        (built.made, built.later, built.counted, built.never, built.named, built.required),
        repr(k["Built"](2, [5], named="m", required=0)).replace(LOCAL, ""),
        built.made is not k["Built"](1, required=3).made,
        str(inspect.signature(k["Built"])),
        str(inspect.signature(k["Plain"])),
        (k["Plain"].__doc__ or "").replace(LOCAL, ""),
        k["Plain"].__match_args__,  # type: ignore[attr-defined]
        k["OwnInit"]("7").a,
        copy.deepcopy(plain) == plain,
        copy.copy(k["One"](5)) == k["One"](5),
        k["Plain"].__dataclass_params__.frozen,  # type: ignore[attr-defined]
    ]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'a'"):
        plain.a = 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'b'"):
        del plain.b
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'other'"):
        plain.other = 1
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'required'"):
        k["Built"](1)

    plain_class: Any = k["Plain"]

    class Loose(plain_class):  # type: ignore[misc]
        """A plain subclass: not a dataclass of its own, so it may set what is not a field."""

    loose = Loose(1)
    loose.note = "kept"
    facts.append(loose.note)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'a'"):
        loose.a = 2

    @dataclasses.dataclass(frozen=True)
    class Stricter(plain_class):  # type: ignore[misc]
        e: int = 0

    facts.append(repr(Stricter(1, e=2)).replace(LOCAL.replace("_kinds", "_behaviour"), ""))
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        dataclasses.dataclass(type("Thawed", (plain_class,), {}))
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
    assert theirs[25] == "Built(a=1, made=[], later=4, counted=[1], never=2, named='n', required=3)"
    assert theirs[29] == (
        "(a: 'int', made: 'list[int]' = <factory>, *, named: 'str' = 'n', required: 'int') -> None"
    )
    assert theirs[31] == "Plain(a: 'int', b: 'str' = 'x', c: 'tuple[int, ...]' = ())"
    assert theirs[33:] == [7, True, True, True, "kept", "Stricter(a=1, b='x', c=(), e=2)"]


def test_a_value_class_refuses_a_default_before_a_required_field_as_the_dataclass_does() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @frozen
        class Wrong:
            a: int = 0
            b: int  # type: ignore[misc]


def test_a_value_class_shares_its_compared_methods_instead_of_compiling_its_own() -> None:
    @frozen
    class First:
        a: int

    @frozen
    class Second:
        b: str

    assert First.__eq__ is Second.__eq__ and First.__repr__ is Second.__repr__
    assert First.__hash__ is Second.__hash__
    assert First.__setattr__ is Second.__setattr__ and First.__delattr__ is Second.__delattr__
    assert dataclasses.is_dataclass(First) and First.__dataclass_params__.frozen  # type: ignore[attr-defined]


def _mutable_behaviour(decorate: Decorator) -> list[Any]:
    @decorate
    class Tracked:
        name: str
        hp: int = 0
        notes: list[str] = dataclasses.field(default_factory=list, compare=False)

    @decorate
    class OwnHash:
        a: int

        def __hash__(self) -> int:
            return 7

    one, two = Tracked("Goblin", 7), Tracked("Goblin", 7, ["fled"])  # type: ignore[call-arg]
    facts: list[Any] = [
        repr(two).replace("_mutable_behaviour.<locals>.", ""),
        one == two,
        one != Tracked("Goblin", 6),  # type: ignore[call-arg]
        Tracked.__hash__ is None,
        hash(OwnHash(1)),  # type: ignore[call-arg]
        OwnHash(1) == OwnHash(1),  # type: ignore[call-arg]
        str(inspect.signature(Tracked)),
        (Tracked.__doc__ or "").replace("_mutable_behaviour.<locals>.", ""),
        dataclasses.replace(one, hp=3) == Tracked("Goblin", 3),  # type: ignore[type-var, call-arg]
        dataclasses.asdict(two),  # type: ignore[call-overload]
        one.__eq__(object()),
    ]
    one.hp = 2  # mutable: equality follows the values as they are now
    facts.append(one == two)
    with pytest.raises(TypeError, match="unhashable type"):
        hash(one)
    return facts


def test_a_mutable_record_behaves_as_the_dataclass_it_stands_for() -> None:
    from rulesets.values import record

    ours, theirs = _mutable_behaviour(record), _mutable_behaviour(dataclasses.dataclass)
    assert ours == theirs
    assert theirs[0] == "Tracked(name='Goblin', hp=7, notes=['fled'])"
    assert theirs[1:6] == [True, True, True, 7, True]
    assert theirs[6] == "(name: 'str', hp: 'int' = 0, notes: 'list[str]' = <factory>) -> None"
    assert theirs[10] is NotImplemented and theirs[11] is False
