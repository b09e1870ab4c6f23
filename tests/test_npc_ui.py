"""Pilot and snapshot tests of panel 3, the NPC builder and library (NPC-01..NPC-10)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Input, Static

from app.queries import current_encounter
from app.store import read_campaign
from screens.npc_add import AddToEncounterScreen
from screens.npc_confirm import NpcConfirm
from screens.npc_convert import WithoutNumberForm
from screens.npc_import import NpcImportScreen
from screens.npc_roll import NpcRollScreen
from screens.npcs import NpcScreen
from tests.apphelpers import SIZE, demo_app
from widgets.npc_attribute import AttributeField
from widgets.npc_library import NpcLibrary
from widgets.statblock import StatblockView


def _text(view: StatblockView) -> str:
    from rich.console import Console

    console = Console(width=80, record=True)
    console.print(view.shown)
    return console.export_text()


async def test_npc01_build_by_keys_save_filter_and_add_three(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        screen = app.screen
        assert isinstance(screen, NpcScreen)
        assert isinstance(app.focused, NpcLibrary)  # digits still switch panels
        await pilot.press("n", *"Bandit", "tab", *"brutal, cunning", "tab")
        assert isinstance(app.focused, AttributeField)
        await pilot.press("plus", "plus", "plus", "tab", "plus", "plus", "tab", "plus", "plus")
        live = _text(screen.query_one("#npc-statblock", StatblockView))
        assert "33 (6d10)" in live and "Powers (3 slots)" in live  # NPC-02/04/06 live
        await pilot.press("minus")
        assert "Powers (2 slots)" in _text(screen.query_one("#npc-statblock", StatblockView))
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.campaign.store.flush()
        saved = list(read_campaign(app.campaign.store.path)["npcs"].values())
        bandit = next(n for n in saved if n["name"] == "Bandit")
        assert (bandit["brawl"], bandit["wit"], bandit["will"]) == (3, 2, 1)
        assert bandit["concepts"] == ["brutal", "cunning"]
        # find it by typing
        await pilot.press("slash", *"band")
        table = screen.query_one("#npc-library", NpcLibrary)
        assert table.row_count == 1
        await pilot.press("enter")
        assert isinstance(app.focused, NpcLibrary)
        # three into the encounter, fixed HP
        await pilot.press("a")
        assert isinstance(app.screen, AddToEncounterScreen)
        await pilot.press("backspace", "3", "down", "enter")
        await pilot.pause()
        found = current_encounter(app.campaign)
        assert found is not None
        added = [c for c in found[1]["combatants"] if c["name"].startswith("Bandit")]
        assert [(c["name"], c["stats"]["hp"]) for c in added] == [
            ("Bandit 1", 28),
            ("Bandit 2", 28),
            ("Bandit 3", 28),
        ]
        await pilot.press("escape", "1")
        assert not isinstance(app.screen, NpcScreen)
    app.campaign.store.close()


async def test_npc03_quick_build_and_bad_hd(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "h", "5")
        screen = app.screen
        assert "25 (5d8)" in _text(screen.query_one("#npc-statblock", StatblockView))
        await pilot.press("0")
        assert "HD 0 to 20" in _text(screen.query_one("#npc-statblock", StatblockView))
        await pilot.press("ctrl+s")  # no name, bad HD: refused, nothing saved
        await pilot.pause()
        assert len(app.campaign.rows("npcs")) == 4
    app.campaign.store.close()


async def test_npc_edit_duplicate_delete_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "c")
        await pilot.pause()
        names = [d["name"] for _, d in app.campaign.rows("npcs")]
        assert names[-1] == "Goblin (copy)"
        await pilot.press("e")
        name = app.screen.query_one("#npc-name", Input)
        assert app.focused is name
        name.value = "Goblin Boss"
        await pilot.press("tab", "tab", "plus", "ctrl+s")
        await pilot.pause()
        doc = app.campaign.rows("npcs")[-1][1]
        assert (doc["name"], doc["brawl"]) == ("Goblin Boss", 2)
        await pilot.press("x")
        assert isinstance(app.screen, NpcConfirm)  # a GM asked before anything goes
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NpcScreen)
        assert "Goblin Boss" in [d["name"] for _, d in app.campaign.rows("npcs")]
        await pilot.press("delete", "y")
        await pilot.pause()
        assert "Goblin Boss" not in [d["name"] for _, d in app.campaign.rows("npcs")]
        await pilot.press("u")  # undo still brings it back
        await pilot.pause()
        assert "Goblin Boss" in [d["name"] for _, d in app.campaign.rows("npcs")]
        app.campaign.store.flush()
        saved = read_campaign(app.campaign.store.path)["npcs"].values()
        assert "Goblin Boss" in [d["name"] for d in saved]
    app.campaign.store.close()


async def test_npc02_05_08_rolls_from_the_statblock(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "down", "down", "down", "r")  # Hedge Witch
        assert isinstance(app.screen, NpcRollScreen)
        await pilot.press("a", "l", "s", "m", "e", "k")
        rolls = [e for e in app.campaign.log_entries() if e["kind"] == "roll"][-5:]
        assert all(r["who"] == "Hedge Witch" for r in rolls)
        assert rolls[0]["expression"].startswith("1d20+1")  # attack with Brawl 0
        assert rolls[1]["expression"].endswith("vs Save 15")  # save with Will
        assert rolls[2]["expression"] == "2d6+2 morale"
        assert rolls[3]["expression"] == "1d4 Effort"
        assert rolls[4]["expression"].startswith("2d6+2")  # skill with Will
        await pilot.press("escape")
        assert isinstance(app.screen, NpcScreen)
    app.campaign.store.close()


REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "tests" / "fixtures" / "srd5e-monsters-sample.json"
"""A copy of the project's shared 5e sample (see tests/fixtures/README.md)."""
TARRASQUE = {
    "name": "Tarrasque",
    "strength": 30,
    "dexterity": 11,
    "constitution": 30,
    "intelligence": 3,
    "wisdom": 11,
    "charisma": 11,
    "challenge_rating": 30,
    "armor_class": [{"type": "natural", "value": 25}],
    "hit_points": 676,
    "actions": [{"name": "Bite", "attack_bonus": 19}],
}


