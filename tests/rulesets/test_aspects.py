"""The 2d6 aspects game (ASP-01..ASP-08) against /work/shared/rules/004_e56d4472bf57cac1.txt."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.aspects import rules as asp
from rulesets.aspects.rules import RULESET, AspectsRoll, RuleError


class StubRng(random.Random):
    """Hands out fixed d6 faces in order (d20 draws a face as ``randrange(size) + 1``)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self.faces.pop(0) - 1


def pc(name: str = "Bo", **attrs: int) -> dict[str, Any]:
    return RULESET.make_character(name, **attrs)


def with_fate(name: str = "Bo", points: int = 3) -> dict[str, Any]:
    c = pc(name)
    c["resources"]["fate_points"]["current"] = points
    return c


# --- ASP-01 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "band", "grade"),
    [
        (12, "Total Success", ""),
        (10, "Total Success", ""),
        (9, "Good Success", ""),
        (8, "Success", ""),
        (7, "Mild Success", ""),
        (6, "Failure", "a failure"),
        (5, "Failure", "a little failure"),
        (4, "Failure", "a pretty bad event"),
        (3, "Failure", "a really bad event"),
        (2, "Failure", "the absolute worst case scenario"),
        (-1, "Failure", "the absolute worst case scenario"),
    ],
)
def test_asp01_bands_and_failure_grades(total: int, band: str, grade: str) -> None:
    assert asp.band_for(total) == band
    assert asp.failure_grade(total) == grade


def test_asp01_roll_adds_skill_and_subtracts_npc_skill() -> None:
    rolled = asp.roll_2d6(StubRng(3, 4), skill=2, opposing=1)
    assert rolled.dice == (3, 4)
    assert rolled.total == 8
    result = rolled.result
    assert (result.expression, result.total, result.band) == ("2d6+2-1", 8, "Success")
    low = asp.check(StubRng(1, 2), skill=1)
    assert (low.total, low.band, low.detail) == (4, "Failure", "a pretty bad event")


def test_asp01_exact_odds() -> None:
    assert asp.odds() == {
        "Total Success": Fraction(6, 36),
        "Good Success": Fraction(4, 36),
        "Success": Fraction(5, 36),
        "Mild Success": Fraction(6, 36),
        "Failure": Fraction(15, 36),
    }
    # +3 skill against a +2 NPC is the same as +1
    assert asp.odds(3, 2) == asp.odds(1)
    assert asp.odds(1)["Total Success"] == Fraction(10, 36)


@given(st.integers(-8, 12), st.integers(0, 4))
def test_asp01_odds_sum_to_one(skill: int, opposing: int) -> None:
    table = asp.odds(skill, opposing)
    assert list(table) == list(asp.BANDS)
    assert sum(table.values()) == 1


@given(st.integers(0, 2**32), st.integers(-3, 6), st.integers(0, 3))
def test_asp01_total_is_dice_plus_skill_minus_opposing(seed: int, skill: int, opp: int) -> None:
    rolled = asp.roll_2d6(random.Random(seed), skill, opp)
    assert all(1 <= d <= 6 for d in rolled.dice) and len(rolled.dice) == 2
    assert rolled.total == sum(rolled.dice) + skill - opp
    assert rolled.result.band == asp.band_for(rolled.total)


# --- ASP-02 ---------------------------------------------------------------------------------


def test_asp02_scene_at_zero_grants_one_and_carries_over() -> None:
    bo = pc()
    assert bo["resources"]["fate_points"] == {"current": 0, "max": 5}
    asp.new_scene(bo)
    assert bo["resources"]["fate_points"]["current"] == 1
    assert asp.new_scene(bo) == []
    assert bo["resources"]["fate_points"]["current"] == 1


def test_asp02_fate_points_max_five() -> None:
    bo = with_fate(points=4)
    asp.gain_fate(bo, 3)
    assert bo["resources"]["fate_points"]["current"] == 5
    asp.compel(bo, "Vengeful")
    assert bo["resources"]["fate_points"]["current"] == 5


