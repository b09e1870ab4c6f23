"""Long text: a paste a terminal sends key by key, and the bound on every text field.

The paste's cost against a bare Textual Input is measured in bench/paste.py; here, what the
GM sees: the text typed whole (or cut at the field's bound), and a message past a bound.
"""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.widgets import Input

from screens.npcs import NpcScreen
from tests.apphelpers import SIZE, demo_app

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

            for field_id, expected in (("npc-concepts", PASTE), ("npc-name", PASTE[:80])):
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