def _static(app: object, selector: str) -> str:
    import io

    from rich.console import Console

    console = Console(width=100, record=True, file=io.StringIO())
    console.print(app.screen.query_one(selector, Static).render())  # type: ignore[attr-defined]
    return console.export_text()


async def test_npc10_without_number_form_fills_builder_then_save(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "n", *"Raider", "escape", "w")
        form = app.screen
        assert isinstance(form, WithoutNumberForm)
        await pilot.press("minus", "enter")  # a lone "-" is not a number: a message
        await pilot.press("ctrl+s")
        assert "Attack must be a whole number" in _static(app, "#wn-error")
        await pilot.press("backspace", "5", "enter", "1", "enter", *"30", "ctrl+s")
        assert "Will would be +23" in _static(app, "#wn-error")  # morale 30: refused
        assert isinstance(app.screen, WithoutNumberForm)
        await pilot.press("backspace", "backspace", "9", "enter", *"30", "enter", "5")
        shown = _static(app, "#wn-result")
        assert "Brawl +2  Wit +1  Will +2" in shown
        assert "Save 15+ recalculated from HD 4" in shown  # NPC-10: Save recalculated
        assert "HP 20 (4d8) recalculated (WN HP 30)" in shown  # NPC-10: HP recalculated
        assert "WN HD 5 became HD 4" in shown
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(screen, NpcScreen)
        assert screen.query_one("#npc-name", Input).value == "Raider"  # name kept
        values = [
            screen.query_one(f"#npc-{k}", AttributeField).value for k in ("brawl", "wit", "will")
        ]
        assert values == [2, 1, 2]
        live = _text(screen.query_one("#npc-statblock", StatblockView))
        assert "20 (4d8)" in live and "From Without Number: attack +5" in live
        assert len(app.campaign.rows("npcs")) == 4  # nothing saved until the GM says so
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.campaign.store.flush()
        saved = list(read_campaign(app.campaign.store.path)["npcs"].values())
        raider = next(n for n in saved if n["name"] == "Raider")
        assert (raider["brawl"], raider["wit"], raider["will"]) == (2, 1, 2)
        assert raider["statblock"]["save"] == 15 and raider["statblock"]["hp"] == 20
        assert raider["source"]["system"] == "Without Number"
        assert (raider["source"]["attack"], raider["source"]["hp"]) == (5, 30)
        await pilot.press("w", "escape")  # escape leaves the form, nothing changes
        assert isinstance(app.screen, NpcScreen)
    app.campaign.store.close()


