"""Tableside uses Textual's public API only; app/textual_compat.py alone reaches further.

A private name of Textual (an underscore module, function, method or attribute) can change
in any release without notice. This fails on any use of one outside the compat module: an
import, an attribute read or written (``app._notifications``), a ``getattr`` by name, an
override of a Textual class's underscore method, or an attribute of Textual's own set on a
subclass (shadowing it). The benches are held to it too, and so is Python source kept in a
string to run in a child interpreter (a bench's start-up probe, a test's subprocess).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
import textual

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("app", "screens", "widgets", "rulesets", "tests", "bench")
COMPAT = ROOT / "app" / "textual_compat.py"
TEXTUAL = Path(textual.__file__).parent
# rulesets/ is plain Python and never holds a Textual object (only its test kit imports the
# app), so there only imports are checked: d20's objects there have private names too.
ATTRIBUTES_CHECKED = ("app", "screens", "widgets", "tests", "bench")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def _sources(
    folders: tuple[str, ...], root: Path = ROOT, *, embedded: bool = True
) -> Iterator[tuple[Path, ast.Module]]:
    """Each file's tree, then (``embedded``) the trees of the Python source its strings hold."""
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            if path != COMPAT:
                tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
                yield path, tree
                # This file's strings are the scan's own broken samples.
                if embedded and path != Path(__file__).resolve():
                    yield from ((path, code) for code in _embedded(tree))


def _embedded(tree: ast.Module) -> Iterator[ast.Module]:
    """Python source held in the tree's strings (run with ``python -c`` or ``exec``): each
    string that parses and imports something, numbered as lines of the file it is in."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if "import " not in node.value:
            continue
        try:
            code = ast.parse(node.value)
        except SyntaxError:
            continue
        if any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(code)):
            ast.increment_lineno(code, node.lineno - 1)
            yield code


def _assigned(node: ast.AST) -> Iterator[ast.expr]:
    if isinstance(node, ast.Assign):
        yield from node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        yield node.target


def _defined_private(tree: ast.AST, *, self_only: bool) -> set[str]:
    """Underscore names a tree defines: functions, methods, class and ``self.`` attributes."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        for target in _assigned(node):
            if isinstance(target, ast.Name):
                names.add(target.id)
            elif isinstance(target, ast.Attribute) and (
                not self_only or (isinstance(target.value, ast.Name) and target.value.id == "self")
            ):
                names.add(target.attr)
    return {name for name in names if _private(name)}


@functools.cache
def _textual_private() -> frozenset[str]:
    """Every underscore name Textual's own source defines."""
    names: set[str] = set()
    for path in TEXTUAL.rglob("*.py"):
        names |= _defined_private(ast.parse(path.read_text(encoding="utf-8")), self_only=True)
    return frozenset(names)


@functools.cache
def _own_private() -> frozenset[str]:
    """Underscore names Tableside defines itself (a method of its own, ``self._x = ...``)."""
    names: set[str] = set()
    for _path, tree in _sources(SCANNED):
        names |= _defined_private(tree, self_only=True)
    return frozenset(names)


