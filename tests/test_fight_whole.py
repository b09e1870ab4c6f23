"""Fights played whole by keys, as a GM plays them, where one step hands over to the next:
Nemron's reactions through a round, a refused Shadows defence, the AP column once a fight
ends, and the round that must not jump when the last row is down, in every turn order.
Pilot tests, keys only (the state a GM sets by hand is set by the command path)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from app.commands import combat as cmd
from app.queries import current_encounter
from app.tui import TablesideApp
from tests.apphelpers import demo_app, screen_text
from tests.test_exchange_keys import amount_line, current, health, turn_of
from tests.test_foes import row, saved, select, sheet_of

NARROW = (80, 24)


def shown(app: TablesideApp) -> str:
    """The whole screen as one line of words."""
    return " ".join(" ".join(screen_text(app)).split())


def row_text(app: TablesideApp, name: str) -> str:
    """The tracker table's row of that combatant, as the GM reads it."""
    return next(line for line in screen_text(app)[3:] if f" {name} " in line)


async def foe_attacks(pilot: Pilot[None], app: TablesideApp, answer: str) -> str:
    """A, the defender's answer typed, enter: the exchange line after it."""
    await pilot.press("A", *answer, "enter")
    await pilot.pause()
    return amount_line(app)


def energy(app: TablesideApp, name: str) -> int:
    return int(sheet_of(app, name)["resources"]["energy"]["current"])


# --------------------------------------------------------------------------- Nemron


async def test_nemron_bonus_typed_buys_the_bonus_reaction_and_keeps_the_free_one(
    tmp_path: Path,
) -> None:
    """NEM-06/NEM-10 by keys: a goblin's attack answered `bonus` costs 2 Energy and says so;
    the free reaction stays, so the next goblin's attack meets it; a third reaction that
    round is refused with its reason, the line kept open and nothing landed."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("i", "alt+r")
        await pilot.pause()
        await turn_of(pilot, app, "npc")
        attacker = current(app)["name"]
        # A PC whose own turn has passed: its reaction is the one until its next turn (NEM-06
        # reads "one reaction during their turn": it comes back as its turn begins).
        order = saved(app)["combatants"]
        acting = [c["name"] for c in order].index(attacker)
        target = next(c["name"] for c in order[:acting] if c["side"] == "pc")
        await select(pilot, app, target)
        await pilot.press("A")
        await pilot.pause()
        assert f"{attacker} → {target}" in amount_line(app)
        before = energy(app, target)
        await pilot.press(*"bonus", "enter")
        await pilot.pause()
        assert "▏" not in amount_line(app), amount_line(app)
        assert energy(app, target) == before - 2
        assert "-2 Energy for a bonus reaction" in shown(app)
        economy = row(app, target)["economy"]
        assert economy["bonus_reaction"] is True and economy["reaction"] is False
        # The next goblin's attack on the same PC: her free reaction answers it.
        await pilot.press("n")
        await turn_of(pilot, app, "npc")
        assert current(app)["name"] != attacker and saved(app)["round"] == 1
        await select(pilot, app, target)
        line = await foe_attacks(pilot, app, "3")
        assert "▏" not in line, line
        assert row(app, target)["economy"]["reaction"] is True
        # A third: no reaction left, no bonus to buy twice in the round.
        await pilot.press("n")
        await turn_of(pilot, app, "npc")
        assert saved(app)["round"] == 1
        await select(pilot, app, target)
        landed = (health(app), len(app.campaign.undo_stack))
        for answer, reason in [("3", "has used its reaction"), ("bonus", "bought its bonus")]:
            line = await foe_attacks(pilot, app, answer)
            assert "✗" in line and reason in line and f"{answer}▏" in line, line
            assert (health(app), len(app.campaign.undo_stack)) == landed
            await pilot.press("escape")
            await pilot.pause()
        assert energy(app, target) == before - 2
    app.campaign.store.close()


# --------------------------------------------------------------------------- Shadows


def _hand_on_the_line(app: TablesideApp) -> list[str]:
    """The defender's hand as the exchange line shows it to the GM."""
    said = amount_line(app).split("its hand: ", 1)[1].split(" · ", 1)[0]
    return [card.strip() for card in said.split(",")]


