"""Whole fights played by keys where the exchange's steps meet: the target named on its line,
a foe against a foe, a PC's attack in a game with none of its own, and the statblock keys
with a PC selected. Pilot tests, keys only."""

from __future__ import annotations

from pathlib import Path

from app.tui import TablesideApp
from tests.apphelpers import demo_app
from tests.test_exchange_keys import amount_line, health, turn_of

NARROW = (80, 24)


def toasts(app: TablesideApp) -> list[str]:
    return [str(n.message) for n in app.notices]


async def test_an_ambiguous_target_name_is_said_and_nothing_is_rolled(tmp_path: Path) -> None:
    """Resolution takes the target by name on the exchange's line: `go` begins three goblins'
    names, so the line lists them and enter rolls at none (not the target it had before);
    typed further, the name chooses one and enter lands there."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await turn_of(pilot, app, "pc")
        await pilot.press("A")
        await pilot.pause()
        before, version = health(app), app.campaign.version
        await pilot.press("g", "o")
        await pilot.pause()
        line = amount_line(app)
        assert "'go' is ambiguous: Goblin 1, Goblin 2, Goblin 3" in line, line
        assert "hits" not in line, line
        await pilot.press("enter")
        await pilot.pause()
        assert app.campaign.version == version
        assert health(app) == before
        assert "ambiguous" in amount_line(app)
        await pilot.press(*"blin 3")
        await pilot.pause()
        line = amount_line(app)
        assert "→ Goblin 3" in line and "ambiguous" not in line, line
        await pilot.press("enter")
        await pilot.pause()
        assert app.campaign.version == version + 1
        assert "▏" not in amount_line(app)
    app.campaign.store.close()


async def test_a_name_that_names_no_one_is_said_after_tab(tmp_path: Path) -> None:
    """Somnihil asks the Cipher's d20 first; after tab the keys name the target. A name no
    one has is said, and enter does not roll at the target named before."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await turn_of(pilot, app, "pc")
        await pilot.press("A", "tab", "z", "q")
        await pilot.pause()
        version = app.campaign.version
        assert "No one is named 'zq'" in amount_line(app), amount_line(app)
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert app.campaign.version == version
        assert "No one is named 'zq'" in amount_line(app), amount_line(app)
    app.campaign.store.close()
