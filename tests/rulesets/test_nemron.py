"""Nemron RPG rules (NEM-01..NEM-14) against rules/003_e8bbeb3bbb14ae16.txt."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.nemron import rules as nemron
from rulesets.nemron.rules import (
    RULESET,
    RuleError,
    TurnEconomy,
    apply_aoe_damage,
    apply_damage,
    apply_drama,
    attack,
    buy_bonus_reaction,
    buy_domain_feature,
    check,
    damage_after_defence,
    decay,
    energy_max,
    fall,
    falling_damage,
    fixed_maximum,
    fixed_medium,
    hard_effort,
    heal_limb,
    initiative_pool,
    initiative_sort_key,
    learn_skill,
    limb_max_hp,
    minimum_dc,
    net_modifier,
    new_character,
    odds,
    pool_for,
    pool_from_ranks,
    range_band,
    rank_die,
    rank_up,
    rest,
    roll_drama,
    roll_initiative,
    spend_energy,
    spend_resource_node,
    tick_effect,
    tick_effects,
    upgrade_to_domain,
    weapon_minimum_dc,
)


class StubRng(random.Random):
    """Hands out scripted die faces in order; checks each is possible on the die asked for."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)
        self.asked: list[int] = []

    def randint(self, a: int, b: int) -> int:
        value = self.faces.pop(0)
        self.asked.append(b)
        assert a <= value <= b, f"scripted {value} on d{b}"
        return value


def hero(**attrs: int) -> dict[str, Any]:
    base = {"power": 2, "agility": 1, "constitution": 2, "control": 1, "sense": 2, "focus": 1}
    base.update(attrs)
    return new_character("Orrian", **base)  # type: ignore[arg-type]


dice_sides = st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=1, max_size=4)
modifiers = st.sampled_from(
    [None, "lesser boon", "greater boon", "lesser penalty", "greater penalty"]
)

# --------------------------------------------------------------------------- NEM-01


def test_nem01_rank_dice_table() -> None:
    assert [rank_die(r) for r in range(5)] == [4, 6, 8, 10, 12]
    assert pool_from_ranks([1, 3, 2]) == [6, 10, 8]
    with pytest.raises(RuleError):
        rank_die(5)
    with pytest.raises(RuleError):
        rank_die(-1)


def test_nem01_keep_highest_and_exact_dc_succeeds() -> None:
    result = check(StubRng([2, 7, 5]), [6, 10, 8], dc=7, drama=False)
    assert result.total == 7
    assert result.band == "success"
    assert result.dice == (2, 7, 5)
    assert result.expression == "d6 › d10 › d8 vs DC 7"
    miss = check(StubRng([6, 6, 6]), [6, 10, 8], dc=7, drama=False)
    assert (miss.total, miss.band) == (6, "failure")


def test_nem01_ranks_and_text_dice_accepted() -> None:
    by_rank = check(StubRng([3, 9]), ranks=[1, 3], dc=4, drama=False)
    by_text = check(StubRng([3, 9]), ["1d6", "d10"], dc=4, drama=False)
    assert by_rank.expression == by_text.expression == "d6 › d10 vs DC 4"
    assert by_rank.total == by_text.total == 9
    with pytest.raises(RuleError):
        check(random.Random(1), [20], dc=4)
    with pytest.raises(RuleError):
        check(random.Random(1), [], dc=4)


def test_nem01_pool_for_attribute_and_skills() -> None:
    char = new_character("Brandon", awareness=2, skills={"Marksmanship": 3})
    assert pool_for(char, "awareness", ["Marksmanship"]) == [8, 10]
    with pytest.raises(RuleError, match="no skill"):
        pool_for(char, "awareness", ["Pistol"])


def test_nem01_odds_match_text_example_pool() -> None:
    assert odds([6, 10, 8], 7) == {"success": Fraction(11, 20), "failure": Fraction(9, 20)}
    assert odds(["d6", "d10", "d8"], 1)["success"] == 1
    assert odds([6, 10, 8], 11)["success"] == 0


