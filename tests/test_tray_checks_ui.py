"""Every check a game allows stated in the tray by keys; the odds pane is the roll's.

Each test drives the keys, then asserts the setup text, the odds pane (equal to the stated
check's own ``spec.odds()``) and the logged roll.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from screens.form import FormScreen
from screens.tray import TrayScreen
from screens.tray_prompt import TrayPrompt
from tests.apphelpers import SIZE, demo_app
from tests.games import BUILT_IN
from widgets.odds_chart import OddsChart
from widgets.roll_log import RollLog, format_entry


def rolls(app: Any) -> list[dict[str, Any]]:
    return [e for _, e in app.campaign.rows("log") if e.get("kind") == "roll"]


def setup_text(app: Any) -> str:
    return str(app.screen.query_one("#check-setup").render())


def pane_is_the_checks(app: Any) -> dict[str, Any]:
    """The odds pane shows exactly the odds of the check as stated (the one ``c`` rolls)."""
    screen = app.screen
    assert isinstance(screen, TrayScreen)
    bands = dict(screen.query_one(OddsChart).bands)
    assert bands == dict(screen.spec().odds())
    assert bands and sum(bands.values()) == 1
    return bands


async def type_form(app: Any, pilot: Any, answers: dict[str, str]) -> None:
    await pilot.press("equals_sign")
    await pilot.pause()
    assert isinstance(app.screen, FormScreen)
    for key, value in answers.items():
        app.screen.query_one(f"#field-{key}", Input).value = value
    await pilot.press("enter")
    await pilot.pause()
    assert not isinstance(app.screen, FormScreen)


# --- Nemron ------------------------------------------------------------------------------------


async def test_nemron_pool_of_many_nodes_and_a_weapon_by_keys(tmp_path: Path) -> None:
    """``Awareness › Marksmanship › Pistol``: any number of nodes, a weapon's rank die and DC."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        # Kesh Varn: awareness 1 (d6), Firearms 1 (d6), Brawling 2 (d8); a rank 2 pistol (d8)
        await pilot.press("2", "p", "a", "a", "a", "a", "k", "k", "n")
        await pilot.pause()
        assert isinstance(app.screen, TrayPrompt)
        app.screen.query_one(Input).value = "Brawling"
        await pilot.press("enter", "w", "w", "w", "minus", "minus", "minus")
        await pilot.pause()
        text = setup_text(app)
        assert "Awareness › Firearms › Brawling › weapon rank 2" in text
        assert "d6 › d6 › d8 › d8 keep highest vs DC 3 (asked 1)" in text
        pane_is_the_checks(app)
        await pilot.press("c")
        await pilot.pause()
        entry = rolls(app)[-1]
        assert entry["expression"].startswith("d6 › d6 › d8 › d8 vs DC 3")
        assert len(entry["dice"]) == 4 and entry["who"] == "Kesh Varn"
    app.campaign.store.close()


async def test_nemron_initiative_pool_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", *["a"] * 9)
        await pilot.pause()
        text = setup_text(app)
        # Kesh Varn: agility 1, awareness 1, sense 0
        assert "Initiative (Agility › Awareness › Sense)" in text
        assert "d6 › d6 › d4 keep highest" in text
        pane_is_the_checks(app)
        await pilot.press("c")
        await pilot.pause()
        assert rolls(app)[-1]["expression"].startswith("d6 › d6 › d4 vs DC 4")
    app.campaign.store.close()


async def test_nemron_specialised_skill_minimum_dc_by_key(tmp_path: Path) -> None:
    """A specialised skill (Marksmanship) is never below DC 3: in the setup, odds and roll."""
    from rulesets.nemron import rules as nemron

    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "minus", "minus", "minus", "z")
        await pilot.pause()
        assert "Specialised skill: yes (DC at least 3)" in setup_text(app)
        assert "Power: d8 keep highest vs DC 3 (asked 1)" in setup_text(app)
        assert pane_is_the_checks(app) == nemron.odds([8], 3)
        await pilot.press("c")
        await pilot.pause()
        assert rolls(app)[-1]["expression"].startswith("d8 vs DC 3")
    app.campaign.store.close()


