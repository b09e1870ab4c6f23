"""The campaign clock by keys (issue 27), in every game's demo: a torch ticks and burns out, an
encounter check comes up and becomes the fight, the game's rest is applied, and undo takes each
back; the header, the party sheet and the tracker show the time and the time left."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from app.commands.party import ChangePC
from app.tui import TablesideApp
from rulesets import clock
from rulesets.nemron import rules as nemron
from screens.clock import ClockScreen
from screens.help import HelpScreen
from tests.apphelpers import SIZE, demo_app, screen_text
from tests.games import BUILT_IN

GAMES = BUILT_IN


def now(app: TablesideApp) -> clock.Clock:
    return clock.read(app.campaign.meta)


def pc(app: TablesideApp, doc_id: int = 1) -> dict[str, Any]:
    found = app.campaign.doc("party", doc_id)
    assert found is not None
    return found


def static(app: TablesideApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def add_torch(pilot: Any) -> None:
    await pilot.press("ctrl+t", "n", *"Torch", "enter")
    await pilot.pause()


async def set_check(pilot: Any, chance: str, table: str) -> None:
    await pilot.press("ctrl+t", "c", "tab", *chance, "tab", *table, "enter")
    await pilot.pause()
    await pilot.press("escape")


def hurt(app: TablesideApp, game: str) -> None:
    """Damage the first PC as the game's rest would heal it."""
    if game == "somnihil":
        app.campaign.apply(ChangePC(1, "set_resource", ("vitality", 2)))
    elif game == "resolution":
        app.campaign.apply(ChangePC(1, "set_resource", ("hp", 2)))
        app.campaign.apply(ChangePC(1, "set_resource", ("system_strain", 3)))
    elif game == "nemron":
        app.campaign.apply(ChangePC(1, "step", ("limb", "torso", -6)))
        app.campaign.apply(ChangePC(1, "adjust", ("energy", -3)))


def rested(app: TablesideApp, game: str) -> bool:
    """Whether the game's rest was applied to the first PC (games without a rest: time only)."""
    sheet = pc(app)
    if game == "somnihil":
        return bool(sheet["resources"]["vitality"]["current"] == 10)
    if game == "resolution":  # RR-05: one night, a first-level character
        res = sheet["resources"]
        return (res["hp"]["current"], res["system_strain"]["current"]) == (3, 2)
    if game == "nemron":  # NEM-10/11: Energy back, the torso healed by a Constitution roll
        torso = nemron.limbs_of(sheet)["torso"]
        energy = sheet["resources"]["energy"]
        return torso["hp"] > torso["max"] - 6 and energy["current"] == energy["max"]
    return True


@pytest.mark.parametrize("game", GAMES)
async def test_clock_keys_tick_a_torch_make_a_check_and_rest_and_undo_takes_each_back(
    tmp_path: Path, game: str
) -> None:
    app = demo_app(tmp_path, game)
    async with app.run_test(size=SIZE) as pilot:
        assert "Day 1 08:00 morning" in screen_text(app)[0]
        await add_torch(pilot)
        assert isinstance(app.screen, ClockScreen)
        assert any("Torch · light · 1 h left" in row for row in screen_text(app))
        await pilot.press("escape", "at")  # an exploration turn: 10 minutes
        await pilot.pause()
        assert now(app).seconds == 10 * clock.MINUTE
        assert "Day 1 08:10 morning" in screen_text(app)[0]
        assert "Torch · light: 50 min left" in static(app, "#combat-status")
        await pilot.press("4")
        await pilot.pause()
        assert "Torch · light: 50 min left" in static(app, "#party-time")

        # The game's rest, by its one key: 8 hours, and its rule on every PC.
        hurt(app, game)
        await pilot.press("percent_sign")
        await pilot.pause()
        assert now(app).seconds == 10 * clock.MINUTE + 8 * clock.HOUR
        assert rested(app, game), pc(app)
        assert now(app).effects == ()  # the torch burnt out on the way
        await pilot.press("u")
        await pilot.pause()
        assert now(app).seconds == 10 * clock.MINUTE
        assert [e.name for e in now(app).effects] == ["Torch"]
        assert not rested(app, game) or game in ("aspects", "shadows")

        # An encounter check that always comes up: time stops at it, and * makes it the fight.
        await set_check(pilot, "1 in 1", "Goblin 2")
        await pilot.press("number_sign")  # an hour
        await pilot.pause()
        found = now(app)
        assert found.seconds == 10 * clock.MINUTE + clock.HOUR  # its first: an hour after set
        assert found.came_up is not None and found.came_up.text == "Goblin ×2"
        assert "came up: Goblin ×2" in screen_text(app)[0]
        assert found.effects == ()  # and the torch is out
        fights = len(app.campaign.rows("encounters"))
        await pilot.press("asterisk")
        await pilot.pause()
        assert app.current_mode == "combat"
        assert len(app.campaign.rows("encounters")) == fights + 1
        names = [c["name"] for c in app.campaign.rows("encounters")[-1][1]["combatants"]]
        assert names[-2:] == ["Goblin 1", "Goblin 2"] and len(names) == 6
        await pilot.press("u")  # the fight is undone, and what came up waits again
        await pilot.pause()
        assert len(app.campaign.rows("encounters")) == fights
        assert now(app).came_up is not None
        await pilot.press("u")  # the hour is undone: the check and the torch as they were
        await pilot.pause()
        assert now(app).seconds == 10 * clock.MINUTE and now(app).came_up is None
        assert [e.name for e in now(app).effects] == ["Torch"]
    app.campaign.store.close()