def test_asp02_one_fate_point_per_roll() -> None:
    bo = with_fate()
    first = asp.roll_2d6(StubRng(2, 2), skill=1)
    kept, again = asp.reroll(bo, first, StubRng(6, 5))
    with pytest.raises(RuleError, match="already spent a Fate Point on this roll"):
        asp.invoke_aspect(bo, again, "Jacked")
    with pytest.raises(RuleError, match="already spent"):
        asp.reroll(bo, kept, StubRng(1, 1))
    assert bo["resources"]["fate_points"]["current"] == 2
    # someone else may still invoke against it
    cy = with_fate("Cy")
    worse = asp.invoke_aspect(cy, again, "Exhausted", against=True)
    assert worse.total == 12 - 2


@given(st.lists(st.sampled_from(["gain", "spend", "scene", "compel"]), max_size=30))
def test_asp02_fate_points_stay_between_zero_and_five(actions: list[str]) -> None:
    bo = pc()
    for action in actions:
        if action == "gain":
            asp.gain_fate(bo, 2)
        elif action == "compel":
            asp.compel(bo, "Curious")
        elif action == "scene":
            asp.new_scene(bo)
        elif bo["resources"]["fate_points"]["current"] > 0:
            asp.spend_fate(bo)
        else:
            with pytest.raises(RuleError):
                asp.spend_fate(bo)
        assert 0 <= bo["resources"]["fate_points"]["current"] <= 5


# --- ASP-03 ---------------------------------------------------------------------------------


def test_asp03_reroll_keeps_either() -> None:
    bo = with_fate(points=1)
    first = asp.roll_2d6(StubRng(1, 2))
    kept, again = asp.reroll(bo, first, StubRng(5, 6))
    assert kept.dice == (1, 2) and again.dice == (5, 6)
    assert again.result.band == "Total Success"
    assert bo["resources"]["fate_points"]["current"] == 0
    with pytest.raises(RuleError, match="no Fate Points"):
        asp.reroll(bo, asp.roll_2d6(StubRng(1, 1)), StubRng(1, 1))


def test_asp03_invoke_own_plus_two_against_minus_two() -> None:
    bo = with_fate()
    rolled = asp.roll_2d6(StubRng(2, 3), skill=3)  # 8: Success
    boosted = asp.invoke_aspect(bo, rolled, "Jacked")
    assert boosted.total == 10 and boosted.band == "Total Success"
    assert "invokes Jacked +2" in boosted.result.detail
    cy = with_fate("Cy")
    hindered = asp.invoke_aspect(cy, rolled, "Wet floor", against=True)
    assert hindered.total == 6 and hindered.band == "Failure"
    assert bo["resources"]["fate_points"]["current"] == 2
    assert cy["resources"]["fate_points"]["current"] == 2


# --- ASP-04 ---------------------------------------------------------------------------------


def test_asp04_two_permanent_aspects_and_temporary_ones() -> None:
    bo = pc()
    asp.add_aspect(bo, "Resolute")
    asp.add_aspect(bo, "Cunning")
    with pytest.raises(RuleError, match="only 2 permanent"):
        asp.add_aspect(bo, "Silent")
    asp.add_temporary_aspect(bo, "Wet", "2024-05-01")
    assert bo["lists"]["temporary_aspects"][0]["name"] == "Wet"
    asp.remove_temporary_aspect(bo, "wet")
    assert bo["lists"]["temporary_aspects"] == []


def test_asp04_created_advantage_gives_one_free_invoke() -> None:
    bo = pc()  # no fate points at all
    asp.create_advantage(bo, "Drunk", "2024-05-01")
    rolled = asp.roll_2d6(StubRng(3, 3))
    free = asp.invoke_aspect(bo, rolled, "Drunk", free=True)
    assert free.total == 8
    assert bo["resources"]["fate_points"]["current"] == 0
    with pytest.raises(RuleError, match="no free invoke"):
        asp.invoke_aspect(bo, rolled, "Drunk", free=True)


def test_asp04_compel_grants_fate_point() -> None:
    bo = with_fate(points=2)
    asp.compel(bo, "Jacked")
    assert bo["resources"]["fate_points"]["current"] == 3


