"""Somnihil SOM-05 by keys: the Anomaly is a place. The GM marks who is inside (A on
the selected, in and out, shown on the row); it counts down by its duration and, when it
collapses, everyone leaves it; inside, every roll has disadvantage: the tray preselects it for
the roller and says why, Cheat Death rolls two d20s keeping the lower, and a Catastrophe on a
spell (y) makes an Anomaly with the caster inside."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static

from app.queries import current_encounter
from app.tui import TablesideApp
from rulesets.somnihil import rules as somnihil
from screens.combat import CombatScreen
from tests.apphelpers import SIZE, demo_app, last_roll, select_combatant
from tests.test_exchange_keys import turn_of

VESNA, ORRIN, GOBLIN = "c1", "c2", "c5"


def encounter(app: TablesideApp) -> dict[str, Any]:
    app.campaign.store.flush()
    found = current_encounter(app.campaign)
    assert found is not None
    return found[1]


def inside(app: TablesideApp) -> list[str]:
    return [
        c["id"]
        for c in encounter(app)["combatants"]
        if any(e["name"] == "Anomaly" for e in c.get("conditions", []))
    ]


def row_of(app: TablesideApp, cid: str) -> list[str]:
    screen = app.screen
    assert isinstance(screen, CombatScreen)
    ids = [c["id"] for c in encounter(app)["combatants"]]
    return [str(cell) for cell in screen.table.get_row_at(ids.index(cid))]


def status(app: TablesideApp) -> str:
    return str(app.screen.query_one("#combat-status", Static).render())


async def test_the_gm_marks_who_is_inside_and_everyone_leaves_when_it_collapses(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await select_combatant(pilot, GOBLIN)
        await pilot.press("O")  # no Anomaly yet: nothing to step into
        await pilot.pause()
        assert inside(app) == []
        await select_combatant(pilot, VESNA)
        await pilot.press("alt+a", "1", "enter")  # a 1 AP spell: 2 turns
        await pilot.pause()
        await select_combatant(pilot, GOBLIN)
        await pilot.press("O")
        await pilot.pause()
        assert inside(app) == [VESNA, GOBLIN]
        assert "Anomaly 2 (disadv.)" in row_of(app, GOBLIN)[5]
        assert "Anomaly (2 turns left, disadvantage): Vesna Kade, Goblin 1" in (
            status(app)
        )
        await pilot.press("O")  # out again
        await pilot.pause()
        assert inside(app) == [VESNA] and "Anomaly" not in row_of(app, GOBLIN)[5]
        await pilot.press("O")
        await pilot.pause()
        assert inside(app) == [VESNA, GOBLIN]
        # It counts down on the turns of the one who made it, everyone inside at once.
        await pilot.press("i", "alt+r")
        await pilot.pause()
        for _ in range(40):
            if not inside(app):
                break
            left = {
                e["remaining"]
                for c in encounter(app)["combatants"]
                for e in c.get("conditions", [])
                if e["name"] == "Anomaly"
            }
            assert len(left) == 1  # one clock
            await pilot.press("n")
            await pilot.pause()
        assert inside(app) == []
        assert "Anomaly" not in status(app)
        assert "Anomaly" not in row_of(app, GOBLIN)[5]
    app.campaign.store.close()


async def test_the_tray_preselects_disadvantage_for_a_roller_inside_and_says_why(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await select_combatant(pilot, VESNA)
        await pilot.press("alt+a", "2", "enter")
        await pilot.press("2")
        await pilot.pause()
        while app.screen.who_name != "Vesna Kade":  # type: ignore[attr-defined]
            await pilot.press("p")
        setup = str(app.screen.query_one("#check-setup", Static).render())
        assert "Edge: none" in setup and "Inside the Anomaly: yes (disadvantage)" in setup
        assert "2d20 keep lowest" in setup
        assert "Vesna Kade is inside the Anomaly: disadvantage" in setup
        await pilot.press("c")
        await pilot.pause()
        roll = last_roll(app)
        assert len(roll["dice"]) == 2 and roll["total"] == min(roll["dice"])
        await pilot.press("p")  # Orrin is outside: back to a plain d20
        await pilot.pause()
        setup = str(app.screen.query_one("#check-setup", Static).render())
        assert "Inside the Anomaly: no" in setup and "is inside the Anomaly" not in setup
        assert setup.endswith("\nd20")
        # Marked inside in the tracker, Orrin gets it on coming back to the tray.
        await pilot.press("1")
        await pilot.pause()
        await select_combatant(pilot, ORRIN)
        await pilot.press("O", "2")
        await pilot.pause()
        assert app.screen.who_name == "Orrin Hale"  # type: ignore[attr-defined]
        assert "Orrin Hale is inside the Anomaly" in str(
            app.screen.query_one("#check-setup", Static).render()
        )
        # An undo pressed in the tray takes him out again: the setup follows at once.
        await pilot.press("u")
        await pilot.pause()
        setup = str(app.screen.query_one("#check-setup", Static).render())
        assert "Inside the Anomaly: no" in setup and "is inside the Anomaly" not in setup
    app.campaign.store.close()


async def test_the_tray_starts_at_whose_turn_it_is_inside_with_disadvantage(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", "alt+r")
        await pilot.pause()
        # A Cipher's turn: on a foe's, the tray starts at the Cipher the foe attacks.
        await turn_of(pilot, app, "pc")
        acting = encounter(app)["current"]
        await pilot.press("alt+a", "1", "enter")  # the selection follows the turn
        await pilot.press("2")
        await pilot.pause()
        setup = str(app.screen.query_one("#check-setup", Static).render())
        assert "Inside the Anomaly: yes (disadvantage)" in setup and "2d20 keep lowest" in setup
        name = next(c["name"] for c in encounter(app)["combatants"] if c["id"] == acting)
        assert f"{name} is inside the Anomaly" in setup
    app.campaign.store.close()


async def test_cheat_death_inside_rolls_with_disadvantage(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await select_combatant(pilot, VESNA)
        await pilot.press("alt+a", "1", "enter")  # made on Vesna
        await pilot.press("j", "O", "t", "9", "9", "enter")  # Orrin steps in, then to 0
        await pilot.pause()
        assert inside(app) == [VESNA, ORRIN]
        rolls = len([e for e in app.campaign.log_entries() if e.get("kind") == "roll"])
        await pilot.press("t", "3", "enter")  # Cheat Death, inside: two d20s, the lower kept
        await pilot.pause()
        cheat = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"]
        assert len(cheat) == rolls + 1
        assert len(cheat[-1]["dice"]) == 2 and cheat[-1]["total"] == min(cheat[-1]["dice"])
    app.campaign.store.close()


async def test_a_catastrophe_on_a_cast_spell_makes_the_anomaly_with_the_caster_inside(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        fight = encounter(app)
        caster = next(
            c
            for c in fight["combatants"]
            if c["side"] == "pc"
            and (app.campaign.doc("party", int(c["ref"])) or {})["lists"].get("spells")
        )
        await select_combatant(pilot, caster["id"])
        for _ in range(40):  # until the d20 comes up a Catastrophe
            await pilot.press("y", "enter")
            await pilot.pause()
            roll = last_roll(app)
            if roll["band"] == somnihil.CATASTROPHE:
                break
            await pilot.press("u")
            await pilot.pause()
        assert roll["band"] == somnihil.CATASTROPHE
        assert inside(app) == [caster["id"]]
        assert "Anomaly (" in status(app) and "disadvantage)" in status(app)
    app.campaign.store.close()


def test_SOM_05_a_statblock_inside_the_anomaly_attacks_and_saves_with_disadvantage(
    tmp_path: Path,
) -> None:
    """Found trying the statblock pane in the Somnihil demo: a Goblin inside the Anomaly rolled
    its attack on one d20; everyone inside rolls with disadvantage, a foe's statblock too."""
    import random

    from app.commands import combat as cmd
    from app.commands.npcs import RollStatblock
    from app.demo import write_demo
    from app.state import Campaign
    from app.store import CampaignStore
    from rulesets.somnihil.fight import AddAnomaly, ToggleInAnomaly

    save = write_demo("somnihil", tmp_path / "c.json", seed=3)
    campaign = Campaign(CampaignStore.open(save), rng=random.Random(5))
    eid, doc = campaign.rows("encounters")[0]
    caster = next(c for c in doc["combatants"] if c["side"] == "pc")["id"]
    goblin = next(c for c in doc["combatants"] if c["name"] == "Goblin 1")["id"]
    campaign.apply(cmd.StartEncounter(eid))
    before = campaign.apply(RollStatblock(eid, goblin, "attack"))
    assert before is not None and "1d20+" in before[0]
    campaign.apply(AddAnomaly(eid, caster, 2))
    campaign.apply(ToggleInAnomaly(eid, goblin))
    for kind in ("attack", "save"):
        lines = campaign.apply(RollStatblock(eid, goblin, kind))
        assert lines is not None and "2d20kl1" in lines[0]
        assert lines[-1] == "Goblin 1 rolls with disadvantage (inside the Anomaly)"
        entry = [e for e in campaign.log_entries() if e.get("kind") == "roll"][-1]
        assert entry["who"] == "Goblin 1" and len(entry["dice"]) == 2  # both d20 are in the log, the lower one kept
    campaign.store.close()