async def test_shadows_a_refused_defence_keeps_the_line_and_never_lands_undefended(
    tmp_path: Path,
) -> None:
    """SOH-13 by keys: a card the PC does not hold, then a held card with no AP left to play it,
    are each refused on the exchange line with what was typed and why; nothing is played or
    landed until the GM answers with what the PC may play."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        await turn_of(pilot, app, "npc")
        await pilot.press("A")
        await pilot.pause()
        target = amount_line(app).split(" → ", 1)[1].split(":", 1)[0]
        held = _hand_on_the_line(app)
        missing = next(c for c in ("7 of Cups", "2 of Coins", "3 of Wands") if c not in held)
        await pilot.press("escape")
        before = (health(app), len(app.campaign.undo_stack))
        line = await foe_attacks(pilot, app, missing)
        assert "✗" in line and "does not hold" in line and f"{missing}▏" in line, line
        assert (health(app), len(app.campaign.undo_stack)) == before
        await pilot.press("escape")
        # The PC has spent every AP this round: it plays no defence card.
        found = current_encounter(app.campaign)
        assert found is not None
        pc = row(app, target)
        app.campaign.apply(cmd.SpendAp(found[0], pc["id"], pc["ap"]["current"]))
        await pilot.pause()
        before = (health(app), len(app.campaign.undo_stack))
        line = await foe_attacks(pilot, app, held[0])
        assert "✗" in line and "has 0 AP left for defence cards" in line, line
        assert (health(app), len(app.campaign.undo_stack)) == before
        # Answered with what it may play (none), the exchange lands as one change.
        await pilot.press(*["backspace"] * len(held[0]), *"none", "enter")
        await pilot.pause()
        assert "▏" not in amount_line(app), amount_line(app)
        assert len(app.campaign.undo_stack) == before[1] + 1
    app.campaign.store.close()


async def test_shadows_the_fights_end_shows_full_ap_and_the_next_fight_too(
    tmp_path: Path,
) -> None:
    """SOH-10: AP are a round's. Once the fight ends the AP column shows every pool full, not
    what the last round left; the next fight starts with them full."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        await turn_of(pilot, app, "npc")
        foe = current(app)["name"]
        line = await foe_attacks(pilot, app, "none")
        assert "▏" not in line, line
        most = row(app, foe)["ap"]["max"]
        assert f"{most - 1}/{most} AP" in row_text(app, foe)
        await pilot.press("shift+alt+r")
        await pilot.pause()
        assert not saved(app)["started"]
        assert f"{most}/{most} AP" in row_text(app, foe)
        assert all(c["ap"]["current"] == c["ap"]["max"] for c in saved(app)["combatants"])
        await pilot.press("u")
        await pilot.pause()
        assert f"{most - 1}/{most} AP" in row_text(app, foe)  # undo takes the end back whole
        await pilot.press("ctrl+y", "alt+r")
        await pilot.pause()
        assert saved(app)["started"] and f"{most}/{most} AP" in row_text(app, foe)
    app.campaign.store.close()


async def test_shadows_the_demo_fight_reads_full_ap_before_it_starts(tmp_path: Path) -> None:
    """The demo's rows before alt+r read the AP the start gives them, not "0/0 AP"."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.pause()
        before = {c["name"]: row_text(app, c["name"]) for c in saved(app)["combatants"]}
        await pilot.press("alt+r")
        await pilot.pause()
        for name, text in before.items():
            most = row(app, name)["ap"]["max"]
            assert f"{most}/{most} AP" in text, text
    app.campaign.store.close()


async def test_shadows_a_new_encounter_s_rows_show_no_spent_ap_before_it_starts(
    tmp_path: Path,
) -> None:
    """SOH-10: the party and a quick-added foe joining a fight not yet started read their full
    AP ("7/7 AP"), not "0/7 AP" as if each had spent every one."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("ctrl+n", *"Second", "enter")
        await pilot.pause()
        await pilot.press("p", "q", "enter")  # the party, then one Foe of Quickness 6
        await pilot.pause()
        assert saved(app)["name"] == "Second" and not saved(app)["started"]
        assert "7/7 AP" in row_text(app, "Agnes Thorne")
        assert "8/8 AP" in row_text(app, "Foe")  # 5 + ceil(6 / 2)
        assert all(c["ap"]["current"] == c["ap"]["max"] > 0 for c in saved(app)["combatants"])
    app.campaign.store.close()


