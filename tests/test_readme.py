"""README is for a GM: what Tableside is, the two set-up commands first (CI runs the test one
exactly), a picture near the top, and links into the documentation site that resolve."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MAX_CHARACTERS = 8_000
PICTURE_WITHIN = 2_500
"""The screenshot comes before this many characters: after the commands, before the keys."""

_FENCE = re.compile(r"```sh\n(.+?)\n```", re.DOTALL)
_IMAGE = re.compile(r"!\[([^\]]+)\]\(([^)\s]+)\)")
_LINK = re.compile(r"(?<!!)\[[^\]]+\]\(([^)\s]+)\)")


def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_the_two_commands_come_first_and_ci_runs_the_test_one_exactly() -> None:
    text = readme()
    first_section = text.index("\n## ")
    blocks = _FENCE.findall(text)
    run_demo, run_tests = blocks[0], blocks[1]
    assert "tableside --demo" in run_demo and "pip install" in run_demo
    assert "pytest" in run_tests and "[test]" in run_tests
    # Before anything but the title and the one paragraph saying what Tableside is.
    assert text.index(run_tests) < first_section
    title, intro, *_ = text[: text.index("```sh")].strip().split("\n\n")
    assert title == "# Tableside"
    assert "game master" in intro and "```" not in intro
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert run_tests in ci_lines


def test_readme_fits_8000_characters() -> None:
    assert len(readme()) <= MAX_CHARACTERS, f"README is {len(readme())} characters"


def test_a_picture_near_the_top_that_exists() -> None:
    text = readme()
    found = _IMAGE.search(text)
    assert found is not None, "README shows no picture"
    alt, target = found.groups()
    assert found.start() < PICTURE_WITHIN
    assert found.start() > text.index(_FENCE.findall(text)[1]), "the commands come first"
    assert len(alt) > 20, "the picture says what it shows"
    picture = ROOT / target
    assert picture.is_file(), f"{target} is not a file"
    assert picture.suffix in {".svg", ".png"}
    assert picture.resolve().is_relative_to(ROOT / "docs")


def test_every_link_into_the_docs_resolves_to_a_file() -> None:
    links = [t for t in _LINK.findall(readme()) if "://" not in t]
    assert len(links) >= 10, links
    for target in links:
        path = target.split("#", 1)[0]
        assert path.startswith("docs/"), f"{target}: README links into docs/ only"
        assert (ROOT / path).is_file(), f"README links to {target}, which is not a file"