async def test_fight_rounds_move_the_clock_and_tick_a_torch(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")  # a round of 15 seconds
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+t", "n", *"Flare", "tab", "backspace", "backspace", *"30s", "enter")
        await pilot.pause()
        await pilot.press("escape", "alt+r")
        await pilot.pause()
        for _ in range(60):
            if now(app).seconds >= 30:
                break
            await pilot.press("n")
            await pilot.pause()
        assert now(app).seconds == 30  # two new rounds
        assert now(app).effects == ()
        log = [e.get("text", "") for e in app.campaign.log_entries()]
        assert any("Flare burns out at 08:00:30" in text for text in log)
    app.campaign.store.close()


async def test_asp07_a_consequence_is_offered_for_downgrade_when_its_weeks_have_passed(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=SIZE) as pilot:
        doc = dict(pc(app))
        doc["lists"] = {
            **doc["lists"],
            "consequences": [{"name": "Broken arm", "received": "Day 1"}],
        }
        app.campaign.store.db.table("party").update(doc, doc_ids=[1])
        await pilot.press("4")
        for _ in range(20):
            await pilot.press("circumflex_accent")  # a day
        await pilot.pause()
        assert "due" not in pc(app)["lists"]["consequences"][0]
        await pilot.press("circumflex_accent")  # Day 22
        await pilot.pause()
        assert pc(app)["lists"]["consequences"][0]["due"] is True
        fields = app.screen.query_one("#party-fields", DataTable)
        rows = [str(fields.get_row_at(i)[1]) for i in range(fields.row_count)]
        assert any("Broken arm" in r and "due to heal" in r for r in rows), rows
    app.campaign.store.close()


async def test_a_typed_duration_and_a_bad_one(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ampersand", *"2x", "enter")
        await pilot.pause()
        assert "is not a duration" in static(app, "#form-error")
        await pilot.press("end", "backspace", "backspace", *"2h", "tab", *"effort", "enter")
        await pilot.pause()
        assert now(app).seconds == 2 * clock.HOUR
        energy = pc(app)["resources"]["energy"]
        assert energy["current"] == energy["max"] - 2  # NEM-10
    app.campaign.store.close()


@pytest.mark.parametrize("game", GAMES)
async def test_clock_keys_have_ids_descriptions_and_palette_entries_in_every_panel(
    tmp_path: Path, game: str
) -> None:
    from app.clock_keys import CLOCK_BINDINGS
    from screens.help import key_rows

    app = demo_app(tmp_path, game)
    wanted = {b.description for b in CLOCK_BINDINGS}
    assert all(b.id and b.id.startswith("clock.") for b in CLOCK_BINDINGS)
    async with app.run_test(size=SIZE) as pilot:
        for key in "1234":
            await pilot.press("escape", key)
            await pilot.pause()
            rows = {r.description: r.keys for r in key_rows(app.screen) if r.from_app}
            assert wanted <= set(rows), (key, wanted - set(rows))
            assert rows["Time: an hour"] == "#"
            commands = {c.title for c in app.get_system_commands(app.screen)}
            assert wanted <= commands
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
    app.campaign.store.close()


async def test_the_header_keeps_the_time_at_80_columns(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=(80, 24)) as pilot:
        for key in "1234":
            await pilot.press("escape", key)
            await pilot.pause()
            assert "Day 1 08:00 morning" in screen_text(app)[0]
    app.campaign.store.close()
