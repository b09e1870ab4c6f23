"""Party sheet commands (issue 6): derived maxes, enforcement, party-wide actions as one undo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.commands.party import OPS, AddPC, ChangePC, PartyAction, RemovePC, supported
from app.state import Campaign, CommandError
from rulesets.table import Context
from tests.apphelpers import open_demo


@pytest.fixture
def camp(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Campaign]:
    campaign = open_demo(tmp_path, request.param)
    yield campaign
    campaign.store.close()


def act(camp: Campaign, action: str, doc_id: int = 1, row: str = "", **values: object) -> list[str]:
    """Take the game's own party action as its key would: make its command, apply it."""
    ctx = Context(read=camp, game=camp.game, panel="party", pc_id=doc_id, row=row)
    return camp.apply(camp.game.action("party", action).make(ctx, values))


def pc(campaign: Campaign, doc_id: int = 1) -> dict[str, Any]:
    doc = campaign.doc("party", doc_id)
    assert doc is not None
    return doc


@pytest.mark.parametrize("camp", ["somnihil"], indirect=True)
def test_som10_third_protocol_refused(camp: Campaign) -> None:
    with pytest.raises(CommandError, match="at most two Protocols"):
        camp.apply(ChangePC(1, "add_item", ("spells", "Bend Time", "Timing")))
    camp.apply(ChangePC(1, "add_item", ("spells", "Erode", "Decay")))
    assert [s["name"] for s in pc(camp)["lists"]["spells"]][-1] == "Erode"


@pytest.mark.parametrize("camp", ["somnihil"], indirect=True)
def test_som04_som10_new_session_restores_ap_and_grows_spells_one_undo(camp: Campaign) -> None:
    camp.apply(ChangePC(1, "adjust", ("ap", -4)))
    camp.apply(ChangePC(2, "adjust", ("ap", -2)))
    lines = camp.apply(PartyAction("session"))
    assert pc(camp, 1)["resources"]["ap"]["current"] == 10
    assert pc(camp, 2)["resources"]["ap"]["current"] == 10
    assert pc(camp, 1)["sessions"] == 2
    assert any("AP restored" in line for line in lines)
    assert any(e.get("kind") == "section" for e in camp.log_entries())
    camp.undo()
    assert pc(camp, 1)["resources"]["ap"]["current"] == 6
    assert pc(camp, 2)["resources"]["ap"]["current"] == 8


@pytest.mark.parametrize("camp", ["somnihil"], indirect=True)
def test_som07_regroup_half_and_rest_full(camp: Campaign) -> None:
    camp.apply(ChangePC(1, "set_resource", ("vitality", 2)))
    camp.apply(PartyAction("regroup"))
    assert pc(camp)["resources"]["vitality"]["current"] == 5
    camp.apply(PartyAction("rest"))
    assert pc(camp)["resources"]["vitality"]["current"] == 10


@pytest.mark.parametrize("camp", ["somnihil"], indirect=True)
def test_som04_ap_cannot_go_over_max(camp: Campaign) -> None:
    camp.apply(ChangePC(1, "adjust", ("ap", 1)))
    assert pc(camp)["resources"]["ap"]["current"] == 10


@pytest.mark.parametrize("camp", ["resolution"], indirect=True)
def test_rr03_grip_max_rederived_from_int_wis(camp: Campaign) -> None:
    assert pc(camp)["resources"]["grip"]["max"] == 15  # WIS 15
    camp.apply(ChangePC(1, "set_attribute", ("int", 18)))
    assert pc(camp)["resources"]["grip"]["max"] == 18
    camp.apply(ChangePC(1, "set_attribute", ("int", 3)))
    camp.apply(ChangePC(1, "set_attribute", ("wis", 4)))
    assert pc(camp)["resources"]["grip"]["max"] == 10  # clamped up to 10


