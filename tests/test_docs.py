"""The documentation site stays whole and true without building it (CI builds it with
``mkdocs build --strict``; these need neither mkdocs nor the network): every page of the nav is
there, every page is in the nav, every key the app binds is on the keys page with its default
key, every tray check input with its keys, and every ``tableside`` subcommand is on the
command-line page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.cli import SUBCOMMANDS
from app.keymap import binding_groups, keys_of
from app.tui import TablesideApp
from rulesets import registry
from screens.panel import PANELS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

# A nav entry: "- Title: page.md" or "- page.md", at any depth.
_NAV_PAGE = re.compile(r"^\s*-\s+(?:[^:\n]+:\s+)?([\w./-]+\.md)\s*$", re.MULTILINE)
# A keys-page row: "| `n` | Next turn | `combat.next_turn` |".
_KEY_ROW = re.compile(
    r"^\|[ \t]*([^|\n]+?)[ \t]*\|[^\n]*\|[ \t]*`([a-z_]+\.[a-z_]+)`[ \t]*\|[ \t]*$", re.MULTILINE
)
# How the keys page writes a key that Textual names in words.
_SHOWN_AS = {
    "question_mark": "?", "exclamation_mark": "!", "at": "@", "number_sign": "#",
    "dollar_sign": "$", "percent_sign": "%", "circumflex_accent": "^", "ampersand": "&",
    "asterisk": "*", "plus": "+", "minus": "-", "slash": "/", "equals_sign": "=",
    "right_square_bracket": "]", "left_square_bracket": "[", "right_curly_bracket": "}",
    "left_curly_bracket": "{", "greater_than_sign": ">", "less_than_sign": "<",
}  # fmt: skip


def nav_pages() -> list[str]:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    return _NAV_PAGE.findall(text.split("\nnav:", 1)[1])


def documented_keys() -> dict[str, set[str]]:
    """Binding id -> the key cells the keys page gives it (a game's id may recur per game)."""
    text = (DOCS / "keys.md").read_text(encoding="utf-8")
    rows: dict[str, set[str]] = {}
    for cell, binding_id in _KEY_ROW.findall(text):
        rows.setdefault(binding_id, set()).add(cell)
    return rows


def shown(keys: list[str]) -> str:
    """The keys page's cell for these keys: each in backticks, Textual's word names as signs
    (a key bound twice under one spelling, alt+shift+r, is written once)."""
    names = [_SHOWN_AS.get(key, key) for key in keys]
    if "alt+shift+r" in names:
        names = [n for n in names if n != "shift+alt+r"]
    return " ".join(f"`{name}`" for name in dict.fromkeys(names))


def test_every_page_in_the_nav_exists_and_every_page_is_in_the_nav() -> None:
    pages = nav_pages()
    assert {"index.md", "keys.md", "cli.md", "writing-a-game.md", "architecture.md"} <= set(pages)
    for page in pages:
        assert (DOCS / page).is_file(), f"mkdocs.yml's nav names {page}, which is not in docs/"
    on_disk = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert on_disk <= set(pages), f"pages no reader can reach: {sorted(on_disk - set(pages))}"


def test_the_site_home_gives_the_readme_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    for block in re.findall(r"```sh\n(.+?)\n```", readme)[:2]:
        assert block in home


def test_every_shell_key_is_on_the_keys_page_with_its_default_key() -> None:
    rows = documented_keys()
    for group in binding_groups(TablesideApp):
        for binding in group.bindings:
            if not binding.description:
                continue  # a key that only explains itself (not listed by help either)
            assert binding.id in rows, f"docs/keys.md lacks {binding.id} ({binding.description})"
            assert shown(keys_of(binding, {})) in rows[binding.id], (
                f"docs/keys.md gives {binding.id} {rows[binding.id]}, the app binds "
                f"{shown(keys_of(binding, {}))}"
            )


@pytest.mark.parametrize("game_id", ["aspects", "nemron", "resolution", "shadows", "somnihil"])
def test_every_game_key_is_on_the_keys_page(game_id: str) -> None:
    rows = documented_keys()
    game = registry.game(game_id)
    actions = [action for _key, panel, _title in PANELS for action in game.actions_for(panel)]
    assert actions
    for action in actions:
        assert action.binding_id in rows, f"docs/keys.md lacks {game_id}'s {action.binding_id}"
        assert shown(action.key.split(",")) in rows[action.binding_id]


@pytest.mark.parametrize("game_id", ["aspects", "nemron", "resolution", "shadows", "somnihil"])
def test_every_check_input_is_on_the_keys_page_with_its_keys(game_id: str) -> None:
    text = (DOCS / "keys.md").read_text(encoding="utf-8")
    section = text.split("## The tray's check inputs", 1)[1].split("\n## ", 1)[0]
    game = registry.game(game_id)
    for check in game.checks.checks:
        heading = f"### {game.ruleset.name}: {check.name}\n"
        assert heading in section, f"docs/keys.md lacks the inputs of {game_id}'s {check.name}"
        table = section.split(heading, 1)[1].split("\n### ", 1)[0]
        for spec in check.inputs:
            keys = [shown([spec.press])] if spec.press else []
            if spec.steps:
                keys.append(" / ".join(shown([key]) for key in spec.steps))
            cell = " · ".join(keys) or "(`=` only)"
            row = f"| {cell} | {spec.label} | "
            assert row in table and f"| `{spec.key}` |" in table, (
                f"docs/keys.md lacks {game_id}'s input {spec.label} on {cell}"
            )


def test_every_subcommand_is_on_the_command_line_page() -> None:
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for name in SUBCOMMANDS:
        assert re.search(f"`tableside {name}[ `]", text), f"docs/cli.md lacks tableside {name}"
