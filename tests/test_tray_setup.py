"""The tray's setup: what belongs to one roll resets, what belongs to a roller is theirs.

Advantage is "for their next action" (Somnihil); a boon, a weapon's rank, a modifier are one
roll's; a skill (and Shadows' skill + attribute, a damage code) is the character's, kept for
them when another rolls and given back when they roll again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList

from screens.form import FormScreen
from tests.apphelpers import SIZE, demo_app, last_roll, screen_text
from widgets.roll_log import RollLog


def setup_text(app: Any) -> str:
    return str(app.screen.query_one("#check-setup").render())


async def test_somnihil_advantage_is_one_rolls_not_the_next_rollers(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "p", "a")  # Orrin has advantage
        await pilot.pause()
        assert "Who: Orrin Hale" in setup_text(app)
        assert "Edge: advantage" in setup_text(app)
        await pilot.press("p")  # Tamsin rolls next: not with Orrin's advantage
        await pilot.pause()
        assert "Edge: none" in setup_text(app)
        await pilot.press("p", "p")  # around to the GM
        await pilot.pause()
        assert "Who: GM" in setup_text(app)
        assert "Edge: none" in setup_text(app)
        await pilot.press("a", "c")  # the GM's roll with advantage spends it
        await pilot.pause()
        assert last_roll(app)["expression"].startswith("2d20")
        assert "Edge: none" in setup_text(app)
        await pilot.press("c")
        await pilot.pause()
        assert last_roll(app)["expression"] == "1d20"
    app.campaign.store.close()


async def test_nemron_boon_weapon_and_attribute_reset_the_skill_is_each_rollers(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "p", "p")  # Tomas Ert
        await pilot.pause()
        await pilot.press("k", "k", "b", "w", "w", "a")
        await pilot.pause()
        text = setup_text(app)
        assert "Who: Tomas Ert" in text and "Skill: Medicine" in text
        assert "Boon or penalty: no boon" not in text and "Weapon: none" not in text
        await pilot.press("p")  # Nadia lacks Medicine: her own (none) and a fresh roll
        await pilot.pause()
        text = setup_text(app)
        assert "Who: Nadia Fel" in text
        assert "Skill: none" in text and "Medicine" not in text
        assert "Boon or penalty: no boon" in text and "Weapon: none" in text
        assert "Attribute: Power" in text
        await pilot.press("equals_sign")  # the typed form agrees with what is shown
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert app.screen.query_one("#field-skill", Input).value == ""
        await pilot.press("escape")
        await pilot.press("p", "p", "p", "p")  # around to Tomas: his skill is still his
        await pilot.pause()
        text = setup_text(app)
        assert "Who: Tomas Ert" in text and "Skill: Medicine" in text
        assert "Boon or penalty: no boon" in text and "Weapon: none" in text
        await pilot.press("b", "c")  # the boon was for that roll; the skill stays
        await pilot.pause()
        text = setup_text(app)
        assert "Boon or penalty: no boon" in text and "Skill: Medicine" in text
    app.campaign.store.close()


async def test_resolution_die_modifier_and_roll_type_reset(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "t", "right_square_bracket", "plus", "k")
        await pilot.pause()
        text = setup_text(app)
        assert "Dice: d20" in text and "Modifier: +1" in text and "Roll: Grip" in text
        await pilot.press("p")
        await pilot.pause()
        text = setup_text(app)
        assert "Dice: 2d6" in text and "Modifier: +0" in text and "Roll: check vs DC" in text
        assert "DC: 10" in text  # the DC is the GM's, for whoever rolls against it
        await pilot.press("t", "right_square_bracket", "c")
        await pilot.pause()
        assert last_roll(app)["expression"].startswith("1d20+1")
        text = setup_text(app)
        assert "Dice: 2d6" in text and "Modifier: +0" in text
    app.campaign.store.close()


async def test_aspects_picks_the_rollers_skill_and_the_bonus_is_one_rolls(
    tmp_path: Path,
) -> None:
    app = demo_app(tmp_path, "aspects")
    rowan = app.campaign.doc("party", 1)
    assert rowan is not None
    rowan["attributes"]["fight"] = 3
    app.campaign.store.put_doc("party", 1, rowan)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p")
        await pilot.press(*["K"] * 4)  # Athletic, Physique, Will, Fight
        await pilot.press("right_square_bracket")
        await pilot.pause()
        text = setup_text(app)
        assert "Skill: Fight" in text and "2d6+4 (Fight +3)" in text
        await pilot.press("p")  # Juno: her own skill (none yet) and no bonus
        await pilot.pause()
        text = setup_text(app)
        assert "Skill: none" in text and "Bonus: +0" in text and "\n2d6+0\n" in text + "\n"
        await pilot.press("p", "p", "p", "p")  # back to Rowan: Fight, the bonus gone
        await pilot.pause()
        assert "2d6+3 (Fight +3)" in setup_text(app)
        await pilot.press("c")
        await pilot.pause()
        assert last_roll(app)["aspects_roll"]["skill"] == 3
    app.campaign.store.close()


# --- the result on screen ------------------------------------------------------------------


SETUPS = {
    "somnihil": ["p", "a"],
    "resolution": ["p", "t", "right_square_bracket", "k"],
    "nemron": ["p", "k", "w", "b", "z", "a"],
    "shadows": ["p", "h", "s", "escape"],
    "aspects": ["p", "K", "right_square_bracket", "right_curly_bracket"],
}


def _events(app: Any, count: int) -> None:
    """The log as a session's start leaves it: events, no roll yet."""
    store = app.campaign.store
    for i in range(count):
        store.db.table("log").insert(
            {"at": f"2026-01-01T08:{i:02d}:00+00:00", "kind": "event", "text": f"event {i}"}
        )
    store.commit()


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
@pytest.mark.parametrize("game", sorted(SETUPS))
async def test_a_rolls_result_is_on_screen_after_any_setup(
    tmp_path: Path, game: str, size: tuple[int, int]
) -> None:
    """The first roll of a session and the next: the log shows its newest line and the
    ``Last:`` line is on screen, whatever the setup took."""
    app = demo_app(tmp_path, game)
    _events(app, 30)
    async with app.run_test(size=size) as pilot:
        await pilot.press("2", *SETUPS[game])
        await pilot.pause()
        for _ in range(2):
            await pilot.press("c")
            await pilot.pause()
            await pilot.pause()
            log = app.screen.query_one(RollLog)
            assert log.max_scroll_y > 0  # the log is longer than its view
            assert log.scroll_y == log.max_scroll_y, "the newest log line is out of view"
            entry = last_roll(app)
            shown = "\n".join(screen_text(app))
            assert "Last: " in shown
            assert f"{entry['who']}" in shown.split("Last: ", 1)[1]
    app.campaign.store.close()


async def test_a_hand_longer_than_its_box_says_how_many_it_shows(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2", "p", "h", "s")
        await pilot.pause()
        await pilot.pause()
        held = len(app.screen.query_one("#hand-cards", OptionList).options)
        assert held > 2
        shown = "\n".join(screen_text(app))
        assert f"2 of {held}" in shown
    app.campaign.store.close()


async def test_shadows_j_and_k_move_along_the_hand_and_draw_nothing(tmp_path: Path) -> None:
    """``2 s j j j j j`` burnt five cards; now it moves, and ``m`` draws the damage modifier."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "p", "h", "s")
        await pilot.pause()
        before = len(app.campaign.log_entries())
        hand = app.screen.query_one("#hand-cards", OptionList)
        assert hand.has_focus and hand.highlighted == 0
        await pilot.press("j", "j")
        await pilot.pause()
        assert hand.highlighted == 2
        await pilot.press("k")
        await pilot.pause()
        assert hand.highlighted == 1
        assert len(app.campaign.log_entries()) == before  # nothing drawn, nothing burnt
        await pilot.press("m")
        await pilot.pause()
        assert last_roll(app)["expression"].startswith("damage modifier")
    app.campaign.store.close()