@pytest.mark.parametrize("camp", ["resolution"], indirect=True)
def test_rr04_deliria_not_removable_and_accepting_rolls(camp: Campaign) -> None:
    with pytest.raises(CommandError, match="never"):
        camp.apply(ChangePC(2, "remove_item", ("deliria", 0)))
    camp.apply(ChangePC(1, "add_item", ("deliria", "Fear of mirrors")))
    assert pc(camp)["lists"]["deliria"] == ["Fear of mirrors"]
    roll, event = camp.log_entries()[-2:]
    assert roll["kind"] == "roll" and roll["expression"].startswith("1d20")
    # What the roll changed is logged too, once, without repeating the roll line.
    assert event["kind"] == "event" and "Fear of mirrors" in event["text"]
    assert roll["expression"] not in event["text"]


@pytest.mark.parametrize("camp", ["resolution"], indirect=True)
def test_rr03_grip_check_logs_a_roll(camp: Campaign) -> None:
    before = pc(camp)["resources"]["grip"]["current"]
    act(camp, "grip_check", event="ordinary")
    roll = [e for e in camp.log_entries() if e.get("kind") == "roll"][-1]
    assert roll["who"] == "Mara Quell"
    assert pc(camp)["resources"]["grip"]["current"] in (before, before - 1)


@pytest.mark.parametrize("camp", ["resolution"], indirect=True)
def test_rr05_hp_hand_set_max_and_strain_max_from_con(camp: Campaign) -> None:
    camp.apply(ChangePC(1, "set_resource", ("hp", 5, 12)))
    assert pc(camp)["resources"]["hp"] == {"current": 5, "max": 12}
    with pytest.raises(CommandError, match="derived"):
        camp.apply(ChangePC(1, "set_resource", ("grip", 5, 12)))
    camp.apply(ChangePC(1, "set_attribute", ("con", 16)))
    assert pc(camp)["resources"]["system_strain"]["max"] == 16


@pytest.mark.parametrize("camp", ["shadows"], indirect=True)
def test_soh10_ap_per_round_rederived_from_quickness(camp: Campaign) -> None:
    camp.apply(ChangePC(1, "set_attribute", ("quickness", 16)))
    assert pc(camp)["resources"]["ap"]["max"] == 13
    camp.apply(ChangePC(1, "step_attribute", ("quickness", -15)))
    assert pc(camp)["resources"]["ap"]["max"] == 6


@pytest.mark.parametrize("camp", ["shadows"], indirect=True)
def test_soh04_new_session_carries_one_major_arcana(camp: Campaign) -> None:
    camp.apply(PartyAction("session", keep=(("1", "The Star"),)))
    assert [c["name"] for c in pc(camp)["lists"]["major_arcana"]] == ["The Star"]
    camp.undo()
    camp.apply(PartyAction("session"))
    assert pc(camp)["lists"]["major_arcana"] == []


@pytest.mark.parametrize("camp", ["nemron"], indirect=True)
def test_nem08_nem10_limb_hp_and_energy_rederived(camp: Campaign) -> None:
    camp.apply(ChangePC(1, "set_attribute", ("power", 4)))
    limbs = pc(camp)["tracks"]["limbs"]
    assert {v["max"] for v in limbs.values()} == {5 + 4 + 1 + 2}
    camp.apply(ChangePC(1, "set_attribute", ("focus", 3)))
    assert pc(camp)["resources"]["energy"]["max"] == 0 + 0 + 3 + 5


@pytest.mark.parametrize("camp", ["nemron"], indirect=True)
def test_nem13_xp_costs_enforced(camp: Campaign) -> None:
    # Kesh starts with 5 XP: Brawling rank 2 -> 3 costs 2, learning costs 1, a domain costs 2.
    act(camp, "rank_up", row="skill:Brawling")
    assert pc(camp)["resources"]["xp"]["current"] == 3
    camp.apply(ChangePC(1, "add_item", ("skills", "Climbing")))
    assert pc(camp)["resources"]["xp"]["current"] == 2
    camp.apply(ChangePC(1, "add_item", ("domains", "Brawling")))
    assert pc(camp)["resources"]["xp"]["current"] == 0
    with pytest.raises(CommandError, match="costs 2 XP"):
        camp.apply(ChangePC(1, "add_item", ("features", "Brawling", "Grapple")))
    act(camp, "award_xp", xp=2)
    camp.apply(ChangePC(1, "add_item", ("features", "Brawling", "Grapple")))
    assert pc(camp)["domains"]["Brawling"] == ["Grapple"]