def test_asp04_advantage_placed_anywhere_its_free_invoke_is_the_creators() -> None:
    scene: list[Any] = []
    lines = asp.place_advantage(scene, asp.SCENE, "Wet floor", "Bo", "2024-05-01")
    assert lines == ["Bo creates the advantage Wet floor on the scene: one free invoke for Bo"]
    assert asp.free_invokes(scene, asp.SCENE, "Bo") == ["Wet floor"]
    assert asp.free_invokes(scene, asp.SCENE, "Cy") == []
    with pytest.raises(RuleError, match="the scene already has the aspect 'wet floor'"):
        asp.place_advantage(scene, asp.SCENE, "wet floor", "Cy")
    with pytest.raises(RuleError, match="is Bo's, who created it"):
        asp.use_free_invoke(scene, asp.SCENE, "Wet floor", "Cy")
    asp.use_free_invoke(scene, asp.SCENE, "wet floor", "Bo")
    assert scene[0]["free_invokes"] == 0 and asp.free_invokes(scene, asp.SCENE, "Bo") == []
    with pytest.raises(RuleError, match="no free invoke left"):
        asp.use_free_invoke(scene, asp.SCENE, "Wet floor", "Bo")
    # An advantage made before creators were kept is its holder's.
    bo = pc()
    asp.create_advantage(bo, "Drunk")
    assert asp.free_invokes(bo["lists"]["temporary_aspects"], "Bo", "Bo") == ["Drunk"]


def test_asp04_invoke_effect_plus_two_minus_two_or_reroll_keeping_the_better() -> None:
    rolled = asp.roll_2d6(StubRng(3, 3))
    assert asp.invoke_effect(rolled, "Bo", "Drunk", "+2", "free invoke").total == 8
    assert asp.invoke_effect(rolled, "Bo", "Drunk", "-2 against", "free invoke").total == 4
    better = asp.invoke_effect(rolled, "Bo", "Drunk", "reroll", "free invoke", StubRng(6, 5))
    assert better.dice == (6, 5) and "reroll" in better.result.detail
    worse = asp.invoke_effect(rolled, "Bo", "Drunk", "reroll", "free invoke", StubRng(1, 1))
    assert worse.dice == (3, 3)
    assert rolled.fate_spent_by == better.fate_spent_by == ()  # no fate point spent
    with pytest.raises(RuleError, match="an invoke gives"):
        asp.invoke_effect(rolled, "Bo", "Drunk", "+3", "free invoke")


def test_asp05_the_defender_names_a_consequence_renamed_never_doubled() -> None:
    bo = pc()
    asp.resolve_attack(bo, 9, 0, "2024-05-01")
    asp.resolve_attack(bo, 9, 0, "2024-05-02")
    # Two hits alike get labels apart, so each can be named.
    assert [c["name"] for c in bo["lists"]["consequences"]] == [
        "physical hit (debilitates)",
        "physical hit (debilitates) 2",
    ]
    asp.rename_consequence(bo, "physical hit (debilitates) 2", "Broken nose")
    assert [c["name"] for c in bo["lists"]["consequences"]] == [
        "physical hit (debilitates)",
        "Broken nose",
    ]
    assert bo["lists"]["consequences"][1]["received"] == "2024-05-02"
    with pytest.raises(RuleError, match="already has the consequence 'broken nose'"):
        asp.rename_consequence(bo, "physical hit (debilitates)", "broken nose")
    with pytest.raises(RuleError, match="needs a name"):
        asp.rename_consequence(bo, "Broken nose", "  ")
    with pytest.raises(RuleError, match="no consequence 'Black eye'"):
        asp.rename_consequence(bo, "Black eye", "Shiner")
    asp.rename_consequence(bo, "Broken nose", "Broken Nose")  # its own name, recased
    bo["lists"]["consequences"].append("Sprain")  # a bare name, as an older save wrote it
    asp.rename_consequence(bo, "Sprain", "Twisted ankle")
    assert asp.consequence_names(bo)[-1] == "Twisted ankle"
    assert asp.downgrade_consequence(bo, "Twisted ankle", "") == [
        "Bo: Twisted ankle heals into Recovering from Twisted ankle"
    ]


def test_a_taken_out_character_reads_taken_out_not_past_its_limit() -> None:
    bo = pc()
    for _ in range(2):
        asp.resolve_attack(bo, 9, 0, "2024-05-01")
    asp.take_out(bo, asp.resolve_attack(bo, 9, 0, "2024-05-01"))
    assert asp.health_summary(bo) == "taken out · 0 inj 3 cons 0 FP"


