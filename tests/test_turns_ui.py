"""The turn order and what a fight leaves behind, played by keys: the statblock's ``B`` steps
the selected foe's attribute only; a fled foe reads as fled; the turn order's own prompt when
nobody acts; the Shadows fight's end by keys."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from app.launch import open_campaign
from app.tui import TablesideApp
from rulesets import encounter as er
from rulesets import registry
from rulesets.turn_orders import TurnOrder
from tests.apphelpers import (
    SIZE,
    combatant_named,
    demo_app,
    footer_words,
    pane_text,
    running_encounter,
    screen_text,
    select_named,
)
from tests.test_toy_game import DUEL, RULESET
from tests.test_turns_and_leftovers import fleeing_seed, hands


async def test_B_steps_the_selected_foes_attribute_only(tmp_path: Path) -> None:
    """Before: B changed the attribute of every foe's statblock, a Goblin in another
    encounter included."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await select_named(pilot, "Goblin 1")
        await pilot.press("B")
        await pilot.pause()
        assert "Rolls with Wit (B: Will)" in pane_text(app)
        assert "Goblin 1 rolls with Wit" in "\n".join(screen_text(app))
        await select_named(pilot, "Goblin 2")
        assert "Rolls with Brawl (B: Wit)" in pane_text(app)
        await select_named(pilot, "Goblin 1")
        assert "Rolls with Wit (B: Will)" in pane_text(app)
        # Another encounter's goblin rolls with Brawl until the GM steps its own.
        await pilot.press("ctrl+n", *"Second", "enter")
        await pilot.pause()
        await pilot.press("q", *"Goblin", *["tab"] * 5, "1", "enter")
        await pilot.pause()
        assert running_encounter(app)["name"] == "Second"
        await select_named(pilot, "Goblin")
        assert "Rolls with Brawl (B: Wit)" in pane_text(app)
    app.campaign.store.close()


def row_of(app: TablesideApp, name: str) -> str:
    """The tracker table's row of that combatant (left of the pane)."""
    table = [line.split("▏")[0] for line in screen_text(app)[2:]]
    return next(line for line in table if f" {name} " in line)


def title(app: TablesideApp) -> str:
    return screen_text(app)[1]


async def test_the_round_jump_case_by_keys_one_round_at_a_time(tmp_path: Path) -> None:
    """The issue's Resolution case: i, alt+r, the last row down (t 9 ⏎), then n down the order:
    round 2 opens with the first combatant, not with the dead last row in a round of its own."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i", "alt+r")
        await pilot.pause()
        order = [c["name"] for c in running_encounter(app)["combatants"]]
        await select_named(pilot, order[-1])
        await pilot.press("t", "9", "enter")
        await pilot.pause()
        assert combatant_named(app, order[-1])["defeated"]
        for name in order[1:-1]:
            await pilot.press("n")
            await pilot.pause()
            assert title(app).startswith(f" Round 1 · {name}'s turn")
        await pilot.press("n")
        await pilot.pause()
        assert title(app).startswith(f" Round 2 · {order[0]}'s turn")
        saved = running_encounter(app)
        assert saved["round"] == 2 and saved["current"] == combatant_named(app, order[0])["id"]
        assert app.campaign.meta["clock"]["seconds"] == 6
    app.campaign.store.close()


async def test_a_foe_that_fails_morale_reads_fled_and_u_brings_it_back(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        await select_named(pilot, "Goblin 2")
        app.campaign.rng.seed(fleeing_seed(0))  # the demo goblins' Will is +0
        await pilot.press("s")
        await pilot.pause()
        assert "fled · 5/5 HP" in row_of(app, "Goblin 2")
        assert "Every foe is down or fled" not in "\n".join(screen_text(app))
        goblin = combatant_named(app, "Goblin 2")
        assert goblin["defeated"] and goblin["stats"]["fled"]
        said = [str(e.get("text", "")) for e in app.campaign.log_entries()]
        assert any("Goblin 2 flees: out of the fight" in line for line in said)
        await pilot.press("u")
        await pilot.pause()
        assert not combatant_named(app, "Goblin 2")["defeated"]
        assert "fled" not in row_of(app, "Goblin 2")
    app.campaign.store.close()


async def test_shadows_n_says_it_passes_and_the_fights_end_returns_the_hands(
    tmp_path: Path,
) -> None:
    """Before: n read "Next turn" and gave up every AP left without saying so; the fight's end
    left every hand out."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        assert "Pass all AP" in footer_words(app) and "Next turn" not in footer_words(app)
        actor = combatant_named(app, "Goblin 1")
        assert running_encounter(app)["current"] == actor["id"]
        await pilot.press("n")
        await pilot.pause()
        shown = " ".join(" ".join(screen_text(app)).split())
        assert "Goblin 1 passes: gives up the 9 AP left this round" in shown
        assert combatant_named(app, "Goblin 1")["ap"]["current"] == 0
        assert any(hands(app.campaign).values())
        await pilot.press("shift+alt+r")
        await pilot.pause()
        shown = " ".join(" ".join(screen_text(app)).split())
        assert "Combat hands to the discards:" in shown
        assert hands(app.campaign) == {}
        assert not running_encounter(app)["started"]
    app.campaign.store.close()


class Waiting(TurnOrder):
    """A game's own order that deals before anyone acts: nobody acts after the start."""

    id = "waiting"
    name = "Waiting"

    def start(self, enc: er.Encounter) -> list[str]:
        return ["The cards are dealt; n hands out the first turn"]


WAITING_GAME = dataclasses.replace(
    DUEL,
    ruleset=dataclasses.replace(RULESET, id="waits", name="Waits", turn_model="waiting"),
    turn_orders=(Waiting(),),
)


async def test_a_games_own_order_with_nobody_acting_says_how_to_go_on(tmp_path: Path) -> None:
    """Before: the title said "choose who acts (c)", and c does nothing outside chosen-next."""
    withdraw = registry.register(WAITING_GAME)
    try:
        campaign = open_campaign(tmp_path / "waits.json", ruleset="waits", seed=3)
        app = TablesideApp(campaign)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("4", "a", *"Robin", "enter")
            await pilot.pause()
            await pilot.press("1", "ctrl+n", "enter")
            await pilot.pause()
            await pilot.press("p", "alt+r")
            await pilot.pause()
            assert running_encounter(app)["current"] is None
            assert title(app).startswith(" Round 1 · n hands out the turn")
            assert "choose who acts" not in "\n".join(screen_text(app))
            await pilot.press("n")
            await pilot.pause()
            assert running_encounter(app)["current"] == combatant_named(app, "Robin")["id"]
            assert title(app).startswith(" Round 1 · Robin's turn")
        campaign.store.close()
    finally:
        withdraw()
