"""Whole fights played by keys where the exchange's steps meet: the target named on its line,
a foe against a foe, a PC's attack in a game with none of its own, and the statblock keys
with a PC selected. Pilot tests, keys only."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.tui import TablesideApp
from tests.apphelpers import demo_app
from tests.test_exchange_keys import amount_line, health, turn_of

NARROW = (80, 24)


def toasts(app: TablesideApp) -> list[str]:
    return [str(n.message) for n in app.notices]


async def test_an_ambiguous_target_name_is_said_and_nothing_is_rolled(tmp_path: Path) -> None:
    """Resolution takes the target by name on the exchange's line: `go` begins three goblins'
    names, so the line lists them and enter rolls at none (not the target it had before);
    typed further, the name chooses one and enter lands there."""
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await turn_of(pilot, app, "pc")
        await pilot.press("A")
        await pilot.pause()
        before, version = health(app), app.campaign.version
        await pilot.press("g", "o")
        await pilot.pause()
        line = amount_line(app)
        assert "'go' is ambiguous: Goblin 1, Goblin 2, Goblin 3" in line, line
        assert "hits" not in line, line
        await pilot.press("enter")
        await pilot.pause()
        assert app.campaign.version == version
        assert health(app) == before
        assert "ambiguous" in amount_line(app)
        await pilot.press(*"blin 3")
        await pilot.pause()
        line = amount_line(app)
        assert "→ Goblin 3" in line and "ambiguous" not in line, line
        await pilot.press("enter")
        await pilot.pause()
        assert app.campaign.version == version + 1
        assert "▏" not in amount_line(app)
    app.campaign.store.close()


async def test_a_name_that_names_no_one_is_said_after_tab(tmp_path: Path) -> None:
    """Somnihil asks the Cipher's d20 first; after tab the keys name the target. A name no
    one has is said, and enter does not roll at the target named before."""
    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await turn_of(pilot, app, "pc")
        await pilot.press("A", "tab", "z", "q")
        await pilot.pause()
        version = app.campaign.version
        assert "No one is named 'zq'" in amount_line(app), amount_line(app)
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert app.campaign.version == version
        assert "No one is named 'zq'" in amount_line(app), amount_line(app)
        # Escape gives the name up: the target named before stands, and enter rolls at it.
        await pilot.press("escape")
        await pilot.pause()
        assert "zq" not in amount_line(app) and "→ Goblin" in amount_line(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.campaign.version == version + 1
    app.campaign.store.close()


async def test_a_somnihil_foe_attacking_a_foe_asks_no_ciphers_roll(tmp_path: Path) -> None:
    """SOM: only a Cipher's player rolls; a goblin against a goblin is the statblock's d20
    against AC, so `A` asks no Cipher's d20 and enter rolls it. A name typed back to a
    Cipher goes on naming the target, and the line asks the Cipher's opposing roll again."""
    from tests.test_exchange_keys import current
    from tests.test_fight_by_keys import saved

    app = demo_app(tmp_path, "somnihil")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await turn_of(pilot, app, "npc")
        attacker = current(app)["name"]
        other = next(
            c["name"] for c in saved(app)["combatants"]
            if c["side"] == "npc" and c["name"] != attacker
        )  # fmt: skip
        await pilot.press("A", "tab", *other, "enter")
        await pilot.pause()
        line = amount_line(app)
        assert f"{attacker} → {other}" in line, line
        assert "Cipher" not in line and "Defence" not in line, line
        assert "vs AC" in line, line
        await pilot.press(*"vesna", "enter")
        await pilot.pause()
        line = amount_line(app)
        assert line.startswith("Defence (the Cipher's d20 as rolled"), line
        assert f"{attacker} → Vesna Kade" in line, line
        await pilot.press("tab", *other, "enter")
        await pilot.pause()
        version = app.campaign.version
        await pilot.press("enter")
        await pilot.pause()
        assert "▏" not in amount_line(app), amount_line(app)
        assert app.campaign.version == version + 1
        log = [e for e in app.campaign.log_entries() if e.get("kind") == "roll"]
        assert log[-1]["who"] == attacker and "vs AC" in log[-1]["expression"], log[-1]
    app.campaign.store.close()


@pytest.mark.parametrize(
    ("key", "said"),
    [
        ("M", "Morale is a foe's statblock roll: Mara Quell is a PC"),
        ("V", "Save is a foe's statblock roll: Mara Quell is a PC"),
        ("K", "Skill is a foe's statblock roll: Mara Quell is a PC"),
        ("E", "Effort is a foe's statblock roll: Mara Quell is a PC"),
        ("B", "Brawl, Wit or Will is a foe's statblock choice: Mara Quell is a PC"),
        ("F", "Full Effort is a foe's statblock refresh: Mara Quell is a PC"),
    ],
)
async def test_a_statblock_key_with_a_pc_selected_says_why(
    tmp_path: Path, key: str, said: str
) -> None:
    """The statblock's keys roll a foe's statblock: pressed with a PC selected they did
    nothing and said nothing. One message says why; nothing is rolled or saved."""
    from tests.apphelpers import select_named

    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("1", "alt+r")
        await pilot.pause()
        await select_named(pilot, "Mara Quell")
        version, rolls = app.campaign.version, len(app.campaign.log_entries())
        await pilot.press(key)
        await pilot.pause()
        assert toasts(app).count(said) == 1, toasts(app)
        assert (app.campaign.version, len(app.campaign.log_entries())) == (version, rolls)
        await select_named(pilot, "Goblin 1")
        await pilot.press("M")
        await pilot.pause()
        assert app.campaign.version == version + 1  # a foe's statblock still rolls
    app.campaign.store.close()