# --- ASP-05 ---------------------------------------------------------------------------------


def test_asp05_defended_when_overlap_below_one() -> None:
    bo = pc()
    out = asp.resolve_attack(bo, 7, 7, "2024-05-01")
    assert (out.overlap, out.result, out.entry) == (0, "defended", None)
    assert bo["lists"]["injuries"] == [] and bo["lists"]["consequences"] == []


def test_asp05_minor_injury_up_to_stress_cap() -> None:
    bo = pc()
    out = asp.resolve_attack(bo, 10, 7, "2024-05-01", name="Grazed")
    assert (out.overlap, out.result) == (3, "minor injury")
    assert bo["lists"]["injuries"] == [
        {"name": "Grazed", "overlap": 3, "kind": "physical", "received": "2024-05-01"}
    ]


def test_asp05_consequence_above_stress_cap() -> None:
    bo = pc(mental_stress_cap=1)
    out = asp.resolve_attack(bo, 9, 7, "2024-05-02", kind="mental", name="Mortified")
    assert (out.overlap, out.result) == (2, "consequence")
    assert bo["lists"]["consequences"][0]["name"] == "Mortified"
    assert bo["lists"]["consequences"][0]["received"] == "2024-05-02"
    assert asp.damage_word(4) == "hurts"


@given(st.integers(-10, 30), st.integers(-10, 30), st.integers(0, 8))
def test_asp05_outcome_follows_overlap(attack: int, defence: int, cap: int) -> None:
    bo = pc(physical_stress_cap=cap)
    out = asp.resolve_attack(bo, attack, defence, "2024-05-01")
    diff = attack - defence
    if diff <= 0:
        assert out.result == "defended"
    elif diff <= cap:
        assert out.result == "minor injury"
    else:
        assert out.result == "consequence"


# --- ASP-06 ---------------------------------------------------------------------------------


def test_asp06_at_maximum_choose_darkest_self_doubling_caps() -> None:
    bo = pc()
    asp.resolve_attack(bo, 12, 6, "2024-05-01", name="Stabbed")
    asp.resolve_attack(bo, 12, 6, "2024-05-01", name="Shot")
    out = asp.resolve_attack(bo, 12, 6, "2024-05-01", name="Broken")
    assert out.choice_needed and out.result == "darkest self or taken out"
    assert len(bo["lists"]["consequences"]) == 2
    asp.enter_darkest_self(bo, out)
    assert bo["status"] == "darkest self"
    assert asp.consequence_limit(bo) == 4
    assert len(bo["lists"]["consequences"]) == 3
    asp.resolve_attack(bo, 12, 6, "2024-05-01", name="Burned")
    last = asp.resolve_attack(bo, 12, 6, "2024-05-01", name="Crushed")
    assert last.result == "taken out" and not last.choice_needed
    assert bo["status"] == "taken out"
    asp.new_scene(bo)
    assert bo["status"] == "alive"


def test_asp06_refusing_darkest_self_is_taken_out() -> None:
    grunt = pc("Bouncer", consequence_slots=0, physical_stress_cap=0)
    out = asp.resolve_attack(grunt, 8, 7, "2024-05-01")
    assert out.choice_needed
    asp.take_out(grunt, out)
    assert grunt["status"] == "taken out"
    assert len(grunt["lists"]["consequences"]) == 1
    with pytest.raises(RuleError):
        asp.take_out(grunt, asp.resolve_attack(pc(), 1, 5, "2024-05-01"))


# --- ASP-07 ---------------------------------------------------------------------------------


def test_asp07_consequence_downgrades_keeping_date() -> None:
    bo = pc()
    asp.resolve_attack(bo, 12, 6, "2024-05-01", name="Broken arm")
    asp.downgrade_consequence(bo, "broken arm", "Tender arm", "2024-05-22")
    assert bo["lists"]["consequences"] == []
    healed = bo["lists"]["temporary_aspects"][0]
    assert healed["name"] == "Tender arm" and healed["negative"] is True
    assert healed["received"] == "2024-05-01" and healed["downgraded"] == "2024-05-22"
    assert asp.days_since("2024-05-01", "2024-05-22") == 21
    assert any("21 days ago" in line for line in asp.wound_ages(bo, "2024-05-22"))
    asp.remove_temporary_aspect(bo, "Tender arm")
    assert bo["lists"]["temporary_aspects"] == []
    with pytest.raises(RuleError):
        asp.days_since("last week", "2024-05-22")


