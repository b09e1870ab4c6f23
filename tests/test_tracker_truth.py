"""What it shows must be true: the pane beside the table follows every change to
what it shows, alt+n takes back what n ticked, Somnihil's advantage and disadvantage cancel
(SOM-02) on every path, and the tray's odds box is titled by the figures it shows.

Pilot tests press the keys a GM would press; each failed on main (52f9b16).
"""

from __future__ import annotations

import re
from pathlib import Path

from app.commands.party import ChangePC
from app.tui import TablesideApp
from tests.apphelpers import (
    SIZE,
    combatant_named,
    demo_app,
    pane_text,
    running_encounter,
    screen_text,
    select_named,
)

NARROW = (80, 24)


def table_row(app: TablesideApp, name: str) -> str:
    table = [line.split("▏")[0] for line in screen_text(app)]
    return next(line for line in table if f" {name} " in line)


# --------------------------------------------------------------------------- the pane


async def test_the_pane_follows_a_pcs_damage_heal_party_sheet_and_undo(tmp_path: Path) -> None:
    """Nemron: t 3 on Tomas read 39/42 HP in the table and 42/42 HP in the pane."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await select_named(pilot, "Tomas Ert")
        assert "42/42 HP" in pane_text(app)
        await pilot.press("t", "3", "enter")
        await pilot.pause()
        assert "39/42 HP" in table_row(app, "Tomas Ert")
        assert "39/42 HP" in pane_text(app) and "42/42 HP" not in pane_text(app)
        await pilot.press("l", "1", "enter")
        await pilot.pause()
        assert "40/42 HP" in pane_text(app)
        await pilot.press("u")  # undo reaches the pane too
        await pilot.pause()
        assert "39/42 HP" in pane_text(app)
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert "40/42 HP" in pane_text(app)
        # A change made elsewhere (the party sheet's command) reaches the pane as well.
        ref = int(combatant_named(app, "Tomas Ert")["ref"])
        energy = app.campaign.doc("party", ref)["resources"]["energy"]  # type: ignore[index]
        app.apply(ChangePC(ref, "adjust", ("energy", -2)))
        await pilot.pause()
        assert f"Energy {energy['current'] - 2}/{energy['max']}" in pane_text(app)
    app.campaign.store.close()


async def test_the_pane_says_downed_when_a_pcs_head_reaches_0(tmp_path: Path) -> None:
    """Kesh's pane kept 60/60 HP after his head reached 0 and the table said DOWNED."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await select_named(pilot, "Kesh Varn")
        # tab: the game's whole form, on its next field (the limb).
        await pilot.press("t", "1", "0", "tab", *"head", "enter")
        await pilot.pause()
        assert "DOWNED" in table_row(app, "Kesh Varn")
        pane = pane_text(app)
        assert "DOWNED" in pane and "60/60 HP" not in pane, pane
    app.campaign.store.close()


# --------------------------------------------------------------------------- alt+n


def conditions(app: TablesideApp, name: str) -> list[str]:
    return [
        f"{e['name']} {e['remaining']}" + (f" r{e['rank']}" if e.get("rank") is not None else "")
        for e in combatant_named(app, name)["conditions"]
    ]


