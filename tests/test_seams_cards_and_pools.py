"""Seams between the exchange, the turn order and the games' own keys, found by playing whole
fights by keys (Shadows, Nemron): each test presses what a GM pressed and checks what the screen
shows and what was saved."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from textual.widgets import Input

from app.queries import current_encounter
from app.tui import TablesideApp
from rulesets import exchange as ex
from screens.combat import CombatScreen
from screens.form import FormScreen
from tests.apphelpers import SIZE, demo_app, screen_text
from tests.test_exchange_keys import amount_line, current, health, start, turn_of
from tests.test_hostile_games import told
from tests.test_shadows_attack import _minor


async def test_ctrl_u_clears_the_typed_answer_of_the_exchange(tmp_path: Path) -> None:
    """A refused answer is corrected by clearing it, as in any text field: ctrl+u then the
    right card, not the two run together."""
    app: TablesideApp = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "shadows")
        await turn_of(pilot, app, "npc")
        before = health(app)
        await pilot.press("A", *"4 Cups", "ctrl+u", *"none")
        await pilot.pause()
        line = amount_line(app)
        assert "): none▏" in line, line
        assert health(app) == before
    app.campaign.store.close()


async def test_shadows_p_and_a_play_the_same_card_and_a_plays_the_card_the_gm_names(
    tmp_path: Path,
) -> None:
    """SOH-14, the attack card is the player's choice. A played the best card of the attack's
    suit while P's form offered the hand's first card and asked a fumble value A took as 1;
    and A had no way to name the card (ctrl+e asked skill and type only)."""
    app: TablesideApp = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "shadows")
        await turn_of(pilot, app, "pc")
        pc = current(app)
        await pilot.press("A")
        await pilot.pause()
        found = re.search(rf"{pc['name']} plays (.+? of \w+):", amount_line(app))
        assert found is not None, amount_line(app)
        best = found.group(1)
        await pilot.press("escape", "P")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#field-card", Input).value == best
        assert form.query_one("#field-fumble", Input).value == "1"
        await pilot.press("escape")
        await pilot.pause()
        hand = _minor(app.campaign).hand(str(pc["ref"]))
        other = next(c.label for c in hand if c.label != best)
        await pilot.press("A", "ctrl+e")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        app.screen.query_one("#field-card", Input).value = other
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CombatScreen)
        assert f"{pc['name']} plays {other}:" in amount_line(app), amount_line(app)
        await pilot.press("enter")
        await pilot.pause()
        held = [c.label for c in _minor(app.campaign).hand(str(pc["ref"]))]
        assert other not in held and best in held
        # Played, the named card is forgotten: the next attack plays the best again.
        sheet = app.campaign.doc("party", int(str(pc["ref"]))) or {}
        assert "card" not in sheet.get("attack", {}), sheet.get("attack")
    app.campaign.store.close()


async def test_t_after_an_exchange_lands_none_of_its_rolls(tmp_path: Path) -> None:
    """Nemron: after A landed a PC's attack on a goblin, T dealt the goblin's active defence
    roll (its last roll in the log) as damage to the selected: the attacking PC."""
    app: TablesideApp = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "nemron")
        await turn_of(pilot, app, "pc")
        pc = current(app)["name"]
        await pilot.press("A", "tab", *"Goblin 2", "enter", "enter")
        await pilot.pause()
        logged = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"]
        assert logged[-1]["who"] == "Goblin 2", logged[-1]  # its defence, rolled last
        before = (health(app), len(app.campaign.undo_stack))
        await pilot.press("T")
        await pilot.pause()
        assert (health(app), len(app.campaign.undo_stack)) == before, pc
    app.campaign.store.close()


async def test_t_with_nothing_to_land_says_so_where_the_log_has_no_dice(tmp_path: Path) -> None:
    """Shadows draws cards, never dice: after a landed attack, T said "No roll in the log yet
    (d rolls dice)" under a log full of the attack."""
    app: TablesideApp = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "shadows")
        await turn_of(pilot, app, "npc")
        await pilot.press("A", "enter")
        await pilot.pause()
        said = told(app)
        before = (health(app), len(app.campaign.undo_stack))
        await pilot.press("T")
        await pilot.pause()
        assert (health(app), len(app.campaign.undo_stack)) == before
        assert said and "yet" not in said[-1] and "Nothing to land" in said[-1], said
    app.campaign.store.close()


def test_the_odds_line_says_what_share_of_the_damage_it_leaves_out() -> None:
    """Shadows' critical chain gives dozens of amounts; the line listed the six likeliest
    (16, 17, 18, 22, 23, 24) as if they were all, 58% of the whole."""
    dist = {15 + k: Fraction(1, 24) for k in range(1, 11)} | {30: Fraction(14, 24)}
    text = ex.damage_text(dist)
    assert text.startswith("16 4% · ") and "30 58%" in text, text
    assert text.endswith(" · 5 other amounts 21%"), text
    assert ex.damage_text({0: Fraction(1, 2), 3: Fraction(1, 2)}) == "0 50% · 3 50%"


async def test_shadows_a_shows_the_defenders_hand_where_its_cards_are_typed(
    tmp_path: Path,
) -> None:
    """The defence is typed from the defender's hand, but the line showed only an example
    card ("4 Cups") that the PC did not hold: the hand was named only once refused."""
    app: TablesideApp = demo_app(tmp_path, "shadows")
    async with app.run_test(size=(120, 36)) as pilot:
        await start(pilot, "shadows")
        await turn_of(pilot, app, "npc")
        await pilot.press("A")
        await pilot.pause()
        line = amount_line(app)
        target = re.search(r"→ (.+?): hits", line)
        assert target is not None, line
        pc = next(c for c in current_encounter_rows(app) if c["name"] == target.group(1))
        hand = ", ".join(c.label for c in _minor(app.campaign).hand(str(pc["ref"])))
        assert f"its hand: {hand}" in line, line
    app.campaign.store.close()


def current_encounter_rows(app: TablesideApp) -> list[dict[str, Any]]:
    found = current_encounter(app.campaign)
    assert found is not None
    return list(found[1]["combatants"])


async def test_resting_during_a_fight_asks_the_whole_question(tmp_path: Path) -> None:
    """% while the fight runs: the confirmation's question was cut at the modal's edge
    ("Rest the whole party an"), at 80x24 and at 120x36 alike."""
    app: TablesideApp = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "shadows")
        await pilot.press("percent_sign")
        await pilot.pause()
        shown = "\n".join(screen_text(app))
        assert "Rest the whole party" in shown and "anyway?" in shown, shown
        await pilot.press("n")
    app.campaign.store.close()
