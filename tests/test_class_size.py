"""No class in screens/ or widgets/ is over 400 lines.

A screen that grows past that is split into widgets that own their state (post messages up,
take method calls down), not into subclasses stacked on each other: a newcomer then reads one
widget at a time. Counted from the ``class`` line to the class's last line, docstrings and
comments included, as a reader meets it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("screens", "widgets")
LIMIT = 400


def class_sizes(root: Path = ROOT) -> Iterator[tuple[str, int]]:
    """Each class in the folders (nested ones too) as ``path:Name`` and its line count."""
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                    last = node.end_lineno or node.lineno
                    yield f"{path.relative_to(root)}:{node.name}", last - first + 1


def test_no_class_over_the_limit() -> None:
    over = [f"{name} ({lines} lines)" for name, lines in class_sizes() if lines > LIMIT]
    assert not over, f"classes over {LIMIT} lines (split into widgets): {', '.join(over)}"


def test_the_count_sees_a_long_class(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT + 5))
    (tmp_path / "widgets").mkdir()
    (tmp_path / "screens").mkdir()
    (tmp_path / "widgets" / "big.py").write_text(f"class Big:\n{body}\n", encoding="utf-8")
    (tmp_path / "screens" / "small.py").write_text("class Small:\n    x = 1\n", encoding="utf-8")
    assert dict(class_sizes(tmp_path)) == {
        "widgets/big.py:Big": LIMIT + 6,
        "screens/small.py:Small": 2,
    }