@given(dice_sides, st.integers(0, 13), modifiers)
def test_nem01_odds_are_a_distribution(pool: list[int], dc: int, boon: str | None) -> None:
    result = odds(pool, dc, boon)
    assert set(result) == {"success", "failure"}
    assert result["success"] + result["failure"] == 1
    assert 0 <= result["success"] <= 1


def _brute_force(pool: list[int], dc: int, boon: str | None) -> Fraction:
    extra = {"lesser boon": 8, "greater boon": 12, "lesser penalty": 8, "greater penalty": 4}
    dice = pool + ([extra[boon]] if boon else [])
    faces = list(itertools.product(*(range(1, s + 1) for s in dice)))
    hits = 0
    for roll in faces:
        kept = max(roll[: len(pool)])
        if boon and "boon" in boon:
            kept = max(kept, roll[-1])
        elif boon:
            kept = min(kept, roll[-1])
        hits += kept >= dc
    return Fraction(hits, len(faces))


@given(
    st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=1, max_size=2),
    st.integers(0, 13),
    modifiers,
)
def test_nem01_odds_agree_with_brute_force(pool: list[int], dc: int, boon: str | None) -> None:
    assert odds(pool, dc, boon)["success"] == _brute_force(pool, dc, boon)


@given(dice_sides, st.integers(1, 12))
def test_nem01_odds_fall_as_dc_rises(pool: list[int], dc: int) -> None:
    assert odds(pool, dc + 1)["success"] <= odds(pool, dc)["success"]


@given(dice_sides, st.integers(0, 10_000), modifiers)
def test_nem01_check_total_is_a_face_in_range(pool: list[int], seed: int, boon: str | None) -> None:
    result = check(random.Random(seed), pool, dc=5, boon=boon)
    assert 1 <= result.total <= max(pool + [12])
    assert result.total in result.dice
    assert result.band == ("success" if result.total >= 5 else "failure")


# --------------------------------------------------------------------------- NEM-02


def test_nem02_boon_dice_keep_highest() -> None:
    lesser = check(StubRng([2, 3, 8]), [6, 10], dc=7, boon="lesser boon", drama=False)
    assert lesser.total == 8 and lesser.band == "success"
    assert "+d8" in lesser.expression
    greater = check(StubRng([2, 3, 12]), [6, 10], dc=12, boon="Greater Boon", drama=False)
    assert greater.total == 12 and greater.band == "success"


def test_nem02_penalty_dice_keep_lowest() -> None:
    rng = StubRng([5, 9, 2])
    lesser = check(rng, [6, 10], dc=3, boon="lesser penalty", drama=False)
    assert rng.asked == [6, 10, 8]
    assert lesser.total == 2 and lesser.band == "failure"
    greater = check(StubRng([5, 9, 4]), [6, 10], dc=4, boon="greater penalty", drama=False)
    assert greater.total == 4 and greater.band == "success"


def test_nem02_exact_odds_with_boons_and_penalties() -> None:
    # d6 vs DC 6 is 1/6; a greater boon adds a d12: 1 - (5/6)(5/12) = 47/72.
    assert odds([6], 6, "greater boon")["success"] == Fraction(47, 72)
    # d10 with a greater penalty d4 can never reach 5.
    assert odds([10], 5, "greater penalty")["success"] == 0
    # d8 capped by a lesser penalty d8: P(min >= 5) = (4/8)^2.
    assert odds([8], 5, "lesser penalty")["success"] == Fraction(1, 4)


def test_nem02_do_not_stack_and_cancel() -> None:
    assert net_modifier(["lesser", "lesser"], []) == "lesser boon"
    assert net_modifier([], ["greater", "lesser"]) == "greater penalty"
    assert net_modifier(["lesser", "lesser"], ["lesser"]) is None
    assert net_modifier(["greater"], ["greater"]) is None
    assert net_modifier(["greater"], ["lesser"]) == "greater boon"
    assert net_modifier(["lesser boon"], ["greater penalty"]) == "greater penalty"
    assert net_modifier() is None
    with pytest.raises(RuleError):
        net_modifier(["huge"], [])


