"""The exchange's rules in each game: who may attack whom, the defender's answer, the pools it
lands on, what it spends; and T, which lands damage once and never a check."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from app.commands import combat as cmd
from app.commands.npcs import AddNpcsToEncounter, SaveNpc, npc_document
from app.state import Campaign, CommandError, Transaction
from rulesets import encounter as er
from rulesets import exchange as ex
from rulesets.base import CheckResult
from rulesets.fight import load
from rulesets.nemron.fight import turn_note
from tests.test_combat_commands import by_name, enc, opened, party

__all__ = ["opened"]  # the fixture, imported for its use here

Opened = Callable[..., Campaign]


def attack(campaign: Campaign, attacker: str, target: str, defence: str = "") -> list[str]:
    eid, _ = enc(campaign)
    a, t = by_name(campaign, attacker), by_name(campaign, target)
    return campaign.apply(ex.Attack(eid, attacker_id=a.id, target_id=t.id, defence=defence))


def odds(campaign: Campaign, attacker: str, target: str, defence: str = "") -> ex.Odds:
    eid, _ = enc(campaign)
    fight = load(Transaction(campaign), eid)
    a, t = by_name(campaign, attacker), by_name(campaign, target)
    return ex.odds(campaign.game.exchange, ex.setup_of(fight, a.id, t.id, defence))


def started(campaign: Campaign) -> int:
    eid, encounter = enc(campaign)
    if encounter.model == "initiative":
        campaign.apply(cmd.RollInitiative(eid))
    campaign.apply(cmd.StartEncounter(eid))
    return eid


def add_library_foe(campaign: Campaign, name: str, brawl: int, wit: int, will: int) -> str:
    """A library NPC joins the running encounter; its combatant's name."""
    campaign.apply(SaveNpc(npc_document(name, (), brawl, wit, will)))
    npc_id = max(doc_id for doc_id, _ in campaign.rows("npcs"))
    campaign.apply(AddNpcsToEncounter(npc_id, 1))
    return next(c.name for c in enc(campaign)[1].combatants if c.name.startswith(name))


def log_texts(campaign: Campaign) -> list[str]:
    return [str(e.get("text", "")) for e in campaign.log_entries()]


# --------------------------------------------------------------------------- Resolution


def test_resolution_a_pc_attacks_a_foe_against_its_ac_with_odds(opened: Opened) -> None:
    campaign = opened("resolution")
    found = odds(campaign, "Sefa Ironwood", "Goblin 1")
    # Sefa: STR 16 (+1) against the goblin's AC 12: d20+1 hits on 11+.
    assert found.steps[0] == "d20+1 vs AC 12: hits 50.0%"
    assert found.hit == Fraction(1, 2) and sum(found.damage.values()) == 1
    lines = attack(campaign, "Sefa Ironwood", "Goblin 1")
    assert lines[0].startswith("Sefa Ironwood attacks Goblin 1: d20+1 vs AC 12: ")
    rolls = [e for e in campaign.log_entries() if e.get("kind") == "roll"]
    assert rolls[-1]["who"] == "Sefa Ironwood"


def test_rr05_a_pcs_hp_and_a_foes_are_written_alike(opened: Opened) -> None:
    """RR-05: damage and healing read the same for a PC's sheet and a foe's HD HP in the log:
    `Name takes N damage: before → after/max HP`, `Name heals N: before → after/max HP`."""
    campaign = opened("resolution")
    eid, _ = enc(campaign)
    mara, goblin = by_name(campaign, "Mara Quell"), by_name(campaign, "Goblin 1")
    pc_top = party(campaign, "Mara Quell")["resources"]["hp"]["max"]
    foe_top = int(goblin.stats["hp_max"])
    lines = campaign.apply(cmd.Damage(eid, combatant_id=mara.id, amount="2"))
    assert lines[0] == f"Mara Quell takes 2 damage: {pc_top} → {pc_top - 2}/{pc_top} HP"
    lines = campaign.apply(cmd.Damage(eid, combatant_id=goblin.id, amount="2"))
    assert lines[0] == f"Goblin 1 takes 2 damage: {foe_top} → {foe_top - 2}/{foe_top} HP"
    lines = campaign.apply(cmd.Heal(eid, combatant_id=mara.id, amount="1"))
    assert lines[0] == f"Mara Quell heals 1: {pc_top - 2} → {pc_top - 1}/{pc_top} HP"
    lines = campaign.apply(cmd.Heal(eid, combatant_id=goblin.id, amount="1"))
    assert lines[0] == f"Goblin 1 heals 1: {foe_top - 2} → {foe_top - 1}/{foe_top} HP"


