"""Issue 13: a fight runs right, start to end: initiative newcomers sorted in without moving the
turn, re-rolls only between rounds, defeated combatants skipped, reinforcements never take the
turn. Each test failed on the tracker before issue 13."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from app.commands import combat as cmd
from app.state import Campaign, CommandError, Transaction
from rulesets import encounter as er
from tests import test_combat_commands as combat_tests

opened = combat_tests.opened
fight = combat_tests.enc
named = combat_tests.by_name


def inits(enc: er.Encounter) -> dict[str, int | None]:
    return {c.name: c.initiative for c in enc.combatants}


def running(campaign: Campaign, turns: int = 2) -> int:
    """Roll, start, and play ``turns`` turns; returns the encounter id."""
    eid, _ = fight(campaign)
    campaign.apply(cmd.RollInitiative(eid))
    campaign.apply(cmd.StartEncounter(eid))
    for _ in range(turns):
        campaign.apply(cmd.NextTurn(eid))
    return eid


# --------------------------------------------------------------------------- initiative


@pytest.mark.parametrize("npcs_only", [False, True])
def test_rolling_mid_round_rolls_only_the_unset_and_keeps_the_turn(
    opened: Any, npcs_only: bool
) -> None:
    campaign = opened("nemron")
    eid = running(campaign)
    _, before = fight(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Ogre", 1, 20))
    campaign.apply(cmd.RollInitiative(eid, npcs_only=npcs_only))
    _, after = fight(campaign)
    ogre = named(campaign, "Ogre")
    assert ogre.initiative is not None
    # Nobody already placed rolled again, and the turn did not move.
    assert {k: v for k, v in inits(after).items() if k != "Ogre"} == inits(before)
    assert after.current == before.current
    others = [c for c in after.combatants if c.name != "Ogre"]
    assert [c.id for c in others] == [c.id for c in before.combatants]
    # The Ogre sits in its place by initiative.
    keys = [er.initiative_key(c) for c in after.combatants]
    assert keys == sorted(keys)


def test_rolling_with_everyone_placed_is_refused(opened: Any) -> None:
    campaign = opened("somnihil")
    eid = running(campaign)
    with pytest.raises(CommandError, match="Everyone has an initiative"):
        campaign.apply(cmd.RollInitiative(eid))


def test_reroll_everyone_only_between_rounds(opened: Any) -> None:
    campaign = opened("somnihil")
    eid = running(campaign, turns=1)
    with pytest.raises(CommandError, match="between rounds"):
        campaign.apply(cmd.RerollInitiative(eid))
    _, enc = fight(campaign)
    for _ in range(len(enc.combatants) - 1):
        campaign.apply(cmd.NextTurn(eid))
    _, enc = fight(campaign)
    assert enc.round == 2
    campaign.apply(cmd.RerollInitiative(eid))
    _, enc = fight(campaign)
    keys = [er.initiative_key(c) for c in enc.combatants]
    assert keys == sorted(keys)
    assert enc.current == enc.combatants[0].id and enc.round == 2


def test_players_rolls_typed_for_the_whole_party_at_once(opened: Any) -> None:
    campaign = opened("resolution")
    eid, enc = fight(campaign)
    campaign.apply(cmd.RollInitiative(eid, npcs_only=True))
    pcs = [c for c in enc.combatants if c.side == "pc"]
    rolls = {c.id: 30 - k for k, c in enumerate(pcs)}
    campaign.apply(cmd.PartyInitiative(eid, rolls))
    _, enc = fight(campaign)
    assert [c.id for c in enc.combatants[: len(pcs)]] == [c.id for c in pcs]
    assert [c.initiative for c in enc.combatants[: len(pcs)]] == list(rolls.values())


def test_editing_an_initiative_resorts_except_the_acting_one(opened: Any) -> None:
    campaign = opened("somnihil")
    eid = running(campaign, turns=1)
    _, enc = fight(campaign)
    last = enc.combatants[-1]
    campaign.apply(cmd.EditCombatant(eid, last.id, initiative=99))
    _, enc = fight(campaign)
    assert enc.combatants[0].id == last.id
    assert enc.combatants[0].acted  # placed above the turn: it acts next round
    acting = enc.current
    index = enc.index_of(str(acting))
    campaign.apply(cmd.EditCombatant(eid, str(acting), initiative=-50))
    _, enc = fight(campaign)
    assert enc.current == acting and enc.index_of(str(acting)) == index


def test_a_late_joiner_with_an_initiative_is_sorted_in_not_at_the_bottom(opened: Any) -> None:
    campaign = opened("somnihil")
    eid = running(campaign, turns=1)
    _, enc = fight(campaign)
    low = min(c.initiative or 0 for c in enc.combatants)
    campaign.apply(cmd.QuickAdd(eid, "Bandit", 1, 5, initiative=low + 3))
    _, enc = fight(campaign)
    assert enc.combatants[-1].name != "Bandit"
    keys = [er.initiative_key(c) for c in enc.combatants]
    assert keys == sorted(keys)


# --------------------------------------------------------------------------- defeated


def test_a_foe_at_0_hp_is_defeated_and_skipped_and_undo_restores(opened: Any) -> None:
    campaign = opened("somnihil")
    eid = running(campaign, turns=0)
    _, enc = fight(campaign)
    foe = next(c for c in enc.combatants[1:] if c.side == "npc")
    campaign.apply(cmd.Damage(eid, foe.id, "99"))
    assert named(campaign, foe.name).defeated
    seen = []
    for _ in range(2 * len(enc.combatants)):
        campaign.apply(cmd.NextTurn(eid))
        seen.append(fight(campaign)[1].current)
    assert foe.id not in seen
    for _ in range(2 * len(enc.combatants) + 1):
        campaign.undo()
    assert not named(campaign, foe.name).defeated
    # A Somnihil goblin's HP is its vitality (its statblock's foe in the game's terms).
    assert named(campaign, foe.name).stats["sheet"]["resources"]["vitality"]["current"] > 0


def test_a_key_toggles_defeated_and_heal_brings_back(opened: Any) -> None:
    campaign = opened("resolution")
    eid = running(campaign, turns=0)
    _, enc = fight(campaign)
    foe = next(c for c in enc.combatants if c.side == "npc")
    campaign.apply(cmd.ToggleDefeated(eid, foe.id))
    assert named(campaign, foe.name).defeated
    campaign.apply(cmd.ToggleDefeated(eid, foe.id))
    assert not named(campaign, foe.name).defeated
    campaign.apply(cmd.Damage(eid, foe.id, "99"))
    assert named(campaign, foe.name).defeated
    campaign.apply(cmd.Heal(eid, foe.id, "3"))
    assert not named(campaign, foe.name).defeated


def test_a_dead_shadows_pc_gets_no_turn_in_ap_rounds(opened: Any) -> None:
    campaign = opened("shadows")
    eid, enc = fight(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    pc = next(c for c in enc.combatants if c.side == "pc")
    sheet = campaign.doc("party", int(str(pc.ref)))
    assert sheet is not None
    campaign.apply(cmd.ToggleDefeated(eid, pc.id))
    for _ in range(20):
        campaign.apply(cmd.NextTurn(eid))
        assert fight(campaign)[1].current != pc.id
    assert named(campaign, pc.name).ap == 0


def test_a_downed_nemron_pc_keeps_its_turn(opened: Any) -> None:
    campaign = opened("nemron")
    eid = running(campaign, turns=0)
    _, enc = fight(campaign)
    pc = next(c for c in enc.combatants if c.side == "pc")
    campaign.apply(cmd.Damage(eid, pc.id, "99", {"limb": "torso"}))
    sheet = campaign.doc("party", int(str(pc.ref)))
    assert sheet is not None and sheet["status"] == "downed"
    assert not named(campaign, pc.name).defeated
    campaign.apply(cmd.NextTurn(eid))
    assert not named(campaign, pc.name).defeated


def test_a_pc_who_died_on_the_party_sheet_is_skipped(opened: Any) -> None:
    campaign = opened("somnihil")
    eid = running(campaign, turns=0)
    _, enc = fight(campaign)
    pcs = [c for c in enc.combatants if c.side == "pc"]
    pc = pcs[0]
    sheet = campaign.doc("party", int(str(pc.ref)))
    assert sheet is not None

    campaign.apply(Perish(int(str(pc.ref))))
    for _ in range(len(enc.combatants) + 1):
        campaign.apply(cmd.NextTurn(eid))
        assert fight(campaign)[1].current != pc.id
    assert named(campaign, pc.name).defeated


@dataclass(frozen=True)
class Perish:
    """A death written outside the tracker (as the party panel would)."""

    doc_id: int
    label: str = "Perish"

    def run(self, tx: Transaction) -> list[str]:
        doc = tx.find("party", self.doc_id)
        assert doc is not None
        doc["status"] = "perished"
        tx.put("party", self.doc_id, doc)
        return ["perished"]


# --------------------------------------------------------------------------- reinforcements


def test_a_reinforcement_in_ap_rounds_never_takes_the_turn(opened: Any) -> None:
    campaign = opened("shadows")
    eid, _ = fight(campaign)
    campaign.apply(cmd.StartEncounter(eid))
    acting = fight(campaign)[1].current
    campaign.apply(cmd.QuickAdd(eid, "Ogre", 1, 30, quickness=12))
    _, enc = fight(campaign)
    assert enc.current == acting
    assert named(campaign, "Ogre").ap > 0


def test_a_reinforcement_with_initiative_never_takes_the_turn(opened: Any) -> None:
    campaign = opened("nemron")
    eid = running(campaign, turns=1)
    acting = fight(campaign)[1].current
    campaign.apply(cmd.QuickAdd(eid, "Ogre", 1, 30, initiative=99))
    _, enc = fight(campaign)
    assert enc.current == acting and enc.combatants[0].name == "Ogre"


# --------------------------------------------------------------------------- foes and allies


def test_an_ally_gets_the_games_foe_sheet_and_prompts_morale_NPC_08(opened: Any) -> None:
    campaign = opened("somnihil")
    eid = running(campaign, turns=1)
    campaign.apply(cmd.QuickAdd(eid, "Guard", 1, 6, side="pc"))
    guard = named(campaign, "Guard")
    assert guard.side == "pc" and isinstance(guard.stats.get("sheet"), dict)
    _, enc = fight(campaign)
    doc = campaign.doc("encounters", eid)
    assert doc is not None
    due = {d["id"] for d in doc["morale_due"]}
    # NPC-08: every foe with a statblock checks, whatever its game made of it (a vitality pool).
    hd_foes = {c.id for c in enc.combatants if c.side == "npc" and c.ref}
    assert hd_foes and due == hd_foes


def test_every_due_morale_check_rolls_in_one_key(opened: Any) -> None:
    campaign = opened("resolution")
    eid = running(campaign, turns=1)
    campaign.apply(cmd.QuickAdd(eid, "Guard", 2, 6, side="pc"))
    doc = campaign.doc("encounters", eid)
    assert doc is not None and len(doc["morale_due"]) >= 2
    rolls_before = len([e for e in campaign.log_entries() if e.get("kind") == "roll"])
    campaign.apply(cmd.MoraleDue(eid))
    doc = campaign.doc("encounters", eid)
    assert doc is not None and doc["morale_due"] == []
    rolls = len([e for e in campaign.log_entries() if e.get("kind") == "roll"]) - rolls_before
    assert rolls >= 2
    with pytest.raises(CommandError, match="No morale check is due"):
        campaign.apply(cmd.MoraleDue(eid))


# --------------------------------------------------------------------------- area


def test_area_damage_rolls_once_and_lands_on_each_with_one_undo(opened: Any) -> None:
    campaign = opened("resolution")
    eid, enc = fight(campaign)
    foes = [c for c in enc.combatants if c.side == "npc"][:2]
    hp = [int(c.stats["hp"]) for c in foes]
    rolls = len([e for e in campaign.log_entries() if e.get("kind") == "roll"])
    campaign.apply(cmd.Area(eid, tuple(c.id for c in foes), "1d4"))
    after = len([e for e in campaign.log_entries() if e.get("kind") == "roll"])
    assert after - rolls == 1  # one roll for the area
    lost = [hp[k] - int(named(campaign, c.name).stats["hp"]) for k, c in enumerate(foes)]
    assert lost[0] == lost[1] and 1 <= lost[0] <= 4
    campaign.undo()
    assert [int(named(campaign, c.name).stats["hp"]) for c in foes] == hp
    with pytest.raises(CommandError, match="Mark the combatants"):
        campaign.apply(cmd.Area(eid, (), "3"))


def test_a_foe_defeated_in_an_area_owes_no_morale_check_NPC_08(opened: Any) -> None:
    """One goblin drops first (its allies owe morale), then a second drops in the same area:
    only the one still standing checks morale; a defeated foe does not."""
    campaign = opened("resolution")
    eid = running(campaign, turns=0)
    goblins = [c for c in fight(campaign)[1].combatants if c.side == "npc"]
    first, second, third = goblins[:3]
    campaign.apply(cmd.Area(eid, (first.id, second.id), "99"))
    enc_doc = campaign.doc("encounters", eid)
    assert enc_doc is not None
    due = [d["id"] for d in enc_doc.get("morale_due", [])]
    assert due == [third.id]


# --------------------------------------------------------------------------- Somnihil


def test_SOM_03_triumph_is_offered_on_every_target(opened: Any) -> None:
    from rulesets.somnihil import fight as somnihil_fight

    for kind in ("hp", "foe", "pc"):
        keys = [f.key for f in somnihil_fight.damage_form(kind)]
        assert "triumph" in keys
    campaign = opened("somnihil")
    eid, enc = fight(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Husk", 1, 20))
    husk = named(campaign, "Husk")
    campaign.apply(cmd.Damage(eid, husk.id, "3", {"triumph": "yes"}))
    assert named(campaign, "Husk").stats["sheet"]["resources"]["vitality"]["current"] == 14


def test_SOM_04_typed_cheat_death_and_a_natural_1_restores_1_ap(opened: Any) -> None:
    campaign = opened("somnihil")
    eid, enc = fight(campaign)
    pc = next(c for c in enc.combatants if c.side == "pc")
    ref = int(str(pc.ref))
    sheet = campaign.doc("party", ref)
    assert sheet is not None
    vit = sheet["resources"]["vitality"]["current"]
    campaign.apply(cmd.Damage(eid, pc.id, str(vit)))  # to 0 vitality
    campaign.apply(cmd.Damage(eid, pc.id, "5", {"cheat_death": 12}))  # 12 ≥ 5: cheats death
    sheet = campaign.doc("party", ref)
    assert sheet is not None and sheet["status"] == "alive"
    ap = sheet["resources"]["ap"]
    ap_before = ap["current"]
    campaign.apply(cmd.Damage(eid, pc.id, "5", {"cheat_death": 1}))
    sheet = campaign.doc("party", ref)
    assert sheet is not None and sheet["status"] == "perished"
    assert sheet["resources"]["ap"]["current"] == min(ap["max"], ap_before + 1)
    with pytest.raises(CommandError, match="1 to 20"):
        campaign.undo()
        campaign.apply(cmd.Damage(eid, pc.id, "5", {"cheat_death": 25}))


# --------------------------------------------------------------------------- each game


def test_shadows_library_npcs_get_one_quickness_for_ap_and_defence(opened: Any) -> None:
    """Reading (rulesets.shadows.foes): Quickness 6 + 2 x Wit, on the sheet and the row alike."""
    from app.commands.npcs import AddNpcsToEncounter

    campaign = opened("shadows")
    npc_id = campaign.rows("npcs")[0][0]  # the Goblin: Wit +1
    campaign.apply(AddNpcsToEncounter(npc_id, 1, "fixed"))
    _, enc = fight(campaign)
    joined = enc.combatants[-1]
    assert joined.quickness == 8 == joined.stats["sheet"]["attributes"]["quickness"]
    assert joined.ap_max == 5 + -(-8 // 2)


def test_SOM_04_05_a_spell_cast_from_the_tracker_in_initiative_order(opened: Any) -> None:
    from rulesets.somnihil import fight as somnihil_fight
    from rulesets.somnihil import rules as somnihil

    campaign = opened("somnihil")
    eid = running(campaign, turns=0)
    _, enc = fight(campaign)
    assert enc.model == "initiative"
    caster = next(
        c
        for c in enc.combatants
        if c.side == "pc" and (campaign.doc("party", int(str(c.ref))) or {})["lists"].get("spells")
    )
    ref = int(str(caster.ref))
    sheet = campaign.doc("party", ref)
    assert sheet is not None
    spell = sheet["lists"]["spells"][0]["name"]
    ap = sheet["resources"]["ap"]["current"]
    seen_catastrophe = False
    for _ in range(30):  # until a Catastrophe comes up (a natural 1 or 2 on the d20)
        campaign.apply(somnihil_fight.CastSpell(eid, caster.id, spell, 1, rolled=True))
        sheet = campaign.doc("party", ref)
        assert sheet is not None
        roll = [e for e in campaign.log_entries() if e.get("kind") == "roll"][-1]
        if roll["band"] == somnihil.CATASTROPHE:
            seen_catastrophe = True
            assert any(e.name == "Anomaly" for e in named(campaign, caster.name).conditions)
            break
        campaign.undo()
    assert seen_catastrophe
    assert sheet["resources"]["ap"]["current"] in (ap - 1, ap)  # ap - 1, + 1 on a natural 1


def test_effort_is_spent_per_combatant_not_on_the_shared_library_npc(opened: Any) -> None:
    from app.commands.npcs import (
        AddNpcsToEncounter,
        RefreshInstanceEffort,
        RollStatblock,
        npc_block,
    )

    campaign = opened("resolution")
    npc_id = next(i for i, d in campaign.rows("npcs") if npc_block(d).effort != "0")
    campaign.apply(AddNpcsToEncounter(npc_id, 2, "fixed"))
    eid, enc = fight(campaign)
    copies = enc.combatants[-2:]
    assert all(c.ref == str(npc_id) for c in copies)
    for _ in range(12):  # until the first copy's Effort die shrinks or runs out
        campaign.apply(RollStatblock(eid, copies[0].id, kind="effort"))
        if "effort_left" in named(campaign, copies[0].name).stats:
            break
    assert "effort_left" in named(campaign, copies[0].name).stats
    assert "effort_left" not in named(campaign, copies[1].name).stats
    library = campaign.doc("npcs", npc_id)
    assert library is not None and "effort_left" not in library
    rolls = [e for e in campaign.log_entries() if e.get("kind") == "roll"]
    assert rolls[-1]["who"] == copies[0].name
    campaign.apply(RefreshInstanceEffort(eid, copies[0].id))
    assert "effort_left" not in named(campaign, copies[0].name).stats


def test_library_reinforcements_offer_morale_to_hd_allies_NPC_08(opened: Any) -> None:
    from app.commands.npcs import AddNpcsToEncounter

    campaign = opened("resolution")
    eid = running(campaign, turns=1)
    campaign.apply(cmd.QuickAdd(eid, "Guard", 1, 6, side="pc"))
    campaign.apply(cmd.MoraleDue(eid))
    npc_id = campaign.rows("npcs")[0][0]
    campaign.apply(AddNpcsToEncounter(npc_id, 2, "fixed"))
    doc = campaign.doc("encounters", eid)
    assert doc is not None
    assert [d["id"] for d in doc["morale_due"]] == [named(campaign, "Guard").id]


def test_SOH_06_16_the_weapons_fumble_value_and_critical_suit_reach_the_attack(
    opened: Any,
) -> None:
    campaign = opened("shadows")
    eid, enc = fight(campaign)
    goblin = next(c for c in enc.combatants if c.side == "npc")
    answers = {"card": "Ace of Swords", "fumble": 9, "critical": "Cups"}
    lines = campaign.apply(cmd.Damage(eid, goblin.id, "", answers))
    assert any("fumble check" in line and "vs 9" in line for line in lines), lines
    from rulesets.shadows import fight as shadows_fight

    keys = [f.key for f in shadows_fight.damage_form("pc")]
    assert keys[-2:] == ["fumble", "critical"] and keys.index("pool") == 10


def test_ASP_02_a_fight_starts_a_scene_a_pc_with_no_fate_point_gains_one(opened: Any) -> None:
    """Found playing the aspects demo: every PC fought with 0 FP, though a scene started at 0
    grants 1 (ASP-02). Starting the fight is the scene's start; one undo takes both back."""
    campaign = opened("aspects")
    eid, enc = fight(campaign)
    pcs = [c for c in enc.combatants if c.side == "pc"]
    before = {c.name: campaign.doc("party", int(str(c.ref)))["resources"]["fate_points"]["current"]
              for c in pcs}
    assert set(before.values()) == {0}
    lines = campaign.apply(cmd.StartEncounter(eid))
    after = {c.name: campaign.doc("party", int(str(c.ref)))["resources"]["fate_points"]["current"]
             for c in pcs}
    assert after == {name: 1 for name in before}
    assert f"A new scene: {pcs[0].name}, " in "; ".join(lines)
    assert f" and {pcs[-1].name} had no Fate Points, +1 each" in "; ".join(lines)
    campaign.undo()
    assert {c.name: campaign.doc("party", int(str(c.ref)))["resources"]["fate_points"]["current"]
            for c in pcs} == before


def test_a_game_without_scenes_leaves_the_sheets_alone_at_the_start(opened: Any) -> None:
    campaign = opened("resolution")
    eid, _ = fight(campaign)
    party = [dict(doc) for _, doc in campaign.rows("party")]
    campaign.apply(cmd.StartEncounter(eid))
    assert [dict(doc) for _, doc in campaign.rows("party")] == party
