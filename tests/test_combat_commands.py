"""Combat tracker commands on demo campaigns: turn models and each game's damage rules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.commands import combat as cmd
from app.queries import current_encounter
from app.state import Campaign, CommandError
from rulesets import encounter as er
from rulesets.aspects import fight as aspects_fight
from rulesets.base import RuleError
from rulesets.fight import foe_health, has_effect, health_kind, hp_line, is_out
from rulesets.nemron import fight as nemron_fight
from rulesets.somnihil import fight as somnihil_fight
from tests.apphelpers import open_demo


@pytest.fixture
def opened(tmp_path: Path) -> Iterator[Any]:
    campaigns: list[Campaign] = []

    def make(game: str, seed: int = 3) -> Campaign:
        campaign = open_demo(tmp_path, game, seed)
        campaigns.append(campaign)
        return campaign

    yield make
    for c in campaigns:
        c.store.close()


def enc(campaign: Campaign) -> tuple[int, er.Encounter]:
    found = current_encounter(campaign)
    assert found is not None
    return found[0], er.Encounter.from_dict(found[1])


def by_name(campaign: Campaign, name: str) -> er.Combatant:
    return next(c for c in enc(campaign)[1].combatants if c.name == name)


def party(campaign: Campaign, name: str) -> dict[str, Any]:
    return next(d for _, d in campaign.rows("party") if d["name"] == name)


# --------------------------------------------------------------------------- turn models


def test_initiative_NEM_05_pool_and_pcs_win_ties(opened: Any) -> None:
    campaign = opened("nemron")
    eid, _ = enc(campaign)
    campaign.apply(cmd.RollInitiative(eid))
    order = enc(campaign)[1].combatants
    keys = [(-(c.initiative or 0), 0 if c.side == "pc" else 1) for c in order]
    assert keys == sorted(keys)
    rolls = [e for e in campaign.log_entries() if e.get("kind") == "roll"]
    assert len(rolls) == 7 and "keep highest" in rolls[0]["expression"]
    # Ylva Rask: agility 3 (d10), awareness 2 (d8), sense 1 (d6): never above 10
    assert 1 <= (by_name(campaign, "Ylva Rask").initiative or 0) <= 10


def test_initiative_npcs_only_keeps_pc_values(opened: Any) -> None:
    campaign = opened("somnihil")
    eid, _ = enc(campaign)
    pc = by_name(campaign, "Vesna Kade")
    campaign.apply(cmd.EditCombatant(eid, pc.id, initiative=99))
    campaign.apply(cmd.RollInitiative(eid, npcs_only=True))
    assert enc(campaign)[1].combatants[0].name == "Vesna Kade"
    assert all(c.initiative is not None for c in enc(campaign)[1].combatants if c.side == "npc")


def test_initiative_round_counter_delay_hold(opened: Any) -> None:
    campaign = opened("resolution")
    eid, _ = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    first = enc(campaign)[1].combatants[0].name
    campaign.apply(cmd.Delay(eid))
    fight = enc(campaign)[1]
    assert fight.combatants[1].name == first
    campaign.apply(cmd.Hold(eid))
    held = next(c for c in enc(campaign)[1].combatants if c.held)
    campaign.apply(cmd.UseHeld(eid, held.id))
    assert enc(campaign)[1].current == held.id
    for _ in range(20):
        campaign.apply(cmd.NextTurn(eid))
    assert enc(campaign)[1].round == 3


def test_ap_rounds_SOH_10_ap_is_5_plus_half_quickness(opened: Any) -> None:
    campaign = opened("shadows")
    eid, _ = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    fight = enc(campaign)[1]
    ap = {c.name: c.ap_max for c in fight.combatants}
    assert ap["Agnes Thorne"] == 7  # Quickness 4
    assert ap["Felix Marrow"] == 6  # Quickness 2
    assert ap["Ines Calder"] == 7  # Quickness 3 -> ceil(1.5) = 2
    actor = er.current_combatant(fight)
    assert actor is not None and actor.ap == max(c.ap for c in fight.combatants)


def test_ap_rounds_SOH_09_counter_costs_one_and_round_ends_when_spent(opened: Any) -> None:
    campaign = opened("shadows")
    eid, _ = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    agnes = by_name(campaign, "Agnes Thorne")
    campaign.apply(cmd.SpendAp(eid, agnes.id, 1, counter=True))
    assert by_name(campaign, "Agnes Thorne").ap == agnes.ap - 1
    for _ in range(7):
        campaign.apply(cmd.NextTurn(eid))  # pass: spends the rest
    assert enc(campaign)[1].round == 2
    assert all(c.ap == c.ap_max for c in enc(campaign)[1].combatants)


def test_chosen_next_round_ends_when_all_acted(opened: Any) -> None:
    campaign = opened("aspects")
    eid, fight = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    ids = [c.id for c in fight.combatants]
    campaign.apply(cmd.ChooseNext(eid, ids[3]))
    with pytest.raises(CommandError):
        campaign.apply(cmd.ChooseNext(eid, ids[3]))
    for cid in ids[:3] + ids[4:]:
        campaign.apply(cmd.ChooseNext(eid, cid))
    assert enc(campaign)[1].round == 1
    campaign.apply(cmd.ChooseNext(eid, ids[0]))
    assert enc(campaign)[1].round == 2


def test_GEN_05_timed_effect_ticks_and_expires_with_log_line(opened: Any) -> None:
    campaign = opened("somnihil")
    eid, fight = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    first = fight.combatants[0]
    campaign.apply(cmd.AddEffect(eid, first.id, "Stunned", 1, "end"))
    campaign.apply(cmd.NextTurn(eid))
    assert not by_name(campaign, first.name).conditions
    assert any("Stunned on" in e.get("text", "") for e in campaign.log_entries())


def test_SOM_05_anomaly_lasts_by_ap_cost_and_gives_disadvantage(opened: Any) -> None:
    campaign = opened("somnihil")
    eid, _ = enc(campaign)
    vesna = by_name(campaign, "Vesna Kade")
    campaign.apply(somnihil_fight.AddAnomaly(eid, vesna.id, 3))
    effect = by_name(campaign, "Vesna Kade").conditions[0]
    assert (effect.name, effect.remaining) == ("Anomaly", 6)
    assert has_effect(by_name(campaign, "Vesna Kade"), "Anomaly")


def test_resume_state_saved_after_each_change(opened: Any, tmp_path: Path) -> None:
    campaign = opened("somnihil")
    eid, _ = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(cmd.NextTurn(eid))
    campaign.apply(cmd.NextTurn(eid))
    campaign.store.flush()
    saved = campaign.store.data["encounters"][str(eid)]
    assert saved["current"] == enc(campaign)[1].combatants[2].id and saved["round"] == 1


# --------------------------------------------------------------------------- damage by game


def test_SOM_03_triumph_doubles_damage_on_the_party_doc(opened: Any) -> None:
    campaign = opened("somnihil")
    eid, _ = enc(campaign)
    vesna = by_name(campaign, "Vesna Kade")
    campaign.apply(cmd.Damage(eid, vesna.id, "3", {"triumph": "yes"}))
    assert party(campaign, "Vesna Kade")["resources"]["vitality"]["current"] == 4


def test_SOM_08_09_cheat_death_at_zero_then_choose_fate(opened: Any) -> None:
    campaign = opened("somnihil", seed=1)
    eid, _ = enc(campaign)
    vesna = by_name(campaign, "Vesna Kade")
    campaign.apply(cmd.Damage(eid, vesna.id, "10"))
    assert party(campaign, "Vesna Kade")["resources"]["vitality"]["current"] == 0
    for _ in range(10):
        if party(campaign, "Vesna Kade")["status"] != "alive":
            break
        campaign.apply(cmd.Damage(eid, vesna.id, "19"))
    rolls = [e for e in campaign.log_entries() if e.get("kind") == "roll"]
    assert rolls, "Cheat Death must be rolled into the log"
    assert party(campaign, "Vesna Kade")["status"] == "perished"
    campaign.apply(somnihil_fight.ChooseFate(eid, vesna.id, "Seditious Spirit"))
    assert party(campaign, "Vesna Kade")["status"] == "spirit"


def test_SOM_11_distance_band_steps(opened: Any) -> None:
    campaign = opened("somnihil")
    eid, _ = enc(campaign)
    gob = by_name(campaign, "Goblin 1")
    step = somnihil_fight.distance_step
    campaign.apply(somnihil_fight.SetDistance(eid, gob.id, step(None, closer=False)))
    assert by_name(campaign, "Goblin 1").stats["distance"] == "In Reach"
    assert step("In Range", closer=False) == "Too Far" and step("In Range", closer=True) == "Nearby"
    with pytest.raises(RuleError, match="Already Too Far: Z brings it closer"):
        step("Too Far", closer=False)
    with pytest.raises(RuleError, match="Already In Reach"):
        step("In Reach", closer=True)
    with pytest.raises(CommandError):
        campaign.apply(somnihil_fight.SetDistance(eid, gob.id, "Far away"))


def test_NEM_08_named_limb_and_major_limb_downs(opened: Any) -> None:
    campaign = opened("nemron")
    eid, _ = enc(campaign)
    kesh = by_name(campaign, "Kesh Varn")
    campaign.apply(cmd.Damage(eid, kesh.id, "3", {"limb": "left_arm"}))
    limbs = party(campaign, "Kesh Varn")["tracks"]["limbs"]
    assert limbs["left_arm"]["hp"] == limbs["left_arm"]["max"] - 3
    campaign.apply(cmd.Damage(eid, kesh.id, "99", {"limb": "head"}))
    assert party(campaign, "Kesh Varn")["status"] == "downed"


def test_NEM_09_aoe_rolls_one_location_die_per_point(opened: Any) -> None:
    campaign = opened("nemron")
    eid, _ = enc(campaign)
    kesh = by_name(campaign, "Kesh Varn")
    before = sum(v["hp"] for v in party(campaign, "Kesh Varn")["tracks"]["limbs"].values())
    campaign.apply(cmd.Damage(eid, kesh.id, "4", {"limb": "aoe"}))
    after = sum(v["hp"] for v in party(campaign, "Kesh Varn")["tracks"]["limbs"].values())
    assert before - after == 4


def test_NEM_06_economy_toggles(opened: Any) -> None:
    campaign = opened("nemron")
    eid, _ = enc(campaign)
    kesh = by_name(campaign, "Kesh Varn")
    campaign.apply(nemron_fight.ToggleEconomy(eid, kesh.id, "reaction"))
    assert by_name(campaign, "Kesh Varn").economy["reaction"] is True


def test_SOH_17_firearm_life_fifth_and_vulnerability(opened: Any) -> None:
    campaign = opened("shadows")
    eid, _ = enc(campaign)
    agnes = by_name(campaign, "Agnes Thorne")
    campaign.apply(cmd.Damage(eid, agnes.id, "7", {"pool": "life", "firearm": "yes"}))
    assert party(campaign, "Agnes Thorne")["resources"]["life"]["current"] == 18
    campaign.apply(cmd.Damage(eid, agnes.id, "3", {"pool": "health", "modifier": "vulnerable"}))
    assert party(campaign, "Agnes Thorne")["resources"]["health"]["current"] == 14
    campaign.apply(cmd.Damage(eid, agnes.id, "9", {"pool": "health", "modifier": "immune"}))
    assert party(campaign, "Agnes Thorne")["resources"]["health"]["current"] == 14


def test_ASP_05_06_overlap_injury_consequence_darkest_self(opened: Any) -> None:
    campaign = opened("aspects")
    eid, _ = enc(campaign)
    rowan = by_name(campaign, "Rowan Pike")
    campaign.apply(cmd.Damage(eid, rowan.id, "10", {"defence": 8}))  # overlap 2 <= cap 3
    assert len(party(campaign, "Rowan Pike")["lists"]["injuries"]) == 1
    campaign.apply(cmd.Damage(eid, rowan.id, "12", {"defence": 7}))  # 5 > 3: consequence
    campaign.apply(cmd.Damage(eid, rowan.id, "12", {"defence": 7}))
    assert len(party(campaign, "Rowan Pike")["lists"]["consequences"]) == 2
    campaign.apply(cmd.Damage(eid, rowan.id, "12", {"defence": 7}))  # at the limit: a choice
    found = current_encounter(campaign)
    assert found is not None and rowan.id in found[1]["pending"]
    campaign.apply(aspects_fight.ChooseDarkestSelf(eid, rowan.id, "Darkest Self"))
    assert party(campaign, "Rowan Pike")["status"] == "darkest self"


def test_NPC_08_morale_offered_when_ally_drops_and_at_half_hp(opened: Any) -> None:
    campaign = opened("resolution")
    eid, _ = enc(campaign)
    g1, g2 = by_name(campaign, "Goblin 1"), by_name(campaign, "Goblin 2")
    half = (g2.stats["hp_max"] + 1) // 2
    campaign.apply(cmd.Damage(eid, g2.id, str(half)))
    due = current_encounter(campaign)[1]["morale_due"]  # type: ignore[index]
    assert [d["id"] for d in due] == [g2.id]
    campaign.apply(cmd.Damage(eid, g1.id, "99"))
    due = current_encounter(campaign)[1]["morale_due"]  # type: ignore[index]
    assert {d["id"] for d in due} == {g2.id, by_name(campaign, "Goblin 3").id}
    campaign.apply(cmd.MoraleCheck(eid, g2.id))
    assert "morale" in campaign.log_entries()[-1]["expression"]


def test_NPC_08_morale_on_enemy_reinforcements(opened: Any) -> None:
    campaign = opened("resolution")
    eid, fight = enc(campaign)
    for c in [c for c in fight.combatants if c.side == "pc"]:
        campaign.apply(cmd.RemoveCombatant(eid, c.id))
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(cmd.AddParty(eid))
    assert len(current_encounter(campaign)[1]["morale_due"]) == 3  # type: ignore[index]


def test_damage_dice_expression_is_rolled_and_bad_input_refused(opened: Any) -> None:
    campaign = opened("resolution")
    eid, _ = enc(campaign)
    gob = by_name(campaign, "Goblin 1")
    campaign.apply(cmd.Damage(eid, gob.id, "1d4"))
    assert campaign.log_entries()[-2]["kind"] == "roll"
    assert campaign.log_entries()[-1]["kind"] == "event"
    for bad in ("-3", "2d", ""):
        with pytest.raises(CommandError):
            campaign.apply(cmd.Damage(eid, gob.id, bad))


def test_temp_hp_absorbs_first_and_undo_restores(opened: Any) -> None:
    campaign = opened("resolution")
    eid, _ = enc(campaign)
    gob = by_name(campaign, "Goblin 1")
    campaign.apply(cmd.TempHp(eid, gob.id, 2))
    campaign.apply(cmd.Damage(eid, gob.id, "3"))
    assert by_name(campaign, "Goblin 1").stats["hp"] == gob.stats["hp"] - 1
    campaign.undo()
    assert by_name(campaign, "Goblin 1").stats["hp"] == gob.stats["hp"]


def test_quick_add_group_numbered_with_game_sheet(opened: Any) -> None:
    campaign = opened("nemron")
    eid, _ = enc(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Raider", 2, 4))
    raider = by_name(campaign, "Raider 2")
    assert raider.stats["sheet"]["tracks"]["limbs"]["head"] == {"hp": 4, "max": 4}
    campaign.apply(cmd.Damage(eid, raider.id, "4", {"limb": "torso"}))
    assert by_name(campaign, "Raider 2").stats["sheet"]["status"] == "downed"


def test_new_encounter_select_and_model_switch(opened: Any) -> None:
    campaign = opened("somnihil")
    first, _ = enc(campaign)
    campaign.apply(cmd.NewEncounter("Bridge", "ap_rounds"))
    second, fight = enc(campaign)
    assert second != first and fight.model == "ap_rounds" and fight.name == "Bridge"
    campaign.apply(cmd.SetModel(second, "chosen_next"))
    campaign.apply(cmd.SelectEncounter(first))
    assert enc(campaign)[0] == first
    with pytest.raises(CommandError):
        campaign.apply(cmd.NewEncounter("  "))


# --------------------------------------------------------------------------- attacks


def test_SOH_13_defence_is_quickness_plus_cards_plus_cover(opened: Any) -> None:
    campaign = opened("shadows")
    eid, _ = enc(campaign)
    agnes = by_name(campaign, "Agnes Thorne")
    # defence = quickness 4 + cards 3 + cover 5 = 12; attack 9 + 6 = 15: margin 3
    campaign.apply(
        cmd.Damage(
            eid, agnes.id, "",
            {"pool": "health", "card": "9 of Swords", "skill": 6, "cover": "5", "cards": 3},
        )
    )  # fmt: skip
    assert party(campaign, "Agnes Thorne")["resources"]["health"]["current"] == 17
    texts = [e["text"] for e in campaign.log_entries()]
    assert any("defence 12 = quickness 4 + cards 3 + cover/movement 5" in t for t in texts)
    # defence 4 + 7 + 20 = 31 beats 15: no damage
    campaign.apply(
        cmd.Damage(eid, agnes.id, "", {"card": "9 Swords", "skill": 6, "cover": 20, "cards": 7})
    )
    assert party(campaign, "Agnes Thorne")["resources"]["health"]["current"] == 17
    with pytest.raises(CommandError, match="cover"):
        campaign.apply(cmd.Damage(eid, agnes.id, "", {"card": "9 Swords", "cover": 7}))


def test_SOH_14_suit_match_full_margin_else_one_plus_weapon(opened: Any) -> None:
    campaign = opened("shadows")
    eid, _ = enc(campaign)
    agnes = by_name(campaign, "Agnes Thorne")
    # Swords match a physical attack: 10 + 5 = 15 vs defence 4: 11 damage
    campaign.apply(cmd.Damage(eid, agnes.id, "", {"pool": "health", "card": "10 Swords",
                              "skill": 5}))  # fmt: skip
    assert party(campaign, "Agnes Thorne")["resources"]["health"]["current"] == 9
    # Cups off suit: 1 damage however big the margin
    campaign.apply(cmd.Damage(eid, agnes.id, "", {"pool": "health", "card": "10 Cups",
                              "skill": 5}))  # fmt: skip
    assert party(campaign, "Agnes Thorne")["resources"]["health"]["current"] == 8
    # a D1 weapon adds one drawn card's value (1..14) to the 1 off suit
    campaign.apply(cmd.Damage(eid, agnes.id, "", {"pool": "health", "card": "10 Cups",
                              "skill": 5, "weapon": "D1"}))  # fmt: skip
    line = next(e["text"] for e in reversed(campaign.log_entries()) if "D1:" in e["text"])
    added = int(line.split("→ +")[1].split(";")[0].split()[0])
    health = party(campaign, "Agnes Thorne")["resources"]["health"]["current"]
    assert 1 <= added <= 14 and health == max(0, 8 - 1 - added)
    # the plain amount path still works
    campaign.apply(cmd.Heal(eid, agnes.id, "20", {"pool": "health"}))
    campaign.apply(cmd.Damage(eid, agnes.id, "4", {"pool": "health"}))
    assert party(campaign, "Agnes Thorne")["resources"]["health"]["current"] == 16


def test_NEM_07_defence_roll_reduces_attack_roll_never_below_zero(opened: Any) -> None:
    campaign = opened("nemron")
    eid, _ = enc(campaign)
    kesh = by_name(campaign, "Kesh Varn")
    full = party(campaign, "Kesh Varn")["tracks"]["limbs"]["left_arm"]["hp"]
    campaign.apply(cmd.Damage(eid, kesh.id, "5", {"limb": "left_arm", "defence_roll": 3}))
    assert party(campaign, "Kesh Varn")["tracks"]["limbs"]["left_arm"]["hp"] == full - 2
    campaign.apply(cmd.Damage(eid, kesh.id, "2", {"limb": "left_arm", "defence_roll": 6}))
    assert party(campaign, "Kesh Varn")["tracks"]["limbs"]["left_arm"]["hp"] == full - 2
    assert "attack 2 − defence 6 = 0 damage (NEM-07)" in campaign.log_entries()[-1]["text"]


def test_NEM_12_ranked_condition_decays_one_rank_per_tick(opened: Any) -> None:
    campaign = opened("nemron")
    eid, fight = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    first = enc(campaign)[1].combatants[0]
    campaign.apply(cmd.AddEffect(eid, first.id, "Bleeding", None, "end", rank=3))
    campaign.apply(cmd.NextTurn(eid))
    (bleeding,) = by_name(campaign, first.name).conditions
    assert (bleeding.rank, bleeding.remaining) == (2, 2)
    assert bleeding.label() == "Bleeding (rank 2) 2"


def test_NEM_12_ranks_decay_on_any_turn_change_not_only_next_turn(opened: Any) -> None:
    campaign = opened("nemron")
    eid, _ = enc(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    second = enc(campaign)[1].combatants[1]
    campaign.apply(cmd.AddEffect(eid, second.id, "Bleeding", None, "start", rank=3))
    campaign.apply(cmd.Delay(eid))  # the first delays: the second's turn starts and ticks
    (bleeding,) = by_name(campaign, second.name).conditions
    assert (bleeding.rank, bleeding.remaining) == (2, 2)
    campaign.apply(cmd.AddEffect(eid, second.id, "Dazed", 4, "end"))  # unranked: no rank
    assert by_name(campaign, second.name).conditions[1].rank is None


# --------------------------------------------------------------------------- joining a fight


def test_adding_library_npcs_keeps_the_trackers_morale_and_fate_notes(opened: Any) -> None:
    from app.commands.npcs import AddNpcsToEncounter

    campaign = opened("resolution")
    eid, _ = enc(campaign)
    g2 = by_name(campaign, "Goblin 2")
    campaign.apply(cmd.Damage(eid, g2.id, str((g2.stats["hp_max"] + 1) // 2)))
    npc_id = campaign.rows("npcs")[0][0]
    campaign.apply(AddNpcsToEncounter(npc_id, 2, "fixed"))
    saved = current_encounter(campaign)[1]  # type: ignore[index]
    assert [d["id"] for d in saved["morale_due"]] == [g2.id]
    assert len(saved["combatants"]) == 9


def test_SOH_10_joiners_mid_ap_round_act_in_it(opened: Any) -> None:
    from app.commands.npcs import AddNpcsToEncounter

    campaign = opened("shadows")
    eid, fight = enc(campaign)
    for c in [c for c in fight.combatants if c.side == "pc"]:
        campaign.apply(cmd.RemoveCombatant(eid, c.id))
    campaign.apply(cmd.StartEncounter(eid))
    campaign.apply(cmd.AddParty(eid))
    campaign.apply(AddNpcsToEncounter(campaign.rows("npcs")[0][0], 1, "fixed"))
    joined = enc(campaign)[1].combatants
    assert all(c.ap == c.ap_max > 0 for c in joined), [(c.name, c.ap, c.ap_max) for c in joined]
    agnes = next(c for c in joined if c.name == "Agnes Thorne")
    assert agnes.ap_max == 7  # 5 + ceil(Quickness 4 / 2)


def test_SOH_10_joiners_before_a_fight_have_spent_no_ap(opened: Any) -> None:
    """Before the fight starts nobody has spent an AP: a joiner's pool is full, not 0 of it."""
    from app.commands.npcs import AddNpcsToEncounter

    campaign = opened("shadows")
    campaign.apply(cmd.NewEncounter("Bridge", "ap_rounds"))
    eid, _ = enc(campaign)
    campaign.apply(cmd.AddParty(eid))
    campaign.apply(cmd.QuickAdd(eid, "Stiff", 1, 3))
    campaign.apply(AddNpcsToEncounter(campaign.rows("npcs")[0][0], 1, "fixed"))
    fight = enc(campaign)[1]
    assert not fight.started and len(fight.combatants) == 6
    assert all(c.ap == c.ap_max > 0 for c in fight.combatants), [
        (c.name, c.ap, c.ap_max) for c in fight.combatants
    ]


