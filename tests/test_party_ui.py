"""Party sheet by keys (issue 6): Pilot tests on each game's demo, and a snapshot per game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, OptionList

from app.store import read_campaign
from app.tui import TablesideApp
from rulesets import registry
from screens.form import FormScreen
from screens.help import HelpScreen
from screens.party import PartyScreen
from tests.apphelpers import SIZE, demo_app
from tests.games import BUILT_IN

GAMES = BUILT_IN


def saved_party(app: TablesideApp) -> list[dict[str, Any]]:
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
        # One form asks the spell's name and its Protocol: Timing would be a third.
        await pilot.press("n", *"Bend", "tab", *"Timing", "enter")
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


# --- each game's own sheet keys (issue 11) ---------------------------------------------------

SHELL_KEYS = {"+", "=", "-", "e", "n", "a", "delete", "/", "S", "C", "g", "R"}
"""The party panel's own keys as help shows them (``del`` or ``delete``, by Textual's display)."""


def party_labels(game: str) -> set[str]:
    return {a.label for a in registry.game(game).actions_for("party")}


@pytest.mark.parametrize("game", GAMES)
async def test_help_lists_only_this_games_party_keys_once(tmp_path: Path, game: str) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rows = app.screen.help_rows
        panel = rows[1 : rows.index(("Everywhere", ""))]
        keys = [key for shown, _ in panel for key in shown.split(", ")]
        assert len(keys) == len(set(keys)), f"a key twice in {game}: {keys}"
        described = {text for _, text in panel}
        own = party_labels(game)
        assert own <= described
        others = set().union(*(party_labels(g) for g in GAMES if g != game)) - party_labels(game)
        assert not others & described, f"{game} shows another game's keys"
        assert not any(re.search(r"\b[A-Z]{2,4}-\d", text) for text in described)
        game_keys = {k for shown, text in panel if text in own for k in shown.split(", ")}
        assert not game_keys & SHELL_KEYS
    app.campaign.store.close()


def log_rolls(app: TablesideApp) -> list[dict[str, Any]]:
    return [e for e in app.campaign.log_entries() if e.get("kind") == "roll"]


async def test_rr03_grip_check_by_key_asks_ordinary_or_major(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "G")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert app.screen.query_one("#field-event", Input).value == "ordinary"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("G", *"major", "enter")
        await pilot.pause()
        rolls = log_rolls(app)
        assert [r["who"] for r in rolls] == ["Mara Quell", "Mara Quell"]
        assert all(r["expression"].startswith("1d20") for r in rolls)
    app.campaign.store.close()


async def test_nem13_rank_up_and_award_xp_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "res:xp")
        await pilot.press("r")  # not an attribute or skill: refused, nothing spent
        await pilot.pause()
        assert "Highlight an attribute or a skill" in " ".join(
            str(n.message) for n in app._notifications
        )
        await goto_field(pilot, app, "skill:Brawling")
        await pilot.press("r")
        await pilot.pause()
        kesh = saved_party(app)[0]
        assert (kesh["skills"]["Brawling"], kesh["resources"]["xp"]["current"]) == (3, 3)
        await pilot.press("x", *"4", "enter")
        await pilot.pause()
        assert saved_party(app)[0]["resources"]["xp"]["current"] == 7
        await goto_field(pilot, app, "list:domains")
        await pilot.press("n", *"Brawling", "enter")
        await pilot.pause()
        await goto_field(pilot, app, "domain:Brawling")
        await pilot.press("n", "tab", *"Grapple", "enter")  # the domain is filled in
        await pilot.pause()
        assert saved_party(app)[0]["domains"] == {"Brawling": ["Grapple"]}
    app.campaign.store.close()


async def test_nem10_regroup_asks_hours_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "res:energy")
        await pilot.press("minus", "minus", "minus")
        await pilot.pause()
        top = saved_party(app)[0]["resources"]["energy"]["max"]
        await pilot.press("g", *"2", "enter")
        await pilot.pause()
        assert saved_party(app)[0]["resources"]["energy"]["current"] == top - 1
    app.campaign.store.close()


async def test_asp07_asp08_heal_consequence_and_level_up_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab", "l")
        await pilot.pause()
        assert saved_party(app)[0]["advancements_pending"] == 1
        await pilot.press("h")  # no consequence highlighted: refused with a message
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        assert "Highlight a consequence" in " ".join(str(n.message) for n in app._notifications)
        doc = app.campaign.doc("party", 1)
        assert doc is not None
        doc["lists"]["consequences"].append({"name": "Broken arm", "received": "2024-03-01"})
        app.campaign.store.db.table("party").update(doc, doc_ids=[1])
        assert isinstance(app.screen, PartyScreen)
        app.screen.refresh_data()
        await goto_field(pilot, app, "item:consequences:0")
        await pilot.press("h", *"Tender arm", "enter")
        await pilot.pause()
        healed = saved_party(app)[0]["lists"]["temporary_aspects"][-1]
        assert (healed["name"], healed["negative"]) == ("Tender arm", True)
    app.campaign.store.close()


@pytest.mark.parametrize("game", ["somnihil", "shadows"])
async def test_other_games_sheet_keys_do_nothing(tmp_path: Path, game: str) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        before = saved_party(app)
        await pilot.press("G", "x", "h", "l")
        await pilot.pause()
        assert isinstance(app.screen, type(app.screen)) and not isinstance(app.screen, FormScreen)
        assert saved_party(app) == before
    app.campaign.store.close()


async def test_soh04_new_session_asks_which_major_arcana_to_carry(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "S")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert [f.key for f in app.screen.fields] == ["pc_1"]
        await pilot.press(*"The St", "enter")
        await pilot.pause()
        assert [c["name"] for c in saved_party(app)[0]["lists"]["major_arcana"]] == ["The Star"]
        await pilot.press("u", "S", "enter")  # blank: every card goes back
        await pilot.pause()
        assert saved_party(app)[0]["lists"]["major_arcana"] == []
    app.campaign.store.close()


async def test_som09_perished_cipher_is_given_a_fate_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        doc = app.campaign.doc("party", 1)
        assert doc is not None
        app.campaign.store.db.table("party").update({**doc, "status": "perished"}, doc_ids=[1])
        assert isinstance(app.screen, PartyScreen)
        app.screen.refresh_data()
        await goto_field(pilot, app, "status")
        await pilot.press("e")
        await pilot.pause()
        options = app.screen.query_one("#party-choice-list", OptionList)
        texts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        spirit = texts.index("spirit: Seditious Spirit")  # a fate, spelt out
        await pilot.press(*["down"] * spirit, "enter")
        await pilot.pause()
        assert saved_party(app)[0]["status"] == "spirit"
    app.campaign.store.close()


async def test_e_on_a_list_entry_retypes_it_and_a_held_card_is_not_retyped(
    tmp_path: Path,
) -> None:
    """`e` on a spell added a second spell instead of fixing the first one's name (issue 13 found
    it for consequences; every list did the same). A held Major Arcana is a card: refused."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "item:spells:1")
        await pilot.press("e", "ctrl+u", *"Blink Step", "enter")
        await pilot.pause()
        vesna = app.campaign.doc("party", 1)
        assert vesna is not None
        assert [s["name"] for s in vesna["lists"]["spells"]] == ["Rot Touch", "Blink Step", "Wither"]
        assert vesna["lists"]["spells"][1]["protocol"] == "Spatial"  # only the name retyped
        await pilot.press("u")
        await pilot.pause()
        vesna = app.campaign.doc("party", 1)
        assert vesna is not None and vesna["lists"]["spells"][1]["name"] == "Blink"
    app.campaign.store.close()

    app = demo_app(tmp_path / "shadows", "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "tab")
        await goto_field(pilot, app, "item:major_arcana:0")
        await pilot.press("e", "ctrl+u", *"The Moon", "enter")
        await pilot.pause()
        agnes = app.campaign.doc("party", 1)
        assert agnes is not None and [c["name"] for c in agnes["lists"]["major_arcana"]] == [
            "The Star"
        ]
        said = [str(n.message) for n in app._notifications]
        assert any("The Star is a card of the Major Arcana" in m for m in said), said
    app.campaign.store.close()