@given(dice_sides, st.integers(1, 12))
def test_nem02_boons_help_and_penalties_hurt(pool: list[int], dc: int) -> None:
    plain = odds(pool, dc)["success"]
    assert odds(pool, dc, "lesser boon")["success"] >= plain
    assert odds(pool, dc, "greater boon")["success"] >= odds(pool, dc, "lesser boon")["success"]
    assert odds(pool, dc, "lesser penalty")["success"] <= plain
    assert (
        odds(pool, dc, "greater penalty")["success"] <= odds(pool, dc, "lesser penalty")["success"]
    )


# --------------------------------------------------------------------------- NEM-03


def test_nem03_drama_die_is_separate_d20() -> None:
    assert roll_drama(StubRng([1])) == (1, "Bad Drama")
    assert roll_drama(StubRng([20])) == (20, "Good Drama")
    assert roll_drama(StubRng([19])) == (19, None)
    rng = StubRng([3, 20])
    result = check(rng, [6], dc=3)
    assert rng.asked == [6, 20]
    assert result.total == 3 and result.dice == (3,)  # the drama die is not in the pool
    assert "Good Drama" in result.detail
    assert nemron.drama_of(result) == "Good Drama"


def test_nem03_good_drama_gains_one_luck() -> None:
    char = hero()
    assert char["resources"]["luck"]["current"] == 0
    apply_drama(char, "Good Drama")
    apply_drama(char, "Bad Drama")
    assert char["resources"]["luck"]["current"] == 1


# --------------------------------------------------------------------------- NEM-04


def test_nem04_minimum_difficulties() -> None:
    assert minimum_dc(1, specialised=True) == 3
    assert minimum_dc(5, specialised=True) == 5
    assert weapon_minimum_dc(2) == 3  # a rank 2 pistol is DC 3
    assert minimum_dc(1, weapon_rank=4) == 5
    # Marksmanship roll of 2 misses against the DC 3 minimum.
    result = check(StubRng([2, 1]), [8, 6], dc=1, specialised=True, drama=False)
    assert result.band == "failure"
    assert "DC 3" in result.expression


def test_nem04_fixed_medium_and_maximum() -> None:
    assert fixed_medium([6, 10, 8]) == 5
    assert fixed_maximum([6, 10, 8]) == 10
    assert fixed_medium(["d4"]) == 2


# --------------------------------------------------------------------------- NEM-05


def test_nem05_initiative_pool_and_roll() -> None:
    char = hero(agility=1, awareness=3, sense=0)
    assert initiative_pool(char) == [6, 10, 4]
    rng = StubRng([4, 7, 2])
    assert roll_initiative(rng, char) == 7
    assert rng.asked == [6, 10, 4]  # drama is optional for initiative: not rolled


def test_nem05_pc_wins_ties() -> None:
    order = sorted(
        [("goblin", 7, False), ("Rhalf", 5, True), ("Orrian", 7, True)],
        key=lambda c: initiative_sort_key(c[1], c[2]),
    )
    assert [c[0] for c in order] == ["Orrian", "goblin", "Rhalf"]


# --------------------------------------------------------------------------- NEM-06


def test_nem06_one_of_each_per_turn() -> None:
    economy = TurnEconomy().spend("action").spend("reaction").spend("movement")
    for kind in ("action", "reaction", "movement"):
        with pytest.raises(RuleError):
            economy.spend(kind)
    assert economy.reset() == TurnEconomy()


def test_nem06_held_and_bonus_actions_roundtrip() -> None:
    economy = TurnEconomy().hold()
    assert economy.held and not economy.action
    economy = economy.grant("bonus_reaction").grant("bonus_action", 2)
    assert TurnEconomy.from_dict(economy.to_dict()) == economy
    economy = economy.spend("held").spend("bonus_action").spend("bonus_reaction")
    assert not economy.held and economy.bonus_actions == 1 and economy.bonus_reactions == 0
    with pytest.raises(RuleError):
        economy.spend("bonus_reaction")


# --------------------------------------------------------------------------- NEM-07


