"""The rules are pure: importing every ruleset pulls in no Textual or Rich (Harlequin's guarantee)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_rulesets_import_without_textual_in_a_fresh_interpreter() -> None:
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "rulesets").rglob("*.py")
    )
    assert "rulesets.shadows.game" in modules  # every game's package is covered
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""


def test_rulesets_use_no_global_random() -> None:
    """Every draw goes through an injected random.Random: no module-level random.* calls."""
    offenders = []
    for path in (ROOT / "rulesets").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "random"
                and node.func.attr not in ("Random",)
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} random.{node.func.attr}")
    assert offenders == []
