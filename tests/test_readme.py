"""README's two commands stay true: CI runs exactly the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    blocks = re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"))
    run_demo, run_tests = blocks[0], blocks[1]
    assert "tableside --demo" in run_demo and "pip install" in run_demo
    assert "pytest" in run_tests and "[test]" in run_tests
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert run_tests in ci_lines