def test_nem07_attack_roll_is_damage_minus_defence() -> None:
    assert damage_after_defence(6, 3) == 3  # Brandon's pistol example
    assert damage_after_defence(6) == 6
    assert damage_after_defence(2, 5) == 0
    # attack d8 → 6 (drama 10), defence d6 → 3 (drama 10)
    result = attack(StubRng([6, 10, 3, 10]), [8], weapon_rank=2, defence_pool=[6])
    assert result.hit and result.attack.total == 6 and result.damage == 3


def test_nem07_attack_below_weapon_minimum_misses() -> None:
    result = attack(StubRng([2, 10]), [8], weapon_rank=2, defence_pool=[6])
    assert not result.hit and result.damage == 0 and result.defence is None


# --------------------------------------------------------------------------- NEM-08


def test_nem08_limb_hp_and_location_die() -> None:
    char = hero()  # power 2 + agility 1 + constitution 2
    assert limb_max_hp(char["attributes"]) == 10
    limbs = char["tracks"]["limbs"]
    assert list(limbs) == ["right_arm", "left_arm", "right_leg", "left_leg", "torso", "head"]
    assert all(v == {"hp": 10, "max": 10} for v in limbs.values())
    for face, limb in enumerate(limbs, start=1):
        outcome = apply_damage(char, 1, StubRng([face]))
        assert (outcome.limb, outcome.location_roll) == (limb, face)
        assert limbs[limb]["hp"] == 9


def test_nem08_minor_limb_unusable_major_limb_downs() -> None:
    char = hero()
    arm = apply_damage(char, 15, random.Random(0), limb="left arm")
    assert arm.after == 0 and arm.unusable and not arm.downed
    assert char["status"] == "alive"
    assert "no longer usable" in arm.log[-1]
    head = apply_damage(char, 10, StubRng([6]))
    assert head.limb == "head" and head.downed and char["status"] == "downed"
    assert "DOWNED" in RULESET.health(char)


@given(st.integers(0, 40), st.integers(0, 10_000))
def test_nem08_limb_hp_never_below_zero(amount: int, seed: int) -> None:
    char = hero()
    outcome = apply_damage(char, amount, random.Random(seed))
    assert outcome.after == max(0, 10 - amount)
    assert all(0 <= v["hp"] <= v["max"] for v in char["tracks"]["limbs"].values())


# --------------------------------------------------------------------------- NEM-09


def test_nem09_targeting_a_limb_gives_lesser_penalty() -> None:
    # pool d10 → 9, lesser penalty d8 → 4, drama 10: kept 4.
    result = attack(StubRng([9, 4, 10]), [10], target_limb="head")
    assert result.attack.total == 4 and result.target_limb == "head"
    assert "lesser penalty" in result.attack.expression
    # a lesser boon cancels the targeting penalty
    boosted = attack(StubRng([9, 10]), [10], target_limb="head", boons=["lesser"])
    assert boosted.attack.total == 9


def test_nem09_aoe_one_location_die_per_point() -> None:
    char = hero()
    outcome = apply_aoe_damage(char, 4, StubRng([5, 5, 3, 1]))  # Darren's fireball
    assert outcome.rolls == (5, 5, 3, 1)
    limbs = char["tracks"]["limbs"]
    assert limbs["torso"]["hp"] == 8
    assert limbs["right_leg"]["hp"] == 9
    assert limbs["right_arm"]["hp"] == 9
    assert limbs["head"]["hp"] == 10
    assert sum(h.amount for h in outcome.hits) == 4


@given(st.integers(0, 30), st.integers(0, 10_000))
def test_nem09_aoe_spreads_exactly_the_damage(amount: int, seed: int) -> None:
    char = hero(power=4, agility=4, constitution=4)  # 17 HP per limb: 6*17 > 30
    outcome = apply_aoe_damage(char, amount, random.Random(seed))
    lost = sum(v["max"] - v["hp"] for v in char["tracks"]["limbs"].values())
    assert lost == amount == len(outcome.rolls)


# --------------------------------------------------------------------------- NEM-10


