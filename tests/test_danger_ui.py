"""The tracker's danger meter, by keys: it shows under the encounter's title once the fight is
played out, follows each change, opens its detail (ctrl+d), and says "no estimate for this
game" for a game whose exchange lands nothing (the toy game), the session going on."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from app.launch import open_campaign
from app.tui import TablesideApp
from rulesets import registry
from rulesets.game import Game
from screens.combat import CombatScreen
from screens.combat.danger import DangerMeter
from screens.danger_detail import DangerDetail
from tests.apphelpers import SIZE, demo_app, screen_text
from tests.games import BUILT_IN

TOY = Path(__file__).resolve().parent / "fixtures" / "toy_game"


def meter(app: TablesideApp) -> str:
    return str(app.screen.query_one("#danger-meter", Static).render())


async def settled(app: TablesideApp) -> None:
    """Until the meter shows the estimate of the fight as it now stands (or why none): no count
    still due once the keys are quiet, none running."""
    import asyncio

    for _ in range(400):
        await app.workers.wait_for_complete()
        await asyncio.sleep(0.02)
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        gauge = screen.query_one("#danger-meter", DangerMeter)
        if gauge.due is not None or any(
            w.group == "danger" and not w.is_finished for w in app.workers
        ):
            continue
        if screen.danger_estimate is not None or meter(app).startswith("Danger: no"):
            return
    raise AssertionError(f"the meter never settled: {meter(app)!r}")


@pytest.mark.parametrize("game", BUILT_IN)
async def test_the_meter_shows_the_danger_and_ctrl_d_the_detail(tmp_path: Path, game: str) -> None:
    app = demo_app(tmp_path, game, danger_meter=True)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app)
        line = meter(app)
        assert line.startswith("Danger: party wins "), line
        assert " rounds" in line or " round" in line
        shown = screen_text(app)
        title = next(i for i, row in enumerate(shown) if "Ambush" in row or "not started" in row)
        assert shown[title + 1].strip().startswith("Danger: party wins")  # under the title
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert isinstance(app.screen, DangerDetail)
        text = "\n".join(screen_text(app))
        for pc in app.campaign.rows("party"):
            assert pc[1]["name"] in text  # each PC's chance to drop
        assert "round 1" in text or "round 2" in text  # the rounds' chart
        assert "Not modelled" in text
        # What the party spends a fight: health, and what else its game's exchange spends.
        spends = " ".join(text.split()).split("Spends a fight: ")[1]
        assert " health · " in spends and " cards · " in spends and " Energy" in spends
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CombatScreen)
    app.campaign.store.close()


async def test_the_meter_follows_a_change_and_keys_go_on_while_it_counts(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution", danger_meter=True)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app)
        before = meter(app)
        # Six HD 10 foes join by quick add: the danger climbs; keys pressed meanwhile land.
        await pilot.press("q", *"Ogre", "tab", "6", "tab", "tab", "tab", "tab", *"10", "enter")
        await pilot.pause()
        names = [c["name"] for c in app.campaign.rows("encounters")[0][1]["combatants"]]
        assert "Ogre 6" in names
        screen = app.screen
        await pilot.press("j", "j")  # keys while the worker counts
        await settled(app)
        after = meter(app)
        assert after != before
        win_before = int(before.split("party wins ")[1].split("%")[0])
        win_after = int(after.split("party wins ")[1].split("%")[0])
        assert win_after < win_before
        assert isinstance(screen, CombatScreen) and screen.table.cursor_row == 2
    app.campaign.store.close()


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    """The toy game of tests/fixtures/toy_game, registered for the test only (its keys too)."""
    import app.keymap as km

    monkeypatch.setattr(km, "_EXTRA", {})
    sys.path.insert(0, str(TOY))
    try:
        from tableside_duel.game import GAME

        withdraw = registry.register(GAME)
        yield GAME
        withdraw()
    finally:
        sys.path.remove(str(TOY))
        for name in [m for m in sys.modules if m.startswith("tableside_duel")]:
            del sys.modules[name]


@pytest.fixture
def inert_toy(toy: Game) -> Iterator[Game]:
    """The toy game with a PC's damage landing nothing: a game whose attacks the estimate
    cannot count (the toy fixture withdraws the id afterwards)."""
    import dataclasses

    def hurt(hit: Any, sheet: dict[str, Any], amount: int) -> tuple[dict[str, Any], list[str]]:
        return sheet, []

    game = dataclasses.replace(toy, fight=dataclasses.replace(toy.fight, hurt=hurt))
    registry.register(game)
    yield game


async def _toy_fight_by_keys(pilot: Any) -> None:
    await pilot.press("4", "a", *"Robin", "enter")
    await pilot.pause()
    await pilot.press("1", "ctrl+n", "enter")
    await pilot.pause()
    await pilot.press("p")
    await pilot.press("q", *"Slime", "tab", "tab", "3", "enter")
    await pilot.pause()


async def test_the_toy_game_has_an_estimate(tmp_path: Path, toy: Game) -> None:
    """The toy game declares no exchange of its own: its foes attack by its own attack and land
    through its own hurt, so the fight is counted as the tracker plays it."""
    campaign = open_campaign(tmp_path / "duel.json", ruleset=toy.id, seed=7)
    app = TablesideApp(campaign)
    async with app.run_test(size=SIZE) as pilot:
        await _toy_fight_by_keys(pilot)
        await settled(app)
        assert meter(app).startswith("Danger: party wins ")
    app.campaign.store.close()


async def test_a_game_whose_attacks_land_nothing_has_no_estimate_and_nothing_breaks(
    tmp_path: Path, inert_toy: Game
) -> None:
    campaign = open_campaign(tmp_path / "duel.json", ruleset=inert_toy.id, seed=7)
    app = TablesideApp(campaign)
    async with app.run_test(size=SIZE) as pilot:
        await _toy_fight_by_keys(pilot)
        await settled(app)
        assert meter(app) == "Danger: no estimate for this game"
        await pilot.press("ctrl+d", "i", "alt+r", "n")
        await pilot.pause()
        assert isinstance(app.screen, CombatScreen)
        found = app.campaign.rows("encounters")[0][1]
        assert found["round"] >= 1  # the fight runs on
    app.campaign.store.close()


async def wait_for(app: TablesideApp, screen_type: type, words: str) -> None:
    """Until the top screen is a ``screen_type`` that shows ``words`` (a worker's answer)."""
    import asyncio

    for _ in range(400):
        await app.workers.wait_for_complete()
        await asyncio.sleep(0.05)
        if isinstance(app.screen, screen_type) and words in "\n".join(screen_text(app)):
            return
    raise AssertionError(f"no {screen_type.__name__} with {words!r} came")


async def test_ctrl_b_in_the_tracker_proposes_a_count_and_enter_adds_it(tmp_path: Path) -> None:
    from app.queries import current_encounter
    from rulesets import danger
    from screens.form import FormScreen

    app = demo_app(tmp_path, "resolution", danger_meter=True)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app)
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        await pilot.press("enter")  # hard, finding the count, "Foe", HD 1
        await pilot.pause()
        await wait_for(app, FormScreen, "Quick add · ")
        title = "\n".join(screen_text(app))
        assert "Quick add · " in title and "× HD 1: hard · party wins" in title
        await pilot.press("enter")
        await pilot.pause()
        found = current_encounter(app.campaign)
        assert found is not None
        added = [c for c in found[1]["combatants"] if c["name"].startswith("Foe")]
        assert added and all(c["stats"].get("hd") == 1 for c in added)
        await settled(app)
        screen = app.screen
        assert isinstance(screen, CombatScreen) and screen.danger_estimate is not None
        # The fight as built, estimated again by the meter, is hard or near it.
        assert 0.5 <= screen.danger_estimate.win_chance < 0.95
        assert danger.band(screen.danger_estimate) in ("hard", "easy")
    app.campaign.store.close()


