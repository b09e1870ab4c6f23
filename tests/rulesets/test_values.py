"""``@frozen`` and ``@record`` are the standard library's dataclasses: a value is
``dataclass(frozen=True, slots=True)``, a record a plain ``dataclass``; both share one
``__repr__`` that reads as the generated one."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
import pkgutil

import pytest

import rulesets
from rulesets.values import fields_repr, frozen, record


@frozen
class Sample:
    name: str
    marks: tuple[int, ...] = ()


@record
class Tally:
    name: str
    count: int = 0


def test_a_value_is_a_frozen_dataclass_with_slots() -> None:
    value = Sample("Ada", (1, 2))
    params = Sample.__dataclass_params__  # type: ignore[attr-defined]
    assert dataclasses.is_dataclass(value) and params.frozen
    assert Sample.__slots__ == ("name", "marks")  # type: ignore[attr-defined]
    assert not hasattr(value, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
        value.name = "Bea"  # type: ignore[misc]
    assert value == Sample("Ada", (1, 2)) and hash(value) == hash(Sample("Ada", (1, 2)))
    assert repr(value) == "Sample(name='Ada', marks=(1, 2))"
    assert dataclasses.replace(value, name="Bea") == Sample("Bea", (1, 2))
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value


def test_a_record_is_a_plain_dataclass() -> None:
    tally = Tally("hits")
    tally.count += 1
    assert tally == Tally("hits", 1)
    assert dataclasses.is_dataclass(tally)
    with pytest.raises(TypeError, match="unhashable"):
        hash(tally)


@frozen
class Hidden:
    name: str
    secret: str = dataclasses.field(default="", repr=False)


@frozen
class Told(Sample):
    told: bool = False


@frozen
class OwnRepr:
    name: str

    def __repr__(self) -> str:
        return f"<{self.name}>"


@record
class Loop:
    name: str
    inner: list[object] = dataclasses.field(default_factory=list)


def _generated(cls: type, value: object) -> str:
    """The repr the standard library's dataclass would have generated for ``value``."""
    twin = dataclasses.make_dataclass(
        cls.__name__,
        [(f.name, object, dataclasses.field(repr=f.repr)) for f in dataclasses.fields(cls)],
    )
    return repr(twin(*(getattr(value, f.name) for f in dataclasses.fields(cls))))


@pytest.mark.parametrize(
    "value",
    [Sample("Ada", (1, 2)), Hidden("Ada", "shh"), Told("Ada", (3,), True), Tally("hits", 2)],
    ids=lambda v: type(v).__name__,
)
def test_the_shared_repr_reads_as_the_generated_one(value: object) -> None:
    assert repr(value) == _generated(type(value), value)
    assert "shh" not in repr(value)


def test_a_class_s_own_repr_and_a_loop_are_kept() -> None:
    assert repr(OwnRepr("Ada")) == "<Ada>"
    loop = Loop("ring")
    loop.inner.append(loop)
    assert repr(loop) == "Loop(name='ring', inner=[...])"
    assert Sample.__repr__ is fields_repr and Tally.__repr__ is fields_repr


def _rules_classes() -> list[type]:
    found = []
    for info in pkgutil.walk_packages(rulesets.__path__, "rulesets."):
        module = importlib.import_module(info.name)
        found += [
            value
            for value in vars(module).values()
            if isinstance(value, type) and value.__module__ == info.name
        ]
    return found


def test_every_subclass_of_a_value_is_a_value_too() -> None:
    """An undecorated subclass of a slotted value gains a ``__dict__``: it could then be
    changed after it was made, and costs the memory slots save."""
    loose = [
        cls.__qualname__
        for cls in _rules_classes()
        if any(
            "__slots__" in vars(base) and dataclasses.is_dataclass(base) for base in cls.__mro__[1:]
        )
        and "__slots__" not in vars(cls)
        and not issubclass(cls, BaseException)
    ]
    assert loose == []


def _zero_argument_supers() -> list[str]:
    """Every ``super()`` without arguments inside a ``@frozen`` class of the project's code."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found: list[str] = []
    for folder in ("app", "rulesets", "screens", "widgets"):
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef):
                    continue
                if not any(isinstance(d, ast.Name) and d.id == "frozen" for d in node.decorator_list):
                    continue
                for call in ast.walk(node):
                    if (
                        isinstance(call, ast.Call)
                        and isinstance(call.func, ast.Name)
                        and call.func.id == "super"
                        and not call.args
                    ):
                        found.append(f"{path.relative_to(root)}:{call.lineno} {node.name}")
    return found


def test_no_frozen_value_calls_super_without_its_arguments() -> None:
    """A slotted dataclass is a new class made from the one written, so a bare ``super()`` in
    its methods names the class that was thrown away and raises TypeError when it runs (a
    command's ``run`` only fails once a GM presses its key)."""
    assert _zero_argument_supers() == []
