"""Issue 13: the selected combatant's statblock beside the tracker, its rolls in one key each.

Pilot tests, keys only: a Goblin's attack, save, skill, morale and Effort from the tracker land
on the event line and in the roll log under its name, its Effort is its own (not its twin's,
not the library NPC's), the pane follows the selection, shows from 100 columns and hides at
80x24 until alt+s, and the keys are offered only while the selection has a statblock.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from app.commands import combat as cmd
from app.commands.npcs import RollStatblock, SaveNpc, npc_document
from app.queries import current_encounter
from app.state import CommandError
from app.tui import TablesideApp
from screens.combat import CombatScreen
from screens.help import HelpScreen
from tests.apphelpers import SIZE, demo_app, open_demo, screen_text
from tests.games import BUILT_IN

NARROW = (80, 24)
GAMES = BUILT_IN
ROLL_KEYS = ("V", "K", "M", "E")
"""The statblock's own rolls (A is the exchange, anyone's: tests/test_exchange_keys.py)."""
LABELS = ("Save / defence", "Skill check", "Morale roll", "Effort")
GAME_LABELS = {
    # The pane's rolls are the game's own (issue 21): no d20 save where there is none.
    "nemron": ("Save / defence", "Morale roll", "Effort"),
    "aspects": ("Save / defence", "Morale roll", "Effort"),
    "shadows": ("Morale roll", "Effort"),
}


def last_roll(app: TablesideApp) -> dict[str, Any]:
    return next(e for e in reversed(app.campaign.log_entries()) if e.get("kind") == "roll")


def goblins_with_effort(folder: Path, game: str = "resolution") -> TablesideApp:
    """The demo with its library Goblin at Will +2 (Effort 1d4): the demo's Goblin has none."""
    campaign = open_demo(folder, game)
    campaign.apply(SaveNpc(npc_document("Goblin", ("sneaky", "cowardly"), 1, 1, 2), 1))
    return TablesideApp(campaign)


def saved(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    found = current_encounter(app.campaign)
    assert found is not None
    return found[1]


def named(app: TablesideApp, name: str) -> dict[str, Any]:
    return next(c for c in saved(app)["combatants"] if c["name"] == name)


async def select(pilot: Any, app: TablesideApp, name: str) -> None:
    ids = [c["id"] for c in saved(app)["combatants"]]
    await pilot.press(*["k"] * len(ids), *["j"] * ids.index(named(app, name)["id"]))
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, CombatScreen) and screen.table.selected_id == named(app, name)["id"]


def event_line(app: TablesideApp) -> str:
    return str(app.screen.query_one("#combat-last", Static).render()).replace("\n", " ")


def pane_text(app: TablesideApp) -> str:
    """What the pane right of the table reads (the columns right of its border), each run of
    blanks as one space: ``HP 5/5 (3d8)``."""
    lines = screen_text(app)[1:-1]
    return "\n".join(" ".join(line.split("▏", 1)[1].split()) for line in lines if "▏" in line)


def help_rows(app: TablesideApp) -> list[tuple[str, str]]:
    assert isinstance(app.screen, HelpScreen)
    return [(k, d) for k, d in app.screen.help_rows if k and d]


