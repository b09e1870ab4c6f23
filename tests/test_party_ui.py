"""Party sheet by keys (issue 6): Pilot tests on each game's demo, and a snapshot per game."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from app.store import read_campaign
from app.tui import TablesideApp
from tests.apphelpers import SIZE, demo_app

GAMES = ["somnihil", "resolution", "shadows", "nemron", "aspects"]


def saved_party(app: TablesideApp) -> list[dict]:
    """The party as saved on disk, in doc id order (undo re-inserts a doc at the end)."""
    app.campaign.store.flush()
    data = read_campaign(app.campaign.store.path)
    return [doc for _, doc in sorted(data["party"].items(), key=lambda kv: int(kv[0]))]


def field_keys(app: TablesideApp) -> list[str]:
    fields = app.screen.query_one("#party-fields", DataTable)
    return [str(k.value) for k in fields.rows]


async def goto_field(pilot, app: TablesideApp, key: str) -> None:  # type: ignore[no-untyped-def]
    fields = app.screen.query_one("#party-fields", DataTable)
    fields.move_cursor(row=field_keys(app).index(key))
    await pilot.pause()


@pytest.mark.parametrize("game", GAMES)
async def test_add_pc_by_keys_is_saved(tmp_path: Path, game: str) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "a")
        await pilot.press(*"Newt", "enter")
        await pilot.pause()
        table = app.screen.query_one("#party-table", DataTable)
        assert table.row_count == 5
        assert str(table.get_row_at(table.cursor_row)[0]) == "Newt"
        assert [pc["name"] for pc in saved_party(app)][-1] == "Newt"
    app.campaign.store.close()


async def test_som04_spend_and_restore_ap_by_keys_then_new_session(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "res:ap")
        await pilot.press("minus", "minus", "minus", "plus")
        await pilot.pause()
        assert saved_party(app)[0]["resources"]["ap"]["current"] == 8
        await pilot.press("S")
        await pilot.pause()
        party = saved_party(app)
        assert party[0]["resources"]["ap"]["current"] == 10
        assert party[0]["sessions"] == 2
        await pilot.press("u")  # one undo step for the whole party
        await pilot.pause()
        assert saved_party(app)[0]["resources"]["ap"]["current"] == 8
    app.campaign.store.close()


async def test_som07_damage_then_rest_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "res:vitality")
        await pilot.press(*["minus"] * 7)
        await pilot.press("g")
        await pilot.pause()
        assert saved_party(app)[0]["resources"]["vitality"]["current"] == 5
        await pilot.press("R")
        await pilot.pause()
        assert saved_party(app)[0]["resources"]["vitality"]["current"] == 10
    app.campaign.store.close()


async def test_som10_third_protocol_refused_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "list:spells")
        await pilot.press("n", *"Bend", "enter")
        await pilot.pause()
        await pilot.press(*["down"] * 4, "enter")  # Timing, a third Protocol
        await pilot.pause()
        assert len(saved_party(app)[0]["lists"]["spells"]) == 3
        assert "at most two Protocols" in " ".join(str(n.message) for n in app._notifications)
    app.campaign.store.close()


async def test_rr03_attribute_edit_rederives_grip_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "attr:int")
        await pilot.press("e", "end", "backspace", "backspace", *"18", "enter")
        await pilot.pause()
        assert saved_party(app)[0]["resources"]["grip"]["max"] == 18
        await goto_field(pilot, app, "attr:wis")
        await pilot.press("plus")
        await pilot.pause()
        assert saved_party(app)[0]["attributes"]["wis"] == 16
    app.campaign.store.close()


async def test_nem11_nemron_rest_heals_limb_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "limb:torso")
        await pilot.press("minus", "minus", "minus")
        await pilot.pause()
        assert saved_party(app)[0]["tracks"]["limbs"]["torso"]["hp"] == 7
        await pilot.press("R")
        await pilot.pause()
        assert saved_party(app)[0]["tracks"]["limbs"]["torso"]["hp"] > 7
    app.campaign.store.close()


async def test_asp02_new_scene_grants_fate_point_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "C")
        await pilot.pause()
        assert {pc["resources"]["fate_points"]["current"] for pc in saved_party(app)} == {1}
    app.campaign.store.close()


async def test_remove_pc_asks_first_and_filter(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "delete", "n")
        await pilot.pause()
        assert len(saved_party(app)) == 4
        await pilot.press("delete", "y")
        await pilot.pause()
        assert [pc["name"] for pc in saved_party(app)][0] == "Felix Marrow"
        await pilot.press("slash", *"ines", "enter")
        await pilot.pause()
        table = app.screen.query_one("#party-table", DataTable)
        assert table.row_count == 1
        assert str(table.get_row_at(0)[0]) == "Ines Calder"
    app.campaign.store.close()


async def test_combat_damage_shows_on_the_sheet(tmp_path: Path) -> None:
    """The sheet reads the same party records the tracker writes."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        from app.commands.party import ChangePC

        app.apply(ChangePC(1, "adjust", ("vitality", -3)))
        await pilot.pause()
        table = app.screen.query_one("#party-table", DataTable)
        assert str(table.get_row_at(0)[1]).startswith("7/10 vit")
    app.campaign.store.close()


@pytest.mark.parametrize("game", GAMES)
def test_party_sheet_snapshot(snap_compare, tmp_path: Path, game: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(demo_app(tmp_path, game), press=["4"], terminal_size=SIZE)
