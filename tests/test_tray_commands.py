"""The tray's commands: checks per game and card play, through Campaign.apply (undoable, saved)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.state import Campaign, CommandError
from app.store import CampaignStore, read_campaign
from rulesets.aspects import checks as aspects_checks
from rulesets.aspects import rules as aspects
from rulesets.decks import DeckState, DrawCards
from rulesets.nemron import checks as nemron_checks
from rulesets.nemron import rules as nemron
from rulesets.resolution import checks as resolution_checks
from rulesets.shadows import cards
from rulesets.shadows import rules as shadows
from rulesets.shadows.tarot import Card, deck_from_dict, full_deck, new_deck
from rulesets.somnihil import checks as somnihil_checks
from rulesets.somnihil import rules as somnihil
from tests.apphelpers import open_demo

Factory = Callable[..., Campaign]


def demo(tmp_path: Path, game: str, seed: int = 3) -> Campaign:
    return open_demo(tmp_path, game, seed)


def seed_where(predicate: Callable[[random.Random], bool]) -> int:
    """The first seed whose rng satisfies ``predicate`` (so a test pins a rare roll)."""
    for seed in range(5000):
        if predicate(random.Random(seed)):
            return seed
    raise AssertionError("no seed found")


def rolls(campaign: Campaign) -> list[dict[str, Any]]:
    return [e for e in campaign.log_entries() if e.get("kind") == "roll"]


def decks(campaign: Campaign) -> dict[str, DeckState[Card]]:
    return {d["kind"]: deck_from_dict(d) for _, d in campaign.rows("decks")}


# --- Somnihil ---------------------------------------------------------------------------------


def test_som01_som06_check_logs_band_and_setbacks(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "somnihil")
    campaign.apply(somnihil_checks.SomnihilCheck(1, 0))
    entry = rolls(campaign)[-1]
    assert entry["who"] == "Vesna Kade"
    assert entry["band"] == somnihil.band_for(entry["total"])
    assert "setback" in entry["detail"]
    campaign.store.close()


def test_som02_advantage_rolls_two_keeps_highest(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "somnihil")
    campaign.apply(somnihil_checks.SomnihilCheck(None, 1))
    campaign.apply(somnihil_checks.SomnihilCheck(None, -1))
    adv, dis = rolls(campaign)[-2:]
    assert adv["expression"] == "2d20kh1" and adv["total"] == max(adv["dice"])
    assert dis["expression"] == "2d20kl1" and dis["total"] == min(dis["dice"])
    campaign.store.close()


def test_som04_natural_one_restores_ap_to_the_rolling_pc_and_undoes(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "somnihil")
    seed = seed_where(lambda r: somnihil.check(r).natural == 1)
    pc = campaign.doc("party", 2)
    assert pc is not None
    pc["resources"]["ap"]["current"] = 4
    campaign.store.db.table("party").update({"resources": pc["resources"]}, doc_ids=[2])
    campaign.rng = random.Random(seed)
    lines = campaign.apply(somnihil_checks.SomnihilCheck(2, 0))
    assert rolls(campaign)[-1]["band"] == "Catastrophe"
    assert campaign.doc("party", 2)["resources"]["ap"]["current"] == 5  # type: ignore[index]
    assert any("+1 AP" in line for line in lines)
    campaign.undo()
    assert campaign.doc("party", 2)["resources"]["ap"]["current"] == 4  # type: ignore[index]
    campaign.store.close()


def test_check_for_another_game_is_refused(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "somnihil")
    with pytest.raises(CommandError, match="resolution"):
        campaign.apply(resolution_checks.ResolutionCheck(None, 8))
    campaign.store.close()


# --- Resolution -------------------------------------------------------------------------------


def test_rr01_rr02_check_names_ce_dm_and_5e_dc(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "resolution")
    campaign.apply(resolution_checks.ResolutionCheck(1, 10, 2, "2d6"))
    entry = rolls(campaign)[-1]
    assert entry["detail"] == "Difficult: CE DM -2, 5e DC 20"
    assert entry["total"] == sum(entry["dice"]) + 2
    assert entry["band"] == ("success" if entry["total"] >= 10 else "failure")
    campaign.apply(resolution_checks.ResolutionCheck(1, 8, 0, "d20"))
    assert len(rolls(campaign)[-1]["dice"]) == 1
    assert resolution_checks.dc_note(9) == "CE DM -1, 5e DC 18"
    campaign.store.close()


def test_rr03_failed_grip_check_costs_grip(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "resolution")
    grip = campaign.doc("party", 1)["resources"]["grip"]["current"]  # type: ignore[index]
    campaign.rng = random.Random(seed_where(lambda r: r.randint(1, 20) >= grip))
    campaign.apply(resolution_checks.GripCheck(1))
    entry = rolls(campaign)[-1]
    assert entry["band"] == "failure" and entry["total"] >= grip
    assert campaign.doc("party", 1)["resources"]["grip"]["current"] == grip - 1  # type: ignore[index]
    with pytest.raises(CommandError, match="character"):
        campaign.apply(resolution_checks.GripCheck(None))
    campaign.store.close()


def test_rr04_delirium_is_kept_and_moves_grip_by_two(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "resolution")
    before = campaign.doc("party", 1)["resources"]["grip"]["current"]  # type: ignore[index]
    campaign.apply(resolution_checks.AcceptDelirium(1, "fear of mirrors"))
    pc = campaign.doc("party", 1)
    assert pc is not None
    assert pc["lists"]["deliria"] == ["fear of mirrors"]
    entry = rolls(campaign)[-1]
    expected = (
        min(pc["resources"]["grip"]["max"], before + 2)
        if entry["band"] == "success"
        else before - 2
    )
    assert pc["resources"]["grip"]["current"] == expected
    with pytest.raises(CommandError, match="name"):
        campaign.apply(resolution_checks.AcceptDelirium(1, "   "))
    campaign.store.close()


# --- Nemron -----------------------------------------------------------------------------------


def test_nem01_pool_from_attribute_and_skill_keeps_highest(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "nemron")
    pc = campaign.doc("party", 1)
    assert pc is not None
    pc["skills"] = {"swords": 3}
    campaign.store.db.table("party").update({"skills": pc["skills"]}, doc_ids=[1])
    campaign.apply(nemron_checks.NemronCheck(1, "power", ("swords",), 5))
    entry = rolls(campaign)[-1]
    assert entry["expression"].startswith("d8 › d10 vs DC 5")  # power rank 2, swords rank 3
    assert entry["total"] == max(entry["dice"])
    assert "drama d20" in entry["detail"]
    campaign.store.close()


def test_nem02_boon_and_penalty_cancel(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "nemron")
    campaign.apply(nemron_checks.NemronCheck(1, "power", (), 5, ("lesser",), ("lesser",)))
    assert len(rolls(campaign)[-1]["dice"]) == 1
    campaign.apply(nemron_checks.NemronCheck(1, "power", (), 5, ("greater",), ("lesser",)))
    assert "greater boon" in rolls(campaign)[-1]["expression"]
    campaign.store.close()


def _good_drama_campaign(tmp_path: Path) -> Campaign:
    campaign = demo(tmp_path, "nemron")

    def good(r: random.Random) -> bool:
        return nemron.drama_of(nemron.check(r, [8], 3)) == nemron.GOOD_DRAMA

    campaign.rng = random.Random(seed_where(good))
    campaign.apply(nemron_checks.NemronCheck(1, "power", (), 3))
    return campaign


def _luck(campaign: Campaign) -> int:
    pc = campaign.doc("party", 1)
    assert pc is not None
    return int(pc.get("resources", {}).get("luck", {}).get("current", 0))


def test_nem03_good_drama_waits_for_the_gms_choice_then_gives_luck(tmp_path: Path) -> None:
    """The text offers Luck, an automatic success or an event: Luck is not always given."""
    campaign = _good_drama_campaign(tmp_path)
    assert "Good Drama" in rolls(campaign)[-1]["detail"]
    assert rolls(campaign)[-1]["good_drama"] == "pending"
    assert _luck(campaign) == 0
    log_id = nemron_checks.newest_good_drama(campaign.rows("log"), 1)
    assert log_id is not None
    campaign.apply(nemron_checks.ChooseGoodDrama(log_id, "luck"))
    assert _luck(campaign) == 1
    assert nemron_checks.newest_good_drama(campaign.rows("log"), 1) is None
    with pytest.raises(CommandError, match="no Good Drama left"):
        campaign.apply(nemron_checks.ChooseGoodDrama(log_id, "luck"))
    campaign.store.close()


def test_nem03_good_drama_as_an_automatic_success_or_an_event(tmp_path: Path) -> None:
    campaign = _good_drama_campaign(tmp_path)
    log_id = nemron_checks.newest_good_drama(campaign.rows("log"), 1)
    assert log_id is not None
    campaign.apply(nemron_checks.ChooseGoodDrama(log_id, "success"))
    entry = rolls(campaign)[-1]
    assert entry["band"] == "success" and "automatic success" in entry["detail"]
    assert _luck(campaign) == 0
    campaign.undo()
    campaign.apply(nemron_checks.ChooseGoodDrama(log_id, "event"))
    assert "dramatic event" in rolls(campaign)[-1]["detail"] and _luck(campaign) == 0
    campaign.store.close()


def test_nem01_pool_of_any_nodes_weapon_rank_and_initiative(tmp_path: Path) -> None:
    """``Awareness › Marksmanship › Pistol``: several nodes, the weapon's die and minimum DC."""
    campaign = demo(tmp_path, "nemron")
    campaign.store.db.table("party").update(
        {"skills": {"Marksmanship": 2, "Stealth": 1}}, doc_ids=[1]
    )
    campaign.apply(
        nemron_checks.NemronCheck(1, "awareness", ("Marksmanship",), 1, nodes=("stealth",),
                                  weapon_rank=2)
    )  # fmt: skip
    entry = rolls(campaign)[-1]
    # awareness 1 (d6), Marksmanship 2 (d8), Stealth 1 (d6), a rank 2 pistol (d8): DC at least 3
    assert entry["expression"].startswith("d6 › d8 › d6 › d8 vs DC 3")
    assert len(entry["dice"]) == 4
    campaign.apply(nemron_checks.NemronCheck(1, nemron_checks.INITIATIVE, (), 4))
    assert rolls(campaign)[-1]["expression"].startswith("d6 › d6 › d4 vs DC 4")
    with pytest.raises(CommandError, match="no node 'Flying'"):
        campaign.apply(nemron_checks.NemronCheck(1, "power", (), 4, nodes=("Flying",)))
    campaign.store.close()


