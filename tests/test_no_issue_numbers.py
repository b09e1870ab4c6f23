"""Comments say why, not which ticket asked: an issue number means nothing to a reader who
has the code and not the tracker, and it outlives the tracker."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = (".py", ".toml", ".tcss", ".js", ".css", ".html")
SKIPPED = {".venv", ".git", "docs", "build", "dist", "node_modules", "__pycache__"}
# Spelled in two parts so that this file does not match itself.
ISSUE = re.compile("[Ii]ssue" + r" #?[0-9]+")


def _sources(root: Path) -> Iterator[Path]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED and not d.startswith(".")]
        yield from (Path(folder, f) for f in files if f.endswith(SUFFIXES))


def issue_numbers(root: Path = ROOT) -> list[str]:
    """Each line of the tree's source files that names an issue by number, as ``path:line``."""
    found = []
    for path in sorted(_sources(root)):
        relative = path.relative_to(root)
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if ISSUE.search(line):
                found.append(f"{relative}:{number}: {line.strip()}")
    return found


def test_no_comment_names_an_issue_number() -> None:
    assert issue_numbers() == []


def test_the_scan_sees_an_issue_number(tmp_path: Path) -> None:
    (tmp_path / "screens").mkdir()
    line = "/* fits in 80x24 (iss" + "ue 15). */"
    (tmp_path / "screens" / "a.tcss").write_text(line + "\n")
    (tmp_path / "b.py").write_text("# keeps the why\n")
    assert issue_numbers(tmp_path) == [f"screens/a.tcss:1: {line}"]
