"""The exchange by keys, in every game: a foe attacks a PC, the PC answers, a PC attacks a foe by
its row number, the damage lands on the game's pools, undo takes it all back; and how many keys
a foe's turn and a PC's attack take."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from app.tui import TablesideApp
from screens.combat import CombatScreen
from tests.apphelpers import SIZE, demo_app, under_table
from tests.games import BUILT_IN
from tests.test_foes import row, saved, select, sheet_of

ANSWER = {"nemron": "2", "aspects": "block", "shadows": "none", "somnihil": "4"}
"""What the PC answers a foe's attack with, where the game asks (a defence roll of 2, a
Physique block, no cards, the Cipher's opposing d20 as rolled at the table)."""
SEED = {"somnihil": 4}
"""The demo's seed: one where the round's dice land damage (3 elsewhere)."""
POOLS = {
    "resolution": ("resources",),
    "somnihil": ("resources",),
    "nemron": ("tracks",),
    "aspects": ("lists",),
    "shadows": ("resources",),
}


def amount_line(app: TablesideApp) -> str:
    return " ".join(under_table(app).split())


def current(app: TablesideApp) -> dict[str, Any]:
    doc = saved(app)
    found = [c for c in doc["combatants"] if c["id"] == doc["current"]]
    return found[0] if found else {"side": "", "name": ""}


async def turn_of(pilot: Pilot[None], app: TablesideApp, side: str) -> int:
    """``n`` until one of ``side`` acts (where the GM chooses who acts, c on the first of
    them not out who has not acted); the presses it took."""
    presses = 0
    if saved(app)["model"] == "chosen_next":
        name = next(
            c["name"] for c in saved(app)["combatants"]
            if c["side"] == side and not c["defeated"] and not c["acted"]
        )  # fmt: skip
        await select(pilot, app, name)
        await pilot.press("c")
        await pilot.pause()
        return 1
    while current(app)["side"] != side:
        await pilot.press("n")
        await pilot.pause()
        presses += 1
        assert presses < 12
    return presses


def health(app: TablesideApp) -> dict[str, Any]:
    """Every combatant's health where its game keeps it."""
    return {c["name"]: sheet_of(app, c["name"]) for c in saved(app)["combatants"]}


def changed(before: dict[str, Any], after: dict[str, Any], name: str) -> bool:
    return bool(before[name] != after[name])


async def start(pilot: Pilot[None], game: str) -> None:
    await pilot.press("i", "alt+r")
    await pilot.pause()


@pytest.mark.parametrize("game", BUILT_IN)
async def test_a_round_by_keys_lands_on_the_games_pools_and_undo_takes_it_back(
    tmp_path: Path, game: str
) -> None:
    app = demo_app(tmp_path, game, SEED.get(game, 3))
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, game)
        await turn_of(pilot, app, "npc")
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        undo_from = len(app.campaign.undo_stack)
        first = health(app)
        foe = current(app)["name"]
        # The foe's turn: A shows the exchange with its odds; the PC answers; enter lands it.
        await pilot.press("A")
        await pilot.pause()
        line = amount_line(app)
        assert f"{foe} → " in line and "hits " in line and "drops " in line, line
        target = line.split(f"{foe} → ", 1)[1].split(":", 1)[0]
        assert row(app, target)["side"] == "pc"
        if game in ANSWER:
            await pilot.press(*ANSWER[game])
        await pilot.press("enter")
        await pilot.pause()
        assert "▏" not in amount_line(app), amount_line(app)  # closed: it landed
        after_foe = health(app)
        said = " ".join(str(e.get("text", "")) for e in app.campaign.log_entries()[-3:])
        assert f"{foe} attacks {target}" in said
        if changed(first, after_foe, target):
            for pool in POOLS[game]:
                assert first[target].get(pool) != after_foe[target].get(pool), pool
        if game == "shadows" and changed(first, after_foe, target):
            res = (first[target]["resources"], after_foe[target]["resources"])
            lost = {k: res[0][k]["current"] - res[1][k]["current"] for k in ("health", "life")}
            assert lost["health"] == lost["life"] > 0  # a hit takes Health and Life alike
        if game == "nemron":  # the PC's reaction answered it and is spent
            assert row(app, target)["economy"]["reaction"] is True
        # A PC's turn: A, the foe by its row number, enter.
        await turn_of(pilot, app, "pc")
        pc = current(app)["name"]
        rows = [c["name"] for c in saved(app)["combatants"]]
        number = str(rows.index("Goblin 2") + 1)
        await pilot.press("A")
        if app.campaign.game.exchange.defence_help:  # the keys answer: tab names the target
            await pilot.press("tab", number, "enter")
        else:
            await pilot.press(number)
        await pilot.pause()
        assert f"{pc} → Goblin 2" in amount_line(app), amount_line(app)
        await pilot.press("enter")
        await pilot.pause()
        said = " ".join(str(e.get("text", "")) for e in app.campaign.log_entries()[-4:])
        assert f"{pc} attacks Goblin 2" in said
        after_pc = health(app)
        # The round dealt damage, on the pools of the game's sheets.
        assert changed(first, after_foe, target) or changed(after_foe, after_pc, "Goblin 2")
        # Undo takes every change since the foe's turn back, each exchange as one.
        await pilot.press(*["u"] * (len(app.campaign.undo_stack) - undo_from))
        await pilot.pause()
        assert health(app) == first
    app.campaign.store.close()