def test_resolution_a_pcs_remembered_attack_is_its_own(opened: Opened) -> None:
    campaign = opened("resolution")
    sheet = party(campaign, "Dov Ashgrove")
    doc_id = next(i for i, d in campaign.rows("party") if d["name"] == "Dov Ashgrove")

    class Remember:
        label = "Remember"

        def run(self, tx: Any) -> list[str]:
            tx.put("party", doc_id, {**sheet, "attack": {"attribute": "dex", "damage": "1d8"}})
            return ["remembered"]

    campaign.apply(Remember())
    assert odds(campaign, "Dov Ashgrove", "Goblin 1").steps[:2] == (
        "d20+1 vs AC 12: hits 50.0%",
        "1d8+1 on a hit",
    )


# --------------------------------------------------------------------------- Somnihil


def test_somnihil_a_foe_meets_the_ciphers_opposing_roll_not_an_ac(opened: Opened) -> None:
    campaign = opened("somnihil")
    found = odds(campaign, "Goblin 1", "Vesna Kade")
    assert "AC" not in " ".join(found.steps)
    assert found.hit == Fraction(5, 20)  # Failure 2-5 and Catastrophe 1 let it land
    attack(campaign, "Goblin 1", "Vesna Kade")
    rolls = [e for e in campaign.log_entries() if e.get("kind") == "roll"]
    assert rolls[-1]["who"] == "Vesna Kade" and "opposing" in rolls[-1]["expression"]


def test_somnihil_a_ciphers_triumph_doubles_its_damage(opened: Opened) -> None:
    campaign = opened("somnihil")
    found = odds(campaign, "Vesna Kade", "Goblin 1")
    assert found.hit == Fraction(15, 20)  # 6-20: Tough Choice, Success, Triumph
    assert found.damage.get(12) == Fraction(1, 20) * Fraction(1, 6)  # a Triumph's 6, doubled


def test_som03_a_triumphs_step_shows_the_die_then_the_doubling(opened: Opened) -> None:
    """SOM-03: a Triumph doubles the damage; the step says the die as rolled and the double,
    so the GM reads `1d6: 2 ×2 = 4`, not `1d6: 4` for a die that showed 2."""
    campaign = opened("somnihil")
    head = attack(campaign, "Vesna Kade", "Goblin 1", defence="20")[0]
    assert "d20 20: Triumph (damage doubled)" in head, head
    rolled, doubled = (int(n) for n in head.split("1d6: ", 1)[1].split(" ×2 = "))
    assert doubled == 2 * rolled, head


def test_som06_an_exchanges_d20_logs_its_setbacks_as_the_trays_does(opened: Opened) -> None:
    """SOM-06: a Failure suffers a setback of the Chronicler's choosing. The tray's d20 logs
    its setbacks; the same d20 in an exchange logged none, and a failed attack said none."""
    campaign = opened("somnihil")
    head = attack(campaign, "Vesna Kade", "Goblin 1", defence="3")[0]
    assert "d20 3: Failure · a Failure: one setback of the Chronicler's choosing" in head, head
    rolls = [e for e in campaign.log_entries() if e.get("kind") == "roll"]
    assert rolls[-1]["detail"] == "setbacks: 1 offered, 1 taken (one setback of the Chronicler's choosing)"
    attack(campaign, "Goblin 1", "Vesna Kade", defence="1")
    rolls = [e for e in campaign.log_entries() if e.get("kind") == "roll"]
    assert rolls[-1]["who"] == "Vesna Kade" and "2 taken" in rolls[-1]["detail"], rolls[-1]


def test_somnihil_a_foe_against_a_foe_asks_no_ciphers_roll(opened: Opened) -> None:
    """SOM-01: only a Cipher's player rolls. A goblin against a goblin is its statblock's d20
    against AC, and its plan asks no answer; a d20 typed for it is refused, not ignored."""
    campaign = opened("somnihil")
    found = odds(campaign, "Goblin 1", "Goblin 2")
    assert found.answer == "" and "vs AC" in found.steps[0]
    assert odds(campaign, "Goblin 1", "Vesna Kade").answer == "Defence"
    version = campaign.version
    with pytest.raises(CommandError, match="No Cipher rolls when Goblin 1 attacks Goblin 2"):
        attack(campaign, "Goblin 1", "Goblin 2", defence="12")
    assert campaign.version == version


