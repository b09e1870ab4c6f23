"""Whole fights played by keys, as a GM would, where the merged parts meet: the time keys
and the party sheet agree about a rest mid-fight, and what they ask is read whole at 80x24.
Pilot tests, keys only."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.tui import TablesideApp
from screens.party_prompt import PartyConfirm
from tests.apphelpers import demo_app, running_encounter, screen_text

NARROW = (80, 24)


def toasts(app: TablesideApp) -> list[str]:
    return [str(n.message) for n in app.notices]


@pytest.mark.parametrize("game", ["resolution", "somnihil"])
async def test_percent_mid_fight_refuses_as_the_party_sheet_does(tmp_path: Path, game: str) -> None:
    """A game whose rest needs peace refuses `%` in a fight with its reason, as the party
    sheet's `R` does: no question whose yes is refused anyway."""
    app = demo_app(tmp_path, game)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await pilot.pause()
        version = app.campaign.version
        await pilot.press("%")
        await pilot.pause()
        assert not isinstance(app.screen, PartyConfirm)
        assert app.campaign.version == version
        assert any("No rest while the fight" in m for m in toasts(app))
        assert running_encounter(app)["started"]
    app.campaign.store.close()


async def test_a_rest_mid_fight_question_is_read_whole_at_80x24(tmp_path: Path) -> None:
    """The aspects game asks before a rest mid-fight: its question fits, not cut mid-word."""
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r", "%")
        await pilot.pause()
        assert isinstance(app.screen, PartyConfirm)
        shown = " ".join(" ".join(line.replace("█", " ").split()) for line in screen_text(app))
        assert "Rest the whole party anyway?" in shown
    app.campaign.store.close()


async def test_a_ciphers_own_attack_asks_for_its_attack_roll_not_a_defence(
    tmp_path: Path,
) -> None:
    """Somnihil: the Cipher rolls whether it attacks or opposes (SOM-01). On its own turn `A`
    asks for the d20 of its attack; on a foe's turn, for its opposing roll."""
    from tests.test_exchange_keys import amount_line, turn_of

    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r", "A")
        await pilot.pause()
        line = amount_line(app)
        assert line.startswith("Attack (the Cipher's d20 as rolled"), line
        assert "Defence" not in line
        await pilot.press("escape")
        await turn_of(pilot, app, "npc")
        await pilot.press("A")
        await pilot.pause()
        assert amount_line(app).startswith("Defence (the Cipher's d20 as rolled")
    app.campaign.store.close()


@pytest.mark.parametrize(
    ("game", "who"), [("somnihil", "Vesna Kade"), ("resolution", "GM")], ids=["somnihil", "gm"]
)
async def test_on_a_foes_turn_the_tray_starts_at_whoever_rolls_against_it(
    tmp_path: Path, game: str, who: str
) -> None:
    """Somnihil's players roll every die: a goblin's attack is the Cipher's opposing roll, so
    the tray starts at the Cipher it attacks. Where the GM rolls for a foe, at the GM."""
    from tests.test_exchange_keys import turn_of

    app = demo_app(tmp_path, game)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await turn_of(pilot, app, "npc")
        await pilot.press("2")
        await pilot.pause()
        setup = " ".join(" ".join(screen_text(app)[:4]).split())
        assert f"Who: {who} " in setup, setup
    app.campaign.store.close()


@pytest.mark.parametrize("answer", ["block + fate", "block +fate", "block fate"])
async def test_the_aspects_defence_takes_fate_as_its_help_writes_it(
    tmp_path: Path, answer: str
) -> None:
    """The defence's help reads `block · will · + fate`: a block with a fate point typed as
    the help shows it spends the point on the reroll (ASP-03), not a refusal."""
    from tests.test_exchange_keys import amount_line, turn_of
    from tests.test_foes import sheet_of

    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await turn_of(pilot, app, "npc")
        await pilot.press("A")
        await pilot.pause()
        target = amount_line(app).split(" → ", 1)[1].split(":", 1)[0]
        before = sheet_of(app, target)["resources"]["fate_points"]["current"]
        assert before >= 1
        await pilot.press(*answer, "enter")
        await pilot.pause()
        assert "▏" not in amount_line(app), amount_line(app)
        assert sheet_of(app, target)["resources"]["fate_points"]["current"] == before - 1
    app.campaign.store.close()