def test_nem04_specialised_minimum_dc(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "nemron")
    campaign.apply(nemron_checks.NemronCheck(1, "power", (), 1, specialised=True))
    assert "vs DC 3" in rolls(campaign)[-1]["expression"]
    campaign.store.close()


# --- Aspects ----------------------------------------------------------------------------------


def give_fate(campaign: Campaign, pid: int, amount: int) -> None:
    pc = campaign.doc("party", pid)
    assert pc is not None
    pc["resources"]["fate_points"]["current"] = amount
    campaign.store.db.table("party").update({"resources": pc["resources"]}, doc_ids=[pid])


def test_asp01_bands_and_failure_grade(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "aspects")
    for _ in range(10):
        campaign.apply(aspects_checks.AspectsCheck(1, 1))
        entry = rolls(campaign)[-1]
        assert entry["band"] == aspects.band_for(entry["total"])
        assert (entry["total"] <= 6) == bool(aspects.failure_grade(entry["total"]))
    campaign.store.close()


def test_an_aspects_check_is_logged_once(tmp_path: Path) -> None:
    """The check's roll is one log entry, not a roll and an event repeating it (issue 14)."""
    campaign = demo(tmp_path, "aspects")
    before = len(campaign.rows("log"))
    campaign.apply(aspects_checks.AspectsCheck(1, 1))
    new = [entry for _, entry in campaign.rows("log")][before:]
    assert [entry["kind"] for entry in new] == ["roll"]
    give_fate(campaign, 1, 1)
    log_id = aspects_checks.last_aspects_roll(campaign.rows("log"))
    assert log_id is not None
    campaign.apply(aspects_checks.SpendFate(log_id, "reroll"))
    spent = [entry for _, entry in campaign.rows("log")][before + 1 :]
    assert [entry["kind"] for entry in spent] == ["event"]
    assert spent[0]["text"].startswith("Rowan Pike spends a fate point (reroll): ")
    campaign.store.close()