# --------------------------------------------------------------------------- Nemron


def test_nem06_defending_spends_the_reaction_and_a_second_attack_finds_none(
    opened: Opened,
) -> None:
    campaign = opened("nemron")
    started(campaign)
    first = odds(campaign, "Kesh Varn", "Goblin 1")
    assert any("defends (reaction)" in s for s in first.steps)
    attack(campaign, "Kesh Varn", "Goblin 1")
    assert by_name(campaign, "Goblin 1").economy["reaction"] is True
    again = odds(campaign, "Ylva Rask", "Goblin 1")
    assert any("no reaction left" in s for s in again.steps)
    lines = attack(campaign, "Ylva Rask", "Goblin 1")
    assert "defends" not in " ".join(lines)


def test_nem06_attacking_uses_the_attackers_action_and_a_second_says_so(opened: Opened) -> None:
    """The row's Turn column shows the attack spent Kesh's action, as it shows the reaction
    the goblin's defence spent; a second attack that turn is said, not silently free."""
    campaign = opened("nemron")
    started(campaign)
    first = attack(campaign, "Kesh Varn", "Goblin 1")
    assert "Kesh Varn uses its action" in first
    kesh = by_name(campaign, "Kesh Varn")
    assert kesh.economy["action"] is True
    assert turn_note(enc(campaign)[1], kesh) == "used A"
    again = attack(campaign, "Kesh Varn", "Goblin 2")
    assert "Kesh Varn has already used its action this turn (NEM-06)" in again
    campaign.undo()
    campaign.undo()
    assert by_name(campaign, "Kesh Varn").economy["action"] is False


def test_nem10_a_bonus_reaction_costs_2_energy_once(opened: Opened) -> None:
    campaign = opened("nemron")
    started(campaign)
    energy = party(campaign, "Ylva Rask")["resources"]["energy"]["current"]
    attack(campaign, "Goblin 1", "Ylva Rask")  # her reaction answers this one
    with pytest.raises(CommandError, match="used its reaction"):
        attack(campaign, "Goblin 2", "Ylva Rask", "3")
    attack(campaign, "Goblin 2", "Ylva Rask", "bonus")
    assert party(campaign, "Ylva Rask")["resources"]["energy"]["current"] == energy - 2
    # Where the GM looks: the row's turn column says what of the round is spent.
    assert turn_note(enc(campaign)[1], by_name(campaign, "Ylva Rask")) == "used R+bonus R"
    with pytest.raises(CommandError, match="bought its bonus reaction"):
        attack(campaign, "Goblin 3", "Ylva Rask", "bonus")


def test_nem10_bonus_typed_with_the_reaction_unused_buys_the_bonus_one(opened: Opened) -> None:
    """The rules text never makes the free reaction go first: ``bonus`` spends 2 Energy on the
    bonus reaction and leaves the free one for the next attack."""
    campaign = opened("nemron")
    started(campaign)
    energy = party(campaign, "Ylva Rask")["resources"]["energy"]["current"]
    assert costs(campaign, "Goblin 1", "Ylva Rask", "bonus") == ({}, {"energy": 2})
    assert any(
        "defends (bonus)" in s for s in odds(campaign, "Goblin 1", "Ylva Rask", "bonus").steps
    )
    lines = attack(campaign, "Goblin 1", "Ylva Rask", "bonus")
    assert any("-2 Energy for a bonus reaction" in line for line in lines)
    assert not any("uses its reaction" in line for line in lines)
    ylva = by_name(campaign, "Ylva Rask")
    assert party(campaign, "Ylva Rask")["resources"]["energy"]["current"] == energy - 2
    assert ylva.economy.get("reaction", False) is False
    assert turn_note(enc(campaign)[1], ylva) == "used bonus R"  # not "+bonus R": nothing else
    # The free reaction is still hers: the next attack in the round meets it.
    assert any("defends (reaction)" in s for s in odds(campaign, "Goblin 2", "Ylva Rask").steps)
    attack(campaign, "Goblin 2", "Ylva Rask")
    assert by_name(campaign, "Ylva Rask").economy["reaction"] is True