async def test_a_foes_turn_takes_3_keys_and_a_pcs_attack_on_a_foe_5(tmp_path: Path) -> None:
    """The presses counted: a foe's whole turn (A, enter, n) and a PC's attack on a foe by its
    row number where the game asks the defender (A, tab, the row, enter, enter)."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "nemron")
        await turn_of(pilot, app, "npc")
        foe = current(app)["name"]
        logged = len(app.campaign.log_entries())
        keys = ["A", "enter", "n"]
        await pilot.press(*keys)
        await pilot.pause()
        assert len(keys) <= 4
        texts = [str(e.get("text", "")) for e in app.campaign.log_entries()[logged:]]
        assert any(t.startswith(f"{foe} attacks ") for t in texts), texts
        assert current(app)["name"] != foe
        await turn_of(pilot, app, "pc")
        pc = current(app)["name"]
        rows = [c["name"] for c in saved(app)["combatants"]]
        logged = len(app.campaign.log_entries())
        keys = ["A", "tab", str(rows.index("Goblin 3") + 1), "enter", "enter"]
        await pilot.press(*keys)
        await pilot.pause()
        assert len(keys) <= 6
        texts = [str(e.get("text", "")) for e in app.campaign.log_entries()[logged:]]
        assert any(t.startswith(f"{pc} attacks Goblin 3") for t in texts), texts
    app.campaign.store.close()


async def test_a_refused_answer_keeps_the_exchange_and_escape_applies_nothing(
    tmp_path: Path,
) -> None:
    """Shadows: two defence cards against a 1-AP attack are refused; the line stays with what
    was typed and why; escape then leaves with nothing played or landed."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "shadows")
        await turn_of(pilot, app, "npc")
        before = (health(app), len(app.campaign.undo_stack))
        await pilot.press("A", *"4 Cups, 6 Swords", "enter")
        await pilot.pause()
        line = amount_line(app)
        assert "✗" in line and "4 Cups, 6 Swords▏" in line, line
        assert (health(app), len(app.campaign.undo_stack)) == before
        await pilot.press("escape")
        await pilot.pause()
        assert "▏" not in amount_line(app)
        assert (health(app), len(app.campaign.undo_stack)) == before
        # Tab names the target; it opens no form and lands no flat 0.
        await pilot.press("A", "tab", "enter")
        await pilot.pause()
        assert "Defence (" in amount_line(app)
        assert (health(app), len(app.campaign.undo_stack)) == before
        await pilot.press("escape")
        # T with nothing open and no roll: it lands nothing.
        await pilot.press("T")
        await pilot.pause()
        assert (health(app), len(app.campaign.undo_stack)) == before
    app.campaign.store.close()


async def test_ctrl_e_asks_the_attacking_pcs_attack_and_comes_back(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "resolution")
        await turn_of(pilot, app, "pc")
        pc = current(app)["name"]
        await pilot.press("A")
        await pilot.pause()
        assert "ctrl+e: the attack" in amount_line(app)
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert not isinstance(app.screen, CombatScreen)
        assert f"{pc}'s attack" in " ".join(str(w.render()) for w in app.screen.query(Static))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CombatScreen)
        assert f"{pc} → " in amount_line(app)  # the exchange is still open
    app.campaign.store.close()


async def test_a_on_a_pcs_turn_with_a_foe_selected_is_the_pcs_attack_on_it(tmp_path: Path) -> None:
    """Resolution: A on a PC's turn with a goblin selected made the goblin attack the PC."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, "resolution")
        await turn_of(pilot, app, "pc")
        pc = current(app)["name"]
        await select(pilot, app, "Goblin 1")
        await pilot.press("A")
        await pilot.pause()
        assert f"{pc} → Goblin 1: hits " in amount_line(app), amount_line(app)
        await pilot.press("enter")
        await pilot.pause()
        rolls = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"]
        assert rolls[-1]["who"] == pc and " vs AC 12" in rolls[-1]["expression"]
    app.campaign.store.close()