@pytest.mark.parametrize("game", ["aspects", "resolution", "somnihil"])
async def test_t_after_an_exchange_lands_none_of_its_rolls_again(tmp_path: Path, game: str) -> None:
    """An exchange lands its own damage. `T` right after it lands nothing more: not the
    defence total (aspects: `2d6+2 defence 10`) as damage, not the attack twice."""
    from tests.test_exchange_keys import amount_line, health, turn_of

    app = demo_app(tmp_path, game)
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await turn_of(pilot, app, "npc")
        await pilot.press("A", "enter")
        await pilot.pause()
        assert "▏" not in amount_line(app), amount_line(app)
        after = health(app)
        version = app.campaign.version
        await pilot.press("T")
        await pilot.pause()
        assert health(app) == after
        assert app.campaign.version == version
        assert any("landed with" in m for m in toasts(app)), toasts(app)
    app.campaign.store.close()


def _set_ap(app: TablesideApp, name: str, current: int) -> None:
    store = app.campaign.store
    for doc_id, doc in app.campaign.rows("party"):
        if doc["name"] == name:
            doc["resources"]["ap"]["current"] = current
            store.db.table("party").update({"resources": doc["resources"]}, doc_ids=[doc_id])
    store.commit()


@pytest.mark.parametrize("side", ["pc", "npc"], ids=["attacking", "opposing"])
async def test_a_ciphers_natural_1_in_an_exchange_recovers_an_ap_as_in_the_tray(
    tmp_path: Path, side: str
) -> None:
    """SOM-04: a Catastrophe's natural 1 gives the Cipher 1 AP back. The tray's check did;
    the same d20 typed into the exchange (its attack or its opposing roll) did not."""
    from tests.test_exchange_keys import amount_line, current, turn_of
    from tests.test_foes import sheet_of

    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await turn_of(pilot, app, side)
        await pilot.press("A")
        await pilot.pause()
        if side == "pc":
            cipher = str(current(app)["name"])
        else:
            cipher = amount_line(app).split(" → ", 1)[1].split(":", 1)[0]
        _set_ap(app, cipher, 5)
        await pilot.press("1", "enter")
        await pilot.pause()
        assert "▏" not in amount_line(app), amount_line(app)
        assert sheet_of(app, cipher)["resources"]["ap"]["current"] == 6
        said = " ".join(str(e.get("text", "")) for e in app.campaign.log_entries()[-3:])
        assert "natural 1" in said
    app.campaign.store.close()


async def test_a_choice_whose_label_says_what_blank_means_is_not_told_blank_is_none(
    tmp_path: Path,
) -> None:
    """Resolution's remembered attack: blank attribute is "the better of STR and DEX" (the
    odds count it), and the line under the form said "(blank: none)"."""
    from screens.form import FormScreen

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r", "A", "ctrl+e")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        shown = " ".join(" ".join(screen_text(app)).split())
        assert "the better of STR and" in shown
        assert "(blank: none)" not in shown
    app.campaign.store.close()


@pytest.mark.parametrize("size", [NARROW, (120, 36)], ids=["80x24", "120x36"])
async def test_the_quick_rolls_hint_is_read_whole(tmp_path: Path, size: tuple[int, int]) -> None:
    """`d` mid-fight: the quick roll's hint ended "escape clo", cut at any size."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=size) as pilot:
        await pilot.press("1", "alt+r", "d")
        await pilot.pause()
        shown = " ".join(" ".join(line.replace("█", " ").split()) for line in screen_text(app))
        assert "enter rolls, escape" in shown and "closes)" in shown
    app.campaign.store.close()