# --- ASP-08 ---------------------------------------------------------------------------------


def test_asp08_advancement_per_level_double_at_five_retire_at_six() -> None:
    assert [asp.advancements_for_level(n) for n in range(1, 7)] == [0, 1, 1, 1, 2, 0]
    bo = pc()
    for _ in range(4):
        asp.level_up(bo)
    assert bo["attributes"]["level"] == 5
    assert bo["advancements_pending"] == 5
    asp.take_advancement(bo, "skill", "Fight")
    asp.take_advancement(bo, "skill", "Streetwise")
    asp.take_advancement(bo, "move", "Inner Fire")
    assert bo["attributes"]["fight"] == 1 and bo["attributes"]["streetwise"] == 1
    assert bo["lists"]["moves"] == ["Inner Fire"]
    assert bo["advancements_pending"] == 2
    log = asp.level_up(bo)
    assert bo["status"] == "retired" and "must retire" in log[0]
    with pytest.raises(RuleError):
        asp.level_up(bo)


def test_asp08_playbook_change_keeps_xp() -> None:
    bo = pc(xp=7, level=3)
    bo["lists"]["moves"] = ["Ghostly"]
    asp.change_playbook(bo, "Ghoul")
    assert bo["playbook"] == "Ghoul"
    assert bo["attributes"]["xp"] == 7 and bo["attributes"]["level"] == 3
    assert bo["lists"]["moves"] == []


def test_asp08_no_advancement_pending() -> None:
    with pytest.raises(RuleError, match="no advancement"):
        asp.take_advancement(pc(), "move", "Anything")


# --- the ruleset object ---------------------------------------------------------------------


def test_ruleset_shape() -> None:
    assert RULESET.id == "aspects"
    assert RULESET.turn_model == "chosen_next"
    bo = pc()
    assert RULESET.health(bo) == "0 inj 0/2 cons 0 FP"
    assert isinstance(AspectsRoll((1, 1)).result.band, str)
    assert RULESET.check is not None
    assert RULESET.check(random.Random(2)).expression == "2d6"


def test_aspects_in_play_read_hand_edited_documents_as_none() -> None:
    from rulesets.aspects.advantage import holders

    assert asp.consequence_names({"lists": []}) == []
    assert asp.consequence_names({"lists": {"consequences": "Broken"}}) == []
    assert asp.consequence_names(None) == []
    party = [(1, {"name": "Bo", "lists": {"temporary_aspects": "oops"}})]
    fight = {
        "combatants": [
            {"id": "c5", "name": "Goblin", "side": "npc", "stats": {"sheet": {"lists": []}}},
            {"id": "c6", "name": "Ogre", "side": "npc", "stats": {"sheet": {"lists": {}}}},
        ],
        "scene_aspects": 3,
    }
    found = holders(party, (1, fight))
    assert [(name, entries) for name, entries, _ in found] == [
        ("Bo", []),
        ("Ogre", []),
        (asp.SCENE, []),
    ]
    assert asp.free_invoker("Wet floor", "Bo") == ""  # a bare name has no free invoke


def test_asp03_after_a_reroll_the_player_keeps_either_result() -> None:
    cy = asp.new_character("Cy")
    cy["resources"]["fate_points"]["current"] = 1
    first = asp.AspectsRoll(dice=(6, 5), skill=1, modifier=2)
    kept_first, second = asp.reroll(cy, first, random.Random(1))
    assert second.rerolled == ((6, 5), tuple(second.dice)) == kept_first.rerolled
    chose = asp.keep_reroll(second, "Cy", "first")
    assert chose.dice == (6, 5) and chose.total == 11 + 1 + 2 and "Cy keeps 11" in chose.notes[-1]
    back = asp.keep_reroll(chose, "Cy", "other")
    assert back.dice == second.dice and sum("Cy keeps" in n for n in back.notes) == 1
    with pytest.raises(asp.RuleError, match="not rerolled"):
        asp.keep_reroll(first, "Cy", "other")
