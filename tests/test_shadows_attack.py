"""Issue 13, Shadows: a card from the acting character's hand played as an attack from the
tracker (SOH-06 fumble value, SOH-10 AP, SOH-11 focus, SOH-12 hands, SOH-16 critical suit),
and a refused game form that stays open (every game's forms)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from app.commands.combat import StartEncounter
from app.commands.party import ChangePC
from app.queries import current_encounter
from app.state import Campaign, CommandError
from rulesets.decks import DeckState, load_deck, save_deck
from rulesets.shadows import cards
from rulesets.shadows.fight import PlayAttackCard
from rulesets.shadows.tarot import MINOR, Card, deck_from_dict, full_deck, minor_card
from rulesets.table import Tx
from screens.combat import CombatScreen
from screens.form import FormScreen
from tests.apphelpers import SIZE, demo_app, open_demo


@dataclass(frozen=True)
class StackMinor:
    """Test set-up: the Minor Arcana with chosen hands and the chosen cards on top."""

    hands: tuple[tuple[str, tuple[str, ...]], ...]
    top: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return "Stack the Minor Arcana"

    def run(self, tx: Tx) -> list[str]:
        deck_id, _ = load_deck(tx, "minor")
        placed = {
            holder: [minor_card(*name.split()) for name in names] for holder, names in self.hands
        }
        top = [minor_card(*name.split()) for name in self.top]
        used = {c.key for c in top} | {c.key for cs in placed.values() for c in cs}
        rest = [c for c in full_deck("minor") if c.key not in used]
        save_deck(tx, deck_id, DeckState(MINOR, top + rest, [], placed))
        return []


def _minor(campaign: Campaign) -> DeckState[Card]:
    doc = next(d for _, d in campaign.rows("decks") if d.get("kind") == "minor")
    return deck_from_dict(doc)


def _encounter(campaign: Campaign) -> tuple[int, dict[str, Any]]:
    found = current_encounter(campaign)
    assert found is not None
    return found


def _by_name(campaign: Campaign, name: str) -> dict[str, Any]:
    return next(c for c in _encounter(campaign)[1]["combatants"] if c["name"] == name)


def _started(tmp_path: Path) -> tuple[Campaign, int]:
    campaign = open_demo(tmp_path, "shadows")
    enc_id, _ = _encounter(campaign)
    campaign.apply(StartEncounter(enc_id))
    return campaign, enc_id


def test_soh06_an_ace_from_the_hand_checks_the_weapons_fumble_value(tmp_path: Path) -> None:
    campaign, enc_id = _started(tmp_path)
    campaign.apply(StackMinor((("1", ("Ace Swords", "9 Cups")),), top=("2 Cups",)))
    agnes, goblin = _by_name(campaign, "Agnes Thorne"), _by_name(campaign, "Goblin 1")
    ap = agnes["ap"]
    lines = campaign.apply(
        PlayAttackCard(enc_id, agnes["id"], goblin["id"], "Ace of Swords", 1, {"fumble": "3"})
    )
    assert "Ace: fumble check 2 of Cups vs 3: FUMBLE" in lines
    minor = _minor(campaign)
    assert [c.name for c in minor.hand("1")] == ["9 of Cups"]
    assert "Ace of Swords" in [c.name for c in minor.discard]
    assert _by_name(campaign, "Agnes Thorne")["ap"]["current"] == ap["current"] - 1
    assert _by_name(campaign, "Goblin 1")["stats"] == goblin["stats"]  # a fumble deals nothing
    sheet = campaign.doc("party", 1)
    assert sheet is not None and sheet["weapon"] == {"fumble": 3, "critical": "", "weapon": ""}
    campaign.store.close()


def test_soh16_a_face_card_chain_in_the_weapons_suit_is_a_major_critical(tmp_path: Path) -> None:
    campaign, enc_id = _started(tmp_path)
    campaign.apply(
        StackMinor((("1", ("King Swords",)),), top=("Queen Wands", "Knight Swords", "5 Cups"))
    )
    agnes, goblin = _by_name(campaign, "Agnes Thorne"), _by_name(campaign, "Goblin 1")
    answers = {"fumble": 2, "critical": "Swords", "skill": 3}
    lines = campaign.apply(
        PlayAttackCard(enc_id, agnes["id"], goblin["id"], "King Swords", 2, answers)
    )
    chain = next(line for line in lines if "critical:" in line)
    assert chain.startswith("major critical: Queen of Wands, Knight of Swords, 5 of Cups")
    assert chain.endswith("Major Critical Knight of Swords")
    assert _by_name(campaign, "Agnes Thorne")["ap"]["current"] == agnes["ap"]["current"] - 2
    assert _by_name(campaign, "Goblin 1")["stats"]["sheet"]["resources"]["health"]["current"] == 0
    campaign.store.close()


def test_soh11_an_attack_off_the_attackers_focus_is_minus_3(tmp_path: Path) -> None:
    campaign, enc_id = _started(tmp_path)
    campaign.apply(cards.SetFocus(1, "mental"))
    campaign.apply(StackMinor((("1", ("9 Swords",)),)))
    agnes, goblin = _by_name(campaign, "Agnes Thorne"), _by_name(campaign, "Goblin 1")
    lines = campaign.apply(
        PlayAttackCard(enc_id, agnes["id"], goblin["id"], "9 Swords", 1, {"fumble": 1})
    )
    assert "Agnes Thorne's focus is mental: -3 to a physical attack" in lines
    assert any(line.startswith("attack 9 of Swords: 9 + 0 -3 = 6") for line in lines)
    campaign.store.close()


def test_soh06_an_ace_typed_into_the_damage_form_needs_the_fumble_value(tmp_path: Path) -> None:
    from app.commands.combat import Damage

    campaign, enc_id = _started(tmp_path)
    goblin = _by_name(campaign, "Goblin 1")
    with pytest.raises(CommandError, match=r"An Ace checks the weapon's fumble value: type it"):
        campaign.apply(Damage(enc_id, goblin["id"], "", {"card": "Ace Swords", "fumble": "0"}))
    campaign.store.close()


def test_a_card_not_in_the_hand_or_a_foes_attack_is_refused(tmp_path: Path) -> None:
    campaign, enc_id = _started(tmp_path)
    campaign.apply(StackMinor((("1", ("9 Swords", "Queen Cups")),)))
    agnes, goblin = _by_name(campaign, "Agnes Thorne"), _by_name(campaign, "Goblin 1")
    before = campaign.version
    with pytest.raises(
        CommandError,
        match=r"Agnes Thorne does not hold 2 of Coins; the hand is 9 of Swords, Queen of Cups",
    ):
        campaign.apply(
            PlayAttackCard(enc_id, agnes["id"], goblin["id"], "2 Coins", 1, {"fumble": 2})
        )
    with pytest.raises(CommandError, match="fumble value is a card value from 1 to 14"):
        campaign.apply(PlayAttackCard(enc_id, agnes["id"], goblin["id"], "9 Swords", 1, {}))
    # A foe plays from its own hand too (issue 21): not one it was never dealt.
    with pytest.raises(CommandError, match="Goblin 1 does not hold 9 of Swords; the hand is no c"):
        campaign.apply(
            PlayAttackCard(enc_id, goblin["id"], agnes["id"], "9 Swords", 1, {"fumble": 2})
        )
    with pytest.raises(CommandError, match="has only 7 AP left"):
        campaign.apply(
            PlayAttackCard(enc_id, agnes["id"], goblin["id"], "9 Swords", 9, {"fumble": 2})
        )
    assert campaign.version == before and len(_minor(campaign).hand("1")) == 2
    campaign.store.close()


async def _press(pilot: Any, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


async def test_play_a_card_from_the_hand_by_keys(tmp_path: Path) -> None:
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        await _press(pilot, "f")  # Agnes (selected) states a mental focus for the round
        assert app.campaign.doc("party", 1)["focus"] == "mental"  # type: ignore[index]
        detail = str(screen.query_one("#combat-amount", Static).render())
        assert "Focus: mental" in detail  # shown under the tracker for the selected PC
        await _press(pilot, "f", "f")  # … and back to physical
        await _press(pilot, "2", "h", "1")  # hands dealt in the tray, back to the tracker
        hand = [c.label for c in _minor(app.campaign).hand("1")]
        assert len(hand) == 5  # Body 3 + ½ Physical 4
        await _press(pilot, "alt+r")
        agnes = _by_name(app.campaign, "Agnes Thorne")["id"]
        row = [c["id"] for c in _encounter(app.campaign)[1]["combatants"]].index(agnes)
        while screen.table.cursor_row != row:
            await _press(pilot, "j" if screen.table.cursor_row < row else "k")
        assert screen.table.selected_id == agnes
        ap = _by_name(app.campaign, "Agnes Thorne")["ap"]
        await _press(pilot, "P")
        form = app.screen
        assert isinstance(form, FormScreen)
        assert form.title_text.endswith("hand: " + ", ".join(hand))
        card_field = form.query_one("#field-card", Input)
        assert card_field.value == hand[0]  # the hand's first card, the others suggested
        assert next(f for f in form.fields if f.key == "card").suggestions == tuple(hand)
        # A card she does not hold: the form stays open, what was typed kept, the reason shown.
        missing = next(c.label for c in full_deck("minor") if c.label not in hand)
        await _press(pilot, *missing, "tab", "tab", "tab", "2", "enter")
        assert app.screen is form
        error = str(form.query_one("#form-error", Static).render())
        assert f"Agnes Thorne does not hold {missing}" in error
        assert form.query_one("#field-card", Input).value == missing
        assert form.query_one("#field-fumble", Input).value == "2"
        # Typed as the GM says it: rank and suit.
        rank, suit = hand[1].split()[0], hand[1].split()[-1]  # "Queen of Cups": "Queen Cups"
        card_field.focus()
        await _press(pilot, *f"{rank} {suit}", "enter")
        assert not isinstance(app.screen, FormScreen)
        minor = _minor(app.campaign)
        assert hand[1] not in [c.label for c in minor.hand("1")]
        assert hand[1] in [c.label for c in minor.discard]
        assert _by_name(app.campaign, "Agnes Thorne")["ap"]["current"] == ap["current"] - 1
        assert app.campaign.doc("party", 1)["weapon"]["fumble"] == 2
        entry = app.campaign.log_entries()[-1]
        assert f"plays {hand[1]} against Goblin 1" in str(entry)
        # The next attack starts from the weapon she last used (the turn moved on with her AP:
        # the GM selects her again).
        row = [c["id"] for c in _encounter(app.campaign)[1]["combatants"]].index(agnes)
        while screen.table.cursor_row != row:
            await _press(pilot, "j" if screen.table.cursor_row < row else "k")
        await _press(pilot, "P")
        assert isinstance(app.screen, FormScreen)
        assert app.screen.query_one("#field-fumble", Input).value == "2"
        await _press(pilot, "escape")
    app.campaign.store.close()


async def test_a_refused_form_of_another_game_stays_open(tmp_path: Path) -> None:
    campaign = open_demo(tmp_path, "resolution")
    campaign.apply(ChangePC(1, "status", ("lost",)))
    campaign.store.close()
    app = demo_app(tmp_path, "resolution")
    async with app.run_test(size=SIZE) as pilot:
        await _press(pilot, "2", "p", "l")
        form = app.screen
        assert isinstance(form, FormScreen)
        await _press(pilot, *"Paranoia", "enter")
        assert app.screen is form
        assert "is lost; there is no Grip left to recover" in str(
            form.query_one("#form-error", Static).render()
        )
        assert form.query_one("#field-delirium", Input).value == "Paranoia"
        await _press(pilot, "escape")
        assert not isinstance(app.screen, FormScreen)
    app.campaign.store.close()


async def test_the_fight_start_deals_the_combat_hands_so_a_foe_attacks_at_once(
    tmp_path: Path,
) -> None:
    """SOH-11 at alt+r: every PC and foe in the fight is dealt its hand by its focus. Before,
    a foe's A was refused ("no cards in hand") until the GM dealt them with h in the tray."""
    app = demo_app(tmp_path, "shadows")
    async with app.run_test(size=SIZE) as pilot:
        await _press(pilot, "alt+r")
        enc_id, enc = _encounter(app.campaign)
        held = _minor(app.campaign).hand_counts()
        assert len(held) == len(enc["combatants"]) and all(held.values())
        log = " ".join(str(e.get("text", "")) for e in app.campaign.log_entries())
        assert "Dealt: Agnes Thorne 5 (physical)" in log
        acting = next(c for c in enc["combatants"] if c["id"] == enc["current"])
        assert acting["side"] == "npc"
        played = sum(_minor(app.campaign).hand_counts().values())
        await _press(pilot, "A", "enter")  # the foe plays a card from its hand at once
        assert sum(_minor(app.campaign).hand_counts().values()) < played
        await _press(pilot, "u", "u")  # the attack, then the start and its deal
        decks = [d for _, d in app.campaign.rows("decks") if d.get("kind") == "minor"]
        assert decks == []  # the deck the start shuffled and dealt is gone again
        assert not app.campaign.doc("encounters", enc_id)["started"]  # type: ignore[index]


def test_hands_dealt_before_the_start_are_kept(tmp_path: Path) -> None:
    campaign = open_demo(tmp_path, "shadows")
    enc_id, _ = _encounter(campaign)
    campaign.apply(cards.DealHands(enc_id))
    before = _minor(campaign).hands
    campaign.apply(StartEncounter(enc_id))
    assert _minor(campaign).hands == before