def test_nem10_bonus_with_the_number_rolled_at_the_table_is_that_defence(
    opened: Opened,
) -> None:
    """Her player rolled the bonus reaction's defence at the table: ``bonus 20`` is that roll,
    as a number alone is the free reaction's."""
    campaign = opened("nemron")
    started(campaign)
    attack(campaign, "Goblin 1", "Ylva Rask")  # her reaction answers this one
    found = odds(campaign, "Goblin 2", "Ylva Rask", "bonus 20")
    assert "Ylva Rask defends (bonus): typed 20" in found.steps and found.hit == 0
    with pytest.raises(CommandError, match="type bonus 20 to buy one for 2 Energy"):
        attack(campaign, "Goblin 2", "Ylva Rask", "20")
    lines = attack(campaign, "Goblin 2", "Ylva Rask", "bonus 20")
    assert "Ylva Rask defends (bonus): 20" in lines[0] and "Nothing lands" in lines[-1]


def test_nem06_none_typed_with_the_reaction_free_says_it_does_not_defend(
    opened: Opened,
) -> None:
    """``none`` keeps the free reaction: the line must not say there is none left."""
    campaign = opened("nemron")
    started(campaign)
    found = odds(campaign, "Goblin 1", "Ylva Rask", "none")
    assert "Ylva Rask does not defend" in found.steps
    assert not any("no reaction left" in s for s in found.steps)
    lines = attack(campaign, "Goblin 1", "Ylva Rask", "none")
    assert "Ylva Rask does not defend" in lines[0] and "no reaction left" not in lines[0]
    assert by_name(campaign, "Ylva Rask").economy["reaction"] is False


def test_nem10_both_answers_two_attacks_with_the_reaction_and_the_bonus(opened: Opened) -> None:
    campaign = opened("nemron")
    started(campaign)
    snake = add_library_foe(campaign, "Snake", 1, 3, 0)  # Wit 3: two attacks
    found = odds(campaign, snake, "Ylva Rask", "both")
    defends = [s.split(":")[0] for s in found.steps if "defends" in s]
    assert defends == ["Ylva Rask defends (reaction)", "Ylva Rask defends (bonus)"]
    with pytest.raises(CommandError, match="Goblin 1 attacks once"):
        attack(campaign, "Goblin 1", "Ylva Rask", "both")


def test_nem07_the_landing_never_contradicts_the_exchanges_own_defence(opened: Opened) -> None:
    """The exchange says its attack roll, the defence and the damage left; landing that damage
    must not add an "attack N − defence 0" of its own (the defence was 1)."""
    campaign = opened("nemron")
    started(campaign)
    said: list[str] = []
    for foe, pc in [
        ("Goblin 1", "Kesh Varn"),
        ("Goblin 2", "Ylva Rask"),
        ("Goblin 3", "Tomas Ert"),
    ]:
        said += attack(campaign, foe, pc, "1")  # each PC's player rolled a defence of 1
    landed = [line for line in said if "damage to" in line]
    assert landed, said
    assert not [line for line in said if "− defence" in line], said


def test_nem07_one_typed_defence_answers_one_of_two_attacks(opened: Opened) -> None:
    campaign = opened("nemron")
    started(campaign)
    snake = add_library_foe(campaign, "Snake", 1, 3, 0)  # Wit 3: two attacks
    found = odds(campaign, snake, "Ylva Rask", "20")
    assert len(found.blows) == 2
    assert found.blows[0].hit == 0  # the typed 20 stops the first
    assert found.blows[1].hit > 0  # the second finds her reaction spent


def test_nem04_a_foes_attack_under_its_weapons_minimum_misses() -> None:
    campaign_rng = random.Random(0)
    side = _nemron_side()
    setup = ex.Setup(side, _nemron_side(pc=True), defence="none")
    from rulesets.nemron import exchange as nem

    plan = nem.plan(setup)
    assert "at least 2" in plan.steps[0]
    # d6 › d4: a kept 1 (1/24) is an automatic miss, not 1 damage.
    assert plan.blows[0].damage[0] == Fraction(1, 24)
    assert 1 not in plan.blows[0].damage
    rolled = [nem.roll(setup, campaign_rng) for _ in range(200)]
    assert all(r.amounts[0] != 1 for r in rolled)