async def test_ctrl_b_in_the_npc_panel_proposes_how_many(tmp_path: Path) -> None:
    from screens.npc_add import AddToEncounterScreen

    app = demo_app(tmp_path, "resolution", danger_meter=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await pilot.pause()
        await pilot.press("ctrl+b")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(app, AddToEncounterScreen, "× Goblin")
        text = "\n".join(screen_text(app))
        assert "× Goblin: hard · party wins" in text
        before = len(app.campaign.rows("encounters")[0][1]["combatants"])
        await pilot.press("enter")
        await pilot.pause()
        after = len(app.campaign.rows("encounters")[0][1]["combatants"])
        assert after > before
    app.campaign.store.close()


async def test_the_detail_changes_how_targets_are_picked_and_the_meter_counts_again(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "resolution", danger_meter=True)
    async with app.run_test(size=SIZE) as pilot:
        await settled(app)
        screen = app.screen
        assert isinstance(screen, CombatScreen) and screen.danger_estimate is not None
        assert screen.danger_estimate.choices.foes == "random"
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert "the foes, a random foe in reach" in "\n".join(screen_text(app)).replace("\n", " ")
        await pilot.press("f")  # the foes: the weakest
        await pilot.pause()
        assert app.screen is screen
        await settled(app)
        assert isinstance(screen, CombatScreen) and screen.danger_estimate is not None
        assert screen.danger_estimate.choices.foes == "weakest"
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert "the weakest (closest to out of the fight)" in "\n".join(screen_text(app))
    app.campaign.store.close()


def test_the_command_where_attacks_land_nothing_is_exit_2_and_one_line(
    tmp_path: Path, inert_toy: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main
    from app.commands.combat import AddParty, NewEncounter, QuickAdd
    from app.commands.party import AddPC

    campaign = open_campaign(tmp_path / "duel.json", ruleset=inert_toy.id, seed=7)
    campaign.apply(AddPC("Robin"))
    campaign.apply(NewEncounter("Slime pit"))
    eid = campaign.rows("encounters")[0][0]
    campaign.apply(AddParty(eid))
    campaign.apply(QuickAdd(eid, name="Slime", health=3))
    campaign.store.close()
    code = main(["danger", str(tmp_path / "duel.json"), "--json"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == "tableside danger: no estimate for this game: its attacks land nothing on Robin\n"
