"""Done when: in each game a whole fight is played by keys, and the saved state is
checked after every step: the party and a numbered foe group; initiative or AP rounds; a
reinforcement joins mid-round and is sorted in; area damage; the game's own part (the aspects
game: a compel and a free invoke; Somnihil: an Anomaly with someone inside rolling with
disadvantage); a foe defeated and skipped; a PC taken to the game's edge; undo and redo; quit
and reopen on the same turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from app.queries import current_encounter
from app.tui import TablesideApp
from rulesets import encounter as er
from screens.combat import CombatScreen
from tests.apphelpers import SIZE, demo_app, last_roll, open_demo
from tests.games import BUILT_IN

GAMES = BUILT_IN


def saved(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    found = current_encounter(app.campaign)
    assert found is not None
    return found[1]


def by_name(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in doc["combatants"] if c["name"] == name)


async def select(pilot: Pilot[None], screen: CombatScreen, cid: str) -> None:
    ids = [c["id"] for c in saved(pilot.app)["combatants"]]  # type: ignore[arg-type]
    row = ids.index(cid)
    while screen.table.cursor_row != row:
        await pilot.press("j" if screen.table.cursor_row < row else "k")
    await pilot.pause()
    assert screen.table.selected_id == cid


UNDEFENDED = {"nemron": ("tab", "tab", "0"), "aspects": ("tab", "0")}
"""The keys after the amount that say the foes make no defence roll (the form's defence: 0)."""


async def damage(pilot: Pilot[None], amount: str, *more: str) -> None:
    await pilot.press("t", *amount, *more, "enter")
    await pilot.pause()


def pc_sheet(app: TablesideApp, c: dict[str, Any]) -> dict[str, Any]:
    sheet = app.campaign.doc("party", int(str(c["ref"])))
    assert sheet is not None
    return sheet


async def edge(game: str, pilot: Pilot[None], app: TablesideApp, pc: dict[str, Any]) -> None:
    """Take the PC to the game's edge by keys and check where it landed."""
    if game == "somnihil":  # 0 vitality, then Cheat Death
        vitality = pc_sheet(app, pc)["resources"]["vitality"]["current"]
        await damage(pilot, str(vitality))
        rolls = len(app.campaign.log_entries())
        await damage(pilot, "5", "tab", "tab", "1", "enter")  # the player's own d20: a 1
        sheet = pc_sheet(app, pc)
        assert sheet["status"] == "perished" and len(app.campaign.log_entries()) > rolls
    elif game == "shadows":  # 0 Health
        await pilot.press("t", "9", "9", "tab", *["tab"] * 9, *"health", "enter")
        await pilot.pause()
        sheet = pc_sheet(app, pc)
        assert sheet["resources"]["health"]["current"] == 0
    elif game == "nemron":  # Downed, and keeps its turn
        await pilot.press("t", "9", "9", "tab", *"torso", "enter")
        await pilot.pause()
        assert pc_sheet(app, pc)["status"] == "downed"
        assert not by_name(saved(app), pc["name"]).get("defeated")
    elif game == "aspects":  # Darkest Self
        for _ in range(4):
            if (saved(app).get("pending") or {}).get(pc["id"]):
                break
            await damage(pilot, "12")
        assert pc["id"] in saved(app)["pending"]
        await pilot.press("f", "enter")
        await pilot.pause()
        assert pc_sheet(app, pc)["status"] == "darkest self"
    else:  # 0 HP: out, defeated
        await damage(pilot, "99")
        assert pc_sheet(app, pc)["resources"]["hp"]["current"] == 0
        assert by_name(saved(app), pc["name"])["defeated"]


async def play_a_card(
    pilot: Pilot[None], app: TablesideApp, screen: CombatScreen, goblin: dict[str, Any]
) -> None:
    """Shadows: hands dealt in the tray, then the acting PC (or one the GM selects) plays a
    card from its hand at a goblin: AP spent, the card discarded, the weapon's values used."""
    await pilot.press("2", "h", "1")
    await pilot.pause()
    pc = next(c for c in saved(app)["combatants"] if c["side"] == "pc")
    await select(pilot, screen, pc["id"])
    minor = next(d for _, d in app.campaign.rows("decks") if d["kind"] == "minor")
    hand = [f"{c['rank']} of {c['suit']}" for c in minor["hands"][pc["ref"]]]
    target = hand[-1]
    ap = by_name(saved(app), pc["name"])["ap"]["current"]
    rows = {c["id"]: c["stats"] for c in saved(app)["combatants"]}
    # card, target (the goblin), AP, the weapon's fumble value and critical suit
    await pilot.press("P", *target, "tab", *goblin["name"], "tab", "tab", "3", "tab", "s", "enter")
    await pilot.pause()
    doc = saved(app)
    assert by_name(doc, pc["name"])["ap"]["current"] == ap - 1
    minor = next(d for _, d in app.campaign.rows("decks") if d["kind"] == "minor")
    assert target not in [f"{c['rank']} of {c['suit']}" for c in minor["hands"][pc["ref"]]]
    assert target in [f"{c['rank']} of {c['suit']}" for c in minor["discard"]]
    sheet = pc_sheet(app, pc)
    assert sheet["weapon"] == {"fumble": 3, "critical": "Swords", "weapon": ""}
    assert f"attack {target}" in str(app.campaign.log_entries()[-1])
    others = {c["id"]: c["stats"] for c in doc["combatants"] if c["id"] != goblin["id"]}
    assert others == {cid: stats for cid, stats in rows.items() if cid != goblin["id"]}


async def own_part(game: str, pilot: Pilot[None], app: TablesideApp, screen: CombatScreen) -> None:
    """The game's own part of the fight, by keys, the saved state checked after each step."""
    doc = saved(app)
    pc = [c for c in doc["combatants"] if c["side"] == "pc"][1]
    goblin = by_name(doc, "Goblin 1")
    if game == "aspects":  # a compel, then an advantage's free invoke on a roll in the tray
        await select(pilot, screen, pc["id"])
        fate = pc_sheet(app, pc)["resources"]["fate_points"]["current"]
        await pilot.press("C", "enter")
        await pilot.pause()
        assert pc_sheet(app, pc)["resources"]["fate_points"]["current"] == fate + 1
        await select(pilot, screen, goblin["id"])
        await pilot.press("D", *"Cornered", "tab", "tab", *pc["name"], "enter")
        await pilot.pause()
        held = by_name(saved(app), "Goblin 1")["stats"]["sheet"]["lists"]["temporary_aspects"]
        assert [(a["name"], a["free_invokes"], a["by"]) for a in held] == [
            ("Cornered", 1, pc["name"])
        ]
        await pilot.press("2")
        await tray_roller(pilot, pc["name"])
        await pilot.press("c")
        await pilot.pause()
        first = last_roll(app)["total"]
        await pilot.press("U", "enter")
        await pilot.pause()
        assert last_roll(app)["total"] == first + 2
        held = by_name(saved(app), "Goblin 1")["stats"]["sheet"]["lists"]["temporary_aspects"]
        assert held[0]["free_invokes"] == 0
        assert pc_sheet(app, pc)["resources"]["fate_points"]["current"] == fate + 1  # free
        await pilot.press("1")
        await pilot.pause()
    elif game == "somnihil":  # an Anomaly with a Cipher and a goblin inside
        await select(pilot, screen, pc["id"])
        await pilot.press("alt+a", "2", "enter")
        await select(pilot, screen, goblin["id"])
        await pilot.press("O")
        await pilot.pause()
        inside = [
            c["id"]
            for c in saved(app)["combatants"]
            if any(e["name"] == "Anomaly" for e in c.get("conditions", []))
        ]
        assert inside == [pc["id"], goblin["id"]]
        await pilot.press("2")
        await tray_roller(pilot, pc["name"])
        await pilot.press("c")  # preselected: disadvantage, two d20s, the lower kept
        await pilot.pause()
        roll = last_roll(app)
        assert roll["who"] == pc["name"] and len(roll["dice"]) == 2
        assert roll["total"] == min(roll["dice"])
        await pilot.press("1")
        await pilot.pause()


async def tray_roller(pilot: Pilot[None], name: str) -> None:
    await pilot.pause()
    while pilot.app.screen.who_name != name:  # type: ignore[attr-defined]
        await pilot.press("p")


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_fight_by_keys(tmp_path: Path, game: str) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        doc = saved(app)
        model = doc["model"]
        goblins = [c for c in doc["combatants"] if c["name"].startswith("Goblin ")]
        assert len(goblins) == 3 and sum(c["side"] == "pc" for c in doc["combatants"]) == 4

        # Initiative (or AP rounds), then the fight starts.
        if model == "initiative":
            await pilot.press("i")
            await pilot.pause()
            doc = saved(app)
            assert all(c["initiative"] is not None for c in doc["combatants"])
            keys = [er.initiative_key(er.Combatant.from_dict(c)) for c in doc["combatants"]]
            assert keys == sorted(keys)
        await pilot.press("alt+r")
        await pilot.pause()
        doc = saved(app)
        assert doc["started"] and doc["round"] == 1
        if model == "chosen_next":
            await pilot.press("n")  # the first who may act
            await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        doc = saved(app)
        acting = doc["current"]
        assert acting is not None and screen.table.selected_id == acting

        if game == "shadows":
            await play_a_card(pilot, app, screen, goblins[0])

        # A reinforcement joins mid-round: sorted in, the turn stays.
        placed = {c["id"]: c.get("initiative") for c in doc["combatants"]}
        await pilot.press("q", *"Ogre", "enter")
        await pilot.pause()
        if model == "initiative":
            await pilot.press("i")
            await pilot.pause()
        doc = saved(app)
        ogre = by_name(doc, "Ogre")
        assert doc["current"] == acting
        assert {c["id"]: c.get("initiative") for c in doc["combatants"] if c["id"] in placed} == (
            placed
        )
        if model == "initiative":
            keys = [er.initiative_key(er.Combatant.from_dict(c)) for c in doc["combatants"]]
            assert keys == sorted(keys) and ogre["initiative"] is not None
        if model == "ap_rounds":
            assert ogre["ap"]["current"] > 0

        # Area damage on two goblins.
        before = {c["id"]: c["stats"] for c in doc["combatants"]}
        for goblin in goblins[:2]:
            await select(pilot, screen, goblin["id"])
            await pilot.press("plus")
        # A foe answers with its own defence unless the form says none: 0 here.
        await damage(pilot, "2", *UNDEFENDED.get(game, ()))
        doc = saved(app)
        for goblin in goblins[:2]:
            assert by_name(doc, goblin["name"])["stats"] != before[goblin["id"]]
        assert by_name(doc, goblins[2]["name"])["stats"] == before[goblins[2]["id"]]

        # The game's own part: a compel and a free invoke, an Anomaly with rolls inside it.
        await own_part(game, pilot, app, screen)

        # A foe defeated, then skipped for a whole round.
        await select(pilot, screen, goblins[2]["id"])
        # A Nemron foe has limbs (NEM-08): it is out when a major one is at 0.
        await damage(pilot, "99", *(("tab", *"torso") if game == "nemron" else ()))
        doc = saved(app)
        assert by_name(doc, goblins[2]["name"])["defeated"]
        for _ in range(len(doc["combatants"]) + 1):
            await pilot.press("n")
            await pilot.pause()
            assert saved(app)["current"] != goblins[2]["id"]

        # A PC taken to the game's edge.
        pc = next(c for c in saved(app)["combatants"] if c["side"] == "pc")
        await select(pilot, screen, pc["id"])
        await edge(game, pilot, app, pc)

        # Undo and redo.
        after = saved(app)
        sheet = pc_sheet(app, pc)
        await pilot.press("u")
        await pilot.pause()
        assert pc_sheet(app, pc) != sheet or saved(app) != after
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert pc_sheet(app, pc) == sheet and saved(app) == after

        # Quit on this turn.
        turn = (saved(app)["current"], saved(app)["round"])
        await pilot.press("ctrl+q")
    app.campaign.store.close()

    again = TablesideApp(open_demo(tmp_path, game))
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        doc = saved(again)
        assert (doc["current"], doc["round"]) == turn
        screen = again.screen
        assert isinstance(screen, CombatScreen)
        marker = [
            r for r in range(screen.table.row_count) if str(screen.table.get_row_at(r)[0]) == "▶"
        ]
        ids = [c["id"] for c in doc["combatants"]]
        assert turn[0] is None or marker == [ids.index(turn[0])]
    again.campaign.store.close()