# --------------------------------------------------------------------------- foe sheets


def row_health(campaign: Campaign, name: str) -> str:
    """The tracker row's health text, as the panel builds it from the game's hooks."""
    c = by_name(campaign, name)
    rules = campaign.game.fight
    kind = health_kind(c)
    if kind == "foe":
        return foe_health(rules, c.stats["sheet"])
    assert kind == "hp", kind
    return hp_line(c.stats)


def test_somnihil_foe_at_zero_vitality_does_not_cheat_death(opened: Any) -> None:
    campaign = opened("somnihil")
    eid, _ = enc(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Stiff", 1, 3))
    stiff = by_name(campaign, "Stiff")
    assert stiff.stats["sheet"]["resources"] == {"vitality": {"current": 3, "max": 3}}
    assert row_health(campaign, "Stiff") == "3/3 vit"
    rolls = len([e for e in campaign.log_entries() if e.get("kind") == "roll"])
    campaign.apply(cmd.Damage(eid, stiff.id, "3"))
    campaign.apply(cmd.Damage(eid, stiff.id, "19"))  # a Cipher would roll Cheat Death here
    assert len([e for e in campaign.log_entries() if e.get("kind") == "roll"]) == rolls
    assert row_health(campaign, "Stiff") == "0/3 vit (out)"
    assert is_out(
        campaign.game.fight, by_name(campaign, "Stiff"), by_name(campaign, "Stiff").stats["sheet"]
    )


def test_resolution_foe_shows_hp_not_grip_and_checks_morale(opened: Any) -> None:
    campaign = opened("resolution")
    eid, _ = enc(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Wolf", 1, 10))
    wolf = by_name(campaign, "Wolf")
    assert wolf.stats == {"hp": 10, "hp_max": 10}
    assert row_health(campaign, "Wolf") == "10/10 HP"
    campaign.apply(cmd.Damage(eid, wolf.id, "6"))
    due = current_encounter(campaign)[1]["morale_due"]  # type: ignore[index]
    assert [d["id"] for d in due] == [wolf.id]


def test_aspects_foe_has_a_stress_track_and_is_taken_out_over_it(opened: Any) -> None:
    campaign = opened("aspects")
    eid, _ = enc(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Thug", 1, 2))
    thug = by_name(campaign, "Thug")
    sheet = thug.stats["sheet"]
    assert sheet["attributes"]["physical_stress_cap"] == 2 and "hp" not in thug.stats
    assert row_health(campaign, "Thug") == "stress cap 2 · 0 inj"
    campaign.apply(cmd.Damage(eid, thug.id, "9", {"defence": 7}))  # overlap 2: a minor injury
    assert row_health(campaign, "Thug") == "stress cap 2 · 1 inj"
    campaign.apply(cmd.Damage(eid, thug.id, "12", {"defence": 7}))  # 5 > 2, no consequences
    assert by_name(campaign, "Thug").stats["sheet"]["status"] == "taken out"
    assert not current_encounter(campaign)[1].get("pending")  # type: ignore[index]


def test_aspects_library_npcs_and_demo_goblins_get_the_stress_track(opened: Any) -> None:
    from app.commands.npcs import AddNpcsToEncounter

    campaign = opened("aspects")
    eid, _ = enc(campaign)
    assert health_kind(by_name(campaign, "Goblin 1")) == "foe"
    rolls = len([e for e in campaign.log_entries() if e.get("kind") == "roll"])
    campaign.apply(AddNpcsToEncounter(campaign.rows("npcs")[0][0], 2, "rolled"))
    added = by_name(campaign, "Goblin 5")
    assert added.stats["sheet"]["lists"] == {"injuries": [], "consequences": []}
    assert len([e for e in campaign.log_entries() if e.get("kind") == "roll"]) == rolls


def test_shadows_foe_tracks_three_pools_with_ap_from_quickness(opened: Any) -> None:
    campaign = opened("shadows")
    eid, _ = enc(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Hound", 1, 12, quickness=8))
    hound = by_name(campaign, "Hound")
    assert set(hound.stats["sheet"]["resources"]) == {"health", "life", "aessence"}
    campaign.apply(cmd.StartEncounter(eid))
    assert by_name(campaign, "Hound").ap_max == 9  # 5 + ceil(8 / 2)
    # A weapon's hit is Health and Life (SOH-17), not Æssence.
    campaign.apply(cmd.Damage(eid, hound.id, "5", {"pool": "hit"}))
    assert row_health(campaign, "Hound") == "H 7/12 · L 7/12 · Æ 12/12"


def test_nemron_foe_is_limbs_only_and_heals_its_most_hurt_limb(opened: Any) -> None:
    campaign = opened("nemron")
    eid, _ = enc(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Raider", 1, 4))
    raider = by_name(campaign, "Raider")
    assert set(raider.stats["sheet"]) == {"name", "attributes", "tracks", "status"}
    campaign.apply(cmd.Damage(eid, raider.id, "3", {"limb": "head"}))
    campaign.apply(cmd.Heal(eid, raider.id, "2"))
    assert by_name(campaign, "Raider").stats["sheet"]["tracks"]["limbs"]["head"]["hp"] == 3


def test_a_games_combat_command_in_another_game_is_refused_cleanly(opened: Any) -> None:
    campaign = opened("resolution")
    eid, _ = enc(campaign)
    gob = by_name(campaign, "Goblin 1")
    with pytest.raises(CommandError, match="no Darkest Self choice waiting"):
        campaign.apply(aspects_fight.ChooseDarkestSelf(eid, gob.id, "Taken Out"))
    with pytest.raises(CommandError, match="no fate to choose"):
        campaign.apply(somnihil_fight.ChooseFate(eid, gob.id, "Seditious Spirit"))


def test_a_resolution_foe_from_an_older_save_shows_and_takes_hp_only(opened: Any) -> None:
    from rulesets.resolution import rules as resolution

    campaign = opened("resolution")
    eid, fight = enc(campaign)
    doc = campaign.doc("encounters", eid)
    assert doc is not None
    old = er.Combatant(
        name="Wolf", side="npc", stats={"sheet": resolution.new_character("Wolf", hp=10)}
    )
    er.add_combatant(fight, old)
    campaign.store.db.table("encounters").update({**doc, **fight.to_dict()}, doc_ids=[eid])
    assert row_health(campaign, "Wolf") == "10/10 HP"
    campaign.apply(cmd.Damage(eid, by_name(campaign, "Wolf").id, "4"))
    assert row_health(campaign, "Wolf") == "6/10 HP"