# --------------------------------------------------------------------------- the round


async def _down(pilot: Pilot[None], app: TablesideApp, name: str) -> None:
    """X on that row: defeated (out of the fight)."""
    await select(pilot, app, name)
    await pilot.press("X")
    await pilot.pause()
    assert row(app, name)["defeated"]


async def _rounds_by_n(pilot: Pilot[None], app: TablesideApp, presses: int) -> list[int]:
    """The round after each of ``presses`` n."""
    seen = []
    for _ in range(presses):
        await pilot.press("n")
        await pilot.pause()
        seen.append(int(saved(app)["round"]))
    return seen


async def test_ap_rounds_the_last_row_down_the_round_turns_once(tmp_path: Path) -> None:
    """SOH-10 by keys: the last row is down; n passes each of the six others once, and only
    the sixth opens round 2, with everyone's AP back; the last actor of round 2 falling while
    it acts opens round 3, once."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        last = saved(app)["combatants"][-1]["name"]
        await _down(pilot, app, last)
        assert await _rounds_by_n(pilot, app, 6) == [1, 1, 1, 1, 1, 2]
        assert current(app)["name"] != last
        assert f"Round 2 · {current(app)['name']}'s turn" in screen_text(app)[1]
        assert await _rounds_by_n(pilot, app, 5) == [2] * 5
        acting = current(app)["name"]
        await _down(pilot, app, acting)
        assert saved(app)["round"] == 3 and current(app)["name"] not in (acting, last)
    app.campaign.store.close()


async def test_chosen_next_the_last_row_down_the_round_turns_once(tmp_path: Path) -> None:
    """The aspects game's chosen-next by keys: with the last row down, n hands the turn to each
    one still up once; the next n opens round 2 (no turn for the fallen, no round skipped);
    the last of round 2 falling as it acts leaves the GM to choose, and n opens round 3."""
    app = demo_app(tmp_path, "aspects")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("alt+r")
        await pilot.pause()
        order = [c["name"] for c in saved(app)["combatants"]]
        await _down(pilot, app, order[-1])
        up = len(order) - 1
        assert await _rounds_by_n(pilot, app, up + 1) == [1] * up + [2]
        assert current(app)["name"] == order[0]
        assert await _rounds_by_n(pilot, app, up - 1) == [2] * (up - 1)
        await _down(pilot, app, current(app)["name"])
        assert saved(app)["round"] == 2 and saved(app)["current"] is None
        assert await _rounds_by_n(pilot, app, 1) == [3]
        assert current(app)["name"] == order[0]
    app.campaign.store.close()


async def test_initiative_the_acting_last_row_falling_turns_the_round_once(
    tmp_path: Path,
) -> None:
    """Nemron's initiative by keys: the last row falls as it acts; round 2 opens with the
    first row, once; n from there walks round 2 without the fallen row."""
    app = demo_app(tmp_path, "nemron")
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("i", "alt+r")
        await pilot.pause()
        order = [c["name"] for c in saved(app)["combatants"]]
        assert await _rounds_by_n(pilot, app, len(order) - 1) == [1] * (len(order) - 1)
        assert current(app)["name"] == order[-1]
        await _down(pilot, app, order[-1])
        assert saved(app)["round"] == 2 and current(app)["name"] == order[0]
        assert await _rounds_by_n(pilot, app, len(order) - 1) == [2] * (len(order) - 2) + [3]
    app.campaign.store.close()