@pytest.mark.parametrize("camp", ["nemron"], indirect=True)
def test_nem11_rest_heals_damaged_limbs_and_energy(camp: Campaign) -> None:
    camp.apply(ChangePC(1, "limb", ("left_arm", -4)))
    camp.apply(ChangePC(1, "adjust", ("energy", -3)))
    camp.apply(PartyAction("rest"))
    doc = pc(camp)
    assert doc["tracks"]["limbs"]["left_arm"]["hp"] > 6
    assert doc["resources"]["energy"]["current"] == doc["resources"]["energy"]["max"]


@pytest.mark.parametrize("camp", ["aspects"], indirect=True)
def test_asp02_fate_point_cap_and_scene_floor(camp: Campaign) -> None:
    camp.apply(PartyAction("scene"))
    assert pc(camp)["resources"]["fate_points"]["current"] == 1
    camp.apply(PartyAction("scene"))
    assert pc(camp)["resources"]["fate_points"]["current"] == 1
    camp.apply(ChangePC(1, "set_resource", ("fate_points", 5)))
    with pytest.raises(CommandError, match="already has 5 fate points"):
        camp.apply(ChangePC(1, "adjust", ("fate_points", 1)))
    assert pc(camp)["resources"]["fate_points"]["current"] == 5


@pytest.mark.parametrize("camp", ["aspects"], indirect=True)
def test_asp04_only_two_permanent_aspects(camp: Campaign) -> None:
    with pytest.raises(CommandError, match="only 2"):
        camp.apply(ChangePC(1, "add_item", ("aspects", "Third")))
    camp.apply(ChangePC(1, "add_item", ("temporary_aspects", "Soaked")))
    # ASP-07: the date on the campaign's calendar, not the real-world date of the session
    assert pc(camp)["lists"]["temporary_aspects"][0]["received"] == "Day 1"


@pytest.mark.parametrize("camp", ["aspects"], indirect=True)
def test_asp07_consequence_heals_into_negative_aspect_keeping_date(camp: Campaign) -> None:
    doc = pc(camp)
    doc["lists"]["consequences"].append({"name": "Broken arm", "received": "2024-03-01"})
    camp.store.db.table("party").update(doc, doc_ids=[1])
    with pytest.raises(CommandError, match="heals"):
        camp.apply(ChangePC(1, "remove_item", ("consequences", 0)))
    act(camp, "heal_consequence", row="item:consequences:0", aspect="Tender arm")
    healed = pc(camp)["lists"]["temporary_aspects"][-1]
    assert (healed["name"], healed["negative"], healed["received"]) == (
        "Tender arm",
        True,
        "2024-03-01",
    )
    assert pc(camp)["lists"]["consequences"] == []


@pytest.mark.parametrize("camp", ["aspects"], indirect=True)
def test_asp08_level_up_to_retire_at_6(camp: Campaign) -> None:
    for _ in range(4):
        act(camp, "level_up")
    assert pc(camp)["advancements_pending"] == 1 + 1 + 1 + 2
    act(camp, "level_up")
    assert pc(camp)["status"] == "retired"
    with pytest.raises(CommandError, match="retired"):
        act(camp, "level_up")


@pytest.mark.parametrize("camp", ["resolution"], indirect=True)
def test_add_and_remove_pc_and_bad_input(camp: Campaign) -> None:
    with pytest.raises(CommandError, match="name"):
        camp.apply(AddPC("   "))
    camp.apply(AddPC("Newcomer"))
    new_id = camp.rows("party")[-1][0]
    assert pc(camp, new_id)["resources"]["grip"]["max"] == 10
    with pytest.raises(CommandError):
        camp.apply(ChangePC(new_id, "set_attribute", ("str", 40)))
    with pytest.raises(CommandError):
        camp.apply(ChangePC(new_id, "set_resource", ("hp", -1)))
    camp.apply(RemovePC(new_id))
    assert camp.doc("party", new_id) is None


@pytest.mark.parametrize("camp", ["shadows"], indirect=True)
def test_party_action_without_a_rule_is_refused(camp: Campaign) -> None:
    with pytest.raises(CommandError, match="no rest rule"):
        camp.apply(PartyAction("rest"))