async def test_nemron_good_drama_is_the_gms_choice_offered_after_the_roll(tmp_path: Path) -> None:
    from rulesets.nemron import rules as nemron

    def good(seed: int) -> bool:
        r = random.Random(seed)
        return nemron.drama_of(nemron.check(r, [8], 4)) == nemron.GOOD_DRAMA

    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p")
        assert not app.screen.check_action("game", ("good_drama",))
        app.campaign.rng = random.Random(next(s for s in range(5000) if good(s)))
        await pilot.press("c")
        await pilot.pause()
        entry = rolls(app)[-1]
        assert "Good Drama" in entry["detail"] and entry["good_drama"] == "pending"
        pc = app.campaign.doc("party", 1)
        assert pc is not None and pc.get("resources", {}).get("luck", {}).get("current", 0) == 0
        assert app.screen.check_action("game", ("good_drama",))
        await pilot.press("G")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        app.screen.query_one("#field-choice", Input).value = "an automatic success"
        await pilot.press("enter")
        await pilot.pause()
        entry = rolls(app)[-1]
        assert entry["band"] == "success" and "automatic success" in entry["detail"]
        assert not app.screen.check_action("game", ("good_drama",))  # chosen once
        assert len(rolls(app)) == 1
    app.campaign.store.close()


# --- Resolution --------------------------------------------------------------------------------


async def test_resolution_any_dc_and_the_d20_dc_in_the_5e_column(tmp_path: Path) -> None:
    """An NPC's opposed roll of 9 is the DC; on a d20 the tray states the 5e DC it rolls against."""
    from rulesets.resolution import rules as resolution

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await type_form(app, pilot, {"dc": "9"})
        assert "2d6+0 vs DC 9" in setup_text(app)
        assert pane_is_the_checks(app) == resolution.odds(9)
        await pilot.press("t")
        await pilot.pause()
        assert "d20+0 vs 5e DC 18 (SWN DC 9)" in setup_text(app)
        assert pane_is_the_checks(app) == resolution.odds(9, 0, "d20")
        await pilot.press("c")
        await pilot.pause()
        assert rolls(app)[-1]["expression"] == "1d20+0 vs 5e DC 18 (SWN DC 9)"
    app.campaign.store.close()


async def test_resolution_grip_check_stated_with_a_major_event_shows_its_own_odds(
    tmp_path: Path,
) -> None:
    from rulesets.resolution import rules as resolution

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "k")
        await pilot.pause()
        assert "pick one with p" in setup_text(app)  # the GM has no Grip
        await pilot.press("p", "k", "k")  # a new roller: the roll type starts again at a check
        await pilot.pause()
        pc = app.campaign.doc("party", 1)
        grip = int(pc["resources"]["grip"]["current"])  # type: ignore[index]
        assert f"d20 under Grip {grip} (a failure costs 2 Grip)" in setup_text(app)
        assert pane_is_the_checks(app) == resolution.grip_odds(grip)
        assert pane_is_the_checks(app) != resolution.odds(8)
        await pilot.press("c")
        await pilot.pause()
        entry = rolls(app)[-1]
        assert entry["expression"] == f"1d20 under Grip {grip}"
        after = int(app.campaign.doc("party", 1)["resources"]["grip"]["current"])  # type: ignore[index]
        assert after == (grip if entry["band"] == "success" else grip - 2)
    app.campaign.store.close()


async def test_resolution_o_is_its_opposed_check_not_a_card_draw(tmp_path: Path) -> None:
    """RR-02: o asks the NPC's modifier and morale and rolls dice, never a card."""
    from screens.form import FormScreen

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "o")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert app.screen.title_text.startswith("Opposed check, ")
        await pilot.press("enter")
        await pilot.pause()
        assert [r["who"] for r in rolls(app)][-2] == "NPC"
        assert not app.campaign.rows("decks")
    app.campaign.store.close()


# --- Shadows and Aspects -------------------------------------------------------------------------