async def test_npc09_import_dialog_previews_and_imports_the_sample(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "i")
        dialog = app.screen
        assert isinstance(dialog, NpcImportScreen)
        path = dialog.query_one("#npc-import-path", Input)
        path.value = str(SAMPLE)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        preview = dialog.query_one("#npc-import-preview", DataTable)
        assert preview.row_count == 25
        assert "25 converted" in _static(app, "#npc-import-status")
        first = [str(c) for c in preview.get_row_at(0)]
        assert first[0] == "Chain Devil" and first[1] == "8" and first[3] == "16"
        assert len(app.campaign.rows("npcs")) == 4  # the preview writes nothing
        await pilot.press("enter")  # enter on the preview imports all
        await pilot.pause()
        assert isinstance(app.screen, NpcScreen)
        app.campaign.store.flush()
        saved = list(read_campaign(app.campaign.store.path)["npcs"].values())
        assert len(saved) == 4 + 25
        devil = next(n for n in saved if n["name"] == "Chain Devil")
        assert devil["source"]["system"] == "5e" and devil["source"]["cr"] == "8"
        quipper = next(n for n in saved if n["name"] == "Quipper")
        assert quipper["source"]["cr"] == "0"
        assert app.screen.query_one("#npc-library", NpcLibrary).row_count == 29
        await pilot.press("u")  # one command: one undo takes the whole import back
        await pilot.pause()
        assert len(app.campaign.rows("npcs")) == 4
    app.campaign.store.close()


async def test_npc09_import_dialog_lists_skipped_and_bad_files(tmp_path: Path) -> None:
    good = tmp_path / "monsters.json"
    good.write_text(json.dumps([TARRASQUE, {"name": "Broken", "strength": 10}]))
    bad = tmp_path / "notes.json"
    bad.write_text("not json")
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "i")
        dialog = app.screen
        path = dialog.query_one("#npc-import-path", Input)
        path.value = str(bad)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "notes.json is not JSON" in _static(app, "#npc-import-status")
        await pilot.press("ctrl+s")  # nothing read: nothing imported
        assert isinstance(app.screen, NpcImportScreen)
        path.value = str(tmp_path / "missing.json")
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Cannot read" in _static(app, "#npc-import-status")
        path.value = str(good)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        skipped = _static(app, "#npc-import-skipped")
        assert "skipped #1 Broken: missing fields" in skipped
        row = [str(c) for c in dialog.query_one("#npc-import-preview", DataTable).get_row_at(0)]
        assert row[:5] == ["Tarrasque", "30", "9", "60", "-51"]
        assert row[5] == "adjust attributes"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert [d["name"] for _, d in app.campaign.rows("npcs")][-1] == "Tarrasque"
    app.campaign.store.close()