def test_nem10_energy_max_spend_and_rest() -> None:
    char = hero()  # control 1 + sense 2 + focus 1 + 5
    assert energy_max(char["attributes"]) == 9
    assert char["resources"]["energy"] == {"current": 9, "max": 9}
    hard_effort(char, 3)
    assert char["resources"]["energy"]["current"] == 6
    economy, _ = buy_bonus_reaction(char, TurnEconomy())
    assert char["resources"]["energy"]["current"] == 4 and economy.bonus_reactions == 1
    with pytest.raises(RuleError, match="once per round"):
        buy_bonus_reaction(char, economy)
    with pytest.raises(RuleError):
        spend_energy(char, 5)
    rest(char, 3, random.Random(0))
    assert char["resources"]["energy"]["current"] == 7
    rest(char, 5, random.Random(0))
    assert char["resources"]["energy"]["current"] == 9


# --------------------------------------------------------------------------- NEM-11


def test_nem11_every_eight_hours_heal_every_damaged_limb() -> None:
    char = hero(constitution=2)  # Constitution d8
    limbs = char["tracks"]["limbs"]
    apply_damage(char, 5, random.Random(0), limb="torso")
    apply_damage(char, 1, random.Random(0), limb="left_leg")
    rng = StubRng([3])
    log = rest(char, 8, rng)
    assert rng.asked == [8]
    assert limbs["torso"]["hp"] == 8 and limbs["left_leg"]["hp"] == 10
    assert limbs["head"]["hp"] == 10
    assert any("heals 3" in line for line in log)
    rest(char, 7, StubRng([]))  # under eight hours: no roll
    assert limbs["torso"]["hp"] == 8


def test_nem11_targeted_healing_one_limb() -> None:
    char = hero()
    apply_damage(char, 6, random.Random(0), limb="right_arm")
    heal_limb(char, "right_arm", 20)
    assert char["tracks"]["limbs"]["right_arm"]["hp"] == 10


def test_nem08_nem11_downed_clears_once_the_major_limb_is_healed_above_zero() -> None:
    char = hero()
    apply_damage(char, 99, random.Random(0), limb="torso")
    apply_damage(char, 99, random.Random(0), limb="head")
    assert char["status"] == "downed"
    assert "no longer downed" not in heal_limb(char, "torso", 2)  # the head still at 0
    assert char["status"] == "downed"
    assert heal_limb(char, "head", 1).endswith("no longer downed")
    assert char["status"] == "alive"
    apply_damage(char, 99, random.Random(0), limb="head")
    char["status"] = "dead"
    heal_limb(char, "head", 5)
    assert char["status"] == "dead"  # healing never raises the dead


# --------------------------------------------------------------------------- NEM-12


def test_nem12_traits_decay_to_rank_one() -> None:
    assert decay({"name": "Fury", "rank": 3}) == {"name": "Fury", "rank": 2}
    assert decay({"name": "Fury", "rank": 1}) is None
    assert decay({"name": "Darkvision", "rank": 2, "trait": True})["rank"] == 1  # type: ignore[index]
    assert decay({"name": "Darkvision", "rank": 1, "trait": True})["rank"] == 1  # type: ignore[index]


def test_nem12_resource_trait_spends_below_one_and_recharges() -> None:
    node = {"name": "Inspired", "rank": 1, "kind": "resource", "trait": True}
    spent = spend_resource_node(node)
    assert spent["rank"] == 0
    with pytest.raises(RuleError):
        spend_resource_node(spent)
    char = hero()
    char["lists"]["traits"].append(spent)
    rest(char, 8, random.Random(0))
    assert char["lists"]["traits"][0]["rank"] == 1


def test_nem12_interval_effects_tick() -> None:
    bleeding = {"name": "Bleeding", "rank": 2, "interval": "turn"}
    after, line = tick_effect(bleeding)
    assert after == {"name": "Bleeding", "rank": 1, "interval": "turn"} and "Bleeding" in line
    assert tick_effect(after)[0] is None
    timed = {"name": "Shield", "rank": 3, "interval": "round", "remaining": 2}
    after, _ = tick_effect(timed)
    assert after is not None and after["remaining"] == 1 and after["rank"] == 3
    assert tick_effect(after)[0] is None
    char = hero()
    char["lists"]["effects"] = [bleeding, timed, "Prone"]
    tick_effects(char, "turn")
    assert char["lists"]["effects"] == [{**bleeding, "rank": 1}, timed, "Prone"]
    with pytest.raises(RuleError):
        tick_effect({"name": "Odd", "rank": 1, "interval": "hour"})