async def test_each_key_rolls_for_the_selected_goblin_into_the_event_line_and_the_log(
    tmp_path: Path,
) -> None:
    app = goblins_with_effort(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r")
        await select(pilot, app, "Goblin 2")
        expected = {
            "V": "1d20+1 vs Save 15",  # HD 3
            "K": "2d6+1 vs DC 8",
            "M": "2d6+2 morale",  # Will +2
            "E": "1d4 Effort",
        }
        for key, expression in expected.items():
            before = len(app.campaign.log_entries())
            await pilot.press(key)
            await pilot.pause()
            entries = app.campaign.log_entries()
            assert len(entries) == before + 1, key
            roll = last_roll(app)
            assert roll["kind"] == "roll" and roll["who"] == "Goblin 2", roll
            assert roll["expression"] == expression, key
            assert event_line(app).startswith("› Goblin 2"), (key, event_line(app))
            assert str(roll["total"]) in event_line(app), (key, event_line(app))
        # Effort is that Goblin's own: its twins and the library NPC keep theirs.
        assert named(app, "Goblin 2")["stats"]["effort_left"] in ("1d4", "0")
        assert "effort_left" not in named(app, "Goblin 1")["stats"]
        assert "effort_left" not in named(app, "Goblin 3")["stats"]
        library = app.campaign.doc("npcs", 1)
        assert library is not None and "effort_left" not in library
        # B steps what attack, save and skill roll with: Wit +1, then Will +2.
        await pilot.press("B", "B", "K")
        await pilot.pause()
        assert last_roll(app)["expression"] == "2d6+2 vs DC 8"  # Will +2
    app.campaign.store.close()


async def test_effort_runs_out_for_one_goblin_only_and_F_gives_it_back(tmp_path: Path) -> None:
    app = goblins_with_effort(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await select(pilot, app, "Goblin 1")
        for _ in range(40):  # 1d4: a 1 or 2 spends it (half the time)
            await pilot.press("E")
            await pilot.pause()
            if named(app, "Goblin 1")["stats"].get("effort_left") == "0":
                break
        assert named(app, "Goblin 1")["stats"]["effort_left"] == "0"
        assert "Effort 0 of 1d4" in pane_text(app)
        rolls = len(app.campaign.log_entries())
        await pilot.press("E")  # none left: refused, nothing logged
        await pilot.pause()
        assert len(app.campaign.log_entries()) == rolls
        assert any("no Effort left" in str(n.message) for n in app._notifications)
        await select(pilot, app, "Goblin 3")
        await pilot.press("E")
        await pilot.pause()
        assert app.campaign.log_entries()[-1]["who"] == "Goblin 3"
        assert named(app, "Goblin 1")["stats"]["effort_left"] == "0"
        await select(pilot, app, "Goblin 1")
        await pilot.press("F")
        await pilot.pause()
        assert "effort_left" not in named(app, "Goblin 1")["stats"]
        assert "Goblin 1 has full Effort (1d4)" in event_line(app)
        await pilot.press("u")  # one undo takes the refresh back
        await pilot.pause()
        assert named(app, "Goblin 1")["stats"]["effort_left"] == "0"
        # A copy (alt+d) is another creature: its HP is copied, its Effort is full.
        await pilot.press("alt+d")
        await pilot.pause()
        twin = saved(app)["combatants"][
            [c["name"] for c in saved(app)["combatants"]].index("Goblin 1") + 1
        ]
        assert twin["name"] == "Goblin 4" and "effort_left" not in twin["stats"]
        assert named(app, "Goblin 1")["stats"]["effort_left"] == "0"
    app.campaign.store.close()


async def test_the_pane_follows_the_selection_and_the_fight(tmp_path: Path) -> None:
    app = goblins_with_effort(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await select(pilot, app, "Goblin 1")
        hp = named(app, "Goblin 1")["stats"]["hp"]
        pane = pane_text(app)
        assert "Goblin 1 sneaky, cowardly" in pane and f"{hp}/{hp} HP · Effort 1d4" in pane
        assert "A attack +3" in pane and "E Effort" in pane
        await pilot.press("t", "2", "enter", "g", *"Dazed", "enter")
        await pilot.pause()
        pane = pane_text(app)
        assert f"{hp - 2}/{hp} HP · Effort 1d4\nDazed" in pane
        await pilot.press("down")  # the table's own keys move the pane too
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        below = next(c for c in saved(app)["combatants"] if c["id"] == screen.table.selected_id)
        assert below["name"] in pane_text(app) and "Goblin 1 " not in pane_text(app)
        pc = next(c for c in saved(app)["combatants"] if c["side"] == "pc")
        await select(pilot, app, pc["name"])
        shown = " ".join(pane_text(app).split())
        assert shown.startswith(pc["name"]) and "The party sheet (4) has the rest" in shown
        sheet = app.campaign.doc("party", int(pc["ref"]))
        assert sheet is not None
        assert all(f"{p['current']}/{p['max']}" in shown for p in sheet["resources"].values())
    app.campaign.store.close()


async def test_the_pane_is_hidden_at_80x24_until_alt_s_and_shown_at_120x36(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await select(pilot, app, "Goblin 1")
        pane = app.screen.query_one("#statblock-pane")
        assert not pane.display
        assert not any("Hit die" in line for line in screen_text(app))
        await pilot.press("alt+s")
        await pilot.pause()
        assert pane.display and "Goblin 1" in pane_text(app) and "Hit die" in pane_text(app)
        header = next(line for line in screen_text(app) if " Name " in line).split("▏")[0]
        # The table gives way whole columns at a time (into the detail line), never "Conditi".
        assert set(header.split()) <= {"#", "Init", "AP", "Name", "Health", "Conditions", "Turn"}
        assert "Health" in header
        await pilot.press("alt+s")
        await pilot.pause()
        assert not pane.display
        # Hidden, the keys still roll for the selection (A, enter: its attack).
        await pilot.press("A", "enter")
        await pilot.pause()
        assert last_roll(app)["who"] == "Goblin 1"
    app.campaign.store.close()
    app = demo_app(tmp_path / "wide", "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await select(pilot, app, "Goblin 1")
        screen = app.screen
        assert screen.query_one("#statblock-pane").display
        # The pane takes the encounter list's room; L brings the list back beside it.
        assert not screen.query_one("#encounter-list-pane").display
        # Folded away, the list is not even built (issue 26: 6-7 ms of every start)
        assert not screen.query("#encounter-list")
        assert "Hit die" in pane_text(app)
        await pilot.press("L")
        await pilot.pause()
        assert screen.query_one("#encounter-list-pane").display
        assert screen.query_one("#statblock-pane").display
        # built when it first shows, with every encounter and the current one marked
        shown = "\n".join(screen_text(app))
        assert "Encounter" in shown and "▶  Ambush at the Mill" in shown, shown
    app.campaign.store.close()


@pytest.mark.parametrize("game", GAMES)
async def test_the_keys_are_offered_only_with_a_statblock_each_key_once(
    tmp_path: Path, game: str
) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        pc = next(c for c in saved(app)["combatants"] if c["side"] == "pc")
        await select(pilot, app, pc["name"])
        await pilot.press("question_mark")
        await pilot.pause()
        offered = {d for _, d in help_rows(app)}  # help and the Footer: the same bindings
        assert offered.isdisjoint(LABELS), offered & set(LABELS)
        await pilot.press("escape")
        await select(pilot, app, "Goblin 1")
        rolls = len(app.campaign.log_entries())
        await pilot.press("question_mark")
        await pilot.pause()
        rows = help_rows(app)
        labels = set(GAME_LABELS.get(game, LABELS))
        assert {d for _, d in rows} >= labels
        assert {d for _, d in rows}.isdisjoint(set(LABELS) - labels)
        # No key on two actions with the statblock's keys on offer, the game's own included.
        keys = [key for k, _ in rows for key in k.split(", ")]
        assert sorted({k for k in keys if keys.count(k) > 1}) == []
        await pilot.press("escape")
        await pilot.pause()
        # With a PC selected the keys do nothing at all.
        await select(pilot, app, pc["name"])
        await pilot.press(*ROLL_KEYS)
        await pilot.pause()
        assert len(app.campaign.log_entries()) == rolls
    app.campaign.store.close()


async def test_a_foe_quick_added_with_an_hd_has_its_quick_build(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        # name, count, HP, initiative, side, HD
        await pilot.press("q", *"Bandit", "tab", "2", "tab", "9", "tab", "tab", "tab", "4")
        await pilot.press("enter")
        await pilot.pause()
        assert named(app, "Bandit 1")["stats"]["hd"] == 4
        await select(pilot, app, "Bandit 1")
        assert "HD 4" in pane_text(app).splitlines()  # HD 4: E = +2, Effort 1d4
        await pilot.press("E")
        await pilot.pause()
        assert app.campaign.log_entries()[-1]["expression"] == "1d4 Effort"
        assert "effort_left" in named(app, "Bandit 1")["stats"]
        assert "effort_left" not in named(app, "Bandit 2")["stats"]
        await pilot.press("q", *"Thug", "enter")  # no HD: no statblock, no keys
        await pilot.pause()
        await select(pilot, app, "Thug")
        assert "no statblock" in pane_text(app)
        rolls = len(app.campaign.log_entries())
        await pilot.press(*ROLL_KEYS)
        await pilot.pause()
        assert len(app.campaign.log_entries()) == rolls
    app.campaign.store.close()


def test_a_statblock_roll_is_refused_without_a_statblock_and_morale_settles_a_due_check(
    tmp_path: Path,
) -> None:
    campaign = open_demo(tmp_path, "resolution")
    eid, doc = current_encounter(campaign) or (0, {})
    pc = next(c for c in doc["combatants"] if c["side"] == "pc")
    with pytest.raises(CommandError, match="has no statblock"):
        campaign.apply(RollStatblock(eid, pc["id"], kind="attack"))
    goblin = next(c for c in doc["combatants"] if c["name"] == "Goblin 1")
    with pytest.raises(CommandError, match=r"Goblin 1 has no Effort \(Will \+0\)"):
        campaign.apply(RollStatblock(eid, goblin["id"], kind="effort"))
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(cmd.QuickAdd(eid, "Guard", 1, 6, side="pc"))  # reinforcements: morale due
    due = [d["id"] for d in (campaign.doc("encounters", eid) or {})["morale_due"]]
    assert goblin["id"] in due
    campaign.apply(RollStatblock(eid, goblin["id"], kind="morale"))
    due = [d["id"] for d in (campaign.doc("encounters", eid) or {})["morale_due"]]
    assert goblin["id"] not in due and due  # the other Goblins' checks are still due
    with pytest.raises(CommandError, match="HD is 0 to 20, not 21"):
        campaign.apply(cmd.QuickAdd(eid, "Titan", 1, 90, hd=21))
    campaign.store.close()


@pytest.mark.parametrize("game", GAMES)
async def test_with_the_pane_shown_at_80x24_no_column_header_is_cut(
    tmp_path: Path, game: str
) -> None:
    """Somnihil at 80x24 with alt+s read "Conditi": columns give way whole, into the detail."""
    app = demo_app(tmp_path, game)
    async with app.run_test(size=NARROW) as pilot:
        await select(pilot, app, "Goblin 1")
        await pilot.press("alt+s")
        await pilot.pause()
        header = next(line for line in screen_text(app) if " Name " in line).split("▏")[0]
        assert set(header.split()) <= {"#", "Init", "AP", "Name", "Health", "Conditions", "Turn"}
        assert "Health" in header
    app.campaign.store.close()
