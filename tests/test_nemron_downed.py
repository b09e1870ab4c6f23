"""Nemron: "Downed clears once the limb that caused it is healed above 0" (NEM-08/11),
by every route a GM heals a limb: the tracker's inline heal and its whole form, the party
sheet's +, undo then redo, and a downed foe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from app.queries import current_encounter
from app.tui import TablesideApp
from screens.combat import CombatScreen
from tests.apphelpers import SIZE, demo_app
from tests.test_party_ui import goto_field

KESH = "c1"


def kesh(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    doc = app.campaign.doc("party", 1)
    assert doc is not None
    return doc


def combatant(app: TablesideApp, name: str) -> dict[str, Any]:
    found = current_encounter(app.campaign)
    assert found is not None
    return next(c for c in found[1]["combatants"] if c["name"] == name)


async def down_kesh(app: TablesideApp, pilot: Pilot[None]) -> None:
    """Kesh's torso to 0 by the tracker's damage form: downed, keeps the turn."""
    screen = app.screen
    assert isinstance(screen, CombatScreen) and screen.table.selected_id == KESH
    await pilot.press("t", "9", "9", "tab", *"torso", "enter")
    await pilot.pause()
    sheet = kesh(app)
    assert sheet["status"] == "downed" and sheet["tracks"]["limbs"]["torso"]["hp"] == 0


async def test_tracker_inline_heal_clears_downed(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await down_kesh(app, pilot)
        await pilot.press("l", "3", "enter")  # the most hurt limb: the torso
        await pilot.pause()
        sheet = kesh(app)
        assert sheet["tracks"]["limbs"]["torso"]["hp"] == 3
        assert sheet["status"] == "alive"
        assert "no longer downed" in " ".join(e.get("text", "") for e in app.campaign.log_entries())
    app.campaign.store.close()


async def test_tracker_heal_form_on_the_torso_clears_downed_and_undo_redo_follow(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await down_kesh(app, pilot)
        await pilot.press("l", "2", "tab", *"torso", "enter")
        await pilot.pause()
        assert kesh(app)["status"] == "alive"
        await pilot.press("u")
        await pilot.pause()
        assert kesh(app)["status"] == "downed"
        assert kesh(app)["tracks"]["limbs"]["torso"]["hp"] == 0
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert kesh(app)["status"] == "alive"
        assert kesh(app)["tracks"]["limbs"]["torso"]["hp"] == 2
    app.campaign.store.close()


async def test_healing_another_limb_leaves_downed(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await down_kesh(app, pilot)
        await pilot.press("t", "4", "tab", *"right_arm", "enter")
        await pilot.press("l", "4", "tab", *"right_arm", "enter")
        await pilot.pause()
        assert kesh(app)["status"] == "downed"
    app.campaign.store.close()


async def test_party_sheet_plus_on_the_torso_clears_downed(tmp_path: Path) -> None:
    """Failed before: the sheet's + healed the limb and left the PC downed."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await down_kesh(app, pilot)
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "limb:torso")
        await pilot.press("plus")
        await pilot.pause()
        sheet = kesh(app)
        assert sheet["tracks"]["limbs"]["torso"]["hp"] == 1
        assert sheet["status"] == "alive"
        await pilot.press("u")
        await pilot.pause()
        assert kesh(app)["status"] == "downed"
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert kesh(app)["status"] == "alive"
    app.campaign.store.close()


async def test_party_rest_heals_the_torso_and_clears_downed(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await down_kesh(app, pilot)
        await pilot.press("4", "R", "down", "enter")  # the long rest of the two R offers
        await pilot.pause()
        sheet = kesh(app)
        assert sheet["tracks"]["limbs"]["torso"]["hp"] > 0
        assert sheet["status"] == "alive"
    app.campaign.store.close()


async def test_a_downed_foe_healed_is_back_in_the_fight(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q", *"Raider", "enter")
        await pilot.pause()
        raider = combatant(app, "Raider")
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        while screen.table.selected_id != raider["id"]:
            await pilot.press("j")
        await pilot.press("t", "9", "tab", *"head", "enter")
        await pilot.pause()
        raider = combatant(app, "Raider")
        assert raider["stats"]["sheet"]["status"] == "downed" and raider["defeated"]
        await pilot.press("l", "2", "enter")
        await pilot.pause()
        raider = combatant(app, "Raider")
        assert raider["stats"]["sheet"]["status"] == "alive"
        assert not raider.get("defeated")
    app.campaign.store.close()