# --------------------------------------------------------------------------- NEM-13


def test_nem13_rank_up_costs_current_rank() -> None:
    char = new_character("Kai", power=2, skills={"Athletics": 1})
    assert char["resources"]["xp"]["current"] == 5
    rank_up(char, "power")
    assert char["attributes"]["power"] == 3 and char["resources"]["xp"]["current"] == 3
    assert char["tracks"]["limbs"]["head"]["max"] == 8  # limb HP follows Power
    rank_up(char, "Athletics")
    assert char["skills"]["Athletics"] == 2 and char["resources"]["xp"]["current"] == 2
    with pytest.raises(RuleError, match="costs 3 XP"):
        rank_up(char, "power")


def test_nem13_new_skill_domain_and_features() -> None:
    char = new_character("Kai", skills={"Arcana": 1})
    learn_skill(char, "Stealth")
    assert char["skills"]["Stealth"] == 1 and char["resources"]["xp"]["current"] == 4
    with pytest.raises(RuleError, match="already knows"):
        learn_skill(char, "Stealth")
    upgrade_to_domain(char, "Arcana")
    assert char["domains"] == {"Arcana": []} and char["resources"]["xp"]["current"] == 2
    buy_domain_feature(char, "Arcana", "Ward")
    assert char["domains"]["Arcana"] == ["Ward"] and char["resources"]["xp"]["current"] == 0
    nemron.award_xp(char, 5)
    with pytest.raises(RuleError, match="cannot have more than 1"):
        buy_domain_feature(char, "Arcana", "Blink")
    with pytest.raises(RuleError):
        upgrade_to_domain(char, "Cooking")


def test_nem13_rank_four_is_the_top() -> None:
    char = new_character("Kai", power=4)
    nemron.award_xp(char, 10)
    with pytest.raises(RuleError, match="highest"):
        rank_up(char, "power")


# --------------------------------------------------------------------------- NEM-14


def test_nem14_range_bands() -> None:
    assert range_band(0) == "Melee"
    assert range_band(2.9) == "Melee"
    assert range_band(3) == "Near"
    assert range_band(8) == "Far"
    assert range_band(30) == "Distant"
    assert range_band(100) == "Distant"
    assert range_band(101) is None


def test_nem14_falling_damage_is_aoe() -> None:
    assert falling_damage(15) == 5
    assert falling_damage(2) == 0
    char = hero()
    outcome = fall(char, 15, StubRng([5, 5, 3, 2, 6]))
    assert outcome.amount == 5 and outcome.rolls == (5, 5, 3, 2, 6)
    assert char["tracks"]["limbs"]["torso"]["hp"] == 8


# --------------------------------------------------------------------------- sheet


def test_nemron_ruleset_sheet() -> None:
    assert RULESET.id == "nemron" and RULESET.turn_model == "initiative"
    keys = [a.key for a in RULESET.sheet.attributes]
    assert keys == [
        "power",
        "agility",
        "constitution",
        "intellect",
        "awareness",
        "willpower",
        "control",
        "sense",
        "focus",
    ]
    assert [r.key for r in RULESET.sheet.resources] == ["energy", "luck", "xp"]
    char = RULESET.make_character("Darren", agility=2)
    assert char["tracks"]["limbs"]["torso"] == {"hp": 7, "max": 7}
    assert RULESET.health(char) == "42/42 HP"
    with pytest.raises(RuleError):
        new_character("Bad", charisma=2)


def test_nem08_a_limb_by_the_location_dies_number() -> None:
    """NEM-08 numbers the limbs 1 right arm … 6 head: the number names the limb too."""
    assert [nemron.limb_of(str(n)) for n in range(1, 7)] == list(nemron.LIMBS)
    assert nemron.limb_of("Left Arm") == "left_arm"
    with pytest.raises(nemron.RuleError, match="limbs are 1 right arm, 2 left arm"):
        nemron.limb_of("7")