async def test_npc09_editing_an_import_beyond_the_table_keeps_brawl_10(tmp_path: Path) -> None:
    from app.commands.npcs import ImportNpcs
    from app.tui import TablesideApp
    from rulesets import npc as npc_rules
    from tests.apphelpers import open_demo

    campaign = open_demo(tmp_path, "resolution")
    campaign.apply(ImportNpcs((npc_rules.from_5e(TARRASQUE),)))
    app = TablesideApp(campaign)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", *["down"] * 4)
        screen = app.screen
        assert "beyond the text's table" in _text(screen.query_one("#npc-selected", StatblockView))
        await pilot.press("e")
        brawl = screen.query_one("#npc-brawl", AttributeField)
        assert brawl.value == 10  # not clamped to +8
        assert "Brawl +10 beyond the text's table" in _text(
            screen.query_one("#npc-statblock", StatblockView)
        )
        await pilot.press("tab", "tab", "plus")  # +10 is the top: stays
        assert app.focused is brawl and brawl.value == 10
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.campaign.store.flush()
        saved = list(read_campaign(app.campaign.store.path)["npcs"].values())
        tarrasque = next(n for n in saved if n["name"] == "Tarrasque")
        assert (tarrasque["brawl"], tarrasque["wit"], tarrasque["will"]) == (10, 0, 0)
        assert tarrasque["source"]["cr"] == "30"  # the edit keeps the 5e source
        await pilot.press("e", "tab", "tab", "minus", "ctrl+s")
        await pilot.pause()
        tarrasque = next(d for _, d in app.campaign.rows("npcs") if d["name"] == "Tarrasque")
        assert tarrasque["brawl"] == 9
    app.campaign.store.close()


def test_npc_builder_snapshot(snap_compare, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    keys = ["3", "n", *"Ogre", "tab", *"brute", "tab", "plus", "plus", "plus", "tab", "plus"]
    assert snap_compare(demo_app(tmp_path, "resolution"), press=keys, terminal_size=SIZE)


async def _read_in_import_dialog(pilot: Any, path: Path) -> None:
    """3, i, the file's path, enter: the import dialog shows the file's preview."""
    app = pilot.app
    await pilot.press("3", "i")
    dialog = app.screen
    assert isinstance(dialog, NpcImportScreen)
    dialog.query_one("#npc-import-path", Input).value = str(path)
    await pilot.press("enter")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_npc_panel_imports_an_improved_initiative_library_and_updates_on_reimport(
    tmp_path: Path,
) -> None:
    library = Path(__file__).parent / "fixtures" / "improved-initiative-library.json"
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        for expected in ("3 added, 0 updated, 0 left alone", "0 added, 0 updated, 3 left alone"):
            await _read_in_import_dialog(pilot, library)
            assert "Improved Initiative: 3 converted" in _static(app, "#npc-import-status")
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, NpcScreen)
            said = str(app.screen.query_one("#event-line", Static).render())  # not a toast
            assert expected in said.replace("\n", " "), said
        names = [d["name"] for _, d in app.campaign.rows("npcs")]
        assert names.count("Bandit Captain") == 1 and len(names) == 4 + 3
    app.campaign.store.close()


async def test_importing_an_ii_encounter_from_the_npc_panel_recreates_the_fight(
    tmp_path: Path,
) -> None:
    encounter = Path(__file__).parent / "fixtures" / "improved-initiative-encounter.json"
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=(120, 36)) as pilot:
        await _read_in_import_dialog(pilot, encounter)
        status = _static(app, "#npc-import-status")
        assert "Encounter Goblin ambush: 3 combatants join the tracker" in status
        await pilot.press("enter")
        await pilot.pause()
        said = str(app.screen.query_one("#event-line", Static).render()).replace("\n", " ")
        assert "Encounter Goblin ambush recreated" in said and "round 2" in said
        await pilot.press("1")
        await pilot.pause()
        title = str(app.screen.query_one("#encounter-title", Static).render())
        assert "Goblin ambush" in title and "Round 2" in title and "Goblin 1" in title
        await pilot.press("u")  # one undo takes the fight and the statblocks back
        await pilot.pause()
        fights = [d["name"] for _, d in app.campaign.rows("encounters")]
        assert fights == ["Ambush at the Mill"]
    app.campaign.store.close()