def _nemron_side(pc: bool = False) -> ex.Side:
    from rulesets import npc
    from rulesets.nemron import foes

    block = npc.build(1, 1, 0, name="Goblin")
    stats = foes.make("Goblin", block, block.hp)
    c = er.Combatant(name="PC" if pc else "Goblin", side="pc" if pc else "npc", stats=stats)
    return ex.Side(c, "foe", stats["sheet"], None if pc else block)


# --------------------------------------------------------------------------- aspects


def test_asp05_two_attacks_are_two_confrontations(opened: Opened) -> None:
    campaign = opened("aspects")
    brute = add_library_foe(campaign, "Brute", 1, 3, 0)  # Wit 3: two attacks
    found = odds(campaign, brute, "Rowan Pike", "11")
    assert len(found.blows) == 2 and found.blows[0] == found.blows[1]
    lines = attack(campaign, brute, "Rowan Pike", "11")
    confronted = [ln for ln in lines if "overlap" in ln or "defends (" in ln]
    head = lines[0]
    assert head.count(" vs ") == 2  # each attack against the typed 11 on its own
    assert all("24" not in ln for ln in confronted)


def test_asp05_the_defence_is_the_right_skill_not_the_better_one(opened: Opened) -> None:
    campaign = opened("aspects")
    doc_id = next(i for i, d in campaign.rows("party") if d["name"] == "Juno Hart")
    sheet = party(campaign, "Juno Hart")
    sheet["attributes"].update({"athletic": 1, "fight": 4, "physique": 3})

    class Skills:
        label = "Skills"

        def run(self, tx: Any) -> list[str]:
            tx.put("party", doc_id, sheet)
            return ["skills"]

    campaign.apply(Skills())
    assert "2d6+1 (athletic)" in odds(campaign, "Goblin 1", "Juno Hart").steps[0]  # a dodge
    assert "2d6+3 (physique)" in odds(campaign, "Goblin 1", "Juno Hart", "block").steps[0]
    verbal = ex.Attack(
        enc(campaign)[0],
        attacker_id=by_name(campaign, "Goblin 1").id,
        target_id=by_name(campaign, "Juno Hart").id,
        defence="block",
        attribute="will",
    )
    with pytest.raises(CommandError, match="defended with Will"):
        campaign.apply(verbal)


def test_asp03_a_fate_point_rerolls_the_defence_once_and_is_spent(opened: Opened) -> None:
    campaign = opened("aspects")
    with pytest.raises(CommandError, match="no fate point"):
        attack(campaign, "Goblin 1", "Juno Hart", "dodge fate")
    started(campaign)  # a scene's start gives a fate point to who has none (ASP-02)
    points = party(campaign, "Juno Hart")["resources"]["fate_points"]["current"]
    others = {n: party(campaign, n)["resources"]["fate_points"] for n in ("Rowan Pike",)}
    assert points >= 1
    plain, fated = (
        odds(campaign, "Goblin 1", "Juno Hart"),
        odds(campaign, "Goblin 1", "Juno Hart", "fate"),
    )
    assert fated.hit < plain.hit
    attack(campaign, "Goblin 1", "Juno Hart", "fate")
    assert party(campaign, "Juno Hart")["resources"]["fate_points"]["current"] == points - 1
    # Only the defender spends: nobody else's fate point is touched.
    assert {n: party(campaign, n)["resources"]["fate_points"] for n in others} == others


def test_asp05_a_nameless_foes_first_hit_is_a_consequence_and_taken_out(opened: Opened) -> None:
    campaign = opened("aspects")
    eid, _ = enc(campaign)
    campaign.apply(cmd.QuickAdd(eid, "Thug", 1, None))
    thug = by_name(campaign, "Thug")
    assert thug.stats["sheet"]["attributes"]["physical_stress_cap"] == 0
    lines = campaign.apply(cmd.Damage(eid, thug.id, "9", {"defence": 8}))
    assert "consequence" in " ".join(lines)
    assert by_name(campaign, "Thug").defeated


# --------------------------------------------------------------------------- Shadows