async def test_shadows_a_plus_twelve_bonus_is_typed_not_stepped(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p")
        await type_form(app, pilot, {"bonus": "12"})
        assert "+12" in setup_text(app)
        pane_is_the_checks(app)
        await pilot.press("c")
        await pilot.pause()
        entry = rolls(app)[-1]
        assert "+12 vs" in entry["expression"]
    app.campaign.store.close()


async def test_aspects_opposing_skill_by_keys_and_each_check_logged_once(tmp_path: Path) -> None:
    from rulesets.aspects import rules as aspects

    app = demo_app(tmp_path, "aspects")
    give_fate(app, 1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "right_square_bracket", "right_square_bracket")
        await pilot.press("right_curly_bracket", "right_curly_bracket", "right_curly_bracket")
        await pilot.press("left_curly_bracket")
        await pilot.pause()
        assert "NPC's skill: 2" in setup_text(app)
        assert "2d6+2 − 2" in setup_text(app)
        assert pane_is_the_checks(app) == aspects.odds(2, 2)
        await pilot.press("c")
        await pilot.pause()
        assert len(app.campaign.rows("log")) == 1
        assert rolls(app)[-1]["expression"] == "2d6+2-2"
        log = app.screen.query_one(RollLog)
        assert log.option_count == 1
        await pilot.press("f")  # a fate point: the roll's entry changes, it is not logged again
        await pilot.pause()
        assert len(rolls(app)) == 1
        assert log.option_count == len(app.campaign.rows("log")) == 2
        # the roll's own line shows the result after the fate point, not the first one
        assert str(log.get_option_at_index(0).prompt) == str(format_entry(rolls(app)[0]))
    app.campaign.store.close()


# --- who rolls, the log ------------------------------------------------------------------------


def give_fate(app: Any, amount: int) -> None:
    """The demo's characters start with no fate point."""
    pc = app.campaign.doc("party", 1)
    pc["resources"]["fate_points"]["current"] = amount
    app.campaign.store.db.table("party").update({"resources": pc["resources"]}, doc_ids=[1])


def _set_turn(app: Any, ref: str, side: str) -> None:
    enc_id, enc = app.campaign.rows("encounters")[0]
    acting = next(c for c in enc["combatants"] if c["side"] == side and c["ref"] == ref)
    app.campaign.store.db.table("encounters").update(
        {"current": acting["id"], "started": True}, doc_ids=[enc_id]
    )


async def test_who_rolls_starts_at_the_acting_pc_and_p_still_cycles(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    names = [str(doc["name"]) for _, doc in app.campaign.rows("party")]
    _set_turn(app, "2", "pc")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await pilot.pause()
        assert f"Who: {names[1]}" in setup_text(app)
        await pilot.press("p")
        assert f"Who: {names[2]}" in setup_text(app)
        await pilot.press("1", "2")  # the same turn: the GM's choice stays
        await pilot.pause()
        assert f"Who: {names[2]}" in setup_text(app)
        await pilot.press("1")
        _set_turn(app, "1", "npc")  # a goblin acts: the Cipher it attacks rolls against it
        await pilot.press("2")
        await pilot.pause()
        assert f"Who: {names[0]}" in setup_text(app)
        await pilot.press("c")
        await pilot.pause()
        assert rolls(app)[-1]["who"] == names[0]
    app.campaign.store.close()


async def test_enter_on_a_log_line_shows_it_whole(tmp_path: Path) -> None:
    from screens.log_line import LogLineScreen

    app = demo_app(tmp_path, "somnihil")
    # A log line wraps to the width: only a name past 60 characters is cut there.
    long_name = "Bartholomew Featherstonehaugh-Cholmondeley the Third of Little Snoring"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        app.campaign.store.db.table("party").update({"name": long_name}, doc_ids=[1])
        await pilot.press("p", "c")
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        line = str(log.get_option_at_index(log.option_count - 1).prompt)
        assert "…" in line and long_name not in line
        log.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LogLineScreen)
        assert long_name in str(app.screen.query_one("#log-line").render())
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TrayScreen)
    app.campaign.store.close()


async def test_the_log_filters_to_rolls_only_and_back(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "aspects")
    give_fate(app, 1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "c", "f", "c")
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        everything = len(app.campaign.rows("log"))
        assert log.option_count == everything == 3  # two rolls and the fate point's event
        await pilot.press("R")
        await pilot.pause()
        assert log.option_count == 2 and "rolls only" in str(log.border_title)
        await pilot.press("c")
        await pilot.pause()
        assert log.option_count == 3
        await pilot.press("R")
        await pilot.pause()
        assert log.option_count == len(app.campaign.rows("log")) == 4
    app.campaign.store.close()


# --- one CheckSpec: the pane, the roll and the command line agree --------------------------------


async def test_every_games_pane_is_its_checks_odds_for_every_who(tmp_path: Path) -> None:
    for game in BUILT_IN:
        app = demo_app(tmp_path / game, game)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("2")
            for _ in range(len(app.campaign.rows("party")) + 1):
                pane_is_the_checks(app)
                await pilot.press("p")
        app.campaign.store.close()


async def test_the_tray_and_tableside_odds_agree_on_an_opposed_dc_and_opposing_skill(
    tmp_path: Path, capsys: Any
) -> None:
    import json

    from app.cli import main

    cases = [
        ("resolution", {"dc": "9", "mod": "2"}, ["--dc", "9", "--mod", "2"]),
        ("aspects", {"skill": "3", "opposing": "2"}, ["--skill", "3", "--opposing", "2"]),
    ]
    for game, answers, flags in cases:
        app = demo_app(tmp_path / game, game)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("2")
            await type_form(app, pilot, answers)
            pane = {k: float(v) for k, v in pane_is_the_checks(app).items()}
        app.campaign.store.close()
        capsys.readouterr()
        assert main(["odds", "--game", game, *flags, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["bands"] == pytest.approx(pane)