def test_asp02_asp03_fate_reroll_keeps_better_once_per_roll(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "aspects")
    give_fate(campaign, 1, 2)
    campaign.apply(aspects_checks.AspectsCheck(1, 0))
    log_id = aspects_checks.last_aspects_roll(campaign.rows("log"))
    assert log_id is not None
    first = campaign.doc("log", log_id)["total"]  # type: ignore[index]
    campaign.apply(aspects_checks.SpendFate(log_id, "reroll"))
    entry = campaign.doc("log", log_id)
    assert entry is not None and entry["total"] >= first
    assert campaign.doc("party", 1)["resources"]["fate_points"]["current"] == 1  # type: ignore[index]
    with pytest.raises(CommandError, match="already spent"):
        campaign.apply(aspects_checks.SpendFate(log_id, "invoke", aspect="Brave"))
    campaign.store.close()


def test_asp03_invoke_plus_two_and_against_minus_two(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "aspects")
    give_fate(campaign, 1, 1)
    give_fate(campaign, 2, 1)
    campaign.apply(aspects_checks.AspectsCheck(1, 0))
    log_id = aspects_checks.last_aspects_roll(campaign.rows("log"))
    assert log_id is not None
    before = campaign.doc("log", log_id)["total"]  # type: ignore[index]
    campaign.apply(aspects_checks.SpendFate(log_id, "invoke", aspect="Quick Hands"))
    assert campaign.doc("log", log_id)["total"] == before + 2  # type: ignore[index]
    campaign.apply(aspects_checks.SpendFate(log_id, "invoke", aspect="Cornered", against=True, payer=2))
    entry = campaign.doc("log", log_id)
    assert entry is not None and entry["total"] == before
    assert "Cornered" in entry["detail"]
    with pytest.raises(CommandError, match="no Fate Points"):
        campaign.apply(aspects_checks.AspectsCheck(3, 0))
        campaign.apply(aspects_checks.SpendFate(aspects_checks.last_aspects_roll(campaign.rows("log")) or 0))
    campaign.store.close()