def test_soh17_the_exchange_lands_on_health_and_life(opened: Opened) -> None:
    campaign = opened("shadows")
    started(campaign)
    before = party(campaign, "Agnes Thorne")["resources"]
    found = odds(campaign, "Goblin 1", "Agnes Thorne")
    assert "Health and Life" in found.steps[-1]
    assert "(AP 7 left for defence cards, 1 each)" in found.steps[1]
    attack(campaign, "Goblin 1", "Agnes Thorne")
    after = party(campaign, "Agnes Thorne")["resources"]
    lost = [before[k]["current"] - after[k]["current"] for k in ("health", "life")]
    assert lost[0] == lost[1] and lost[0] > 0


def test_soh13_defence_cards_past_the_attackers_ap_are_refused_and_nothing_is_played(
    opened: Opened,
) -> None:
    campaign = opened("shadows")
    started(campaign)
    from rulesets.decks import load_deck

    def hand(name: str) -> list[str]:
        ref = by_name(campaign, name).ref
        _, deck = load_deck(Transaction(campaign), "minor")
        return [c.label for c in deck.hand(str(ref))]

    held = hand("Agnes Thorne")
    with pytest.raises(CommandError, match="at most 1 defence card"):
        attack(campaign, "Goblin 1", "Agnes Thorne", f"{held[0]}, {held[1]}")
    assert hand("Agnes Thorne") == held
    with pytest.raises(CommandError, match="does not hold"):
        attack(campaign, "Goblin 1", "Agnes Thorne", "Queen of Wands")


# --------------------------------------------------------------------------- T


def test_t_lands_a_damage_roll_once_and_never_a_check(opened: Opened) -> None:
    campaign = opened("resolution")
    eid, _ = enc(campaign)
    goblin = by_name(campaign, "Goblin 1")

    def newest_roll() -> int:
        return campaign.newest("log", 1, lambda e: e.get("kind") == "roll")[-1][0]

    class Log:
        def __init__(self, result: CheckResult) -> None:
            self.result = result
            self.label = "Roll"

        def run(self, tx: Any) -> list[str]:
            return [tx.log_roll("GM", self.result)]

    campaign.apply(Log(CheckResult("1d20 vs DC 12", 3, (3,), "failure")))
    with pytest.raises(CommandError, match="a check"):
        campaign.apply(ex.LandRoll(eid, roll_id=newest_roll(), combatant_ids=(goblin.id,)))
    campaign.apply(Log(CheckResult("1d6", 2, (2,))))
    campaign.apply(ex.LandRoll(eid, roll_id=newest_roll(), combatant_ids=(goblin.id,)))
    assert by_name(campaign, "Goblin 1").stats["hp"] == goblin.stats["hp"] - 2
    with pytest.raises(CommandError, match="landed already"):
        campaign.apply(ex.LandRoll(eid, roll_id=newest_roll(), combatant_ids=(goblin.id,)))


def test_soh14_p_fills_the_attack_as_a_does_and_remembers_a_pcs(opened: Opened) -> None:
    """P on a foe: its statblock's skill (A's), not 0; a PC's skill and type are remembered;
    a spiritual focus attacks with spiritual magic by default."""
    from rulesets.shadows.fight import attack_defaults

    campaign = opened("shadows")
    started(campaign)
    goblin = next(c for c in enc(campaign)[1].combatants if c.name == "Goblin 1")
    defaults = attack_defaults(goblin.to_dict(), goblin.stats["sheet"])
    assert defaults["skill"] == str(goblin.stats["sheet"]["skill"]["brawl"]) != "0"
    agnes = party(campaign, "Agnes Thorne")
    pc = by_name(campaign, "Agnes Thorne").to_dict()
    assert attack_defaults(pc, {**agnes, "focus": "spiritual"})["type"] == "spiritual"
    from rulesets.decks import load_deck
    from rulesets.shadows.fight import PlayAttackCard

    _, deck = load_deck(Transaction(campaign), "minor")
    card = deck.hand(str(pc["ref"]))[0]
    eid, _ = enc(campaign)
    answers = {"skill": 4, "type": "physical", "fumble": 1}
    campaign.apply(PlayAttackCard(eid, pc["id"], goblin.id, card.label, 1, answers))
    assert attack_defaults(pc, party(campaign, "Agnes Thorne")) == {
        "skill": "4",
        "type": "physical",
    }