async def test_alt_n_gives_back_the_countdowns_n_ticked_at_80x24(tmp_path: Path) -> None:
    """Somnihil: Back to Vesna Kade's turn, but her row read Anomaly 7, Stunned 1 (8 and 2)."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r")
        await select_named(pilot, "Vesna Kade")
        await pilot.press("g", *"Stunned", "tab", "2", "enter")
        await pilot.press("alt+a", "4", "enter")
        await pilot.pause()
        assert conditions(app, "Vesna Kade") == ["Stunned 2", "Anomaly 8"]
        await pilot.press("n")
        await pilot.pause()
        assert conditions(app, "Vesna Kade") == ["Stunned 1", "Anomaly 7"]
        await pilot.press("alt+n")
        await pilot.pause()
        assert running_encounter(app)["current"] == combatant_named(app, "Vesna Kade")["id"]
        assert conditions(app, "Vesna Kade") == ["Stunned 2", "Anomaly 8"]
        assert "Stunned 2" in table_row(app, "Vesna Kade")
        assert "Back to Vesna Kade's turn" in " ".join(screen_text(app))
        await pilot.press("n", "n")  # forward again: the ticks run again, once
        await pilot.pause()
        assert conditions(app, "Vesna Kade") == ["Stunned 1", "Anomaly 7"]
    app.campaign.store.close()


async def test_alt_n_gives_back_the_ap_a_pass_spent_in_shadows(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        before = {c["name"]: c["ap"]["current"] for c in running_encounter(app)["combatants"]}
        actor = running_encounter(app)["current"]
        await pilot.press("n")  # the actor passes: its AP are gone
        await pilot.pause()
        name = next(c["name"] for c in running_encounter(app)["combatants"] if c["id"] == actor)
        assert combatant_named(app, name)["ap"]["current"] == 0
        await pilot.press("alt+n")
        await pilot.pause()
        assert running_encounter(app)["current"] == actor
        assert {c["name"]: c["ap"]["current"] for c in running_encounter(app)["combatants"]} == before
    app.campaign.store.close()


async def test_alt_n_gives_back_a_nemron_rank_the_turn_decayed(tmp_path: Path) -> None:
    """NEM-12: the game's own tick (a rank lost) is taken back with the count."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r")
        await select_named(pilot, "Kesh Varn")
        # name, lasts, ticks at, on whose turn, rank
        await pilot.press("g", *"Bleeding", "tab", "3", "tab", "tab", "tab", "2", "enter")
        await pilot.pause()
        assert conditions(app, "Kesh Varn") == ["Bleeding 3 r2"]
        await pilot.press("n")
        await pilot.pause()
        assert conditions(app, "Kesh Varn") == ["Bleeding 2 r1"]
        await pilot.press("alt+n")
        await pilot.pause()
        assert conditions(app, "Kesh Varn") == ["Bleeding 3 r2"]
    app.campaign.store.close()


# --------------------------------------------------------------------------- SOM-02


async def test_som02_the_gms_advantage_inside_the_anomaly_rolls_one_d20_at_80x24(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await select_named(pilot, "Vesna Kade")
        await pilot.press("alt+a", "2", "enter", "2")
        await pilot.pause()
        while app.screen.who_name != "Vesna Kade":  # type: ignore[attr-defined]
            await pilot.press("p")
        setup = app.screen.query_one("#check-setup")
        for _ in range(3):  # a: the GM's edge, until it says advantage
            if "Edge: advantage" in str(setup.render()):
                break
            await pilot.press("a")
            await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        roll = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"][-1]
        assert roll["expression"] == "1d20" and len(roll["dice"]) == 1
        shown = "\n".join(screen_text(app))
        # The advantage was that roll's; the Anomaly is the place's and stays.
        assert "Edge: none" in shown and "Inside the Anomaly: yes" in shown
        await pilot.press("a")
        await pilot.pause()
        assert "cancel (SOM-02)" in "\n".join(screen_text(app))
        await pilot.press("a")  # advantage -> disadvantage: both sources agree
        await pilot.press("c")
        await pilot.pause()
        roll = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"][-1]
        assert roll["expression"] == "2d20kl1"
    app.campaign.store.close()


# --------------------------------------------------------------------------- the odds' title


async def test_the_odds_box_is_titled_by_the_modifier_its_figures_use_at_80x24(
    tmp_path: Path,
) -> None:
    """Shadows titled its odds +26 with assistance while the figures were for +23 (off focus)."""
    from widgets.odds_chart import OddsChart

    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("2", "p")  # the first PC rolls
        await pilot.press("equals_sign", "tab", *"20", "tab", "tab", *"12", "enter")
        await pilot.pause()
        setup = app.screen.query_one("#check-setup")
        for _ in range(4):  # v: the action's focus, until it is not the roller's own
            if "-3 off" in str(setup.render()):
                break
            await pilot.press("v")
            await pilot.pause()
        assert "+20 +6 assist -3 off physical focus vs Normal" in str(setup.render())
        chart = app.screen.query_one(OddsChart)
        assert chart.border_title == "Odds · +23 with assistance"
        from rulesets.shadows import rules as shadows
        from rulesets.shadows.tarot import find_deck

        minor = find_deck(app.campaign.rows("decks"), "minor")[1]
        assert chart.bands == shadows.check_odds(minor, 23, "Normal", "single")
    app.campaign.store.close()


def test_no_games_odds_title_states_a_number_of_its_own() -> None:
    """A title's modifier is the one the odds use ({modifier}), so it cannot disagree."""
    from rulesets.checks import Setup
    from rulesets.registry import game, ids

    for game_id in ids():
        check = game(game_id).checks.main
        if check is None:
            continue
        for values in (check.defaults(), {**check.defaults(), "assist": (12,)}):
            try:
                spec = check.spec(Setup(values))
            except (ValueError, KeyError):
                continue
            signed = re.search(r"[+\-−]\s*\d", spec.odds_title)  # "2d6" names dice: fine
            assert signed is None, (game_id, spec.odds_title)