@pytest.mark.parametrize("camp", ["nemron"], indirect=True)
def test_nem08_minus_on_a_limb_row_is_the_games_limb_rule(camp: Campaign) -> None:
    camp.apply(ChangePC(1, "step", ("limb", "torso", -2)))
    assert pc(camp)["tracks"]["limbs"]["torso"]["hp"] == 8
    camp.apply(ChangePC(1, "limb", ("torso", 1)))  # the tracker's shorthand for the same row
    assert pc(camp)["tracks"]["limbs"]["torso"]["hp"] == 9


@pytest.mark.parametrize("camp", ["somnihil"], indirect=True)
def test_a_row_kind_the_game_lacks_is_refused_by_name(camp: Campaign) -> None:
    with pytest.raises(CommandError, match="Somnihil has no limbs"):
        camp.apply(ChangePC(1, "step", ("limb", "torso", -2)))


@pytest.mark.parametrize("camp", ["nemron"], indirect=True)
def test_nem10_regroup_for_the_hours_asked(camp: Campaign) -> None:
    camp.apply(ChangePC(1, "adjust", ("energy", -3)))
    top = pc(camp)["resources"]["energy"]["max"]
    camp.apply(PartyAction("regroup", hours=2))
    assert pc(camp)["resources"]["energy"]["current"] == top - 1


@pytest.mark.parametrize("camp", ["somnihil"], indirect=True)
def test_som09_a_perished_cipher_gets_the_fate_rule(camp: Campaign) -> None:
    doc = pc(camp)
    camp.store.db.table("party").update({**doc, "status": "perished"}, doc_ids=[1])
    lines = camp.apply(ChangePC(1, "status", ("spirit",)))
    assert pc(camp)["status"] == "spirit"
    assert pc(camp)["resources"]["ap"]["max"] == 15  # SOM-09: a spirit's AP max
    assert lines and "spirit" in " ".join(lines).lower()
    camp.apply(ChangePC(2, "status", ("passed",)))  # not perished: a plain status
    assert pc(camp, 2)["status"] == "passed"


@pytest.mark.parametrize("camp", ["resolution"], indirect=True)
def test_rr03_a_failed_major_grip_check_costs_two(camp: Campaign) -> None:
    for seed in range(200):
        camp.rng.seed(seed)
        before = pc(camp)["resources"]["grip"]["current"]
        act(camp, "grip_check", event="major")
        after = pc(camp)["resources"]["grip"]["current"]
        if after != before:
            assert before - after == 2
            return
        camp.undo()
    pytest.fail("no failed major Grip check in 200 seeds")


@pytest.mark.parametrize("camp", ["nemron"], indirect=True)
def test_nem13_rank_up_needs_an_attribute_or_skill_and_xp_a_positive_award(camp: Campaign) -> None:
    from rulesets.base import RuleError

    with pytest.raises(RuleError, match="Highlight an attribute or a skill"):
        act(camp, "rank_up", row="res:xp")
    with pytest.raises(RuleError, match="at least 1 XP"):
        act(camp, "award_xp", xp=0)
    act(camp, "rank_up", row="attr:agility")
    assert pc(camp)["attributes"]["agility"] == 2


@pytest.mark.parametrize("camp", ["resolution", "shadows"], indirect=True)
def test_a_rest_the_game_lacks_is_refused_and_a_session_always_works(camp: Campaign) -> None:
    rests = {"resolution": {"session", "rest"}, "shadows": {"session", "scene"}}[camp.ruleset.id]
    offered = {r for r in ("session", "scene", "regroup", "rest") if supported(camp.game.sheet, r)}
    assert offered == rests
    with pytest.raises(CommandError, match="no regroup / short rest rule"):
        camp.apply(PartyAction("regroup"))
    assert camp.apply(PartyAction("session"))[0] == "Session 1 begins"


def test_every_sheet_op_is_generic() -> None:
    assert set(OPS) == {
        "adjust", "set_resource", "step", "limb", "set_attribute", "step_attribute",
        "rename", "status", "notes", "add_item", "remove_item", "rename_item",
    }
