"""Every panel of every game's demo, at 80×24 and 120×36, as the GM reads it.

Snapshots (seeded demo, fixed clock: see tests/apphelpers.py) and tests that read the rendered
screen: at 80×24 each panel keeps what the GM needs; at 120×36 nothing is cut to an ellipsis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from app.queries import current_encounter
from tests.apphelpers import demo_app, screen_text
from tests.games import BUILT_IN

GAMES = BUILT_IN
SIZES = {"80x24": (80, 24), "120x36": (120, 36)}
PANELS = {"1": "combat", "2": "tray", "3": "npcs", "4": "party"}
START = ("i", "alt+r")
"""Roll initiative (where the game uses it) and start the demo's fight: a turn and a round."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("panel", PANELS)
@pytest.mark.parametrize("game", GAMES)
def test_panel_snapshot(snap_compare, tmp_path: Path, game: str, panel: str, size: str) -> None:  # type: ignore[no-untyped-def]
    press = [*START, panel] if panel == "1" else [panel]
    assert snap_compare(demo_app(tmp_path, game), press=press, terminal_size=SIZES[size])


@pytest.mark.parametrize("game", GAMES)
async def test_80x24_keeps_what_the_gm_needs(tmp_path: Path, game: str) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await pilot.press(*START)
        await pilot.pause()
        shown = screen_text(app)
        for key, name in PANELS.items():
            assert f"{key} {name.title() if name != 'npcs' else 'NPCs'}" in shown[0]
        fight = current_encounter(app.campaign)
        assert fight is not None
        doc = fight[1]
        acting = [c["name"] for c in doc["combatants"] if c["id"] == doc.get("current")]
        whose = f"{acting[0]}'s turn" if acting else "choose who acts"
        assert shown[1].strip().startswith(f"Round {doc['round']} · {whose}"), shown[1]
        table = "\n".join(shown[2:14])
        for c in doc["combatants"]:
            assert c["name"] in table  # every combatant in view, with its health beside it
        assert "Health" in shown[2] and "Conditions" in shown[2]
        await pilot.press("2", "c")
        await pilot.pause()
        shown = screen_text(app)
        assert any("Odds" in line for line in shown)
        top = [i for i, line in enumerate(shown) if "Roll log" in line][0]
        assert len(shown) - 1 - top - 1 >= 5  # five log lines between its title and the footer
        await pilot.press("3")
        await pilot.pause()
        shown = screen_text(app)
        assert not any("…" in line for line in shown[1:])
        assert any("Brawl" in line for line in shown) and any("Morale" in line for line in shown)
        await pilot.press("4")
        await pilot.pause()
        sheet = "\n".join(screen_text(app))
        pc = app.campaign.rows("party")[0][1]
        for name, track in pc.get("resources", {}).items():
            # a track reads current/max; a counter (Nemron's Luck) just its number
            assert f"{track['current']}/{track['max']}" in sheet or (
                f"  {track['current']}\n" in sheet.replace(" │", "\n")
                or f" {track['current']} " in sheet
            ), name
    app.campaign.store.close()


def longer_title(app: Any) -> str | None:
    """The tracker's title where it is longer than its one row: with the encounter list and
    the statblock both open (L) it has some fifty cells, and ends in … (it used to lose its
    end unmarked). None where it fits, or on another panel."""
    from textual.widgets import Static

    found = app.screen.query("#encounter-title")
    if not found:
        return None
    title = found.first(Static)
    text = str(title.render())
    return text if cell_len(text) > title.content_size.width else None


@pytest.mark.parametrize("game", GAMES)
async def test_120x36_nothing_the_gm_reads_ends_in_an_ellipsis(tmp_path: Path, game: str) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await pilot.press(*START, "n", "n", "n")
        for key in ("1", "2", "c", "enter", "escape", "3", "4", "1", "L"):
            await pilot.press(key)
            await pilot.pause()
            cut = [line.rstrip() for line in screen_text(app) if "…" in line]
            title = longer_title(app)
            cut = [line for line in cut if title is None or title[:20] not in line]
            assert cut == [], f"after {key}: {cut}"
    app.campaign.store.close()
