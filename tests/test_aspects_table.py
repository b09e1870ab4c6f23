"""The aspects game at the table, by keys: Darkest Self offered to PCs only; the
defender names a consequence and it can be renamed (tracker and party sheet) and heal; a
created advantage's free invoke and a compel from the tracker and the tray (ASP-04/05/06/07)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from app.commands import combat as cmd
from app.queries import current_encounter
from app.tui import TablesideApp
from screens.form import FormScreen
from screens.help import HelpScreen
from tests.apphelpers import SIZE, demo_app, footer_words, last_roll, select_combatant
from tests.test_party_ui import goto_field

ROWAN, GOBLIN = "c1", "c5"


def encounter(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    found = current_encounter(app.campaign)
    assert found is not None
    return found[1]


def rowan(app: TablesideApp) -> dict[str, Any]:
    doc = app.campaign.doc("party", 1)
    assert doc is not None
    return doc


def foe_sheet(app: TablesideApp, cid: str) -> dict[str, Any]:
    c = next(c for c in encounter(app)["combatants"] if c["id"] == cid)
    sheet: dict[str, Any] = c["stats"]["sheet"]
    return sheet


async def offered(app: TablesideApp, pilot: Pilot[None]) -> tuple[set[str], set[str]]:
    """The game keys the Footer shows, and every line help lists."""
    footer = footer_words(app)
    await pilot.press("question_mark")
    await pilot.pause()
    assert isinstance(app.screen, HelpScreen)
    helped = {f"{k} {d}" for k, d in app.screen.help_rows}
    await pilot.press("escape")
    await pilot.pause()
    return footer, helped


async def rolls_for(pilot: Pilot[None], name: str) -> None:
    """In the tray: who rolls is ``name``."""
    await pilot.pause()
    while pilot.app.screen.who_name != name:  # type: ignore[attr-defined]
        await pilot.press("p")


def consequences(sheet: dict[str, Any]) -> list[str]:
    return [e["name"] for e in sheet["lists"]["consequences"]]


# --------------------------------------------------------------------------- Darkest Self


async def test_darkest_self_is_offered_on_the_pc_never_with_a_foe_selected(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        eid = current_encounter(app.campaign)[0]  # type: ignore[index]
        for _ in range(3):
            app.campaign.apply(cmd.Damage(eid, ROWAN, "12", {"defence": 7}))
        await pilot.pause()
        assert ROWAN in encounter(app)["pending"]
        await select_combatant(pilot, GOBLIN)
        footer, helped = await offered(app, pilot)
        assert "Darkest Self or Taken Out" not in footer
        assert not any("Darkest Self" in line for line in helped)
        palette = {c.title for c in app.get_system_commands(app.screen)}
        assert not any("Darkest Self" in title for title in palette)
        await pilot.press("f")
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        assert rowan(app)["status"] == "alive" and ROWAN in encounter(app)["pending"]
        await select_combatant(pilot, ROWAN)
        footer, helped = await offered(app, pilot)
        assert "Darkest Self or Taken Out" in footer
        assert any("Darkest Self" in c.title for c in app.get_system_commands(app.screen))
        await pilot.press("f", "enter")
        await pilot.pause()
        assert rowan(app)["status"] == "darkest self"
    app.campaign.store.close()


# --------------------------------------------------------------------------- consequences


async def test_the_defender_names_a_consequence_and_renaming_makes_no_second(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        # The hit's whole form names it in the defender's words.
        # The defence total typed (0); blank would roll the defender's 2d6 + skill.
        await pilot.press("t", "9", "tab", "0", "tab", "tab", *"Cracked rib", "enter")
        await pilot.pause()
        assert consequences(rowan(app)) == ["Cracked rib"]
        # A hit typed inline gets a plain label, and the line says how to name it.
        await pilot.press("t", "8", "tab", "0", "enter")
        await pilot.pause()
        assert consequences(rowan(app)) == ["Cracked rib", "physical hit (debilitates)"]
        assert "names it: r" in str(app.screen.query_one("#combat-last").render())
        await pilot.press("r", "tab", *"Broken nose", "enter")
        await pilot.pause()
        assert consequences(rowan(app)) == ["Cracked rib", "Broken nose"]
        shown = str(app.screen.query_one("#combat-amount").render())
        assert "Consequences (r names): Cracked rib, Broken nose" in shown
        received = rowan(app)["lists"]["consequences"][1]["received"]
        assert received  # the date received stays (ASP-07)
        # A name the other consequence has is refused; nothing changes.
        await pilot.press("r", "tab", *"Cracked rib", "enter")
        await pilot.pause()
        assert consequences(rowan(app)) == ["Cracked rib", "Broken nose"]
        from screens.form import FormScreen

        assert isinstance(app.screen, FormScreen)  # a refused form stays open to fix
        assert "Cracked rib" in str(app.screen.query_one("#form-error").render())
        await pilot.press("escape")
        # The party sheet: e on a consequence renames it.
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "item:consequences:0")
        await pilot.press("e", *"Bruised ribs", "enter")
        await pilot.pause()
        assert consequences(rowan(app)) == ["Bruised ribs", "Broken nose"]
        await pilot.press("u")
        await pilot.pause()
        assert consequences(rowan(app)) == ["Cracked rib", "Broken nose"]
        # It recovers: from the tracker it heals into a negative aspect and frees its slot.
        await pilot.press("1")
        await pilot.pause()
        await select_combatant(pilot, ROWAN)
        await pilot.press("H", "tab", *"Tender nose", "enter")
        await pilot.pause()
        assert consequences(rowan(app)) == ["Cracked rib"]
        healed = rowan(app)["lists"]["temporary_aspects"][-1]
        assert (healed["name"], healed["healed_from"], healed["negative"]) == (
            "Tender nose",
            "Broken nose",
            True,
        )
    app.campaign.store.close()


async def test_a_foes_consequence_is_named_in_the_tracker(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        await select_combatant(pilot, GOBLIN)
        footer, _ = await offered(app, pilot)
        assert "Name a consequence" not in footer  # none held yet
        await pilot.press("t", "9", "tab", "0", "enter")
        await pilot.pause()
        assert foe_sheet(app, GOBLIN)["status"] == "taken out"
        await pilot.press("r", "tab", *"Knocked senseless", "enter")
        await pilot.pause()
        assert consequences(foe_sheet(app, GOBLIN)) == ["Knocked senseless"]
    app.campaign.store.close()


async def test_a_taken_out_pc_reads_taken_out(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        eid = current_encounter(app.campaign)[0]  # type: ignore[index]
        for _ in range(3):
            app.campaign.apply(cmd.Damage(eid, ROWAN, "12", {"defence": 7}))
        await pilot.pause()
        await pilot.press("f", *"Taken Out", "enter")
        await pilot.pause()
        assert rowan(app)["status"] == "taken out"
        shown = app.campaign.ruleset.health(rowan(app))
        assert shown.startswith("taken out") and "/2 cons" not in shown
    app.campaign.store.close()


# --------------------------------------------------------------------------- ASP-04


def give_fate(app: TablesideApp, amount: int) -> None:
    pc = rowan(app)
    pc["resources"]["fate_points"]["current"] = amount
    app.campaign.store.db.table("party").update({"resources": pc["resources"]}, doc_ids=[1])


async def test_an_advantage_from_the_tracker_is_invoked_free_in_the_tray(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        # Rowan (selected) creates "Off balance" on Goblin 1: the free invoke is Rowan's.
        await select_combatant(pilot, GOBLIN)
        await pilot.press("D", *"Off balance", "tab", "tab", *"Rowan Pike", "enter")
        await pilot.pause()
        aspect = foe_sheet(app, GOBLIN)["lists"]["temporary_aspects"][0]
        assert (aspect["name"], aspect["free_invokes"], aspect["by"]) == (
            "Off balance",
            1,
            "Rowan Pike",
        )
        shown = str(app.screen.query_one("#combat-amount").render())
        assert "Aspects: Off balance (free invoke: Rowan Pike)" in shown
        # Rowan rolls in the tray and uses the free invoke: +2, no fate point paid.
        await pilot.press("2")
        await pilot.pause()
        await rolls_for(pilot, "Rowan Pike")
        footer, _ = await offered(app, pilot)
        assert "Free invoke" not in footer  # no roll yet
        await pilot.press("c")
        await pilot.pause()
        first = last_roll(app)["total"]
        await pilot.press("U", "enter")
        await pilot.pause()
        roll = last_roll(app)
        assert roll["total"] == first + 2
        assert foe_sheet(app, GOBLIN)["lists"]["temporary_aspects"][0]["free_invokes"] == 0
        assert rowan(app)["resources"]["fate_points"]["current"] == 0
        footer, helped = await offered(app, pilot)
        assert "Free invoke" not in footer  # used up
        # Again by paying a fate point (v): a second +2 on the same roll.
        give_fate(app, 1)
        await pilot.press("v", *"Off balance", "enter")
        await pilot.pause()
        roll = last_roll(app)
        assert roll["total"] == first + 4
        assert rowan(app)["resources"]["fate_points"]["current"] == 0
    app.campaign.store.close()


async def test_an_advantage_on_the_scene_from_the_tray_rerolls_free_from_the_tracker(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await rolls_for(pilot, "Rowan Pike")
        await pilot.press("D", *"Wet floor", "enter")  # on the scene by default
        await pilot.pause()
        scene = encounter(app)["scene_aspects"]
        assert [(a["name"], a["free_invokes"], a["by"]) for a in scene] == [
            ("Wet floor", 1, "Rowan Pike")
        ]
        await pilot.press("c")
        await pilot.pause()
        before = last_roll(app)
        # In the tracker, on Rowan: the free invoke for a reroll (the better total is kept).
        await pilot.press("1")
        await pilot.pause()
        status = str(app.screen.query_one("#combat-status").render())
        assert "Scene: Wet floor (free invoke: Rowan Pike)" in status
        await select_combatant(pilot, ROWAN)
        await pilot.press("U", "tab", *"reroll", "enter")
        await pilot.pause()
        after = last_roll(app)
        assert sum(after["dice"]) >= sum(before["dice"])
        assert "reroll" in after["detail"]
        assert encounter(app)["scene_aspects"][0]["free_invokes"] == 0
        # Undo gives the free invoke back.
        await pilot.press("u")
        await pilot.pause()
        assert encounter(app)["scene_aspects"][0]["free_invokes"] == 1
    app.campaign.store.close()


async def test_a_compel_grants_a_fate_point_from_the_tracker_and_the_tray(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        await select_combatant(pilot, GOBLIN)
        footer, _ = await offered(app, pilot)
        assert "Compel" not in footer  # a foe earns no fate point
        await select_combatant(pilot, ROWAN)
        await pilot.press("C", "enter")  # Rowan's first aspect is suggested
        await pilot.pause()
        assert rowan(app)["resources"]["fate_points"]["current"] == 1
        assert "Disgraced Knight" in " ".join(e.get("text", "") for e in app.campaign.log_entries())
        await pilot.press("2")
        await rolls_for(pilot, "Rowan Pike")
        await pilot.press("C", *"Owes the Guild", "enter")
        await pilot.pause()
        assert rowan(app)["resources"]["fate_points"]["current"] == 2
    app.campaign.store.close()