# --- Cards ------------------------------------------------------------------------------------


def test_soh01_first_card_command_creates_decks_lazily_and_saves_order(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    assert campaign.rows("decks") == []
    campaign.apply(DrawCards("minor", 3))
    state = decks(campaign)["minor"]
    assert len(state.discard) == 3 and len(state.draw_pile) == 53
    top = state.draw_pile[0]
    path = campaign.store.path
    campaign.store.close()
    saved = read_campaign(path)
    reopened = deck_from_dict(next(iter(saved["decks"].values())))
    assert reopened.draw_pile[0] == top


def test_soh01_reshuffle_is_logged_when_the_deck_runs_out(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    campaign.apply(DrawCards("minor", 50))
    lines = campaign.apply(DrawCards("minor", 10))
    assert any("reshuffled" in line for line in lines)
    assert "reshuffled" in campaign.log_entries()[-1]["text"]
    campaign.store.close()


def test_soh02_soh05_skill_draw_band_from_the_table(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    campaign.apply(cards.SkillDraw(1, "three", 12, "Normal"))
    entry = rolls(campaign)[-1]
    assert entry["band"] in shadows.BANDS
    assert "middle of three" in entry["detail"]
    assert len(decks(campaign)["minor"].discard) in (3, 4)
    campaign.store.close()


def test_soh04_queen_grants_major_arcana_to_the_party_sheet(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")

    def queen_first(r: random.Random) -> bool:
        state = new_deck("minor", r)
        return state.draw_pile[0].rank == "Queen"

    held = len(campaign.doc("party", 1)["lists"].get("major_arcana", []))  # type: ignore[index]
    campaign.rng = random.Random(seed_where(queen_first))
    campaign.apply(cards.SkillDraw(1, "single", 10, "Normal"))
    pc = campaign.doc("party", 1)
    assert pc is not None and len(pc["lists"]["major_arcana"]) == held + 1
    assert "Queen: Major Arcana" in rolls(campaign)[-1]["detail"]
    assert len(decks(campaign)["major"].hand("1")) == held + 1  # The Star was held already
    campaign.store.close()


def test_soh06_fumble_draws_an_omen(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")

    def ace_first(r: random.Random) -> bool:
        return new_deck("minor", r).draw_pile[0].rank == "Ace"

    campaign.rng = random.Random(seed_where(ace_first))
    campaign.apply(cards.SkillDraw(1, "single", 30, "Normal"))
    entry = rolls(campaign)[-1]
    assert entry["band"] == "Critical Failure" and "fumble omen" in entry["detail"]
    campaign.apply(cards.CombatFumble(3))
    assert rolls(campaign)[-1]["band"] in ("Fumble", "No fumble")
    campaign.store.close()


def test_soh08_opposed_draw_has_a_winner(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    campaign.apply(cards.OpposedDraw(5, 3, "Agnes", "Goblin"))
    assert rolls(campaign)[-1]["band"] in ("Agnes wins", "Goblin wins")
    campaign.store.close()


def test_soh11_soh12_deal_play_redraw_recall(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    campaign.apply(cards.DealHands())
    state = decks(campaign)["minor"]
    party = dict(campaign.rows("party"))
    for pid, pc in party.items():
        assert len(state.hand(str(pid))) == shadows.hand_size(pc["attributes"], "physical")
    card = state.hand("1")[0]
    campaign.apply(cards.PlayCards("1", (card.key,)))
    after = decks(campaign)["minor"]
    assert card.key not in [c.key for c in after.hand("1")]
    assert after.discard[-1].key == card.key
    keep = after.hand("2")[0]
    campaign.apply(cards.RedrawCards("2", (keep.key,)))
    assert len(decks(campaign)["minor"].hand("2")) == len(after.hand("2"))
    with pytest.raises(CommandError, match="does not hold"):
        campaign.apply(cards.PlayCards("1", (card.key,)))
    campaign.apply(cards.RecallHands())
    assert decks(campaign)["minor"].hands == {}
    campaign.store.close()


def test_soh11_a_game_without_the_tarot_refuses_its_card_commands(tmp_path: Path) -> None:
    """Decks are a game's (issue 25): the tarot is Shadows', so another game's campaign has no
    Minor Arcana to deal or draw from, and refusing writes nothing."""
    campaign = demo(tmp_path, "aspects")
    for command in (cards.DealHands(), DrawCards("minor", 1), cards.Shuffle("minor")):
        with pytest.raises(CommandError, match="aspects game plays with no deck of cards"):
            campaign.apply(command)
    assert campaign.rows("decks") == []
    campaign.store.close()


def test_soh15_soh16_damage_modifier_and_critical_chain(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    campaign.apply(cards.DamageModifier("M3"))
    entry = rolls(campaign)[-1]
    assert entry["total"] == sorted(entry["dice"])[1]
    campaign.apply(cards.CriticalChain("Swords"))
    crit = rolls(campaign)[-1]
    assert crit["total"] == sum(crit["dice"])
    assert crit["band"] in ("minor critical", "major critical")
    with pytest.raises(CommandError, match="modifier"):
        campaign.apply(cards.DamageModifier("Z9"))
    campaign.store.close()


def test_damaged_deck_doc_is_refused_not_crashed(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    campaign.store.db.table("decks").insert({"kind": "minor", "deck": "minor", "draw_pile": []})
    with pytest.raises(CommandError, match="damaged"):
        campaign.apply(DrawCards())
    campaign.store.close()


ACTIONS = st.lists(
    st.sampled_from(["draw", "deal", "play", "redraw", "shuffle", "recall", "skill", "crit"]),
    min_size=1,
    max_size=12,
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS, seed=st.integers(0, 10_000))
def test_soh01_property_deck_is_always_whole(
    tmp_path_factory: Any, actions: list[str], seed: int
) -> None:
    folder = tmp_path_factory.mktemp("deck")
    store = CampaignStore.open(folder / "c.json", ruleset="shadows")
    campaign = Campaign(store, rng=random.Random(seed))
    for i in range(1, 4):
        store.db.table("party").insert(shadows.new_character(f"PC{i}", body=2, physical=2))
    for action in actions:
        state = decks(campaign).get("minor")
        held = state.hand("1") if state else []
        command: Any = {
            "draw": DrawCards("minor", 5),
            "deal": cards.DealHands(),
            "play": cards.PlayCards("1", (held[0].key,)) if held else DrawCards(),
            "redraw": cards.RedrawCards("1", tuple(c.key for c in held[:3]))
            if held
            else cards.Shuffle(),
            "shuffle": cards.Shuffle(),
            "recall": cards.RecallHands(),
            "skill": cards.SkillDraw(1, "three", 10),
            "crit": cards.CriticalChain(),
        }[action]
        with contextlib.suppress(CommandError):
            campaign.apply(command)
        for state in decks(campaign).values():
            keys = [c.key for c in state.all_cards()]
            assert len(keys) == len(set(keys))
            assert sorted(keys) == sorted(c.key for c in full_deck(state.deck))  # type: ignore[arg-type]
    store.close()


# --- SOH-09 counter actions, SOH-08 contests, SOH-06 fumble, SOH-11 focus ----------------------


def _minor(campaign: Campaign) -> DeckState[Card]:
    doc = next(d for _, d in campaign.rows("decks") if d.get("kind") == "minor")
    return deck_from_dict(doc)


def _counter_seed(success: bool) -> tuple[int, int]:
    """A seed and target value where the first card drawn is a Swords card that does (or
    does not) beat the target, so both outcomes are pinned."""
    for seed in range(500):
        rng = random.Random(seed)
        card = new_deck("minor", rng).draw_pile[0]
        if card.suit == "Swords" and 3 <= card.value <= 12:
            return seed, card.value - 2 if success else card.value + 1
    raise AssertionError("no seed found")


def test_soh09_counter_beats_target_subtracts_difference_and_logs_ap_cost(
    tmp_path: Path,
) -> None:
    seed, target = _counter_seed(success=True)
    campaign = demo(tmp_path, "shadows", seed=seed)
    campaign.apply(cards.CounterAction(1, target, 30, ("Swords",)))
    entry = rolls(campaign)[-1]
    assert entry["band"] == "Countered −2"
    assert entry["total"] == 28
    assert "30 − 2 = 28" in entry["detail"]
    assert "1 AP: no AP round running" in entry["detail"]
    assert entry["who"] == "Agnes Thorne"
    assert len(_minor(campaign).discard) == 1
    campaign.store.close()


def test_soh09_counter_fails_on_wrong_suit_or_lower_card(tmp_path: Path) -> None:
    seed, target = _counter_seed(success=True)
    campaign = demo(tmp_path, "shadows", seed=seed)
    campaign.apply(cards.CounterAction(None, target, 30, ("Cups", "Wands")))
    entry = rolls(campaign)[-1]
    assert (entry["band"], entry["total"], entry["who"]) == ("Counter fails", 30, "GM")
    assert "wrong suit, total stays 30" in entry["detail"]
    campaign.store.close()
    seed, target = _counter_seed(success=False)
    (tmp_path / "b").mkdir()
    other = demo(tmp_path / "b", "shadows", seed=seed)
    other.apply(cards.CounterAction(None, target, 30, ("Swords",)))
    assert "not higher" in rolls(other)[-1]["detail"]
    other.store.close()


def test_soh09_counter_spends_one_ap_in_running_ap_round(tmp_path: Path) -> None:
    from app.commands import combat

    campaign = demo(tmp_path, "shadows")
    enc_id = campaign.rows("encounters")[0][0]
    campaign.apply(combat.StartEncounter(enc_id))

    def ap_of_pc1() -> int:
        enc = campaign.doc("encounters", enc_id) or {}
        c = next(c for c in enc["combatants"] if c["ref"] == "1" and c["side"] == "pc")
        return int(c["ap"]["current"])

    before = ap_of_pc1()
    campaign.apply(cards.CounterAction(1, 5, 30, encounter_id=enc_id))
    assert ap_of_pc1() == before - 1
    assert "spends 1 AP on a counter action" in rolls(campaign)[-1]["detail"]
    campaign.undo()
    assert ap_of_pc1() == before
    campaign.store.close()


def test_soh09_counter_plays_from_hand_and_refuses_bad_input(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    campaign.apply(cards.DealHands())
    held = _minor(campaign).hand("1")[0]
    campaign.apply(cards.CounterAction(1, 1, 20, played=held.key))
    assert held.key not in [c.key for c in _minor(campaign).hand("1")]
    assert f"plays {held.name}" in rolls(campaign)[-1]["detail"]
    for bad in (
        cards.CounterAction(1, 0, 20),
        cards.CounterAction(1, 15, 20),
        cards.CounterAction(1, 5, -1),
        cards.CounterAction(1, 5, 20, ("Stars",)),
        cards.CounterAction(None, 5, 20, played=held.key),
        cards.CounterAction(1, 5, 20, played=held.key),  # no longer held
    ):
        with pytest.raises(CommandError):
            campaign.apply(bad)
    campaign.store.close()


def test_soh07_assistance_adds_half_and_quarter_to_the_draw(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    assist = shadows.assistance_bonus(12, 9)
    assert assist == 6 + 2
    campaign.apply(cards.SkillDraw(None, "single", 10, "Normal", assist))
    entry = rolls(campaign)[-1]
    assert entry["total"] == sum(entry["dice"]) + 10 + 8  # the card (+ a King's extra)
    campaign.store.close()


def test_soh08_contest_to_hidden_margin_survives_reopen_and_never_logs_margin(
    tmp_path: Path,
) -> None:
    campaign = demo(tmp_path, "shadows")
    campaign.apply(cards.StartContest(3, "Agnes", "the Warden", 10, 12))
    path = campaign.store.path
    campaign.store.close()
    campaign = Campaign(CampaignStore.open(path), rng=random.Random(4))
    draws = 0
    while True:
        found = cards.find_contest(campaign.rows("decks"))
        assert found is not None
        if shadows.Contest.from_dict(found[1]).finished:
            break
        campaign.apply(cards.ContestDraw())
        draws += 1
        assert draws < 200
    contest = shadows.Contest.from_dict(found[1])
    assert abs(contest.score_a - contest.score_b) == 3
    assert len(contest.history) == draws
    assert "wins" in cards.contest_status(found[1])
    assert "3" not in cards.contest_status(found[1]).split("after")[0].replace("Agnes", "")
    log = read_campaign(path)["log"].values()
    start_line = next(e["text"] for e in log if e.get("label") == "Start contest")
    assert "margin the GM keeps hidden" in start_line and "3" not in start_line
    with pytest.raises(CommandError, match="already decided"):
        campaign.apply(cards.ContestDraw())
    campaign.apply(cards.EndContest())
    assert cards.find_contest(campaign.rows("decks")) is None
    with pytest.raises(CommandError, match="no contest"):
        campaign.apply(cards.ContestDraw())
    campaign.store.close()


def test_soh08_contest_refuses_bad_setup(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    for bad in (
        cards.StartContest(0),
        cards.StartContest(3, bonus_a=-1),
        cards.StartContest(3, side_b=" "),
    ):
        with pytest.raises(CommandError):
            campaign.apply(bad)
    assert cards.find_contest(campaign.rows("decks")) is None
    campaign.store.close()


def test_soh06_combat_fumble_draw_against_weapon_value(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    campaign.apply(cards.CombatFumble(14, "Agnes Thorne"))
    entry = rolls(campaign)[-1]
    assert (entry["band"], entry["who"]) == ("Fumble", "Agnes Thorne")
    for bad in (0, 15):
        with pytest.raises(CommandError):
            campaign.apply(cards.CombatFumble(bad))
    campaign.store.close()


def test_soh11_each_character_is_dealt_by_its_own_focus(tmp_path: Path) -> None:
    campaign = demo(tmp_path, "shadows")
    party = dict(campaign.rows("party"))
    assert all("focus" not in pc for pc in party.values())  # a save from before: physical
    campaign.apply(cards.SetFocus(2, "mental"))
    campaign.apply(cards.SetFocus(3))  # cycles: physical → mental
    campaign.apply(cards.SetFocus(3))  # → spiritual
    with pytest.raises(CommandError, match="focus is one of physical, mental, spiritual"):
        campaign.apply(cards.SetFocus(4, "emotional"))
    focus = {1: "physical", 2: "mental", 3: "spiritual", 4: "physical"}
    assert {pid: shadows.focus_of(pc) for pid, pc in campaign.rows("party")} == focus
    lines = campaign.apply(cards.DealHands())
    minor = _minor(campaign)
    sizes = {pid: len(minor.hand(str(pid))) for pid in party}
    assert sizes == {pid: shadows.hand_size(party[pid]["attributes"], focus[pid]) for pid in party}
    assert sizes[2] != shadows.hand_size(party[2]["attributes"], "physical")  # Felix: 6, not 4
    assert "Felix Marrow 6 (mental)" in lines[-1]
    campaign.store.close()


def test_soh11_a_dead_or_defeated_pc_is_dealt_no_hand(tmp_path: Path) -> None:
    from app.commands.combat import ToggleDefeated
    from app.commands.party import ChangePC
    from app.queries import current_encounter

    campaign = demo(tmp_path, "shadows")
    campaign.apply(ChangePC(1, "status", ("dead",)))
    found = current_encounter(campaign)
    assert found is not None
    enc_id, doc = found
    felix = next(c for c in doc["combatants"] if c["side"] == "pc" and c["ref"] == "2")
    campaign.apply(ToggleDefeated(enc_id, felix["id"]))  # the GM takes Felix out by hand
    lines = campaign.apply(cards.DealHands(enc_id))
    counts = _minor(campaign).hand_counts()
    goblins = {f"foe:{c['id']}" for c in doc["combatants"] if c["side"] == "npc"}
    assert set(counts) == {"3", "4"} | goblins  # the foes are dealt too (issue 21)
    assert lines[-1] == "Out of the fight, dealt nothing: Agnes Thorne, Felix Marrow"
    campaign.store.close()


def test_soh04_a_held_major_arcana_is_out_of_the_deck_until_given_up(tmp_path: Path) -> None:
    from app.commands.party import ChangePC
    from rulesets.shadows.tarot import find_deck

    campaign = demo(tmp_path, "shadows")
    agnes = campaign.doc("party", 1)
    assert agnes is not None and agnes["lists"]["major_arcana"][0]["rank"] == "The Star"
    # Before any Major draw (no deck saved yet) the table already counts 21 to draw.
    major = find_deck(campaign.rows("decks"), "major", campaign.rows("party"))[1]
    assert (len(major.draw_pile), [c.name for c in major.hand("1")]) == (21, ["The Star"])
    with pytest.raises(CommandError, match="cannot draw 22; only 21 cards are not in hands"):
        campaign.apply(DrawCards("major", 22))
    campaign.apply(DrawCards("major", 21))
    drawn = [c.name for c in decks(campaign)["major"].discard]
    assert len(drawn) == 21 and "The Star" not in drawn
    with pytest.raises(CommandError, match="Agnes Thorne already holds The Star"):
        campaign.apply(ChangePC(2, "add_item", ("major_arcana", "The Star")))
    campaign.apply(ChangePC(1, "remove_item", ("major_arcana", 0)))  # Agnes gives it up
    after = decks(campaign)["major"]
    assert after.hand("1") == [] and after.discard[-1].name == "The Star"
    campaign.apply(DrawCards("major", 22))  # every card again, The Star among them
    assert "The Star" in [c.name for c in decks(campaign)["major"].discard]
    campaign.apply(ChangePC(2, "add_item", ("major_arcana", "Tower")))  # granted by hand
    major = find_deck(campaign.rows("decks"), "major", campaign.rows("party"))[1]
    assert [c.name for c in major.hand("2")] == ["The Tower"] and len(major.discard) == 21
    campaign.store.close()
