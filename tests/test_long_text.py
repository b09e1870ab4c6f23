"""Long text: a paste a terminal sends key by key, and the bound on every text field.

The paste's cost against a bare Textual Input is measured in bench/paste.py; here, what the
GM sees: the text typed whole (or cut at the field's bound), and a message past a bound.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from textual import events
from textual.widgets import Input

from app.state import CommandError
from app.store import read_campaign
from rulesets.text import MAX_TEXT
from screens.npcs import NpcScreen
from tests.apphelpers import SIZE, demo_app
from widgets.statblock import StatblockView

PASTE = ("All work and no play makes the GM a dull boy " * 50)[:2000]


def _keys(text: str) -> list[events.Key]:
    names = {" ": "space"}
    return [events.Key(names.get(c, c), c) for c in text]


async def test_a_paste_sent_key_by_key_is_typed_whole_in_one_change(tmp_path: Path) -> None:
    """Before: each key waited for the one before to pass every widget, and changed the field
    (and redrew the NPC preview) once per character."""
    app = demo_app(tmp_path, game="shadows")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("3")
            await pilot.pause()
            assert isinstance(app.screen, NpcScreen)
            changes: list[str] = []

            def changed(value: str) -> None:
                changes.append(value)

            for field_id, expected in (("npc-concepts", PASTE), ("npc-name", PASTE)):
                field = app.screen.query_one(f"#{field_id}", Input)
                field.focus()
                await pilot.pause()
                changes.clear()
                app.screen.watch(field, "value", changed, init=False)
                for key in _keys(PASTE):
                    app.post_message(key)
                for _ in range(200):
                    await pilot.pause()
                    if field.value == expected:
                        break
                assert field.value == expected
                assert len(changes) < 20, len(changes)  # runs, not keys
    finally:
        app.campaign.store.close()


# --- bounds ------------------------------------------------------------------------------------
def test_a_form_text_field_past_its_bound_is_refused_naming_it() -> None:
    from rulesets.table import Field
    from screens.form import FieldError, clean

    spec = Field("who", "Who")
    assert clean(spec, "x" * MAX_TEXT) == "x" * MAX_TEXT
    with pytest.raises(FieldError, match="Who: at most 500 characters, not 100,000"):
        clean(spec, "x" * 100_000)


def test_npc_concepts_powers_and_notes_have_bounds() -> None:
    from app.commands.npcs import npc_document

    with pytest.raises(CommandError, match="Concepts: at most 500 characters"):
        npc_document("Ogre", concepts=["big"] * 200)
    with pytest.raises(CommandError, match="Powers: at most 500 characters"):
        npc_document("Ogre", powers=["x" * 600])
    with pytest.raises(CommandError, match="Notes: at most 20,000 characters"):
        npc_document("Ogre", notes="x" * 20_001)


async def test_a_100000_character_paste_in_the_npc_builder_says_the_bound(
    tmp_path: Path,
) -> None:
    """Before: the name refused the paste with a bell; concepts took it and the preview built
    a statblock from it on every change."""
    app = demo_app(tmp_path, game="shadows")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("3")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, NpcScreen)
            before = read_campaign(app.campaign.store.path)["npcs"]
            for field_id, said in (
                ("npc-name", "Name: at most 80 characters, not 100,000"),
                ("npc-concepts", "Concepts: at most 500 characters, not 100,000"),
            ):
                field = screen.query_one(f"#{field_id}", Input)
                field.focus()
                await pilot.pause()
                app.post_message(events.Paste("x" * 100_000))
                await pilot.pause()
                console = Console(width=80, record=True)
                console.print(screen.query_one("#npc-statblock", StatblockView).shown)
                assert said in console.export_text()
                await pilot.press("ctrl+s")
                await pilot.pause()
                field.value = ""
        assert read_campaign(app.campaign.store.path)["npcs"] == before
    finally:
        app.campaign.store.close()