def _other_modules(tree: ast.Module) -> set[str]:
    """Names a file binds to modules other than Textual's (``os``: ``os._exit`` is Python's)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not alias.name.startswith("textual"):
                    names.add((alias.asname or alias.name).split(".")[0])
    return names


def private_imports(root: Path = ROOT, folders: tuple[str, ...] = SCANNED) -> list[str]:
    found = []
    for path, tree in _sources(folders, root):
        for node in ast.walk(tree):
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if parts[0] == "textual" and any(_private(p) for p in parts):
                        found.append(f"{where} import {alias.name}")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual"):
                module = node.module or ""
                if any(_private(p) for p in module.split(".")):
                    found.append(f"{where} from {module}")
                found += [
                    f"{where} from {module} import {alias.name}"
                    for alias in node.names
                    if _private(alias.name)
                ]
    return found


def private_attributes(
    root: Path = ROOT, folders: tuple[str, ...] = ATTRIBUTES_CHECKED
) -> list[str]:
    textual_names = _textual_private() - _own_private()
    by_name = {"getattr", "setattr", "hasattr", "delattr"}
    found = []
    for path, tree in _sources(folders, root):
        modules = _other_modules(tree)
        for node in ast.walk(tree):
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Attribute) and node.attr in textual_names:
                if not (isinstance(node.value, ast.Name) and node.value.id in modules):
                    found.append(f"{where} .{node.attr}")
            elif isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in by_name:
                    found += [
                        f"{where} {name}(..., {arg.value!r})"
                        for arg in node.args
                        if isinstance(arg, ast.Constant) and arg.value in textual_names
                    ]
    return sorted(found, key=_by_line)


def _by_line(found: str) -> tuple[str, int]:
    where = found.split()[0]
    path, _, line = where.rpartition(":")
    return path, int(line)


@functools.cache
def _textual_class_names(cls: type) -> frozenset[str]:
    """The underscore names one Textual class defines: methods, class and ``self.`` attributes."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return frozenset(name for name in vars(cls) if _private(name))
    return frozenset(_defined_private(ast.parse(source), self_only=True))


def textual_overrides(
    root: Path = ROOT, folders: tuple[str, ...] = ("app", "screens", "widgets")
) -> list[str]:
    """Underscore names a Tableside class defines that a Textual class it inherits also does."""
    found = []
    for path, tree in _sources(folders, root, embedded=False):
        if path.name == "__main__.py":
            continue  # runs the command line when imported
        name = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        module = importlib.import_module(name)
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            cls = getattr(module, node.name, None)
            if not isinstance(cls, type):
                continue
            bases = [c for c in cls.__mro__[1:] if c.__module__.split(".")[0] == "textual"]
            theirs = frozenset().union(*map(_textual_class_names, bases))
            ours = _defined_private(node, self_only=True)
            found += [
                f"{path.relative_to(root)}:{node.lineno} {node.name}.{name}"
                for name in sorted(ours & theirs)
            ]
    return found


def test_no_private_textual_name_is_imported() -> None:
    assert private_imports() == []


def test_no_private_textual_attribute_is_used() -> None:
    assert private_attributes() == []


def test_no_textual_class_has_its_private_names_overridden() -> None:
    assert textual_overrides() == []


BROKEN = """\
import os
import textual._xterm_parser
from textual.keys import _character_to_key
from textual.widgets import Input


class Field(Input):
    def _on_focus(self, event: object) -> None:
        self._cursor_visible = True


def peek(app: object) -> object:
    os._exit(0)  # Python's, not Textual's
    getattr(app, "_binding_chain")
    return app._notifications


PROBE = '''
from textual.widgets._footer import FooterKey
'''
"""


def test_the_scan_finds_each_kind_of_use(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks above see what they look for (else an empty list would prove nothing)."""
    package = tmp_path / "brokenshell"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "field.py").write_text(BROKEN)
    monkeypatch.syspath_prepend(str(tmp_path))
    folders = ("brokenshell",)
    assert private_imports(tmp_path, folders) == [
        "brokenshell/field.py:2 import textual._xterm_parser",
        "brokenshell/field.py:3 from textual.keys import _character_to_key",
        "brokenshell/field.py:19 from textual.widgets._footer",
    ]
    assert private_attributes(tmp_path, folders) == [
        "brokenshell/field.py:9 ._cursor_visible",
        "brokenshell/field.py:14 getattr(..., '_binding_chain')",
        "brokenshell/field.py:15 ._notifications",
    ]
    assert textual_overrides(tmp_path, folders) == [
        "brokenshell/field.py:7 Field._cursor_visible",
        "brokenshell/field.py:7 Field._on_focus",
    ]