def test_asp03_fate_is_never_spent_on_an_older_roll_than_a_defence_just_rolled() -> None:
    """f after a defence rolled in an attack found the roller's previous check (another PC's)
    and said that PC had spent a fate point on it."""
    from rulesets.aspects.checks import ROLL_KEY, last_aspects_roll

    check = {"kind": "roll", "who": "Ada Wren", ROLL_KEY: {"fate_spent_by": ["Ada Wren"]}}
    defence = {"kind": "roll", "who": "Juno Hart", "expression": "2d6+0 defence (athletic)"}
    assert last_aspects_roll([(1, check)]) == 1
    assert last_aspects_roll([(1, check), (2, defence)]) is None


def test_nem06_the_damage_form_too_lets_a_foe_defend_once_a_turn(opened: Opened) -> None:
    """t on a foe twice in a turn: it rolls its defence against the first only."""
    campaign = opened("nemron")
    eid = started(campaign)
    goblin = by_name(campaign, "Goblin 1")
    first = " ".join(campaign.apply(cmd.Damage(eid, goblin.id, "5", {})))
    second = " ".join(campaign.apply(cmd.Damage(eid, goblin.id, "5", {})))
    assert "Goblin 1 defends" in first and by_name(campaign, "Goblin 1").economy["reaction"]
    assert "Goblin 1 defends" not in second and "no reaction left" in second


def test_asp05_the_damage_form_rolls_a_dodge_not_the_better_of_athletic_and_fight(
    opened: Opened,
) -> None:
    campaign = opened("aspects")
    ogre = add_library_foe(campaign, "Ogre", 4, 0, 1)  # Fight 5, Athletic 1
    eid, _ = enc(campaign)
    lines = " ".join(campaign.apply(cmd.Damage(eid, by_name(campaign, ogre).id, "9", {})))
    assert "+ athletic 1" in lines and "+ fight" not in lines


def test_som01_the_ciphers_d20_rolled_at_the_table_is_its_answer(opened: Opened) -> None:
    campaign = opened("somnihil")
    assert odds(campaign, "Goblin 1", "Vesna Kade", "4").hit == 1  # a Failure: it lands
    assert odds(campaign, "Goblin 1", "Vesna Kade", "11").hit == 0  # a Success: avoided
    assert odds(campaign, "Vesna Kade", "Goblin 1", "20").damage == {
        2 * k: Fraction(1, 6) for k in range(1, 7)
    }  # a Triumph doubles the 1d6
    with pytest.raises(CommandError, match="1-20"):
        attack(campaign, "Goblin 1", "Vesna Kade", "21")


def test_a_pcs_attack_is_remembered_and_checked(opened: Opened) -> None:
    campaign = opened("resolution")
    ref = next(i for i, d in campaign.rows("party") if d["name"] == "Sefa Ironwood")
    with pytest.raises(CommandError, match="1d"):
        campaign.apply(ex.RememberAttack(ref, {"damage": "1dx"}))
    campaign.apply(ex.RememberAttack(ref, {"attribute": "dex", "bonus": 2, "damage": "1d10"}))
    assert party(campaign, "Sefa Ironwood")["attack"] == {
        "attribute": "dex",
        "bonus": 2,
        "damage": "1d10",
    }
    # DEX 10: +0, and the bonus +2; the weapon's 1d10 with no modifier.
    assert odds(campaign, "Sefa Ironwood", "Goblin 1").steps[:2] == (
        "d20+2 vs AC 12: hits 55.0%",
        "1d10 on a hit",
    )


@pytest.mark.parametrize(
    ("game", "attacker", "target"),
    [("nemron", "Goblin 1", "Ylva Rask"), ("resolution", "Sefa Ironwood", "Goblin 1")],
)
def test_play_is_the_exchange_headless_and_agrees_with_its_odds(
    opened: Opened, game: str, attacker: str, target: str
) -> None:
    """What a simulator plays: the same seed the same outcome; over many plays the share that
    drop lies near the exact chance."""
    campaign = opened(game)
    eid, _ = enc(campaign)
    fight = load(Transaction(campaign), eid)
    a, t = by_name(campaign, attacker), by_name(campaign, target)
    setup = ex.setup_of(fight, a.id, t.id)
    rules = campaign.game.exchange
    if game == "nemron":  # a torso at 2: the drop chance is not 0
        setup.target.health["tracks"]["limbs"]["torso"]["hp"] = 2
    assert ex.play(rules, setup, random.Random(5)) == ex.play(rules, setup, random.Random(5))
    exact = float(ex.odds(rules, setup).drops)
    rng = random.Random(11)
    runs = 3000
    dropped = sum(
        ex.out_of(rules, setup.target, ex.play(rules, setup, rng)[0]) for _ in range(runs)
    )
    assert exact > 0 and abs(dropped / runs - exact) < 4 * (exact * (1 - exact) / runs) ** 0.5


def test_an_exchange_is_one_change_and_one_undo_takes_all_of_it_back(opened: Opened) -> None:
    """Shadows: the attack card played, the AP spent, the defence card played, Health and
    Life: one entry on the undo stack, and one undo restores every document."""
    campaign = opened("shadows")
    started(campaign)
    documents = {t: campaign.rows(t) for t in ("party", "encounters", "decks")}
    stack = len(campaign.undo_stack)
    attack(campaign, "Agnes Thorne", "Goblin 1")  # the goblin answers with its best card
    assert len(campaign.undo_stack) == stack + 1
    campaign.undo()
    assert {t: campaign.rows(t) for t in documents} == documents


# --------------------------------------------------------------------------- costs


def costs(
    campaign: Campaign, attacker: str, target: str, defence: str = ""
) -> tuple[ex.Costs, ex.Costs]:
    eid, _ = enc(campaign)
    fight = load(Transaction(campaign), eid)
    a, t = by_name(campaign, attacker), by_name(campaign, target)
    return campaign.game.exchange.costs(ex.setup_of(fight, a.id, t.id, defence))


def test_nem10_costs_say_the_bonus_reaction_s_2_energy_as_the_exchange_spends_it(
    opened: Opened,
) -> None:
    campaign = opened("nemron")
    started(campaign)
    assert costs(campaign, "Goblin 1", "Ylva Rask") == ({}, {})  # the reaction is the round's
    attack(campaign, "Goblin 1", "Ylva Rask")
    energy = party(campaign, "Ylva Rask")["resources"]["energy"]["current"]
    assert costs(campaign, "Goblin 2", "Ylva Rask", "bonus") == ({}, {"energy": 2})
    attack(campaign, "Goblin 2", "Ylva Rask", "bonus")
    assert party(campaign, "Ylva Rask")["resources"]["energy"]["current"] == energy - 2


def test_asp03_costs_say_the_fate_reroll_s_point_as_the_exchange_spends_it(
    opened: Opened,
) -> None:
    campaign = opened("aspects")
    started(campaign)
    assert costs(campaign, "Goblin 1", "Juno Hart") == ({}, {})
    assert costs(campaign, "Goblin 1", "Juno Hart", "12") == ({}, {})  # typed: no reroll
    points = party(campaign, "Juno Hart")["resources"]["fate_points"]["current"]
    assert costs(campaign, "Goblin 1", "Juno Hart", "fate") == ({}, {"fate_points": 1})
    attack(campaign, "Goblin 1", "Juno Hart", "fate")
    assert party(campaign, "Juno Hart")["resources"]["fate_points"]["current"] == points - 1


def test_soh13_costs_say_the_cards_each_side_plays_as_the_exchange_spends_them(
    opened: Opened,
) -> None:
    campaign = opened("shadows")
    started(campaign)
    from rulesets.decks import load_deck
    from rulesets.shadows.foes import holder_of

    def hand(name: str) -> list[str]:
        holder = holder_of(by_name(campaign, name))
        _, deck = load_deck(Transaction(campaign), "minor")
        return [c.label for c in deck.hand(str(holder))]

    # A PC answers with no card unless its player names one; a foe plays its best.
    assert costs(campaign, "Goblin 1", "Agnes Thorne") == ({"cards": 1}, {"cards": 0})
    assert costs(campaign, "Agnes Thorne", "Goblin 1") == ({"cards": 1}, {"cards": 1})
    agnes, goblin = hand("Agnes Thorne"), hand("Goblin 1")
    assert costs(campaign, "Goblin 1", "Agnes Thorne", agnes[0]) == ({"cards": 1}, {"cards": 1})
    attack(campaign, "Goblin 1", "Agnes Thorne", agnes[0])
    assert (len(hand("Goblin 1")), len(hand("Agnes Thorne"))) == (len(goblin) - 1, len(agnes) - 1)
